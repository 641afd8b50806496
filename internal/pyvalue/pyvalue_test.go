package pyvalue_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/agentcheck/agentcheck/internal/pyvalue"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// pyStrTable holds JSON texts with Python's str() and repr() of what
// json.loads makes of them, computed by python3 (json.loads, str, repr).
// Strings with lone surrogates are written in WTF-8, as the parser keeps
// them.
var pyStrTable = []struct {
	json, str, repr string
}{
	{`1e-5`, "1e-05", "1e-05"},
	{`1.5e-7`, "1.5e-07", "1.5e-07"},
	{`0.0001`, "0.0001", "0.0001"},
	{`0.00012345`, "0.00012345", "0.00012345"},
	{`1e16`, "1e+16", "1e+16"},
	{`1e15`, "1000000000000000.0", "1000000000000000.0"},
	{`1e22`, "1e+22", "1e+22"},
	{`1e23`, "1e+23", "1e+23"},
	{`0.30000000000000004`, "0.30000000000000004", "0.30000000000000004"},
	{`-0.0`, "-0.0", "-0.0"},
	{`0.0`, "0.0", "0.0"},
	{`5e-324`, "5e-324", "5e-324"},
	{`1.7976931348623157e308`, "1.7976931348623157e+308", "1.7976931348623157e+308"},
	{`-2.2250738585072014e-308`, "-2.2250738585072014e-308", "-2.2250738585072014e-308"},
	{`75.0`, "75.0", "75.0"},
	{`1234567890123456.7`, "1234567890123456.8", "1234567890123456.8"},
	{`9999999999999998.0`, "9999999999999998.0", "9999999999999998.0"},
	{`123456789.123`, "123456789.123", "123456789.123"},
	{`1.0`, "1.0", "1.0"},
	{`-1.5`, "-1.5", "-1.5"},
	{`2.5e-5`, "2.5e-05", "2.5e-05"},
	{`1e100`, "1e+100", "1e+100"},
	{`0.1e1`, "1.0", "1.0"},
	{`1E400`, "inf", "inf"},
	{`-1e-400`, "-0.0", "-0.0"},
	{`1.0e-4`, "0.0001", "0.0001"},
	{`NaN`, "nan", "nan"},
	{`Infinity`, "inf", "inf"},
	{`-Infinity`, "-inf", "-inf"},
	{`0`, "0", "0"},
	{`-0`, "0", "0"},
	{`1000000000000000000000000000000`, "1000000000000000000000000000000", "1000000000000000000000000000000"},
	{`-12345678901234567890123`, "-12345678901234567890123", "-12345678901234567890123"},
	{`true`, "True", "True"},
	{`false`, "False", "False"},
	{`null`, "None", "None"},
	{`""`, "", "''"},
	{`"a"`, "a", "'a'"},
	{`"It's"`, "It's", "\"It's\""},
	{`"say \"hi\""`, "say \"hi\"", "'say \"hi\"'"},
	{`"both ' and \""`, "both ' and \"", "'both \\' and \"'"},
	{`"back\\slash"`, "back\\slash", "'back\\\\slash'"},
	{`"\\'"`, "\\'", "\"\\\\'\""},
	{`"\n\r\t"`, "\x0a\x0d\x09", "'\\n\\r\\t'"},
	{`"\u0000\u0001\u001b\u001f\u007f"`, "\x00\x01\x1b\x1f\x7f", "'\\x00\\x01\\x1b\\x1f\\x7f'"},
	{`"\u0080\u009f\u00a0\u00ad"`, "\u0080\u009f\u00a0\u00ad", "'\\x80\\x9f\\xa0\\xad'"},
	{`"\u00e9\u4e2d\ud83d\ude00"`, "é中😀", "'é中😀'"},
	{`"\u200b\u2028\u2029\u3000\ue000"`, "\u200b\u2028\u2029\u3000\ue000", "'\\u200b\\u2028\\u2029\\u3000\\ue000'"},
	{`"\udbff\udfff"`, "\U0010ffff", "'\\U0010ffff'"},
	{`"\ud800"`, "\xed\xa0\x80", "'\\ud800'"},
	{`"\udfff"`, "\xed\xbf\xbf", "'\\udfff'"},
	{`"\udc00\ud800"`, "\xed\xb0\x80\xed\xa0\x80", "'\\udc00\\ud800'"},
	{`"x\ud83dy"`, "x\xed\xa0\xbdy", "'x\\ud83dy'"},
	{`"\ufeff\ufffd\uffff"`, "\ufeff�\uffff", "'\\ufeff�\\uffff'"},
	{`"\u0378"`, "\u0378", "'\\u0378'"},
	{`"\udb40\udc01"`, "\U000e0001", "'\\U000e0001'"},
	{`"\udb80\udc00"`, "\U000f0000", "'\\U000f0000'"},
	{`"e\u0301"`, "é", "'é'"},
	{`" "`, " ", "' '"},
	{`[1, 1.0, true, null, "a", [], {}]`, "[1, 1.0, True, None, 'a', [], {}]", "[1, 1.0, True, None, 'a', [], {}]"},
	{`{"b": 1, "a": [1.5e-7, {"k'": "v\""}]}`, "{'b': 1, 'a': [1.5e-07, {\"k'\": 'v\"'}]}", "{'b': 1, 'a': [1.5e-07, {\"k'\": 'v\"'}]}"},
	{`{"": ""}`, "{'': ''}", "{'': ''}"},
	{`[[[]]]`, "[[[]]]", "[[[]]]"},
	{`{"x": {"y": {"z": 1e16}}}`, "{'x': {'y': {'z': 1e+16}}}", "{'x': {'y': {'z': 1e+16}}}"},
	{`[-0.0, 0.1, 1e-05, 123.0]`, "[-0.0, 0.1, 1e-05, 123.0]", "[-0.0, 0.1, 1e-05, 123.0]"},
	{`{"key\n": "val\t", "'": "\""}`, "{'key\\n': 'val\\t', \"'\": '\"'}", "{'key\\n': 'val\\t', \"'\": '\"'}"},
	{`["\ud800", "\u00e9", "\u00ad"]`, "['\\ud800', 'é', '\\xad']", "['\\ud800', 'é', '\\xad']"},
	{`{"n": 10000000000000000000000, "f": 1e22}`, "{'n': 10000000000000000000000, 'f': 1e+22}", "{'n': 10000000000000000000000, 'f': 1e+22}"},
}

