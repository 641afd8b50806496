package judgetest_test

import (
	"context"
	"fmt"

	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/metric"
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
	ans, err := j.Ask(context.Background(), metric.Question{
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
