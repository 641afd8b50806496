package openaigo_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/openai/openai-go/v3/option"

	"github.com/agentcheck/agentcheck/adapters/openaigo"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/agentcheck/agentcheck/scenario"
)

// The end-to-end test of a scenario with an openai-go agent: the agent loop
// (openaigo.Agent) with two mocked tools, a simulated user and a judge,
// their three models played by one judgetest server over real HTTP,
// recorded through the real recorder, then replayed with the server closed
// and CI=true.

const bookingPrompt = "You book restaurant tables. Search before you book, and confirm the booking's reference."

// bookingServer plays the three models: the agent's by the conversation it
// is sent (four user turns, three of them with tool calls), the simulated
// user's (three more turns, then done) and the judge's (every criterion
// met).
func bookingServer() judgetest.Script {
	agent := judgetest.Turns(
		[]judgetest.Reply{
			judgetest.ToolCalls(judgetest.Call("search_restaurants", `{"city": "Paris", "cuisine": "Chinese"}`)).WithUsage(210, 18),
			judgetest.Content("Golden Dragon (r_17) has a table for 4 at 20:00. Shall I book it?").WithUsage(260, 21),
		},
		[]judgetest.Reply{
			judgetest.ToolCalls(judgetest.Call("book_table", `{"restaurant_id": "r_17", "party_size": 4, "time": "20:00"}`)).WithUsage(300, 22),
			judgetest.Content("Booked: Golden Dragon, 4 people, 20:00, reference GD-88.").WithUsage(340, 17),
		},
		[]judgetest.Reply{
			judgetest.ToolCalls(judgetest.Call("search_restaurants", `{"city": "Lyon"}`)).WithUsage(370, 12),
			judgetest.Content("I know no restaurants in Lyon, sorry.").WithUsage(400, 10),
		},
		[]judgetest.Reply{judgetest.Content("You're welcome, enjoy your dinner!").WithUsage(420, 9)},
	)
	user := judgetest.Sequence(
		judgetest.UserSays("Yes, book it please.").WithUsage(150, 7),
		judgetest.UserSays("Could you also find one in Lyon for next week?").WithUsage(180, 12),
		judgetest.UserSays("No matter, thanks.").WithUsage(205, 5),
		judgetest.UserDone("the table in Paris is booked").WithUsage(220, 11),
	)
	verdicts := judgetest.EachCriterion(func(c string) judgetest.Verdict { return judgetest.Met(c, "messages [1] to [6] show it") })
	return judgetest.ByRole(agent, map[string]judgetest.Script{
		"scenario_user":    user,
		"scenario_verdict": judgetest.Sequence(judgetest.Reply{}).Then(verdicts), // the first answer is empty: asked again
	})
}

// bookingScenario is the scenario, its three models asked at url through
// rec, the agent with the given system prompt.
func bookingScenario(t testing.TB, rec *recorder.Recorder, url, prompt string, booked *atomic.Int32) scenario.Scenario {
	j := judge.New(judge.WithRecorder(rec), judge.WithBaseURL(url), judge.WithModel("judge-model"), judge.WithAPIKey(""))
	agent := openaigo.Agent(agentClient(url, option.WithHTTPClient(rec.Client())), "agent-model",
		openaigo.WithSystemPrompt(prompt), openaigo.WithTools(restaurantTools(t, booked)),
		openaigo.WithTemperature(0), openaigo.WithSeed(7))
	return scenario.Scenario{
		Name:  "book a table in Paris",
		Agent: agent,
		User: scenario.SimulatedUser{
			Model:        j,
			Persona:      "a tourist in Paris, brief and polite",
			Goal:         "book a table for 4 at a Chinese restaurant in Paris at 8pm",
			Plan:         "You want Chinese food, 4 people, 8pm tonight. Once it is booked, ask about Lyon for next week, then let it go.",
			FirstMessage: "Find a Chinese restaurant in Paris for 4 at 8pm tonight.",
		},
		Judge:    j,
		Criteria: []string{"The agent searches before it books", "The agent gives the user the booking's reference"},
		MaxTurns: 6,
		Budget:   scenario.Budget{ToolCalls: 5, AgentTokens: 5000},
	}
}

