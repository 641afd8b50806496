package mcpgo_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/mcpgo"
	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/agentcheck/agentcheck/metric"
)

// newServer is an MCP server with two tools: get_weather, which answers,
// and book_table, which fails (isError) for more than 8 people. A call of
// get_weather for the city "wait" blocks until release is closed, telling
// started that it has begun.
func newServer(started chan<- struct{}, release <-chan struct{}) *server.MCPServer {
	s := server.NewMCPServer("tables", "v1", server.WithToolCapabilities(true))
	s.AddTool(mcp.NewTool("get_weather", mcp.WithDescription("the weather in a city"),
		mcp.WithString("city", mcp.Required()), mcp.WithString("unit")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			city, err := req.RequireString("city")
			if err != nil {
				return mcp.NewToolResultError(err.Error()), nil
			}
			if city == "wait" {
				started <- struct{}{}
				<-release
			}
			return &mcp.CallToolResult{Content: []mcp.Content{
				mcp.NewTextContent("Sunny in " + city),
				mcp.NewImageContent("AQI=", "image/png"),
				mcp.NewTextContent("21°" + req.GetString("unit", "C")),
			}}, nil
		})
	s.AddTool(mcp.NewTool("book_table", mcp.WithDescription("book a table"),
		mcp.WithString("restaurant", mcp.Required()), mcp.WithNumber("people", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			restaurant := req.GetString("restaurant", "")
			people := req.GetInt("people", 0)
			if people > 8 {
				return mcp.NewToolResultError(fmt.Sprintf("no table for %d people at %s", people, restaurant)), nil
			}
			return mcp.NewToolResultText("booked " + restaurant), nil
		})
	return s
}

// connect starts an in-process client of s and returns it recorded.
func connect(t *testing.T, s *server.MCPServer) *mcpgo.Recorder {
	t.Helper()
	ctx := context.Background()
	c, err := client.NewInProcessClient(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "agent", Version: "v1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	return mcpgo.Record(c)
}

func request(name string, args any) mcp.CallToolRequest {
	var r mcp.CallToolRequest
	r.Params.Name = name
	r.Params.Arguments = args
	return r
}

func TestRecorder(t *testing.T) {
	// The agent holds the Recorder as its client.MCPClient.
	var c client.MCPClient = connect(t, newServer(nil, nil))
	ctx := context.Background()
	if _, err := c.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
		t.Fatal(err)
	}
	args0 := map[string]any{"city": "Paris", "unit": "C"}
	calls := []mcp.CallToolRequest{
		request("get_weather", args0),
		request("book_table", json.RawMessage(`{"restaurant": "Chez Léon", "people": 12}`)),
		request("book_table", struct {
			Restaurant string `json:"restaurant"`
			People     int    `json:"people"`
		}{"Chez Léon", 2}),
		request("no_such_tool", map[string]any{}),
		request("get_weather", map[string]any{"city": "Lyon"}),
	}
	var unknownErr error
	for i, r := range calls {
		_, err := c.CallTool(ctx, r)
		if i == 3 {
			unknownErr = err
		} else if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if unknownErr == nil {
		t.Fatal("calling an unknown tool did not fail")
	}
	// The arguments are kept as sent, not as the caller's map is later.
	args0["city"] = "Rome"

	got, err := c.(*mcpgo.Recorder).Conversation()
	if err != nil {
		t.Fatal(err)
	}
	if err := got.Validate(); err != nil {
		t.Fatal(err)
	}
	call := func(id, name, args string) agentcheck.Message {
		return agentcheck.Message{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{{
			ID: id, Name: name, Args: jsonvalue.MustParse(args), Kind: agentcheck.MCPTool,
		}}}
	}
	result := func(id, content string, isError bool) agentcheck.Message {
		return agentcheck.Message{Role: agentcheck.Tool, ToolCallID: id, Content: content, IsError: isError}
	}
	want := agentcheck.Conversation{
		call("mcp_call_0", "get_weather", `{"city": "Paris", "unit": "C"}`),
		result("mcp_call_0", "Sunny in Paris\n21°C", false),
		call("mcp_call_1", "book_table", `{"restaurant": "Chez Léon", "people": 12}`),
		result("mcp_call_1", "no table for 12 people at Chez Léon", true),
		call("mcp_call_2", "book_table", `{"restaurant": "Chez Léon", "people": 2}`),
		result("mcp_call_2", "booked Chez Léon", false),
		call("mcp_call_3", "no_such_tool", `{}`),
		result("mcp_call_3", unknownErr.Error(), true),
		call("mcp_call_4", "get_weather", `{"city": "Lyon"}`),
		result("mcp_call_4", "Sunny in Lyon\n21°C", false),
	}
	if diff := cmp.Diff(want, got, sameValue); diff != "" {
		t.Errorf("conversation (-want +got):\n%s", diff)
	}
	if n := len(c.(*mcpgo.Recorder).Calls()); n != 5 {
		t.Errorf("recorded %d calls, want 5", n)
	}
}

// A call that starts first is recorded first, though it ends last; calls
// made at once are each paired with their own result.
func TestRecorderConcurrent(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	rec := connect(t, newServer(started, release))
	ctx := context.Background()

	slow := make(chan error)
	go func() {
		_, err := rec.CallTool(ctx, request("get_weather", map[string]any{"city": "wait"}))
		slow <- err
	}()
	<-started
	// The slow call is running and has no result yet.
	if conv, err := rec.Conversation(); err != nil || len(conv) != 1 || conv[0].ToolCalls[0].Args.String() != `{"city":"wait"}` {
		t.Fatalf("while the call runs: %v, %v", conv, err)
	}
	const n = 20
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			city := "c" + strconv.Itoa(i)
			if _, err := rec.CallTool(ctx, request("get_weather", map[string]any{"city": city})); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	close(release)
	if err := <-slow; err != nil {
		t.Fatal(err)
	}

	conv, err := rec.Conversation()
	if err != nil {
		t.Fatal(err)
	}
	if err := conv.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(conv) != 2*(n+1) {
		t.Fatalf("%d messages, want %d", len(conv), 2*(n+1))
	}
	seen := map[string]bool{}
	for i := 0; i < len(conv); i += 2 {
		tc := conv[i].ToolCalls[0]
		if want := "mcp_call_" + strconv.Itoa(i/2); tc.ID != want || conv[i+1].ToolCallID != want {
			t.Errorf("message %d: IDs %q, %q, want %q", i, tc.ID, conv[i+1].ToolCallID, want)
		}
		city, _ := tc.Args.Get("city")
		if i == 0 && city.Text() != "wait" {
			t.Errorf("first call is for %s, want the slow call", city.Text())
		}
		seen[city.Text()] = true
		if want := "Sunny in " + city.Text() + "\n21°C"; conv[i+1].Content != want {
			t.Errorf("message %d: %q, want %q", i+1, conv[i+1].Content, want)
		}
	}
	if len(seen) != n+1 {
		t.Errorf("%d different calls, want %d", len(seen), n+1)
	}
}

func TestCalls(t *testing.T) {
	// A result read from the wire keeps its structured content's JSON.
	var wire mcp.CallToolResult
	if err := json.Unmarshal([]byte(`{"content": [], "structuredContent": {"b": 1, "a": 2.0}}`), &wire); err != nil {
		t.Fatal(err)
	}
	raw := request("stats", map[string]any{"ignored": true})
	raw.Params.RawArguments = json.RawMessage(`{"z": 1, "a": 1.5}`)
	calls := mcpgo.Calls{
		{Request: request("stats", nil), Result: &wire},
		{ID: "mine", Request: raw, Result: &mcp.CallToolResult{
			Content:           []mcp.Content{mcp.NewAudioContent("AQI=", "audio/wav")},
			StructuredContent: map[string]any{"n": 1}, IsError: true,
		}},
		{Request: request("stats", json.RawMessage(`null`)), Err: errors.New("connection closed")},
		{Request: request("stats", struct{}{})},
		{Request: request("stats", nil), Result: &mcp.CallToolResult{
			Content: []mcp.Content{&mcp.TextContent{Text: "a"}, mcp.TextContent{Text: "b"}}, StructuredContent: 1,
		}},
	}
	got, err := calls.Conversation()
	if err != nil {
		t.Fatal(err)
	}
	want := agentcheck.Conversation{
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{{ID: "mcp_call_0", Name: "stats", Kind: agentcheck.MCPTool}}},
		{Role: agentcheck.Tool, ToolCallID: "mcp_call_0", Content: `{"b":1,"a":2.0}`},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{{ID: "mine", Name: "stats", Args: jsonvalue.MustParse(`{"z":1,"a":1.5}`), Kind: agentcheck.MCPTool}}},
		{Role: agentcheck.Tool, ToolCallID: "mine", Content: `{"n":1}`, IsError: true},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{{ID: "mcp_call_2", Name: "stats", Kind: agentcheck.MCPTool}}},
		{Role: agentcheck.Tool, ToolCallID: "mcp_call_2", Content: "connection closed", IsError: true},
		// A call without a result or error is still running.
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{{ID: "mcp_call_3", Name: "stats", Args: jsonvalue.MustParse(`{}`), Kind: agentcheck.MCPTool}}},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{{ID: "mcp_call_4", Name: "stats", Kind: agentcheck.MCPTool}}},
		{Role: agentcheck.Tool, ToolCallID: "mcp_call_4", Content: "a\nb"},
	}
	if diff := cmp.Diff(want, got, sameValue); diff != "" {
		t.Errorf("conversation (-want +got):\n%s", diff)
	}
}

