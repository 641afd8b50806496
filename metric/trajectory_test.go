package metric_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/trajectory"
)

// tjCalls builds calls from specs written name{json}: `f{"a":1}`; a bare
// name has the arguments {}.
func tjCalls(specs ...string) []agentcheck.ToolCall {
	out := make([]agentcheck.ToolCall, 0, len(specs))
	for _, s := range specs {
		name, args := s, "{}"
		if i := strings.IndexByte(s, '{'); i >= 0 {
			name, args = s[:i], s[i:]
		}
		out = append(out, agentcheck.MustParseToolCall(name, args))
	}
	return out
}

// tjCheckPairs fails unless the pairs of r name every call made (nm) and
// every expected call (ne) exactly once, no pair is empty, and a pair is
// Matched when both its calls are there and it scores 1.
func tjCheckPairs(t *testing.T, r metric.Result, nm, ne int) {
	t.Helper()
	seenM, seenE := make([]int, nm), make([]int, ne)
	for _, p := range r.Pairs {
		if p.Predicted < 0 && p.Reference < 0 {
			t.Errorf("Expected every pair to have a side, but %+v has none", p)
			continue
		}
		if p.Predicted >= nm || p.Reference >= ne {
			t.Errorf("Expected pair %+v to index within %d made and %d expected calls, but it does not", p, nm, ne)
			continue
		}
		if want := p.Predicted >= 0 && p.Reference >= 0 && p.Score == 1; p.Matched != want {
			t.Errorf("Expected pair %+v to be Matched exactly when both calls are there and score 1, but it is not", p)
		}
		if p.Predicted >= 0 {
			seenM[p.Predicted]++
		}
		if p.Reference >= 0 {
			seenE[p.Reference]++
		}
	}
	for i, n := range seenM {
		if n != 1 {
			t.Errorf("Expected made call %d to appear once in the pairs, but it appears %d times: %+v", i, n, r.Pairs)
		}
	}
	for j, n := range seenE {
		if n != 1 {
			t.Errorf("Expected expected call %d to appear once in the pairs, but it appears %d times: %+v", j, n, r.Pairs)
		}
	}
}

type tjCase struct {
	name      string
	mode      trajectory.Mode
	args      trajectory.ArgsMode
	made, exp []string
	want      float64
}

func tjRun(t *testing.T, m metric.TrajectoryMatch, made, exp []agentcheck.ToolCall, want float64) metric.Result {
	t.Helper()
	r := m.Compare(made, exp)
	if math.Abs(r.Score-want) > 1e-9 {
		t.Errorf("Expected score %v to be %v, but it is not: %s", r.Score, want, r.Reason)
	}
	if r.Metric != "trajectory_match" {
		t.Errorf("Expected metric name %q to be trajectory_match, but it is not", r.Metric)
	}
	tjCheckPairs(t, r, len(made), len(exp))
	return r
}

