package main

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// recordID builds nothing of the members it passes over: the id after a
// list of 2,000,000 zeros (4 MB), in a valid record and in one cut short
// after it, and after a call's arguments string of as many (escapes and
// all), is found allocating next to nothing (64 KiB at most: the measure
// is the process's), not the list's 72 bytes a value nor the string's
// copy; and whatever the values a record holds (more than
// --max-sample-values's default), the id after them is found.
func TestRecordIDBuildsNothing(t *testing.T) {
	whole := valuesSample("late", 2_000_000)
	args := argsSamples[0].text("late", zerosArgs(2_000_000)) // the zeros in a string with escapes
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

// A sample holding more JSON values than --max-sample-values's default,
// its "id" after them, is sharded by that id whatever the bound: the
// shards of a file holding it, merged, give what the unsharded run gives,
// with the bound raised (the sample scored) and at the default (the
// sample an error named by its id).
func TestShardsByIDWhateverTheBound(t *testing.T) {
	lines := synthLines(12, 91)
	for i := range lines {
		lines[i] = fmt.Sprintf(`{"id": "s%02d", `, i) + strings.TrimPrefix(lines[i], "{")
	}
	big := valuesSample("big", defaultMaxValues+10)
	lines = append(lines[:5], append([]string{big}, lines[5:]...)...)
	data := writeFile(t, "data.jsonl", strings.Join(lines, "\n")+"\n")
	for _, bound := range [][]string{{"--max-sample-values", fmt.Sprint(2 * defaultMaxValues)}, nil} {
		t.Run(fmt.Sprint(bound), func(t *testing.T) {
			args := append(append([]string{"--metrics", "tool_call_accuracy"}, bound...), data)
			shards := shardRuns(t, 3, args...)
			dir := t.TempDir()
			want := runFor(t, dir, append([]string{"eval", "--format", "json"}, args...)...)
			if !strings.Contains(want.Out, `"id":"big"`) || (bound == nil) != strings.Contains(want.Out, "--max-sample-values)") {
				t.Fatalf("the unsharded run does not name the sample of %d values by its id, or scores it against the bound:\n%.2000s", defaultMaxValues+30, want.Out)
			}
			got := runFor(t, dir, append([]string{"merge", "--format", "json"}, shards...)...)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("merged differs from unsharded (-eval +merge):\n%.3000s", d)
			}
		})
	}
}
