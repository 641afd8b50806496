package metric

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/jsonkey"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// greedyPairs is the baseline the F1 pairing (JavaMatch) is measured against: the Java
// port's greedy pairing (each call made, in order, takes the unmatched
// expected call with the highest score, the first on ties, and keeps it if
// the pair matches), given this package's own pair scoring so that the
// benchmarks compare pairings and not scoring code. greedyMatch in
// match_test.go is the plain version; TestGreedyWrongRate checks that the
// two agree. It returns the number of matched pairs.
func greedyPairs(m JavaMatch, pred, ref []agentcheck.ToolCall) int {
	if len(pred) == 0 || len(ref) == 0 {
		return 0
	}
	// Each argument (key and canonical value) and each whole call's
	// arguments get an id, so that scoring a pair merges two short sorted
	// lists of ids.
	ids := map[string]int32{}
	id := func(b []byte) int32 {
		if x, ok := ids[string(b)]; ok {
			return x
		}
		ids[string(b)] = int32(len(ids))
		return int32(len(ids) - 1)
	}
	keys := func(calls []agentcheck.ToolCall) []callArgs {
		out := make([]callArgs, len(calls))
		var buf []byte
		for i, c := range calls {
			out[i], buf = argKeys(c, id, buf)
		}
		return out
	}
	pk, rk := keys(pred), keys(ref)
	threshold := 1.0
	if m.Flexible {
		threshold = m.Metric().Threshold
	}
	used := make([]bool, len(ref))
	matched := 0
	for p := range pred {
		best, bestScore := -1, 0.0
		for r := range ref {
			if used[r] || pred[p].Name != ref[r].Name {
				continue // another tool's call scores 0, never the best
			}
			if s := pk[p].score(rk[r], !m.Flexible); s > bestScore {
				best, bestScore = r, s
			}
		}
		if best >= 0 && bestScore >= threshold {
			used[best] = true
			matched++
		}
	}
	return matched
}

// callArgs is a call's arguments as sorted ids of (key, canonical value),
// and the id of the whole arguments; invalid marks unparseable arguments.
type callArgs struct {
	members []int32
	whole   int32
	invalid bool
}

func argKeys(c agentcheck.ToolCall, id func([]byte) int32, buf []byte) (callArgs, []byte) {
	args := c.Args
	if args.Kind() == jsonvalue.NullKind {
		args = jsonvalue.Object()
	}
	buf = jsonkey.Append(append(buf[:0], 'w'), args, nil)
	a := callArgs{invalid: c.InvalidArgs != "", whole: id(buf)}
	if args.Kind() != jsonvalue.ObjectKind {
		buf = jsonkey.Append(append(buf[:0], '!'), args, nil)
		a.members = []int32{id(buf)}
		return a, buf
	}
	for _, mb := range args.Members() {
		buf = append(append(append(buf[:0], 'm'), mb.Key...), 0)
		buf = jsonkey.Append(buf, mb.Value, nil)
		a.members = append(a.members, id(buf))
	}
	slices.Sort(a.members)
	return a, buf
}

// score is the pair's argument score: equal arguments in strict mode,
// else the share of the expected call's arguments with equal values.
func (a callArgs) score(ref callArgs, strict bool) float64 {
	switch {
	case a.invalid || ref.invalid:
		return 0
	case strict:
		if a.whole == ref.whole {
			return 1
		}
		return 0
	case len(ref.members) == 0 && len(a.members) == 0:
		return 1
	case len(ref.members) == 0:
		return 0.5
	}
	shared, i, j := 0, 0, 0
	for i < len(a.members) && j < len(ref.members) {
		switch {
		case a.members[i] < ref.members[j]:
			i++
		case a.members[i] > ref.members[j]:
			j++
		default:
			shared++
			i++
			j++
		}
	}
	return float64(shared) / float64(len(ref.members))
}

// typical5x5 is BenchmarkF1Match5x5's typical agent run: a few tools,
// one extra argument, one missing, one retried call.
func typical5x5() (pred, ref []agentcheck.ToolCall) {
	ref = []agentcheck.ToolCall{
		mcall("search_flights", `{"from":"BER","to":"LIS","date":"2025-06-01"}`),
		mcall("get_weather", `{"city":"Lisbon","unit":"celsius"}`),
		mcall("search_hotels", `{"city":"Lisbon","nights":3,"guests":2}`),
		mcall("book_flight", `{"flight":"TP 541","seat":"12A"}`),
		mcall("book_hotel", `{"hotel":"Alfama Inn","nights":3}`),
	}
	pred = []agentcheck.ToolCall{
		mcall("search_flights", `{"from":"BER","to":"LIS","date":"2025-06-01","cabin":"economy"}`),
		mcall("search_hotels", `{"city":"Lisbon","nights":3,"guests":2}`),
		mcall("get_weather", `{"city":"Lisbon"}`),
		mcall("book_flight", `{"seat":"12A","flight":"TP 541"}`),
		mcall("book_flight", `{"seat":"12A","flight":"TP 541"}`),
	}
	return pred, ref
}

