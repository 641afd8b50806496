package agentcheck

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// The fast path reads the samples of the usual layout, which is the point
// of it: all of the spec's vectors that ragas
// can load and whose keys hold no escape, and none that it should leave to
// the general decoder (checkAgainstReference holds the two to the same
// result on every text either reads).
func TestFastReadsTheUsualLayout(t *testing.T) {
	var texts []string
	data, err := os.ReadFile("metric/testdata/toolcall_vectors.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec struct{ Sample json.RawMessage }
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Sample != nil {
			texts = append(texts, string(rec.Sample))
		}
	}
	read := 0
	for _, text := range texts {
		var d sampleDecoder
		d.p.Reset(text)
		_, ok, _ := d.fast(text)
		_, err := ParseSample(text)
		if ok {
			read++
		} else if err == nil && !strings.Contains(text, `"reference_topics"`) && !strings.Contains(text, `\`) && !strings.Contains(text, "null") {
			t.Errorf("the fast path leaves a sample of the usual layout to the general decoder: %s", text)
		}
	}
	if read < len(texts)*9/10 {
		t.Errorf("the fast path reads %d of %d samples, want at least 90%%", read, len(texts))
	}
}

// The fast path leaves to the general decoder what it does not read, so
// that the general decoder words the problem: each of these texts, some
// well formed and some not, is left to it.
func TestFastLeavesTheRest(t *testing.T) {
	for _, text := range []string{
		``,
		`[]`,
		`{}`,
		`{"user_input": []`,
		`{"user_input": [], "user_input": []}`,
		`{"user_inp\u0075t": []}`,
		`{"user_input": [{"type": "human", "content": null}]}`,
		`{"user_input": [{"type": "human", "type": "ai", "content": "x"}]}`,
		`{"user_input": [{"type": "robot", "content": "x"}]}`,
		`{"user_input": [{"type": "human", "content": "x", "tool_calls": []}]}`,
		`{"user_input": [{"type": "ai", "content": "x", "tool_calls": null}]}`,
		`{"user_input": [{"type": "ai", "content": "x", "tool_calls": [{"name": "f"}]}]}`,
		`{"user_input": [{"type": "ai", "content": "x", "tool_calls": [{"name": "f", "args": []}]}]}`,
		`{"user_input": [{"type": "ai", "content": "x", "tool_calls": [{"name": "f\n", "args": {}}]}]}`,
		`{"user_input": [], "reference_topics": ["a"]}`,
		`{"user_input": [], "reference": null}`,
		`{"user_input": [], "reference_tool_calls": null}`,
		`{"user_input": [{"type": "human", "content": "x"}]} x`,
		`{"user_input": [{"type": "human", "content": "x",}]}`,
		`{"user_input": [{"type": "human", "content": "\xff"}]}`,
	} {
		var d sampleDecoder
		d.p.Reset(text)
		if _, ok, _ := d.fast(text); ok {
			t.Errorf("the fast path read %q, which it should leave to the general decoder", text)
		}
		checkAgainstReference(t, text)
	}
}