// recordEnv is the environment of the recording step: AGENTCHECK_RECORD=all
// and nothing that says CI, whatever the machine's environment says.
func recordEnv(key string) string {
	if key == recorder.RecordEnv {
		return "all"
	}
	return ""
}

// record runs the scenario against a fresh scripted server, recording its
// cassette at path, and closes the server.
func record(t *testing.T, path, prompt string) (*scenario.Result, int) {
	t.Helper()
	srv := judgetest.NewServer(bookingServer())
	defer srv.Close()
	rec, err := recorder.Open(path, recorder.WithEnv(recordEnv), recorder.WithTestName(t.Name()))
	if err != nil {
		t.Fatal(err)
	}
	var booked atomic.Int32
	res := bookingScenario(t, rec, srv.URL, prompt, &booked).Run(context.Background())
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if rec.Mode() != recorder.RecordAll {
		t.Fatalf("recorded in mode %v", rec.Mode())
	}
	return res, srv.Count()
}

// replay opens the cassette as a test replays it on CI (the process's
// environment, CI=true) and runs the scenario against url, where nothing
// answers.
func replay(t *testing.T, path, url, prompt string) (*scenario.Result, *recorder.Recorder, int32) {
	t.Helper()
	rec, err := recorder.Open(path, recorder.WithTestName(t.Name()))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	if rec.Mode() != recorder.RecordNone {
		t.Fatalf("replaying in mode %v", rec.Mode())
	}
	var booked atomic.Int32
	res := bookingScenario(t, rec, url, prompt, &booked).Run(context.Background())
	return res, rec, booked.Load()
}

// onCI makes the process's environment a CI run that asks for no
// recording.
func onCI(t *testing.T) {
	t.Setenv("CI", "true")
	t.Setenv(recorder.RecordEnv, "")
	if ci, _ := recorder.CI(func(k string) string { return map[string]string{"CI": "true"}[k] }); !ci {
		t.Fatal("CI=true is not taken for CI")
	}
}

// sameRun compares what a replay must reproduce: the transcript, the
// judgments with every verdict, the usage by role, how the run ended.
var sameRun = []cmp.Option{
	sameText,
	cmpopts.IgnoreFields(scenario.Result{}, "Duration"),
	cmpopts.IgnoreFields(scenario.Turn{}, "Duration"),
	cmpopts.IgnoreUnexported(scenario.Result{}),
	cmpopts.EquateErrors(),
}

