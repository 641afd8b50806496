package assert

import (
	"github.com/agentcheck/agentcheck/scenario"
	"github.com/stretchr/testify/assert"
)

// Scenario asserts that the scenario's run passes (scenario.Scenario.Run,
// within the test's context): the failure is the run's report (the verdict,
// each criterion with its reason, the transcript turn by turn, the budgets
// used, the cassette and its re-record command), and the run is recorded
// as scenario.Result.Record does. It returns whether the run passed; for
// the run itself (its transcript, judgments, usage), use s.Test(t).
func Scenario(t TestingT, s scenario.Scenario, msgAndArgs ...any) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	res := s.Run(contextOf(t))
	rep := res.Report()
	if !rep.OK() {
		// Before Record, as in Check.
		assert.Fail(t, rep.String(), msgAndArgs...)
	}
	res.Record(t)
	return rep.OK()
}
