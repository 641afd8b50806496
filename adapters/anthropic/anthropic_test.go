package anthropic_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/anthropic"
	"github.com/agentcheck/agentcheck/dataset"
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

func call(id, name, input string, kind agentcheck.ToolKind) agentcheck.ToolCall {
	return agentcheck.ToolCall{ID: id, Name: name, Args: jsonvalue.MustParse(input), Kind: kind}
}

// A reply with two tool calls, as the API sends it.
const callsReply = `{"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
	"content": [
		{"type": "thinking", "thinking": "Two cities.", "signature": "EqQBCgIYAhIM"},
		{"type": "text", "text": "Checking both."},
		{"type": "tool_use", "id": "toolu_paris", "name": "get_weather", "input": {"city": "Paris", "days": 2.0}},
		{"type": "tool_use", "id": "toolu_rome", "name": "get_weather", "input": {"city": "Rome", "days": 2}}],
	"stop_reason": "tool_use", "stop_sequence": null, "usage": {"input_tokens": 472, "output_tokens": 89}}`

// The answer after the tool results, with a web search Anthropic ran.
const answerReply = `{"id": "msg_02", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
	"content": [
		{"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search", "input": {"query": "Rome weather warning"}},
		{"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01", "content": [
			{"type": "web_search_result", "url": "https://example.com/rome", "title": "Rome", "encrypted_content": "EqgfCioIARgB", "page_age": null}]},
		{"type": "text", "text": "Paris 14°C; "},
		{"type": "text", "text": "Rome has a heat warning", "citations": [
			{"type": "web_search_result_location", "url": "https://example.com/rome", "title": "Rome", "encrypted_index": "Eo8B", "cited_text": "Heat warning for Rome"}]},
		{"type": "text", "text": "."}],
	"stop_reason": "end_turn", "stop_sequence": null, "usage": {"input_tokens": 900, "output_tokens": 40}}`

// runWant is the conversation of sent() followed by answerReply.
func runWant() agentcheck.Conversation {
	return agentcheck.Conversation{
		{Role: agentcheck.System, Content: "You report the weather."},
		{Role: agentcheck.Human, Content: "Paris and Rome?\nIn Celsius."},
		{Role: agentcheck.AI, Content: "Checking both.", Reasoning: "Two cities.", ToolCalls: []agentcheck.ToolCall{
			call("toolu_paris", "get_weather", `{"city": "Paris", "days": 2.0}`, agentcheck.FunctionTool),
			call("toolu_rome", "get_weather", `{"city": "Rome", "days": 2}`, agentcheck.FunctionTool),
		}},
		{Role: agentcheck.Tool, Content: "14 degrees", ToolCallID: "toolu_paris"},
		{Role: agentcheck.Tool, Content: "no station in Rome", ToolCallID: "toolu_rome", IsError: true},
		{Role: agentcheck.Human, Content: "Any warnings?"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{call("srvtoolu_01", "web_search", `{"query": "Rome weather warning"}`, agentcheck.HostedTool)}},
		{Role: agentcheck.Tool, ToolCallID: "srvtoolu_01",
			Content: `[{"encrypted_content":"EqgfCioIARgB","page_age":null,"title":"Rome","type":"web_search_result","url":"https://example.com/rome"}]`},
		{Role: agentcheck.AI, Content: "Paris 14°C; Rome has a heat warning."},
	}
}

var system = []sdk.TextBlockParam{{Text: "You report the weather."}}

// sent is what the last request of a run sends, built with the SDK's
// helpers: the first reply is in it as an agent loop adds it, with ToParam,
// and the tool results follow in a user message.
func sent(first sdk.Message) []sdk.MessageParam {
	return []sdk.MessageParam{
		sdk.NewUserMessage(sdk.NewTextBlock("Paris and Rome?"), sdk.NewTextBlock("In Celsius.")),
		first.ToParam(),
		sdk.NewUserMessage(
			sdk.NewToolResultBlock("toolu_paris", "14 degrees", false),
			sdk.NewToolResultBlock("toolu_rome", "no station in Rome", true),
			sdk.NewTextBlock("Any warnings?")),
	}
}

