package scenario_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/agentcheck/agentcheck/scenario"
)

// TestBudgetsProperty runs random scripts under random budgets and checks
// the run against a model of the rules: after each role's call, the first
// budget exceeded (tool calls, agent, user, judge, total tokens, in that
// order) ends the run, naming the budget and the figure; a run that stays
// within every budget passes.
func TestBudgetsProperty(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 7))
		turns := 1 + rng.IntN(5)
		type turnPlan struct {
			user, agent, judge judgment.Usage
			calls              int
		}
		plan := make([]turnPlan, turns)
		usage := func() judgment.Usage {
			return judgment.Usage{PromptTokens: rng.IntN(50), CompletionTokens: rng.IntN(10)}
		}
		for i := range plan {
			plan[i] = turnPlan{usage(), usage(), usage(), rng.IntN(3)}
		}
		maybe := func(n int) int {
			if rng.IntN(3) == 0 {
				return 0
			}
			return n
		}
		b := scenario.Budget{
			ToolCalls:   maybe(1 + rng.IntN(2*turns+1)),
			Tokens:      maybe(1 + rng.IntN(150*turns)),
			AgentTokens: maybe(1 + rng.IntN(60*turns)),
			UserTokens:  maybe(1 + rng.IntN(60*turns)),
			JudgeTokens: maybe(1 + rng.IntN(60*turns)),
		}

		// The model: replay the run's spending and find where it ends.
		var spent scenario.Usage
		calls := 0
		wantEnd, wantReason, wantMessages := "script", "", 0
	model:
		for _, p := range plan {
			for _, role := range []string{"user", "agent", "judge"} {
				switch role {
				case "user":
					spent.User = spent.User.Add(p.user)
					wantMessages++
				case "agent":
					spent.Agent = spent.Agent.Add(p.agent)
					calls += p.calls
					wantMessages += 1 + 2*p.calls
				case "judge":
					spent.Judge = spent.Judge.Add(p.judge)
				}
				reason := ""
				switch {
				case b.ToolCalls > 0 && calls > b.ToolCalls:
					reason = fmt.Sprintf("the agent made %d tool calls, more than Budget.ToolCalls (%d)", calls, b.ToolCalls)
				case b.AgentTokens > 0 && spent.Agent.Total() > b.AgentTokens:
					reason = fmt.Sprintf("the agent used %d tokens, more than Budget.AgentTokens (%d)", spent.Agent.Total(), b.AgentTokens)
				case b.UserTokens > 0 && spent.User.Total() > b.UserTokens:
					reason = fmt.Sprintf("the simulated user used %d tokens, more than Budget.UserTokens (%d)", spent.User.Total(), b.UserTokens)
				case b.JudgeTokens > 0 && spent.Judge.Total() > b.JudgeTokens:
					reason = fmt.Sprintf("the judge used %d tokens, more than Budget.JudgeTokens (%d)", spent.Judge.Total(), b.JudgeTokens)
				case b.Tokens > 0 && spent.Total().Total() > b.Tokens:
					reason = fmt.Sprintf("the run used %d tokens, more than Budget.Tokens (%d)", spent.Total().Total(), b.Tokens)
				}
				if reason != "" {
					wantEnd, wantReason = "budget", "over budget: "+reason
					break model
				}
			}
		}

		// The run, with a user, an agent and a judge that spend as planned.
		m := &fakeModel{}
		m.user = func(_ judgment.Question, n int) (bool, string, string) {
			if n > turns {
				return true, "", "done"
			}
			m.usage = plan[n-1].user
			return false, fmt.Sprintf("turn %d", n), ""
		}
		judged := 0
		m.verdict = func(c []string, _ judgment.Question) []string {
			m.usage = plan[judged].judge
			judged++
			return repeat("met", len(c))
		}
		turn := 0
		agent := scenario.AgentFunc(func(context.Context, agentcheck.Conversation) (scenario.Reply, error) {
			p := plan[turn]
			turn++
			var msgs []agentcheck.Message
			for k := range p.calls {
				id := fmt.Sprintf("c%d", k)
				msgs = append(msgs,
					agentcheck.Message{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{{ID: id, Name: "t", Args: jsonvalue.Object()}}},
					agentcheck.Message{Role: agentcheck.Tool, ToolCallID: id, Content: "ok"})
			}
			msgs = append(msgs, agentcheck.Message{Role: agentcheck.AI, Content: "done"})
			return scenario.Reply{Messages: msgs, Usage: p.agent}, nil
		})
		var script []scenario.Step
		for range turns {
			script = append(script, scenario.UserTurn(), scenario.AgentTurn(), scenario.Checkpoint("fine"))
		}
		res := scenario.Scenario{Agent: agent, User: scenario.SimulatedUser{Model: m}, Judge: m, Script: script, Budget: b}.Run(context.Background())
		if res.End != wantEnd || (wantEnd == "budget" && res.Reason != wantReason) || len(res.Conversation) != wantMessages || res.Err != nil {
			t.Fatalf("seed %d, budget %+v, plan %+v:\nwant end %q, %q, %d messages; got end %q, %q, %d messages\n%s",
				seed, b, plan, wantEnd, wantReason, wantMessages, res.End, res.Reason, len(res.Conversation), res)
		}
		if res.Passed != (wantEnd == "script") {
			t.Fatalf("seed %d: passed %v, end %s", seed, res.Passed, res.End)
		}
		if wantEnd == "script" && res.Usage != spent {
			t.Fatalf("seed %d: usage %+v, want %+v", seed, res.Usage, spent)
		}
	}
}

