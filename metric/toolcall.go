package metric

import (
	"bytes"
	"context"
	"fmt"
	"hash/maphash"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/jsonkey"
	"github.com/agentcheck/agentcheck/internal/pytext"
	"github.com/agentcheck/agentcheck/internal/pyvalue"
	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/agentcheck/agentcheck/judgment"
)

// Metric scores a sample. The deterministic metrics ignore the context; the
// judged ones use it for their calls to the judge.
type Metric interface {
	Name() string
	Evaluate(ctx context.Context, s agentcheck.Sample) (Result, error)
}

// Result is what a metric found: the score and why.
type Result struct {
	Metric string
	Score  float64
	// Reason says in one sentence how the score came about.
	Reason string
	// Warnings are what ragas would warn about (length mismatch, no calls,
	// empty reference), in ragas's words where it has some.
	Warnings []string
	// Pairs is the alignment of reference and predicted tool calls the score
	// was computed on, for the tool call metrics.
	Pairs []CallPair
	// Verdicts are the judges' verdicts, one per judge model, for the judged
	// metrics; Usage their tokens in total; Disagreement what a consensus
	// panel disagreed on, when it did.
	Verdicts     []Verdict
	Usage        judgment.Usage
	Disagreement string
}

// CallPair is a reference call and the predicted call it was compared with.
// Either index is -1 when that side has no partner.
type CallPair struct {
	Reference int
	Predicted int
	// Score is the argument score of the pair (0 when names differ or a side
	// is missing); Matched whether the pair counts as a match.
	Score   float64
	Matched bool
}

// String renders the result as "name = score: reason".
func (r Result) String() string {
	s := r.Metric + " = " + strconv.FormatFloat(r.Score, 'g', -1, 64)
	if r.Reason != "" {
		s += ": " + r.Reason
	}
	return s
}

// Warnings ragas gives, in its words.
const (
	warnNoPredictions  = "No tool calls found in the user input"
	warnEmptyReference = "Reference tool calls are empty but predictions exist"
)

// ToolCallAccuracy is ragas's ToolCallAccuracy, to the last bit: the
// predicted calls must have the reference's names in the reference's order
// (or, with AnyOrder, the same names after sorting both lists), and the score
// is the mean argument score of the calls paired position by position. Any
// missing or extra call scores 0; extra arguments are ignored. A call whose
// arguments are not valid JSON (ToolCall.InvalidArgs) still lines up by its
// name, but scores 0, whatever the reference's arguments. The zero value
// is ragas's default: strict order, exact argument comparison.
type ToolCallAccuracy struct {
	// AnyOrder is ragas's strict_order=False: both lists are sorted by name
	// and arguments, then paired position by position (not by best match;
	// see TrajectoryMatch for that).
	AnyOrder bool
	// ArgSimilarity compares argument values as Python str() texts.
	ArgSimilarity StringSimilarity
}

// Name is "tool_call_accuracy".
func (m ToolCallAccuracy) Name() string { return "tool_call_accuracy" }

// Evaluate scores the sample's tool calls against its reference calls. It
// fails, as ragas does, when the sample has no reference tool calls at all
// (nil, as opposed to an empty list).
func (m ToolCallAccuracy) Evaluate(_ context.Context, s agentcheck.Sample) (Result, error) {
	if s.ReferenceToolCalls == nil {
		return Result{Metric: m.Name()}, fmt.Errorf("%s needs reference_tool_calls, and the sample has none", m.Name())
	}
	sc := getScratch()
	defer scratchPool.Put(sc)
	sc.calls = appendToolCalls(sc.calls[:0], s.Conversation)
	r := m.Compare(sc.calls, s.ReferenceToolCalls)
	clear(sc.calls) // the pool must not keep the sample's values alive
	return r, nil
}

// appendToolCalls appends to dst the calls Conversation.ToolCalls returns,
// into memory the caller reuses: Compare keeps nothing of its arguments.
func appendToolCalls(dst []agentcheck.ToolCall, c agentcheck.Conversation) []agentcheck.ToolCall {
	for i := range c {
		if c[i].Role == agentcheck.AI {
			dst = append(dst, c[i].ToolCalls...)
		}
	}
	return dst
}

