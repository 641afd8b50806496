package openaigo_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"go.uber.org/goleak"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/openaigo"
	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/agentcheck/agentcheck/scenario"
)

func checkGoroutines(t *testing.T) {
	opt := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, opt) })
}

// restaurantTools is a box of two mocked tools: search answers from a
// fixed list, book records what it was asked to book.
func restaurantTools(t testing.TB, booked *atomic.Int32) *scenario.Toolbox {
	t.Helper()
	box, err := scenario.NewToolbox(
		scenario.Tool{
			Name: "search_restaurants", Description: "Finds restaurants in a city.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"cuisine":{"type":"string"}},"required":["city"],"additionalProperties":false}`),
			Func: func(_ context.Context, args json.RawMessage) (string, error) {
				var a struct{ City string }
				if err := json.Unmarshal(args, &a); err != nil {
					return "", err
				}
				if a.City != "Paris" {
					return "", fmt.Errorf("no restaurants known in %s", a.City)
				}
				return `[{"id":"r_17","name":"Golden Dragon"}]`, nil
			},
		},
		scenario.Tool{
			Name: "book_table", Description: "Books a table.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"restaurant_id":{"type":"string"},"party_size":{"type":"integer","minimum":1},"time":{"type":"string"}},"required":["restaurant_id","party_size","time"]}`),
			Func: func(_ context.Context, args json.RawMessage) (string, error) {
				booked.Add(1)
				return `{"confirmation":"GD-88"}`, nil
			},
		},
	)
	if err != nil {
		t.Fatal(err)
	}
	return box
}

func agentClient(url string, opts ...option.RequestOption) *openai.Client {
	c := openai.NewClient(append([]option.RequestOption{option.WithBaseURL(url), option.WithAPIKey("sk-test")}, opts...)...)
	return &c
}

var sameText = cmp.Comparer(func(a, b jsonvalue.Value) bool { return a.String() == b.String() })

