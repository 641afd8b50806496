package evalsuite

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/baseline"
	"github.com/agentcheck/agentcheck/metric"
)

func twoChecks() []Check {
	return []Check{{Metric: metric.ToolCallAccuracy{}, Threshold: 0}, {Metric: metric.ToolCallF1{}, Threshold: 0}}
}

// The baseline is written sorted, one case a line, with a trailing newline,
// in the CLI's format, and reads back to the same scores.
func TestBaselineIsWrittenStableAndReadsBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nested", "baseline.json")
	ft := &fakeT{}
	res := Run(ft, Suite{Checks: twoChecks(), Baseline: path, UpdateBaseline: true},
		[]Case{{ID: "zeta", Sample: half()}, {ID: "alpha", Sample: right()}, {ID: `quote"d`, Sample: wrong()}})
	if ft.failed || !res.BaselineWritten {
		t.Fatalf("Expected the update to pass and write the baseline, but failed=%v, written=%v: %q", ft.failed, res.BaselineWritten, ft.errs)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "samples": {
    "alpha": {"tool_call_accuracy": 1.0, "tool_call_f1": 1.0},
    "quote\"d": {"tool_call_accuracy": 0.0, "tool_call_f1": 0.5},
    "zeta": {"tool_call_accuracy": 0.5, "tool_call_f1": 0.5}
  }
}
`
	if string(data) != want {
		t.Errorf("Expected the baseline file to be\n%s\nbut it is\n%s", want, data)
	}
	b, err := baseline.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if b["zeta"]["tool_call_f1"] != 0.5 || b[`quote"d`]["tool_call_accuracy"] != 0 || len(b) != 3 {
		t.Errorf("Expected the baseline to read back as written, but it is %v", b)
	}
	if again := b.Encode(); string(again) != want {
		t.Errorf("Expected re-encoding to give the same bytes, but got\n%s", again)
	}
}

func TestEmptyBaseline(t *testing.T) {
	if got, want := string(baseline.Scores{}.Encode()), "{\n  \"samples\": {}\n}\n"; got != want {
		t.Errorf("Expected an empty baseline to be %q, but it is %q", want, got)
	}
}

// A later run that scores lower than the baseline by more than the
// tolerance fails the parent and names the cases; drops within the
// tolerance and new cases do not fail.
func TestBaselineRegressionFailsAndNamesTheCases(t *testing.T) {
	t.Setenv(UpdateEnv, "") // whatever the developer's shell says
	path := filepath.Join(t.TempDir(), "baseline.json")
	base := baseline.Scores{
		"steady":  {"tool_call_accuracy": 1, "tool_call_f1": 1},
		"slipped": {"tool_call_accuracy": 1, "tool_call_f1": 1},
		"wobbly":  {"tool_call_accuracy": 0.55, "tool_call_f1": 0.5},
	}
	if err := base.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	ft := &fakeT{}
	res := Run(ft, Suite{Checks: twoChecks(), Baseline: path, Tolerance: 0.1}, []Case{
		{ID: "steady", Sample: right()},
		{ID: "slipped", Sample: half()},
		{ID: "wobbly", Sample: half()}, // 0.55 → 0.5: within 0.1
		{ID: "brand-new", Sample: wrong()},
	})
	if len(ft.errs) != 1 {
		t.Fatalf("Expected the parent to fail once, but it has %q", ft.errs)
	}
	want := `Expected no score to fall more than 0.1 below the baseline ` + path + `, but 2 did, in 1 case (AGENTCHECK_UPDATE_BASELINE=1 go test blesses the new scores):
  case     metric              score  baseline  change
  slipped  tool_call_accuracy  0.5    1         -0.5
  slipped  tool_call_f1        0.5    1         -0.5`
	if ft.errs[0] != want {
		t.Errorf("Expected the failure to be\n%s\nbut it is\n%s", want, ft.errs[0])
	}
	if len(res.NewCases) != 1 || res.NewCases[0] != "brand-new" {
		t.Errorf("Expected brand-new to be noted as new, but the new cases are %q", res.NewCases)
	}
	if len(ft.logs) != 1 || !strings.HasSuffix(ft.logs[0], "has no scores for 1 case yet (AGENTCHECK_UPDATE_BASELINE=1 adds them): brand-new") {
		t.Errorf("Expected the parent to log the new case, but it logged %q", ft.logs)
	}
	// The file is left alone when comparing.
	if b, _ := baseline.Read(path); b["slipped"]["tool_call_accuracy"] != 1 {
		t.Errorf("Expected the comparison to leave the baseline as it was, but it is %v", b)
	}
}

