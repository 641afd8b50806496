package openaigo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/chatloop"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/agentcheck/agentcheck/scenario"
)

// DefaultMaxRequests bounds the model requests of one turn of an Agent.
const DefaultMaxRequests = chatloop.DefaultMaxRequests

// AgentOption configures Agent.
type AgentOption func(*chatAgent)

// WithSystemPrompt sends prompt as the system message before the
// conversation.
func WithSystemPrompt(prompt string) AgentOption {
	return func(a *chatAgent) { a.loop.System = prompt }
}

// WithTools declares the box's tools to the model and answers its calls
// with them (Toolbox.Call).
func WithTools(tools *scenario.Toolbox) AgentOption {
	return func(a *chatAgent) { a.loop.Tools = tools }
}

// WithTemperature sends the temperature, 0 included.
func WithTemperature(t float64) AgentOption {
	return func(a *chatAgent) { a.temperature = openai.Float(t) }
}

// WithSeed sends the seed.
func WithSeed(seed int64) AgentOption {
	return func(a *chatAgent) { a.seed = openai.Int(seed) }
}

// WithMaxRequests bounds the model requests of one turn (below 1:
// DefaultMaxRequests): a model that still calls tools in the last of them
// ends the turn with an error that names the bound.
func WithMaxRequests(n int) AgentOption {
	return func(a *chatAgent) { a.loop.MaxRequests = n }
}

// WithRequestOptions adds openai-go options to each of the agent's model
// requests, after the client's own: option.WithMaxRetries(0), say, or a
// header.
func WithRequestOptions(opts ...option.RequestOption) AgentOption {
	return func(a *chatAgent) { a.requestOpts = append(a.requestOpts, opts...) }
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
	a := &chatAgent{client: client, model: model}
	a.loop.Name = "openaigo agent"
	for _, o := range opts {
		o(a)
	}
	for _, t := range a.loop.Tools.Tools() {
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
	client      *openai.Client
	model       string
	loop        chatloop.Loop[openai.ChatCompletionMessageParamUnion]
	tools       []openai.ChatCompletionToolUnionParam
	temperature param.Opt[float64]
	seed        param.Opt[int64]
	requestOpts []option.RequestOption
	err         error
}

func (a *chatAgent) Respond(ctx context.Context, conv agentcheck.Conversation) (scenario.Reply, error) {
	switch {
	case a.client == nil:
		return scenario.Reply{}, errors.New("openaigo agent: no client")
	case a.model == "":
		return scenario.Reply{}, errors.New("openaigo agent: no model")
	case a.err != nil:
		return scenario.Reply{}, a.err
	}
	return a.loop.Turn(ctx, conv, a)
}

// Decode reads Chat Completions messages as openai-go's params.
func (a *chatAgent) Decode(messages []byte) ([]openai.ChatCompletionMessageParamUnion, error) {
	var msgs []openai.ChatCompletionMessageParamUnion
	err := json.Unmarshal(messages, &msgs)
	return msgs, err
}

// Ask makes one model request.
func (a *chatAgent) Ask(ctx context.Context, history []openai.ChatCompletionMessageParamUnion) (openai.ChatCompletionMessageParamUnion, agentcheck.Message, judgment.Usage, error) {
	var sent openai.ChatCompletionMessageParamUnion
	resp, err := a.complete(ctx, openai.ChatCompletionNewParams{Model: shared.ChatModel(a.model), Messages: history,
		Tools: a.tools, Temperature: a.temperature, Seed: a.seed})
	if err != nil {
		return sent, agentcheck.Message{}, judgment.Usage{}, err
	}
	usage := judgment.Usage{PromptTokens: int(resp.Usage.PromptTokens), CompletionTokens: int(resp.Usage.CompletionTokens)}
	if len(resp.Choices) == 0 {
		return sent, agentcheck.Message{}, usage, errors.New("the response has no choices")
	}
	m := resp.Choices[0].Message
	msg, err := chatloop.One(Chat{Received: []openai.ChatCompletionMessage{m}}.Conversation())
	return m.ToParam(), msg, usage, err
}

// complete makes one request. The recorder's Client and Transport answer a
// replay miss with a final 404, which openai-go does not retry; the
// Recorder itself, given as the transport, returns the miss as an error,
// which openai-go retries with backoff. A middleware, which runs in each
// attempt, ends the request's context on such a miss, so that the client
// stops at once, and the miss is the error.
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
	opts := append(append([]option.RequestOption{}, a.requestOpts...), noRetryOnMiss)
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
