// Command agentcheck scores recorded agent runs with agentcheck's metrics:
// ragas's tool call metrics to the last bit and many times faster, and the
// LLM-judged goal accuracy and topic adherence, replayed from go-vcr
// cassettes so that a scored dataset scores the same offline. Its eval
// command reads ragas-format samples (JSON Lines or a JSON array of
// MultiTurnSample objects) and writes one score line per sample, or a table;
// run without files it scores a small bundled example dataset with all four
// metrics, the judged ones replayed from a cassette built into the binary:
//
//	go run ./cmd/agentcheck eval
//	agentcheck eval --format jsonl --strict-order=false runs.jsonl
//	AGENTCHECK_RECORD=missing agentcheck eval --metrics agent_goal_accuracy,topic_adherence runs.jsonl
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/report"
	"github.com/agentcheck/agentcheck/trajectory"
)

func main() {
	// A reader that closes the pipe early (agentcheck eval ... | head) makes
	// writes fail with EPIPE, which ends the run quietly, rather than kill
	// the process with SIGPIPE.
	signal.Ignore(syscall.SIGPIPE)
	// Interrupted, a judged run stops asking and still saves what it has
	// recorded.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := runContext(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Exit statuses.
const (
	exitOK     = 0
	exitFailed = 1 // a sample could not be scored, an input error, a gate or the baseline failed, or output failed
	exitUsage  = 2
)

const usageText = `agentcheck scores recorded agent runs with ragas's agent metrics.

Usage:
  agentcheck eval [flags] [FILE...]   score ragas-format samples
  agentcheck merge [flags] RUN.json...
                                      merge the runs of eval --shard K/N
  agentcheck calibrate --labels LABELS [flags] [FILE...]
                                      compare the judge with people's labels
  agentcheck cassettes check [flags] [PATH...]
                                      fail when a cassette holds a credential
  agentcheck report [--format NAME] RUN.json
                                      render a saved --format json run
  agentcheck help [eval]              show this help, or eval's
  agentcheck --version                print agentcheck's version

Run "agentcheck eval" without files to score the bundled example dataset.
`

const evalUsageText = `Usage: agentcheck eval [flags] [FILE...]

Scores samples, one JSON object per line (JSON Lines) or a JSON array of
them: ragas MultiTurnSample records, or objects whose "messages" are in an
API's own shape, with ragas's references beside them:
  {"messages": [...], "reference_tool_calls": [{"name": ..., "args": {...}}],
   "reference": "...", "reference_topics": ["..."]}
The shape is told apart sample by sample (--input-format). FILE "-" is
standard input. Without FILE, the bundled example dataset is scored, by
default with all four metrics, the judged ones replayed from a cassette
built into agentcheck. Flags may come before or after the files; a bool
flag takes its value after "=" or a space (--strict-order false).

Every sample gets one output line, in input order, and so does an input
error. A sample that cannot be scored gets {"error": "..."} naming file,
line, sample and message; the others are still scored and the exit status
is 1.

Exit status: 0 when every input was read, every sample scored and every
gate passed; 1 when a sample could not be scored, the input could not be
read (a file that does not open, an array not closed: an input error, which
stands where it was met, counted apart from the samples), a gate failed
(--fail-under, --sample-threshold)
or a score fell below the --baseline, each said on standard error; 2 for a
usage error. When the reader of the output goes away (| head), eval stops
quietly with status 0.

Flags:
  --metrics LIST          comma-separated metrics (default tool_call_accuracy,
                          tool_call_f1; all four for the bundled dataset):
                            tool_call_accuracy   ragas ToolCallAccuracy
                            tool_call_f1         ragas ToolCallF1
                            trajectory_match     1 when the calls made line up
                                                 with reference_tool_calls in
                                                 --trajectory-mode, arguments
                                                 compared in --args-mode; else 0
                            agent_goal_accuracy  ragas AgentGoalAccuracy, judged:
                                                 against "reference" when the
                                                 sample has one, else against the
                                                 goal the judge infers
                            topic_adherence      ragas TopicAdherence, judged;
                                                 needs "reference_topics"
  --strict-order BOOL     tool_call_accuracy: calls must come in the reference's
                          order (default true; false is ragas strict_order=False)
  --trajectory-mode NAME  trajectory_match: strict (default: the same calls in
                          the same order, position by position), unordered (the
                          same calls in any order), subset (every call made is
                          expected), superset (every expected call is made),
                          in_order (every expected call is made, in order);
                          calls pair one to one, optimally
  --turn-aware            trajectory_match, strict: the calls of one AI message
                          (parallel calls) may come in any order among
                          themselves; the turns must line up
  --args-mode NAME        trajectory_match: how arguments compare: exact
                          (default), ignore (names only), subset (the call's
                          arguments are among the expected ones), superset (the
                          call's arguments include the expected ones); values
                          compare as JSON (1 equals 1.0, true is not 1)
  --arg-similarity NAME   tool_call_accuracy: how argument values compare: exact,
                          levenshtein, hamming, jaro or jaro_winkler (default exact)
  --format NAME           table (default): aligned table with a mean per metric,
                          scores rounded to 4 decimals, samples by id;
                          jsonl: one JSON object per sample: its "id" (when it
                          has one), each metric's score under the metric's
                          name, every digit kept (Python's repr of the float:
                          1.0, 0.5, 0.6666666666666666), "reasons" (why each
                          score under 1 is what it is, in the matchers'
                          words) and "failures" (the gates it failed);
                          json: {"samples": [the same objects, with file,
                          line, status, request, the report of a failure, the
                          judges' verdicts and the transcript of a failing
                          sample], "summary": {counts, means, gates,
                          baseline, "pass"}, "run": {when, commit, judges,
                          metrics}}, which "agentcheck report" renders again;
                          junit: JUnit XML, a testcase per sample (a failure,
                          with its reasons and report, exactly when it fails a
                          --sample-threshold or the baseline; an error when not
                          scored; the scores as properties), and one per
                          --fail-under gate;
                          markdown: the GitHub step summary;
                          html: one self-contained page
  --input-format NAME     how samples are written: auto (default: detected per
                          sample), ragas, openai (Chat Completions messages),
                          responses (Responses API items), anthropic (Messages
                          API), gemini (Gemini API contents), otel (an OTLP JSON
                          trace export: one sample per trace, the conversation
                          from the last chat span's gen_ai.input.messages and
                          gen_ai.output.messages, the references from the root
                          span's agentcheck.reference_tool_calls)
  --workers N             samples are parsed and scored on N goroutines, 1 to
                          256 (default: the number of CPUs, up to 256; judged
                          runs use --judge-concurrency instead)
  --max-sample-bytes N    the most bytes one sample may hold (default 64 MiB,
                          67108864): a larger one is an error of its own, its
                          bytes skipped unread, and the samples after it are
                          scored: memory stays bounded, however large the
                          input
  --max-sample-values N   the most JSON values one sample may hold (default
                          1048576), each object, list, string, number, true,
                          false and null counted, not the keys: a sample
                          holding more is an error of its own, its reading
                          stopped at the value past the bound, and the
                          samples after it are scored (a parsed value takes
                          some 72 bytes, so a sample's memory is bounded by
                          its values more than by its bytes)
  --max-otel-bytes N      with --input-format otel, the most bytes the traces'
                          kept attributes and errors may hold at once (default
                          1 GiB, 1073741824): the input is held to put each trace's
                          spans together, so past this it is an input error,
                          read no further and none of its traces scored. One
                          export (a line, or a document) and one trace are
                          bounded by --max-sample-bytes and
                          --max-sample-values as a sample is
  --shard K/N             score shard K of N of the input (K from 1): a sample
                          by its "id" (FNV-1a mod N), else by its position
                          (round robin); agentcheck merge puts the N shards'
                          --format json runs back together as one run

Gates and baselines (a sample is named by its "id", a string or an integer,
else by "line N", "FILE line N" with several files; an OTLP trace by its
trace ID; a failure names the first 100 samples and counts the rest):
  --fail-under METRIC=X   fail when the mean of METRIC over the scored samples
                          is under X (repeatable, one per metric)
  --sample-threshold METRIC=X
                          fail when a sample scores METRIC under X, naming
                          each such sample (repeatable, one per metric)
  --save-baseline FILE    write every scored sample's scores to FILE as JSON,
                          sorted by sample name, one sample a line
  --baseline FILE         compare with a saved baseline: fail when a sample's
                          score dropped by more than the tolerance, naming the
                          sample, metric and both scores; samples not in the
                          baseline, and samples of it not in this run, are
                          noted, not failed
  --baseline-tolerance X  the drop allowed (default 0)
  --calibration FILE      the judge's calibration (agentcheck calibrate
                          --save-calibration; default FILE.calibration.json for
                          one FILE): a gate on a judged metric warns when it is
                          missing, stale (judge model, prompt version or
                          criteria changed) or below its --min-kappa floor
  --require-calibration   make that warning a failure (exit 1)
When $GITHUB_STEP_SUMMARY names a file, a Markdown summary (means, gates,
the samples that fell below, the failing samples with their reasons, kept
under 1 MiB) is appended to it.

Judged metrics:
  --topic-mode NAME       topic_adherence reports precision, recall or f1
                          (default f1)
  --judge-model MODEL     the judge model (default: $AGENTCHECK_JUDGE_MODEL, else
                          gpt-4o-mini; for the bundled dataset, the model its
                          cassette was recorded with); repeat it for a panel
                          of judges whose scores are aggregated
  --aggregation NAME      how a panel's scores combine: mean (default), majority,
                          min, unanimous or consensus
  --tolerance X           consensus: the largest spread of scores that is
                          agreement (default 0.1); a wider one is reported on
                          standard error and the sample scores 0
  --judge-concurrency N   samples judged at once, 1 to 256 (default 8)
  --cassette PATH         the go-vcr cassette judgments are replayed from and
                          recorded to. Default: FILE.cassette.yaml for one FILE;
                          needed for several files or standard input; the
                          built-in cassette for the bundled dataset

The judge is any OpenAI-compatible endpoint: OPENAI_BASE_URL (default
https://api.openai.com/v1) and OPENAI_API_KEY. Judgments are replayed from the
cassette, offline and without a key, unless AGENTCHECK_RECORD says to record:
"missing" records what the cassette lacks, "all" records everything anew.
With CI=true recording is refused. A judgment the cassette lacks is an error
line naming the cassette and the command that records it.
`

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdin, stdout, stderr)
}

