package otel_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/otel"
	"github.com/agentcheck/agentcheck/metric"
)

// The adapter's sample of a traced run scores as the same conversation
// written by hand, whether the instrumentation recorded the messages as
// JSON strings or as structured values. The reference differs from what
// the agent did (Rome's days are 3), so that the scores are neither 0 nor
// 1: a lost or added call, a lost argument or a changed number kind would
// change them.
func TestMetricsAgree(t *testing.T) {
	for _, structured := range []bool{false, true} {
		tracer, exp := newTracer(t)
		runAgent(context.Background(), tracer, structured)
		s, err := otel.Spans(exp.GetSpans()).Sample()
		if err != nil {
			t.Fatal(err)
		}
		hand := agentcheck.Sample{Conversation: weatherConversation(), ReferenceToolCalls: weatherSample().ReferenceToolCalls}
		for _, m := range []metric.Metric{metric.ToolCallAccuracy{}, metric.ToolCallF1{}} {
			got, err := m.Evaluate(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			want, err := m.Evaluate(context.Background(), hand)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("structured=%v: %s:\n got %+v\nwant %+v", structured, m.Name(), got, want)
			}
			if want.Score <= 0 || want.Score >= 1 {
				t.Errorf("%s = %v, want a score that a lost call or argument would change", m.Name(), want.Score)
			}
		}
	}
}
