package openaigo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/chatwire"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/agentcheck/agentcheck/scenario"
)

// DefaultMaxRequests bounds the model requests of one turn of an Agent.
const DefaultMaxRequests = 10

// AgentOption configures Agent.
type AgentOption func(*agentConfig)

type agentConfig struct {
	system      string
	tools       *scenario.Toolbox
	temperature *float64
	seed        *int64
	maxRequests int
	requestOpts []option.RequestOption
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

// WithTemperature sends the temperature, 0 included.
func WithTemperature(t float64) AgentOption {
	return func(c *agentConfig) { c.temperature = &t }
}

// WithSeed sends the seed.
func WithSeed(seed int64) AgentOption {
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

// WithRequestOptions adds openai-go options to each of the agent's model
// requests, after the client's own: option.WithMaxRetries(0), say, or a
// header.
func WithRequestOptions(opts ...option.RequestOption) AgentOption {
	return func(c *agentConfig) { c.requestOpts = append(c.requestOpts, opts...) }
}

// Agent is a scenario.Agent that runs an openai-go Chat Completions loop,
// as an agent built on openai-go does: each turn it sends model the system
// prompt and the conversation so far, with the tools declared; it runs
// every tool call the model makes through the Toolbox and sends the results
// back, until the model answers in text. The turn's Reply holds the model's
// messages and the tool results, in order, and the usage the responses
// reported, summed. Requests go through client, and so through the
// http.Client it was made with: give it
// option.WithHTTPClient(recorder.ForTest(t).Client()) to record and replay
// the agent's model.
//
// The conversation is sent as Chat Completions messages (Human, AI, Tool
// and System as user, assistant, tool and system, calls and results with
// their IDs), and the model's replies are read as Chat reads them.
// openai-go retries failed requests (twice by default), above the
// recorder; a request the cassette lacks is not retried: it ends the turn
// at once with the recorder's *recorder.ReplayMissError. An error (a
// request that fails, a conversation the API cannot carry, the bound on
// requests) ends the turn; the Reply returned with it holds what the turn
// did before.
func Agent(client *openai.Client, model string, opts ...AgentOption) scenario.Agent {
	a := &chatAgent{client: client, model: model, config: agentConfig{maxRequests: DefaultMaxRequests}}
	for _, o := range opts {
		o(&a.config)
	}
	for _, t := range a.config.tools.Tools() {
		def := shared.FunctionDefinitionParam{Name: t.Name}
		if t.Description != "" {
			def.Description = openai.String(t.Description)
		}
		if len(t.Parameters) > 0 {
			// A schema that is not a JSON object is refused by NewToolbox.
			if err := json.Unmarshal(t.Parameters, &def.Parameters); err != nil {
				a.err = fmt.Errorf("openaigo agent: the parameters of tool %q: %w", t.Name, err)
			}
		} else {
			def.Parameters = shared.FunctionParameters{"type": "object", "properties": map[string]any{}}
		}
		a.tools = append(a.tools, openai.ChatCompletionFunctionTool(def))
	}
	return a
}

type chatAgent struct {
	client *openai.Client
	model  string
	config agentConfig
	tools  []openai.ChatCompletionToolUnionParam
	err    error
}

func (a *chatAgent) Respond(ctx context.Context, conv agentcheck.Conversation) (scenario.Reply, error) {
	var reply scenario.Reply
	switch {
	case a.client == nil:
		return reply, errors.New("openaigo agent: no client")
	case a.model == "":
		return reply, errors.New("openaigo agent: no model")
	case a.err != nil:
		return reply, a.err
	}
	if a.config.system != "" {
		conv = append(agentcheck.Conversation{{Role: agentcheck.System, Content: a.config.system}}, conv...)
	}
	msgs, err := sdkMessages(nil, conv)
	if err != nil {
		return reply, fmt.Errorf("openaigo agent: the conversation: %w", err)
	}
	for n := 1; ; n++ {
		if n > a.config.maxRequests {
			return reply, fmt.Errorf("openaigo agent: the model called tools in each of its %d requests of this turn and never answered in text; WithMaxRequests(%[1]d) bounds a turn", a.config.maxRequests)
		}
		params := openai.ChatCompletionNewParams{Model: shared.ChatModel(a.model), Messages: msgs, Tools: a.tools}
		if a.config.temperature != nil {
			params.Temperature = openai.Float(*a.config.temperature)
		}
		if a.config.seed != nil {
			params.Seed = openai.Int(*a.config.seed)
		}
		resp, err := a.complete(ctx, params)
		if err != nil {
			return reply, fmt.Errorf("openaigo agent: model request %d of the turn: %w", n, err)
		}
		reply.Usage = reply.Usage.Add(metric.Usage{PromptTokens: int(resp.Usage.PromptTokens), CompletionTokens: int(resp.Usage.CompletionTokens)})
		if len(resp.Choices) == 0 {
			return reply, fmt.Errorf("openaigo agent: model request %d of the turn: the response has no choices", n)
		}
		m := resp.Choices[0].Message
		got, err := Chat{Received: []openai.ChatCompletionMessage{m}}.Conversation()
		if err != nil {
			return reply, fmt.Errorf("openaigo agent: model request %d of the turn: the model's message: %w", n, err)
		}
		reply.Messages = append(reply.Messages, got...)
		if len(m.ToolCalls) == 0 {
			return reply, nil
		}
		msgs = append(msgs, m.ToParam())
		results := make(agentcheck.Conversation, 0, len(got[0].ToolCalls))
		for _, call := range got[0].ToolCalls {
			results = append(results, a.config.tools.Call(ctx, call))
		}
		reply.Messages = append(reply.Messages, results...)
		if msgs, err = sdkMessages(msgs, results); err != nil {
			return reply, fmt.Errorf("openaigo agent: model request %d of the turn: the tool results: %w", n, err)
		}
	}
}

// complete makes one request. openai-go retries a transport error, which
// a replay miss is, with backoff; a middleware, which runs in each attempt,
// ends the request's context on a miss instead, so that the client stops at
// once, and the miss is the error.
func (a *chatAgent) complete(ctx context.Context, params openai.ChatCompletionNewParams) (*openai.ChatCompletion, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	noRetryOnMiss := option.WithMiddleware(func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		res, err := next(req)
		var miss *recorder.ReplayMissError
		if errors.As(err, &miss) {
			cancel(err)
		}
		return res, err
	})
	opts := append(append([]option.RequestOption{}, a.config.requestOpts...), noRetryOnMiss)
	resp, err := a.client.Chat.Completions.New(ctx, params, opts...)
	if err != nil {
		var miss *recorder.ReplayMissError
		if cause := context.Cause(ctx); errors.As(cause, &miss) {
			return nil, cause
		}
		return nil, err
	}
	return resp, nil
}

// sdkMessages appends conv to dst as openai-go message params, through the
// Chat Completions JSON that both read.
func sdkMessages(dst []openai.ChatCompletionMessageParamUnion, conv agentcheck.Conversation) ([]openai.ChatCompletionMessageParamUnion, error) {
	data, err := chatwire.Messages(conv)
	if err != nil {
		return dst, err
	}
	var msgs []openai.ChatCompletionMessageParamUnion
	if err := json.Unmarshal(data, &msgs); err != nil {
		return dst, err
	}
	return append(dst, msgs...), nil
}
