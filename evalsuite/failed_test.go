package evalsuite_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/evalsuite"
)

// A run that Run reports Failed counts as failed, not as unscored, and its
// checks still score its sample.
func TestFailedRun(t *testing.T) {
	n := 0
	c := evalsuite.Case{ID: "c", Run: func(context.Context) (agentcheck.Sample, error) {
		n++
		s := agentcheck.Sample{Conversation: agentcheck.Conversation{{Role: agentcheck.Human, Content: "hi"}}}
		if n == 2 {
			return s, &evalsuite.Failed{Reason: "the judge found the greeting rude\nin two lines"}
		}
		return s, nil
	}}
	res := evalsuite.Suite{Repeat: 2}.Evaluate(context.Background(), []evalsuite.Case{c})
	cr := res.Cases[0]
	if cr.Passes() != 1 || cr.Runs[1].Err != nil || cr.Verdict() != "flaky 1/2" {
		t.Fatalf("passes %d, run 2 error %v, verdict %q", cr.Passes(), cr.Runs[1].Err, cr.Verdict())
	}
	one := evalsuite.Suite{}.Evaluate(context.Background(), []evalsuite.Case{{ID: "d", Run: func(context.Context) (agentcheck.Sample, error) {
		return agentcheck.Sample{}, &evalsuite.Failed{Reason: "rude"}
	}}})
	if v := one.Cases[0].Verdict(); v != "fail" || !strings.Contains(one.String(), "1 of 1 cases failed: d") {
		t.Errorf("verdict %q:\n%s", v, one)
	}
}
