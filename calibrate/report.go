package calibrate

import (
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Judgment is a judge's verdict on one sample, for one metric or one
// criterion of a rubric, in one run.
type Judgment struct {
	ID  string
	Key string // the metric, or "criterion: TEXT" (Label.Key)
	Run int    // 1 for the first run
	// Score is the judge's score; at least 0.5 passes.
	Score  float64
	Reason string
	// Members are the verdicts of a panel's judges that answered (pass or
	// fail), for Fleiss' kappa; nil for a single judge.
	Members []bool
	// Err is why the judge gave no verdict: the sample is counted, not
	// compared.
	Err error
}

// Pass is the judgment as a verdict: a score of at least 0.5.
func (j Judgment) Pass() bool { return j.Score >= 0.5 }

// Disagreement is a sample on which the judge and people disagree, with
// each side's reasons.
type Disagreement struct {
	ID         string   `json:"id"`
	Human      bool     `json:"human"`
	Judge      bool     `json:"judge"`
	JudgeScore float64  `json:"judge_score"`
	Rationales []string `json:"rationales"` // the labelers' rationales, "labeler: text"
	Reason     string   `json:"reason"`     // the judge's
}

// CaseFlips is how one sample's verdict moved over repeated runs.
type CaseFlips struct {
	ID     string `json:"id"`
	Runs   int    `json:"runs"`
	Passes int    `json:"passes"`
	// FlipRate is the chance that two runs of the case, drawn without
	// replacement, disagree: passes*fails / (runs*(runs-1)/2).
	FlipRate float64 `json:"flip_rate"`
}

// Consistency is how a judge's verdicts held over repeated runs.
type Consistency struct {
	Runs int `json:"runs"`
	// FlipRate is the mean of the cases' flip rates.
	FlipRate float64     `json:"flip_rate"`
	Cases    []CaseFlips `json:"cases"`
	// Straddling are the cases with both passing and failing runs.
	Straddling []string `json:"straddling"`
}

// Result is how a judge agrees with people on one metric or criterion.
// Statistics that are undefined (no samples; kappa when both sides give one
// class only) are NaN, and null in JSON.
type Result struct {
	Key              string
	N                int // the samples compared: labelled, judged, not tied
	Labelers         int
	BaseRate         float64 // the share people pass
	Accuracy         float64
	Kappa            float64
	MCC              float64
	MajorityAccuracy float64
	Confusion        Confusion
	PassClass        ClassScores
	FailClass        ClassScores
	Intervals        Intervals
	// AlphaLabelers is Krippendorff's alpha among the labelers, when there
	// are several; AlphaWithJudge among the labelers and the judge (ordinal
	// when the labels are scores, nominal when verdicts).
	AlphaLabelers, AlphaWithJudge float64
	// FleissKappa is the agreement among a panel's judges; NaN for one judge.
	FleissKappa   float64
	Disagreements []Disagreement
	// Unjudged are labelled samples the judge gave no verdict on, Tied those
	// whose labelers split evenly: neither is compared.
	Unjudged, Tied []string
	Consistency    *Consistency
}

// Report is a calibration: a Result per metric or criterion, in order of
// key, and what could not be matched up.
type Report struct {
	Results []Result
	// LabelsWithoutSample are the ids labelled that no sample has.
	LabelsWithoutSample []string
	// SamplesWithoutLabels are samples nobody labelled (set by whoever knows
	// the dataset: Evaluate and the CLI).
	SamplesWithoutLabels []string
}

// Compare works out how the judgments agree with the labels, per metric or
// criterion. The first run's judgments are compared with the labels (what
// a single run, and eval, would have said); all runs go into Consistency
// when there are several. A sample with several labelers takes their
// majority verdict.
func Compare(labels []Label, judgments []Judgment) Report {
	var rep Report
	byKey := map[string]map[string][]Label{}
	for _, l := range labels {
		if byKey[l.Key()] == nil {
			byKey[l.Key()] = map[string][]Label{}
		}
		byKey[l.Key()][l.ID] = append(byKey[l.Key()][l.ID], l)
	}
	judged := map[string]map[string][]Judgment{}
	ids := map[string]bool{}
	for _, j := range judgments {
		ids[j.ID] = true
		if judged[j.Key] == nil {
			judged[j.Key] = map[string][]Judgment{}
		}
		judged[j.Key][j.ID] = append(judged[j.Key][j.ID], j)
	}
	missing := map[string]bool{}
	for _, key := range sortedKeys(byKey) {
		res := compareKey(key, byKey[key], judged[key], ids, missing)
		rep.Results = append(rep.Results, res)
	}
	rep.LabelsWithoutSample = sortedKeys(missing)
	return rep
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, naturalCompare)
	return keys
}