// AGENTCHECK_UPDATE_BASELINE=1 blesses the new scores; cases that did not
// run keep theirs, cases no longer in the suite lose theirs.
func TestUpdateEnvBlessesAndKeepsCasesThatDidNotRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "baseline.json")
	old := baseline.Scores{
		"ran":     {"tool_call_accuracy": 1},
		"skipped": {"tool_call_accuracy": 0.25},
		"removed": {"tool_call_accuracy": 1},
	}
	if err := old.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	t.Setenv(UpdateEnv, "1")
	ft := &fakeT{skip: func(name string) bool { return name == "skipped" }}
	res := Run(ft, Suite{Checks: accuracy(0), Baseline: path}, []Case{{ID: "ran", Sample: half()}, {ID: "skipped", Sample: right()}})
	if ft.failed || !res.BaselineWritten {
		t.Fatalf("Expected the update to pass and write, but failed=%v, written=%v: %q", ft.failed, res.BaselineWritten, ft.errs)
	}
	if len(ft.logs) != 1 || ft.logs[0] != "wrote the scores of 1 case to the baseline "+path {
		t.Errorf("Expected the parent to log the update, but it logged %q", ft.logs)
	}
	got, err := baseline.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["ran"]["tool_call_accuracy"] != 0.5 || got["skipped"]["tool_call_accuracy"] != 0.25 {
		t.Errorf("Expected ran at 0.5 and skipped kept at 0.25, and removed gone, but the baseline is %v", got)
	}
}

func TestBaselineErrorsNameWhere(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ text, want string }{
		{`[1]`, "not a baseline"},
		{`{"samples": {"a": 1}}`, `sample "a": want an object of scores by metric, got int`},
		{`{"samples": {"a": {"f1": "high"}}}`, `sample "a": f1: want a number, got string`},
		{`{"samples": `, "bad.json:"},
	} {
		path := filepath.Join(dir, "bad.json")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := baseline.Read(path)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("Expected reading %s to fail naming the file and %q, but got %v", c.text, c.want, err)
		}
	}
	if _, err := baseline.Read(filepath.Join(dir, "none.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Expected a missing baseline to be fs.ErrNotExist, but got %v", err)
	}
}

// A corrupt baseline cannot be partly updated: the scores of the cases that
// did not run would be lost.
func TestPartialUpdateOfACorruptBaselineFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), "baseline.json")
	if err := os.WriteFile(path, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	ft := &fakeT{skip: func(name string) bool { return name == "b" }}
	res := Run(ft, Suite{Baseline: path, UpdateBaseline: true}, []Case{{ID: "a"}, {ID: "b"}})
	if res.BaselineWritten || len(ft.errs) != 1 || !strings.Contains(ft.errs[0], "cannot keep the scores of the cases that did not run") {
		t.Errorf("Expected the partial update to fail without writing, but written=%v: %q", res.BaselineWritten, ft.errs)
	}
	// Run whole, the update replaces it.
	res = Suite{Baseline: path, UpdateBaseline: true}.Evaluate(context.Background(), []Case{{ID: "a"}})
	if !res.BaselineWritten || res.Err != nil {
		t.Errorf("Expected a whole run to replace the corrupt baseline, but written=%v, err=%v", res.BaselineWritten, res.Err)
	}
}