func TestCallsErrors(t *testing.T) {
	ok := mcpgo.Call{Request: request("f", map[string]any{"x": 1}), Result: &mcp.CallToolResult{}}
	tests := []struct {
		bad mcpgo.Call
		err string
	}{
		// Arguments that are not an object, or not valid JSON, are no
		// error: see TestCallsKeepArguments.
		{mcpgo.Call{Request: request("f", map[string]any{"c": make(chan int)})},
			`message 2 (ai), tool call 0 "f": arguments (map[string]interface {}) cannot be written as JSON: json: unsupported type: chan int`},
		{mcpgo.Call{Request: request("", map[string]any{})},
			`message 2 (ai), tool call 0: tool call has no name`},
		{mcpgo.Call{ID: "c9", Request: request("f", nil), Result: &mcp.CallToolResult{StructuredContent: json.RawMessage(`{`)}},
			`message 3 (tool): result of tool call "c9": structured content "{" is not valid JSON: line 1, column 2: unexpected end of input, want an object key`},
	}
	for _, tt := range tests {
		_, err := mcpgo.Calls{ok, tt.bad, ok}.Conversation()
		if err == nil || err.Error() != tt.err {
			t.Errorf("Conversation:\n got %v\nwant %s", err, tt.err)
		}
		var me *agentcheck.MessageError
		if !errors.As(err, &me) {
			t.Errorf("%v is not a *agentcheck.MessageError", err)
		}
	}
}

