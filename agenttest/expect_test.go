package agenttest_test

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/trajectory"
)

// matchRegexp has the shape of Gomega's MatchRegexp (agenttest does not
// import Gomega, not even in tests; the matchers package tests the real
// one): Match, and a FailureMessage on several lines.
type matchRegexp struct{ Regexp string }

func (m *matchRegexp) Match(actual any) (bool, error) {
	s, ok := actual.(string)
	if !ok {
		return false, fmt.Errorf("RegExp matcher requires a string.\nGot: %T", actual)
	}
	return regexp.MustCompile(m.Regexp).MatchString(s), nil
}

func (m *matchRegexp) FailureMessage(actual any) string {
	return fmt.Sprintf("Expected\n    <string>: %v\nto match regular expression\n    <string>: %s", actual, m.Regexp)
}

func call(name, args string) agentcheck.ToolCall { return agentcheck.MustParseToolCall(name, args) }

// diffOf returns the report of one expected call against one actual call.
func diffOf(e agenttest.ExpectedCall, tc agentcheck.ToolCall) agenttest.Report {
	return agenttest.CheckToolCalls([]agentcheck.ToolCall{tc}, trajectory.Strict, e)
}

func TestArgValues(t *testing.T) {
	tests := []struct {
		name string
		want any
		args string // actual arguments
		ok   bool
		diff []string // lines the report must contain when !ok
	}{
		{"int equals float", 10, `{"x":10.0}`, true, nil},
		{"float equals int", 10.0, `{"x":10}`, true, nil},
		{"numbers differ", 10, `{"x":10.5}`, false, []string{"- x: 10", "+ x: 10.5"}},
		{"big ints exact", int64(1) << 62, `{"x":4611686018427387905}`, false, []string{"- x: 4611686018427387904"}},
		{"big int equals its float", int64(1) << 62, `{"x":4.611686018427387904e18}`, true, nil},
		{"string exact", "Paris", `{"x":"Paris"}`, true, nil},
		{"string case", "Paris", `{"x":"paris"}`, false, []string{`- x: "Paris"`, `+ x: "paris"`}},
		{"string is not number", "1", `{"x":1}`, false, []string{`- x: "1"`, `+ x: 1`}},
		{"bool exact", true, `{"x":true}`, true, nil},
		{"bool is not 1", true, `{"x":1}`, false, []string{"- x: true", "+ x: 1"}},
		{"null", nil, `{"x":null}`, true, nil},
		{"null is not missing", nil, `{}`, false, []string{"- x: null  (missing)"}},
		{"null is not false", nil, `{"x":false}`, false, []string{"- x: null", "+ x: false"}},
		{"object any key order", map[string]any{"a": 1, "b": []any{1, "2"}}, `{"x":{"b":[1,"2"],"a":1.0}}`, true, nil},
		{"object extra key", map[string]any{"a": 1}, `{"x":{"a":1,"b":2}}`, false, []string{"+ x.b: 2  (unexpected)"}},
		{"object missing key", map[string]any{"a": 1, "b": 2}, `{"x":{"a":1}}`, false, []string{"- x.b: 2  (missing)"}},
		{"list order matters", []any{1, 2}, `{"x":[2,1]}`, false, []string{"- x[0]: 1", "+ x[0]: 2", "- x[1]: 2", "+ x[1]: 1"}},
		{"list longer", []any{1}, `{"x":[1,2]}`, false, []string{"+ x[1]: 2  (unexpected)"}},
		{"list shorter", []int{1, 2}, `{"x":[1]}`, false, []string{"- x: [1,2]", "+ x: [1]"}},
		{"typed slice", []string{"a", "b"}, `{"x":["a","b"]}`, true, nil},
		{"struct via JSON", struct {
			City string `json:"city"`
		}{"Paris"}, `{"x":{"city":"Paris"}}`, true, nil},
		{"nested matcher", agenttest.Args{"date": &matchRegexp{`^2024-01-\d\d$`}}, `{"x":{"date":"2024-02-01"}}`, false,
			[]string{"- x.date: matchRegexp(`^2024-01-\\d\\d$`)", `+ x.date: "2024-02-01"`,
				`Expected <string>: 2024-02-01 to match regular expression <string>: ^2024-01-\d\d$`}},
		{"regexp matches", &matchRegexp{`^2024-01-\d\d$`}, `{"x":"2024-01-31"}`, true, nil},
		{"regexp on a number", &matchRegexp{`^1$`}, `{"x":1}`, false, []string{"RegExp matcher requires a string. Got: int64"}},
		{"matcher on missing key", &matchRegexp{`.`}, `{}`, false, []string{`- x: matchRegexp(".")  (missing)`}},
		{"approx in", agenttest.Approx(3.1, 0.01), `{"x":3.105}`, true, nil},
		{"approx int", agenttest.Approx(3, 0.5), `{"x":3}`, true, nil},
		{"approx edge", agenttest.Approx(1, 0.5), `{"x":1.5}`, true, nil},
		{"approx out", agenttest.Approx(3.1, 0.01), `{"x":3.2}`, false, []string{"- x: Approx(3.1, 0.01)", "+ x: 3.2"}},
		{"approx not a number", agenttest.Approx(3.1, 0.01), `{"x":"3.1"}`, false, []string{`+ x: "3.1"`, "not a number"}},
		{"approx bool", agenttest.Approx(1, 0.5), `{"x":true}`, false, []string{"+ x: true"}},
		{"one of", agenttest.OneOf("A", "B"), `{"x":"B"}`, true, nil},
		{"one of none", agenttest.OneOf("A", "B"), `{"x":"C"}`, false, []string{`- x: OneOf("A", "B")`, `+ x: "C"`}},
		{"one of matcher", agenttest.OneOf(agenttest.Approx(1, 0.1), "one"), `{"x":1.05}`, true, nil},
		{"one of null or absent: null", agenttest.OneOf(nil, agenttest.Absent()), `{"x":null}`, true, nil},
		{"one of null or absent: absent", agenttest.OneOf(nil, agenttest.Absent()), `{}`, true, nil},
		{"one of null or absent: value", agenttest.OneOf(nil, agenttest.Absent()), `{"x":0}`, false, []string{"- x: OneOf(null, Absent())", "+ x: 0"}},
		{"one of without absent, missing", agenttest.OneOf(nil, 1), `{}`, false, []string{"- x: OneOf(null, 1)  (missing)"}},
		{"absent", agenttest.Absent(), `{}`, true, nil},
		{"absent is not null", agenttest.Absent(), `{"x":null}`, false, []string{"- x: Absent()", "+ x: null"}},
		{"anything", agenttest.Anything(), `{"x":[1]}`, true, nil},
		{"anything null", agenttest.Anything(), `{"x":null}`, true, nil},
		{"anything needs the key", agenttest.Anything(), `{}`, false, []string{"- x: Anything()  (missing)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := agenttest.CallTo("f").With(agenttest.Args{"x": tt.want})
			r := diffOf(e, call("f", tt.args))
			if r.OK() != tt.ok {
				t.Fatalf("OK() = %v, want %v; report:\n%s", r.OK(), tt.ok, r)
			}
			for _, line := range tt.diff {
				if !strings.Contains(r.String(), line) {
					t.Errorf("report lacks %q:\n%s", line, r)
				}
			}
			if got := agenttest.CountCalls([]agentcheck.ToolCall{call("f", tt.args)}, e); got != map[bool]int{true: 1}[tt.ok] {
				t.Errorf("CountCalls = %d, want %d", got, map[bool]int{true: 1}[tt.ok])
			}
		})
	}
}

