package calibrate

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReadLabels(t *testing.T) {
	in := `{"id": "a", "metric": "agent_goal_accuracy", "label": true, "rationale": "booked", "labeler": "ana"}

{"id": 7, "criterion": "look the order up", "label": 0.25}
{"id": "a", "metric": "agent_goal_accuracy", "label": false, "labeler": "bo"}
`
	got, err := ReadLabels(strings.NewReader(in), "labels.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want := []Label{
		{ID: "a", Metric: "agent_goal_accuracy", Score: 1, Rationale: "booked", Labeler: "ana", Line: 1},
		{ID: "7", Criterion: "look the order up", Score: 0.25, Numeric: true, Line: 3},
		{ID: "a", Metric: "agent_goal_accuracy", Score: 0, Labeler: "bo", Line: 4},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	if got[1].Key() != "criterion: look the order up" || got[1].Pass() || !got[0].Pass() {
		t.Errorf("Key/Pass: %q %v %v", got[1].Key(), got[1].Pass(), got[0].Pass())
	}
}

func TestReadLabelsErrorsNameTheLine(t *testing.T) {
	for in, want := range map[string]string{
		`{"id": "a", "metric": "m", "label": true, "extra": 1}`:       `labels.jsonl:1: not a label`,
		`{"id": "a", "metric": "m", "label": true`:                    `labels.jsonl:1: not a label`,
		`{"id": 1.5, "metric": "m", "label": true}`:                   `labels.jsonl:1: "id" 1.5 is neither a string nor an integer`,
		`{"id": "", "metric": "m", "label": true}`:                    `labels.jsonl:1: "id" "" is not a sample id`,
		`{"id": "a", "label": true}`:                                  `labels.jsonl:1: the label of "a" names no "metric" (or "criterion")`,
		`{"id": "a", "metric": "m", "criterion": "c", "label": true}`: `labels.jsonl:1: the label has both "metric" and "criterion"`,
		`{"id": "a", "metric": "m"}`:                                  `labels.jsonl:1: the label of "a" for m has no "label"`,
		`{"id": "a", "metric": "m", "label": -0.1}`:                   `labels.jsonl:1: the label of "a" for m is -0.1: want true, false or a score from 0 to 1`,
		"{\"id\": \"a\", \"metric\": \"m\", \"label\": true}\n\n{\"id\": \"a\", \"metric\": \"m\", \"label\": 1}": `labels.jsonl:3: sample "a" is labelled for m twice (first on line 1)`,
		`{"id": "a", "metric": "m", "label": "true"}`:                                                             `want true, false or a score`,
	} {
		_, err := ReadLabels(strings.NewReader(in), "labels.jsonl")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: Expected an error saying %q, but got %v", in, want, err)
		}
	}
	if _, err := ReadLabels(strings.NewReader(strings.Repeat("x", maxLabelLine+1)), "big.jsonl"); err == nil || !strings.Contains(err.Error(), "big.jsonl: a line is longer than") {
		t.Errorf("an overlong line: %v", err)
	}
}

// FuzzReadLabels: any input is labels or an error naming the file; a label
// read always has an id, exactly one of metric and criterion, and a score
// in [0, 1].
func FuzzReadLabels(f *testing.F) {
	f.Add(`{"id": "a", "metric": "m", "label": true}`)
	f.Add(`{"id": 3, "criterion": "c", "label": 0.5, "labeler": "x", "rationale": "y"}`)
	f.Add("{\"id\": \"a\", \"metric\": \"m\", \"label\": 1e400}")
	f.Fuzz(func(t *testing.T, in string) {
		ls, err := ReadLabels(strings.NewReader(in), "f.jsonl")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.jsonl") {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		for _, l := range ls {
			if l.ID == "" || (l.Metric == "") == (l.Criterion == "") || !(l.Score >= 0 && l.Score <= 1) || l.Line < 1 {
				t.Fatalf("a bad label read: %+v", l)
			}
		}
	})
}
