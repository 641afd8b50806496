package evalsuite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/report"
)

// ReportEnv is the environment variable that names a file a suite run by
// Run writes its report to, in the format its extension says: .html (one
// self-contained page), .json (the run, which agentcheck report renders
// again) or .md (a GitHub step summary).
const ReportEnv = "AGENTCHECK_REPORT"

// count is n things, the noun in the plural unless n is 1: "1 case", "3
// cases".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// explain keeps, in run, the judges' verdicts and, for a run that did not
// pass, its transcript and the report of each check it fell below: the
// matchers' call diff for a tool call metric (agenttest.CheckScore), each
// judge's verdict for a judged one.
func (s Suite) explain(ctx context.Context, run *RunResult, sample agentcheck.Sample, results []metric.Result, thresholds []float64) {
	var c report.Case
	for j := range results {
		if results[j].Metric != "" {
			c.SetResult(j, &results[j])
		}
	}
	run.verdicts = c.Verdicts
	if run.Passed() {
		return
	}
	run.transcript = report.Transcript(sample.Conversation)
	var reports []string
	for _, j := range run.Below {
		r := results[j]
		if len(r.Verdicts) > 0 {
			reports = append(reports, fmt.Sprintf("%s: %s%s", r.Metric, r.Reason, judgesSaid(r)))
			continue
		}
		detail := agenttest.CheckScore(ctx, s.Checks[j].Metric, sample, thresholds[j]).String()
		// The headline and the reason are said already, above the report.
		_, detail, _ = strings.Cut(detail, "\n")
		detail = strings.TrimPrefix(detail, "reason: "+r.Reason+"\n")
		if strings.TrimSpace(detail) != "" {
			reports = append(reports, r.Metric+":\n"+detail)
		}
	}
	run.Report = strings.Join(reports, "\n")
}

// Report is the suite's run as package report models it, for any of its
// formats (report.Write): a case's score by a check is its mean over its
// runs, and a repeated case has its runs, each with its reasons, verdicts
// and, when it did not pass, its report and transcript.
func (r *Result) Report() *report.Run {
	run := &report.Run{Title: "evalsuite", Pass: r.OK()}
	for j, m := range r.Metrics {
		ms := report.MetricSummary{Name: m, Threshold: 1}
		if len(r.Cases) > 0 {
			ms.Threshold = r.Cases[0].Thresholds[j]
		}
		run.Metrics = append(run.Metrics, ms)
	}
	for i, c := range r.Cases {
		rc := report.Case{ID: c.ID, Index: i, Status: report.Pass}
		for j := range r.Metrics {
			x := c.Score(j)
			rc.Scores = append(rc.Scores, x)
			run.Metrics[j].Add(x)
		}
		runs := make([]report.Case, len(c.Runs))
		for n, rr := range c.Runs {
			runs[n] = runCase(RunLabel(c.ID, n+1), rr)
		}
		// The case's reasons and report are its first bad run's, else its
		// first run's.
		shown := 0
		for n, rr := range c.Runs {
			if !rr.Passed() {
				shown = n
				break
			}
		}
		if len(runs) > 0 {
			rc.Reasons, rc.Report, rc.Verdicts, rc.Transcript, rc.Error = runs[shown].Reasons, runs[shown].Report, runs[shown].Verdicts, runs[shown].Transcript, runs[shown].Error
		}
		if len(runs) > 1 {
			rc.Runs = runs
		}
		switch {
		case c.Flaky():
			rc.Status = report.Flaky
		case c.Passes() == 0 && len(c.Runs) == 1 && c.Runs[0].Err != nil:
			rc.Status = report.Error
			run.Errors++
		case c.Passes() < len(c.Runs):
			rc.Status = report.Fail
		}
		if !c.OK() {
			rc.Failures = []string{c.failure(r.Metrics)}
			if rc.Status != report.Error {
				run.Failed++
			}
		}
		run.Cases = append(run.Cases, rc)
	}
	run.Samples = len(r.Cases)
	for _, g := range r.Gates {
		rg := report.Gate{Name: g.Gate.String(), Metric: g.Gate.metric, Kind: g.Gate.label(), Threshold: g.Gate.min, Value: g.Value, Pass: g.OK, Cases: g.Below, Below: len(g.Below)}
		if g.Gate.kind == gateMean {
			rg.Kind = "mean"
		}
		if !g.OK {
			rg.Detail = g.String()
		}
		run.Gates = append(run.Gates, rg)
	}
	if r.baselinePath != "" {
		c := &report.Comparison{File: r.baselinePath, Tolerance: r.tolerance, NewlyFailing: len(r.Regressions), New: len(r.NewCases), NewCases: r.NewCases, Pass: len(r.Regressions) == 0}
		for _, g := range r.Regressions {
			c.Regressions = append(c.Regressions, report.Delta{Case: g.Sample, Metric: g.Metric, Old: g.Baseline, New: g.Score})
		}
		run.Baseline = c
	}
	if r.Err != nil {
		run.Problems = append(run.Problems, r.Err.Error())
	}
	for _, err := range r.Calibration {
		run.Problems = append(run.Problems, err.Error())
	}
	return run
}

