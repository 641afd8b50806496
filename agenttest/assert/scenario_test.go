package assert_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest/assert"
	"github.com/agentcheck/agentcheck/agenttest/require"
	"github.com/agentcheck/agentcheck/scenario"
)

// scenarioT is a testify TestingT that keeps what it is told.
type scenarioT struct {
	errors []string
	attrs  map[string]string
	failed bool
}

func (s *scenarioT) Errorf(format string, args ...any) {
	s.errors = append(s.errors, fmt.Sprintf(format, args...))
}
func (s *scenarioT) FailNow()         { s.failed = true }
func (s *scenarioT) Attr(k, v string) { s.attrs[k] = v }

func TestScenario(t *testing.T) {
	agent := scenario.AgentFunc(func(_ context.Context, c agentcheck.Conversation) (scenario.Reply, error) {
		return scenario.Reply{Messages: []agentcheck.Message{{Role: agentcheck.AI, Content: "no"}}}, nil
	})
	refuses := scenario.Scenario{Name: "refuses", Agent: agent, Script: []scenario.Step{
		scenario.UserSays("refund order 1042"), scenario.AgentTurn(),
		scenario.CheckFunc(func(c agentcheck.Conversation) error {
			if c[len(c)-1].Content == "no" {
				return fmt.Errorf("the agent refused")
			}
			return nil
		}),
	}}
	st := &scenarioT{attrs: map[string]string{}}
	if assert.Scenario(st, refuses, "order %d", 1042) {
		t.Fatal("assert.Scenario passed a failing run")
	}
	if len(st.errors) != 1 || !strings.Contains(st.errors[0], `Expected the scenario "refuses" to pass, but the check at Script[2] CheckFunc(...) (turn 1) failed`) ||
		!strings.Contains(st.errors[0], "the agent refused") || !strings.Contains(st.errors[0], "order 1042") {
		t.Errorf("the failure: %q", st.errors)
	}
	if st.attrs["agentcheck.check"] != "scenario" || st.attrs["agentcheck.verdict"] != "fail" || st.attrs["agentcheck.scenario.end"] != "check" {
		t.Errorf("attributes %v", st.attrs)
	}

	rt := &scenarioT{attrs: map[string]string{}}
	require.Scenario(rt, refuses)
	if !rt.failed {
		t.Error("require.Scenario did not stop the test")
	}
	passes := refuses
	passes.Script = passes.Script[:2]
	ok := &scenarioT{attrs: map[string]string{}}
	if !assert.Scenario(ok, passes) || len(ok.errors) != 0 || ok.attrs["agentcheck.verdict"] != "pass" {
		t.Errorf("a passing run: errors %q, attributes %v", ok.errors, ok.attrs)
	}
}
