package agentcheck_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/google/go-cmp/cmp"
)

// randomValue makes a JSON value of every kind, numbers of both kinds
// (integral floats, big integers, negative zero), keys in no sorted
// order, strings with escapes and non-ASCII text.
func randomValue(r *rand.Rand, depth int) jsonvalue.Value {
	n := 7
	if depth <= 0 {
		n = 5
	}
	switch r.IntN(n) {
	case 0:
		return jsonvalue.Value{}
	case 1:
		return jsonvalue.Bool(r.IntN(2) == 0)
	case 2:
		switch r.IntN(3) {
		case 0:
			return jsonvalue.Int(r.Int64() - math.MaxInt64/2)
		case 1:
			return jsonvalue.MustParse("-123456789012345678901234567890")
		}
		return jsonvalue.Int(int64(r.IntN(10)))
	case 3:
		fs := []float64{float64(r.IntN(100)), r.NormFloat64() * 1e6, math.Copysign(0, -1), 1e-300, 1.5e300, 0.1}
		return jsonvalue.Float(fs[r.IntN(len(fs))])
	case 4:
		words := []string{"", "Paris", "São Paulo", "a\"b\\c", "tab\tnew\nline", "\u2028", "日本", "emoji 🙂", "\x01"}
		return jsonvalue.String(words[r.IntN(len(words))])
	case 5:
		items := make([]jsonvalue.Value, r.IntN(4))
		for i := range items {
			items[i] = randomValue(r, depth-1)
		}
		return jsonvalue.Array(items...)
	}
	keys := []string{"zeta", "alpha", "m", "", "Ä", "a.b", "b"}
	r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	ms := make([]jsonvalue.Member, r.IntN(len(keys)))
	for i := range ms {
		ms[i] = jsonvalue.Member{Key: keys[i], Value: randomValue(r, depth-1)}
	}
	return jsonvalue.Object(ms...)
}

// TestToolCallJSONRoundTrip: a ToolCall through encoding/json and back is
// the same call, its arguments' kinds and key order, its ID, kind and
// unparseable arguments included.
func TestToolCallJSONRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 5))
	kinds := []agentcheck.ToolKind{agentcheck.FunctionTool, agentcheck.MCPTool, agentcheck.HostedTool}
	for i := range 2000 {
		tc := agentcheck.ToolCall{Name: "tool_" + strconv.Itoa(i%7), Kind: kinds[r.IntN(3)]}
		if r.IntN(2) == 0 {
			tc.ID = "call_" + strconv.Itoa(i)
		}
		if r.IntN(6) == 0 {
			tc.InvalidArgs = `{"city": "Paris"`
		} else {
			tc.Args = randomValue(r, 3)
		}
		data, err := json.Marshal([]agentcheck.ToolCall{tc})
		if err != nil {
			t.Fatalf("Expected %s to marshal, but: %v", tc, err)
		}
		var back []agentcheck.ToolCall
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("Expected %s to unmarshal, but: %v", data, err)
		}
		if diff := cmp.Diff([]agentcheck.ToolCall{tc}, back, sameValue); diff != "" {
			t.Fatalf("Expected %s to read back as it was written, but (-wrote +read):\n%s", data, diff)
		}
	}
}

func TestToolCallJSONForm(t *testing.T) {
	tc := agentcheck.ToolCall{ID: "c1", Name: "book", Args: jsonvalue.MustParse(`{"z": 1, "a": 1.0}`), Kind: agentcheck.MCPTool}
	data, err := json.Marshal(tc)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"id":"c1","name":"book","args":{"z":1,"a":1.0},"kind":"mcp"}`; string(data) != want {
		t.Errorf("Expected the JSON %s, but got %s", want, data)
	}
	data, _ = json.Marshal(agentcheck.ToolCall{Name: "ping"})
	if want := `{"name":"ping","args":null}`; string(data) != want {
		t.Errorf("Expected the JSON %s, but got %s", want, data)
	}
}
