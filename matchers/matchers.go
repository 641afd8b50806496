// Package matchers holds Gomega matchers for LLM agents. HaveToolCalls,
// HaveToolCallsInOrder, ConsistOfToolCalls, HaveToolCallsAmong and
// ContainToolCalls (one per trajectory mode), HaveCalledTool,
// FitToolDefinitions, HaveToolCallAccuracy and HaveToolCallF1 check the tool
// calls deterministically; AchieveGoal, StayOnTopics and SatisfyRubric ask
// an LLM judge, replayed from a cassette in CI. Each is a thin adapter over
// an agenttest check, so a matcher fails with the same message as the
// assertion: the expected against the actual calls with per-argument
// differences, the score against the threshold, each judge's verdict and
// reasoning, and the cassette with how to re-record it. The actual value is
// an agentcheck.Conversation, Sample, *Sample, []Message, []ToolCall or an
// adapter's Transcript (goopenai.Messages(msgs)).
package matchers

import (
	"context"
	"fmt"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/trajectory"
	"github.com/onsi/gomega/types"
)

// reportMatcher adapts a check to Gomega: Match runs the check and the
// failure messages are its Report's. It keeps no state between Match and
// the messages, which check again (the deterministic checks are cheap and
// the judged matchers remember their judgments), so a matcher is safe to
// share.
type reportMatcher struct {
	check func(actual any) (agenttest.Report, error) // the error: a misuse
}

func (m *reportMatcher) Match(actual any) (bool, error) {
	r, err := m.check(actual)
	if err != nil {
		return false, err
	}
	if err := r.Err(); err != nil {
		return false, gomegaError{err}
	}
	return r.OK(), nil
}

func (m *reportMatcher) FailureMessage(actual any) string {
	r, err := m.check(actual)
	if err != nil {
		return err.Error()
	}
	return r.String()
}

func (m *reportMatcher) NegatedFailureMessage(actual any) string {
	r, err := m.check(actual)
	if err != nil {
		return err.Error()
	}
	return r.Negated()
}

// gomegaError prints an error as it is, in Expect through Error and in
// Eventually through FormattedGomegaError (it would otherwise dump the
// struct).
type gomegaError struct{ err error }

func (e gomegaError) Error() string                { return e.err.Error() }
func (e gomegaError) FormattedGomegaError() string { return e.err.Error() }
func (e gomegaError) Unwrap() error                { return e.err }

// The tool-call matchers, one per trajectory mode (package trajectory):
//
//	HaveToolCalls         trajectory.Strict
//	HaveToolCallsInOrder  trajectory.InOrder
//	ConsistOfToolCalls    trajectory.Unordered
//	HaveToolCallsAmong    trajectory.Subset
//	ContainToolCalls      trajectory.Superset
//
// Each is agenttest.CheckToolCalls in its mode.

// HaveToolCalls succeeds when the actual tool calls are exactly the
// expected ones, in order, with no others (trajectory.Strict).
func HaveToolCalls(expected ...agenttest.ExpectedCall) types.GomegaMatcher {
	return toolCalls(trajectory.Strict, expected)
}

// HaveToolCallsInOrder succeeds when the expected calls appear among the
// actual ones in this order; other calls may come before, between or after
// (trajectory.InOrder).
func HaveToolCallsInOrder(expected ...agenttest.ExpectedCall) types.GomegaMatcher {
	return toolCalls(trajectory.InOrder, expected)
}

// ContainToolCalls succeeds when each expected call is matched by a
// distinct actual call, in any order; other calls are allowed, as Gomega's
// ContainElements (trajectory.Superset).
func ContainToolCalls(expected ...agenttest.ExpectedCall) types.GomegaMatcher {
	return toolCalls(trajectory.Superset, expected)
}

// HaveToolCallsInAnyOrder is ContainToolCalls.
//
// Deprecated: use ContainToolCalls; "any order" alone does not say that
// other calls are allowed.
func HaveToolCallsInAnyOrder(expected ...agenttest.ExpectedCall) types.GomegaMatcher {
	return ContainToolCalls(expected...)
}

// ConsistOfToolCalls succeeds when the actual tool calls are the expected
// ones in any order, as Gomega's ConsistOf: each expected call matched by a
// distinct actual call, and no other call made (trajectory.Unordered).
func ConsistOfToolCalls(expected ...agenttest.ExpectedCall) types.GomegaMatcher {
	return toolCalls(trajectory.Unordered, expected)
}

// HaveToolCallsAmong succeeds when every actual tool call is one of the
// expected ones, each expected call matching at most one: expected calls
// may be left out, but no other tool may be called (trajectory.Subset).
func HaveToolCallsAmong(expected ...agenttest.ExpectedCall) types.GomegaMatcher {
	return toolCalls(trajectory.Subset, expected)
}

func toolCalls(mode trajectory.Mode, expected []agenttest.ExpectedCall) types.GomegaMatcher {
	return &reportMatcher{check: func(actual any) (agenttest.Report, error) {
		return agenttest.CheckToolCalls(actual, mode, expected...), nil
	}}
}

