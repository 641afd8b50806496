package goopenai_test

import (
	"fmt"

	openai "github.com/sashabaranov/go-openai"

	"github.com/agentcheck/agentcheck/adapters/goopenai"
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
