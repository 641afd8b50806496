package openaigo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/openaigo"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// sameValue compares Values as identical: the same JSON text, key order
// and number kinds included (Equal would take 1 and 1.0 for the same).
var sameValue = cmp.Comparer(func(a, b jsonvalue.Value) bool { return a.Kind() == b.Kind() && a.String() == b.String() })

// decode unmarshals JSON as the SDK decodes what the API sends.
func decode[T any](t testing.TB, data string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(data), &v); err != nil {
		t.Fatalf("decoding %T: %v", v, err)
	}
	return v
}

// A reply with two tool calls, as a Chat Completions response's choice
// carries it.
const callsReply = `{"role": "assistant", "content": null, "refusal": null, "annotations": [], "tool_calls": [
	{"id": "call_paris", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\",\"days\":2.0}"}},
	{"id": "call_rome", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Rome\",\"days\":2}"}}]}`

func chatWant() agentcheck.Conversation {
	return agentcheck.Conversation{
		{Role: agentcheck.System, Content: "You report the weather."},
		{Role: agentcheck.Human, Content: "Paris and Rome?\nIn Celsius."},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{
			{ID: "call_paris", Name: "get_weather", Args: jsonvalue.MustParse(`{"city":"Paris","days":2.0}`)},
			{ID: "call_rome", Name: "get_weather", Args: jsonvalue.MustParse(`{"city":"Rome","days":2}`)},
		}},
		{Role: agentcheck.Tool, Content: "14 degrees", ToolCallID: "call_paris"},
		{Role: agentcheck.Tool, Content: "18 degrees", ToolCallID: "call_rome"},
		{Role: agentcheck.AI, Content: "Paris 14°C, Rome 18°C."},
	}
}

// chatSent is what the last request of a run sends: the first reply is in
// it as the agent loop adds it, with ToParam.
func chatSent(t testing.TB, reply openai.ChatCompletionMessage) []openai.ChatCompletionMessageParamUnion {
	return []openai.ChatCompletionMessageParamUnion{
		openai.SystemMessage("You report the weather."),
		openai.UserMessage([]openai.ChatCompletionContentPartUnionParam{
			openai.TextContentPart("Paris and Rome?"),
			openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: "https://example.com/map.png"}),
			openai.TextContentPart("In Celsius."),
		}),
		reply.ToParam(),
		openai.ToolMessage("14 degrees", "call_paris"),
		openai.ToolMessage([]openai.ChatCompletionContentPartTextParam{{Text: "18 degrees"}}, "call_rome"),
	}
}

func TestChat(t *testing.T) {
	completion := decode[openai.ChatCompletion](t, `{"id": "chatcmpl-B9MBs8", "object": "chat.completion", "created": 1741569952, "model": "gpt-4.1-2025-04-14",
		"choices": [{"index": 0, "message": `+callsReply+`, "logprobs": null, "finish_reason": "tool_calls"}],
		"usage": {"prompt_tokens": 82, "completion_tokens": 17, "total_tokens": 99}, "service_tier": "default"}`)
	last := decode[openai.ChatCompletionMessage](t, `{"role": "assistant", "content": "Paris 14°C, Rome 18°C.", "refusal": null, "annotations": []}`)
	chat := openaigo.Chat{Sent: chatSent(t, completion.Choices[0].Message), Received: []openai.ChatCompletionMessage{last}}
	got, err := chat.Conversation()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(chatWant(), got, sameValue); diff != "" {
		t.Errorf("conversation (-want +got):\n%s", diff)
	}
	if d, _ := got[2].ToolCalls[0].Args.Get("days"); d.String() != "2.0" {
		t.Errorf("days = %s, want 2.0 as sent", d)
	}
	// The reply as received, not yet sent back, converts the same.
	got, err = openaigo.Chat{Sent: chatSent(t, completion.Choices[0].Message)[:2], Received: []openai.ChatCompletionMessage{completion.Choices[0].Message}}.Conversation()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(chatWant()[:3], got, sameValue); diff != "" {
		t.Errorf("received reply (-want +got):\n%s", diff)
	}
	// Chat is a Transcript.
	var _ agentcheck.Transcript = chat
}

