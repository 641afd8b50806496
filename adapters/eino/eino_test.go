package eino_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/flow/agent/react"
	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/eino"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// scripted is a chat model that answers from a script: each reply is the
// chunks Stream sends, which Generate joins with schema.ConcatMessages,
// as eino's model implementations do. It records the messages of each
// call.
type scripted struct {
	mu      sync.Mutex
	replies [][]*schema.Message
	inputs  [][]*schema.Message
}

func (s *scripted) next(input []*schema.Message) ([]*schema.Message, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inputs = append(s.inputs, append([]*schema.Message(nil), input...))
	if len(s.replies) == 0 {
		return nil, errors.New("scripted: no reply left")
	}
	r := s.replies[0]
	s.replies = s.replies[1:]
	return r, nil
}

func (s *scripted) Generate(_ context.Context, input []*schema.Message, _ ...model.Option) (*schema.Message, error) {
	chunks, err := s.next(input)
	if err != nil {
		return nil, err
	}
	return schema.ConcatMessages(chunks)
}

func (s *scripted) Stream(_ context.Context, input []*schema.Message, _ ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	chunks, err := s.next(input)
	if err != nil {
		return nil, err
	}
	return schema.StreamReaderFromArray(chunks), nil
}

func (s *scripted) WithTools([]*schema.ToolInfo) (model.ToolCallingChatModel, error) { return s, nil }

// lastInput is the history the model was last given.
func (s *scripted) lastInput() []*schema.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inputs[len(s.inputs)-1]
}

func ptr[T any](v T) *T { return &v }

// weatherScript is what a model streams for the weather run: two calls,
// their IDs, names and arguments spread over interleaved chunks by index
// (the arguments cut inside tokens), and then an answer with reasoning.
func weatherScript() [][]*schema.Message {
	calls := []*schema.Message{
		{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{Index: ptr(0), ID: "call_paris", Type: "function", Function: schema.FunctionCall{Name: "get_weather", Arguments: `{"ci`}}}},
		{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{Index: ptr(1), ID: "call_rome", Type: "function", Function: schema.FunctionCall{Name: "get_weather", Arguments: `{"city": "Rome", `}}}},
		{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{Index: ptr(0), Function: schema.FunctionCall{Arguments: `ty": "Paris", "days": 2.`}}}},
		{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{Index: ptr(1), Function: schema.FunctionCall{Arguments: `"days": 2}`}}}},
		{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{Index: ptr(0), Function: schema.FunctionCall{Arguments: `0}`}}}},
		{Role: schema.Assistant, ResponseMeta: &schema.ResponseMeta{FinishReason: "tool_calls"}},
	}
	answer := []*schema.Message{
		{Role: schema.Assistant, ReasoningContent: "Both cities answered; "},
		{Role: schema.Assistant, ReasoningContent: "summarise."},
		{Role: schema.Assistant, Content: "Paris 14°C, "},
		{Role: schema.Assistant, Content: "Rome 18°C."},
		{Role: schema.Assistant, ResponseMeta: &schema.ResponseMeta{FinishReason: "stop"}},
	}
	return [][]*schema.Message{calls, answer}
}

type weatherIn struct {
	City string  `json:"city"`
	Days float64 `json:"days"`
}

type weatherOut struct {
	TempC int    `json:"temp_c"`
	Sky   string `json:"sky"`
}