func TestMatchersOutsideArgs(t *testing.T) {
	for _, tt := range []struct {
		m      agenttest.ArgMatcher
		actual any
		ok     bool
		err    string
	}{
		{agenttest.Approx(2, 0.1), 2.05, true, ""},
		{agenttest.Approx(2, 0.1), int64(2), true, ""},
		{agenttest.Approx(2, 0.1), 2.5, false, ""},
		{agenttest.Approx(2, 0.1), "2", false, `Approx(2, 0.1): not a number: "2"`},
		{agenttest.OneOf(1, "a"), 1.0, true, ""},
		{agenttest.OneOf(1, "a"), "b", false, ""},
		{agenttest.Anything(), nil, true, ""},
		{agenttest.Absent(), nil, false, ""},
	} {
		ok, err := tt.m.Match(tt.actual)
		errText := ""
		if err != nil {
			errText = err.Error()
		}
		if ok != tt.ok || errText != tt.err {
			t.Errorf("%v.Match(%#v) = %v, %q; want %v, %q", tt.m, tt.actual, ok, errText, tt.ok, tt.err)
		}
	}
}

func TestExpectedCallForms(t *testing.T) {
	tests := []struct {
		e      agenttest.ExpectedCall
		str    string
		accept []string // argument objects of calls to f it accepts
		reject map[string]string
	}{
		{
			e:      agenttest.CallTo("f"),
			str:    "f(...)",
			accept: []string{`{}`, `null`, `{"a":1}`},
		},
		{
			e:      agenttest.CallTo("f").WithNoArgs(),
			str:    "f()",
			accept: []string{`{}`, `null`},
			reject: map[string]string{`{"a":1}`: "+ a: 1  (unexpected)"},
		},
		{
			e:      agenttest.CallTo("f").With(agenttest.Args{"city": "Paris", "n": 2}),
			str:    `f(city: "Paris", n: 2)`,
			accept: []string{`{"n":2.0,"city":"Paris"}`},
			reject: map[string]string{
				`{"city":"Paris","n":2,"lang":"en"}`: `+ lang: "en"  (unexpected)`,
				`{"city":"Paris"}`:                   "- n: 2  (missing)",
			},
		},
		{
			e:      agenttest.CallTo("f").With(agenttest.Args{"city": "Paris"}).AllowingExtraArgs(),
			str:    `f(city: "Paris", ...)`,
			accept: []string{`{"city":"Paris","lang":"en","n":1}`},
			reject: map[string]string{`{"lang":"en"}`: `- city: "Paris"  (missing)`},
		},
		{
			e:      agenttest.CallTo("f").With(agenttest.Args{"city": "Paris", "trace_id": "abc"}).Ignoring("trace_id", "ts"),
			str:    `f(city: "Paris", trace_id: ignored, ts: ignored)`,
			accept: []string{`{"city":"Paris"}`, `{"city":"Paris","trace_id":"zzz","ts":1}`},
			reject: map[string]string{`{"city":"Paris","trace_id":"zzz","other":1}`: "+ other: 1  (unexpected)"},
		},
		{
			e:      agenttest.CallTo("f").With(agenttest.Args{"a b": 1, "when": agenttest.Args{"from": agenttest.Approx(1, 0.5)}}),
			str:    `f("a b": 1, when: {"from":Approx(1, 0.5)})`,
			accept: []string{`{"when":{"from":1.2},"a b":1}`},
			reject: map[string]string{
				`{"a b":1,"when":{"from":2}}`:        "- when.from: Approx(1, 0.5)",
				`{"a b":1,"when":{"from":1,"to":2}}`: "+ when.to: 2  (unexpected)",
				`{"a b":1,"when":3}`:                 `- when: {"from":Approx(1, 0.5)}`,
				`{"when":{"from":1}}`:                `- "a b": 1  (missing)`,
			},
		},
	}
	for _, tt := range tests {
		if got := tt.e.String(); got != tt.str {
			t.Errorf("String() = %s, want %s", got, tt.str)
		}
		for _, args := range tt.accept {
			if c := call("f", "{}"); args != "null" {
				c = call("f", args)
				if !tt.e.Matches(c) {
					t.Errorf("%s does not accept f(%s):\n%s", tt.e, args, diffOf(tt.e, c))
				}
			} else if c := (agentcheck.ToolCall{Name: "f"}); !tt.e.Matches(c) {
				t.Errorf("%s does not accept f without arguments", tt.e)
			}
		}
		for args, line := range tt.reject {
			r := diffOf(tt.e, call("f", args))
			if r.OK() {
				t.Errorf("%s accepts f(%s)", tt.e, args)
			} else if !strings.Contains(r.String(), line) {
				t.Errorf("%s against f(%s): report lacks %q:\n%s", tt.e, args, line, r)
			}
		}
		if tt.e.Matches(call("g", "{}")) {
			t.Errorf("%s accepts a call to g", tt.e)
		}
	}
}

