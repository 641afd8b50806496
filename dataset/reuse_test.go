package dataset_test

import (
	"bytes"
	"io"
	"iter"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/internal/samplereuse"
	"github.com/google/go-cmp/cmp"
)

// The reader that reuses its block (samplereuse.ReadRecords, which
// agentcheck eval reads with) yields the records ReadRecords yields, each
// text as it is when yielded, on 150 generated inputs: lines from empty
// to a little longer than a block (64 KiB), LF, CRLF and CR line ends, blank
// lines, a byte order mark, reads of one byte at a time, and JSON arrays,
// which it reads as ReadRecords does; and each text stays as it was
// yielded until blockEnd is called.
func TestReusingReaderReadsAsReadRecords(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	reusing := samplereuse.ReadRecords.(func(io.Reader, string, int, string, func()) iter.Seq2[dataset.Record, error])
	type got struct {
		Rec dataset.Record
		Err string
	}
	// collect keeps a copy of each text as it is when yielded where the
	// reader reuses its memory (ReadRecords's records stay as they are:
	// TestRecordsKeptAfterReading).
	collect := func(seq iter.Seq2[dataset.Record, error], reuses bool) (out []got) {
		for rec, err := range seq {
			g := got{Rec: rec}
			if reuses {
				g.Rec.Text = strings.Clone(rec.Text) // as it is now
			}
			if err != nil {
				g.Err = err.Error()
			}
			out = append(out, g)
		}
		return out
	}
	r := rand.New(rand.NewPCG(5, 6))
	var pads [26]string // each letter, as many times as the longest line holds it
	for k := range pads {
		pads[k] = strings.Repeat(string(rune('a'+k)), 80_000)
	}
	ends := []string{"\n", "\r\n", "\r"}
	// The 150 inputs are drawn first, then read in four parallel parts.
	var inputs [150]struct{ text, name string }
	var b bytes.Buffer // written over for each input; its text is a copy of its own size
	for i := range inputs {
		b.Reset()
		if r.IntN(5) == 0 {
			b.WriteString("\ufeff")
		}
		array := r.IntN(6) == 0
		if array {
			b.WriteString("[")
		}
		for j := range r.IntN(40) {
			if array && j > 0 {
				b.WriteString(",")
			}
			size := r.IntN(300)
			if r.IntN(20) == 0 {
				size = 60_000 + r.IntN(20_000) // about a block, either side
			}
			b.WriteString(`{"user_input": "`)
			b.WriteString(pads[j%26][:size])
			b.WriteString(`"}`)
			b.WriteString(ends[r.IntN(len(ends))])
			if r.IntN(5) == 0 {
				b.WriteString(ends[r.IntN(len(ends))])
			}
		}
		if array {
			b.WriteString("]")
		}
		inputs[i].text, inputs[i].name = b.String(), "in.jsonl"
		if array {
			inputs[i].name = "in.json"
		}
	}
	const parts = 4
	for p := range parts {
		t.Run(strconv.Itoa(p), func(t *testing.T) {
			t.Parallel()
			for i := p; i < len(inputs); i += parts {
				text, name := inputs[i].text, inputs[i].name
				// ReadRecords yields the same whatever the sizes of the reads
				// (TestReadRecordsLineEndsAndBOM reads one byte at a time): one
				// whole read gives the records the reusing reader must yield.
				want := collect(dataset.ReadRecords(strings.NewReader(text), name), false)
				var in io.Reader = strings.NewReader(text)
				if i%5 == 0 {
					in = iotest.OneByteReader(in)
				}
				// cmp.Diff, slow, only to show how they differ.
				if got := collect(reusing(in, name, 64<<20, "", nil), true); !slices.Equal(want, got) {
					t.Fatalf("input %d (%d bytes): the reusing reader differs from ReadRecords (-want +got):\n%s", i, len(text), cmp.Diff(want, got))
				}
				// With blockEnd, each text stays as it was yielded until
				// blockEnd is called (the CLI scores a batch before then,
				// its texts not copied).
				var held, copies []string
				check := func(when string) {
					for k := range held {
						if held[k] != copies[k] {
							t.Fatalf("input %d: a record's text changed before %s: %.40q, yielded as %.40q", i, when, held[k], copies[k])
						}
					}
					held, copies = held[:0], copies[:0]
				}
				in = strings.NewReader(text)
				if i%5 == 0 {
					in = iotest.OneByteReader(in)
				}
				n := 0
				for rec := range reusing(in, name, 64<<20, "", func() { check("blockEnd") }) {
					held, copies = append(held, rec.Text), append(copies, strings.Clone(rec.Text))
					n++
				}
				check("the end")
				if n != len(want) {
					t.Fatalf("input %d: %d records with blockEnd, %d without", i, n, len(want))
				}
			}
		})
	}
}

// The reusing reader's memory stays bounded by its block whatever the line
// ends: 8 MB of lines ended by CR alone, or by LF or CRLF, allocate well
// under a megabyte in all, where a block that ended at its last LF only
// would grow to hold every CR-ended line after it (the whole input).
func TestReusingReaderMemoryIsBoundedWhateverTheLineEnds(t *testing.T) {
	reusing := samplereuse.ReadRecords.(func(io.Reader, string, int, string, func()) iter.Seq2[dataset.Record, error])
	line := `{"user_input": [{"type": "human", "content": "` + strings.Repeat("x", 250) + `"}]}`
	for _, end := range []string{"\r", "\n", "\r\n"} {
		// The lines are read from a reader that repeats one (8 MB of
		// input written out three times was most of this test's cost).
		in := newRepeated(line+end, 8<<20/(len(line)+len(end))*(len(line)+len(end)))
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		n := 0
		for rec, err := range reusing(in, "big.jsonl", 64<<20, "", nil) {
			if err != nil || rec.Text != line {
				t.Fatalf("line end %q, record %d: %q, %v", end, n, rec.Text, err)
			}
			n++
		}
		runtime.ReadMemStats(&after)
		if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
			t.Errorf("line end %q: Expected reading %d lines to allocate under 1 MiB, but it allocated %d bytes", end, n, got)
		}
	}
}
