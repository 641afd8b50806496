package calibrate_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentcheck/agentcheck/calibrate"
)

// A judge that agrees with people on 13 of 15 samples, most of which pass,
// is less good than 86.7% suggests.
func ExampleCompare() {
	labels, _ := calibrate.ReadLabels(strings.NewReader(`{"id": "s1", "metric": "agent_goal_accuracy", "label": true}
{"id": "s2", "metric": "agent_goal_accuracy", "label": false, "rationale": "booked the wrong day"}`), "labels.jsonl")
	judgments := []calibrate.Judgment{
		{ID: "s1", Key: "agent_goal_accuracy", Run: 1, Score: 1, Reason: "booked as asked"},
		{ID: "s2", Key: "agent_goal_accuracy", Run: 1, Score: 1, Reason: "the table is booked"},
	}
	r := calibrate.Compare(labels, judgments).Results[0]
	fmt.Println(r.Key, r.N, r.Confusion, r.Accuracy)
	for _, d := range r.Disagreements {
		fmt.Printf("%s: people %v (%s), judge %v (%s)\n", d.ID, d.Human, d.Rationales[0], d.Judge, d.Reason)
	}

	c := calibrate.Confusion{TP: 10, FP: 1, FN: 1, TN: 3}
	fmt.Printf("accuracy %.3f, majority label %.3f, kappa %.3f, mcc %.3f\n", c.Accuracy(), c.MajorityAccuracy(), c.Kappa(), c.MCC())
	// Output:
	// agent_goal_accuracy 2 {1 1 0 0} 0.5
	// s2: people false (booked the wrong day), judge true (the table is booked)
	// accuracy 0.867, majority label 0.733, kappa 0.659, mcc 0.659
}

// A judged gate checks the calibration it trusts.
func ExampleCheck() {
	dir, _ := os.MkdirTemp("", "calibration")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "calibration.json")
	kappa := 0.72
	setup := calibrate.Setup{Judges: []string{"gpt-4o-mini"}, PromptVersion: "goal/v1", CriteriaHash: calibrate.CriteriaHash("agent_goal_accuracy")}
	f := calibrate.File{Date: "2026-01-01", Metrics: map[string]calibrate.Entry{
		"agent_goal_accuracy": {Setup: setup, N: 120, Kappa: &kappa, MinKappa: 0.6},
	}}
	_ = f.Save(path)

	fmt.Println(calibrate.Check(path, "agent_goal_accuracy", setup, 0))
	setup.Judges = []string{"gpt-4.1-mini"}
	fmt.Println(strings.ReplaceAll(calibrate.Check(path, "agent_goal_accuracy", setup, 0).Error(), path, "PATH"))
	fmt.Println(calibrate.Check(path, "topic_adherence", setup, 0) != nil)
	// Output:
	// <nil>
	// the judge of agent_goal_accuracy is not calibrated: stale: judges gpt-4.1-mini, calibrated gpt-4o-mini (calibrated 2026-01-01 in PATH)
	// true
}
