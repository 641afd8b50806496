package anthropic_test

import (
	"encoding/json"
	"fmt"

	sdk "github.com/anthropics/anthropic-sdk-go"

	"github.com/agentcheck/agentcheck/adapters/anthropic"
)

// Example converts what an agent built on anthropic-sdk-go holds after a
// run: the params of its last request, where the first reply was added
// with ToParam and the tool result in a user message, and the final reply.
func Example() {
	// Replies as a client call returns them, decoded from the API's JSON.
	var first, last sdk.Message
	_ = json.Unmarshal([]byte(`{"type": "message", "role": "assistant", "content": [
		{"type": "tool_use", "id": "toolu_01", "name": "book_table", "input": {"city": "Paris", "people": 2}}]}`), &first)
	_ = json.Unmarshal([]byte(`{"type": "message", "role": "assistant", "content": [
		{"type": "text", "text": "Booked for 20:00."}]}`), &last)

	params := sdk.MessageNewParams{
		Model:     sdk.ModelClaudeSonnet4_5,
		MaxTokens: 1024,
		System:    []sdk.TextBlockParam{{Text: "You book tables."}},
		Messages: []sdk.MessageParam{
			sdk.NewUserMessage(sdk.NewTextBlock("A table for two in Paris, please.")),
			first.ToParam(),
			sdk.NewUserMessage(sdk.NewToolResultBlock("toolu_01", "booked for 20:00", false)),
		},
	}
	conv, err := anthropic.Request(params, last).Conversation()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(conv)
	fmt.Println(conv[3].ToolCallID == conv[2].ToolCalls[0].ID)

	// A result that answers no call is named.
	params.Messages[2] = sdk.NewUserMessage(sdk.NewToolResultBlock("toolu_02", "cancelled", false))
	_, err = anthropic.Request(params, last).Conversation()
	fmt.Println(err)
	// Output:
	// [0] system: You book tables.
	// [1] human: A table for two in Paris, please.
	// [2] ai:
	//     -> book_table({"city":"Paris","people":2})
	// [3] tool: booked for 20:00
	// [4] ai: Booked for 20:00.
	// true
	// message 2 (human): content block 0: tool_result answers tool_use_id "toolu_02", which no tool_use made
}
