package genai_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	gogenai "google.golang.org/genai"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/genai"
	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/agentcheck/agentcheck/metric"
)

// sameValue compares Values as identical: the same JSON text, key order
// and number kinds included.
var sameValue = cmp.Comparer(func(a, b jsonvalue.Value) bool { return a.Kind() == b.Kind() && a.String() == b.String() })

func call(id, name, args string) agentcheck.ToolCall {
	return agentcheck.ToolCall{ID: id, Name: name, Args: jsonvalue.MustParse(args)}
}

// fakeGemini is a Gemini API on loopback that answers each request with
// the next canned reply: a GenerateContentResponse as JSON, or for a
// streamed request a JSON list of them, sent as server-sent events. It
// keeps the request bodies the SDK sent.
type fakeGemini struct {
	mu       sync.Mutex
	replies  []string
	requests [][]byte
}

func (f *fakeGemini) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, body)
	if len(f.replies) == 0 {
		http.Error(w, `{"error": {"code": 500, "message": "no reply left", "status": "INTERNAL"}}`, http.StatusInternalServerError)
		return
	}
	reply := f.replies[0]
	f.replies = f.replies[1:]
	if !strings.Contains(r.URL.Path, ":streamGenerateContent") {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, reply)
		return
	}
	var chunks []json.RawMessage
	if err := json.Unmarshal([]byte(reply), &chunks); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	for _, c := range chunks {
		var b bytes.Buffer
		json.Compact(&b, c) // an event is one line
		io.WriteString(w, "data: "+b.String()+"\r\n\r\n")
	}
}