func TestMessages(t *testing.T) {
	first := decode[sdk.Message](t, callsReply)
	answer := decode[sdk.Message](t, answerReply)
	params := sdk.MessageNewParams{Model: sdk.ModelClaudeSonnet4_5, MaxTokens: 1024, System: system, Messages: sent(first)}
	for name, tr := range map[string]agentcheck.Transcript{
		"fields":  anthropic.Messages{System: system, Sent: sent(first), Received: []sdk.Message{answer}},
		"request": anthropic.Request(params, answer),
		// The answer sent back in a later request reads the same.
		"all sent": anthropic.Messages{System: system, Sent: append(sent(first), answer.ToParam())},
	} {
		got, err := tr.Conversation()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(runWant(), got, sameValue); diff != "" {
			t.Errorf("%s: conversation (-want +got):\n%s", name, diff)
		}
	}

	// Received replies alone, and nothing at all.
	got, err := anthropic.Messages{Received: []sdk.Message{first}}.Conversation()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(runWant()[2:3], got, sameValue); diff != "" {
		t.Errorf("a reply alone (-want +got):\n%s", diff)
	}
	if got, err := (anthropic.Messages{}).Conversation(); err != nil || len(got) != 0 {
		t.Errorf("no messages: %v, %v", got, err)
	}
}

// Go maps as arguments are written with their keys sorted; numbers keep
// their kinds.
func TestMessagesMapArguments(t *testing.T) {
	got, err := anthropic.Messages{Sent: []sdk.MessageParam{
		sdk.NewUserMessage(sdk.NewTextBlock("Book it")),
		sdk.NewAssistantMessage(sdk.NewToolUseBlock("toolu_1", map[string]any{"people": 2, "city": "Paris", "budget": 50.5}, "book")),
		sdk.NewUserMessage(sdk.NewToolResultBlock("toolu_1", `{"ok":true}`, false)),
	}}.Conversation()
	if err != nil {
		t.Fatal(err)
	}
	want := agentcheck.Conversation{
		{Role: agentcheck.Human, Content: "Book it"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{call("toolu_1", "book", `{"budget":50.5,"city":"Paris","people":2}`, agentcheck.FunctionTool)}},
		{Role: agentcheck.Tool, Content: `{"ok":true}`, ToolCallID: "toolu_1"},
	}
	if diff := cmp.Diff(want, got, sameValue); diff != "" {
		t.Errorf("conversation (-want +got):\n%s", diff)
	}
}

// The events of a streamed reply as the API sends them: thinking, text,
// and tool calls whose input arrives in pieces cut inside tokens.
var callsStream = []string{
	`{"type": "message_start", "message": {"id": "msg_01", "type": "message", "role": "assistant", "content": [], "model": "claude-sonnet-4-5", "stop_reason": null, "stop_sequence": null, "usage": {"input_tokens": 472, "output_tokens": 2}}}`,
	`{"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": "", "signature": ""}}`,
	`{"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "Two cities."}}`,
	`{"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "EqQBCgIYAhIM"}}`,
	`{"type": "content_block_stop", "index": 0}`,
	`{"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}}`,
	`{"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "Checking "}}`,
	`{"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "both."}}`,
	`{"type": "content_block_stop", "index": 1}`,
	`{"type": "content_block_start", "index": 2, "content_block": {"type": "tool_use", "id": "toolu_paris", "name": "get_weather", "input": {}}}`,
	`{"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": ""}}`,
	`{"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": "{\"city\": \"Pa"}}`,
	`{"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": "ris\", \"days\": 2."}}`,
	`{"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": "0}"}}`,
	`{"type": "content_block_stop", "index": 2}`,
	`{"type": "content_block_start", "index": 3, "content_block": {"type": "tool_use", "id": "toolu_rome", "name": "get_weather", "input": {}}}`,
	`{"type": "content_block_delta", "index": 3, "delta": {"type": "input_json_delta", "partial_json": "{\"city\": \"Rome\", \"days\": 2}"}}`,
	`{"type": "content_block_stop", "index": 3}`,
	`{"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": null}, "usage": {"output_tokens": 89}}`,
	`{"type": "message_stop"}`,
}