func TestTrajectoryMatchModesAndArgs(t *testing.T) {
	S, U, Sub, Sup, IO := trajectory.Strict, trajectory.Unordered, trajectory.Subset, trajectory.Superset, trajectory.InOrder
	E, I, AS, AP := trajectory.ArgsExact, trajectory.ArgsIgnore, trajectory.ArgsSubset, trajectory.ArgsSuperset
	fg := []string{`f{"a":1}`, `g{"b":2}`}
	cases := []tjCase{
		// Strict.
		{"strict exact same", S, E, fg, fg, 1},
		{"strict exact swapped", S, E, []string{`g{"b":2}`, `f{"a":1}`}, fg, 0},
		{"strict exact extra arg", S, E, []string{`f{"a":1,"c":3}`, `g{"b":2}`}, fg, 0},
		{"strict exact 1 equals 1.0 and key order", S, E, []string{`f{"a":1.0,"z":{"y":1,"x":2}}`}, []string{`f{"z":{"x":2,"y":1},"a":1}`}, 1},
		{"strict exact true is not 1", S, E, []string{`f{"a":true}`}, []string{`f{"a":1}`}, 0},
		{"strict exact one missing", S, E, []string{`f{"a":1}`}, fg, 0},
		{"strict exact one extra", S, E, []string{`f{"a":1}`, `g{"b":2}`, `h`}, fg, 0},
		{"strict ignore other args", S, I, []string{`f{"a":9}`, `g`}, fg, 1},
		{"strict ignore swapped", S, I, []string{`g`, `f`}, fg, 0},
		{"strict subset fewer args", S, AS, []string{`f`, `g{"b":2}`}, fg, 1},
		{"strict subset wrong value", S, AS, []string{`f{"a":2}`, `g{"b":2}`}, fg, 0},
		{"strict subset extra arg", S, AS, []string{`f{"a":1,"c":3}`, `g{"b":2}`}, fg, 0},
		{"strict superset extra args", S, AP, []string{`f{"a":1,"c":3}`, `g{"b":2,"d":4}`}, fg, 1},
		{"strict superset missing arg", S, AP, []string{`f`, `g{"b":2}`}, fg, 0},
		// Unordered.
		{"unordered exact swapped", U, E, []string{`g{"b":2}`, `f{"a":1}`}, fg, 1},
		{"unordered exact extra call", U, E, []string{`g{"b":2}`, `f{"a":1}`, `h`}, fg, 0},
		{"unordered exact duplicate expected, made once", U, E, []string{`f{"a":1}`}, []string{`f{"a":1}`, `f{"a":1}`}, 0},
		{"unordered exact duplicate expected, made twice", U, E, []string{`f{"a":1}`, `f{"a":1}`}, []string{`f{"a":1}`, `f{"a":1}`}, 1},
		{"unordered exact made thrice, expected twice", U, E, []string{`f{"a":1}`, `f{"a":1}`, `f{"a":1}`}, []string{`f{"a":1}`, `f{"a":1}`}, 0},
		{"unordered ignore", U, I, []string{`g{"z":1}`, `f{"z":2}`}, fg, 1},
		{"unordered ignore counts calls", U, I, []string{`f`, `f`}, fg, 0},
		// Greedy would give exp[0] made[0] and leave exp[1] without a mate.
		{"unordered subset args, greedy trap", U, AS, []string{`f{"a":1}`, `f{"b":2}`}, []string{`f{"a":1,"b":2}`, `f{"a":1}`}, 1},
		{"unordered subset args, no pairing", U, AS, []string{`f{"b":2}`, `f{"b":2}`}, []string{`f{"a":1,"b":2}`, `f{"a":1}`}, 0},
		{"unordered superset args, greedy trap", U, AP, []string{`f{"a":1}`, `f{"b":2}`}, []string{`f`, `f{"a":1}`}, 1},
		{"unordered superset args, no pairing", U, AP, []string{`f{"a":1}`, `f{"b":2}`}, []string{`f{"a":1}`, `f{"a":1}`}, 0},
		// Subset: made ⊆ expected.
		{"subset exact some left out", Sub, E, []string{`g{"b":2}`}, fg, 1},
		{"subset exact nothing made", Sub, E, nil, fg, 1},
		{"subset exact made twice, expected once", Sub, E, []string{`f{"a":1}`, `f{"a":1}`}, fg, 0},
		{"subset exact unexpected tool", Sub, E, []string{`h`}, fg, 0},
		{"subset ignore", Sub, I, []string{`f{"x":1}`}, fg, 1},
		{"subset ignore made twice", Sub, I, []string{`f`, `f`}, fg, 0},
		{"subset subset-args greedy trap", Sub, AS, []string{`f{"a":1}`, `f{"b":2}`}, []string{`f{"a":1,"b":2}`, `f{"a":1}`, `g`}, 1},
		{"subset subset-args no pairing", Sub, AS, []string{`f{"b":2}`, `f{"b":2}`}, []string{`f{"a":1,"b":2}`, `f{"a":1}`}, 0},
		{"subset superset-args greedy trap", Sub, AP, []string{`f{"a":1}`, `f{"b":2}`}, []string{`f`, `f{"a":1}`, `g`}, 1},
		{"subset superset-args too many", Sub, AP, []string{`f{"a":1}`, `f{"a":1,"b":2}`, `f{"c":1}`}, []string{`f`, `f{"a":1}`}, 0},
		// Superset: made ⊇ expected.
		{"superset exact others too", Sup, E, []string{`g`, `f{"a":1}`, `h`}, []string{`f{"a":1}`}, 1},
		{"superset exact expected twice made once", Sup, E, []string{`f{"a":1}`, `g`}, []string{`f{"a":1}`, `f{"a":1}`}, 0},
		{"superset ignore", Sup, I, []string{`g{"z":1}`, `f`, `h`}, fg, 1},
		{"superset ignore counts calls", Sup, I, []string{`f`}, []string{`f`, `f`}, 0},
		{"superset subset-args greedy trap", Sup, AS, []string{`f{"a":1}`, `f{"b":2}`, `g`}, []string{`f{"a":1,"b":2}`, `f{"a":1}`}, 1},
		{"superset subset-args no pairing", Sup, AS, []string{`f{"c":3}`, `f{"a":1}`}, []string{`f{"a":1,"b":2}`, `f{"a":1}`}, 0},
		{"superset superset-args greedy trap", Sup, AP, []string{`f{"a":1}`, `f{"b":2}`}, []string{`f`, `f{"a":1}`}, 1},
		{"superset superset-args no pairing", Sup, AP, []string{`f{"a":1,"b":2}`, `f{"b":2}`}, []string{`f{"a":1}`, `f{"a":1}`}, 0},
		{"superset nothing expected", Sup, E, []string{`f`}, nil, 1},
		// In order.
		{"in order exact with others between", IO, E, []string{`h`, `f{"a":1}`, `h`, `g{"b":2}`, `h`}, fg, 1},
		{"in order exact reversed", IO, E, []string{`g{"b":2}`, `f{"a":1}`}, fg, 0},
		{"in order exact repeated expected", IO, E, []string{`f{"a":1}`, `g{"b":2}`, `f{"a":1}`}, []string{`f{"a":1}`, `f{"a":1}`}, 1},
		{"in order exact repeated expected made once", IO, E, []string{`f{"a":1}`, `g{"b":2}`}, []string{`f{"a":1}`, `f{"a":1}`}, 0},
		{"in order ignore", IO, I, []string{`f{"z":1}`, `x`, `g`}, fg, 1},
		{"in order ignore reversed", IO, I, []string{`g`, `f`}, fg, 0},
		{"in order subset-args", IO, AS, []string{`f{"a":1}`, `f{"a":1}`}, []string{`f{"a":1,"b":2}`, `f{"a":1}`}, 1},
		// Unordered this pairs (made[1]-exp[0], made[0]-exp[1]); in order it cannot.
		{"in order subset-args only out of order", IO, AS, []string{`f{"a":1}`, `f{"b":2}`}, []string{`f{"a":1,"b":2}`, `f{"a":1}`}, 0},
		{"in order superset-args", IO, AP, []string{`f{"b":2}`, `f{"a":1,"c":3}`}, []string{`f`, `f{"a":1}`}, 1},
		{"in order superset-args only out of order", IO, AP, []string{`f{"a":1}`, `f{"b":2}`}, []string{`f`, `f{"a":1}`}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := metric.TrajectoryMatch{Mode: c.mode, Args: c.args}
			tjRun(t, m, tjCalls(c.made...), tjCalls(c.exp...), c.want)
		})
	}
}

func TestTrajectoryMatchZeroValueIsStrictExact(t *testing.T) {
	var m metric.TrajectoryMatch
	if m.Mode != trajectory.Strict || m.Args != trajectory.ArgsExact || m.Scoring != trajectory.ScoreAll {
		t.Fatalf("Expected the zero value to be strict, exact, all-or-nothing, but it is %s, %s, %d", m.Mode, m.Args, m.Scoring)
	}
	tjRun(t, m, nil, nil, 1)
	tjRun(t, m, tjCalls(`f`), nil, 0)
	tjRun(t, m, nil, tjCalls(`f`), 0)
}

