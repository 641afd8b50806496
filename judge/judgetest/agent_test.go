package judgetest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	openai "github.com/sashabaranov/go-openai"

	"github.com/agentcheck/agentcheck/judge/judgetest"
)

func client(s *judgetest.Server) *openai.Client {
	cfg := openai.DefaultConfig("sk-test")
	cfg.BaseURL = s.URL
	return openai.NewClientWithConfig(cfg)
}

var searchTool = openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
	Name:       "search",
	Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`),
}}

func agentRequest(msgs ...openai.ChatCompletionMessage) openai.ChatCompletionRequest {
	return openai.ChatCompletionRequest{Model: "agent-model", Messages: msgs, Tools: []openai.Tool{searchTool}}
}

func user(s string) openai.ChatCompletionMessage {
	return openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: s}
}

func TestToolCallRepliesThroughGoOpenAI(t *testing.T) {
	checkGoroutines(t)
	s := judgetest.Start(t, judgetest.Sequence(
		judgetest.ToolCalls(
			judgetest.Call("search", `{"city": "Paris"}`),
			judgetest.Call("search", map[string]any{"city": "Rome"}).WithID("call_rome"),
		).WithUsage(120, 30),
		judgetest.ToolCalls(judgetest.Call("search", `{"city": "Par`)),
		judgetest.Reply{Content: "Looking.", ToolCalls: []judgetest.ToolCall{judgetest.Call("search", nil)}},
		judgetest.Content("Found 3 restaurants."),
	))
	c := client(s)
	ctx := context.Background()
	msgs := []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleSystem, Content: "You find restaurants."}, user("Paris or Rome?")}

	resp, err := c.CreateChatCompletion(ctx, agentRequest(msgs...))
	if err != nil {
		t.Fatal(err)
	}
	got := resp.Choices[0]
	want := []openai.ToolCall{
		{ID: "call_2_1", Type: openai.ToolTypeFunction, Function: openai.FunctionCall{Name: "search", Arguments: `{"city": "Paris"}`}},
		{ID: "call_rome", Type: openai.ToolTypeFunction, Function: openai.FunctionCall{Name: "search", Arguments: `{"city":"Rome"}`}},
	}
	if diff := cmp.Diff(want, got.Message.ToolCalls); diff != "" {
		t.Errorf("tool calls (-want +got):\n%s", diff)
	}
	if got.FinishReason != openai.FinishReasonToolCalls || got.Message.Content != "" || got.Message.Role != "assistant" {
		t.Errorf("finish %q, content %q, role %q", got.FinishReason, got.Message.Content, got.Message.Role)
	}
	if resp.Usage.PromptTokens != 120 || resp.Usage.CompletionTokens != 30 || resp.Usage.TotalTokens != 150 {
		t.Errorf("usage %+v, want 120 + 30", resp.Usage)
	}
	// The wire has content null beside the calls, as the API sends it.
	if body := s.Requests()[0]; !body.FromAgent() || body.SchemaName() != "" {
		t.Errorf("the agent's request: FromAgent %v, schema %q", body.FromAgent(), body.SchemaName())
	}

	// Arguments that are not valid JSON are sent as written; usage is
	// estimated from the texts, the calls included.
	msgs = append(msgs, got.Message,
		openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, ToolCallID: "call_2_1", Content: "3 found"},
		openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, ToolCallID: "call_rome", Content: "none"})
	resp, err = c.CreateChatCompletion(ctx, agentRequest(msgs...))
	if err != nil {
		t.Fatal(err)
	}
	if tc := resp.Choices[0].Message.ToolCalls; len(tc) != 1 || tc[0].Function.Arguments != `{"city": "Par` || tc[0].ID != "call_5_1" {
		t.Errorf("tool calls %+v", tc)
	}
	prompt := len("You find restaurants.") + len("Paris or Rome?") + len("search")*2 + len(`{"city": "Paris"}`) + len(`{"city":"Rome"}`) + len("3 found") + len("none")
	if resp.Usage.PromptTokens != (prompt+3)/4 || resp.Usage.CompletionTokens != (len("search")+len(`{"city": "Par`)+3)/4 {
		t.Errorf("usage %+v, want %d prompt tokens", resp.Usage, (prompt+3)/4)
	}

	// Text beside calls; then text alone ends the turn with "stop".
	resp, err = c.CreateChatCompletion(ctx, agentRequest(msgs...))
	if err != nil {
		t.Fatal(err)
	}
	if m := resp.Choices[0].Message; m.Content != "Looking." || len(m.ToolCalls) != 1 || m.ToolCalls[0].Function.Arguments != "null" || resp.Choices[0].FinishReason != "tool_calls" {
		t.Errorf("text and a call: %+v, finish %q", m, resp.Choices[0].FinishReason)
	}
	resp, err = c.CreateChatCompletion(ctx, agentRequest(msgs...))
	if err != nil {
		t.Fatal(err)
	}
	if m := resp.Choices[0]; m.Message.Content != "Found 3 restaurants." || m.Message.ToolCalls != nil || m.FinishReason != "stop" {
		t.Errorf("text: %+v", m)
	}
}

