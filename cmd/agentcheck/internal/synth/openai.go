package synth

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// AppendOpenAI appends the ragas sample line as the same run written as
// OpenAI chat messages, as the OpenAI SDKs send them (each call's
// arguments a JSON string, each tool message answering its call by id),
// with the same references: the provider's shape that `agentcheck eval`
// reads by Auto.
func AppendOpenAI(b, ragas []byte) ([]byte, error) {
	var s struct {
		UserInput []struct {
			Type      string `json:"type"`
			Content   string `json:"content"`
			ToolCalls []struct {
				Name string          `json:"name"`
				Args json.RawMessage `json:"args"`
			} `json:"tool_calls"`
		} `json:"user_input"`
		ReferenceToolCalls json.RawMessage `json:"reference_tool_calls"`
	}
	if err := json.Unmarshal(ragas, &s); err != nil {
		return b, err
	}
	type function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	type toolCall struct {
		ID       string   `json:"id"`
		Type     string   `json:"type"`
		Function function `json:"function"`
	}
	type message struct {
		Role       string     `json:"role"`
		Content    string     `json:"content"`
		ToolCalls  []toolCall `json:"tool_calls,omitempty"`
		ToolCallID string     `json:"tool_call_id,omitempty"`
	}
	var msgs []message
	var pending []string // the ids of the calls not answered yet
	n := 0
	for _, m := range s.UserInput {
		switch m.Type {
		case "human":
			msgs = append(msgs, message{Role: "user", Content: m.Content})
		case "ai":
			am := message{Role: "assistant", Content: m.Content}
			for _, c := range m.ToolCalls {
				n++
				id := "call_" + strconv.Itoa(n)
				pending = append(pending, id)
				am.ToolCalls = append(am.ToolCalls, toolCall{ID: id, Type: "function", Function: function{Name: c.Name, Arguments: string(c.Args)}})
			}
			msgs = append(msgs, am)
		case "tool":
			if len(pending) == 0 {
				return b, fmt.Errorf("a tool message answers no call")
			}
			msgs = append(msgs, message{Role: "tool", ToolCallID: pending[0], Content: m.Content})
			pending = pending[1:]
		default:
			return b, fmt.Errorf("message type %q", m.Type)
		}
	}
	out, err := json.Marshal(struct {
		Messages           []message       `json:"messages"`
		ReferenceToolCalls json.RawMessage `json:"reference_tool_calls"`
	}{msgs, s.ReferenceToolCalls})
	return append(b, out...), err
}
