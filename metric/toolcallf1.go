package metric

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"hash/maphash"
	"math"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/pytext"
	"github.com/agentcheck/agentcheck/internal/pyvalue"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// ToolCallF1 is ragas's ToolCallF1: the F1 of the set of predicted calls
// against the set of reference calls, where a call is its name and its
// arguments compared with Python's == (objects regardless of key order,
// 1 == 1.0 == true), duplicates collapse, and the result is rounded to 4
// decimals. Both lists empty scores 0. A call whose arguments are not valid
// JSON (ToolCall.InvalidArgs) equals no other call, not even one with the
// same text; with NamesOnly its name counts as any call's.
type ToolCallF1 struct {
	// NamesOnly compares the sets of tool names called and expected,
	// arguments aside, and keeps every digit of the F1: promptfoo's
	// tool-call-f1. The zero value is ragas's metric.
	NamesOnly bool
}

// Name is "tool_call_f1".
func (ToolCallF1) Name() string { return "tool_call_f1" }

// Evaluate scores the sample's tool calls; a sample without reference tool
// calls is scored against an empty reference, as ragas does.
func (m ToolCallF1) Evaluate(_ context.Context, s agentcheck.Sample) (Result, error) {
	sc := getScratch()
	defer scratchPool.Put(sc)
	sc.calls = appendToolCalls(sc.calls[:0], s.Conversation)
	r := m.Compare(sc.calls, s.ReferenceToolCalls)
	clear(sc.calls)
	return r, nil
}

// Compare scores predicted calls against reference calls.
func (m ToolCallF1) Compare(predicted, reference []agentcheck.ToolCall) Result {
	var r Result
	m.compare(&r, predicted, reference, detailFull, nil)
	return r
}

// Score is the score Compare gives, without its pairs and reason: for a
// program that scores many samples and needs only their scores, at no
// allocation per sample.
func (m ToolCallF1) Score(predicted, reference []agentcheck.ToolCall) float64 {
	var r Result
	m.compare(&r, predicted, reference, detailScore, nil)
	return r.Score
}

// AppendReason is the score Compare gives, and its reason appended to dst,
// without its pairs: for a program that scores many samples and says why,
// at no allocation per sample once dst has grown.
func (m ToolCallF1) AppendReason(dst []byte, predicted, reference []agentcheck.ToolCall) (float64, []byte) {
	var r Result
	m.compare(&r, predicted, reference, detailReason, &dst)
	return r.Score, dst
}

// namesOf is the calls with their names alone.
func namesOf(calls []agentcheck.ToolCall) []agentcheck.ToolCall {
	out := make([]agentcheck.ToolCall, len(calls))
	for i, c := range calls {
		out[i] = agentcheck.ToolCall{Name: c.Name}
	}
	return out
}

// compare is Compare, which explains its score as d says; the reason of
// detailReason is appended to *dst.
func (m ToolCallF1) compare(r *Result, predicted, reference []agentcheck.ToolCall, d detail, dst *[]byte) {
	if m.NamesOnly {
		predicted, reference = namesOf(predicted), namesOf(reference)
	}
	*r = Result{Metric: m.Name()}
	np, nr := len(predicted), len(reference)
	var mbuf [16]int
	match := slices.Grow(mbuf[:0], nr)[:nr]
	for i := range match {
		match[i] = -1
	}
	var actual, expected, tp, paired int
	if np+nr <= smallF1 {
		actual, expected, tp, paired = f1Pairwise(predicted, reference, match)
	} else {
		// Only the sorted count needs a scratch: the pool costs a typical
		// sample's scoring more than a tenth.
		sc := getScratch()
		actual, expected, tp, paired = sc.f1Sorted(predicted, reference, match)
		scratchPool.Put(sc)
	}
	if np+nr <= smallF1 && d != detailFull {
		// Counts of at most smallF1: the score and reason made once.
		o := f1Memo[b2i(m.NamesOnly)][tp][actual][expected].Load()
		if o == nil {
			o = new(f1Outcome)
			var precision, recall float64
			o.score, precision, recall = f1Score(tp, actual, expected, m.NamesOnly)
			o.reason = string(appendF1Reason(nil, tp, actual, expected, precision, recall))
			f1Memo[b2i(m.NamesOnly)][tp][actual][expected].Store(o)
		}
		r.Score = o.score
		if d == detailReason {
			*dst = append(*dst, o.reason...)
		}
		return
	}
	var precision, recall float64
	r.Score, precision, recall = f1Score(tp, actual, expected, m.NamesOnly)
	if d == detailScore {
		return
	}
	if d == detailReason {
		*dst = appendF1Reason(*dst, tp, actual, expected, precision, recall)
		return
	}
	r.Pairs = make([]CallPair, 0, nr+np-paired)
	var ubuf [16]bool
	used := slices.Grow(ubuf[:0], np)[:np]
	clear(used)
	for i, p := range match {
		if p >= 0 {
			used[p] = true
		}
		r.Pairs = append(r.Pairs, CallPair{Reference: i, Predicted: p, Matched: p >= 0, Score: b2f(p >= 0)})
	}
	for j := range used {
		if !used[j] {
			r.Pairs = append(r.Pairs, CallPair{Reference: -1, Predicted: j})
		}
	}
	var text [160]byte // the reason's bytes, on the stack
	r.Reason = string(appendF1Reason(text[:0], tp, actual, expected, precision, recall))
}

