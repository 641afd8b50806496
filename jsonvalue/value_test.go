package jsonvalue_test

import (
	"encoding/json"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck/jsonvalue"
)

// TestOfString covers values built from Go, written back as JSON
// (floats from float32 are widened first, as Python holds only doubles; map
// keys come out sorted; ints and floats stay apart).
func TestOfString(t *testing.T) {
	big30, _ := new(big.Int).SetString("-1000000000000000000000000000000", 10)
	tests := []struct {
		in   any
		want string
	}{
		{nil, "null"},
		{true, "true"},
		{1, "1"},
		{int8(-8), "-8"},
		{uint64(math.MaxUint64), "18446744073709551615"},
		{int64(math.MinInt64), "-9223372036854775808"},
		{1.0, "1.0"},
		{float32(0.1), "0.10000000149011612"},
		{1e16, "1e+16"},
		{math.Copysign(0, -1), "-0.0"},
		{"It's", `"It's"`},
		{big30, "-1000000000000000000000000000000"},
		{json.Number("1.50"), "1.5"},
		{json.Number("7"), "7"},
		{json.RawMessage(`{"b": [1.0, "x"], "a": null}`), `{"b":[1.0,"x"],"a":null}`},
		{[]any{1, "a", nil, 2.5}, `[1,"a",null,2.5]`},
		{[]string{"x", "y'"}, `["x","y'"]`},
		{map[string]any{"b": 1, "a": []int{1, 2}, "c": map[string]float64{"z": 0.5}}, `{"a":[1,2],"b":1,"c":{"z":0.5}}`},
		{struct {
			A int     `json:"a"`
			B float64 `json:"b"`
		}{1, 2}, `{"a":1,"b":2}`}, // encoding/json writes 2.0 as 2: an int
		{jsonvalue.MustParse(`{"k": 1e-05}`), `{"k":1e-05}`},
	}
	for _, tt := range tests {
		v, err := jsonvalue.Of(tt.in)
		if err != nil {
			t.Errorf("Of(%#v): %v", tt.in, err)
			continue
		}
		if got := v.String(); got != tt.want {
			t.Errorf("Of(%#v).String() = %q, want %q", tt.in, got, tt.want)
		}
	}
	if _, err := jsonvalue.Of(make(chan int)); err == nil || !strings.Contains(err.Error(), "chan int") {
		t.Errorf("Of(chan) error = %v, want one naming the type", err)
	}
	if _, err := jsonvalue.Of([]any{1, map[string]any{"k": func() {}}}); err == nil || !strings.Contains(err.Error(), "[1]: k:") {
		t.Errorf("Of(nested func) error = %v, want the path [1]: k:", err)
	}
}