// With copies its map, so changing the caller's map later changes nothing.
func TestWithCopiesArgs(t *testing.T) {
	args := agenttest.Args{"a": 1}
	e := agenttest.CallTo("f").With(args)
	args["a"] = 2
	if !e.Matches(call("f", `{"a":1}`)) {
		t.Errorf("the expectation changed with the caller's map: %s", e)
	}
	base := agenttest.CallTo("f").With(agenttest.Args{"a": 1})
	_ = base.Ignoring("x")
	if got := base.String(); got != "f(a: 1)" {
		t.Errorf("Ignoring changed its receiver: %s", got)
	}
}

func calls(specs ...string) []agentcheck.ToolCall {
	var out []agentcheck.ToolCall
	for _, s := range specs {
		name, args, _ := strings.Cut(s, " ")
		if args == "" {
			args = "{}"
		}
		out = append(out, call(name, args))
	}
	return out
}

func TestOrders(t *testing.T) {
	get := func(id int) agenttest.ExpectedCall { return agenttest.CallTo("get").With(agenttest.Args{"id": id}) }
	tests := []struct {
		name     string
		actual   []agentcheck.ToolCall
		order    trajectory.Mode
		expected []agenttest.ExpectedCall
		ok       bool
		lines    []string
	}{
		{"exactly same", calls(`get {"id":1}`, `get {"id":2}`), trajectory.Strict, []agenttest.ExpectedCall{get(1), get(2)}, true,
			[]string{"The 2 tool calls made are exactly these 2, in this order:", `= [0] get(id: 1)  [0] get(id: 1)`}},
		{"exactly swapped", calls(`get {"id":2}`, `get {"id":1}`), trajectory.Strict, []agenttest.ExpectedCall{get(1), get(2)}, false,
			[]string{"want[0] get not found: got[1] matches it but is out of order", "(1 missing, 1 unexpected;"}},
		{"exactly extra call", calls(`get {"id":1}`, `log {"m":"x"}`, `get {"id":2}`), trajectory.Strict, []agenttest.ExpectedCall{get(1), get(2)}, false,
			[]string{"to be exactly these 2, in this order (1 unexpected; -want +got):", `+                 [1] log(m: "x")`}},
		{"exactly missing call", calls(`get {"id":1}`), trajectory.Strict, []agenttest.ExpectedCall{get(1), get(2)}, false,
			[]string{"(1 missing;", "- [1] get(id: 2)", "want[1] get not found; closest is got[0], already paired with want[0]:", "- id: 2", "+ id: 1"}},
		{"exactly other tool", calls(`lookup {"id":1}`), trajectory.Strict, []agenttest.ExpectedCall{get(1)}, false,
			[]string{"~ [0] get(id: 1)  [0] lookup(id: 1)", "tool: want get, got lookup"}},
		{"exactly none expected", calls(`get {"id":1}`), trajectory.Strict, nil, false,
			[]string{"Expected no tool calls, but 1 was made"}},
		{"exactly none made", nil, trajectory.Strict, []agenttest.ExpectedCall{get(1)}, false,
			[]string{"Expected the tool calls to be exactly this call, but no tool calls were made", "want[0] get not found: no tool calls were made"}},
		{"exactly nothing", nil, trajectory.Strict, nil, true, []string{"No tool calls were made, as expected."}},
		{"in order with calls between", calls(`log {}`, `get {"id":1}`, `log {}`, `get {"id":9}`, `get {"id":2}`, `log {}`), trajectory.InOrder, []agenttest.ExpectedCall{get(1), get(2)}, true,
			[]string{"The 6 tool calls made include these 2 in this order:"}},
		{"in order, out of order", calls(`get {"id":2}`, `log {}`, `get {"id":1}`), trajectory.InOrder, []agenttest.ExpectedCall{get(1), get(2)}, false,
			[]string{"include these 2 in this order (1 not found;", "matches it but is out of order"}},
		{"in order, arguments differ", calls(`log {}`, `get {"id":1}`, `get {"id":3}`), trajectory.InOrder, []agenttest.ExpectedCall{get(1), get(2)}, false,
			[]string{"~ [1] get(id: 2)  [2] get(id: 3)", "want[1] get vs got[2] get:", "- id: 2", "+ id: 3"}},
		{"any order", calls(`get {"id":2}`, `log {}`, `get {"id":1}`), trajectory.Superset, []agenttest.ExpectedCall{get(1), get(2)}, true,
			[]string{"= [0] get(id: 1)  [2] get(id: 1)", "= [1] get(id: 2)  [0] get(id: 2)", `  [1] log()`}},
		{"any order duplicates, one made", calls(`get {"id":1}`), trajectory.Superset, []agenttest.ExpectedCall{get(1), get(1)}, false,
			[]string{"(1 not found;", "want[1] get not found: got[0] matches it but is already paired with want[0]"}},
		{"any order duplicates, both made", calls(`get {"id":1}`, `get {"id":1}`), trajectory.Superset, []agenttest.ExpectedCall{get(1), get(1)}, true, nil},
		// A greedy pairing gives the first call to the looser expectation
		// and then finds nothing for the stricter one.
		{"any order needs optimal pairing", calls(`get {"id":1}`, `get {"id":2}`), trajectory.Superset,
			[]agenttest.ExpectedCall{agenttest.CallTo("get"), get(1)}, true, nil},
		{"in order needs the right pairing", calls(`get {"id":1}`, `get {"id":2}`), trajectory.InOrder,
			[]agenttest.ExpectedCall{agenttest.CallTo("get"), get(2)}, true, nil},
		{"any order closest", calls(`get {"id":7,"v":1}`, `get {"id":1,"v":2}`), trajectory.Superset,
			[]agenttest.ExpectedCall{agenttest.CallTo("get").With(agenttest.Args{"id": 1, "v": 1})}, false,
			// both differ in one argument; the tie goes to the call in the same position
			[]string{"want[0] get vs got[0] get:", "- id: 1", "+ id: 7"}},
		{"unknown order", nil, trajectory.Mode(9), nil, false, []string{"agenttest: unknown Mode(9)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := agenttest.CheckToolCalls(tt.actual, tt.order, tt.expected...)
			if r.OK() != tt.ok {
				t.Fatalf("OK() = %v, want %v:\n%s", r.OK(), tt.ok, r)
			}
			for _, line := range tt.lines {
				if !strings.Contains(r.String(), line) {
					t.Errorf("report lacks %q:\n%s", line, r)
				}
			}
		})
	}
}

