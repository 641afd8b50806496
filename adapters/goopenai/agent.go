package goopenai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	openai "github.com/sashabaranov/go-openai"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/chatwire"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/scenario"
)

// DefaultMaxRequests bounds the model requests of one turn of an Agent.
const DefaultMaxRequests = 10

// AgentOption configures Agent.
type AgentOption func(*agentConfig)

type agentConfig struct {
	system      string
	tools       *scenario.Toolbox
	temperature *float32
	seed        *int
	maxRequests int
}

// WithSystemPrompt sends prompt as the system message before the
// conversation.
func WithSystemPrompt(prompt string) AgentOption {
	return func(c *agentConfig) { c.system = prompt }
}

// WithTools declares the box's tools to the model and answers its calls
// with them (Toolbox.Call).
func WithTools(tools *scenario.Toolbox) AgentOption {
	return func(c *agentConfig) { c.tools = tools }
}

// WithTemperature sends the temperature. go-openai leaves a zero
// temperature out of the request, so 0 is sent as the smallest float32
// above it (1e-45), which the API takes as 0.
func WithTemperature(t float32) AgentOption {
	return func(c *agentConfig) {
		if t == 0 {
			t = math.SmallestNonzeroFloat32
		}
		c.temperature = &t
	}
}

// WithSeed sends the seed.
func WithSeed(seed int) AgentOption {
	return func(c *agentConfig) { c.seed = &seed }
}

// WithMaxRequests bounds the model requests of one turn (below 1:
// DefaultMaxRequests): a model that still calls tools in the last of them
// ends the turn with an error that names the bound.
func WithMaxRequests(n int) AgentOption {
	return func(c *agentConfig) {
		c.maxRequests = n
		if n < 1 {
			c.maxRequests = DefaultMaxRequests
		}
	}
}

// Agent is a scenario.Agent that runs a go-openai chat loop, as an agent
// built on go-openai does: each turn it sends model the system prompt and
// the conversation so far, with the tools declared; it runs every tool
// call the model makes through the Toolbox and sends the results back,
// until the model answers in text. The turn's Reply holds the model's
// messages and the tool results, in order, and the usage the responses
// reported, summed. Requests go through client, and so through the
// http.Client in its config: give it recorder.ForTest(t).Client() to
// record and replay the agent's model.
//
// The conversation is sent as Chat Completions messages (Human, AI, Tool
// and System as user, assistant, tool and system, calls and results with
// their IDs), and the model's replies are read as Messages reads them. An
// error (a request that fails, a conversation the API cannot carry, the
// bound on requests) ends the turn; the Reply returned with it holds what
// the turn did before.
func Agent(client *openai.Client, model string, opts ...AgentOption) scenario.Agent {
	a := &chatAgent{client: client, model: model, config: agentConfig{maxRequests: DefaultMaxRequests}}
	for _, o := range opts {
		o(&a.config)
	}
	for _, t := range a.config.tools.Tools() {
		params := t.Parameters
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		a.tools = append(a.tools, openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
			Name: t.Name, Description: t.Description, Parameters: params}})
	}
	return a
}

type chatAgent struct {
	client *openai.Client
	model  string
	config agentConfig
	tools  []openai.Tool
}

func (a *chatAgent) Respond(ctx context.Context, conv agentcheck.Conversation) (scenario.Reply, error) {
	var reply scenario.Reply
	switch {
	case a.client == nil:
		return reply, errors.New("goopenai agent: no client")
	case a.model == "":
		return reply, errors.New("goopenai agent: no model")
	}
	if a.config.system != "" {
		conv = append(agentcheck.Conversation{{Role: agentcheck.System, Content: a.config.system}}, conv...)
	}
	msgs, err := sdkMessages(nil, conv)
	if err != nil {
		return reply, fmt.Errorf("goopenai agent: the conversation: %w", err)
	}
	for n := 1; ; n++ {
		if n > a.config.maxRequests {
			return reply, fmt.Errorf("goopenai agent: the model called tools in each of its %d requests of this turn and never answered in text; WithMaxRequests(%[1]d) bounds a turn", a.config.maxRequests)
		}
		req := openai.ChatCompletionRequest{Model: a.model, Messages: msgs, Tools: a.tools, Seed: a.config.seed}
		if a.config.temperature != nil {
			req.Temperature = *a.config.temperature
		}
		resp, err := a.client.CreateChatCompletion(ctx, req)
		if err != nil {
			return reply, fmt.Errorf("goopenai agent: model request %d of the turn: %w", n, err)
		}
		reply.Usage = reply.Usage.Add(metric.Usage{PromptTokens: resp.Usage.PromptTokens, CompletionTokens: resp.Usage.CompletionTokens})
		if len(resp.Choices) == 0 {
			return reply, fmt.Errorf("goopenai agent: model request %d of the turn: the response has no choices", n)
		}
		m := resp.Choices[0].Message
		got, err := Messages{m}.Conversation()
		if err != nil {
			return reply, fmt.Errorf("goopenai agent: model request %d of the turn: the model's message: %w", n, err)
		}
		reply.Messages = append(reply.Messages, got...)
		if len(m.ToolCalls) == 0 {
			return reply, nil
		}
		msgs = append(msgs, m)
		results := make(agentcheck.Conversation, 0, len(got[0].ToolCalls))
		for _, call := range got[0].ToolCalls {
			results = append(results, a.config.tools.Call(ctx, call))
		}
		reply.Messages = append(reply.Messages, results...)
		if msgs, err = sdkMessages(msgs, results); err != nil {
			return reply, fmt.Errorf("goopenai agent: model request %d of the turn: the tool results: %w", n, err)
		}
	}
}

// sdkMessages appends conv to dst as go-openai messages, through the Chat
// Completions JSON that both read.
func sdkMessages(dst []openai.ChatCompletionMessage, conv agentcheck.Conversation) ([]openai.ChatCompletionMessage, error) {
	data, err := chatwire.Messages(conv)
	if err != nil {
		return dst, err
	}
	var msgs []openai.ChatCompletionMessage
	if err := json.Unmarshal(data, &msgs); err != nil {
		return dst, err
	}
	return append(dst, msgs...), nil
}
