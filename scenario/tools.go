package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/tooldefs"
)

// Toolbox is a set of mocked tools, their schemas compiled once. It answers
// each call the agent's model makes: a call that names no tool in the box,
// or whose arguments do not fit the tool's schema, gets a Tool message with
// IsError set that says why (so the model can correct itself, as it would
// with a real tool), and Func is not called. It is safe for concurrent use.
type Toolbox struct {
	tools  []Tool
	defs   *tooldefs.Set
	byName map[string]int
}

// NewToolbox compiles tools. Two tools of one name, a tool without a name or
// a Func, and a schema that is not JSON Schema are errors naming the tool.
func NewToolbox(tools ...Tool) (*Toolbox, error) {
	b := &Toolbox{tools: tools, byName: make(map[string]int, len(tools))}
	defs := make([]tooldefs.Tool, len(tools))
	for i, t := range tools {
		switch {
		case t.Name == "":
			return nil, fmt.Errorf("scenario: tool %d has no name", i)
		case t.Func == nil:
			return nil, fmt.Errorf("scenario: tool %q has no Func", t.Name)
		}
		if _, dup := b.byName[t.Name]; dup {
			return nil, fmt.Errorf("scenario: two tools are named %q", t.Name)
		}
		b.byName[t.Name] = i
		defs[i] = tooldefs.Tool{Name: t.Name, Description: t.Description, Parameters: t.Parameters}
	}
	set, err := tooldefs.New(defs...)
	if err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	b.defs = set
	return b, nil
}

// Tools are the tools in the box, in the order given to NewToolbox.
func (b *Toolbox) Tools() []Tool {
	if b == nil {
		return nil
	}
	return b.tools
}

// Call answers call with the Tool message that goes back to the model: the
// result of the tool's Func, or the error it returned, or why the call was
// refused (no such tool, arguments that do not fit the schema). The message's
// ToolCallID is the call's ID.
func (b *Toolbox) Call(ctx context.Context, call agentcheck.ToolCall) agentcheck.Message {
	reply := agentcheck.Message{Role: agentcheck.Tool, ToolCallID: call.ID}
	fail := func(msg string) agentcheck.Message {
		reply.Content, reply.IsError = msg, true
		return reply
	}
	i, ok := -1, false
	if b != nil {
		i, ok = b.byName[call.Name]
	}
	if !ok {
		return fail(fmt.Sprintf("error: there is no tool named %q", call.Name))
	}
	if vs := b.defs.CheckCall(call); len(vs) > 0 {
		msgs := make([]string, len(vs))
		for k, v := range vs {
			msgs[k] = v.String()
		}
		return fail("error: the arguments do not fit the tool's schema: " + strings.Join(msgs, "; "))
	}
	args := json.RawMessage("{}") // a call with no arguments
	if call.Args.Kind() != agentcheck.NullKind {
		raw, err := call.Args.MarshalJSON()
		if err != nil {
			return fail("error: " + err.Error())
		}
		args = raw
	}
	out, err := b.tools[i].Func(ctx, args)
	if err != nil {
		return fail("error: " + err.Error())
	}
	reply.Content = out
	return reply
}
