package agenttest

import (
	"encoding/json"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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

func TestValueStringRepr(t *testing.T) {
	for _, tt := range pyStrTable {
		v, err := ParseValue([]byte(tt.json))
		if err != nil {
			t.Errorf("ParseValue(%s): %v", tt.json, err)
			continue
		}
		if got := v.String(); got != tt.str {
			t.Errorf("str(%s) = %q, Python gives %q", tt.json, got, tt.str)
		}
		if got := v.Repr(); got != tt.repr {
			t.Errorf("repr(%s) = %q, Python gives %q", tt.json, got, tt.repr)
		}
	}
}

// TestValueOfString covers values built from Go, with Python's str() of
// the same value (floats from float32 are widened first, as Python holds
// only doubles; map keys come out sorted).
func TestValueOfString(t *testing.T) {
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
		{MustParseValue(`{"k": 1e-05}`), "{'k': 1e-05}"},
	}
	for _, tt := range tests {
		v, err := ValueOf(tt.in)
		if err != nil {
			t.Errorf("ValueOf(%#v): %v", tt.in, err)
			continue
		}
		if got := v.String(); got != tt.want {
			t.Errorf("ValueOf(%#v).String() = %q, want %q", tt.in, got, tt.want)
		}
	}
	if _, err := ValueOf(make(chan int)); err == nil || !strings.Contains(err.Error(), "chan int") {
		t.Errorf("ValueOf(chan) error = %v, want one naming the type", err)
	}
	if _, err := ValueOf([]any{1, map[string]any{"k": func() {}}}); err == nil || !strings.Contains(err.Error(), "[1]: k:") {
		t.Errorf("ValueOf(nested func) error = %v, want the path [1]: k:", err)
	}
}

// TestPyFloatRandom checks the one-pass float formatting against the plain
// two-pass definition (shortest digits in 'e' form, or in 'f' form with
// ".0" for integral values while the exponent is in [-4, 16)) on random
// doubles of every magnitude.
func TestPyFloatRandom(t *testing.T) {
	reference := func(f float64) string {
		e := strconv.FormatFloat(f, 'e', -1, 64)
		exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
		if exp < -4 || exp >= 16 {
			return e
		}
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	r := rand.New(rand.NewPCG(1, 2))
	check := func(f float64) {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return
		}
		if got, want := pyFloat(f), reference(f); got != want {
			t.Fatalf("pyFloat(%b) = %q, want %q", f, got, want)
		}
	}
	for range 200000 {
		check(math.Float64frombits(r.Uint64()))
		// Decimal-looking values around the fixed/exponent boundaries.
		check(float64(r.IntN(2000000)-1000000) * math.Pow10(r.IntN(30)-12))
	}
	for e := -330; e <= 310; e++ {
		check(math.Pow10(e))
		check(-math.Pow10(e))
		check(1.5 * math.Pow10(e))
	}
}

// TestCanonicalEquality checks the F1 set key against Python: the pairs
// were compared by python3 as ragas does, as values of an argument made
// hashable (dict -> frozenset of items, list -> tuple) and compared with ==.
func TestCanonicalEquality(t *testing.T) {
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
		return string(MustParseValue(`{"k": `+s+`}`).appendCanonical(nil, nil))
	}
	for _, tt := range tests {
		if got := key(tt.a) == key(tt.b); got != tt.equal {
			t.Errorf("%s == %s: got %v, Python gives %v (keys %q, %q)", tt.a, tt.b, got, tt.equal, key(tt.a), key(tt.b))
		}
	}
	// With a counter, as the best-match metric uses it, NaN equals nothing.
	n := 0
	a := string(MustParseValue(`[NaN]`).appendCanonical(nil, &n))
	b := string(MustParseValue(`[NaN]`).appendCanonical(nil, &n))
	if a == b {
		t.Errorf("with a counter, NaN keys %q and %q are equal", a, b)
	}
}

