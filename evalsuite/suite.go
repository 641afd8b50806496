package evalsuite

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/metricerr"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/recorder"
)

// UpdateEnv is the environment variable that, set to 1, makes a suite with
// a Baseline write its scores to the baseline file instead of comparing
// with it, as golden files are updated:
//
//	AGENTCHECK_UPDATE_BASELINE=1 go test -run TestAgentSuite ./...
//
// It is an environment variable rather than a -agentcheck.update flag
// because a library that registers a flag in init adds it to every test
// binary that imports it, and go test refuses flags a binary lacks; an
// environment variable reaches the one test that reads it and no other.
const UpdateEnv = "AGENTCHECK_UPDATE_BASELINE"

// Check is a metric that scores every run of every case, and the least
// score a run passes with. A zero Threshold passes any score.
type Check struct {
	Metric    metric.Metric
	Threshold float64
}

// Case is one case of a suite: a recorded Sample to score, or Run, the
// user's agent, which makes the sample to score (Run wins when both are
// set). Run gets a context labelled for the recorder (recorder.WithCase)
// with ID+"#run"+n, n from 1 to the suite's Repeat: an agent and judges
// that send their requests with it through a cassette record and replay
// each run separately. A panic in Run fails that run, not the test binary.
type Case struct {
	// ID names the case's subtest, its rows in tables and its entry in a
	// baseline. IDs must be unique in a suite; an empty one is "case N"
	// (N from 1).
	ID     string
	Sample agentcheck.Sample
	Run    func(ctx context.Context) (agentcheck.Sample, error)
	// Thresholds overrides, by metric name, the threshold of the suite's
	// Check for this case only.
	Thresholds map[string]float64
}

// Suite scores cases with Checks and decides whether they pass as a whole
// with Gates. The zero Suite runs every case once, checks nothing, and
// passes; every field adds something.
type Suite struct {
	// Checks score every run; a run passes when it was scored without
	// error and each score reaches its threshold.
	Checks []Check
	// Gates are the suite's verdicts over all the cases that ran; each one
	// that fails fails the parent test with a table of the cases that
	// pulled it down.
	Gates []Gate
	// Repeat is how many times each case runs (at least once). With more
	// than one run, a case's scores are the means over its runs, and the
	// case reports its pass rate with a 95% Wilson interval, pass@k and
	// pass^k.
	Repeat int
	// RequireAllRuns makes a case's subtest fail when any run fails. By
	// default a repeated case fails only when none of its runs pass: a
	// flaky case (some runs pass, some fail) is left to the gates, which
	// name it.
	RequireAllRuns bool
	// Baseline, when set, is the path of a baseline file (the agentcheck
	// CLI's --save-baseline format) to compare the cases' scores with, or
	// to write them to when UpdateBaseline is set or AGENTCHECK_UPDATE_BASELINE=1.
	// A missing file fails the suite, as a missing golden file does.
	Baseline string
	// Tolerance is how far a score may fall below its baseline before the
	// suite fails; zero allows no drop at all.
	Tolerance float64
	// UpdateBaseline writes the baseline instead of comparing with it.
	UpdateBaseline bool
	// Calibration is the path of the judge's calibration file (agentcheck
	// calibrate --save-calibration, package calibrate). Every check of a
	// judged metric (AgentGoalAccuracy, TopicAdherence, TrajectoryRubric)
	// is held to it: a calibration that is missing (no file, none for the
	// metric, or Calibration empty), stale (the judge models, prompt
	// version or criteria changed) or below its floor is logged as a
	// warning and listed in Result.Calibration; with RequireCalibration it
	// fails the suite.
	Calibration        string
	RequireCalibration bool
}

// TB is what Run needs of a test: *testing.T fits as TB[*testing.T], since
// its Run passes subtests a *testing.T, and so does any test double whose
// Run passes its own type. A T that also has Context() context.Context
// scores within the test's context, one with Attr(key, value string) (Go
// 1.25's *testing.T) records every score as an attribute, and one with
// Logf logs each repeated case's statistics.
//
// Run is a generic function rather than a method of Suite because Go
// methods cannot be generic, and a plain interface could not describe
// *testing.T's Run(string, func(*testing.T)) bool; Suite.Run is the
// method for *testing.T itself.
type TB[T any] interface {
	Helper()
	Errorf(format string, args ...any)
	Run(name string, f func(T)) bool
}

// Run runs the cases as subtests of t, named by their IDs, checks the
// gates and the baseline over the cases that ran (all of them, unless
// go test -run picked some), fails t with a summary when the suite fails,
// and returns what it found.
func (s Suite) Run(t *testing.T, cases []Case) *Result {
	t.Helper()
	return Run(t, s, cases)
}

