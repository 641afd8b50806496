package dataset

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/pyvalue"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// OpenAI Chat Completions messages.

// ParseOpenAIMessages reads OpenAI Chat Completions messages written as JSON:
// a list of messages, or an object with a "messages" list (a request body).
// Assistant tool calls carry their arguments as a JSON string, which is
// parsed. Arguments that are not valid JSON are not an error: the call keeps
// them as written in InvalidArgs (Args null), so that it fails every
// comparison of its arguments while checks of its name still see it.
// Arguments that are valid JSON but not an object (a list, a string, a
// number) are kept as they are.
func ParseOpenAIMessages(data []byte) (agentcheck.Conversation, error) {
	v, err := jsonvalue.Parse(data)
	if err != nil {
		return nil, err
	}
	return openAIConversation(v, nil)
}

// openAIConversation is ParseOpenAIMessages of the value v, with the
// values of the arguments strings counted toward b (none when nil).
func openAIConversation(v jsonvalue.Value, b *valueBudget) (agentcheck.Conversation, error) {
	if v.Kind() == jsonvalue.ObjectKind {
		msgs, ok := v.Get("messages")
		if !ok {
			return nil, errors.New(`want a list of messages or an object with "messages"`)
		}
		v = msgs
	}
	if v.Kind() != jsonvalue.ArrayKind {
		return nil, fmt.Errorf("want a list of messages, got %s", v.Kind())
	}
	conv := make(agentcheck.Conversation, v.Len())
	for i := range conv {
		m, err := openAIMessage(v.Index(i), i, b)
		if err != nil {
			return nil, err
		}
		conv[i] = m
	}
	if err := conv.Validate(); err != nil {
		return nil, err
	}
	return conv, pairResults(conv)
}

// pairResults checks that each tool message with a tool_call_id answers a
// call of the assistant message it follows. Calls without IDs (some servers
// send none) and results without one are not checked.
func pairResults(conv agentcheck.Conversation) error {
	calls := -1 // the assistant message whose results follow
	for i, m := range conv {
		switch {
		case m.Role == agentcheck.AI && m.ToolCalls != nil:
			calls = i
		case m.Role == agentcheck.Tool && m.ToolCallID != "" && calls >= 0:
			answers := slices.ContainsFunc(conv[calls].ToolCalls, func(tc agentcheck.ToolCall) bool { return tc.ID == m.ToolCallID })
			if answers {
				continue
			}
			// The calls' IDs, for the error, only when there is one.
			var ids []string
			for _, tc := range conv[calls].ToolCalls {
				if tc.ID != "" {
					ids = append(ids, strconv.Quote(tc.ID))
				}
			}
			if len(ids) > 0 {
				return &agentcheck.MessageError{Message: i, Role: m.Role, ToolCall: -1,
					Err: fmt.Errorf("tool_call_id %q answers no call of message %d (its calls: %s)", m.ToolCallID, calls, strings.Join(ids, ", "))}
			}
		case m.Role != agentcheck.Tool:
			calls = -1
		}
	}
	return nil
}

func openAIRole(role string) (agentcheck.Role, bool) {
	switch role {
	case "user":
		return agentcheck.Human, true
	case "assistant":
		return agentcheck.AI, true
	case "tool", "function":
		return agentcheck.Tool, true
	case "system", "developer":
		return agentcheck.System, true
	}
	return "", false
}

