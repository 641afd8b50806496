package main

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/report"
	"github.com/agentcheck/agentcheck/trajectory"
)

// maxJudgeConcurrency bounds --judge-concurrency: each judged sample in
// flight holds a goroutine, its requests and a connection.
const maxJudgeConcurrency = 256

// maxWorkers bounds --workers: each worker holds two batches (up to
// batchText and a sample each), and the tool-call metrics are CPU-bound, so
// workers past the machine's cores add memory, not speed.
const maxWorkers = 256

// parseInterleaved parses args with fs, flags and file names in any order:
// the flag package alone stops at the first file name. A bool flag written
// without "=" takes the next argument as its value when that is true or
// false ("--strict-order false"), as the other flags do; "--" ends the
// flags. It returns the file names in order.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var flags, files []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			files = append(files, args[i+1:]...)
			break
		}
		if a == "-" || !strings.HasPrefix(a, "-") {
			files = append(files, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if strings.Contains(name, "=") || i+1 == len(args) {
			continue
		}
		f := fs.Lookup(name)
		if f == nil {
			continue // fs.Parse says it is not defined
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			if next := strings.ToLower(args[i+1]); next == "true" || next == "false" {
				flags[len(flags)-1] = a + "=" + next
				i++
			}
			continue
		}
		flags = append(flags, args[i+1]) // the flag's value, whatever it looks like
		i++
	}
	if err := fs.Parse(flags); err != nil {
		return nil, err
	}
	return files, nil
}

func parseEvalFlags(args []string) (evalConfig, []string, error) {
	return parseEvalFlagsOn(flag.NewFlagSet("eval", flag.ContinueOnError), args)
}

