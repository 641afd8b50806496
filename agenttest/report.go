package agenttest

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/metricerr"
	"github.com/agentcheck/agentcheck/internal/pyvalue"
	"github.com/agentcheck/agentcheck/metric"
)

// Report is the outcome of one check: whether it passed and the message
// that says why, worded as Gomega words its messages ("Expected ... to ...,
// but ..."). The assertions fail a test with it and the matchers return it,
// so a failure reads the same in both. A Report whose Err is not nil has no
// verdict either way: the check could not be made.
type Report struct {
	ok       bool
	err      error
	why      func() string // the failure: why the check did not pass
	whyNot   func() string // why its negation did not pass
	metric   string        // the metric scored, if any
	score    float64
	hasScore bool
}

// OK reports whether the check passed.
func (r Report) OK() bool { return r.ok && r.err == nil }

// Err is why the check could not be made, or nil.
func (r Report) Err() error { return r.err }

// String is the failure message: why the check did not pass (or could not
// be made). It is what an assertion reports and Expect(...).To prints.
func (r Report) String() string {
	if r.err != nil {
		return r.err.Error()
	}
	if r.why == nil {
		return ""
	}
	return r.why()
}

// Negated is the message for a check that was expected to fail and passed,
// as Expect(...).NotTo prints it.
func (r Report) Negated() string {
	if r.err != nil {
		return r.err.Error()
	}
	if r.whyNot == nil {
		return ""
	}
	return r.whyNot()
}

// Score is the metric's name and score behind the report, for the checks
// that score.
func (r Report) Score() (metric string, score float64, ok bool) {
	return r.metric, r.score, r.hasScore
}

// NewReport is the Report of a check made outside this package (such as
// tooldefs'): ok is whether it passed, why the failure message ("Expected
// ... to ..., but ...") and whyNot the message of its negation, both built
// only when a message is wanted; err, when not nil, means the check could
// not be made.
func NewReport(ok bool, why, whyNot func() string, err error) Report {
	return Report{ok: ok, why: why, whyNot: whyNot, err: err}
}

// failed is a Report with only an error.
func failed(err error) Report { return Report{err: err} }

// CheckScore scores the sample with m and compares the score with want: a
// number, the least score that passes, or a Gomega matcher (anything with
// Match(any) (bool, error), such as BeNumerically("~", 0.5, 0.01)). The
// failure shows the score against want, the metric's reason and warnings,
// and for the tool call metrics the reference calls against the predicted
// ones with their per-argument differences.
func CheckScore(ctx context.Context, m metric.Metric, s agentcheck.Sample, want any) Report {
	r, err := m.Evaluate(ctx, s)
	if err != nil {
		return failed(metricerr.Named(m.Name(), err))
	}
	if r.Disagreement != "" {
		return disagreed("on the "+r.Metric+" of the conversation "+summary(s.Conversation), r, explainJudgment(r))
	}
	rep := Report{metric: r.Metric, score: r.Score, hasScore: true}
	explain := func() string { return explainScore(r, s.Conversation.ToolCalls(), s.ReferenceToolCalls) }
	score := formatFloat(r.Score)
	switch w := want.(type) {
	case ArgMatcher:
		ok, err := w.Match(r.Score)
		if err != nil {
			return failed(fmt.Errorf("%s: %w", r.Metric, err))
		}
		rep.ok = ok
		inner := func(negated bool) string {
			if f, ok := w.(interface {
				FailureMessage(any) string
				NegatedFailureMessage(any) string
			}); ok {
				if negated {
					return f.NegatedFailureMessage(r.Score)
				}
				return f.FailureMessage(r.Score)
			}
			return describeArg(w)
		}
		msg := func(not string, negated bool) func() string {
			return func() string {
				return withDetail(fmt.Sprintf("Expected the agent's tool calls %sto score a %s that satisfies the matcher, but they score %s:\n%s",
					not, r.Metric, score, indent(inner(negated), "    ")), explain())
			}
		}
		rep.why, rep.whyNot = msg("", false), msg("not ", true)
		return rep
	}
	min, ok := toFloat(want)
	if !ok {
		return failed(fmt.Errorf("%s: want a number or a Gomega matcher for the score, got %T", r.Metric, want))
	}
	rep.ok = r.Score >= min
	msg := func(not string) func() string {
		return func() string {
			return withDetail(fmt.Sprintf("Expected the agent's tool calls %sto score %s >= %s, but they score %s",
				not, r.Metric, formatFloat(min), score), explain())
		}
	}
	rep.why, rep.whyNot = msg(""), msg("not ")
	return rep
}

