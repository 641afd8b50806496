package evalsuite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck/calibrate"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/metric"
)

// A suite's judged checks are held to the judge's calibration, made here
// with the Go API against judgetest's scripted judge: a warning in the log
// when it is missing, stale or below its floor, a failure with
// RequireCalibration, silence when it holds.
func TestSuiteChecksTheJudgesCalibration(t *testing.T) {
	srv := judgetest.Start(t, judgetest.BySchema(map[string]judgetest.Script{
		"agent_goal_infer":   judgetest.Always(judgetest.JSON(map[string]any{"user_goal": "book table 4", "end_state": "table 4 booked"})),
		"agent_goal_compare": judgetest.Always(judgetest.JSON(map[string]any{"reason": "table 4 is booked", "achieved": true})),
	}))
	judgeOf := func(model string) judgment.Judge {
		return judge.New(judge.WithBaseURL(srv.URL), judge.WithModel(model), judge.WithAPIKey(""))
	}
	goal := metric.AgentGoalAccuracy{Judge: judgeOf("gpt-4o-mini")}
	sample, _ := goalSample(context.Background())
	samples := []calibrate.Sample{{ID: "a", Sample: sample}, {ID: "b", Sample: sample}, {ID: "c", Sample: sample}}
	labels := []calibrate.Label{
		{ID: "a", Metric: "agent_goal_accuracy", Score: 1},
		{ID: "b", Metric: "agent_goal_accuracy", Score: 1},
		{ID: "c", Metric: "agent_goal_accuracy", Score: 0, Rationale: "not confirmed"},
	}
	rep, err := calibrate.Evaluate(context.Background(), goal, samples, labels, calibrate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The judge passes all three; people fail c: kappa 0 (one class on the
	// judge's side), below a floor of 0.5.
	r := rep.Results[0]
	if r.N != 3 || r.Kappa != 0 || len(r.Disagreements) != 1 || r.Disagreements[0].Reason != "table 4 is booked" {
		t.Fatalf("calibration %+v", r)
	}
	setup, _ := calibrate.SetupOf(goal)
	dir := t.TempDir()
	good, low := filepath.Join(dir, "good.json"), filepath.Join(dir, "low.json")
	if err := calibrate.NewFile(rep, map[string]calibrate.Setup{"agent_goal_accuracy": setup}, 0, time.Now()).Save(good); err != nil {
		t.Fatal(err)
	}
	if err := calibrate.NewFile(rep, map[string]calibrate.Setup{"agent_goal_accuracy": setup}, 0.5, time.Now()).Save(low); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name, file string
		judge      judgment.Judge
		require    bool
		want       string // in the log, or the failure with require
	}{
		{"holds", good, goal.Judge, true, ""},
		{"no file named", "", goal.Judge, false, "warning: the judge of agent_goal_accuracy is not calibrated: missing: Suite.Calibration names no calibration file"},
		{"no such file", filepath.Join(dir, "none.json"), goal.Judge, true, "the judge of agent_goal_accuracy is not calibrated: missing: no calibration file"},
		{"another model", good, judgeOf("gpt-4.1"), false, "stale: judges gpt-4.1, calibrated gpt-4o-mini"},
		{"below its floor", low, goal.Judge, true, "below floor: kappa 0 over 3 samples, floor 0.5"},
	} {
		ft := &fakeT{}
		s := Suite{Checks: []Check{{Metric: metric.AgentGoalAccuracy{Judge: tc.judge}, Threshold: 1}}, Calibration: tc.file, RequireCalibration: tc.require}
		res := Run(ft, s, []Case{{ID: "book", Run: goalSample}})
		got := strings.Join(append(ft.logs, ft.errs...), "\n")
		switch {
		case tc.want == "" && (len(res.Calibration) > 0 || ft.failed):
			t.Errorf("%s: Expected the calibration to hold, but: %s", tc.name, got)
		case tc.want != "" && !strings.Contains(got, tc.want):
			t.Errorf("%s: Expected %q, but the test said: %s", tc.name, tc.want, got)
		case tc.want != "" && ft.failed != tc.require:
			t.Errorf("%s: Expected the suite to fail only when the calibration is required (%v), but failed is %v", tc.name, tc.require, ft.failed)
		}
	}
	// A suite without judged checks needs no calibration.
	res := Suite{Checks: []Check{{Metric: metric.ToolCallF1{}, Threshold: 0}}, RequireCalibration: true}.Evaluate(context.Background(), []Case{{ID: "x", Run: goalSample}})
	if len(res.Calibration) > 0 || !res.OK() {
		t.Errorf("a deterministic suite: %v", res.Calibration)
	}
}
