package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// runTimes are the only parts of a run's output that tell two runs of the
// same input apart: when it began and how long it took (json's "run", the
// html report's "when"). unclocked blanks them, and nothing else.
//
// One expression each, rather than one for the three: each begins with
// text of its own, which regexp finds with strings.Index, where the three
// as alternatives ran its matcher over every byte of the output (a fifth
// of TestMergeOfShardsIsTheUnshardedRun's time under -race, on the html
// outputs). In turn they blank what the three as alternatives blanked (no
// time holds '<' or '"', so none holds another's opening): checked on
// every output of TestMergeOfShardsIsTheUnshardedRun.
var runTimes = []*regexp.Regexp{
	regexp.MustCompile(`<dt>when</dt><dd>[^<]*</dd>`),
	regexp.MustCompile(`"started":"[^"]*"`),
	regexp.MustCompile(`"duration":"[^"]*"`),
}

func unclocked(s string) string {
	for _, re := range runTimes {
		s = re.ReplaceAllString(s, "<time>")
	}
	return s
}

// shardRuns scores the eval arguments args in n shards, --format json each,
// with --workers 1 to 3 by turns, and returns the files of the shards' runs,
// in the order given (shard 1 last).
func shardRuns(t *testing.T, n int, args ...string) []string {
	t.Helper()
	dir := t.TempDir()
	var files []string
	for k := n; k >= 1; k-- {
		a := append([]string{"eval", "--shard", fmt.Sprintf("%d/%d", k, n), "--workers", fmt.Sprint(1 + k%3), "--format", "json"}, args...)
		out, errOut, code := runAgentcheck(t, "", a...)
		if code == exitUsage || !strings.Contains(out, `"shard":{"k":`) {
			t.Fatalf("agentcheck %s: exit %d\n%s\n%s", strings.Join(a, " "), code, errOut, out)
		}
		f := filepath.Join(dir, fmt.Sprintf("run-%d.json", k))
		if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// outcome is what a run gives: its output, what it says on standard error
// (but the judges' warnings on each sample, which the shards said), exit
// status, step summary and saved baseline.
type outcome struct {
	Out, Stderr, Summary, Baseline string
	Code                           int
}

// sampleWarning is a line of eval's standard error about one sample: a
// judge's warning, said when the sample is scored.
var sampleWarning = regexp.MustCompile(`(?m)^agentcheck eval: .*:[0-9]+: sample [0-9]+: .*\n`)

// runFor runs agentcheck with args, the step summary and --save-baseline
// going to files of dir (taken away once read), and gives what it wrote,
// times blanked.
func runFor(t *testing.T, dir string, args ...string) outcome {
	t.Helper()
	summary := filepath.Join(dir, "summary.md")
	saved := filepath.Join(dir, "saved.json")
	t.Setenv(stepSummaryEnv, summary)
	out, errOut, code := runAgentcheck(t, "", append(args, "--save-baseline", saved)...)
	if code == exitUsage {
		t.Fatalf("agentcheck %s: usage error\n%s", strings.Join(args, " "), errOut)
	}
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if os.IsNotExist(err) {
			return "<not written>"
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	return outcome{Out: unclocked(out), Stderr: sampleWarning.ReplaceAllString(errOut, ""), Summary: read(summary), Baseline: read(saved), Code: code}
}

// A dataset scored in 4 shards and merged gives, in every format, what the
// unsharded eval gives: the bundled dataset with its judged metrics
// replayed from the built-in cassette, and a generated dataset (ids or
// none, samples that cannot be scored, several inputs, one that does not
// open), OTLP traces (by trace ID; some shards empty) with the
// deterministic metrics; with and without gates and a baseline.
func TestMergeOfShardsIsTheUnshardedRun(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, "data.jsonl", shardDataset(160, 42, false))
	more := writeFile(t, "more.jsonl", shardDataset(37, 43, false))
	dups := writeFile(t, "dups.jsonl", shardDataset(200, 44, true))
	// A baseline the generated data falls below and rises above: its own
	// scores, each moved.
	old := writeFile(t, "old.json", "")
	if _, errOut, code := runAgentcheck(t, "", "eval", "--save-baseline", old, "--format", "jsonl", "--metrics", "tool_call_accuracy,tool_call_f1,trajectory_match", data, more); code == exitUsage {
		t.Fatal(errOut)
	}
	saved, err := os.ReadFile(old)
	if err != nil {
		t.Fatal(err)
	}
	moved := strings.NewReplacer(`"tool_call_f1": 0.0`, `"tool_call_f1": 0.5`, `"tool_call_accuracy": 1.0`, `"tool_call_accuracy": 0.25`).Replace(string(saved))
	if moved == string(saved) {
		t.Fatal("the baseline was not moved")
	}
	if err := os.WriteFile(old, []byte(moved), 0o644); err != nil {
		t.Fatal(err)
	}

	// A calibration of the judge that the judged gates hold to: merge holds
	// them to it as eval does, with the shards' judge models.
	cal := filepath.Join(dir, "cal.json")
	if out, errOut, code := runAgentcheck(t, "", "calibrate", "--labels", "example/calibrate/labels.jsonl", "--metrics", "agent_goal_accuracy",
		"--save-calibration", cal, "--min-kappa", "0", "example/calibrate/runs.jsonl"); code != exitOK {
		t.Fatalf("calibrate: exit %d\n%s%s", code, out, errOut)
	}

	for _, tc := range []struct {
		name  string
		data  []string // eval's arguments that the shards share
		gates []string // given to the shards and to merge
		// dups is set when ids are given twice: --save-baseline refuses
		// to write.
		dups bool
		// every is set for the cases merged in every format; the others
		// are merged as JSON, which holds all of a run, and as the table,
		// the default (each format renders the merged run as eval's
		// renders its own, with the same code).
		every bool
	}{
		{"bundled", nil, nil, false, false},
		{"bundled gated", nil, []string{"--sample-threshold", "tool_call_f1=0.5", "--fail-under", "agent_goal_accuracy=0.4", "--fail-under", "tool_call_accuracy=0.9"}, false, true},
		{"generated", []string{"--metrics", "tool_call_accuracy,tool_call_f1,trajectory_match", "--trajectory-mode", "unordered", data}, nil, false, false},
		{"judged, calibrated", []string{"--metrics", "agent_goal_accuracy,tool_call_f1", "example/calibrate/runs.jsonl"},
			[]string{"--fail-under", "agent_goal_accuracy=0.1", "--calibration", cal, "--require-calibration"}, false, true},
		// Two traces in four shards: two of them empty.
		{"OTLP traces", []string{"--input-format", "otel", "../../dataset/testdata/otel/weather.jsonl"}, []string{"--fail-under", "tool_call_f1=0.5"}, false, false},
		{"generated, ids given twice", []string{dups}, []string{"--fail-under", "tool_call_f1=0.9"}, true, false},
		{"generated gated", []string{"--metrics", "tool_call_accuracy,tool_call_f1,trajectory_match", data, more, filepath.Join(dir, "missing.jsonl")},
			[]string{"--sample-threshold", "trajectory_match=1", "--sample-threshold", "tool_call_f1=0.4", "--baseline", old, "--baseline-tolerance", "0.01"}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			shards := shardRuns(t, 4, append(cloneArgs(tc.data), tc.gates...)...)
			out := t.TempDir()
			formats := []string{"table", "json"}
			if tc.every {
				formats = []string{"table", "jsonl", "json", "junit", "markdown", "html"}
			}
			for _, format := range formats {
				want := runFor(t, out, append(append([]string{"eval", "--format", format}, tc.data...), tc.gates...)...)
				got := runFor(t, out, append(append([]string{"merge", "--format", format}, tc.gates...), shards...)...)
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("--format %s: merged differs from unsharded (-eval +merge):\n%s", format, d)
				}
				if want.Out == "" || want.Summary == "" || (want.Baseline == "<not written>") != tc.dups {
					t.Errorf("--format %s: the unsharded run wrote nothing to compare: %+v", format, want)
				}
			}
		})
	}
}

