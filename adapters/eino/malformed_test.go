package eino_test

import (
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/eino"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// A call whose arguments are not valid JSON converts with them kept as
// written, Args null; the other calls and their results convert as usual.
func TestMalformedArguments(t *testing.T) {
	call := func(id, name, args string) schema.ToolCall {
		return schema.ToolCall{ID: id, Type: "function", Function: schema.FunctionCall{Name: name, Arguments: args}}
	}
	got, err := eino.Messages{
		schema.UserMessage("Book in Paris on Monday"),
		schema.AssistantMessage("", []schema.ToolCall{
			call("c1", "search", `{"q": "Paris"}`),
			call("c2", "book", `{"day": "mon",`),
			call("c3", "now", `null`),
		}),
		schema.ToolMessage("3 places", "c1"),
		schema.ToolMessage("bad arguments", "c2"),
		schema.ToolMessage("noon", "c3"),
	}.Conversation()
	if err != nil {
		t.Fatalf("Expected the run to convert, but got %v", err)
	}
	want := []agentcheck.ToolCall{
		{ID: "c1", Name: "search", Args: jsonvalue.MustParse(`{"q": "Paris"}`)},
		{ID: "c2", Name: "book", InvalidArgs: `{"day": "mon",`},
		{ID: "c3", Name: "now", Args: jsonvalue.Object()},
	}
	if diff := cmp.Diff(want, got.ToolCalls(), sameValue); diff != "" {
		t.Errorf("Expected the malformed arguments kept as written, but the calls differ (-want +got):\n%s", diff)
	}
	if got[3].ToolCallID != "c2" || got[3].Content != "bad arguments" {
		t.Errorf("Expected the malformed call's result paired with it, but got %+v", got[3])
	}
}
