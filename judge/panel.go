package judge

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agentcheck/agentcheck/agenttest"
)

// Panel is several judges whose verdicts a judged metric aggregates: the
// metric runs its whole judgment once per member, concurrently, drops the
// members that fail (keeping their causes) and combines the others' scores
// with agenttest.Aggregate. It implements agenttest.Panel.
type Panel struct {
	members []agenttest.Judge
	agg     agenttest.Aggregation
}

// NewPanel makes a panel of members, aggregated by agg (the zero
// Aggregation is the mean). The members are typically clients of different
// models: judge.New(judge.WithModel(m)) for each m.
func NewPanel(members []agenttest.Judge, agg agenttest.Aggregation) *Panel {
	if agg.Method == "" {
		agg.Method = agenttest.Mean
	}
	return &Panel{members: append([]agenttest.Judge(nil), members...), agg: agg}
}

// Ask asks the first member alone: a question has one answer, and only
// scores can be aggregated. It lets a Panel stand where one Judge is
// expected; the judged metrics recognise a Panel and ask every member.
func (p *Panel) Ask(ctx context.Context, q agenttest.Question) (agenttest.Answer, error) {
	if len(p.members) == 0 {
		return agenttest.Answer{}, errors.New("judge: the panel has no members")
	}
	if p.members[0] == nil {
		return agenttest.Answer{}, errors.New("judge: the panel's first member is nil")
	}
	return p.members[0].Ask(ctx, q)
}

// Members are the panel's judges, in the order given.
func (p *Panel) Members() []agenttest.Judge { return append([]agenttest.Judge(nil), p.members...) }

// Aggregation is how the panel's scores are combined.
func (p *Panel) Aggregation() agenttest.Aggregation { return p.agg }

// String lists the members and the aggregation.
func (p *Panel) String() string {
	names := make([]string, len(p.members))
	for i, m := range p.members {
		if s, ok := m.(fmt.Stringer); ok {
			names[i] = s.String()
		} else {
			names[i] = fmt.Sprintf("%T", m)
		}
	}
	s := fmt.Sprintf("panel of %d (%s), %s", len(p.members), strings.Join(names, "; "), p.agg.Method)
	if p.agg.Method == agenttest.Consensus {
		s += fmt.Sprintf(" within %g", p.agg.Tolerance)
	}
	return s
}
