package scenario_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/scenario"
)

func TestBadScenarioRunsNothing(t *testing.T) {
	called := false
	agent := scenario.AgentFunc(func(context.Context, agentcheck.Conversation) (scenario.Reply, error) {
		called = true
		return scenario.Reply{}, nil
	})
	j := &fakeModel{verdict: allMet}
	cases := []struct {
		name string
		s    scenario.Scenario
		want []string
	}{
		{"no agent", scenario.Scenario{Script: []scenario.Step{scenario.UserSays("hi")}}, []string{"no Agent"}},
		{"no way to end", scenario.Scenario{Agent: agent}, []string{"no Script and no User"}},
		{"min over max", scenario.Scenario{Agent: agent, User: scenario.StaticUser("hi"), MaxTurns: 2, MinTurns: 3}, []string{"MinTurns (3) is more than MaxTurns (2)"}},
		{"negative budget", scenario.Scenario{Agent: agent, User: scenario.StaticUser("hi"), Budget: scenario.Budget{AgentTokens: -1}}, []string{"Budget.AgentTokens is -1"}},
		{"criteria without judge", scenario.Scenario{Agent: agent, User: scenario.StaticUser("hi"), Criteria: []string{"polite"}}, []string{"Criteria but no Judge"}},
		{"duplicate criteria", scenario.Scenario{Agent: agent, User: scenario.StaticUser("hi"), Judge: j, Criteria: []string{"polite", "", "polite"}}, []string{"criterion 2 is empty", `criteria 1 and 3 are both "polite"`}},
		{"nil AgentFunc", scenario.Scenario{Agent: scenario.AgentFunc(nil), User: scenario.StaticUser("hi")}, []string{"no Agent"}},
		{"simulated user without a model", scenario.Scenario{Agent: agent, User: scenario.SimulatedUser{FirstMessage: "hi"}}, []string{"User: the simulated user has no Model"}},
		{"static user without messages", scenario.Scenario{Agent: agent, User: scenario.StaticUser()}, []string{"User: the static user has no messages"}},
		{"static user with an empty message", scenario.Scenario{Agent: agent, User: scenario.StaticUser("hi", " ")}, []string{"User: the static user's message 2 is empty"}},
		{"steps", scenario.Scenario{Agent: agent, Script: []scenario.Step{
			scenario.UserSays(" "), scenario.UserTurn(), scenario.ProceedFor(0), scenario.Checkpoint("x"), scenario.Check(nil), {}, scenario.AgentSays(""),
		}}, []string{
			`Script[0] UserSays(" "): the message is empty`,
			"Script[1] UserTurn(): needs a User",
			"Script[2] ProceedFor(0): 0 turns, want 1 or more",
			`Script[3] Checkpoint("x"): needs a Judge`,
			"Script[4] Check(...): the check is nil",
			"Script[5] Step{} (not made by a step function): not a step",
			`Script[6] AgentSays(""): the message is empty`,
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := c.s.Run(context.Background())
			if res.Err == nil || res.Passed || res.End != "error" {
				t.Fatalf("the run passed or has no error: %+v", res)
			}
			for _, w := range c.want {
				if !strings.Contains(res.Err.Error(), w) {
					t.Errorf("Expected the error to say %q, but it is:\n%v", w, res.Err)
				}
			}
			// The report says the scenario cannot run once.
			if msg := res.String(); !strings.HasPrefix(msg, "Expected the scenario \"scenario\" to run, but it cannot: ") || strings.Contains(msg, "cannot run") {
				t.Errorf("report:\n%s", res)
			}
		})
	}
	if called {
		t.Error("the agent was called for a scenario that cannot run")
	}
}

