package metric_test

// Fuzz targets for the promises a score must keep. Each checks invariants,
// not only the absence of panics. Seeds live in testdata/fuzz/<target>; run
// one with, for example,
//
//	go test -run '^$' -fuzz '^FuzzToolCallMetrics$' -fuzztime 60s ./metric

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/agentcheck/agentcheck/metric"
)

var similarities = []metric.StringSimilarity{metric.ExactText, metric.Levenshtein, metric.Hamming, metric.Jaro, metric.JaroWinkler}

// FuzzStringSimilarity: every similarity scores in [0, 1], a text against
// itself exactly 1; Exact is 1 exactly for equal texts, and Levenshtein,
// Hamming and Jaro exactly for equal code points; Levenshtein, Hamming,
// Jaro and Jaro-Winkler are symmetric; and Levenshtein, Hamming and Jaro
// agree with plain textbook implementations, with none of the shortcuts.
func FuzzStringSimilarity(f *testing.F) {
	f.Fuzz(func(t *testing.T, a, b string) {
		ca, cb := pyCodePoints(a), pyCodePoints(b)
		for _, sim := range similarities {
			x := sim.Score(a, b)
			if !(x >= 0 && x <= 1) {
				t.Fatalf("%s(%q, %q) = %v, outside [0, 1]", sim, a, b, x)
			}
			if sim.Score(a, a) != 1 || sim.Score(b, b) != 1 {
				t.Fatalf("%s of %q or %q against itself is not 1", sim, a, b)
			}
			if sim != metric.ExactText {
				if y := sim.Score(b, a); y != x {
					t.Fatalf("%s(%q, %q) = %v but %s(%q, %q) = %v", sim, a, b, x, sim, b, a, y)
				}
			}
			equal := slices.Equal(ca, cb)
			var want float64
			switch sim {
			case metric.ExactText:
				equal = a == b
				want = map[bool]float64{true: 1, false: 0}[equal]
			case metric.Levenshtein:
				if longest := max(len(ca), len(cb)); longest > 0 {
					want = 1 - float64(plainLevenshtein(ca, cb))/float64(longest)
				} else {
					want = 1
				}
			case metric.Hamming:
				want = plainHamming(ca, cb)
			case metric.Jaro:
				want = 1 - (1 - plainJaro(ca, cb))
			case metric.JaroWinkler:
				want = x
				if x == 1 && !equal {
					// Possible for very long texts only: the prefix bonus
					// cannot round up to 1 below that.
					if min(len(ca), len(cb)) < 1000 {
						t.Fatalf("%s(%q, %q) = 1 for different texts", sim, a, b)
					}
				}
				equal = x == 1
			}
			if x != want {
				t.Fatalf("%s(%q, %q) = %v, the plain implementation gives %v", sim, a, b, x, want)
			}
			if (x == 1) != equal {
				t.Fatalf("%s(%q, %q) = %v, but the texts are equal: %v", sim, a, b, x, equal)
			}
		}
	})
}

// pyCodePoints decodes s as Python indexes a str: code points, lone
// surrogates included; an invalid byte is U+FFFD, as Go decodes it.
func pyCodePoints(s string) []rune {
	var cps []rune
	for i := 0; i < len(s); {
		if len(s)-i >= 3 && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2]&0xC0 == 0x80 {
			cps = append(cps, 0xD000|rune(s[i+1]&0x3F)<<6|rune(s[i+2]&0x3F))
			i += 3
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		cps = append(cps, r)
		i += n
	}
	return cps
}

func plainLevenshtein(a, b []rune) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
		}
	}
	return d[len(a)][len(b)]
}

// plainHamming is 1 - rapidfuzz's normalized padded Hamming distance.
func plainHamming(a, b []rune) float64 {
	longest := max(len(a), len(b))
	if longest == 0 {
		return 1
	}
	dist := 0
	for i := range longest {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			dist++
		}
	}
	return 1 - float64(dist)/float64(longest)
}

// plainJaro is the Jaro similarity as rapidfuzz defines it: characters
// match within max(len)/2 - 1 positions, each reference character taken by
// the first unmatched one in the window, transpositions halved.
func plainJaro(p, t []rune) float64 {
	if len(p) == 0 && len(t) == 0 {
		return 1
	}
	if len(p) == 0 || len(t) == 0 {
		return 0
	}
	if len(p) == 1 && len(t) == 1 {
		return map[bool]float64{true: 1, false: 0}[p[0] == t[0]]
	}
	bound := max(len(p), len(t))/2 - 1
	pm, tm := make([]bool, len(p)), make([]bool, len(t))
	m := 0
	for j := range t {
		for i := max(0, j-bound); i < min(len(p), j+bound+1); i++ {
			if !pm[i] && p[i] == t[j] {
				pm[i], tm[j] = true, true
				m++
				break
			}
		}
	}
	if m == 0 {
		return 0
	}
	var ps, ts []rune
	for i := range p {
		if pm[i] {
			ps = append(ps, p[i])
		}
	}
	for j := range t {
		if tm[j] {
			ts = append(ts, t[j])
		}
	}
	trans := 0
	for i := range ps {
		if ps[i] != ts[i] {
			trans++
		}
	}
	mf := float64(m)
	return (mf/float64(len(p)) + mf/float64(len(t)) + (mf-float64(trans/2))/mf) / 3.0
}

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