func TestTrajectoryMatchArgumentOptions(t *testing.T) {
	within1 := func(made, exp jsonvalue.Value) bool {
		a, _ := made.Get("n")
		b, _ := exp.Get("n")
		return math.Abs(a.Float()-b.Float()) <= 1
	}
	always := func(_, _ jsonvalue.Value) bool { return true }
	never := func(_, _ jsonvalue.Value) bool { return false }
	cases := []struct {
		name      string
		m         metric.TrajectoryMatch
		made, exp []string
		want      float64
	}{
		{"tool args override ignores one tool", metric.TrajectoryMatch{ToolArgs: map[string]trajectory.ArgsMode{"search": trajectory.ArgsIgnore}},
			[]string{`search{"q":"x"}`, `f{"a":1}`}, []string{`search{"q":"y"}`, `f{"a":1}`}, 1},
		{"tool args override leaves other tools exact", metric.TrajectoryMatch{ToolArgs: map[string]trajectory.ArgsMode{"search": trajectory.ArgsIgnore}},
			[]string{`search{"q":"x"}`, `f{"a":2}`}, []string{`search{"q":"y"}`, `f{"a":1}`}, 0},
		{"tool args override superset", metric.TrajectoryMatch{Mode: trajectory.Unordered, ToolArgs: map[string]trajectory.ArgsMode{"f": trajectory.ArgsSuperset}},
			[]string{`g{"b":1}`, `f{"a":1,"x":2}`}, []string{`f{"a":1}`, `g{"b":1}`}, 1},
		{"tool args override exact under superset", metric.TrajectoryMatch{Args: trajectory.ArgsSuperset, ToolArgs: map[string]trajectory.ArgsMode{"g": trajectory.ArgsExact}},
			[]string{`f{"a":1,"x":2}`, `g{"b":1,"x":2}`}, []string{`f{"a":1}`, `g{"b":1}`}, 0},
		{"ignore nested path and glob", metric.TrajectoryMatch{Ignore: map[string][]string{"book": {"time.start", "*_id"}}},
			[]string{`book{"time":{"start":5,"end":2},"user_id":9,"room":"a"}`}, []string{`book{"time":{"start":1,"end":2},"user_id":1,"room":"a"}`}, 1},
		{"ignore keeps the rest of the nested object", metric.TrajectoryMatch{Ignore: map[string][]string{"book": {"time.start"}}},
			[]string{`book{"time":{"start":5,"end":3}}`}, []string{`book{"time":{"start":1,"end":2}}`}, 0},
		{"ignore star tool", metric.TrajectoryMatch{Ignore: map[string][]string{"*": {"*_id"}}},
			[]string{`a{"req_id":1,"x":1}`, `b{"trace_id":2}`}, []string{`a{"req_id":2,"x":1}`, `b{"trace_id":3}`}, 1},
		{"ignore of another tool does not apply", metric.TrajectoryMatch{Ignore: map[string][]string{"other": {"*_id"}}},
			[]string{`a{"req_id":1}`}, []string{`a{"req_id":2}`}, 0},
		{"top-level glob does not reach nested keys", metric.TrajectoryMatch{Ignore: map[string][]string{"*": {"*_id"}}},
			[]string{`a{"meta":{"trace_id":1}}`}, []string{`a{"meta":{"trace_id":2}}`}, 0},
		{"glob segment at nested depth", metric.TrajectoryMatch{Ignore: map[string][]string{"*": {"meta.*_id"}}},
			[]string{`a{"meta":{"trace_id":1,"k":1}}`}, []string{`a{"meta":{"trace_id":2,"k":1}}`}, 1},
		{"glob in both segments", metric.TrajectoryMatch{Ignore: map[string][]string{"*": {"*.*_id"}}},
			[]string{`a{"m1":{"x_id":1},"m2":{"y_id":1}}`}, []string{`a{"m1":{"x_id":2},"m2":{"y_id":2}}`}, 1},
		{"ignore with superset args, unordered", metric.TrajectoryMatch{Mode: trajectory.Unordered, Args: trajectory.ArgsSuperset, Ignore: map[string][]string{"*": {"*_id"}}},
			[]string{`a{"req_id":1,"x":1,"y":1}`, `a{"req_id":5}`}, []string{`a{"req_id":2}`, `a{"req_id":3,"x":1}`}, 1},
		{"ignore with tolerance", metric.TrajectoryMatch{Values: trajectory.Equivalence{Tolerance: 0.1}, Ignore: map[string][]string{"*": {"t.start"}}},
			[]string{`a{"t":{"start":1,"end":2.05}}`}, []string{`a{"t":{"start":9,"end":2}}`}, 1},
		{"comparator per tool", metric.TrajectoryMatch{Comparators: map[string]trajectory.ArgsComparator{"f": within1}},
			[]string{`f{"n":3}`}, []string{`f{"n":2}`}, 1},
		{"comparator per tool fails", metric.TrajectoryMatch{Comparators: map[string]trajectory.ArgsComparator{"f": within1}},
			[]string{`f{"n":4}`}, []string{`f{"n":2}`}, 0},
		{"comparator star for the rest", metric.TrajectoryMatch{Comparators: map[string]trajectory.ArgsComparator{"f": never, "*": always}},
			[]string{`g{"x":1}`}, []string{`g{"y":2}`}, 1},
		{"tool's own comparator before star", metric.TrajectoryMatch{Comparators: map[string]trajectory.ArgsComparator{"f": never, "*": always}},
			[]string{`f`}, []string{`f`}, 0},
		{"comparator does not pair different tools", metric.TrajectoryMatch{Comparators: map[string]trajectory.ArgsComparator{"*": always}},
			[]string{`g`}, []string{`f`}, 0},
		{"comparator in unordered matching", metric.TrajectoryMatch{Mode: trajectory.Unordered, Comparators: map[string]trajectory.ArgsComparator{"f": within1}},
			[]string{`f{"n":1}`, `f{"n":3}`}, []string{`f{"n":4}`, `f{"n":2}`}, 1},
		{"case-insensitive strings", metric.TrajectoryMatch{Values: trajectory.Equivalence{Strings: trajectory.CaseInsensitive}},
			[]string{`f{"city":"PARIS","tags":["A",{"x":"B"}]}`}, []string{`f{"city":"paris","tags":["a",{"x":"b"}]}`}, 1},
		{"case-insensitive strings leave keys alone", metric.TrajectoryMatch{Values: trajectory.Equivalence{Strings: trajectory.CaseInsensitive}},
			[]string{`f{"City":"paris"}`}, []string{`f{"city":"paris"}`}, 0},
		{"strings differ without normaliser", metric.TrajectoryMatch{},
			[]string{`f{"city":"PARIS"}`}, []string{`f{"city":"paris"}`}, 0},
		{"BFCL strings", metric.TrajectoryMatch{Values: trajectory.Equivalence{Strings: trajectory.BFCLStrings}},
			[]string{`f{"city":"New-York, N.Y. City"}`}, []string{`f{"city":"newyorkny city"}`}, 1},
		{"BFCL strings with superset args", metric.TrajectoryMatch{Args: trajectory.ArgsSuperset, Values: trajectory.Equivalence{Strings: trajectory.BFCLStrings}},
			[]string{`f{"city":"San_Francisco","x":1}`}, []string{`f{"city":"san francisco"}`}, 1},
		{"tolerance within", metric.TrajectoryMatch{Values: trajectory.Equivalence{Tolerance: 0.01}},
			[]string{`f{"x":1.005,"v":[2.001,{"y":3}]}`}, []string{`f{"x":1,"v":[2,{"y":3.009}]}`}, 1},
		{"tolerance exceeded", metric.TrajectoryMatch{Values: trajectory.Equivalence{Tolerance: 0.01}},
			[]string{`f{"x":1.02}`}, []string{`f{"x":1}`}, 0},
		{"tolerance keeps kinds apart", metric.TrajectoryMatch{Values: trajectory.Equivalence{Tolerance: 0.5}},
			[]string{`f{"x":true}`}, []string{`f{"x":1}`}, 0},
		{"tolerance and case-insensitive", metric.TrajectoryMatch{Values: trajectory.Equivalence{Tolerance: 0.1, Strings: trajectory.CaseInsensitive}},
			[]string{`f{"x":1.05,"s":"AB"}`}, []string{`f{"x":1,"s":"ab"}`}, 1},
		{"tolerance with subset args", metric.TrajectoryMatch{Args: trajectory.ArgsSubset, Values: trajectory.Equivalence{Tolerance: 0.1}},
			[]string{`f{"x":1.05}`}, []string{`f{"x":1,"y":2}`}, 1},
		{"tolerance with subset args, extra arg", metric.TrajectoryMatch{Args: trajectory.ArgsSubset, Values: trajectory.Equivalence{Tolerance: 0.1}},
			[]string{`f{"x":1.05,"z":1}`}, []string{`f{"x":1,"y":2}`}, 0},
		{"tolerance with exact args, extra arg", metric.TrajectoryMatch{Values: trajectory.Equivalence{Tolerance: 0.1}},
			[]string{`f{"x":1.05,"z":1}`}, []string{`f{"x":1}`}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tjRun(t, c.m, tjCalls(c.made...), tjCalls(c.exp...), c.want)
		})
	}
}

