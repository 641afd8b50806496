package scenario_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck/adapters/goopenai"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/agentcheck/agentcheck/scenario"
	openai "github.com/sashabaranov/go-openai"
)

// The ten-turn scenario of the benchmark: a travel agent with three mocked
// tools, a simulated user who asks ten times, a judge with three criteria
// when MaxTurns is reached: 9 user questions, 20 agent model requests
// (a tool call, then text, each turn) and 1 judgment, 30 replayed requests.
var travelTools = []string{"search_flights", "hold_seat", "send_itinerary"}

func travelServer() judgetest.Script {
	turns := make([][]judgetest.Reply, 10)
	for i := range turns {
		tool := travelTools[i%3]
		turns[i] = []judgetest.Reply{
			judgetest.ToolCalls(judgetest.Call(tool, map[string]any{"ref": fmt.Sprintf("T%d", i+1)})).WithUsage(200+40*i, 15),
			judgetest.Content(fmt.Sprintf("Step %d is done with %s: reference T%d. What next?", i+1, tool, i+1)).WithUsage(230+40*i, 18),
		}
	}
	user := func(r judgetest.Request) judgetest.Reply {
		if m := writeTurn.FindStringSubmatch(r.LastUser()); m != nil {
			return judgetest.UserSays("Next, please: step "+m[1]+" of my trip to Lisbon.").WithUsage(280, 12)
		}
		return judgetest.UserDone("nothing to ask")
	}
	verdict := func(r judgetest.Request) judgetest.Reply {
		var vs []judgetest.Verdict
		for _, c := range []string{"The agent uses its tools for each step", "The agent gives a reference for each step", "The agent stays on the trip"} {
			vs = append(vs, judgetest.Met(c, "every turn shows it"))
		}
		return judgetest.Verdicts(vs...).WithUsage(900, 60)
	}
	return judgetest.ByRole(judgetest.Turns(turns...), map[string]judgetest.Script{"scenario_user": user, "scenario_verdict": verdict})
}

func travelScenario(t judge.T, rec *recorder.Recorder, baseURL string) scenario.Scenario {
	var tools []scenario.Tool
	for _, name := range travelTools {
		tools = append(tools, scenario.Tool{
			Name: name, Description: "Books part of the trip.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"ref":{"type":"string"}},"required":["ref"],"additionalProperties":false}`),
			Func: func(_ context.Context, args json.RawMessage) (string, error) {
				return `{"ok":true,"args":` + string(args) + `}`, nil
			},
		})
	}
	box, err := scenario.NewToolbox(tools...)
	if err != nil {
		t.Fatalf("%v", err)
	}
	j := judge.ForTest(t, judge.WithRecorder(rec), judge.WithBaseURL(baseURL), judge.WithModel("judge-model"), judge.WithAPIKey(""))
	cfg := openai.DefaultConfig("")
	cfg.BaseURL, cfg.HTTPClient = baseURL, rec.Client()
	return scenario.Scenario{
		Name:     "ten turns to Lisbon",
		Agent:    goopenai.Agent(openai.NewClientWithConfig(cfg), "agent-model", goopenai.WithTools(box)),
		User:     scenario.SimulatedUser{Model: j, Goal: "plan a trip to Lisbon step by step", FirstMessage: "Help me plan my trip to Lisbon, step 1 please."},
		Judge:    j,
		Criteria: []string{"The agent uses its tools for each step", "The agent gives a reference for each step", "The agent stays on the trip"},
		MaxTurns: 10,
	}
}

// TestTenTurnScenario records (AGENTCHECK_RECORD=all) and replays the
// benchmark's cassette.
func TestTenTurnScenario(t *testing.T) {
	srv, mode := serverFor(t, travelServer())
	res := travelScenario(t, recorder.ForTest(t), srv.URL).Test(t)
	if !res.Passed || res.End != "max_turns" || len(res.Turns) != 10 || res.ToolCalls != 10 || len(res.Conversation) != 40 {
		t.Fatalf("Expected 10 turns with 10 tool calls, but:\n%s", res)
	}
	if mode == recorder.RecordNone && srv.Count() != 0 {
		t.Errorf("replaying reached the server %d times", srv.Count())
	}
}

// BenchmarkReplayTenTurnScenario replays the committed cassette of
// TestTenTurnScenario: a whole 10-turn run (30 requests through the
// recorder, go-openai and the judge client, 10 tool calls through the
// Toolbox, the report not rendered). Each run needs a fresh recorder (a
// cassette answers each recorded request once per run), opened from the
// file's bytes with the timer stopped. cpu-ns/op is the process's CPU
// time per run, which a busy machine inflates less than the wall clock.
func BenchmarkReplayTenTurnScenario(b *testing.B) {
	data, err := os.ReadFile(committedCassette(b, "TestTenTurnScenario"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		rec, err := recorder.Open("bench.yaml", recorder.WithData(data), recorder.WithMode(recorder.RecordNone))
		if err != nil {
			b.Fatal(err)
		}
		s := travelScenario(b, rec, "http://127.0.0.1:1/v1")
		b.StartTimer()
		before := cpuTime()
		res := s.Run(context.Background())
		cpu += cpuTime() - before
		b.StopTimer()
		if !res.Passed || len(res.Turns) != 10 {
			b.Fatalf("%s", res)
		}
		rec.Close()
		b.StartTimer()
	}
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}
