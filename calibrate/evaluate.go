package calibrate

import (
	"context"
	"fmt"
	"strconv"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/metric"
)

// Sample is a sample of the dataset, with the id labels name it by.
type Sample struct {
	ID     string
	Sample agentcheck.Sample
}

// Options tune Evaluate.
type Options struct {
	// Repeats is how many times each question is asked (at least once).
	Repeats int
	// Case gives each run of each sample its own context, such as its own
	// cassette case: recorder.WithCase(ctx, label), label being
	// RunLabel(id, run). Nil leaves the context as it is.
	Case func(ctx context.Context, label string) context.Context
}

// RunLabel is the label of a sample's run: id#runN, as evalsuite labels a
// case's runs.
func RunLabel(id string, run int) string { return id + "#run" + strconv.Itoa(run) }

// Evaluate asks m's judge about every labelled sample (Options.Repeats
// times, each run under its own Case) and compares its verdicts with the
// labels. Labels for m's name are compared with its score; for a
// metric.TrajectoryRubric, labels for a criterion (metric.RubricCriteria)
// with the judge's verdict on it. Samples without labels are not judged and
// are listed in the report, as are labels of ids no sample has. The error is
// for what prevents a calibration: no labels, or labels for something m
// does not judge.
func Evaluate(ctx context.Context, m metric.Metric, samples []Sample, labels []Label, opts Options) (Report, error) {
	if len(labels) == 0 {
		return Report{}, fmt.Errorf("calibrate: no labels to compare %s with", m.Name())
	}
	rubric, isRubric := m.(metric.TrajectoryRubric)
	criteria := map[string]bool{}
	if isRubric {
		for _, c := range metric.RubricCriteria(rubric.Rubric) {
			criteria[c] = true
		}
	}
	labelled := map[string]bool{}
	for _, l := range labels {
		switch {
		case l.Metric != "" && l.Metric != m.Name():
			return Report{}, fmt.Errorf("calibrate: line %d labels metric %q, but the judge is calibrated for %s", l.Line, l.Metric, m.Name())
		case l.Criterion != "" && !criteria[l.Criterion]:
			return Report{}, fmt.Errorf("calibrate: line %d labels criterion %q, which is not a criterion of %s", l.Line, l.Criterion, m.Name())
		}
		labelled[l.ID] = true
	}
	repeats := max(opts.Repeats, 1)
	var judgments []Judgment
	var unlabelled []string
	for _, s := range samples {
		if !labelled[s.ID] {
			unlabelled = append(unlabelled, s.ID)
			continue
		}
		for run := 1; run <= repeats; run++ {
			rctx := ctx
			if opts.Case != nil {
				rctx = opts.Case(ctx, RunLabel(s.ID, run))
			}
			if isRubric {
				r, cs, err := rubric.EvaluateCriteria(rctx, s.Sample)
				judgments = append(judgments, Judge(s.ID, m.Name(), run, r, err))
				for _, j := range criterionJudgments(s.ID, run, r, cs, err) {
					judgments = append(judgments, j)
				}
				continue
			}
			r, err := m.Evaluate(rctx, s.Sample)
			judgments = append(judgments, Judge(s.ID, m.Name(), run, r, err))
		}
	}
	rep := Compare(labels, judgments)
	rep.SamplesWithoutLabels = unlabelled
	return rep, nil
}

// Judge turns a metric's result on a sample into a Judgment for key: the
// score, the reason, and a panel's members' verdicts.
func Judge(id, key string, run int, r metric.Result, err error) Judgment {
	j := Judgment{ID: id, Key: key, Run: run, Score: r.Score, Reason: r.Reason, Err: err}
	if err == nil && r.Disagreement != "" {
		j.Reason = r.Disagreement
	}
	if len(r.Verdicts) > 1 {
		j.Members = []bool{}
		for _, v := range r.Verdicts {
			if v.Err == nil {
				j.Members = append(j.Members, v.Score >= 0.5)
			}
		}
	}
	return j
}

// criterionJudgments are a rubric's verdicts per criterion: the first
// judge's (a panel's members' verdicts on a criterion go to Members, the
// majority to Score).
func criterionJudgments(id string, run int, r metric.Result, cs [][]metric.CriterionVerdict, err error) map[string]Judgment {
	out := map[string]Judgment{}
	if err != nil {
		return out
	}
	for i, verdicts := range cs {
		for _, c := range verdicts {
			key := Label{Criterion: c.Criterion}.Key()
			j, ok := out[key]
			if !ok {
				j = Judgment{ID: id, Key: key, Run: run, Reason: c.Reason}
			}
			if len(cs) > 1 {
				j.Members = append(j.Members, c.Met)
			}
			if i == 0 || len(cs) == 1 {
				j.Score = b2f(c.Met)
			}
			out[key] = j
		}
	}
	for key, j := range out {
		if len(j.Members) > 1 {
			passes := 0
			for _, m := range j.Members {
				if m {
					passes++
				}
			}
			j.Score = b2f(2*passes > len(j.Members))
			out[key] = j
		}
	}
	return out
}
