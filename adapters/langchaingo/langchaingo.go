// Package langchaingo reads the transcript of an agent built on
// github.com/tmc/langchaingo as an agentcheck.Conversation: the
// []llms.MessageContent history an agent passes to llms.Model's
// GenerateContent (Messages), and that history with the
// *llms.ContentResponse the model answered (Reply), its first choice's
// text and tool calls, streamed or not. Each is an agentcheck.Transcript:
// pass it wherever agentcheck, agenttest or matchers take a conversation.
// Only this module, not agentcheck, depends on langchaingo.
package langchaingo

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tmc/langchaingo/llms"

	"github.com/agentcheck/agentcheck"
)

// Messages are the messages of an agent run, in order, as langchaingo holds
// them: what the agent last sent to the model, its answers appended.
type Messages []llms.MessageContent

// Conversation converts the messages. Human and generic messages become
// Human messages, ai messages AI messages, system messages System
// messages; a message's text is its non-empty TextContent parts joined by
// "\n" (images and binary parts are skipped; a CachedContent is read as
// the part it wraps). An ai message's ToolCall parts are its tool calls,
// in order, with their IDs; their arguments, a JSON string, are parsed (an
// empty string, or null, is no arguments: an empty object; any other JSON
// value, a list or a string, is kept as it is). Arguments that are not
// valid JSON are no error: the call keeps them as written in InvalidArgs
// (Args null), so that it fails every check of its arguments and still
// counts as a call of its tool. Each ToolCallResponse
// part of a tool message (or of a legacy function message) becomes a Tool
// message with its Content, answering a call of the ai message it
// follows: the one whose ID is its ToolCallID, or, without one, the
// earliest unanswered call of its Name; its ToolCallID becomes that
// call's ID. langchaingo has no error flag on tool results, so IsError
// stays false.
//
// An error is an *agentcheck.MessageError naming the message by its index
// in m (its part, where a message has several), and the tool call by its
// index among the message's calls: an unknown role, a part that does not
// belong in its message, a call without a function or a name, a tool
// message out of place, or a result
// whose call is unknown, answered already, or of another name.
func (m Messages) Conversation() (agentcheck.Conversation, error) {
	c := converter{calls: -1, prev: -1}
	for i, mc := range m {
		if err := c.add(i, mc); err != nil {
			return nil, err
		}
	}
	return c.conv, nil
}

// Reply is an agent's history and the model's answer to it: the messages
// passed to GenerateContent and the response it returned (with a
// streaming func set too: langchaingo accumulates the stream into it).
type Reply struct {
	History  []llms.MessageContent
	Response *llms.ContentResponse
}

// Conversation converts the history as Messages.Conversation does and adds
// the response's first choice, the one langchaingo's agents read, as an AI
// message: its Content and its ToolCalls (or, without any, its legacy
// FuncCall, a call without an ID); ReasoningContent is skipped. The
// response is message len(History) in errors; a nil response, or one
// without choices, is an error.
func (r Reply) Conversation() (agentcheck.Conversation, error) {
	c := converter{calls: -1, prev: -1}
	for i, mc := range r.History {
		if err := c.add(i, mc); err != nil {
			return nil, err
		}
	}
	i := len(r.History)
	fail := func(call int, name string, err error) (agentcheck.Conversation, error) {
		return nil, &agentcheck.MessageError{Message: i, Role: agentcheck.AI, ToolCall: call, Name: name, Err: err}
	}
	switch {
	case r.Response == nil:
		return fail(-1, "", errors.New("the reply has no response"))
	case len(r.Response.Choices) == 0:
		return fail(-1, "", errors.New("the response has no choices"))
	case r.Response.Choices[0] == nil:
		return fail(-1, "", errors.New("the response's first choice is nil"))
	}
	choice := r.Response.Choices[0]
	m := agentcheck.Message{Role: agentcheck.AI, Content: choice.Content}
	tcs := choice.ToolCalls
	if len(tcs) == 0 && choice.FuncCall != nil {
		tcs = []llms.ToolCall{{Type: "function", FunctionCall: choice.FuncCall}}
	}
	for j, tc := range tcs {
		call, err := toolCall(tc)
		if err != nil {
			return fail(j, call.Name, err)
		}
		m.ToolCalls = append(m.ToolCalls, call)
	}
	return append(c.conv, m), nil
}