func openAIMessage(v jsonvalue.Value, i int, b *valueBudget) (agentcheck.Message, error) {
	fail := func(role agentcheck.Role, call int, name string, format string, args ...any) (agentcheck.Message, error) {
		return agentcheck.Message{}, &agentcheck.MessageError{Message: i, Role: role, ToolCall: call, Name: name, Err: fmt.Errorf(format, args...)}
	}
	if v.Kind() != jsonvalue.ObjectKind {
		return fail("", -1, "", "a message must be an object, got %s", v.Kind())
	}
	if err := foreignCalls(OpenAI, v); err != nil {
		return fail("", -1, "", "%w", err)
	}
	r, _ := v.Get("role")
	role, ok := openAIRole(stringText(r))
	if !ok {
		return fail("", -1, "", "unknown role %q", pyvalue.Str(r))
	}
	m := agentcheck.Message{Role: role}
	if id, ok := v.Get("tool_call_id"); ok {
		m.ToolCallID = stringText(id)
	}
	switch c, _ := v.Get("content"); c.Kind() {
	case jsonvalue.NullKind:
	case jsonvalue.StringKind:
		m.Content = c.Text()
	case jsonvalue.ArrayKind: // content parts: keep the text ones
		var parts []string
		for j := 0; j < c.Len(); j++ {
			part := c.Index(j)
			if t, ok := part.Get("text"); ok && t.Kind() == jsonvalue.StringKind {
				parts = append(parts, t.Text())
			} else if t, ok := part.Get("refusal"); ok && t.Kind() == jsonvalue.StringKind {
				parts = append(parts, t.Text())
			}
		}
		m.Content = strings.Join(parts, "\n")
	default:
		return fail(role, -1, "", `"content" must be a string, a list of parts or null, got %s`, c.Kind())
	}
	if m.Content == "" {
		// A refusal is what the assistant said instead of an answer.
		if r, ok := v.Get("refusal"); ok && r.Kind() == jsonvalue.StringKind {
			m.Content = r.Text()
		}
	}
	tcs, ok := v.Get("tool_calls")
	if !ok || tcs.Kind() == jsonvalue.NullKind {
		return m, nil
	}
	if role != agentcheck.AI {
		return fail(role, -1, "", `only assistant messages have "tool_calls"`)
	}
	if tcs.Kind() != jsonvalue.ArrayKind {
		return fail(role, -1, "", `"tool_calls" must be a list, got %s`, tcs.Kind())
	}
	m.ToolCalls = make([]agentcheck.ToolCall, tcs.Len())
	for j := range m.ToolCalls {
		tcv := tcs.Index(j)
		if typ, _ := tcv.Get("type"); typ.Text() == "custom" {
			// A custom tool takes free text: its input, as {"input": ...}.
			custom, _ := tcv.Get("custom")
			name, _ := custom.Get("name")
			input, _ := custom.Get("input")
			id, _ := tcv.Get("id")
			if name.Kind() != jsonvalue.StringKind || name.Text() == "" {
				return fail(role, j, "", `"custom.name" must be a non-empty string`)
			}
			if input.Kind() != jsonvalue.StringKind {
				return fail(role, j, name.Text(), `"custom.input" must be a string, got %s`, input.Kind())
			}
			m.ToolCalls[j] = agentcheck.ToolCall{ID: stringText(id), Name: name.Text(),
				Args: jsonvalue.Object(jsonvalue.Member{Key: "input", Value: input})}
			continue
		}
		fn, _ := tcv.Get("function")
		name, _ := fn.Get("name")
		args, _ := fn.Get("arguments")
		id, _ := tcv.Get("id")
		if name.Kind() != jsonvalue.StringKind || name.Text() == "" {
			return fail(role, j, "", `"function.name" must be a non-empty string`)
		}
		var argText string
		switch args.Kind() {
		case jsonvalue.StringKind:
			argText = args.Text()
		case jsonvalue.ObjectKind: // some servers send the object itself
			m.ToolCalls[j] = agentcheck.ToolCall{ID: stringText(id), Name: name.Text(), Args: args}
			continue
		default:
			return fail(role, j, name.Text(), `"function.arguments" must be a JSON string, got %s`, args.Kind())
		}
		tc, err := openAIArguments(stringText(id), name.Text(), argText, b)
		if err != nil {
			return fail(role, j, name.Text(), "%w", err)
		}
		m.ToolCalls[j] = tc
	}
	return m, nil
}

// openAIArguments makes the call whose arguments are written as text, a
// JSON value: an empty text, or null, is no arguments (an empty object, as
// several servers say it), and a text that is not valid JSON is kept in
// InvalidArgs. Its values count toward b (none when nil): past the bound,
// the error.
func openAIArguments(id, name, text string, b *valueBudget) (agentcheck.ToolCall, error) {
	tc := agentcheck.ToolCall{ID: id, Name: name}
	var err error
	tc.Args, tc.InvalidArgs, err = b.arguments(text)
	return tc, err
}

// stringText is a String's text, and "" for any other kind.
func stringText(v jsonvalue.Value) string {
	if v.Kind() != jsonvalue.StringKind {
		return ""
	}
	return v.Text()
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%q...", string(r[:n]))
}
