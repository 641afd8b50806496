package anthropic_test

import (
	"context"
	"reflect"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/anthropic"
	"github.com/agentcheck/agentcheck/metric"
)

// The adapter's conversations score as the same conversation written by
// hand. The reference differs from what the agent did (Rome's days are 3),
// so that the scores are neither 0 nor 1: a lost or added call, a lost
// argument or a changed number kind would change them.
func TestMetricsAgree(t *testing.T) {
	call := agentcheck.MustParseToolCall
	want := agentcheck.Conversation{
		{Role: agentcheck.System, Content: "You report the weather."},
		{Role: agentcheck.Human, Content: "Paris and Rome?\nIn Celsius."},
		{Role: agentcheck.AI, Content: "Checking both.", ToolCalls: []agentcheck.ToolCall{call("get_weather", `{"city":"Paris","days":2.0}`), call("get_weather", `{"city":"Rome","days":2}`)}},
		{Role: agentcheck.Tool, Content: "14 degrees"},
		{Role: agentcheck.Tool, Content: "no station in Rome"},
		{Role: agentcheck.Human, Content: "Any warnings?"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{call("web_search", `{"query":"Rome weather warning"}`)}},
		{Role: agentcheck.Tool, Content: "one result"},
		{Role: agentcheck.AI, Content: "Paris 14°C; Rome has a heat warning."},
	}
	reference := []agentcheck.ToolCall{call("get_weather", `{"city":"Paris","days":2.0}`), call("get_weather", `{"city":"Rome","days":3}`), call("web_search", `{"query":"Rome weather warning"}`)}

	decoded := decode[sdk.Message](t, callsReply)
	streamed := accumulate(t, callsStream)
	tests := []struct {
		name string
		got  agentcheck.Transcript
	}{
		{"decoded", anthropic.Messages{System: system, Sent: sent(decoded), Received: []sdk.Message{decode[sdk.Message](t, answerReply)}}},
		{"streamed", anthropic.Messages{System: system, Sent: sent(streamed), Received: []sdk.Message{accumulate(t, answerStream)}}},
		{"all sent", anthropic.Messages{System: system, Sent: append(sent(streamed), accumulate(t, answerStream).ToParam())}},
	}
	for _, tt := range tests {
		conv, err := tt.got.Conversation()
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		for _, m := range []metric.Metric{metric.ToolCallAccuracy{}, metric.ToolCallF1{}} {
			got, err := m.Evaluate(context.Background(), agentcheck.Sample{Conversation: conv, ReferenceToolCalls: reference})
			if err != nil {
				t.Fatal(err)
			}
			want, err := m.Evaluate(context.Background(), agentcheck.Sample{Conversation: want, ReferenceToolCalls: reference})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: %s:\n got %v\nwant %v", tt.name, m.Name(), got, want)
			}
			if want.Score <= 0 || want.Score >= 1 {
				t.Errorf("%s: %s = %v, want a score that a lost call or argument would change", tt.name, m.Name(), want.Score)
			}
		}
	}
}
