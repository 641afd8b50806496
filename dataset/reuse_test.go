package dataset_test

import (
	"bytes"
	"fmt"
	"io"
	"iter"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/iotest"

	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/internal/samplereuse"
	"github.com/google/go-cmp/cmp"
)

// The reader that reuses its block (samplereuse.ReadRecords, which
// agentcheck eval reads with) yields the records ReadRecords yields, each
// text as it is when yielded, on 50 generated inputs: lines from empty
// to a little longer than a block (64 KiB), LF, CRLF and CR line ends, blank
// lines, a byte order mark, reads of one byte at a time, and JSON arrays,
// which it reads as ReadRecords does; and each text stays as it was
// yielded until blockEnd is called. The 50 inputs cover the code the 150
// it had covered (go test -coverprofile, the same blocks of the package);
// FuzzReusingReaderReadsAsReadRecords draws more.
func TestReusingReaderReadsAsReadRecords(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	r := rand.New(rand.NewPCG(5, 6))
	// The 50 inputs are drawn first, then read in four parallel parts.
	var inputs [50]struct{ text, name string }
	var b bytes.Buffer // written over for each input; its text is a copy of its own size
	for i := range inputs {
		inputs[i].text, inputs[i].name = reuseInput(r, &b)
	}
	const parts = 4
	for p := range parts {
		t.Run(strconv.Itoa(p), func(t *testing.T) {
			t.Parallel()
			for i := p; i < len(inputs); i += parts {
				checkReusingReader(t, fmt.Sprintf("input %d", i), inputs[i].text, inputs[i].name, i%5 == 0)
			}
		})
	}
}

// FuzzReusingReaderReadsAsReadRecords is TestReusingReaderReadsAsReadRecords
// on the input a seed draws, read whole or a byte at a time.
func FuzzReusingReaderReadsAsReadRecords(f *testing.F) {
	f.Add(uint64(7), true)
	f.Add(uint64(8), false)
	f.Fuzz(func(t *testing.T, seed uint64, oneByte bool) {
		var b bytes.Buffer
		text, name := reuseInput(rand.New(rand.NewPCG(seed, 6)), &b)
		checkReusingReader(t, fmt.Sprintf("seed %d", seed), text, name, oneByte)
	})
}

// reusePads are each letter, as many times as the longest line holds it.
var reusePads = sync.OnceValue(func() (pads [26]string) {
	for k := range pads {
		pads[k] = strings.Repeat(string(rune('a'+k)), 80_000)
	}
	return pads
})

// reuseInput draws an input of TestReusingReaderReadsAsReadRecords and
// its file's name, written in b.
func reuseInput(r *rand.Rand, b *bytes.Buffer) (text, name string) {
	pads := reusePads()
	ends := []string{"\n", "\r\n", "\r"}
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
		return b.String(), "in.json"
	}
	return b.String(), "in.jsonl"
}

// checkReusingReader fails t unless the reusing reader yields from text
// (read a byte at a time if oneByte) what ReadRecords does, each text as
// it is when yielded and kept so until blockEnd is called.
func checkReusingReader(t *testing.T, what, text, name string, oneByte bool) {
	t.Helper()
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
	// ReadRecords yields the same whatever the sizes of the reads
	// (TestReadRecordsLineEndsAndBOM reads one byte at a time): one
	// whole read gives the records the reusing reader must yield.
	want := collect(dataset.ReadRecords(strings.NewReader(text), name), false)
	var in io.Reader = strings.NewReader(text)
	if oneByte {
		in = iotest.OneByteReader(in)
	}
	// cmp.Diff, slow, only to show how they differ.
	if got := collect(reusing(in, name, 64<<20, "", nil), true); !slices.Equal(want, got) {
		t.Fatalf("%s (%d bytes): the reusing reader differs from ReadRecords (-want +got):\n%s", what, len(text), cmp.Diff(want, got))
	}
	// With blockEnd, each text stays as it was yielded until
	// blockEnd is called (the CLI scores a batch before then,
	// its texts not copied).
	var held, copies []string
	check := func(when string) {
		for k := range held {
			if held[k] != copies[k] {
				t.Fatalf("%s: a record's text changed before %s: %.40q, yielded as %.40q", what, when, held[k], copies[k])
			}
		}
		held, copies = held[:0], copies[:0]
	}
	in = strings.NewReader(text)
	if oneByte {
		in = iotest.OneByteReader(in)
	}
	n := 0
	for rec := range reusing(in, name, 64<<20, "", func() { check("blockEnd") }) {
		held, copies = append(held, rec.Text), append(copies, strings.Clone(rec.Text))
		n++
	}
	check("the end")
	if n != len(want) {
		t.Fatalf("%s: %d records with blockEnd, %d without", what, n, len(want))
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