// converter builds a conversation message by message, pairing each result
// with its call.
type converter struct {
	conv agentcheck.Conversation
	prev int // the index, in the input, of the last message added
	// calls is the index in conv of the AI message whose results may
	// follow (-1 if none), callsAt its index in the input, and answered
	// per call the input index of the message that answered it, or -1.
	calls, callsAt int
	answered       []int
}

func (c *converter) add(i int, mc llms.MessageContent) error {
	var role agentcheck.Role
	switch mc.Role {
	case llms.ChatMessageTypeHuman, llms.ChatMessageTypeGeneric:
		role = agentcheck.Human
	case llms.ChatMessageTypeAI:
		role = agentcheck.AI
	case llms.ChatMessageTypeSystem:
		role = agentcheck.System
	case llms.ChatMessageTypeTool, llms.ChatMessageTypeFunction:
		return c.addResults(i, mc)
	default:
		return &agentcheck.MessageError{Message: i, ToolCall: -1,
			Err: fmt.Errorf("unknown role %q (want human, ai, system, tool, function or generic)", mc.Role)}
	}
	m := agentcheck.Message{Role: role}
	var text []string
	for k, p := range mc.Parts {
		fail := func(call int, name string, format string, args ...any) error {
			return &agentcheck.MessageError{Message: i, Role: role, ToolCall: call, Name: name, Err: fmt.Errorf("part %d: "+format, append([]any{k}, args...)...)}
		}
		switch p := unwrap(p).(type) {
		case llms.TextContent:
			if p.Text != "" {
				text = append(text, p.Text)
			}
		case llms.ImageURLContent, llms.BinaryContent:
		case llms.ToolCall:
			if role != agentcheck.AI {
				return fail(-1, "", "only ai messages make tool calls")
			}
			call, err := toolCall(p)
			if err != nil {
				return fail(len(m.ToolCalls), call.Name, "%w", err)
			}
			m.ToolCalls = append(m.ToolCalls, call)
		case llms.ToolCallResponse:
			return fail(-1, "", "a ToolCallResponse belongs in a tool message")
		case nil:
			return fail(-1, "", "the part is nil")
		default:
			return fail(-1, "", "unknown part type %T", p)
		}
	}
	m.Content = strings.Join(text, "\n")
	c.conv = append(c.conv, m)
	c.prev = i
	c.calls = -1
	if m.ToolCalls != nil {
		c.calls, c.callsAt = len(c.conv)-1, i
		c.answered = c.answered[:0]
		for range m.ToolCalls {
			c.answered = append(c.answered, -1)
		}
	}
	return nil
}

// addResults adds a Tool message for each ToolCallResponse part of tool
// message i.
func (c *converter) addResults(i int, mc llms.MessageContent) error {
	fail := func(format string, args ...any) error {
		return &agentcheck.MessageError{Message: i, Role: agentcheck.Tool, ToolCall: -1, Err: fmt.Errorf(format, args...)}
	}
	if len(mc.Parts) == 0 {
		return fail("a tool message must have a ToolCallResponse part, but it has no parts")
	}
	if c.calls < 0 {
		if c.prev < 0 {
			return fail("a tool message must follow an ai message with tool calls, but it is the first message")
		}
		return fail("a tool message must follow an ai message with tool calls or another tool message, but message %d is %s", c.prev, describe(c.conv[len(c.conv)-1]))
	}
	for k, p := range mc.Parts {
		r, ok := unwrap(p).(llms.ToolCallResponse)
		if !ok {
			return fail("part %d: a tool message's parts must be ToolCallResponses, got %s", k, partType(p))
		}
		j, err := c.answer(i, r)
		if err != nil {
			if len(mc.Parts) > 1 {
				err = fmt.Errorf("part %d: %w", k, err)
			}
			return &agentcheck.MessageError{Message: i, Role: agentcheck.Tool, ToolCall: -1, Err: err}
		}
		c.conv = append(c.conv, agentcheck.Message{Role: agentcheck.Tool, Content: r.Content, ToolCallID: c.conv[c.calls].ToolCalls[j].ID})
	}
	c.prev = i
	return nil
}

