package langchaingo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"
	"github.com/tmc/langchaingo/tools"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/langchaingo"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// reply is a canned Chat Completions answer: the whole response, and the
// chunks of the same answer streamed.
type reply struct {
	full   string
	chunks []string
}

// The weather run's answers: two calls (arguments 2.0 and 2, which must
// keep their number kinds), then an answer with reasoning.
var weatherReplies = []reply{
	{
		full: `{"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o", "choices": [{"index": 0, "finish_reason": "tool_calls",
			"message": {"role": "assistant", "content": null, "tool_calls": [
				{"id": "call_paris", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\", \"days\": 2.0}"}},
				{"id": "call_rome", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Rome\", \"days\": 2}"}}]}}],
			"usage": {"prompt_tokens": 50, "completion_tokens": 40, "total_tokens": 90}}`,
		chunks: []string{
			`{"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"role": "assistant", "content": null, "tool_calls": [{"index": 0, "id": "call_paris", "type": "function", "function": {"name": "get_weather", "arguments": ""}}]}}]}`,
			`{"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "{\"city\": \"Pa"}}]}}]}`,
			`{"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "ris\", \"days\": 2."}}]}}]}`,
			`{"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "0}"}}]}}]}`,
			`{"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 1, "id": "call_rome", "type": "function", "function": {"name": "get_weather", "arguments": ""}}]}}]}`,
			`{"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 1, "function": {"arguments": "{\"city\": \"Rome\", \"days\": 2}"}}]}}]}`,
			`{"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}`,
		},
	},
	{
		full: `{"id": "chatcmpl-2", "object": "chat.completion", "created": 2, "model": "gpt-4o", "choices": [{"index": 0, "finish_reason": "stop",
			"message": {"role": "assistant", "content": "Paris 14°C, Rome 18°C.", "reasoning_content": "Both answered."}}]}`,
		chunks: []string{
			`{"id": "chatcmpl-2", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"role": "assistant", "reasoning_content": "Both answered."}}]}`,
			`{"id": "chatcmpl-2", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": "Paris 14°C, "}}]}`,
			`{"id": "chatcmpl-2", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": "Rome 18°C."}}]}`,
			`{"id": "chatcmpl-2", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}`,
		},
	},
}

// server is a Chat Completions endpoint on loopback that gives the replies
// in turn, streamed when the request asks for a stream.
func server(t *testing.T, replies []reply) *httptest.Server {
	t.Helper()
	var mu sync.Mutex
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Stream bool `json:"stream"`
		}
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &req); err != nil || r.URL.Path != "/chat/completions" {
			http.Error(w, fmt.Sprintf("bad request to %s: %v", r.URL.Path, err), http.StatusBadRequest)
			return
		}
		mu.Lock()
		if n >= len(replies) {
			mu.Unlock()
			http.Error(w, "no reply left", http.StatusInternalServerError)
			return
		}
		rep := replies[n]
		n++
		mu.Unlock()
		if !req.Stream {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, rep.full)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, c := range rep.chunks {
			fmt.Fprintf(w, "data: %s\n\n", c)
		}
		io.WriteString(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}

func newLLM(t *testing.T, replies []reply) *openai.LLM {
	t.Helper()
	llm, err := openai.New(openai.WithBaseURL(server(t, replies).URL), openai.WithToken("test"), openai.WithModel("gpt-4o"))
	if err != nil {
		t.Fatal(err)
	}
	return llm
}

var weatherTool = llms.Tool{Type: "function", Function: &llms.FunctionDefinition{
	Name: "get_weather", Description: "Weather forecast of a city",
	Parameters: map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}, "days": map[string]any{"type": "number"}}},
}}

func weather(args string) string {
	var in struct{ City string }
	if err := json.Unmarshal([]byte(args), &in); err != nil {
		return err.Error()
	}
	return map[string]string{"Paris": "14 degrees", "Rome": "18 degrees"}[in.City]
}

