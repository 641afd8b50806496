// Package mcpgo reads the tool calls an agent made through an MCP client
// built on github.com/mark3labs/mcp-go as an agentcheck.Conversation.
// Record(client) wraps a client.MCPClient (such as the *client.Client of
// client.NewInProcessClient or client.NewStdioMCPClient) in a Recorder that
// is itself a client.MCPClient and records every CallTool, its
// mcp.CallToolRequest with the *mcp.CallToolResult or error it got; the
// Recorder is then an agentcheck.Transcript. Users who already hold the
// pairs convert them with Calls. Each call becomes an AI message with one
// tool call of kind agentcheck.MCPTool, followed by a Tool message with the
// result's text. Only this package, not agentcheck, depends on mcp-go.
package mcpgo

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// Call is one tools/call request of an MCP client and what came back:
// Result, or Err when the call failed (a protocol error, an unknown tool,
// a cancelled context). A call with neither is still running: it converts
// to its AI message alone.
type Call struct {
	// ID names the call in the conversation; empty means "mcp_call_<i>",
	// i its index in Calls. (The JSON-RPC request id is the client's own
	// and not shown to its callers.)
	ID      string
	Request mcp.CallToolRequest
	Result  *mcp.CallToolResult
	Err     error
}

// Calls are the tool calls of an agent run, in the order they were made:
// pass them wherever agentcheck takes a conversation.
type Calls []Call

// Conversation converts the calls: each becomes an AI message with one
// ToolCall (Kind agentcheck.MCPTool, the tool's name, the call's ID and its
// arguments as a JSON value, an object as a rule: Params.RawArguments when
// set, as mcp-go sends them, else Params.Arguments; arguments that are not
// valid JSON are no error, but kept as written in the call's InvalidArgs,
// Args null), followed by a Tool message whose
// Content is the result's text parts joined by "\n" (the structured content
// as compact JSON when there is no text part) and IsError the result's
// isError; a failed call's Tool message is its error text, with IsError
// set. An error names the message, and the tool call, that could not be
// read.
func (cs Calls) Conversation() (agentcheck.Conversation, error) {
	conv := make(agentcheck.Conversation, 0, 2*len(cs))
	for i, c := range cs {
		at := len(conv)
		p := &c.Request.Params
		if p.Name == "" {
			return nil, &agentcheck.MessageError{Message: at, Role: agentcheck.AI, ToolCall: 0, Err: fmt.Errorf("tool call has no name")}
		}
		args, invalid, err := arguments(p)
		if err != nil {
			return nil, &agentcheck.MessageError{Message: at, Role: agentcheck.AI, ToolCall: 0, Name: p.Name, Err: err}
		}
		id := c.ID
		if id == "" {
			id = "mcp_call_" + strconv.Itoa(i)
		}
		conv = append(conv, agentcheck.Message{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{{
			ID: id, Name: p.Name, Args: args, Kind: agentcheck.MCPTool, InvalidArgs: invalid,
		}}})
		switch {
		case c.Err != nil:
			conv = append(conv, agentcheck.Message{Role: agentcheck.Tool, ToolCallID: id, Content: c.Err.Error(), IsError: true})
		case c.Result != nil:
			text, err := resultText(c.Result)
			if err != nil {
				return nil, &agentcheck.MessageError{Message: at + 1, Role: agentcheck.Tool, ToolCall: -1, Err: fmt.Errorf("result of tool call %q: %w", id, err)}
			}
			conv = append(conv, agentcheck.Message{Role: agentcheck.Tool, ToolCallID: id, Content: text, IsError: c.Result.IsError})
		}
	}
	return conv, nil
}

