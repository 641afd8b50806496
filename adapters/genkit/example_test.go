package genkit_test

import (
	"encoding/json"
	"fmt"

	"github.com/firebase/genkit/go/ai"

	"github.com/agentcheck/agentcheck/adapters/genkit"
)

// Example converts the response of a Generate call that ran a tool: its
// request holds the run so far, its message the final answer.
func Example() {
	call := ai.NewToolRequestPart(&ai.ToolRequest{Ref: "call_1", Name: "book_table", Input: map[string]any{"city": "Paris", "people": 2}})
	resp := &ai.ModelResponse{
		Request: ai.NewModelRequest(nil,
			ai.NewSystemTextMessage("You book tables."),
			ai.NewUserTextMessage("A table for two in Paris, please."),
			ai.NewModelMessage(call),
			ai.NewMessage(ai.RoleTool, nil, ai.NewResponseForToolRequest(call, map[string]any{"time": "20:00"})),
		),
		Message: ai.NewModelTextMessage("Booked for 20:00."),
	}
	conv, err := genkit.Response(resp).Conversation()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(conv)
	fmt.Println(conv.ToolCalls()[0].ID)

	// A call whose input is not valid JSON keeps it as written.
	call.ToolRequest.Input = json.RawMessage(`{"city": "Paris",`)
	conv, err = genkit.Messages(resp.History()).Conversation()
	fmt.Println(conv.ToolCalls()[0].Name, conv.ToolCalls()[0].InvalidArgs, err)
	// Output:
	// [0] system: You book tables.
	// [1] human: A table for two in Paris, please.
	// [2] ai:
	//     -> book_table({"city":"Paris","people":2})
	// [3] tool: {"time":"20:00"}
	// [4] ai: Booked for 20:00.
	// call_1
	// book_table {"city": "Paris", <nil>
}