func TestScriptedRun(t *testing.T) {
	res := scenario.Scenario{
		Name:  "echo",
		Agent: echo(judgment.Usage{PromptTokens: 10, CompletionTokens: 2}),
		Script: []scenario.Step{
			scenario.UserSays("hello"),
			scenario.AgentTurn(),
			scenario.CheckFunc(func(c agentcheck.Conversation) error {
				if c[len(c)-1].Content != "echo: hello" {
					return errors.New("no echo")
				}
				return nil
			}),
			scenario.UserSays("again"),
			scenario.AgentTurn(),
			scenario.UserSays("and a scripted reply?"),
			scenario.AgentSays("scripted"),
			scenario.Succeed("echoed twice"),
			scenario.Fail("never reached"),
		},
	}.Run(context.Background())
	if !res.Passed || res.End != "succeed" || res.Err != nil {
		t.Fatalf("Expected the run to succeed, but:\n%s", res)
	}
	if got := roles(res.Conversation); got != "human ai human ai human ai" || res.Conversation[5].Content != "scripted" {
		t.Errorf("roles %s", got)
	}
	if len(res.Turns) != 3 || res.Turns[1].Number != 2 || res.Turns[1].First != 2 || res.Turns[1].End != 4 || res.Turns[2].End != 6 {
		t.Errorf("turns %+v", res.Turns)
	}
	if res.Usage.Agent.Total() != 24 || res.Usage.Total().Total() != 24 {
		t.Errorf("usage %+v", res.Usage)
	}
	if !strings.Contains(res.Reason, `Succeed("echoed twice")`) {
		t.Errorf("reason %q", res.Reason)
	}
}

func TestSimulatedUserProceedsUntilDone(t *testing.T) {
	m := &fakeModel{user: userSays("I want a refund", "order 1042"), verdict: allMet, usage: judgment.Usage{PromptTokens: 100, CompletionTokens: 5}}
	res := scenario.Scenario{
		Agent:    echo(judgment.Usage{}),
		User:     scenario.SimulatedUser{Model: m, Persona: "a teacher", Goal: "a refund", Plan: "you know the order number"},
		Judge:    m,
		Criteria: []string{"the agent echoes"},
	}.Run(context.Background())
	if !res.Passed || res.End != "user" {
		t.Fatalf("Expected the run to pass when the user is done, but:\n%s", res)
	}
	if got := roles(res.Conversation); got != "human ai human ai" {
		t.Errorf("roles %s", got)
	}
	// Three user questions (two messages, then done), one verdict.
	if u, v := len(m.asked("scenario_user")), len(m.asked("scenario_verdict")); u != 3 || v != 1 {
		t.Errorf("asked the user %d and the judge %d times", u, v)
	}
	if res.Usage.User.Total() != 315 || res.Usage.Judge.Total() != 105 {
		t.Errorf("usage %+v", res.Usage)
	}
	if j := res.Judgments; len(j) != 1 || j[0].When != "end" || j[0].Turn != 2 || !j[0].Passed {
		t.Errorf("judgments %+v", j)
	}
	// The user never sees the criteria; it sees persona, goal and plan.
	for _, q := range m.asked("scenario_user") {
		if strings.Contains(q.Input, "the agent echoes") || !strings.Contains(q.Input, "Plan:\nyou know the order number") {
			t.Errorf("the user's question:\n%s", q.Input)
		}
		if q.PromptVersion != "scenario-user/v1" {
			t.Errorf("prompt version %q", q.PromptVersion)
		}
	}
	if !strings.Contains(res.String(), "cassette: testdata/fake.yaml\n    re-record: AGENTCHECK_RECORD=all go test ./fake") {
		t.Errorf("report:\n%s", res)
	}
}

func TestUserSeesNoToolCalls(t *testing.T) {
	m := &fakeModel{user: userSays("first", "second")}
	agent := scenario.AgentFunc(func(context.Context, agentcheck.Conversation) (scenario.Reply, error) {
		return scenario.Reply{Messages: []agentcheck.Message{
			{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{agentcheck.MustParseToolCall("secret_lookup", `{"id":7}`)}},
			{Role: agentcheck.Tool, Content: "internal result"},
			{Role: agentcheck.AI, Content: "visible answer"},
		}}, nil
	})
	scenario.Scenario{Agent: agent, User: scenario.SimulatedUser{Model: m, FirstMessage: "opening words"}}.Run(context.Background())
	qs := m.asked("scenario_user")
	if len(qs) != 3 { // turn 1 is FirstMessage, not asked; turns 2 and 3, then done
		t.Fatalf("asked %d times", len(qs))
	}
	in := qs[0].Input
	for _, hidden := range []string{"secret_lookup", "internal result"} {
		if strings.Contains(in, hidden) {
			t.Errorf("the user saw %q:\n%s", hidden, in)
		}
	}
	for _, shown := range []string{"user: opening words", "assistant: visible answer", "Write turn 2 of the conversation, or end it."} {
		if !strings.Contains(in, shown) {
			t.Errorf("the user did not see %q:\n%s", shown, in)
		}
	}
}

