package main

import (
	"fmt"
	"github.com/google/go-cmp/cmp"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// --max-sample-bytes: a sample over it is an error naming its file, line,
// sample and the flag; every other sample scores as without the bound, in
// JSON Lines and arrays alike, with 1 and 2 workers; a bound under 1 is a
// usage error.
func TestEvalMaxSampleBytes(t *testing.T) {
	lines := synthLines(40, 64)
	longest, bound := 0, 0
	for _, l := range lines {
		longest = max(longest, len(l))
	}
	bound = longest * 2 / 3
	for _, tc := range []struct {
		name, text string
		firstLine  int // the first sample's line
	}{
		{"data.jsonl", strings.Join(lines, "\n") + "\n", 1},
		{"data.json", "[\n" + strings.Join(lines, ",\n") + "\n]\n", 2},
	} {
		file := writeFile(t, tc.name, tc.text)
		free, _, code := runAgentcheck(t, "", "eval", "--format", "jsonl", file)
		if code != exitOK {
			t.Fatalf("%s: exit %d without a bound", tc.name, code)
		}
		want := strings.Split(strings.TrimSuffix(free, "\n"), "\n")
		over := 0
		for _, workers := range []string{"1", "2"} {
			out, stderr, code := runAgentcheck(t, "", "eval", "--workers", workers, "--max-sample-bytes", fmt.Sprint(bound), "--format", "jsonl", file)
			got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if len(got) != len(lines) {
				t.Fatalf("%s: %d lines for %d samples:\n%s", tc.name, len(got), len(lines), out)
			}
			over = 0
			for i, l := range lines {
				if len(l) <= bound {
					if got[i] != want[i] {
						t.Errorf("%s, sample %d of %d bytes, under the bound %d: %s, without the bound %s", tc.name, i, len(l), bound, got[i], want[i])
					}
					continue
				}
				over++
				msg := fmt.Sprintf(`{"error":"%s:%d: sample %d: the sample is over %d bytes, the most one sample may hold (--max-sample-bytes): it was skipped"}`, file, i+tc.firstLine, i, bound)
				if got[i] != msg {
					t.Errorf("%s, sample %d of %d bytes, over the bound %d:\n got %s\nwant %s", tc.name, i, len(l), bound, got[i], msg)
				}
			}
			if wantErr := fmt.Sprintf("agentcheck eval: %d of %d samples could not be scored\n", over, len(lines)); stderr != wantErr || code != exitFailed {
				t.Errorf("%s: exit %d, stderr %q; want %d, %q", tc.name, code, stderr, exitFailed, wantErr)
			}
		}
		if over == 0 || over == len(lines) {
			t.Fatalf("%s: %d of %d samples over the bound %d: the test tells nothing", tc.name, over, len(lines), bound)
		}
	}
	for _, v := range []string{"0", "-1"} {
		if _, stderr, code := runAgentcheck(t, "", "eval", "--max-sample-bytes", v); code != exitUsage || !strings.Contains(stderr, "--max-sample-bytes must be at least 1, got "+v) {
			t.Errorf("--max-sample-bytes %s: exit %d, %q", v, code, stderr)
		}
	}
}

// A sample that cannot be scored is named by its "id" as far as its text
// reads before it breaks: one cut short, or over --max-sample-bytes (whose
// first 4 KiB are read), in JSON Lines and in an array; a --baseline then
// finds it in the run, not missing.
func TestASampleThatBreaksKeepsItsID(t *testing.T) {
	lines := synthLines(4, 9)
	for i := range lines {
		lines[i] = fmt.Sprintf(`{"id": "s%d", `, i) + strings.TrimPrefix(lines[i], "{")
	}
	bound := 0
	for _, l := range lines {
		bound = max(bound, len(l))
	}
	over := strings.TrimSuffix(lines[2], "}") + `, "pad": "` + strings.Repeat("p", bound) + `"}`
	dir := t.TempDir()
	base := filepath.Join(dir, "base.json")
	if _, stderr, code := runAgentcheck(t, "", "eval", "--save-baseline", base, writeFile(t, "all.jsonl", strings.Join(lines, "\n"))); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, tc := range []struct{ name, text string }{
		{"data.jsonl", lines[0] + "\n" + lines[1][:len(lines[1])/2] + "\n" + over + "\n" + lines[3] + "\n"},
		{"data.json", "[\n" + lines[0] + ",\n" + over + ",\n" + lines[1][:len(lines[1])/2]},
	} {
		file := writeFile(t, tc.name, tc.text)
		out, stderr, _ := runAgentcheck(t, "", "eval", "--max-sample-bytes", fmt.Sprint(bound), "--baseline", base, "--format", "jsonl", file)
		errs := regexp.MustCompile(`(?m)^\{"id":"(s[0-9])","error":`).FindAllStringSubmatch(out, -1)
		var ids []string
		for _, e := range errs {
			ids = append(ids, e[1])
		}
		want := map[string][]string{"data.jsonl": {"s1", "s2"}, "data.json": {"s2", "s1"}}[tc.name]
		if !slices.Equal(ids, want) || strings.Count(out, `"error":`) != len(want) {
			t.Errorf("%s: the errors are named %v, want %v:\n%s", tc.name, ids, want, out)
		}
		for _, id := range want {
			if regexp.MustCompile(`not in this run: .*\b` + id + `\b`).MatchString(stderr) {
				t.Errorf("%s: the baseline misses %s, which is in the run:\n%s", tc.name, id, stderr)
			}
		}
	}
}

// recordID of a record that is not valid JSON: the id read before it
// breaks, whole (a number cut short is no id), the last of a key given
// twice, as Parse keeps it.
func TestRecordIDBeforeTheBreak(t *testing.T) {
	for text, want := range map[string]string{
		`{"id": "a", "user_input": [`:            "a",
		`{"id": 12, "user_input": [`:             "12",
		`{"id": 123456`:                          "",
		`{"id": "a", "id": "b", "x": `:           "b",
		`{"x": [1, {"id": "inner"}], "id": "ok"`: "ok",
		`{"x": "broken \q", "id": "late"}`:       "",
		`{"id": "a"`:                             "a",
		`{"id": "a"}`:                            "a",
		`{"id": true, "x": `:                     "",
		// Members skipped, not built: an "id" that is no string or
		// number, or nested, passed over whole; a member broken deep
		// down, or nested past the limit, is where the record breaks.
		`{"id": "a", "id": {"k": [1, "id"]}, "x": `:                                        "",
		`{"id": {"id": "inner"}, "x": 1}`:                                                  "",
		`{"id": [1, 2], "id": 3, "x": [`:                                                   "3",
		`{"id": "a", "x": [1, {"y": [2, 3}], "id": "b"}`:                                   "a",
		`{"x": [1, {"y": "\u00e9\n"}, NaN], "id": "b"}`:                                    "b",
		`{"id": -7, "x": ` + strings.Repeat("[", 990) + "]":                                "-7",
		`{"x": ` + strings.Repeat("[", 990) + strings.Repeat("]", 990) + `, "id": "deep"}`: "",
		`{"x": ` + strings.Repeat("[", 989) + strings.Repeat("]", 989) + `, "id": "deep"}`: "deep",
	} {
		if got := recordID(text); got != want {
			t.Errorf("recordID(%q) = %q, want %q", text, got, want)
		}
	}
}

// Names outlive the batches that hold their samples: --save-baseline keeps
// every one of 1,000 samples with ids (400 with --workers 1), none given
// twice by a batch's memory reused, and --sample-threshold lists the first
// that fall below, not later ones written over them; and shards of 1,500
// records (0.6 MB), every 7th broken after its id, merge to the unsharded
// run, each broken record named by its id in every shard.
func TestNamesOutliveTheirBatch(t *testing.T) {
	lines := synthLines(1500, 77)
	for i := range lines {
		lines[i] = fmt.Sprintf(`{"id": "s%05d", `, i) + strings.TrimPrefix(lines[i], "{")
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		n       int
		workers string
	}{{1000, "2"}, {400, "1"}} {
		data := writeFile(t, "data.jsonl", strings.Join(lines[:tc.n], "\n"))
		base := filepath.Join(dir, "base.json")
		_, stderr, code := runAgentcheck(t, "", "eval", "--workers", tc.workers, "--save-baseline", base, data)
		saved, err := os.ReadFile(base)
		if err != nil || strings.Contains(stderr, "given twice") {
			t.Fatalf("%d samples, --workers %s: exit %d, %v\n%s", tc.n, tc.workers, code, err, stderr)
		}
		for i := range tc.n {
			if !strings.Contains(string(saved), fmt.Sprintf(`"s%05d":`, i)) {
				t.Fatalf("%d samples, --workers %s: s%05d is not in the saved baseline", tc.n, tc.workers, i)
			}
		}
		_, stderr, _ = runAgentcheck(t, "", "eval", "--workers", tc.workers, "--sample-threshold", "tool_call_accuracy=1.1", data)
		if !strings.Contains(stderr, "\n  s00000: ") || !strings.Contains(stderr, "\n  s00099: ") || strings.Contains(stderr, "\n  s00100: ") {
			t.Errorf("%d samples, --workers %s: the samples below are not the first 100:\n%.600s", tc.n, tc.workers, stderr)
		}
	}

	broken := append([]string(nil), lines...)
	for i := 0; i < len(broken); i += 7 {
		broken[i] = broken[i][:len(broken[i])/2]
	}
	data := writeFile(t, "broken.jsonl", strings.Join(broken, "\n"))
	shards := shardRuns(t, 2, data)
	for _, format := range []string{"table", "json"} {
		want := runFor(t, dir, "eval", "--format", format, data)
		got := runFor(t, dir, append([]string{"merge", "--format", format}, shards...)...)
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("--format %s: merged differs from unsharded (-eval +merge):\n%.3000s", format, d)
		}
	}
}
