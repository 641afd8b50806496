package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentcheck/agentcheck/calibrate"
	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/metric"
)

const calibrateUsageText = `Usage: agentcheck calibrate --labels LABELS [flags] [FILE...]

Asks the judge about every labelled sample of FILE (read as eval reads it),
the same questions eval asks (so a cassette recorded by "agentcheck eval
--metrics M FILE" replays it), and tells how far its verdicts agree with
the people's labels, per metric: n, the share people pass, the confusion
matrix (pass is positive), accuracy against the majority label's,
precision, recall and F1 of each class, Cohen's kappa and Matthews'
correlation with 95% bootstrap intervals (2000 resamples, fixed seed),
Krippendorff's alpha among several labelers and with the judge (ordinal
for scores), Fleiss' kappa among a panel's judges, and each disagreement
with the labelers' rationale beside the judge's reason.

LABELS is JSON Lines, a label a line:
  {"id": SAMPLE_ID, "metric": NAME, "label": true|false|SCORE,
   "rationale": "...", "labeler": "..."}
SAMPLE_ID is the sample's "id" (else "line N", as eval names samples);
SCORE is from 0 to 1 (at least 0.5 passes); rationale and labeler may be
left out. A sample labelled by several labelers takes their majority.

Exit status: 0 when every labelled sample was judged and kappa reaches
--min-kappa; 1 when a sample could not be judged, kappa is below
--min-kappa (or undefined) or the calibration file could not be written;
2 for a usage error (no labels, a bad labels file, an unknown metric, a
metric that is not judged).

Flags (and eval's judge flags: --metrics, --judge-model, --aggregation,
--tolerance, --topic-mode, --judge-concurrency, --cassette, --input-format):
  --labels FILE            the people's labels (required)
  --format NAME            table (default), json or markdown
  --min-kappa X            fail when a metric's kappa is under X
  --repeats N              ask each question N times (default 1), each run a
                           case of its own in the cassette, and report the
                           flip rate per sample and overall, and the samples
                           whose verdict straddles
  --save-calibration FILE  write the calibration (judge models, prompt
                           version, a hash of the criteria, n, statistics,
                           date) for the judged gates of eval and evalsuite
Without --metrics, the metrics the labels name are calibrated.
`

// calibrateFlags are calibrate's own flags; the others are eval's.
type calibrateFlags struct {
	labels, save string
	format       string
	minKappa     float64
	hasMinKappa  bool
	repeats      int
}

// maxRepeats bounds --repeats.
const maxRepeats = 100

// splitCalibrateFlags takes calibrate's own flags out of args and leaves
// eval's.
func splitCalibrateFlags(args []string) (calibrateFlags, []string, error) {
	cf := calibrateFlags{format: "table", repeats: 1}
	var rest []string
	own := map[string]bool{"labels": true, "save-calibration": true, "format": true, "min-kappa": true, "repeats": true}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		if !strings.HasPrefix(a, "-") || !own[name] {
			rest = append(rest, a)
			continue
		}
		if !hasValue {
			if i+1 == len(args) {
				return cf, nil, fmt.Errorf("flag needs an argument: --%s", name)
			}
			i++
			value = args[i]
		}
		switch name {
		case "labels":
			cf.labels = value
		case "save-calibration":
			cf.save = value
		case "format":
			cf.format = value
		case "min-kappa":
			x, err := strconv.ParseFloat(value, 64)
			if err != nil || !(x >= -1 && x <= 1) {
				return cf, nil, fmt.Errorf("--min-kappa must be a number from -1 to 1, got %q", value)
			}
			cf.minKappa, cf.hasMinKappa = x, true
		case "repeats":
			n, err := strconv.Atoi(value)
			if err != nil || n < 1 || n > maxRepeats {
				return cf, nil, fmt.Errorf("--repeats must be a whole number from 1 to %d, got %q", maxRepeats, value)
			}
			cf.repeats = n
		}
	}
	switch cf.format {
	case "table", "json", "markdown":
	default:
		return cf, nil, fmt.Errorf("--format: unknown format %q (want table, json or markdown)", cf.format)
	}
	if cf.labels == "" {
		return cf, nil, errors.New("--labels FILE is required: the people's labels to compare the judge with")
	}
	return cf, rest, nil
}

