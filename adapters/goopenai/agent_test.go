package goopenai_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	openai "github.com/sashabaranov/go-openai"
	"go.uber.org/goleak"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/goopenai"
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

// tools is a box of two mocked tools: search answers from a map, book
// records what it was asked.
func tools(t *testing.T, booked *[]string) *scenario.Toolbox {
	t.Helper()
	box, err := scenario.NewToolbox(
		scenario.Tool{
			Name: "search", Description: "Finds restaurants in a city.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}`),
			Func: func(_ context.Context, args json.RawMessage) (string, error) {
				var a struct{ City string }
				if err := json.Unmarshal(args, &a); err != nil {
					return "", err
				}
				if a.City != "Paris" {
					return "", fmt.Errorf("no restaurants in %s", a.City)
				}
				return `[{"id": "r_17", "name": "Le Jules Verne"}]`, nil
			},
		},
		scenario.Tool{
			Name: "book", Description: "Books a table.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"},"people":{"type":"integer"}},"required":["id","people"]}`),
			Func: func(_ context.Context, args json.RawMessage) (string, error) {
				*booked = append(*booked, string(args))
				return "booked GD-88", nil
			},
		},
	)
	if err != nil {
		t.Fatal(err)
	}
	return box
}

func client(url string, hc *openai.HTTPDoer) *openai.Client {
	cfg := openai.DefaultConfig("sk-test")
	cfg.BaseURL = url
	if hc != nil {
		cfg.HTTPClient = *hc
	}
	return openai.NewClientWithConfig(cfg)
}

func TestAgentRunsAChatLoopWithTools(t *testing.T) {
	checkGoroutines(t)
	s := judgetest.Start(t, judgetest.Turns(
		[]judgetest.Reply{judgetest.Content("Which city?").WithUsage(10, 2)},
		[]judgetest.Reply{
			judgetest.ToolCalls(judgetest.Call("search", `{"city": "Paris"}`), judgetest.Call("search", `{"city": "Lyon"}`)).WithUsage(30, 8),
			judgetest.ToolCalls(judgetest.Call("book", `{"id": "r_17", "people": "four"}`), judgetest.Call("cancel", `{}`)).WithUsage(60, 9),
			judgetest.ToolCalls(judgetest.Call("book", `{"id": "r_17", "people": 4}`)).WithUsage(80, 5),
			judgetest.Content("Booked Le Jules Verne for 4: GD-88.").WithUsage(95, 11),
		},
	))
	var booked []string
	agent := goopenai.Agent(client(s.URL, nil), "agent-model",
		goopenai.WithSystemPrompt("You book restaurants."), goopenai.WithTools(tools(t, &booked)))

	ctx := context.Background()
	conv := agentcheck.Conversation{{Role: agentcheck.Human, Content: "A table, please."}}
	first, err := agent.Respond(ctx, conv)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(scenario.Reply{Messages: []agentcheck.Message{{Role: agentcheck.AI, Content: "Which city?"}}, Usage: judgment.Usage{PromptTokens: 10, CompletionTokens: 2}}, first); diff != "" {
		t.Errorf("turn 1 (-want +got):\n%s", diff)
	}
	conv = append(conv, first.Messages...)
	conv = append(conv, agentcheck.Message{Role: agentcheck.Human, Content: "Paris or Lyon, for 4."})
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
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{call("call_4_1", "search", `{"city": "Paris"}`), call("call_4_2", "search", `{"city": "Lyon"}`)}},
		{Role: agentcheck.Tool, ToolCallID: "call_4_1", Content: `[{"id": "r_17", "name": "Le Jules Verne"}]`},
		{Role: agentcheck.Tool, ToolCallID: "call_4_2", Content: "error: no restaurants in Lyon", IsError: true},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{call("call_7_1", "book", `{"id": "r_17", "people": "four"}`), call("call_7_2", "cancel", `{}`)}},
		{Role: agentcheck.Tool, ToolCallID: "call_7_1", Content: "error: the arguments do not fit the tool's schema: /people: got string, want integer", IsError: true},
		{Role: agentcheck.Tool, ToolCallID: "call_7_2", Content: `error: there is no tool named "cancel"`, IsError: true},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{call("call_10_1", "book", `{"id": "r_17", "people": 4}`)}},
		{Role: agentcheck.Tool, ToolCallID: "call_10_1", Content: "booked GD-88"},
		{Role: agentcheck.AI, Content: "Booked Le Jules Verne for 4: GD-88."},
	}
	if diff := cmp.Diff(want, second.Messages, cmp.Comparer(func(a, b jsonvalue.Value) bool { return a.String() == b.String() })); diff != "" {
		t.Errorf("turn 2 (-want +got):\n%s", diff)
	}
	if u := second.Usage; u != (judgment.Usage{PromptTokens: 30 + 60 + 80 + 95, CompletionTokens: 8 + 9 + 5 + 11}) {
		t.Errorf("usage %+v, want the four responses' summed", u)
	}
	if len(booked) != 1 || booked[0] != `{"id":"r_17","people":4}` {
		t.Errorf("book ran with %q, want once, with the arguments that fit", booked)
	}

	// What the model was sent: the system prompt, the conversation in the
	// Chat Completions shape, the tools declared, nothing set that the
	// agent was not given.
	reqs := s.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests, want 5", len(reqs))
	}
	last := reqs[4]
	var body struct {
		Model    string            `json:"model"`
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
		`{"role":"user","content":"Paris or Lyon, for 4."}`,
		`{"role":"assistant","tool_calls":[{"id":"call_4_1","type":"function","function":{"name":"search","arguments":"{\"city\": \"Paris\"}"}},{"id":"call_4_2","type":"function","function":{"name":"search","arguments":"{\"city\": \"Lyon\"}"}}]}`,
		`{"role":"tool","content":"[{\"id\": \"r_17\", \"name\": \"Le Jules Verne\"}]","tool_call_id":"call_4_1"}`,
		`{"role":"tool","content":"error: no restaurants in Lyon","tool_call_id":"call_4_2"}`,
	}
	for i, w := range wantMsgs {
		if got := string(body.Messages[i]); got != w {
			t.Errorf("message %d sent:\n got %s\nwant %s", i, got, w)
		}
	}
	if len(body.Messages) != 12 || body.Model != "agent-model" || len(body.Tools) != 2 {
		t.Errorf("%d messages, model %q, %d tools", len(body.Messages), body.Model, len(body.Tools))
	}
	wantTool := jsonvalue.MustParse(`{"type":"function","function":{"name":"search","description":"Finds restaurants in a city.",
		"parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}}}`)
	if got := jsonvalue.MustParse(string(body.Tools[0])); !jsonvalue.Equal(got, wantTool) {
		t.Errorf("tool declared as %s", got)
	}
	for _, field := range []string{"temperature", "seed", "response_format"} {
		if v, ok := last.Field(field); ok {
			t.Errorf("%s sent (%s) though not asked for", field, v)
		}
	}
}

func TestAgentSendsTemperatureAndSeedWhenSet(t *testing.T) {
	checkGoroutines(t)
	s := judgetest.Start(t, judgetest.Always(judgetest.Content("hello")))
	for _, c := range []struct {
		temperature float32
		want        string
	}{{0, "1e-45"}, {0.7, "0.7"}} {
		agent := goopenai.Agent(client(s.URL, nil), "m", goopenai.WithTemperature(c.temperature), goopenai.WithSeed(7))
		if _, err := agent.Respond(context.Background(), agentcheck.Conversation{{Role: agentcheck.Human, Content: "hi"}}); err != nil {
			t.Fatal(err)
		}
		r := s.Requests()[s.Count()-1]
		temp, _ := r.Field("temperature")
		seed, _ := r.Field("seed")
		if string(temp) != c.want || string(seed) != "7" {
			t.Errorf("temperature %s seed %s, want %s and 7", temp, seed, c.want)
		}
		if _, ok := r.Field("tools"); ok {
			t.Error("tools declared without a toolbox")
		}
	}
}

func TestAgentBoundsTheRequestsOfATurn(t *testing.T) {
	checkGoroutines(t)
	s := judgetest.Start(t, judgetest.Always(judgetest.ToolCalls(judgetest.Call("search", `{"city": "Paris"}`)).WithUsage(5, 1)))
	var booked []string
	agent := goopenai.Agent(client(s.URL, nil), "m", goopenai.WithTools(tools(t, &booked)), goopenai.WithMaxRequests(3))
	reply, err := agent.Respond(context.Background(), agentcheck.Conversation{{Role: agentcheck.Human, Content: "Paris"}})
	want := "goopenai agent: the model called tools in each of its 3 requests of this turn and never answered in text; WithMaxRequests(3) bounds a turn"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
	if s.Count() != 3 || len(reply.Messages) != 6 || reply.Usage.Total() != 18 {
		t.Errorf("%d requests, %d messages, %d tokens: want 3, the turn so far (6) and its usage (18)", s.Count(), len(reply.Messages), reply.Usage.Total())
	}
}

func TestAgentErrors(t *testing.T) {
	checkGoroutines(t)
	ctx := context.Background()
	human := agentcheck.Conversation{{Role: agentcheck.Human, Content: "hi"}}
	s := judgetest.Start(t, judgetest.Sequence(judgetest.Status(500), judgetest.NoChoices()))
	for _, c := range []struct {
		agent scenario.Agent
		conv  agentcheck.Conversation
		want  string
	}{
		{goopenai.Agent(nil, "m"), human, "goopenai agent: no client"},
		{goopenai.Agent(client(s.URL, nil), ""), human, "goopenai agent: no model"},
		{goopenai.Agent(client(s.URL, nil), "m"), human, "goopenai agent: model request 1 of the turn: error, status code: 500"},
		{goopenai.Agent(client(s.URL, nil), "m"), human, "goopenai agent: model request 1 of the turn: the response has no choices"},
		{goopenai.Agent(client(s.URL, nil), "m"), agentcheck.Conversation{{Role: agentcheck.Human}, {Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{{Name: "search"}}}},
			`goopenai agent: the conversation: message 1 (ai), tool call 0 "search": the call has no ID`},
	} {
		if _, err := c.agent.Respond(ctx, c.conv); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("err = %v, want %q", err, c.want)
		}
	}
}

