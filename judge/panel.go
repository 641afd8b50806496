package judge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/agentcheck/agentcheck/judgment"
)

// Panel is several judges whose verdicts a judged metric aggregates: the
// metric runs its whole judgment once per member, concurrently, drops the
// members that fail (keeping their causes) and combines the others' scores
// with judgment.Aggregate. It implements judgment.Panel. Every member answers
// every question, whether a metric asks it or Ask does.
type Panel struct {
	members []judgment.Judge
	agg     judgment.Aggregation
}

// NewPanel makes a panel of members, aggregated by agg (the zero
// Aggregation is the mean). The members are typically clients of different
// models: judge.New(judge.WithModel(m)) for each m.
func NewPanel(members []judgment.Judge, agg judgment.Aggregation) *Panel {
	if agg.Method == "" {
		agg.Method = judgment.Mean
	}
	return &Panel{members: slices.Clone(members), agg: agg}
}

// AskEach asks every member q, concurrently, and returns each member's
// answer and error, in the members' order.
func (p *Panel) AskEach(ctx context.Context, q judgment.Question) ([]judgment.Answer, []error) {
	answers, errs := make([]judgment.Answer, len(p.members)), make([]error, len(p.members))
	var wg sync.WaitGroup
	for i, m := range p.members {
		if m == nil {
			errs[i] = fmt.Errorf("judge: the panel's member %d is nil", i)
			continue
		}
		wg.Go(func() { answers[i], errs[i] = m.Ask(ctx, q) })
	}
	wg.Wait()
	return answers, errs
}

// Ask asks every member q, concurrently, as AskEach does. A question has
// one answer, and only scores can be aggregated (which the judged metrics
// do, running a judgment once per member), so Ask returns an answer only
// when every member answered and all gave the same JSON (as jsonvalue.Equal
// compares it). That answer holds the members' usage and attempts summed,
// the time the panel took, and their models, sources and re-record
// commands, each listed once. Otherwise the error names each member's
// answer or error, and wraps the members' errors.
func (p *Panel) Ask(ctx context.Context, q judgment.Question) (judgment.Answer, error) {
	start := time.Now()
	if len(p.members) == 0 {
		return judgment.Answer{}, errors.New("judge: the panel has no members")
	}
	answers, errs := p.AskEach(ctx, q)
	ans := judgment.Answer{JSON: answers[0].JSON, PromptVersion: q.PromptVersion}
	var models, sources, rerecords []string
	failed, agree := 0, true
	for i, a := range answers {
		ans.Usage = ans.Usage.Add(a.Usage)
		ans.Attempts += a.Attempts
		models = appendNew(models, p.memberName(i, a))
		sources = appendNew(sources, a.Source)
		rerecords = appendNew(rerecords, a.Rerecord)
		if errs[i] != nil {
			failed++
		} else if errs[0] == nil && !sameJSON(answers[0].JSON, a.JSON) {
			agree = false
		}
	}
	ans.Model = strings.Join(models, ", ")
	ans.Source = strings.Join(sources, ", ")
	ans.Rerecord = strings.Join(rerecords, "; ")
	ans.Duration = time.Since(start)
	if failed == 0 && agree {
		return ans, nil
	}
	ans.JSON = nil
	var b strings.Builder
	if failed > 0 {
		fmt.Fprintf(&b, "judge: panel question %q: %d of %d members gave no answer", q.Name, failed, len(p.members))
	} else {
		fmt.Fprintf(&b, "judge: panel question %q: the members answered differently, and a panel answers only as one (the judged metrics aggregate their scores instead)", q.Name)
	}
	for i, a := range answers {
		fmt.Fprintf(&b, "; %s: ", p.memberName(i, a))
		if errs[i] != nil {
			b.WriteString(errs[i].Error())
		} else {
			b.Write(a.JSON)
		}
	}
	return ans, &panelError{msg: b.String(), errs: slices.DeleteFunc(errs, func(err error) bool { return err == nil })}
}

// memberName is member i's model: the one its answer names, else its own.
func (p *Panel) memberName(i int, a judgment.Answer) string {
	if a.Model != "" {
		return a.Model
	}
	if m, ok := p.members[i].(interface{ Model() string }); ok {
		return m.Model()
	}
	return fmt.Sprintf("%T", p.members[i])
}

func appendNew(list []string, s string) []string {
	if s == "" || slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// sameJSON compares two answers as JSON values.
func sameJSON(a, b []byte) bool {
	va, erra := jsonvalue.Parse(a)
	vb, errb := jsonvalue.Parse(b)
	if erra != nil || errb != nil {
		return bytes.Equal(a, b)
	}
	return jsonvalue.Equal(va, vb)
}

// panelError is a panel question without one answer; it wraps the
// members' errors, so that errors.Is and errors.As find them.
type panelError struct {
	msg  string
	errs []error
}

func (e *panelError) Error() string   { return e.msg }
func (e *panelError) Unwrap() []error { return e.errs }

// Members are the panel's judges, in the order given.
func (p *Panel) Members() []judgment.Judge { return slices.Clone(p.members) }

// Aggregation is how the panel's scores are combined.
func (p *Panel) Aggregation() judgment.Aggregation { return p.agg }

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
	if p.agg.Method == judgment.Consensus {
		s += fmt.Sprintf(" within %g", p.agg.Tolerance)
	}
	return s
}
