package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/metric"
)

// panicking is a metric that panics on the sample whose id is "boom" and
// otherwise scores as the metric it wraps: a bug in a metric, met on one
// sample of a dataset.
type panicking struct{ metric.Metric }

func (p panicking) Evaluate(ctx context.Context, s agentcheck.Sample) (metric.Result, error) {
	if s.ID == "boom" {
		panic("index out of range [3] with length 3")
	}
	return p.Metric.Evaluate(ctx, s)
}

// TestAMetricThatPanicsFailsOneSample: a metric's panic on one sample is
// that sample's error, naming its file, line and sample and asking for a
// report, and the samples around it are scored as without it; on the
// deterministic path (one metric at a time) and on the judged path (the
// metrics of a sample at once, each in its own goroutine), with one worker
// and with several.
func TestAMetricThatPanicsFailsOneSample(t *testing.T) {
	sample := func(id string) string {
		return `{"id": "` + id + `", "user_input": [{"type": "human", "content": "hi"}, {"type": "ai", "content": "", "tool_calls": [{"name": "search", "args": {"q": "x"}}]}], "reference_tool_calls": [{"name": "search", "args": {"q": "x"}}]}`
	}
	path := filepath.Join(t.TempDir(), "data.jsonl")
	if err := os.WriteFile(path, []byte(sample("a")+"\n"+sample("boom")+"\n"+sample("c")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, judged := range []bool{false, true} {
		for _, workers := range []string{"1", "4"} {
			t.Run(fmt.Sprintf("judged=%v/workers=%s", judged, workers), func(t *testing.T) {
				cfg, files, err := parseEvalFlags([]string{"--metrics", "trajectory_match", "--format", "jsonl", "--workers", workers, path})
				if err != nil {
					t.Fatal(err)
				}
				if err := cfg.buildMetrics(nil); err != nil {
					t.Fatal(err)
				}
				traj := cfg.metrics[0]
				cfg.metrics = []metric.Metric{panicking{traj}}
				if judged {
					// Two metrics the scorer takes for judged ones run
					// side by side (evaluateTogether); both are the
					// trajectory match, one of them panicking.
					cfg.names = []string{"agent_goal_accuracy", "topic_adherence"}
					cfg.metrics = []metric.Metric{traj, panicking{traj}}
				}
				var stdout, stderr bytes.Buffer
				code := scoreRun(context.Background(), cfg, inputs(files, nil), files, func() error { return nil }, &stdout, &stderr)
				if code != exitFailed {
					t.Errorf("exit status %d, want %d (a sample could not be scored)\nstderr:\n%s", code, exitFailed, stderr.String())
				}
				lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
				if len(lines) != 3 {
					t.Fatalf("got %d output lines, want 3 (one per sample):\n%s", len(lines), stdout.String())
				}
				want := "data.jsonl:2: sample 1: internal error, please report: index out of range [3] with length 3"
				if !strings.Contains(lines[1], want) && !strings.Contains(stderr.String(), want) {
					t.Errorf("the panicking sample's error does not say %q\nline: %s\nstderr:\n%s", want, lines[1], stderr.String())
				}
				for _, i := range []int{0, 2} {
					if strings.Contains(lines[i], `"error"`) || !strings.Contains(lines[i], `1.0`) {
						t.Errorf("sample %d is not scored as without the panic: %s", i, lines[i])
					}
				}
			})
		}
	}
}

// TestAParserThatPanicsFailsOneRecord: parseRecord turns a panic of the
// parse (here a nil parser's) into the record's error, naming where the
// record is, rather than ending the run.
func TestAParserThatPanicsFailsOneRecord(t *testing.T) {
	rec := dataset.Record{File: "data.jsonl", Line: 7, Index: 6, Text: `{"user_input": []}`}
	s := agentcheck.Sample{ID: "left from the record before"}
	err := parseRecord(nil, rec, &s)
	if s.ID != "" {
		t.Errorf("parseRecord(nil, …) left the Sample %+v, want the zero Sample", s)
	}
	var le *dataset.LoadError
	if !errors.As(err, &le) {
		t.Fatalf("parseRecord(nil, …) = %v, want a *dataset.LoadError", err)
	}
	if got, want := err.Error(), "data.jsonl:7: sample 6: internal error, please report: "; !strings.HasPrefix(got, want) {
		t.Errorf("error %q, want it to start with %q", got, want)
	}
}