// HaveCalledTool succeeds when a call matches call at least once, or as
// many times as Times(n), or a count given to Counted (agenttest.AtMost(2),
// agenttest.Between(1, 3)...) allows. call is a tool name (any arguments) or an
// agenttest.ExpectedCall. To assert a tool was never called, negate it:
//
//	Expect(conv).NotTo(HaveCalledTool("delete_account"))
func HaveCalledTool(call any) *CalledToolMatcher {
	m := &CalledToolMatcher{times: agenttest.AtLeastOnce()}
	switch c := call.(type) {
	case string:
		m.call = agenttest.CallTo(c)
	case agenttest.ExpectedCall:
		m.call = c
	default:
		m.err = fmt.Errorf("HaveCalledTool takes a tool name or an agenttest.ExpectedCall, got %T", call)
	}
	m.check = m.run
	return m
}

// CalledToolMatcher is the matcher HaveCalledTool returns.
type CalledToolMatcher struct {
	reportMatcher
	call  agenttest.ExpectedCall
	times agenttest.Count
	err   error
}

// Times makes the matcher succeed only when exactly n calls match.
func (m *CalledToolMatcher) Times(n int) *CalledToolMatcher { return m.Counted(agenttest.Times(n)) }

// Counted makes the matcher succeed when the number of matching calls
// satisfies count: agenttest.AtLeast(2), agenttest.AtMost(3),
// agenttest.Between(1, 3)...
func (m *CalledToolMatcher) Counted(count agenttest.Count) *CalledToolMatcher {
	c := &CalledToolMatcher{call: m.call, times: count, err: m.err}
	c.check = c.run
	return c
}

func (m *CalledToolMatcher) run(actual any) (agenttest.Report, error) {
	if m.err != nil {
		return agenttest.Report{}, m.err
	}
	return agenttest.CheckCalled(actual, m.call, m.times), nil
}

// HaveToolCallAccuracy succeeds when ragas's ToolCallAccuracy of the actual
// sample is at least expected, a number, or satisfies expected, a Gomega
// matcher such as BeNumerically("~", 0.5, 0.01). The metric is ragas's
// default (strict order, exact arguments) unless Using gives another. The
// reference calls are the sample's, or those given to Against, which an
// actual conversation (having none) needs.
func HaveToolCallAccuracy(expected any) *ScoreMatcher {
	return newScoreMatcher(metric.ToolCallAccuracy{}, expected, nil, false, judged{})
}

// HaveToolCallF1 is HaveToolCallAccuracy with ragas's ToolCallF1.
func HaveToolCallF1(expected any) *ScoreMatcher {
	return newScoreMatcher(metric.ToolCallF1{}, expected, nil, false, judged{})
}

// ScoreMatcher scores the actual sample with a metric and compares the
// score (agenttest.CheckScore). It is safe for concurrent use.
type ScoreMatcher struct {
	reportMatcher
	metric    metric.Metric
	expected  any
	reference []agentcheck.ToolCall
	against   bool
	judged
}

func newScoreMatcher(m metric.Metric, expected any, reference []agentcheck.ToolCall, against bool, j judged) *ScoreMatcher {
	s := &ScoreMatcher{metric: m, expected: expected, reference: reference, against: against, judged: j.fresh()}
	s.check = s.run
	return s
}

// Using scores with metric instead, such as
// metric.ToolCallAccuracy{AnyOrder: true, ArgSimilarity: metric.Levenshtein},
// or a judged metric, such as metric.AgentGoalAccuracy{Judge: j}: the
// matcher then asks the judge once per distinct actual, and its failure
// message shows that judgment (see WithContext).
func (m *ScoreMatcher) Using(metric metric.Metric) *ScoreMatcher {
	return newScoreMatcher(metric, m.expected, m.reference, m.against, m.judged)
}

// Against scores against these reference calls, in place of the sample's.
// With none, the reference is that no tool is called.
func (m *ScoreMatcher) Against(reference ...agentcheck.ToolCall) *ScoreMatcher {
	return newScoreMatcher(m.metric, m.expected, append([]agentcheck.ToolCall{}, reference...), true, m.judged)
}

func (m *ScoreMatcher) run(actual any) (agenttest.Report, error) {
	s, err := sampleOf(actual, m.metric.Name())
	if err != nil {
		return agenttest.Report{}, err
	}
	if m.against {
		s.ReferenceToolCalls = m.reference
	} else if !isSample(actual) {
		return agenttest.Report{}, fmt.Errorf("%s needs reference tool calls, and a %T has none: give a Sample, or the calls with .Against(...)", m.metric.Name(), actual)
	}
	return m.once(sampleKey("score", s), func(ctx context.Context) agenttest.Report {
		return agenttest.CheckScore(ctx, m.metric, s, m.expected)
	}), nil
}

// isSample reports whether actual is a Sample, which has reference calls.
func isSample(actual any) bool {
	switch actual.(type) {
	case agentcheck.Sample, *agentcheck.Sample:
		return true
	}
	return false
}

// sampleOf takes the sample a matcher scores from actual
// (agenttest.SampleOf), naming the matcher in an error.
func sampleOf(actual any, matcher string) (agentcheck.Sample, error) {
	s, err := agenttest.SampleOf(actual)
	if err != nil {
		return s, fmt.Errorf("%s: %w", matcher, err)
	}
	return s, nil
}