// TestReportGolden pins a whole failure message: it is what a user reads.
func TestReportGolden(t *testing.T) {
	actual := calls(
		`search {"city":"paris","units":"metric","lang":"en"}`,
		`log {"msg":"retrying"}`,
		`book {"hotel":"C","nights":2.0,"date":"2024-02-01"}`,
		`pay {"amount":12}`,
	)
	r := agenttest.CheckToolCalls(actual, trajectory.Strict,
		agenttest.CallTo("search").With(agenttest.Args{"city": "Paris", "units": "metric"}),
		agenttest.CallTo("book").With(agenttest.Args{"hotel": agenttest.OneOf("A", "B"), "nights": 2, "date": &matchRegexp{`^2024-01-\d\d$`}}),
		agenttest.CallTo("pay").With(agenttest.Args{"amount": agenttest.Approx(10, 0.5)}),
		agenttest.CallTo("confirm").WithNoArgs(),
	)
	want := `Expected the 4 tool calls made to be exactly these 4, in this order (3 differ, 1 missing, 1 unexpected; -want +got):
    want                                        got
  ~ [0] search(city: "Paris", units: "metric")  [0] search(city: "paris", units: "metric", lang: "en")
  +                                             [1] log(msg: "retrying")
  ~ [1] book(date: matchRegexp(` + "`^2024-01-\\d\\d$`" + `), hotel: OneOf("A", "B"), nights: 2)
                                                [2] book(hotel: "C", nights: 2.0, date: "2024-02-01")
  ~ [2] pay(amount: Approx(10, 0.5))            [3] pay(amount: 12)
  - [3] confirm()

  want[0] search vs got[0] search:
      - city: "Paris"
      + city: "paris"
      + lang: "en"  (unexpected)
  want[1] book vs got[2] book:
      - date: matchRegexp(` + "`^2024-01-\\d\\d$`" + `)
      + date: "2024-02-01"
        Expected <string>: 2024-02-01 to match regular expression <string>: ^2024-01-\d\d$
      - hotel: OneOf("A", "B")
      + hotel: "C"
  want[2] pay vs got[3] pay:
      - amount: Approx(10, 0.5)
      + amount: 12
  want[3] confirm not found: no call to confirm was made`
	if got := r.String(); got != want {
		t.Errorf("report:\n%s\nwant:\n%s", got, want)
	}
	if r.OK() {
		t.Error("OK() = true")
	}
	// NotTo words the same table under its own headline.
	wantNegated := "Expected the 4 tool calls made not to be exactly these 4, in this order, but they do:\n" + strings.SplitN(want, "\n", 2)[1]
	if got := r.Negated(); got != wantNegated {
		t.Errorf("Negated():\n%s\nwant:\n%s", got, wantNegated)
	}
}

