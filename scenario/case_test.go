package scenario_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentcheck/agentcheck/evalsuite"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/agentcheck/agentcheck/scenario"
)

func TestCaseRepeatsGivePassAtK(t *testing.T) {
	var runs atomic.Int32
	// The judge finds the criterion met in runs 1 and 3, not in run 2.
	j := &fakeModel{verdict: func(c []string, _ judgment.Question) []string {
		if runs.Add(1) == 2 {
			return repeat("not_met", len(c))
		}
		return repeat("met", len(c))
	}}
	s := scenario.Scenario{Agent: echo(judgment.Usage{}), User: scenario.StaticUser("hi"), Judge: j, Criteria: []string{"greets back"}}
	res := evalsuite.Suite{Repeat: 3, Gates: []evalsuite.Gate{evalsuite.PassAtK(3, 1), evalsuite.PassHatK(3, 1)}}.
		Evaluate(context.Background(), []evalsuite.Case{scenario.Case("greeting", s)})
	c := res.Cases[0]
	if c.Passes() != 2 || c.Verdict() != "flaky 2/3" || c.PassAtK(3) != 1 || c.PassHatK(3) != 0 {
		t.Fatalf("passes %d, verdict %q, pass@3 %v, pass^3 %v", c.Passes(), c.Verdict(), c.PassAtK(3), c.PassHatK(3))
	}
	if r := c.Runs[1]; r.Err != nil || !strings.Contains(r.Failure, `Expected the scenario "greeting" to pass, but the user was done`) {
		t.Errorf("run 2: err %v, failure %q", r.Err, r.Failure)
	}
	if res.OK() || !strings.Contains(res.String(), "pass^3") {
		t.Errorf("the suite:\n%s", res)
	}
}

// TestRefundSuite replays three runs of the refund scenario as an evalsuite
// case, each from its own interactions of the committed cassette (case
// labels refund#run1, refund#run2, refund#run3).
func TestRefundSuite(t *testing.T) {
	srv, mode := serverFor(t, refundServer(metAll))
	rec := recorder.ForTest(t)
	res := evalsuite.Suite{Repeat: 3, Gates: []evalsuite.Gate{evalsuite.PassHatK(3, 1)}}.
		Run(t, []evalsuite.Case{scenario.Case("refund", refundScenario(t, rec, srv.URL))})
	if !res.OK() || res.Cases[0].Passes() != 3 {
		t.Fatalf("the suite:\n%s", res)
	}
	if mode == recorder.RecordNone && srv.Count() != 0 {
		t.Errorf("replaying reached the server %d times", srv.Count())
	}
}