// f1Score is ToolCallF1's score of tp distinct calls made and expected,
// of actual distinct calls made and expected ones expected, as ragas
// computes it (rounded to 4 decimals unless namesOnly), with the precision
// and recall.
func f1Score(tp, actual, expected int, namesOnly bool) (score, precision, recall float64) {
	fp, fn := actual-tp, expected-tp
	f1 := 0.0
	if tp+fp > 0 {
		precision = float64(tp) / float64(tp+fp)
	}
	if tp+fn > 0 {
		recall = float64(tp) / float64(tp+fn)
	}
	if precision+recall > 0 {
		f1 = 2 * precision * recall / (precision + recall)
	}
	if namesOnly {
		return f1, precision, recall
	}
	return pytext.Round(f1, 4), precision, recall
}

// appendScore4 appends x as strconv's 'g' with 4 digits writes it, from
// the texts of the scores written before (scoreTexts).
func appendScore4(b []byte, x float64) []byte {
	bits := math.Float64bits(x)
	slot := &scoreTexts[(bits*0x9e3779b97f4a7c15)>>(64-8)]
	if t := slot.Load(); t != nil && t.bits == bits {
		return append(b, t.text...)
	}
	start := len(b)
	b = strconv.AppendFloat(b, x, 'g', 4, 64)
	slot.Store(&scoreText{bits, string(b[start:])})
	return b
}

// scoreText is a score's bits and its text.
type scoreText struct {
	bits uint64
	text string
}

// scoreTexts are the texts of the mean argument scores ToolCallAccuracy
// explains, each in the slot its bits hash to (a later score's replaces
// it): formatting a float costs more than scoring a sample's calls, and a
// run's means are mostly a few.
var scoreTexts [256]atomic.Pointer[scoreText]

// f1Outcome is ToolCallF1's score and reason for some counts.
type f1Outcome struct {
	score  float64
	reason string
}

// f1Memo holds the score and reason of ToolCallF1 (with NamesOnly, and
// without) by the counts tp, actual and expected, for the samples of at
// most smallF1 calls: they depend on the counts alone, and rounding the
// score and writing the reason cost a typical sample's scoring more than
// pairing its calls. Each is made once, by whichever sample needs it
// first; two samples making the same one at once store equal values.
var f1Memo [2][smallF1 + 1][smallF1 + 1][smallF1 + 1]atomic.Pointer[f1Outcome]

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// appendF1Reason appends ToolCallF1's reason to b: tp of the actual
// distinct calls made were expected, tp of the expected ones were made.
func appendF1Reason(b []byte, tp, actual, expected int, precision, recall float64) []byte {
	b = appendCount(b, tp)
	b = append(b, " of "...)
	b = appendCount(b, actual)
	b = append(b, " distinct calls made were expected (precision "...)
	b = appendRatio(b, tp, actual, precision)
	b = append(b, "), "...)
	b = appendCount(b, tp)
	b = append(b, " of "...)
	b = appendCount(b, expected)
	b = append(b, " distinct expected calls were made (recall "...)
	b = appendRatio(b, tp, expected, recall)
	return append(b, ')')
}