func TestTurnTimeout(t *testing.T) {
	t.Run("the agent honours its context", func(t *testing.T) {
		agent := scenario.AgentFunc(func(ctx context.Context, _ agentcheck.Conversation) (scenario.Reply, error) {
			<-ctx.Done()
			return scenario.Reply{}, ctx.Err()
		})
		res := scenario.Scenario{Agent: agent, User: scenario.StaticUser("hi"), Budget: scenario.Budget{TurnTimeout: 20 * time.Millisecond}}.Run(context.Background())
		if res.End != "budget" || res.Err != nil || res.Reason != "over budget: turn 1 took longer than Budget.TurnTimeout (20ms)" {
			t.Fatalf("end %q reason %q\n%s", res.End, res.Reason, res)
		}
		if !strings.Contains(res.String(), "slowest turn: 1, ") {
			t.Errorf("report:\n%s", res)
		}
	})
	t.Run("the agent ignores its context", func(t *testing.T) {
		agent := scenario.AgentFunc(func(ctx context.Context, _ agentcheck.Conversation) (scenario.Reply, error) {
			time.Sleep(30 * time.Millisecond)
			return scenario.Reply{Messages: []agentcheck.Message{{Role: agentcheck.AI, Content: "late"}}}, nil
		})
		res := scenario.Scenario{Agent: agent, User: scenario.StaticUser("hi"), Budget: scenario.Budget{TurnTimeout: 10 * time.Millisecond}}.Run(context.Background())
		if res.End != "budget" || !strings.HasPrefix(res.Reason, "over budget: turn 1 took") || len(res.Conversation) != 2 {
			t.Fatalf("end %q reason %q\n%s", res.End, res.Reason, res)
		}
	})
}