func TestMaxTurnsLetsTheJudgeDecide(t *testing.T) {
	for _, verdict := range []string{"met", "not_met"} {
		t.Run(verdict, func(t *testing.T) {
			talker := &fakeModel{user: func(judgment.Question, int) (bool, string, string) { return false, "more", "never done" }}
			j := &fakeModel{verdict: func(c []string, _ judgment.Question) []string { return repeat(verdict, len(c)) }}
			res := scenario.Scenario{
				Agent: echo(judgment.Usage{}), User: scenario.SimulatedUser{Model: talker},
				Judge: j, Criteria: []string{"replies"}, MaxTurns: 3,
			}.Run(context.Background())
			if res.End != "max_turns" || len(res.Turns) != 3 || res.Err != nil {
				t.Fatalf("end %q, %d turns:\n%s", res.End, len(res.Turns), res)
			}
			if res.Passed != (verdict == "met") {
				t.Errorf("passed %v with the judge finding %s:\n%s", res.Passed, verdict, res)
			}
			if len(j.asked("scenario_verdict")) != 1 {
				t.Error("the judge was not asked at max turns")
			}
			if !strings.Contains(res.Reason, "MaxTurns (3) was reached (turn 3)") {
				t.Errorf("reason %q", res.Reason)
			}
		})
	}
}

func TestMinTurns(t *testing.T) {
	m := &fakeModel{user: userSays("only one")}
	res := scenario.Scenario{Agent: echo(judgment.Usage{}), User: scenario.SimulatedUser{Model: m}, MinTurns: 2}.Run(context.Background())
	var re *scenario.RunError
	if !errors.As(res.Err, &re) || re.Role != "user" || re.Turn != 2 || !strings.Contains(re.Error(), "before MinTurns (2)") {
		t.Fatalf("Expected a user error at turn 2, but:\n%s", res)
	}
	if qs := m.asked("scenario_user"); !strings.Contains(qs[1].Input, "You may not end the conversation yet") ||
		strings.Contains(qs[0].Input, "or end it") {
		t.Errorf("the user was not told it may not end yet:\n%s", qs[1].Input)
	}
	if got := roles(res.Conversation); got != "human ai" {
		t.Errorf("the transcript so far is lost: %s", got)
	}
}

func TestCheckpoint(t *testing.T) {
	for _, c := range []struct {
		verdicts []string
		pass     bool
	}{{[]string{"met", "met"}, true}, {[]string{"met", "inconclusive"}, false}, {[]string{"not_met", "met"}, false}} {
		t.Run(strings.Join(c.verdicts, ","), func(t *testing.T) {
			j := &fakeModel{verdict: func([]string, judgment.Question) []string { return c.verdicts }}
			res := scenario.Scenario{Agent: echo(judgment.Usage{}), Judge: j, Script: []scenario.Step{
				scenario.UserSays("hi"), scenario.AgentTurn(),
				scenario.Checkpoint("greets", "stays polite"),
				scenario.UserSays("bye"), scenario.AgentTurn(),
			}}.Run(context.Background())
			if res.Passed != c.pass {
				t.Fatalf("passed %v:\n%s", res.Passed, res)
			}
			if c.pass {
				if res.End != "script" || len(res.Conversation) != 4 {
					t.Errorf("the run did not go on after the checkpoint:\n%s", res)
				}
				return
			}
			if res.End != "checkpoint" || len(res.Conversation) != 2 || !strings.Contains(res.Reason, `at Script[2] Checkpoint("greets", "stays polite") (turn 1) the judge found 1 of 2 criteria`) {
				t.Errorf("end %q reason %q", res.End, res.Reason)
			}
			if s := res.String(); !strings.Contains(s, "judge fake-model at the checkpoint (turn 1)") || !strings.Contains(s, "2. stays polite: ") {
				t.Errorf("report:\n%s", s)
			}
		})
	}
}

