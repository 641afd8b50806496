package evalsuite

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/agentcheck/agentcheck/baseline"
	"github.com/agentcheck/agentcheck/internal/shard"
	"github.com/agentcheck/agentcheck/report"
)

// RunResult is one run of a case: its scores and why it failed, if it did.
type RunResult struct {
	// Scores and Reasons are by check, in the order of Suite.Checks; a
	// score is NaN when the check could not score the run.
	Scores  []float64
	Reasons []string
	// Below are the checks (indexes into Scores) that scored under their
	// threshold.
	Below []int
	// Err is why the run could not be scored: the agent failed, or a
	// metric did.
	Err error
	// Failure is why a run that Run reported Failed did not pass.
	Failure string
	// Report is, for a run that did not pass, the report of each check it
	// fell below, as the matchers print it: the expected-vs-made call diff
	// of a tool call metric, each judge's verdict of a judged one.
	Report string

	verdicts   []report.Verdict // the judges' verdicts, for the report
	transcript []report.Message // a run's that did not pass
}

// Passed reports whether the run was scored, reached every threshold and
// was not Failed.
func (r RunResult) Passed() bool { return r.Err == nil && len(r.Below) == 0 && r.Failure == "" }

// CaseResult is how a case fared over its runs.
type CaseResult struct {
	ID string
	// Thresholds are the thresholds the case was held to, by check: the
	// check's, or the case's own.
	Thresholds []float64
	Runs       []RunResult
	ok         bool
}

// OK reports whether the case's subtest passed: every run passed, or, for a
// repeated case of a suite without RequireAllRuns, at least one did.
func (c CaseResult) OK() bool { return c.ok }

func (c CaseResult) decide(requireAll bool) bool {
	p := c.Passes()
	return p == len(c.Runs) || (!requireAll && p > 0)
}

// Passes is how many runs passed.
func (c CaseResult) Passes() int {
	n := 0
	for _, r := range c.Runs {
		if r.Passed() {
			n++
		}
	}
	return n
}

// Flaky reports whether some runs passed and some failed.
func (c CaseResult) Flaky() bool {
	p := c.Passes()
	return p > 0 && p < len(c.Runs)
}

// Score is the case's score by the check j (in the order of Suite.Checks):
// the mean over its runs, a run that could not be scored counting 0.
func (c CaseResult) Score(j int) float64 {
	if len(c.Runs) == 0 {
		return math.NaN()
	}
	sum := 0.0
	for _, r := range c.Runs {
		if x := r.Scores[j]; !math.IsNaN(x) {
			sum += x
		}
	}
	return sum / float64(len(c.Runs))
}

// PassAtK estimates, from the case's runs, the chance that at least one of
// k runs passes (PassAtKEstimate); NaN when k exceeds the runs.
func (c CaseResult) PassAtK(k int) float64 { return PassAtKEstimate(len(c.Runs), c.Passes(), k) }

// PassHatK estimates, from the case's runs, the chance that all of k runs
// pass (PassHatKEstimate); NaN when k exceeds the runs.
func (c CaseResult) PassHatK(k int) float64 { return PassHatKEstimate(len(c.Runs), c.Passes(), k) }

// Wilson95 is the 95% Wilson score interval of the case's per-run pass
// rate.
func (c CaseResult) Wilson95() (lo, hi float64) { return Wilson95(c.Passes(), len(c.Runs)) }

// Verdict is the case's outcome in a word or two: "pass", "fail" or
// "error" for a single run; "pass 5/5", "flaky 3/5" or "fail 0/5" (runs
// passed of runs) for repeated ones.
func (c CaseResult) Verdict() string {
	p, n := c.Passes(), len(c.Runs)
	if n == 1 {
		switch {
		case p == 1:
			return "pass"
		case c.Runs[0].Err != nil:
			return "error"
		}
		return "fail"
	}
	word := "fail"
	switch {
	case p == n:
		word = "pass"
	case p > 0:
		word = "flaky"
	}
	return word + " " + strconv.Itoa(p) + "/" + strconv.Itoa(n)
}