// arguments reads a call's arguments as mcp-go sends them, as JSON: none is
// no arguments; any other JSON value, an object as a rule, is kept as it
// is, and data that is not valid JSON is returned as invalid.
func arguments(p *mcp.CallToolParams) (args jsonvalue.Value, invalid string, err error) {
	data := []byte(p.RawArguments)
	if len(data) == 0 {
		switch t := p.Arguments.(type) {
		case nil:
			return jsonvalue.Value{}, "", nil
		case json.RawMessage:
			data = t
		default:
			b, err := json.Marshal(t)
			if err != nil {
				return jsonvalue.Value{}, "", fmt.Errorf("arguments (%T) cannot be written as JSON: %w", t, err)
			}
			data = b
		}
	}
	v, perr := jsonvalue.Parse(data)
	switch {
	case perr != nil && strings.TrimSpace(string(data)) == "":
		return jsonvalue.Value{}, "", nil
	case perr != nil:
		return jsonvalue.Value{}, string(data), nil
	case v.Kind() == jsonvalue.NullKind:
		return jsonvalue.Value{}, "", nil
	}
	return v, "", nil
}

// resultText is the result's text parts, one a line, or its structured
// content as compact JSON (RawStructuredContent when set) when it has no
// text part.
func resultText(r *mcp.CallToolResult) (string, error) {
	var texts []string
	for _, c := range r.Content {
		switch t := c.(type) {
		case mcp.TextContent:
			texts = append(texts, t.Text)
		case *mcp.TextContent:
			if t != nil {
				texts = append(texts, t.Text)
			}
		}
	}
	if texts != nil || (r.StructuredContent == nil && len(r.RawStructuredContent) == 0) {
		return strings.Join(texts, "\n"), nil
	}
	data := []byte(r.RawStructuredContent)
	if len(data) == 0 {
		raw, ok := r.StructuredContent.(json.RawMessage)
		if !ok {
			b, err := json.Marshal(r.StructuredContent)
			if err != nil {
				return "", fmt.Errorf("structured content (%T) cannot be written as JSON: %w", r.StructuredContent, err)
			}
			raw = b
		}
		data = raw
	}
	v, err := jsonvalue.Parse(data)
	if err != nil {
		return "", fmt.Errorf("structured content %q is not valid JSON: %w", data, err)
	}
	return v.String(), nil
}

// Recorder is a client.MCPClient that records the CallTool calls made
// through it, in the order they are made, and passes every call on to the
// client it wraps; it is safe for concurrent use. A Recorder is an
// agentcheck.Transcript.
type Recorder struct {
	client.MCPClient // the client the calls go to

	mu    sync.Mutex
	calls Calls
}

// Record wraps c: give the agent the Recorder in place of c, and every
// CallTool it makes is recorded.
func Record(c client.MCPClient) *Recorder {
	return &Recorder{MCPClient: c}
}

// CallTool records the request when it is made, with its arguments as the
// JSON sent (in Params.RawArguments), so that later changes to them are not
// seen; calls the wrapped client; and records its result or error.
func (r *Recorder) CallTool(ctx context.Context, request mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	rec := request
	if p := &rec.Params; len(p.RawArguments) == 0 && p.Arguments != nil {
		if b, err := json.Marshal(p.Arguments); err == nil {
			p.RawArguments = b
		}
	}
	r.mu.Lock()
	i := len(r.calls)
	r.calls = append(r.calls, Call{ID: "mcp_call_" + strconv.Itoa(i), Request: rec})
	r.mu.Unlock()

	res, err := r.MCPClient.CallTool(ctx, request)

	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.calls[i].Err = err
	} else if res != nil {
		r.calls[i].Result = res
	} else {
		r.calls[i].Err = fmt.Errorf("mcpgo: CallTool returned neither a result nor an error")
	}
	return res, err
}

// Calls returns a copy of the calls recorded so far, in the order they
// were made. A call still running has neither Result nor Err.
func (r *Recorder) Calls() Calls {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append(Calls(nil), r.calls...)
}

// Conversation converts the calls recorded so far, as Calls.Conversation
// does.
func (r *Recorder) Conversation() (agentcheck.Conversation, error) {
	return r.Calls().Conversation()
}

var _ client.MCPClient = (*Recorder)(nil)
