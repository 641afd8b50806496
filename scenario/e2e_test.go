package scenario_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/goopenai"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/agentcheck/agentcheck/scenario"
	openai "github.com/sashabaranov/go-openai"
)

// The end-to-end tests run a go-openai agent loop (goopenai.Agent) with
// mocked tools through a simulated conversation judged by criteria, over
// real HTTP: one judgetest server plays the agent's model, the simulated
// user and the judge. Their committed cassettes replay with the server
// closed; AGENTCHECK_RECORD=all records them anew from the server:
//
//	AGENTCHECK_RECORD=all go test ./scenario -run 'TestRefund'

// refundTools are the agent's mocked tools.
func refundTools(t interface{ Fatalf(string, ...any) }) *scenario.Toolbox {
	box, err := scenario.NewToolbox(
		scenario.Tool{
			Name: "lookup_order", Description: "Looks an order up by its number.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"order_id":{"type":"string"}},"required":["order_id"],"additionalProperties":false}`),
			Func: func(_ context.Context, args json.RawMessage) (string, error) {
				var a struct {
					OrderID string `json:"order_id"`
				}
				json.Unmarshal(args, &a)
				if a.OrderID != "1042" {
					return "", fmt.Errorf("no order %s", a.OrderID)
				}
				return `{"order_id":"1042","item":"blender","status":"delivered","paid":49.9}`, nil
			},
		},
		scenario.Tool{
			Name: "refund_order", Description: "Refunds an order in full.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"order_id":{"type":"string"}},"required":["order_id"],"additionalProperties":false}`),
			Func: func(_ context.Context, args json.RawMessage) (string, error) {
				return `{"refund_id":"R-77","amount":49.9}`, nil
			},
		},
	)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return box
}

var (
	writeTurn   = regexp.MustCompile(`Write turn (\d+) of the conversation`)
	criterionRe = regexp.MustCompile(`(?m)^\d+\. (.*)$`)
)

// refundServer scripts the three roles: the agent's model by user turn and
// step, the user by the turn it is asked to write, the judge by the
// criteria it is asked about; none keeps state, so runs replay alike.
func refundServer(verdictOf func(criterion string) string) judgetest.Script {
	agent := judgetest.Turns(
		[]judgetest.Reply{
			judgetest.ToolCalls(judgetest.Call("lookup_order", map[string]any{"order_id": "1042"})).WithUsage(120, 12),
			judgetest.Content("I found order 1042: a blender, delivered, paid 49.90. Shall I refund it in full?").WithUsage(160, 20),
		},
		[]judgetest.Reply{
			judgetest.ToolCalls(judgetest.Call("refund_order", map[string]any{"order_id": "1042"})).WithUsage(190, 10),
			judgetest.Content("Done: refund R-77 of 49.90 is on its way.").WithUsage(220, 14),
		},
		[]judgetest.Reply{judgetest.Content("Yes, you will get an email within the hour.").WithUsage(240, 11)},
		[]judgetest.Reply{judgetest.Content("You're welcome!").WithUsage(255, 4)},
	)
	user := func(r judgetest.Request) judgetest.Reply {
		m := writeTurn.FindStringSubmatch(r.LastUser())
		n := 0
		if m != nil {
			n, _ = strconv.Atoi(m[1])
		}
		says := map[int]string{2: "Yes, please refund it.", 3: "Will I get a confirmation email?", 4: "Great, thanks."}
		if s, ok := says[n]; ok {
			return judgetest.UserSays(s).WithUsage(300, 8)
		}
		return judgetest.UserDone("goal reached: the refund was confirmed").WithUsage(310, 9)
	}
	verdict := func(r judgetest.Request) judgetest.Reply {
		head, _, _ := strings.Cut(r.LastUser(), "\nConversation:")
		var vs []judgetest.Verdict
		for _, m := range criterionRe.FindAllStringSubmatch(head, -1) {
			vs = append(vs, judgetest.Verdict{Criterion: m[1], Verdict: verdictOf(m[1]), Reason: "as messages [1] to [7] show"})
		}
		return judgetest.Verdicts(vs...).WithUsage(400, 30)
	}
	return judgetest.ByRole(agent, map[string]judgetest.Script{"scenario_user": user, "scenario_verdict": verdict})
}

func metAll(string) string { return "met" }