// The streamed answer: a server tool whose input streams, its result in
// one block, and text whose citation streams.
var answerStream = []string{
	`{"type": "message_start", "message": {"id": "msg_02", "type": "message", "role": "assistant", "content": [], "model": "claude-sonnet-4-5", "stop_reason": null, "stop_sequence": null, "usage": {"input_tokens": 900, "output_tokens": 1}}}`,
	`{"type": "content_block_start", "index": 0, "content_block": {"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search", "input": {}}}`,
	`{"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"query\": \"Rome weather"}}`,
	`{"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": " warning\"}"}}`,
	`{"type": "content_block_stop", "index": 0}`,
	`{"type": "content_block_start", "index": 1, "content_block": {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01", "content": [{"type": "web_search_result", "url": "https://example.com/rome", "title": "Rome", "encrypted_content": "EqgfCioIARgB", "page_age": null}]}}`,
	`{"type": "content_block_stop", "index": 1}`,
	`{"type": "content_block_start", "index": 2, "content_block": {"type": "text", "text": ""}}`,
	`{"type": "content_block_delta", "index": 2, "delta": {"type": "text_delta", "text": "Paris 14°C; "}}`,
	`{"type": "content_block_stop", "index": 2}`,
	`{"type": "content_block_start", "index": 3, "content_block": {"type": "text", "text": "", "citations": []}}`,
	`{"type": "content_block_delta", "index": 3, "delta": {"type": "citations_delta", "citation": {"type": "web_search_result_location", "url": "https://example.com/rome", "title": "Rome", "encrypted_index": "Eo8B", "cited_text": "Heat warning for Rome"}}}`,
	`{"type": "content_block_delta", "index": 3, "delta": {"type": "text_delta", "text": "Rome has a heat warning"}}`,
	`{"type": "content_block_stop", "index": 3}`,
	`{"type": "content_block_start", "index": 4, "content_block": {"type": "text", "text": ""}}`,
	`{"type": "content_block_delta", "index": 4, "delta": {"type": "text_delta", "text": "."}}`,
	`{"type": "content_block_stop", "index": 4}`,
	`{"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": null}, "usage": {"output_tokens": 40}}`,
	`{"type": "message_stop"}`,
}

// accumulate runs the SDK's accumulator over stream events decoded from
// the JSON the API sends.
func accumulate(t testing.TB, events []string) sdk.Message {
	t.Helper()
	var m sdk.Message
	for i, e := range events {
		if err := m.Accumulate(decode[sdk.MessageStreamEventUnion](t, e)); err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
	}
	return m
}

func TestMessagesAccumulated(t *testing.T) {
	first := accumulate(t, callsStream)
	answer := accumulate(t, answerStream)
	for name, tr := range map[string]agentcheck.Transcript{
		"received": anthropic.Messages{System: system, Sent: sent(first), Received: []sdk.Message{answer}},
		"sent":     anthropic.Messages{System: system, Sent: append(sent(first), answer.ToParam())},
	} {
		got, err := tr.Conversation()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(runWant(), got, sameValue); diff != "" {
			t.Errorf("%s: conversation (-want +got):\n%s", name, diff)
		}
	}
	// A stream read up to a block's stop event converts as far as it went.
	partial := accumulate(t, callsStream[:15])
	got, err := anthropic.Messages{Received: []sdk.Message{partial}}.Conversation()
	if err != nil {
		t.Fatal(err)
	}
	want := runWant()[2]
	want.ToolCalls = want.ToolCalls[:1]
	if diff := cmp.Diff(agentcheck.Conversation{want}, got, sameValue); diff != "" {
		t.Errorf("partial stream (-want +got):\n%s", diff)
	}
}