// withDetail joins a headline and the detail under it.
func withDetail(head, detail string) string {
	if detail == "" {
		return head
	}
	return head + "\n" + detail
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

func toFloat(x any) (float64, bool) {
	switch v := x.(type) {
	case float64:
		return v, true
	case float32:
		return float64(v), true
	case int:
		return float64(v), true
	case int64:
		return float64(v), true
	case int32:
		return float64(v), true
	}
	return 0, false
}

// explainScore renders a tool call metric's result for a failure message: its reason, its
// warnings, and, for the tool call metrics, a table of the reference calls
// against the predicted calls they were paired with ('=' matched, '~'
// paired but different, '-' reference call without partner, '+' predicted
// call without partner), then the per-argument differences of each pair
// that is not a match and, for a reference call without partner, of the
// closest predicted call of the same tool. predicted and reference must be
// the lists the result was computed from; for Evaluate, the sample's
// Conversation.ToolCalls() and ReferenceToolCalls.
//
// Arguments differ as the metric sees them: ToolCallF1 compares values with
// Python's == and counts extra arguments; ToolCallAccuracy compares Python
// str() texts and ignores extra predicted arguments.
func explainScore(r metric.Result, predicted, reference []agentcheck.ToolCall) string {
	var b strings.Builder
	if r.Reason != "" {
		b.WriteString("reason: " + r.Reason + "\n")
	}
	for _, w := range r.Warnings {
		b.WriteString("warning: " + w + "\n")
	}
	if len(r.Pairs) == 0 {
		return strings.TrimRight(b.String(), "\n")
	}
	f1 := r.Metric == metric.ToolCallF1{}.Name()
	call := func(calls []agentcheck.ToolCall, i int) (agentcheck.ToolCall, bool) {
		if i < 0 || i >= len(calls) {
			return agentcheck.ToolCall{}, false
		}
		return calls[i], true
	}
	cell := func(calls []agentcheck.ToolCall, i int) string {
		if i < 0 {
			return ""
		}
		tc, ok := call(calls, i)
		if !ok {
			return "[" + strconv.Itoa(i) + "] ?"
		}
		return "[" + strconv.Itoa(i) + "] " + renderCall(tc)
	}
	t := table{left: "reference", right: "predicted"}
	for _, p := range r.Pairs {
		mark := byte('~')
		switch {
		case p.Matched:
			mark = '='
		case p.Predicted < 0:
			mark = '-'
		case p.Reference < 0:
			mark = '+'
		}
		t.rows = append(t.rows, tableRow{mark, cell(reference, p.Reference), cell(predicted, p.Predicted)})
	}
	t.write(&b)

	var details strings.Builder
	for _, p := range r.Pairs {
		ref, rok := call(reference, p.Reference)
		pred, pok := call(predicted, p.Predicted)
		switch {
		case p.Matched:
		case rok && pok:
			fmt.Fprintf(&details, "  ref[%d] %s vs pred[%d] %s", p.Reference, ref.Name, p.Predicted, pred.Name)
			if !f1 && ref.Name == pred.Name {
				fmt.Fprintf(&details, " (argument score %s)", formatFloat(p.Score))
			}
			details.WriteString(":\n")
			if ref.Name != pred.Name {
				fmt.Fprintf(&details, "      tool: want %s, got %s\n", ref.Name, pred.Name)
			}
			writeArgDiffs(&details, metricArgDiffs(ref, pred, f1))
		case rok:
			if k := repeatOf(reference, p.Reference, f1); f1 && k >= 0 {
				fmt.Fprintf(&details, "  ref[%d] repeats ref[%d]; ToolCallF1 counts a call once\n", p.Reference, k)
				continue
			}
			writeClosestPredicted(&details, r.Pairs, p.Reference, ref, predicted, f1)
		case pok && f1:
			if k := repeatOf(predicted, p.Predicted, f1); k >= 0 {
				fmt.Fprintf(&details, "  pred[%d] repeats pred[%d]; ToolCallF1 counts a call once\n", p.Predicted, k)
			}
		}
	}
	if details.Len() > 0 {
		b.WriteByte('\n')
		b.WriteString(details.String())
	}
	return strings.TrimRight(b.String(), "\n")
}

// writeClosestPredicted explains a reference call left without partner by
// the predicted call of the same tool with the fewest differences.
func writeClosestPredicted(b *strings.Builder, pairs []metric.CallPair, ri int, ref agentcheck.ToolCall, predicted []agentcheck.ToolCall, f1 bool) {
	matched := make(map[int]int)
	for _, p := range pairs {
		if p.Predicted >= 0 && p.Reference >= 0 {
			matched[p.Predicted] = p.Reference
		}
	}
	best, bestDiffs := -1, []argDiff(nil)
	for j, pred := range predicted {
		if pred.Name != ref.Name {
			continue
		}
		d := metricArgDiffs(ref, pred, f1)
		if best < 0 || len(d) < len(bestDiffs) {
			best, bestDiffs = j, d
		}
	}
	fmt.Fprintf(b, "  ref[%d] %s not made", ri, ref.Name)
	if best < 0 {
		fmt.Fprintf(b, ": no call to %s was predicted\n", ref.Name)
		return
	}
	fmt.Fprintf(b, "; closest is pred[%d]", best)
	if k, ok := matched[best]; ok {
		fmt.Fprintf(b, ", paired with ref[%d]", k)
	}
	b.WriteString(":\n")
	if len(bestDiffs) == 0 {
		b.WriteString("      (same arguments)\n")
	}
	writeArgDiffs(b, bestDiffs)
}

// metricArgDiffs lists the reference arguments a predicted call lacks or
// has otherwise, as the metric compares them; a predicted call whose
// arguments are not valid JSON differs in them as a whole.
func metricArgDiffs(refCall, predCall agentcheck.ToolCall, f1 bool) []argDiff {
	if predCall.InvalidArgs != "" {
		return []argDiff{unparseable(renderJSON(refCall.Args), predCall)}
	}
	ref, pred := refCall.Args, predCall.Args
	var out []argDiff
	nan := 0
	for _, m := range ref.Members() {
		pv, ok := pred.Get(m.Key)
		switch {
		case !ok:
			out = append(out, argDiff{path: renderKey(m.Key), kind: missing, want: renderJSON(m.Value)})
		case f1 && string(pyvalue.AppendKey(nil, m.Value, &nan)) != string(pyvalue.AppendKey(nil, pv, &nan)),
			!f1 && pyvalue.Str(m.Value) != pyvalue.Str(pv):
			out = append(out, argDiff{path: renderKey(m.Key), kind: differs, want: renderJSON(m.Value), got: renderJSON(pv)})
		}
	}
	if f1 {
		for _, m := range pred.Members() {
			if _, ok := ref.Get(m.Key); !ok {
				out = append(out, argDiff{path: renderKey(m.Key), kind: unexpected, got: renderJSON(m.Value)})
			}
		}
	}
	return out
}

// repeatOf returns the index of an earlier call equal to calls[i] as
// ToolCallF1 sees calls, or -1.
func repeatOf(calls []agentcheck.ToolCall, i int, f1 bool) int {
	if !f1 || i >= len(calls) {
		return -1
	}
	key := func(tc agentcheck.ToolCall) string {
		nan := 0
		return tc.Name + "\x00" + string(pyvalue.AppendKey(nil, tc.Args, &nan))
	}
	k := key(calls[i])
	for j := 0; j < i; j++ {
		if key(calls[j]) == k {
			return j
		}
	}
	return -1
}
