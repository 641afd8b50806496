package judgment

import (
	"math"
	"strings"
	"testing"
)

func TestAggregate(t *testing.T) {
	for _, c := range []struct {
		name         string
		agg          Aggregation
		scores       []float64
		want         float64
		disagreement string // a substring; "" means none
	}{
		{"zero value is mean", Aggregation{}, []float64{1, 0, 0.5}, 0.5, ""},
		{"mean", Aggregation{Method: Mean}, []float64{0.25, 0.5}, 0.375, ""},
		{"min", Aggregation{Method: Min}, []float64{0.9, 0.3, 0.7}, 0.3, ""},
		{"majority passes", Aggregation{Method: Majority}, []float64{1, 1, 0}, 1, ""},
		{"majority fails", Aggregation{Method: Majority}, []float64{1, 0, 0}, 0, ""},
		{"majority tie fails", Aggregation{Method: Majority}, []float64{1, 0}, 0, ""},
		{"majority counts 0.5 as a pass vote", Aggregation{Method: Majority}, []float64{0.5, 0.49, 0.5}, 1, ""},
		{"unanimous all pass", Aggregation{Method: Unanimous}, []float64{1, 1, 1}, 1, ""},
		{"unanimous one fails", Aggregation{Method: Unanimous}, []float64{1, 1, 0}, 0, ""},
		// Topic adherence's perfect F1 is 0.99999999995, never 1.
		{"unanimous on near-one scores", Aggregation{Method: Unanimous}, []float64{0.99999999995, 0.79999999992}, 1, ""},
		{"consensus within", Aggregation{Method: Consensus, Tolerance: 0.2}, []float64{0.8, 0.6}, 0.7, ""},
		{"consensus exact agreement", Aggregation{Method: Consensus}, []float64{1, 1}, 1, ""},
		{"consensus beyond", Aggregation{Method: Consensus, Tolerance: 0.1}, []float64{1, 0}, 0, "spread 1, more than the tolerance 0.1, so the panel scores 0 (their mean is 0.5)"},
		{"consensus lists scores", Aggregation{Method: Consensus}, []float64{1, 0.75, 1}, 0, "[1, 0.75, 1]"},
		{"single score", Aggregation{Method: Consensus}, []float64{0.25}, 0.25, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, dis, err := Aggregate(c.agg, c.scores)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("score = %v, want %v", got, c.want)
			}
			if (c.disagreement == "") != (dis == "") || !strings.Contains(dis, c.disagreement) {
				t.Errorf("disagreement = %q, want one containing %q", dis, c.disagreement)
			}
		})
	}
}

func TestAggregateErrors(t *testing.T) {
	for _, c := range []struct {
		name   string
		agg    Aggregation
		scores []float64
		want   string
	}{
		{"no scores", Aggregation{}, nil, "no scores"},
		{"NaN", Aggregation{}, []float64{1, math.NaN()}, "score 2 of 2: NaN"},
		{"infinity", Aggregation{Method: Min}, []float64{math.Inf(-1)}, "score 1 of 1: -Inf"},
		{"negative tolerance", Aggregation{Method: Consensus, Tolerance: -0.1}, []float64{1}, "tolerance -0.1"},
		{"unknown method", Aggregation{Method: "median"}, []float64{1}, `unknown aggregation method "median"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			score, dis, err := Aggregate(c.agg, c.scores)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one containing %q", err, c.want)
			}
			if score != 0 || dis != "" {
				t.Errorf("an error must come with no score: %v %q", score, dis)
			}
		})
	}
}
