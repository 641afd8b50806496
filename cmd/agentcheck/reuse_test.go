package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/dataset"
)

// eval reads records into memory it reuses from batch to batch, and the
// formats that keep cases past writing them (the table's first rows, the
// html and markdown reports' failing cases) keep copies: each of 3,000
// samples, well over the batches in flight, shows its own request or name
// in each of those formats, whatever became of its batch's memory.
func TestEvalKeepsEachSamplesOwnTextPastItsBatch(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	const n = 3000
	var in strings.Builder
	for i := range n {
		// Every sample fails --sample-threshold: the reports keep it.
		fmt.Fprintf(&in, `{"user_input": [{"type": "human", "content": "request number %d"}, {"type": "ai", "content": "ok", "tool_calls": [{"name": "tool%d", "args": {"n": %d}}]}], "reference_tool_calls": [{"name": "tool%d", "args": {"n": %d}}]}`+"\n", i, i, i, i, i+1)
	}
	file := filepath.Join(t.TempDir(), "many.jsonl")
	if err := os.WriteFile(file, []byte(in.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"table", "html", "markdown"} {
		var out, errOut bytes.Buffer
		code := run([]string{"eval", "--workers", "2", "--metrics", "tool_call_accuracy", "--sample-threshold", "tool_call_accuracy=1", "--format", format, file}, nil, &out, &errOut)
		if code != exitFailed {
			t.Fatalf("%s: exit %d, want %d (every sample fails its threshold); stderr:\n%s", format, code, exitFailed, errOut.String())
		}
		text := out.String()
		// What each format shows of every sample, or of the first ones
		// it shows in full.
		shown := map[string]int{"table": n, "html": 250, "markdown": 20}[format]
		for i := range shown {
			want := fmt.Sprintf("request number %d", i)
			if format == "markdown" {
				want = fmt.Sprintf("**line %d**", i+1)
			}
			if !strings.Contains(text, want) {
				t.Fatalf("%s: the output does not show sample %d's %q:\n%.2000s", format, i, want, text)
			}
		}
	}
}

// A scorer used outside a batch (agentcheck calibrate's) explains a
// tool-call score with a reason of its own, and does not fail for want of
// a batch's memory.
func TestScorerOutsideABatchExplains(t *testing.T) {
	cfg, _, err := parseEvalFlags([]string{"--metrics", "tool_call_accuracy", "--format", "jsonl", "x.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.buildMetrics(nil); err != nil {
		t.Fatal(err)
	}
	sc := newScorer(t.Context(), cfg)
	rec := dataset.Record{File: "x.jsonl", Line: 1, Text: `{"user_input": [{"type": "ai", "content": "", "tool_calls": [{"name": "a", "args": {"n": 1}}]}], "reference_tool_calls": [{"name": "a", "args": {"n": 2}}]}`}
	if _, err := sc.evaluate(rec, nil, nil); err != nil {
		t.Fatal(err)
	}
	if r := sc.results[0]; r.Score != 0 || r.Reason != "1 call aligned by name; mean argument score 0" {
		t.Errorf("Expected the score 0 with its reason, but got %v: %q", r.Score, r.Reason)
	}
}