func TestJudgeEachTurn(t *testing.T) {
	for _, c := range []struct {
		name   string
		judge  func(turn int) string // the verdict after each turn
		end    string
		passed bool
		turns  int
	}{
		{"met at turn 2", func(n int) string { return map[bool]string{true: "met", false: "inconclusive"}[n >= 2] }, "judge", true, 2},
		{"not met at turn 3", func(n int) string { return map[bool]string{true: "not_met", false: "inconclusive"}[n >= 3] }, "judge", false, 3},
		{"never decided", func(int) string { return "inconclusive" }, "max_turns", false, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			user := &fakeModel{user: func(judgment.Question, int) (bool, string, string) { return false, "go on", "" }}
			turns := 0
			j := &fakeModel{verdict: func(cs []string, q judgment.Question) []string {
				turns = strings.Count(q.Input, "] human:")
				return repeat(c.judge(turns), len(cs))
			}}
			res := scenario.Scenario{
				Agent: echo(judgment.Usage{}), User: scenario.SimulatedUser{Model: user}, Judge: j,
				Criteria: []string{"helps"}, JudgeEachTurn: true, MaxTurns: 4, MinTurns: 2,
				Script: []scenario.Step{scenario.Proceed(), scenario.CheckFunc(func(agentcheck.Conversation) error { return nil })},
			}.Run(context.Background())
			if res.End != c.end || res.Passed != c.passed || len(res.Turns) != c.turns {
				t.Fatalf("end %q passed %v after %d turns:\n%s", res.End, res.Passed, len(res.Turns), res)
			}
			if first := res.Judgments[0].Turn; first != 2 {
				t.Errorf("the judge was first asked at turn %d, before MinTurns", first)
			}
		})
	}
}

func TestCheckFailsTheRun(t *testing.T) {
	res := scenario.Scenario{Agent: echo(judgment.Usage{}), Script: []scenario.Step{
		scenario.UserSays("book a table"), scenario.AgentTurn(),
		scenario.Check(func(c agentcheck.Conversation) agenttest.Report {
			return agenttest.CheckCalled(c, agenttest.CallTo("book_table"), agenttest.Times(1))
		}),
		scenario.UserSays("never said"),
	}}.Run(context.Background())
	if res.Passed || res.End != "check" || res.Err != nil || len(res.Conversation) != 2 {
		t.Fatalf("Expected the check to fail the run, but:\n%s", res)
	}
	s := res.String()
	for _, w := range []string{
		`Expected the scenario "scenario" to pass, but the check at Script[2] Check(...) (turn 1) failed`,
		"Expected book_table to be called 1 time, but it was called 0 times",
		"  turn 1:\n    [0] user: book a table\n    [1] agent: echo: book a table",
	} {
		if !strings.Contains(s, w) {
			t.Errorf("Expected the report to say %q, but it is:\n%s", w, s)
		}
	}
}

func TestConversationOverSkipsTurnsButRunsChecks(t *testing.T) {
	checked := false
	res := scenario.Scenario{Agent: echo(judgment.Usage{}), User: scenario.StaticUser("one"), Script: []scenario.Step{
		scenario.Proceed(),
		scenario.UserSays("too late"),
		scenario.CheckFunc(func(c agentcheck.Conversation) error { checked = len(c) == 2; return nil }),
	}}.Run(context.Background())
	if !res.Passed || !checked || res.End != "user" {
		t.Fatalf("checked %v:\n%s", checked, res)
	}
	if !strings.Contains(res.String(), `note: Script[1] UserSays("too late") skipped: the conversation was over (the user was done: the static user's 1 message is said)`) {
		t.Errorf("report:\n%s", res)
	}
}

