// Package matchers holds Gomega matchers for LLM agents: HaveToolCalls (and
// its InOrder and InAnyOrder variants), HaveCalledTool, HaveToolCallAccuracy
// and HaveToolCallF1 check the tool calls deterministically, and AchieveGoal
// and StayOnTopics ask an LLM judge, replayed from a cassette in CI. The
// actual value may be an agenttest.Conversation, agenttest.Sample,
// *agenttest.Sample, []agenttest.Message, []agenttest.ToolCall or
// []openai.ChatCompletionMessage. They work with gomega.NewWithT(t) and in
// Ginkgo, and their failure messages say why: the expected against the actual
// calls with per-argument differences, the score against the threshold, each
// judge's verdict and reasoning, and the cassette with how to re-record it.
package matchers

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/onsi/gomega/types"
)

// HaveToolCalls succeeds when the actual tool calls are exactly the
// expected ones, in order, with no others.
func HaveToolCalls(expected ...agenttest.ExpectedCall) types.GomegaMatcher {
	return toolCallsMatcher{agenttest.Exactly, expected}
}

// HaveToolCallsInOrder succeeds when the expected calls appear among the
// actual ones in this order; other calls may come before, between or after.
func HaveToolCallsInOrder(expected ...agenttest.ExpectedCall) types.GomegaMatcher {
	return toolCallsMatcher{agenttest.InOrder, expected}
}

// HaveToolCallsInAnyOrder succeeds when each expected call is matched by a
// distinct actual call, in any order; other calls are allowed.
func HaveToolCallsInAnyOrder(expected ...agenttest.ExpectedCall) types.GomegaMatcher {
	return toolCallsMatcher{agenttest.AnyOrder, expected}
}

// toolCallsMatcher keeps no state between Match and the failure messages,
// which compare again: comparing calls is cheap, and the matcher stays safe
// to share.
type toolCallsMatcher struct {
	order    agenttest.Order
	expected []agenttest.ExpectedCall
}

func (m toolCallsMatcher) check(actual any) (agenttest.ToolCallsReport, int, error) {
	calls, err := agenttest.ToolCallsOf(actual)
	if err != nil {
		return agenttest.ToolCallsReport{}, 0, err
	}
	return agenttest.CheckToolCalls(calls, m.order, m.expected...), len(calls), nil
}

func (m toolCallsMatcher) Match(actual any) (bool, error) {
	r, _, err := m.check(actual)
	return r.OK(), err
}

func (m toolCallsMatcher) FailureMessage(actual any) string {
	r, _, err := m.check(actual)
	if err != nil {
		return err.Error()
	}
	return r.String()
}

func (m toolCallsMatcher) NegatedFailureMessage(actual any) string {
	r, n, err := m.check(actual)
	if err != nil {
		return err.Error()
	}
	n0 := len(m.expected)
	what := fmt.Sprintf("include these %d in any order", n0)
	switch {
	case m.order == agenttest.Exactly && n0 == 1:
		what = "be exactly this call"
	case m.order == agenttest.Exactly:
		what = fmt.Sprintf("be exactly these %d, in this order", n0)
	case n0 == 1:
		what = "include this call"
	case m.order == agenttest.InOrder:
		what = fmt.Sprintf("include these %d in this order", n0)
	}
	msg := fmt.Sprintf("Expected the %s made not to %s, but they do", calls(n), what)
	if d := r.Diff(); d != "" {
		msg += ":\n" + d
	}
	return msg
}

func calls(n int) string {
	if n == 1 {
		return "1 tool call"
	}
	return strconv.Itoa(n) + " tool calls"
}

// HaveCalledTool succeeds when a call matches call at least once, or
// exactly n times after Times(n). call is a tool name (any arguments) or an
// agenttest.ExpectedCall. To assert a tool was never called, negate it:
//
//	Expect(conv).NotTo(HaveCalledTool("delete_account"))
func HaveCalledTool(call any) *CalledToolMatcher {
	switch c := call.(type) {
	case string:
		return &CalledToolMatcher{call: agenttest.CallTo(c), times: -1}
	case agenttest.ExpectedCall:
		return &CalledToolMatcher{call: c, times: -1}
	}
	return &CalledToolMatcher{err: fmt.Errorf("HaveCalledTool takes a tool name or an agenttest.ExpectedCall, got %T", call), times: -1}
}

// CalledToolMatcher is the matcher HaveCalledTool returns.
type CalledToolMatcher struct {
	call  agenttest.ExpectedCall
	times int // < 0: at least once
	err   error
}

// Times makes the matcher succeed only when exactly n calls match.
func (m *CalledToolMatcher) Times(n int) *CalledToolMatcher {
	c := *m
	c.times = n
	return &c
}

func (m *CalledToolMatcher) check(actual any, times int) (agenttest.ToolCallsReport, error) {
	if m.err != nil {
		return agenttest.ToolCallsReport{}, m.err
	}
	calls, err := agenttest.ToolCallsOf(actual)
	if err != nil {
		return agenttest.ToolCallsReport{}, err
	}
	return agenttest.CheckCalled(calls, m.call, times), nil
}

func (m *CalledToolMatcher) Match(actual any) (bool, error) {
	r, err := m.check(actual, m.times)
	return r.OK(), err
}