// parseEvalFlagsOn is parseEvalFlags, its flags defined on fs, where a
// test can list them (fs.VisitAll).
func parseEvalFlagsOn(fs *flag.FlagSet, args []string) (evalConfig, []string, error) {
	var flagOut bytes.Buffer
	fs.SetOutput(&flagOut)
	fs.Usage = func() {}
	metrics := fs.String("metrics", "", "")
	strict := fs.Bool("strict-order", true, "")
	sim := fs.String("arg-similarity", "exact", "")
	var opts metricOptions
	fs.TextVar(&opts.trajectory, "trajectory-mode", trajectory.Strict, "")
	fs.TextVar(&opts.args, "args-mode", trajectory.ArgsExact, "")
	fs.BoolVar(&opts.turnAware, "turn-aware", false, "")
	var formatName report.Format
	fs.TextVar(&formatName, "format", report.Table, "")
	workers := fs.Int("workers", min(runtime.GOMAXPROCS(0), maxWorkers), "")
	maxSample := fs.Int("max-sample-bytes", defaultMaxSample, "")
	maxValues := fs.Int("max-sample-values", defaultMaxValues, "")
	maxOTel := fs.Int("max-otel-bytes", defaultMaxOTel, "")
	topicMode := fs.String("topic-mode", "f1", "")
	var models stringsFlag
	fs.Var(&models, "judge-model", "")
	aggregation := fs.String("aggregation", string(judgment.Mean), "")
	tolerance := fs.Float64("tolerance", 0.1, "")
	concurrency := fs.Int("judge-concurrency", 8, "")
	cassette := fs.String("cassette", "", "")
	inputFormat := fs.String("input-format", "auto", "")
	var failUnder, sampleThreshold stringsFlag
	fs.Var(&failUnder, "fail-under", "")
	fs.Var(&sampleThreshold, "sample-threshold", "")
	baselinePath := fs.String("baseline", "", "")
	saveBaseline := fs.String("save-baseline", "", "")
	baselineTolerance := fs.Float64("baseline-tolerance", 0, "")
	calibration := fs.String("calibration", "", "")
	requireCalibration := fs.Bool("require-calibration", false, "")
	var shardValue shardFlag
	fs.Var(&shardValue, "shard", "")
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return evalConfig{}, nil, err
	}
	cfg := evalConfig{batch: batchSize}
	cfg.format = formatName
	cfg.request = cfg.format == report.Table || cfg.format == report.JSON || cfg.format == report.HTML
	cfg.reasons = cfg.format != report.Table
	if *inputFormat == "otel" {
		cfg.otel = true
	} else if cfg.input, err = dataset.ParseFormat(*inputFormat); err != nil {
		return cfg, nil, fmt.Errorf("--input-format: %v (or otel)", err)
	}
	argSim, err := metric.ParseStringSimilarity(*sim)
	if err != nil {
		return cfg, nil, fmt.Errorf("--arg-similarity: %v", err)
	}
	if *workers < 1 || *workers > maxWorkers {
		return cfg, nil, fmt.Errorf("--workers must be between 1 and %d, got %d", maxWorkers, *workers)
	}
	cfg.workers = *workers
	if *maxSample < 1 {
		return cfg, nil, fmt.Errorf("--max-sample-bytes must be at least 1, got %d", *maxSample)
	}
	cfg.maxSample = *maxSample
	if *maxValues < 1 {
		return cfg, nil, fmt.Errorf("--max-sample-values must be at least 1, got %d", *maxValues)
	}
	cfg.maxValues = *maxValues
	if *maxOTel < 1 {
		return cfg, nil, fmt.Errorf("--max-otel-bytes must be at least 1, got %d", *maxOTel)
	}
	cfg.maxOTel = *maxOTel
	cfg.opts = opts
	cfg.opts.strictOrder, cfg.opts.argSimilarity = *strict, argSim
	if opts.turnAware && opts.trajectory != trajectory.Strict {
		return cfg, nil, fmt.Errorf("--turn-aware applies to --trajectory-mode strict, not %s", opts.trajectory)
	}
	if cfg.opts.topicMode, err = metric.ParseTopicMode(*topicMode); err != nil {
		return cfg, nil, fmt.Errorf("--topic-mode: %v", err)
	}
	if *metrics == "" {
		*metrics = defaultMetrics
		if len(files) == 0 {
			*metrics = defaultDemoMetrics
		}
	}
	for _, name := range strings.Split(*metrics, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if slices.Contains(cfg.names, name) {
			return cfg, nil, fmt.Errorf("--metrics: %s is listed twice", name)
		}
		if _, err := newMetric(name, cfg.opts); err != nil {
			return cfg, nil, err
		}
		cfg.names = append(cfg.names, name)
	}
	if len(cfg.names) == 0 {
		return cfg, nil, fmt.Errorf("--metrics lists no metric")
	}
	cfg.shard = newShardRun(&shardValue, fs, cfg.names, len(files) == 0)
	if cfg.failUnder, err = parseGates("--fail-under", failUnder, cfg.names); err != nil {
		return cfg, nil, err
	}
	if cfg.sampleThresholds, err = parseGates("--sample-threshold", sampleThreshold, cfg.names); err != nil {
		return cfg, nil, err
	}
	if !(*baselineTolerance >= 0 && !math.IsInf(*baselineTolerance, 1)) {
		return cfg, nil, fmt.Errorf("--baseline-tolerance must be a number at least 0, got %v", *baselineTolerance)
	}
	cfg.baselinePath, cfg.saveBaseline, cfg.baselineTolerance = *baselinePath, *saveBaseline, *baselineTolerance
	cfg.calibration, cfg.requireCalibration = *calibration, *requireCalibration

	for i, m := range models {
		if strings.TrimSpace(m) == "" {
			return cfg, nil, fmt.Errorf("--judge-model: empty model name")
		}
		if slices.Contains(models[:i], m) {
			return cfg, nil, fmt.Errorf("--judge-model: %s is given twice", m)
		}
	}
	cfg.judge.models = models
	cfg.judge.agg = judgment.Aggregation{Method: judgment.AggregationMethod(*aggregation), Tolerance: *tolerance}
	switch cfg.judge.agg.Method {
	case judgment.Mean, judgment.Majority, judgment.Min, judgment.Unanimous, judgment.Consensus:
	default:
		return cfg, nil, fmt.Errorf("--aggregation: unknown method %q (want mean, majority, min, unanimous or consensus)", *aggregation)
	}
	if !(*tolerance >= 0 && *tolerance <= 1) {
		return cfg, nil, fmt.Errorf("--tolerance must be between 0 and 1, got %v", *tolerance)
	}
	if *concurrency < 1 || *concurrency > maxJudgeConcurrency {
		return cfg, nil, fmt.Errorf("--judge-concurrency must be between 1 and %d, got %d", maxJudgeConcurrency, *concurrency)
	}
	cfg.judge.concurrency = *concurrency
	cfg.judge.cassette = *cassette
	if cfg.judged() {
		// A judged sample waits on the network: as many samples in flight
		// as the judge may be asked about, one at a time per worker.
		cfg.workers, cfg.batch = cfg.judge.concurrency, 1
	}
	return cfg, files, nil
}

// parseGates reads the values of a gate flag, METRIC=X each, for metrics of
// --metrics.
func parseGates(flagName string, values []string, metrics []string) ([]gate, error) {
	var gates []gate
	for _, v := range values {
		name, x, ok := strings.Cut(v, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("%s %q: want METRIC=X, such as %s=0.8", flagName, v, metrics[0])
		}
		j := slices.Index(metrics, name)
		if j < 0 {
			return nil, fmt.Errorf("%s %q: %s is not among --metrics (%s)", flagName, v, name, strings.Join(metrics, ","))
		}
		threshold, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err != nil || math.IsNaN(threshold) || math.IsInf(threshold, 0) {
			return nil, fmt.Errorf("%s %q: %q is not a number", flagName, v, x)
		}
		if slices.ContainsFunc(gates, func(g gate) bool { return g.metric == j }) {
			return nil, fmt.Errorf("%s: %s is given twice", flagName, name)
		}
		gates = append(gates, gate{flag: flagName, metric: j, name: name, threshold: threshold})
	}
	return gates, nil
}