func cloneArgs(s []string) []string { return append([]string(nil), s...) }

// Shards that do not make one run are refused, naming the files.
func TestMergeRefusesShardsThatDoNotMakeOneRun(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	data := writeFile(t, "data.jsonl", shardDataset(40, 7, true))
	other := writeFile(t, "other.jsonl", shardDataset(40, 8, true))
	s := shardRuns(t, 4, data) // s[0] is shard 4/4, s[3] shard 1/4
	name := shownName
	otherInput := shardRuns(t, 4, other)
	otherOptions := shardRuns(t, 4, "--strict-order=false", data)
	gated := shardRuns(t, 4, "--sample-threshold", "tool_call_f1=0.5", data)
	three := shardRuns(t, 3, data)
	unsharded, _, _ := runAgentcheck(t, "", "eval", "--format", "json", data)
	plain := writeFile(t, "plain.json", unsharded)
	notJSON := writeFile(t, "notjson.json", "{\"samples\": [\n  oops\n")
	// Shard 2/4, interrupted before it began.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stopped, stoppedErr bytes.Buffer
	if code := runContext(ctx, []string{"eval", "--shard", "2/4", "--format", "json", data}, strings.NewReader(""), &stopped, &stoppedErr); code != exitFailed {
		t.Fatalf("an interrupted shard: exit %d, want 1\n%s", code, stoppedErr.String())
	}
	partial := writeFile(t, "partial.json", stopped.String())
	// Last, the same file changed.
	if err := os.WriteFile(data, []byte(shardDataset(40, 9, true)), 0o644); err != nil {
		t.Fatal(err)
	}
	sameNameOtherData := shardRuns(t, 4, data)

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"missing", []string{s[0], s[1], s[3]}, "shard 2/4 is missing: given 1/4 " + name(s[3]) + ", 3/4 " + name(s[1]) + ", 4/4 " + name(s[0])},
		{"two missing", []string{s[3], s[0]}, "shards 2/4, 3/4 are missing"},
		{"given twice", []string{s[0], s[1], s[2], s[3], s[1]}, "shard 3/4 is given twice: " + name(s[1]) + " and " + name(s[1])},
		{"other input", []string{s[3], s[2], otherInput[1], s[0]}, "are shards of different inputs"},
		{"same name, other data", []string{s[3], s[2], sameNameOtherData[1], s[0]}, "read different inputs under the same name"},
		{"other options", []string{s[3], s[2], otherOptions[1], s[0]}, "were scored with different options: --strict-order=true and --strict-order=false"},
		{"other N", []string{s[3], s[2], s[1], three[0]}, "is shard 1/4 but"},
		{"not a shard", []string{s[3], plain}, "plain.json: not a shard's run"},
		{"interrupted", []string{s[3], partial, s[1], s[0]}, name(partial) + ": shard 2/4 stopped before the end of its input"},
		{"not JSON", []string{s[3], notJSON}, "notjson.json:2: not JSON"},
		{"no files", nil, "give the shards' runs"},
		{"the shards' flags", []string{"--metrics", "tool_call_f1", s[3]}, "--metrics is the shards' to give, not merge's"},
		{"other thresholds", append([]string{"--sample-threshold", "tool_call_f1=0.6"}, gated...), `--sample-threshold: the shards were given "tool_call_f1=0.5" and merge "tool_call_f1=0.6"`},
		{"thresholds left out", gated, `--sample-threshold: the shards were given "tool_call_f1=0.5" and merge none`},
	} {
		out, errOut, code := runAgentcheck(t, "", append([]string{"merge"}, tc.args...)...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: merge %v: exit %d, stdout %q, stderr:\n%s\nwant exit 2 and %q", tc.name, tc.args, code, out, errOut, tc.want)
		}
	}
}