// naturalCompare orders ids with numbers in them by the numbers' values:
// "2" before "10", "book-2" before "book-10".
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := digitsPrefix(a), digitsPrefix(b)
		switch {
		case da > 0 && db > 0:
			x, y := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := cmp.Compare(len(x), len(y)); c != 0 {
				return c
			}
			if c := cmp.Compare(x, y); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
		case a[0] != b[0]:
			return cmp.Compare(a[0], b[0])
		default:
			a, b = a[1:], b[1:]
		}
	}
	return cmp.Compare(len(a), len(b))
}

func digitsPrefix(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

func compareKey(key string, labelled map[string][]Label, judged map[string][]Judgment, ids, missing map[string]bool) Result {
	res := Result{Key: key, FleissKappa: math.NaN()}
	labelers := map[string]int{}
	numeric := false
	for _, ls := range labelled {
		for _, l := range ls {
			if _, ok := labelers[l.Labeler]; !ok {
				labelers[l.Labeler] = len(labelers)
			}
			numeric = numeric || l.Numeric
		}
	}
	res.Labelers = len(labelers)
	level := Nominal
	if numeric {
		level = Ordinal
	}
	var pairs []pair
	var humanUnits, allUnits [][]float64
	var panel [][]int
	panelSize := -1
	var flips []CaseFlips
	runs := 0
	for _, id := range sortedKeys(labelled) {
		ls := labelled[id]
		js := judged[id]
		if len(js) == 0 {
			if !ids[id] {
				missing[id] = true
			}
			res.Unjudged = append(res.Unjudged, id)
			continue
		}
		slices.SortFunc(js, func(a, b Judgment) int { return cmp.Compare(a.Run, b.Run) })
		first := js[0]
		if first.Err != nil {
			res.Unjudged = append(res.Unjudged, id)
			continue
		}
		// Runs after the first feed Consistency only.
		var c CaseFlips
		c.ID = id
		for _, j := range js {
			if j.Err == nil {
				c.Runs++
				if j.Pass() {
					c.Passes++
				}
			}
		}
		runs = max(runs, len(js))
		if c.Runs > 1 {
			fails := c.Runs - c.Passes
			c.FlipRate = float64(c.Passes*fails) / float64(c.Runs*(c.Runs-1)/2)
		}
		flips = append(flips, c)
		if first.Members != nil {
			if panelSize < 0 {
				panelSize = len(first.Members)
			}
			if len(first.Members) == panelSize {
				row := []int{0, 0}
				for _, m := range first.Members {
					if m {
						row[0]++
					} else {
						row[1]++
					}
				}
				panel = append(panel, row)
			}
		}

		unit := make([]float64, len(labelers)+1)
		for i := range unit {
			unit[i] = math.NaN()
		}
		passes := 0
		for _, l := range ls {
			v := l.Score
			if !numeric {
				v = b2f(l.Pass())
			}
			unit[labelers[l.Labeler]] = v
			if l.Pass() {
				passes++
			}
		}
		humanUnits = append(humanUnits, unit[:len(labelers)])
		judgeValue := first.Score
		if !numeric {
			judgeValue = b2f(first.Pass())
		}
		unit[len(labelers)] = judgeValue
		allUnits = append(allUnits, unit)
		if 2*passes == len(ls) {
			res.Tied = append(res.Tied, id)
			continue
		}
		human := 2*passes > len(ls)
		pairs = append(pairs, pair{human, first.Pass()})
		res.Confusion.Add(human, first.Pass())
		if human != first.Pass() {
			d := Disagreement{ID: id, Human: human, Judge: first.Pass(), JudgeScore: first.Score, Reason: first.Reason, Rationales: []string{}}
			split := passes > 0 && passes < len(ls) // the labelers disagree among themselves
			for _, l := range ls {
				if l.Rationale == "" {
					continue
				}
				who := l.Labeler
				if split {
					who = strings.TrimSpace(who + " (" + verdict(l.Pass()) + ")")
				}
				if who != "" {
					who += ": "
				}
				d.Rationales = append(d.Rationales, who+l.Rationale)
			}
			res.Disagreements = append(res.Disagreements, d)
		}
	}
	c := res.Confusion
	res.N = c.N()
	res.BaseRate, res.Accuracy, res.Kappa, res.MCC = c.BaseRate(), c.Accuracy(), c.Kappa(), c.MCC()
	res.MajorityAccuracy = c.MajorityAccuracy()
	res.PassClass, res.FailClass = c.Pass(), c.Fail()
	res.Intervals = bootstrap(pairs)
	res.AlphaLabelers = math.NaN()
	if len(labelers) > 1 {
		res.AlphaLabelers = Alpha(humanUnits, level)
	}
	res.AlphaWithJudge = Alpha(allUnits, level)
	if len(panel) > 0 {
		res.FleissKappa = FleissKappa(panel)
	}
	if runs > 1 {
		cons := &Consistency{Runs: runs, Cases: flips, Straddling: []string{}}
		sum := 0.0
		for _, f := range flips {
			sum += f.FlipRate
			if f.Passes > 0 && f.Passes < f.Runs {
				cons.Straddling = append(cons.Straddling, f.ID)
			}
		}
		cons.FlipRate = math.NaN()
		if len(flips) > 0 {
			cons.FlipRate = sum / float64(len(flips))
		}
		res.Consistency = cons
	}
	return res
}

func verdict(pass bool) string {
	if pass {
		return "pass"
	}
	return "fail"
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// num writes a statistic, null when it is undefined.
type num float64

func (x num) MarshalJSON() ([]byte, error) {
	f := float64(x)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

type numBounds struct {
	Low  num `json:"low"`
	High num `json:"high"`
}

func bounds(b Bounds) numBounds { return numBounds{num(b.Low), num(b.High)} }

type numClass struct {
	Precision num `json:"precision"`
	Recall    num `json:"recall"`
	F1        num `json:"f1"`
}

func class(c ClassScores) numClass { return numClass{num(c.Precision), num(c.Recall), num(c.F1)} }

// MarshalJSON writes the result as the CLI's --format json does, per
// metric: n, base_rate, accuracy, kappa, mcc, majority_accuracy, confusion
// as {"tp","fp","fn","tn"} counting pass as positive, pass and fail
// (precision, recall, f1), intervals (95%, with their resamples and seed),
// the alphas, fleiss_kappa, disagreements as ids and disagreement_details
// with both sides' reasons, unjudged, tied and consistency.
func (r Result) MarshalJSON() ([]byte, error) {
	ids := make([]string, len(r.Disagreements))
	for i, d := range r.Disagreements {
		ids[i] = d.ID
	}
	details := r.Disagreements
	if details == nil {
		details = []Disagreement{}
	}
	return json.Marshal(struct {
		N                int            `json:"n"`
		Labelers         int            `json:"labelers"`
		BaseRate         num            `json:"base_rate"`
		Accuracy         num            `json:"accuracy"`
		Kappa            num            `json:"kappa"`
		MCC              num            `json:"mcc"`
		MajorityAccuracy num            `json:"majority_accuracy"`
		Confusion        Confusion      `json:"confusion"`
		Pass             numClass       `json:"pass"`
		Fail             numClass       `json:"fail"`
		Intervals        any            `json:"intervals"`
		AlphaLabelers    num            `json:"alpha_labelers"`
		AlphaWithJudge   num            `json:"alpha_with_judge"`
		FleissKappa      num            `json:"fleiss_kappa"`
		Disagreements    []string       `json:"disagreements"`
		Details          []Disagreement `json:"disagreement_details"`
		Unjudged         []string       `json:"unjudged"`
		Tied             []string       `json:"tied"`
		Consistency      *Consistency   `json:"consistency,omitempty"`
	}{
		r.N, r.Labelers, num(r.BaseRate), num(r.Accuracy), num(r.Kappa), num(r.MCC), num(r.MajorityAccuracy),
		r.Confusion, class(r.PassClass), class(r.FailClass),
		struct {
			Level     float64   `json:"level"`
			Resamples int       `json:"resamples"`
			Seed      int       `json:"seed"`
			Accuracy  numBounds `json:"accuracy"`
			Kappa     numBounds `json:"kappa"`
			MCC       numBounds `json:"mcc"`
		}{0.95, BootstrapResamples, BootstrapSeed, bounds(r.Intervals.Accuracy), bounds(r.Intervals.Kappa), bounds(r.Intervals.MCC)},
		num(r.AlphaLabelers), num(r.AlphaWithJudge), num(r.FleissKappa),
		ids, details, nonNil(r.Unjudged), nonNil(r.Tied), r.Consistency,
	})
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