func TestTrajectoryMatchKindsInvalidAndNonObjectArgs(t *testing.T) {
	mcp := func(c agentcheck.ToolCall) agentcheck.ToolCall { c.Kind = agentcheck.MCPTool; return c }
	bad := agentcheck.ToolCall{Name: "f", InvalidArgs: `{"a":`}
	arr := func(js string) agentcheck.ToolCall {
		return agentcheck.ToolCall{Name: "f", Args: jsonvalue.MustParse(js)}
	}
	f := tjCalls(`f{"a":1}`)[0]
	g := tjCalls(`g`)[0]
	type call = agentcheck.ToolCall
	cases := []struct {
		name      string
		made, exp []call
		want      map[trajectory.ArgsMode]float64
	}{
		// A call's kind does not count (package trajectory's rule): an MCP
		// call matches the same function call, as in ToolCallAccuracy,
		// ToolCallF1 and TrajectoryMatch's F1.
		{"mcp against function", []call{mcp(f)}, []call{f}, map[trajectory.ArgsMode]float64{trajectory.ArgsExact: 1, trajectory.ArgsIgnore: 1, trajectory.ArgsSubset: 1, trajectory.ArgsSuperset: 1}},
		{"mcp against mcp", []call{mcp(f)}, []call{mcp(f)}, map[trajectory.ArgsMode]float64{trajectory.ArgsExact: 1, trajectory.ArgsIgnore: 1, trajectory.ArgsSubset: 1, trajectory.ArgsSuperset: 1}},
		{"mcp among function calls", []call{g, mcp(f)}, []call{g, f}, map[trajectory.ArgsMode]float64{trajectory.ArgsExact: 1, trajectory.ArgsIgnore: 1}},
		{"invalid against valid", []call{bad}, []call{f}, map[trajectory.ArgsMode]float64{trajectory.ArgsExact: 0, trajectory.ArgsIgnore: 1, trajectory.ArgsSubset: 0, trajectory.ArgsSuperset: 0}},
		{"invalid against no args", []call{bad}, tjCalls(`f`), map[trajectory.ArgsMode]float64{trajectory.ArgsExact: 0, trajectory.ArgsIgnore: 1, trajectory.ArgsSubset: 0, trajectory.ArgsSuperset: 0}},
		{"invalid against the same invalid", []call{bad}, []call{bad}, map[trajectory.ArgsMode]float64{trajectory.ArgsExact: 0, trajectory.ArgsIgnore: 1, trajectory.ArgsSubset: 0, trajectory.ArgsSuperset: 0}},
		{"invalid among valid", []call{g, bad}, []call{g, f}, map[trajectory.ArgsMode]float64{trajectory.ArgsExact: 0, trajectory.ArgsIgnore: 1}},
		{"array args equal", []call{arr(`[1,2]`)}, []call{arr(`[1.0,2]`)}, map[trajectory.ArgsMode]float64{trajectory.ArgsExact: 1, trajectory.ArgsIgnore: 1, trajectory.ArgsSubset: 1, trajectory.ArgsSuperset: 1}},
		{"array args in another order", []call{arr(`[2,1]`)}, []call{arr(`[1,2]`)}, map[trajectory.ArgsMode]float64{trajectory.ArgsExact: 0, trajectory.ArgsIgnore: 1, trajectory.ArgsSubset: 0, trajectory.ArgsSuperset: 0}},
		{"array args are compared whole", []call{arr(`[1]`)}, []call{arr(`[1,2]`)}, map[trajectory.ArgsMode]float64{trajectory.ArgsExact: 0, trajectory.ArgsSubset: 0, trajectory.ArgsSuperset: 0}},
		{"array against object", []call{arr(`[1]`)}, []call{f}, map[trajectory.ArgsMode]float64{trajectory.ArgsExact: 0, trajectory.ArgsIgnore: 1, trajectory.ArgsSubset: 0, trajectory.ArgsSuperset: 0}},
		{"string args", []call{arr(`"x"`)}, []call{arr(`"x"`)}, map[trajectory.ArgsMode]float64{trajectory.ArgsExact: 1, trajectory.ArgsSubset: 1, trajectory.ArgsSuperset: 1}},
	}
	for _, c := range cases {
		for args, want := range c.want {
			for _, mode := range []trajectory.Mode{trajectory.Strict, trajectory.Unordered, trajectory.Subset, trajectory.Superset, trajectory.InOrder} {
				t.Run(fmt.Sprintf("%s/%s/%s", c.name, mode, args), func(t *testing.T) {
					tjRun(t, metric.TrajectoryMatch{Mode: mode, Args: args}, c.made, c.exp, want)
				})
			}
		}
	}
	// A per-tool override to ignore lets an unparseable call through.
	m := metric.TrajectoryMatch{ToolArgs: map[string]trajectory.ArgsMode{"f": trajectory.ArgsIgnore}}
	tjRun(t, m, []call{bad}, []call{f}, 1)
}