// newClient returns a client of a fake Gemini API answering replies.
func newClient(t *testing.T, replies ...string) (*gogenai.Client, *fakeGemini) {
	t.Helper()
	f := &fakeGemini{replies: replies}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	client, err := gogenai.NewClient(context.Background(), &gogenai.ClientConfig{
		APIKey:      "test-key",
		Backend:     gogenai.BackendGeminiAPI,
		HTTPClient:  srv.Client(),
		HTTPOptions: gogenai.HTTPOptions{BaseURL: srv.URL + "/"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return client, f
}

// A chat with a function call, two results (one an error), and a streamed
// answer, as the Gemini API sends them.
var chatReplies = []string{
	`{"candidates": [{"content": {"role": "model", "parts": [
		{"text": "Two people, Paris: find a table, check the sky.", "thought": true},
		{"text": "Let me look."},
		{"functionCall": {"name": "find_table", "args": {"city": "Paris", "people": 2, "budget": 45.5}}, "thoughtSignature": "c2lnbmF0dXJl"},
		{"functionCall": {"id": "fc-w", "name": "weather", "args": {"city": "Paris"}}}]},
		"finishReason": "STOP", "index": 0}],
	  "usageMetadata": {"promptTokenCount": 20, "candidatesTokenCount": 12, "totalTokenCount": 32}, "modelVersion": "gemini-2.5-flash", "responseId": "r1"}`,
	`{"candidates": [{"content": {"role": "model", "parts": [
		{"functionCall": {"name": "book_table", "args": {"restaurant": "Chez Léon", "people": 2}}}]},
		"finishReason": "STOP"}], "modelVersion": "gemini-2.5-flash", "responseId": "r2"}`,
	`[{"candidates": [{"content": {"role": "model", "parts": [{"text": "Booked at Chez"}]}}], "modelVersion": "gemini-2.5-flash", "responseId": "r3"},
	  {"candidates": [{"content": {"role": "model", "parts": [{"text": " Léon, 20:00."}]}}], "modelVersion": "gemini-2.5-flash", "responseId": "r3"},
	  {"candidates": [{"content": {"role": "model", "parts": [{"text": ""}]}, "finishReason": "STOP"}], "usageMetadata": {"totalTokenCount": 60}, "modelVersion": "gemini-2.5-flash", "responseId": "r3"}]`,
}

// chatWant is the conversation of that chat, without its system message.
var chatWant = agentcheck.Conversation{
	{Role: agentcheck.Human, Content: "A table for two in Paris tonight, please."},
	{Role: agentcheck.AI, Content: "Let me look.", ToolCalls: []agentcheck.ToolCall{
		call("call_1_2", "find_table", `{"budget": 45.5, "city": "Paris", "people": 2}`),
		call("fc-w", "weather", `{"city": "Paris"}`),
	}},
	{Role: agentcheck.Tool, Content: `{"output":{"restaurant":"Chez Léon","time":"20:00"}}`, ToolCallID: "call_1_2"},
	{Role: agentcheck.Tool, Content: `{"error":"weather service down"}`, ToolCallID: "fc-w", IsError: true},
	{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{call("call_3_0", "book_table", `{"people": 2, "restaurant": "Chez Léon"}`)}},
	{Role: agentcheck.Tool, Content: `{"output":"booked"}`, ToolCallID: "call_3_0"},
	{Role: agentcheck.AI, Content: "Booked at Chez Léon, 20:00."},
}

// runChat runs that chat against the fake API.
func runChat(t *testing.T) (*gogenai.Chat, *gogenai.GenerateContentConfig, *fakeGemini) {
	t.Helper()
	ctx := context.Background()
	client, f := newClient(t, chatReplies...)
	config := &gogenai.GenerateContentConfig{SystemInstruction: gogenai.NewContentFromText("You book tables.", gogenai.RoleUser)}
	chat, err := client.Chats.Create(ctx, "gemini-2.5-flash", config, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chat.SendMessage(ctx, gogenai.Part{Text: "A table for two in Paris tonight, please."}); err != nil {
		t.Fatal(err)
	}
	_, err = chat.Send(ctx,
		gogenai.NewPartFromFunctionResponse("find_table", map[string]any{"output": map[string]any{"restaurant": "Chez Léon", "time": "20:00"}}),
		&gogenai.Part{FunctionResponse: &gogenai.FunctionResponse{ID: "fc-w", Name: "weather", Response: map[string]any{"error": "weather service down"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range chat.SendStream(ctx, gogenai.NewPartFromFunctionResponse("book_table", map[string]any{"output": "booked"})) {
		if err != nil {
			t.Fatal(err)
		}
	}
	return chat, config, f
}

func TestChat(t *testing.T) {
	chat, config, f := runChat(t)
	history := chat.History(false)
	if len(history) != 8 { // the streamed answer is three contents
		t.Fatalf("the chat holds %d contents, want 8", len(history))
	}
	got, err := genai.Chat(chat).Conversation()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(chatWant, got, sameValue); diff != "" {
		t.Errorf("conversation (-want +got):\n%s", diff)
	}

	// With the system instruction.
	got, err = genai.Request{Contents: history, Config: config}.Conversation()
	if err != nil {
		t.Fatal(err)
	}
	want := append(agentcheck.Conversation{{Role: agentcheck.System, Content: "You book tables."}}, chatWant...)
	if diff := cmp.Diff(want, got, sameValue); diff != "" {
		t.Errorf("request conversation (-want +got):\n%s", diff)
	}

	// The body the SDK sent last is the same conversation up to its
	// answer, read from the wire by the same reader.
	wire, err := dataset.ParseGeminiContents(f.requests[len(f.requests)-1])
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want[:len(want)-1], wire, sameValue); diff != "" {
		t.Errorf("the wire's conversation (-want +got):\n%s", diff)
	}
}

// Responses reads GenerateContent's answer, and the chunks of
// GenerateContentStream.
func TestResponses(t *testing.T) {
	ctx := context.Background()
	client, _ := newClient(t,
		`{"candidates": [{"content": {"role": "model", "parts": [
			{"text": "Computing."},
			{"executableCode": {"language": "PYTHON", "code": "print(sum([2, 3, 5, 7]))"}},
			{"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "17\n"}},
			{"executableCode": {"language": "PYTHON", "code": "print(1/0)"}},
			{"codeExecutionResult": {"outcome": "OUTCOME_FAILED", "output": "ZeroDivisionError: division by zero"}},
			{"text": "The sum is 17."}]}, "finishReason": "STOP"}]}`,
		chatReplies[2],
		`{"promptFeedback": {"blockReason": "SAFETY"}, "usageMetadata": {"promptTokenCount": 4}}`)
	contents := []*gogenai.Content{gogenai.NewContentFromText("Sum the primes below 10.", gogenai.RoleUser)}
	resp, err := client.Models.GenerateContent(ctx, "gemini-2.5-flash", contents, &gogenai.GenerateContentConfig{
		Tools: []*gogenai.Tool{{CodeExecution: &gogenai.ToolCodeExecution{}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := genai.Responses{resp}.Conversation()
	if err != nil {
		t.Fatal(err)
	}
	code := func(id, src string) agentcheck.ToolCall {
		tc := call(id, "code_execution", `{}`)
		tc.Args = jsonvalue.Object(jsonvalue.Member{Key: "code", Value: jsonvalue.String(src)}, jsonvalue.Member{Key: "language", Value: jsonvalue.String("PYTHON")})
		tc.Kind = agentcheck.HostedTool
		return tc
	}
	want := agentcheck.Conversation{
		{Role: agentcheck.AI, Content: "Computing.", ToolCalls: []agentcheck.ToolCall{code("call_0_1", "print(sum([2, 3, 5, 7]))")}},
		{Role: agentcheck.Tool, Content: "17\n", ToolCallID: "call_0_1"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{code("call_0_3", "print(1/0)")}},
		{Role: agentcheck.Tool, Content: "ZeroDivisionError: division by zero", ToolCallID: "call_0_3", IsError: true},
		{Role: agentcheck.AI, Content: "The sum is 17."},
	}
	if diff := cmp.Diff(want, got, sameValue); diff != "" {
		t.Errorf("response (-want +got):\n%s", diff)
	}

	// The history with the answer appended, as an agent keeps it.
	got, err = genai.Contents(append(contents, resp.Candidates[0].Content)).Conversation()
	if err != nil {
		t.Fatal(err)
	}
	want = append(agentcheck.Conversation{{Role: agentcheck.Human, Content: "Sum the primes below 10."}}, want...)
	for i := range want { // the answer is content 1 now
		for j := range want[i].ToolCalls {
			want[i].ToolCalls[j].ID = strings.Replace(want[i].ToolCalls[j].ID, "call_0_", "call_1_", 1)
		}
		want[i].ToolCallID = strings.Replace(want[i].ToolCallID, "call_0_", "call_1_", 1)
	}
	if diff := cmp.Diff(want, got, sameValue); diff != "" {
		t.Errorf("contents (-want +got):\n%s", diff)
	}

	var chunks genai.Responses
	for chunk, err := range client.Models.GenerateContentStream(ctx, "gemini-2.5-flash", contents, nil) {
		if err != nil {
			t.Fatal(err)
		}
		chunks = append(chunks, chunk)
	}
	if len(chunks) != 3 {
		t.Fatalf("%d chunks, want 3", len(chunks))
	}
	got, err = chunks.Conversation()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(agentcheck.Conversation{{Role: agentcheck.AI, Content: "Booked at Chez Léon, 20:00."}}, got, sameValue); diff != "" {
		t.Errorf("stream (-want +got):\n%s", diff)
	}

	blocked, err := client.Models.GenerateContent(ctx, "gemini-2.5-flash", contents, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := (genai.Responses{blocked}).Conversation(); err != nil || len(got) != 0 {
		t.Errorf("a blocked prompt's response: %v, %v; want no messages", got, err)
	}
}

// Server-side tool calls and responses (tool combination) are hosted calls
// with their results, paired by id.
func TestServerSideTools(t *testing.T) {
	contents := genai.Contents{
		gogenai.NewContentFromText("News about Gemini?", gogenai.RoleUser),
		gogenai.NewContentFromParts([]*gogenai.Part{
			{ToolCall: &gogenai.ToolCall{ID: "s1", ToolType: gogenai.ToolTypeGoogleSearchWeb, Args: map[string]any{"queries": []any{"gemini news"}}}},
			{ToolResponse: &gogenai.ToolResponse{ID: "s1", ToolType: gogenai.ToolTypeGoogleSearchWeb, Response: map[string]any{"results": 3}}},
			gogenai.NewPartFromText("Three stories."),
		}, gogenai.RoleModel),
	}
	got, err := contents.Conversation()
	if err != nil {
		t.Fatal(err)
	}
	search := call("s1", "google_search_web", `{"queries": ["gemini news"]}`)
	search.Kind = agentcheck.HostedTool
	want := agentcheck.Conversation{
		{Role: agentcheck.Human, Content: "News about Gemini?"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{search}},
		{Role: agentcheck.Tool, Content: `{"results":3}`, ToolCallID: "s1"},
		{Role: agentcheck.AI, Content: "Three stories."},
	}
	if diff := cmp.Diff(want, got, sameValue); diff != "" {
		t.Errorf("conversation (-want +got):\n%s", diff)
	}
}

func TestConversationErrors(t *testing.T) {
	user := gogenai.NewContentFromText("hi", gogenai.RoleUser)
	calls := gogenai.NewContentFromParts([]*gogenai.Part{
		gogenai.NewPartFromText("Looking."),
		gogenai.NewPartFromFunctionCall("find", map[string]any{"city": "Paris"}),
		gogenai.NewPartFromFunctionCall("weather", map[string]any{"temp": math.NaN()}),
	}, gogenai.RoleModel)
	tests := []struct {
		name string
		t    agentcheck.Transcript
		err  string
		// where the *agentcheck.MessageError points
		msg, call int
		callName  string
	}{
		{"arguments the SDK cannot write", genai.Contents{user, calls},
			`message 1 (ai), tool call 1 "weather": part 2: json: unsupported value: NaN`, 1, 1, "weather"},
		{"a result whose call is unknown", genai.Contents{user, gogenai.NewContentFromFunctionCall("find", nil, gogenai.RoleModel), gogenai.NewContentFromFunctionResponse("book", map[string]any{"ok": true}, gogenai.RoleUser)},
			`message 2 (human): part 0: functionResponse "book" answers no call: no call of that name was made`, 2, -1, ""},
		{"a result with an unknown id", genai.Contents{user, gogenai.NewContentFromFunctionCall("find", nil, gogenai.RoleModel),
			gogenai.NewContentFromParts([]*gogenai.Part{{FunctionResponse: &gogenai.FunctionResponse{ID: "fc-9", Name: "find"}}}, gogenai.RoleUser)},
			`message 2 (human): part 0: functionResponse "find" answers call id "fc-9", which no call made`, 2, -1, ""},
		{"an unknown role", genai.Contents{user, gogenai.NewContentFromText("hello", "assistant")},
			`message 1: unknown role "assistant" (want user or model)`, 1, -1, ""},
		{"a call in a user content", genai.Contents{gogenai.NewContentFromFunctionCall("find", nil, gogenai.RoleUser)},
			`message 0 (human), tool call 0 "find": part 0: functionCall in a user content: only model contents make calls`, 0, 0, "find"},
		{"a call without a name", genai.Contents{user, gogenai.NewContentFromParts([]*gogenai.Part{{FunctionCall: &gogenai.FunctionCall{ID: "x"}}}, gogenai.RoleModel)},
			`message 1 (ai), tool call 0: part 0: "functionCall.name" must be a non-empty string`, 1, 0, ""},
		{"a nil content", genai.Contents{user, nil}, `message 1: a content must be an object, got null`, 1, -1, ""},
		{"a nil part", genai.Contents{gogenai.NewContentFromParts([]*gogenai.Part{gogenai.NewPartFromText("a"), nil}, gogenai.RoleUser)},
			`message 0 (human): part 1 must be an object, got null`, 0, -1, ""},
		{"a nil response", genai.Responses{nil}, `message 0: a response must be an object, got null`, 0, -1, ""},
		{"a response the SDK cannot write", genai.Responses{{}, {Candidates: []*gogenai.Candidate{{Content: calls}}}},
			`message 1 (ai), tool call 1 "weather": part 2: json: unsupported value: NaN`, 1, 1, "weather"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.t.Conversation()
			if err == nil || err.Error() != tt.err {
				t.Fatalf("got %v\nwant %s", err, tt.err)
			}
			var me *agentcheck.MessageError
			if !errors.As(err, &me) {
				t.Fatalf("%T is not a *agentcheck.MessageError", err)
			}
			if me.Message != tt.msg || me.ToolCall != tt.call || me.Name != tt.callName {
				t.Errorf("message %d, call %d %q; want %d, %d %q", me.Message, me.ToolCall, me.Name, tt.msg, tt.call, tt.callName)
			}
		})
	}
}

// The chat's conversation scores as the same conversation written by hand.
func TestMetricsSameAsByHand(t *testing.T) {
	chat, _, _ := runChat(t)
	got, err := genai.Chat(chat).Conversation()
	if err != nil {
		t.Fatal(err)
	}
	hand := agentcheck.Conversation{
		{Role: agentcheck.Human, Content: "A table for two in Paris tonight, please."},
		{Role: agentcheck.AI, Content: "Let me look.", ToolCalls: []agentcheck.ToolCall{
			agentcheck.MustParseToolCall("find_table", `{"city": "Paris", "people": 2, "budget": 45.5}`),
			agentcheck.MustParseToolCall("weather", `{"city": "Paris"}`),
		}},
		{Role: agentcheck.Tool, Content: "Chez Léon at 20:00"},
		{Role: agentcheck.Tool, Content: "weather service down", IsError: true},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{agentcheck.MustParseToolCall("book_table", `{"restaurant": "Chez Léon", "people": 2}`)}},
		{Role: agentcheck.Tool, Content: "booked"},
		{Role: agentcheck.AI, Content: "Booked at Chez Léon, 20:00."},
	}
	ref := []agentcheck.ToolCall{
		agentcheck.MustParseToolCall("find_table", `{"city": "Paris", "people": 2}`),
		agentcheck.MustParseToolCall("weather", `{"city": "Paris"}`),
		agentcheck.MustParseToolCall("book_table", `{"restaurant": "Chez Léon", "people": 4}`),
	}
	ctx := context.Background()
	for _, m := range []metric.Metric{metric.ToolCallAccuracy{}, metric.ToolCallF1{}} {
		a, err := m.Evaluate(ctx, agentcheck.Sample{Conversation: got, ReferenceToolCalls: ref})
		if err != nil {
			t.Fatal(err)
		}
		b, err := m.Evaluate(ctx, agentcheck.Sample{Conversation: hand, ReferenceToolCalls: ref})
		if err != nil {
			t.Fatal(err)
		}
		if a.Score != b.Score || a.Reason != b.Reason {
			t.Errorf("%s: adapter %v, by hand %v", m.Name(), a, b)
		}
		if a.Score == 0 || a.Score == 1 {
			t.Errorf("%s = %v: the test should score between 0 and 1", m.Name(), a.Score)
		}
	}
}
