package dataset_test

import (
	"bytes"
	"errors"
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
// 100 generated inputs (JSON Lines, their lines padded with spaces or blank
// and of any length up to past a block; JSON arrays; LF, CRLF and CR line
// ends; reads of one byte at a time) under bounds from 1 byte to past a
// block. A line's bytes count, spaces and all: a blank line over the bound
// is an error too, however the reads split it. The 100 inputs cover the
// code the 300 it had covered (go test -coverprofile, the same blocks of
// the package); FuzzASampleOverTheBoundIsAnErrorOfItsOwn draws more.
func TestASampleOverTheBoundIsAnErrorOfItsOwn(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(64, 20))
	for i := range 100 {
		checkOverBound(t, rng, fmt.Sprintf("input %d", i), i%4 == 0)
	}
}

// A line of exactly the bound's bytes is read, a byte more is its error,
// blank or not (a blank line of the bound's bytes is no sample), with each
// line end, read whole and a byte at a time, under a bound shorter than a
// block and one longer: the edge that TestASampleOverTheBoundIsAnErrorOfItsOwn's
// random lines reach by chance (input 173 of 300 did).
func TestALineOfTheBoundsBytesIsASample(t *testing.T) {
	reusing := samplereuse.ReadRecords.(func(io.Reader, string, int, string, func()) iter.Seq2[dataset.Record, error])
	sample := func(n int) string { return `{"user_input": "` + strings.Repeat("x", n-18) + `"}` }
	for _, bound := range []int{303, 70_000} {
		for _, end := range []string{"\n", "\r\n", "\r"} {
			for _, oneByte := range []bool{false, true} {
				lines := []string{sample(bound), sample(bound + 1), strings.Repeat(" ", bound), strings.Repeat(" ", bound+1), `{"user_input": "after"}`}
				over := func(line, index int) string {
					return fmt.Sprintf("in.jsonl:%d: sample %d: the sample is over %d bytes, the most one sample may hold (--max): it was skipped", line, index, bound)
				}
				want := []string{
					fmt.Sprintf("1 0 %d bytes <nil>", bound),
					fmt.Sprintf("2 1 %d bytes %s", min(bound, 4<<10), over(2, 1)),
					"4 2 0 bytes " + over(4, 2),
					`5 3 23 bytes <nil>`,
				}
				var in io.Reader = strings.NewReader(strings.Join(lines, end) + end)
				if oneByte {
					in = iotest.OneByteReader(in)
				}
				var got []string
				for rec, err := range reusing(in, "in.jsonl", bound, "--max", nil) {
					got = append(got, fmt.Sprintf("%d %d %d bytes %v", rec.Line, rec.Index, len(rec.Text), err))
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("bound %d, lines ended by %q, one byte a read %v (-want +got):\n%s", bound, end, oneByte, diff)
				}
			}
		}
	}
}

// FuzzASampleOverTheBoundIsAnErrorOfItsOwn is
// TestASampleOverTheBoundIsAnErrorOfItsOwn on the input and bound a seed
// draws, read whole or a byte at a time.
func FuzzASampleOverTheBoundIsAnErrorOfItsOwn(f *testing.F) {
	f.Add(uint64(1), true)
	f.Add(uint64(2), false)
	f.Fuzz(func(t *testing.T, seed uint64, oneByte bool) {
		checkOverBound(t, rand.New(rand.NewPCG(seed, 20)), fmt.Sprintf("seed %d", seed), oneByte)
	})
}

// overPad and overSpaces are the text and the blank of the samples
// checkOverBound draws.
var overPad, overSpaces = strings.Repeat("x", 90_000), strings.Repeat(" ", 90_000)

