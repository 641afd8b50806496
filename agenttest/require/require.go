// Package require is package agenttest/assert's assertions that stop the
// test on failure, as testify's require is to testify's assert: each fails
// the test through testify's assert.Fail (Error Trace, Error, Test,
// Messages, with agentcheck's report as the Error), then calls t.FailNow(),
// so nothing after it runs. They take testify's require.TestingT (Errorf and
// FailNow): *testing.T, a suite.Suite's T(), Ginkgo's GinkgoT(). Like every
// agentcheck assertion they record their check, verdict and score as test
// attributes and, on failure, write the transcript and the report as test
// artifacts (agenttest.Record).
package require

import (
	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/agenttest/assert"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/trajectory"
	"github.com/stretchr/testify/require"
)

// TestingT is what the assertions need of a test: testify's
// require.TestingT, anything with Errorf and FailNow. Helper, Context, Attr
// and ArtifactDir are used when t has them, as in package assert.
type TestingT = require.TestingT

// Calls is the expected tool calls of ToolCalls:
// require.Calls{agenttest.CallTo("search"), agenttest.CallTo("book")}, the
// same slice type as assert.Calls.
type Calls = []agenttest.ExpectedCall

// ToolCalls is assert.ToolCalls, then t.FailNow() on failure.
func ToolCalls(t TestingT, actual any, mode trajectory.Mode, expected Calls, msgAndArgs ...any) {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	if !assert.ToolCalls(t, actual, mode, expected, msgAndArgs...) {
		t.FailNow()
	}
}

// Called is assert.Called, then t.FailNow() on failure.
func Called(t TestingT, actual any, call agenttest.ExpectedCall, count agenttest.Count, msgAndArgs ...any) {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	if !assert.Called(t, actual, call, count, msgAndArgs...) {
		t.FailNow()
	}
}

// NotCalled is assert.NotCalled, then t.FailNow() on failure.
func NotCalled(t TestingT, actual any, name string, msgAndArgs ...any) {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	if !assert.NotCalled(t, actual, name, msgAndArgs...) {
		t.FailNow()
	}
}

// Score is assert.Score, then t.FailNow() on failure.
func Score(t TestingT, m metric.Metric, sample agentcheck.Sample, min float64, msgAndArgs ...any) {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	if !assert.Score(t, m, sample, min, msgAndArgs...) {
		t.FailNow()
	}
}

// GoalAchieved is assert.GoalAchieved, then t.FailNow() on failure.
func GoalAchieved(t TestingT, j judgment.Judge, sample agentcheck.Sample, msgAndArgs ...any) {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	if !assert.GoalAchieved(t, j, sample, msgAndArgs...) {
		t.FailNow()
	}
}

// Rubric is assert.Rubric, then t.FailNow() on failure.
func Rubric(t TestingT, m metric.TrajectoryRubric, sample agentcheck.Sample, msgAndArgs ...any) {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	if !assert.Rubric(t, m, sample, msgAndArgs...) {
		t.FailNow()
	}
}

// OnTopics is assert.OnTopics, then t.FailNow() on failure.
func OnTopics(t TestingT, j judgment.Judge, sample agentcheck.Sample, min float64, mode metric.TopicMode, msgAndArgs ...any) {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	if !assert.OnTopics(t, j, sample, min, mode, msgAndArgs...) {
		t.FailNow()
	}
}

// Check is assert.Check, then t.FailNow() on failure: any agenttest
// check's Report, recorded as check about subject.
func Check(t TestingT, check string, subject any, r agenttest.Report, msgAndArgs ...any) {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	if !assert.Check(t, check, subject, r, msgAndArgs...) {
		t.FailNow()
	}
}

// tHelper is a test that can mark its callers as helpers. Each
// assertion calls Helper itself: a helper function calling it would mark
// only that function.
type tHelper interface{ Helper() }
