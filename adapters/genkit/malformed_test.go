package genkit_test

import (
	"encoding/json"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/genkit"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// An input of json.RawMessage that is not valid JSON is kept as written,
// Args null; a string, a list or a number is kept as it is (tools may take
// such inputs); nil, null or blank is no arguments.
func TestMalformedInput(t *testing.T) {
	req := func(ref string, input any) *ai.Part {
		return ai.NewToolRequestPart(&ai.ToolRequest{Ref: ref, Name: "search", Input: input})
	}
	conv, err := genkit.Messages{
		ai.NewUserTextMessage("Go."),
		ai.NewModelMessage(
			req("a", json.RawMessage(`{"q": "go",`)),
			req("b", `{"q": "go"}`),
			req("c", []string{"go"}),
			req("d", 3),
			req("e", nil),
			req("f", json.RawMessage(`null`)),
			req("g", json.RawMessage(" ")),
			req("h", map[string]any{"q": "go"}),
		),
		ai.NewMessage(ai.RoleTool, nil, ai.NewToolResponsePart(&ai.ToolResponse{Ref: "a", Name: "search", Output: "bad input"})),
	}.Conversation()
	if err != nil {
		t.Fatalf("Expected the run to convert, but got %v", err)
	}
	call := func(id, args, invalid string) agentcheck.ToolCall {
		tc := agentcheck.ToolCall{ID: id, Name: "search", InvalidArgs: invalid}
		if args != "" {
			tc.Args = jsonvalue.MustParse(args)
		}
		return tc
	}
	want := []agentcheck.ToolCall{
		call("a", "", `{"q": "go",`),
		call("b", `"{\"q\": \"go\"}"`, ""),
		call("c", `["go"]`, ""),
		call("d", `3`, ""),
		call("e", "", ""),
		call("f", "", ""),
		call("g", "", ""),
		call("h", `{"q":"go"}`, ""),
	}
	if diff := cmp.Diff(want, conv.ToolCalls(), sameValue); diff != "" {
		t.Errorf("Expected the inputs kept as given, but the calls differ (-want +got):\n%s", diff)
	}
	if last := conv[len(conv)-1]; last.ToolCallID != "a" || last.Content != "bad input" {
		t.Errorf("Expected the malformed call's result paired with it, but got %+v", last)
	}
}
