package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestEvalSaveBaseline: the baseline is the samples by name, sorted, a
// line each, their metrics sorted; saving it changes nothing else.
func TestEvalSaveBaseline(t *testing.T) {
	path := writeFile(t, "gates.jsonl", gateData+`{"user_input": 3}`+"\n")
	base := filepath.Join(t.TempDir(), "baseline.json")
	out, stderr, code := runAgentcheck(t, "", "eval", path, "--format", "jsonl", "--metrics", "tool_call_f1,tool_call_accuracy", "--save-baseline", base)
	out = onlyScores(t, out)
	if code != 1 || !strings.HasPrefix(out, `{"tool_call_f1":1.0,"tool_call_accuracy":1.0}`) || stderr != "agentcheck eval: 1 of 4 samples could not be scored\n" {
		t.Errorf("exit %d, stderr %q, stdout %q", code, stderr, out)
	}
	want := `{
  "samples": {
    "17": {"tool_call_accuracy": 0.0, "tool_call_f1": 0.0},
    "booking-1": {"tool_call_accuracy": 1.0, "tool_call_f1": 1.0},
    "line 2": {"tool_call_accuracy": 0.5, "tool_call_f1": 0.0}
  }
}
`
	if got := readFile(t, base); got != want {
		t.Errorf("baseline (-want +got):\n%s", cmp.Diff(want, got))
	}
	if fi, err := os.Stat(base); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("baseline file mode: %v %v", fi.Mode(), err)
	}
	// Saved again from the same scores: the same bytes, and no temporary
	// file left beside it.
	runAgentcheck(t, "", "eval", path, "--save-baseline", base)
	if got := readFile(t, base); got != want {
		t.Errorf("saved again (-want +got):\n%s", cmp.Diff(want, got))
	}
	if entries, _ := os.ReadDir(filepath.Dir(base)); len(entries) != 1 {
		t.Errorf("the baseline's directory holds %d files, want 1", len(entries))
	}

	// No samples: an empty baseline.
	runAgentcheck(t, "", "eval", "--save-baseline", base, "-")
	if got, want := readFile(t, base), "{\n  \"samples\": {}\n}\n"; got != want {
		t.Errorf("empty baseline %q, want %q", got, want)
	}

	// Two samples of the same name cannot be told apart: not written.
	dup := writeFile(t, "dup.jsonl", gateData+gateSample(`"booking-1"`, `{}`, "f")+"\n")
	other := filepath.Join(t.TempDir(), "other.json")
	_, stderr, code = runAgentcheck(t, "", "eval", dup, "--save-baseline", other)
	wantErr := "agentcheck eval: --save-baseline: samples are told apart by name, but 1 name is given twice; give each sample an \"id\" of its own:\n" +
		`  "booking-1" (` + dup + `:1 and ` + dup + ":4)\nagentcheck eval: --save-baseline: " + other + " not written\n"
	if _, err := os.Stat(other); code != 1 || stderr != wantErr || err == nil {
		t.Errorf("duplicate ids: exit %d, file: %v, stderr:\n%s\nwant:\n%s", code, err, stderr, wantErr)
	}
}

