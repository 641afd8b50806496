package openaigo_test

import (
	"encoding/json"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/agentcheck/agentcheck/adapters/openaigo"
)

// Example converts a Chat Completions run: the messages the last request
// sent, the earlier reply among them, and the reply it got.
func Example() {
	var reply, last openai.ChatCompletionMessage // as completion.Choices[0].Message holds them
	json.Unmarshal([]byte(`{"role": "assistant", "content": null, "tool_calls": [
		{"id": "call_1", "type": "function", "function": {"name": "book_table", "arguments": "{\"city\": \"Paris\", \"people\": 2}"}}]}`), &reply)
	json.Unmarshal([]byte(`{"role": "assistant", "content": "Booked for 20:00."}`), &last)
	sent := []openai.ChatCompletionMessageParamUnion{
		openai.SystemMessage("You book tables."),
		openai.UserMessage("A table for two in Paris, please."),
		reply.ToParam(),
		openai.ToolMessage("booked for 20:00", "call_1"),
	}
	conv, err := openaigo.Chat{Sent: sent, Received: []openai.ChatCompletionMessage{last}}.Conversation()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(conv)
	// Output:
	// [0] system: You book tables.
	// [1] human: A table for two in Paris, please.
	// [2] ai:
	//     -> book_table({"city":"Paris","people":2})
	// [3] tool: booked for 20:00
	// [4] ai: Booked for 20:00.
}

// Example_responses converts a Responses API run chained with
// PreviousResponseID: each turn's input and response.
func Example_responses() {
	var first, second responses.Response // as client.Responses.New returns them
	json.Unmarshal([]byte(`{"id": "resp_1", "object": "response", "status": "completed", "output": [
		{"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "Paris restaurants"}},
		{"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "book_table", "arguments": "{\"city\": \"Paris\", \"people\": 2}"}]}`), &first)
	json.Unmarshal([]byte(`{"id": "resp_2", "object": "response", "status": "completed", "output": [
		{"type": "message", "id": "msg_1", "role": "assistant", "status": "completed", "content": [{"type": "output_text", "text": "Booked for 20:00.", "annotations": []}]}]}`), &second)
	result := responses.ResponseInputItemParamOfFunctionCallOutput("booked for 20:00")
	result.OfFunctionCallOutput.CallID = openai.String("call_1")
	run := openaigo.Responses{
		{Input: []responses.ResponseInputItemUnionParam{responses.ResponseInputItemParamOfMessage("A table for two in Paris, please.", responses.EasyInputMessageRoleUser)}, Response: &first},
		{Input: []responses.ResponseInputItemUnionParam{result}, Response: &second},
	}
	conv, err := run.Conversation()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(conv)
	fmt.Println(conv[1].ToolCalls[0].Kind, conv[1].ToolCalls[1].ID)
	// Output:
	// [0] human: A table for two in Paris, please.
	// [1] ai:
	//     -> web_search({"type":"search","query":"Paris restaurants"})
	//     -> book_table({"city":"Paris","people":2})
	// [2] tool: booked for 20:00
	// [3] ai: Booked for 20:00.
	// hosted call_1
}