func TestAgentRunsAnOpenAIGoChatLoop(t *testing.T) {
	checkGoroutines(t)
	s := judgetest.Start(t, judgetest.Turns(
		[]judgetest.Reply{judgetest.Content("Which city?").WithUsage(10, 2)},
		[]judgetest.Reply{
			judgetest.ToolCalls(judgetest.Call("search_restaurants", `{"city": "Paris"}`), judgetest.Call("search_restaurants", `{"city": "Lyon"}`)).WithUsage(30, 8),
			judgetest.ToolCalls(judgetest.Call("book_table", `{"restaurant_id": "r_17", "party_size": 4, "time": "20:00"}`)).WithUsage(60, 9),
			judgetest.Content("Booked: GD-88.").WithUsage(80, 4),
		},
	))
	var booked atomic.Int32
	agent := openaigo.Agent(agentClient(s.URL, option.WithMaxRetries(0)), "agent-model",
		openaigo.WithSystemPrompt("You book restaurants."), openaigo.WithTools(restaurantTools(t, &booked)),
		openaigo.WithTemperature(0), openaigo.WithSeed(42))
	ctx := context.Background()
	conv := agentcheck.Conversation{{Role: agentcheck.Human, Content: "A table, please."}}
	first, err := agent.Respond(ctx, conv)
	if err != nil {
		t.Fatal(err)
	}
	conv = append(conv, first.Messages...)
	conv = append(conv, agentcheck.Message{Role: agentcheck.Human, Content: "Paris or Lyon, 4 people, 8pm."})
	second, err := agent.Respond(ctx, conv)
	if err != nil {
		t.Fatal(err)
	}
	call := func(id, name, args string) agentcheck.ToolCall {
		tc := agentcheck.MustParseToolCall(name, args)
		tc.ID = id
		return tc
	}
	want := []agentcheck.Message{
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{call("call_4_1", "search_restaurants", `{"city": "Paris"}`), call("call_4_2", "search_restaurants", `{"city": "Lyon"}`)}},
		{Role: agentcheck.Tool, ToolCallID: "call_4_1", Content: `[{"id":"r_17","name":"Golden Dragon"}]`},
		{Role: agentcheck.Tool, ToolCallID: "call_4_2", Content: "error: no restaurants known in Lyon", IsError: true},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{call("call_7_1", "book_table", `{"restaurant_id": "r_17", "party_size": 4, "time": "20:00"}`)}},
		{Role: agentcheck.Tool, ToolCallID: "call_7_1", Content: `{"confirmation":"GD-88"}`},
		{Role: agentcheck.AI, Content: "Booked: GD-88."},
	}
	if diff := cmp.Diff(want, second.Messages, sameText); diff != "" {
		t.Errorf("turn 2 (-want +got):\n%s", diff)
	}
	if first.Usage != (judgment.Usage{PromptTokens: 10, CompletionTokens: 2}) || second.Usage != (judgment.Usage{PromptTokens: 170, CompletionTokens: 21}) {
		t.Errorf("usage %+v then %+v", first.Usage, second.Usage)
	}
	if booked.Load() != 1 {
		t.Errorf("booked %d times", booked.Load())
	}

	reqs := s.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	last := reqs[3]
	var body struct {
		Messages []json.RawMessage `json:"messages"`
		Tools    []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(last.Body, &body); err != nil {
		t.Fatal(err)
	}
	wantMsgs := []string{
		`{"role":"system","content":"You book restaurants."}`,
		`{"role":"user","content":"A table, please."}`,
		`{"role":"assistant","content":"Which city?"}`,
		`{"role":"user","content":"Paris or Lyon, 4 people, 8pm."}`,
		`{"role":"assistant","tool_calls":[{"id":"call_4_1","type":"function","function":{"name":"search_restaurants","arguments":"{\"city\": \"Paris\"}"}},{"id":"call_4_2","type":"function","function":{"name":"search_restaurants","arguments":"{\"city\": \"Lyon\"}"}}]}`,
		`{"role":"tool","content":"[{\"id\":\"r_17\",\"name\":\"Golden Dragon\"}]","tool_call_id":"call_4_1"}`,
		`{"role":"tool","content":"error: no restaurants known in Lyon","tool_call_id":"call_4_2"}`,
		`{"role":"assistant","tool_calls":[{"id":"call_7_1","type":"function","function":{"name":"book_table","arguments":"{\"restaurant_id\": \"r_17\", \"party_size\": 4, \"time\": \"20:00\"}"}}]}`,
		`{"role":"tool","content":"{\"confirmation\":\"GD-88\"}","tool_call_id":"call_7_1"}`,
	}
	if len(body.Messages) != len(wantMsgs) {
		t.Fatalf("%d messages sent, want %d", len(body.Messages), len(wantMsgs))
	}
	for i, w := range wantMsgs {
		got, want := jsonvalue.MustParse(string(body.Messages[i])), jsonvalue.MustParse(w)
		if !jsonvalue.Equal(got, want) {
			t.Errorf("message %d sent:\n got %s\nwant %s", i, got, want)
		}
	}
	wantTool := jsonvalue.MustParse(`{"type":"function","function":{"name":"book_table","description":"Books a table.",
		"parameters":{"type":"object","properties":{"restaurant_id":{"type":"string"},"party_size":{"type":"integer","minimum":1},"time":{"type":"string"}},"required":["restaurant_id","party_size","time"]}}}`)
	if len(body.Tools) != 2 || !jsonvalue.Equal(jsonvalue.MustParse(string(body.Tools[1])), wantTool) {
		t.Errorf("tools declared: %s", body.Tools)
	}
	temp, _ := last.Field("temperature")
	seed, _ := last.Field("seed")
	if string(temp) != "0" || string(seed) != "42" {
		t.Errorf("temperature %s, seed %s: want 0 and 42", temp, seed)
	}
}