// runCase is one run as a report's case.
func runCase(id string, rr RunResult) report.Case {
	c := report.Case{ID: id, Index: -1, Status: report.Pass, Scores: rr.Scores, Report: rr.Report, Verdicts: rr.verdicts, Transcript: rr.transcript}
	for _, reason := range rr.Reasons {
		c.Reasons = append(c.Reasons, oneLine(reason))
	}
	if rr.Err != nil {
		c.Status, c.Error = report.Error, rr.Err.Error()
	} else if !rr.Passed() {
		c.Status = report.Fail
	}
	if rr.Failure != "" {
		c.Failures = append(c.Failures, rr.Failure)
	}
	return c
}

// oneLine is s on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// writeReports writes the suite's report where it is asked for: as JSON to
// the test's artifact directory (go test -artifacts), when t has one, and
// to the file $AGENTCHECK_REPORT names, in the format of its extension.
func writeReports(t any, res *Result) error {
	run := res.Report()
	var errs []error
	if ad, ok := t.(interface{ ArtifactDir() string }); ok {
		errs = append(errs, writeReport(filepath.Join(ad.ArtifactDir(), "agentcheck-run.json"), report.JSON, run))
	}
	if path := os.Getenv(ReportEnv); path != "" {
		var f report.Format
		switch strings.ToLower(filepath.Ext(path)) {
		case ".html", ".htm":
			f = report.HTML
		case ".json":
			f = report.JSON
		case ".md":
			f = report.Markdown
		default:
			return errors.Join(append(errs, fmt.Errorf("%s=%s: want a file ending .html, .json or .md, whose format the report is written in", ReportEnv, path))...)
		}
		errs = append(errs, writeReport(path, f, run))
	}
	return errors.Join(errs...)
}

// writeReport writes run to path in format f, replacing the file.
func writeReport(path string, f report.Format, run *report.Run) error {
	file, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("evalsuite: the report: %w", err)
	}
	err = report.Write(file, run, f)
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("evalsuite: the report %s: %w", path, err)
	}
	return nil
}

// writeCaseArtifact writes a failing case's failure message (with each bad
// run's report) to the subtest's artifact directory, when it has one.
func writeCaseArtifact(t any, text string) error {
	ad, ok := t.(interface{ ArtifactDir() string })
	if !ok {
		return nil
	}
	path := filepath.Join(ad.ArtifactDir(), "agentcheck-report.txt")
	if err := os.WriteFile(path, []byte(text+"\n"), 0o644); err != nil {
		return fmt.Errorf("evalsuite: %w", err)
	}
	return nil
}