func runContext(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usageText)
		return exitUsage
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && args[1] == "eval" {
			fmt.Fprint(stdout, evalUsageText)
		} else if len(args) > 1 && args[1] == "merge" {
			fmt.Fprint(stdout, mergeRunsUsageText)
		} else if len(args) > 1 && args[1] == "calibrate" {
			fmt.Fprint(stdout, calibrateUsageText)
		} else if len(args) > 1 && args[1] == "cassettes" {
			fmt.Fprint(stdout, cassettesUsageText)
		} else if len(args) > 1 && args[1] == "report" {
			fmt.Fprint(stdout, reportUsageText)
		} else {
			fmt.Fprint(stdout, usageText)
		}
		return exitOK
	case "version", "-version", "--version":
		info, ok := debug.ReadBuildInfo()
		fmt.Fprintln(stdout, versionLine(info, ok))
		return exitOK
	case "eval":
		return runEval(ctx, args[1:], stdin, stdout, stderr)
	case "calibrate":
		return runCalibrate(ctx, args[1:], stdin, stdout, stderr)
	case "merge":
		return runMergeRuns(ctx, args[1:], stdout, stderr)
	case "cassettes":
		return runCassettes(args[1:], stdout, stderr)
	case "report":
		return runReport(args[1:], stdin, stdout, stderr)
	}
	fmt.Fprintf(stderr, "agentcheck: unknown command %q\n\n%s", args[0], usageText)
	return exitUsage
}

