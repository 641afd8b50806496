package agenttest_test

// FuzzCheckToolCalls holds the expectation DSL to its promises: it checks
// invariants, not only the absence of panics. Seeds live in
// testdata/fuzz/FuzzCheckToolCalls; run it with
//
//	go test -run '^$' -fuzz '^FuzzCheckToolCalls$' -fuzztime 60s ./agenttest
//
// The fuzz targets of the vocabulary, the loaders and the metrics live with
// them: in the root package, dataset, metric and internal/pyvalue.

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/agentcheck/agentcheck/trajectory"
)

// byteSource turns fuzz bytes into choices; past the end every choice is 0.
type byteSource []byte

func (s *byteSource) intn(n int) int {
	if len(*s) == 0 {
		return 0
	}
	c := (*s)[0]
	*s = (*s)[1:]
	return int(c) % n
}

func permuted[T any](r *rand.Rand, xs []T) []T {
	out := make([]T, len(xs))
	for i, j := range r.Perm(len(xs)) {
		out[i] = xs[j]
	}
	return out
}

// genValue reads a JSON value from s: every kind, nested up to depth,
// numbers that are equal across kinds, big, negative zero, and strings
// with quotes, escapes and lone surrogates.
func genValue(s *byteSource, depth int) jsonvalue.Value {
	kinds := 9
	if depth <= 0 {
		kinds = 7
	}
	switch s.intn(kinds) {
	case 0:
		return jsonvalue.Value{}
	case 1:
		return jsonvalue.Bool(s.intn(2) == 1)
	case 2:
		return jsonvalue.Int(int64(s.intn(256)) - 128)
	case 3:
		return jsonvalue.MustParse([]string{"1e400", "-0.0", "0.1", "2.0", "1e16", "-1e-05", "98765432109876543210", "-98765432109876543210", "3.5"}[s.intn(9)])
	case 4:
		return jsonvalue.Float(float64(s.intn(256)-128) / 4)
	case 5, 6:
		return jsonvalue.String([]string{"", "x", "Paris", "1", "True", "it's", `say "hi"`, "\\", "é\n", "\xed\xa0\x80", "a b", "null"}[s.intn(12)])
	case 7:
		items := make([]jsonvalue.Value, s.intn(4))
		for i := range items {
			items[i] = genValue(s, depth-1)
		}
		return jsonvalue.Array(items...)
	}
	return genObject(s, depth-1)
}

func genObject(s *byteSource, depth int) jsonvalue.Value {
	var members []jsonvalue.Member
	used := map[string]bool{}
	for range s.intn(5) {
		key := []string{"city", "date", "n", "x", "é", "", "a.b", "with space"}[s.intn(8)]
		if !used[key] {
			used[key] = true
			members = append(members, jsonvalue.Member{Key: key, Value: genValue(s, depth)})
		}
	}
	return jsonvalue.Object(members...)
}

// genActual reads calls with arguments of every shape, some without any.
func genActual(s *byteSource, most int) []agentcheck.ToolCall {
	calls := make([]agentcheck.ToolCall, s.intn(most+1))
	for i := range calls {
		calls[i] = genCall(s)
	}
	return calls
}

func genCall(s *byteSource) agentcheck.ToolCall {
	tc := agentcheck.ToolCall{Name: []string{"search", "book", "cancel"}[s.intn(3)]}
	if s.intn(5) > 0 {
		tc.Args = genObject(s, 2)
	}
	return tc
}

// expectFrom expects exactly tc: its own arguments as literal Go values.
func expectFrom(tc agentcheck.ToolCall) agenttest.ExpectedCall {
	if tc.Args.Kind() == jsonvalue.NullKind {
		return agenttest.CallTo(tc.Name).WithNoArgs()
	}
	return agenttest.CallTo(tc.Name).With(agenttest.Args(tc.Args.Interface().(map[string]any)))
}

// loosen rewrites an expectation built from tc so that it still accepts
// tc: an argument becomes a matcher that accepts its value, is ignored, or
// is dropped with extra arguments allowed.
func loosen(s *byteSource, tc agentcheck.ToolCall) agenttest.ExpectedCall {
	var keys []string
	for _, m := range tc.Args.Members() {
		keys = append(keys, m.Key)
	}
	if len(keys) == 0 {
		return agenttest.CallTo(tc.Name)
	}
	args := agenttest.Args(tc.Args.Interface().(map[string]any))
	key := keys[s.intn(len(keys))]
	v, _ := tc.Args.Get(key)
	e := agenttest.CallTo(tc.Name)
	switch s.intn(5) {
	case 0:
		args[key] = agenttest.Anything()
	case 1:
		args[key] = agenttest.OneOf("no such value", v.Interface())
	case 2:
		if k := v.Kind(); k == jsonvalue.IntKind || k == jsonvalue.FloatKind {
			args[key] = agenttest.Approx(v.Float(), 0)
		}
	case 3:
		e = e.Ignoring(key)
		args[key] = "ignored anyway"
	default:
		delete(args, key)
		e = e.AllowingExtraArgs()
	}
	return e.With(args)
}