// The chunks of a streamed reply with two tool calls, as the API sends
// them: the first chunk of a call has its id and name, the arguments come
// in pieces.
var streamChunks = []string{
	`{"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1741569952, "model": "gpt-4.1", "choices": [{"index": 0, "delta": {"role": "assistant", "content": null, "refusal": null}, "logprobs": null, "finish_reason": null}]}`,
	`{"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1741569952, "model": "gpt-4.1", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_paris", "type": "function", "function": {"name": "get_weather", "arguments": ""}}]}, "logprobs": null, "finish_reason": null}]}`,
	`{"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1741569952, "model": "gpt-4.1", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "{\"city\":\"Pa"}}]}, "logprobs": null, "finish_reason": null}]}`,
	`{"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1741569952, "model": "gpt-4.1", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "ris\",\"days\":2.0}"}}]}, "logprobs": null, "finish_reason": null}]}`,
	`{"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1741569952, "model": "gpt-4.1", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 1, "id": "call_rome", "type": "function", "function": {"name": "get_weather", "arguments": ""}}]}, "logprobs": null, "finish_reason": null}]}`,
	`{"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1741569952, "model": "gpt-4.1", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 1, "function": {"arguments": "{\"city\":\"Rome\",\"days\":2}"}}]}, "logprobs": null, "finish_reason": null}]}`,
	`{"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1741569952, "model": "gpt-4.1", "choices": [{"index": 0, "delta": {}, "logprobs": null, "finish_reason": "tool_calls"}]}`,
}

// accumulate runs the SDK's accumulator over chunks decoded from JSON.
func accumulate(t testing.TB, chunks []string) openai.ChatCompletionMessage {
	t.Helper()
	var acc openai.ChatCompletionAccumulator
	for i, c := range chunks {
		if !acc.AddChunk(decode[openai.ChatCompletionChunk](t, c)) {
			t.Fatalf("chunk %d not accumulated", i)
		}
	}
	return acc.Choices[0].Message
}

func TestChatStreamed(t *testing.T) {
	reply := accumulate(t, streamChunks)
	last := accumulate(t, []string{
		`{"id": "chatcmpl-2", "object": "chat.completion.chunk", "created": 1741569953, "model": "gpt-4.1", "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Paris 14°C, "}, "finish_reason": null}]}`,
		`{"id": "chatcmpl-2", "object": "chat.completion.chunk", "created": 1741569953, "model": "gpt-4.1", "choices": [{"index": 0, "delta": {"content": "Rome 18°C."}, "finish_reason": null}]}`,
		`{"id": "chatcmpl-2", "object": "chat.completion.chunk", "created": 1741569953, "model": "gpt-4.1", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}], "usage": null}`,
	})
	got, err := openaigo.Chat{Sent: chatSent(t, reply), Received: []openai.ChatCompletionMessage{last}}.Conversation()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(chatWant(), got, sameValue); diff != "" {
		t.Errorf("conversation (-want +got):\n%s", diff)
	}
}

// cannedServer answers each request with the next body, as an
// event stream when it is a list of events; it keeps the request bodies.
type cannedServer struct {
	mu       sync.Mutex
	bodies   [][]string
	requests []string
}

func (s *cannedServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req, _ := io.ReadAll(r.Body)
	s.requests = append(s.requests, string(req))
	if len(s.bodies) == 0 {
		http.Error(w, `{"error": {"message": "no more canned responses"}}`, http.StatusInternalServerError)
		return
	}
	body := s.bodies[0]
	s.bodies = s.bodies[1:]
	if len(body) == 1 {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body[0])
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	for _, e := range body {
		var b bytes.Buffer
		if json.Compact(&b, []byte(e)) != nil {
			b.WriteString(e) // [DONE]
		}
		fmt.Fprintf(w, "data: %s\n\n", b.Bytes())
	}
}

func newClient(t *testing.T, bodies ...[]string) (openai.Client, *cannedServer) {
	s := &cannedServer{bodies: bodies}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return openai.NewClient(option.WithBaseURL(srv.URL+"/v1/"), option.WithAPIKey("test"), option.WithMaxRetries(0)), s
}

