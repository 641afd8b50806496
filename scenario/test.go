package scenario

import (
	"context"
	"strconv"

	"github.com/agentcheck/agentcheck/agenttest"
)

// TB is what Test needs of a test: *testing.T, *testing.B, Ginkgo's
// GinkgoT(). When it also has Context() context.Context, the run is made
// within the test's context; when it has Attr and ArtifactDir (Go 1.25 and
// 1.26's *testing.T), the run is kept there too.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
}

// CheckName is the name Test gives its check in agenttest.Record: the
// attribute agentcheck.check and the artifacts agentcheck-scenario.json
// (the transcript as a ragas sample) and agentcheck-scenario.txt (the
// report).
const CheckName = "scenario"

// Test runs the scenario in the test t and fails it, unless the run passed,
// with the run's report (Result.String). It records the run as the other
// assertions do (agenttest.Record): the attributes agentcheck.check,
// agentcheck.verdict and agentcheck.scenario.* (name, end, turns,
// tool_calls, tokens, tokens.agent, tokens.user, tokens.judge), and on
// failure the transcript and the report as artifacts.
func (s Scenario) Test(t TB) *Result {
	t.Helper()
	ctx := context.Background()
	if c, ok := t.(interface{ Context() context.Context }); ok && c.Context() != nil {
		ctx = c.Context()
	}
	res := s.Run(ctx)
	if rep := res.Report(); !rep.OK() {
		// Before Record: *testing.T's ArtifactDir ends the test when it
		// cannot make the directory, and the failure must be told first.
		t.Errorf("%s", rep.String())
	}
	res.Record(t)
	return res
}

// Record keeps the run with the test t, as Test does and as the testify
// assertions (agenttest/assert.Scenario) do after failing t their own way:
// the attributes agentcheck.scenario.* when t has Attr, then
// agenttest.Record with CheckName, the transcript and Report. It never
// fails t itself.
func (r *Result) Record(t any) {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	r.attrs(t)
	agenttest.Record(t, CheckName, r.Conversation, r.Report())
}

// attrs records the run's figures as test attributes, when t can.
func (r *Result) attrs(t any) {
	a, ok := t.(interface{ Attr(key, value string) })
	if !ok {
		return
	}
	u := r.Usage
	for _, kv := range [][2]string{
		{"name", r.Name},
		{"end", r.End},
		{"turns", strconv.Itoa(len(r.Turns))},
		{"tool_calls", strconv.Itoa(r.ToolCalls)},
		{"tokens", strconv.Itoa(u.Total().Total())},
		{"tokens.agent", strconv.Itoa(u.Agent.Total())},
		{"tokens.user", strconv.Itoa(u.User.Total())},
		{"tokens.judge", strconv.Itoa(u.Judge.Total())},
	} {
		a.Attr(agenttest.AttrPrefix+"scenario."+kv[0], kv[1])
	}
}
