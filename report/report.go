// Package report is the one model of a run's results — agentcheck eval's,
// an evalsuite's, a merge of sharded runs' — and its renderings. A Run holds
// the run's facts (when, commit, judges, prompt versions, cassette mode),
// each metric's summary (mean, pass rate, 95% intervals, histogram), the
// gates with their verdicts, the comparison with a baseline, and the cases:
// each with its id, scores, the reason for each score in the matchers'
// wording, the judges' verdicts, the runs of a repeated case and, for the
// cases that failed, the transcript and the expected-vs-made call diff.
// Every Format (table, jsonl, json, junit, markdown, html) renders a Run
// through one Writer, a case at a time, so that a run of any size streams
// through in bounded memory; ReadJSON reads a --format json rendering back
// into the same Run.
package report

import (
	"math"
	"time"
)

// Run is a run's results. Metrics, Gates, Baseline and the counts are its
// summary, known once every case is in; a Writer renders the Cases as they
// come and the summary when it is closed.
type Run struct {
	// Title names the run in reports: "agentcheck eval", a test's name.
	Title string
	// Inputs are the datasets the cases were read from, in order.
	Inputs []string
	// Started is when the run began and Duration how long it took; zero
	// when unknown.
	Started  time.Time
	Duration time.Duration
	// Commit is the version control revision the run was made at, when
	// known.
	Commit string
	// Judges are the judge models asked; PromptVersions the versions of the
	// judges' prompts; CassetteMode how judgments were got ("replay",
	// "record missing", "record all", "live"), "" when nothing was judged.
	Judges         []string
	PromptVersions []string
	CassetteMode   string

	// Metrics are the metrics scored, in order: a Case's Scores and Reasons
	// are indexed like them.
	Metrics []MetricSummary
	// Gates are the run's gates (--fail-under, --sample-threshold, a
	// suite's gates), each with its verdict.
	Gates []Gate
	// Baseline is the comparison with a baseline, nil without one.
	Baseline *Comparison
	// Samples counts the cases that are samples, Errors those that could
	// not be scored and Failed those that failed a threshold or fell below
	// the baseline. Unread counts the input's errors that are no sample's:
	// a file that does not open or fails as it is read, an array of samples
	// not closed, an OTLP export that cannot be read. Each is a case with
	// its Error and Index -1, where it was met, and no sample.
	Samples, Errors, Failed int
	Unread                  int
	// Pass is the run's verdict: every case scored, every gate and the
	// baseline passed.
	Pass bool
	// Problems are what else made the run fail or should be said of it,
	// a sentence each (duplicate sample names, a stale calibration).
	Problems []string
	// Shard is set on the run of one shard (eval --shard K/N): what merge
	// needs to put the shards together.
	Shard *Shard

	// Cases are the run's cases, in input order. A Writer that keeps them
	// (html) keeps a passing case summarised: its scores and reasons, not
	// its transcript, report or verdicts.
	Cases []Case
}

// Case is one sample or case of a run: its scores by metric and why.
type Case struct {
	// ID is the case's id, else a name that tells it apart ("line 7",
	// "FILE line 7"); File, Line and Index say where it was read (Line and
	// Index count from 1 and 0; 0 and -1 when unknown).
	ID    string
	File  string
	Line  int
	Index int
	// Status is the case's verdict.
	Status Status
	// Scores are its score by metric, indexed like Run.Metrics (NaN for a
	// metric that did not score it); Reasons the reason for each score on
	// one line, in the matchers' wording ("" when there is none, such as
	// for a score of 1 the metric need not explain).
	Scores  []float64
	Reasons []string
	// Failures say why the case failed, a sentence each ("Expected
	// tool_call_f1 to be at least 0.5 (--sample-threshold), but it is
	// 0.0: ..."); Error why it could not be scored.
	Failures []string
	Error    string
	// Request is the case's first request, on one line, to tell cases
	// apart in a table.
	Request string
	// Report is the failure's full report, as a matcher prints it: the
	// expected-vs-made call diff, each judge's reason. Kept for failing
	// cases.
	Report string
	// Verdicts are the judges' verdicts on the case, each metric's.
	Verdicts []Verdict
	// Transcript is the conversation scored: kept for failing, erring and
	// flaky cases, each text cut to a bound (Transcript).
	Transcript []Message
	// Runs are the runs of a repeated case, each a Case of its own (with
	// no Runs).
	Runs []Case
}

// Status is a case's verdict.
type Status string

// A case passes, fails (a threshold, a check or its baseline), errs (it
// could not be scored) or, over repeated runs, is flaky (some runs passed,
// some did not).
const (
	Pass  Status = "pass"
	Fail  Status = "fail"
	Error Status = "error"
	Flaky Status = "flaky"
)

// MetricSummary is a metric over the run's scored cases.
type MetricSummary struct {
	Name string
	// N is how many cases it scored; Mean their mean score (NaN for none),
	// SD the scores' standard deviation.
	N        int
	Mean, SD float64
	// Threshold is the least score that passes (a --sample-threshold, a
	// check's threshold; 1 when none is given, see Passes), PassRate the
	// share of the N cases that reached it.
	Threshold float64
	PassRate  float64
	// Histogram counts the scores in ten bins of width 0.1, the last
	// holding 1.0; a score outside [0, 1] falls in the bin nearest.
	Histogram [10]int

	sum, sumSq float64 // of the scores Added
	passed     int
}

// Add counts a score in: N, Mean (the sum over N), SD, PassRate (against
// Threshold, set first) and Histogram. NaN, no score, is left out.
func (m *MetricSummary) Add(x float64) {
	if x != x {
		return
	}
	m.count(x)
	m.update()
}