func TestStrRepr(t *testing.T) {
	for _, tt := range pyStrTable {
		v, err := jsonvalue.Parse([]byte(tt.json))
		if err != nil {
			t.Errorf("jsonvalue.Parse(%s): %v", tt.json, err)
			continue
		}
		if got := pyvalue.Str(v); got != tt.str {
			t.Errorf("str(%s) = %q, Python gives %q", tt.json, got, tt.str)
		}
		if got := pyvalue.Repr(v); got != tt.repr {
			t.Errorf("repr(%s) = %q, Python gives %q", tt.json, got, tt.repr)
		}
		if got := string(pyvalue.AppendStr([]byte("x"), v)); got != "x"+tt.str {
			t.Errorf("AppendStr(%s) = %q", tt.json, got)
		}
	}
}

// TestStrOfGoValues covers values built from Go, with Python's str() of
// the same value (floats from float32 are widened first, as Python holds
// only doubles; map keys come out sorted).
func TestStrOfGoValues(t *testing.T) {
	big30, _ := new(big.Int).SetString("-1000000000000000000000000000000", 10)
	tests := []struct {
		in   any
		want string
	}{
		{nil, "None"},
		{true, "True"},
		{1, "1"},
		{int8(-8), "-8"},
		{uint64(math.MaxUint64), "18446744073709551615"},
		{int64(math.MinInt64), "-9223372036854775808"},
		{1.0, "1.0"},
		{float32(0.1), "0.10000000149011612"},
		{1e16, "1e+16"},
		{math.Copysign(0, -1), "-0.0"},
		{"It's", "It's"},
		{big30, "-1000000000000000000000000000000"},
		{json.Number("1.50"), "1.5"},
		{json.Number("7"), "7"},
		{json.RawMessage(`{"b": [1.0, "x"], "a": null}`), "{'b': [1.0, 'x'], 'a': None}"},
		{[]any{1, "a", nil, 2.5}, "[1, 'a', None, 2.5]"},
		{[]string{"x", "y'"}, `['x', "y'"]`},
		{map[string]any{"b": 1, "a": []int{1, 2}, "c": map[string]float64{"z": 0.5}}, "{'a': [1, 2], 'b': 1, 'c': {'z': 0.5}}"},
		{struct {
			A int     `json:"a"`
			B float64 `json:"b"`
		}{1, 2}, "{'a': 1, 'b': 2}"}, // encoding/json writes 2.0 as 2: an int
		{jsonvalue.MustParse(`{"k": 1e-05}`), "{'k': 1e-05}"},
	}
	for _, tt := range tests {
		v, err := jsonvalue.Of(tt.in)
		if err != nil {
			t.Errorf("jsonvalue.Of(%#v): %v", tt.in, err)
			continue
		}
		if got := pyvalue.Str(v); got != tt.want {
			t.Errorf("str(jsonvalue.Of(%#v)) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestAppendKey checks the F1 set key against Python: the pairs
// were compared by python3 as ragas does, as values of an argument made
// hashable (dict -> frozenset of items, list -> tuple) and compared with ==.
func TestAppendKey(t *testing.T) {
	tests := []struct {
		a, b  string
		equal bool
	}{
		{`1`, `1.0`, true},
		{`1`, `true`, true},
		{`1.0`, `true`, true},
		{`0`, `-0.0`, true},
		{`0`, `false`, true},
		{`-0.0`, `false`, true},
		{`0`, `null`, false},
		{`1e22`, `10000000000000000000000`, true},
		{`1e23`, `100000000000000000000000`, false},
		{`1e23`, `99999999999999991611392`, true},
		{`9007199254740992.0`, `9007199254740992`, true},
		{`9007199254740993`, `9007199254740992.0`, false},
		{`0.30000000000000004`, `0.3`, false},
		{`0.5`, `0.5`, true},
		{`"1"`, `1`, false},
		{`"True"`, `true`, false},
		{`"None"`, `null`, false},
		{`[]`, `{}`, false},
		{`[1, 2]`, `[2, 1]`, false},
		{`[1, 2]`, `[1.0, true]`, false},
		{`{"a": 1, "b": 2}`, `{"b": 2.0, "a": true}`, true},
		{`{"a": {"x": [1, {"p": 1, "q": 2}]}}`, `{"a": {"x": [1.0, {"q": 2, "p": 1}]}}`, true},
		{`{"a": 1}`, `{"a": 1, "b": null}`, false},
		{`{"a": null}`, `{"b": null}`, false},
		{`Infinity`, `Infinity`, true},
		{`Infinity`, `-Infinity`, false},
		{`1e400`, `Infinity`, true},
		{`NaN`, `NaN`, true},
		{`[NaN]`, `[NaN]`, true},
		{`""`, `null`, false},
		{`"a"`, `"a"`, true},
		{`"\ud800"`, `"\ud800"`, true},
		{`"\ud83d\ude00"`, `"\ud83d\ude00"`, true},
		{`1e16`, `10000000000000000`, true},
		{`-1e16`, `-10000000000000000`, true},
		{`2.5`, `2.50`, true},
	}
	key := func(s string) string {
		return string(pyvalue.AppendKey(nil, jsonvalue.MustParse(`{"k": `+s+`}`), nil))
	}
	for _, tt := range tests {
		if got := key(tt.a) == key(tt.b); got != tt.equal {
			t.Errorf("%s == %s: got %v, Python gives %v (keys %q, %q)", tt.a, tt.b, got, tt.equal, key(tt.a), key(tt.b))
		}
		// Equal compares as the keys do, without writing them.
		a, b := jsonvalue.MustParse(tt.a), jsonvalue.MustParse(tt.b)
		if got := pyvalue.Equal(a, b); got != tt.equal {
			t.Errorf("Equal(%s, %s) = %v, Python gives %v", tt.a, tt.b, got, tt.equal)
		}
	}
	// With a counter, as the best-match metric uses it, NaN equals nothing.
	n := 0
	a := string(pyvalue.AppendKey(nil, jsonvalue.MustParse(`[NaN]`), &n))
	b := string(pyvalue.AppendKey(nil, jsonvalue.MustParse(`[NaN]`), &n))
	if a == b {
		t.Errorf("with a counter, NaN keys %q and %q are equal", a, b)
	}
}

func Example() {
	v := jsonvalue.MustParse(`{"city": "Paris", "days": 2.0, "metric": true, "stops": null}`)
	fmt.Println(pyvalue.Str(v))
	fmt.Println(pyvalue.Repr(jsonvalue.String("it's")))
	a, b := jsonvalue.MustParse(`{"n": 1, "ok": true}`), jsonvalue.MustParse(`{"ok": 1.0, "n": true}`)
	fmt.Println(pyvalue.Equal(a, b), jsonvalue.Equal(a, b))
	// Output:
	// {'city': 'Paris', 'days': 2.0, 'metric': True, 'stops': None}
	// "it's"
	// true false
}
