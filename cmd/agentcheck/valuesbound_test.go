package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// valuesSample is a sample whose call's arguments hold a list of zeros,
// with its "id" last: 20 values besides the zeros.
func valuesSample(id string, zeros int) string {
	return `{"user_input": [{"type": "human", "content": "hi"}, {"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": {"x": [` +
		strings.TrimSuffix(strings.Repeat("0,", zeros), ",") + `]}}]}], "reference_tool_calls": [{"name": "f", "args": {"x": [0]}}], "id": "` + id + `"}`
}

// --max-sample-values: a sample of as many JSON values as the bound is
// scored as without it, one of a value more is an error naming its file,
// line, sample, "id" and the flag, and every other sample scores as
// without the bound, in JSON Lines and arrays alike, with 1 and 2 workers
// and the default; a bound under 1 is a usage error. The generated
// samples, small, are read by the fast path; the two long ones by the
// general decoder, which counts (a text of no more bytes than the bound
// cannot hold more values than it).
func TestEvalMaxSampleValues(t *testing.T) {
	const bound = 3000
	lines := synthLines(30, 65)
	at, over := valuesSample("at", bound-20), valuesSample("over", bound-19)
	lines = append(lines[:10], append([]string{at}, lines[10:]...)...)
	lines = append(lines[:20], append([]string{over}, lines[20:]...)...)
	for _, tc := range []struct {
		name, text string
		firstLine  int
	}{
		{"data.jsonl", strings.Join(lines, "\n") + "\n", 1},
		{"data.json", "[\n" + strings.Join(lines, ",\n") + "\n]\n", 2},
	} {
		file := writeFile(t, tc.name, tc.text)
		free, stderr, code := runAgentcheck(t, "", "eval", "--format", "jsonl", file)
		if code != exitOK {
			t.Fatalf("%s: exit %d without the bound: %s", tc.name, code, stderr)
		}
		want := strings.Split(strings.TrimSuffix(free, "\n"), "\n")
		if len(want) != len(lines) || !strings.Contains(want[20], `"id":"over"`) || strings.Contains(free, `"error"`) {
			t.Fatalf("%s: without the bound:\n%s", tc.name, free)
		}
		for _, workers := range [][]string{{"--workers", "1"}, {"--workers", "2"}, nil} {
			args := append([]string{"eval", "--max-sample-values", fmt.Sprint(bound), "--format", "jsonl", file}, workers...)
			out, stderr, code := runAgentcheck(t, "", args...)
			got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if len(got) != len(lines) {
				t.Fatalf("%s %v: %d lines for %d samples:\n%s", tc.name, workers, len(got), len(lines), out)
			}
			for i := range lines {
				if i == 20 {
					msg := fmt.Sprintf(`{"id":"over","error":"%s:%d: sample 20: the sample holds more than %d JSON values, the most one sample may hold (--max-sample-values)"}`, file, 20+tc.firstLine, bound)
					if got[i] != msg {
						t.Errorf("%s %v, the sample of %d values:\n got %s\nwant %s", tc.name, workers, bound+1, got[i], msg)
					}
				} else if got[i] != want[i] {
					t.Errorf("%s %v, sample %d: %s, without the bound %s", tc.name, workers, i, got[i], want[i])
				}
			}
			if wantErr := fmt.Sprintf("agentcheck eval: 1 of %d samples could not be scored\n", len(lines)); stderr != wantErr || code != exitFailed {
				t.Errorf("%s %v: exit %d, stderr %q; want %d, %q", tc.name, workers, code, stderr, exitFailed, wantErr)
			}
		}
	}
	for _, v := range []string{"0", "-1"} {
		if _, stderr, code := runAgentcheck(t, "", "eval", "--max-sample-values", v); code != exitUsage || !strings.Contains(stderr, "--max-sample-values must be at least 1, got "+v) {
			t.Errorf("--max-sample-values %s: exit %d, %q", v, code, stderr)
		}
	}
}

// BenchmarkEvalValues is eval of one sample whose call's arguments hold a
// list of zeros, 4 MB of 2,000,000 of them (a line ragas loads), with the
// default --max-sample-values (over: its error) and with a bound it is
// under (scored); and 2 MB just under the default, scored.
func BenchmarkEvalValues(b *testing.B) {
	for _, bc := range []struct {
		name  string
		zeros int
		flags []string
	}{
		{"4MB-over-default", 2_000_000, nil},
		{"4MB-bound-raised", 2_000_000, []string{"--max-sample-values", "3000000"}},
		{"2MB-under-default", defaultMaxValues - 20, nil},
	} {
		b.Run(bc.name, func(b *testing.B) {
			file := filepath.Join(b.TempDir(), "big.jsonl")
			if err := os.WriteFile(file, []byte(valuesSample("big", bc.zeros)+"\n"), 0o644); err != nil {
				b.Fatal(err)
			}
			args := append([]string{"eval", "--workers", "1", "--metrics", "tool_call_accuracy", "--format", "jsonl", file}, bc.flags...)
			b.ReportAllocs()
			for b.Loop() {
				run(args, strings.NewReader(""), io.Discard, io.Discard)
			}
		})
	}
}
