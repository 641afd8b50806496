package dataset_test

import (
	"io"
	"math/rand/v2"
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
			var want []string
			var text strings.Builder
			for i := range 2000 {
				n := rnd.IntN(400)
				if rnd.IntN(200) == 0 {
					n = 60_000 + rnd.IntN(150_000)
				}
				line := `{"n": ` + strconv.Itoa(i) + `, "pad": "` + pads[i%26][:n] + `"}`
				want = append(want, line)
				text.WriteString(line)
				text.WriteString([]string{"\n", "\r\n", "\r"}[rnd.IntN(3)])
			}
			var got []string
			for rec, err := range dataset.ReadRecords(&chunkReader{text.String(), rnd}, "runs.jsonl") {
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				got = append(got, rec.Text)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("seed %d: records kept to the end (-want +got):\n%.2000s", seed, diff)
			}
		})
	}
}