// versionLine is what --version prints: the module's version from the
// build information, "(devel)" for a build from a checkout that has none.
func versionLine(info *debug.BuildInfo, ok bool) string {
	v := "(devel)"
	if ok && info.Main.Version != "" {
		v = info.Main.Version
	}
	return "agentcheck " + v
}

func runEval(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, files, err := parseEvalFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, evalUsageText)
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "agentcheck eval: %s\n\nRun \"agentcheck eval -h\" for usage.\n", shownLines(err.Error()))
		return exitUsage
	}
	if cfg.baselinePath != "" {
		if cfg.base, err = loadBaseline(cfg.baselinePath, cfg.names); err != nil {
			fmt.Fprintf(stderr, "agentcheck eval: --baseline: %s\n", shownLines(err.Error()))
			return exitUsage
		}
	}
	var sess *judgeSession
	if cfg.judged() {
		sess, err = openJudge(&cfg, args, files, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "agentcheck eval: %s\n", shownLines(err.Error()))
			return exitUsage
		}
	}
	if err := cfg.buildMetrics(sess); err != nil {
		fmt.Fprintf(stderr, "agentcheck eval: %s\n", shownLines(err.Error()))
		return exitUsage
	}
	cfg.warn = stderr
	return scoreRun(ctx, cfg, inputs(files, stdin), files, sess.close, stdout, stderr)
}

