package main

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// One bad sample never hides the scores of the others: a JSON Lines file
// with one line corrupted at random (cut, a byte put in or taken out, the
// line replaced by noise) gives, with 1 and 2 workers, every other line's
// output as the clean file gives it, and in the corrupted line's place
// either scores or an error naming the file, line and sample; the exit
// status is 1 exactly when there is an error.
func TestACorruptedLineLosesNoOtherSample(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(26, 11))
	noise := []byte("\"{}[]\\,:0aé\x00\x01\x7f\xff\xc3 \t")
	for round := range 120 {
		n := 1 + rng.IntN(12)
		lines := synthLines(n, uint64(round))
		clean := writeFile(t, "clean.jsonl", strings.Join(lines, "\n")+"\n")
		cleanOut, _, _ := runAgentcheck(t, "", "eval", "--format", "jsonl", clean)
		want := strings.Split(strings.TrimSuffix(cleanOut, "\n"), "\n")
		if len(want) != n {
			t.Fatalf("the clean file gives %d lines for %d samples:\n%s", len(want), n, cleanOut)
		}

		i := rng.IntN(n)
		bad, how := corrupt(rng, lines[i], noise, true)
		if strings.TrimSpace(string(bad)) == "" {
			continue // a blank line is no sample
		}
		corrupted := append([]string(nil), lines...)
		corrupted[i] = string(bad)
		file := writeFile(t, "data.jsonl", strings.Join(corrupted, "\n")+"\n")
		for _, workers := range []string{"1", "2"} {
			out, stderr, code := runAgentcheck(t, "", "eval", "--workers", workers, "--format", "jsonl", file)
			got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if len(got) != n {
				t.Fatalf("round %d, line %d %s, --workers %s: %d lines of output for %d samples:\n%s%s", round, i+1, how, workers, len(got), n, out, stderr)
			}
			for j := range got {
				if j != i && got[j] != want[j] {
					t.Errorf("round %d, line %d %s, --workers %s: line %d is %s, clean %s", round, i+1, how, workers, j+1, got[j], want[j])
				}
			}
			isErr := strings.HasPrefix(got[i], `{"error":`)
			if isErr && !strings.HasPrefix(got[i], fmt.Sprintf(`{"error":"%s:%d: sample %d: `, file, i+1, i)) {
				t.Errorf("round %d, line %d %s: the error does not name the file, line and sample: %s", round, i+1, how, got[i])
			}
			if !isErr && !strings.HasPrefix(got[i], `{"tool_call_accuracy":`) {
				t.Errorf("round %d, line %d %s: neither scores nor an error: %s", round, i+1, how, got[i])
			}
			if wantCode := map[bool]int{false: exitOK, true: exitFailed}[isErr]; code != wantCode {
				t.Errorf("round %d, line %d %s: exit %d, want %d; stderr %q", round, i+1, how, code, wantCode, stderr)
			}
		}
	}
}

// In a JSON array of samples, a sample corrupted at random cannot hide the
// samples before it: their output is the clean file's, whatever the
// corruption does to the framing after it; the run fails or the corrupted
// sample still reads, and each error names the file and a line.
func TestACorruptedArraySampleLosesNoSampleBeforeIt(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(26, 12))
	noise := []byte("\"{}[]\\,:0aé\x00\x7f\xff ")
	for round := range 120 {
		n := 1 + rng.IntN(10)
		lines := synthLines(n, uint64(round))
		clean := writeFile(t, "clean.json", "[\n"+strings.Join(lines, ",\n")+"\n]\n")
		cleanOut, _, _ := runAgentcheck(t, "", "eval", "--format", "jsonl", clean)
		want := strings.Split(strings.TrimSuffix(cleanOut, "\n"), "\n")

		i := rng.IntN(n)
		bad, how := corrupt(rng, lines[i], noise, false)
		corrupted := append([]string(nil), lines...)
		corrupted[i] = string(bad)
		file := writeFile(t, "data.json", "[\n"+strings.Join(corrupted, ",\n")+"\n]\n")
		out, stderr, code := runAgentcheck(t, "", "eval", "--format", "jsonl", file)
		got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(got) < i {
			t.Fatalf("round %d, sample %d %s: %d lines of output, fewer than the %d samples before it:\n%s%s", round, i, how, len(got), i, out, stderr)
		}
		for j := range i {
			if got[j] != want[j] {
				t.Errorf("round %d, sample %d %s: sample %d is %s, clean %s", round, i, how, j, got[j], want[j])
			}
		}
		errs := 0
		for _, l := range got {
			if strings.HasPrefix(l, `{"error":`) {
				errs++
				if !regexp.MustCompile(`^\{"error":"` + regexp.QuoteMeta(file) + `:[1-9][0-9]*: `).MatchString(l) {
					t.Errorf("round %d, sample %d %s: an error that names no file and line: %s", round, i, how, l)
				}
			}
		}
		if (errs > 0) != (code == exitFailed) || (code != exitOK && code != exitFailed) {
			t.Errorf("round %d, sample %d %s: exit %d with %d errors; stderr %q", round, i, how, code, errs, stderr)
		}
	}
}

// corrupt is text corrupted at random, and how: cut, a byte of noise put
// in, a byte taken out, or (withNoise) the whole replaced by noise.
func corrupt(rng *rand.Rand, text string, noise []byte, withNoise bool) ([]byte, string) {
	bad := []byte(text)
	p := rng.IntN(len(bad))
	kinds := 3
	if withNoise {
		kinds = 4
	}
	switch rng.IntN(kinds) {
	case 0:
		return bad[:p], fmt.Sprintf("cut at %d", p)
	case 1:
		c := noise[rng.IntN(len(noise))]
		return append(bad[:p:p], append([]byte{c}, bad[p:]...)...), fmt.Sprintf("%q put in at %d", c, p)
	case 2:
		return append(bad[:p:p], bad[p+1:]...), fmt.Sprintf("byte %d taken out", p)
	}
	bad = bad[:0]
	for range 1 + rng.IntN(40) {
		bad = append(bad, noise[rng.IntN(len(noise))])
	}
	return bad, fmt.Sprintf("replaced by %q", bad)
}