// TestTrajectoryMatchInvalidArgsUnderComparator: unparseable arguments
// never match unless arguments are ignored, whatever compares them.
func TestTrajectoryMatchInvalidArgsUnderComparator(t *testing.T) {
	bad := agentcheck.ToolCall{Name: "f", InvalidArgs: `{"a":`}
	lenient := func(made, _ jsonvalue.Value) bool { _, has := made.Get("a"); return !has } // "a" must not be set
	m := metric.TrajectoryMatch{Comparators: map[string]trajectory.ArgsComparator{"*": lenient}}
	if r := m.Compare([]agentcheck.ToolCall{bad}, tjCalls(`f{"a":1}`)); r.Score != 0 {
		t.Errorf("Expected an unparseable call to fail its comparator's check (InvalidArgs is checked first), but it scores %v: %s", r.Score, r.Reason)
	}
}

// TestTrajectoryMatchNoArgsUnderTolerance: the zero Value ("no arguments")
// and {} are the same arguments, whatever the equivalence.
func TestTrajectoryMatchNoArgsUnderTolerance(t *testing.T) {
	noArgs := []agentcheck.ToolCall{{Name: "now"}}
	empty := tjCalls(`now`)
	for _, args := range []trajectory.ArgsMode{trajectory.ArgsExact, trajectory.ArgsSubset, trajectory.ArgsSuperset} {
		plain := metric.TrajectoryMatch{Args: args}
		tjRun(t, plain, noArgs, empty, 1)
		tjRun(t, plain, empty, noArgs, 1)
		if r := (metric.TrajectoryMatch{Args: args, Values: trajectory.Equivalence{Tolerance: 0.01}}).Compare(noArgs, empty); r.Score != 1 {
			t.Errorf("Expected a call with no arguments to match one with {} under a tolerance (%s), as it does without, but it scores %v: %s", args, r.Score, r.Reason)
		}
	}
}

func TestTrajectoryMatchTurns(t *testing.T) {
	a, b, c := `a{"x":1}`, `b{"x":2}`, `c{"x":3}`
	turns := func(ts ...[]string) [][]agentcheck.ToolCall {
		out := make([][]agentcheck.ToolCall, len(ts))
		for i, t := range ts {
			out[i] = tjCalls(t...)
		}
		return out
	}
	ab_c := turns([]string{a, b}, []string{c})
	cases := []struct {
		name      string
		m         metric.TrajectoryMatch
		made, exp [][]agentcheck.ToolCall
		want      float64
	}{
		{"turn-aware any order within a turn", metric.TrajectoryMatch{TurnAware: true}, turns([]string{b, a}, []string{c}), ab_c, 1},
		{"turn-aware turns in order", metric.TrajectoryMatch{TurnAware: true}, turns([]string{c}, []string{a, b}), ab_c, 0},
		{"turn-aware boundaries count", metric.TrajectoryMatch{TurnAware: true}, turns([]string{a}, []string{b, c}), ab_c, 0},
		{"turn-aware fewer turns", metric.TrajectoryMatch{TurnAware: true}, turns([]string{a, b, c}), ab_c, 0},
		{"turn-aware args still count", metric.TrajectoryMatch{TurnAware: true}, turns([]string{b, `a{"x":9}`}, []string{c}), ab_c, 0},
		{"turns joined without turn-aware", metric.TrajectoryMatch{}, turns([]string{a}, []string{b, c}), ab_c, 1},
		{"joined strict keeps order", metric.TrajectoryMatch{}, turns([]string{b, a}, []string{c}), ab_c, 0},
		{"joined superset", metric.TrajectoryMatch{Mode: trajectory.Superset}, turns([]string{c, `d`}, []string{b, a}), ab_c, 1},
		{"per turn 2 of 3", metric.TrajectoryMatch{Scoring: trajectory.ScorePerTurn}, turns([]string{a}, []string{b}, []string{`d`}), turns([]string{a}, []string{b}, []string{c}), 2.0 / 3},
		{"per turn missing turn", metric.TrajectoryMatch{Scoring: trajectory.ScorePerTurn}, turns([]string{a}, []string{b}), turns([]string{a}, []string{b}, []string{c}), 2.0 / 3},
		{"per turn extra turn", metric.TrajectoryMatch{Scoring: trajectory.ScorePerTurn}, turns([]string{a}, []string{b}, []string{c}), turns([]string{a}, []string{b}), 2.0 / 3},
		{"per turn strict order within turn", metric.TrajectoryMatch{Scoring: trajectory.ScorePerTurn}, turns([]string{b, a}, []string{c}), ab_c, 0.5},
		{"per turn turn-aware any order", metric.TrajectoryMatch{Scoring: trajectory.ScorePerTurn, TurnAware: true}, turns([]string{b, a}, []string{c}), ab_c, 1},
		{"per turn superset", metric.TrajectoryMatch{Scoring: trajectory.ScorePerTurn, Mode: trajectory.Superset}, turns([]string{b, a, `d`}, []string{`d`}), ab_c, 0.5},
		{"per turn no turns", metric.TrajectoryMatch{Scoring: trajectory.ScorePerTurn}, nil, nil, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := c.m.CompareTurns(c.made, c.exp)
			if math.Abs(r.Score-c.want) > 1e-9 {
				t.Errorf("Expected score %v to be %v, but it is not: %s", r.Score, c.want, r.Reason)
			}
			if c.name == "turn-aware fewer turns" && !strings.Contains(r.Reason, "1 turns made against 2 expected") {
				t.Errorf("Expected reason %q to count the turns, but it does not", r.Reason)
			}
			if c.name == "turn-aware boundaries count" && strings.Contains(r.Reason, "turns made against") {
				t.Errorf("Expected reason %q not to report a turn count mismatch when the counts agree, but it does", r.Reason)
			}
		})
	}
}