// scoreRun scores the inputs (agentcheck merge: takes the shards' cases),
// writes the run in cfg.format, says why it fails, saves the baseline and
// appends the step summary, and returns the exit status: eval's and
// merge's. files are eval's, for the calibration's default path;
// closeJudge ends the judge's session once the scoring is done.
func scoreRun(ctx context.Context, cfg evalConfig, ins []input, files []string, closeJudge func() error, stdout, stderr io.Writer) int {
	// The step summary is rendered alongside the output, from the same
	// cases, and appended once the run is over.
	var summary *bytes.Buffer
	summaryPath := os.Getenv(stepSummaryEnv)
	if summaryPath != "" {
		summary = new(bytes.Buffer)
	}
	res, err := evaluate(ctx, cfg, ins, stdout, summary)
	cerr := closeJudge()
	if errors.Is(err, syscall.EPIPE) && cerr == nil {
		// The reader has gone (| head): it has what it wanted.
		return exitOK
	}
	if err = errors.Join(err, cerr); err != nil {
		fmt.Fprintf(stderr, "agentcheck eval: %s\n", shownLines(err.Error()))
		return exitFailed
	}
	res.report(stderr)
	code := exitOK
	if !res.pass() || !calibrationGates(cfg, files, stderr) {
		code = exitFailed
	}
	if cfg.saveBaseline != "" {
		if res.nDups > 0 {
			fmt.Fprintf(stderr, "agentcheck eval: --save-baseline: %s not written\n", shownName(cfg.saveBaseline))
			code = exitFailed
		} else if err := saveBaseline(cfg.saveBaseline, cfg.names, res.save); err != nil {
			fmt.Fprintf(stderr, "agentcheck eval: --save-baseline: %s\n", shownLines(err.Error()))
			code = exitFailed
		}
	}
	if summaryPath != "" {
		if err := appendFile(summaryPath, summary.Bytes()); err != nil {
			fmt.Fprintf(stderr, "agentcheck eval: %s: %s\n", stepSummaryEnv, shownLines(err.Error()))
			code = exitFailed
		}
	}
	return code
}

// stepSummaryEnv names the file GitHub Actions shows as a job's summary.
const stepSummaryEnv = "GITHUB_STEP_SUMMARY"

func appendFile(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	return errors.Join(err, f.Close())
}

// evalConfig is what the eval flags ask for. Every error parseEvalFlags
// returns is a usage error.
type evalConfig struct {
	input   dataset.Format // how the samples are written
	otel    bool           // the input is OTLP JSON traces, a sample each
	names   []string       // metric names, in output order
	metrics []metric.Metric
	// fullText: the messages' text is parsed in full even when nothing
	// reads it (readsNoText), for the tests that compare the two.
	fullText bool
	opts     metricOptions
	format   report.Format
	workers  int
	// maxSample is the most bytes a sample may hold (--max-sample-bytes).
	maxSample int
	// maxValues is the most JSON values a sample may hold
	// (--max-sample-values).
	maxValues int
	// maxOTel is the most bytes an OTLP input's traces may hold at once
	// (--max-otel-bytes).
	maxOTel int
	// request is set when the output shows each sample's first request;
	// reasons when it shows the reason for each score (a failure's are
	// always given).
	request, reasons bool
	// batch is how many samples a worker takes at a time: many for the
	// deterministic metrics, which take microseconds, one for judged ones,
	// which wait on a judge.
	batch int
	// fileWidth is the width of the table's file column, 0 for none.
	fileWidth int
	judge     judgeFlags
	// warn gets the results' warnings, in input order; nil drops them.
	warn io.Writer

	failUnder, sampleThresholds []gate
	baselinePath, saveBaseline  string
	baselineTolerance           float64
	base                        *baseline // read from baselinePath
	// several is set when there are several inputs.
	several bool
	// calibration is the calibration file the judged gates check
	// (--calibration); requireCalibration fails them when it does not hold.
	calibration        string
	requireCalibration bool
	// shard is --shard's slice, nil for the whole input; merge the shards'
	// cases agentcheck merge scores instead of reading the input.
	shard *shardRun
	merge *mergeRun
}