// smallF1 is the most calls, predicted and reference together, that
// ToolCallF1 compares pairwise: up to there comparing each pair of calls
// costs less than building, hashing and sorting their keys.
const smallF1 = 16

// f1Sorted counts the distinct calls of each side and those they share by
// sorting set keys, and pairs equal calls in match (see Compare).
func (sc *scratch) f1Sorted(predicted, reference []agentcheck.ToolCall, match []int) (actual, expected, tp, paired int) {
	np, nr := len(predicted), len(reference)
	// Each call's key is equal to another's exactly when ragas's sets hold
	// them as one element. Sorting each side by key brings equal calls
	// together, so the sets are counted in one merge walk, in O(n log n).
	// Keys are ordered by their hash first, which settles most comparisons
	// without reading the keys.
	for _, set := range [2][]agentcheck.ToolCall{predicted, reference} {
		for i := range set {
			start := len(sc.keys)
			sc.keys = appendSetKey(sc.keys, &set[i])
			if set[i].InvalidArgs != "" {
				// Such a call equals no other: its key is its own.
				sc.keys = binary.AppendUvarint(sc.keys, uint64(len(sc.spans)))
			}
			sc.spans = append(sc.spans, [2]int{start, len(sc.keys)})
			sc.hashes = append(sc.hashes, maphash.Bytes(hashSeed, sc.keys[start:]))
		}
	}
	var obuf [32]int
	order := identity(obuf[:0], np+nr)
	po, ro := order[:np], order[np:]
	byKey := func(a, b int) int {
		if c := cmp.Compare(sc.hashes[a], sc.hashes[b]); c != 0 {
			return c
		}
		return bytes.Compare(sc.key(a), sc.key(b))
	}
	slices.SortStableFunc(po, byKey)
	slices.SortStableFunc(ro, byKey)
	// match[i] is the predicted call paired with reference call i, or -1:
	// within a group of equal calls, the first reference call takes the
	// first predicted one and so on, for the explanation.
	for i, j := 0, 0; i < np || j < nr; {
		c := -1
		if i == np {
			c = 1
		} else if j < nr {
			c = byKey(po[i], ro[j])
		}
		gi, gj := i, j
		if c <= 0 {
			for actual, i = actual+1, i+1; i < np && byKey(po[i], po[gi]) == 0; i++ {
			}
		}
		if c >= 0 {
			for expected, j = expected+1, j+1; j < nr && byKey(ro[j], ro[gj]) == 0; j++ {
			}
		}
		if c == 0 {
			tp++
			for k := 0; k < min(i-gi, j-gj); k++ {
				match[ro[gj+k]-np] = po[gi+k]
				paired++
			}
		}
	}
	return actual, expected, tp, paired
}

// f1Pairwise does what f1Sorted does by comparing calls pair by pair with
// callEqual, for a few calls. Within a group of equal calls the k-th
// reference call takes the k-th predicted one, in index order, as the
// stable sort of f1Sorted does.
func f1Pairwise(predicted, reference []agentcheck.ToolCall, match []int) (actual, expected, tp, paired int) {
	np, nr := len(predicted), len(reference)
	// rep[i] is the first call of i's side equal to call i.
	var rbuf [smallF1]int
	rep := rbuf[:np+nr]
	// The same calls on both sides (equal, whatever their values) group
	// alike, every group is expected and made, and each reference call
	// takes its own copy: one side's groups tell all.
	same := sameCalls(predicted, reference)
	groups := rep
	if same {
		groups = rep[:np]
	}
	calls := func(i int) *agentcheck.ToolCall {
		if i < np {
			return &predicted[i]
		}
		return &reference[i-np]
	}
	for i := range groups {
		rep[i] = i
		lo := 0
		if i >= np {
			lo = np
		}
		for j := lo; j < i; j++ {
			if rep[j] == j && callEqual(calls(i), calls(j)) {
				rep[i] = j
				break
			}
		}
		if rep[i] == i {
			if i < np {
				actual++
			} else {
				expected++
			}
		}
	}
	if same {
		for j := range match {
			match[j] = j
		}
		return actual, actual, actual, np
	}
	for r := np; r < np+nr; r++ {
		if rep[r] != r {
			continue
		}
		for p := 0; p < np; p++ {
			if rep[p] != p || !callEqual(calls(r), calls(p)) {
				continue
			}
			tp++
			// Pair the group's members in index order.
			i, j := p, r
			for i < np && j < np+nr {
				match[j-np] = i
				paired++
				for i++; i < np && rep[i] != p; i++ {
				}
				for j++; j < np+nr && rep[j] != r; j++ {
				}
			}
			break
		}
	}
	return actual, expected, tp, paired
}