// Run runs the suite s on the cases as subtests of t (see Suite.Run), for
// any T whose Run passes subtests its own type.
func Run[T TB[T]](t T, s Suite, cases []Case) *Result {
	t.Helper()
	res, err := s.start(cases)
	if err != nil {
		res.Err = err
		t.Errorf("%v", err)
		return res
	}
	parent := contextOr(t, context.Background())
	for i := range cases {
		if !res.inShard(cases[i], i) {
			continue // another shard's (AGENTCHECK_SHARD)
		}
		c, id := cases[i], res.ids[i]
		t.Run(id, func(st T) {
			st.Helper()
			cr := s.runCase(contextOr(st, parent), c, id, res.Metrics)
			res.Cases = append(res.Cases, cr)
			reportCase(st, cr, res.Metrics)
		})
	}
	s.finish(res)
	res.logShard(t, len(cases))
	logCalibration(t, res, s.RequireCalibration)
	attr(t, res.attrs())
	if err := writeReports(t, res); err != nil {
		t.Errorf("%v", err)
	}
	if l, ok := any(t).(interface{ Logf(string, ...any) }); ok {
		if res.BaselineWritten {
			l.Logf("wrote the scores of %s to the baseline %s", count(len(res.Cases), "case"), s.Baseline)
		}
		if len(res.NewCases) > 0 {
			l.Logf("the baseline %s has no scores for %s yet (%s=1 adds them): %s",
				s.Baseline, count(len(res.NewCases), "case"), UpdateEnv, strings.Join(res.NewCases, ", "))
		}
	}
	// A failed case has failed its own subtest, and with it t.
	if !res.suiteOK() {
		t.Errorf("%s", res)
	}
	return res
}

// Evaluate runs the suite on every case, without a test: the same scores,
// gates and baseline comparison (and update) as Run, for a program or an
// Example.
func (s Suite) Evaluate(ctx context.Context, cases []Case) *Result {
	res, err := s.start(cases)
	if err != nil {
		res.Err = err
		return res
	}
	for i, c := range cases {
		res.Cases = append(res.Cases, s.runCase(ctx, c, res.ids[i], res.Metrics))
	}
	s.finish(res)
	return res
}

// start checks the suite and the cases and makes the Result to fill in.
func (s Suite) start(cases []Case) (*Result, error) {
	res := &Result{Repeat: max(s.Repeat, 1)}
	var errs []error
	for i, c := range s.Checks {
		if c.Metric == nil {
			errs = append(errs, fmt.Errorf("evalsuite: Checks[%d] has no Metric", i))
			continue
		}
		name := c.Metric.Name()
		if index(res.Metrics, name) >= 0 {
			errs = append(errs, fmt.Errorf("evalsuite: Checks[%d] scores %s again: a metric may be checked once", i, name))
		}
		if math.IsNaN(c.Threshold) {
			errs = append(errs, fmt.Errorf("evalsuite: Checks[%d] (%s) has a NaN threshold", i, name))
		}
		res.Metrics = append(res.Metrics, name)
	}
	for i, g := range s.Gates {
		if err := g.validate(res.Metrics, res.Repeat); err != nil {
			errs = append(errs, fmt.Errorf("evalsuite: Gates[%d] %s: %w", i, g, err))
		}
	}
	if s.Tolerance < 0 || math.IsNaN(s.Tolerance) {
		errs = append(errs, fmt.Errorf("evalsuite: Tolerance is %v, want a number ≥ 0", s.Tolerance))
	}
	seen := make(map[string]int, len(cases))
	for i, c := range cases {
		id := c.ID
		if id == "" {
			id = "case " + strconv.Itoa(i+1)
		}
		if j, dup := seen[id]; dup {
			errs = append(errs, fmt.Errorf("evalsuite: cases %d and %d both have the ID %q: IDs must be unique", j+1, i+1, id))
		}
		seen[id] = i
		res.ids = append(res.ids, id)
		for m, x := range c.Thresholds {
			if index(res.Metrics, m) < 0 {
				errs = append(errs, fmt.Errorf("evalsuite: case %q has a threshold for %s, which no check scores (checks: %v)", id, m, res.Metrics))
			} else if math.IsNaN(x) {
				errs = append(errs, fmt.Errorf("evalsuite: case %q has a NaN threshold for %s", id, m))
			}
		}
	}
	res.baselinePath = s.Baseline
	res.tolerance = s.Tolerance
	var err error
	if res.shard, err = suiteShard(); err != nil {
		errs = append(errs, err)
	}
	return res, errors.Join(errs...)
}