func weatherTool(t *testing.T) tool.BaseTool {
	t.Helper()
	tl, err := utils.InferTool("get_weather", "Weather forecast of a city", func(_ context.Context, in weatherIn) (weatherOut, error) {
		switch in.City {
		case "Paris":
			return weatherOut{TempC: 14, Sky: "cloudy"}, nil
		case "Rome":
			return weatherOut{TempC: 18, Sky: "clear"}, nil
		}
		return weatherOut{}, fmt.Errorf("unknown city %q", in.City)
	})
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// weatherConversation is the weather run written by hand.
func weatherConversation() agentcheck.Conversation {
	return agentcheck.Conversation{
		{Role: agentcheck.System, Content: "Be brief."},
		{Role: agentcheck.Human, Content: "Weather in Paris and Rome?"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{
			{ID: "call_paris", Name: "get_weather", Args: jsonvalue.MustParse(`{"city": "Paris", "days": 2.0}`)},
			{ID: "call_rome", Name: "get_weather", Args: jsonvalue.MustParse(`{"city": "Rome", "days": 2}`)},
		}},
		{Role: agentcheck.Tool, Content: `{"temp_c":14,"sky":"cloudy"}`, ToolCallID: "call_paris"},
		{Role: agentcheck.Tool, Content: `{"temp_c":18,"sky":"clear"}`, ToolCallID: "call_rome"},
		{Role: agentcheck.AI, Content: "Paris 14°C, Rome 18°C.", Reasoning: "Both cities answered; summarise."},
	}
}

// runAgent runs eino's ReAct agent over the weather script, generating or
// streaming, and returns the run's history: what the model was last given
// and its answer.
func runAgent(t *testing.T, stream bool) eino.Messages {
	t.Helper()
	ctx := context.Background()
	m := &scripted{replies: weatherScript()}
	agent, err := react.NewAgent(ctx, &react.AgentConfig{
		ToolCallingModel: m,
		ToolsConfig:      compose.ToolsNodeConfig{Tools: []tool.BaseTool{weatherTool(t)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	input := []*schema.Message{schema.SystemMessage("Be brief."), schema.UserMessage("Weather in Paris and Rome?")}
	var answer *schema.Message
	if stream {
		sr, err := agent.Stream(ctx, input)
		if err != nil {
			t.Fatal(err)
		}
		answer, err = schema.ConcatMessageStream(sr)
		if err != nil {
			t.Fatal(err)
		}
	} else {
		answer, err = agent.Generate(ctx, input)
		if err != nil {
			t.Fatal(err)
		}
	}
	history := append(m.lastInput(), answer)
	if len(history) != 6 {
		t.Fatalf("the agent's history has %d messages, want 6:\n%v", len(history), history)
	}
	// The history is eino's own: the tool messages come from its ToolsNode.
	if tm := history[3]; tm.Role != schema.Tool || tm.ToolName != "get_weather" || tm.ToolCallID != "call_paris" {
		t.Fatalf("tool message = %v", tm)
	}
	if answer.ReasoningContent == "" {
		t.Fatal("the answer lost its reasoning: the test would not show that it is kept")
	}
	return eino.Messages(history)
}

func TestReActAgent(t *testing.T) {
	for _, stream := range []bool{false, true} {
		got, err := runAgent(t, stream).Conversation()
		if err != nil {
			t.Fatalf("stream=%v: %v", stream, err)
		}
		if diff := cmp.Diff(weatherConversation(), got, sameValue); diff != "" {
			t.Errorf("stream=%v: conversation (-want +got):\n%s", stream, diff)
		}
	}
}

// A streamed answer joined by schema.ConcatMessages: text and reasoning
// split anywhere, calls by index (one without arguments, one without an
// index, which eino keeps apart and first).
func TestConcatMessages(t *testing.T) {
	chunks := []*schema.Message{
		{Role: schema.Assistant, ReasoningContent: "look it up"},
		{Role: schema.Assistant, Content: "Let me "},
		{Role: schema.Assistant, Content: "check.", ToolCalls: []schema.ToolCall{{Index: ptr(1), ID: "c2", Type: "function", Function: schema.FunctionCall{Name: "now"}}}},
		{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{Index: ptr(0), ID: "c1", Type: "function", Function: schema.FunctionCall{Name: "search", Arguments: `{"q": "eino", `}}}},
		{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{Index: ptr(0), Function: schema.FunctionCall{Arguments: `"n": 10, "w": 1.5e0}`}}}},
		{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{ID: "c0", Type: "function", Function: schema.FunctionCall{Name: "ping", Arguments: "{}"}}}},
	}
	msg, err := schema.ConcatMessages(chunks)
	if err != nil {
		t.Fatal(err)
	}
	got, err := eino.Messages{schema.UserMessage("What now?"), msg}.Conversation()
	if err != nil {
		t.Fatal(err)
	}
	want := agentcheck.Conversation{
		{Role: agentcheck.Human, Content: "What now?"},
		{Role: agentcheck.AI, Content: "Let me check.", Reasoning: "look it up", ToolCalls: []agentcheck.ToolCall{
			{ID: "c0", Name: "ping", Args: jsonvalue.Object()},
			{ID: "c1", Name: "search", Args: jsonvalue.MustParse(`{"q": "eino", "n": 10, "w": 1.5e0}`)},
			{ID: "c2", Name: "now", Args: jsonvalue.Object()},
		}},
	}
	if diff := cmp.Diff(want, got, sameValue); diff != "" {
		t.Errorf("conversation (-want +got):\n%s", diff)
	}
}

// Multimodal messages keep their text parts, in order, after Content; a
// multimodal tool result (an enhanced tool's, as ToolsNode builds it) is
// its text. A tool message without a ToolCallID is paired by ToolName.
func TestMultiContentAndPairing(t *testing.T) {
	img := &schema.MessageInputImage{MessagePartCommon: schema.MessagePartCommon{URL: ptr("https://example.com/cat.jpg")}}
	result := &schema.ToolResult{Parts: []schema.ToolOutputPart{
		{Type: schema.ToolPartTypeText, Text: "a cat"},
		{Type: schema.ToolPartTypeImage, Image: &schema.ToolOutputImage{MessagePartCommon: schema.MessagePartCommon{URL: ptr("https://example.com/crop.jpg")}}},
		{Type: schema.ToolPartTypeText, Text: "on a mat"},
	}}
	parts, err := result.ToMessageInputParts()
	if err != nil {
		t.Fatal(err)
	}
	toolMsg := schema.ToolMessage("", "c1", schema.WithToolName("describe"))
	toolMsg.UserInputMultiContent = parts
	msgs := eino.Messages{
		{Role: schema.System, MultiContent: []schema.ChatMessagePart{{Type: schema.ChatMessagePartTypeText, Text: "Describe images."}}},
		{Role: schema.User, Content: "Look:", UserInputMultiContent: []schema.MessageInputPart{
			{Type: schema.ChatMessagePartTypeText, Text: "what is"},
			{Type: schema.ChatMessagePartTypeImageURL, Image: img},
			{Type: schema.ChatMessagePartTypeText, Text: ""},
			{Type: schema.ChatMessagePartTypeText, Text: "this?"},
		}},
		schema.AssistantMessage("", []schema.ToolCall{
			{ID: "c1", Type: "function", Function: schema.FunctionCall{Name: "describe", Arguments: `{"url": "https://example.com/cat.jpg"}`}},
			{ID: "c2", Type: "function", Function: schema.FunctionCall{Name: "describe", Arguments: " "}},
		}),
		toolMsg,
		{Role: schema.Tool, Content: "nothing", ToolName: "describe"}, // the unanswered "describe": c2
		{Role: schema.Assistant, ReasoningContent: "a cat, then", AssistantGenMultiContent: []schema.MessageOutputPart{
			{Type: schema.ChatMessagePartTypeText, Text: "A cat"},
			{Type: schema.ChatMessagePartTypeImageURL, Image: &schema.MessageOutputImage{MessagePartCommon: schema.MessagePartCommon{URL: ptr("x")}}},
			{Type: schema.ChatMessagePartTypeText, Text: "on a mat."},
		}},
		// Calls without IDs are paired by name alone.
		schema.AssistantMessage("Again.", []schema.ToolCall{{Function: schema.FunctionCall{Name: "describe"}}}),
		{Role: schema.Tool, Content: "still a cat", ToolName: "describe"},
	}
	got, err := msgs.Conversation()
	if err != nil {
		t.Fatal(err)
	}
	want := agentcheck.Conversation{
		{Role: agentcheck.System, Content: "Describe images."},
		{Role: agentcheck.Human, Content: "Look:\nwhat is\nthis?"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{
			{ID: "c1", Name: "describe", Args: jsonvalue.MustParse(`{"url": "https://example.com/cat.jpg"}`)},
			{ID: "c2", Name: "describe", Args: jsonvalue.Object()},
		}},
		{Role: agentcheck.Tool, Content: "a cat\non a mat", ToolCallID: "c1"},
		{Role: agentcheck.Tool, Content: "nothing", ToolCallID: "c2"},
		{Role: agentcheck.AI, Content: "A cat\non a mat.", Reasoning: "a cat, then"},
		{Role: agentcheck.AI, Content: "Again.", ToolCalls: []agentcheck.ToolCall{{Name: "describe", Args: jsonvalue.Object()}}},
		{Role: agentcheck.Tool, Content: "still a cat"},
	}
	if diff := cmp.Diff(want, got, sameValue); diff != "" {
		t.Errorf("conversation (-want +got):\n%s", diff)
	}
}

func TestErrors(t *testing.T) {
	call := func(id, name, args string) schema.ToolCall {
		return schema.ToolCall{ID: id, Type: "function", Function: schema.FunctionCall{Name: name, Arguments: args}}
	}
	user := schema.UserMessage("hi")
	calls := schema.AssistantMessage("", []schema.ToolCall{call("c1", "search", `{"q": "x"}`), call("c2", "book", "")})
	tests := []struct {
		name string
		msgs eino.Messages
		err  string
		loc  agentcheck.MessageError // Message, Role, ToolCall and Name of the error
	}{
		{"nil message", eino.Messages{user, nil}, `message 1: message is nil`,
			agentcheck.MessageError{Message: 1, ToolCall: -1}},
		{"unknown role", eino.Messages{user, {Role: "robot", Content: "beep"}}, `message 1: unknown role "robot" (want user, assistant, system or tool)`,
			agentcheck.MessageError{Message: 1, ToolCall: -1}},
		// Arguments that are a list, or not valid JSON, are no error: see
		// TestMalformedArguments.
		{"call without name", eino.Messages{user, schema.AssistantMessage("", []schema.ToolCall{call("c1", "", `{}`)})},
			`message 1 (ai), tool call 0: tool call has no name`,
			agentcheck.MessageError{Message: 1, Role: agentcheck.AI, ToolCall: 0}},
		{"calls on a user message", eino.Messages{{Role: schema.User, Content: "hi", ToolCalls: []schema.ToolCall{call("c1", "search", "")}}},
			`message 0 (human): only assistant messages make tool calls`,
			agentcheck.MessageError{Message: 0, Role: agentcheck.Human, ToolCall: -1}},
		{"tool message first", eino.Messages{schema.ToolMessage("x", "c1")},
			`message 0 (tool): a tool message must follow an ai message with tool calls, but it is the first message`,
			agentcheck.MessageError{Message: 0, Role: agentcheck.Tool, ToolCall: -1}},
		{"tool message after an answer", eino.Messages{user, schema.AssistantMessage("hello", nil), schema.ToolMessage("x", "c1")},
			`message 2 (tool): a tool message must follow an ai message with tool calls or another tool message, but message 1 is an ai message without tool calls`,
			agentcheck.MessageError{Message: 2, Role: agentcheck.Tool, ToolCall: -1}},
		{"unknown call ID", eino.Messages{user, calls, schema.ToolMessage("x", "c1"), schema.ToolMessage("y", "c9")},
			`message 3 (tool): ToolCallID "c9" answers no call of message 1 (its calls: "c1" (search), "c2" (book))`,
			agentcheck.MessageError{Message: 3, Role: agentcheck.Tool, ToolCall: -1}},
		{"call ID of an earlier turn", eino.Messages{user, calls, schema.ToolMessage("x", "c1"), schema.ToolMessage("y", "c2"),
			schema.AssistantMessage("", []schema.ToolCall{call("c3", "search", "{}")}), schema.ToolMessage("z", "c1")},
			`message 5 (tool): ToolCallID "c1" answers no call of message 4 (its calls: "c3" (search))`,
			agentcheck.MessageError{Message: 5, Role: agentcheck.Tool, ToolCall: -1}},
		{"tool name of another call", eino.Messages{user, calls, schema.ToolMessage("x", "c1", schema.WithToolName("book"))},
			`message 2 (tool): ToolName "book" is not the name of the call "c1" it answers, "search"`,
			agentcheck.MessageError{Message: 2, Role: agentcheck.Tool, ToolCall: -1}},
		{"call answered twice", eino.Messages{user, calls, schema.ToolMessage("x", "c1"), schema.ToolMessage("x", "c1")},
			`message 3 (tool): answers tool call 0 "search" of message 1, which message 2 answered already`,
			agentcheck.MessageError{Message: 3, Role: agentcheck.Tool, ToolCall: -1}},
		{"neither ID nor name", eino.Messages{user, calls, {Role: schema.Tool, Content: "x"}},
			`message 2 (tool): tool message has neither ToolCallID nor ToolName to pair it with a call of message 1`,
			agentcheck.MessageError{Message: 2, Role: agentcheck.Tool, ToolCall: -1}},
		{"unknown tool name", eino.Messages{user, calls, {Role: schema.Tool, Content: "x", ToolName: "pay"}},
			`message 2 (tool): ToolName "pay" answers no call of message 1 (its calls: "c1" (search), "c2" (book))`,
			agentcheck.MessageError{Message: 2, Role: agentcheck.Tool, ToolCall: -1}},
		{"tool name answered already", eino.Messages{user, calls, schema.ToolMessage("x", "c2"), {Role: schema.Tool, Content: "y", ToolName: "book"}},
			`message 3 (tool): ToolName "book" answers no call of message 1: every call of that name is answered already`,
			agentcheck.MessageError{Message: 3, Role: agentcheck.Tool, ToolCall: -1}},
	}
	for _, tt := range tests {
		conv, err := tt.msgs.Conversation()
		if err == nil {
			t.Errorf("%s: no error; conversation:\n%v", tt.name, conv)
			continue
		}
		if err.Error() != tt.err {
			t.Errorf("%s:\n got %v\nwant %s", tt.name, err, tt.err)
		}
		var me *agentcheck.MessageError
		if !errors.As(err, &me) {
			t.Errorf("%s: %T is not an *agentcheck.MessageError", tt.name, err)
			continue
		}
		if me.Message != tt.loc.Message || me.Role != tt.loc.Role || me.ToolCall != tt.loc.ToolCall || me.Name != tt.loc.Name {
			t.Errorf("%s: error located at message %d (%q), call %d %q; want message %d (%q), call %d %q", tt.name,
				me.Message, me.Role, me.ToolCall, me.Name, tt.loc.Message, tt.loc.Role, tt.loc.ToolCall, tt.loc.Name)
		}
	}
}

// sameValue compares Values as identical: the same JSON text, key order
// and number kinds included (Equal would take 1 and 1.0 for the same).
var sameValue = cmp.Comparer(func(a, b jsonvalue.Value) bool { return a.Kind() == b.Kind() && a.String() == b.String() })