// genExpected reads expectations that may or may not be met by actual:
// exact copies of actual calls, loosened ones, ones with a changed
// argument, a changed tool or any arguments.
func genExpected(s *byteSource, actual []agentcheck.ToolCall, most int) []agenttest.ExpectedCall {
	exp := make([]agenttest.ExpectedCall, s.intn(most+1))
	for i := range exp {
		var tc agentcheck.ToolCall
		if len(actual) > 0 && s.intn(4) > 0 {
			tc = actual[s.intn(len(actual))]
		} else {
			tc = genCall(s)
		}
		switch s.intn(5) {
		case 0:
			exp[i] = loosen(s, tc)
		case 1:
			args := agenttest.Args{}
			if tc.Args.Kind() == jsonvalue.ObjectKind {
				args = agenttest.Args(tc.Args.Interface().(map[string]any))
			}
			args["n"] = s.intn(3)
			exp[i] = agenttest.CallTo(tc.Name).With(args)
		case 2:
			exp[i] = agenttest.CallTo([]string{"search", "book", "refund"}[s.intn(3)])
		default:
			exp[i] = expectFrom(tc)
		}
	}
	return exp
}

// checkReport: a report always says something; a failing one says what
// was expected and, when it has calls to list, lists them.
func checkReport(t *testing.T, what string, r agenttest.Report, listed int) {
	t.Helper()
	if r.String() == "" {
		t.Fatalf("%s: empty report", what)
	}
	if r.OK() {
		return
	}
	if !strings.HasPrefix(r.String(), "Expected") {
		t.Fatalf("%s: a failure that does not say what was expected: %s", what, r)
	}
	// The calls are listed under the headline.
	if listed > 0 && !strings.Contains(r.String(), "\n") {
		t.Fatalf("%s: failed with only a headline, %d calls unlisted: %s", what, listed, r)
	}
}

// FuzzCheckToolCalls: an expectation built from a call's own arguments,
// or loosened with matchers, matches the call in every order; the calls'
// own expectations match them exactly, a subsequence of them in order, a
// shuffle of them in any order; a Superset verdict does not depend on the
// order of either list; Strict implies InOrder implies Superset; and a
// report always says something, with a diff when it fails.
func FuzzCheckToolCalls(f *testing.F) {
	f.Fuzz(func(t *testing.T, spec []byte, seed uint64) {
		src := byteSource(spec)
		actual := genActual(&src, 5)
		r := rand.New(rand.NewPCG(seed, seed>>32))
		orders := []trajectory.Mode{trajectory.Strict, trajectory.InOrder, trajectory.Superset}

		// NaN is not equal to itself, so a call with a NaN argument is not
		// expected by a copy of itself; the generators make none.
		var own []agenttest.ExpectedCall
		for _, tc := range actual {
			for _, e := range []agenttest.ExpectedCall{expectFrom(tc), loosen(&src, tc)} {
				if !e.Matches(tc) {
					t.Fatalf("%s does not match the call %s it was built from:\n%s", e, tc, agenttest.CheckToolCalls([]agentcheck.ToolCall{tc}, trajectory.Strict, e))
				}
				for _, o := range orders {
					if rep := agenttest.CheckToolCalls([]agentcheck.ToolCall{tc}, o, e); !rep.OK() {
						t.Fatalf("%s, %s: %s does not match the call %s it was built from:\n%s", o, e, e, tc, rep)
					}
				}
			}
			own = append(own, expectFrom(tc))
		}
		for _, o := range orders {
			if rep := agenttest.CheckToolCalls(actual, o, own...); !rep.OK() {
				t.Fatalf("%s: the calls' own expectations fail:\n%s", o, rep)
			}
		}
		var sub []agenttest.ExpectedCall
		for _, e := range own {
			if r.IntN(2) == 0 {
				sub = append(sub, e)
			}
		}
		if rep := agenttest.CheckToolCalls(actual, trajectory.InOrder, sub...); !rep.OK() {
			t.Fatalf("InOrder: a subsequence of the calls' own expectations fails:\n%s", rep)
		}
		if rep := agenttest.CheckToolCalls(actual, trajectory.Superset, permuted(r, sub)...); !rep.OK() {
			t.Fatalf("AnyOrder: a shuffled subset of the calls' own expectations fails:\n%s", rep)
		}

		expected := genExpected(&src, actual, 5)
		var ok [3]bool
		for i, o := range orders {
			rep := agenttest.CheckToolCalls(actual, o, expected...)
			checkReport(t, o.String(), rep, len(actual)+len(expected))
			ok[i] = rep.OK()
		}
		if ok[0] && !ok[1] || ok[1] && !ok[2] {
			t.Fatalf("Strict %v, InOrder %v, Superset %v for %v against %v", ok[0], ok[1], ok[2], expected, actual)
		}
		actual2, expected2 := permuted(r, actual), permuted(r, expected)
		rep2 := agenttest.CheckToolCalls(actual2, trajectory.Superset, expected2...)
		checkReport(t, "Superset, permuted", rep2, len(actual)+len(expected))
		if rep2.OK() != ok[2] {
			t.Fatalf("Superset is %v for %v against %v but %v after permuting them:\n%s", ok[2], expected, actual, rep2.OK(), rep2)
		}

		for _, e := range expected {
			n := agenttest.CountCalls(actual, e)
			for _, times := range []agenttest.Count{agenttest.AtLeastOnce(), agenttest.Never(), agenttest.Times(n), agenttest.Times(n + 1), agenttest.AtMost(n), agenttest.AtLeast(n + 1), agenttest.Between(n, n+1)} {
				rep := agenttest.CheckCalled(actual, e, times)
				checkReport(t, "CheckCalled", rep, len(actual))
				want := times.String() == "AtLeastOnce()" && n > 0 || times.String() == "Never()" && n == 0 ||
					times == agenttest.Times(n) || times == agenttest.AtMost(n) || times == agenttest.Between(n, n+1)
				if rep.OK() != want {
					t.Fatalf("CheckCalled(%s, %v) = %v with %d matching calls:\n%s", e, times, rep.OK(), n, rep)
				}
			}
		}
	})
}
