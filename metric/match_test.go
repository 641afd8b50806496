package metric

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/agentcheck/agentcheck/trajectory"
)

func mcall(name, args string) agentcheck.ToolCall { return agentcheck.MustParseToolCall(name, args) }

func TestF1MatchArguments(t *testing.T) {
	strict, flexible := JavaMatch{}, JavaMatch{Flexible: true}
	five := `{"a":1,"b":2,"c":3,"d":4,"e":5}`
	tests := []struct {
		name      string
		m         JavaMatch
		pred, ref agentcheck.ToolCall
		matched   bool
		score     float64 // of the pair, when matched
	}{
		{"strict equal", strict, mcall("f", `{"a":1,"b":"x"}`), mcall("f", `{"a":1,"b":"x"}`), true, 1},
		{"strict key order ignored", strict, mcall("f", `{"b":"x","a":1}`), mcall("f", `{"a":1,"b":"x"}`), true, 1},
		{"strict nested key order ignored", strict, mcall("f", `{"o":{"y":[1,{"q":2,"p":1}],"x":null}}`), mcall("f", `{"o":{"x":null,"y":[1,{"p":1,"q":2}]}}`), true, 1},
		{"strict numbers by value", strict, mcall("f", `{"n":1,"m":[2.0],"k":1e2}`), mcall("f", `{"n":1.0,"m":[2],"k":100}`), true, 1},
		{"strict big numbers by exact value", strict, mcall("f", `{"n":10000000000000000000001}`), mcall("f", `{"n":1e22}`), false, 0},
		{"strict true is not 1", strict, mcall("f", `{"n":true}`), mcall("f", `{"n":1}`), false, 0},
		{"strict string is not number", strict, mcall("f", `{"n":"1"}`), mcall("f", `{"n":1}`), false, 0},
		{"strict array order matters", strict, mcall("f", `{"l":[1,2]}`), mcall("f", `{"l":[2,1]}`), false, 0},
		{"strict extra argument", strict, mcall("f", `{"a":1,"b":2}`), mcall("f", `{"a":1}`), false, 0},
		{"strict no arguments is empty object", strict, agentcheck.ToolCall{Name: "f"}, mcall("f", `{}`), true, 1},
		{"strict names differ", strict, mcall("g", `{"a":1}`), mcall("f", `{"a":1}`), false, 0},
		{"flexible names differ", flexible, mcall("g", `{}`), mcall("f", `{}`), false, 0},
		{"flexible all equal", flexible, mcall("f", five), mcall("f", five), true, 1},
		{"flexible 4 of 5 reaches 0.8", flexible, mcall("f", `{"a":1,"b":2,"c":3,"d":4,"e":6}`), mcall("f", five), true, 0.8},
		{"flexible 4 of 5 by value", flexible, mcall("f", `{"e":5.0,"d":4,"c":3,"b":2,"a":"1"}`), mcall("f", five), true, 0.8},
		{"flexible 3 of 5 misses 0.8", flexible, mcall("f", `{"a":1,"b":2,"c":3}`), mcall("f", five), false, 0},
		{"flexible extra arguments ignored", flexible, mcall("f", `{"a":1,"z":9}`), mcall("f", `{"a":1}`), true, 1},
		{"flexible both empty", flexible, agentcheck.ToolCall{Name: "f"}, mcall("f", `{}`), true, 1},
		{"flexible empty reference 0.5 below default", flexible, mcall("f", `{"a":1}`), mcall("f", `{}`), false, 0},
		{"flexible empty reference 0.5 at threshold 0.5", JavaMatch{Flexible: true, Threshold: 0.5}, mcall("f", `{"a":1}`), mcall("f", `{}`), true, 0.5},
		{"flexible threshold 0.6", JavaMatch{Flexible: true, Threshold: 0.6}, mcall("f", `{"a":1,"b":2,"c":3}`), mcall("f", five), true, 0.6},
		{"flexible null matches present null", flexible, mcall("f", `{"a":null}`), mcall("f", `{"a":null}`), true, 1},
		{"flexible null does not match absent", JavaMatch{Flexible: true, Threshold: 0.5}, mcall("f", `{"b":1}`), mcall("f", `{"a":null,"b":2}`), false, 0},
		{"flexible score 0 never matches", JavaMatch{Flexible: true, Threshold: 1e-9}, mcall("f", `{"a":2}`), mcall("f", `{"a":1}`), false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, inOrder := range []bool{false, true} {
				m := tt.m
				m.Ordered = inOrder
				got := m.Match([]agentcheck.ToolCall{tt.pred}, []agentcheck.ToolCall{tt.ref})
				want := []CallPair{{Reference: 0, Predicted: 0, Score: tt.score, Matched: true}}
				if !tt.matched {
					want = []CallPair{{Reference: 0, Predicted: -1}, {Reference: -1, Predicted: 0}}
				}
				if !slices.Equal(got.Pairs, want) {
					t.Errorf("InOrder %v: pairs %+v, want %+v", inOrder, got.Pairs, want)
				}
				if s := naiveScore(m, tt.pred, tt.ref); tt.matched && s != tt.score {
					t.Errorf("the test's own scorer gives %v, want %v", s, tt.score)
				}
			}
		})
	}
}

