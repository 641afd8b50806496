package scenario

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
)

// Step is one step of a scenario's script, made by UserSays, UserTurn,
// AgentTurn, AgentSays, Check, CheckFunc, Checkpoint, Proceed, ProceedFor, Succeed or
// Fail.
type Step struct {
	kind     stepKind
	text     string // UserSays' message, Succeed's and Fail's reason
	turns    int    // ProceedFor's
	bounded  bool   // ProceedFor, not Proceed
	check    func(agentcheck.Conversation) agenttest.Report
	checkFn  func(agentcheck.Conversation) error
	criteria []string
}

type stepKind uint8

const (
	stepUserSays stepKind = iota + 1
	stepUserTurn
	stepAgent
	stepAgentSays
	stepCheck
	stepCheckpoint
	stepProceed
	stepSucceed
	stepFail
)

// UserSays is the user's next turn, word for word.
func UserSays(message string) Step { return Step{kind: stepUserSays, text: message} }

// UserTurn is the user's next turn as the scenario's User writes it; if
// the user is done instead, the conversation ends and the judge decides.
func UserTurn() Step { return Step{kind: stepUserTurn} }

// AgentTurn is the agent's reply to the conversation so far.
func AgentTurn() Step { return Step{kind: stepAgent} }

// AgentSays puts words in the agent's mouth: an agent message with this
// text, as if the agent had replied so, without asking it (to set up the
// conversation the agent is then tested in).
func AgentSays(message string) Step { return Step{kind: stepAgentSays, text: message} }

// Check checks the conversation so far with any agenttest check: the run
// fails with the check's report when it does not pass.
//
//	scenario.Check(func(c agentcheck.Conversation) agenttest.Report {
//		return agenttest.CheckCalled(c, agenttest.CallTo("lookup_order"), agenttest.Times(1))
//	})
func Check(check func(agentcheck.Conversation) agenttest.Report) Step {
	return Step{kind: stepCheck, check: check}
}

// CheckFunc checks the conversation so far with a Go func: the run fails
// with the func's error.
func CheckFunc(check func(agentcheck.Conversation) error) Step {
	return Step{kind: stepCheck, checkFn: check}
}

// Checkpoint asks the scenario's judge whether criteria hold at this point
// of the conversation: the run goes on when every one is met, and fails
// otherwise (not met, or inconclusive) with the judge's reasons.
func Checkpoint(criteria ...string) Step { return Step{kind: stepCheckpoint, criteria: criteria} }

// Proceed runs turns, the User writing each user turn and the agent
// replying, until the user is done, MaxTurns is reached or, with
// JudgeEachTurn, the judge decides.
func Proceed() Step { return Step{kind: stepProceed} }

// ProceedFor is Proceed for at most n turns; the script then goes on.
func ProceedFor(n int) Step { return Step{kind: stepProceed, turns: n, bounded: true} }

// Succeed ends the run as passed, with reason; the Criteria are not judged.
func Succeed(reason string) Step { return Step{kind: stepSucceed, text: reason} }

// Fail ends the run as failed, with reason.
func Fail(reason string) Step { return Step{kind: stepFail, text: reason} }

// describe is the step as it was written, for messages.
func (st Step) describe() string {
	switch st.kind {
	case stepUserSays:
		return "UserSays(" + strconv.Quote(clip(st.text, 40)) + ")"
	case stepUserTurn:
		return "UserTurn()"
	case stepAgent:
		return "AgentTurn()"
	case stepAgentSays:
		return "AgentSays(" + strconv.Quote(clip(st.text, 40)) + ")"
	case stepCheck:
		if st.checkFn != nil {
			return "CheckFunc(...)"
		}
		return "Check(...)"
	case stepCheckpoint:
		quoted := make([]string, len(st.criteria))
		for i, c := range st.criteria {
			quoted[i] = strconv.Quote(clip(c, 40))
		}
		return "Checkpoint(" + strings.Join(quoted, ", ") + ")"
	case stepProceed:
		if st.bounded {
			return "ProceedFor(" + strconv.Itoa(st.turns) + ")"
		}
		return "Proceed()"
	case stepSucceed:
		return "Succeed(" + strconv.Quote(clip(st.text, 40)) + ")"
	case stepFail:
		return "Fail(" + strconv.Quote(clip(st.text, 40)) + ")"
	}
	return "Step{} (not made by a step function)"
}

// validate says what keeps the step from running in s.
func (st Step) validate(s Scenario) error {
	switch st.kind {
	case stepUserSays, stepAgentSays:
		if strings.TrimSpace(st.text) == "" {
			return errors.New("the message is empty")
		}
	case stepUserTurn:
		if s.User == nil {
			return errors.New("needs a User to write the turn: set Scenario.User")
		}
	case stepAgent, stepSucceed, stepFail:
	case stepCheck:
		if st.check == nil && st.checkFn == nil {
			return errors.New("the check is nil")
		}
	case stepCheckpoint:
		if len(st.criteria) == 0 {
			return errors.New("no criteria")
		}
		if err := checkCriteria(st.criteria); err != nil {
			return err
		}
		if isNil(s.Judge) {
			return errors.New("needs a Judge: set Scenario.Judge (judge.ForTest(t))")
		}
	case stepProceed:
		if st.bounded && st.turns < 1 {
			return fmt.Errorf("%d turns, want 1 or more", st.turns)
		}
		if s.User == nil {
			return errors.New("needs a User to write the user's turns: set Scenario.User")
		}
	default:
		return errors.New("not a step: make steps with UserSays, UserTurn, AgentTurn, AgentSays, Check, CheckFunc, Checkpoint, Proceed, ProceedFor, Succeed or Fail")
	}
	return nil
}

// clip cuts s to n runes, "…" included.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
