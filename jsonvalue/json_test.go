package jsonvalue_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck/jsonvalue"
)

// sameValue compares Values as identical: the same JSON text, key order
// and number kinds included.
var sameValue = cmp.Comparer(func(a, b jsonvalue.Value) bool { return a.Kind() == b.Kind() && a.String() == b.String() })

// nonFinite reports whether v holds NaN or an infinity.
func nonFinite(v jsonvalue.Value) bool {
	if v.Kind() == jsonvalue.FloatKind {
		return math.IsNaN(v.Float()) || math.IsInf(v.Float(), 0)
	}
	for _, e := range v.Elements() {
		if nonFinite(e.Value) {
			return true
		}
	}
	return false
}

func TestValueJSONNonFinite(t *testing.T) {
	v := jsonvalue.MustParse(`{"a": [1, {"b": NaN}]}`)
	if out, err := json.Marshal(v); err == nil {
		t.Errorf("Expected json.Marshal to refuse a NaN, but it gives %s", out)
	}
	var w jsonvalue.Value
	if err := json.Unmarshal([]byte(`{"a": `), &w); err == nil {
		t.Errorf("Expected unfinished JSON not to unmarshal")
	}
}

// FuzzValueJSON: whatever Parse reads, encoding/json writes and reads
// back as the same Value, unless it holds NaN or an infinity, which it
// refuses to write.
func FuzzValueJSON(f *testing.F) {
	for _, s := range []string{`{"b": 1, "a": 1.0}`, `[1e3, -0.0, 12345678901234567890123]`, `"\u00e9\ud83d\ude42"`, `{"x": NaN}`, `null`, `{"a": 1, "a": 2}`, "\"\xff\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := jsonvalue.Parse(data)
		if err != nil {
			return
		}
		out, err := json.Marshal(v)
		if nonFinite(v) {
			if err == nil {
				t.Fatalf("Expected %s not to marshal, but it gives %s", v, out)
			}
			return
		}
		if err != nil {
			t.Fatalf("Expected %s to marshal, but: %v", v, err)
		}
		var w jsonvalue.Value
		if err := json.Unmarshal(out, &w); err != nil {
			t.Fatalf("Expected %s to unmarshal, but: %v", out, err)
		}
		if !cmp.Equal(v, w, sameValue) {
			t.Fatalf("Expected %s to read back as %s, but it reads %s", out, v, w)
		}
	})
}
