package require

import (
	"github.com/agentcheck/agentcheck/agenttest/assert"
	"github.com/agentcheck/agentcheck/scenario"
)

// Scenario is assert.Scenario, then t.FailNow() when the run did not pass.
func Scenario(t TestingT, s scenario.Scenario, msgAndArgs ...any) {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	if !assert.Scenario(t, s, msgAndArgs...) {
		t.FailNow()
	}
}