// metricValues are argument values that collide in the ways the metrics
// care about: 1, 1.0, true and "1" under str() and ==, NaN, big numbers.
var metricValues = []string{
	`1`, `1.0`, `true`, `"1"`, `"one"`, `null`, `[1]`, `[1.0]`, `{"k": 1}`, `{"k": 1.0, "j": "x"}`,
	`2`, `0.5`, `"True"`, `NaN`, `-0.0`, `0`, `false`, `"None"`, `1e16`, `12345678901234567890`,
	`"é"`, `"\ud800"`, `"on"`, `""`, `[]`, `{}`,
}

// genCalls reads up to max calls of a few tools with a few arguments from
// s; the small alphabets make equal and nearly equal calls common.
func genCalls(s *byteSource, most int) []agentcheck.ToolCall {
	n := s.intn(most + 1)
	calls := make([]agentcheck.ToolCall, n)
	for i := range calls {
		tc := agentcheck.ToolCall{Name: []string{"search", "book", "a", "b"}[s.intn(4)]}
		if nargs := s.intn(5); nargs > 0 {
			var members []string
			used := map[string]bool{}
			for range nargs - 1 {
				key := []string{"x", "y", "z", "é", ""}[s.intn(5)]
				if used[key] {
					continue
				}
				used[key] = true
				members = append(members, strconv.Quote(key)+": "+metricValues[s.intn(len(metricValues))])
			}
			tc.Args = jsonvalue.MustParse("{" + strings.Join(members, ", ") + "}")
		}
		calls[i] = tc
	}
	return calls
}

func permuted[T any](r *rand.Rand, xs []T) []T {
	out := make([]T, len(xs))
	for i, j := range r.Perm(len(xs)) {
		out[i] = xs[j]
	}
	return out
}

func hasNaN(v jsonvalue.Value) bool {
	switch v.Kind() {
	case jsonvalue.FloatKind:
		return math.IsNaN(v.Float())
	case jsonvalue.ArrayKind:
		for i := range v.Len() {
			if hasNaN(v.Index(i)) {
				return true
			}
		}
	case jsonvalue.ObjectKind:
		for _, m := range v.Members() {
			if hasNaN(m.Value) {
				return true
			}
		}
	}
	return false
}

func callsHaveNaN(calls []agentcheck.ToolCall) bool {
	return slices.ContainsFunc(calls, func(tc agentcheck.ToolCall) bool { return hasNaN(tc.Args) })
}

// checkResult holds a metric's result to what every result promises: a
// score in [0, 1], every call in Pairs exactly once, something to explain a
// score below 1 with.
func checkResult(t *testing.T, what string, r metric.Result, pred, ref []agentcheck.ToolCall) {
	t.Helper()
	if !(r.Score >= 0 && r.Score <= 1) {
		t.Fatalf("%s = %v, outside [0, 1]", what, r.Score)
	}
	seenP, seenR := make([]int, len(pred)), make([]int, len(ref))
	for _, p := range r.Pairs {
		if p.Predicted < -1 || p.Predicted >= len(pred) || p.Reference < -1 || p.Reference >= len(ref) || p.Predicted < 0 && p.Reference < 0 {
			t.Fatalf("%s: pair %+v out of range (%d predicted, %d reference)", what, p, len(pred), len(ref))
		}
		if p.Predicted >= 0 {
			seenP[p.Predicted]++
		}
		if p.Reference >= 0 {
			seenR[p.Reference]++
		}
		if !(p.Score >= 0 && p.Score <= 1) {
			t.Fatalf("%s: pair %+v scores outside [0, 1]", what, p)
		}
	}
	if slices.ContainsFunc(seenP, func(n int) bool { return n != 1 }) || slices.ContainsFunc(seenR, func(n int) bool { return n != 1 }) {
		t.Fatalf("%s: pairs %+v do not hold each call once (predicted %v, reference %v)", what, r.Pairs, seenP, seenR)
	}
	// agenttest explains a score from its reason, warnings and pairs.
	if r.Score < 1 && r.Reason == "" && len(r.Warnings) == 0 && len(r.Pairs) == 0 {
		t.Fatalf("%s = %v with no explanation", what, r.Score)
	}
}