// TestTrajectoryMatchTurnsPairEveryCall: when the number of turns differs,
// the calls of the turns without a counterpart are still accounted for.
func TestTrajectoryMatchTurnsPairEveryCall(t *testing.T) {
	made := [][]agentcheck.ToolCall{tjCalls(`a`), tjCalls(`b`), tjCalls(`extra`)}
	exp := [][]agentcheck.ToolCall{tjCalls(`a`), tjCalls(`b`)}
	r := metric.TrajectoryMatch{TurnAware: true}.CompareTurns(made, exp)
	if r.Score != 0 {
		t.Fatalf("Expected score %v to be 0 for 3 turns against 2, but it is not", r.Score)
	}
	if !strings.Contains(r.Reason, "extra") {
		t.Errorf("Expected the reason %q to name the call of the extra turn, but it does not", r.Reason)
	}
	tjCheckPairs(t, r, 3, 2)
}

func TestTrajectoryMatchEvaluateTurns(t *testing.T) {
	ai := func(calls ...string) agentcheck.Message {
		return agentcheck.Message{Role: agentcheck.AI, ToolCalls: tjCalls(calls...)}
	}
	conv := func(msgs ...agentcheck.Message) agentcheck.Conversation {
		return append(agentcheck.Conversation{{Role: agentcheck.Human, Content: "go"}}, append(msgs, agentcheck.Message{Role: agentcheck.AI, Content: "done"})...)
	}
	tool := agentcheck.Message{Role: agentcheck.Tool, Content: "ok"}
	cases := []struct {
		name      string
		conv      agentcheck.Conversation
		ref       []string
		turnAware bool
		want      float64
	}{
		{"any order within a message", conv(ai("b", "a"), tool, tool, ai("c")), []string{"a", "b", "c"}, true, 1},
		{"order within a message counts without turn-aware", conv(ai("b", "a"), tool, tool, ai("c")), []string{"a", "b", "c"}, false, 0},
		{"messages in order", conv(ai("c"), tool, ai("a", "b")), []string{"a", "b", "c"}, true, 0},
		{"reference cut at the message sizes", conv(ai("a"), tool, ai("c", "b")), []string{"a", "b", "c"}, true, 1},
		{"a call moved across messages", conv(ai("b"), tool, ai("a", "c")), []string{"a", "b", "c"}, true, 0},
		{"fewer calls than the reference", conv(ai("b", "a")), []string{"a", "b", "c"}, true, 0},
		{"no reference expects no calls", conv(ai("a")), nil, true, 0},
		{"no calls and no reference", conv(), nil, true, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := agentcheck.Sample{Conversation: c.conv}
			if c.ref != nil {
				s.ReferenceToolCalls = tjCalls(c.ref...)
			}
			m := metric.TrajectoryMatch{TurnAware: c.turnAware}
			r, err := m.Evaluate(context.Background(), s)
			if err != nil {
				t.Fatalf("Expected Evaluate to score the sample, but it failed: %v", err)
			}
			if r.Score != c.want {
				t.Errorf("Expected score %v to be %v, but it is not: %s", r.Score, c.want, r.Reason)
			}
			if r.Metric != m.Name() {
				t.Errorf("Expected metric %q to be %q, but it is not", r.Metric, m.Name())
			}
			tjCheckPairs(t, r, len(c.conv.ToolCalls()), len(c.ref))
		})
	}
}

func TestTrajectoryMatchPartialScores(t *testing.T) {
	S, U, Sub, Sup, IO := trajectory.Strict, trajectory.Unordered, trajectory.Subset, trajectory.Superset, trajectory.InOrder
	R, P := trajectory.ScoreRecall, trajectory.ScorePartialArgs
	abc := []string{"a", "b", "c"}
	cases := []struct {
		name      string
		mode      trajectory.Mode
		scoring   trajectory.Scoring
		args      trajectory.ArgsMode
		made, exp []string
		want      float64
		pairs     map[int]int // expected index → made index, where it matters
	}{
		{"recall strict one wrong", S, R, 0, []string{"a", "x", "c"}, abc, 2.0 / 3, map[int]int{0: 0, 2: 2}},
		{"recall strict one missing", S, R, 0, []string{"a", "b"}, abc, 2.0 / 3, nil},
		{"recall strict one extra", S, R, 0, []string{"a", "b", "c", "d"}, abc, 3.0 / 4, nil},
		{"recall strict shifted", S, R, 0, []string{"x", "a", "b", "c"}, abc, 0, nil},
		{"recall unordered", U, R, 0, []string{"c", "a"}, abc, 2.0 / 3, map[int]int{0: 1, 2: 0}},
		{"recall unordered extra", U, R, 0, []string{"c", "a", "b", "d"}, abc, 3.0 / 4, nil},
		{"recall unordered all", U, R, 0, []string{"c", "a", "b"}, abc, 1, nil},
		{"recall subset over calls made", Sub, R, 0, []string{"a", "d"}, abc, 0.5, nil},
		{"recall subset nothing made", Sub, R, 0, nil, abc, 1, nil},
		{"recall superset over expected", Sup, R, 0, []string{"b", "x", "y"}, []string{"a", "b"}, 0.5, map[int]int{1: 0}},
		{"recall superset nothing expected", Sup, R, 0, []string{"x"}, nil, 1, nil},
		{"recall in order longest common subsequence", IO, R, 0, []string{"c", "a", "b"}, abc, 2.0 / 3, map[int]int{0: 1, 1: 2}},
		{"recall unordered max matching with superset args", U, R, trajectory.ArgsSuperset, []string{`f{"a":1}`, `f{"b":2}`}, []string{`f`, `f{"a":1}`}, 1, map[int]int{0: 1, 1: 0}},
		{"recall counts whole matches only", U, R, 0, []string{`f{"a":1,"b":3}`}, []string{`f{"a":1,"b":2}`}, 0, nil},
		{"partial strict", S, P, 0, []string{`f{"a":1,"b":2}`, "g"}, []string{`f{"a":1,"b":1}`, "g"}, 0.75, nil},
		{"partial unordered assignment beats first fit", U, P, 0,
			[]string{`f{"a":1,"b":2}`, `f{"a":1,"b":1}`}, []string{`f{"a":1,"b":1}`, `f{"a":1,"b":2}`}, 1, map[int]int{0: 1, 1: 0}},
		{"partial unordered best total", U, P, 0,
			[]string{`f{"a":2,"b":2}`, `f{"a":1,"b":2}`}, []string{`f{"a":1,"b":1}`, `f{"a":2,"b":2}`}, 0.75, map[int]int{0: 1, 1: 0}},
		{"partial in order weighted LCS", IO, P, 0,
			[]string{`f{"a":2,"b":2}`, `f{"a":1,"b":2}`}, []string{`f{"a":1,"b":1}`, `f{"a":2,"b":2}`}, 0.5, map[int]int{1: 0}},
		{"partial in order skips a weaker call", IO, P, 0,
			[]string{`f{"a":1,"b":2}`, `f{"a":1,"b":1}`, `g{"x":1}`}, []string{`f{"a":1,"b":1}`, `g{"x":1}`}, 1, map[int]int{0: 1, 1: 2}},
		{"partial subset over calls made", Sub, P, 0, []string{`f{"a":1,"b":9}`}, []string{`f{"a":1,"b":2}`, "g"}, 0.5, nil},
		{"partial superset over expected", Sup, P, 0, []string{`f{"a":1,"b":9}`, "h"}, []string{`f{"a":1,"b":2}`, "g"}, 0.25, nil},
		{"partial nested", S, P, 0, []string{`f{"slot":{"day":1,"hour":9}}`}, []string{`f{"slot":{"day":1,"hour":10}}`}, 0.5, nil},
		{"partial other tool earns nothing", S, P, 0, []string{`g{"a":1}`}, []string{`f{"a":1}`}, 0, nil},
		{"partial non-exact args is all or nothing", U, P, trajectory.ArgsSuperset, []string{`f{"a":1,"c":1}`, `g{"b":1}`}, []string{`f{"a":1}`, `g{"b":2,"c":3}`}, 0.5, nil},
		{"partial ignored args earn full", U, P, trajectory.ArgsIgnore, []string{`f{"a":2}`}, []string{`f{"a":1}`}, 1, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := metric.TrajectoryMatch{Mode: c.mode, Args: c.args, Scoring: c.scoring}
			r := tjRun(t, m, tjCalls(c.made...), tjCalls(c.exp...), c.want)
			for ref, pred := range c.pairs {
				found := false
				for _, p := range r.Pairs {
					if p.Reference == ref {
						found = p.Predicted == pred
					}
				}
				if !found {
					t.Errorf("Expected expected call %d to pair with made call %d, but the pairs are %+v", ref, pred, r.Pairs)
				}
			}
		})
	}
}

