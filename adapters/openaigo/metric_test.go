package openaigo_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/openaigo"
	"github.com/agentcheck/agentcheck/metric"
)

// The adapters' conversations score as the same conversations written by
// hand. The references differ from what the agent did (Rome's days are 3),
// so that the scores are neither 0 nor 1: a lost or added call, a lost
// argument or a changed number kind would change them.
func TestMetricsAgree(t *testing.T) {
	call := agentcheck.MustParseToolCall
	weather := agentcheck.Conversation{
		{Role: agentcheck.System, Content: "Be brief."},
		{Role: agentcheck.Human, Content: "Weather in Paris and Rome?"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{call("get_weather", `{"city":"Paris","days":2.0}`), call("get_weather", `{"city":"Rome","days":2}`)}},
		{Role: agentcheck.Tool, Content: "14 degrees"},
		{Role: agentcheck.Tool, Content: "18 degrees"},
	}
	hosted := append(append(agentcheck.Conversation{}, weather...),
		agentcheck.Message{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{
			call("web_search", `{"type": "search", "query": "Rome weather warning"}`),
			call("to_fahrenheit", `{"celsius":14}`),
			call("to_fahrenheit", `{"celsius":"x"}`)}},
		agentcheck.Message{Role: agentcheck.Tool, Content: "57.2"},
		agentcheck.Message{Role: agentcheck.Tool, Content: "celsius must be a number"},
		agentcheck.Message{Role: agentcheck.AI, Content: "Paris 14°C, Rome 18°C."})
	chatDone := append(append(agentcheck.Conversation{}, weather...), agentcheck.Message{Role: agentcheck.AI, Content: "Paris 14°C, Rome 18°C."})
	chatRef := []agentcheck.ToolCall{call("get_weather", `{"city":"Paris","days":2.0}`), call("get_weather", `{"city":"Rome","days":3}`)}
	hostedRef := append(append([]agentcheck.ToolCall{}, chatRef...),
		call("web_search", `{"query": "Rome weather warning"}`), call("to_fahrenheit", `{"celsius":14}`), call("to_fahrenheit", `{"celsius":"x"}`))

	first := decode[responses.Response](t, firstResponse)
	last := decode[responses.Response](t, lastResponse)
	input := append(firstInput(), asInput(t, first.Output)...)
	input = append(input, functionOutput("call_paris", "14 degrees"), functionOutput("call_rome", "18 degrees"))
	tests := []struct {
		name      string
		got       agentcheck.Transcript
		want      agentcheck.Conversation
		reference []agentcheck.ToolCall
	}{
		{"chat", openaigo.Chat{
			Sent:     chatSent(t, decode[openai.ChatCompletionMessage](t, callsReply)),
			Received: []openai.ChatCompletionMessage{decode[openai.ChatCompletionMessage](t, `{"role": "assistant", "content": "Paris 14°C, Rome 18°C."}`)},
		}, chatDone, chatRef},
		{"chat streamed", openaigo.Chat{Sent: chatSent(t, accumulate(t, streamChunks))}, weather, chatRef},
		{"responses", openaigo.Responses{{Input: input, Response: &last}}, hosted, hostedRef},
		{"responses chained", openaigo.Responses{{Input: firstInput(), Response: &first},
			{Input: []responses.ResponseInputItemUnionParam{functionOutput("call_paris", "14 degrees"), functionOutput("call_rome", "18 degrees")}, Response: &last}}, hosted, hostedRef},
	}
	for _, tt := range tests {
		conv, err := tt.got.Conversation()
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		for _, m := range []metric.Metric{metric.ToolCallAccuracy{}, metric.ToolCallF1{}} {
			got, err := m.Evaluate(context.Background(), agentcheck.Sample{Conversation: conv, ReferenceToolCalls: tt.reference})
			if err != nil {
				t.Fatal(err)
			}
			want, err := m.Evaluate(context.Background(), agentcheck.Sample{Conversation: tt.want, ReferenceToolCalls: tt.reference})
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