var lookupSchema = json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`)

// looper is an agent whose model calls the tool lookup over and over
// through the toolbox, as a runaway agent loop does, until its context ends
// or it made n calls.
func looper(box *scenario.Toolbox, n int) scenario.Agent {
	return scenario.AgentFunc(func(ctx context.Context, _ agentcheck.Conversation) (scenario.Reply, error) {
		var msgs []agentcheck.Message
		for i := range n {
			if err := ctx.Err(); err != nil {
				return scenario.Reply{Messages: msgs}, err
			}
			call := agentcheck.MustParseToolCall("lookup", fmt.Sprintf(`{"id":"%d"}`, i))
			call.ID = fmt.Sprintf("call_%d", i)
			msgs = append(msgs, agentcheck.Message{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{call}}, box.Call(ctx, call))
		}
		return scenario.Reply{Messages: append(msgs, agentcheck.Message{Role: agentcheck.AI, Content: "found it"})}, nil
	})
}

func TestToolBudgetStopsARunawayTurn(t *testing.T) {
	funcCalls := 0
	box, err := scenario.NewToolbox(scenario.Tool{Name: "lookup", Parameters: lookupSchema, Func: func(context.Context, json.RawMessage) (string, error) {
		funcCalls++
		return "nothing", nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	res := scenario.Scenario{Agent: looper(box, 1000), User: scenario.StaticUser("find it"), Budget: scenario.Budget{ToolCalls: 3}}.Run(context.Background())
	if res.End != "budget" || res.Reason != "over budget: the agent called lookup past Budget.ToolCalls (3)" {
		t.Fatalf("end %q reason %q\n%s", res.End, res.Reason, res)
	}
	if funcCalls != 3 || res.ToolCalls != 4 {
		t.Errorf("the tool ran %d times and the transcript has %d calls; want 3 and 4 (the refused one)", funcCalls, res.ToolCalls)
	}
	if last := res.Conversation[len(res.Conversation)-1]; !last.IsError || !strings.Contains(last.Content, "Budget.ToolCalls") {
		t.Errorf("the refused call's result: %+v", last)
	}
}

func TestToolFailuresEndTheRun(t *testing.T) {
	miss := &recorder.ReplayMissError{Cassette: "testdata/cassettes/TestX.yaml", Request: "GET /weather", Reason: "no recorded request has this body", Command: "AGENTCHECK_RECORD=missing go test ./scenario -run '^TestX$'"}
	for _, c := range []struct {
		name string
		f    func(context.Context, json.RawMessage) (string, error)
		want []string
	}{
		{"panic", func(context.Context, json.RawMessage) (string, error) { panic("nil map") }, []string{"turn 1, tool: lookup({\"id\":\"0\"}): the tool panicked: nil map"}},
		{"replay miss", func(context.Context, json.RawMessage) (string, error) {
			return "", fmt.Errorf("weather API: %w", miss)
		}, []string{"turn 1, tool: lookup({\"id\":\"0\"}): weather API: agentcheck: replay miss: GET /weather", "record it with: AGENTCHECK_RECORD=missing go test ./scenario -run '^TestX$'"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			box, err := scenario.NewToolbox(scenario.Tool{Name: "lookup", Parameters: lookupSchema, Func: c.f})
			if err != nil {
				t.Fatal(err)
			}
			res := scenario.Scenario{Agent: looper(box, 5), User: scenario.StaticUser("find it")}.Run(context.Background())
			var re *scenario.RunError
			if !errors.As(res.Err, &re) || re.Role != "tool" || re.Turn != 1 {
				t.Fatalf("Expected a tool error at turn 1, but:\n%s", res)
			}
			for _, w := range c.want {
				if !strings.Contains(res.Err.Error(), w) || !strings.Contains(res.String(), strings.TrimPrefix(w, "turn 1, tool: ")) {
					t.Errorf("Expected the report to say %q, but it is:\n%s", w, res)
				}
			}
			if c.name == "replay miss" && !errors.As(res.Err, &miss) {
				t.Error("the replay miss is not in the error's chain")
			}
			if res.ToolCalls != 1 {
				t.Errorf("the agent went on after the failed tool: %d calls", res.ToolCalls)
			}
		})
	}
}

// A slow judgment does not count against the turn it follows.
func TestTurnTimeoutLeavesJudgmentsOut(t *testing.T) {
	// The judge takes longer than the turn's whole budget; the echoing
	// agent takes microseconds, and the margin to the budget is wide, so
	// that a loaded CI machine cannot make the turn itself run over.
	slow := slowJudge{judgeWith("slow", "met"), 600 * time.Millisecond}
	res := scenario.Scenario{
		Agent: echo(judgment.Usage{}), User: scenario.StaticUser("hi"), Judge: slow, Criteria: []string{"replies"},
		Script: []scenario.Step{scenario.UserTurn(), scenario.AgentTurn(), scenario.Checkpoint("replies")},
		Budget: scenario.Budget{TurnTimeout: 400 * time.Millisecond},
	}.Run(context.Background())
	if !res.Passed || res.Turns[0].Duration >= 400*time.Millisecond {
		t.Fatalf("Expected the run to pass, but:\n%s", res)
	}
}