// refundScenario is the scenario of the end-to-end tests, its agent and
// its user's and judge's model asking through rec.
func refundScenario(t judge.T, rec *recorder.Recorder, baseURL string, criteria ...string) scenario.Scenario {
	j := judge.ForTest(t, judge.WithRecorder(rec), judge.WithBaseURL(baseURL), judge.WithModel("judge-model"), judge.WithAPIKey(""))
	cfg := openai.DefaultConfig("")
	cfg.BaseURL = baseURL
	cfg.HTTPClient = rec.Client()
	agent := goopenai.Agent(openai.NewClientWithConfig(cfg), "agent-model",
		goopenai.WithSystemPrompt("You are the support agent of a shop. Look orders up before acting on them."),
		goopenai.WithTools(refundTools(t)))
	if criteria == nil {
		criteria = []string{"The agent refunds order 1042 in full", "The agent tells the user the refund's reference"}
	}
	return scenario.Scenario{
		Name:  "refund a broken blender",
		Agent: agent,
		User: scenario.SimulatedUser{
			Model: j, Persona: "a busy customer, polite and brief",
			Goal:         "get a full refund for the broken blender of order 1042",
			Plan:         "You know the order number. Accept nothing but a full refund. Ask whether a confirmation email will follow.",
			FirstMessage: "My blender from order 1042 arrived broken.",
		},
		Judge:    j,
		Criteria: criteria,
		Script: []scenario.Step{
			scenario.UserTurn(),
			scenario.AgentTurn(),
			scenario.Checkpoint("The agent looks order 1042 up before acting on it"),
			scenario.Proceed(),
			scenario.Check(func(c agentcheck.Conversation) agenttest.Report {
				return agenttest.CheckCalled(c, agenttest.CallTo("refund_order").With(agenttest.Args{"order_id": "1042"}), agenttest.Times(1))
			}),
		},
		MaxTurns: 6,
		Budget:   scenario.Budget{ToolCalls: 4, AgentTokens: 2000},
	}
}

// serverFor starts the scripted server; when the test replays, it is closed
// at once, so that a request that reached it would fail.
func serverFor(t *testing.T, script judgetest.Script) (*judgetest.Server, recorder.Mode) {
	mode, err := recorder.ParseMode(os.Getenv(recorder.RecordEnv))
	if err != nil {
		t.Fatal(err)
	}
	s := judgetest.Start(t, script)
	if mode == recorder.RecordNone {
		s.Close()
	}
	return s, mode
}

func TestRefundScenario(t *testing.T) {
	srv, mode := serverFor(t, refundServer(metAll))
	rec := recorder.ForTest(t)
	res := refundScenario(t, rec, srv.URL).Test(t)
	if !res.Passed || res.End != "user" || len(res.Turns) != 4 || res.ToolCalls != 2 {
		t.Fatalf("Expected the refund to pass after 4 turns and 2 tool calls, but:\n%s", res)
	}
	want := scenario.Usage{}
	want.Agent.PromptTokens, want.Agent.CompletionTokens = 120+160+190+220+240+255, 12+20+10+14+11+4
	want.User.PromptTokens, want.User.CompletionTokens = 3*300+310, 3*8+9
	want.Judge.PromptTokens, want.Judge.CompletionTokens = 2*400, 2*30
	if res.Usage != want {
		t.Errorf("usage %+v, want %+v", res.Usage, want)
	}
	if calls := res.Conversation.ToolCalls(); calls[0].Name != "lookup_order" || calls[1].Name != "refund_order" {
		t.Errorf("calls %v", calls)
	}
	if mode == recorder.RecordNone && srv.Count() != 0 {
		t.Errorf("replaying reached the server %d times", srv.Count())
	}
	if mode != recorder.RecordNone {
		return // the cassette is saved when the test ends
	}
	// Replayed again, alone and concurrently, from fresh recorders: the
	// same run every time.
	for i := range 3 {
		again, err := recorder.Open(rec.Path(), recorder.WithMode(recorder.RecordNone), recorder.WithTestName(t.Name()))
		if err != nil {
			t.Fatal(err)
		}
		r2 := refundScenario(t, again, srv.URL).Run(context.Background())
		if r2.String() != res.String() || r2.Conversation.String() != res.Conversation.String() {
			t.Errorf("replay %d differs:\n%s\n--- first:\n%s", i+2, r2, res)
		}
		again.Close()
	}
}

