package evalsuite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/report"
)

// artT is fakeT with an artifact directory per test, as go test
// -artifacts gives one (T.ArtifactDir, Go 1.26).
type artT struct {
	name, dir string
	errs      []string
	subs      []*artT
	failed    bool
}

func (a *artT) Helper() {}
func (a *artT) Errorf(format string, args ...any) {
	a.errs = append(a.errs, fmt.Sprintf(format, args...))
	a.failed = true
}
func (a *artT) ArtifactDir() string {
	if err := os.MkdirAll(a.dir, 0o755); err != nil {
		panic(err)
	}
	return a.dir
}
func (a *artT) Run(name string, fn func(*artT)) bool {
	sub := &artT{name: name, dir: filepath.Join(a.dir, name)}
	a.subs = append(a.subs, sub)
	fn(sub)
	a.failed = a.failed || sub.failed
	return !sub.failed
}

// TestFailingCaseShowsItsRunsReport: a failing case's message has each bad
// run's report (the call diff the matchers print), which also goes to the
// subtest's artifact directory; the suite's run goes to the test's as
// JSON that package report reads back.
func TestFailingCaseShowsItsRunsReport(t *testing.T) {
	at := &artT{name: "TestSuite", dir: t.TempDir()}
	s := Suite{Checks: accuracy(0.9), Repeat: 2, RequireAllRuns: true}
	res := Run(at, s, []Case{{ID: "ok", Sample: right()}, {ID: "flaky", Run: agentPassing("10")}})
	if !at.failed || len(at.subs) != 2 || !at.subs[1].failed || at.subs[0].failed {
		t.Fatalf("Expected only flaky's subtest to fail, but: %+v", at.subs)
	}
	msg := at.subs[1].errs[0]
	for _, want := range []string{
		`Expected all 2 runs of case "flaky" to pass, but 1 failed:`,
		"\n  run 2: tool_call_accuracy scored 0.5, below 0.9: 2 calls aligned by name; mean argument score 0.5\n",
		"      tool_call_accuracy:\n",
		`book(table: 4)`, `book(table: 5)`, // the call diff
		"- table: 4\n", "+ table: 5\n",
		"1 of 2 runs passed", // the statistics
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("Expected flaky's failure to hold %q, but it is:\n%s", want, msg)
		}
	}
	art, err := os.ReadFile(filepath.Join(at.dir, "flaky", "agentcheck-report.txt"))
	if err != nil || string(art) != msg+"\n" {
		t.Errorf("Expected the failure in flaky's artifact directory, but: %v\n%s", err, art)
	}
	if _, err := os.Stat(filepath.Join(at.dir, "ok", "agentcheck-report.txt")); !os.IsNotExist(err) {
		t.Errorf("Expected no report for the passing case, but: %v", err)
	}
	f, err := os.Open(filepath.Join(at.dir, "agentcheck-run.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	run, err := report.ReadJSON(f, "agentcheck-run.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Cases) != 2 || run.Cases[1].Status != report.Flaky || len(run.Cases[1].Runs) != 2 ||
		run.Cases[1].Runs[1].Status != report.Fail || !strings.Contains(run.Cases[1].Runs[1].Report, "+ table: 5") ||
		len(run.Cases[1].Runs[1].Transcript) == 0 || run.Cases[1].Runs[0].Transcript != nil || run.Pass || res.OK() {
		t.Errorf("Expected the run's JSON to have flaky's two runs, the second failing with its report and transcript, but it has %+v", run.Cases)
	}
}

// TestReportEnv: AGENTCHECK_REPORT names a file the report is written to
// in the format of its extension.
func TestReportEnv(t *testing.T) {
	for ext, want := range map[string]string{".json": `{"samples":[`, ".md": "### evalsuite `", ".html": "<!doctype html>"} {
		path := filepath.Join(t.TempDir(), "report"+ext)
		t.Setenv(ReportEnv, path)
		ft := &fakeT{}
		Run(ft, Suite{Checks: accuracy(0.9)}, []Case{{ID: "half", Sample: half()}})
		data, err := os.ReadFile(path)
		if err != nil || !strings.HasPrefix(strings.TrimSpace(string(data)), want) || !strings.Contains(string(data), "half") {
			t.Errorf("%s: %v\n%.300s", ext, err, data)
		}
	}
	t.Setenv(ReportEnv, filepath.Join(t.TempDir(), "report.txt"))
	ft := &fakeT{}
	Run(ft, Suite{Checks: accuracy(0.9)}, []Case{{ID: "a", Sample: right()}})
	if len(ft.errs) != 1 || !strings.Contains(ft.errs[0], "AGENTCHECK_REPORT=") || !strings.Contains(ft.errs[0], "want a file ending .html, .json or .md") {
		t.Errorf("Expected a report file of no known format to fail the test, but: %q", ft.errs)
	}
}

// failingMetric fails as a judged metric does when every judge failed: its
// error starts with its own name.
type failingMetric struct{}

func (failingMetric) Name() string { return "agent_goal_accuracy" }
func (failingMetric) Evaluate(context.Context, agentcheck.Sample) (metric.Result, error) {
	return metric.Result{}, errors.New("agent_goal_accuracy: every judge failed: replay miss")
}

// TestErrorsNameTheMetricOnce: a metric's error that names the metric is
// not prefixed with its name again.
func TestErrorsNameTheMetricOnce(t *testing.T) {
	ft := &fakeT{}
	Run(ft, Suite{Checks: []Check{{Metric: failingMetric{}}}}, []Case{{ID: "a", Sample: right()}})
	got := ft.sub("a").errs
	if len(got) != 1 || got[0] != `Expected case "a" to be scored, but agent_goal_accuracy: every judge failed: replay miss` {
		t.Errorf("Expected the error to name the metric once, but it is %q", got)
	}
}
