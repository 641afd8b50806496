package dataset_test

import (
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck/dataset"
)

// chunkReader returns its text in reads of random sizes, so that lines are
// split between reads at random places.
type chunkReader struct {
	text string
	rnd  *rand.Rand
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if r.text == "" {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), 1+r.rnd.IntN(100_000))], r.text)
	r.text = r.text[n:]
	return n, nil
}

// TestRecordsKeptAfterReading: readLines reads into blocks that its
// records share, so every record kept until the whole input is read must
// still hold its own line, for lines short and long (past the 64 KiB
// block), with every line end, read in reads of random sizes.
func TestRecordsKeptAfterReading(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests

	var pads [26]string // each letter, as many times as the longest line holds it
	for k := range pads {
		pads[k] = strings.Repeat(string(rune('a'+k)), 210_000)
	}
	for seed := range uint64(20) { // each seed in parallel
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			t.Parallel()
			rnd := rand.New(rand.NewPCG(seed, 1))
			// The lines' sizes and ends are drawn first, so that the text is
			// written into memory of its final size, and each line wanted is
			// the text's own bytes, not a copy (fresh memory is most of this
			// test's cost under -race).
			sizes, ends := make([]int, 2000), make([]string, 2000)
			total := 0
			for i := range sizes {
				n := rnd.IntN(400)
				if rnd.IntN(200) == 0 {
					n = 60_000 + rnd.IntN(150_000)
				}
				sizes[i], ends[i] = n, []string{"\n", "\r\n", "\r"}[rnd.IntN(3)]
				total += len(`{"n": 0000, "pad": ""}`) + n + len(ends[i])
			}
			var b strings.Builder
			b.Grow(total)
			spans := make([][2]int, len(sizes))
			for i, n := range sizes {
				spans[i][0] = b.Len()
				b.WriteString(`{"n": `)
				b.WriteString(strconv.Itoa(i))
				b.WriteString(`, "pad": "`)
				b.WriteString(pads[i%26][:n])
				b.WriteString(`"}`)
				spans[i][1] = b.Len()
				b.WriteString(ends[i])
			}
			text := b.String()
			want := make([]string, len(spans))
			for i, sp := range spans {
				want[i] = text[sp[0]:sp[1]]
			}
			var got []string
			for rec, err := range dataset.ReadRecords(&chunkReader{text, rnd}, "runs.jsonl") {
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				got = append(got, rec.Text)
			}
			if !slices.Equal(want, got) { // cmp.Diff, slow, only to show how they differ
				t.Fatalf("seed %d: records kept to the end (-want +got):\n%.2000s", seed, cmp.Diff(want, got))
			}
		})
	}
}