// TestClient runs an agent loop against a canned API on loopback: the
// first reply comes from Messages.New, the answer from NewStreaming,
// accumulated. The conversation of what the agent holds afterwards is the
// one the API would read from the last request body, and its answer.
func TestClient(t *testing.T) {
	var (
		mu     sync.Mutex
		bodies [][]byte
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, body)
		mu.Unlock()
		if r.URL.Path != "/v1/messages" {
			http.NotFound(w, r)
			return
		}
		var req struct {
			Stream bool `json:"stream"`
		}
		_ = json.Unmarshal(body, &req)
		if !req.Stream {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, callsReply)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, e := range answerStream {
			var ev struct{ Type string }
			_ = json.Unmarshal([]byte(e), &ev)
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.Type, e)
		}
	}))
	defer srv.Close()
	client := sdk.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
	ctx := context.Background()

	params := sdk.MessageNewParams{
		Model:     sdk.ModelClaudeSonnet4_5,
		MaxTokens: 1024,
		System:    system,
		Messages:  []sdk.MessageParam{sdk.NewUserMessage(sdk.NewTextBlock("Paris and Rome?"), sdk.NewTextBlock("In Celsius."))},
	}
	first, err := client.Messages.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	params.Messages = append(params.Messages, first.ToParam(), sdk.NewUserMessage(
		sdk.NewToolResultBlock("toolu_paris", "14 degrees", false),
		sdk.NewToolResultBlock("toolu_rome", "no station in Rome", true),
		sdk.NewTextBlock("Any warnings?")))
	stream := client.Messages.NewStreaming(ctx, params)
	var answer sdk.Message
	for stream.Next() {
		if err := answer.Accumulate(stream.Current()); err != nil {
			t.Fatal(err)
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}

	got, err := anthropic.Request(params, answer).Conversation()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(runWant(), got, sameValue); diff != "" {
		t.Errorf("conversation (-want +got):\n%s", diff)
	}
	mu.Lock()
	last := bodies[len(bodies)-1]
	mu.Unlock()
	wire, err := dataset.ParseAnthropicMessages(last)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(got[:len(got)-3], wire, sameValue); diff != "" {
		t.Errorf("the last request body reads otherwise (-adapter +wire):\n%s", diff)
	}
}

