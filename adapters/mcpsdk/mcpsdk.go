// Package mcpsdk reads the tool calls an agent made through an MCP client
// built on github.com/modelcontextprotocol/go-sdk as an
// agentcheck.Conversation. Record(client) installs a sending middleware on
// an *mcp.Client that records every tools/call request (its
// *mcp.CallToolParams) with the *mcp.CallToolResult or error it got; the
// Recorder is then an agentcheck.Transcript. Users who already hold the
// pairs convert them with Calls. Each call becomes an AI message with one
// tool call of kind agentcheck.MCPTool, followed by a Tool message with the
// result's text. Only this package, not agentcheck, depends on the go-sdk.
package mcpsdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// Call is one tools/call request of an MCP client and what came back:
// Result, or Err when the call failed (a protocol error, an unknown tool,
// a cancelled context). A call with neither is still running: it converts
// to its AI message alone.
type Call struct {
	// ID names the call in the conversation; empty means "mcp_call_<i>",
	// i its index in Calls. (The JSON-RPC request id is the SDK's own and
	// not shown to its middleware.)
	ID     string
	Params *mcp.CallToolParams
	Result *mcp.CallToolResult
	Err    error
}

// Calls are the tool calls of an agent run, in the order they were made:
// pass them wherever agentcheck takes a conversation.
type Calls []Call

// Conversation converts the calls: each becomes an AI message with one
// ToolCall (Kind agentcheck.MCPTool, the tool's name, the call's ID and its
// arguments as a JSON value, an object as a rule, in their JSON order;
// arguments that are not valid JSON are no error, but kept as written in
// the call's InvalidArgs, Args null), followed by a Tool
// message whose Content is the result's text parts joined by "\n" (the
// structured content as compact JSON when there is no text part) and
// IsError the result's isError; a failed call's Tool message is its error
// text, with IsError set. An error names the message, and the tool call,
// that could not be read.
func (cs Calls) Conversation() (agentcheck.Conversation, error) {
	conv := make(agentcheck.Conversation, 0, 2*len(cs))
	for i, c := range cs {
		at := len(conv)
		if c.Params == nil {
			return nil, &agentcheck.MessageError{Message: at, Role: agentcheck.AI, ToolCall: 0, Err: errors.New("the call has no params")}
		}
		if c.Params.Name == "" {
			return nil, &agentcheck.MessageError{Message: at, Role: agentcheck.AI, ToolCall: 0, Err: errors.New("tool call has no name")}
		}
		args, invalid, err := arguments(c.Params.Arguments)
		if err != nil {
			return nil, &agentcheck.MessageError{Message: at, Role: agentcheck.AI, ToolCall: 0, Name: c.Params.Name, Err: err}
		}
		id := c.ID
		if id == "" {
			id = "mcp_call_" + strconv.Itoa(i)
		}
		conv = append(conv, agentcheck.Message{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{{
			ID: id, Name: c.Params.Name, Args: args, Kind: agentcheck.MCPTool, InvalidArgs: invalid,
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

// arguments reads a call's arguments as the SDK sends them, as JSON: nil is
// no arguments; any other JSON value, an object as a rule, is kept as it
// is, and data that is not valid JSON is returned as invalid.
func arguments(a any) (args jsonvalue.Value, invalid string, err error) {
	var data []byte
	switch t := a.(type) {
	case nil:
		return jsonvalue.Value{}, "", nil
	case json.RawMessage:
		data = t
	default:
		b, err := json.Marshal(a)
		if err != nil {
			return jsonvalue.Value{}, "", fmt.Errorf("arguments (%T) cannot be written as JSON: %w", a, err)
		}
		data = b
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
// content as compact JSON when it has no text part.
func resultText(r *mcp.CallToolResult) (string, error) {
	var texts []string
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok && t != nil {
			texts = append(texts, t.Text)
		}
	}
	if texts != nil || r.StructuredContent == nil {
		return strings.Join(texts, "\n"), nil
	}
	data, ok := r.StructuredContent.(json.RawMessage)
	if !ok {
		b, err := json.Marshal(r.StructuredContent)
		if err != nil {
			return "", fmt.Errorf("structured content (%T) cannot be written as JSON: %w", r.StructuredContent, err)
		}
		data = b
	}
	v, err := jsonvalue.Parse(data)
	if err != nil {
		return "", fmt.Errorf("structured content %q is not valid JSON: %w", data, err)
	}
	return v.String(), nil
}

// Recorder records the tools/call requests an *mcp.Client sends and what
// comes back, in the order they are made; it is safe for concurrent use.
// Its zero value is ready: install it with Record, or add Middleware to the
// client yourself. A Recorder is an agentcheck.Transcript.
type Recorder struct {
	mu    sync.Mutex
	calls Calls
}

// Record adds a Recorder to the client's sending middleware and returns
// it: every tools/call of every session of the client from then on is
// recorded. Call it before connecting.
func Record(c *mcp.Client) *Recorder {
	r := new(Recorder)
	c.AddSendingMiddleware(r.Middleware())
	return r
}

// Middleware is the sending middleware that records tool calls, for
// (*mcp.Client).AddSendingMiddleware; other methods pass through. It
// records the call's params when it is sent, with its arguments as the
// JSON sent (a json.RawMessage), so that later changes to them are not
// seen, and its result or error when it returns.
func (r *Recorder) Middleware() mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			params, ok := req.GetParams().(*mcp.CallToolParams)
			if method != "tools/call" || !ok || params == nil {
				return next(ctx, method, req)
			}
			p := *params
			if b, err := json.Marshal(p.Arguments); err == nil && p.Arguments != nil {
				p.Arguments = json.RawMessage(b)
			}
			r.mu.Lock()
			i := len(r.calls)
			r.calls = append(r.calls, Call{ID: "mcp_call_" + strconv.Itoa(i), Params: &p})
			r.mu.Unlock()

			res, err := next(ctx, method, req)

			r.mu.Lock()
			defer r.mu.Unlock()
			if err != nil {
				r.calls[i].Err = err
			} else if ctr, ok := res.(*mcp.CallToolResult); ok && ctr != nil {
				r.calls[i].Result = ctr
			} else {
				r.calls[i].Err = fmt.Errorf("mcpsdk: tools/call returned %T, not a *mcp.CallToolResult", res)
			}
			return res, err
		}
	}
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
