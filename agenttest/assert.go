package agenttest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// TestingT is the part of *testing.T the assertions use, the shape testify
// uses, so testify's mocks and other test runners fit. When t also has
// Helper() (as *testing.T does) failures are reported at the caller's line;
// when it has FailNow(), the Require functions call it after a failure.
type TestingT interface {
	Errorf(format string, args ...any)
}

type tHelper interface{ Helper() }

func failNow(t TestingT) {
	if f, ok := t.(interface{ FailNow() }); ok {
		f.FailNow()
	}
}

// AssertToolCalls checks the tool calls in actual (anything ToolCallsOf
// takes) against the expected calls in the given order, and reports a
// failure to t with the table of expected against actual calls and their
// per-argument differences. It returns whether the check passed.
func AssertToolCalls(t TestingT, actual any, order Order, expected ...ExpectedCall) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	calls, err := ToolCallsOf(actual)
	if err != nil {
		t.Errorf("%v", err)
		return false
	}
	r := CheckToolCalls(calls, order, expected...)
	if !r.OK() {
		t.Errorf("%s", r)
	}
	return r.OK()
}

// RequireToolCalls is AssertToolCalls, then t.FailNow() on failure when t
// has it; otherwise it returns false as AssertToolCalls does.
func RequireToolCalls(t TestingT, actual any, order Order, expected ...ExpectedCall) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	if AssertToolCalls(t, actual, order, expected...) {
		return true
	}
	failNow(t)
	return false
}

// AssertToolCallAccuracy checks that the sample scores at least min by m
// (the zero ToolCallAccuracy is ragas's default), and otherwise reports the
// score, the threshold, the metric's reason and the reference calls against
// the predicted ones with their argument differences.
func AssertToolCallAccuracy(t TestingT, s Sample, min float64, m ToolCallAccuracy) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	return assertScore(t, m, s, min)
}

// RequireToolCallAccuracy is AssertToolCallAccuracy, then t.FailNow() on
// failure when t has it.
func RequireToolCallAccuracy(t TestingT, s Sample, min float64, m ToolCallAccuracy) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	if assertScore(t, m, s, min) {
		return true
	}
	failNow(t)
	return false
}

// AssertToolCallF1 checks that the sample's ToolCallF1 is at least min,
// and otherwise reports as AssertToolCallAccuracy does.
func AssertToolCallF1(t TestingT, s Sample, min float64) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	return assertScore(t, ToolCallF1{}, s, min)
}

// RequireToolCallF1 is AssertToolCallF1, then t.FailNow() on failure when
// t has it.
func RequireToolCallF1(t TestingT, s Sample, min float64) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	if assertScore(t, ToolCallF1{}, s, min) {
		return true
	}
	failNow(t)
	return false
}

func assertScore(t TestingT, m Metric, s Sample, min float64) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	r, err := m.Evaluate(context.Background(), s)
	if err != nil {
		t.Errorf("%s: %v", m.Name(), err)
		return false
	}
	if r.Score >= min {
		return true
	}
	msg := fmt.Sprintf("%s is %s, want at least %s", r.Metric, formatFloat(r.Score), formatFloat(min))
	if e := r.Explain(s.Conversation.ToolCalls(), s.ReferenceToolCalls); e != "" {
		msg += "\n" + e
	}
	t.Errorf("%s", msg)
	return false
}

// AssertCalled checks that actual (anything ToolCallsOf takes) has exactly
// times calls that call accepts, or at least one when times is negative. The
// failure lists the calls made, marking those that match and showing how
// the other calls of the tool differ.
func AssertCalled(t TestingT, actual any, call ExpectedCall, times int) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	return assertCalled(t, actual, call, times)
}

// AssertNeverCalled checks that actual has no call to the named tool.
func AssertNeverCalled(t TestingT, actual any, name string) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	return assertCalled(t, actual, CallTo(name), 0)
}

func assertCalled(t TestingT, actual any, call ExpectedCall, times int) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	calls, err := ToolCallsOf(actual)
	if err != nil {
		t.Errorf("%v", err)
		return false
	}
	r := CheckCalled(calls, call, times)
	if !r.OK() {
		t.Errorf("%s", r)
	}
	return r.OK()
}

// Explain renders the result for a failure message: its reason, its
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
func (r Result) Explain(predicted, reference []ToolCall) string {
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
	f1 := r.Metric == ToolCallF1{}.Name()
	call := func(calls []ToolCall, i int) (ToolCall, bool) {
		if i < 0 || i >= len(calls) {
			return ToolCall{}, false
		}
		return calls[i], true
	}
	cell := func(calls []ToolCall, i int) string {
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
			writeArgDiffs(&details, metricArgDiffs(ref.Args, pred.Args, f1))
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
func writeClosestPredicted(b *strings.Builder, pairs []CallPair, ri int, ref ToolCall, predicted []ToolCall, f1 bool) {
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
		d := metricArgDiffs(ref.Args, pred.Args, f1)
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
// has otherwise, as the metric compares them.
func metricArgDiffs(ref, pred Value, f1 bool) []argDiff {
	var out []argDiff
	nan := 0
	for _, m := range ref.Members() {
		pv, ok := pred.Get(m.Key)
		switch {
		case !ok:
			out = append(out, argDiff{path: renderKey(m.Key), kind: missing, want: renderJSON(m.Value)})
		case f1 && string(m.Value.appendCanonical(nil, &nan)) != string(pv.appendCanonical(nil, &nan)),
			!f1 && m.Value.String() != pv.String():
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
func repeatOf(calls []ToolCall, i int, f1 bool) int {
	if !f1 || i >= len(calls) {
		return -1
	}
	key := func(tc ToolCall) string {
		nan := 0
		return tc.Name + "\x00" + string(tc.Args.appendCanonical(nil, &nan))
	}
	k := key(calls[i])
	for j := 0; j < i; j++ {
		if key(calls[j]) == k {
			return j
		}
	}
	return -1
}
