package metric

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// A call whose arguments are not valid JSON (ToolCall.InvalidArgs, Args
// null) never matches a reference call and earns no argument credit, not
// even against a reference without arguments; its name still counts where
// names are compared.

func malformed(name, text string) agentcheck.ToolCall {
	return agentcheck.ToolCall{Name: name, InvalidArgs: text}
}

func TestToolCallAccuracyGivesMalformedArgumentsNoCredit(t *testing.T) {
	search := agentcheck.MustParseToolCall("search", `{"city": "Paris"}`)
	book := agentcheck.MustParseToolCall("book", `{"id": 1}`)
	now := agentcheck.MustParseToolCall("now", `{}`)
	for _, sim := range []StringSimilarity{ExactText, Levenshtein, Hamming, Jaro, JaroWinkler} {
		for _, anyOrder := range []bool{false, true} {
			m := ToolCallAccuracy{AnyOrder: anyOrder, ArgSimilarity: sim}
			for _, tt := range []struct {
				name           string
				pred, ref      []agentcheck.ToolCall
				score          float64
				pairScore      float64
				reasonMentions string
			}{
				// The names line up, so the other call is scored; the
				// malformed one adds 0.
				{"beside a good call", []agentcheck.ToolCall{malformed("search", `{"city": "Par`), book}, []agentcheck.ToolCall{search, book}, 0.5, 0, "2 calls aligned by name; mean argument score 0.5; arguments that are not valid JSON score 0: search"},
				// A reference without arguments is not matched by arguments
				// that could not be read, nor by their absence.
				{"against an empty object", []agentcheck.ToolCall{malformed("now", "{")}, []agentcheck.ToolCall{now}, 0, 0, "1 call aligned by name; mean argument score 0; arguments that are not valid JSON score 0: now"},
				{"against no arguments", []agentcheck.ToolCall{malformed("now", "{")}, []agentcheck.ToolCall{{Name: "now"}}, 0, 0, "1 call aligned by name"},
				{"as the reference", []agentcheck.ToolCall{now}, []agentcheck.ToolCall{malformed("now", "{")}, 0, 0, "arguments that are not valid JSON score 0: now"},
				{"on both sides, the same text", []agentcheck.ToolCall{malformed("now", "{")}, []agentcheck.ToolCall{malformed("now", "{")}, 0, 0, "1 call aligned by name"},
				// A malformed call's name still counts: a wrong name fails
				// the whole sample, as for any call.
				{"under the wrong name", []agentcheck.ToolCall{malformed("find", `{"city": "Par`), book}, []agentcheck.ToolCall{search, book}, 0, 0, "do not match the reference"},
			} {
				r := m.Compare(tt.pred, tt.ref)
				if r.Score != tt.score || !strings.Contains(r.Reason, tt.reasonMentions) {
					t.Errorf("%s, %s, any order %v: Expected score %v with a reason mentioning %q, but got %v (%s)", tt.name, sim, anyOrder, tt.score, tt.reasonMentions, r.Score, r.Reason)
				}
				if score, reason := m.AppendReason(nil, tt.pred, tt.ref); score != r.Score || string(reason) != r.Reason {
					t.Errorf("%s, %s, any order %v: Expected AppendReason to give Compare's %v (%s), but got %v (%s)", tt.name, sim, anyOrder, r.Score, r.Reason, score, reason)
				}
				if s := m.Score(tt.pred, tt.ref); s != r.Score {
					t.Errorf("%s, %s: Expected Score to equal Compare's %v, but got %v", tt.name, sim, r.Score, s)
				}
				for _, p := range r.Pairs {
					bad := p.Predicted >= 0 && tt.pred[p.Predicted].InvalidArgs != "" || p.Reference >= 0 && tt.ref[p.Reference].InvalidArgs != ""
					if bad && (p.Matched || p.Score != tt.pairScore) {
						t.Errorf("%s, %s: Expected the malformed call's pair to score %v unmatched, but got %+v", tt.name, sim, tt.pairScore, p)
					}
				}
			}
		}
	}
}

