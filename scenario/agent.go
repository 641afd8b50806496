package scenario

import (
	"context"
	"encoding/json"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/judgment"
)

// Agent is the agent under test. Respond is given the conversation so far
// (the user's turns and everything the agent said and did before) and
// returns what the agent adds to it in this turn: its tool calls, the tool
// results, its answer, in order.
type Agent interface {
	Respond(ctx context.Context, conv agentcheck.Conversation) (Reply, error)
}

// AgentFunc lets a plain function be an Agent.
type AgentFunc func(ctx context.Context, conv agentcheck.Conversation) (Reply, error)

// Respond calls f.
func (f AgentFunc) Respond(ctx context.Context, conv agentcheck.Conversation) (Reply, error) {
	return f(ctx, conv)
}

// Reply is one turn of the agent: the messages it adds to the conversation
// (AI messages with text or tool calls, Tool messages with results) and the
// tokens its model used for them, as the responses' usage reported.
type Reply struct {
	Messages []agentcheck.Message
	Usage    judgment.Usage
}

// Tool is a mocked tool the agent may call: its name, what it does, the JSON
// Schema of its parameters (an object schema), and the Go function that
// answers a call in place of the real tool. The agent wrappers (adapters
// goopenai and openaigo) declare Tools to the model and run each call the
// model makes through Call.
type Tool struct {
	Name        string
	Description string
	Parameters  json.RawMessage
	// Func answers a call whose arguments fit Parameters; an error is
	// returned to the model as the tool's error.
	Func func(ctx context.Context, args json.RawMessage) (string, error)
}