func TestByRolePlaysAgentUserAndJudge(t *testing.T) {
	checkGoroutines(t)
	s := judgetest.Start(t, judgetest.ByRole(
		judgetest.Always(judgetest.Content("Booked.")),
		map[string]judgetest.Script{
			"scenario_user":    judgetest.Sequence(judgetest.UserSays("For 4, please."), judgetest.UserDone("the table is booked")),
			"scenario_verdict": judgetest.Always(judgetest.Verdicts(judgetest.Met("books a table", "it did"), judgetest.NotMet("confirms the time", "it did not"), judgetest.Inconclusive("is polite", "too short"))),
			"agent_goal_infer": judgetest.Minimal(),
		}))
	c := client(s)
	ctx := context.Background()
	structured := func(name string) openai.ChatCompletionRequest {
		return openai.ChatCompletionRequest{Model: "judge-model", Messages: []openai.ChatCompletionMessage{user("the conversation")},
			ResponseFormat: &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
				JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{Name: name, Strict: true,
					Schema: json.RawMessage(`{"type":"object","properties":{"user_goal":{"type":"string"}},"required":["user_goal"],"additionalProperties":false}`)}}}
	}
	ask := func(req openai.ChatCompletionRequest) string {
		t.Helper()
		resp, err := c.CreateChatCompletion(ctx, req)
		if err != nil {
			return "error: " + err.Error()
		}
		return resp.Choices[0].Message.Content
	}
	noTools := agentRequest(user("A table, please."))
	noTools.Tools = nil
	withToolsAndSchema := structured("scenario_user")
	withToolsAndSchema.Tools = []openai.Tool{searchTool}
	for _, c := range []struct {
		name string
		req  openai.ChatCompletionRequest
		want string
	}{
		{"agent with tools", agentRequest(user("A table, please.")), "Booked."},
		{"agent without tools", noTools, "Booked."},
		{"tools make it the agent's", withToolsAndSchema, "Booked."},
		{"user", structured("scenario_user"), `{"done":false,"message":"For 4, please.","reason":""}`},
		{"user done", structured("scenario_user"), `{"done":true,"message":"","reason":"the table is booked"}`},
		{"judge", structured("scenario_verdict"), `{"criteria":[{"criterion":"books a table","verdict":"met","reason":"it did"},` +
			`{"criterion":"confirms the time","verdict":"not_met","reason":"it did not"},{"criterion":"is polite","verdict":"inconclusive","reason":"too short"}]}`},
		{"other judged metric", structured("agent_goal_infer"), `{"user_goal":""}`},
		{"unknown schema", structured("topic_extract"),
			`error: error, status code: 400, status: 400 Bad Request, message: judgetest: no script for schema "topic_extract" (the script knows "agent_goal_infer", "scenario_user", "scenario_verdict")`},
	} {
		if got := ask(c.req); got != c.want {
			t.Errorf("%s: got %s\nwant %s", c.name, got, c.want)
		}
	}
	if got := judgetest.Verdicts().Content; got != `{"criteria":[]}` {
		t.Errorf("no verdicts: %s", got)
	}

	none := judgetest.Start(t, judgetest.ByRole(nil, nil))
	if _, err := client(none).CreateChatCompletion(ctx, agentRequest(user("hi"))); err == nil || !strings.Contains(err.Error(), "no script for the agent's model requests") {
		t.Errorf("no agent script: %v", err)
	}
}

// conversation builds the messages of an agent run that is at user turn n
// (1-based), step k: the earlier turns each a call and an answer.
func conversation(n, k int) []openai.ChatCompletionMessage {
	msgs := []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleSystem, Content: "sys"}}
	for turn := 1; turn <= n; turn++ {
		msgs = append(msgs, user(fmt.Sprintf("user %d", turn)))
		steps := 2
		if turn == n {
			steps = k
		}
		for step := range steps {
			id := fmt.Sprintf("c%d%d", turn, step)
			msgs = append(msgs,
				openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, ToolCalls: []openai.ToolCall{{ID: id, Type: "function", Function: openai.FunctionCall{Name: "search", Arguments: "{}"}}}},
				openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, ToolCallID: id, Content: "r"})
		}
	}
	return msgs
}

