package dataset_test

import (
	"fmt"
	"io"
	"iter"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/internal/samplereuse"
	"github.com/google/go-cmp/cmp"
)

// A sample over the bound is an error in its place, naming its line and
// index and the bound, and every other sample is read as without the bound:
// 200 generated inputs (JSON Lines and arrays, lines from empty to past a
// block, LF, CRLF and CR line ends, blank lines, reads of one byte at a
// time) under bounds from 1 byte to past a block.
func TestASampleOverTheBoundIsAnErrorOfItsOwn(t *testing.T) {
	t.Parallel()
	reusing := samplereuse.ReadRecords.(func(io.Reader, string, int, string) iter.Seq2[dataset.Record, error])
	type got struct {
		Rec dataset.Record
		Err string
	}
	rng := rand.New(rand.NewPCG(64, 20))
	pad := strings.Repeat("x", 90_000)
	ends := []string{"\n", "\r\n", "\r"}
	for i := range 200 {
		var b strings.Builder
		array := rng.IntN(4) == 0
		if array {
			b.WriteString("[")
		}
		for j := range rng.IntN(30) {
			if array && j > 0 {
				b.WriteString(",")
			}
			size := rng.IntN(300)
			if rng.IntN(15) == 0 {
				size = 60_000 + rng.IntN(30_000)
			}
			fmt.Fprintf(&b, `{"user_input": "%s"}`, pad[:size])
			b.WriteString(ends[rng.IntN(len(ends))])
			if rng.IntN(5) == 0 {
				b.WriteString(ends[rng.IntN(len(ends))])
			}
		}
		if array {
			b.WriteString("]")
		}
		text, name := b.String(), "in.jsonl"
		if array {
			name = "in.json"
		}
		bound := 1 + rng.IntN(400)
		if rng.IntN(3) == 0 {
			bound = 50_000 + rng.IntN(50_000)
		}
		var want []got
		for rec, err := range dataset.ReadRecords(strings.NewReader(text), name) {
			if err != nil {
				t.Fatalf("input %d: %v", i, err)
			}
			g := got{Rec: rec}
			if len(rec.Text) > bound {
				g = got{Err: fmt.Sprintf("%s:%d: sample %d: the sample is over %d bytes, the most one sample may hold (--max): it was skipped", name, rec.Line, rec.Index, bound)}
			}
			want = append(want, g)
		}
		var in io.Reader = strings.NewReader(text)
		if i%4 == 0 {
			in = iotest.OneByteReader(in)
		}
		var gotten []got
		for rec, err := range reusing(in, name, bound, "--max") {
			g := got{Rec: rec}
			g.Rec.Text = strings.Clone(rec.Text)
			if err != nil {
				g.Err = err.Error()
			}
			gotten = append(gotten, g)
		}
		if diff := cmp.Diff(want, gotten); diff != "" {
			t.Fatalf("input %d (%d bytes), bound %d (-want +got):\n%s", i, len(text), bound, diff)
		}
	}
}

// repeated is an io.Reader of n bytes of c.
type repeated struct {
	c byte
	n int
}

func (r *repeated) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), r.n)
	for i := range k {
		p[i] = r.c
	}
	r.n -= k
	return k, nil
}

// A sample far over the bound is skipped as it is read, not held: 64 MiB
// in one line or one value of an array, under a bound of 1 MiB, allocate
// a few MiB in all, and the sample after it is read.
func TestASampleOverTheBoundIsNotHeld(t *testing.T) {
	reusing := samplereuse.ReadRecords.(func(io.Reader, string, int, string) iter.Seq2[dataset.Record, error])
	next := `{"user_input": "after"}`
	for _, tc := range []struct{ name, open, close string }{
		{"in.jsonl", `{"user_input": "`, "\"}\n" + next + "\n"},
		{"in.json", `[{"user_input": "`, "\"},\n" + next + "]"},
	} {
		in := io.MultiReader(strings.NewReader(tc.open), &repeated{'y', 64 << 20}, strings.NewReader(tc.close))
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		var texts, errs []string
		for rec, err := range reusing(in, tc.name, 1<<20, "") {
			if err != nil {
				errs = append(errs, err.Error())
			} else {
				texts = append(texts, strings.Clone(rec.Text))
			}
		}
		runtime.ReadMemStats(&after)
		wantErr := tc.name + ":1: sample 0: the sample is over 1048576 bytes, the most one sample may hold: it was skipped"
		if diff := cmp.Diff([]string{wantErr}, errs); diff != "" {
			t.Errorf("%s: errors (-want +got):\n%s", tc.name, diff)
		}
		if diff := cmp.Diff([]string{next}, texts); diff != "" {
			t.Errorf("%s: records (-want +got):\n%s", tc.name, diff)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
			t.Errorf("%s: Expected reading a 64 MiB sample over a 1 MiB bound to allocate under 8 MiB, but it allocated %d bytes", tc.name, got)
		}
	}
}