// toolLoop is the tool-calling loop of langchaingo's examples: send the
// history, append the answer's text and calls as an ai message, run the
// calls, append their results as tool messages, until the model answers
// without calls. It returns the last history sent and its response.
func toolLoop(t *testing.T, stream bool) langchaingo.Reply {
	t.Helper()
	ctx := context.Background()
	llm := newLLM(t, weatherReplies)
	opts := []llms.CallOption{llms.WithTools([]llms.Tool{weatherTool})}
	var streamed strings.Builder
	if stream {
		opts = append(opts, llms.WithStreamingFunc(func(_ context.Context, chunk []byte) error {
			streamed.Write(chunk)
			return nil
		}))
	}
	history := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, "Be brief."),
		llms.TextParts(llms.ChatMessageTypeHuman, "Weather in Paris and Rome?"),
	}
	for {
		resp, err := llm.GenerateContent(ctx, history, opts...)
		if err != nil {
			t.Fatal(err)
		}
		choice := resp.Choices[0]
		if len(choice.ToolCalls) == 0 {
			if stream && streamed.Len() == 0 {
				t.Fatal("nothing was streamed")
			}
			if choice.ReasoningContent == "" {
				t.Fatal("the answer lost its reasoning: the test would not show that it is skipped")
			}
			return langchaingo.Reply{History: history, Response: resp}
		}
		answer := llms.TextParts(llms.ChatMessageTypeAI, choice.Content)
		for _, tc := range choice.ToolCalls {
			answer.Parts = append(answer.Parts, tc)
		}
		history = append(history, answer)
		for _, tc := range choice.ToolCalls {
			history = append(history, llms.MessageContent{
				Role: llms.ChatMessageTypeTool,
				Parts: []llms.ContentPart{llms.ToolCallResponse{
					ToolCallID: tc.ID, Name: tc.FunctionCall.Name, Content: weather(tc.FunctionCall.Arguments),
				}},
			})
		}
	}
}

// weatherConversation is the weather run written by hand.
func weatherConversation() agentcheck.Conversation {
	return agentcheck.Conversation{
		{Role: agentcheck.System, Content: "Be brief."},
		{Role: agentcheck.Human, Content: "Weather in Paris and Rome?"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{
			{ID: "call_paris", Name: "get_weather", Args: jsonvalue.MustParse(`{"city": "Paris", "days": 2.0}`)},
			{ID: "call_rome", Name: "get_weather", Args: jsonvalue.MustParse(`{"city": "Rome", "days": 2}`)},
		}},
		{Role: agentcheck.Tool, Content: "14 degrees", ToolCallID: "call_paris"},
		{Role: agentcheck.Tool, Content: "18 degrees", ToolCallID: "call_rome"},
		{Role: agentcheck.AI, Content: "Paris 14°C, Rome 18°C."},
	}
}

func TestToolLoop(t *testing.T) {
	for _, stream := range []bool{false, true} {
		r := toolLoop(t, stream)
		got, err := r.Conversation()
		if err != nil {
			t.Fatalf("stream=%v: %v", stream, err)
		}
		if diff := cmp.Diff(weatherConversation(), got, sameValue); diff != "" {
			t.Errorf("stream=%v: conversation (-want +got):\n%s", stream, diff)
		}
		// The history alone is the conversation without the answer.
		got, err = langchaingo.Messages(r.History).Conversation()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(weatherConversation()[:5], got, sameValue); diff != "" {
			t.Errorf("stream=%v: history (-want +got):\n%s", stream, diff)
		}
	}
}

// recorder is an llms.Model that keeps what it was last sent and answered.
type recorder struct {
	llms.Model
	mu   sync.Mutex
	last langchaingo.Reply
}

func (r *recorder) GenerateContent(ctx context.Context, msgs []llms.MessageContent, opts ...llms.CallOption) (*llms.ContentResponse, error) {
	resp, err := r.Model.GenerateContent(ctx, msgs, opts...)
	r.mu.Lock()
	r.last = langchaingo.Reply{History: msgs, Response: resp}
	r.mu.Unlock()
	return resp, err
}

type weatherFunc struct{}

func (weatherFunc) Name() string        { return "get_weather" }
func (weatherFunc) Description() string { return "Weather forecast of a city" }
func (weatherFunc) Call(_ context.Context, input string) (string, error) {
	return weather(input), nil
}

// langchaingo's OpenAI functions agent, run by its executor, builds its
// history itself: its system prompt, the input, and a scratchpad with an
// ai message and a tool message for each call.
func TestFunctionsAgent(t *testing.T) {
	llm := &recorder{Model: newLLM(t, weatherReplies)}
	agent := agents.NewOpenAIFunctionsAgent(llm, []tools.Tool{weatherFunc{}})
	out, err := chains.Run(context.Background(), agents.NewExecutor(agent), "Weather in Paris and Rome?")
	if err != nil {
		t.Fatal(err)
	}
	if out != "Paris 14°C, Rome 18°C." {
		t.Fatalf("the agent answered %q", out)
	}
	got, err := llm.last.Conversation()
	if err != nil {
		t.Fatal(err)
	}
	call := func(id, args string) []agentcheck.ToolCall {
		return []agentcheck.ToolCall{{ID: id, Name: "get_weather", Args: jsonvalue.MustParse(args)}}
	}
	want := agentcheck.Conversation{
		{Role: agentcheck.System, Content: "You are a helpful AI assistant."},
		{Role: agentcheck.Human, Content: "Weather in Paris and Rome?"},
		{Role: agentcheck.AI, ToolCalls: call("call_paris", `{"city": "Paris", "days": 2.0}`)},
		{Role: agentcheck.Tool, Content: "14 degrees", ToolCallID: "call_paris"},
		{Role: agentcheck.AI, ToolCalls: call("call_rome", `{"city": "Rome", "days": 2}`)},
		{Role: agentcheck.Tool, Content: "18 degrees", ToolCallID: "call_rome"},
		{Role: agentcheck.AI, Content: "Paris 14°C, Rome 18°C."},
	}
	if diff := cmp.Diff(want, got, sameValue); diff != "" {
		t.Errorf("conversation (-want +got):\n%s", diff)
	}
}