// The agent's requests go through the recorder's client: recorded against
// the server, replayed with it closed, the same reply; a request the
// cassette lacks fails with the recorder's miss, at once.
func TestAgentRecordsAndReplaysThroughTheRecorder(t *testing.T) {
	checkGoroutines(t)
	path := filepath.Join(t.TempDir(), "agent.yaml")
	env := func(string) string { return "" }
	run := func(mode recorder.Mode, url string, question string) (scenario.Reply, error) {
		rec, err := recorder.Open(path, recorder.WithMode(mode), recorder.WithEnv(env))
		if err != nil {
			t.Fatal(err)
		}
		defer rec.Close()
		var booked []string
		var hc openai.HTTPDoer = rec.Client()
		agent := goopenai.Agent(client(url, &hc), "m", goopenai.WithTools(tools(t, &booked)), goopenai.WithSeed(1))
		return agent.Respond(context.Background(), agentcheck.Conversation{{Role: agentcheck.Human, Content: question}})
	}
	s := judgetest.NewServer(judgetest.Turns([]judgetest.Reply{
		judgetest.ToolCalls(judgetest.Call("search", `{"city": "Paris"}`)),
		judgetest.Content("Le Jules Verne."),
	}))
	recorded, err := run(recorder.RecordAll, s.URL, "Paris?")
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	replayed, err := run(recorder.RecordNone, s.URL, "Paris?")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(recorded, replayed, cmp.Comparer(func(a, b jsonvalue.Value) bool { return a.String() == b.String() })); diff != "" || len(replayed.Messages) != 3 {
		t.Errorf("replayed (-recorded +replayed):\n%s", diff)
	}
	_, err = run(recorder.RecordNone, s.URL, "Lyon?")
	var miss *recorder.ReplayMissError
	if !errors.As(err, &miss) || !strings.HasPrefix(err.Error(), "goopenai agent: model request 1 of the turn: ") {
		t.Errorf("err = %v, want the recorder's miss", err)
	}
}