func TestValueAccessors(t *testing.T) {
	v := jsonvalue.MustParse(`{"b": 1, "a": [true, 2.5, "x", null], "b": 10000000000000000000000, "c": {}}`)
	if v.Kind() != jsonvalue.ObjectKind || v.Len() != 3 {
		t.Fatalf("kind %v len %d, want an object of 3 members (duplicate b collapsed)", v.Kind(), v.Len())
	}
	var keys []string
	for _, m := range v.Members() {
		keys = append(keys, m.Key)
	}
	if diff := cmp.Diff([]string{"b", "a", "c"}, keys); diff != "" {
		t.Errorf("keys of Members (-want +got):\n%s", diff)
	}
	// A duplicate key keeps its first position and its last value, as a
	// Python dict does.
	b, ok := v.Get("b")
	if !ok || b.Kind() != jsonvalue.IntKind || b.String() != "10000000000000000000000" || b.Text() != "10000000000000000000000" {
		t.Errorf(`Get("b") = %v, %v; want the last value`, b, ok)
	}
	if _, ok := v.Get("missing"); ok {
		t.Error(`Get("missing") found something`)
	}
	if _, ok := jsonvalue.MustParse(`[1]`).Get("0"); ok {
		t.Error("Get on an array found something")
	}
	a, _ := v.Get("a")
	if a.Kind() != jsonvalue.ArrayKind || a.Len() != 4 || !a.Index(0).BoolValue() || a.Index(1).Float() != 2.5 || a.Index(2).Text() != "x" || a.Index(3).Kind() != jsonvalue.NullKind {
		t.Errorf("array accessors: %v", a)
	}
	if a.Members() != nil {
		t.Error("an array has no members")
	}
	// Text is a String's text or an Int's digits, and "" for other kinds.
	if jsonvalue.String("x").Float() != 0 || jsonvalue.Int(3).Text() != "3" || jsonvalue.Int(3).Float() != 3 ||
		jsonvalue.Float(3).Text() != "" || jsonvalue.Bool(true).Text() != "" || (jsonvalue.Value{}).Text() != "" {
		t.Error("scalar accessors of the wrong kind")
	}
	want := map[string]any{
		"b": mustBig(t, "10000000000000000000000"),
		"a": []any{true, 2.5, "x", nil},
		"c": map[string]any{},
	}
	if diff := cmp.Diff(want, v.Interface(), cmp.Comparer(func(x, y *big.Int) bool { return x.Cmp(y) == 0 })); diff != "" {
		t.Errorf("Interface (-want +got):\n%s", diff)
	}
	if got := jsonvalue.MustParse(`-42`).Interface(); got != int64(-42) {
		t.Errorf("Interface of -42 = %#v", got)
	}
	kinds := map[jsonvalue.Kind]string{
		jsonvalue.NullKind: "null", jsonvalue.BoolKind: "bool", jsonvalue.IntKind: "int", jsonvalue.FloatKind: "float",
		jsonvalue.StringKind: "string", jsonvalue.ArrayKind: "array", jsonvalue.ObjectKind: "object", jsonvalue.Kind(99): "Kind(99)",
	}
	for k, want := range kinds {
		if k.String() != want {
			t.Errorf("Kind(%d).String() = %q, want %q", k, k.String(), want)
		}
	}
}

func mustBig(t *testing.T, s string) *big.Int {
	t.Helper()
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("bad big int %q", s)
	}
	return n
}

// TestValueJSONRoundTrip: MarshalJSON, and String, keep key order, number
// kinds, duplicates collapsed, NaN and Infinity as Python writes them, and
// lone surrogates as escapes, so that parsing the output gives the same
// value.
func TestValueJSONRoundTrip(t *testing.T) {
	tests := []struct{ in, out string }{
		{`{"b": 1, "a": 1.0, "c": [true, null, "x\"\\\n\u0001"]}`, `{"b":1,"a":1.0,"c":[true,null,"x\"\\\n\u0001"]}`},
		{`[1e16, 1e-05, -0.0, 10000000000000000000000]`, `[1e+16,1e-05,-0.0,10000000000000000000000]`},
		{`[NaN, Infinity, -Infinity]`, `[NaN,Infinity,-Infinity]`},
		{`"\ud800\u00e9\ud83d\ude00"`, `"\ud800é😀"`},
		{`{"k": 1, "k": 2}`, `{"k":2}`},
		{`{}`, `{}`},
		{`"tab\tcr\r"`, `"tab\tcr\r"`},
	}
	for _, tt := range tests {
		v := jsonvalue.MustParse(tt.in)
		got, err := v.MarshalJSON()
		if err != nil || string(got) != tt.out || v.String() != tt.out {
			t.Errorf("MarshalJSON(%s) = %s, %v, String %s; want %s", tt.in, got, err, v.String(), tt.out)
			continue
		}
		back, err := jsonvalue.Parse(got)
		if err != nil || back.String() != v.String() || !strings.Contains(tt.in, "NaN") && !jsonvalue.Equal(v, back) {
			t.Errorf("round trip of %s: %v, %v", tt.in, back, err)
		}
	}
}

