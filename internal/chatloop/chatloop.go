// Package chatloop is the turn of a chat agent under test that the SDK
// wrappers of adapters/goopenai and adapters/openaigo share: send the
// conversation, ask the model, run each tool call it makes through the
// scenario's Toolbox and send the results back, until it answers in text,
// within a bound on requests. Each wrapper gives the SDK's side, a History.
package chatloop

import (
	"context"
	"fmt"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/chatwire"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/scenario"
)

// DefaultMaxRequests bounds the model requests of one turn.
const DefaultMaxRequests = 10

// History is one turn's messages in an SDK's own types, and its model.
type History interface {
	// Append adds messages to the history: a JSON list of Chat
	// Completions messages (chatwire.Messages), which the SDK decodes into
	// its own types.
	Append(messages []byte) error
	// Ask sends the history to the model, adds the model's message to it
	// as the SDK received it, and returns that message as the SDK's adapter
	// reads it, and the response's usage.
	Ask(ctx context.Context) (agentcheck.Message, metric.Usage, error)
}

// Loop is an agent's settings; Name starts its errors ("goopenai agent").
type Loop struct {
	Name        string
	System      string
	Tools       *scenario.Toolbox
	MaxRequests int // below 1: DefaultMaxRequests
}

// Turn runs one turn of the agent on conv with h, a fresh History. The
// Reply holds the model's messages and the tool results, in order, and the
// usage summed; with an error, what the turn did before it.
func (l Loop) Turn(ctx context.Context, conv agentcheck.Conversation, h History) (scenario.Reply, error) {
	var reply scenario.Reply
	if l.System != "" {
		conv = append(agentcheck.Conversation{{Role: agentcheck.System, Content: l.System}}, conv...)
	}
	if err := appendTo(h, conv); err != nil {
		return reply, fmt.Errorf("%s: the conversation: %w", l.Name, err)
	}
	max := l.MaxRequests
	if max < 1 {
		max = DefaultMaxRequests
	}
	for n := 1; ; n++ {
		if n > max {
			return reply, fmt.Errorf("%s: the model called tools in each of its %d requests of this turn and never answered in text; WithMaxRequests(%[2]d) bounds a turn", l.Name, max)
		}
		msg, usage, err := h.Ask(ctx)
		reply.Usage = reply.Usage.Add(usage)
		if err != nil {
			return reply, fmt.Errorf("%s: model request %d of the turn: %w", l.Name, n, err)
		}
		reply.Messages = append(reply.Messages, msg)
		if len(msg.ToolCalls) == 0 {
			return reply, nil
		}
		results := make(agentcheck.Conversation, 0, len(msg.ToolCalls))
		for _, call := range msg.ToolCalls {
			results = append(results, l.Tools.Call(ctx, call))
		}
		reply.Messages = append(reply.Messages, results...)
		if err := appendTo(h, results); err != nil {
			return reply, fmt.Errorf("%s: model request %d of the turn: the tool results: %w", l.Name, n, err)
		}
	}
}

func appendTo(h History, conv agentcheck.Conversation) error {
	data, err := chatwire.Messages(conv)
	if err != nil {
		return err
	}
	return h.Append(data)
}

// One reads the single message an adapter read from the model's message.
func One(conv agentcheck.Conversation, err error) (agentcheck.Message, error) {
	if err != nil {
		return agentcheck.Message{}, fmt.Errorf("the model's message: %w", err)
	}
	if len(conv) != 1 {
		return agentcheck.Message{}, fmt.Errorf("the model's message reads as %d messages", len(conv))
	}
	return conv[0], nil
}
