package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"time"
)

// maxRunJSON bounds the size of a run ReadJSON reads.
const maxRunJSON = 4 << 30

// ReadJSON reads a Run written in Format JSON. name names the input in
// errors, which say where in it (line, and the sample or field) the
// trouble is. A metric's score of null reads as NaN.
func ReadJSON(r io.Reader, name string) (*Run, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxRunJSON+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > maxRunJSON {
		return nil, fmt.Errorf("%s: larger than %d GiB", name, maxRunJSON>>30)
	}
	at := func(off int64) string {
		return fmt.Sprintf("%s:%d", name, 1+bytes.Count(data[:min(int(off), len(data))], []byte("\n")))
	}
	var doc struct {
		Samples []json.RawMessage `json:"samples"`
		Summary *jsonSummary      `json:"summary"`
		Run     *jsonRun          `json:"run"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return nil, fmt.Errorf("%s: not JSON: %v", at(se.Offset), se)
		case errors.As(err, &te):
			return nil, fmt.Errorf("%s: %s", at(te.Offset), typeProblem(te))
		case errors.Is(err, io.ErrUnexpectedEOF):
			return nil, fmt.Errorf("%s: cut short: the run's JSON ends there, after %d bytes, before it is complete (a run whose writing stopped): write it again", at(int64(len(data))), len(data))
		case errors.Is(err, io.EOF):
			return nil, fmt.Errorf("%s: empty: not a run written by --format json", name)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if doc.Summary == nil || doc.Run == nil {
		return nil, fmt.Errorf("%s: not a run written by --format json: it has no \"summary\" or no \"run\"", name)
	}
	run := &Run{
		Title: doc.Run.Title, Inputs: doc.Run.Inputs, Commit: doc.Run.Commit,
		Judges: doc.Run.Judges, PromptVersions: doc.Run.PromptVersions, CassetteMode: doc.Run.CassetteMode,
		Shard:   doc.Run.Shard,
		Samples: doc.Summary.Samples, Errors: doc.Summary.Errors, Failed: doc.Summary.Failed, Unread: doc.Summary.Unread,
		Pass: doc.Summary.Pass, Problems: doc.Summary.Problems,
	}
	if doc.Run.Started != "" {
		if run.Started, err = time.Parse(time.RFC3339Nano, doc.Run.Started); err != nil {
			return nil, fmt.Errorf("%s: run.started: %v", name, err)
		}
	}
	if doc.Run.Duration != "" {
		if run.Duration, err = time.ParseDuration(doc.Run.Duration); err != nil {
			return nil, fmt.Errorf("%s: run.duration: %v", name, err)
		}
	}
	for i, m := range doc.Run.Metrics {
		if m.Name == "" {
			return nil, fmt.Errorf("%s: run.metrics[%d]: no name", name, i)
		}
		s := MetricSummary{Name: m.Name, N: m.N, Mean: m.Mean.f(), SD: m.SD.f(), Threshold: m.Threshold.f(), PassRate: m.PassRate.f(), Histogram: m.Histogram}
		run.Metrics = append(run.Metrics, s)
	}
	for i, g := range doc.Summary.Gates {
		value := g.Value
		if g.Kind == gateMean {
			value = g.Mean
		}
		cases := g.Cases
		if g.Kind == gateSample {
			cases = g.SamplesBelow
		}
		if g.Kind == "" || g.Name == "" {
			return nil, fmt.Errorf("%s: summary.gates[%d]: no name or kind", name, i)
		}
		run.Gates = append(run.Gates, Gate{Name: g.Name, Metric: g.Metric, Flag: g.Flag, Kind: g.Kind, Threshold: g.Threshold.f(),
			Value: value.f(), Below: g.Below, Cases: cases, Pass: g.Pass, Detail: g.Detail})
	}
	if b := doc.Summary.Baseline; b != nil {
		run.Baseline = &Comparison{File: b.File, Tolerance: b.Tolerance.f(), Regressions: b.Regressions, NewlyFailing: b.Regressed,
			Improvements: b.Improvements, NewlyPassing: b.Improved, New: b.New, Missing: b.Missing,
			NewCases: b.NewSamples, MissingCases: b.MissingSamples, Unknown: b.UnknownMetrics, Pass: b.Pass}
	}
	for i, raw := range doc.Samples {
		c, err := readCase(raw, run.Metrics)
		if err != nil {
			off := bytes.Index(data, raw) // the first sample so written: the line is right for all but a repeat
			return nil, fmt.Errorf("%s: samples[%d]: %v", at(int64(off)), i, err)
		}
		run.Cases = append(run.Cases, c)
	}
	return run, nil
}

// number is a JSON number or null (NaN).
type number struct {
	x   float64
	set bool
}

func (n *number) UnmarshalJSON(p []byte) error {
	if string(p) == "null" {
		*n = number{}
		return nil
	}
	n.set = true
	return json.Unmarshal(p, &n.x)
}

func (n number) f() float64 {
	if !n.set {
		return math.NaN()
	}
	return n.x
}

type jsonSummary struct {
	Samples  int  `json:"samples"`
	Errors   int  `json:"errors"`
	Failed   int  `json:"failed"`
	Unread   int  `json:"unread"`
	Pass     bool `json:"pass"`
	Problems []string
	Gates    []struct {
		Flag         string   `json:"flag"`
		Name         string   `json:"name"`
		Kind         string   `json:"kind"`
		Metric       string   `json:"metric"`
		Threshold    number   `json:"threshold"`
		Mean         number   `json:"mean"`
		Value        number   `json:"value"`
		Below        int      `json:"below"`
		SamplesBelow []string `json:"samples_below"`
		Cases        []string `json:"cases"`
		Detail       string   `json:"detail"`
		Pass         bool     `json:"pass"`
	} `json:"gates"`
	Baseline *struct {
		File           string   `json:"file"`
		Tolerance      number   `json:"tolerance"`
		Regressions    []Delta  `json:"regressions"`
		Improvements   []Delta  `json:"improvements"`
		Regressed      int      `json:"regressed"`
		Improved       int      `json:"improved"`
		New            int      `json:"new"`
		Missing        int      `json:"missing"`
		NewSamples     []string `json:"new_samples"`
		MissingSamples []string `json:"missing_samples"`
		UnknownMetrics []string `json:"unknown_metrics"`
		Pass           bool     `json:"pass"`
	} `json:"baseline"`
}

type jsonRun struct {
	Title          string   `json:"title"`
	Inputs         []string `json:"inputs"`
	Started        string   `json:"started"`
	Duration       string   `json:"duration"`
	Commit         string   `json:"commit"`
	Judges         []string `json:"judges"`
	PromptVersions []string `json:"prompt_versions"`
	CassetteMode   string   `json:"cassette_mode"`
	Shard          *Shard   `json:"shard"`
	Metrics        []struct {
		Name      string  `json:"name"`
		N         int     `json:"n"`
		Mean      number  `json:"mean"`
		SD        number  `json:"sd"`
		Threshold number  `json:"threshold"`
		PassRate  number  `json:"pass_rate"`
		Histogram [10]int `json:"histogram"`
	} `json:"metrics"`
}

// jsonCase is a case's fields beside its scores.
type jsonCase struct {
	ID         string            `json:"id"`
	File       string            `json:"file"`
	Line       int               `json:"line"`
	Index      int               `json:"index"`
	Status     Status            `json:"status"`
	Error      string            `json:"error"`
	Reasons    map[string]string `json:"reasons"`
	Failures   []string          `json:"failures"`
	Request    string            `json:"request"`
	Report     string            `json:"report"`
	Verdicts   []Verdict         `json:"verdicts"`
	Transcript []Message         `json:"transcript"`
	Runs       []json.RawMessage `json:"runs"`
}

func readCase(raw json.RawMessage, metrics []MetricSummary) (Case, error) {
	var jc jsonCase
	if err := json.Unmarshal(raw, &jc); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return Case{}, errors.New(typeProblem(te))
		}
		return Case{}, err
	}
	c := Case{ID: jc.ID, File: jc.File, Line: jc.Line, Index: jc.Index, Status: jc.Status, Error: jc.Error,
		Failures: jc.Failures, Request: jc.Request, Report: jc.Report, Verdicts: jc.Verdicts, Transcript: jc.Transcript}
	switch c.Status {
	case "", Pass, Fail, Error, Flaky:
	default:
		return Case{}, fmt.Errorf("status: %q is none of pass, fail, error, flaky", c.Status)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return Case{}, err
	}
	if c.Error == "" {
		c.Scores = make([]float64, len(metrics))
		for j, m := range metrics {
			p, ok := fields[m.Name]
			if !ok {
				return Case{}, fmt.Errorf("no score of %s", m.Name)
			}
			var n number
			if err := json.Unmarshal(p, &n); err != nil {
				return Case{}, fmt.Errorf("%s: want a number or null, got %s", m.Name, p)
			}
			c.Scores[j] = n.f()
		}
	}
	if len(jc.Reasons) > 0 {
		c.Reasons = make([]string, len(metrics))
		seen := 0
		for j, m := range metrics {
			if r, ok := jc.Reasons[m.Name]; ok {
				c.Reasons[j] = r
				seen++
			}
		}
		if seen < len(jc.Reasons) {
			for k := range jc.Reasons {
				if !hasMetric(metrics, k) {
					return Case{}, fmt.Errorf("reasons: %s is not a metric of the run", k)
				}
			}
		}
	}
	for i, r := range jc.Runs {
		rc, err := readCase(r, metrics)
		if err != nil {
			return Case{}, fmt.Errorf("runs[%d]: %v", i, err)
		}
		c.Runs = append(c.Runs, rc)
	}
	return c, nil
}

func hasMetric(metrics []MetricSummary, name string) bool {
	for _, m := range metrics {
		if m.Name == name {
			return true
		}
	}
	return false
}

// typeProblem says, in JSON's words, which field held a value of the wrong
// type: "samples: want an array, got a number".
func typeProblem(te *json.UnmarshalTypeError) string {
	field := te.Field
	if field == "" {
		field = "the document"
	}
	return fmt.Sprintf("%s: want %s, got %s", field, jsonKind(te.Type), article(te.Value))
}

// jsonKind names the JSON value a Go type reads: an object, an array, a
// string, a number or true or false.
func jsonKind(t reflect.Type) string {
	if t == reflect.TypeFor[number]() {
		return "a number"
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "a number"
}

// article puts "a" or "an" before the kind encoding/json names (array,
// object, number, string, bool).
func article(kind string) string {
	switch kind {
	case "array", "object":
		return "an " + kind
	case "bool":
		return "true or false"
	}
	return "a " + kind
}
