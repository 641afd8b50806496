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

// With one worker a batch's records are not copied out of the reader's
// block: the batch is scored and written before the reader reads into the
// block again (blockEnd). Over samples of many sizes, lines across the
// 256 KiB block's ends and longer than it, and through CRLF and JSON
// arrays (whose records are their own), each sample's output with one
// worker names its own id and request, as with two (which copies).
func TestEvalOneWorkerReadsEachSampleFromItsBlock(t *testing.T) {
	var lines []string
	for i := range 1500 {
		pad := strings.Repeat("x", (i*7919)%900)
		if i%499 == 7 {
			pad = strings.Repeat("y", 300<<10) // longer than the block
		}
		lines = append(lines, fmt.Sprintf(`{"id": "s%d", "user_input": [{"type": "human", "content": "request %d %s"}, {"type": "ai", "content": "", "tool_calls": [{"name": "f%d", "args": {"n": %d}}]}], "reference_tool_calls": [{"name": "f%d", "args": {"n": %d}}]}`, i, i, pad, i%5, i%3, i%5, i%2))
	}
	dir := t.TempDir()
	files := map[string]string{
		"lf.jsonl":   strings.Join(lines, "\n") + "\n",
		"crlf.jsonl": strings.Join(lines, "\r\n") + "\r\n",
		"array.json": "[" + strings.Join(lines[:600], ",\n") + "]",
	}
	for name, data := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		var outs [2]string
		for k, workers := range []string{"1", "2"} {
			var out, errOut bytes.Buffer
			if code := run([]string{"eval", "--workers", workers, "--format", "json", path}, nil, &out, &errOut); code != 0 {
				t.Fatalf("%s, %s workers: exit %d\n%s", name, workers, code, errOut.String())
			}
			samples, _, _ := strings.Cut(out.String(), `"summary"`) // the run's times aside
			outs[k] = samples
			// Each sample, in order: its id, then its own request.
			chunks := strings.Split(samples, `{"id":"s`)[1:]
			if want := strings.Count(data, `"id"`); len(chunks) != want {
				t.Fatalf("%s, %s workers: %d samples with an id, want %d", name, workers, len(chunks), want)
			}
			for i, c := range chunks {
				if want := fmt.Sprintf(`%d","file":`, i); !strings.HasPrefix(c, want) {
					t.Fatalf("%s, %s workers: sample %d is named %.20q", name, workers, i, c)
				}
				if want := fmt.Sprintf(`"request":"request %d `, i); !strings.Contains(c, want) {
					t.Fatalf("%s, %s workers: sample %d's request is not its own (%q):\n%.300s", name, workers, i, want, c)
				}
			}
		}
		if outs[0] != outs[1] {
			t.Errorf("%s: the samples scored with one worker differ from those with two", name)
		}
	}
}

// OpenAI messages' arguments are read where they stand in the record's
// text, and their references share them (dataset's fast path): with one
// worker (the reader's block) and two (the batch's copy), over lines
// across the block's ends, each failing sample's report and transcript
// show its own arguments and references, the same either way.
func TestOpenAIArgumentsAreEachSamplesOwn(t *testing.T) {
	var lines []string
	for i := range 1200 {
		pad := strings.Repeat("x", (i*7919)%700)
		lines = append(lines, fmt.Sprintf(`{"id":"s%d","messages":[{"role":"user","content":"request %d %s"},`+
			`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"n\": %d, \"tag\": \"t%d\"}"}}]},`+
			`{"role":"tool","tool_call_id":"c1","content":"ok"}],"reference_tool_calls":[{"name":"f","args":{"n":%d,"tag":"t%d"}}]}`, i, i, pad, i, i, i+i%2, i))
	}
	path := filepath.Join(t.TempDir(), "openai.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var outs [2]string
	for k, workers := range []string{"1", "2"} {
		var out, errOut bytes.Buffer
		run([]string{"eval", "--workers", workers, "--metrics", "tool_call_accuracy", "--sample-threshold", "tool_call_accuracy=1.1", "--format", "json", path}, nil, &out, &errOut)
		samples, _, _ := strings.Cut(out.String(), `"summary"`)
		outs[k] = samples
		chunks := strings.Split(samples, `{"id":"s`)[1:]
		if len(chunks) != len(lines) {
			t.Fatalf("%s workers: %d samples, want %d\n%s", workers, len(chunks), len(lines), errOut.String())
		}
		for i, c := range chunks {
			ref := i + i%2
			for _, want := range []string{fmt.Sprintf(`"args":"{\"n\":%d,\"tag\":\"t%d\"}"`, i, i), fmt.Sprintf(`f(n: %d, tag: \"t%d\")`, ref, i), fmt.Sprintf(`f(n: %d, tag: \"t%d\")`, i, i)} {
				if !strings.Contains(c, want) {
					t.Fatalf("%s workers: sample %d does not show its own %s:\n%.900s", workers, i, want, c)
				}
			}
		}
	}
	if outs[0] != outs[1] {
		t.Errorf("the samples scored with one worker differ from those with two")
	}
}
