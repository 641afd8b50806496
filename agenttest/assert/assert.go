// Package assert is agentcheck's assertions in testify's style: each
// checks what an agent did (its tool calls, a metric's score, a judge's
// verdict on its goal or topics), returns whether the check passed, takes
// testify's optional msgAndArgs last, and fails the test through testify's
// assert.Fail, so a failure reads as testify's do (Error Trace, Error, Test,
// Messages) with agentcheck's report, the same words Gomega's matchers
// print, as its Error. They take testify's assert.TestingT (Errorf only):
// *testing.T, a suite.Suite's T(), Ginkgo's GinkgoT(). Every assertion also
// records its check, verdict and score as test attributes and, on failure,
// writes the transcript and the report as test artifacts (agenttest.Record).
// Package agenttest/require has the same assertions, stopping the test on
// failure.
package assert

import (
	"context"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/agenttest/internal/checkname"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/trajectory"
	"github.com/stretchr/testify/assert"
)

// TestingT is what the assertions need of a test: testify's
// assert.TestingT, anything with Errorf. When t also has Helper(), failures
// are reported at the caller's line; when it has Context() context.Context
// (as *testing.T and GinkgoT() do), judged assertions ask the judge within
// the test's context; when it has Attr and ArtifactDir (*testing.T, Go 1.25
// and 1.26), the outcome is kept there too (agenttest.Record).
type TestingT = assert.TestingT

// Calls is the expected tool calls of ToolCalls:
// assert.Calls{agenttest.CallTo("search"), agenttest.CallTo("book")}.
type Calls = []agenttest.ExpectedCall

// ToolCalls asserts that the tool calls in actual (anything
// agenttest.ToolCallsOf takes: a Conversation, a Sample, []ToolCall, an
// adapter's Transcript) are the expected calls in the given trajectory mode
// (agenttest.CheckToolCalls). The failure shows the table of expected
// against actual calls and their per-argument differences.
//
//	assert.ToolCalls(t, msgs, trajectory.InOrder, assert.Calls{search, book}, "booking %s", id)
func ToolCalls(t TestingT, actual any, mode trajectory.Mode, expected Calls, msgAndArgs ...any) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	return Check(t, checkname.ToolCalls, actual, agenttest.CheckToolCalls(actual, mode, expected...), msgAndArgs...)
}

// Called asserts that the number of calls in actual that call accepts
// satisfies count: agenttest.Times(n), Never(), AtLeastOnce(), AtLeast(n),
// AtMost(n) or Between(lo, hi) (agenttest.CheckCalled).
func Called(t TestingT, actual any, call agenttest.ExpectedCall, count agenttest.Count, msgAndArgs ...any) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	return Check(t, checkname.Called, actual, agenttest.CheckCalled(actual, call, count), msgAndArgs...)
}

// NotCalled asserts that actual has no call to the tool name: Called with
// agenttest.CallTo(name) and agenttest.Never().
func NotCalled(t TestingT, actual any, name string, msgAndArgs ...any) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	return Check(t, checkname.Called, actual, agenttest.CheckCalled(actual, agenttest.CallTo(name), agenttest.Never()), msgAndArgs...)
}

// Score asserts that m scores the sample at least min
// (agenttest.CheckScore): for instance metric.ToolCallAccuracy{} or
// metric.ToolCallF1{}. The metric is asked within the test's context. The
// failure shows the score, the threshold, the metric's reason and the
// reference calls against the predicted ones with their argument
// differences.
func Score(t TestingT, m metric.Metric, sample agentcheck.Sample, min float64, msgAndArgs ...any) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	return Check(t, checkname.Score, sample, agenttest.CheckScore(contextOf(t), m, sample, min), msgAndArgs...)
}

// GoalAchieved asserts that the judge j finds that the sample's
// conversation achieved its goal (agenttest.CheckGoal with
// metric.AgentGoalAccuracy{Judge: j}), asked within the test's context. A
// judgment that could not be made and a panel whose judges disagree fail
// too, with their causes.
func GoalAchieved(t TestingT, j judgment.Judge, sample agentcheck.Sample, msgAndArgs ...any) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	r := agenttest.CheckGoal(contextOf(t), metric.AgentGoalAccuracy{Judge: j}, sample)
	return Check(t, checkname.Goal, sample, r, msgAndArgs...)
}

// Rubric asserts that the judge of m finds that the sample's trajectory
// satisfies m's rubric (agenttest.CheckRubric), asked within the test's
// context; the failure quotes the judge's reasons, criterion by criterion.
func Rubric(t TestingT, m metric.TrajectoryRubric, sample agentcheck.Sample, msgAndArgs ...any) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	r := agenttest.CheckRubric(contextOf(t), m, sample)
	return Check(t, checkname.Rubric, sample, r, msgAndArgs...)
}

// OnTopics asserts that the judge j finds that the sample's conversation
// stays on its ReferenceTopics: that metric.TopicAdherence in mode scores
// at least min (agenttest.CheckTopics), asked within the test's context. A
// perfect score is just under 1: use agenttest.DefaultTopicThreshold, or
// 0.99 for no slip at all.
func OnTopics(t TestingT, j judgment.Judge, sample agentcheck.Sample, min float64, mode metric.TopicMode, msgAndArgs ...any) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	r := agenttest.CheckTopics(contextOf(t), metric.TopicAdherence{Judge: j, Mode: mode}, sample, min)
	return Check(t, checkname.Topics, sample, r, msgAndArgs...)
}

// Check asserts that r, the Report of any agenttest check, passed: it
// records the outcome (agenttest.Record, with check as the check's name and
// subject as what was checked), and unless r passed fails t through
// testify's assert.Fail with r's message as the Error. It is what the other
// assertions do, for the checks they do not cover:
//
//	assert.Check(t, "goal", sample,
//		agenttest.CheckGoal(ctx, metric.AgentGoalAccuracy{Judge: j, WithoutReference: true}, sample))
func Check(t TestingT, check string, subject any, r agenttest.Report, msgAndArgs ...any) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	ok := r.OK()
	if !ok {
		// Before Record: *testing.T's ArtifactDir ends the test when it
		// cannot make the directory, and the failure must be told first.
		assert.Fail(t, r.String(), msgAndArgs...)
	}
	agenttest.Record(t, check, subject, r)
	return ok
}

// tHelper is a test that can mark its callers as helpers. Each
// assertion calls Helper itself: a helper function calling it would mark
// only that function.
type tHelper interface{ Helper() }

// contextOf is the test's context, or Background for a t without one.
func contextOf(t TestingT) context.Context {
	if c, ok := t.(interface{ Context() context.Context }); ok {
		if ctx := c.Context(); ctx != nil {
			return ctx
		}
	}
	return context.Background()
}