func TestAgentFailures(t *testing.T) {
	for _, c := range []struct {
		name  string
		agent scenario.AgentFunc
		want  string
	}{
		{"error", func(context.Context, agentcheck.Conversation) (scenario.Reply, error) {
			return scenario.Reply{}, errors.New("model unreachable")
		}, "turn 2, agent: model unreachable"},
		{"nothing", func(context.Context, agentcheck.Conversation) (scenario.Reply, error) {
			return scenario.Reply{}, nil
		}, "turn 2, agent: the agent returned no messages"},
		{"panic", func(context.Context, agentcheck.Conversation) (scenario.Reply, error) {
			panic("index out of range")
		}, "turn 2, agent: the agent panicked: index out of range"},
		{"empty messages", func(context.Context, agentcheck.Conversation) (scenario.Reply, error) {
			return scenario.Reply{Messages: []agentcheck.Message{{Role: agentcheck.AI}, {Role: agentcheck.AI, Content: " \n"}}}, nil
		}, "turn 2, agent: the agent returned 2 messages with no text, tool call or result"},
		{"human message", func(context.Context, agentcheck.Conversation) (scenario.Reply, error) {
			return scenario.Reply{Messages: []agentcheck.Message{{Role: agentcheck.Human, Content: "hm"}}}, nil
		}, `message 0 of the agent's reply has role "human"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			calls := 0
			agent := scenario.AgentFunc(func(ctx context.Context, conv agentcheck.Conversation) (scenario.Reply, error) {
				if calls++; calls == 1 {
					return echo(judgment.Usage{}).Respond(ctx, conv)
				}
				return c.agent(ctx, conv)
			})
			res := scenario.Scenario{Agent: agent, User: scenario.StaticUser("a", "b", "c")}.Run(context.Background())
			var re *scenario.RunError
			if !errors.As(res.Err, &re) || re.Role != "agent" || re.Turn != 2 || !strings.Contains(res.Err.Error(), c.want) {
				t.Fatalf("Expected an agent error at turn 2 saying %q, but:\n%s", c.want, res)
			}
			if got := roles(res.Conversation); got != "human ai human" {
				t.Errorf("the transcript so far: %s", got)
			}
			rep := res.Report()
			if rep.OK() || rep.Err() == nil || !strings.Contains(rep.String(), "[2] user: b") ||
				!strings.Contains(rep.String(), `Expected the scenario "scenario" to run to its end, but at turn 2 the agent failed:`) {
				t.Errorf("report:\n%s", rep.String())
			}
		})
	}
}

func TestCancelStopsTheRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	agent := scenario.AgentFunc(func(ctx context.Context, conv agentcheck.Conversation) (scenario.Reply, error) {
		cancel()
		<-ctx.Done()
		return scenario.Reply{}, ctx.Err()
	})
	res := scenario.Scenario{Agent: agent, User: scenario.StaticUser("a", "b")}.Run(ctx)
	if !errors.Is(res.Err, context.Canceled) || len(res.Turns) != 1 {
		t.Fatalf("Expected the run to stop at turn 1, but:\n%s", res)
	}
}

// An agent that ignores its context still does not keep a cancelled run
// going: the run stops before the next turn, asks the judge nothing more,
// and has not passed.
func TestCancelStopsTheRunBetweenTurns(t *testing.T) {
	for _, c := range []struct {
		name   string
		script []scenario.Step
	}{
		{"Proceed", nil},
		{"steps", []scenario.Step{scenario.UserTurn(), scenario.AgentTurn(), scenario.UserTurn(), scenario.AgentTurn(), scenario.UserSays("c"), scenario.AgentTurn()}},
		{"JudgeEachTurn", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			calls := 0
			agent := scenario.AgentFunc(func(context.Context, agentcheck.Conversation) (scenario.Reply, error) {
				if calls++; calls == 2 {
					cancel() // and answers all the same
				}
				return scenario.Reply{Messages: []agentcheck.Message{{Role: agentcheck.AI, Content: "ok"}}}, nil
			})
			j := &fakeModel{verdict: func(cs []string, _ judgment.Question) []string { return repeat("inconclusive", len(cs)) }}
			res := scenario.Scenario{
				Agent: agent, User: scenario.StaticUser("a", "b", "c", "d"), Script: c.script,
				Judge: j, Criteria: []string{"answers"}, JudgeEachTurn: c.name == "JudgeEachTurn",
			}.Run(ctx)
			if res.Passed || !errors.Is(res.Err, context.Canceled) || calls != 2 || len(res.Turns) != 2 {
				t.Fatalf("Expected the run to stop after turn 2 with the context's error, but the agent was called %d times:\n%s", calls, res)
			}
			if n := len(j.asked("scenario_verdict")); n > 1 {
				t.Errorf("the judge was asked %d times, after the run was cancelled", n)
			}
			if !strings.Contains(res.String(), "interrupted") {
				t.Errorf("report:\n%s", res)
			}
		})
	}
}

// With JudgeEachTurn, the judgment of the last turn is the final one when
// nothing was said since: the run that reaches MaxTurns, or whose user is
// done, does not ask the judge the same question again.
func TestJudgeEachTurnAsksOncePerConversation(t *testing.T) {
	for _, c := range []struct {
		name   string
		user   func(judgment.Question, int) (bool, string, string)
		script []scenario.Step
		asked  int
		end    string
	}{
		{"MaxTurns", func(judgment.Question, int) (bool, string, string) { return false, "go on", "" }, nil, 3, "max_turns"},
		{"the user is done", userSays("one", "two"), nil, 2, "user"},
		{"the script says more", func(judgment.Question, int) (bool, string, string) { return false, "go on", "" }, []scenario.Step{scenario.ProceedFor(2), scenario.UserSays("three"), scenario.AgentTurn()}, 3, "script"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := &fakeModel{user: c.user, verdict: func(cs []string, _ judgment.Question) []string { return repeat("inconclusive", len(cs)) }}
			res := scenario.Scenario{
				Agent: echo(judgment.Usage{}), User: scenario.SimulatedUser{Model: m}, Judge: m, Script: c.script,
				Criteria: []string{"helps"}, JudgeEachTurn: true, MaxTurns: 3,
			}.Run(context.Background())
			if res.Passed || res.End != c.end || res.Err != nil {
				t.Fatalf("Expected the run to end by %s, failed on an inconclusive criterion, but:\n%s", c.end, res)
			}
			if n := len(m.asked("scenario_verdict")); n != c.asked || len(res.Judgments) != c.asked {
				t.Errorf("the judge was asked %d times (%d judgments), want %d:\n%s", n, len(res.Judgments), c.asked, res)
			}
			if !strings.Contains(res.Reason, "the judge found 1 of 1 criterion inconclusive") {
				t.Errorf("reason %q", res.Reason)
			}
		})
	}
}

// A user writes the first message whatever MinTurns says: a conversation
// that ends before it begins tests nothing, and would pass.
func TestUserWritesTheFirstTurn(t *testing.T) {
	m := &fakeModel{user: func(judgment.Question, int) (bool, string, string) { return true, "", "nothing to ask" }}
	res := scenario.Scenario{Agent: echo(judgment.Usage{}), User: scenario.SimulatedUser{Model: m, Goal: "a refund"}}.Run(context.Background())
	var re *scenario.RunError
	if res.Passed || !errors.As(res.Err, &re) || re.Role != "user" || re.Turn != 1 || !strings.Contains(re.Error(), "the user ended the conversation before its first message: nothing to ask") {
		t.Fatalf("Expected the user's error at turn 1, but:\n%s", res)
	}
	if qs := m.asked("scenario_user"); len(qs) != 1 || !strings.Contains(qs[0].Input, "Write turn 1 of the conversation. You may not end the conversation yet") {
		t.Errorf("the user was not told to write the first turn: %v", qs)
	}
}