func TestTrajectoryMatchPartialWithOptions(t *testing.T) {
	m := metric.TrajectoryMatch{Scoring: trajectory.ScorePartialArgs, Values: trajectory.Equivalence{Strings: trajectory.CaseInsensitive},
		Ignore: map[string][]string{"*": {"req_id"}}}
	tjRun(t, m, tjCalls(`f{"city":"PARIS","n":1,"req_id":1}`), tjCalls(`f{"city":"paris","n":2,"req_id":2}`), 0.5)
	m.Values = trajectory.Equivalence{Tolerance: 0.5}
	tjRun(t, m, tjCalls(`f{"n":1.2,"m":3}`), tjCalls(`f{"n":1,"m":4}`), 0.5)
	bad := agentcheck.ToolCall{Name: "f", InvalidArgs: "{"}
	tjRun(t, metric.TrajectoryMatch{Scoring: trajectory.ScorePartialArgs}, []agentcheck.ToolCall{bad}, tjCalls(`f`), 0)
	mcp := tjCalls(`f{"a":1}`)
	mcp[0].Kind = agentcheck.MCPTool
	tjRun(t, metric.TrajectoryMatch{Scoring: trajectory.ScorePartialArgs}, mcp, tjCalls(`f{"a":1}`), 1)
}

// TestTrajectoryMatchCompareTurnsScoresRecall: CompareTurns joins the turns
// when not turn-aware, so it scores as Compare on the joined calls.
func TestTrajectoryMatchCompareTurnsScoresRecall(t *testing.T) {
	made, exp := tjCalls("a", "x", "c"), tjCalls("a", "b", "c")
	for _, s := range []trajectory.Scoring{trajectory.ScoreRecall, trajectory.ScorePartialArgs} {
		m := metric.TrajectoryMatch{Mode: trajectory.Unordered, Scoring: s}
		flat := m.Compare(made, exp)
		if math.Abs(flat.Score-2.0/3) > 1e-9 {
			t.Fatalf("Expected Compare's score %v to be 2/3, but it is not", flat.Score)
		}
		turned := m.CompareTurns([][]agentcheck.ToolCall{made[:2], made[2:]}, [][]agentcheck.ToolCall{exp[:1], exp[1:]})
		if turned.Score != flat.Score {
			t.Errorf("Expected CompareTurns with scoring %d to score %v as Compare on the joined calls does, but it scores %v", s, flat.Score, turned.Score)
		}
	}
}

func TestArgsCredit(t *testing.T) {
	v := jsonvalue.MustParse
	cases := []struct {
		made, exp string
		want      float64
	}{
		{`{"slot":{"day":1,"hour":9}}`, `{"slot":{"day":1,"hour":10}}`, 0.5},
		{`{"slot":{"day":1,"hour":9},"x":1}`, `{"slot":{"day":1,"hour":10}}`, 0.25},
		{`{"slot":{"day":1,"hour":9}}`, `{"slot":{"day":1,"hour":10},"x":1}`, 0.25},
		{`{}`, `{}`, 1},
		{`{"a":{}}`, `{"a":{}}`, 1},
		{`{"a":1,"b":2}`, `{"b":2,"a":1.0}`, 1},
		{`{"a":1}`, `{"b":1}`, 0},
		{`{"a":1,"b":2}`, `{"a":1}`, 0.5},
		{`{"a":[1,2]}`, `{"a":[1,3]}`, 0},
		{`{"a":{"b":1}}`, `{"a":1}`, 0},
		{`[1,2]`, `[1,2]`, 1},
		{`[1,2]`, `[2,1]`, 0},
		{`"x"`, `{}`, 0},
		{`null`, `{}`, 1},
	}
	for _, c := range cases {
		if got := trajectory.ArgsCredit(v(c.made), v(c.exp)); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Expected ArgsCredit(%s, %s) = %v to be %v, but it is not", c.made, c.exp, got, c.want)
		}
	}
}