// FuzzToolCallMetrics: ToolCallAccuracy, ToolCallF1 and TrajectoryMatch's F1
// score in [0, 1] with well-formed pairs; the any-order scores do not
// depend on the order of either list; a list against itself scores 1
// (ToolCallF1: unless empty, then 0).
func FuzzToolCallMetrics(f *testing.F) {
	f.Fuzz(func(t *testing.T, spec []byte, seed uint64) {
		src := byteSource(spec)
		pred, ref := genCalls(&src, 6), genCalls(&src, 6)
		threshold := float64(src.intn(11)) / 10
		r := rand.New(rand.NewPCG(seed, seed>>32))
		pred2, ref2 := permuted(r, pred), permuted(r, ref)

		for _, sim := range similarities {
			for _, anyOrder := range []bool{false, true} {
				m := metric.ToolCallAccuracy{AnyOrder: anyOrder, ArgSimilarity: sim}
				what := m.Name() + "(" + sim.String() + ", any order " + strconv.FormatBool(anyOrder) + ")"
				res := m.Compare(pred, ref)
				checkResult(t, what, res, pred, ref)
				checkAppendReason(t, what, m, res, pred, ref)
				if self := m.Compare(pred, pred); self.Score != 1 {
					t.Fatalf("%s of %v against itself = %v", what, pred, self.Score)
				}
				if !anyOrder {
					continue
				}
				// Summing argument scores in another order may change the
				// last bit; exact comparison sums whole numbers.
				res2 := m.Compare(pred2, ref2)
				if d := math.Abs(res2.Score - res.Score); d > 1e-12 || sim == metric.ExactText && d != 0 {
					t.Fatalf("%s = %v for %v against %v, but %v after permuting them to %v against %v", what, res.Score, pred, ref, res2.Score, pred2, ref2)
				}
			}
		}

		f1 := metric.ToolCallF1{}
		res := f1.Compare(pred, ref)
		checkResult(t, "tool_call_f1", res, pred, ref)
		checkAppendReason(t, "tool_call_f1", f1, res, pred, ref)
		if res2 := f1.Compare(pred2, ref2); res2.Score != res.Score {
			t.Fatalf("tool_call_f1 = %v for %v against %v, but %v for %v against %v", res.Score, pred, ref, res2.Score, pred2, ref2)
		}
		if self, want := f1.Compare(pred, pred).Score, float64(min(len(pred), 1)); self != want {
			t.Fatalf("tool_call_f1 of %v against itself = %v, want %v", pred, self, want)
		}

		for _, flexible := range []bool{false, true} {
			for _, inOrder := range []bool{false, true} {
				m := metric.JavaMatch{Flexible: flexible, Ordered: inOrder, Threshold: threshold}
				what := fmt.Sprintf("%s(%+v)", m.Name(), m)
				res := m.Compare(pred, ref)
				checkResult(t, what, res, pred, ref)
				mr := m.Match(pred, ref)
				if mr.F1 != res.Score || mr.Matched > min(len(pred), len(ref)) {
					t.Fatalf("%s: Match gives F1 %v with %d matched, Compare %v", what, mr.F1, mr.Matched, res.Score)
				}
				// NaN equals nothing, itself included.
				if !callsHaveNaN(pred) {
					if self := m.Compare(pred, pred); self.Score != 1 {
						t.Fatalf("%s of %v against itself = %v", what, pred, self.Score)
					}
				}
				if inOrder {
					continue
				}
				mr2 := m.Match(pred2, ref2)
				if mr2.Matched != mr.Matched || mr2.F1 != mr.F1 {
					t.Fatalf("%s matched %d (F1 %v) of %v against %v, but %d (F1 %v) after permuting them to %v against %v",
						what, mr.Matched, mr.F1, pred, ref, mr2.Matched, mr2.F1, pred2, ref2)
				}
			}
		}
	})
}

// checkAppendReason: AppendReason gives Compare's score, bit for bit, and
// its reason after what its buffer held.
func checkAppendReason(t *testing.T, what string, m interface {
	AppendReason(dst []byte, predicted, reference []agentcheck.ToolCall) (float64, []byte)
}, want metric.Result, pred, ref []agentcheck.ToolCall) {
	t.Helper()
	score, reason := m.AppendReason([]byte("x"), pred, ref)
	if math.Float64bits(score) != math.Float64bits(want.Score) || string(reason) != "x"+want.Reason {
		t.Fatalf("%s: AppendReason gives %v, %q for %v against %v; Compare %v, %q", what, score, reason, pred, ref, want.Score, want.Reason)
	}
}
