package mcpsdk_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/mcpsdk"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// Arguments that are not valid JSON are kept as written, Args null, and
// any other JSON value as it is; none, null or blank is no arguments.
func TestCallsKeepArguments(t *testing.T) {
	done := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}
	params := func(args any) *mcp.CallToolParams { return &mcp.CallToolParams{Name: "f", Arguments: args} }
	conv, err := mcpsdk.Calls{
		{ID: "a", Params: params(json.RawMessage(`{"x":`)), Result: done},
		{ID: "b", Params: params(json.RawMessage(`{"city": "Par`)), Result: done},
		{ID: "c", Params: params([]int{1, 2}), Result: done},
		{ID: "d", Params: params(json.RawMessage(`[1]`)), Result: done},
		{ID: "e", Params: params("x=1"), Result: done},
		{ID: "g", Params: params(json.RawMessage(` null `)), Result: done},
		{ID: "h", Params: params(json.RawMessage("  ")), Result: done},
		{ID: "i", Params: params(map[string]any{"x": 1}), Result: done},
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