func TestF1MatchScores(t *testing.T) {
	f1 := func(p, r float64) float64 { return 2 * p * r / (p + r) }
	tests := []struct {
		name                   string
		m                      JavaMatch
		pred, ref              []agentcheck.ToolCall
		matched                int
		precision, recall, fF1 float64
		warnings               []string
	}{
		{"both empty", JavaMatch{}, nil, nil, 0, 1, 1, 1, nil},
		{"nothing made", JavaMatch{}, nil, []agentcheck.ToolCall{mcall("f", `{}`)}, 0, 0, 0, 0, []string{warnNoPredictions}},
		{"nothing expected", JavaMatch{}, []agentcheck.ToolCall{mcall("f", `{}`)}, []agentcheck.ToolCall{}, 0, 0, 0, 0, []string{warnEmptyReference}},
		{"retry costs precision", JavaMatch{},
			[]agentcheck.ToolCall{mcall("f", `{"x":1}`), mcall("f", `{"x":1}`)},
			[]agentcheck.ToolCall{mcall("f", `{"x":1}`)}, 1, 0.5, 1, f1(0.5, 1), nil},
		{"duplicates pair one to one", JavaMatch{},
			[]agentcheck.ToolCall{mcall("f", `{"x":1}`), mcall("g", `{}`), mcall("f", `{"x":1}`), mcall("f", `{"x":2}`)},
			[]agentcheck.ToolCall{mcall("f", `{"x":1}`), mcall("f", `{"x":1}`), mcall("f", `{"x":1}`), mcall("g", `{}`)}, 3, 0.75, 0.75, f1(0.75, 0.75), nil},
		{"wrong argument", JavaMatch{},
			[]agentcheck.ToolCall{mcall("weather", `{"city":"Paris"}`), mcall("weather", `{"city":"Berlin"}`)},
			[]agentcheck.ToolCall{mcall("weather", `{"city":"Paris"}`), mcall("weather", `{"city":"London"}`)}, 1, 0.5, 0.5, 0.5, nil},
		{"order ignored by default", JavaMatch{},
			[]agentcheck.ToolCall{mcall("b", `{}`), mcall("a", `{}`)},
			[]agentcheck.ToolCall{mcall("a", `{}`), mcall("b", `{}`)}, 2, 1, 1, 1, nil},
		{"order kept InOrder", JavaMatch{Ordered: true},
			[]agentcheck.ToolCall{mcall("b", `{}`), mcall("a", `{}`)},
			[]agentcheck.ToolCall{mcall("a", `{}`), mcall("b", `{}`)}, 1, 0.5, 0.5, 0.5, nil},
		{"InOrder skips an extra call", JavaMatch{Ordered: true, Flexible: true},
			[]agentcheck.ToolCall{mcall("a", `{"q":1}`), mcall("log", `{}`), mcall("b", `{"q":2,"r":3}`), mcall("c", `{}`)},
			[]agentcheck.ToolCall{mcall("a", `{"q":1}`), mcall("b", `{"q":2}`), mcall("c", `{}`)}, 3, 0.75, 1, f1(0.75, 1), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.m.Match(tt.pred, tt.ref)
			if got.Matched != tt.matched || got.Precision != tt.precision || got.Recall != tt.recall || got.F1 != tt.fF1 {
				t.Errorf("matched %d, precision %v, recall %v, F1 %v; want %d, %v, %v, %v",
					got.Matched, got.Precision, got.Recall, got.F1, tt.matched, tt.precision, tt.recall, tt.fF1)
			}
			checkPairsCover(t, got.Pairs, len(tt.pred), len(tt.ref))
			r := tt.m.Compare(tt.pred, tt.ref)
			if r.Metric != "trajectory_match" || r.Score != tt.fF1 || !slices.Equal(r.Warnings, tt.warnings) {
				t.Errorf("Compare = %+v, want score %v and warnings %q", r, tt.fF1, tt.warnings)
			}
		})
	}
}

