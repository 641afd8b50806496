package genkit_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/genkit"
	"github.com/agentcheck/agentcheck/metric"
)

// The conversation of a real Generate run (and of a streamed one) scores as
// the same conversation written by hand. The reference differs from what
// the agent did (Rome's days are 3), so that the scores are neither 0 nor
// 1: a lost or added call or a lost argument would change them.
func TestMetricsAgree(t *testing.T) {
	call := agentcheck.MustParseToolCall
	reference := []agentcheck.ToolCall{call("get_weather", `{"city":"Paris","days":2.0}`), call("get_weather", `{"city":"Rome","days":3}`)}
	for _, stream := range []bool{false, true} {
		conv, err := genkit.Response(runAgent(t, stream, true)).Conversation()
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []metric.Metric{metric.ToolCallAccuracy{}, metric.ToolCallF1{}} {
			got, err := m.Evaluate(context.Background(), agentcheck.Sample{Conversation: conv, ReferenceToolCalls: reference})
			if err != nil {
				t.Fatal(err)
			}
			want, err := m.Evaluate(context.Background(), agentcheck.Sample{Conversation: weatherConversation(), ReferenceToolCalls: reference})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("stream=%v: %s:\n got %v\nwant %v", stream, m.Name(), got, want)
			}
			if want.Score <= 0 || want.Score >= 1 {
				t.Errorf("%s = %v, want a score that a lost call or argument would change", m.Name(), want.Score)
			}
		}
	}
}