func TestTurnsScriptsByTheConversationNotTheOrder(t *testing.T) {
	checkGoroutines(t)
	turns := [][]judgetest.Reply{
		{judgetest.ToolCalls(judgetest.Call("search", `{"q":1}`)), judgetest.Content("turn 1 answer")},
		{judgetest.Content("turn 2 answer")},
		{judgetest.ToolCalls(judgetest.Call("search", `{"q":3}`)), judgetest.ToolCalls(judgetest.Call("search", `{"q":4}`)), judgetest.Content("turn 3 answer")},
	}
	s := judgetest.Start(t, judgetest.Turns(turns...))
	c := client(s)
	ctx := context.Background()
	// Every (turn, step) the script has, asked backwards and twice: the
	// same reply each time, whatever came before.
	for round := range 2 {
		for n := len(turns); n >= 1; n-- {
			for k := len(turns[n-1]) - 1; k >= 0; k-- {
				req := agentRequest(conversation(n, k)...)
				resp, err := c.CreateChatCompletion(ctx, req)
				if err != nil {
					t.Fatalf("round %d, turn %d, step %d: %v", round, n, k, err)
				}
				want := turns[n-1][k]
				m := resp.Choices[0].Message
				if m.Content != want.Content || len(m.ToolCalls) != len(want.ToolCalls) ||
					(len(m.ToolCalls) == 1 && m.ToolCalls[0].Function.Arguments != want.ToolCalls[0].Arguments) {
					t.Errorf("turn %d, step %d: got %+v, want %+v", n, k, m, want)
				}
			}
		}
	}
	reqs := s.Requests()
	last := reqs[len(reqs)-1]
	if last.UserTurn() != 1 || last.Step() != 0 || last.LastUser() != "user 1" {
		t.Errorf("the last request: turn %d, step %d, last user %q", last.UserTurn(), last.Step(), last.LastUser())
	}
	if r := reqs[0]; r.UserTurn() != 3 || r.Step() != 2 || r.LastUser() != "user 3" {
		t.Errorf("the first request: turn %d, step %d, last user %q", r.UserTurn(), r.Step(), r.LastUser())
	}

	for _, c2 := range []struct {
		msgs []openai.ChatCompletionMessage
		want string
	}{
		{conversation(4, 0), "user turn 4 is past the 3 turns scripted"},
		{conversation(2, 1), "user turn 2 has 1 replies scripted, none for step 2"},
		{conversation(0, 0), "the request has no user message"},
	} {
		_, err := c.CreateChatCompletion(ctx, agentRequest(c2.msgs...))
		var apiErr *openai.APIError
		if !errors.As(err, &apiErr) || apiErr.HTTPStatusCode != 400 || !strings.Contains(apiErr.Message, c2.want) {
			t.Errorf("got %v, want a 400 saying %q", err, c2.want)
		}
	}

	// Past its script, Turns hands over to what follows Then.
	s2 := judgetest.Start(t, judgetest.Turns([]judgetest.Reply{judgetest.Content("first")}).Then(judgetest.Always(judgetest.Content("fallback"))))
	resp, err := client(s2).CreateChatCompletion(ctx, agentRequest(conversation(2, 0)...))
	if err != nil || resp.Choices[0].Message.Content != "fallback" {
		t.Errorf("Then after Turns: %v %v", resp.Choices, err)
	}
}

func TestLastUserReadsContentParts(t *testing.T) {
	checkGoroutines(t)
	s := judgetest.Start(t, judgetest.Always(judgetest.Content("ok")))
	req := agentRequest(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, MultiContent: []openai.ChatMessagePart{
		{Type: openai.ChatMessagePartTypeText, Text: "line one"}, {Type: openai.ChatMessagePartTypeText, Text: "line two"}}})
	if _, err := client(s).CreateChatCompletion(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if got := s.Requests()[0].LastUser(); got != "line one\nline two" {
		t.Errorf("LastUser = %q", got)
	}
}

func TestCallPanicsOnArgumentsThatDoNotMarshal(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "the arguments of the call to search do not marshal") {
			t.Errorf("recovered %v", r)
		}
	}()
	judgetest.Call("search", make(chan int))
}

func TestEachCriterionAnswersTheCriteriaTheSchemaNames(t *testing.T) {
	checkGoroutines(t)
	s := judgetest.Start(t, judgetest.EachCriterion(func(c string) judgetest.Verdict {
		if strings.Contains(c, "refund") {
			return judgetest.NotMet(c, "no refund in [3]")
		}
		return judgetest.Met(c, "[2] shows it")
	}))
	c := client(s)
	ask := func(schema string) (string, error) {
		resp, err := c.CreateChatCompletion(context.Background(), openai.ChatCompletionRequest{Model: "judge",
			Messages: []openai.ChatCompletionMessage{user("judge this")},
			ResponseFormat: &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
				JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{Name: "scenario_verdict", Strict: true, Schema: json.RawMessage(schema)}}})
		if err != nil {
			return "", err
		}
		return resp.Choices[0].Message.Content, nil
	}
	got, err := ask(`{"type":"object","properties":{"criteria":{"type":"array","minItems":2,"maxItems":2,"items":{"type":"object",
		"properties":{"criterion":{"type":"string","enum":["looks the order up","refunds it"]},"verdict":{"type":"string","enum":["met","not_met","inconclusive"]},"reason":{"type":"string"}}}}}}`)
	want := `{"criteria":[{"criterion":"looks the order up","verdict":"met","reason":"[2] shows it"},{"criterion":"refunds it","verdict":"not_met","reason":"no refund in [3]"}]}`
	if err != nil || got != want {
		t.Errorf("got %s, %v\nwant %s", got, err, want)
	}
	if _, err := ask(`{"type":"object","properties":{"criteria":{"type":"array"}}}`); err == nil || !strings.Contains(err.Error(), `EachCriterion: the request's schema "scenario_verdict" names no criteria`) {
		t.Errorf("a schema without criteria: %v", err)
	}
}