// answer pairs result r of message i with a call of the ai message the
// results follow, and returns the call's index.
func (c *converter) answer(i int, r llms.ToolCallResponse) (int, error) {
	tcs := c.conv[c.calls].ToolCalls
	j := -1
	switch {
	case r.ToolCallID != "":
		for k, tc := range tcs {
			if tc.ID == r.ToolCallID {
				j = k
				break
			}
		}
		if j < 0 {
			return -1, fmt.Errorf("ToolCallID %q answers no call of message %d (its calls: %s)", r.ToolCallID, c.callsAt, describeCalls(tcs))
		}
		if r.Name != "" && r.Name != tcs[j].Name {
			return -1, fmt.Errorf("Name %q is not the name of the call %q it answers, %q", r.Name, r.ToolCallID, tcs[j].Name)
		}
	case r.Name != "":
		named := false
		for k, tc := range tcs {
			if tc.Name == r.Name {
				named = true
				if c.answered[k] < 0 {
					j = k
					break
				}
			}
		}
		if j < 0 && named {
			return -1, fmt.Errorf("Name %q answers no call of message %d: every call of that name is answered already", r.Name, c.callsAt)
		}
		if j < 0 {
			return -1, fmt.Errorf("Name %q answers no call of message %d (its calls: %s)", r.Name, c.callsAt, describeCalls(tcs))
		}
	default:
		return -1, fmt.Errorf("the ToolCallResponse has neither ToolCallID nor Name to pair it with a call of message %d", c.callsAt)
	}
	if c.answered[j] >= 0 {
		return -1, fmt.Errorf("answers tool call %d %q of message %d, which message %d answered already", j, tcs[j].Name, c.callsAt, c.answered[j])
	}
	c.answered[j] = i
	return j, nil
}

// toolCall converts a call; on error the call keeps its name, if any.
// Arguments that are not valid JSON are kept in InvalidArgs, not an error.
func toolCall(tc llms.ToolCall) (agentcheck.ToolCall, error) {
	if tc.FunctionCall == nil {
		return agentcheck.ToolCall{}, errors.New("tool call has no FunctionCall")
	}
	call := agentcheck.ToolCall{ID: tc.ID, Name: tc.FunctionCall.Name}
	if call.Name == "" {
		return call, errors.New("tool call has no name")
	}
	call.Args, call.InvalidArgs = agentcheck.ParseArguments(tc.FunctionCall.Arguments)
	return call, nil
}

// unwrap returns the part a CachedContent wraps, at any depth.
func unwrap(p llms.ContentPart) llms.ContentPart {
	for {
		c, ok := p.(llms.CachedContent)
		if !ok {
			return p
		}
		p = c.ContentPart
	}
}

func partType(p llms.ContentPart) string {
	if p == nil {
		return "nil"
	}
	return fmt.Sprintf("%T", unwrap(p))
}

func describe(m agentcheck.Message) string {
	if m.Role == agentcheck.AI {
		return "an ai message without tool calls"
	}
	return "a " + string(m.Role) + " message"
}

// describeCalls lists calls as `"id" (name)`, or the name alone for a call
// without an ID.
func describeCalls(tcs []agentcheck.ToolCall) string {
	s := make([]string, len(tcs))
	for k, tc := range tcs {
		if tc.ID == "" {
			s[k] = strconv.Quote(tc.Name)
		} else {
			s[k] = fmt.Sprintf("%q (%s)", tc.ID, tc.Name)
		}
	}
	return strings.Join(s, ", ")
}