// stats says how a repeated case fared, for the test log.
func (c CaseResult) stats() string {
	p, n := c.Passes(), len(c.Runs)
	lo, hi := c.Wilson95()
	s := fmt.Sprintf("%d of %d runs passed: pass rate %s (95%% Wilson interval [%.3f, %.3f]), pass@%d %s, pass^%d %s",
		p, n, fmtScore(float64(p)/float64(n)), lo, hi, n, fmtScore(c.PassAtK(n)), n, fmtScore(c.PassHatK(n)))
	if c.Flaky() {
		s += "; flaky"
	}
	return s
}

// failure is the failure message of the case's subtest.
func (c CaseResult) failure(metrics []string) string {
	var b strings.Builder
	n := len(c.Runs)
	if n == 1 {
		r := c.Runs[0]
		if r.Err != nil {
			fmt.Fprintf(&b, "Expected case %q to be scored, but %v", c.ID, strings.TrimPrefix(r.Err.Error(), "run 1: "))
		}
		if r.Failure != "" {
			fmt.Fprintf(&b, "Expected case %q to pass, but it failed:\n%s", c.ID, indentLines(r.Failure, "    "))
		}
		for _, j := range r.Below {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			fmt.Fprintf(&b, "Expected case %q to score a %s of at least %s, but it scored %s",
				c.ID, metrics[j], fmtScore(c.Thresholds[j]), fmtScore(r.Scores[j]))
			if r.Reasons[j] != "" {
				b.WriteString(": " + r.Reasons[j])
			}
		}
		if r.Report != "" {
			b.WriteString("\n" + indentLines(r.Report, "    "))
		}
		return b.String()
	}
	failed := n - c.Passes()
	if c.Passes() == 0 {
		fmt.Fprintf(&b, "Expected at least one of %d runs of case %q to pass, but none did:", n, c.ID)
	} else {
		fmt.Fprintf(&b, "Expected all %d runs of case %q to pass, but %d failed:", n, c.ID, failed)
	}
	for i, r := range c.Runs {
		if r.Err != nil {
			fmt.Fprintf(&b, "\n  %v", strings.ReplaceAll(r.Err.Error(), "\n", "\n    "))
		}
		if r.Failure != "" {
			fmt.Fprintf(&b, "\n  run %d failed:\n%s", i+1, indentLines(r.Failure, "    "))
		}
		for _, j := range r.Below {
			fmt.Fprintf(&b, "\n  run %d: %s scored %s, below %s", i+1, metrics[j], fmtScore(r.Scores[j]), fmtScore(c.Thresholds[j]))
			if r.Reasons[j] != "" {
				b.WriteString(": " + r.Reasons[j])
			}
		}
		if r.Report != "" {
			b.WriteString("\n" + indentLines(r.Report, "      "))
		}
	}
	b.WriteString("\n" + c.stats())
	return b.String()
}

func (c CaseResult) attrs(metrics []string) [][2]string {
	var kv [][2]string
	for j, m := range metrics {
		kv = append(kv, [2]string{"agentcheck." + m, fmtAttr(c.Score(j))})
	}
	if len(c.Runs) > 1 {
		kv = append(kv, [2]string{"agentcheck.pass_rate", fmtAttr(float64(c.Passes()) / float64(len(c.Runs)))})
	}
	return kv
}

// Result is what a suite found: every case that ran, the gates, and the
// comparison with the baseline.
type Result struct {
	// Metrics are the names of the suite's checks, in order: CaseResult's
	// and RunResult's scores are indexed like them.
	Metrics []string
	Repeat  int
	// Cases are the cases that ran, in the order given (go test -run can
	// pick some).
	Cases []CaseResult
	Gates []GateResult
	// Regressions are the scores that fell below the baseline by more
	// than the tolerance; NewCases the cases the baseline has no scores
	// for. BaselineWritten is set when the run wrote the baseline.
	Regressions     []baseline.Regression
	NewCases        []string
	BaselineWritten bool
	// Err is what kept the suite from running or judging: a bad check,
	// gate or case, or a baseline that could not be read or written.
	Err error
	// Calibration says, for each judged check, why its judge's calibration
	// does not hold (a *calibrate.Problem, or the file's error); see
	// Suite.Calibration.
	Calibration []error

	ids          []string   // of every case given
	shard        shard.Spec // AGENTCHECK_SHARD: the cases that run
	baselinePath string
	tolerance    float64
}

