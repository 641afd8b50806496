package evalsuite

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentcheck/agentcheck"
)

// Baseline is a run's scores by case ID and metric name, as the agentcheck
// CLI saves them with --save-baseline and compares with --baseline:
//
//	{
//	  "samples": {
//	    "booking-1": {"tool_call_accuracy": 1.0, "tool_call_f1": 1.0},
//	    "refund-2": {"tool_call_accuracy": 0.5, "tool_call_f1": 0.6667}
//	  }
//	}
//
// The file diffs well: cases sorted, one a line, each with its metrics
// sorted, scores written in full (as Python writes floats), and a trailing
// newline. The CLI and a suite can read each other's baselines when the
// case IDs are the samples' "id"s.
type Baseline map[string]map[string]float64

// Regression is a score that fell below its baseline by more than the
// tolerance.
type Regression struct {
	Case, Metric    string
	Score, Baseline float64
}

// ReadBaseline reads a baseline file. A missing file is an error that
// errors.Is(err, fs.ErrNotExist); other errors name the file and, inside
// it, the case and metric.
func ReadBaseline(path string) (Baseline, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	b, err := ParseBaseline(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// ParseBaseline parses a baseline written as JSON (see Baseline).
func ParseBaseline(data []byte) (Baseline, error) {
	v, err := agentcheck.ParseValue(data)
	if err != nil {
		return nil, err
	}
	samples, ok := v.Get("samples")
	if v.Kind() != agentcheck.ObjectKind || !ok || samples.Kind() != agentcheck.ObjectKind {
		return nil, errors.New(`not a baseline: want {"samples": {"CASE": {"METRIC": SCORE, ...}, ...}}`)
	}
	b := make(Baseline, samples.Len())
	for _, s := range samples.Members() {
		if s.Value.Kind() != agentcheck.ObjectKind {
			return nil, fmt.Errorf("case %q: want an object of scores by metric, got %s", s.Key, s.Value.Kind())
		}
		scores := make(map[string]float64, s.Value.Len())
		for _, m := range s.Value.Members() {
			if k := m.Value.Kind(); k != agentcheck.FloatKind && k != agentcheck.IntKind {
				return nil, fmt.Errorf("case %q: %s: want a number, got %s", s.Key, m.Key, k)
			}
			scores[m.Key] = m.Value.Float()
		}
		b[s.Key] = scores
	}
	return b, nil
}

// Encode writes the baseline as the file holds it (see Baseline). Scores
// that are not finite numbers are left out: JSON has no way to write them.
func (b Baseline) Encode() []byte {
	var buf bytes.Buffer
	buf.WriteString("{\n  \"samples\": {")
	for i, id := range slices.Sorted(maps.Keys(b)) {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString("\n    ")
		buf.WriteString(agentcheck.StringOf(id).String())
		buf.WriteString(": {")
		first := true
		for _, m := range slices.Sorted(maps.Keys(b[id])) {
			x := b[id][m]
			if math.IsNaN(x) || math.IsInf(x, 0) {
				continue
			}
			if !first {
				buf.WriteString(", ")
			}
			first = false
			buf.WriteString(agentcheck.StringOf(m).String())
			buf.WriteString(": ")
			buf.WriteString(agentcheck.FloatOf(x).String())
		}
		buf.WriteByte('}')
	}
	if len(b) > 0 {
		buf.WriteString("\n  ")
	}
	buf.WriteString("}\n}\n")
	return buf.Bytes()
}

// WriteFile writes the baseline to path, creating its directory, and
// replaces the file whole: a write cut short leaves the old file as it was.
func (b Baseline) WriteFile(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	err = tmp.Chmod(0o644) // a file to commit, as os.Create makes it
	if err == nil {
		_, err = tmp.Write(b.Encode())
	}
	err = errors.Join(err, tmp.Close())
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing the baseline %s: %w", path, err)
	}
	return nil
}

// Compare returns the scores of b that fell below those of old by more
// than tolerance, the largest drop first. Cases and metrics that either
// side lacks are not compared.
func (b Baseline) Compare(old Baseline, tolerance float64) []Regression {
	var regs []Regression
	for id, scores := range b {
		for m, x := range scores {
			if o, ok := old[id][m]; ok && o-x > tolerance {
				regs = append(regs, Regression{Case: id, Metric: m, Score: x, Baseline: o})
			}
		}
	}
	slices.SortFunc(regs, func(a, b Regression) int {
		return cmp.Or(cmp.Compare(b.Baseline-b.Score, a.Baseline-a.Score), cmp.Compare(a.Case, b.Case), cmp.Compare(a.Metric, b.Metric))
	})
	return regs
}

// Baseline is the scores of the cases that ran, as a baseline: each case's
// score by each check (the mean over its runs).
func (r *Result) Baseline() Baseline {
	b := make(Baseline, len(r.Cases))
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
	old, err := ReadBaseline(path)
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
		cases[g.Case] = true
	}
	fmt.Fprintf(&b, "Expected no score to fall more than %s below the baseline %s, but %d did, in %d cases (%s=1 go test blesses the new scores):\n",
		fmtScore(r.tolerance), r.baselinePath, len(r.Regressions), len(cases), UpdateEnv)
	rows := make([][]string, 0, len(r.Regressions))
	for i, g := range r.Regressions {
		if i == maxTableCases {
			break
		}
		rows = append(rows, []string{g.Case, g.Metric, fmtScore(g.Score), fmtScore(g.Baseline), fmtScore(g.Score - g.Baseline)})
	}
	writeTable(&b, []string{"case", "metric", "score", "baseline", "change"}, rows)
	if more := len(r.Regressions) - maxTableCases; more > 0 {
		fmt.Fprintf(&b, "\n  ... and %d more", more)
	}
	return b.String()
}
