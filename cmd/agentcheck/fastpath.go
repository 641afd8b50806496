package main

import (
	"context"
	"unsafe"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/plainreason"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/report"
)

// The tool-call metrics' fast path: evaluate scores ToolCallAccuracy and
// ToolCallF1 on the calls it gathered once for both, each reason written
// into the batch's memory, and plain reasons written as they are.

// plainNames reports whether the gathered calls and s's reference calls
// all have plain names (plainNames), looked at once a sample, when a
// reason asks.
func (sc *scorer) plainNames(s *agentcheck.Sample) bool {
	if sc.names == 0 {
		sc.names = 2
		if plainNames(sc.calls) && plainNames(s.ReferenceToolCalls) {
			sc.names = 1
		}
	}
	return sc.names == 1
}

// plainNames reports whether every call's name is plain JSON text without
// a space (each byte printable ASCII but ' ', '"', '#' and '\\'): the
// tool-call metrics' reasons are such text but for the call names they
// may list (TestToolCallReasonsOnPlainNamesArePlain), so that on such
// names they are written as they are (plainreason).
func plainNames(calls []agentcheck.ToolCall) bool {
	for i := range calls {
		name := calls[i].Name
		for j := 0; j < len(name); j++ {
			if !plainNameByte[name[j]] {
				return false
			}
		}
	}
	return true
}

// plainNameByte marks the bytes plainNames takes: one lookup a byte of
// every name, where five comparisons were a sixth of the scoring's own
// instructions on the spec's vectors.
var plainNameByte = func() (t [256]bool) {
	for c := '!'; c < 0x7f; c++ {
		t[c] = c != '"' && c != '#' && c != '\\'
	}
	return t
}()

// bit is metric j's bit of a scorer's marks; j from 64 up has none.
func bit(j int) uint64 {
	if j >= 64 {
		return 0
	}
	return 1 << j
}

// setPlainResult and writeCase are report's entry points for reasons
// known to be plain JSON text on one line (plainreason).
var (
	setPlainResult = plainreason.SetResult.(func(*report.Case, int, *metric.Result) bool)
	writeCase      = plainreason.WriteCase.(func(*report.Writer, *report.Case, uint64) error)
)

// fastMetric is a metric of evaluate's fast path: m, and whether it
// leaves a sample without reference calls to Evaluate.
type fastMetric struct {
	m              toolCallMetric
	needsReference bool
}

// toolCallMetric is what the fast path asks of the tool-call metrics.
type toolCallMetric interface {
	Name() string
	Score(predicted, reference []agentcheck.ToolCall) float64
	AppendReason(dst []byte, predicted, reference []agentcheck.ToolCall) (float64, []byte)
}

// fastResult sets *r to m's result on the gathered calls: the score,
// with the reason of a score under 1 when the output shows reasons. (In
// place: a Result is twenty words, copied twice more when returned.)
func (sc *scorer) fastResult(r *metric.Result, m toolCallMetric, reference []agentcheck.ToolCall) {
	*r = metric.Result{Metric: m.Name()}
	if !sc.cfg.reasons {
		r.Score = m.Score(sc.calls, reference)
		return
	}
	if sc.text == nil {
		// Not scoring a batch (agentcheck calibrate): a string of its own.
		var b []byte
		if r.Score, b = m.AppendReason(nil, sc.calls, reference); r.Score < 1 {
			r.Reason = string(b)
		}
		return
	}
	// The reason goes into the batch's memory, reused from batch to batch
	// once its cases are written (a report.Writer keeps copies of what it
	// keeps), rather than a string of its own a sample.
	a := *sc.text
	start := len(a)
	r.Score, a = m.AppendReason(a, sc.calls, reference)
	if r.Score < 1 && len(a) > start {
		r.Reason = unsafe.String(&a[start], len(a)-start)
	} else {
		a = a[:start]
	}
	*sc.text = a
}

// explain gives the fast path's score of metric j a reason, as Evaluate
// words it. A perfect score needs no reason, and most samples of a large
// dataset have one.
func (sc *scorer) explain(ctx context.Context, j int, s *agentcheck.Sample) {
	if sc.results[j].Reason != "" || sc.scores[j] >= 1 {
		return
	}
	var r metric.Result
	var err error
	switch m := sc.cfg.metrics[j].(type) {
	case metric.ToolCallF1:
		if sc.gathered {
			r = m.Compare(sc.calls, s.ReferenceToolCalls) // Evaluate, on the calls gathered already
			break
		}
		r, err = m.Evaluate(ctx, *s)
	case metric.ToolCallAccuracy:
		if sc.gathered && s.ReferenceToolCalls != nil {
			r = m.Compare(sc.calls, s.ReferenceToolCalls)
			break
		}
		r, err = m.Evaluate(ctx, *s)
	default:
		r, err = m.Evaluate(ctx, *s)
	}
	if err == nil && r.Score == sc.scores[j] {
		sc.results[j].Reason = r.Reason
		sc.fast &^= bit(j)
	}
}
