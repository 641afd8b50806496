package main

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/agentcheck/agentcheck"
)

// A baseline is a run's scores, sample by sample, saved by --save-baseline
// and compared with by --baseline. It is JSON that diffs well: the samples
// by name (sampleName: the "id", else "line N"), sorted, one a line, each
// with its metrics sorted:
//
//	{
//	  "samples": {
//	    "booking-1": {"tool_call_accuracy": 1.0, "tool_call_f1": 1.0},
//	    "line 7": {"tool_call_accuracy": 0.5, "tool_call_f1": 0.6667}
//	  }
//	}

// maxBaselineBytes bounds the baseline file read.
const maxBaselineBytes = 256 << 20

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

// loadBaseline reads a baseline for the metrics of --metrics. Errors name
// the file and, inside it, the sample and metric.
func loadBaseline(path string, metrics []string) (*baseline, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxBaselineBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxBaselineBytes {
		return nil, fmt.Errorf("%s: larger than %d MiB, the most a baseline may be", path, maxBaselineBytes>>20)
	}
	v, err := agentcheck.ParseValue(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	samples, ok := v.Get("samples")
	if v.Kind() != agentcheck.ObjectKind || !ok || samples.Kind() != agentcheck.ObjectKind {
		return nil, fmt.Errorf(`%s: not a baseline: want {"samples": {"NAME": {"METRIC": SCORE, ...}, ...}}, as --save-baseline writes`, path)
	}
	b := &baseline{path: path, scores: make(map[string][]baseScore, samples.Len()), has: make([]bool, len(metrics))}
	for _, s := range samples.Members() {
		if s.Value.Kind() != agentcheck.ObjectKind {
			return nil, fmt.Errorf("%s: sample %q: want an object of scores by metric, got %s", path, s.Key, s.Value.Kind())
		}
		row := make([]baseScore, len(metrics))
		for _, m := range s.Value.Members() {
			if k := m.Value.Kind(); k != agentcheck.FloatKind && k != agentcheck.IntKind {
				return nil, fmt.Errorf("%s: sample %q: %s: want a number, got %s", path, s.Key, m.Key, k)
			}
			if j := slices.Index(metrics, m.Key); j >= 0 {
				row[j] = baseScore{x: m.Value.Float(), ok: true}
				b.has[j] = true
			}
		}
		b.scores[s.Key] = row
		b.names = append(b.names, s.Key)
	}
	slices.Sort(b.names)
	return b, nil
}

// compare notes, in b, how a scored sample fares against the baseline: new,
// or each metric whose score dropped by more than tolerance.
func (bl *baseline) compare(b *batch, name string, scores []float64, tolerance float64) {
	old, ok := bl.scores[name]
	if !ok {
		b.notes = append(b.notes, note{kind: noteNew, name: name})
		return
	}
	for j, x := range scores {
		if o := old[j]; o.ok && o.x-x > tolerance {
			b.notes = append(b.notes, note{kind: noteRegressed, index: j, name: name, score: x, old: o.x})
		}
	}
}

// saveBaseline writes the samples' scores to path, replacing the file
// whole: a run cut short leaves the old baseline as it was.
func saveBaseline(path string, metrics []string, samples []keyed) error {
	slices.SortFunc(samples, func(a, b keyed) int { return cmp.Compare(a.name, b.name) })
	order := make([]int, len(metrics)) // the metrics, sorted
	for j := range order {
		order[j] = j
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(metrics[a], metrics[b]) })
	keys := make([][]byte, len(metrics)) // "metric": in order
	for k, j := range order {
		if k > 0 {
			keys[k] = append(keys[k], ", "...)
		}
		keys[k] = append(appendJSONString(keys[k], metrics[j]), ": "...)
	}
	scores := make(map[float64]string) // a dataset's scores are a few fractions
	var buf bytes.Buffer
	buf.WriteString("{\n  \"samples\": {")
	for i, s := range samples {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString("\n    ")
		buf.Write(appendJSONString(buf.AvailableBuffer(), s.name))
		buf.WriteString(": {")
		for k, j := range order {
			buf.Write(keys[k])
			x := s.scores[j]
			p, ok := scores[x]
			if !ok {
				p = fullScore(x)
				if x == x && len(scores) < maxCachedFloats {
					scores[x] = p
				}
			}
			buf.WriteString(p)
		}
		buf.WriteByte('}')
	}
	if len(samples) > 0 {
		buf.WriteString("\n  ")
	}
	buf.WriteString("}\n}\n")

	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	err = tmp.Chmod(0o644) // a file to commit, as os.Create makes it
	if err == nil {
		_, err = tmp.Write(buf.Bytes())
	}
	err = errors.Join(err, tmp.Close())
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
