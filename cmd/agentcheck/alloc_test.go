package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// Scoring a sample with the tool-call metrics allocates nothing once the
// run is under way: ten times the samples in JSON Lines, the format of
// issue 20's CPU goal, take the same allocations give or take a few (a box
// per sample was 100,000 allocations a 100k run).
func TestEvalAllocatesNothingPerSample(t *testing.T) {
	lines := synthLines(3000, 1)
	allocs := func(n int, format string) float64 {
		data := []byte(strings.Join(lines[:n], "\n") + "\n")
		args := []string{"eval", "--workers", "1", "--metrics", "tool_call_accuracy,tool_call_f1", "--format", format, "-"}
		return testing.AllocsPerRun(2, func() {
			run(args, bytes.NewReader(data), io.Discard, io.Discard)
		})
	}
	few, many := allocs(600, "jsonl"), allocs(3000, "jsonl")
	if many-few > 100 {
		t.Errorf("Expected eval --format jsonl of 3,000 samples to allocate about what 600 do, but it made %.0f allocations against %.0f: %.2f a sample", many, few, (many-few)/2400)
	}
}