// Compare scores predicted calls against reference calls.
func (m ToolCallAccuracy) Compare(predicted, reference []agentcheck.ToolCall) Result {
	var r Result
	m.compare(&r, predicted, reference, detailFull, nil)
	return r
}

// Score is the score Compare gives, without its pairs, reason and
// warnings: for a program that scores many samples and needs only their
// scores, at no allocation per sample.
func (m ToolCallAccuracy) Score(predicted, reference []agentcheck.ToolCall) float64 {
	var r Result
	m.compare(&r, predicted, reference, detailScore, nil)
	return r.Score
}

// AppendReason is the score Compare gives, and its reason appended to dst,
// without its pairs and warnings: for a program that scores many samples
// and says why, at no allocation per sample once dst has grown.
func (m ToolCallAccuracy) AppendReason(dst []byte, predicted, reference []agentcheck.ToolCall) (float64, []byte) {
	var r Result
	m.compare(&r, predicted, reference, detailReason, &dst)
	return r.Score, dst
}

// detail is how much of a Result a tool-call metric's compare fills in.
type detail uint8

const (
	detailScore  detail = iota // the score
	detailReason               // the score, and the reason into a caller's buffer
	detailFull                 // the whole Result
)

// reasonOf ends compare's explanation b: for detailReason, b is the
// caller's buffer, for detailFull the Result's Reason.
func reasonOf(r *Result, b []byte, d detail, dst *[]byte) {
	if d == detailReason {
		*dst = b
		return
	}
	r.Reason = string(b)
}

// compare is Compare, which explains its score as d says; the reason of
// detailReason is appended to *dst.
func (m ToolCallAccuracy) compare(r *Result, predicted, reference []agentcheck.ToolCall, d detail, dst *[]byte) {
	*r = Result{Metric: m.Name()}
	var b []byte
	if d == detailReason {
		b = *dst
	}
	switch {
	case len(predicted) == 0 && len(reference) == 0:
		r.Score = 1
		reasonOf(r, append(b, "no tool calls expected and none made"...), d, dst)
		return
	case d == detailScore && (len(predicted) == 0 || len(reference) == 0):
		return
	case len(predicted) == 0:
		b = append(b, "no tool calls made, "...)
		b = appendCount(b, len(reference))
		reasonOf(r, append(b, " expected"...), d, dst)
		if d == detailFull {
			r.Warnings = []string{warnNoPredictions}
			r.Pairs = unpaired(len(reference), 0)
		}
		return
	case len(reference) == 0:
		b = append(b, "no tool calls expected, "...)
		b = appendCount(b, len(predicted))
		reasonOf(r, append(b, " made"...), d, dst)
		if d == detailFull {
			r.Warnings = []string{warnEmptyReference}
			r.Pairs = unpaired(0, len(predicted))
		}
		return
	}
	if d != detailFull && sameCalls(predicted, reference) {
		// The very calls expected, in order: sorted, both lists take the
		// same order, so that in any order too each call lines up with
		// its own copy, whose arguments score 1.
		r.Score = 1
		reasonOf(r, appendAligned(b, len(reference), 1), d, dst)
		return
	}
	// The pool's scratch, taken when first needed: to sort, to write the
	// full result, or to compare unequal arguments' texts. Most scores and
	// reasons need none, and the pool's round trip costs a sample's
	// scoring a tenth.
	var sc *scratch
	defer func() {
		if sc != nil {
			scratchPool.Put(sc)
		}
	}()
	if m.AnyOrder || d == detailFull {
		sc = getScratch()
	}
	var pbuf, rbuf [16]int
	pi, ri := identity(pbuf[:0], len(predicted)), identity(rbuf[:0], len(reference))
	if m.AnyOrder {
		sc.sortCalls(predicted, pi)
		sc.sortCalls(reference, ri)
	}
	n := min(len(predicted), len(reference))
	if len(predicted) != len(reference) && d == detailFull {
		// Written without fmt, which costs more than the rest of a typical
		// sample's scoring.
		w := append(sc.text[:0], "Length mismatch: predicted tool calls ("...)
		w = strconv.AppendInt(w, int64(len(predicted)), 10)
		w = append(w, ") vs reference tool calls ("...)
		w = strconv.AppendInt(w, int64(len(reference)), 10)
		w = append(w, "). Only the first "...)
		w = strconv.AppendInt(w, int64(n), 10)
		w = append(w, " tool calls will be compared."...)
		r.Warnings = []string{string(w)}
		sc.text = w[:0]
	}
	// Sorting by a key that starts with the name sorts the names, so in any
	// order too, equal name lists (ragas compares sorted(names)) line up.
	aligned := len(predicted) == len(reference)
	for i := 0; aligned && i < n; i++ {
		aligned = predicted[pi[i]].Name == reference[ri[i]].Name
	}
	if d == detailFull {
		r.Pairs = make([]CallPair, 0, max(len(predicted), len(reference)))
	}
	score := 0.0
	// Names that do not line up make the score 0: only the full result,
	// with its pairs, scores the calls then. Lined up, every pair has the
	// same name.
	for i := 0; i < n && (aligned || d == detailFull); i++ {
		p, ref := &predicted[pi[i]], &reference[ri[i]]
		pair := CallPair{Reference: ri[i], Predicted: pi[i]}
		if (aligned || p.Name == ref.Name) && p.InvalidArgs == "" && ref.InvalidArgs == "" {
			// Arguments that are not valid JSON score 0 against anything.
			pair.Score = argScore(&sc, p.Args, ref.Args, m.ArgSimilarity)
			pair.Matched = pair.Score == 1
			score += pair.Score
		}
		if d == detailFull {
			r.Pairs = append(r.Pairs, pair)
		}
	}
	for i := n; i < len(reference) && d == detailFull; i++ {
		r.Pairs = append(r.Pairs, CallPair{Reference: ri[i], Predicted: -1})
	}
	for i := n; i < len(predicted) && d == detailFull; i++ {
		r.Pairs = append(r.Pairs, CallPair{Reference: -1, Predicted: pi[i]})
	}
	score /= float64(len(reference))
	if n < len(reference) {
		score *= float64(n) / float64(len(reference))
	}
	if d == detailScore {
		if aligned {
			r.Score = score
		}
		return
	}
	if d == detailFull {
		b = sc.text[:0]
	}
	if !aligned {
		b = append(b, "the called tools "...)
		b = appendCallNames(b, predicted)
		b = append(b, " do not match the reference "...)
		b = appendCallNames(b, reference)
		if m.AnyOrder {
			b = append(b, " in any order, so the score is 0"...)
		} else {
			b = append(b, " in order, so the score is 0"...)
		}
		reasonOf(r, b, d, dst)
		return
	}
	r.Score = score
	b = appendAligned(b, n, score)
	b = appendUnparseable(b, predicted, reference, pi[:n], ri[:n])
	reasonOf(r, b, d, dst)
	if d == detailFull {
		sc.text = b[:0]
	}
}