func TestBetaMessagesMCP(t *testing.T) {
	reply := decode[sdk.BetaMessage](t, `{"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
		"content": [
			{"type": "text", "text": "I'll roll."},
			{"type": "mcp_tool_use", "id": "mcptoolu_01", "name": "roll", "server_name": "dice", "input": {"expr": "2d4+1", "seed": 7}},
			{"type": "mcp_tool_result", "tool_use_id": "mcptoolu_01", "is_error": false, "content": [{"type": "text", "text": "6"}]},
			{"type": "mcp_tool_use", "id": "mcptoolu_02", "name": "roll", "server_name": "dice", "input": {}},
			{"type": "mcp_tool_result", "tool_use_id": "mcptoolu_02", "is_error": true, "content": [{"type": "text", "text": "expr is required"}]},
			{"type": "text", "text": "You rolled 6."}],
		"stop_reason": "end_turn", "stop_sequence": null, "usage": {"input_tokens": 10, "output_tokens": 20}}`)
	params := sdk.BetaMessageNewParams{
		Model:     sdk.ModelClaudeSonnet4_5,
		MaxTokens: 1024,
		System:    []sdk.BetaTextBlockParam{{Text: "Roll dice."}},
		Messages:  []sdk.BetaMessageParam{sdk.NewBetaUserMessage(sdk.NewBetaTextBlock("Roll 2d4+1"))},
	}
	want := agentcheck.Conversation{
		{Role: agentcheck.System, Content: "Roll dice."},
		{Role: agentcheck.Human, Content: "Roll 2d4+1"},
		{Role: agentcheck.AI, Content: "I'll roll.", ToolCalls: []agentcheck.ToolCall{call("mcptoolu_01", "roll", `{"expr": "2d4+1", "seed": 7}`, agentcheck.MCPTool)}},
		{Role: agentcheck.Tool, Content: "6", ToolCallID: "mcptoolu_01"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{call("mcptoolu_02", "roll", `{}`, agentcheck.MCPTool)}},
		{Role: agentcheck.Tool, Content: "expr is required", ToolCallID: "mcptoolu_02", IsError: true},
		{Role: agentcheck.AI, Content: "You rolled 6."},
	}
	for name, tr := range map[string]agentcheck.Transcript{
		"received": anthropic.BetaRequest(params, reply),
		"sent":     anthropic.BetaMessages{System: params.System, Sent: append(params.Messages, reply.ToParam())},
	} {
		got, err := tr.Conversation()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(want, got, sameValue); diff != "" {
			t.Errorf("%s: conversation (-want +got):\n%s", name, diff)
		}
	}

	// BetaMessage.ToParam writes an MCP call's input from the Go value the
	// SDK decoded it into: a float without a fraction loses its ".0". The
	// reply as received keeps it.
	floatReply := decode[sdk.BetaMessage](t, `{"type": "message", "role": "assistant", "content": [
		{"type": "mcp_tool_use", "id": "mcptoolu_01", "name": "roll", "server_name": "dice", "input": {"sides": 4.0}}]}`)
	for _, c := range []struct {
		tr   anthropic.BetaMessages
		want string
	}{
		{anthropic.BetaMessages{Received: []sdk.BetaMessage{floatReply}}, `{"sides":4.0}`},
		{anthropic.BetaMessages{Sent: []sdk.BetaMessageParam{floatReply.ToParam()}}, `{"sides":4}`},
	} {
		got, err := c.tr.Conversation()
		if err != nil {
			t.Fatal(err)
		}
		if args := got[0].ToolCalls[0].Args.String(); args != c.want {
			t.Errorf("MCP input %s, want %s", args, c.want)
		}
	}

	// A beta stream accumulates as the Messages API's does.
	var acc sdk.BetaMessage
	for i, e := range callsStream {
		if err := acc.Accumulate(decode[sdk.BetaRawMessageStreamEventUnion](t, e)); err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
	}
	got, err := anthropic.BetaMessages{Received: []sdk.BetaMessage{acc}}.Conversation()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(runWant()[2:3], got, sameValue); diff != "" {
		t.Errorf("beta stream (-want +got):\n%s", diff)
	}
}

