package agenttest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/agenttest/assert"
	"github.com/agentcheck/agentcheck/agenttest/require"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/metric"
	"go.uber.org/goleak"
)

// offTopicScript is refundScript, but the model "judge-offtopic" finds the
// agent answered the stock tips too.
func offTopicScript(r judgetest.Request) judgetest.Reply {
	if r.Chat.Model == "judge-offtopic" && r.SchemaName() == "topic_refusal" {
		return judgetest.JSON(map[string]bool{"topic_1": false, "topic_2": false})
	}
	return refundScript(r)
}

// failingT is a testify TestingT that keeps what it was told.
type failingT struct {
	errors []string
	stops  int
}

func (f *failingT) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *failingT) FailNow() { f.stops++ }

// TestPanelDisagreementFailsEveryCheck: a consensus panel whose judges
// disagree is one outcome in every judged check, through CheckGoal,
// CheckScore (which once passed a mean of 0.5 at 0.5), CheckTopics and the
// testify assertions: no verdict either way (the check and its negation
// both fail), with each judge's verdict and reason in the message.
func TestPanelDisagreementFailsEveryCheck(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) })
	dir := t.TempDir()
	s := judgetest.Start(t, offTopicScript)
	panel := func(models ...string) judgment.Judge {
		var js []judgment.Judge
		for _, m := range models {
			js = append(js, refundJudge(t, s, dir, m))
		}
		return judge.NewPanel(js, judgment.Aggregation{Method: judgment.Consensus, Tolerance: 0.2})
	}
	goals := panel("judge-a", "judge-lenient")
	sample := refund("1043")
	bothGoalVerdicts := []string{
		"judge judge-a: not achieved", "reason: Order 1043 was refunded instead of 1042.",
		"judge judge-lenient: achieved", "reason: Order 1042 was refunded, as wanted.",
		"disagreement: judges disagree: scores [0, 1] spread 1, more than the tolerance 0.2, so the panel scores 0 (their mean is 0.5)",
	}
	topicSample := refund("1042")
	for _, c := range []struct {
		name string
		r    agenttest.Report
		says []string
	}{
		{"CheckGoal", agenttest.CheckGoal(context.Background(), metric.AgentGoalAccuracy{Judge: goals}, sample),
			append([]string{"The judges disagree whether the conversation", "achieves its goal, so there is no verdict either way (agent_goal_accuracy 0)"}, bothGoalVerdicts...)},
		{"CheckScore at the mean", agenttest.CheckScore(context.Background(), metric.AgentGoalAccuracy{Judge: goals}, sample, 0.5),
			append([]string{"The judges disagree on the agent_goal_accuracy of the conversation", "so there is no verdict either way (agent_goal_accuracy 0)"}, bothGoalVerdicts...)},
		{"CheckScore with a matcher", agenttest.CheckScore(context.Background(), metric.AgentGoalAccuracy{Judge: goals}, sample, agenttest.Anything()),
			bothGoalVerdicts},
		{"CheckTopics", agenttest.CheckTopics(context.Background(), metric.TopicAdherence{Judge: panel("judge-a", "judge-offtopic"), Mode: metric.TopicPrecision}, topicSample, 0.4),
			[]string{
				`The judges disagree on how well the conversation`, `stays on the topics "orders and refunds" (precision), so there is no verdict either way (topic_adherence 0)`,
				"judge judge-a: precision 0.9999999999, recall 0.9999999999, f1 0.99999999985\n    reason: all 2 topics handled as they should be",
				"judge judge-offtopic: precision 0.499999999975", `reason: answered off-topic "stock tips"`,
				"stock tips            yes       no        false positive: answered off-topic",
				"disagreement: judges disagree: scores [1, 0.5] spread 0.5, more than the tolerance 0.2",
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.r.OK() || c.r.Err() == nil || c.r.String() != c.r.Negated() {
				t.Fatalf("Expected no verdict either way (OK false, an Err, the same message negated), but OK %v, Err %v:\n%s\nnegated:\n%s", c.r.OK(), c.r.Err(), c.r, c.r.Negated())
			}
			for _, want := range c.says {
				if !strings.Contains(c.r.String(), want) {
					t.Errorf("Expected the message to say %q, but it reads:\n%s", want, c.r)
				}
			}
		})
	}

	bothReasons := func(errors []string) bool {
		return len(errors) == 1 && strings.Contains(errors[0], bothGoalVerdicts[1]) && strings.Contains(errors[0], bothGoalVerdicts[3])
	}
	var ft failingT
	if assert.Score(&ft, metric.AgentGoalAccuracy{Judge: goals}, sample, 0.5) || !bothReasons(ft.errors) {
		t.Errorf("Expected assert.Score to fail on a disagreeing panel, with both verdicts, but: %q", ft.errors)
	}
	ft = failingT{}
	if assert.GoalAchieved(&ft, goals, sample) || !bothReasons(ft.errors) {
		t.Errorf("Expected assert.GoalAchieved to fail on a disagreeing panel, with both verdicts, but: %q", ft.errors)
	}
	ft = failingT{}
	require.Score(&ft, metric.AgentGoalAccuracy{Judge: goals}, sample, 0)
	if ft.stops != 1 || len(ft.errors) != 1 || !strings.Contains(ft.errors[0], "The judges disagree") {
		t.Errorf("Expected require.Score to stop the test on a disagreeing panel even at 0, but: %d stops, %q", ft.stops, ft.errors)
	}
}
