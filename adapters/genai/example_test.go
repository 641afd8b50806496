package genai_test

import (
	"fmt"

	gogenai "google.golang.org/genai"

	"github.com/agentcheck/agentcheck/adapters/genai"
)

// Example converts the history an agent built on google.golang.org/genai
// keeps: the contents it sent to GenerateContent, with the model's answers
// and the function responses appended. The SDK's helpers give calls and
// responses no ids: each response is paired with its call by name.
func Example() {
	history := []*gogenai.Content{
		gogenai.NewContentFromText("A table for two in Paris, please.", gogenai.RoleUser),
		gogenai.NewContentFromFunctionCall("book_table", map[string]any{"city": "Paris", "people": 2}, gogenai.RoleModel),
		gogenai.NewContentFromFunctionResponse("book_table", map[string]any{"output": "booked for 20:00"}, gogenai.RoleUser),
		gogenai.NewContentFromText("Booked for 20:00.", gogenai.RoleModel),
	}
	conv, err := genai.Contents(history).Conversation()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(conv)
	fmt.Println(conv[2].ToolCallID == conv[1].ToolCalls[0].ID)

	// A response that answers no call is named.
	history[2] = gogenai.NewContentFromFunctionResponse("cancel_table", map[string]any{"output": "cancelled"}, gogenai.RoleUser)
	_, err = genai.Contents(history).Conversation()
	fmt.Println(err)
	// Output:
	// [0] human: A table for two in Paris, please.
	// [1] ai:
	//     -> book_table({"city":"Paris","people":2})
	// [2] tool: {"output":"booked for 20:00"}
	// [3] ai: Booked for 20:00.
	// true
	// message 2 (human): part 0: functionResponse "cancel_table" answers no call: no call of that name was made
}