// callEqual reports whether two calls have equal set keys (appendSetKey)
// without writing them: the same name, and arguments equal by Python's ==,
// no arguments being the empty dict. A call whose arguments are not valid
// JSON (InvalidArgs) equals no call, not even one with the same text.
func callEqual(a, b *agentcheck.ToolCall) bool {
	if a.Name != b.Name || a.InvalidArgs != "" || b.InvalidArgs != "" {
		return false
	}
	x, y := a.Args, b.Args
	if x.Kind() == jsonvalue.NullKind && y.Kind() == jsonvalue.NullKind {
		return true
	}
	if x.Kind() == jsonvalue.NullKind {
		x = jsonvalue.Object()
	}
	if y.Kind() == jsonvalue.NullKind {
		y = jsonvalue.Object()
	}
	return pyvalue.Equal(x, y)
}

// ratioTexts()[d][n] is strconv's 'f', -1 text of n/d, for the few calls a
// sample has: formatting a float costs more than scoring the calls. Made
// on first use, in two allocations (the texts one string, the lists one
// array): made at start-up, a slice and a string each, they took a dozen
// size classes' first spans, each a page fault (BENCHMARKS.md).
var ratioTexts = sync.OnceValue(func() *[smallF1 + 1][]string {
	var t [smallF1 + 1][]string
	all := make([]string, (smallF1+1)*(smallF1+2)/2)
	var b []byte
	var ends []int
	for d := range t {
		for n := range d + 1 {
			x := 0.0
			if d > 0 {
				x = float64(n) / float64(d)
			}
			b = strconv.AppendFloat(b, x, 'f', -1, 64)
			ends = append(ends, len(b))
		}
	}
	text, at, k := string(b), 0, 0
	for d := range t {
		t[d] = all[k : k+d+1 : k+d+1]
		for n := range t[d] {
			t[d][n], at = text[at:ends[k+n]], ends[k+n]
		}
		k += d + 1
	}
	return &t
})

// appendRatio appends x, which is n/d (0 for d 0), as 'f', -1 formats it.
func appendRatio(b []byte, n, d int, x float64) []byte {
	if d <= smallF1 && n <= d {
		return append(b, ratioTexts()[d][n]...)
	}
	return strconv.AppendFloat(b, x, 'f', -1, 64)
}

// appendSetKey writes the call as ragas puts it in a set: the name, then
// the arguments made hashable, compared by Python's ==. No arguments at all
// are the empty dict. Arguments that are not valid JSON are written '?',
// which no arguments' key starts with; f1Sorted makes such a key unique.
func appendSetKey(b []byte, tc *agentcheck.ToolCall) []byte {
	b = strconv.AppendInt(b, int64(len(tc.Name)), 10)
	b = append(b, ':')
	b = append(b, tc.Name...)
	if tc.InvalidArgs != "" {
		return append(b, '?')
	}
	if tc.Args.Kind() == jsonvalue.NullKind {
		return append(b, '{', 0, '}') // as the empty object
	}
	return pyvalue.AppendKey(b, tc.Args, nil)
}

// appendCount appends n, a count of calls: most are one digit, written
// without strconv's call.
func appendCount(b []byte, n int) []byte {
	if uint(n) < 10 {
		return append(b, byte('0'+n))
	}
	return strconv.AppendInt(b, int64(n), 10)
}

func formatRatio(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