// appendAligned writes the reason of n calls aligned by name whose
// arguments' mean score is score.
func appendAligned(b []byte, n int, score float64) []byte {
	b = appendCount(b, n)
	if n == 1 {
		b = append(b, " call aligned by name; mean argument score "...)
	} else {
		b = append(b, " calls aligned by name; mean argument score "...)
	}
	return appendScore4(b, score)
}

// appendUnparseable names, after a reason, the aligned calls whose
// arguments are not valid JSON (ToolCall.InvalidArgs) on either side,
// which score 0 whatever they hold: a mean of 0 says why.
func appendUnparseable(b []byte, predicted, reference []agentcheck.ToolCall, pi, ri []int) []byte {
	first := true
	for i := range pi {
		p, r := &predicted[pi[i]], &reference[ri[i]]
		if p.InvalidArgs == "" && r.InvalidArgs == "" {
			continue
		}
		if first {
			b = append(b, "; arguments that are not valid JSON score 0: "...)
			first = false
		} else {
			b = append(b, ", "...)
		}
		b = append(b, p.Name...)
	}
	return b
}

// sameCalls reports whether predicted and reference are the same calls in
// the same order, each pair's arguments read from the same text (or both
// absent): pairs whose names line up and whose arguments score 1 (argScore)
// without a look at their values.
func sameCalls(predicted, reference []agentcheck.ToolCall) bool {
	if len(predicted) != len(reference) {
		return false
	}
	for i := range reference {
		p, r := &predicted[i], &reference[i]
		if p.Name != r.Name || p.InvalidArgs != "" || r.InvalidArgs != "" {
			return false
		}
		switch pk, rk := p.Args.Kind(), r.Args.Kind(); {
		case pk == jsonvalue.NullKind && rk == jsonvalue.NullKind:
		case pk == jsonvalue.ObjectKind && rk == jsonvalue.ObjectKind:
			if src := r.Args.Source(); src == "" || src != p.Args.Source() {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func appendCallNames(b []byte, calls []agentcheck.ToolCall) []byte {
	b = append(b, '[')
	for i := range calls {
		if i > 0 {
			b = append(b, ',', ' ')
		}
		b = append(b, calls[i].Name...)
	}
	return append(b, ']')
}

func unpaired(ref, pred int) []CallPair {
	pairs := make([]CallPair, 0, ref+pred)
	for i := 0; i < ref; i++ {
		pairs = append(pairs, CallPair{Reference: i, Predicted: -1})
	}
	for i := 0; i < pred; i++ {
		pairs = append(pairs, CallPair{Reference: -1, Predicted: i})
	}
	return pairs
}

// identity appends 0..n-1 to idx.
func identity(idx []int, n int) []int {
	for i := 0; i < n; i++ {
		idx = append(idx, i)
	}
	return idx
}

// scratch is working memory for scoring one sample: texts of argument
// values, their code points, and sort or set keys. Scratches are reused
// through scratchPool, so that scoring allocates only what the Result keeps.
type scratch struct {
	a, b   []byte                // str() of the reference and the predicted value
	ra, rb []rune                // their code points, for the edit distances
	keys   []byte                // sort or set keys of calls, one after another
	spans  [][2]int              // where each call's key is in keys
	hashes []uint64              // the hash of each set key
	text   []byte                // the Result's Reason, before it becomes a string
	calls  []agentcheck.ToolCall // a sample's predicted calls, for Evaluate
}

// hashSeed seeds the hashes of set keys; the results never depend on it.
var hashSeed = maphash.MakeSeed()

var scratchPool = sync.Pool{New: func() any {
	return &scratch{
		a: make([]byte, 0, 256), b: make([]byte, 0, 256),
		ra: make([]rune, 0, 128), rb: make([]rune, 0, 128),
		keys: make([]byte, 0, 1024), spans: make([][2]int, 0, 32), hashes: make([]uint64, 0, 32),
		text: make([]byte, 0, 256),
	}
}}

// getScratch takes a scratch from the pool, dropping any buffer a huge
// sample grew, so that the pool does not keep it alive.
func getScratch() *scratch {
	sc := scratchPool.Get().(*scratch)
	const limit = 64 << 10
	if cap(sc.a) > limit || cap(sc.b) > limit || cap(sc.ra) > limit || cap(sc.rb) > limit ||
		cap(sc.keys) > limit || cap(sc.spans) > limit || cap(sc.hashes) > limit || cap(sc.text) > limit || cap(sc.calls) > limit {
		sc = scratchPool.New().(*scratch)
	}
	sc.a, sc.b, sc.ra, sc.rb = sc.a[:0], sc.b[:0], sc.ra[:0], sc.rb[:0]
	sc.keys, sc.spans, sc.hashes, sc.text = sc.keys[:0], sc.spans[:0], sc.hashes[:0], sc.text[:0]
	return sc
}

// argScore is ragas's _get_arg_score: the mean, over the reference's keys in
// order, of the similarity of str() of the two values (0 for a key the
// prediction lacks). Extra predicted keys are ignored. Arguments that are
// not an object (a list, a string, which ragas never sees) are one value,
// compared as a whole, and score 0 against an object.
func argScore(sc **scratch, pred, ref jsonvalue.Value, sim StringSimilarity) float64 {
	if pk, rk := pred.Kind(), ref.Kind(); !isObjectArgs(pk) || !isObjectArgs(rk) {
		if isObjectArgs(pk) || isObjectArgs(rk) {
			return 0
		}
		return compareArgs(sc, &ref, &pred, sim)
	}
	if ref.Len() == 0 {
		if pred.Len() == 0 {
			return 1
		}
		return 0
	}
	if src := ref.Source(); src != "" && src == pred.Source() {
		return 1 // the same text: every value the same
	}
	score := 0.0
	members, made := ref.Members(), pred.Members()
	for i := range members {
		m := &members[i]
		// pred.Get(m.Key), without copying the values.
		for j := range made {
			if made[j].Key == m.Key {
				score += compareArgs(sc, &m.Value, &made[j].Value, sim)
				break
			}
		}
	}
	return score / float64(len(members))
}

// isObjectArgs reports whether arguments of kind k are an object: one, or
// none at all.
func isObjectArgs(k jsonvalue.Kind) bool {
	return k == jsonvalue.ObjectKind || k == jsonvalue.NullKind
}

// compareArgs is sim.Score(str(ref), str(pred)). Every similarity gives
// exactly 1 for equal texts, and whether the texts are equal is mostly
// known without writing them out; only unequal texts are written, into the
// buffers of *scp, a scratch from the pool taken then if *scp is nil.
func compareArgs(scp **scratch, ref, pred *jsonvalue.Value, sim StringSimilarity) float64 {
	var same, known bool
	if ref.Kind() == jsonvalue.StringKind && pred.Kind() == jsonvalue.StringKind {
		// Most arguments are strings, whose str() is their text.
		same, known = ref.Text() == pred.Text(), true
	} else {
		same, known = pyvalue.SameStr(*ref, *pred)
	}
	switch {
	case known && same:
		return 1
	case known && sim == ExactText:
		return 0
	}
	if *scp == nil {
		*scp = getScratch()
	}
	sc := *scp
	sc.a = pyvalue.AppendStr(sc.a[:0], *ref)
	sc.b = pyvalue.AppendStr(sc.b[:0], *pred)
	if sim == ExactText {
		return b2f(string(sc.a) == string(sc.b))
	}
	sc.ra = pytext.AppendCodePointsBytes(sc.ra[:0], sc.a)
	sc.rb = pytext.AppendCodePointsBytes(sc.rb[:0], sc.b)
	return sim.scoreRunes(sc.ra, sc.rb)
}

// sortCalls sorts idx (indexes into calls) stably by ragas's key: the tuple
// (name, k1, str(v1), k2, str(v2), ...) with keys in code point order. Names
// decide most comparisons; the rest of a call's tuple is written out, once,
// only when its name ties with another's, as bytes whose order is the
// tuple's order (see appendKeyPart).
func (sc *scratch) sortCalls(calls []agentcheck.ToolCall, idx []int) {
	sc.keys, sc.spans = sc.keys[:0], sc.spans[:0]
	for range calls {
		sc.spans = append(sc.spans, [2]int{-1, -1})
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if c := strings.Compare(calls[a].Name, calls[b].Name); c != 0 {
			return c
		}
		sc.buildArgsKey(calls, a)
		sc.buildArgsKey(calls, b)
		return bytes.Compare(sc.key(a), sc.key(b))
	})
}

// key is the key of call i written by buildArgsKey or Compare.
func (sc *scratch) key(i int) []byte {
	return sc.keys[sc.spans[i][0]:sc.spans[i][1]]
}

func (sc *scratch) buildArgsKey(calls []agentcheck.ToolCall, i int) {
	if sc.spans[i][0] >= 0 {
		return
	}
	start := len(sc.keys)
	var stack [8]int
	args := calls[i].Args.Members()
	for _, j := range jsonkey.SortedMembers(args, stack[:0]) {
		m := &args[j]
		sc.keys = appendKeyPart(sc.keys, m.Key)
		if m.Value.Kind() == jsonvalue.StringKind {
			sc.keys = appendKeyPart(sc.keys, m.Value.Text())
		} else {
			// Only a str has a 0 byte in its str(): repr() escapes it.
			sc.keys = append(pyvalue.AppendStr(sc.keys, m.Value), 0, 0)
		}
	}
	sc.spans[i] = [2]int{start, len(sc.keys)}
}

// appendKeyPart appends s as one element of a tuple written so that
// comparing the bytes compares the tuples as Python does, element by
// element with a shorter prefix first: a 0 byte inside an element is
// written 0x00 0xFF and an element ends with 0x00 0x00, which sorts below
// any content. WTF-8 bytes sort in code point order, as Python compares str.
func appendKeyPart(b []byte, s string) []byte {
	for {
		i := strings.IndexByte(s, 0)
		if i < 0 {
			break
		}
		b = append(b, s[:i+1]...)
		b = append(b, 0xFF)
		s = s[i+1:]
	}
	b = append(b, s...)
	return append(b, 0, 0)
}
