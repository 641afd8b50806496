package goopenai_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	openai "github.com/sashabaranov/go-openai"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/goopenai"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// The error texts are dataset.ParseOpenAIMessages's: the messages are read
// as their JSON. (agenttest.FromOpenAI, which this replaces, read the Go
// values, and worded two errors differently: "tool call has no function
// name" and "only assistant messages make tool calls".)
func TestConversation(t *testing.T) {
	msgs := []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleDeveloper, Content: "rules"},
		{Role: openai.ChatMessageRoleUser, MultiContent: []openai.ChatMessagePart{
			{Type: openai.ChatMessagePartTypeText, Text: "look"},
			{Type: openai.ChatMessagePartTypeImageURL, ImageURL: &openai.ChatMessageImageURL{URL: "x"}},
			{Type: openai.ChatMessagePartTypeText, Text: "here"},
		}},
		{Role: openai.ChatMessageRoleAssistant, ToolCalls: []openai.ToolCall{
			{ID: "c1", Type: openai.ToolTypeFunction, Function: openai.FunctionCall{Name: "search", Arguments: `{"q": "go", "n": 10, "w": 1.0}`}},
		}},
		{Role: openai.ChatMessageRoleTool, ToolCallID: "c1", Content: "found"},
		{Role: openai.ChatMessageRoleAssistant, Content: "Here."},
	}
	got, err := goopenai.Messages(msgs).Conversation()
	if err != nil {
		t.Fatal(err)
	}
	want := agentcheck.Conversation{
		{Role: agentcheck.System, Content: "rules"},
		{Role: agentcheck.Human, Content: "look\nhere"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{{ID: "c1", Name: "search", Args: jsonvalue.MustParse(`{"q": "go", "n": 10, "w": 1.0}`)}}},
		{Role: agentcheck.Tool, Content: "found", ToolCallID: "c1"},
		{Role: agentcheck.AI, Content: "Here."},
	}
	if diff := cmp.Diff(want, got, sameValue); diff != "" {
		t.Errorf("conversation (-want +got):\n%s", diff)
	}
	errTests := []struct {
		msgs []openai.ChatCompletionMessage
		err  string
	}{
		{[]openai.ChatCompletionMessage{{Role: "assistant", ToolCalls: []openai.ToolCall{{Function: openai.FunctionCall{Arguments: "{}"}}}}},
			`message 0 (ai), tool call 0: "function.name" must be a non-empty string`},
		{[]openai.ChatCompletionMessage{{Role: "user", ToolCalls: []openai.ToolCall{{Function: openai.FunctionCall{Name: "f"}}}}},
			`message 0 (human): only assistant messages have "tool_calls"`},
		{[]openai.ChatCompletionMessage{{Role: "robot"}}, `message 0: unknown role "robot"`},
		{[]openai.ChatCompletionMessage{{Role: "tool", Content: "x"}}, `message 0 (tool): a tool message must follow an ai message with tool calls, but it is the first message`},
		{[]openai.ChatCompletionMessage{{Role: "user", Content: "x"}, {Role: "user", Content: "y", MultiContent: []openai.ChatMessagePart{{Type: openai.ChatMessagePartTypeText, Text: "z"}}}},
			`message 1: can't use both Content and MultiContent properties simultaneously`},
	}
	for _, tt := range errTests {
		_, err := goopenai.Messages(tt.msgs).Conversation()
		if err == nil || err.Error() != tt.err {
			t.Errorf("Conversation:\n got %v\nwant %s", err, tt.err)
		}
	}
	// Arguments that are not valid JSON are no error: the call keeps them
	// as written.
	got, err = goopenai.Messages{{Role: "user"}, {Role: "assistant", ToolCalls: []openai.ToolCall{{ID: "c1", Function: openai.FunctionCall{Name: "f", Arguments: "{"}}}}}.Conversation()
	if err != nil || len(got) != 2 || len(got[1].ToolCalls) != 1 || got[1].ToolCalls[0].InvalidArgs != "{" || got[1].ToolCalls[0].Args.Kind() != jsonvalue.NullKind {
		t.Errorf("Expected the call f with arguments %q kept as written, but got %v, %v", "{", got, err)
	}
}

// sameValue compares Values as identical: the same JSON text, key order
// and number kinds included (Equal would take 1 and 1.0 for the same).
var sameValue = cmp.Comparer(func(a, b jsonvalue.Value) bool { return a.Kind() == b.Kind() && a.String() == b.String() })