func TestRefundScenarioFailsOnAnUnmetCriterion(t *testing.T) {
	srv, _ := serverFor(t, refundServer(func(c string) string {
		if strings.Contains(c, "reference") {
			return "not_met"
		}
		return "met"
	}))
	s := refundScenario(t, recorder.ForTest(t), srv.URL)
	res := s.Run(t.Context())
	if res.Passed || res.End != "user" || res.Err != nil {
		t.Fatalf("Expected the refund to fail on its second criterion, but:\n%s", res)
	}
	got := res.String()
	for _, w := range []string{
		`Expected the scenario "refund a broken blender" to pass, but the user was done: goal reached: the refund was confirmed (turn 4), and the judge found 1 of 2 criteria not met`,
		"judge judge-model at the checkpoint (turn 1): every criterion met",
		"judge judge-model at the end (turn 4): 1 of 2 criteria not met\n    1. The agent refunds order 1042 in full: met\n         as messages [1] to [7] show\n    2. The agent tells the user the refund's reference: not met",
		"  turn 1:\n    [0] user: My blender from order 1042 arrived broken.\n    [1] agent:\n        -> lookup_order({\"order_id\":\"1042\"})\n    [2] tool lookup_order: {\"order_id\":\"1042\",\"item\":\"blender\",\"status\":\"delivered\",\"paid\":49.9}",
		"tool calls: 2 of 4",
		"tokens: 3359 (agent 1256 of 2000, user 1243, judge 860)",
		"cassette: testdata/cassettes/TestRefundScenarioFailsOnAnUnmetCriterion",
		"    re-record: AGENTCHECK_RECORD=all ",
		"-run '^TestRefundScenarioFailsOnAnUnmetCriterion$'",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("Expected the report to say\n%s\nbut it is:\n%s", w, got)
		}
	}
}

// committedCassette is the path of the committed cassette of the test
// named test, whichever way the recorder spells its file name.
func committedCassette(t testing.TB, test string) string {
	t.Helper()
	var found []string
	for _, pattern := range []string{test + ".yaml", test + "~*.yaml"} {
		m, _ := filepath.Glob(filepath.Join(recorder.DefaultDir, pattern))
		found = append(found, m...)
	}
	if len(found) != 1 {
		t.Fatalf("want one cassette of %s in %s, found %q", test, recorder.DefaultDir, found)
	}
	return found[0]
}

