package matchers

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/metric"
)

// SatisfyRubric succeeds when the judge j finds that the agent's trajectory
// (its conversation with the tool calls and their results) satisfies the
// rubric (agenttest.CheckRubric with metric.TrajectoryRubric):
// trajectory_rubric is 1, that is the judge, or every judge of a panel that
// gave a verdict, found it satisfied. A rubric written as a list, one
// criterion per line starting with "-", "*" or "1.", is judged criterion by
// criterion, and the failure shows each verdict:
//
//	Expect(conv).To(SatisfyRubric(j, `
//		- look the order up before refunding it
//		- refund only the order the human named`))
//
// WithReference shows the judge the sample's reference tool calls as the
// trajectory of a correct run; Against gives them. Errors (every judge
// failed or answered unusably, a replay miss), disagreements, Eventually
// and the context are handled as AchieveGoal handles them.
func SatisfyRubric(j judgment.Judge, rubric string) *RubricMatcher {
	return newRubricMatcher(metric.TrajectoryRubric{Judge: j, Rubric: rubric}, nil, false, judged{})
}

// RubricMatcher is the matcher SatisfyRubric returns. It is safe for
// concurrent use.
type RubricMatcher struct {
	reportMatcher
	metric    metric.TrajectoryRubric
	reference []agentcheck.ToolCall
	against   bool
	judged
}

func newRubricMatcher(m metric.TrajectoryRubric, reference []agentcheck.ToolCall, against bool, j judged) *RubricMatcher {
	r := &RubricMatcher{metric: m, reference: reference, against: against, judged: j.fresh()}
	r.check = r.run
	return r
}

// WithContext asks the judge within ctx, such as the test's t.Context(),
// in place of context.Background().
func (m *RubricMatcher) WithContext(ctx context.Context) *RubricMatcher {
	return newRubricMatcher(m.metric, m.reference, m.against, judged{ctx: ctx})
}

// WithReference shows the judge the sample's ReferenceToolCalls as the
// trajectory of a correct run; the actual must then be a Sample with them.
func (m *RubricMatcher) WithReference() *RubricMatcher {
	c := m.metric
	c.Reference = true
	return newRubricMatcher(c, m.reference, m.against, m.judged)
}

// Against shows the judge these calls as the trajectory of a correct run,
// in place of the sample's reference calls; with none, a correct run calls
// no tool.
func (m *RubricMatcher) Against(reference ...agentcheck.ToolCall) *RubricMatcher {
	c := m.metric
	c.Reference = true
	return newRubricMatcher(c, append([]agentcheck.ToolCall{}, reference...), true, m.judged)
}

func (m *RubricMatcher) run(actual any) (agenttest.Report, error) {
	s, err := sampleOf(actual, "SatisfyRubric")
	if err != nil {
		return agenttest.Report{}, err
	}
	if m.against {
		s.ReferenceToolCalls = m.reference
	} else if m.metric.Reference && s.ReferenceToolCalls == nil {
		return agenttest.Report{}, fmt.Errorf("SatisfyRubric(...).WithReference() needs reference tool calls, and the %T has none: give a Sample with reference_tool_calls, or the calls with .Against(...)", actual)
	}
	parts := []string{"rubric", s.Conversation.String(), failedResults(s.Conversation), m.metric.Rubric, strconv.FormatBool(m.metric.Reference)}
	if m.metric.Reference {
		parts = append(parts, strconv.Itoa(len(s.ReferenceToolCalls)))
		for _, tc := range s.ReferenceToolCalls {
			parts = append(parts, tc.String())
		}
	}
	return m.once(fingerprint(parts...), func(ctx context.Context) agenttest.Report {
		return agenttest.CheckRubric(ctx, m.metric, s)
	}), nil
}

// failedResults lists the messages marked as failed tool results, which
// the judge is shown and Conversation.String does not render.
func failedResults(c agentcheck.Conversation) string {
	var b strings.Builder
	for i, msg := range c {
		if msg.IsError {
			b.WriteString(strconv.Itoa(i) + ",")
		}
	}
	return b.String()
}
