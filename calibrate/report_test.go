package calibrate

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func label(id string, pass bool, labeler, why string) Label {
	return Label{ID: id, Metric: "m", Score: b2f(pass), Labeler: labeler, Rationale: why}
}

func judged(id string, run int, score float64, reason string) Judgment {
	return Judgment{ID: id, Key: "m", Run: run, Score: score, Reason: reason}
}

func TestCompare(t *testing.T) {
	labels := []Label{
		label("s1", true, "ana", ""), label("s1", true, "bo", ""),
		label("s2", false, "ana", "wrong day"), label("s2", false, "bo", ""), label("s2", true, "cy", "close enough"),
		label("s3", true, "ana", ""), label("s3", false, "bo", ""), // a tie
		label("s4", false, "ana", "no booking"),
		label("s5", true, "ana", ""),    // the judge failed on it
		label("ghost", true, "ana", ""), // no such sample
	}
	judgments := []Judgment{
		judged("s1", 1, 1, "ok"), judged("s2", 1, 1, "booked"), judged("s3", 1, 0, "no"), judged("s4", 1, 0, "nothing booked"),
		{ID: "s5", Key: "m", Run: 1, Err: errors.New("replay miss")},
		judged("s6", 1, 1, "unlabelled"),
	}
	rep := Compare(labels, judgments)
	if len(rep.Results) != 1 {
		t.Fatalf("results %+v", rep.Results)
	}
	r := rep.Results[0]
	// Compared: s1 (TP), s2 (majority fail, judge pass: FP), s4 (TN).
	if r.Confusion != (Confusion{TP: 1, FP: 1, TN: 1}) || r.N != 3 || r.Labelers != 3 {
		t.Errorf("confusion %+v, n %d, labelers %d", r.Confusion, r.N, r.Labelers)
	}
	if !cmp.Equal(r.Tied, []string{"s3"}) || !cmp.Equal(r.Unjudged, []string{"ghost", "s5"}) || !cmp.Equal(rep.LabelsWithoutSample, []string{"ghost"}) {
		t.Errorf("tied %v, unjudged %v, without sample %v", r.Tied, r.Unjudged, rep.LabelsWithoutSample)
	}
	want := []Disagreement{{ID: "s2", Human: false, Judge: true, JudgeScore: 1, Reason: "booked",
		Rationales: []string{"ana (fail): wrong day", "cy (pass): close enough"}}}
	if diff := cmp.Diff(want, r.Disagreements); diff != "" {
		t.Errorf("disagreements (-want +got):\n%s", diff)
	}
	if r.Consistency != nil || !math.IsNaN(r.FleissKappa) {
		t.Errorf("one run, one judge: consistency %+v, fleiss %v", r.Consistency, r.FleissKappa)
	}
	// The labelers' alpha over the units they share (s3 included): the
	// same as Alpha on those units.
	units := [][]float64{{1, 1, math.NaN()}, {0, 0, 1}, {1, 0, math.NaN()}, {0, math.NaN(), math.NaN()}}
	if want := Alpha(units, Nominal); !near(r.AlphaLabelers, want) {
		t.Errorf("alpha among labelers %v, want %v", r.AlphaLabelers, want)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`"n":3`, `"confusion":{"tp":1,"fp":1,"fn":0,"tn":1}`, `"disagreements":["s2"]`, `"fleiss_kappa":null`, `"tied":["s3"]`, `"seed":20260101`} {
		if !strings.Contains(string(b), w) {
			t.Errorf("Expected the JSON to hold %s:\n%s", w, b)
		}
	}
}

// Scores as labels: the alphas are ordinal, on the scores themselves.
func TestCompareScores(t *testing.T) {
	labels := []Label{
		{ID: "a", Metric: "m", Score: 0.9, Numeric: true, Labeler: "x"}, {ID: "a", Metric: "m", Score: 0.8, Numeric: true, Labeler: "y"},
		{ID: "b", Metric: "m", Score: 0.2, Numeric: true, Labeler: "x"}, {ID: "b", Metric: "m", Score: 0.1, Numeric: true, Labeler: "y"},
		{ID: "c", Metric: "m", Score: 0.6, Numeric: true, Labeler: "x"}, {ID: "c", Metric: "m", Score: 0.4, Numeric: true, Labeler: "y"},
	}
	judgments := []Judgment{judged("a", 1, 0.95, ""), judged("b", 1, 0.3, ""), judged("c", 1, 0.7, "")}
	r := Compare(labels, judgments).Results[0]
	if want := Alpha([][]float64{{0.9, 0.8, 0.95}, {0.2, 0.1, 0.3}, {0.6, 0.4, 0.7}}, Ordinal); !near(r.AlphaWithJudge, want) {
		t.Errorf("alpha with the judge %v, want ordinal %v", r.AlphaWithJudge, want)
	}
	// c: x passes, y fails: a tie.
	if r.N != 2 || !cmp.Equal(r.Tied, []string{"c"}) {
		t.Errorf("n %d, tied %v", r.N, r.Tied)
	}
}