// withoutInteraction copies the cassette at path into a temporary file,
// leaving out the one interaction whose request body has marker.
func withoutInteraction(t *testing.T, path, marker string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const sep = "\n    - id: "
	blocks := strings.Split(string(data), sep)
	kept, dropped := []string{blocks[0]}, 0
	for _, b := range blocks[1:] {
		if req, _, _ := strings.Cut(b, "\n      response:"); strings.Contains(req, marker) {
			dropped++
			continue
		}
		kept = append(kept, b)
	}
	if dropped != 1 {
		t.Fatalf("%d interactions of %s have %q, want 1", dropped, path, marker)
	}
	out := t.TempDir() + "/cassette.yaml"
	if err := os.WriteFile(out, []byte(strings.Join(kept, sep)), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDeletedInteractionNamesTurnAndRole replays the committed cassette of
// TestRefundScenario with one interaction taken out: the run ends with an
// error naming the turn, the role, the closest recorded request with a
// diff, and the command that records the missing request.
func TestDeletedInteractionNamesTurnAndRole(t *testing.T) {
	committed := committedCassette(t, "TestRefundScenario")
	for _, c := range []struct {
		role, marker string
		turn         int
	}{
		{"agent", `"Yes, please refund it."}],`, 2},
		{"user", "Write turn 3 of the conversation", 3},
		{"judge", "The agent tells the user the refund", 4},
	} {
		t.Run(c.role, func(t *testing.T) {
			rec, err := recorder.Open(withoutInteraction(t, committed, c.marker), recorder.WithMode(recorder.RecordNone), recorder.WithTestName("TestRefundScenario"))
			if err != nil {
				t.Fatal(err)
			}
			defer rec.Close()
			res := refundScenario(t, rec, "http://127.0.0.1:1/v1").Run(t.Context())
			var re *scenario.RunError
			var miss *recorder.ReplayMissError
			if !errors.As(res.Err, &re) || re.Role != c.role || re.Turn != c.turn || !errors.As(res.Err, &miss) {
				t.Fatalf("Expected a replay miss of the %s at turn %d, but:\n%s", c.role, c.turn, res)
			}
			got := res.String()
			for _, w := range []string{
				fmt.Sprintf(`Expected the scenario "refund a broken blender" to run to its end, but at turn %d the %s failed:`, c.turn, c.role),
				"agentcheck: replay miss: POST /v1/chat/completions (case refund a broken blender)",
				"closest recorded request: interaction",
				"diff (-recorded +got):",
				"record it with: AGENTCHECK_RECORD=missing ",
				"go test ./scenario ",
				"-run '^TestRefundScenario$'",
			} {
				if !strings.Contains(got, w) {
					t.Errorf("Expected the report to say %q, but it is:\n%s", w, got)
				}
			}
			if hint := "records the judge's new questions alone"; strings.Contains(got, hint) != (c.role == "judge") {
				t.Errorf("the judge-only hint (%s):\n%s", c.role, got)
			}
		})
	}
}

// TestOnlyTheJudgeIsRecordedAnew changes the criteria of TestRefundScenario
// and records what its cassette lacks (AGENTCHECK_RECORD=missing): only the
// judge's new question reaches the model; the agent's and the user's
// requests replay. The cassette then replays the new criteria offline.
func TestOnlyTheJudgeIsRecordedAnew(t *testing.T) {
	data, err := os.ReadFile(committedCassette(t, "TestRefundScenario"))
	if err != nil {
		t.Fatal(err)
	}
	path := t.TempDir() + "/cassette.yaml"
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	criteria := []string{"The agent refunds order 1042 in full", "The agent never asks for the invoice"}
	noCI := func(string) string { return "" }

	srv := judgetest.Start(t, refundServer(metAll))
	rec, err := recorder.Open(path, recorder.WithMode(recorder.RecordMissing), recorder.WithEnv(noCI))
	if err != nil {
		t.Fatal(err)
	}
	res := refundScenario(t, rec, srv.URL, criteria...).Run(t.Context())
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if !res.Passed {
		t.Fatalf("recording the judge:\n%s", res)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].SchemaName() != "scenario_verdict" || !strings.Contains(reqs[0].LastUser(), "never asks for the invoice") {
		names := make([]string, len(reqs))
		for i, r := range reqs {
			names[i] = r.SchemaName()
		}
		t.Fatalf("Expected only the judge's new question to reach the model, but it got %d requests: %q", len(reqs), names)
	}

	srv.Close()
	replay, err := recorder.Open(path, recorder.WithMode(recorder.RecordNone))
	if err != nil {
		t.Fatal(err)
	}
	defer replay.Close()
	again := refundScenario(t, replay, srv.URL, criteria...).Run(t.Context())
	if !again.Passed || again.Judgments[len(again.Judgments)-1].Criteria[1] != criteria[1] {
		t.Errorf("replaying the new criteria:\n%s", again)
	}
}

// TestJudgeAnswerMisfit: an answer that names another criterion does not
// fit the verdict's schema; the judge client asks again, and an answer
// that never fits is the judge's error, never a verdict.
func TestJudgeAnswerMisfit(t *testing.T) {
	for _, c := range []struct {
		name    string
		misfits int
		passed  bool
	}{{"once", 1, true}, {"always", 99, false}} {
		t.Run(c.name, func(t *testing.T) {
			asked := 0
			srv := judgetest.Start(t, judgetest.BySchema(map[string]judgetest.Script{"scenario_verdict": func(r judgetest.Request) judgetest.Reply {
				if asked++; asked <= c.misfits {
					return judgetest.Verdicts(judgetest.Met("a criterion of its own", "made up"))
				}
				return judgetest.Verdicts(judgetest.Met("polite", "[1] thanks the user"))
			}}))
			j := judge.New(judge.WithBaseURL(srv.URL), judge.WithModel("judge-model"), judge.WithAPIKey(""))
			res := scenario.Scenario{Agent: echo(judgment.Usage{}), User: scenario.StaticUser("hello"), Judge: j, Criteria: []string{"polite"}}.Run(t.Context())
			if res.Passed != c.passed {
				t.Fatalf("passed %v:\n%s", res.Passed, res)
			}
			if c.passed {
				if n := srv.Count(); n != 2 || !strings.Contains(srv.Requests()[1].Message(-1), "Your previous answer was rejected") {
					t.Errorf("%d requests; the second: %s", n, srv.Requests()[1].Message(-1))
				}
				return
			}
			var re *scenario.RunError
			if !errors.As(res.Err, &re) || re.Role != "judge" || !strings.Contains(re.Error(), "no usable answer in 3 attempts") ||
				!strings.Contains(re.Error(), `"a criterion of its own" is not one of ["polite"]`) {
				t.Errorf("Expected the misfit to be the judge's error, but:\n%s", res)
			}
		})
	}
}

// TestUserAnswerMisfit: a simulated user's answer that does not fit its
// schema is asked again by the judge client; one that fits but neither ends
// the conversation nor writes a message is the user's error, never a turn.
func TestUserAnswerMisfit(t *testing.T) {
	for _, c := range []struct {
		name  string
		first judgetest.Reply
		want  string // the user's error, "" for a run that goes on
	}{
		{"a field missing", judgetest.Content(`{"done": false, "message": "hello"}`), ""},
		{"an empty message", judgetest.UserSays("  "), "the answer neither ends the conversation nor writes a message"},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := judgetest.Start(t, judgetest.BySchema(map[string]judgetest.Script{
				"scenario_user": judgetest.Sequence(c.first, judgetest.UserSays("hello"), judgetest.UserDone("said hello")),
			}))
			j := judge.New(judge.WithBaseURL(srv.URL), judge.WithModel("user-model"), judge.WithAPIKey(""))
			res := scenario.Scenario{Agent: echo(judgment.Usage{}), User: scenario.SimulatedUser{Model: j}}.Run(t.Context())
			if c.want == "" {
				if !res.Passed || res.Conversation[0].Content != "hello" || !strings.Contains(srv.Requests()[1].Message(-1), "Your previous answer was rejected") {
					t.Errorf("Expected the misfit to be asked again, but:\n%s", res)
				}
				return
			}
			var re *scenario.RunError
			if !errors.As(res.Err, &re) || re.Role != "user" || re.Turn != 1 || !strings.Contains(re.Error(), c.want) || len(res.Conversation) != 0 {
				t.Errorf("Expected a user error %q at turn 1, but:\n%s", c.want, res)
			}
		})
	}
}