func (m *CalledToolMatcher) FailureMessage(actual any) string {
	r, err := m.check(actual, m.times)
	if err != nil {
		return err.Error()
	}
	return r.String()
}

func (m *CalledToolMatcher) NegatedFailureMessage(actual any) string {
	if m.times < 0 {
		// Not called at least once is never called: say so, with the calls.
		r, err := m.check(actual, 0)
		if err != nil {
			return err.Error()
		}
		return r.String()
	}
	r, err := m.check(actual, m.times)
	if err != nil {
		return err.Error()
	}
	target := m.call.String()
	if strings.HasSuffix(target, "(...)") {
		target = m.call.Name()
	}
	msg := fmt.Sprintf("Expected %s not to be called %s, but it was", target, times(m.times))
	if d := r.Diff(); d != "" {
		msg += ":\n" + d
	}
	return msg
}

func times(n int) string {
	if n == 1 {
		return "1 time"
	}
	return strconv.Itoa(n) + " times"
}

// HaveToolCallAccuracy succeeds when ragas's ToolCallAccuracy of the actual
// sample is at least expected, a number, or satisfies expected, a Gomega
// matcher such as BeNumerically("~", 0.5, 0.01). The metric is ragas's
// default (strict order, exact arguments) unless Using gives another. The
// reference calls are the sample's, or those given to Against, which an
// actual conversation (having none) needs.
func HaveToolCallAccuracy(expected any) *ScoreMatcher {
	return &ScoreMatcher{metric: agenttest.ToolCallAccuracy{}, expected: expected}
}

// HaveToolCallF1 is HaveToolCallAccuracy with ragas's ToolCallF1.
func HaveToolCallF1(expected any) *ScoreMatcher {
	return &ScoreMatcher{metric: agenttest.ToolCallF1{}, expected: expected}
}

// ScoreMatcher scores the actual sample with a metric and compares the
// score. It remembers its last evaluation for the failure message, as
// Gomega's own matchers do, so do not share one between goroutines.
type ScoreMatcher struct {
	metric    agenttest.Metric
	expected  any
	reference []agenttest.ToolCall
	against   bool
	last      struct {
		result               agenttest.Result
		predicted, reference []agenttest.ToolCall
	}
}

// Using scores with metric instead, such as
// agenttest.ToolCallAccuracy{AnyOrder: true, ArgSimilarity: agenttest.Levenshtein}.
func (m *ScoreMatcher) Using(metric agenttest.Metric) *ScoreMatcher {
	c := *m
	c.metric = metric
	return &c
}

// Against scores against these reference calls, in place of the sample's.
// With none, the reference is that no tool is called.
func (m *ScoreMatcher) Against(reference ...agenttest.ToolCall) *ScoreMatcher {
	c := *m
	c.reference = append([]agenttest.ToolCall{}, reference...)
	c.against = true
	return &c
}

func (m *ScoreMatcher) Match(actual any) (bool, error) {
	var s agenttest.Sample
	switch v := actual.(type) {
	case agenttest.Sample:
		s = v
	case *agenttest.Sample:
		if v == nil {
			return false, fmt.Errorf("%s: the sample is a nil *agenttest.Sample", m.metric.Name())
		}
		s = *v
	default:
		conv, err := agenttest.ConversationOf(actual)
		if err != nil {
			return false, err
		}
		if !m.against {
			return false, fmt.Errorf("%s needs reference tool calls, and a %T has none: give a Sample, or the calls with .Against(...)", m.metric.Name(), actual)
		}
		s.Conversation = conv
	}
	if m.against {
		s.ReferenceToolCalls = m.reference
	}
	r, err := m.metric.Evaluate(context.Background(), s)
	if err != nil {
		return false, err
	}
	m.last.result = r
	m.last.predicted = s.Conversation.ToolCalls()
	m.last.reference = s.ReferenceToolCalls
	switch e := m.expected.(type) {
	case types.GomegaMatcher:
		return e.Match(r.Score)
	}
	min, ok := toFloat(m.expected)
	if !ok {
		return false, fmt.Errorf("%s: expected a number or a Gomega matcher for the score, got %T", m.metric.Name(), m.expected)
	}
	return r.Score >= min, nil
}

func (m *ScoreMatcher) FailureMessage(any) string { return m.message(false) }

func (m *ScoreMatcher) NegatedFailureMessage(any) string { return m.message(true) }

func (m *ScoreMatcher) message(negated bool) string {
	r := m.last.result
	not := ""
	if negated {
		not = "not "
	}
	score := strconv.FormatFloat(r.Score, 'g', -1, 64)
	var msg string
	if inner, ok := m.expected.(types.GomegaMatcher); ok {
		innerMsg := inner.FailureMessage(r.Score)
		if negated {
			innerMsg = inner.NegatedFailureMessage(r.Score)
		}
		msg = fmt.Sprintf("Expected the agent's tool calls %sto score a %s that satisfies the matcher, but they score %s:\n%s",
			not, r.Metric, score, indent(innerMsg, "    "))
	} else {
		min, _ := toFloat(m.expected)
		msg = fmt.Sprintf("Expected the agent's tool calls %sto score %s >= %s, but they score %s",
			not, r.Metric, strconv.FormatFloat(min, 'g', -1, 64), score)
	}
	if e := r.Explain(m.last.predicted, m.last.reference); e != "" {
		msg += "\n" + e
	}
	return msg
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
