package report

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// AddAll is Add one score at a time, to the bit: every field, the sums
// Merge reads included, over 2,000 random lists of scores (NaN, scores
// outside [0, 1], the thresholds' edges) added to summaries that already
// hold some; a list of NaN only leaves a summary as it is, as Add does.
func TestAddAllIsAddOneAtATime(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	draws := []float64{0, 1, 0.5, 1.0 / 3, 2.0 / 3, perfect, 1 - 1e-10, 0.1, 0.9999, -0.5, 1.5, math.NaN()}
	for n := range 2000 {
		var want, got MetricSummary
		want.Threshold = []float64{1, 0.5, 0}[n%3]
		got.Threshold = want.Threshold
		if n%2 == 1 {
			for range r.IntN(5) {
				x := r.Float64()
				want.Add(x)
				got.Add(x)
			}
		}
		xs := make([]float64, r.IntN(70))
		for i := range xs {
			xs[i] = r.Float64()
			if r.IntN(2) == 0 {
				xs[i] = draws[r.IntN(len(draws))]
			}
		}
		for _, x := range xs {
			want.Add(x)
		}
		got.AddAll(xs)
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(MetricSummary{}), cmp.Comparer(sameFloat)); diff != "" {
			t.Fatalf("AddAll(%v) differs from Add one at a time (-Add +AddAll):\n%s", xs, diff)
		}
	}
}

// sameFloat holds two floats to the same bits, NaN to NaN.
func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b
}