func TestAgentLeavesUnsetFieldsOutAndBoundsTheTurn(t *testing.T) {
	checkGoroutines(t)
	s := judgetest.Start(t, judgetest.Always(judgetest.ToolCalls(judgetest.Call("search_restaurants", `{"city": "Paris"}`)).WithUsage(5, 1)))
	var booked atomic.Int32
	agent := openaigo.Agent(agentClient(s.URL, option.WithMaxRetries(0)), "m", openaigo.WithTools(restaurantTools(t, &booked)), openaigo.WithMaxRequests(2))
	reply, err := agent.Respond(context.Background(), agentcheck.Conversation{{Role: agentcheck.Human, Content: "Paris"}})
	want := "openaigo agent: the model called tools in each of its 2 requests of this turn and never answered in text; WithMaxRequests(2) bounds a turn"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
	if s.Count() != 2 || len(reply.Messages) != 4 || reply.Usage.Total() != 12 {
		t.Errorf("%d requests, %d messages, %d tokens: want 2, 4, 12", s.Count(), len(reply.Messages), reply.Usage.Total())
	}
	for _, field := range []string{"temperature", "seed"} {
		if v, ok := s.Requests()[0].Field(field); ok {
			t.Errorf("%s sent (%s) though not asked for", field, v)
		}
	}
}

func TestAgentErrors(t *testing.T) {
	checkGoroutines(t)
	s := judgetest.Start(t, judgetest.Sequence(judgetest.Status(400), judgetest.NoChoices()))
	human := agentcheck.Conversation{{Role: agentcheck.Human, Content: "hi"}}
	for _, c := range []struct {
		agent scenario.Agent
		conv  agentcheck.Conversation
		want  string
	}{
		{openaigo.Agent(nil, "m"), human, "openaigo agent: no client"},
		{openaigo.Agent(agentClient(s.URL), ""), human, "openaigo agent: no model"},
		{openaigo.Agent(agentClient(s.URL), "m"), human, "openaigo agent: model request 1 of the turn: OpenAI API error: 400 Bad Request"},
		{openaigo.Agent(agentClient(s.URL), "m"), human, "openaigo agent: model request 1 of the turn: the response has no choices"},
		{openaigo.Agent(agentClient(s.URL), "m"), agentcheck.Conversation{{Role: agentcheck.Human}, {Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{{ID: "c", Name: "f"}}}, {Role: agentcheck.Tool}},
			"openaigo agent: the conversation: message 2 (tool): a tool result needs the ID of the call it answers"},
	} {
		if _, err := c.agent.Respond(context.Background(), c.conv); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("err = %v, want %q", err, c.want)
		}
	}
}

// openai-go retries a transport error twice by default. A replay miss is
// not retried, whichever way the recorder is given: through rec.Client()
// (a final 404) or as the bare RoundTripper, whose miss is an error that the
// agent stops on at once. Other transport errors keep the client's retries.
func TestAgentDoesNotRetryAReplayMiss(t *testing.T) {
	checkGoroutines(t)
	rec, err := recorder.Open(filepath.Join(t.TempDir(), "empty.yaml"), recorder.WithMode(recorder.RecordNone), recorder.WithEnv(func(string) string { return "" }))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	human := agentcheck.Conversation{{Role: agentcheck.Human, Content: "hi"}}
	for name, transport := range map[string]http.RoundTripper{"Client": rec.Client().Transport, "the recorder itself": rec} {
		sent := &attempts{next: transport}
		agent := openaigo.Agent(agentClient("http://127.0.0.1:1/v1", option.WithHTTPClient(&http.Client{Transport: sent})), "m")
		_, err = agent.Respond(context.Background(), human)
		var miss *recorder.ReplayMissError
		if !errors.As(err, &miss) || !strings.HasPrefix(err.Error(), "openaigo agent: model request 1 of the turn: ") {
			t.Errorf("%s: err = %v, want the recorder's miss", name, err)
		}
		if n := sent.n.Load(); n != 1 {
			t.Errorf("%s: the miss was sent %d times, want once", name, n)
		}
	}

	sent := &attempts{next: http.DefaultTransport}
	agent := openaigo.Agent(agentClient("http://127.0.0.1:1/v1", option.WithHTTPClient(&http.Client{Transport: sent}), option.WithMaxRetries(1)), "m",
		openaigo.WithRequestOptions(option.WithRequestTimeout(0)))
	var miss *recorder.ReplayMissError
	if _, err = agent.Respond(context.Background(), human); err == nil || errors.As(err, &miss) {
		t.Errorf("err = %v, want a connection error", err)
	}
	if n := sent.n.Load(); n != 2 {
		t.Errorf("a refused connection was sent %d times, want 2 (one retry)", n)
	}
}