// TestEqual: Equal is JSON equality. Numbers are equal by exact value
// whatever their spelling or kind, objects whatever their key order; a
// boolean is no number, a string no number, and NaN equals nothing.
func TestEqual(t *testing.T) {
	tests := []struct {
		a, b  string
		equal bool
	}{
		{`{"a": 1, "b": 2}`, `{"a": 1, "b": 2}`, true},
		{`{"a": 1, "b": 2}`, `{"b": 2, "a": 1}`, true},
		{`{"a": {"x": [1, {"p": 1, "q": 2}]}}`, `{"a": {"x": [1.0, {"q": 2, "p": 1}]}}`, true},
		{`{"a": 1}`, `{"a": 1, "b": null}`, false},
		{`{"a": null}`, `{"b": null}`, false},
		{`1`, `1.0`, true},
		{`10`, `10.0`, true},
		{`10`, `1e1`, true},
		{`1.0`, `1.00`, true},
		{`2.5`, `2.50`, true},
		{`0.0`, `-0.0`, true},
		{`0`, `-0.0`, true},
		{`1e22`, `10000000000000000000000`, true},
		{`1e23`, `100000000000000000000000`, false},
		{`1e23`, `99999999999999991611392`, true},
		{`9007199254740993`, `9007199254740992.0`, false},
		{`0.30000000000000004`, `0.3`, false},
		{`Infinity`, `1e400`, true},
		{`Infinity`, `-Infinity`, false},
		{`NaN`, `NaN`, false},
		{`[NaN]`, `[NaN]`, false},
		{`{"k": NaN}`, `{"k": NaN}`, false},
		{`true`, `1`, false},
		{`false`, `0`, false},
		{`true`, `true`, true},
		{`null`, `false`, false},
		{`"1"`, `1`, false},
		{`"True"`, `true`, false},
		{`[1, [2]]`, `[1, [2]]`, true},
		{`[1, 2]`, `[2, 1]`, false},
		{`[1, [2]]`, `[1, [2, 3]]`, false},
		{`"a"`, `"a"`, true},
		{`"\ud800"`, `"\ud800"`, true},
		{`"é"`, `"e\u0301"`, false},
		{`null`, `null`, true},
		{`[]`, `{}`, false},
		{`""`, `null`, false},
	}
	for _, tt := range tests {
		a, b := jsonvalue.MustParse(tt.a), jsonvalue.MustParse(tt.b)
		if got := jsonvalue.Equal(a, b); got != tt.equal {
			t.Errorf("Equal(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.equal)
		}
		if got := jsonvalue.Equal(b, a); got != tt.equal {
			t.Errorf("Equal(%s, %s) = %v, want %v", tt.b, tt.a, got, tt.equal)
		}
	}
	if jsonvalue.Equal(jsonvalue.Float(math.NaN()), jsonvalue.Float(math.NaN())) {
		t.Error("NaN equals NaN")
	}
}

// TestSource: an array or object read from text has that text, byte for
// byte, as its Source, at every depth and whatever the spacing; a value
// built in code, and every scalar, has none.
func TestSource(t *testing.T) {
	text := " {\"a\" : [1, {\"b\":\"c\"} ],\n \"d\": {}, \"e\": {\"f\": 1.5, \"g\": null}} "
	v := jsonvalue.MustParse(text)
	if got, want := v.Source(), strings.TrimSpace(text); got != want {
		t.Errorf("Source() = %q, want %q", got, want)
	}
	a, _ := v.Get("a")
	d, _ := v.Get("d")
	e, _ := v.Get("e")
	f, _ := e.Get("f")
	for _, tt := range []struct {
		v    jsonvalue.Value
		want string
	}{
		{a, `[1, {"b":"c"} ]`},
		{a.Index(1), `{"b":"c"}`},
		{a.Index(0), ""},
		{d, `{}`},
		{e, `{"f": 1.5, "g": null}`},
		{f, ""},
		{jsonvalue.Object(jsonvalue.Member{Key: "b", Value: jsonvalue.String("c")}), ""},
		{jsonvalue.Array(jsonvalue.Int(1)), ""},
		{jsonvalue.String("x"), ""},
	} {
		if got := tt.v.Source(); got != tt.want {
			t.Errorf("Source() of %s = %q, want %q", tt.v, got, tt.want)
		}
	}
	// A Decoder's values have theirs too.
	var dec jsonvalue.Decoder
	dec.Reset(`[{"x": [2]} ]`)
	if more, err := dec.NextElem(true); !more || err != nil {
		t.Fatalf("NextElem = %v, %v", more, err)
	}
	x, err := dec.Value(1)
	if err != nil || x.Source() != `{"x": [2]}` {
		t.Errorf("Decoder.Value = %s, %v with Source() %q, want Source() %q", x, err, x.Source(), `{"x": [2]}`)
	}
}
