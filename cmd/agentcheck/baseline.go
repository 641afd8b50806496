package main

import (
	"slices"

	base "github.com/agentcheck/agentcheck/baseline"
)

// baseline is a baseline file (package baseline: a run's scores, sample by
// sample, saved by --save-baseline, the samples named by sampleName: the
// "id", else "line N") indexed for comparing a run with it, metric by
// metric of --metrics.
type baseline struct {
	path   string
	names  []string // the samples, sorted
	scores map[string][]baseScore
	has    []bool // per metric of --metrics: whether any sample has a score of it
}

// baseScore is a metric's score in the baseline, if it has one.
type baseScore struct {
	x  float64
	ok bool
}

// loadBaseline reads a baseline (package baseline) for the metrics of
// --metrics. Errors name the file and, inside it, the sample and metric.
func loadBaseline(path string, metrics []string) (*baseline, error) {
	saved, err := base.Read(path)
	if err != nil {
		return nil, err
	}
	b := &baseline{path: path, scores: make(map[string][]baseScore, len(saved)), has: make([]bool, len(metrics))}
	for name, scores := range saved {
		row := make([]baseScore, len(metrics))
		for j, m := range metrics {
			if x, ok := scores[m]; ok {
				row[j] = baseScore{x: x, ok: true}
				b.has[j] = true
			}
		}
		b.scores[name] = row
		b.names = append(b.names, name)
	}
	slices.Sort(b.names)
	return b, nil
}

// compare notes, in b, how a scored sample fares against the baseline: new,
// or each metric whose score dropped, or rose, by more than tolerance.
func (bl *baseline) compare(b *batch, name string, scores []float64, tolerance float64) {
	old, ok := bl.scores[name]
	if !ok {
		b.notes = append(b.notes, note{kind: noteNew, name: name})
		return
	}
	for j, x := range scores {
		if o := old[j]; o.ok && o.x-x > tolerance {
			b.notes = append(b.notes, note{kind: noteRegressed, index: j, name: name, score: x, old: o.x})
		} else if o.ok && x-o.x > tolerance {
			b.notes = append(b.notes, note{kind: noteImproved, index: j, name: name, score: x, old: o.x})
		}
	}
}

// saveBaseline writes the samples' scores to path (package baseline),
// replacing the file whole: a run cut short leaves the old baseline as it
// was.
func saveBaseline(path string, metrics []string, samples []keyed) error {
	saved := make(base.Scores, len(samples))
	for _, s := range samples {
		scores := make(map[string]float64, len(metrics))
		for j, m := range metrics {
			scores[m] = s.scores[j]
		}
		saved[s.name] = scores
	}
	return saved.WriteFile(path)
}