// runCase runs a case Repeat times and scores each run with every check.
func (s Suite) runCase(ctx context.Context, c Case, id string, metrics []string) CaseResult {
	cr := CaseResult{ID: id, Thresholds: make([]float64, len(s.Checks))}
	for j, ch := range s.Checks {
		cr.Thresholds[j] = ch.Threshold
		if x, ok := c.Thresholds[metrics[j]]; ok {
			cr.Thresholds[j] = x
		}
	}
	for n := 1; n <= max(s.Repeat, 1); n++ {
		rctx := recorder.WithCase(ctx, RunLabel(id, n))
		run := RunResult{Scores: make([]float64, len(s.Checks)), Reasons: make([]string, len(s.Checks))}
		for j := range run.Scores {
			run.Scores[j] = math.NaN()
		}
		sample, err := c.sample(rctx)
		if f := (*Failed)(nil); errors.As(err, &f) {
			// A run that was made and failed: its checks still score it.
			run.Failure, err = f.Reason, nil
		}
		if err != nil {
			run.Err = fmt.Errorf("run %d: the agent failed: %w", n, err)
		} else {
			var errs []error
			results := make([]metric.Result, len(s.Checks))
			for j, ch := range s.Checks {
				r, err := evaluate(rctx, ch.Metric, sample)
				if err != nil {
					errs = append(errs, fmt.Errorf("run %d: %w", n, metricerr.Named(metrics[j], err)))
					continue
				}
				results[j] = r
				run.Scores[j], run.Reasons[j] = r.Score, r.Reason
				if r.Disagreement != "" {
					// A panel that disagrees gives no verdict either way
					// (judgment.Aggregate scores it 0): the run fails at any
					// threshold, with each judge's verdict.
					errs = append(errs, fmt.Errorf("run %d: %s: %s%s", n, metrics[j], r.Disagreement, judgesSaid(r)))
					continue
				}
				if !(r.Score >= cr.Thresholds[j]) {
					run.Below = append(run.Below, j)
				}
			}
			run.Err = errors.Join(errs...)
			s.explain(rctx, &run, sample, results, cr.Thresholds)
		}
		cr.Runs = append(cr.Runs, run)
	}
	cr.ok = cr.decide(s.RequireAllRuns)
	return cr
}

// Failed is the error a Case's Run returns, with the run's sample, for a
// run that was made and failed on its own terms, such as a scenario whose
// verdict is a fail (scenario.Case): the run counts as failed rather than
// as not scored, the checks still score its sample, and Reason is its
// failure message.
type Failed struct{ Reason string }

func (f *Failed) Error() string { return f.Reason }

// judgesSaid lists the verdicts of the judges that gave one, a line each
// with the score and the reason.
func judgesSaid(r metric.Result) string {
	var b strings.Builder
	for _, v := range r.Verdicts {
		if v.Err == nil {
			fmt.Fprintf(&b, "\n  judge %s: %s: %s", v.Model, fmtScore(v.Score), v.Reason)
		}
	}
	return b.String()
}

// RunLabel is the recorder case label of run n (from 1) of the case id,
// id+"#run"+n: the label a cassette files that run's requests under.
func RunLabel(id string, n int) string { return id + "#run" + strconv.Itoa(n) }

// sample is the case's sample: its agent's, or the recorded one.
func (c Case) sample(ctx context.Context) (s agentcheck.Sample, err error) {
	if c.Run == nil {
		return c.Sample, nil
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	return c.Run(ctx)
}

// evaluate scores a sample, turning a metric's panic into an error.
func evaluate(ctx context.Context, m metric.Metric, s agentcheck.Sample) (r metric.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return m.Evaluate(ctx, s)
}

// finish checks the gates and the baseline.
func (s Suite) finish(res *Result) {
	s.checkCalibration(res)
	for _, g := range s.Gates {
		res.Gates = append(res.Gates, g.check(res))
	}
	if s.Baseline != "" {
		update := s.UpdateBaseline || os.Getenv(UpdateEnv) == "1"
		res.Err = errors.Join(res.Err, res.baseline(update))
	}
}

// contextOr is the test's context, or def for a T without one.
func contextOr(t any, def context.Context) context.Context {
	if c, ok := t.(interface{ Context() context.Context }); ok {
		if ctx := c.Context(); ctx != nil {
			return ctx
		}
	}
	return def
}

// attr records key-value pairs as test attributes, when t can.
func attr(t any, kv [][2]string) {
	a, ok := t.(interface{ Attr(key, value string) })
	if !ok {
		return
	}
	for _, p := range kv {
		a.Attr(p[0], p[1])
	}
}

// reportCase fails a case's subtest when the case failed, with each bad
// run's report, which it also writes to the subtest's artifact directory
// (go test -artifacts), and records its scores.
func reportCase(t interface {
	Helper()
	Errorf(string, ...any)
}, cr CaseResult, metrics []string) {
	t.Helper()
	attr(t, cr.attrs(metrics))
	// A failure ends with the runs' pass rate; a passing case logs it.
	if l, ok := t.(interface{ Logf(string, ...any) }); ok && len(cr.Runs) > 1 && cr.OK() {
		l.Logf("%s", cr.stats())
	}
	if !cr.OK() {
		msg := cr.failure(metrics)
		t.Errorf("%s", msg)
		if err := writeCaseArtifact(t, msg); err != nil {
			t.Errorf("%v", err)
		}
	}
}
