package goopenai

import (
	"context"
	"encoding/json"
	"errors"
	"math"

	openai "github.com/sashabaranov/go-openai"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/chatloop"
	"github.com/agentcheck/agentcheck/judgment"
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

// WithTemperature sends the temperature. go-openai leaves a zero
// temperature out of the request, so 0 is sent as the smallest float32
// above it (1e-45), which the API takes as 0.
func WithTemperature(t float32) AgentOption {
	return func(a *chatAgent) {
		if t == 0 {
			t = math.SmallestNonzeroFloat32
		}
		a.temperature = t
	}
}

// WithSeed sends the seed.
func WithSeed(seed int) AgentOption {
	return func(a *chatAgent) { a.seed = &seed }
}

// WithMaxRequests bounds the model requests of one turn (below 1:
// DefaultMaxRequests): a model that still calls tools in the last of them
// ends the turn with an error that names the bound.
func WithMaxRequests(n int) AgentOption {
	return func(a *chatAgent) { a.loop.MaxRequests = n }
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
	a := &chatAgent{client: client, model: model}
	a.loop.Name = "goopenai agent"
	for _, o := range opts {
		o(a)
	}
	for _, t := range a.loop.Tools.Tools() {
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
	client      *openai.Client
	model       string
	loop        chatloop.Loop[openai.ChatCompletionMessage]
	tools       []openai.Tool
	temperature float32
	seed        *int
}

func (a *chatAgent) Respond(ctx context.Context, conv agentcheck.Conversation) (scenario.Reply, error) {
	switch {
	case a.client == nil:
		return scenario.Reply{}, errors.New("goopenai agent: no client")
	case a.model == "":
		return scenario.Reply{}, errors.New("goopenai agent: no model")
	}
	return a.loop.Turn(ctx, conv, a)
}

// Decode reads Chat Completions messages as go-openai's.
func (a *chatAgent) Decode(messages []byte) ([]openai.ChatCompletionMessage, error) {
	var msgs []openai.ChatCompletionMessage
	err := json.Unmarshal(messages, &msgs)
	return msgs, err
}

// Ask makes one model request.
func (a *chatAgent) Ask(ctx context.Context, history []openai.ChatCompletionMessage) (openai.ChatCompletionMessage, agentcheck.Message, judgment.Usage, error) {
	var m openai.ChatCompletionMessage
	resp, err := a.client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{
		Model: a.model, Messages: history, Tools: a.tools, Temperature: a.temperature, Seed: a.seed})
	if err != nil {
		return m, agentcheck.Message{}, judgment.Usage{}, err
	}
	usage := judgment.Usage{PromptTokens: resp.Usage.PromptTokens, CompletionTokens: resp.Usage.CompletionTokens}
	if len(resp.Choices) == 0 {
		return m, agentcheck.Message{}, usage, errors.New("the response has no choices")
	}
	m = resp.Choices[0].Message
	msg, err := chatloop.One(Messages{m}.Conversation())
	return m, msg, usage, err
}