func TestTrajectoryMatchReasonAndPairs(t *testing.T) {
	made, exp := tjCalls(`f{"a":2}`, `g`), tjCalls(`g`, `f{"a":1}`)
	r := tjRun(t, metric.TrajectoryMatch{Mode: trajectory.Unordered}, made, exp, 0)
	for _, want := range []string{"unordered", `expected, not made: [1] f({"a":1})`, `made, not expected: [0] f({"a":2})`, "arguments exact"} {
		if !strings.Contains(r.Reason, want) {
			t.Errorf("Expected reason %q to contain %q, but it does not", r.Reason, want)
		}
	}
	if strings.Contains(r.Reason, "g()") {
		t.Errorf("Expected reason %q not to name the matched call g(), but it does", r.Reason)
	}
	ok := tjRun(t, metric.TrajectoryMatch{Mode: trajectory.Unordered}, tjCalls(`g`, `f{"a":1}`), exp, 1)
	if !strings.Contains(ok.Reason, "match the 2 expected") || strings.Contains(ok.Reason, "not made") {
		t.Errorf("Expected reason %q to say the calls match, but it does not", ok.Reason)
	}
	st := tjRun(t, metric.TrajectoryMatch{}, made, exp, 0)
	if !strings.Contains(st.Reason, `f({"a":2})`) || !strings.Contains(st.Reason, `f({"a":1})`) {
		t.Errorf("Expected strict reason %q to name the call made and the call expected in each differing place, but it does not", st.Reason)
	}
	io := tjRun(t, metric.TrajectoryMatch{Mode: trajectory.InOrder}, tjCalls(`b`, `a`), tjCalls(`a`, `b`), 0)
	if !strings.Contains(io.Reason, "expected, not made: [1] b()") || !strings.Contains(io.Reason, "made, not expected: [0] b()") {
		t.Errorf("Expected reason %q to name b as missing after a and the first b as extra, but it does not", io.Reason)
	}
}

// TestTrajectoryMatchPairsMarkMatches: a pair that matches is Matched, as
// the other call metrics' pairs are (agenttest's report marks them "=").
func TestTrajectoryMatchPairsMarkMatches(t *testing.T) {
	r := metric.TrajectoryMatch{Mode: trajectory.Unordered}.Compare(tjCalls(`g`, `f`), tjCalls(`f`, `g`))
	if r.Score != 1 {
		t.Fatalf("Expected score %v to be 1, but it is not: %s", r.Score, r.Reason)
	}
	for _, p := range r.Pairs {
		if !p.Matched {
			t.Errorf("Expected every pair of a matching trajectory to be Matched (agenttest's report marks them =), but %+v is not", p)
		}
	}
}

func TestStringNormalisers(t *testing.T) {
	for _, c := range [][2]string{{"Straße", "STRASSE"}, {"ΣΊΣΥΦΟΣ", "σίσυφος"}, {"ǅ", "ǆ"}, {"K", "k"}, {"ı", "i"}, {"İ", "i"}, {"ı", "I"}} {
		if eq := trajectory.CaseInsensitive(c[0]) == trajectory.CaseInsensitive(c[1]); eq != strings.EqualFold(c[0], c[1]) {
			t.Errorf("Expected CaseInsensitive to agree with strings.EqualFold on %q and %q (%v), but it does not", c[0], c[1], strings.EqualFold(c[0], c[1]))
		}
	}
	if got := trajectory.BFCLStrings("New York, N.Y./U-S_A*2^3"); got != "newyorknyusa23" {
		t.Errorf("Expected BFCLStrings to give newyorknyusa23, but it gives %q", got)
	}
}

func TestEquivalenceEqual(t *testing.T) {
	v := jsonvalue.MustParse
	var none *trajectory.Equivalence
	cases := []struct {
		e    *trajectory.Equivalence
		a, b string
		want bool
	}{
		{none, `{"a":1,"b":[1]}`, `{"b":[1.0],"a":1}`, true},
		{none, `"A"`, `"a"`, false},
		{&trajectory.Equivalence{Strings: trajectory.CaseInsensitive}, `["A",{"k":"B"}]`, `["a",{"k":"b"}]`, true},
		{&trajectory.Equivalence{Tolerance: 0.1}, `{"x":[1.05]}`, `{"x":[1]}`, true},
		{&trajectory.Equivalence{Tolerance: 0.1}, `{"x":1.05,"y":1}`, `{"x":1}`, false},
		{&trajectory.Equivalence{Tolerance: 0.1}, `[1.2]`, `[1]`, false},
		{&trajectory.Equivalence{Tolerance: 1}, `"1"`, `1`, false},
	}
	for _, c := range cases {
		if got := c.e.Equal(v(c.a), v(c.b)); got != c.want {
			t.Errorf("Expected %+v.Equal(%s, %s) = %v to be %v, but it is not", c.e, c.a, c.b, got, c.want)
		}
	}
}

func TestIgnorePaths(t *testing.T) {
	v := jsonvalue.MustParse(`{"time":{"start":1,"end":2},"user_id":3,"meta":{"trace_id":4,"k":5},"n":6}`)
	got := trajectory.IgnorePaths(v, "time.start", "*_id", "meta.*_id")
	want := jsonvalue.MustParse(`{"time":{"end":2},"meta":{"k":5},"n":6}`)
	if !jsonvalue.Equal(got, want) {
		t.Errorf("Expected IgnorePaths to give %s, but it gives %s", want, got)
	}
	arr := jsonvalue.MustParse(`[1,2]`)
	if got := trajectory.IgnorePaths(arr, "*"); !jsonvalue.Equal(got, arr) {
		t.Errorf("Expected IgnorePaths to leave an array alone, but it gives %s", got)
	}
}

// ExampleTrajectoryMatch_supersetArgs pairs calls one to one whatever their
// order, each made call carrying at least the expected arguments.
func ExampleTrajectoryMatch_supersetArgs() {
	m := metric.TrajectoryMatch{Mode: trajectory.Unordered, Args: trajectory.ArgsSuperset}
	made := []agentcheck.ToolCall{
		agentcheck.MustParseToolCall("search", `{"q":"flights","limit":5}`),
		agentcheck.MustParseToolCall("search", `{"q":"hotels"}`),
	}
	expected := []agentcheck.ToolCall{
		agentcheck.MustParseToolCall("search", `{}`),
		agentcheck.MustParseToolCall("search", `{"q":"flights"}`),
	}
	fmt.Println(m.Compare(made, expected).Score)
	fmt.Println(m.Compare(made[1:], expected).Reason)
	// Output:
	// 1
	// unordered: the 1 call made does not match the 2 expected (arguments superset); expected, not made: [1] search({"q":"flights"})
}
