package dataset_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// A run as a stateless agent sends it back on its last request: the
// earlier output items are input items again.
const responsesRun = `[
	{"role": "developer", "content": "Be brief."},
	{"role": "user", "content": [
		{"type": "input_text", "text": "Weather in Paris and Rome?"},
		{"type": "input_image", "image_url": "https://example.com/map.png", "detail": "auto"},
		{"type": "input_text", "text": "In Celsius."}]},
	{"type": "reasoning", "id": "rs_68a1", "summary": [{"type": "summary_text", "text": "Two cities: two calls."}], "encrypted_content": null},
	{"type": "message", "id": "msg_68a2", "status": "completed", "role": "assistant",
		"content": [{"type": "output_text", "text": "Checking both.", "annotations": [], "logprobs": []}]},
	{"type": "function_call", "id": "fc_68a3", "call_id": "call_paris", "name": "get_weather", "arguments": "{\"city\":\"Paris\",\"days\":2.0}", "status": "completed"},
	{"type": "function_call", "id": "fc_68a4", "call_id": "call_rome", "name": "get_weather", "arguments": "{\"city\":\"Rome\",\"days\":2}", "status": "completed"},
	{"type": "function_call_output", "call_id": "call_paris", "output": "{\"temp\": 14}"},
	{"type": "function_call_output", "call_id": "call_rome", "output": [{"type": "input_text", "text": "18 degrees"}, {"type": "input_image", "image_url": "https://example.com/rome.png"}]},
	{"type": "web_search_call", "id": "ws_68a5", "status": "completed", "action": {"type": "search", "query": "Rome weather warning", "sources": [{"type": "url", "url": "https://meteo.example"}]}},
	{"type": "mcp_call", "id": "mcp_68a6", "server_label": "units", "name": "to_fahrenheit", "arguments": "{\"celsius\":14}", "output": "57.2", "error": null, "approval_request_id": null},
	{"type": "mcp_call", "id": "mcp_68a7", "server_label": "units", "name": "to_fahrenheit", "arguments": "{\"celsius\":\"x\"}", "output": null, "error": "celsius must be a number"},
	{"type": "message", "id": "msg_68a8", "status": "completed", "role": "assistant", "content": [
		{"type": "output_text", "text": "Paris 14°C, Rome 18°C.", "annotations": [{"type": "url_citation", "start_index": 0, "end_index": 5, "url": "https://meteo.example", "title": "Meteo"}]},
		{"type": "refusal", "refusal": "I can't give the warning."}]}
]`

func responsesRunWant() agentcheck.Conversation {
	return agentcheck.Conversation{
		{Role: agentcheck.System, Content: "Be brief."},
		{Role: agentcheck.Human, Content: "Weather in Paris and Rome?\nIn Celsius."},
		{Role: agentcheck.AI, Content: "Checking both.", Reasoning: "Two cities: two calls.", ToolCalls: []agentcheck.ToolCall{
			{ID: "call_paris", Name: "get_weather", Args: jsonvalue.MustParse(`{"city":"Paris","days":2.0}`)},
			{ID: "call_rome", Name: "get_weather", Args: jsonvalue.MustParse(`{"city":"Rome","days":2}`)},
		}},
		{Role: agentcheck.Tool, Content: `{"temp": 14}`, ToolCallID: "call_paris"},
		{Role: agentcheck.Tool, Content: "18 degrees", ToolCallID: "call_rome"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{
			{ID: "ws_68a5", Name: "web_search", Kind: agentcheck.HostedTool, Args: jsonvalue.MustParse(`{"type": "search", "query": "Rome weather warning", "sources": [{"type": "url", "url": "https://meteo.example"}]}`)},
			{ID: "mcp_68a6", Name: "to_fahrenheit", Kind: agentcheck.MCPTool, Args: jsonvalue.MustParse(`{"celsius":14}`)},
			{ID: "mcp_68a7", Name: "to_fahrenheit", Kind: agentcheck.MCPTool, Args: jsonvalue.MustParse(`{"celsius":"x"}`)},
		}},
		{Role: agentcheck.Tool, Content: "57.2", ToolCallID: "mcp_68a6"},
		{Role: agentcheck.Tool, Content: "celsius must be a number", ToolCallID: "mcp_68a7", IsError: true},
		{Role: agentcheck.AI, Content: "Paris 14°C, Rome 18°C.\nI can't give the warning."},
	}
}