func TestCheckCalled(t *testing.T) {
	actual := calls(`search {"city":"Paris"}`, `pay {"amount":12}`, `search {"city":"Rome"}`, `search {"city":"Paris"}`)
	paris := agenttest.CallTo("search").With(agenttest.Args{"city": "Paris"})
	tests := []struct {
		call  agenttest.ExpectedCall
		times agenttest.Count
		ok    bool
		want  string
	}{
		{paris, agenttest.Times(2), true, `search(city: "Paris") was called 2 times:`},
		{paris, agenttest.AtLeastOnce(), true, `search(city: "Paris") was called 2 times:`},
		{paris, agenttest.AtMost(1), false, "Expected search(city: \"Paris\") to be called at most 1 time, but it was called 2 times:"},
		{paris, agenttest.Between(1, 3), true, `search(city: "Paris") was called 2 times:`},
		{paris, agenttest.AtLeast(3), false, `Expected search(city: "Paris") to be called at least 3 times, but it was called 2 times:`},
		{agenttest.CallTo("delete"), agenttest.AtMost(2), true, "delete was not called:"},
		{paris, agenttest.Times(1), false, "Expected search(city: \"Paris\") to be called 1 time, but it was called 2 times:\n" +
			"  = [0] search(city: \"Paris\")\n" +
			"    [1] pay(amount: 12)\n" +
			"  ~ [2] search(city: \"Rome\")\n" +
			"  = [3] search(city: \"Paris\")"},
		{agenttest.CallTo("search").With(agenttest.Args{"city": "Oslo"}), agenttest.Times(1), false,
			"Expected search(city: \"Oslo\") to be called 1 time, but it was called 0 times:\n" +
				"  ~ [0] search(city: \"Paris\")\n" +
				"      - city: \"Oslo\"\n" +
				"      + city: \"Paris\"\n" +
				"    [1] pay(amount: 12)\n" +
				"  ~ [2] search(city: \"Rome\")\n" +
				"      - city: \"Oslo\"\n" +
				"      + city: \"Rome\"\n" +
				"  ~ [3] search(city: \"Paris\")\n" +
				"      - city: \"Oslo\"\n" +
				"      + city: \"Paris\""},
		{agenttest.CallTo("pay"), agenttest.Never(), false, "Expected no call to pay, but it was called 1 time:\n" +
			"    [0] search(city: \"Paris\")\n  = [1] pay(amount: 12)\n    [2] search(city: \"Rome\")\n    [3] search(city: \"Paris\")"},
		{agenttest.CallTo("delete"), agenttest.Never(), true, "delete was not called:"},
		{agenttest.CallTo("delete"), agenttest.AtLeastOnce(), false, "Expected a call to delete among the 4 tool calls made, but none matches:"},
	}
	for _, tt := range tests {
		r := agenttest.CheckCalled(actual, tt.call, tt.times)
		if r.OK() != tt.ok || !strings.HasPrefix(r.String(), tt.want) {
			t.Errorf("CheckCalled(%s, %v): OK() = %v, want %v; report:\n%s\nwant it to start:\n%s", tt.call, tt.times, r.OK(), tt.ok, r, tt.want)
		}
		if tt.ok != tt.times.Allows(agenttest.CountCalls(actual, tt.call)) {
			t.Errorf("CountCalls(%s) = %d disagrees with CheckCalled", tt.call, agenttest.CountCalls(actual, tt.call))
		}
	}
	if r := agenttest.CheckCalled([]agentcheck.ToolCall(nil), agenttest.CallTo("x"), agenttest.AtLeastOnce()); r.OK() || r.String() != "Expected a call to x, but no tool calls were made" {
		t.Errorf("no calls: %v %q", r.OK(), r)
	}
}

