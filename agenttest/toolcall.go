package agenttest

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Metric scores a sample. The deterministic metrics ignore the context; the
// judged ones use it for their calls to the judge.
type Metric interface {
	Name() string
	Evaluate(ctx context.Context, s Sample) (Result, error)
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
	Usage        Usage
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
// missing or extra call scores 0; extra arguments are ignored. The zero value
// is ragas's default: strict order, exact argument comparison.
type ToolCallAccuracy struct {
	// AnyOrder is ragas's strict_order=False: both lists are sorted by name
	// and arguments, then paired position by position (not by best match;
	// see MatchToolCalls for that).
	AnyOrder bool
	// ArgSimilarity compares argument values as Python str() texts.
	ArgSimilarity StringSimilarity
}

// Name is "tool_call_accuracy".
func (m ToolCallAccuracy) Name() string { return "tool_call_accuracy" }

// Evaluate scores the sample's tool calls against its reference calls. It
// fails, as ragas does, when the sample has no reference tool calls at all
// (nil, as opposed to an empty list).
func (m ToolCallAccuracy) Evaluate(_ context.Context, s Sample) (Result, error) {
	if s.ReferenceToolCalls == nil {
		return Result{Metric: m.Name()}, fmt.Errorf("%s needs reference_tool_calls, and the sample has none", m.Name())
	}
	return m.Compare(s.Conversation.ToolCalls(), s.ReferenceToolCalls), nil
}

// Compare scores predicted calls against reference calls.
func (m ToolCallAccuracy) Compare(predicted, reference []ToolCall) Result {
	r := Result{Metric: m.Name()}
	switch {
	case len(predicted) == 0 && len(reference) == 0:
		r.Score = 1
		r.Reason = "no tool calls expected and none made"
		return r
	case len(predicted) == 0:
		r.Warnings = []string{warnNoPredictions}
		r.Reason = fmt.Sprintf("no tool calls made, %d expected", len(reference))
		r.Pairs = unpaired(len(reference), 0)
		return r
	case len(reference) == 0:
		r.Warnings = []string{warnEmptyReference}
		r.Reason = fmt.Sprintf("no tool calls expected, %d made", len(predicted))
		r.Pairs = unpaired(0, len(predicted))
		return r
	}
	pi, ri := identity(len(predicted)), identity(len(reference))
	if m.AnyOrder {
		sortCalls(predicted, pi)
		sortCalls(reference, ri)
	}
	n := min(len(predicted), len(reference))
	if len(predicted) != len(reference) {
		r.Warnings = []string{fmt.Sprintf("Length mismatch: predicted tool calls (%d) vs reference tool calls (%d). Only the first %d tool calls will be compared.", len(predicted), len(reference), n)}
	}
	aligned := len(predicted) == len(reference)
	if aligned {
		if m.AnyOrder {
			aligned = sameNameMultiset(predicted, reference)
		} else {
			for i := range predicted {
				if predicted[i].Name != reference[i].Name {
					aligned = false
					break
				}
			}
		}
	}
	r.Pairs = make([]CallPair, 0, max(len(predicted), len(reference)))
	score := 0.0
	for i := 0; i < n; i++ {
		p, ref := &predicted[pi[i]], &reference[ri[i]]
		pair := CallPair{Reference: ri[i], Predicted: pi[i]}
		if p.Name == ref.Name {
			pair.Score = argScore(p.Args, ref.Args, m.ArgSimilarity)
			pair.Matched = pair.Score == 1
			score += pair.Score
		}
		r.Pairs = append(r.Pairs, pair)
	}
	for i := n; i < len(reference); i++ {
		r.Pairs = append(r.Pairs, CallPair{Reference: ri[i], Predicted: -1})
	}
	for i := n; i < len(predicted); i++ {
		r.Pairs = append(r.Pairs, CallPair{Reference: -1, Predicted: pi[i]})
	}
	score /= float64(len(reference))
	if n < len(reference) {
		score *= float64(n) / float64(len(reference))
	}
	if !aligned {
		r.Reason = misalignedReason(predicted, reference, m.AnyOrder)
		return r
	}
	r.Score = score
	r.Reason = fmt.Sprintf("%d calls aligned by name; mean argument score %s", n, strconv.FormatFloat(score, 'g', 4, 64))
	return r
}

func misalignedReason(predicted, reference []ToolCall, anyOrder bool) string {
	what := "in order"
	if anyOrder {
		what = "in any order"
	}
	return fmt.Sprintf("the called tools %s do not match the reference %s %s, so the score is 0", callNames(predicted), callNames(reference), what)
}

func callNames(calls []ToolCall) string {
	names := make([]string, len(calls))
	for i, c := range calls {
		names[i] = c.Name
	}
	return "[" + strings.Join(names, ", ") + "]"
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

func identity(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

func sameNameMultiset(a, b []ToolCall) bool {
	if len(a) != len(b) {
		return false
	}
	// Both lists are sorted by name first, so equal multisets line up.
	x := make([]string, 0, 2*len(a))
	for i := range a {
		x = append(x, a[i].Name)
	}
	for i := range b {
		x = append(x, b[i].Name)
	}
	an, bn := x[:len(a)], x[len(a):]
	slices.Sort(an)
	slices.Sort(bn)
	return slices.Equal(an, bn)
}

// argScore is ragas's _get_arg_score: the mean, over the reference's keys in
// order, of the similarity of str() of the two values (0 for a key the
// prediction lacks). Extra predicted keys are ignored.
func argScore(pred, ref Value, sim StringSimilarity) float64 {
	if ref.Len() == 0 {
		if pred.Len() == 0 {
			return 1
		}
		return 0
	}
	score := 0.0
	for _, m := range ref.elems {
		pv, ok := pred.Get(m.Key)
		if !ok {
			continue
		}
		score += compareStr(m.Value, pv, sim)
	}
	return score / float64(len(ref.elems))
}

// compareStr compares str(ref) with str(pred) without building the texts
// when both are scalars whose str() is stored.
func compareStr(ref, pred Value, sim StringSimilarity) float64 {
	rs, rok := scalarStr(ref)
	ps, pok := scalarStr(pred)
	if !rok {
		rs = ref.String()
	}
	if !pok {
		ps = pred.String()
	}
	return sim.Score(rs, ps)
}

func scalarStr(v Value) (string, bool) {
	switch v.kind {
	case String, Int, Bool:
		return v.s, true
	case Null:
		return "None", true
	}
	return "", false
}

// sortCalls sorts idx (indexes into calls) stably by ragas's key: the tuple
// (name, k1, str(v1), k2, str(v2), ...) with keys in code point order.
func sortCalls(calls []ToolCall, idx []int) {
	keys := make([][]string, len(calls))
	for i := range calls {
		keys[i] = sortKey(calls[i])
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		return slices.Compare(keys[a], keys[b])
	})
}

func sortKey(tc ToolCall) []string {
	var stack [8]int
	order := sortedMemberIndex(tc.Args.elems, stack[:0])
	key := make([]string, 0, 1+2*len(order))
	key = append(key, tc.Name)
	for _, i := range order {
		m := &tc.Args.elems[i]
		key = append(key, m.Key, m.Value.String())
	}
	return key
}

// ToolCallF1 is ragas's ToolCallF1: the F1 of the set of predicted calls
// against the set of reference calls, where a call is its name and its
// arguments compared with Python's == (objects regardless of key order,
// 1 == 1.0 == true), duplicates collapse, and the result is rounded to 4
// decimals. Both lists empty scores 0.
type ToolCallF1 struct{}

// Name is "tool_call_f1".
func (ToolCallF1) Name() string { return "tool_call_f1" }

// Evaluate scores the sample's tool calls; a sample without reference tool
// calls is scored against an empty reference, as ragas does.
func (m ToolCallF1) Evaluate(_ context.Context, s Sample) (Result, error) {
	return m.Compare(s.Conversation.ToolCalls(), s.ReferenceToolCalls), nil
}

// Compare scores predicted calls against reference calls.
func (m ToolCallF1) Compare(predicted, reference []ToolCall) Result {
	r := Result{Metric: m.Name()}
	nan := 0
	var buf []byte
	keys := make([]string, 0, len(predicted)+len(reference))
	for _, set := range [][]ToolCall{predicted, reference} {
		for i := range set {
			buf = append(buf[:0], set[i].Name...)
			buf = append(buf, 0)
			buf = set[i].Args.appendCanonical(buf, &nan)
			keys = append(keys, string(buf))
		}
	}
	pk, rk := keys[:len(predicted)], keys[len(predicted):]
	// Distinct keys on each side, and for each pair whether it is a match.
	actual, expected := distinct(pk), distinct(rk)
	tp := 0
	for _, a := range actual {
		if slices.Contains(expected, a) {
			tp++
		}
	}
	fp, fn := len(actual)-tp, len(expected)-tp
	precision, recall, f1 := 0.0, 0.0, 0.0
	if tp+fp > 0 {
		precision = float64(tp) / float64(tp+fp)
	}
	if tp+fn > 0 {
		recall = float64(tp) / float64(tp+fn)
	}
	if precision+recall > 0 {
		f1 = 2 * precision * recall / (precision + recall)
	}
	r.Score = Round(f1, 4)
	r.Pairs = setPairs(pk, rk)
	r.Reason = fmt.Sprintf("%d of %d distinct calls made were expected (precision %s), %d of %d distinct expected calls were made (recall %s)",
		tp, len(actual), formatRatio(precision), tp, len(expected), formatRatio(recall))
	return r
}

func formatRatio(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

func distinct(keys []string) []string {
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// setPairs pairs each reference call with an equal predicted call, if any,
// for the result's explanation.
func setPairs(pk, rk []string) []CallPair {
	pairs := make([]CallPair, 0, len(pk)+len(rk))
	used := make([]bool, len(pk))
	for i, k := range rk {
		p := -1
		for j := range pk {
			if !used[j] && pk[j] == k {
				p = j
				used[j] = true
				break
			}
		}
		pairs = append(pairs, CallPair{Reference: i, Predicted: p, Matched: p >= 0, Score: b2f(p >= 0)})
	}
	for j := range pk {
		if !used[j] {
			pairs = append(pairs, CallPair{Reference: -1, Predicted: j})
		}
	}
	return pairs
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// Round rounds x to n decimals as Python's round() does: correctly, on the
// exact binary value, ties to even.
func Round(x float64, n int) float64 {
	var buf [32]byte
	f, _ := strconv.ParseFloat(string(strconv.AppendFloat(buf[:0], x, 'f', n, 64)), 64)
	return f
}
