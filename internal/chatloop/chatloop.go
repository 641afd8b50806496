// Package chatloop is the turn of a chat agent under test that the SDK
// wrappers of adapters/goopenai and adapters/openaigo share: send the
// conversation, ask the model, run each tool call it makes through the
// scenario's Toolbox and send the results back, until it answers in text,
// within a bound on requests. Each wrapper gives the SDK's side, a Model.
package chatloop

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/chatwire"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/scenario"
)

// DefaultMaxRequests bounds the model requests of one turn.
const DefaultMaxRequests = 10

// Model is an SDK's side of the loop, M its message type.
type Model[M any] interface {
	// Decode reads a JSON list of Chat Completions messages
	// (chatwire.Messages) as the SDK's messages, one for each.
	Decode(messages []byte) ([]M, error)
	// Ask sends history to the model and returns its message as the SDK
	// received it (to send back), as the SDK's adapter reads it, and the
	// response's usage.
	Ask(ctx context.Context, history []M) (M, agentcheck.Message, judgment.Usage, error)
}

// Loop is an agent's settings; Name starts its errors ("goopenai agent").
// It remembers the SDK messages of the conversation of its last turn, so
// that the next turn, whose conversation starts with it, decodes only what
// is new. It is safe for concurrent use.
type Loop[M any] struct {
	Name        string
	System      string
	Tools       *scenario.Toolbox
	MaxRequests int // below 1: DefaultMaxRequests

	mu   sync.Mutex
	conv agentcheck.Conversation // the system prompt and conversation of the last turn
	msgs []M                     // the same as the SDK's messages
}

// Turn runs one turn of the agent on conv. The Reply holds the model's
// messages and the tool results, in order, and the usage summed; with an
// error, what the turn did before it.
func (l *Loop[M]) Turn(ctx context.Context, conv agentcheck.Conversation, m Model[M]) (scenario.Reply, error) {
	var reply scenario.Reply
	if l.System != "" {
		conv = append(agentcheck.Conversation{{Role: agentcheck.System, Content: l.System}}, conv...)
	}
	history, err := l.start(conv, m)
	if err != nil {
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
		sent, msg, usage, err := m.Ask(ctx, history)
		reply.Usage = reply.Usage.Add(usage)
		if err != nil {
			return reply, fmt.Errorf("%s: model request %d of the turn: %w", l.Name, n, err)
		}
		reply.Messages = append(reply.Messages, msg)
		if len(msg.ToolCalls) == 0 {
			return reply, nil
		}
		history = append(history, sent)
		results := make(agentcheck.Conversation, 0, len(msg.ToolCalls))
		for _, call := range msg.ToolCalls {
			results = append(results, l.Tools.Call(ctx, call))
		}
		reply.Messages = append(reply.Messages, results...)
		decoded, err := decode(m, results)
		if err != nil {
			return reply, fmt.Errorf("%s: model request %d of the turn: the tool results: %w", l.Name, n, err)
		}
		history = append(history, decoded...)
	}
}

// start is conv as the SDK's messages: the remembered ones for the part
// of conv that the last turn had, the rest decoded.
func (l *Loop[M]) start(conv agentcheck.Conversation, m Model[M]) ([]M, error) {
	l.mu.Lock()
	known := len(l.conv)
	if known > len(conv) || !reflect.DeepEqual(l.conv, conv[:known]) {
		known = 0
	}
	history := make([]M, known, len(conv)+8)
	copy(history, l.msgs)
	l.mu.Unlock()

	rest, err := decode(m, conv[known:])
	if err != nil {
		// Name the message by its index in the conversation the agent was
		// given.
		var me *agentcheck.MessageError
		if errors.As(err, &me) {
			located := *me
			located.Message += known
			if l.System != "" {
				located.Message--
			}
			return nil, &located
		}
		return nil, err
	}
	history = append(history, rest...)
	l.mu.Lock()
	l.conv, l.msgs = slices.Clone(conv), history[:len(conv):len(conv)]
	l.mu.Unlock()
	return history, nil
}

// decode is conv as the SDK's messages, through the Chat Completions JSON.
func decode[M any](m Model[M], conv agentcheck.Conversation) ([]M, error) {
	if len(conv) == 0 {
		return nil, nil
	}
	data, err := chatwire.Messages(conv)
	if err != nil {
		return nil, err
	}
	msgs, err := m.Decode(data)
	if err == nil && len(msgs) != len(conv) {
		err = fmt.Errorf("%d messages read as %d", len(conv), len(msgs))
	}
	return msgs, err
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
