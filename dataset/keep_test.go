package dataset_test

import (
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck/dataset"
)

// chunkReader returns its text, its pieces one after another, in reads of
// random sizes, so that lines are split between reads at random places.
type chunkReader struct {
	pieces []string
	rnd    *rand.Rand
}

func (r *chunkReader) Read(p []byte) (int, error) {
	for len(r.pieces) > 0 && r.pieces[0] == "" {
		r.pieces = r.pieces[1:]
	}
	if len(r.pieces) == 0 {
		return 0, io.EOF
	}
	p = p[:min(len(p), 1+r.rnd.IntN(100_000))]
	n := 0
	for n < len(p) && len(r.pieces) > 0 {
		k := copy(p[n:], r.pieces[0])
		n += k
		if r.pieces[0] = r.pieces[0][k:]; r.pieces[0] == "" {
			r.pieces = r.pieces[1:]
		}
	}
	return n, nil
}

// TestRecordsKeptAfterReading: readLines reads into blocks that its
// records share, so every record kept until the whole input is read must
// still hold its own line, for lines short and long (past the 64 KiB
// block), with every line end, read in reads of random sizes. The 6 seeds
// cover the code the 20 it had covered (go test -coverprofile, the same
// blocks of the package); FuzzRecordsKeptAfterReading draws more.
func TestRecordsKeptAfterReading(t *testing.T) {
	t.Parallel()                  // slow: it overlaps the package's other slow tests
	for seed := range uint64(6) { // each seed in parallel
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			t.Parallel()
			checkRecordsKept(t, seed)
		})
	}
}

// FuzzRecordsKeptAfterReading is TestRecordsKeptAfterReading on the input
// a seed draws.
func FuzzRecordsKeptAfterReading(f *testing.F) {
	f.Add(uint64(20))
	f.Fuzz(checkRecordsKept)
}

// keptPads are each letter, as many times as the longest line holds it.
var keptPads = sync.OnceValue(func() (pads [26]string) {
	for k := range pads {
		pads[k] = strings.Repeat(string(rune('a'+k)), 210_000)
	}
	return pads
})

// checkRecordsKept reads 2,000 lines seed draws, in reads of sizes it
// draws, and fails t unless every record kept to the end holds its line.
func checkRecordsKept(t *testing.T, seed uint64) {
	pads := keptPads()
	rnd := rand.New(rand.NewPCG(seed, 1))
	// The input is read from its pieces (each line's start, pad,
	// end and line end), not written out, and each record is checked
	// against the pieces: fresh memory is most of this test's cost
	// under -race.
	heads, sizes := make([]string, 2000), make([]int, 2000)
	var pieces []string
	for i := range sizes {
		n := rnd.IntN(400)
		if rnd.IntN(200) == 0 {
			n = 60_000 + rnd.IntN(150_000)
		}
		heads[i], sizes[i] = `{"n": `+strconv.Itoa(i)+`, "pad": "`, n
		pieces = append(pieces, heads[i], pads[i%26][:n], `"}`, []string{"\n", "\r\n", "\r"}[rnd.IntN(3)])
	}
	var got []string
	for rec, err := range dataset.ReadRecords(&chunkReader{pieces, rnd}, "runs.jsonl") {
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		got = append(got, rec.Text)
	}
	same := len(got) == len(sizes)
	for i := 0; same && i < len(got); i++ {
		g, head, pad := got[i], heads[i], pads[i%26][:sizes[i]]
		same = len(g) == len(head)+len(pad)+2 && strings.HasPrefix(g, head) && g[len(head):len(g)-2] == pad && strings.HasSuffix(g, `"}`)
	}
	if !same { // the lines written out, and cmp.Diff, only to show how they differ
		want := make([]string, len(sizes))
		for i := range want {
			want[i] = heads[i] + pads[i%26][:sizes[i]] + `"}`
		}
		t.Fatalf("seed %d: records kept to the end (-want +got):\n%.2000s", seed, cmp.Diff(want, got))
	}
}