// checkOverBound draws an input and a bound from rng and fails t unless
// the reusing reader, reading it (a byte at a time if oneByte), yields
// each sample over the bound as its error and every other as it is.
func checkOverBound(t *testing.T, rng *rand.Rand, what string, oneByte bool) {
	t.Helper()
	reusing := samplereuse.ReadRecords.(func(io.Reader, string, int, string, func()) iter.Seq2[dataset.Record, error])
	type got struct {
		Rec dataset.Record
		Err string
	}
	pad, spaces := overPad, overSpaces
	size := func() int {
		if rng.IntN(15) == 0 {
			return 60_000 + rng.IntN(30_000)
		}
		return rng.IntN(300)
	}
	ends := []string{"\n", "\r\n", "\r"}
	bound := 1 + rng.IntN(400)
	if rng.IntN(3) == 0 {
		bound = 50_000 + rng.IntN(50_000)
	}
	// A sample over the bound: its error, and a Record holding its
	// first bytes (4 KiB, or the bound if less), trimmed.
	overErr := func(name string, line, index int, text string) got {
		return got{Rec: dataset.Record{File: name, Line: line, Index: index, Text: strings.TrimSpace(text[:min(len(text), 4<<10, bound)])},
			Err: fmt.Sprintf("%s:%d: sample %d: the sample is over %d bytes, the most one sample may hold (--max): it was skipped", name, line, index, bound)}
	}
	var b strings.Builder
	var want []got
	name := "in.jsonl"
	if rng.IntN(4) == 0 {
		// An array: a value's bytes count, not the spaces around it.
		name = "in.json"
		b.WriteString("[")
		for j := range rng.IntN(30) {
			if j > 0 {
				b.WriteString(",")
			}
			b.WriteString(ends[rng.IntN(len(ends))])
			b.WriteString(spaces[:rng.IntN(3)])
			b.WriteString(`{"user_input": "` + pad[:size()] + `"}`)
		}
		b.WriteString("]")
		for rec, err := range dataset.ReadRecords(strings.NewReader(b.String()), name) {
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			g := got{Rec: rec}
			if len(rec.Text) > bound {
				g = overErr(name, rec.Line, rec.Index, rec.Text)
			}
			want = append(want, g)
		}
	} else {
		index := 0
		for line := 1; line <= rng.IntN(30); line++ {
			var text, raw string
			switch rng.IntN(6) {
			case 0: // blank, maybe long
				raw = spaces[:size()]
			case 1: // a sample with spaces around it
				text = `{"user_input": "` + pad[:size()] + `"}`
				raw = spaces[:rng.IntN(300)] + text + spaces[:rng.IntN(300)]
			default:
				text = `{"user_input": "` + pad[:size()] + `"}`
				raw = text
			}
			b.WriteString(raw)
			b.WriteString(ends[rng.IntN(len(ends))])
			switch {
			case len(raw) > bound:
				want = append(want, overErr(name, line, index, raw))
			case text == "":
				continue // a blank line is no sample
			default:
				want = append(want, got{Rec: dataset.Record{File: name, Line: line, Index: index, Text: text}})
			}
			index++
		}
	}
	text := b.String()
	if len(text) <= 1<<16 && strings.Trim(text, " \t\r\n") == "" {
		// Only blanks, within the 64 KiB that tell an array from JSON
		// Lines: an empty input, its blank lines no samples and none of
		// them over the bound (peekNonSpace meets its end).
		want = nil
	}
	var in io.Reader = strings.NewReader(text)
	if oneByte {
		in = iotest.OneByteReader(in)
	}
	var gotten []got
	for rec, err := range reusing(in, name, bound, "--max", nil) {
		g := got{Rec: rec}
		g.Rec.Text = strings.Clone(rec.Text)
		if err != nil {
			g.Err = err.Error()
		}
		gotten = append(gotten, g)
	}
	if diff := cmp.Diff(want, gotten); diff != "" {
		t.Fatalf("%s (%d bytes), bound %d (-want +got):\n%s", what, len(text), bound, diff)
	}
}

// repeated is an io.Reader of text over and over, n bytes in all, without
// holding the n bytes: each read as large as asked, as strings.Reader's
// are (the readers under test ask for 64 or 256 KiB, or more for a long
// line).
type repeated struct {
	text  string
	n     int
	block []byte // text over and over, copied from
	off   int    // where in text the next read starts
}

// newRepeated is a reader of text over and over, n bytes in all. It
// allocates its block now, not as it reads.
func newRepeated(text string, n int) *repeated {
	return &repeated{text: text, n: n, block: bytes.Repeat([]byte(text), (64<<10)/len(text)+1)}
}

func (r *repeated) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	p = p[:min(len(p), r.n)]
	for k := 0; k < len(p); {
		c := copy(p[k:], r.block[r.off:])
		k += c
		r.off = (r.off + c) % len(r.text)
	}
	r.n -= len(p)
	return len(p), nil
}

