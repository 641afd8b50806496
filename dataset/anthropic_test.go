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

func anthropicCall(id, name, input string, kind agentcheck.ToolKind) agentcheck.ToolCall {
	return agentcheck.ToolCall{ID: id, Name: name, Args: jsonvalue.MustParse(input), Kind: kind}
}

func TestParseAnthropicMessages(t *testing.T) {
	const (
		fn     = agentcheck.FunctionTool
		hosted = agentcheck.HostedTool
		mcp    = agentcheck.MCPTool
	)
	tests := []struct {
		name, data string
		want       agentcheck.Conversation
	}{
		{"request body with client tools", `{
			"model": "claude-sonnet-4-5", "max_tokens": 1024,
			"system": [{"type": "text", "text": "You are a weather assistant."}, {"type": "text", "text": "Be brief.", "cache_control": {"type": "ephemeral"}}],
			"tools": [{"name": "get_weather", "input_schema": {"type": "object"}}],
			"messages": [
			{"role": "user", "content": "What's the weather in Paris and the time there?"},
			{"role": "assistant", "content": [
				{"type": "thinking", "thinking": "Two tools.", "signature": "EqQBCgIYAhIM"},
				{"type": "text", "text": "I'll check both."},
				{"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "get_weather", "input": {"location": "Paris", "unit": "celsius", "days": 2.0}},
				{"type": "tool_use", "id": "toolu_01B", "name": "get_time", "input": {}}]},
			{"role": "user", "content": [
				{"type": "tool_result", "tool_use_id": "toolu_01A09q90qw90lq917835lq9", "content": "15 degrees"},
				{"type": "tool_result", "tool_use_id": "toolu_01B", "content": [
					{"type": "text", "text": "14:00"},
					{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
					{"type": "text", "text": "CET"}], "is_error": false},
				{"type": "text", "text": "And tomorrow?"},
				{"type": "text", "text": "In Lyon too."}]},
			{"role": "assistant", "content": "15°C now; I have no forecast."}]}`,
			agentcheck.Conversation{
				{Role: agentcheck.System, Content: "You are a weather assistant.\nBe brief."},
				{Role: agentcheck.Human, Content: "What's the weather in Paris and the time there?"},
				{Role: agentcheck.AI, Content: "I'll check both.", Reasoning: "Two tools.", ToolCalls: []agentcheck.ToolCall{
					anthropicCall("toolu_01A09q90qw90lq917835lq9", "get_weather", `{"location": "Paris", "unit": "celsius", "days": 2.0}`, fn),
					anthropicCall("toolu_01B", "get_time", `{}`, fn),
				}},
				{Role: agentcheck.Tool, Content: "15 degrees", ToolCallID: "toolu_01A09q90qw90lq917835lq9"},
				{Role: agentcheck.Tool, Content: "14:00\nCET", ToolCallID: "toolu_01B"},
				{Role: agentcheck.Human, Content: "And tomorrow?\nIn Lyon too."},
				{Role: agentcheck.AI, Content: "15°C now; I have no forecast."},
			}},
		{"response body", `{"id": "msg_01Aq9w938a90dw8q", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
			"content": [{"type": "text", "text": "Let me look."}, {"type": "tool_use", "id": "toolu_01", "name": "lookup", "input": {"q": "x", "n": 1e2}}],
			"stop_reason": "tool_use", "stop_sequence": null, "usage": {"input_tokens": 10, "output_tokens": 20}}`,
			agentcheck.Conversation{{Role: agentcheck.AI, Content: "Let me look.", ToolCalls: []agentcheck.ToolCall{anthropicCall("toolu_01", "lookup", `{"q": "x", "n": 1e2}`, fn)}}}},
		{"server tools with citations", `[
			{"role": "user", "content": "When was Claude Shannon born, and what is 2**10?"},
			{"role": "assistant", "content": [
				{"type": "text", "text": "I'll search."},
				{"type": "server_tool_use", "id": "srvtoolu_01WYG3ziw53XMcoyKL4XcZmE", "name": "web_search", "input": {"query": "claude shannon birth date"}},
				{"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01WYG3ziw53XMcoyKL4XcZmE", "content": [
					{"type": "web_search_result", "url": "https://en.wikipedia.org/wiki/Claude_Shannon", "title": "Claude Shannon", "encrypted_content": "EqgfCioIARgBIiQ3", "page_age": "April 30, 2025"}]},
				{"type": "text", "text": "Based on the results, "},
				{"type": "text", "text": "Claude Shannon was born on April 30, 1916", "citations": [
					{"type": "web_search_result_location", "url": "https://en.wikipedia.org/wiki/Claude_Shannon", "title": "Claude Shannon", "encrypted_index": "Eo8BCioIAhgB", "cited_text": "Claude Elwood Shannon (April 30, 1916 – February 24, 2001)"}]},
				{"type": "text", "text": "."},
				{"type": "text", "text": "Now the sum."},
				{"type": "server_tool_use", "id": "srvtoolu_02", "name": "code_execution", "input": {"code": "print(2**10)"}},
				{"type": "code_execution_tool_result", "tool_use_id": "srvtoolu_02", "content": {"type": "code_execution_result", "stdout": "1024\n", "stderr": "", "return_code": 0, "content": []}},
				{"type": "server_tool_use", "id": "srvtoolu_03", "name": "bash_code_execution", "input": {"command": "false"}},
				{"type": "bash_code_execution_tool_result", "tool_use_id": "srvtoolu_03", "content": {"type": "bash_code_execution_result", "stdout": "", "stderr": "", "return_code": 1, "content": []}},
				{"type": "server_tool_use", "id": "srvtoolu_04", "name": "web_fetch", "input": {"url": "https://example.com"}},
				{"type": "web_fetch_tool_result", "tool_use_id": "srvtoolu_04", "content": {"type": "web_fetch_tool_result_error", "error_code": "url_not_accessible"}},
				{"type": "text", "text": "2**10 is 1024."}]}]`,
			agentcheck.Conversation{
				{Role: agentcheck.Human, Content: "When was Claude Shannon born, and what is 2**10?"},
				{Role: agentcheck.AI, Content: "I'll search.", ToolCalls: []agentcheck.ToolCall{anthropicCall("srvtoolu_01WYG3ziw53XMcoyKL4XcZmE", "web_search", `{"query": "claude shannon birth date"}`, hosted)}},
				{Role: agentcheck.Tool, ToolCallID: "srvtoolu_01WYG3ziw53XMcoyKL4XcZmE",
					Content: `[{"encrypted_content":"EqgfCioIARgBIiQ3","page_age":"April 30, 2025","title":"Claude Shannon","type":"web_search_result","url":"https://en.wikipedia.org/wiki/Claude_Shannon"}]`},
				{Role: agentcheck.AI, Content: "Based on the results, Claude Shannon was born on April 30, 1916.\nNow the sum.", ToolCalls: []agentcheck.ToolCall{anthropicCall("srvtoolu_02", "code_execution", `{"code": "print(2**10)"}`, hosted)}},
				{Role: agentcheck.Tool, ToolCallID: "srvtoolu_02", Content: `{"content":[],"return_code":0,"stderr":"","stdout":"1024\n","type":"code_execution_result"}`},
				{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{anthropicCall("srvtoolu_03", "bash_code_execution", `{"command": "false"}`, hosted)}},
				{Role: agentcheck.Tool, ToolCallID: "srvtoolu_03", IsError: true, Content: `{"content":[],"return_code":1,"stderr":"","stdout":"","type":"bash_code_execution_result"}`},
				{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{anthropicCall("srvtoolu_04", "web_fetch", `{"url": "https://example.com"}`, hosted)}},
				{Role: agentcheck.Tool, ToolCallID: "srvtoolu_04", IsError: true, Content: `{"error_code":"url_not_accessible","type":"web_fetch_tool_result_error"}`},
				{Role: agentcheck.AI, Content: "2**10 is 1024."},
			}},
		{"MCP connector", `{"type": "message", "role": "assistant", "content": [
				{"type": "mcp_tool_use", "id": "mcptoolu_014Q35RayjACSWkSj4X2yov1", "name": "echo", "server_name": "example-mcp", "input": {"param1": "value1", "n": 2.50}},
				{"type": "mcp_tool_result", "tool_use_id": "mcptoolu_014Q35RayjACSWkSj4X2yov1", "is_error": false, "content": [{"type": "text", "text": "Hello"}]},
				{"type": "mcp_tool_use", "id": "mcptoolu_02", "name": "echo", "server_name": "example-mcp", "input": {}},
				{"type": "mcp_tool_result", "tool_use_id": "mcptoolu_02", "is_error": true, "content": "param1 is required"},
				{"type": "text", "text": "Done."}]}`,
			agentcheck.Conversation{
				{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{anthropicCall("mcptoolu_014Q35RayjACSWkSj4X2yov1", "echo", `{"param1": "value1", "n": 2.50}`, mcp)}},
				{Role: agentcheck.Tool, ToolCallID: "mcptoolu_014Q35RayjACSWkSj4X2yov1", Content: "Hello"},
				{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{anthropicCall("mcptoolu_02", "echo", `{}`, mcp)}},
				{Role: agentcheck.Tool, ToolCallID: "mcptoolu_02", Content: "param1 is required", IsError: true},
				{Role: agentcheck.AI, Content: "Done."},
			}},
		{"search results in a tool result", `[
			{"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_s", "name": "search_kb", "input": {"q": "refunds"}}]},
			{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_s", "content": [
				{"type": "search_result", "source": "https://kb.example.com/refunds", "title": "Refunds", "content": [{"type": "text", "text": "Refunds take 5 days."}, {"type": "text", "text": "Ask support."}]}]}]}]`,
			agentcheck.Conversation{
				{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{anthropicCall("toolu_s", "search_kb", `{"q": "refunds"}`, fn)}},
				{Role: agentcheck.Tool, ToolCallID: "toolu_s", Content: "Refunds take 5 days.\nAsk support."},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := dataset.ParseAnthropicMessages([]byte(tt.data))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, sameValue); diff != "" {
				t.Errorf("conversation (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseAnthropicMessagesFailedToolsAndSystem(t *testing.T) {
	// A failed tool, a system string and a system-role message, an answer
	// of redacted thinking only and an empty one convert.
	conv, err := dataset.ParseAnthropicMessages([]byte(`{"system": "Book tables.", "messages": [
		{"role": "user", "content": [{"type": "text", "text": "Book one"}, {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "menu"}}]},
		{"role": "assistant", "content": [{"type": "redacted_thinking", "data": "EmwKAhgBEgy3va"}, {"type": "tool_use", "id": "toolu_1", "name": "book", "input": null}]},
		{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": [{"type": "text", "text": "no table free"}], "is_error": true}]},
		{"role": "system", "content": [{"type": "text", "text": "Apologise."}]},
		{"role": "assistant", "content": [{"type": "redacted_thinking", "data": "EmwKAhgBEgy3va"}]},
		{"role": "assistant", "content": []}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := agentcheck.Conversation{
		{Role: agentcheck.System, Content: "Book tables."},
		{Role: agentcheck.Human, Content: "Book one"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{anthropicCall("toolu_1", "book", `{}`, agentcheck.FunctionTool)}},
		{Role: agentcheck.Tool, ToolCallID: "toolu_1", Content: "no table free", IsError: true},
		{Role: agentcheck.System, Content: "Apologise."},
		{Role: agentcheck.AI},
		{Role: agentcheck.AI},
	}
	if diff := cmp.Diff(want, conv, sameValue); diff != "" {
		t.Errorf("conversation (-want +got):\n%s", diff)
	}
}

func TestParseAnthropicMessagesErrors(t *testing.T) {
	const call = `{"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "book", "input": {"city": "Paris"}}]}`
	tests := []struct {
		data, err string
		msg, call int // -1: not a *agentcheck.MessageError
		name      string
	}{
		{`[` + call + `, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_9", "content": "booked"}]}]`,
			`message 1 (human): content block 0: tool_result answers tool_use_id "toolu_9", which no tool_use made`, 1, -1, ""},
		{`[{"role": "assistant", "content": [{"type": "text", "text": "ok"}, {"type": "tool_use", "id": "toolu_1", "name": "book", "input": "{\"city\": \"Paris\"}"}]}]`,
			`message 0 (ai), tool call 0 "book": content block 1: "input" must be a JSON object, got string`, 0, 0, "book"},
		{`[{"role": "user", "content": "hi"}, {"role": "tool", "content": "x"}]`, `message 1: unknown role "tool" (want user, assistant or system)`, 1, -1, ""},
		{`[{"content": "hi"}]`, `message 0: "role" must be a string, got null`, 0, -1, ""},
		{`[{"role": "user", "content": 3}]`, `message 0 (human): "content" must be a string or a list of content blocks, got int`, 0, -1, ""},
		{`[{"role": "user", "content": ["hi"]}]`, `message 0 (human): content block 0 must be an object, got string`, 0, -1, ""},
		{`[{"role": "user", "content": [{"text": "hi"}]}]`, `message 0 (human): content block 0: "type" must be a string, got null`, 0, -1, ""},
		{`[{"role": "assistant", "content": [{"type": "text", "text": ["hi"]}]}]`, `message 0 (ai): content block 0: "text" must be a string, got array`, 0, -1, ""},
		{`["hi"]`, `message 0: a message must be an object, got string`, 0, -1, ""},
		{`[{"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "tool_use", "id": "t", "name": "f", "input": {}}]}]`,
			`message 0 (human), tool call 0 "f": content block 1: tool_use in a user message: only assistant messages make calls`, 0, 0, "f"},
		{`[{"role": "assistant", "content": [{"type": "tool_use", "id": "t", "input": {}}]}]`,
			`message 0 (ai), tool call 0: content block 0: "name" must be a non-empty string`, 0, 0, ""},
		{`[{"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "a", "input": {}}, {"type": "server_tool_use", "name": "web_search", "input": {}}]}]`,
			`message 0 (ai), tool call 1 "web_search": content block 1: "id" must be a non-empty string`, 0, 1, "web_search"},
		{`[` + call + `, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1"}]}, ` + call + `]`,
			`message 2 (ai), tool call 0 "book": content block 0: tool_use id "toolu_1" is the id of an earlier call`, 2, 0, "book"},
		{`[{"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": {}}, {"type": "tool_result", "tool_use_id": "t"}]}]`,
			`message 0 (ai): content block 1: tool_result in an assistant message: tool results are sent in user messages`, 0, -1, ""},
		{`[{"role": "user", "content": [{"type": "web_search_tool_result", "tool_use_id": "s", "content": []}]}]`,
			`message 0 (human): content block 0: web_search_tool_result in a user message: only assistant messages hold the results of server and MCP tools`, 0, -1, ""},
		{`[{"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": {}}, {"type": "mcp_tool_result", "tool_use_id": "t"}]}]`,
			`message 0 (ai): content block 1: mcp_tool_result answers tool_use_id "t", which a tool_use made, not an mcp_tool_use`, 0, -1, ""},
		{`[` + call + `, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1"}, {"type": "tool_result", "tool_use_id": "toolu_1"}]}]`,
			`message 1 (human): content block 1: tool_result answers tool_use_id "toolu_1", which an earlier result answered`, 1, -1, ""},
		{`[` + call + `, {"role": "user", "content": "wait"}, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1"}]}]`,
			`message 2 (human): content block 0: tool_result for tool_use_id "toolu_1" must follow the assistant message that made the call, or other results of its calls`, 2, -1, ""},
		{`[` + call + `, {"role": "user", "content": [{"type": "tool_result", "content": "x"}]}]`,
			`message 1 (human): content block 0: tool_result: "tool_use_id" must be a non-empty string`, 1, -1, ""},
		{`[` + call + `, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "is_error": "yes"}]}]`,
			`message 1 (human): content block 0: tool_result: "is_error" must be a boolean, got string`, 1, -1, ""},
		{`[` + call + `, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": [{"type": "text", "text": 1}]}]}]`,
			`message 1 (human): content block 0: tool_result: content block 0: "text" must be a string, got int`, 1, -1, ""},
		{`[` + call + `, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": {"text": "x"}}]}]`,
			`message 1 (human): content block 0: tool_result: "content" must be a string or a list of content blocks, got object`, 1, -1, ""},
		{`{"system": 1, "messages": []}`, `"system" must be a string or a list of text blocks, got int`, -1, 0, ""},
		{`{"system": [{"type": "text", "text": null}], "messages": []}`, `"system": block 0: "text" must be a string, got null`, -1, 0, ""},
		{`{"messages": {}}`, `"messages" must be a list, got object`, -1, 0, ""},
		{`{"contents": []}`, `want a list of messages, or an object with "messages" or "type": "message"`, -1, 0, ""},
		{`{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}`, `an error response, not messages: "Overloaded"`, -1, 0, ""},
		{`"hi"`, `want a list of messages, got string`, -1, 0, ""},
		{`[{"role": "user", "content": "hi"}`, `line 1, column 35: unexpected end of input in array`, -1, 0, ""},
	}
	for _, tt := range tests {
		_, err := dataset.ParseAnthropicMessages([]byte(tt.data))
		if err == nil || err.Error() != tt.err {
			t.Errorf("ParseAnthropicMessages(%s):\n got %v\nwant %s", tt.data, err, tt.err)
			continue
		}
		var me *agentcheck.MessageError
		if !errors.As(err, &me) {
			if tt.msg >= 0 {
				t.Errorf("ParseAnthropicMessages(%s): %T is not a *agentcheck.MessageError", tt.data, err)
			}
			continue
		}
		if tt.msg < 0 {
			t.Errorf("ParseAnthropicMessages(%s): an unexpected *agentcheck.MessageError", tt.data)
		}
		if me.Message != tt.msg || me.ToolCall != tt.call || me.Name != tt.name {
			t.Errorf("ParseAnthropicMessages(%s): message %d, call %d, name %q; want %d, %d, %q", tt.data, me.Message, me.ToolCall, me.Name, tt.msg, tt.call, tt.name)
		}
	}
}

// ExampleParseAnthropicMessages reads an Anthropic Messages API request
// body: the tool result, sent in a user message, becomes a Tool message,
// and the text after it a Human message.
func ExampleParseAnthropicMessages() {
	conv, err := dataset.ParseAnthropicMessages([]byte(`{"system": "You book tables.", "messages": [
		{"role": "user", "content": "A table for two in Paris."},
		{"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_01", "name": "book_table", "input": {"city": "Paris", "people": 2}}]},
		{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "content": "booked for 20:00"}, {"type": "text", "text": "Thanks!"}]},
		{"role": "assistant", "content": [{"type": "text", "text": "Enjoy your dinner."}]}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(conv)
	// Output:
	// [0] system: You book tables.
	// [1] human: A table for two in Paris.
	// [2] ai:
	//     -> book_table({"city":"Paris","people":2})
	// [3] tool: booked for 20:00
	// [4] human: Thanks!
	// [5] ai: Enjoy your dinner.
}

// FuzzParseAnthropicMessages holds the reader to what it promises: a
// conversation it returns is valid, and each of its Tool messages answers
// a call made before it.
func FuzzParseAnthropicMessages(f *testing.F) {
	for _, s := range []string{
		`{"system": "s", "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "f", "input": {"x": 1.0}}]}, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "is_error": true}, {"type": "text", "text": "ok"}]}]}`,
		`{"type": "message", "role": "assistant", "content": [{"type": "server_tool_use", "id": "s", "name": "web_search", "input": {}}, {"type": "web_search_tool_result", "tool_use_id": "s", "content": []}, {"type": "text", "text": "t", "citations": [{}]}]}`,
		`[{"role": "assistant", "content": [{"type": "mcp_tool_use", "id": "m", "name": "e", "server_name": "x", "input": {}}, {"type": "mcp_tool_result", "tool_use_id": "m", "content": [{"type": "text", "text": "r"}]}]}]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		conv, err := dataset.ParseAnthropicMessages([]byte(data))
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
