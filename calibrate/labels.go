package calibrate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
)

// Label is one person's verdict on one sample, for a metric or for one
// criterion of a rubric: a line of a labels file,
//
//	{"id": "booking-1", "metric": "agent_goal_accuracy", "label": true, "rationale": "…", "labeler": "ana"}
//
// "label" is true or false, or a score from 0 to 1 (an ordinal or interval
// grade: at least 0.5 passes); "criterion" takes the place of "metric" for a
// criterion of a rubric, named as metric.RubricCriteria gives it;
// "rationale" and "labeler" may be left out.
type Label struct {
	ID        string
	Metric    string // "" for a criterion
	Criterion string // "" for a metric
	Score     float64
	Numeric   bool // the label was a number, not true or false
	Rationale string
	Labeler   string
	// Line is the label's line in its file, for messages.
	Line int
}

// Pass is the label as a verdict: true, or a score of at least 0.5.
func (l Label) Pass() bool { return l.Score >= 0.5 }

// Key is what the label is about: the metric, or "criterion: TEXT".
func (l Label) Key() string {
	if l.Criterion != "" {
		return "criterion: " + l.Criterion
	}
	return l.Metric
}

// maxLabelLine bounds one line of a labels file.
const maxLabelLine = 1 << 20

// ReadLabels reads a labels file, JSON Lines, one Label a line (blank lines
// skipped). An error names the file and line; a (sample, metric or
// criterion, labeler) labelled twice is an error too, naming both lines.
func ReadLabels(r io.Reader, name string) ([]Label, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLabelLine)
	var out []Label
	seen := map[[3]string]int{}
	for line := 1; sc.Scan(); line++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		l, err := parseLabel(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		l.Line = line
		k := [3]string{l.ID, l.Key(), l.Labeler}
		if first, dup := seen[k]; dup {
			who := ""
			if l.Labeler != "" {
				who = " by " + l.Labeler
			}
			return nil, fmt.Errorf("%s:%d: sample %q is labelled for %s%s twice (first on line %d)", name, line, l.ID, l.Key(), who, first)
		}
		seen[k] = line
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			err = fmt.Errorf("a line is longer than %d bytes", maxLabelLine)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

func parseLabel(text []byte) (Label, error) {
	var raw struct {
		ID        json.RawMessage `json:"id"`
		Metric    *string         `json:"metric"`
		Criterion *string         `json:"criterion"`
		Label     json.RawMessage `json:"label"`
		Rationale string          `json:"rationale"`
		Labeler   string          `json:"labeler"`
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return Label{}, fmt.Errorf("not a label (want {\"id\", \"metric\" or \"criterion\", \"label\", \"rationale\", \"labeler\"}): %v", err)
	}
	var l Label
	switch id := string(raw.ID); {
	case id == "" || id == "null":
		return l, fmt.Errorf(`the label has no "id": give the "id" of the sample it labels`)
	case strings.HasPrefix(id, `"`):
		if err := json.Unmarshal(raw.ID, &l.ID); err != nil || l.ID == "" {
			return l, fmt.Errorf(`"id" %s is not a sample id`, id)
		}
	default:
		var n json.Number
		if err := json.Unmarshal(raw.ID, &n); err != nil || strings.ContainsAny(id, ".eE") {
			return l, fmt.Errorf(`"id" %s is neither a string nor an integer`, id)
		}
		l.ID = id
	}
	switch {
	case raw.Metric != nil && raw.Criterion != nil:
		return l, fmt.Errorf(`the label has both "metric" and "criterion": give one`)
	case raw.Metric != nil && strings.TrimSpace(*raw.Metric) != "":
		l.Metric = strings.TrimSpace(*raw.Metric)
	case raw.Criterion != nil && strings.TrimSpace(*raw.Criterion) != "":
		l.Criterion = strings.TrimSpace(*raw.Criterion)
	default:
		return l, fmt.Errorf(`the label of %q names no "metric" (or "criterion")`, l.ID)
	}
	switch v := strings.TrimSpace(string(raw.Label)); v {
	case "true":
		l.Score = 1
	case "false":
	case "", "null":
		return l, fmt.Errorf(`the label of %q for %s has no "label": want true, false or a score from 0 to 1`, l.ID, l.Key())
	default:
		var x float64
		if err := json.Unmarshal(raw.Label, &x); err != nil || math.IsNaN(x) || x < 0 || x > 1 {
			return l, fmt.Errorf(`the label of %q for %s is %s: want true, false or a score from 0 to 1`, l.ID, l.Key(), v)
		}
		l.Score, l.Numeric = x, true
	}
	l.Rationale, l.Labeler = raw.Rationale, raw.Labeler
	return l, nil
}