// AddAll counts in every score of xs, as Add does one at a time, with
// Mean, SD and PassRate worked out once at the end rather than after each:
// their three divisions and a square root were most of Add's time, for a
// run that adds every sample's scores to its batch's summary.
func (m *MetricSummary) AddAll(xs []float64) {
	n := m.N
	for _, x := range xs {
		if x == x {
			m.count(x)
		}
	}
	if m.N > n {
		m.update()
	}
}

// count counts a score in, all but what update works out.
func (m *MetricSummary) count(x float64) {
	m.N++
	m.sum += x
	m.sumSq += x * x
	if m.Passes(x) {
		m.passed++
	}
	m.Histogram[min(9, max(0, int(x*10)))]++
}

// perfect is the least score counted as 1 against a Threshold of 1:
// ragas's TopicAdherence adds 1e-10 to its denominators, so its perfect
// score is 0.99999999985 or so, never 1.
const perfect = 1 - 1e-9

// Passes reports whether the score x reaches the Threshold. A Threshold of
// 1 asks for a perfect score, which a score within 1e-9 of 1 is.
func (m *MetricSummary) Passes(x float64) bool {
	return x >= m.Threshold || m.Threshold == 1 && x >= perfect
}

func (m *MetricSummary) update() {
	if m.N == 0 {
		m.Mean, m.SD, m.PassRate = math.NaN(), math.NaN(), math.NaN()
		return
	}
	n := float64(m.N)
	m.Mean = m.sum / n
	m.PassRate = float64(m.passed) / n
	m.SD = math.NaN()
	if m.N > 1 {
		m.SD = math.Sqrt(max(0, (m.sumSq-m.sum*m.sum/n)/(n-1)))
	}
}

// MeanInterval is the 95% confidence interval of the mean (normal
// approximation, the t quantile for small N); NaNs when N < 2.
func (m MetricSummary) MeanInterval() (lo, hi float64) {
	if m.N < 2 || math.IsNaN(m.Mean) {
		return math.NaN(), math.NaN()
	}
	h := tQuantile95(m.N-1) * m.SD / math.Sqrt(float64(m.N))
	return m.Mean - h, m.Mean + h
}

// PassInterval is the 95% Wilson score interval of the pass rate; NaNs
// when N is 0.
func (m MetricSummary) PassInterval() (lo, hi float64) { return wilson95(m.PassRate, m.N) }

// Gate is a gate of the run and how it fared.
type Gate struct {
	// Name is the gate as a condition ("--fail-under tool_call_accuracy",
	// "pass@3"); Metric the metric it checks, "" for one over runs.
	Name   string
	Metric string
	// Flag is the command-line flag that set the gate, without dashes
	// ("fail-under", "sample-threshold"); "" for a suite's gate.
	Flag string
	// Kind says what is compared with Threshold: "mean" (Value is the
	// mean), "sample" (every case: Below counts those under it), or a
	// suite's "pass_rate", "pass@k", "pass^k".
	Kind      string
	Threshold float64
	Value     float64
	Below     int
	// Cases names the first cases that failed it (Below counts them all).
	Cases []string
	Pass  bool
	// Detail is why it failed, in the report's words.
	Detail string
}

// Comparison is a run compared with a baseline.
type Comparison struct {
	// File is the baseline's path, Tolerance the drop allowed.
	File      string
	Tolerance float64
	// Regressions are the scores that dropped by more than the tolerance
	// (NewlyFailing counts every one), NewlyPassing the scores that rose
	// above their baseline by more than it; both list up to a bound.
	Regressions  []Delta
	NewlyFailing int
	Improvements []Delta
	NewlyPassing int
	// New counts the cases the baseline has no scores for, Missing the
	// baseline's cases not in the run; NewCases and MissingCases name the
	// first of them.
	New, Missing           int
	NewCases, MissingCases []string
	// Unknown are metrics of the run the baseline has no score of.
	Unknown []string
	Pass    bool
}

// Delta is a case's score against its baseline.
type Delta struct {
	Case   string  `json:"sample"`
	Metric string  `json:"metric"`
	Old    float64 `json:"old"`
	New    float64 `json:"new"`
}

// Verdict is one judge's verdict on a case by one metric.
type Verdict struct {
	Metric string `json:"metric"`
	// Judge is the judge model; Score its score, Reason its reason.
	Judge  string  `json:"judge"`
	Score  float64 `json:"score"`
	Reason string  `json:"reason,omitempty"`
	// Criteria are the judge's verdicts per criterion, for a rubric or
	// topics ("on topic", "answered").
	Criteria []Criterion `json:"criteria,omitempty"`
	// Error is why the judge gave no verdict; it was left out.
	Error string `json:"error,omitempty"`
	// Source is where the judgment came from (a cassette, "live").
	Source string `json:"source,omitempty"`
}

// Criterion is a judge's verdict on one criterion.
type Criterion struct {
	Name   string `json:"name"`
	Met    bool   `json:"met"`
	Reason string `json:"reason,omitempty"`
}

// Message is one message of a transcript.
type Message struct {
	// Role is "human", "ai", "tool" or "system".
	Role    string `json:"role"`
	Content string `json:"content,omitempty"`
	// Reasoning is the model's reasoning, where the transcript has it.
	Reasoning string `json:"reasoning,omitempty"`
	// Calls are the tool calls an AI message made.
	Calls []Call `json:"tool_calls,omitempty"`
}

// Call is a tool call made: its name and arguments as JSON text (the text
// as written when it is not valid JSON).
type Call struct {
	Name string `json:"name"`
	Args string `json:"args"`
}