// A sample far over the bound is skipped as it is read, not held: 24 MiB
// in one line or one value of an array, under a bound of 1 MiB, allocate
// a few MiB in all, and the sample after it is read.
func TestASampleOverTheBoundIsNotHeld(t *testing.T) {
	reusing := samplereuse.ReadRecords.(func(io.Reader, string, int, string, func()) iter.Seq2[dataset.Record, error])
	next := `{"user_input": "after"}`
	for _, tc := range []struct{ name, open, close string }{
		{"in.jsonl", `{"user_input": "`, "\"}\n" + next + "\n"},
		{"in.json", `[{"user_input": "`, "\"},\n" + next + "]"},
	} {
		in := io.MultiReader(strings.NewReader(tc.open), newRepeated("y", 24<<20), strings.NewReader(tc.close))
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		var texts, errs []string
		for rec, err := range reusing(in, tc.name, 1<<20, "", nil) {
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
			t.Errorf("%s: Expected reading a 24 MiB sample over a 1 MiB bound to allocate under 8 MiB, but it allocated %d bytes", tc.name, got)
		}
	}
}

// ReadSamples reads on past a sample over the bound (64 MiB), as past any
// other bad sample. The reading is ReadSamples's under a bound of 5,000
// bytes: 64 MiB of input took 4.7 s of CPU under -race, most of it the
// kernel's, handing the growing block its pages.
func TestReadSamplesReadsOnPastASampleOverTheBound(t *testing.T) {
	if dataset.MaxSample != 64<<20 {
		t.Errorf("ReadSamples reads under a bound of %d bytes; its doc and the README say 64 MiB", dataset.MaxSample)
	}
	const bound = 5000
	one := `{"user_input": [{"type": "human", "content": "hi"}]}`
	in := io.MultiReader(strings.NewReader(one+"\n"+`{"user_input": "`), newRepeated("y", bound+1), strings.NewReader("\"}\n"+one+"\n"))
	var got []string
	for s, err := range dataset.ReadSamplesUnder(in, "big.jsonl", bound) {
		if err != nil {
			got = append(got, err.Error())
		} else {
			got = append(got, s.Conversation[0].Content)
		}
	}
	want := []string{"hi", "big.jsonl:2: sample 1: the sample is over 5000 bytes, the most one sample may hold: it was skipped", "hi"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// An error of the input's reader, met anywhere (between lines, between
// values or inside one, after an array's end), is yielded as the input's
// error, naming the file and line: not as the end of the input (a framing
// error, or a sample cut short), nor dropped; the samples before it are
// read.
func TestTheReadersErrorIsTheInputsError(t *testing.T) {
	fire := errors.New("disk on fire")
	for _, tc := range []struct {
		name, data string
		records    int
		line       int
	}{
		{"in.jsonl", "{\"a\": 1}\n{\"b\": 2}\n", 2, 3},
		{"in.jsonl", "{\"a\": 1}\n{\"b\": ", 1, 2},
		{"in.json", "{\"a\": 1}\n{\"b\": 2}\n", 2, 3},
		{"in.json", "[{\"a\": 1},\n{\"b\": 2}", 2, 2},
		{"in.json", "[{\"a\": 1},\n{\"b\":", 1, 2},
		{"in.json", "[{\"a\": 1}]", 1, 1},
	} {
		records := 0
		var errs []error
		for rec, err := range dataset.ReadRecords(io.MultiReader(strings.NewReader(tc.data), iotest.ErrReader(fire)), tc.name) {
			if err != nil {
				errs = append(errs, err)
			} else if rec.Text != "" {
				records++
			}
		}
		var le *dataset.LoadError
		if records != tc.records || len(errs) != 1 || !errors.Is(errs[0], fire) || errors.As(errs[0], &le) ||
			!strings.HasPrefix(errs[0].Error(), fmt.Sprintf("%s:%d: ", tc.name, tc.line)) {
			t.Errorf("%s %q: %d records, errors %v; want %d records and the reader's error at line %d, not a *LoadError", tc.name, tc.data, records, errs, tc.records, tc.line)
		}
	}
}
