package evalsuite

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/agentcheck/agentcheck/baseline"
)

// Baseline is the scores of the cases that ran, as a baseline: each case's
// score by each check (the mean over its runs).
func (r *Result) Baseline() baseline.Scores {
	b := make(baseline.Scores, len(r.Cases))
	for _, c := range r.Cases {
		scores := make(map[string]float64, len(r.Metrics))
		for j, m := range r.Metrics {
			scores[m] = c.Score(j)
		}
		b[c.ID] = scores
	}
	return b
}

// baseline compares the result with the baseline file, or writes it. A
// case that did not run (go test -run) keeps its old scores when the file
// is written; a case no longer in the suite loses them.
func (r *Result) baseline(update bool) error {
	path := r.baselinePath
	cur := r.Baseline()
	old, err := baseline.Read(path)
	if update {
		if err != nil && !errors.Is(err, fs.ErrNotExist) && len(r.Cases) < len(r.ids) {
			return fmt.Errorf("cannot keep the scores of the cases that did not run: %w", err)
		}
		for _, id := range r.ids {
			if _, ran := cur[id]; !ran && old[id] != nil {
				cur[id] = old[id]
			}
		}
		if err := cur.WriteFile(path); err != nil {
			return err
		}
		r.BaselineWritten = true
		return nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("Expected a baseline at %s, but there is none: run the test with %s=1 to write it", path, UpdateEnv)
	}
	if err != nil {
		return err
	}
	r.Regressions = cur.Compare(old, r.tolerance)
	for _, c := range r.Cases {
		if _, ok := old[c.ID]; !ok {
			r.NewCases = append(r.NewCases, c.ID)
		}
	}
	return nil
}

// regressionReport is the failure of the baseline comparison, with the
// table of the scores that fell.
func (r *Result) regressionReport() string {
	var b strings.Builder
	cases := map[string]bool{}
	for _, g := range r.Regressions {
		cases[g.Sample] = true
	}
	fmt.Fprintf(&b, "Expected no score to fall more than %s below the baseline %s, but %d did, in %s (%s=1 go test blesses the new scores):\n",
		fmtScore(r.tolerance), r.baselinePath, len(r.Regressions), count(len(cases), "case"), UpdateEnv)
	rows := make([][]string, 0, len(r.Regressions))
	for i, g := range r.Regressions {
		if i == maxTableCases {
			break
		}
		rows = append(rows, []string{g.Sample, g.Metric, fmtScore(g.Score), fmtScore(g.Baseline), fmtScore(g.Score - g.Baseline)})
	}
	writeTable(&b, []string{"case", "metric", "score", "baseline", "change"}, rows)
	if more := len(r.Regressions) - maxTableCases; more > 0 {
		fmt.Fprintf(&b, "\n  ... and %d more", more)
	}
	return b.String()
}
