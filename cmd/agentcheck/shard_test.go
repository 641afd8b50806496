package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/report"
)

// shardDataset makes a dataset of n records, one a line: synthetic samples,
// some with a string or an integer "id" (with dups, a few ids given twice),
// some with none, and now and then a line that is not JSON or not a
// sample.
func shardDataset(n int, seed uint64, dups bool) string {
	rng := rand.New(rand.NewPCG(seed, 3))
	var b strings.Builder
	for i, line := range synthLines(n, seed) {
		switch rng.IntN(8) {
		case 0:
			line = [...]string{"not JSON", `{"user_input": 5}`}[rng.IntN(2)]
		case 1, 2:
			id := i
			if dups {
				id = rng.IntN(2*n + 1)
			}
			line = `{"id": "case-` + strconv.FormatUint(seed, 10) + "-" + strconv.Itoa(id) + `", ` + line[1:]
		case 3:
			line = `{"id": ` + strconv.FormatUint(seed*100000+uint64(i), 10) + `, ` + line[1:]
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// readRun reads eval's --format json output.
func readRun(t *testing.T, out string) *report.Run {
	t.Helper()
	r, err := report.ReadJSON(strings.NewReader(out), "stdout")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return r
}

func TestShardFlagUsageErrors(t *testing.T) {
	for value, want := range map[string]string{
		"0/4": `invalid value "0/4" for flag -shard: K counts from 1 to N (4), got 0`,
		"5/4": `invalid value "5/4" for flag -shard: K counts from 1 to N (4), got 5`,
		"1/0": `invalid value "1/0" for flag -shard: N must be from 1 to 10000, got 0`,
		"a/b": `invalid value "a/b" for flag -shard: want K/N, two whole numbers, such as 1/4`,
		"":    `invalid value "" for flag -shard: want K/N, shard K of N, such as 1/4`,
	} {
		out, errOut, code := runAgentcheck(t, "", "eval", "--shard", value)
		if code != exitUsage || out != "" || !strings.Contains(errOut, want) {
			t.Errorf("eval --shard %q: exit %d, stdout %q, stderr %q; want exit 2 and %s", value, code, out, errOut, want)
		}
	}
}

// The slices of --shard 1/N ... N/N of any input are disjoint and together
// the input, whatever --workers, each case where the input has it; a case
// with an id stays in its shard when the records before it change.
func TestShardSlicesPartitionTheInput(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	rng := rand.New(rand.NewPCG(5, 8))
	for trial := range 12 {
		size := rng.IntN(80)
		data := shardDataset(size, uint64(trial), true)
		path := writeFile(t, "data.jsonl", data)
		lines := strings.Split(strings.TrimSuffix(data, "\n"), "\n")
		n := 1 + rng.IntN(6)
		owner := make(map[int]int) // ordinal: shard
		for k := 1; k <= n; k++ {
			var first *report.Run
			for _, workers := range []string{"1", "3"} {
				out, errOut, _ := runAgentcheck(t, "", "eval", "--shard", fmt.Sprintf("%d/%d", k, n), "--workers", workers, "--format", "json", path)
				r := readRun(t, out)
				if r.Shard == nil {
					t.Fatalf("trial %d: shard %d/%d's run has no shard:\n%s%s", trial, k, n, out, errOut)
				}
				if first == nil {
					first = r
				} else if !slices.Equal(first.Shard.Ordinals, r.Shard.Ordinals) {
					t.Fatalf("trial %d: shard %d/%d holds records %v with --workers 1, %v with --workers 3", trial, k, n, first.Shard.Ordinals, r.Shard.Ordinals)
				}
				if r.Shard.Records != size || r.Shard.K != k || r.Shard.N != n {
					t.Fatalf("trial %d: shard %+v of an input of %d records, want %d/%d", trial, r.Shard, size, k, n)
				}
			}
			for ci, o := range first.Shard.Ordinals {
				if prev, dup := owner[o]; dup {
					t.Fatalf("trial %d: record %d is in shards %d/%d and %d/%d", trial, o, prev, n, k, n)
				}
				owner[o] = k
				c := first.Cases[ci]
				// Every line is a record: the case is the line's.
				if c.Line != o+1 && !(c.Index < 0 && c.Line == 0) {
					t.Fatalf("trial %d: shard %d/%d's case %d is line %d, but its record is line %d", trial, k, n, ci, c.Line, o+1)
				}
				if want := recordID(lines[o]); c.ID != want {
					t.Fatalf("trial %d: shard %d/%d's case at line %d has id %q, want %q", trial, k, n, o+1, c.ID, want)
				}
			}
		}
		if len(owner) != size {
			t.Fatalf("trial %d: the %d shards hold %d of the %d records", trial, n, len(owner), size)
		}
		// Two records more at the start: every record with an id stays in
		// its shard.
		moved := writeFile(t, "moved.jsonl", lines0(2)+data)
		for k := 1; k <= n; k++ {
			out, _, _ := runAgentcheck(t, "", "eval", "--shard", fmt.Sprintf("%d/%d", k, n), "--format", "json", moved)
			r := readRun(t, out)
			for ci, o := range r.Shard.Ordinals {
				if o < 2 || r.Cases[ci].ID == "" {
					continue
				}
				if was := owner[o-2]; was != k {
					t.Fatalf("trial %d: id %q moved from shard %d/%d to %d/%d when two records came before it", trial, r.Cases[ci].ID, was, n, k, n)
				}
			}
		}
	}
}

// lines0 is n samples without ids, a line each.
func lines0(n int) string {
	return strings.Join(synthLines(n, 99), "\n") + "\n"
}
