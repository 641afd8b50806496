package judgetest_test

import (
	"context"
	"fmt"

	openai "github.com/sashabaranov/go-openai"

	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/judgment"
)

// A scripted server stands in for the judge's endpoint: here it is rate
// limited once, then answers; the judge retries, and the server shows what
// it was sent.
func ExampleNewServer() {
	s := judgetest.NewServer(judgetest.Sequence(judgetest.TooManyRequests(0)).
		Then(judgetest.Always(judgetest.JSON(map[string]any{"reason": "refunded", "achieved": true}))))
	defer s.Close()

	j := judge.New(judge.WithBaseURL(s.URL), judge.WithModel("judge-model"), judge.WithAPIKey(""),
		judge.WithRetry(judge.RetryPolicy{Initial: 1}))
	ans, err := j.Ask(context.Background(), judgment.Question{
		Name:         "agent_goal_compare",
		Instructions: "Decide whether the end state achieves the desired outcome.",
		Input:        "Desired: a refund. End state: refunded.",
		Schema: map[string]any{
			"type":                 "object",
			"properties":           map[string]any{"reason": map[string]any{"type": "string"}, "achieved": map[string]any{"type": "boolean"}},
			"required":             []string{"reason", "achieved"},
			"additionalProperties": false,
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(ans.JSON), ans.Attempts)
	last := s.Requests()[s.Count()-1]
	temperature, _ := last.Field("temperature")
	fmt.Println(s.Count(), last.SchemaName(), string(temperature), last.Message(-1))
	// Output:
	// {"achieved":true,"reason":"refunded"} 2
	// 2 agent_goal_compare 0 Desired: a refund. End state: refunded.
}

// One server plays a scenario's three models: the agent's model by the
// conversation it is sent (Turns: a tool call, then the answer once the
// result is back), the simulated user and the judge by their schema names.
func ExampleByRole() {
	s := judgetest.NewServer(judgetest.ByRole(
		judgetest.Turns(
			[]judgetest.Reply{judgetest.ToolCalls(judgetest.Call("search", `{"city": "Paris"}`)), judgetest.Content("Le Jules Verne has a table.")},
		),
		map[string]judgetest.Script{
			"scenario_user":    judgetest.Sequence(judgetest.UserSays("A table in Paris tonight?"), judgetest.UserDone("I have a table")),
			"scenario_verdict": judgetest.Always(judgetest.Verdicts(judgetest.Met("offers a table", "it names one"))),
		}))
	defer s.Close()
	cfg := openai.DefaultConfig("")
	cfg.BaseURL = s.URL
	c := openai.NewClientWithConfig(cfg)

	// The agent's model: a request with tools.
	msgs := []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: "A table in Paris tonight?"}}
	tools := []openai.Tool{{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{Name: "search"}}}
	for {
		resp, err := c.CreateChatCompletion(context.Background(), openai.ChatCompletionRequest{Model: "agent", Messages: msgs, Tools: tools})
		if err != nil {
			fmt.Println(err)
			return
		}
		m := resp.Choices[0].Message
		msgs = append(msgs, m)
		if len(m.ToolCalls) == 0 {
			fmt.Println(m.Content)
			break
		}
		call := m.ToolCalls[0]
		fmt.Println(resp.Choices[0].FinishReason, call.ID, call.Function.Name, call.Function.Arguments)
		msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, ToolCallID: call.ID, Content: "Le Jules Verne"})
	}
	// What the simulated user and the judge answer.
	fmt.Println(judgetest.UserSays("A table in Paris tonight?").Content)
	fmt.Println(judgetest.Verdicts(judgetest.NotMet("confirms the time", "no time is given")).Content)
	// Output:
	// tool_calls call_1_1 search {"city": "Paris"}
	// Le Jules Verne has a table.
	// {"done":false,"message":"A table in Paris tonight?","reason":""}
	// {"criteria":[{"criterion":"confirms the time","verdict":"not_met","reason":"no time is given"}]}
}
