package eino_test

import (
	"fmt"

	"github.com/cloudwego/eino/schema"

	"github.com/agentcheck/agentcheck/adapters/eino"
)

// Example converts the messages of an eino agent run: the history its
// chat model was given, with the model's last answer appended.
func Example() {
	msgs := []*schema.Message{
		schema.SystemMessage("You book tables."),
		schema.UserMessage("A table for two in Paris, please."),
		schema.AssistantMessage("", []schema.ToolCall{{
			ID:       "call_1",
			Type:     "function",
			Function: schema.FunctionCall{Name: "book_table", Arguments: `{"city": "Paris", "people": 2}`},
		}}),
		schema.ToolMessage("booked for 20:00", "call_1", schema.WithToolName("book_table")),
		{Role: schema.Assistant, Content: "Booked for 20:00.", ReasoningContent: "The booking worked."},
	}
	conv, err := eino.Messages(msgs).Conversation()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(conv)
	fmt.Println(conv[3].ToolCallID)

	// A call whose arguments are not valid JSON keeps them as written.
	msgs[2].ToolCalls[0].Function.Arguments = `{"city": "Paris",`
	conv, err = eino.Messages(msgs).Conversation()
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
