package agenttest

import (
	"context"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/metric"
)

// T is what the assertions need of a test: *testing.T, Ginkgo's GinkgoT()
// and testify's mocks all fit. When t also has Helper(), failures are
// reported at the caller's line; when it has FailNow(), the Require
// functions stop the test; when it has Context() context.Context (as
// *testing.T and GinkgoT() do), judged assertions ask the judge within the
// test's context, so a cancelled or timed-out test stops waiting for it.
type T interface {
	Errorf(format string, args ...any)
}

func helper(t T) {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
}

func failNow(t T) {
	if f, ok := t.(interface{ FailNow() }); ok {
		f.FailNow()
	}
}

// contextOf is the test's context, or Background for a T without one.
func contextOf(t T) context.Context {
	if c, ok := t.(interface{ Context() context.Context }); ok {
		if ctx := c.Context(); ctx != nil {
			return ctx
		}
	}
	return context.Background()
}

// report fails t with r's message unless r passed, and tells whether it
// did; with require, a failure also stops the test.
func report(t T, r Report, require bool) bool {
	helper(t)
	if r.OK() {
		return true
	}
	t.Errorf("%s", r)
	if require {
		failNow(t)
	}
	return false
}

// AssertToolCalls checks the tool calls in actual (anything ToolCallsOf
// takes) against the expected calls in the given order (CheckToolCalls),
// fails t with the table of expected against actual calls and their
// per-argument differences if they do not match, and returns whether they
// did.
func AssertToolCalls(t T, actual any, order Order, expected ...ExpectedCall) bool {
	helper(t)
	return report(t, CheckToolCalls(actual, order, expected...), false)
}

// RequireToolCalls is AssertToolCalls, then t.FailNow() on failure when t
// has it.
func RequireToolCalls(t T, actual any, order Order, expected ...ExpectedCall) bool {
	helper(t)
	return report(t, CheckToolCalls(actual, order, expected...), true)
}

// AssertCalled checks that the number of calls in actual that call accepts
// satisfies count: Times(n), AtLeastOnce(), AtMost(n)... (CheckCalled).
func AssertCalled(t T, actual any, call ExpectedCall, count Count) bool {
	helper(t)
	return report(t, CheckCalled(actual, call, count), false)
}

// AssertNeverCalled checks that actual has no call to the named tool.
func AssertNeverCalled(t T, actual any, name string) bool {
	helper(t)
	return report(t, CheckCalled(actual, CallTo(name), Never()), false)
}

// AssertScore checks that m scores the sample at least min (CheckScore):
// for instance metric.ToolCallAccuracy{} (ragas's default) or
// metric.ToolCallF1{}. The failure shows the score, the threshold, the
// metric's reason and the reference calls against the predicted ones with
// their argument differences.
func AssertScore(t T, m metric.Metric, s agentcheck.Sample, min float64) bool {
	helper(t)
	return report(t, CheckScore(contextOf(t), m, s, min), false)
}

// RequireScore is AssertScore, then t.FailNow() on failure when t has it.
func RequireScore(t T, m metric.Metric, s agentcheck.Sample, min float64) bool {
	helper(t)
	return report(t, CheckScore(contextOf(t), m, s, min), true)
}

// AssertGoalAchieved checks that the judge j finds that the sample's
// conversation achieved its goal (CheckGoal with
// metric.AgentGoalAccuracy{Judge: j}), within the test's context. A
// judgment that could not be made and a panel whose judges disagree fail
// too, with their causes.
func AssertGoalAchieved(t T, j metric.Judge, s agentcheck.Sample) bool {
	helper(t)
	return report(t, CheckGoal(contextOf(t), metric.AgentGoalAccuracy{Judge: j}, s), false)
}

// RequireGoalAchieved is AssertGoalAchieved, then t.FailNow() on failure
// when t has it.
func RequireGoalAchieved(t T, j metric.Judge, s agentcheck.Sample) bool {
	helper(t)
	return report(t, CheckGoal(contextOf(t), metric.AgentGoalAccuracy{Judge: j}, s), true)
}

// AssertOnTopics checks that the judge j finds that the sample's
// conversation stays on its ReferenceTopics: that TopicAdherence in mode
// scores at least min (CheckTopics), within the test's context.
func AssertOnTopics(t T, j metric.Judge, s agentcheck.Sample, min float64, mode metric.TopicMode) bool {
	helper(t)
	return report(t, CheckTopics(contextOf(t), metric.TopicAdherence{Judge: j, Mode: mode}, s, min), false)
}

// RequireOnTopics is AssertOnTopics, then t.FailNow() on failure when t has
// it.
func RequireOnTopics(t T, j metric.Judge, s agentcheck.Sample, min float64, mode metric.TopicMode) bool {
	helper(t)
	return report(t, CheckTopics(contextOf(t), metric.TopicAdherence{Judge: j, Mode: mode}, s, min), true)
}