func TestValueAccessors(t *testing.T) {
	v := MustParseValue(`{"b": 1, "a": [true, 2.5, "x", null], "b": 10000000000000000000000, "c": {}}`)
	if v.Kind() != Object || v.Len() != 3 {
		t.Fatalf("kind %v len %d, want an object of 3 members (duplicate b collapsed)", v.Kind(), v.Len())
	}
	if diff := cmp.Diff([]string{"b", "a", "c"}, v.Keys()); diff != "" {
		t.Errorf("Keys (-want +got):\n%s", diff)
	}
	// A duplicate key keeps its first position and its last value, as a
	// Python dict does.
	b, ok := v.Get("b")
	if !ok || b.Kind() != Int || b.String() != "10000000000000000000000" {
		t.Errorf(`Get("b") = %v, %v; want the last value`, b, ok)
	}
	if _, ok := v.Get("missing"); ok {
		t.Error(`Get("missing") found something`)
	}
	if _, ok := MustParseValue(`[1]`).Get("0"); ok {
		t.Error("Get on an array found something")
	}
	a, _ := v.Get("a")
	if a.Kind() != Array || a.Len() != 4 || !a.Index(0).BoolValue() || a.Index(1).Float() != 2.5 || a.Index(2).Text() != "x" || a.Index(3).Kind() != Null {
		t.Errorf("array accessors: %v", a)
	}
	if a.Members() != nil || a.Keys() != nil {
		t.Error("an array has no members or keys")
	}
	if StringOf("x").Float() != 0 || IntOf(3).Text() != "" || IntOf(3).Float() != 3 {
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
	if got := MustParseValue(`-42`).Interface(); got != int64(-42) {
		t.Errorf("Interface of -42 = %#v", got)
	}
	for k, want := range map[Kind]string{Null: "null", Bool: "bool", Int: "int", Float: "float", String: "string", Array: "array", Object: "object", Kind(99): "Kind(99)"} {
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

// TestValueJSONRoundTrip: MarshalJSON keeps key order, number kinds,
// duplicates collapsed, NaN and Infinity as Python writes them, and lone
// surrogates as escapes, so that parsing the output gives an Equal value.
func TestValueJSONRoundTrip(t *testing.T) {
	tests := []struct{ in, out string }{
		{`{"b": 1, "a": 1.0, "c": [true, null, "x\"\\\n\u0001"]}`, `{"b":1,"a":1.0,"c":[true,null,"x\"\\\n\u0001"]}`},
		{`[1e16, 1e-05, -0.0, 10000000000000000000000]`, `[1e+16,1e-05,-0.0,10000000000000000000000]`},
		{`[NaN, Infinity, -Infinity]`, `[NaN,Infinity,-Infinity]`},
		{`"\ud800\u00e9\ud83d\ude00"`, `"\ud800é😀"`},
		{`{"k": 1, "k": 2}`, `{"k":2}`},
		{`{}`, `{}`},
	}
	for _, tt := range tests {
		v := MustParseValue(tt.in)
		got, err := v.MarshalJSON()
		if err != nil || string(got) != tt.out {
			t.Errorf("MarshalJSON(%s) = %s, %v; want %s", tt.in, got, err, tt.out)
			continue
		}
		back, err := ParseValue(got)
		if err != nil || !Equal(v, back) {
			t.Errorf("round trip of %s: %v, %v", tt.in, back, err)
		}
	}
}

func TestEqual(t *testing.T) {
	tests := []struct {
		a, b  string
		equal bool
	}{
		{`{"a": 1, "b": 2}`, `{"a": 1, "b": 2}`, true},
		{`{"a": 1, "b": 2}`, `{"b": 2, "a": 1}`, false}, // str() differs
		{`1`, `1.0`, false},
		{`1.0`, `1.00`, true},
		{`0.0`, `-0.0`, false},
		{`NaN`, `NaN`, true},
		{`true`, `1`, false},
		{`[1, [2]]`, `[1, [2]]`, true},
		{`[1, [2]]`, `[1, [2, 3]]`, false},
		{`"a"`, `"a"`, true},
		{`null`, `null`, true},
		{`[]`, `{}`, false},
	}
	for _, tt := range tests {
		if got := Equal(MustParseValue(tt.a), MustParseValue(tt.b)); got != tt.equal {
			t.Errorf("Equal(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.equal)
		}
	}
}
