package langchaingo_test

import (
	"fmt"

	"github.com/tmc/langchaingo/llms"

	"github.com/agentcheck/agentcheck/adapters/langchaingo"
)

// Example converts an agent's history and the model's last response, as a
// tool-calling loop on langchaingo holds them.
func Example() {
	history := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, "You book tables."),
		llms.TextParts(llms.ChatMessageTypeHuman, "A table for two in Paris, please."),
		{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
			llms.TextPart(""),
			llms.ToolCall{ID: "call_1", Type: "function", FunctionCall: &llms.FunctionCall{Name: "book_table", Arguments: `{"city": "Paris", "people": 2}`}},
		}},
		{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
			llms.ToolCallResponse{ToolCallID: "call_1", Name: "book_table", Content: "booked for 20:00"},
		}},
	}
	resp := &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: "Booked for 20:00.", StopReason: "stop"}}}
	conv, err := langchaingo.Reply{History: history, Response: resp}.Conversation()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(conv)
	fmt.Println(conv[3].ToolCallID)

	// A call whose arguments are not valid JSON keeps them as written.
	history[2].Parts[1] = llms.ToolCall{ID: "call_1", Type: "function", FunctionCall: &llms.FunctionCall{Name: "book_table", Arguments: `{"city": "Paris",`}}
	conv, err = langchaingo.Messages(history).Conversation()
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
