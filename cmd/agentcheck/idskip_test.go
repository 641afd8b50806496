package main

import (
	"flag"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// recordID builds nothing of the members it passes over: the id after a
// list of 300,000 zeros (600 kB), in a valid record and in one cut short
// after it, and after a call's arguments string of as many (escapes and
// all), is found allocating next to nothing (64 KiB at most: the measure
// is the process's), not the list's 72 bytes a value (21 MB) nor the
// string's copy. recordID takes no bound, so whatever the values a record
// holds, the id after them is found (TestShardsByIDWhateverTheBound).
func TestRecordIDBuildsNothing(t *testing.T) {
	whole := valuesSample("late", 300_000)
	args := argsSamples[0].text("late", zerosArgs(300_000)) // the zeros in a string with escapes
	for _, text := range []string{whole, whole[:len(whole)-1], strings.TrimSuffix(whole, `"id": "late"}`) + `"id": "late", "x": [1, 2`, args} {
		recordID(text) // warm up
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		id := recordID(text)
		runtime.ReadMemStats(&after)
		if id != "late" {
			t.Errorf("recordID(%.60s…%s) = %q, want \"late\"", text, text[len(text)-30:], id)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 64<<10 {
			t.Errorf("recordID(%.60s…%s) allocates %d bytes, want at most 64 KiB", text, text[len(text)-30:], got)
		}
	}
}

// A sample holding more JSON values than --max-sample-values, its "id"
// after them, is sharded by that id whatever the bound: the shards of a
// file holding it, merged, give what the unsharded run gives, with the
// bound over the sample's values (the sample scored) and under them (the
// sample an error named by its id). The bound is a flag's value, so a
// small one reads the same code as the default of 1<<20 at a thousandth
// of the time (that one took 14 s of the package's 47 s under -race).
// The default itself is held to README's 1,048,576 here.
func TestShardsByIDWhateverTheBound(t *testing.T) {
	lines := synthLines(12, 91)
	for i := range lines {
		lines[i] = fmt.Sprintf(`{"id": "s%02d", `, i) + strings.TrimPrefix(lines[i], "{")
	}
	cfg, _, err := parseEvalFlagsOn(flag.NewFlagSet("eval", flag.ContinueOnError), []string{"data.jsonl"})
	if err != nil || cfg.maxValues != 1_048_576 {
		t.Fatalf("--max-sample-values defaults to %d (%v), README says 1,048,576", cfg.maxValues, err)
	}
	const bound = 4000
	big := valuesSample("big", bound+10)
	lines = append(lines[:5], append([]string{big}, lines[5:]...)...)
	data := writeFile(t, "data.jsonl", strings.Join(lines, "\n")+"\n")
	for _, max := range []int{2 * bound, bound} {
		t.Run(fmt.Sprint(max), func(t *testing.T) {
			args := []string{"--metrics", "tool_call_accuracy", "--max-sample-values", fmt.Sprint(max), data}
			shards := shardRuns(t, 3, args...)
			dir := t.TempDir()
			want := runFor(t, dir, append([]string{"eval", "--format", "json"}, args...)...)
			if !strings.Contains(want.Out, `"id":"big"`) || (max == bound) != strings.Contains(want.Out, "--max-sample-values)") {
				t.Fatalf("the unsharded run does not name the sample of %d values by its id, or scores it against the bound:\n%.2000s", bound+30, want.Out)
			}
			got := runFor(t, dir, append([]string{"merge", "--format", "json"}, shards...)...)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("merged differs from unsharded (-eval +merge):\n%.3000s", d)
			}
		})
	}
}
