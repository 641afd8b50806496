package dataset

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/pyvalue"
)

// OpenAI Chat Completions messages.

// ParseOpenAIMessages reads OpenAI Chat Completions messages written as JSON:
// a list of messages, or an object with a "messages" list (a request body).
// Assistant tool calls carry their arguments as a JSON string, which is
// parsed; malformed arguments are an error naming the message and the call.
func ParseOpenAIMessages(data []byte) (agentcheck.Conversation, error) {
	v, err := agentcheck.ParseValue(data)
	if err != nil {
		return nil, err
	}
	if v.Kind() == agentcheck.ObjectKind {
		msgs, ok := v.Get("messages")
		if !ok {
			return nil, errors.New(`want a list of messages or an object with "messages"`)
		}
		v = msgs
	}
	if v.Kind() != agentcheck.ArrayKind {
		return nil, fmt.Errorf("want a list of messages, got %s", v.Kind())
	}
	conv := make(agentcheck.Conversation, v.Len())
	for i := range conv {
		m, err := openAIMessage(v.Index(i), i)
		if err != nil {
			return nil, err
		}
		conv[i] = m
	}
	return conv, conv.Validate()
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

func openAIMessage(v agentcheck.Value, i int) (agentcheck.Message, error) {
	fail := func(role agentcheck.Role, call int, name string, format string, args ...any) (agentcheck.Message, error) {
		return agentcheck.Message{}, &agentcheck.MessageError{Message: i, Role: role, ToolCall: call, Name: name, Err: fmt.Errorf(format, args...)}
	}
	if v.Kind() != agentcheck.ObjectKind {
		return fail("", -1, "", "a message must be an object, got %s", v.Kind())
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
	case agentcheck.NullKind:
	case agentcheck.StringKind:
		m.Content = c.Text()
	case agentcheck.ArrayKind: // content parts: keep the text ones
		var parts []string
		for j := 0; j < c.Len(); j++ {
			if t, ok := c.Index(j).Get("text"); ok && t.Kind() == agentcheck.StringKind {
				parts = append(parts, t.Text())
			}
		}
		m.Content = strings.Join(parts, "\n")
	default:
		return fail(role, -1, "", `"content" must be a string, a list of parts or null, got %s`, c.Kind())
	}
	tcs, ok := v.Get("tool_calls")
	if !ok || tcs.Kind() == agentcheck.NullKind {
		return m, nil
	}
	if role != agentcheck.AI {
		return fail(role, -1, "", `only assistant messages have "tool_calls"`)
	}
	if tcs.Kind() != agentcheck.ArrayKind {
		return fail(role, -1, "", `"tool_calls" must be a list, got %s`, tcs.Kind())
	}
	m.ToolCalls = make([]agentcheck.ToolCall, tcs.Len())
	for j := range m.ToolCalls {
		tcv := tcs.Index(j)
		fn, _ := tcv.Get("function")
		name, _ := fn.Get("name")
		args, _ := fn.Get("arguments")
		id, _ := tcv.Get("id")
		if name.Kind() != agentcheck.StringKind || name.Text() == "" {
			return fail(role, j, "", `"function.name" must be a non-empty string`)
		}
		var argText string
		switch args.Kind() {
		case agentcheck.StringKind:
			argText = args.Text()
		case agentcheck.ObjectKind: // some servers send the object itself
			m.ToolCalls[j] = agentcheck.ToolCall{ID: stringText(id), Name: name.Text(), Args: args}
			continue
		default:
			return fail(role, j, name.Text(), `"function.arguments" must be a JSON string, got %s`, args.Kind())
		}
		tc, err := openAIArguments(stringText(id), name.Text(), argText)
		if err != nil {
			return fail(role, j, name.Text(), "%v", err)
		}
		m.ToolCalls[j] = tc
	}
	return m, nil
}

func openAIArguments(id, name, text string) (agentcheck.ToolCall, error) {
	tc := agentcheck.ToolCall{ID: id, Name: name}
	if strings.TrimSpace(text) == "" {
		// An empty arguments string is how several servers say "no arguments".
		tc.Args = agentcheck.ObjectOf()
		return tc, nil
	}
	args, err := agentcheck.ParseValue([]byte(text))
	if err != nil {
		return tc, fmt.Errorf("arguments %s are not valid JSON: %w", truncate(text, 80), err)
	}
	if args.Kind() != agentcheck.ObjectKind {
		return tc, fmt.Errorf("arguments must be a JSON object, got %s", args.Kind())
	}
	tc.Args = args
	return tc, nil
}

// stringText is a String's text, and "" for any other kind.
func stringText(v agentcheck.Value) string {
	if v.Kind() != agentcheck.StringKind {
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
