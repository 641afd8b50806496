package dataset_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/dataset"
)

// ExampleReadSamples reads JSON Lines with a bad sample among good ones:
// the bad one is reported by file, line and sample, and inside it by
// message and tool call, and reading goes on.
func ExampleReadSamples() {
	data := `{"user_input": [{"type": "human", "content": "hi"}, {"type": "ai", "content": "hello"}]}
{"user_input": [{"type": "human", "content": "weather?"}, {"type": "ai", "content": "", "tool_calls": [{"name": "weather", "args": "Paris"}]}]}
`
	for s, err := range dataset.ReadSamples(strings.NewReader(data), "runs.jsonl") {
		if err != nil {
			fmt.Println("error:", err)
			var me *agentcheck.MessageError
			if errors.As(err, &me) {
				fmt.Println("message", me.Message, "call", me.ToolCall)
			}
			continue
		}
		fmt.Printf("loaded %d messages\n", len(s.Conversation))
	}
	// Output:
	// loaded 2 messages
	// error: runs.jsonl:2: sample 1: message 1 (ai), tool call 0 "weather": "args" must be an object, got string
	// message 1 call 0
}

// ExampleParseOpenAIMessages reads a Chat Completions request body.
func ExampleParseOpenAIMessages() {
	conv, err := dataset.ParseOpenAIMessages([]byte(`{"model": "gpt-4o", "messages": [
		{"role": "user", "content": "Weather in Paris?"},
		{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "weather", "arguments": "{\"city\": \"Paris\"}"}}]},
		{"role": "tool", "tool_call_id": "c1", "content": "sunny"},
		{"role": "assistant", "content": "Sunny."}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(conv)
	// Output:
	// [0] human: Weather in Paris?
	// [1] ai:
	//     -> weather({"city":"Paris"})
	// [2] tool: sunny
	// [3] ai: Sunny.
}
