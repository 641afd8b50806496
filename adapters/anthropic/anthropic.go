// Package anthropic reads the transcript of an agent built on Anthropic's
// Go SDK, github.com/anthropics/anthropic-sdk-go, as an
// agentcheck.Conversation: the []anthropic.MessageParam a Messages API
// request sent (with its System prompt) and the anthropic.Message replies
// received, from a client call or accumulated from a stream with
// Message.Accumulate (Messages, or Request from the request's params); and
// the same for the beta API, whose MCP connector calls MCP tools
// (BetaMessages, BetaRequest). Each is an agentcheck.Transcript: pass it
// wherever agentcheck, agenttest or matchers take a conversation. The
// SDK's values go through its own JSON, the API's wire format, and are read
// by dataset.ParseAnthropicMessages, so that they convert exactly as the
// same messages in a dataset file do. Only this module, not agentcheck,
// depends on the SDK.
package anthropic

import (
	"encoding/json"
	"errors"
	"fmt"

	sdk "github.com/anthropics/anthropic-sdk-go"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/dataset"
)

// Messages is a Messages API run as the agent holds it after its last
// request: the system prompt and messages that request sent (in an agent
// loop, the earlier replies included, added with Message.ToParam, and the
// tool results, sent in user messages) and the replies received after
// them, usually the last response or the Message a stream was accumulated
// into.
type Messages struct {
	System   []sdk.TextBlockParam
	Sent     []sdk.MessageParam
	Received []sdk.Message
}

// Request is the run of a request, params as passed to Messages.New or
// NewStreaming, and the replies received after it.
func Request(params sdk.MessageNewParams, received ...sdk.Message) Messages {
	return Messages{System: params.System, Sent: params.Messages, Received: received}
}

// Conversation converts the system prompt, then the messages, Sent then
// Received, as dataset.ParseAnthropicMessages reads them: user, assistant
// and system messages become Human, AI and System messages (text blocks
// joined by lines; thinking, images and documents skipped); tool_use
// blocks are function calls with their IDs and their input as arguments,
// server_tool_use blocks (web search, code execution...) hosted calls; a
// tool_result becomes a Tool message where it is, paired with its call by
// tool_use_id and flagged by is_error, and the text after it in its user
// message a Human message; a server tool's result becomes a Tool message
// after the AI message that made the call.
//
// A reply's blocks are read as the API sent them (their RawJSON, which
// Accumulate keeps up to date as each block's content_block_stop event
// arrives), so a reply must come from the SDK's decoding of the API's JSON:
// a client call, or Accumulate over a stream's events. A param's JSON is the
// SDK's: arguments given as a Go map have their keys sorted. An error
// names the message by its index in Sent followed by Received, the content
// block and the tool call that could not be read.
func (m Messages) Conversation() (agentcheck.Conversation, error) {
	return convert(m.System, m.Sent, m.Received, func(r sdk.Message) (string, []string) {
		raws := make([]string, len(r.Content))
		for j, c := range r.Content {
			raws[j] = c.RawJSON()
		}
		return r.RawJSON(), raws
	})
}

// BetaMessages is a run of the beta Messages API (client.Beta.Messages), as
// Messages is one of the Messages API. The beta API's MCP connector runs
// the tools of MCP servers for the agent: its mcp_tool_use blocks are MCP
// calls, and its mcp_tool_result blocks their results. BetaMessage.ToParam
// writes an mcp_tool_use's input from the Go value the SDK decoded it into
// (keys sorted, 4.0 written 4), as the SDK sends it back; a reply given in
// Received keeps the input as the API sent it.
type BetaMessages struct {
	System   []sdk.BetaTextBlockParam
	Sent     []sdk.BetaMessageParam
	Received []sdk.BetaMessage
}

// BetaRequest is the run of a beta request and the replies received after
// it, as Request is one of the Messages API.
func BetaRequest(params sdk.BetaMessageNewParams, received ...sdk.BetaMessage) BetaMessages {
	return BetaMessages{System: params.System, Sent: params.Messages, Received: received}
}

// Conversation converts the run as Messages.Conversation does, mcp_tool_use
// blocks being MCP calls and mcp_tool_result blocks their results.
func (m BetaMessages) Conversation() (agentcheck.Conversation, error) {
	return convert(m.System, m.Sent, m.Received, func(r sdk.BetaMessage) (string, []string) {
		raws := make([]string, len(r.Content))
		for j, c := range r.Content {
			raws[j] = c.RawJSON()
		}
		return r.RawJSON(), raws
	})
}

// convert writes the system prompt, the params sent and the replies
// received (their JSON and their blocks' JSON, as raw gives them) as a
// request body and reads it.
func convert[S, P, R any](system []S, sent []P, received []R, raw func(R) (string, []string)) (agentcheck.Conversation, error) {
	var b body
	if len(system) > 0 {
		if err := b.system(system); err != nil {
			return nil, err
		}
	}
	for i, p := range sent {
		if err := b.param(i, p); err != nil {
			return nil, err
		}
	}
	for i, r := range received {
		msg, blocks := raw(r)
		if err := b.reply(len(sent)+i, msg, blocks); err != nil {
			return nil, err
		}
	}
	return b.parse()
}

// body writes a request body, {"system": [...], "messages": [...]}, for
// dataset.ParseAnthropicMessages to read.
type body struct {
	sys, messages []byte
}

func (b *body) system(blocks any) error {
	data, err := json.Marshal(blocks)
	if err != nil {
		return fmt.Errorf("system: %w", err)
	}
	b.sys = data
	return nil
}

func (b *body) add(msg []byte) {
	if len(b.messages) > 0 {
		b.messages = append(b.messages, ',')
	}
	b.messages = append(b.messages, msg...)
}

// param adds message i, a param, as the SDK writes it.
func (b *body) param(i int, p any) error {
	data, err := json.Marshal(p)
	if err != nil {
		return &agentcheck.MessageError{Message: i, ToolCall: -1, Err: err}
	}
	b.add(data)
	return nil
}

// reply adds message i, a reply whose JSON is raw and whose content
// blocks' JSON is blocks, as the API sent them.
func (b *body) reply(i int, raw string, blocks []string) error {
	if raw == "" && len(blocks) == 0 {
		return &agentcheck.MessageError{Message: i, Role: agentcheck.AI, ToolCall: -1,
			Err: errors.New("the reply has no JSON as the API sent it: take replies from a client call, or Accumulate a stream's events into them")}
	}
	msg := []byte(`{"role":"assistant","content":[`)
	for j, block := range blocks {
		if block == "" {
			return &agentcheck.MessageError{Message: i, Role: agentcheck.AI, ToolCall: -1,
				Err: fmt.Errorf("content block %d has no JSON as the API sent it: take replies from a client call, or Accumulate a stream's events into them", j)}
		}
		if j > 0 {
			msg = append(msg, ',')
		}
		msg = append(msg, block...)
	}
	b.add(append(msg, "]}"...))
	return nil
}

func (b *body) parse() (agentcheck.Conversation, error) {
	data := []byte(`{`)
	if b.sys != nil {
		data = append(append(data, `"system":`...), b.sys...)
		data = append(data, ',')
	}
	data = append(append(data, `"messages":[`...), b.messages...)
	return dataset.ParseAnthropicMessages(append(data, "]}"...))
}