func TestCompareRepeatsAndPanels(t *testing.T) {
	labels := []Label{label("a", true, "", ""), label("b", false, "", ""), label("c", true, "", "")}
	var js []Judgment
	for run, scores := range [][3]float64{{1, 0, 1}, {1, 1, 1}, {1, 0, 0}, {1, 0, 1}} {
		for i, id := range []string{"a", "b", "c"} {
			j := judged(id, run+1, scores[i], "")
			j.Members = []bool{scores[i] == 1, scores[i] == 1 || id == "b"}
			js = append(js, j)
		}
	}
	r := Compare(labels, js).Results[0]
	// The first run is compared: a TP, b TN, c TP.
	if r.Confusion != (Confusion{TP: 2, TN: 1}) {
		t.Errorf("confusion %+v", r.Confusion)
	}
	c := r.Consistency
	if c == nil || c.Runs != 4 || !cmp.Equal(c.Straddling, []string{"b", "c"}) {
		t.Fatalf("consistency %+v", c)
	}
	// b: 1 pass in 4 runs: 1*3 of 6 pairs disagree; c likewise; a never.
	if !near(c.Cases[1].FlipRate, 0.5) || !near(c.Cases[2].FlipRate, 0.5) || c.Cases[0].FlipRate != 0 || !near(c.FlipRate, 1.0/3) {
		t.Errorf("flip rates %+v, overall %v", c.Cases, c.FlipRate)
	}
	// The panel's first run: a (2,0), b (1,1), c (2,0).
	if want := FleissKappa([][]int{{2, 0}, {1, 1}, {2, 0}}); !near(r.FleissKappa, want) {
		t.Errorf("fleiss %v, want %v", r.FleissKappa, want)
	}
}

func TestCompareDegenerate(t *testing.T) {
	if rep := Compare(nil, []Judgment{judged("a", 1, 1, "")}); len(rep.Results) != 0 {
		t.Errorf("no labels: %+v", rep)
	}
	// n = 1.
	r := Compare([]Label{label("a", true, "", "")}, []Judgment{judged("a", 1, 1, "")}).Results[0]
	if r.N != 1 || r.Accuracy != 1 || !math.IsNaN(r.Kappa) || r.MCC != 0 || !math.IsNaN(r.AlphaWithJudge) {
		t.Errorf("n=1: %+v", r)
	}
	b, _ := json.Marshal(r)
	if !strings.Contains(string(b), `"kappa":null`) || !strings.Contains(string(b), `"alpha_with_judge":null`) {
		t.Errorf("undefined statistics should be null: %s", b)
	}
	// Nothing judged.
	r = Compare([]Label{label("a", true, "", "")}, nil).Results[0]
	if r.N != 0 || !math.IsNaN(r.Accuracy) || !cmp.Equal(r.Unjudged, []string{"a"}) {
		t.Errorf("nothing judged: %+v", r)
	}
}

func TestNaturalOrder(t *testing.T) {
	ids := []string{"book-10", "b", "book-2", "10", "9", "book-1", "a"}
	got := sortedKeys(map[string]bool{"book-10": true, "b": true, "book-2": true, "10": true, "9": true, "book-1": true, "a": true})
	want := []string{"9", "10", "a", "b", "book-1", "book-2", "book-10"}
	if !cmp.Equal(got, want) {
		t.Errorf("order of %v: %v, want %v", ids, got, want)
	}
}

func TestLoadAndCheckErrors(t *testing.T) {
	dir := t.TempDir()
	bad := dir + "/bad.json"
	if err := os.WriteFile(bad, []byte(`{"date": "2026-01-01", "metrics": {}, "extra": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(bad); err == nil || !strings.Contains(err.Error(), bad+": not a calibration file") {
		t.Errorf("Load of a bad file: %v", err)
	}
	var p *Problem
	if err := Check(bad, "m", Setup{}, 0); err == nil || errors.As(err, &p) {
		t.Errorf("Expected the file's own error, not a Problem: %v", err)
	}
	// Kappa undefined is below any floor, even 0; a floor given to Check
	// above the file's counts.
	good := dir + "/good.json"
	k := 0.5
	f := File{Date: "2026-01-01", Metrics: map[string]Entry{"m": {N: 4, Kappa: &k, MinKappa: 0.2}, "u": {N: 1}}}
	if err := f.Save(good); err != nil {
		t.Fatal(err)
	}
	if err := Check(good, "u", Setup{}, 0); !errors.As(err, &p) || p.Kind != "below floor" || !strings.Contains(p.Detail, "kappa undefined over 1 samples") {
		t.Errorf("undefined kappa: %v", err)
	}
	if err := Check(good, "m", Setup{}, 0); err != nil {
		t.Errorf("kappa 0.5 over a floor of 0.2: %v", err)
	}
	if err := Check(good, "m", Setup{}, 0.6); !errors.As(err, &p) || !strings.Contains(p.Detail, "floor 0.6") {
		t.Errorf("Check's own floor: %v", err)
	}
}
