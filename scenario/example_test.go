package scenario_test

import (
	"context"
	"fmt"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/scenario"
)

// Example drives an agent through a conversation with a simulated user and
// judges it by criteria. A scripted model on loopback plays the user and
// the judge, so that the example runs anywhere; in a test, use
// judge.ForTest(t), which replays the test's cassette, and s.Test(t).
func Example() {
	model := judgetest.NewServer(judgetest.BySchema(map[string]judgetest.Script{
		"scenario_user": judgetest.Sequence(
			judgetest.UserSays("It's order 1042.").WithUsage(310, 9),
			judgetest.UserDone("the agent will not refund").WithUsage(340, 12),
		),
		"scenario_verdict": judgetest.Always(judgetest.Verdicts(
			judgetest.Met("The agent asks for the order number", "[1] asks for it."),
			judgetest.NotMet("The agent refunds the order", "[3] refuses without looking the order up."),
		).WithUsage(420, 48)),
	}))
	defer model.Close()
	j := judge.New(judge.WithBaseURL(model.URL), judge.WithModel("gpt-4o-mini"), judge.WithAPIKey(""))

	// The agent under test: here a stub that asks once, then refuses.
	agent := scenario.AgentFunc(func(_ context.Context, conv agentcheck.Conversation) (scenario.Reply, error) {
		answer := "Which order is it?"
		if len(conv) > 2 {
			answer = "Sorry, I can't refund orders."
		}
		return scenario.Reply{
			Messages: []agentcheck.Message{{Role: agentcheck.AI, Content: answer}},
			Usage:    judgment.Usage{PromptTokens: 150, CompletionTokens: 10},
		}, nil
	})

	s := scenario.Scenario{
		Name:  "refund",
		Agent: agent,
		User: scenario.SimulatedUser{
			Model:        j,
			Persona:      "a customer, polite and brief",
			Goal:         "get order 1042 refunded: it arrived broken",
			Plan:         "Give the order number when asked. Stop if the agent refuses twice.",
			FirstMessage: "My blender arrived broken, I want a refund.",
		},
		Judge:    j,
		Criteria: []string{"The agent asks for the order number", "The agent refunds the order"},
		Script: []scenario.Step{
			scenario.Proceed(),
			scenario.Check(func(c agentcheck.Conversation) agenttest.Report {
				return agenttest.CheckCalled(c, agenttest.CallTo("refund_order"), agenttest.AtMost(1))
			}),
		},
		MaxTurns: 5,
	}
	res := s.Run(context.Background())
	fmt.Println(res)
	// Output:
	// Expected the scenario "refund" to pass, but the user was done: the agent will not refund (turn 2), and the judge found 1 of 2 criteria not met
	// judge gpt-4o-mini at the end (turn 2): 1 of 2 criteria not met
	//     1. The agent asks for the order number: met
	//          [1] asks for it.
	//     2. The agent refunds the order: not met
	//          [3] refuses without looking the order up.
	// transcript:
	//   turn 1:
	//     [0] user: My blender arrived broken, I want a refund.
	//     [1] agent: Which order is it?
	//   turn 2:
	//     [2] user: It's order 1042.
	//     [3] agent: Sorry, I can't refund orders.
	// turns: 2 of MaxTurns 5
	// tool calls: 0
	// tokens: 1459 (agent 320, user 671, judge 468)
}