// Parts as langchaingo holds them: cached, skipped, empty; generic and
// legacy function messages; several results in one tool message; a
// response with a legacy function call only.
func TestParts(t *testing.T) {
	cache := &llms.CacheControl{Type: "ephemeral"}
	history := langchaingo.Messages{
		{Role: llms.ChatMessageTypeSystem, Parts: []llms.ContentPart{llms.WithCacheControl(llms.TextPart("Describe images."), cache)}},
		{Role: llms.ChatMessageTypeGeneric, Parts: []llms.ContentPart{
			llms.TextPart("what is"), llms.ImageURLPart("https://example.com/cat.jpg"), llms.TextPart(""),
			llms.BinaryPart("image/png", []byte{0x89, 'P', 'N', 'G'}), llms.WithCacheControl(llms.TextPart("this?"), cache),
		}},
		{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
			llms.TextPart("Looking."),
			llms.ToolCall{ID: "c1", Type: "function", FunctionCall: &llms.FunctionCall{Name: "describe", Arguments: `{"url": "https://example.com/cat.jpg", "detail": 1.0}`}},
			llms.TextPart("And zooming."),
			llms.ToolCall{ID: "c2", Type: "function", FunctionCall: &llms.FunctionCall{Name: "zoom"}},
		}},
		{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
			llms.ToolCallResponse{Name: "zoom", Content: "zoomed"}, // paired by name: c2
			llms.ToolCallResponse{ToolCallID: "c1", Content: `{"animal":"cat"}`},
		}},
		{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{llms.TextPart("Again, the old way.")}},
		{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.ToolCall{FunctionCall: &llms.FunctionCall{Name: "describe", Arguments: "{}"}}}},
		{Role: llms.ChatMessageTypeFunction, Parts: []llms.ContentPart{llms.ToolCallResponse{Name: "describe", Content: "a cat"}}},
	}
	resp := &llms.ContentResponse{Choices: []*llms.ContentChoice{
		{Content: "Calling.", ReasoningContent: "hidden", FuncCall: &llms.FunctionCall{Name: "zoom", Arguments: `{"x": 2}`}},
		{Content: "another choice, not read"},
	}}
	got, err := langchaingo.Reply{History: history, Response: resp}.Conversation()
	if err != nil {
		t.Fatal(err)
	}
	want := agentcheck.Conversation{
		{Role: agentcheck.System, Content: "Describe images."},
		{Role: agentcheck.Human, Content: "what is\nthis?"},
		{Role: agentcheck.AI, Content: "Looking.\nAnd zooming.", ToolCalls: []agentcheck.ToolCall{
			{ID: "c1", Name: "describe", Args: jsonvalue.MustParse(`{"url": "https://example.com/cat.jpg", "detail": 1.0}`)},
			{ID: "c2", Name: "zoom", Args: jsonvalue.Object()},
		}},
		{Role: agentcheck.Tool, Content: "zoomed", ToolCallID: "c2"},
		{Role: agentcheck.Tool, Content: `{"animal":"cat"}`, ToolCallID: "c1"},
		{Role: agentcheck.Human, Content: "Again, the old way."},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{{Name: "describe", Args: jsonvalue.Object()}}},
		{Role: agentcheck.Tool, Content: "a cat"},
		{Role: agentcheck.AI, Content: "Calling.", ToolCalls: []agentcheck.ToolCall{{Name: "zoom", Args: jsonvalue.MustParse(`{"x": 2}`)}}},
	}
	if diff := cmp.Diff(want, got, sameValue); diff != "" {
		t.Errorf("conversation (-want +got):\n%s", diff)
	}
	if err := got.Validate(); err != nil {
		t.Error(err)
	}
	// A response alone is its AI message.
	got, err = langchaingo.Reply{Response: resp}.Conversation()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want[len(want)-1:], got, sameValue); diff != "" {
		t.Errorf("response alone (-want +got):\n%s", diff)
	}
}

// sameValue compares Values as identical: the same JSON text, key order
// and number kinds included (Equal would take 1 and 1.0 for the same).
var sameValue = cmp.Comparer(func(a, b jsonvalue.Value) bool { return a.Kind() == b.Kind() && a.String() == b.String() })