func TestOpenAIGoAgentScenarioRecordsThenReplaysOnCI(t *testing.T) {
	checkGoroutines(t)
	path := filepath.Join(t.TempDir(), "booking.yaml")
	recorded, requests := record(t, path, bookingPrompt)

	if !recorded.Passed || recorded.Err != nil || recorded.End != "user" || len(recorded.Turns) != 4 || recorded.ToolCalls != 3 {
		t.Fatalf("Expected the recorded run to pass after 4 turns and 3 tool calls, ended by the user, but:\n%s", recorded)
	}
	// 7 agent requests, 4 user answers, 2 judge requests (the first answer,
	// empty, asked again).
	if requests != 13 {
		t.Errorf("the server answered %d requests, want 13", requests)
	}
	want := scenario.Usage{
		Agent: judgment.Usage{PromptTokens: 210 + 260 + 300 + 340 + 370 + 400 + 420, CompletionTokens: 18 + 21 + 22 + 17 + 12 + 10 + 9},
		User:  judgment.Usage{PromptTokens: 150 + 180 + 205 + 220, CompletionTokens: 7 + 12 + 5 + 11},
	}
	if got := recorded.Usage; got.Agent != want.Agent || got.User != want.User || got.Judge.Total() == 0 {
		t.Errorf("usage %+v, want agent %+v, user %+v and the judge's", got, want.Agent, want.User)
	}
	end := recorded.Judgments[len(recorded.Judgments)-1]
	if end.When != "end" || !end.Passed || len(end.Judges) != 1 || len(end.Judges[0].Criteria) != 2 || end.Judges[0].Criteria[1].Verdict != "met" {
		t.Errorf("the final judgment: %+v", end)
	}

	// Replayed three times on CI with the server closed: nothing reaches
	// it (nothing listens at its address), and every run is the recorded
	// one.
	onCI(t)
	if _, err := recorder.Open(path, recorder.WithEnv(func(k string) string {
		return map[string]string{"CI": "true", recorder.RecordEnv: "all"}[k]
	})); err == nil {
		t.Error("CI=true let the cassette be recorded")
	}
	closed := judgetest.NewServer(nil)
	closed.Close()
	for i := range 3 {
		got, rec, booked := replay(t, path, closed.URL, bookingPrompt)
		if diff := cmp.Diff(recorded, got, sameRun...); diff != "" {
			t.Errorf("replay %d differs from the recording (-recorded +replayed):\n%s", i+1, diff)
		}
		if booked != 1 {
			t.Errorf("replay %d: the mocked book_table ran %d times, want once", i+1, booked)
		}
		if src := end.Judges[0].Source; src != rec.Path() {
			t.Errorf("the verdict's source is %q, want the cassette %q", src, rec.Path())
		}
	}
	if closed.Count() != 0 {
		t.Errorf("the replays reached the server %d times", closed.Count())
	}
}

// failT is a test that keeps its failure message.
type failT struct{ msgs []string }

func (*failT) Helper() {}
func (f *failT) Errorf(format string, args ...any) {
	f.msgs = append(f.msgs, fmt.Sprintf(format, args...))
}

func TestOpenAIGoAgentScenarioWithAChangedPromptFailsNamingTurnRoleAndCommand(t *testing.T) {
	checkGoroutines(t)
	path := filepath.Join(t.TempDir(), "booking.yaml")
	if res, _ := record(t, path, bookingPrompt); !res.Passed {
		t.Fatalf("the recording failed:\n%s", res)
	}
	onCI(t)
	closed := judgetest.NewServer(nil)
	closed.Close()

	changed := "You book restaurant tables. Always upsell the tasting menu."
	rec, err := recorder.Open(path, recorder.WithTestName(t.Name()))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	var booked atomic.Int32
	ft := &failT{}
	res := bookingScenario(t, rec, closed.URL, changed, &booked).Test(ft)

	var runErr *scenario.RunError
	var miss *recorder.ReplayMissError
	if res.Passed || !errors.As(res.Err, &runErr) || runErr.Turn != 1 || runErr.Role != "agent" || !errors.As(res.Err, &miss) {
		t.Fatalf("Expected the run to fail at turn 1 with the agent's replay miss, but it ended %q with %v", res.End, res.Err)
	}
	if len(ft.msgs) != 1 {
		t.Fatalf("the test failed %d times, want once: %q", len(ft.msgs), ft.msgs)
	}
	msg := ft.msgs[0]
	for _, want := range []string{
		"at turn 1 the agent failed",
		"openaigo agent: model request 1 of the turn: agentcheck: replay miss",
		"cassette: " + path,
		// The diff against the closest recorded request: the prompt.
		"Search before you book",
		"Always upsell the tasting menu.",
		// The command that records it.
		"record it with: AGENTCHECK_RECORD=",
		" go test . -count=1 -run '^" + t.Name() + "$'",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("Expected the failure to say %q, but it is:\n%s", want, msg)
		}
	}
	if booked.Load() != 0 || closed.Count() != 0 {
		t.Errorf("after the miss: %d bookings, %d requests to the server", booked.Load(), closed.Count())
	}
}
