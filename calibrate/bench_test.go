package calibrate

import (
	"strconv"
	"testing"
)

// BenchmarkCompare compares 1000 labelled samples with the judge's
// verdicts: the statistics, the 2000 bootstrap resamples and the alphas.
func BenchmarkCompare(b *testing.B) {
	var labels []Label
	var judgments []Judgment
	for i := range 1000 {
		id := strconv.Itoa(i)
		labels = append(labels, Label{ID: id, Metric: "m", Score: b2f(i%3 != 0), Labeler: "a"}, Label{ID: id, Metric: "m", Score: b2f(i%5 != 0), Labeler: "b"})
		judgments = append(judgments, Judgment{ID: id, Key: "m", Run: 1, Score: b2f(i%4 != 0)})
	}
	b.ReportAllocs()
	for b.Loop() {
		if r := Compare(labels, judgments).Results[0]; r.N == 0 {
			b.Fatal("nothing compared")
		}
	}
}
