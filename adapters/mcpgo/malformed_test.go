package mcpgo_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/mcpgo"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// Arguments that are not valid JSON are kept as written, Args null, and
// any other JSON value as it is; none, null or blank is no arguments.
func TestCallsKeepArguments(t *testing.T) {
	raw := func(name, text string) mcp.CallToolRequest {
		r := request(name, map[string]any{"ignored": true})
		r.Params.RawArguments = json.RawMessage(text)
		return r
	}
	done := &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent("ok")}}
	conv, err := mcpgo.Calls{
		{ID: "a", Request: request("f", json.RawMessage(`{"x":`)), Result: done},
		{ID: "b", Request: raw("f", `{"city": "Par`), Result: done},
		{ID: "c", Request: request("f", []int{1, 2}), Result: done},
		{ID: "d", Request: raw("f", `[1]`), Result: done},
		{ID: "e", Request: request("f", "x=1"), Result: done},
		{ID: "g", Request: raw("f", ` null `), Result: done},
		{ID: "h", Request: request("f", json.RawMessage("  ")), Result: done},
		{ID: "i", Request: request("f", map[string]any{"x": 1}), Result: done},
	}.Conversation()
	if err != nil {
		t.Fatalf("Expected the calls to convert, but got %v", err)
	}
	call := func(id, args, invalid string) agentcheck.ToolCall {
		tc := agentcheck.ToolCall{ID: id, Name: "f", Kind: agentcheck.MCPTool, InvalidArgs: invalid}
		if args != "" {
			tc.Args = jsonvalue.MustParse(args)
		}
		return tc
	}
	want := []agentcheck.ToolCall{
		call("a", "", `{"x":`),
		call("b", "", `{"city": "Par`),
		call("c", `[1,2]`, ""),
		call("d", `[1]`, ""),
		call("e", `"x=1"`, ""),
		call("g", "", ""),
		call("h", "", ""),
		call("i", `{"x":1}`, ""),
	}
	if diff := cmp.Diff(want, conv.ToolCalls(), sameValue); diff != "" {
		t.Errorf("Expected the arguments kept as sent, but the calls differ (-want +got):\n%s", diff)
	}
	if len(conv) != 16 || conv[1].ToolCallID != "a" || conv[1].Content != "ok" {
		t.Errorf("Expected each call followed by its result, but got:\n%v", conv)
	}
}