// BenchmarkPairing times the optimal pairing (JavaMatch.Match, any
// order, flexible at the default threshold) against greedy pairing on
// the same calls: a typical 5×5 run, and 1000 flight searches against 1000
// with many duplicates and near duplicates (BenchmarkF1Match1000x1000's
// calls). The "matched" metric is how many pairs each found.
func BenchmarkPairing(b *testing.B) {
	m := JavaMatch{Flexible: true}
	pred5, ref5 := typical5x5()
	rng := rand.New(rand.NewPCG(7, 8))
	pred1k, ref1k := benchFlights(rng, 1000, 1), benchFlights(rng, 1000, 1)
	for _, c := range []struct {
		name      string
		pred, ref []agentcheck.ToolCall
	}{{"5x5", pred5, ref5}, {"1000x1000", pred1k, ref1k}} {
		b.Run(c.name+"/optimal", func(b *testing.B) { benchMatch(b, m, c.pred, c.ref) })
		b.Run(c.name+"/greedy", func(b *testing.B) {
			b.ReportAllocs()
			matched := 0
			for b.Loop() {
				matched = greedyPairs(m, c.pred, c.ref)
			}
			b.ReportMetric(float64(matched), "matched")
		})
	}
}

// TestGreedyWrongRate measures how often greedy pairing scores a run lower
// than the optimal pairing, on 10,000 random any-order cases of 1 to 8
// calls a side drawn from small pools (two tool names, three argument
// names, twelve values), so that duplicates and near duplicates are common;
// the argument comparison is drawn as in the other random tests (strict,
// or flexible at thresholds 0.3 to 1). It fails if greedy ever beats the
// optimal pairing, if the fast greedy baseline disagrees with the plain
// one (checked on the first 1,000 cases), or if greedy is ever wrong in strict mode (equal calls are
// interchangeable, so greedy is optimal there). With -v it prints the rate:
//
//	go test ./metric -run TestGreedyWrongRate -v
func TestGreedyWrongRate(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	const cases = 10000
	rng := rand.New(rand.NewPCG(9, 10))
	type tally struct {
		cases, wrong int
		f1Lost       float64
	}
	var all, strict, flexible tally
	for iter := range cases {
		m := randomMatcher(rng)
		m.Ordered = false
		pred := randomToolCalls(rng, 1+rng.IntN(8))
		ref := randomToolCalls(rng, 1+rng.IntN(8))
		best := m.Match(pred, ref)
		g := greedyPairs(m, pred, ref)
		if iter < 1000 {
			// The plain version is slow; a thousand cases check the fast one.
			if plain := greedyMatch(m, pred, ref); plain != g {
				t.Fatalf("case %d %+v: fast greedy matched %d, plain greedy %d\npred %v\nref  %v", iter, m, g, plain, pred, ref)
			}
		}
		if best.Matched < g {
			t.Fatalf("case %d %+v: optimal pairing matched %d, greedy %d\npred %v\nref  %v", iter, m, best.Matched, g, pred, ref)
		}
		side := &flexible
		if !m.Flexible {
			side = &strict
		}
		for _, s := range []*tally{&all, side} {
			s.cases++
			if best.Matched > g {
				s.wrong++
				s.f1Lost += best.F1 - greedyF1(g, len(pred), len(ref))
			}
		}
	}
	if strict.wrong > 0 {
		t.Errorf("greedy was wrong in %d strict cases, where it is optimal", strict.wrong)
	}
	if all.wrong == 0 {
		t.Errorf("greedy was never wrong: the random cases are too easy to show anything")
	}
	pct := func(s tally) float64 { return 100 * float64(s.wrong) / float64(s.cases) }
	lost := func(s tally) float64 {
		if s.wrong == 0 {
			return 0
		}
		return s.f1Lost / float64(s.wrong)
	}
	t.Logf("greedy wrong in %d of %d cases (%.2f%%); mean F1 lost when wrong %.3f", all.wrong, all.cases, pct(all), lost(all))
	t.Logf("flexible: greedy wrong in %d of %d cases (%.2f%%); strict: %d of %d", flexible.wrong, flexible.cases, pct(flexible), strict.wrong, strict.cases)
}
