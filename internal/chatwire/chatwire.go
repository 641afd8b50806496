// Package chatwire writes an agentcheck.Conversation as OpenAI Chat
// Completions messages, the JSON a request's "messages" holds: the inverse
// of dataset.ParseOpenAIMessages. The agent wrappers of adapters/goopenai
// and adapters/openaigo send a conversation to their model through it, each
// decoding the JSON into its SDK's own message types, so that both speak the
// wire format one way.
package chatwire

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

type message struct {
	Role       string  `json:"role"`
	Content    *string `json:"content"`
	ToolCalls  []call  `json:"tool_calls,omitempty"`
	ToolCallID string  `json:"tool_call_id,omitempty"`
}

type call struct {
	ID       string   `json:"id"`
	Type     string   `json:"type"`
	Function function `json:"function"`
}

type function struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Messages writes conv as a JSON list of Chat Completions messages: Human,
// AI, Tool and System messages become user, assistant, tool and system
// messages; an AI message's calls become function tool_calls with their IDs
// and their arguments as JSON text (the text as the model wrote it when it
// was not valid JSON, "{}" for none), its content null when it has calls
// and no text; a Tool message keeps its tool_call_id and its content (an
// error's text included: the API has no error flag). Reasoning, call
// kinds and a tool_call_id on another role have no place in the format and
// are left out. A call or a Tool
// message without an ID, which the API needs to pair a result with its
// call, and an unknown role are a *agentcheck.MessageError.
func Messages(conv agentcheck.Conversation) ([]byte, error) {
	out := make([]message, len(conv))
	for i, m := range conv {
		fail := func(call int, name string, err error) ([]byte, error) {
			return nil, &agentcheck.MessageError{Message: i, Role: m.Role, ToolCall: call, Name: name, Err: err}
		}
		content := m.Content
		w := message{Content: &content}
		switch m.Role {
		case agentcheck.Human:
			w.Role = "user"
		case agentcheck.System:
			w.Role = "system"
		case agentcheck.Tool:
			w.Role = "tool"
			if m.ToolCallID == "" {
				return fail(-1, "", errors.New("a tool result needs the ID of the call it answers (tool_call_id)"))
			}
			w.ToolCallID = m.ToolCallID
		case agentcheck.AI:
			w.Role = "assistant"
			for j, tc := range m.ToolCalls {
				if tc.ID == "" {
					return fail(j, tc.Name, errors.New("the call has no ID, which Chat Completions needs to pair it with its result"))
				}
				args := tc.InvalidArgs
				if args == "" {
					args = "{}"
					if tc.Args.Kind() != jsonvalue.NullKind {
						b, err := tc.Args.MarshalJSON()
						if err != nil {
							return fail(j, tc.Name, err)
						}
						args = string(b)
					}
				}
				w.ToolCalls = append(w.ToolCalls, call{ID: tc.ID, Type: "function", Function: function{Name: tc.Name, Arguments: args}})
			}
			if content == "" && len(w.ToolCalls) > 0 {
				w.Content = nil
			}
		default:
			return fail(-1, "", fmt.Errorf("unknown role %q", m.Role))
		}
		out[i] = w
	}
	return json.Marshal(out)
}
