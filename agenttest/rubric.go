package agenttest

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/metric"
)

// CheckRubric asks m's judge whether the sample's trajectory (its
// conversation, tool calls and results, and with m.Reference its
// ReferenceToolCalls as the trajectory of a correct run) satisfies m's
// rubric. It passes when trajectory_rubric is 1: the judge, or every judge
// of a panel that gave a verdict, found it satisfied (a Majority or
// Unanimous panel applies its own rule). The failure quotes the judge's
// reason, then shows the rubric, the reference if used, each judge's
// verdict with its verdict on every criterion of a rubric written as a
// list, the tokens used and the cassette the answers came from with the
// command that re-records it. A judgment that cannot be made (every judge
// failed or answered unusably, a replay miss, a sample without what m
// needs) and a consensus panel whose judges disagree are the Report's Err.
func CheckRubric(ctx context.Context, m metric.TrajectoryRubric, s agentcheck.Sample) Report {
	r, criteria, err := m.EvaluateCriteria(ctx, s)
	traj := "the trajectory " + summary(s.Conversation)
	rubric := quoteRubric(m.Rubric)
	switch {
	case err != nil:
		return failed(cannotJudge("whether "+traj+" satisfies the rubric "+rubric, r, err))
	case r.Disagreement != "":
		return disagreed("whether "+traj+" satisfies the rubric "+rubric, r, explainRubric(m, s, r, criteria, true))
	}
	single := len(r.Verdicts) == 1
	return Report{
		ok: r.Score >= 1, metric: r.Metric, score: r.Score, hasScore: true,
		why: func() string {
			head := fmt.Sprintf("Expected %s to satisfy the rubric %s, but the judge found: %s", traj, rubric, r.Reason)
			if !single {
				passed, judged := r.Votes()
				head = fmt.Sprintf("Expected %s to satisfy the rubric %s, but %d of %d judges found it does (%s %s, want 1)",
					traj, rubric, passed, judged, r.Metric, formatFloat(r.Score))
			}
			return withDetail(head, explainRubric(m, s, r, criteria, !single))
		},
		whyNot: func() string {
			head := fmt.Sprintf("Expected %s not to satisfy the rubric %s, but the judge found it does: %s", traj, rubric, r.Reason)
			if !single {
				passed, judged := r.Votes()
				head = fmt.Sprintf("Expected %s not to satisfy the rubric %s, but %d of %d judges found it does (%s %s)",
					traj, rubric, passed, judged, r.Metric, formatFloat(r.Score))
			}
			return withDetail(head, explainRubric(m, s, r, criteria, !single))
		},
	}
}

// quoteRubric is the rubric on one line, quoted and cut to 60 characters.
func quoteRubric(rubric string) string {
	return strconv.Quote(clipText(strings.Join(strings.Fields(rubric), " "), 60))
}

// explainRubric renders a rubric judgment for a failure message: the
// rubric in full when the headline had to cut it, the reference trajectory
// when the judges were shown one, then each judge's verdict (its reason too
// when the headline does not quote it) with its verdict on each criterion,
// and the judgment's trailer: the disagreement, warnings, tokens and
// cassette.
func explainRubric(m metric.TrajectoryRubric, s agentcheck.Sample, r metric.Result, criteria [][]metric.CriterionVerdict, reasons bool) string {
	var b strings.Builder
	if rubric := strings.TrimSpace(m.Rubric); strings.Contains(rubric, "\n") || quoteRubric(rubric) != strconv.Quote(rubric) {
		b.WriteString("rubric:\n")
		writeIndented(&b, rubric, "    ")
	}
	if m.Reference {
		b.WriteString("reference trajectory:\n")
		if len(s.ReferenceToolCalls) == 0 {
			b.WriteString("    (no tool calls)\n")
		}
		for i, tc := range s.ReferenceToolCalls {
			fmt.Fprintf(&b, "    [%d] %s\n", i, tc)
		}
	}
	panel := len(r.Verdicts) > 1
	for i, v := range r.Verdicts {
		name := v.Model
		if name == "" {
			name = "(unnamed)"
		}
		if v.Err != nil {
			fmt.Fprintf(&b, "judge %s: failed, left out of the score:\n", name)
			writeIndented(&b, v.Err.Error(), "    ")
			continue
		}
		verdict := "not satisfied"
		if v.Score == 1 {
			verdict = "satisfied"
		}
		fmt.Fprintf(&b, "judge %s: %s\n", name, verdict)
		if reasons {
			writeField(&b, "reason", v.Reason)
		}
		if i < len(criteria) && len(criteria[i]) > 0 {
			b.WriteString("    criteria:\n")
			for k, c := range criteria[i] {
				met := "not met"
				if c.Met {
					met = "met"
				}
				fmt.Fprintf(&b, "      %d. %s: %s\n", k+1, c.Criterion, met)
				if c.Reason != "" {
					writeIndented(&b, c.Reason, "         ")
				}
			}
		}
		if panel {
			writeField(&b, "tokens", usageText(v.Usage))
		}
	}
	writeJudgmentTrailer(&b, r)
	return strings.TrimRight(b.String(), "\n")
}