// Malformed pieces: each error names the message (its index in Sent
// followed by Received), the content block and the call.
func TestMessagesErrors(t *testing.T) {
	first := decode[sdk.Message](t, callsReply)
	user := sdk.NewUserMessage(sdk.NewTextBlock("Paris and Rome?"))
	tests := []struct {
		name string
		tr   agentcheck.Transcript
		err  string
		msg  int
		call int
		tool string
	}{
		{"a result for an unknown call", anthropic.Messages{Sent: []sdk.MessageParam{user, first.ToParam(),
			sdk.NewUserMessage(sdk.NewToolResultBlock("toolu_paris", "14 degrees", false), sdk.NewToolResultBlock("toolu_berlin", "9 degrees", false))}},
			`message 2 (human): content block 1: tool_result answers tool_use_id "toolu_berlin", which no tool_use made`, 2, -1, ""},
		{"input that is not valid JSON", anthropic.Messages{Sent: []sdk.MessageParam{user,
			sdk.NewAssistantMessage(sdk.NewToolUseBlock("toolu_1", json.RawMessage(`{"city": "Par`), "get_weather"))}},
			`message 1: json: error calling MarshalJSON for type anthropic.MessageParam`, 1, -1, ""},
		{"input that is not a number", anthropic.Messages{Sent: []sdk.MessageParam{user,
			sdk.NewAssistantMessage(sdk.NewToolUseBlock("toolu_1", map[string]any{"days": math.Inf(1)}, "get_weather"))}},
			`message 1: json: error calling MarshalJSON for type anthropic.MessageParam`, 1, -1, ""},
		{"input that is not an object", anthropic.Messages{Sent: []sdk.MessageParam{user}, Received: []sdk.Message{decode[sdk.Message](t,
			`{"type": "message", "role": "assistant", "content": [{"type": "text", "text": "ok"}, {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": ["Paris"]}]}`)}},
			`message 1 (ai), tool call 0 "get_weather": content block 1: "input" must be a JSON object, got array`, 1, 0, "get_weather"},
		{"an unknown role", anthropic.Messages{Sent: []sdk.MessageParam{user, {Role: "tool", Content: []sdk.ContentBlockParamUnion{sdk.NewTextBlock("14 degrees")}}}},
			`message 1: unknown role "tool" (want user, assistant or system)`, 1, -1, ""},
		{"a call in a user message", anthropic.Messages{Sent: []sdk.MessageParam{sdk.NewUserMessage(sdk.NewToolUseBlock("toolu_1", map[string]any{}, "f"))}},
			`message 0 (human), tool call 0 "f": content block 0: tool_use in a user message: only assistant messages make calls`, 0, 0, "f"},
		{"a result sent twice", anthropic.Messages{Sent: []sdk.MessageParam{user, first.ToParam(),
			sdk.NewUserMessage(sdk.NewToolResultBlock("toolu_paris", "14", false), sdk.NewToolResultBlock("toolu_paris", "15", false))}},
			`message 2 (human): content block 1: tool_result answers tool_use_id "toolu_paris", which an earlier result answered`, 2, -1, ""},
		{"a reply built by hand", anthropic.Messages{Sent: []sdk.MessageParam{user}, Received: []sdk.Message{{Content: []sdk.ContentBlockUnion{{Type: "text", Text: "hi"}}}}},
			`message 1 (ai): content block 0 has no JSON as the API sent it: take replies from a client call, or Accumulate a stream's events into them`, 1, -1, ""},
		{"an empty reply", anthropic.Messages{Received: []sdk.Message{first, {}}},
			`message 1 (ai): the reply has no JSON as the API sent it: take replies from a client call, or Accumulate a stream's events into them`, 1, -1, ""},
		{"a beta result for an unknown call", anthropic.BetaMessages{Received: []sdk.BetaMessage{decode[sdk.BetaMessage](t,
			`{"type": "message", "role": "assistant", "content": [{"type": "mcp_tool_result", "tool_use_id": "mcptoolu_9", "content": "6"}]}`)}},
			`message 0 (ai): content block 0: mcp_tool_result answers tool_use_id "mcptoolu_9", which no mcp_tool_use made`, 0, -1, ""},
	}
	for _, tt := range tests {
		_, err := tt.tr.Conversation()
		if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
			t.Errorf("%s:\n got %v\nwant %s", tt.name, err, tt.err)
			continue
		}
		var me *agentcheck.MessageError
		if !errors.As(err, &me) {
			t.Errorf("%s: %T is not a *agentcheck.MessageError", tt.name, err)
			continue
		}
		if me.Message != tt.msg || me.ToolCall != tt.call || me.Name != tt.tool {
			t.Errorf("%s: message %d, call %d, name %q; want %d, %d, %q", tt.name, me.Message, me.ToolCall, me.Name, tt.msg, tt.call, tt.tool)
		}
	}

}