func TestCountCalls(t *testing.T) {
	actual := calls(`a {"x":1}`, `b {}`, `a {"x":1.0}`, `a {"x":2}`)
	for _, tt := range []struct {
		e    agenttest.ExpectedCall
		want int
	}{
		{agenttest.CallTo("a"), 3},
		{agenttest.CallTo("a").With(agenttest.Args{"x": 1}), 2},
		{agenttest.CallTo("a").With(agenttest.Args{"x": agenttest.Approx(1.5, 0.5)}), 3},
		{agenttest.CallTo("b").WithNoArgs(), 1},
		{agenttest.CallTo("c"), 0},
	} {
		if got := agenttest.CountCalls(actual, tt.e); got != tt.want {
			t.Errorf("CountCalls(%s) = %d, want %d", tt.e, got, tt.want)
		}
	}
}

func TestToolCallsOf(t *testing.T) {
	tc := call("search", `{"q":"x"}`)
	conv := agentcheck.Conversation{
		{Role: agentcheck.Human, Content: "find x"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{tc}},
		{Role: agentcheck.Tool, Content: "found"},
	}
	sample := agentcheck.Sample{Conversation: conv, ReferenceToolCalls: []agentcheck.ToolCall{call("other", "{}")}}
	transcript := fakeTranscript{conv: conv}
	for _, actual := range []any{conv, &conv, sample, &sample, []agentcheck.Message(conv), []agentcheck.ToolCall{tc}, transcript} {
		got, err := agenttest.ToolCallsOf(actual)
		if err != nil {
			t.Errorf("%T: %v", actual, err)
			continue
		}
		if len(got) != 1 || got[0].Name != "search" || got[0].Args.String() != `{"q":"x"}` {
			t.Errorf("%T: got %v", actual, got)
		}
	}
	if c, err := agenttest.ConversationOf([]agentcheck.ToolCall{tc}); err != nil || len(c) != 1 || c[0].Role != agentcheck.AI || len(c[0].ToolCalls) != 1 {
		t.Errorf("ConversationOf([]ToolCall) = %v, %v", c, err)
	}
	for actual, want := range map[any]string{
		"text":                          "cannot take tool calls from string; want an agentcheck.Conversation, Sample,",
		(*agentcheck.Sample)(nil):       "cannot take tool calls from a nil *agentcheck.Sample",
		(*agentcheck.Conversation)(nil): "cannot take tool calls from a nil *agentcheck.Conversation",
	} {
		if _, err := agenttest.ToolCallsOf(actual); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ToolCallsOf(%T) error = %v, want it to contain %q", actual, err, want)
		}
	}
	if _, err := agenttest.ToolCallsOf(nil); err == nil || !strings.Contains(err.Error(), "<nil>") {
		t.Errorf("ToolCallsOf(nil) error = %v", err)
	}
	bad := fakeTranscript{err: errors.New("message 0 (ai), tool call 0 \"f\": arguments are not valid JSON")}
	if _, err := agenttest.ToolCallsOf(bad); err == nil || err.Error() != `agenttest: agenttest_test.fakeTranscript: message 0 (ai), tool call 0 "f": arguments are not valid JSON` {
		t.Errorf("a transcript that cannot be read: error = %v", err)
	}
}

