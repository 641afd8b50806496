package langchaingo_test

import (
	"errors"
	"testing"

	"github.com/tmc/langchaingo/llms"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/langchaingo"
)

// customPart is a part of a type the adapter does not know: embedding
// llms.ContentPart is the only way to make one outside langchaingo.
type customPart struct{ llms.ContentPart }

func TestErrors(t *testing.T) {
	call := func(id, name, args string) llms.ToolCall {
		return llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: name, Arguments: args}}
	}
	msg := func(role llms.ChatMessageType, parts ...llms.ContentPart) llms.MessageContent {
		return llms.MessageContent{Role: role, Parts: parts}
	}
	result := func(id, name, content string) llms.MessageContent {
		return msg(llms.ChatMessageTypeTool, llms.ToolCallResponse{ToolCallID: id, Name: name, Content: content})
	}
	user := llms.TextParts(llms.ChatMessageTypeHuman, "hi")
	calls := msg(llms.ChatMessageTypeAI, llms.TextPart("On it."), call("c1", "search", `{"q": "x"}`), call("c2", "book", ""))
	answered := []llms.MessageContent{user, calls, result("c1", "search", "found"), result("c2", "book", "booked")}
	choice := func(c *llms.ContentChoice) *llms.ContentResponse {
		return &llms.ContentResponse{Choices: []*llms.ContentChoice{c}}
	}

	tests := []struct {
		name string
		got  agentcheck.Transcript
		err  string
		loc  agentcheck.MessageError // Message, Role, ToolCall and Name of the error
	}{
		{"unknown role", langchaingo.Messages{user, llms.TextParts("robot", "beep")},
			`message 1: unknown role "robot" (want human, ai, system, tool, function or generic)`,
			agentcheck.MessageError{Message: 1, ToolCall: -1}},
		// Arguments that are not valid JSON, or not an object, are no
		// error: see TestMalformedArguments.
		{"call without function", langchaingo.Messages{user, msg(llms.ChatMessageTypeAI, llms.ToolCall{ID: "c1", Type: "function"})},
			`message 1 (ai), tool call 0: part 0: tool call has no FunctionCall`,
			agentcheck.MessageError{Message: 1, Role: agentcheck.AI, ToolCall: 0}},
		{"call without name", langchaingo.Messages{user, msg(llms.ChatMessageTypeAI, call("c1", "", "{}"))},
			`message 1 (ai), tool call 0: part 0: tool call has no name`,
			agentcheck.MessageError{Message: 1, Role: agentcheck.AI, ToolCall: 0}},
		{"call in a human message", langchaingo.Messages{msg(llms.ChatMessageTypeHuman, llms.TextPart("hi"), call("c1", "search", ""))},
			`message 0 (human): part 1: only ai messages make tool calls`,
			agentcheck.MessageError{Message: 0, Role: agentcheck.Human, ToolCall: -1}},
		{"result in an ai message", langchaingo.Messages{user, msg(llms.ChatMessageTypeAI, llms.ToolCallResponse{ToolCallID: "c1", Content: "x"})},
			`message 1 (ai): part 0: a ToolCallResponse belongs in a tool message`,
			agentcheck.MessageError{Message: 1, Role: agentcheck.AI, ToolCall: -1}},
		{"nil part", langchaingo.Messages{msg(llms.ChatMessageTypeHuman, nil)},
			`message 0 (human): part 0: the part is nil`,
			agentcheck.MessageError{Message: 0, Role: agentcheck.Human, ToolCall: -1}},
		{"unknown part", langchaingo.Messages{msg(llms.ChatMessageTypeHuman, customPart{llms.TextPart("x")})},
			`message 0 (human): part 0: unknown part type langchaingo_test.customPart`,
			agentcheck.MessageError{Message: 0, Role: agentcheck.Human, ToolCall: -1}},
		{"tool message first", langchaingo.Messages{result("c1", "", "x")},
			`message 0 (tool): a tool message must follow an ai message with tool calls, but it is the first message`,
			agentcheck.MessageError{Message: 0, Role: agentcheck.Tool, ToolCall: -1}},
		{"tool message after an answer", langchaingo.Messages{user, llms.TextParts(llms.ChatMessageTypeAI, "hello"), result("c1", "", "x")},
			`message 2 (tool): a tool message must follow an ai message with tool calls or another tool message, but message 1 is an ai message without tool calls`,
			agentcheck.MessageError{Message: 2, Role: agentcheck.Tool, ToolCall: -1}},
		{"tool message without parts", langchaingo.Messages{user, calls, msg(llms.ChatMessageTypeTool)},
			`message 2 (tool): a tool message must have a ToolCallResponse part, but it has no parts`,
			agentcheck.MessageError{Message: 2, Role: agentcheck.Tool, ToolCall: -1}},
		{"text in a tool message", langchaingo.Messages{user, calls, msg(llms.ChatMessageTypeTool, llms.TextPart("found"))},
			`message 2 (tool): part 0: a tool message's parts must be ToolCallResponses, got llms.TextContent`,
			agentcheck.MessageError{Message: 2, Role: agentcheck.Tool, ToolCall: -1}},
		{"unknown call ID", langchaingo.Messages{user, calls, result("c9", "", "x")},
			`message 2 (tool): ToolCallID "c9" answers no call of message 1 (its calls: "c1" (search), "c2" (book))`,
			agentcheck.MessageError{Message: 2, Role: agentcheck.Tool, ToolCall: -1}},
		{"unknown call ID in a second part", langchaingo.Messages{user, calls, msg(llms.ChatMessageTypeTool,
			llms.ToolCallResponse{ToolCallID: "c1", Content: "x"}, llms.ToolCallResponse{ToolCallID: "c9", Content: "y"})},
			`message 2 (tool): part 1: ToolCallID "c9" answers no call of message 1 (its calls: "c1" (search), "c2" (book))`,
			agentcheck.MessageError{Message: 2, Role: agentcheck.Tool, ToolCall: -1}},
		{"call ID of an earlier turn", langchaingo.Messages{user, calls, result("c1", "", "x"), result("c2", "", "y"), user,
			msg(llms.ChatMessageTypeAI, call("c3", "search", "{}")), result("c1", "", "z")},
			`message 6 (tool): ToolCallID "c1" answers no call of message 5 (its calls: "c3" (search))`,
			agentcheck.MessageError{Message: 6, Role: agentcheck.Tool, ToolCall: -1}},
		{"name of another call", langchaingo.Messages{user, calls, result("c1", "book", "x")},
			`message 2 (tool): Name "book" is not the name of the call "c1" it answers, "search"`,
			agentcheck.MessageError{Message: 2, Role: agentcheck.Tool, ToolCall: -1}},
		{"call answered twice", langchaingo.Messages{user, calls, result("c1", "", "x"), result("c1", "search", "x")},
			`message 3 (tool): answers tool call 0 "search" of message 1, which message 2 answered already`,
			agentcheck.MessageError{Message: 3, Role: agentcheck.Tool, ToolCall: -1}},
		{"neither ID nor name", langchaingo.Messages{user, calls, result("", "", "x")},
			`message 2 (tool): the ToolCallResponse has neither ToolCallID nor Name to pair it with a call of message 1`,
			agentcheck.MessageError{Message: 2, Role: agentcheck.Tool, ToolCall: -1}},
		{"unknown name", langchaingo.Messages{user, calls, msg(llms.ChatMessageTypeFunction, llms.ToolCallResponse{Name: "pay", Content: "x"})},
			`message 2 (tool): Name "pay" answers no call of message 1 (its calls: "c1" (search), "c2" (book))`,
			agentcheck.MessageError{Message: 2, Role: agentcheck.Tool, ToolCall: -1}},
		{"name answered already", langchaingo.Messages{user, calls, result("c2", "", "x"), result("", "book", "y")},
			`message 3 (tool): Name "book" answers no call of message 1: every call of that name is answered already`,
			agentcheck.MessageError{Message: 3, Role: agentcheck.Tool, ToolCall: -1}},
		{"history of a reply", langchaingo.Reply{History: []llms.MessageContent{user, calls, result("c9", "", "x")}, Response: choice(&llms.ContentChoice{Content: "done"})},
			`message 2 (tool): ToolCallID "c9" answers no call of message 1 (its calls: "c1" (search), "c2" (book))`,
			agentcheck.MessageError{Message: 2, Role: agentcheck.Tool, ToolCall: -1}},
		{"no response", langchaingo.Reply{History: answered},
			`message 4 (ai): the reply has no response`,
			agentcheck.MessageError{Message: 4, Role: agentcheck.AI, ToolCall: -1}},
		{"no choices", langchaingo.Reply{History: answered, Response: &llms.ContentResponse{}},
			`message 4 (ai): the response has no choices`,
			agentcheck.MessageError{Message: 4, Role: agentcheck.AI, ToolCall: -1}},
		{"nil choice", langchaingo.Reply{History: answered, Response: choice(nil)},
			`message 4 (ai): the response's first choice is nil`,
			agentcheck.MessageError{Message: 4, Role: agentcheck.AI, ToolCall: -1}},
		{"response call without name", langchaingo.Reply{History: answered, Response: choice(&llms.ContentChoice{ToolCalls: []llms.ToolCall{call("c3", "search", `{}`), call("c4", "", `{"sum": 1e}`)}})},
			`message 4 (ai), tool call 1: tool call has no name`,
			agentcheck.MessageError{Message: 4, Role: agentcheck.AI, ToolCall: 1}},
	}
	for _, tt := range tests {
		conv, err := tt.got.Conversation()
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
