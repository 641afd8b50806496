package scenario

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/agentcheck/agentcheck/recorder"
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
//
// Within a scenario's run, a call also counts against Budget.ToolCalls (past
// it, the turn's context ends and the run fails naming the budget), and a
// Func that panics or whose error is a replay miss of the cassette
// (recorder.ReplayMissError, from a tool's own HTTP) ends the run with an
// error naming the turn and the role "tool", rather than being shown to the
// model.
func (b *Toolbox) Call(ctx context.Context, call agentcheck.ToolCall) agentcheck.Message {
	reply := agentcheck.Message{Role: agentcheck.Tool, ToolCallID: call.ID}
	fail := func(msg string) agentcheck.Message {
		reply.Content, reply.IsError = msg, true
		return reply
	}
	sink := toolSinkOf(ctx)
	if err := sink.take(call.Name); err != nil {
		return fail("error: " + err.Error())
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
			// The model sees one call: its index in a list means nothing to it.
			where := v.Pointer
			if where == "" {
				where = "arguments"
			}
			msgs[k] = where + ": " + v.Message
		}
		return fail("error: the arguments do not fit the tool's schema: " + strings.Join(msgs, "; "))
	}
	args := json.RawMessage("{}") // a call with no arguments
	if call.Args.Kind() != jsonvalue.NullKind {
		raw, err := call.Args.MarshalJSON()
		if err != nil {
			return fail("error: " + err.Error())
		}
		args = raw
	}
	out, err, panicked := callTool(ctx, b.tools[i].Func, args)
	if err != nil {
		msg := err.Error()
		var miss *recorder.ReplayMissError
		if panicked || errors.As(err, &miss) {
			// The run ends with the whole error; the transcript keeps its
			// first line, not a panic's stack or the miss's diff.
			sink.fail(call, err)
			msg, _, _ = strings.Cut(msg, "\n")
		}
		return fail("error: " + msg)
	}
	reply.Content = out
	return reply
}

// callTool calls f, turning a panic into an error.
func callTool(ctx context.Context, f func(context.Context, json.RawMessage) (string, error), args json.RawMessage) (out string, err error, panicked bool) {
	defer func() {
		if p := recover(); p != nil {
			out, err, panicked = "", fmt.Errorf("the tool panicked: %v\n%s", p, debug.Stack()), true
		}
	}()
	out, err = f(ctx, args)
	return out, err, false
}

// toolSink is what a run's turn lends the Toolbox through the context:
// the tool calls the budget has left, and where a call that must end the
// run (a tool that panicked, a replay miss in a tool's own HTTP) is kept.
type toolSink struct {
	turn   int
	cancel context.CancelCauseFunc

	mu     sync.Mutex
	budget int // Budget.ToolCalls, 0 for none
	left   int
	fatal  error
}

type toolSinkKey struct{}

func withToolSink(ctx context.Context, s *toolSink) context.Context {
	return context.WithValue(ctx, toolSinkKey{}, s)
}

func toolSinkOf(ctx context.Context) *toolSink {
	s, _ := ctx.Value(toolSinkKey{}).(*toolSink)
	return s
}

// take counts a call against the budget; over it, it ends the turn.
func (s *toolSink) take(name string) error {
	if s == nil || s.budget == 0 {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.left--
	if s.left >= 0 {
		return nil
	}
	err := &budgetError{fmt.Sprintf("the agent called %s past Budget.ToolCalls (%d)", name, s.budget)}
	s.cancel(err)
	return err
}

// fail keeps the first error that ends the run and ends the turn.
func (s *toolSink) fail(call agentcheck.ToolCall, err error) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fatal == nil {
		s.fatal = &RunError{Turn: s.turn, Role: "tool", Err: fmt.Errorf("%s: %w", call, err)}
		s.cancel(s.fatal)
	}
}

// failure is the error a tool ended the run with, if any.
func (s *toolSink) failure() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fatal
}