// fakeTranscript is an adapter's Transcript: a conversation or an error.
type fakeTranscript struct {
	conv agentcheck.Conversation
	err  error
}

func (f fakeTranscript) Conversation() (agentcheck.Conversation, error) { return f.conv, f.err }

func TestSupersetManyDuplicates(t *testing.T) {
	var actual []agentcheck.ToolCall
	var expected []agenttest.ExpectedCall
	for i := 0; i < 60; i++ {
		actual = append(actual, call("get", fmt.Sprintf(`{"id":%d}`, i%3)))
	}
	for i := 59; i >= 0; i-- {
		if i%3 == 0 {
			expected = append(expected, agenttest.CallTo("get"))
		} else {
			expected = append(expected, agenttest.CallTo("get").With(agenttest.Args{"id": i % 3}))
		}
	}
	if r := agenttest.CheckToolCalls(actual, trajectory.Superset, expected...); !r.OK() {
		t.Fatalf("not OK:\n%s", r)
	}
	expected = append(expected, agenttest.CallTo("get").With(agenttest.Args{"id": 1}))
	r := agenttest.CheckToolCalls(actual, trajectory.Superset, expected...)
	if r.OK() || !strings.Contains(r.String(), "(1 not found;") || !strings.Contains(r.String(), "want[60] get not found: got[1] matches it but is already paired with") {
		t.Fatalf("report:\n%s", r)
	}
}

