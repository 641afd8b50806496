package dataset_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

func geminiCall(id, name, args string) agentcheck.ToolCall {
	return agentcheck.ToolCall{ID: id, Name: name, Args: jsonvalue.MustParse(args)}
}

func geminiHosted(id, name, args string) agentcheck.ToolCall {
	tc := geminiCall(id, name, args)
	tc.Kind = agentcheck.HostedTool
	return tc
}

func TestParseGeminiContents(t *testing.T) {
	tests := []struct {
		name, data string
		want       agentcheck.Conversation
	}{
		{"request", `{"model": "gemini-2.5-flash",
			"systemInstruction": {"parts": [{"text": "You book tables."}, {"text": "Be brief."}]},
			"contents": [
			{"role": "user", "parts": [{"text": "A table for two"}, {"inlineData": {"mimeType": "image/png", "data": "AAAA"}}, {"text": "in Paris"}]},
			{"role": "model", "parts": [
				{"text": "The user wants a table.", "thought": true},
				{"text": "Checking."},
				{"functionCall": {"id": "fc-1", "name": "find", "args": {"city": "Paris", "people": 2, "budget": 50.0}}, "thoughtSignature": "c2ln"},
				{"functionCall": {"name": "weather", "args": {"city": "Paris"}}},
				{"functionCall": {"name": "clock"}}]},
			{"role": "user", "parts": [
				{"text": "also, no terrace"},
				{"functionResponse": {"name": "weather", "response": {"output": "sunny", "temp": 21.5}}},
				{"functionResponse": {"id": "fc-1", "name": "find", "response": {"error": "no table free"}}},
				{"functionResponse": {"name": "clock", "response": {"time": "20:00"}}}]},
			{"role": "model", "parts": [{"text": "Nothing free tonight."}]}]}`,
			agentcheck.Conversation{
				{Role: agentcheck.System, Content: "You book tables.\nBe brief."},
				{Role: agentcheck.Human, Content: "A table for two\nin Paris"},
				{Role: agentcheck.AI, Content: "Checking.", ToolCalls: []agentcheck.ToolCall{
					geminiCall("fc-1", "find", `{"city": "Paris", "people": 2, "budget": 50.0}`),
					geminiCall("call_1_3", "weather", `{"city": "Paris"}`),
					geminiCall("call_1_4", "clock", `{}`),
				}},
				{Role: agentcheck.Tool, Content: `{"output":"sunny","temp":21.5}`, ToolCallID: "call_1_3"},
				{Role: agentcheck.Tool, Content: `{"error":"no table free"}`, ToolCallID: "fc-1", IsError: true},
				{Role: agentcheck.Tool, Content: `{"time":"20:00"}`, ToolCallID: "call_1_4"},
				{Role: agentcheck.Human, Content: "also, no terrace"},
				{Role: agentcheck.AI, Content: "Nothing free tonight."},
			}},
		{"snake case, roles by default and of older callers", `{"system_instruction": "Be kind.", "contents": [
			{"parts": [{"text": "hi"}]},
			{"role": "model", "parts": [{"function_call": {"name": "f", "args": {"a": [1, 2.5e3]}}}, {"function_call": {"name": "f", "args": {}}}]},
			{"role": "function", "parts": [{"function_response": {"name": "f", "response": {"n": 1}}}, {"function_response": {"name": "f"}}]},
			{"role": "model", "parts": []},
			{"role": "user", "parts": [{"text": "bye"}]},
			{"role": "model"}]}`,
			agentcheck.Conversation{
				{Role: agentcheck.System, Content: "Be kind."},
				{Role: agentcheck.Human, Content: "hi"},
				{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{geminiCall("call_1_0", "f", `{"a": [1, 2.5e3]}`), geminiCall("call_1_1", "f", `{}`)}},
				{Role: agentcheck.Tool, Content: `{"n":1}`, ToolCallID: "call_1_0"},
				{Role: agentcheck.Tool, ToolCallID: "call_1_1"},
				{Role: agentcheck.AI},
				{Role: agentcheck.Human, Content: "bye"},
				{Role: agentcheck.AI},
			}},
		{"response: the first candidate", `{"candidates": [
			{"content": {"role": "model", "parts": [{"text": "Hello"}, {"text": "there."}]}, "finishReason": "STOP", "index": 0},
			{"content": {"role": "model", "parts": [{"text": "Other"}]}, "index": 1}],
			"usageMetadata": {"promptTokenCount": 3}, "modelVersion": "gemini-2.5-flash"}`,
			agentcheck.Conversation{{Role: agentcheck.AI, Content: "Hello\nthere."}}},
		{"streamed response chunks make one message", `[
			{"candidates": [{"content": {"role": "model", "parts": [{"text": "The weather"}]}}]},
			{"candidates": [{"content": {"role": "model", "parts": [{"text": " in Paris"}, {"text": "is:"}]}}]},
			{"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": "weather", "args": {"city": "Paris"}}}]}}]},
			{"candidates": [{"content": {"role": "model", "parts": [{"text": "", "thoughtSignature": "c2ln"}]}, "finishReason": "STOP"}]},
			{"usageMetadata": {"totalTokenCount": 9}}]`,
			agentcheck.Conversation{{Role: agentcheck.AI, Content: "The weather in Paris\nis:", ToolCalls: []agentcheck.ToolCall{geminiCall("call_2_0", "weather", `{"city": "Paris"}`)}}}},
		{"a blocked prompt has no candidates", `{"promptFeedback": {"blockReason": "SAFETY"}}`, agentcheck.Conversation{}},
		{"code execution and server-side tools", `[
			{"role": "user", "parts": [{"text": "Sum the primes below 10, then search."}]},
			{"role": "model", "parts": [
				{"text": "Computing."},
				{"executableCode": {"language": "PYTHON", "code": "print(2+3+5+7)"}},
				{"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "17\n"}},
				{"executableCode": {"id": "ex-2", "language": "PYTHON", "code": "1/0"}},
				{"codeExecutionResult": {"id": "ex-2", "outcome": "OUTCOME_FAILED", "output": "ZeroDivisionError"}}]},
			{"role": "model", "parts": [
				{"toolCall": {"toolType": "GOOGLE_SEARCH_WEB", "args": {"queries": ["primes"]}}},
				{"toolResponse": {"toolType": "GOOGLE_SEARCH_WEB", "response": {"results": 3}}}]},
			{"role": "model", "parts": [{"text": "It is 17."}]}]`,
			agentcheck.Conversation{
				{Role: agentcheck.Human, Content: "Sum the primes below 10, then search."},
				{Role: agentcheck.AI, Content: "Computing.", ToolCalls: []agentcheck.ToolCall{geminiHosted("call_1_1", "code_execution", `{"language": "PYTHON", "code": "print(2+3+5+7)"}`)}},
				{Role: agentcheck.Tool, Content: "17\n", ToolCallID: "call_1_1"},
				{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{geminiHosted("ex-2", "code_execution", `{"language": "PYTHON", "code": "1/0"}`)}},
				{Role: agentcheck.Tool, Content: "ZeroDivisionError", ToolCallID: "ex-2", IsError: true},
				{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{geminiHosted("call_2_0", "google_search_web", `{"queries": ["primes"]}`)}},
				{Role: agentcheck.Tool, Content: `{"results":3}`, ToolCallID: "call_2_0"},
				{Role: agentcheck.AI, Content: "It is 17."},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := dataset.ParseGeminiContents([]byte(tt.data))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, sameValue); diff != "" {
				t.Errorf("conversation (-want +got):\n%s", diff)
			}
		})
	}
}

