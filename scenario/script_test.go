package scenario_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/scenario"
)

// TestScriptInterleavingsProperty runs random scripts that mix fixed and
// static-user turns, agent turns (of one to three messages), checks and
// checkpoints under a random MaxTurns, against a model of the rules: each
// user turn starts a turn (an agent before any user message speaks in turn
// 0), turns past MaxTurns and after the user is done are skipped while
// checks still run, and each check and checkpoint sees exactly the
// conversation so far.
func TestScriptInterleavingsProperty(t *testing.T) {
	for seed := range uint64(500) {
		rng := rand.New(rand.NewPCG(seed, 16))
		lines := make([]string, 1+rng.IntN(3)) // a static user says one at least
		for i := range lines {
			lines[i] = fmt.Sprintf("static %d", i)
		}
		maxTurns := 1 + rng.IntN(5)
		n := 1 + rng.IntN(12)

		var script []scenario.Step
		var desc []string
		var seen []int // conversation lengths the checks saw
		var want []int // what the model says they should see
		msgs, turn, humans, agentReplies := 0, 0, 0, 0
		over := ""
		var wantTurns []int
		replySize := func(k int) int { return 1 + k%3 }
		for range n {
			switch k := rng.IntN(5); k {
			case 0, 1:
				fixed := k == 0
				if fixed {
					script = append(script, scenario.UserSays("fixed"))
					desc = append(desc, "says")
				} else {
					script = append(script, scenario.UserTurn())
					desc = append(desc, "user")
				}
				switch {
				case over != "":
				case turn >= maxTurns:
					over = "max_turns"
				case !fixed && humans >= len(lines):
					over = "user"
				default:
					turn++
					humans++
					msgs++
					wantTurns = append(wantTurns, turn)
				}
			case 2:
				script = append(script, scenario.AgentTurn())
				desc = append(desc, "agent")
				if over == "" {
					if len(wantTurns) == 0 {
						wantTurns = append(wantTurns, 0)
					}
					msgs += replySize(agentReplies)
					agentReplies++
				}
			case 3:
				script = append(script, scenario.CheckFunc(func(c agentcheck.Conversation) error {
					seen = append(seen, len(c))
					return nil
				}))
				desc = append(desc, "check")
				want = append(want, msgs)
			case 4:
				script = append(script, scenario.Checkpoint("fine"))
				desc = append(desc, "checkpoint")
				want = append(want, msgs)
			}
		}
		calls := 0
		agent := scenario.AgentFunc(func(context.Context, agentcheck.Conversation) (scenario.Reply, error) {
			size := replySize(calls)
			calls++
			out := make([]agentcheck.Message, size)
			for i := range out {
				out[i] = agentcheck.Message{Role: agentcheck.AI, Content: fmt.Sprintf("reply %d.%d", calls, i)}
			}
			return scenario.Reply{Messages: out}, nil
		})
		j := &fakeModel{verdict: func(c []string, q judgment.Question) []string {
			// The checkpoint sees the conversation so far: count its messages.
			seen = append(seen, strings.Count(q.Input, "\n["))
			return repeat("met", len(c))
		}}
		res := scenario.Scenario{Agent: agent, User: scenario.StaticUser(lines...), Judge: j, Script: script, MaxTurns: maxTurns}.Run(context.Background())
		if res.Err != nil || !res.Passed {
			t.Fatalf("seed %d, script %v: %s", seed, desc, res)
		}
		if len(res.Conversation) != msgs || fmt.Sprint(seen) != fmt.Sprint(want) {
			t.Fatalf("seed %d, script %v, MaxTurns %d, %d static lines:\nconversation %d messages, want %d; checks saw %v, want %v\n%s",
				seed, desc, maxTurns, len(lines), len(res.Conversation), msgs, seen, want, res)
		}
		got := make([]int, len(res.Turns))
		for i, tn := range res.Turns {
			got[i] = tn.Number
			if tn.First > tn.End || (i > 0 && tn.First != res.Turns[i-1].End) {
				t.Fatalf("seed %d: turns do not tile the conversation: %+v", seed, res.Turns)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(wantTurns) {
			t.Fatalf("seed %d, script %v: turns %v, want %v", seed, desc, got, wantTurns)
		}
		wantEnd := "script"
		if over != "" {
			wantEnd = over
		}
		if res.End != wantEnd {
			t.Fatalf("seed %d, script %v: end %q, want %q", seed, desc, res.End, wantEnd)
		}
	}
}
