package metric

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
)

// TestRagasVectors checks every case of ragas's own tests and docs, with the
// scores ragas 0.4.3 gives, bit for bit.
func TestRagasVectors(t *testing.T) {
	data, err := os.ReadFile("testdata/toolcall_vectors.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	metrics := map[string]Metric{
		"tool_call_accuracy":              ToolCallAccuracy{},
		"tool_call_accuracy_any_order":    ToolCallAccuracy{AnyOrder: true},
		"tool_call_f1":                    ToolCallF1{},
		"tool_call_accuracy_levenshtein":  ToolCallAccuracy{ArgSimilarity: Levenshtein},
		"tool_call_accuracy_hamming":      ToolCallAccuracy{ArgSimilarity: Hamming},
		"tool_call_accuracy_jaro":         ToolCallAccuracy{ArgSimilarity: Jaro},
		"tool_call_accuracy_jaro_winkler": ToolCallAccuracy{ArgSimilarity: JaroWinkler},
	}
	n := 0
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var c struct {
			Case     string             `json:"case"`
			Sample   json.RawMessage    `json:"sample"`
			Expected map[string]float64 `json:"expected"`
			Warnings []string           `json:"ragas_warnings"`
		}
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		s, err := agentcheck.ParseSample(string(c.Sample))
		if err != nil {
			t.Errorf("%s: %v", c.Case, err)
			continue
		}
		for name, want := range c.Expected {
			m, ok := metrics[name]
			if !ok {
				t.Errorf("%s: no metric for %q", c.Case, name)
				continue
			}
			r, err := m.Evaluate(context.Background(), s)
			if err != nil {
				t.Errorf("%s: %s: %v", c.Case, name, err)
				continue
			}
			if math.Float64bits(r.Score) != math.Float64bits(want) {
				t.Errorf("%s: %s = %v, ragas gives %v", c.Case, name, r.Score, want)
			}
			n++
		}
		r, _ := ToolCallAccuracy{}.Evaluate(context.Background(), s)
		if len(r.Warnings) != len(c.Warnings) {
			t.Errorf("%s: warnings %q, ragas gives %q", c.Case, r.Warnings, c.Warnings)
		}
		for j := range c.Warnings {
			if j < len(r.Warnings) && !strings.HasPrefix(r.Warnings[j], c.Warnings[j]) {
				t.Errorf("%s: warning %q, ragas gives %q", c.Case, r.Warnings[j], c.Warnings[j])
			}
		}
	}
	if n < 200 {
		t.Fatalf("checked only %d scores", n)
	}
}
