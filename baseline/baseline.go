// Package baseline is the file of a run's scores, sample by sample, that
// the agentcheck CLI writes with --save-baseline and compares with
// --baseline, and that evalsuite writes and compares in go test: one
// format, read, written and compared here for both. The file diffs well:
// samples sorted, one a line, each with its metrics sorted, scores written
// in full (as Python writes floats), and a trailing newline:
//
//	{
//	  "samples": {
//	    "booking-1": {"tool_call_accuracy": 1.0, "tool_call_f1": 1.0},
//	    "line 7": {"tool_call_accuracy": 0.5, "tool_call_f1": 0.6666666666666666}
//	  }
//	}
package baseline

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/agentcheck/agentcheck/internal/filemode"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// MaxBytes bounds the baseline file Read reads.
const MaxBytes = 256 << 20

// Scores are a run's scores by sample name (a case's ID, a sample's "id",
// or "line N") and metric name.
type Scores map[string]map[string]float64

// Regression is a score that fell below its baseline by more than the
// tolerance.
type Regression struct {
	Sample, Metric  string
	Score, Baseline float64
}

// Read reads a baseline file, at most MaxBytes. A missing file is an error
// that errors.Is(err, fs.ErrNotExist); other errors name the file and,
// inside it, the sample and metric.
func Read(path string) (Scores, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("%s: larger than %d MiB, the most a baseline may be", path, MaxBytes>>20)
	}
	s, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Parse parses a baseline written as JSON.
func Parse(data []byte) (Scores, error) {
	v, err := jsonvalue.Parse(data)
	if err != nil {
		return nil, err
	}
	samples, ok := v.Get("samples")
	if v.Kind() != jsonvalue.ObjectKind || !ok || samples.Kind() != jsonvalue.ObjectKind {
		return nil, errors.New(`not a baseline: want {"samples": {"NAME": {"METRIC": SCORE, ...}, ...}}, as --save-baseline writes`)
	}
	s := make(Scores, samples.Len())
	for _, sm := range samples.Members() {
		if sm.Value.Kind() != jsonvalue.ObjectKind {
			return nil, fmt.Errorf("sample %q: want an object of scores by metric, got %s", sm.Key, sm.Value.Kind())
		}
		scores := make(map[string]float64, sm.Value.Len())
		for _, m := range sm.Value.Members() {
			if k := m.Value.Kind(); k != jsonvalue.FloatKind && k != jsonvalue.IntKind {
				return nil, fmt.Errorf("sample %q: %s: want a number, got %s", sm.Key, m.Key, k)
			}
			scores[m.Key] = m.Value.Float()
		}
		s[sm.Key] = scores
	}
	return s, nil
}

// Encode writes the scores as the file holds them. Scores that are not
// finite numbers are left out: JSON has no way to write them.
func (s Scores) Encode() []byte {
	var buf bytes.Buffer
	buf.WriteString("{\n  \"samples\": {")
	for i, name := range slices.Sorted(maps.Keys(s)) {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString("\n    ")
		buf.WriteString(jsonvalue.String(name).String())
		buf.WriteString(": {")
		first := true
		for _, m := range slices.Sorted(maps.Keys(s[name])) {
			x := s[name][m]
			if math.IsNaN(x) || math.IsInf(x, 0) {
				continue
			}
			if !first {
				buf.WriteString(", ")
			}
			first = false
			buf.WriteString(jsonvalue.String(m).String())
			buf.WriteString(": ")
			buf.WriteString(jsonvalue.Float(x).String())
		}
		buf.WriteByte('}')
	}
	if len(s) > 0 {
		buf.WriteString("\n  ")
	}
	buf.WriteString("}\n}\n")
	return buf.Bytes()
}

// WriteFile writes the scores to path, creating its directory, and
// replaces the file whole: a write cut short leaves the old file as it was.
func (s Scores) WriteFile(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	err = tmp.Chmod(filemode.Of(path)) // the old file's mode, 0644 for a new one
	if err == nil {
		_, err = tmp.Write(s.Encode())
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

// Compare returns the scores of s that fell below those of old by more
// than tolerance, the largest drop first. Samples and metrics that either
// side lacks are not compared.
func (s Scores) Compare(old Scores, tolerance float64) []Regression {
	var regs []Regression
	for name, scores := range s {
		for m, x := range scores {
			if o, ok := old[name][m]; ok && o-x > tolerance {
				regs = append(regs, Regression{Sample: name, Metric: m, Score: x, Baseline: o})
			}
		}
	}
	slices.SortFunc(regs, func(a, b Regression) int {
		return cmp.Or(cmp.Compare(b.Baseline-b.Score, a.Baseline-a.Score), cmp.Compare(a.Sample, b.Sample), cmp.Compare(a.Metric, b.Metric))
	})
	return regs
}