// The run's means and deviations do not depend on how it was cut into
// batches: with one worker (whose batches end where the reader's blocks
// do, lines of every length here), two or three, and merged from four
// shards, a run's JSON is the same to the last digit. Summed by batch,
// the one-worker run's mean differed from the merge's in its last digit.
func TestMeansDoNotDependOnBatches(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(shardDataset(400, 7, false), "\n"), "\n")
	for i := range lines {
		if i%37 == 5 { // a long line: the reader's block ends elsewhere
			lines[i] = strings.Replace(lines[i], `"content": "`, `"content": "`+strings.Repeat("pad ", 20000), 1)
		}
	}
	data := writeFile(t, "data.jsonl", strings.Join(lines, "\n")+"\n")
	args := []string{"--metrics", "tool_call_accuracy,tool_call_f1,trajectory_match", data}
	shards := shardRuns(t, 4, args...) // before runFor sets the step summary's file
	dir := t.TempDir()
	want := runFor(t, dir, append([]string{"eval", "--format", "json", "--workers", "2"}, args...)...)
	if !strings.Contains(want.Out, `"means":{"tool_call_accuracy":0.`) {
		t.Fatalf("no means to compare:\n%.2000s", want.Out)
	}
	for _, workers := range []string{"1", "3"} {
		got := runFor(t, dir, append([]string{"eval", "--format", "json", "--workers", workers}, args...)...)
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("--workers %s differs from --workers 2 (-2 +%s):\n%.3000s", workers, workers, d)
		}
	}
	got := runFor(t, dir, append([]string{"merge", "--format", "json"}, shards...)...)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("merged differs from unsharded (-eval +merge):\n%.3000s", d)
	}
}
