// Command agentcheck scores recorded agent runs with the agenttest metrics,
// to the last bit as ragas scores them and many times faster. Its eval
// command reads ragas-format samples (JSON Lines or a JSON array of
// MultiTurnSample objects) and writes one score line per sample, or a table;
// run without files it scores a small bundled example dataset:
//
//	go run ./cmd/agentcheck eval
//	agentcheck eval --format jsonl --strict-order=false runs.jsonl
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/agentcheck/agentcheck/agenttest"
)

func main() {
	if os.Getenv("GOGC") == "" {
		// eval keeps little alive (the batches in flight, a few MB) while it
		// allocates hundreds of MB a second: at Go's default the collector
		// would run every few MB. Memory stays bounded either way.
		debug.SetGCPercent(400)
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK     = 0
	exitFailed = 1 // some sample could not be scored, or output failed
	exitUsage  = 2
)

const usageText = `agentcheck scores recorded agent runs with ragas's agent metrics.

Usage:
  agentcheck eval [flags] [FILE...]   score ragas-format samples
  agentcheck help [eval]              show this help, or eval's

Run "agentcheck eval" without files to score the bundled example dataset.
`

const evalUsageText = `Usage: agentcheck eval [flags] [FILE...]

Scores ragas MultiTurnSample records, one JSON object per line (JSON Lines)
or a JSON array of them. FILE "-" is standard input. Without FILE, the
bundled example dataset is scored.

Every sample gets one output line, in input order. A sample that cannot be
scored gets {"error": "..."} naming file, line, sample and message; the
others are still scored and the exit status is 1.

Flags:
  --metrics LIST          comma-separated metrics (default tool_call_accuracy,tool_call_f1):
                            tool_call_accuracy  ragas ToolCallAccuracy
                            tool_call_f1        ragas ToolCallF1
  --strict-order BOOL     tool_call_accuracy: calls must come in the reference's
                          order (default true; false is ragas strict_order=False)
  --arg-similarity NAME   tool_call_accuracy: how argument values compare: exact,
                          levenshtein, hamming, jaro or jaro_winkler (default exact)
  --format NAME           table (default): aligned table with a mean per metric;
                          jsonl: one JSON object of scores per sample;
                          json: a JSON array of the same objects
  --workers N             samples are parsed and scored on N goroutines
                          (default: the number of CPUs)
`

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usageText)
		return exitUsage
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && args[1] == "eval" {
			fmt.Fprint(stdout, evalUsageText)
		} else {
			fmt.Fprint(stdout, usageText)
		}
		return exitOK
	case "eval":
		return runEval(args[1:], stdin, stdout, stderr)
	}
	fmt.Fprintf(stderr, "agentcheck: unknown command %q\n\n%s", args[0], usageText)
	return exitUsage
}

func runEval(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, files, err := parseEvalFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, evalUsageText)
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "agentcheck eval: %v\n\nRun \"agentcheck eval -h\" for usage.\n", err)
		return exitUsage
	}
	sum, err := evaluate(context.Background(), cfg, inputs(files, stdin), stdout)
	if err != nil {
		fmt.Fprintf(stderr, "agentcheck eval: %v\n", err)
		return exitFailed
	}
	if sum.errors > 0 {
		fmt.Fprintf(stderr, "agentcheck eval: %d of %d samples could not be scored\n", sum.errors, sum.samples)
		return exitFailed
	}
	return exitOK
}

// evalConfig is what the eval flags ask for. Every error parseEvalFlags
// returns is a usage error.
type evalConfig struct {
	names   []string // metric names, in output order
	metrics []agenttest.Metric
	format  format
	workers int
	// fileWidth is the width of the table's file column, 0 for none.
	fileWidth int
}

func parseEvalFlags(args []string) (evalConfig, []string, error) {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	var flagOut bytes.Buffer
	fs.SetOutput(&flagOut)
	fs.Usage = func() {}
	metrics := fs.String("metrics", "tool_call_accuracy,tool_call_f1", "")
	strict := fs.Bool("strict-order", true, "")
	sim := fs.String("arg-similarity", "exact", "")
	formatName := fs.String("format", "table", "")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return evalConfig{}, nil, err
		}
		return evalConfig{}, nil, err
	}
	var cfg evalConfig
	var err error
	if cfg.format, err = parseFormat(*formatName); err != nil {
		return cfg, nil, err
	}
	argSim, err := agenttest.ParseStringSimilarity(*sim)
	if err != nil {
		return cfg, nil, fmt.Errorf("--arg-similarity: %v", err)
	}
	if *workers < 1 {
		return cfg, nil, fmt.Errorf("--workers must be at least 1, got %d", *workers)
	}
	cfg.workers = *workers
	opts := metricOptions{strictOrder: *strict, argSimilarity: argSim}
	for _, name := range strings.Split(*metrics, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		for _, seen := range cfg.names {
			if seen == name {
				return cfg, nil, fmt.Errorf("--metrics: %s is listed twice", name)
			}
		}
		m, err := newMetric(name, opts)
		if err != nil {
			return cfg, nil, err
		}
		cfg.names = append(cfg.names, name)
		cfg.metrics = append(cfg.metrics, m)
	}
	if len(cfg.metrics) == 0 {
		return cfg, nil, fmt.Errorf("--metrics lists no metric")
	}
	return cfg, fs.Args(), nil
}

// metricOptions is how the flags tune the metrics that take options.
type metricOptions struct {
	strictOrder   bool
	argSimilarity agenttest.StringSimilarity
}

// newMetric maps a metric name of the command line to the metric.
func newMetric(name string, o metricOptions) (agenttest.Metric, error) {
	switch name {
	case "tool_call_accuracy":
		return agenttest.ToolCallAccuracy{AnyOrder: !o.strictOrder, ArgSimilarity: o.argSimilarity}, nil
	case "tool_call_f1":
		return agenttest.ToolCallF1{}, nil
	case "agent_goal_accuracy", "topic_adherence":
		return nil, fmt.Errorf("--metrics: %s is not available yet: it needs an LLM judge, which agentcheck eval cannot configure yet (available: tool_call_accuracy, tool_call_f1)", name)
	}
	return nil, fmt.Errorf("--metrics: unknown metric %q (available: tool_call_accuracy, tool_call_f1)", name)
}

// format is how scores are written.
type format int

const (
	formatTable format = iota
	formatJSONL
	formatJSON
)

func parseFormat(name string) (format, error) {
	switch name {
	case "table":
		return formatTable, nil
	case "jsonl":
		return formatJSONL, nil
	case "json":
		return formatJSON, nil
	}
	return 0, fmt.Errorf("--format: unknown format %q (want table, jsonl or json)", name)
}
