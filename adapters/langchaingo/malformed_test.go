package langchaingo_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tmc/langchaingo/llms"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/langchaingo"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// A call whose arguments are not valid JSON converts with them kept as
// written, Args null, in the history and in the model's reply; arguments
// that are JSON but not an object are kept as they are; the other calls
// and the results convert as usual.
func TestMalformedArguments(t *testing.T) {
	call := func(id, name, args string) llms.ToolCall {
		return llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: name, Arguments: args}}
	}
	history := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeHuman, "Book in Paris"),
		{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
			llms.TextPart("On it."),
			call("c1", "search", `"Paris"`),
			call("c2", "book", `{"day": "mon",`),
			call("c3", "now", `null`),
		}},
		{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: "c1", Content: "3 places"}}},
		{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: "c2", Content: "bad arguments"}}},
		{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: "c3", Content: "noon"}}},
	}
	reply := &llms.ContentResponse{Choices: []*llms.ContentChoice{{ToolCalls: []llms.ToolCall{call("c4", "pay", `{"sum": 1e}`), call("c5", "pay", `[1, 2]`)}}}}
	got, err := langchaingo.Reply{History: history, Response: reply}.Conversation()
	if err != nil {
		t.Fatalf("Expected the run to convert, but got %v", err)
	}
	want := []agentcheck.ToolCall{
		{ID: "c1", Name: "search", Args: jsonvalue.String("Paris")},
		{ID: "c2", Name: "book", InvalidArgs: `{"day": "mon",`},
		{ID: "c3", Name: "now", Args: jsonvalue.Object()},
		{ID: "c4", Name: "pay", InvalidArgs: `{"sum": 1e}`},
		{ID: "c5", Name: "pay", Args: jsonvalue.MustParse(`[1, 2]`)},
	}
	if diff := cmp.Diff(want, got.ToolCalls(), sameValue); diff != "" {
		t.Errorf("Expected the arguments kept as written, but the calls differ (-want +got):\n%s", diff)
	}
	if got[3].ToolCallID != "c2" || got[3].Content != "bad arguments" {
		t.Errorf("Expected the malformed call's result paired with it, but got %+v", got[3])
	}
}