// Arguments that are a list or a scalar (which ragas never sees) compare
// as one value, and never with an object.
func TestToolCallAccuracyComparesArgumentsThatAreNotObjectsWhole(t *testing.T) {
	list := func(name, args string) agentcheck.ToolCall {
		return agentcheck.ToolCall{Name: name, Args: jsonvalue.MustParse(args)}
	}
	for _, tt := range []struct {
		pred, ref agentcheck.ToolCall
		sim       StringSimilarity
		score     float64
	}{
		{list("f", `[1, "a"]`), list("f", `[1, "a"]`), ExactText, 1},
		{list("f", `[1, "a"]`), list("f", `[1, "b"]`), ExactText, 0},
		{list("f", `"Paris"`), list("f", `"Paris"`), ExactText, 1},
		{list("f", `[]`), list("f", `{}`), ExactText, 0},
		{list("f", `{}`), list("f", `[]`), ExactText, 0},
		{list("f", `[1]`), list("f", `{"a": 1}`), Levenshtein, 0},
		{list("f", `{"a": 1}`), list("f", `[1]`), Levenshtein, 0},
		// str() of ["ab"] and ["ac"]: one edit in 6 code points.
		{list("f", `["ab"]`), list("f", `["ac"]`), Levenshtein, 1 - 1.0/6},
	} {
		got := ToolCallAccuracy{ArgSimilarity: tt.sim}.Compare([]agentcheck.ToolCall{tt.pred}, []agentcheck.ToolCall{tt.ref}).Score
		if math.Abs(got-tt.score) > 1e-12 {
			t.Errorf("Expected %s against %s (%s) to score %v, but got %v", tt.pred.Args, tt.ref.Args, tt.sim, tt.score, got)
		}
	}
}

func TestToolCallF1CountsMalformedCallsAsUnexpected(t *testing.T) {
	g := agentcheck.MustParseToolCall("g", `{}`)
	f := agentcheck.MustParseToolCall("f", `{}`)
	for _, tt := range []struct {
		name                  string
		pred, ref             []agentcheck.ToolCall
		score, namesOnlyScore float64
		reason                string
	}{
		{"against no arguments", []agentcheck.ToolCall{malformed("f", "{")}, []agentcheck.ToolCall{f}, 0, 1,
			"0 of 1 distinct calls made were expected"},
		{"against no arguments at all", []agentcheck.ToolCall{malformed("f", "{")}, []agentcheck.ToolCall{{Name: "f"}}, 0, 1,
			"0 of 1 distinct calls made were expected"},
		{"as the reference", []agentcheck.ToolCall{f}, []agentcheck.ToolCall{malformed("f", "{")}, 0, 1,
			"0 of 1 distinct calls made were expected"},
		// Malformed calls equal nothing, not even one another: three
		// with the same text are three distinct calls.
		{"repeated, compared pairwise", append(repeat(malformed("f", "{"), 3), g), []agentcheck.ToolCall{g, f}, round4(f1(1, 4, 2)), 1,
			"1 of 4 distinct calls made were expected"},
		{"repeated, compared by keys", append(repeat(malformed("f", "{"), 14), g), []agentcheck.ToolCall{g, f}, round4(f1(1, 15, 2)), 1,
			"1 of 15 distinct calls made were expected"},
	} {
		r := ToolCallF1{}.Compare(tt.pred, tt.ref)
		if r.Score != tt.score || !strings.HasPrefix(r.Reason, tt.reason) {
			t.Errorf("%s: Expected F1 %v (%s...), but got %v (%s)", tt.name, tt.score, tt.reason, r.Score, r.Reason)
		}
		for _, p := range r.Pairs {
			if p.Matched && (tt.pred[p.Predicted].InvalidArgs != "" || tt.ref[p.Reference].InvalidArgs != "") {
				t.Errorf("%s: Expected no malformed call in a matched pair, but got %+v", tt.name, p)
			}
		}
		if got := (ToolCallF1{NamesOnly: true}).Score(tt.pred, tt.ref); got != tt.namesOnlyScore {
			t.Errorf("%s: Expected names-only F1 %v (the name counts), but got %v", tt.name, tt.namesOnlyScore, got)
		}
	}
}

func repeat(tc agentcheck.ToolCall, n int) []agentcheck.ToolCall {
	out := make([]agentcheck.ToolCall, n)
	for i := range out {
		out[i] = tc
	}
	return out
}