// OK reports whether the suite passed: every case that ran passed, every
// gate held, no score regressed, and nothing went wrong.
func (r *Result) OK() bool {
	if !r.suiteOK() {
		return false
	}
	for _, c := range r.Cases {
		if !c.OK() {
			return false
		}
	}
	return true
}

// suiteOK is OK without the cases, which fail their own subtests.
func (r *Result) suiteOK() bool {
	if r.Err != nil || len(r.Regressions) > 0 {
		return false
	}
	for _, g := range r.Gates {
		if !g.OK {
			return false
		}
	}
	return true
}

// Mean is the mean over the cases of their scores (Score) by the metric;
// false when no check scores it or no case ran.
func (r *Result) Mean(metric string) (float64, bool) {
	j := index(r.Metrics, metric)
	if j < 0 || len(r.Cases) == 0 {
		return math.NaN(), false
	}
	return r.mean(j), true
}

func (r *Result) mean(j int) float64 {
	sum := 0.0
	for _, c := range r.Cases {
		sum += c.Score(j)
	}
	return sum / float64(len(r.Cases))
}

func index(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}

// PassRate is the share of all runs of all cases that passed; NaN when
// none ran.
func (r *Result) PassRate() float64 {
	c, n := r.runs()
	if n == 0 {
		return math.NaN()
	}
	return float64(c) / float64(n)
}

func (r *Result) runs() (passed, total int) {
	for _, c := range r.Cases {
		passed += c.Passes()
		total += len(c.Runs)
	}
	return passed, total
}

// Flaky are the IDs of the cases some of whose runs passed and some
// failed.
func (r *Result) Flaky() []string {
	var ids []string
	for _, c := range r.Cases {
		if c.Flaky() {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

// String is the suite's failure summary, "" when it passed: what went
// wrong, each failing gate with an aligned table of the cases that pulled
// it down, the flaky cases, the regressions against the baseline, and the
// cases that failed.
func (r *Result) String() string {
	var parts []string
	if r.Err != nil {
		parts = append(parts, r.Err.Error())
	}
	gateFailed := false
	for _, g := range r.Gates {
		if !g.OK {
			gateFailed = true
			parts = append(parts, g.String())
		}
	}
	var flaky []string
	for _, c := range r.Cases {
		if c.Flaky() {
			flaky = append(flaky, fmt.Sprintf("%s (%d/%d runs passed)", c.ID, c.Passes(), len(c.Runs)))
		}
	}
	if gateFailed && len(flaky) > 0 {
		parts = append(parts, "Flaky cases (some runs passed, some failed): "+strings.Join(flaky, ", "))
	}
	if len(r.Regressions) > 0 {
		parts = append(parts, r.regressionReport())
	}
	var failed []string
	for _, c := range r.Cases {
		if !c.OK() {
			failed = append(failed, c.ID)
		}
	}
	if len(failed) > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d cases failed: %s", len(failed), len(r.Cases), strings.Join(failed, ", ")))
	}
	return strings.Join(parts, "\n\n")
}

// attrs are the suite's scores as test attributes.
func (r *Result) attrs() [][2]string {
	if len(r.Cases) == 0 {
		return nil
	}
	var kv [][2]string
	for j, m := range r.Metrics {
		kv = append(kv, [2]string{"agentcheck." + m, fmtAttr(r.mean(j))})
	}
	kv = append(kv, [2]string{"agentcheck.pass_rate", fmtAttr(r.PassRate())})
	for _, g := range r.Gates {
		if g.Gate.kind == gatePassAtK || g.Gate.kind == gatePassHatK {
			kv = append(kv, [2]string{"agentcheck." + g.Gate.label(), fmtAttr(g.Value)})
		}
	}
	return kv
}

func indentLines(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// fmtScore writes a score for people: at most four decimals, "-" for NaN.
func fmtScore(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return strconv.FormatFloat(math.Round(x*1e4)/1e4, 'f', -1, 64)
}

// fmtAttr writes a score for machines: in full.
func fmtAttr(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