// TestEvalBaseline: a later run fails on a score that dropped by more than
// the tolerance, naming the sample, metric and both scores; a rise, a new
// sample and a missing one do not fail it.
func TestEvalBaseline(t *testing.T) {
	path := writeFile(t, "gates.jsonl", gateData)
	base := filepath.Join(t.TempDir(), "baseline.json")
	if _, stderr, code := runAgentcheck(t, "", "eval", path, "--save-baseline", base); code != 0 {
		t.Fatalf("save: exit %d: %s", code, stderr)
	}
	out, stderr, code := runAgentcheck(t, "", "eval", path, "--baseline", base, "--format", "jsonl")
	out = onlyScores(t, out)
	if code != 0 || stderr != "" || out != wantGateScores {
		t.Errorf("the same run: exit %d, stderr %q", code, stderr)
	}

	// booking-1 drops to 0.5 and 0; line 2 rises to 1 and 1; 17 is gone and
	// 18 is new.
	later := writeFile(t, "later.jsonl", strings.Join([]string{
		gateSample(`"booking-1"`, `{"a": 1, "b": 3}`, "f"),
		gateSample("", `{"a": 1, "b": 2}`, "f"),
		gateSample("18", `{"a": 1, "b": 2}`, "f"),
	}, "\n"))
	_, stderr, code = runAgentcheck(t, "", "eval", later, "--baseline", base)
	want := "agentcheck eval: Expected no sample to score lower than in the baseline " + base + " (tolerance 0.0), but 2 scores do:\n" +
		"  booking-1: tool_call_accuracy 1.0 → 0.5\n" +
		"  booking-1: tool_call_f1 1.0 → 0.0\n" +
		"agentcheck eval: note: 1 sample is not in the baseline " + base + ", so not compared: 18\n" +
		"agentcheck eval: note: 1 sample of the baseline " + base + " was not in this run: 17\n"
	if code != 1 || stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant:\n%s", code, stderr, want)
	}

	// A drop within the tolerance passes; one beyond it fails.
	_, stderr, code = runAgentcheck(t, "", "eval", later, "--baseline", base, "--metrics", "tool_call_accuracy", "--baseline-tolerance", "0.5")
	if code != 0 || strings.Contains(stderr, "Expected") {
		t.Errorf("--baseline-tolerance 0.5: exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = runAgentcheck(t, "", "eval", later, "--baseline", base, "--metrics", "tool_call_accuracy", "--baseline-tolerance", "0.49")
	if code != 1 || !strings.Contains(stderr, "(tolerance 0.49), but 1 score does:\n  booking-1: tool_call_accuracy 1.0 → 0.5\n") {
		t.Errorf("--baseline-tolerance 0.49: exit %d, stderr %q", code, stderr)
	}

	// Compared and saved at once: the comparison is with the old file.
	_, _, code = runAgentcheck(t, "", "eval", later, "--baseline", base, "--save-baseline", base)
	if code != 1 || !strings.Contains(readFile(t, base), `"booking-1": {"tool_call_accuracy": 0.5, "tool_call_f1": 0.0}`) {
		t.Errorf("--baseline and --save-baseline on one file: exit %d\n%s", code, readFile(t, base))
	}
	if _, stderr, code := runAgentcheck(t, "", "eval", later, "--baseline", base); code != 0 {
		t.Errorf("against the new baseline: exit %d: %s", code, stderr)
	}

	// A metric the baseline lacks is not compared, and said so.
	_, stderr, code = runAgentcheck(t, "", "eval", path, "--baseline", writeFile(t, "f1.json", `{"samples": {"17": {"tool_call_f1": 0.0}}}`))
	if code != 0 || !strings.Contains(stderr, "has no tool_call_accuracy scores, so they were not compared") {
		t.Errorf("a metric the baseline lacks: exit %d, stderr %q", code, stderr)
	}
}

func TestEvalBaselineErrors(t *testing.T) {
	path := writeFile(t, "gates.jsonl", gateData)
	for _, tt := range []struct{ baseline, want string }{
		{`{"samples": {"a": {"tool_call_f1": 1.0},}}`, "b.json: line 1, column 41: "},
		{`[]`, `b.json: not a baseline: want {"samples": {"NAME": {"METRIC": SCORE, ...}, ...}}, as --save-baseline writes`},
		{`{"samples": {"a": 1}}`, `b.json: sample "a": want an object of scores by metric, got int`},
		{`{"samples": {"a": {"tool_call_f1": "1"}}}`, `b.json: sample "a": tool_call_f1: want a number, got string`},
	} {
		_, stderr, code := runAgentcheck(t, "", "eval", path, "--baseline", writeFile(t, "b.json", tt.baseline))
		if code != exitUsage || !strings.Contains(stderr, "agentcheck eval: --baseline: ") || !strings.Contains(stderr, tt.want) {
			t.Errorf("baseline %s: exit %d, stderr %q, want %q", tt.baseline, code, stderr, tt.want)
		}
	}
}
