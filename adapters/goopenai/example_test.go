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

	// A call with broken arguments is named.
	msgs[2].ToolCalls[0].Function.Arguments = `{"city": "Paris",`
	_, err = goopenai.Messages(msgs).Conversation()
	fmt.Println(err)
	// Output:
	// [0] system: You book tables.
	// [1] human: A table for two in Paris, please.
	// [2] ai:
	//     -> book_table({"city":"Paris","people":2})
	// [3] tool: booked for 20:00
	// [4] ai: Booked for 20:00.
	// call_1
	// message 2 (ai), tool call 0 "book_table": arguments "{\"city\": \"Paris\"," are not valid JSON: line 1, column 18: unexpected end of input, want an object key
}