func TestF1MatchReason(t *testing.T) {
	pred := []agentcheck.ToolCall{mcall("f", `{"x":1,"y":1}`), mcall("f", `{"x":2}`), mcall("g", `{}`)}
	ref := []agentcheck.ToolCall{mcall("f", `{"x":1,"y":2}`), mcall("f", `{"x":2}`)}
	r := JavaMatch{Flexible: true, Threshold: 0.5}.Compare(pred, ref)
	want := "unordered: 2 of 3 calls made match an expected call (precision 0.6666666666666666), 2 of 2 expected calls were made (recall 1) (arguments matching when at least 0.5 of the expected ones are equal); made [0] f({\"x\":1,\"y\":1}) where [0] f({\"x\":1,\"y\":2}) was expected; made, not expected: [2] g()"
	if r.Reason != want {
		t.Errorf("reason\n%s\nwant\n%s", r.Reason, want)
	}
	if r.Score != 0.8 {
		t.Errorf("score %v, want 0.8", r.Score)
	}
	wantPairs := []CallPair{{0, 0, 0.5, true}, {1, 1, 1, true}, {-1, 2, 0, false}}
	if !slices.Equal(r.Pairs, wantPairs) {
		t.Errorf("pairs %+v, want %+v", r.Pairs, wantPairs)
	}
	r = JavaMatch{Ordered: true}.Compare(pred, ref)
	if !strings.HasPrefix(r.Reason, "in_order: 1 of 3 calls made") || !strings.Contains(r.Reason, "(arguments exact)") {
		t.Errorf("reason %q", r.Reason)
	}
}

func TestF1MatchEvaluate(t *testing.T) {
	m := JavaMatch{}
	s := agentcheck.Sample{Conversation: agentcheck.Conversation{
		{Role: agentcheck.Human, Content: "weather in Paris?"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{mcall("weather", `{"city":"Paris"}`), mcall("weather", `{"city":"Paris"}`)}},
	}}
	// A sample without reference tool calls expects none, as in every
	// trajectory mode.
	if r, err := m.Evaluate(context.Background(), s); err != nil || r.Score != 0 || !slices.Equal(r.Warnings, []string{warnEmptyReference}) {
		t.Errorf("no reference: %+v, %v; want score 0 with the empty-reference warning", r, err)
	}
	s.ReferenceToolCalls = []agentcheck.ToolCall{mcall("weather", `{"city":"Paris"}`)}
	r, err := m.Evaluate(context.Background(), s)
	if err != nil || r.Score != 2*0.5*1/(0.5+1) {
		t.Errorf("Evaluate = %v, %v; want 2/3", r, err)
	}
}

// TestF1MatchOddArguments covers arguments that are not an object,
// which only Go code can build: they match as a whole or not at all.
func TestF1MatchOddArguments(t *testing.T) {
	list := agentcheck.ToolCall{Name: "f", Args: jsonvalue.Array(jsonvalue.Int(1), jsonvalue.String("a"))}
	same := agentcheck.ToolCall{Name: "f", Args: jsonvalue.Array(jsonvalue.Float(1), jsonvalue.String("a"))}
	swapped := agentcheck.ToolCall{Name: "f", Args: jsonvalue.Array(jsonvalue.String("a"), jsonvalue.Int(1))}
	object := mcall("f", `{"0":1,"1":"a"}`)
	for _, mode := range []JavaMatch{{}, {Flexible: true}} {
		for _, c := range []struct {
			pred, ref agentcheck.ToolCall
			want      int
		}{{same, list, 1}, {swapped, list, 0}, {object, list, 0}, {list, object, 0}} {
			got := mode.Match([]agentcheck.ToolCall{c.pred, c.pred}, []agentcheck.ToolCall{c.ref, c.ref})
			if got.Matched != 2*c.want {
				t.Errorf("%v: %v against %v: %d matches, want %d", mode, c.pred, c.ref, got.Matched, 2*c.want)
			}
		}
	}
}

