package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// The scorer parses a few samples ahead, each with a parser of its own,
// and bounds the text it reads ahead (parseAhead, aheadText): whatever
// the mix of small samples, samples over that bound and broken ones, each
// sample's output line is the one it gives alone, and each broken one is
// an error naming its own line and index, with one worker and with two.
func TestSamplesParsedAheadAreEachTheirOwn(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(27, 11))
	// A pool of distinct samples: small ones, and ones past aheadText
	// (a long request) so that a turn ends early or starts with one.
	var pool, alone []string
	for k := range 14 {
		pad := ""
		if k%4 == 3 {
			pad = strings.Repeat("x", aheadText/2+rng.IntN(aheadText))
		}
		ref := fmt.Sprintf(`{"name": "t%d", "args": {"n": %d}}`, k%3, k%5)
		made := fmt.Sprintf(`{"name": "t%d", "args": {"n": %d}}`, k%2, k%3)
		pool = append(pool, fmt.Sprintf(`{"id": "s%d", "user_input": [{"type": "human", "content": "ask %d %s"}, {"type": "ai", "content": "ok", "tool_calls": [%s]}], "reference_tool_calls": [%s]}`, k, k, pad, made, ref))
	}
	for _, line := range pool {
		out, stderr, code := runAgentcheck(t, "", "eval", "--workers", "1", "--format", "jsonl", writeFile(t, "one.jsonl", line+"\n"))
		if code != exitOK || strings.Count(out, "\n") != 1 {
			t.Fatalf("a sample alone: exit %d, output %q, stderr %q", code, out, stderr)
		}
		alone = append(alone, out)
	}
	for round := range 16 {
		n := 1 + rng.IntN(3*parseAhead)
		lines := make([]string, n)
		from := make([]int, n) // the pool's sample, or -1 for a broken line
		for i := range lines {
			from[i] = rng.IntN(len(pool))
			lines[i] = pool[from[i]]
			if rng.IntN(5) == 0 {
				from[i], lines[i] = -1, lines[i][:1+rng.IntN(len(lines[i])-2)]
			}
		}
		file := writeFile(t, "data.jsonl", strings.Join(lines, "\n")+"\n")
		for _, workers := range []string{"1", "2"} {
			out, stderr, _ := runAgentcheck(t, "", "eval", "--workers", workers, "--format", "jsonl", file)
			got := strings.SplitAfter(out, "\n")
			if len(got) != n+1 || got[n] != "" {
				t.Fatalf("round %d, --workers %s: %d lines of output for %d samples:\n%.3000s%s", round, workers, len(got)-1, n, out, stderr)
			}
			for i, k := range from {
				if k >= 0 && got[i] != alone[k] {
					t.Errorf("round %d, --workers %s: line %d is\n%.300s\nalone it is\n%.300s", round, workers, i+1, got[i], alone[k])
				}
				// A broken line may keep the id it holds before the break
				// ({"id": …, "error": …}): the error is looked for within.
				if want := fmt.Sprintf(`"error":"%s:%d: sample %d: `, file, i+1, i); k < 0 && !strings.Contains(got[i], want) {
					t.Errorf("round %d, --workers %s: broken line %d gives %.300s, want an error holding %s", round, workers, i+1, got[i], want)
				}
			}
		}
	}
}