func ExampleCheckToolCalls() {
	actual := []agentcheck.ToolCall{
		agentcheck.MustParseToolCall("search_flights", `{"from":"BER","to":"LIS","date":"2025-03-14"}`),
		agentcheck.MustParseToolCall("book_flight", `{"flight":"TP537","seats":1.0}`),
	}
	r := agenttest.CheckToolCalls(actual, trajectory.InOrder,
		agenttest.CallTo("search_flights").With(agenttest.Args{"from": "BER", "to": "LIS"}).Ignoring("date"),
		agenttest.CallTo("book_flight").With(agenttest.Args{"flight": "TP537", "seats": 2}),
	)
	fmt.Println(r)
	// Output:
	// Expected the 2 tool calls made to include these 2 in this order (1 not found; -want +got):
	//     want                                                       got
	//   = [0] search_flights(from: "BER", to: "LIS", date: ignored)  [0] search_flights(from: "BER", to: "LIS", date: "2025-03-14")
	//   ~ [1] book_flight(flight: "TP537", seats: 2)                 [1] book_flight(flight: "TP537", seats: 1.0)
	//
	//   want[1] book_flight vs got[1] book_flight:
	//       - seats: 2
	//       + seats: 1.0
}

func ExampleExpectedCall_String() {
	fmt.Println(agenttest.CallTo("search"))
	fmt.Println(agenttest.CallTo("search").WithNoArgs())
	fmt.Println(agenttest.CallTo("search").With(agenttest.Args{"q": agenttest.OneOf("go", "golang"), "limit": agenttest.Approx(10, 2)}).AllowingExtraArgs())
	// Output:
	// search(...)
	// search()
	// search(limit: Approx(10, 2), q: OneOf("go", "golang"), ...)
}

// BenchmarkCheckToolCalls compares 20 calls with 20 expectations, a few of
// them failing, in each order, report included.
func BenchmarkCheckToolCalls(b *testing.B) {
	var actual []agentcheck.ToolCall
	var expected []agenttest.ExpectedCall
	for i := 0; i < 20; i++ {
		actual = append(actual, call(fmt.Sprintf("tool%d", i%5), fmt.Sprintf(`{"id":%d,"q":"query %d","opts":{"limit":10}}`, i, i)))
		id := i
		if i%7 == 0 {
			id++ // a difference
		}
		expected = append(expected, agenttest.CallTo(fmt.Sprintf("tool%d", i%5)).With(agenttest.Args{
			"id": id, "q": agenttest.Anything(), "opts": agenttest.Args{"limit": agenttest.Approx(10, 1)},
		}))
	}
	for _, order := range []trajectory.Mode{trajectory.Strict, trajectory.InOrder, trajectory.Superset} {
		b.Run(order.String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r := agenttest.CheckToolCalls(actual, order, expected...)
				if r.OK() || len(r.String()) == 0 {
					b.Fatal("want a failing report")
				}
			}
		})
	}
}