// TestModelRequestsOnTheWire reads what the simulated user and the judge
// send, as the server received it: temperature 0 and a fixed seed in every
// request (so that a recording is as repeatable as the model allows), a
// strict schema with the structured done signal for the user, and never
// the criteria in the user's requests.
func TestModelRequestsOnTheWire(t *testing.T) {
	srv := judgetest.Start(t, refundServer(metAll))
	rec, err := recorder.Open(filepath.Join(t.TempDir(), "wire.yaml"), recorder.WithMode(recorder.RecordAll), recorder.WithEnv(func(string) string { return "" }))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	s := refundScenario(t, rec, srv.URL)
	if res := s.Run(t.Context()); !res.Passed {
		t.Fatalf("the run:\n%s", res)
	}
	seen := map[string]int{}
	for _, r := range srv.Requests() {
		name := r.SchemaName()
		if r.FromAgent() {
			continue
		}
		seen[name]++
		temp, _ := r.Field("temperature")
		seed, _ := r.Field("seed")
		if string(temp) != "0" || string(seed) != "42" {
			t.Errorf("request %d (%s): temperature %s, seed %s; want 0 and 42", r.Seq, name, temp, seed)
		}
		if f := r.Chat.ResponseFormat; f == nil || f.JSONSchema == nil || !f.JSONSchema.Strict {
			t.Errorf("request %d (%s) asks for no strict schema", r.Seq, name)
		}
		if name != "scenario_user" {
			continue
		}
		if props, _ := r.Schema()["properties"].(map[string]any); props["done"] == nil {
			t.Errorf("the user's schema has no done signal: %v", r.Schema())
		}
		for _, c := range append(s.Criteria, "looks order 1042 up before acting") {
			if strings.Contains(strings.ToLower(string(r.Body)), strings.ToLower(c)) {
				t.Errorf("the user's request %d holds the criterion %q:\n%s", r.Seq, c, r.Body)
			}
		}
	}
	if seen["scenario_user"] != 4 || seen["scenario_verdict"] != 2 {
		t.Errorf("requests by schema %v, want 4 of the user's (turns 2 to 4, then done) and 2 of the judge's", seen)
	}
}