// judgeFlags are the flags of the judged metrics.
type judgeFlags struct {
	models      []string
	agg         judgment.Aggregation
	cassette    string
	concurrency int
}

// judgedMetrics are the metrics that ask an LLM judge.
var judgedMetrics = map[string]bool{"agent_goal_accuracy": true, "topic_adherence": true}

const (
	defaultMetrics     = "tool_call_accuracy,tool_call_f1"
	defaultDemoMetrics = "tool_call_accuracy,tool_call_f1,agent_goal_accuracy,topic_adherence"
	availableMetrics   = "tool_call_accuracy, tool_call_f1, trajectory_match, agent_goal_accuracy, topic_adherence"
)

// passScore is the least score of metric j that passes: its
// --sample-threshold, else 1.
func (c *evalConfig) passScore(j int) float64 {
	for _, g := range c.sampleThresholds {
		if g.metric == j {
			return g.threshold
		}
	}
	return 1
}

// readsNoText reports whether nothing the run shows reads a message's
// text but a failure's transcript and a sample's first request: only the
// tool-call metrics score.
func (c *evalConfig) readsNoText() bool {
	for _, m := range c.metrics {
		switch m.(type) {
		case metric.ToolCallAccuracy, metric.ToolCallF1:
		default:
			return false
		}
	}
	return !c.fullText
}

func (c *evalConfig) judged() bool {
	for _, n := range c.names {
		if judgedMetrics[n] {
			return true
		}
	}
	return false
}

// stringsFlag is a flag that may be repeated.
type stringsFlag []string

func (f *stringsFlag) String() string     { return strings.Join(*f, ",") }
func (f *stringsFlag) Set(v string) error { *f = append(*f, v); return nil }

// buildMetrics makes the metrics named, the judged ones asking sess's judge.
func (c *evalConfig) buildMetrics(sess *judgeSession) error {
	opts := c.opts
	if sess != nil {
		opts.judge = sess.judge
	}
	c.metrics = c.metrics[:0]
	for _, name := range c.names {
		m, err := newMetric(name, opts)
		if err != nil {
			return err
		}
		c.metrics = append(c.metrics, m)
	}
	return nil
}

// metricOptions is how the flags tune the metrics that take options.
type metricOptions struct {
	strictOrder   bool
	argSimilarity metric.StringSimilarity
	trajectory    trajectory.Mode
	args          trajectory.ArgsMode
	turnAware     bool // trajectory_match, strict: the calls of one AI message in any order
	topicMode     metric.TopicMode
	judge         judgment.Judge // nil until the judge is set up
}

// newMetric maps a metric name of the command line to the metric.
func newMetric(name string, o metricOptions) (metric.Metric, error) {
	switch name {
	case "tool_call_accuracy":
		return metric.ToolCallAccuracy{AnyOrder: !o.strictOrder, ArgSimilarity: o.argSimilarity}, nil
	case "tool_call_f1":
		return metric.ToolCallF1{}, nil
	case "trajectory_match":
		return metric.TrajectoryMatch{Mode: o.trajectory, Args: o.args, TurnAware: o.turnAware}, nil
	case "agent_goal_accuracy":
		return metric.AgentGoalAccuracy{Judge: o.judge}, nil
	case "topic_adherence":
		return metric.TopicAdherence{Judge: o.judge, Mode: o.topicMode}, nil
	}
	return nil, fmt.Errorf("--metrics: unknown metric %q (available: %s)", name, availableMetrics)
}