// The same conversation as OpenAI Chat Completions messages and as Gemini
// contents reads the same.
func TestParseGeminiContentsSameAsOpenAI(t *testing.T) {
	openAI, err := dataset.ParseOpenAIMessages([]byte(`[
		{"role": "system", "content": "You book tables."},
		{"role": "user", "content": [{"type": "text", "text": "Two people"}, {"type": "text", "text": "in Paris"}]},
		{"role": "assistant", "content": "Looking.", "tool_calls": [
			{"id": "c1", "type": "function", "function": {"name": "find", "arguments": "{\"city\": \"Paris\", \"people\": 2, \"budget\": 1.0}"}},
			{"id": "c2", "type": "function", "function": {"name": "weather", "arguments": ""}}]},
		{"role": "tool", "tool_call_id": "c1", "content": "{\"table\":7}"},
		{"role": "tool", "tool_call_id": "c2", "content": "{\"sky\":\"clear\"}"},
		{"role": "assistant", "content": "Table 7."}]`))
	if err != nil {
		t.Fatal(err)
	}
	gemini, err := dataset.ParseGeminiContents([]byte(`{"systemInstruction": {"parts": [{"text": "You book tables."}]}, "contents": [
		{"role": "user", "parts": [{"text": "Two people"}, {"text": "in Paris"}]},
		{"role": "model", "parts": [{"text": "Looking."}, {"functionCall": {"id": "c1", "name": "find", "args": {"city": "Paris", "people": 2, "budget": 1.0}}}, {"functionCall": {"id": "c2", "name": "weather"}}]},
		{"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "find", "response": {"table": 7}}}, {"functionResponse": {"name": "weather", "response": {"sky": "clear"}}}]},
		{"role": "model", "parts": [{"text": "Table 7."}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(openAI, gemini, sameValue); diff != "" {
		t.Errorf("OpenAI (-) and Gemini (+) readings differ:\n%s", diff)
	}
}

func TestParseGeminiContentsErrors(t *testing.T) {
	tests := []struct {
		data string
		err  string
		// message, tool call and name of the *agentcheck.MessageError; msg
		// -1 for an error that is not one.
		msg, call int
		name      string
	}{
		{`{"contents": [{"role": "robot", "parts": []}]}`, `message 0: unknown role "robot" (want user or model)`, 0, -1, ""},
		{`[{"role": "user", "parts": [{"text": "hi"}]}, {"role": "model", "parts": [{"text": "ok"}, {"functionCall": {"name": "f", "args": "{\"a\": 1}"}}]}]`,
			`message 1 (ai), tool call 0 "f": part 1: "functionCall.args" must be an object, got string`, 1, 0, "f"},
		{`[{"role": "model", "parts": [{"functionCall": {"name": "f"}}, {"functionCall": {"args": {}}}]}]`,
			`message 0 (ai), tool call 1: part 1: "functionCall.name" must be a non-empty string`, 0, 1, ""},
		{`[{"role": "user", "parts": [{"functionCall": {"name": "f"}}]}]`,
			`message 0 (human), tool call 0 "f": part 0: functionCall in a user content: only model contents make calls`, 0, 0, "f"},
		{`[{"role": "model", "parts": [{"functionCall": {"name": "f"}}]}, {"role": "user", "parts": [{"functionResponse": {"name": "g", "response": {}}}]}]`,
			`message 1 (human): part 0: functionResponse "g" answers no call: no call of that name was made`, 1, -1, ""},
		{`[{"role": "model", "parts": [{"functionCall": {"name": "f"}}]}, {"role": "user", "parts": [{"functionResponse": {"name": "f"}}, {"functionResponse": {"name": "f"}}]}]`,
			`message 1 (human): part 1: functionResponse "f" answers no call: every call of that name is answered already`, 1, -1, ""},
		{`[{"role": "model", "parts": [{"functionCall": {"id": "a", "name": "f"}}]}, {"role": "user", "parts": [{"functionResponse": {"id": "b", "name": "f"}}]}]`,
			`message 1 (human): part 0: functionResponse "f" answers call id "b", which no call made`, 1, -1, ""},
		{`[{"role": "model", "parts": [{"functionCall": {"name": "f"}}]}, {"role": "user", "parts": [{"text": "wait"}]}, {"role": "user", "parts": [{"functionResponse": {"name": "f"}}]}]`,
			`message 2 (human): part 0: functionResponse "f" must follow the model content that made the call, or other results`, 2, -1, ""},
		{`[{"role": "model", "parts": [{"functionCall": {"name": "f"}}]}, {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": "done"}}]}]`,
			`message 1 (human): part 0: functionResponse: "response" must be an object, got string`, 1, -1, ""},
		{`[{"role": "model", "parts": [{"functionCall": {"name": "f"}}]}, {"role": "user", "parts": [{"functionResponse": {"response": {}}}]}]`,
			`message 1 (human): part 0: functionResponse has neither "id" nor "name" to pair it with its call`, 1, -1, ""},
		{`[{"role": "user", "parts": [{"text": 5}]}]`, `message 0 (human): part 0: "text" must be a string, got int`, 0, -1, ""},
		{`[{"role": "user", "parts": ["hi"]}]`, `message 0 (human): part 0 must be an object, got string`, 0, -1, ""},
		{`[{"role": "user", "parts": {"text": "hi"}}]`, `message 0 (human): "parts" must be a list, got object`, 0, -1, ""},
		{`[{"role": "user"}, "hi"]`, `message 1: a content must be an object, got string`, 1, -1, ""},
		{`[{"role": 1}]`, `message 0: "role" must be a string, got int`, 0, -1, ""},
		{`[{"role": "model", "parts": [{"toolCall": {"args": {}}}]}]`, `message 0 (ai), tool call 0: part 0: "toolCall.toolType" must be a non-empty string`, 0, 0, ""},
		{`[{"role": "model", "parts": [{"executableCode": {"code": "1"}}, {"codeExecutionResult": {"outcome": 1}}]}]`,
			`message 0 (ai): part 1: codeExecutionResult: "outcome" must be a string, got int`, 0, -1, ""},
		{`[{"role": "model", "parts": [{"text": "x"}, {"codeExecutionResult": {"outcome": "OUTCOME_OK"}}]}]`,
			`message 0 (ai): part 1: codeExecutionResult "code_execution" answers no call: no call of that name was made`, 0, -1, ""},
		{`[{"candidates": [{"content": {"parts": [{"text": "a"}]}}]}, {"candidates": [{"content": {"parts": [{"functionCall": {"name": "f", "args": [1]}}]}}]}]`,
			`message 1 (ai), tool call 0 "f": part 0: "functionCall.args" must be an object, got array`, 1, 0, "f"},
		{`[{"candidates": []}, 7]`, `message 1: a response must be an object, got int`, 1, -1, ""},
		{`{"candidates": {}}`, `message 0: "candidates" must be a list, got object`, 0, -1, ""},
		{`{"messages": []}`, `want a list of contents, or an object with "contents" or "candidates"`, -1, 0, ""},
		{`{"contents": {}}`, `"contents" must be a list, got object`, -1, 0, ""},
		{`{"contents": [], "systemInstruction": {"parts": [{"text": true}]}}`, `"systemInstruction": part 0: "text" must be a string, got bool`, -1, 0, ""},
		{`{"contents": [], "systemInstruction": {"parts": ["x"]}}`, `"systemInstruction": part 0 must be an object, got string`, -1, 0, ""},
		{`{"contents": [], "systemInstruction": 3}`, `"systemInstruction" must be a content or a string, got int`, -1, 0, ""},
		{`"hi"`, `want a list of contents, got string`, -1, 0, ""},
		{`[{"role": "user", "parts": [{"text": "hi"}]}`, `line 1, column 45: unexpected end of input in array`, -1, 0, ""},
	}
	for _, tt := range tests {
		_, err := dataset.ParseGeminiContents([]byte(tt.data))
		if err == nil || err.Error() != tt.err {
			t.Errorf("ParseGeminiContents(%s):\n got %v\nwant %s", tt.data, err, tt.err)
			continue
		}
		var me *agentcheck.MessageError
		if !errors.As(err, &me) {
			if tt.msg >= 0 {
				t.Errorf("ParseGeminiContents(%s): %T is not a *agentcheck.MessageError", tt.data, err)
			}
			continue
		}
		if me.Message != tt.msg || me.ToolCall != tt.call || me.Name != tt.name {
			t.Errorf("ParseGeminiContents(%s): message %d, call %d, name %q; want %d, %d, %q", tt.data, me.Message, me.ToolCall, me.Name, tt.msg, tt.call, tt.name)
		}
	}
}

// ExampleParseGeminiContents reads a Gemini API request body whose calls
// have no ids: each result is paired with its call by name.
func ExampleParseGeminiContents() {
	conv, err := dataset.ParseGeminiContents([]byte(`{"contents": [
		{"role": "user", "parts": [{"text": "Weather in Paris?"}]},
		{"role": "model", "parts": [{"functionCall": {"name": "weather", "args": {"city": "Paris"}}}]},
		{"role": "user", "parts": [{"functionResponse": {"name": "weather", "response": {"sky": "sunny"}}}]},
		{"role": "model", "parts": [{"text": "Sunny."}]}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(conv)
	fmt.Println(conv[2].ToolCallID == conv[1].ToolCalls[0].ID, conv[2].ToolCallID)
	// Output:
	// [0] human: Weather in Paris?
	// [1] ai:
	//     -> weather({"city":"Paris"})
	// [2] tool: {"sky":"sunny"}
	// [3] ai: Sunny.
	// true call_1_0
}

// FuzzParseGeminiContents holds the reader to what it promises: a
// conversation it returns is valid, and each of its Tool messages answers a
// call made before it.
func FuzzParseGeminiContents(f *testing.F) {
	for _, s := range []string{
		`[{"role": "user", "parts": [{"text": "hi"}]}, {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {"a": 1.0}}}]}, {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {"error": "x"}}}, {"text": "ok"}]}]`,
		`{"systemInstruction": {"parts": [{"text": "s"}]}, "contents": [{"role": "model", "parts": [{"executableCode": {"code": "1"}}, {"codeExecutionResult": {"outcome": "OUTCOME_OK"}}, {"text": "t"}]}]}`,
		`[{"candidates": [{"content": {"parts": [{"text": "a"}, {"toolCall": {"toolType": "URL_CONTEXT"}}]}}]}, {"candidates": [{"content": {"parts": [{"toolResponse": {"toolType": "URL_CONTEXT", "response": {}}}]}}]}]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		conv, err := dataset.ParseGeminiContents([]byte(data))
		if err != nil {
			return
		}
		if err := conv.Validate(); err != nil {
			t.Fatalf("invalid conversation: %v", err)
		}
		ids := map[string]bool{}
		for i, m := range conv {
			for _, tc := range m.ToolCalls {
				ids[tc.ID] = true
			}
			if m.Role == agentcheck.Tool && !ids[m.ToolCallID] {
				t.Fatalf("message %d answers %q, which no earlier call has", i, m.ToolCallID)
			}
		}
	})
}