// hasFlag says whether args set the flag name (-name, --name, --name=v).
func hasFlag(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		n, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		if strings.HasPrefix(a, "-") && n == name {
			return true
		}
	}
	return false
}

func runCalibrate(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	const p = "agentcheck calibrate: "
	usage := func(err error) int {
		fmt.Fprintf(stderr, "%s%s\n\nRun \"agentcheck calibrate -h\" for usage.\n", p, shownLines(err.Error()))
		return exitUsage
	}
	if slices.ContainsFunc(args, func(a string) bool { return a == "-h" || a == "-help" || a == "--help" }) {
		fmt.Fprint(stdout, calibrateUsageText)
		return exitOK
	}
	cf, evalArgs, err := splitCalibrateFlags(args)
	if err != nil {
		return usage(err)
	}
	labels, err := readLabelsFile(cf.labels)
	if err != nil {
		return usage(fmt.Errorf("--labels: %w", err))
	}
	if len(labels) == 0 {
		return usage(fmt.Errorf("--labels: %s holds no label", cf.labels))
	}
	var labelled []string // the metrics the labels name, in order of first use
	for _, l := range labels {
		if l.Criterion != "" {
			return usage(fmt.Errorf("--labels: %s:%d labels a rubric criterion (%q), which eval does not judge: calibrate a rubric in Go with calibrate.Evaluate and metric.TrajectoryRubric", cf.labels, l.Line, l.Criterion))
		}
		if !judgedMetrics[l.Metric] {
			if _, err := newMetric(l.Metric, metricOptions{}); err == nil {
				return usage(fmt.Errorf("--labels: %s:%d labels %s, which no judge scores: calibrate a judged metric (%s)", cf.labels, l.Line, l.Metric, judgedNames()))
			}
			return usage(fmt.Errorf("--labels: %s:%d labels unknown metric %q (judged metrics: %s)", cf.labels, l.Line, l.Metric, judgedNames()))
		}
		if !slices.Contains(labelled, l.Metric) {
			labelled = append(labelled, l.Metric)
		}
	}
	if !hasFlag(evalArgs, "metrics") {
		evalArgs = append([]string{"--metrics", strings.Join(labelled, ",")}, evalArgs...)
	}
	cfg, files, err := parseEvalFlags(evalArgs)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, calibrateUsageText)
		return exitOK
	}
	if err != nil {
		return usage(err)
	}
	for _, n := range cfg.names {
		if !judgedMetrics[n] {
			return usage(fmt.Errorf("--metrics: %s is not judged: calibrate compares a judge with people (judged metrics: %s)", n, judgedNames()))
		}
	}
	for _, m := range labelled {
		if !slices.Contains(cfg.names, m) {
			return usage(fmt.Errorf("--labels labels %s, which is not among --metrics (%s)", m, strings.Join(cfg.names, ",")))
		}
	}
	for _, n := range cfg.names {
		if !slices.Contains(labelled, n) {
			return usage(fmt.Errorf("--metrics: %s has no label in %s, so there is nothing to compare its judge with", n, cf.labels))
		}
	}
	switch {
	case len(cfg.failUnder)+len(cfg.sampleThresholds) > 0 || cfg.baselinePath != "" || cfg.saveBaseline != "":
		return usage(errors.New("calibrate takes no gates or baselines of eval's (--fail-under, --sample-threshold, --baseline, --save-baseline): its gate is --min-kappa"))
	case cfg.otel:
		return usage(errors.New("calibrate reads samples with an \"id\", not OTLP traces (--input-format otel)"))
	}
	sess, err := openJudgeFor("calibrate", &cfg, args, files, stderr)
	if err != nil {
		return usage(err)
	}
	if err := cfg.buildMetrics(sess); err != nil {
		sess.close()
		return usage(err)
	}
	rep, notes, err := calibrateRun(ctx, cfg, cf.repeats, inputs(files, stdin), labels)
	if cerr := sess.close(); cerr != nil {
		err = errors.Join(err, cerr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s%s\n", p, shownLines(err.Error()))
		return exitFailed
	}
	code := exitOK
	for _, n := range notes {
		fmt.Fprintf(stderr, "%s%s\n", p, shownLines(n))
	}
	if len(notes) > 0 {
		code = exitFailed // a labelled sample the judge could not judge
	}
	if n := len(rep.LabelsWithoutSample); n > 0 {
		fmt.Fprintf(stderr, "%snote: %d labelled %s not in the dataset, so not compared: %s\n", p, n, inflect(n, "id is", "ids are"), shownNames(firstN(rep.LabelsWithoutSample)))
	}
	if n := len(rep.SamplesWithoutLabels); n > 0 {
		fmt.Fprintf(stderr, "%snote: %d %s no label, so not judged: %s\n", p, n, inflect(n, "sample has", "samples have"), shownNames(firstN(rep.SamplesWithoutLabels)))
	}
	pass := true
	if cf.hasMinKappa {
		for _, r := range rep.Results {
			if math.IsNaN(r.Kappa) || r.Kappa < cf.minKappa {
				pass = false
				k := "undefined (" + undefinedWhy(r) + ")"
				if !math.IsNaN(r.Kappa) {
					k = fullScore(r.Kappa)
				}
				fmt.Fprintf(stderr, "%sExpected the judge's kappa on %s over %d samples to be at least %s (--min-kappa), but it is %s\n", p, r.Key, r.N, fullScore(cf.minKappa), k)
			}
		}
	}
	if !pass {
		code = exitFailed
	}
	var out []byte
	switch cf.format {
	case "json":
		out, err = calibrationJSON(rep, cf, pass && code == exitOK)
		if err != nil {
			fmt.Fprintf(stderr, "%s%s\n", p, err)
			return exitFailed
		}
	case "markdown":
		out = calibrationMarkdown(rep)
	default:
		out = calibrationTable(rep)
	}
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "%s%s\n", p, shownLines(err.Error()))
		return exitFailed
	}
	if cf.save != "" {
		setups := map[string]calibrate.Setup{}
		for _, n := range cfg.names {
			setups[n] = judgedSetup(cfg, n)
		}
		floor := 0.0
		if cf.hasMinKappa {
			floor = cf.minKappa
		}
		if err := calibrate.NewFile(rep, setups, floor, calibrationDate()).Save(cf.save); err != nil {
			fmt.Fprintf(stderr, "%s--save-calibration: %s\n", p, shownLines(err.Error()))
			return exitFailed
		}
	}
	return code
}

