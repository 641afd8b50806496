package report

import (
	"bytes"
	"fmt"
	"testing"
)

// writes records the size of each write it is given.
type writes struct {
	sizes []int
	all   bytes.Buffer
}

func (w *writes) Write(p []byte) (int, error) {
	w.sizes = append(w.sizes, len(p))
	return w.all.Write(p)
}

// A Writer to a file or pipe hands its cases on in writes larger than its
// 64 KiB buffer, which pass through the bufio.Writer uncopied, but for
// the last: in jsonl, in json (whose head waits with the first cases), and
// in the table once it has started; and the bytes are those written to
// memory, whose Writer flushes as it goes.
func TestCasesPassThroughInLargeWrites(t *testing.T) {
	r := &Run{Metrics: []MetricSummary{{Name: "tool_call_accuracy"}, {Name: "tool_call_f1"}}}
	for i := range 3000 {
		r.Cases = append(r.Cases, Case{ID: fmt.Sprintf("case-%d", i), Line: i + 1, Index: i, Status: Pass,
			Scores: []float64{1, 0.5}, Reasons: []string{"", "1 of 2 distinct calls made were expected"}})
	}
	for _, f := range []Format{JSONL, JSON, Table} {
		var w writes
		if err := Write(&w, r, f); err != nil {
			t.Fatal(err)
		}
		var mem bytes.Buffer
		if err := Write(&mem, r, f); err != nil {
			t.Fatal(err)
		}
		if w.all.String() != mem.String() {
			t.Errorf("%s: the bytes written to a file are not those written to memory", f)
		}
		if len(w.sizes) < 3 {
			t.Fatalf("%s: %d writes of %d bytes: too few to tell", f, len(w.sizes), w.all.Len())
		}
		for i, n := range w.sizes[:len(w.sizes)-2] {
			if n <= 64<<10 {
				t.Errorf("%s: write %d of %d is %d bytes, want more than 64 KiB (sizes %v)", f, i, len(w.sizes), n, w.sizes)
				break
			}
		}
	}
}
