// Package eino reads the transcript of an agent built on CloudWeGo eino,
// github.com/cloudwego/eino, as an agentcheck.Conversation: the
// []*schema.Message history of a run (what a ReAct agent's chat model is
// given, with its last answer appended; the tool messages a ToolsNode
// returns; a streamed answer once schema.ConcatMessages or
// schema.ConcatMessageStream has joined its chunks) converts with
// Messages(msgs), an agentcheck.Transcript: pass it wherever agentcheck,
// agenttest or matchers take a conversation. Only this module, not
// agentcheck, depends on eino.
package eino

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/cloudwego/eino/schema"

	"github.com/agentcheck/agentcheck"
)

// Messages are the messages of an agent run, in order, as eino holds them.
type Messages []*schema.Message

// Conversation converts the messages. User, assistant, system and tool
// messages become Human, AI, System and Tool messages. A message's text is
// its Content followed by the text parts of UserInputMultiContent,
// AssistantGenMultiContent and the deprecated MultiContent, the non-empty
// ones joined by "\n"; images, audio, video and files are skipped. An
// assistant message's ReasoningContent is its Reasoning. Its ToolCalls keep their order
// and IDs; their arguments, a JSON string, are parsed (an empty string, or
// null, is no arguments: an empty object). Arguments that are not valid JSON
// are no error: the call keeps them as written in InvalidArgs (Args null),
// so that it fails every check of its arguments and still counts as a call
// of its tool. A tool message answers a call of the
// assistant message it follows: the one whose ID is its ToolCallID, or,
// without one, the earliest unanswered call named its ToolName; its
// ToolCallID becomes that call's ID. eino has no error flag on tool
// results, so IsError stays false.
//
// An error is an *agentcheck.MessageError naming the message, and the tool
// call, that could not be read: a nil message, an unknown role, tool calls
// on a message that is not the assistant's, a call without a name,
// a tool message out of place, or one
// whose call is unknown, answered already, or of another name.
func (m Messages) Conversation() (agentcheck.Conversation, error) {
	conv := make(agentcheck.Conversation, len(m))
	toolNames := make([]string, len(m))
	for i, msg := range m {
		cm, err := message(i, msg)
		if err != nil {
			return nil, err
		}
		conv[i] = cm
		if cm.Role == agentcheck.Tool {
			toolNames[i] = msg.ToolName
		}
	}
	if err := conv.Validate(); err != nil {
		return nil, err
	}
	if err := pair(conv, toolNames); err != nil {
		return nil, err
	}
	return conv, nil
}

func message(i int, msg *schema.Message) (agentcheck.Message, error) {
	fail := func(role agentcheck.Role, call int, name string, err error) (agentcheck.Message, error) {
		return agentcheck.Message{}, &agentcheck.MessageError{Message: i, Role: role, ToolCall: call, Name: name, Err: err}
	}
	if msg == nil {
		return fail("", -1, "", errors.New("message is nil"))
	}
	var role agentcheck.Role
	switch msg.Role {
	case schema.User:
		role = agentcheck.Human
	case schema.Assistant:
		role = agentcheck.AI
	case schema.System:
		role = agentcheck.System
	case schema.Tool:
		role = agentcheck.Tool
	default:
		return fail("", -1, "", fmt.Errorf("unknown role %q (want user, assistant, system or tool)", msg.Role))
	}
	cm := agentcheck.Message{Role: role, Content: text(msg)}
	if role == agentcheck.AI {
		cm.Reasoning = msg.ReasoningContent
	}
	if role == agentcheck.Tool {
		cm.ToolCallID = msg.ToolCallID
	}
	if len(msg.ToolCalls) == 0 {
		return cm, nil
	}
	if role != agentcheck.AI {
		return fail(role, -1, "", errors.New("only assistant messages make tool calls"))
	}
	cm.ToolCalls = make([]agentcheck.ToolCall, len(msg.ToolCalls))
	for j, tc := range msg.ToolCalls {
		if tc.Function.Name == "" {
			return fail(role, j, "", errors.New("tool call has no name"))
		}
		args, invalid := agentcheck.ParseArguments(tc.Function.Arguments)
		cm.ToolCalls[j] = agentcheck.ToolCall{ID: tc.ID, Name: tc.Function.Name, Args: args, InvalidArgs: invalid}
	}
	return cm, nil
}

// text joins the non-empty texts of the message: Content, then the text
// parts of each multi-content list.
func text(msg *schema.Message) string {
	var parts []string
	add := func(s string) {
		if s != "" {
			parts = append(parts, s)
		}
	}
	add(msg.Content)
	for _, p := range msg.UserInputMultiContent {
		if p.Type == schema.ChatMessagePartTypeText {
			add(p.Text)
		}
	}
	for _, p := range msg.AssistantGenMultiContent {
		if p.Type == schema.ChatMessagePartTypeText {
			add(p.Text)
		}
	}
	for _, p := range msg.MultiContent {
		if p.Type == schema.ChatMessagePartTypeText {
			add(p.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// pair pairs each Tool message with the call it answers, among the calls of
// the AI message its run of Tool messages follows (Validate has checked
// that there is one), and sets its ToolCallID to the call's ID.
func pair(conv agentcheck.Conversation, toolNames []string) error {
	calls := -1        // the AI message whose results follow
	var answered []int // per call: the message that answered it, or -1
	for i := range conv {
		m := &conv[i]
		switch m.Role {
		case agentcheck.AI:
			calls = i
			answered = answered[:0]
			for range m.ToolCalls {
				answered = append(answered, -1)
			}
			continue
		case agentcheck.Tool:
		default:
			calls = -1
			continue
		}
		fail := func(format string, args ...any) error {
			return &agentcheck.MessageError{Message: i, Role: m.Role, ToolCall: -1, Err: fmt.Errorf(format, args...)}
		}
		tcs := conv[calls].ToolCalls
		id, name := m.ToolCallID, toolNames[i]
		j := -1
		switch {
		case id != "":
			for k, tc := range tcs {
				if tc.ID == id {
					j = k
					break
				}
			}
			if j < 0 {
				return fail("ToolCallID %q answers no call of message %d (its calls: %s)", id, calls, describeCalls(tcs))
			}
			if name != "" && name != tcs[j].Name {
				return fail("ToolName %q is not the name of the call %q it answers, %q", name, id, tcs[j].Name)
			}
		case name != "":
			named := false
			for k, tc := range tcs {
				if tc.Name == name {
					named = true
					if answered[k] < 0 {
						j = k
						break
					}
				}
			}
			if j < 0 && named {
				return fail("ToolName %q answers no call of message %d: every call of that name is answered already", name, calls)
			}
			if j < 0 {
				return fail("ToolName %q answers no call of message %d (its calls: %s)", name, calls, describeCalls(tcs))
			}
		default:
			return fail("tool message has neither ToolCallID nor ToolName to pair it with a call of message %d", calls)
		}
		if answered[j] >= 0 {
			return fail("answers tool call %d %q of message %d, which message %d answered already", j, tcs[j].Name, calls, answered[j])
		}
		answered[j] = i
		m.ToolCallID = tcs[j].ID
	}
	return nil
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
