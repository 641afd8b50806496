package evalsuite

import (
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// LoadCases reads a dataset file (JSON Lines, a JSON array or JSON objects
// one after another, as package dataset reads them) into recorded cases:
// each sample's "id" (a string or an integer) is its case ID, else
// "line N"; an optional "thresholds" object ({"tool_call_accuracy": 0.5})
// sets the case's own thresholds. It returns every case that loaded and,
// joined, an error for each sample that did not, naming the file, line and
// sample.
func LoadCases(path string) ([]Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var cases []Case
	var errs []error
	for rec, err := range dataset.ReadRecords(f, path) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		c, err := caseOf(rec)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		cases = append(cases, c)
	}
	return cases, errors.Join(errs...)
}

// caseOf makes a case of a dataset record.
func caseOf(rec dataset.Record) (Case, error) {
	s, err := rec.Sample()
	if err != nil {
		return Case{}, err
	}
	c := Case{ID: "line " + strconv.Itoa(rec.Line), Sample: s}
	v, err := jsonvalue.Parse([]byte(rec.Text))
	if err != nil {
		return Case{}, &dataset.LoadError{File: rec.File, Line: rec.Line, Sample: rec.Index, Err: err}
	}
	if id, ok := v.Get("id"); ok {
		if k := id.Kind(); k != jsonvalue.StringKind && k != jsonvalue.IntKind {
			return Case{}, &dataset.LoadError{File: rec.File, Line: rec.Line, Sample: rec.Index, Err: fmt.Errorf(`"id": want a string or an integer, got %s`, k)}
		}
		c.ID = id.Text()
	}
	if th, ok := v.Get("thresholds"); ok {
		if th.Kind() != jsonvalue.ObjectKind {
			return Case{}, &dataset.LoadError{File: rec.File, Line: rec.Line, Sample: rec.Index, Err: fmt.Errorf(`"thresholds": want an object of thresholds by metric, got %s`, th.Kind())}
		}
		c.Thresholds = make(map[string]float64, th.Len())
		for _, m := range th.Members() {
			if k := m.Value.Kind(); k != jsonvalue.FloatKind && k != jsonvalue.IntKind {
				return Case{}, &dataset.LoadError{File: rec.File, Line: rec.Line, Sample: rec.Index, Err: fmt.Errorf(`"thresholds": %s: want a number, got %s`, m.Key, k)}
			}
			c.Thresholds[m.Key] = m.Value.Float()
		}
	}
	return c, nil
}