func firstN(ids []string) []string { return ids[:min(len(ids), maxListed)] }

func undefinedWhy(r calibrate.Result) string {
	if r.N == 0 {
		return "no sample compared"
	}
	return "judge and people give one class only"
}

func judgedNames() string {
	var names []string
	for n := range judgedMetrics {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

func readLabelsFile(path string) ([]calibrate.Label, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return calibrate.ReadLabels(f, path)
}

// calibrationDate is now, or SOURCE_DATE_EPOCH when it is set, so that a
// calibration file can be written reproducibly.
func calibrationDate() time.Time {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		if sec, err := strconv.ParseInt(s, 10, 64); err == nil {
			return time.Unix(sec, 0)
		}
	}
	return time.Now()
}

// judgedSetup is what a judged metric's calibration holds for
// (calibrate.SetupOf): the judge's models, the prompts' version and a hash
// of the metric's settings.
func judgedSetup(cfg evalConfig, name string) calibrate.Setup {
	i := slices.Index(cfg.names, name)
	if i < 0 || i >= len(cfg.metrics) {
		return calibrate.Setup{}
	}
	s, _ := calibrate.SetupOf(cfg.metrics[i])
	return s
}

// runKey carries a judgment's run (repeat) to caseContext.
type runKey struct{}

// runOf is the run a context is for, 1 unless calibrate --repeats says.
func runOf(ctx context.Context) int {
	if n, ok := ctx.Value(runKey{}).(int); ok {
		return n
	}
	return 1
}

// calibrateRun reads the inputs and asks the judge about each labelled
// sample, through eval's scorer, repeats times, and compares the verdicts
// with the labels. notes are the samples that could not be judged; the
// error is for what ends the run (an unreadable input, two samples with one
// name, an interruption).
func calibrateRun(ctx context.Context, cfg evalConfig, repeats int, ins []input, labels []calibrate.Label) (calibrate.Report, []string, error) {
	cfg.several = len(ins) > 1
	wanted := map[string]bool{}
	labelledFor := map[[2]string]bool{} // {metric, sample}
	for _, l := range labels {
		wanted[l.ID] = true
		labelledFor[[2]string{l.Metric, l.ID}] = true
	}
	type job struct {
		it   item
		name string
		run  int
	}
	var jobs []job
	var unlabelled []string
	seen := map[string]place{}
	for _, in := range ins {
		r, err := in.open()
		if err != nil {
			return calibrate.Report{}, nil, err
		}
		for rec, err := range dataset.ReadRecords(r, in.name) {
			if err != nil {
				r.Close()
				return calibrate.Report{}, nil, err
			}
			it := item{rec: rec}
			name := sampleName(&it, cfg.several)
			at := place{rec.File, rec.Line}
			if first, dup := seen[name]; dup {
				r.Close()
				return calibrate.Report{}, nil, fmt.Errorf("%s: sample %q is named twice (first at %s): give each sample an \"id\" of its own", at, name, first)
			}
			seen[name] = at
			if !wanted[name] {
				unlabelled = append(unlabelled, name)
				continue
			}
			for run := 1; run <= repeats; run++ {
				jobs = append(jobs, job{it, name, run})
			}
		}
		r.Close()
	}
	judgments := make([][]calibrate.Judgment, len(jobs))
	errs := make([]string, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(cfg.judge.concurrency, max(len(jobs), 1)) {
		wg.Go(func() {
			sc := newScorer(ctx, cfg)
			for i := range next {
				jb := jobs[i]
				for j := range sc.errs {
					sc.results[j], sc.errs[j] = metric.Result{}, nil
				}
				sc.ctx = context.WithValue(ctx, runKey{}, jb.run)
				_, err := sc.evaluate(jb.it.rec, nil, nil)
				anyMetric := false
				var failed []error // of the metrics the sample is labelled for
				for j, name := range cfg.names {
					anyMetric = anyMetric || sc.errs[j] != nil
					judgments[i] = append(judgments[i], calibrate.Judge(jb.name, name, jb.run, sc.results[j], sc.errs[j]))
					if sc.errs[j] != nil && labelledFor[[2]string{name, jb.name}] {
						rec := jb.it.rec
						failed = append(failed, &dataset.LoadError{File: rec.File, Line: rec.Line, Sample: rec.Index, Err: sc.errs[j]})
					}
				}
				if err != nil && !anyMetric { // the sample did not parse: no metric was asked
					for k := range judgments[i] {
						judgments[i][k].Err = err
					}
					failed = append(failed, err)
				}
				if len(failed) > 0 {
					errs[i] = errors.Join(failed...).Error()
					if repeats > 1 {
						errs[i] += fmt.Sprintf(" (run %d)", jb.run)
					}
				}
			}
		})
	}
	for i := range jobs {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if ctx.Err() != nil {
		return calibrate.Report{}, nil, fmt.Errorf("interrupted (%v)", context.Cause(ctx))
	}
	var all []calibrate.Judgment
	var notes []string
	for i := range jobs {
		all = append(all, judgments[i]...)
		if errs[i] != "" {
			notes = append(notes, errs[i])
		}
	}
	var own []calibrate.Label
	for _, l := range labels {
		if slices.Contains(cfg.names, l.Metric) {
			own = append(own, l)
		}
	}
	rep := calibrate.Compare(own, all)
	rep.SamplesWithoutLabels = unlabelled
	return rep, notes, nil
}

// calibrationJSON is --format json: {"metrics": {NAME: {n, accuracy, kappa,
// mcc, confusion, intervals, disagreements, ...}}, "labels_without_sample",
// "samples_without_labels", "min_kappa", "pass"}.
func calibrationJSON(rep calibrate.Report, cf calibrateFlags, pass bool) ([]byte, error) {
	metrics := map[string]calibrate.Result{}
	for _, r := range rep.Results {
		metrics[r.Key] = r
	}
	var minKappa *float64
	if cf.hasMinKappa {
		minKappa = &cf.minKappa
	}
	out, err := json.MarshalIndent(struct {
		Metrics              map[string]calibrate.Result `json:"metrics"`
		LabelsWithoutSample  []string                    `json:"labels_without_sample"`
		SamplesWithoutLabels []string                    `json:"samples_without_labels"`
		Repeats              int                         `json:"repeats"`
		MinKappa             *float64                    `json:"min_kappa"`
		Pass                 bool                        `json:"pass"`
	}{metrics, nonNilStrings(rep.LabelsWithoutSample), nonNilStrings(rep.SamplesWithoutLabels), cf.repeats, minKappa, pass}, "", "  ")
	return append(out, '\n'), err
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// stat writes a statistic to 4 decimals, "–" when undefined.
func stat(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return shortScore(x)
}

func statRange(b calibrate.Bounds) string {
	if math.IsNaN(b.Low) {
		return ""
	}
	return "[" + shortScore(b.Low) + ", " + shortScore(b.High) + "]"
}

func percent(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return strconv.FormatFloat(100*x, 'f', 1, 64) + "%"
}

func verdictWord(pass bool) string {
	if pass {
		return "pass"
	}
	return "fail"
}

// calibrationTable is --format table: per metric, the statistics, the
// confusion matrix and the disagreements with both sides' reasons.
func calibrationTable(rep calibrate.Report) []byte {
	var b []byte
	for i, r := range rep.Results {
		if i > 0 {
			b = append(b, '\n')
		}
		c := r.Confusion
		b = fmt.Appendf(b, "%s: %d samples compared, %d %s; people pass %s\n", r.Key, r.N, r.Labelers, inflect(r.Labelers, "labeler", "labelers"), percent(r.BaseRate))
		b = fmt.Appendf(b, "  %-18s %-8s %s\n", "accuracy", stat(r.Accuracy), statRange(r.Intervals.Accuracy))
		b = fmt.Appendf(b, "  %-18s %-8s %s\n", "cohen's kappa", stat(r.Kappa), statRange(r.Intervals.Kappa))
		b = fmt.Appendf(b, "  %-18s %-8s %s\n", "matthews corr.", stat(r.MCC), statRange(r.Intervals.MCC))
		b = fmt.Appendf(b, "  %-18s %s\n", "majority label", stat(r.MajorityAccuracy))
		if !math.IsNaN(r.AlphaLabelers) {
			b = fmt.Appendf(b, "  %-18s %s\n", "alpha (labelers)", stat(r.AlphaLabelers))
		}
		if r.Labelers > 1 || !math.IsNaN(r.AlphaLabelers) {
			b = fmt.Appendf(b, "  %-18s %s\n", "alpha (+ judge)", stat(r.AlphaWithJudge))
		}
		if !math.IsNaN(r.FleissKappa) {
			b = fmt.Appendf(b, "  %-18s %s\n", "fleiss (panel)", stat(r.FleissKappa))
		}
		b = fmt.Appendf(b, "  (intervals: 95%%, %d bootstrap resamples, seed %d)\n", calibrate.BootstrapResamples, calibrate.BootstrapSeed)
		b = fmt.Appendf(b, "                 judge pass  judge fail\n")
		b = fmt.Appendf(b, "    people pass  %10d  %10d\n", c.TP, c.FN)
		b = fmt.Appendf(b, "    people fail  %10d  %10d\n", c.FP, c.TN)
		pc, fc := r.PassClass, r.FailClass
		b = fmt.Appendf(b, "  pass: precision %s  recall %s  f1 %s\n", stat(pc.Precision), stat(pc.Recall), stat(pc.F1))
		b = fmt.Appendf(b, "  fail: precision %s  recall %s  f1 %s\n", stat(fc.Precision), stat(fc.Recall), stat(fc.F1))
		if len(r.Unjudged) > 0 {
			b = fmt.Appendf(b, "  not judged: %s\n", shownNames(r.Unjudged))
		}
		if len(r.Tied) > 0 {
			b = fmt.Appendf(b, "  labelers tied: %s\n", shownNames(r.Tied))
		}
		if cons := r.Consistency; cons != nil {
			b = fmt.Appendf(b, "  consistency over %d runs: flip rate %s", cons.Runs, stat(cons.FlipRate))
			if len(cons.Straddling) > 0 {
				b = fmt.Appendf(b, "; straddling: ")
				for k, id := range cons.Straddling {
					for _, f := range cons.Cases {
						if f.ID == id {
							if k > 0 {
								b = append(b, ", "...)
							}
							b = fmt.Appendf(b, "%s (%d/%d pass)", shownName(id), f.Passes, f.Runs)
						}
					}
				}
			}
			b = append(b, '\n')
		}
		if len(r.Disagreements) == 0 {
			b = append(b, "  no disagreements\n"...)
			continue
		}
		b = fmt.Appendf(b, "  disagreements (%d):\n", len(r.Disagreements))
		for _, d := range r.Disagreements {
			b = fmt.Appendf(b, "    %s: people %s, judge %s (%s)\n", shownName(d.ID), verdictWord(d.Human), verdictWord(d.Judge), fullScore(d.JudgeScore))
			for _, why := range d.Rationales {
				b = fmt.Appendf(b, "      people: %s\n", shownText(why))
			}
			b = fmt.Appendf(b, "      judge:  %s\n", shownText(d.Reason))
		}
	}
	return b
}

// calibrationMarkdown is --format markdown: a table of the statistics per
// metric, then each metric's disagreements.
func calibrationMarkdown(rep calibrate.Report) []byte {
	b := []byte("| metric | n | people pass | accuracy | majority label | kappa (95% CI) | MCC (95% CI) | TP | FP | FN | TN |\n|---|---:|---:|---:|---:|---|---|---:|---:|---:|---:|\n")
	for _, r := range rep.Results {
		c := r.Confusion
		b = fmt.Appendf(b, "| %s | %d | %s | %s | %s | %s %s | %s %s | %d | %d | %d | %d |\n", mdCode(r.Key), r.N, percent(r.BaseRate),
			stat(r.Accuracy), stat(r.MajorityAccuracy), stat(r.Kappa), statRange(r.Intervals.Kappa), stat(r.MCC), statRange(r.Intervals.MCC), c.TP, c.FP, c.FN, c.TN)
	}
	for _, r := range rep.Results {
		if len(r.Disagreements) == 0 {
			continue
		}
		b = fmt.Appendf(b, "\n**%s: %d %s**\n\n| sample | people | judge | people's rationale | judge's reason |\n|---|---|---|---|---|\n", mdCode(r.Key), len(r.Disagreements), inflect(len(r.Disagreements), "disagreement", "disagreements"))
		for _, d := range r.Disagreements {
			b = fmt.Appendf(b, "| %s | %s | %s (%s) | %s | %s |\n", mdText(d.ID), verdictWord(d.Human), verdictWord(d.Judge), fullScore(d.JudgeScore), mdText(strings.Join(d.Rationales, "; ")), mdText(d.Reason))
		}
	}
	return b
}
