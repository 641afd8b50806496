package evalsuite

import (
	"context"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/metric"
)

// A consensus panel whose judges disagree fails its case at any threshold,
// 0 included (the score alone could pass it), and the failure shows each
// judge's verdict and reason.
func TestPanelDisagreementFailsTheCase(t *testing.T) {
	srv := judgetest.Start(t, judgetest.BySchema(map[string]judgetest.Script{
		"agent_goal_infer": judgetest.Always(judgetest.JSON(map[string]any{"user_goal": "book table 4", "end_state": "table 4 booked"})),
		"agent_goal_compare": func(r judgetest.Request) judgetest.Reply {
			if r.Chat.Model == "strict" {
				return judgetest.JSON(map[string]any{"reason": "the time was never confirmed", "achieved": false})
			}
			return judgetest.JSON(map[string]any{"reason": "table 4 is booked", "achieved": true})
		},
	}))
	member := func(model string) judgment.Judge {
		return judge.New(judge.WithBaseURL(srv.URL), judge.WithModel(model), judge.WithAPIKey(""))
	}
	panel := judge.NewPanel([]judgment.Judge{member("strict"), member("lenient")}, judgment.Aggregation{Method: judgment.Consensus, Tolerance: 0.2})
	for _, threshold := range []float64{0, 0.5} {
		s := Suite{Checks: []Check{{Metric: metric.AgentGoalAccuracy{Judge: panel}, Threshold: threshold}}}
		res := s.Evaluate(context.Background(), []Case{{ID: "book", Run: goalSample}})
		c := res.Cases[0]
		if c.ok || c.Runs[0].Passed() {
			t.Fatalf("threshold %v: Expected the case to fail on a disagreeing panel, but it passed with %v", threshold, runScores(c))
		}
		msg := c.failure(res.Metrics)
		for _, want := range []string{
			"agent_goal_accuracy: judges disagree: scores [0, 1] spread 1, more than the tolerance 0.2, so the panel scores 0 (their mean is 0.5)",
			"judge strict: 0: the time was never confirmed",
			"judge lenient: 1: table 4 is booked",
		} {
			if !strings.Contains(msg, want) {
				t.Errorf("threshold %v: Expected the failure to say %q, but it reads:\n%s", threshold, want, msg)
			}
		}
	}
}
