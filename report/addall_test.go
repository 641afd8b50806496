package report

import (
	"math"
	"math/rand/v2"
	"reflect"
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
		// cmp.Diff only to show a difference: on every list it was most of
		// the test's time under -race.
		if !sameFields(reflect.ValueOf(want), reflect.ValueOf(got)) {
			t.Fatalf("AddAll(%v) differs from Add one at a time (-Add +AddAll):\n%s", xs, cmp.Diff(want, got, cmp.AllowUnexported(MetricSummary{}), cmp.Comparer(sameFloat)))
		}
	}
}

// sameFields reports whether a and b hold the same values in every field,
// exported or not, floats to the same bits (sameFloat): what cmp.Equal
// with AllowUnexported and sameFloat as the floats' comparer reports for
// a MetricSummary, a field added to it included. A kind it does not know
// panics, to be taught.
func sameFields(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Struct:
		for i := range a.NumField() {
			if !sameFields(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Array:
		for i := range a.Len() {
			if !sameFields(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Float64:
		return sameFloat(a.Float(), b.Float())
	case reflect.Int:
		return a.Int() == b.Int()
	case reflect.String:
		return a.String() == b.String()
	}
	panic("sameFields: a field of kind " + a.Kind().String())
}

// sameFloat holds two floats to the same bits, NaN to NaN.
func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b
}