// TestF1MatchThresholdAboveOne: nothing reaches it, not even equal
// calls.
func TestF1MatchThresholdAboveOne(t *testing.T) {
	calls := []agentcheck.ToolCall{mcall("f", `{"a":1}`), mcall("f", `{"a":1}`), mcall("f", `{}`)}
	for _, inOrder := range []bool{false, true} {
		m := JavaMatch{Flexible: true, Threshold: 1.5, Ordered: inOrder}
		if got := m.Match(calls, calls); got.Matched != 0 {
			t.Errorf("InOrder %v: %d matches, want 0", inOrder, got.Matched)
		}
	}
}

// TestF1MatchManyArgumentCounts has reference calls whose argument
// counts have a least common multiple too large for exact integer scores,
// so scores are rounded to a unit; the pairing must still be the best.
func TestF1MatchManyArgumentCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	primes := []int{2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43}
	object := func(n int) string {
		var b strings.Builder
		b.WriteByte('{')
		for k := range n {
			if k > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"k%d":%d`, k, rng.IntN(2))
		}
		return b.String() + "}"
	}
	for iter := range 20 {
		var ref, pred []agentcheck.ToolCall
		for _, p := range primes {
			ref = append(ref, mcall("f", object(p)))
		}
		for range 4 {
			pred = append(pred, mcall("f", object(43)))
		}
		m := JavaMatch{Flexible: true, Threshold: 0.55}
		got := m.Match(pred, ref)
		wantCount, wantTotal := bruteForce(m, pred, ref)
		if got.Matched != wantCount || math.Abs(matchedScore(got)-wantTotal) > 1e-9 {
			t.Fatalf("case %d: %d matches, total %v; best is %d, %v", iter, got.Matched, matchedScore(got), wantCount, wantTotal)
		}
	}
}

// TestF1MatchBeatsGreedy is the case the Java port gets wrong: the
// first search is exact for the first expected call but also close enough
// to the second, and the second search matches only the first expected
// call. Greedy pairing hands the first expected call to the first search
// and leaves the second search unmatched; the best pairing matches both.
// Greedy also depends on the order of the calls; the best pairing does not.
func TestF1MatchBeatsGreedy(t *testing.T) {
	ref := []agentcheck.ToolCall{
		mcall("search_flights", `{"from":"BER","to":"LIS","date":"2025-06-01","cabin":"economy","passengers":2}`),
		mcall("search_flights", `{"from":"BER","to":"LIS","date":"2025-06-01","cabin":"business","passengers":2}`),
	}
	pred := []agentcheck.ToolCall{
		mcall("search_flights", `{"from":"BER","to":"LIS","date":"2025-06-01","cabin":"economy","passengers":2}`),
		mcall("search_flights", `{"from":"BER","to":"LIS","date":"2025-06-01","cabin":"economy","passengers":3}`),
	}
	m := JavaMatch{Flexible: true}
	// The pair scores that make it so.
	for _, c := range []struct {
		p, r int
		want float64
	}{{0, 0, 1}, {0, 1, 0.8}, {1, 0, 0.8}, {1, 1, 0.6}} {
		if s := naiveScore(m, pred[c.p], ref[c.r]); s != c.want {
			t.Fatalf("score(pred %d, ref %d) = %v, want %v", c.p, c.r, s, c.want)
		}
	}
	if g := greedyMatch(m, pred, ref); g != 1 || greedyF1(g, 2, 2) != 0.5 {
		t.Errorf("greedy matched %d (F1 %v), want 1 (F1 0.5)", g, greedyF1(g, 2, 2))
	}
	reversed := []agentcheck.ToolCall{pred[1], pred[0]}
	if g := greedyMatch(m, reversed, ref); g != 2 {
		t.Errorf("greedy on reversed calls matched %d, want 2", g)
	}
	for _, p := range [][]agentcheck.ToolCall{pred, reversed} {
		got := m.Match(p, ref)
		if got.Matched != 2 || got.F1 != 1 {
			t.Errorf("Match matched %d (F1 %v), want 2 (F1 1)", got.Matched, got.F1)
		}
	}
	got := m.Match(pred, ref)
	want := []CallPair{{0, 1, 0.8, true}, {1, 0, 0.8, true}}
	if !slices.Equal(got.Pairs, want) {
		t.Errorf("pairs %+v, want %+v", got.Pairs, want)
	}
}

// TestF1MatchPrefersHigherScore checks the second criterion: with as
// many matches either way, the pairing with the higher total score wins.
func TestF1MatchPrefersHigherScore(t *testing.T) {
	ref := []agentcheck.ToolCall{mcall("f", `{"a":1,"b":1}`), mcall("f", `{"a":1,"b":2}`)}
	pred := []agentcheck.ToolCall{mcall("f", `{"a":1,"b":2}`), mcall("f", `{"a":1,"b":1}`)}
	m := JavaMatch{Flexible: true, Threshold: 0.5}
	for _, inOrder := range []bool{false, true} {
		m.Ordered = inOrder
		got := m.Match(pred, ref)
		if inOrder {
			// Order allows only one of the exact pairs.
			want := []CallPair{{0, 0, 0.5, true}, {1, 1, 0.5, true}}
			if !slices.Equal(got.Pairs, want) {
				t.Errorf("in order: pairs %+v, want %+v", got.Pairs, want)
			}
			continue
		}
		want := []CallPair{{0, 1, 1, true}, {1, 0, 1, true}}
		if !slices.Equal(got.Pairs, want) {
			t.Errorf("any order: pairs %+v, want %+v", got.Pairs, want)
		}
	}
}

// TestF1MatchAgainstBruteForce compares the pairing with every
// possible one on small random cases with many duplicates and near
// duplicates: the most matches, then the highest total score.
func TestF1MatchAgainstBruteForce(t *testing.T) {
	t.Parallel() // it overlaps the package's other slow tests
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := range 3000 {
		m := randomMatcher(rng)
		pred := randomToolCalls(rng, rng.IntN(7))
		ref := randomToolCalls(rng, rng.IntN(7))
		got := m.Match(pred, ref)
		checkPairsCover(t, got.Pairs, len(pred), len(ref))
		count, total := 0, 0.0
		for _, p := range got.Pairs {
			if p.Matched {
				s := naiveScore(m, pred[p.Predicted], ref[p.Reference])
				if s != p.Score || !naiveMatches(m, s) {
					t.Fatalf("case %d %+v: pair %+v, but the pair scores %v\npred %v\nref  %v", iter, m, p, s, pred, ref)
				}
				count++
				total += s
			}
		}
		wantCount, wantTotal := bruteForce(m, pred, ref)
		if count != wantCount || math.Abs(total-wantTotal) > 1e-9 {
			t.Fatalf("case %d %+v: %d matches, total score %v; best is %d, %v\npred %v\nref  %v\npairs %+v",
				iter, m, count, total, wantCount, wantTotal, pred, ref, got.Pairs)
		}
		if got.Matched != count {
			t.Fatalf("case %d: Matched %d, pairs say %d", iter, got.Matched, count)
		}
	}
}

// TestF1MatchProperties checks, on larger random cases, that the
// best pairing never matches fewer calls than greedy pairing, and that in
// any order the result does not depend on the order of the calls.
func TestF1MatchProperties(t *testing.T) {
	t.Parallel() // it overlaps the package's other slow tests
	rng := rand.New(rand.NewPCG(3, 4))
	better := 0
	for iter := range 500 {
		m := randomMatcher(rng)
		m.Ordered = false
		pred := randomToolCalls(rng, rng.IntN(40))
		ref := randomToolCalls(rng, rng.IntN(40))
		got := m.Match(pred, ref)
		checkPairsCover(t, got.Pairs, len(pred), len(ref))
		g := greedyMatch(m, pred, ref)
		if got.Matched < g {
			t.Fatalf("case %d %+v: %d matches, greedy finds %d\npred %v\nref  %v", iter, m, got.Matched, g, pred, ref)
		}
		if got.Matched > g {
			better++
		}
		sp, sr := slices.Clone(pred), slices.Clone(ref)
		rng.Shuffle(len(sp), func(i, j int) { sp[i], sp[j] = sp[j], sp[i] })
		rng.Shuffle(len(sr), func(i, j int) { sr[i], sr[j] = sr[j], sr[i] })
		shuffled := m.Match(sp, sr)
		if shuffled.Matched != got.Matched || shuffled.F1 != got.F1 || math.Abs(matchedScore(shuffled)-matchedScore(got)) > 1e-9 {
			t.Fatalf("case %d %+v: shuffling the calls changes %d matches, F1 %v, total %v to %d, %v, %v",
				iter, m, got.Matched, got.F1, matchedScore(got), shuffled.Matched, shuffled.F1, matchedScore(shuffled))
		}
	}
	// The cases must be hard enough for greedy to fail sometimes, or the
	// test shows nothing.
	if better == 0 {
		t.Errorf("greedy pairing was never worse: the random cases are too easy")
	}
	t.Logf("optimal pairing beat greedy in %d of 500 cases", better)
}

// ExampleTrajectoryMatch_f1 is spring-ai-ragas's ToolCallAccuracy with its
// pairing fixed: the F1 of precision and recall over the best pairing.
func ExampleTrajectoryMatch_f1() {
	expected := []agentcheck.ToolCall{
		agentcheck.MustParseToolCall("search", `{"query":"flights BER-LIS","cabin":"economy"}`),
		agentcheck.MustParseToolCall("book", `{"flight":"TP 541","seat":"12A"}`),
	}
	made := []agentcheck.ToolCall{
		agentcheck.MustParseToolCall("search", `{"query":"flights BER-LIS"}`),
		agentcheck.MustParseToolCall("search", `{"cabin":"economy","query":"flights BER-LIS"}`), // a retry
		agentcheck.MustParseToolCall("book", `{"seat":"12A","flight":"TP 541"}`),
	}
	r := TrajectoryMatch{Mode: trajectory.Unordered, Scoring: trajectory.ScoreF1}.Compare(made, expected)
	fmt.Println(r)
	for _, p := range r.Pairs {
		fmt.Printf("expected %d, made %d, matched %v\n", p.Reference, p.Predicted, p.Matched)
	}
	// Output:
	// trajectory_match = 0.8: unordered: 2 of 3 calls made match an expected call (precision 0.6666666666666666), 2 of 2 expected calls were made (recall 1) (arguments exact); made, not expected: [0] search({"query":"flights BER-LIS"})
	// expected 0, made 1, matched true
	// expected 1, made 2, matched true
	// expected -1, made 0, matched false
}

// checkPairsCover checks that every call appears in exactly one pair.
func checkPairsCover(t *testing.T, pairs []CallPair, np, nr int) {
	t.Helper()
	seenP, seenR := make([]int, np), make([]int, nr)
	for _, p := range pairs {
		if p.Predicted < -1 || p.Predicted >= np || p.Reference < -1 || p.Reference >= nr || p.Predicted == -1 && p.Reference == -1 {
			t.Fatalf("pair %+v out of range (%d predicted, %d reference)", p, np, nr)
		}
		if p.Matched != (p.Predicted >= 0 && p.Reference >= 0) {
			t.Fatalf("pair %+v: Matched must mean both sides are there", p)
		}
		if p.Predicted >= 0 {
			seenP[p.Predicted]++
		}
		if p.Reference >= 0 {
			seenR[p.Reference]++
		}
	}
	for i, n := range seenP {
		if n != 1 {
			t.Fatalf("predicted call %d is in %d pairs: %+v", i, n, pairs)
		}
	}
	for i, n := range seenR {
		if n != 1 {
			t.Fatalf("reference call %d is in %d pairs: %+v", i, n, pairs)
		}
	}
}

func matchedScore(r MatchResult) float64 {
	total := 0.0
	for _, p := range r.Pairs {
		total += p.Score
	}
	return total
}

func greedyF1(matched, np, nr int) float64 {
	p, r := float64(matched)/float64(np), float64(matched)/float64(nr)
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

// greedyMatch is the Java port's pairing: each call made, in order, takes
// the unmatched expected call with the highest score (the first on ties),
// and keeps it if the pair matches. It returns the number of matches.
func greedyMatch(m JavaMatch, pred, ref []agentcheck.ToolCall) int {
	used := make([]bool, len(ref))
	matched := 0
	for _, p := range pred {
		best, bestScore := -1, 0.0
		for j, r := range ref {
			if s := naiveScore(m, p, r); !used[j] && s > bestScore {
				best, bestScore = j, s
			}
		}
		if best >= 0 && naiveMatches(m, bestScore) {
			used[best] = true
			matched++
		}
	}
	return matched
}

// bruteForce tries every pairing (order-keeping ones with InOrder) and
// returns the most matches and, for as many, the highest total score.
func bruteForce(m JavaMatch, pred, ref []agentcheck.ToolCall) (int, float64) {
	score := make([][]float64, len(pred))
	for i := range pred {
		score[i] = make([]float64, len(ref))
		for j := range ref {
			score[i][j] = naiveScore(m, pred[i], ref[j])
		}
	}
	used := make([]bool, len(ref))
	var rec func(i, from int) (int, float64)
	rec = func(i, from int) (int, float64) {
		if i == len(pred) {
			return 0, 0
		}
		bc, bs := rec(i+1, from) // call i unmatched
		for j := range ref {
			if used[j] || m.Ordered && j < from {
				continue
			}
			s := score[i][j]
			if !naiveMatches(m, s) {
				continue
			}
			used[j] = true
			c, t := rec(i+1, j+1)
			used[j] = false
			if c+1 > bc || c+1 == bc && t+s > bs+1e-12 {
				bc, bs = c+1, t+s
			}
		}
		return bc, bs
	}
	return rec(0, 0)
}

func naiveMatches(m JavaMatch, score float64) bool {
	if !m.Flexible {
		return score == 1
	}
	thr := m.Threshold
	if thr <= 0 {
		thr = 0.8
	}
	return score > 0 && score >= thr
}

// naiveScore is the pair score written plainly, apart from the code under
// test: Get for each argument and a recursive JSON equality with exact
// rational numbers.
func naiveScore(m JavaMatch, p, r agentcheck.ToolCall) float64 {
	if p.Name != r.Name {
		return 0
	}
	pa, ra := p.Args, r.Args
	if pa.Kind() == jsonvalue.NullKind {
		pa = jsonvalue.MustParse(`{}`)
	}
	if ra.Kind() == jsonvalue.NullKind {
		ra = jsonvalue.MustParse(`{}`)
	}
	if !m.Flexible {
		if plainJSONEqual(pa, ra) {
			return 1
		}
		return 0
	}
	switch {
	case ra.Len() == 0 && pa.Len() == 0:
		return 1
	case ra.Len() == 0:
		return 0.5
	}
	shared := 0
	for _, mem := range ra.Members() {
		if v, ok := pa.Get(mem.Key); ok && plainJSONEqual(v, mem.Value) {
			shared++
		}
	}
	return float64(shared) / float64(ra.Len())
}

func plainJSONEqual(a, b jsonvalue.Value) bool {
	isNum := func(v jsonvalue.Value) bool {
		return v.Kind() == jsonvalue.IntKind || v.Kind() == jsonvalue.FloatKind
	}
	if isNum(a) && isNum(b) {
		ra, rb := plainRational(a), plainRational(b)
		if ra == nil || rb == nil {
			return a.Kind() == jsonvalue.FloatKind && b.Kind() == jsonvalue.FloatKind && a.Float() == b.Float()
		}
		return ra.Cmp(rb) == 0
	}
	if a.Kind() != b.Kind() || a.Len() != b.Len() {
		return false
	}
	switch a.Kind() {
	case jsonvalue.BoolKind:
		return a.BoolValue() == b.BoolValue()
	case jsonvalue.StringKind:
		return a.Text() == b.Text()
	case jsonvalue.ArrayKind:
		for i := range a.Len() {
			if !plainJSONEqual(a.Index(i), b.Index(i)) {
				return false
			}
		}
	case jsonvalue.ObjectKind:
		for _, mem := range a.Members() {
			if v, ok := b.Get(mem.Key); !ok || !plainJSONEqual(mem.Value, v) {
				return false
			}
		}
	}
	return true
}

func plainRational(v jsonvalue.Value) *big.Rat {
	if v.Kind() == jsonvalue.IntKind {
		r, _ := new(big.Rat).SetString(v.String())
		return r
	}
	return new(big.Rat).SetFloat64(v.Float()) // nil for NaN and infinities
}

func randomMatcher(rng *rand.Rand) JavaMatch {
	m := JavaMatch{Ordered: rng.IntN(2) == 0}
	if rng.IntN(4) > 0 {
		m.Flexible = true
		m.Threshold = []float64{0, 0.3, 0.5, 0.6, 1}[rng.IntN(5)]
	}
	return m
}

// randomToolCalls draws calls from a small pool of names, argument names and
// values, so that duplicates and near duplicates are common; values include
// equal numbers written differently and look-alikes that are not equal.
func randomToolCalls(rng *rand.Rand, n int) []agentcheck.ToolCall {
	names := []string{"get", "get", "set"}
	keys := []string{"a", "b", "c"}
	values := []string{`1`, `1.0`, `true`, `false`, `0`, `-0.0`, `"1"`, `"x"`, `null`, `[1,2]`, `{"k":1,"j":2}`, `{"j":2.0,"k":1}`}
	calls := make([]agentcheck.ToolCall, n)
	for i := range calls {
		var b strings.Builder
		b.WriteByte('{')
		for _, k := range keys {
			if rng.IntN(3) == 0 {
				continue
			}
			if b.Len() > 1 {
				b.WriteByte(',')
			}
			b.WriteString(`"` + k + `":`) // the keys need no escaping
			b.WriteString(values[rng.IntN(len(values))])
		}
		b.WriteByte('}')
		calls[i] = mcall(names[rng.IntN(len(names))], b.String())
	}
	return calls
}

// benchFlights draws flight searches with five arguments from small pools.
// With spread 1 there are 1680 distinct calls, so among 1000 there are many
// duplicates, and most calls have near duplicates (4 of 5 arguments equal,
// a flexible JavaMatch at the default threshold); a larger spread draws from
// pools that many times larger.
func benchFlights(rng *rand.Rand, n, spread int) []agentcheck.ToolCall {
	calls := make([]agentcheck.ToolCall, n)
	for i := range calls {
		calls[i] = mcall("search_flights", fmt.Sprintf(`{"from":"A%d","to":"B%d","date":"2025-06-%02d","cabin":"C%d","passengers":%d}`,
			rng.IntN(4*spread), rng.IntN(5*spread), 1+rng.IntN(7*spread), rng.IntN(3*spread), 1+rng.IntN(4*spread)))
	}
	return calls
}

func benchMatch(b *testing.B, m JavaMatch, pred, ref []agentcheck.ToolCall) {
	b.ReportAllocs()
	matched := 0
	for b.Loop() {
		matched = m.Match(pred, ref).Matched
	}
	b.ReportMetric(float64(matched), "matched")
}

// BenchmarkF1Match1000x1000 is 1000 calls of one tool against 1000,
// with many duplicates and near duplicates: one assignment problem.
func BenchmarkF1Match1000x1000(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	benchMatch(b, JavaMatch{Flexible: true}, benchFlights(rng, 1000, 1), benchFlights(rng, 1000, 1))
}

// BenchmarkF1Match1000x1000Dense has most pairs match (one argument
// in five is enough) but few perfectly, the expected calls being drawn from
// wider pools: one dense 1000×1000 assignment with scores of all sizes.
func BenchmarkF1Match1000x1000Dense(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	benchMatch(b, JavaMatch{Flexible: true, Threshold: 0.2}, benchFlights(rng, 1000, 1), benchFlights(rng, 1000, 2))
}

func BenchmarkF1Match1000x1000InOrder(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	benchMatch(b, JavaMatch{Flexible: true, Ordered: true}, benchFlights(rng, 1000, 1), benchFlights(rng, 1000, 1))
}

func BenchmarkF1Match1000x1000Strict(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	benchMatch(b, JavaMatch{}, benchFlights(rng, 1000, 1), benchFlights(rng, 1000, 1))
}

// BenchmarkF1Match5x5 is a typical agent run: a few tools, one retry.
func BenchmarkF1Match5x5(b *testing.B) {
	ref := []agentcheck.ToolCall{
		mcall("search_flights", `{"from":"BER","to":"LIS","date":"2025-06-01"}`),
		mcall("get_weather", `{"city":"Lisbon","unit":"celsius"}`),
		mcall("search_hotels", `{"city":"Lisbon","nights":3,"guests":2}`),
		mcall("book_flight", `{"flight":"TP 541","seat":"12A"}`),
		mcall("book_hotel", `{"hotel":"Alfama Inn","nights":3}`),
	}
	pred := []agentcheck.ToolCall{
		mcall("search_flights", `{"from":"BER","to":"LIS","date":"2025-06-01","cabin":"economy"}`),
		mcall("search_hotels", `{"city":"Lisbon","nights":3,"guests":2}`),
		mcall("get_weather", `{"city":"Lisbon"}`),
		mcall("book_flight", `{"seat":"12A","flight":"TP 541"}`),
		mcall("book_flight", `{"seat":"12A","flight":"TP 541"}`),
	}
	b.Run("strict", func(b *testing.B) { benchMatch(b, JavaMatch{}, pred, ref) })
	b.Run("flexible", func(b *testing.B) { benchMatch(b, JavaMatch{Flexible: true}, pred, ref) })
	b.Run("flexible-in-order", func(b *testing.B) { benchMatch(b, JavaMatch{Flexible: true, Ordered: true}, pred, ref) })
}