// A tool-calling agent loop on a canned server, the first reply streamed
// through the SDK's stream decoder and accumulator.
func TestChatAgentLoop(t *testing.T) {
	events := append(append([]string{}, streamChunks...), "[DONE]")
	client, srv := newClient(t, events,
		[]string{`{"id": "chatcmpl-2", "object": "chat.completion", "created": 1741569953, "model": "gpt-4.1",
			"choices": [{"index": 0, "message": {"role": "assistant", "content": "Paris 14°C, Rome 18°C.", "refusal": null, "annotations": []}, "finish_reason": "stop", "logprobs": null}]}`})
	ctx := context.Background()
	params := openai.ChatCompletionNewParams{
		Model: openai.ChatModelGPT4_1,
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage("You report the weather."),
			openai.UserMessage([]openai.ChatCompletionContentPartUnionParam{openai.TextContentPart("Paris and Rome?"), openai.TextContentPart("In Celsius.")}),
		},
	}
	stream := client.Chat.Completions.NewStreaming(ctx, params)
	var acc openai.ChatCompletionAccumulator
	for stream.Next() {
		acc.AddChunk(stream.Current())
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	reply := acc.Choices[0].Message
	params.Messages = append(params.Messages, reply.ToParam())
	results := map[string]string{"call_paris": "14 degrees", "call_rome": "18 degrees"}
	for _, tc := range reply.ToolCalls {
		params.Messages = append(params.Messages, openai.ToolMessage(results[tc.ID], tc.ID))
	}
	completion, err := client.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	got, err := openaigo.Chat{Sent: params.Messages, Received: []openai.ChatCompletionMessage{completion.Choices[0].Message}}.Conversation()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(chatWant(), got, sameValue); diff != "" {
		t.Errorf("conversation (-want +got):\n%s", diff)
	}
	// What the conversation says was sent is what the server got.
	if !strings.Contains(srv.requests[1], `"tool_call_id":"call_rome"`) {
		t.Errorf("second request lacks the Rome result: %s", srv.requests[1])
	}
}

func TestChatErrors(t *testing.T) {
	user := openai.UserMessage("weather?")
	brokenStream := append(append([]string{}, streamChunks[:3]...), streamChunks[6]) // the stream broke off mid-arguments
	override := func(raw string) openai.ChatCompletionMessageParamUnion {
		var m openai.ChatCompletionMessageParamUnion
		m.OfUser = new(openai.ChatCompletionUserMessageParam)
		*m.OfUser = param.Override[openai.ChatCompletionUserMessageParam](json.RawMessage(raw))
		return m
	}
	tests := []struct {
		name string
		chat openaigo.Chat
		err  string
	}{
		{"tool result with no call before it", openaigo.Chat{Sent: []openai.ChatCompletionMessageParamUnion{user, openai.ToolMessage("sunny", "call_x")}},
			`message 1 (tool): a tool message must follow an ai message with tool calls or another tool message, but message 0 is a human message`},
		{"unknown role", openaigo.Chat{Sent: []openai.ChatCompletionMessageParamUnion{user, override(`{"role": "robot", "content": "beep"}`)}},
			`message 1: unknown role "robot"`},
		{"empty union", openaigo.Chat{Sent: []openai.ChatCompletionMessageParamUnion{user, {}}},
			`message 1: a message must be an object, got null`},
	}
	for _, tt := range tests {
		_, err := tt.chat.Conversation()
		if err == nil || err.Error() != tt.err {
			t.Errorf("%s:\n got %v\nwant %s", tt.name, err, tt.err)
		}
		var me *agentcheck.MessageError
		if !errors.As(err, &me) || me.Message != 1 {
			t.Errorf("%s: %v is not a MessageError for message 1", tt.name, err)
		}
	}
	// Arguments that are not valid JSON, received or cut off in a stream,
	// are no error: the call keeps them as written.
	for _, tt := range []struct {
		name    string
		chat    openaigo.Chat
		invalid string
	}{
		{"received arguments not JSON", openaigo.Chat{Sent: []openai.ChatCompletionMessageParamUnion{user}, Received: []openai.ChatCompletionMessage{
			decode[openai.ChatCompletionMessage](t, `{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": Paris}"}}]}`)}},
			`{"city": Paris}`},
		{"streamed arguments cut off", openaigo.Chat{Sent: []openai.ChatCompletionMessageParamUnion{user}, Received: []openai.ChatCompletionMessage{accumulate(t, brokenStream)}},
			`{"city":"Pa`},
	} {
		conv, err := tt.chat.Conversation()
		if err != nil || len(conv) != 2 || len(conv[1].ToolCalls) != 1 || conv[1].ToolCalls[0].Name != "get_weather" || conv[1].ToolCalls[0].InvalidArgs != tt.invalid {
			t.Errorf("%s: Expected the call get_weather with arguments %q kept as written, but got %v, %v", tt.name, tt.invalid, conv, err)
		}
	}
}