// Arguments that are not an object are recorded as sent, and kept in the
// conversation, with the server's refusal as the result.
func TestRecorderArgumentsNotAnObject(t *testing.T) {
	rec := connect(t, newServer(nil, nil))
	ctx := context.Background()
	if _, err := rec.CallTool(ctx, request("get_weather", map[string]any{"city": "Oslo"})); err != nil {
		t.Fatal(err)
	}
	res, err := rec.CallTool(ctx, request("get_weather", []string{"Oslo"}))
	if err == nil && !res.IsError {
		t.Fatal("the server took arguments that are not an object")
	}
	conv, err := rec.Conversation()
	if err != nil {
		t.Fatalf("Expected the conversation, but got %v", err)
	}
	if len(conv) != 4 || len(conv[2].ToolCalls) != 1 || conv[2].ToolCalls[0].Args.String() != `["Oslo"]` || conv[2].ToolCalls[0].InvalidArgs != "" || !conv[3].IsError {
		t.Errorf("Expected the call with arguments [\"Oslo\"] and its refusal, but got:\n%v", conv)
	}
}

// The conversation of a run scores as the same conversation written by
// hand.
func TestMetricsAsHandWritten(t *testing.T) {
	rec := connect(t, newServer(nil, nil))
	ctx := context.Background()
	for _, r := range []mcp.CallToolRequest{
		request("get_weather", map[string]any{"city": "Paris"}),
		request("book_table", map[string]any{"restaurant": "Chez Léon", "people": 2}),
		request("book_table", map[string]any{"restaurant": "Bistro", "people": 20}),
	} {
		if _, err := rec.CallTool(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	got, err := rec.Conversation()
	if err != nil {
		t.Fatal(err)
	}
	hand := agentcheck.Conversation{
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{agentcheck.MustParseToolCall("get_weather", `{"city": "Paris"}`)}},
		{Role: agentcheck.Tool, Content: "Sunny in Paris\n21°C"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{agentcheck.MustParseToolCall("book_table", `{"people": 2, "restaurant": "Chez Léon"}`)}},
		{Role: agentcheck.Tool, Content: "booked Chez Léon"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{agentcheck.MustParseToolCall("book_table", `{"people": 20, "restaurant": "Bistro"}`)}},
		{Role: agentcheck.Tool, Content: "no table for 20 people at Bistro", IsError: true},
	}
	ref := []agentcheck.ToolCall{
		agentcheck.MustParseToolCall("get_weather", `{"city": "Paris"}`),
		agentcheck.MustParseToolCall("book_table", `{"restaurant": "Chez Léon", "people": 4}`),
		agentcheck.MustParseToolCall("book_table", `{"restaurant": "Bistro", "people": 20}`),
	}
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

// sameValue compares Values as identical: the same JSON text, key order
// and number kinds included.
var sameValue = cmp.Comparer(func(a, b jsonvalue.Value) bool { return a.Kind() == b.Kind() && a.String() == b.String() })