func f1(tp, actual, expected int) float64 {
	p, r := float64(tp)/float64(actual), float64(tp)/float64(expected)
	return 2 * p * r / (p + r)
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

func TestF1MatchNeverMatchesMalformedArguments(t *testing.T) {
	f := agentcheck.MustParseToolCall("f", `{}`)
	g := agentcheck.MustParseToolCall("g", `{"a": 1, "b": 2}`)
	for _, m := range []JavaMatch{
		{}, {Ordered: true},
		{Flexible: true}, {Flexible: true, Ordered: true}, {Flexible: true, Threshold: 0.01},
	} {
		for _, tt := range []struct {
			name      string
			pred, ref []agentcheck.ToolCall
			matched   int
		}{
			{"against an empty object", []agentcheck.ToolCall{malformed("f", "{")}, []agentcheck.ToolCall{f}, 0},
			{"against no arguments", []agentcheck.ToolCall{malformed("f", "{")}, []agentcheck.ToolCall{{Name: "f"}}, 0},
			{"against arguments", []agentcheck.ToolCall{malformed("g", `{"a": 1, "b"`)}, []agentcheck.ToolCall{g}, 0},
			{"as the reference", []agentcheck.ToolCall{f, {Name: "f"}}, []agentcheck.ToolCall{malformed("f", "{")}, 0},
			{"on both sides, the same text", []agentcheck.ToolCall{malformed("f", "{")}, []agentcheck.ToolCall{malformed("f", "{")}, 0},
			// The good calls around a malformed one still match.
			{"among good calls", []agentcheck.ToolCall{g, malformed("f", "{"), f}, []agentcheck.ToolCall{g, f}, 2},
		} {
			mr := m.Match(tt.pred, tt.ref)
			if mr.Matched != tt.matched {
				t.Errorf("%s (%s): Expected %d matched pairs, but got %d: %+v", tt.name, fmt.Sprintf("%+v", m), tt.matched, mr.Matched, mr.Pairs)
			}
			for _, p := range mr.Pairs {
				if p.Matched && (tt.pred[p.Predicted].InvalidArgs != "" || tt.ref[p.Reference].InvalidArgs != "") {
					t.Errorf("%s (%s): Expected no malformed call in a matched pair, but got %+v", tt.name, fmt.Sprintf("%+v", m), p)
				}
			}
		}
	}
}

// No mixture of malformed calls, calls without arguments, objects, lists
// and scalars makes a metric panic or give a score outside [0, 1], and a
// malformed call never ends up in a matched pair.
func TestMetricsTakeAnyMixOfMalformedCalls(t *testing.T) {
	t.Parallel() // it overlaps the package's other slow tests
	rng := rand.New(rand.NewPCG(7, 11))
	kinds := []func(name string) agentcheck.ToolCall{
		func(name string) agentcheck.ToolCall { return malformed(name, `{"x": `) },
		func(name string) agentcheck.ToolCall { return malformed(name, "not json") },
		func(name string) agentcheck.ToolCall { return agentcheck.ToolCall{Name: name} },
		func(name string) agentcheck.ToolCall { return agentcheck.MustParseToolCall(name, `{}`) },
		func(name string) agentcheck.ToolCall { return agentcheck.MustParseToolCall(name, `{"x": 1}`) },
		func(name string) agentcheck.ToolCall {
			return agentcheck.ToolCall{Name: name, Args: jsonvalue.MustParse(`[1, {"x": 1}]`)}
		},
		func(name string) agentcheck.ToolCall {
			return agentcheck.ToolCall{Name: name, Args: jsonvalue.MustParse(`"x"`)}
		},
	}
	calls := func() []agentcheck.ToolCall {
		out := make([]agentcheck.ToolCall, rng.IntN(12))
		for i := range out {
			out[i] = kinds[rng.IntN(len(kinds))]([]string{"f", "g"}[rng.IntN(2)])
		}
		return out
	}
	inRange := func(x float64) bool { return x >= 0 && x <= 1 }
	for range 2000 {
		pred, ref := calls(), calls()
		var results []Result
		for _, sim := range []StringSimilarity{ExactText, JaroWinkler} {
			results = append(results,
				ToolCallAccuracy{ArgSimilarity: sim}.Compare(pred, ref),
				ToolCallAccuracy{ArgSimilarity: sim, AnyOrder: true}.Compare(pred, ref))
		}
		results = append(results, ToolCallF1{}.Compare(pred, ref))
		// Names alone pair any two calls of a name, malformed or not.
		if s := (ToolCallF1{NamesOnly: true}).Score(pred, ref); !inRange(s) {
			t.Fatalf("Expected names-only tool_call_f1 of %v against %v in [0, 1], but got %v", pred, ref, s)
		}
		for _, m := range []JavaMatch{{}, {Ordered: true}, {Flexible: true}, {Flexible: true, Ordered: true}} {
			results = append(results, m.Compare(pred, ref))
		}
		for _, r := range results {
			if !inRange(r.Score) {
				t.Fatalf("Expected %s of %v against %v in [0, 1], but got %v", r.Metric, pred, ref, r.Score)
			}
			if r.Metric == "tool_call_f1" && strings.Contains(r.Reason, "distinct") && !strings.HasPrefix(r.Reason, "0 of") && onlyMalformed(pred) {
				t.Fatalf("Expected no expected call among malformed calls %v, but %s", pred, r.Reason)
			}
			for _, p := range r.Pairs {
				if !inRange(p.Score) {
					t.Fatalf("Expected %s's pair scores in [0, 1], but got %+v", r.Metric, p)
				}
				if p.Matched && p.Predicted >= 0 && p.Reference >= 0 && (pred[p.Predicted].InvalidArgs != "" || ref[p.Reference].InvalidArgs != "") {
					t.Fatalf("Expected %s never to match a malformed call, but it paired %v with %v", r.Metric, pred[p.Predicted], ref[p.Reference])
				}
			}
		}
	}
}

func onlyMalformed(calls []agentcheck.ToolCall) bool {
	for _, c := range calls {
		if c.InvalidArgs == "" {
			return false
		}
	}
	return len(calls) > 0
}