func TestParseResponsesItems(t *testing.T) {
	got, err := dataset.ParseResponsesItems([]byte(responsesRun))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(responsesRunWant(), got, sameValue); diff != "" {
		t.Errorf("conversation (-want +got):\n%s", diff)
	}
	// The int/float distinction survives the arguments string.
	if d, _ := got[2].ToolCalls[0].Args.Get("days"); d.Kind() != jsonvalue.FloatKind || d.String() != "2.0" {
		t.Errorf("days is %s %s, want float 2.0", d.Kind(), d)
	}
	// The same items in a request body.
	got, err = dataset.ParseResponsesItems([]byte(`{"model": "gpt-4.1", "input": ` + responsesRun + `, "tools": [{"type": "web_search"}], "store": false}`))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(responsesRunWant(), got, sameValue); diff != "" {
		t.Errorf("request body (-want +got):\n%s", diff)
	}
}

func TestParseResponsesBodies(t *testing.T) {
	tests := []struct {
		name, doc string
		want      agentcheck.Conversation
	}{
		{"request with string input", `{"model": "gpt-4.1", "input": "Tell me a joke.", "instructions": "Be funny."}`,
			agentcheck.Conversation{{Role: agentcheck.Human, Content: "Tell me a joke."}}},
		{"response body", `{
			"id": "resp_67ccd2bed1ec8190b14f964abc054267", "object": "response", "created_at": 1741476542, "status": "completed",
			"error": null, "incomplete_details": null, "instructions": null, "model": "gpt-4.1-2025-04-14",
			"output": [
				{"type": "reasoning", "id": "rs_1", "summary": []},
				{"type": "function_call", "id": "fc_67ccd2bf", "call_id": "call_12345xyz", "name": "get_weather", "arguments": "{\"location\":\"Paris, France\"}", "status": "completed"}
			],
			"parallel_tool_calls": true, "tools": [], "usage": {"input_tokens": 291, "output_tokens": 23, "total_tokens": 314}}`,
			agentcheck.Conversation{{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{
				{ID: "call_12345xyz", Name: "get_weather", Args: jsonvalue.MustParse(`{"location":"Paris, France"}`)}}}}},
		{"input and output", `{"input": [
				{"role": "user", "content": "Weather in Paris?"},
				{"type": "function_call", "call_id": "c1", "name": "get_weather", "arguments": ""},
				{"type": "function_call_output", "call_id": "c1", "output": "sunny"}],
			"output": [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Sunny."}]}]}`,
			agentcheck.Conversation{
				{Role: agentcheck.Human, Content: "Weather in Paris?"},
				{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{{ID: "c1", Name: "get_weather", Args: jsonvalue.Object()}}},
				{Role: agentcheck.Tool, Content: "sunny", ToolCallID: "c1"},
				{Role: agentcheck.AI, Content: "Sunny."},
			}},
		{"output answered in a later input", `{"input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}],
			"output": [{"type": "function_call", "call_id": "c1", "name": "f", "arguments": {"b": 1, "a": 2}}], "instructions": null}`,
			agentcheck.Conversation{
				{Role: agentcheck.Human, Content: "hi"},
				{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{{ID: "c1", Name: "f", Args: jsonvalue.MustParse(`{"b": 1, "a": 2}`)}}},
			}},
		{"empty list", `[]`, agentcheck.Conversation{}},
	}
	for _, tt := range tests {
		got, err := dataset.ParseResponsesItems([]byte(tt.doc))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got, sameValue); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// The built-in tools' items, as the API returns them, and the results the
// agent gives back for those it runs itself.
func TestParseResponsesHostedTools(t *testing.T) {
	doc := `[
	{"role": "user", "content": "go"},
	{"type": "file_search_call", "id": "fs_67c09cce", "status": "completed", "queries": ["What is deep research?"], "results": null},
	{"type": "code_interpreter_call", "id": "ci_68b1", "status": "completed", "code": "print(2 + 2)", "container_id": "cntr_1", "outputs": [{"type": "logs", "logs": "4\n"}]},
	{"type": "image_generation_call", "id": "ig_123", "status": "completed", "revised_prompt": "A gray tabby cat hugging an otter", "size": "1024x1024", "result": "iVBORw0KGgo="},
	{"type": "tool_search_call", "id": "ts_1", "call_id": null, "execution": "server", "status": "completed", "arguments": {"query": "calendar"}},
	{"type": "tool_search_output", "id": "tso_1", "execution": "server", "status": "completed", "tools": []},
	{"type": "computer_call", "id": "cu_67cc", "call_id": "call_zw3", "action": {"type": "click", "button": "left", "x": 156, "y": 50}, "pending_safety_checks": [], "status": "completed"},
	{"type": "local_shell_call", "id": "lsh_1", "call_id": "call_ls1", "action": {"type": "exec", "command": ["ls", "-la"], "env": {}, "timeout_ms": null}, "status": "completed"},
	{"type": "shell_call", "id": "sh_1", "call_id": "call_sh1", "action": {"commands": ["pwd"], "timeout_ms": 1000}, "status": "completed"},
	{"type": "apply_patch_call", "id": "ap_1", "call_id": "call_ap1", "operation": {"type": "update_file", "path": "a.go", "diff": "@@"}, "status": "completed"},
	{"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_ct1", "name": "run_sql", "input": "SELECT 1"},
	{"type": "computer_call_output", "call_id": "call_zw3", "output": {"type": "computer_screenshot", "image_url": "data:image/png;base64,iVBO"}},
	{"type": "local_shell_call_output", "id": "call_ls1", "output": "total 0"},
	{"type": "shell_call_output", "call_id": "call_sh1", "output": [{"stdout": "/tmp\n", "stderr": "", "outcome": {"type": "exit", "exit_code": 0}}]},
	{"type": "apply_patch_call_output", "call_id": "call_ap1", "status": "failed", "output": "a.go: no such file"},
	{"type": "custom_tool_call_output", "call_id": "call_ct1", "output": "1"},
	{"type": "mcp_list_tools", "id": "mcpl_1", "server_label": "dmcp", "tools": []},
	{"type": "mcp_approval_request", "id": "mcpr_1", "server_label": "dmcp", "name": "roll", "arguments": "{}"},
	{"type": "mcp_approval_response", "approval_request_id": "mcpr_1", "approve": true},
	{"type": "mcp_call", "id": "mcp_1", "server_label": "dmcp", "name": "roll", "arguments": "{\"diceRollExpression\":\"2d4 + 1\"}",
		"output": null, "error": {"type": "mcp_tool_execution_error", "content": [{"type": "text", "text": "bad dice"}]}},
	{"type": "program", "id": "prog_1", "call_id": "call_pg1", "code": "await tools.f()", "fingerprint": "fp"},
	{"type": "program_output", "id": "prog_o1", "call_id": "call_pg1", "result": "done", "status": "completed"}
]`
	hosted := func(id, name, args string) agentcheck.ToolCall {
		return agentcheck.ToolCall{ID: id, Name: name, Args: jsonvalue.MustParse(args), Kind: agentcheck.HostedTool}
	}
	want := agentcheck.Conversation{
		{Role: agentcheck.Human, Content: "go"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{
			hosted("fs_67c09cce", "file_search", `{"queries": ["What is deep research?"]}`),
			hosted("ci_68b1", "code_interpreter", `{"code": "print(2 + 2)"}`),
			hosted("ig_123", "image_generation", `{"revised_prompt": "A gray tabby cat hugging an otter", "size": "1024x1024"}`),
			hosted("ts_1", "tool_search", `{"query": "calendar"}`),
			hosted("call_zw3", "computer", `{"type": "click", "button": "left", "x": 156, "y": 50}`),
			hosted("call_ls1", "local_shell", `{"type": "exec", "command": ["ls", "-la"], "env": {}, "timeout_ms": null}`),
			hosted("call_sh1", "shell", `{"commands": ["pwd"], "timeout_ms": 1000}`),
			hosted("call_ap1", "apply_patch", `{"type": "update_file", "path": "a.go", "diff": "@@"}`),
			{ID: "call_ct1", Name: "run_sql", Args: jsonvalue.MustParse(`{"input": "SELECT 1"}`)},
		}},
		{Role: agentcheck.Tool, ToolCallID: "call_zw3"},
		{Role: agentcheck.Tool, Content: "total 0", ToolCallID: "call_ls1"},
		{Role: agentcheck.Tool, Content: `[{"stdout":"/tmp\n","stderr":"","outcome":{"type":"exit","exit_code":0}}]`, ToolCallID: "call_sh1"},
		{Role: agentcheck.Tool, Content: "a.go: no such file", ToolCallID: "call_ap1", IsError: true},
		{Role: agentcheck.Tool, Content: "1", ToolCallID: "call_ct1"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{
			{ID: "mcp_1", Name: "roll", Kind: agentcheck.MCPTool, Args: jsonvalue.MustParse(`{"diceRollExpression":"2d4 + 1"}`)},
			hosted("call_pg1", "program", `{"code": "await tools.f()"}`),
		}},
		{Role: agentcheck.Tool, Content: `{"type":"mcp_tool_execution_error","content":[{"type":"text","text":"bad dice"}]}`, ToolCallID: "mcp_1", IsError: true},
		{Role: agentcheck.Tool, Content: "done", ToolCallID: "call_pg1"},
	}
	got, err := dataset.ParseResponsesItems([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, sameValue); diff != "" {
		t.Errorf("conversation (-want +got):\n%s", diff)
	}
}

func TestParseResponsesItemsErrors(t *testing.T) {
	tests := []struct{ doc, err string }{
		// Arguments that are a list, or not valid JSON, are no error: see
		// TestParseResponsesItemsKeepsMalformedArguments.
		{`[{"type": "function_call", "call_id": "c1", "arguments": "{}"}]`, `message 0 (ai), tool call 0: "name" must be a non-empty string`},
		{`[{"type": "function_call", "name": "f", "arguments": "{}"}]`, `message 0 (ai), tool call 0 "f": "call_id" must be a non-empty string`},
		{`[{"type": "function_call", "call_id": "c1", "name": "f"}]`, `message 0 (ai), tool call 0 "f": "arguments" must be a JSON string, got null`},
		{`[{"type": "mcp_call", "id": "m1", "name": "roll", "arguments": "{}", "error": 3}]`, `message 0 (ai), tool call 0 "roll": "error" must be a string, an object or null, got int`},
		{`[{"type": "web_search_call", "id": "ws", "action": "search"}]`, `message 0 (ai), tool call 0 "web_search": "action" must be an object, got string`},
		{`[{"role": "user", "content": "x"}, {"type": "function_call_output", "call_id": "c9", "output": "x"}]`,
			`message 1 (tool): function_call_output answers call_id "c9", which no call before it made`},
		{`{"input": [{"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}, {"role": "user", "content": "wait"}, {"type": "function_call_output", "call_id": "c1", "output": "x"}]}`,
			`input: message 2 (tool): function_call_output of call "c1" must follow the call, or other results of its turn`},
		{`[{"type": "function_call_output", "output": "x"}]`, `message 0 (tool): "call_id" must be a non-empty string`},
		{`[{"type": "local_shell_call_output", "output": "x"}]`, `message 0 (tool): "id" must be a non-empty string`},
		{`[{"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}, {"type": "function_call_output", "call_id": "c1", "output": {"ok": true}}]`,
			`message 1 (tool): "output" must be a string, a list of parts or null, got object`},
		{`[{"role": "wizard", "content": "x"}]`, `message 0: unknown role "wizard" (want user, assistant, system or developer)`},
		{`[{"type": "message", "content": "x"}]`, `message 0: unknown role null (want user, assistant, system or developer)`},
		{`[{"role": "user", "content": 1}]`, `message 0 (human): "content" must be a string, a list of parts or null, got int`},
		{`[{"role": "user", "content": "x"}, {"type": "item_reference", "id": "msg_1"}]`, `message 1: item_reference "msg_1" names an item stored by the API: give the item itself`},
		{`[{"id": "msg_2"}]`, `message 0: item_reference "msg_2" names an item stored by the API: give the item itself`},
		{`[{"type": "hologram_call", "id": "h"}]`, `message 0: unknown item type "hologram_call"`},
		{`[{"content": "x"}]`, `message 0: an item must have a "type" (or a "role", for a message)`},
		{`[{"type": 7}]`, `message 0: "type" must be a string, got int`},
		{`["hi"]`, `message 0: an item must be an object, got string`},
		{`{"model": "gpt-4.1"}`, `want a list of items or an object with "input" or "output"`},
		{`{"input": 3}`, `"input" must be a string or a list of items, got int`},
		{`{"output": "x"}`, `"output" must be a list of items, got string`},
		{`"x"`, `want a list of items, got string`},
		{`[`, `line 1, column 2: unexpected end of input, want a value`},
	}
	for _, tt := range tests {
		_, err := dataset.ParseResponsesItems([]byte(tt.doc))
		if err == nil || err.Error() != tt.err {
			t.Errorf("ParseResponsesItems(%s):\n got %v\nwant %s", tt.doc, err, tt.err)
		}
	}
	// Errors about an item are MessageErrors, also inside "input" or
	// "output".
	_, err := dataset.ParseResponsesItems([]byte(`{"output": [{"type": "message", "role": "assistant", "content": "x"}, {"type": "function_call", "call_id": "c1", "name": "f", "arguments": 3}]}`))
	var me *agentcheck.MessageError
	if !errors.As(err, &me) || me.Message != 1 || me.ToolCall != 0 || me.Name != "f" || me.Role != agentcheck.AI {
		t.Errorf("error %v is not a MessageError for item 1, call f: %+v", err, me)
	}
}

// FuzzParseResponsesItems: any input reads without panicking, a
// conversation read validates, and an error about an item names an item
// that is there.
func FuzzParseResponsesItems(f *testing.F) {
	f.Add(responsesRun)
	f.Add(`{"input": "hi", "output": [{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}]}`)
	f.Add(`[{"type": "mcp_call", "id": "m", "name": "f", "arguments": "{}", "error": {"message": "x"}}, {"type": "function_call_output", "call_id": "m"}]`)
	f.Add(`[{"id": "x"}, {"role": "assistant", "content": [{"type": "refusal", "refusal": "no"}]}]`)
	f.Fuzz(func(t *testing.T, doc string) {
		conv, err := dataset.ParseResponsesItems([]byte(doc))
		if err == nil {
			if verr := conv.Validate(); verr != nil {
				t.Fatalf("read a conversation that does not validate: %v", verr)
			}
			return
		}
		var me *agentcheck.MessageError
		if errors.As(err, &me) && (me.Message < 0 || me.Message >= len(doc)) {
			t.Fatalf("error names item %d of a %d-byte document: %v", me.Message, len(doc), err)
		}
	})
}

// TestResponsesReasoning: a reasoning item's summary is the reasoning of
// the AI message that follows it, whether that says something or calls.
func TestResponsesReasoning(t *testing.T) {
	conv, err := dataset.ParseResponsesItems([]byte(`[
	  {"role": "user", "content": "weather in Paris?"},
	  {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Look it up."}]},
	  {"type": "function_call", "call_id": "c1", "name": "weather", "arguments": "{\"city\":\"Paris\"}"},
	  {"type": "function_call_output", "call_id": "c1", "output": "12C"},
	  {"type": "reasoning", "id": "rs_2", "summary": []},
	  {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "12C in Paris."}]}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	if len(conv) != 4 || conv[1].Reasoning != "Look it up." || len(conv[1].ToolCalls) != 1 || conv[3].Reasoning != "" || conv[3].Content != "12C in Paris." {
		t.Errorf("Expected the first summary on the calling message and none on the answer, but got %+v", conv)
	}
}
