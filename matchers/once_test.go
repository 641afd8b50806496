package matchers_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/judgment"
	. "github.com/agentcheck/agentcheck/matchers"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/onsi/gomega/types"
)

// fickleScript is judgeScript with a goal verdict that flips at every
// comparison: a live judge that would print another verdict than the one
// that failed, were it asked again for the message.
func fickleScript(compared *atomic.Int32) judgetest.Script {
	base := judgeScript()
	return func(r judgetest.Request) judgetest.Reply {
		if r.SchemaName() == "agent_goal_compare" {
			if compared.Add(1)%2 == 1 {
				return judgetest.JSON(map[string]any{"reason": "first answer: not achieved", "achieved": false})
			}
			return judgetest.JSON(map[string]any{"reason": "second answer: achieved", "achieved": true})
		}
		return base(r)
	}
}

// TestJudgedMatchersAskOnce: every judged matcher, ScoreMatcher.Using a
// judged metric included, asks the judge once for Match and its failure
// message, and the message is that judgment's.
func TestJudgedMatchersAskOnce(t *testing.T) {
	checkLeaks(t)
	late := agentcheck.Sample{Conversation: booking("21:00"), Reference: bookingReference}
	for name, m := range map[string]func(judgment.Judge) types.GomegaMatcher{
		"Using": func(j judgment.Judge) types.GomegaMatcher {
			return HaveToolCallAccuracy(1).Using(metric.AgentGoalAccuracy{Judge: j})
		},
		"AchieveGoal": func(j judgment.Judge) types.GomegaMatcher { return AchieveGoal(j) },
	} {
		t.Run(name, func(t *testing.T) {
			var compared atomic.Int32
			s := judgetest.Start(t, fickleScript(&compared))
			live := judge.New(judge.WithBaseURL(s.URL), judge.WithAPIKey("sk-test"), judge.WithModel("judge-a"))
			g := newFailures()
			g.Expect(late).To(m(live))
			msg := g.one(t)
			if compared.Load() != 1 || len(s.Requests()) != 2 {
				t.Errorf("Expected one judgment (2 questions, 1 comparison), but the judge was asked %d questions, %d comparisons", len(s.Requests()), compared.Load())
			}
			contains(t, msg, "reason: first answer: not achieved")
			if strings.Contains(msg, "second answer") {
				t.Errorf("Expected the message of the judgment that failed, but it reads:\n%s", msg)
			}
		})
	}
}

// TestJudgedMatchersWithContext: the judge is asked within the context
// given to WithContext; a cancelled one stops the judgment before any
// question reaches the judge.
func TestJudgedMatchersWithContext(t *testing.T) {
	checkLeaks(t)
	dir := t.TempDir()
	s := judgetest.Start(t, judgeScript())
	j := newJudge(t, s, dir, "judge-a", recorder.RecordMissing)
	late := agentcheck.Sample{Conversation: booking("21:00"), Reference: bookingReference, ReferenceTopics: []string{"restaurants"}}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for name, m := range map[string]types.GomegaMatcher{
		"AchieveGoal":    AchieveGoal(j).WithContext(cancelled),
		"StayOnTopics":   StayOnTopics(j).WithContext(cancelled),
		"SatisfyRubric":  SatisfyRubric(j, "The agent books the time asked for.").WithContext(cancelled),
		"Using(a judge)": HaveToolCallAccuracy(1).Using(metric.AgentGoalAccuracy{Judge: j}).WithContext(cancelled),
	} {
		t.Run(name, func(t *testing.T) {
			before := len(s.Requests())
			ok, err := m.Match(late)
			if ok || err == nil || !strings.Contains(err.Error(), "context canceled") {
				t.Errorf("Expected the cancelled context to stop the judgment, but Match gives %v, %v", ok, err)
			}
			if n := len(s.Requests()) - before; n != 0 {
				t.Errorf("Expected no question to reach the judge, but %d did", n)
			}
		})
	}
	if ok, err := AchieveGoal(j).WithContext(t.Context()).Match(agentcheck.Sample{Conversation: booking("20:00"), Reference: bookingReference}); !ok || err != nil {
		t.Errorf("Expected the test's context to let the judge answer, but Match gives %v, %v", ok, err)
	}
}

// TestScoreMatcherPanelDisagreement: a consensus panel that disagrees
// fails HaveToolCallAccuracy(...).Using a judged metric both ways, at the
// mean of the scores too, with both verdicts and their reasons.
func TestScoreMatcherPanelDisagreement(t *testing.T) {
	checkLeaks(t)
	dir := t.TempDir()
	s := judgetest.Start(t, judgeScript())
	panel := judge.NewPanel([]judgment.Judge{
		newJudge(t, s, dir, "judge-a", recorder.RecordMissing), newJudge(t, s, dir, "judge-lenient", recorder.RecordMissing),
	}, judgment.Aggregation{Method: judgment.Consensus, Tolerance: 0.2})
	late := agentcheck.Sample{Conversation: booking("21:00"), Reference: bookingReference}
	m := HaveToolCallAccuracy(0.5).Using(metric.AgentGoalAccuracy{Judge: panel})
	g := newFailures()
	g.Expect(late).To(m)
	toMsg := g.one(t)
	g.Expect(late).NotTo(m)
	if notMsg := g.one(t); notMsg != toMsg {
		t.Errorf("Expected To and NotTo to fail alike on a disagreement:\n%s\n---\n%s", toMsg, notMsg)
	}
	contains(t, toMsg,
		"The judges disagree on the agent_goal_accuracy of the conversation",
		"so there is no verdict either way (agent_goal_accuracy 0)",
		"judge judge-a: not achieved\n    reason: The table was booked for 9pm, but the goal is 8pm.",
		"judge judge-lenient: achieved\n    reason: The booking matches: two people at Luigi's at 8pm.",
		"disagreement: judges disagree: scores [0, 1] spread 1, more than the tolerance 0.2, so the panel scores 0 (their mean is 0.5)")
}
