package goopenai_test

import (
	"context"
	"encoding/json"
	"fmt"

	openai "github.com/sashabaranov/go-openai"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/goopenai"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/scenario"
)

// Example converts the messages an agent built on go-openai sent and
// received.
func Example() {
	msgs := []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleSystem, Content: "You book tables."},
		{Role: openai.ChatMessageRoleUser, Content: "A table for two in Paris, please."},
		{Role: openai.ChatMessageRoleAssistant, ToolCalls: []openai.ToolCall{{
			ID:       "call_1",
			Type:     openai.ToolTypeFunction,
			Function: openai.FunctionCall{Name: "book_table", Arguments: `{"city": "Paris", "people": 2}`},
		}}},
		{Role: openai.ChatMessageRoleTool, ToolCallID: "call_1", Content: "booked for 20:00"},
		{Role: openai.ChatMessageRoleAssistant, Content: "Booked for 20:00."},
	}
	conv, err := goopenai.Messages(msgs).Conversation()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(conv)
	fmt.Println(conv.ToolCalls()[0].ID)

	// A call whose arguments are not valid JSON keeps them as written.
	msgs[2].ToolCalls[0].Function.Arguments = `{"city": "Paris",`
	conv, err = goopenai.Messages(msgs).Conversation()
	fmt.Println(conv[2].ToolCalls[0].Name, conv[2].ToolCalls[0].InvalidArgs, err)
	// Output:
	// [0] system: You book tables.
	// [1] human: A table for two in Paris, please.
	// [2] ai:
	//     -> book_table({"city":"Paris","people":2})
	// [3] tool: booked for 20:00
	// [4] ai: Booked for 20:00.
	// call_1
	// book_table {"city": "Paris", <nil>
}

// ExampleAgent runs a go-openai chat loop with a mocked tool as the agent
// under test, its model played here by a scripted server (in a test, give
// the client recorder.ForTest(t).Client() as its HTTPClient to record and
// replay a real model).
func ExampleAgent() {
	s := judgetest.NewServer(judgetest.Turns([]judgetest.Reply{
		judgetest.ToolCalls(judgetest.Call("weather", `{"city": "Paris"}`)).WithUsage(50, 10),
		judgetest.Content("It is sunny in Paris.").WithUsage(70, 8),
	}))
	defer s.Close()
	tools, err := scenario.NewToolbox(scenario.Tool{
		Name:       "weather",
		Parameters: json.RawMessage(`{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}`),
		Func: func(ctx context.Context, args json.RawMessage) (string, error) {
			return "sunny", nil
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg := openai.DefaultConfig("")
	cfg.BaseURL = s.URL // and cfg.HTTPClient = recorder.ForTest(t).Client()
	agent := goopenai.Agent(openai.NewClientWithConfig(cfg), "gpt-4o-mini",
		goopenai.WithSystemPrompt("You answer questions about the weather."),
		goopenai.WithTools(tools), goopenai.WithTemperature(0), goopenai.WithSeed(1))

	reply, err := agent.Respond(context.Background(), agentcheck.Conversation{{Role: agentcheck.Human, Content: "Weather in Paris?"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(agentcheck.Conversation(reply.Messages))
	fmt.Println(reply.Usage.Total(), "tokens")
	// Output:
	// [0] ai:
	//     -> weather({"city":"Paris"})
	// [1] tool: sunny
	// [2] ai: It is sunny in Paris.
	// 138 tokens
}
