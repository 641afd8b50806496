package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
)

// The judged metrics end to end: the command, go-openai, the recorder and
// judgetest's server over real HTTP on loopback.

const testKey = "sk-agentcheck-test-key-4242"

// judgedSamples are four runs of a food-delivery agent: a pizza ordered as
// asked, a gym membership not cancelled (refused, off-topic), sushi with no
// reference_topics, and a question answered off-topic with no reference.
var judgedSamples = []string{
	`{"user_input": [{"type": "human", "content": "Order a large pizza to 5 Elm Street"}, {"type": "ai", "content": "", "tool_calls": [{"name": "order_pizza", "args": {"size": "large", "address": "5 Elm Street"}}]}, {"type": "tool", "content": "Order P-1 confirmed"}, {"type": "ai", "content": "Your pizza is on its way."}], "reference": "A large pizza is ordered to 5 Elm Street", "reference_topics": ["food delivery"]}`,
	`{"user_input": [{"type": "human", "content": "Cancel my gym membership"}, {"type": "ai", "content": "I can only help with food orders."}], "reference": "The gym membership is cancelled", "reference_topics": ["food delivery"]}`,
	`{"user_input": [{"type": "human", "content": "Order sushi for two"}, {"type": "ai", "content": "", "tool_calls": [{"name": "order_sushi", "args": {"people": 2}}]}, {"type": "tool", "content": "Order S-9 confirmed"}, {"type": "ai", "content": "Sushi for two is ordered."}], "reference": "Sushi for two is ordered"}`,
	`{"user_input": [{"type": "human", "content": "What is the capital of France?"}, {"type": "ai", "content": "Paris."}], "reference_topics": ["food delivery"]}`,
}

// judgedScores are what the script below makes of them, f1 for topics.
var judgedScores = []string{
	`{"agent_goal_accuracy":1.0,"topic_adherence":0.99999999985}`, // TP 1
	`{"agent_goal_accuracy":0.0,"topic_adherence":0.0}`,           // refused off-topic: counts nowhere
	"", // an error line
	`{"agent_goal_accuracy":1.0,"topic_adherence":0.0}`, // answered off-topic: FP 1
}

// foodCase is what the scripted judge knows about one conversation.
type foodCase struct {
	word, goal, end string
	achieved        bool
	topic           string
	refused, on     bool
}

var foodCases = []foodCase{
	{"pizza", "Order a large pizza to 5 Elm Street", "PIZZA-ORDERED", true, "pizza order", false, true},
	{"gym", "Cancel the gym membership", "GYM-NOT-CANCELLED", false, "gym membership cancellation", true, false},
	{"sushi", "Order sushi for two", "SUSHI-ORDERED", true, "sushi order", false, true},
	{"capital", "Learn the capital of France", "ANSWERED-PARIS", true, "capital of France", false, false},
	{"pasta", "Order pasta", "PASTA-ORDERED", true, "pasta order", false, true},
}

// foodScript judges the samples above; a model named "strict" never finds
// a goal achieved, and a conversation about "refusal" gets refusals.
func foodScript() judgetest.Script {
	find := func(r judgetest.Request) foodCase {
		in := r.Message(1)
		for _, c := range foodCases {
			if strings.Contains(in, c.word) || strings.Contains(in, c.end) || strings.Contains(in, c.topic) {
				return c
			}
		}
		return foodCase{}
	}
	refuse := func(s judgetest.Script) judgetest.Script {
		return func(r judgetest.Request) judgetest.Reply {
			if strings.Contains(r.Message(1), "refusal") {
				return judgetest.Refusal("I cannot judge this conversation.")
			}
			return s(r)
		}
	}
	return refuse(judgetest.BySchema(map[string]judgetest.Script{
		"agent_goal_infer": func(r judgetest.Request) judgetest.Reply {
			c := find(r)
			return judgetest.JSON(map[string]any{"user_goal": c.goal, "end_state": c.end})
		},
		"agent_goal_compare": func(r judgetest.Request) judgetest.Reply {
			c := find(r)
			achieved := c.achieved && r.Chat.Model != "strict"
			return judgetest.JSON(map[string]any{"reason": fmt.Sprintf("%s judged by %s", c.end, r.Chat.Model), "achieved": achieved})
		},
		"topic_extract": func(r judgetest.Request) judgetest.Reply {
			return judgetest.JSON(map[string]any{"topics": []string{find(r).topic}})
		},
		"topic_refusal": func(r judgetest.Request) judgetest.Reply {
			return judgetest.JSON(map[string]any{"topic_1": find(r).refused})
		},
		"topic_classify": func(r judgetest.Request) judgetest.Reply {
			return judgetest.JSON(map[string]any{"topic_1": find(r).on})
		},
	}))
}

// judgeEnv sets the judge's environment for one run of the command: the
// server (or nowhere), the key, the record mode; no CI, no model.
func judgeEnv(t *testing.T, baseURL, key, record string) {
	t.Setenv(judge.EnvBaseURL, baseURL)
	t.Setenv(judge.EnvAPIKey, key)
	t.Setenv(judge.EnvModel, "")
	t.Setenv(recorder.RecordEnv, record)
	t.Setenv("CI", "")
}

// offlineURL is where nothing listens: a replay that reached the network
// would fail.
const offlineURL = "http://127.0.0.1:9/v1"

func judgedArgs(extra ...string) []string {
	return append([]string{"eval", "--format", "jsonl", "--metrics", "agent_goal_accuracy,topic_adherence"}, extra...)
}

// checkJudgedOutput checks the jsonl of judgedSamples against want, the
// error line included.
func checkJudgedOutput(t *testing.T, out, path string, want []string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(onlyScores(t, out), "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d output lines for %d samples:\n%s", len(lines), len(want), out)
	}
	for i, w := range want {
		if w == "" {
			continue
		}
		if lines[i] != w {
			t.Errorf("line %d = %s, want %s", i+1, lines[i], w)
		}
	}
	wantErr := fmt.Sprintf(`{"error":"%s:3: sample 2: topic_adherence needs reference_topics, and the sample has none"}`, path)
	if lines[2] != wantErr {
		t.Errorf("line 3 = %s, want %s", lines[2], wantErr)
	}
}

// TestEvalJudgedRecordThenReplay records a cassette through the command,
// then replays it with the server gone and no key: the same output, and a
// cassette without the key.
func TestEvalJudgedRecordThenReplay(t *testing.T) {
	checkGoroutines(t)
	srv := judgetest.NewServer(foodScript())
	defer srv.Close()
	path := writeFile(t, "runs.jsonl", strings.Join(judgedSamples, "\n")+"\n")
	cassette := path + ".cassette.yaml" // the default for one FILE

	judgeEnv(t, srv.URL, testKey, "all")
	recorded, stderr, code := runAgentcheck(t, "", judgedArgs(path)...)
	if code != 1 || !strings.Contains(stderr, "1 of 4 samples could not be scored") {
		t.Errorf("recording: exit %d, stderr %q; want 1 and the sample without reference_topics counted", code, stderr)
	}
	if !strings.Contains(stderr, "recording (AGENTCHECK_RECORD=all)") || !strings.Contains(stderr, cassette) {
		t.Errorf("recording: stderr %q does not say it records into %s", stderr, cassette)
	}
	checkJudgedOutput(t, recorded, path, judgedScores)
	// Goal accuracy: 2 calls a sample, 4 samples; topics: 3 calls for each
	// of the 3 samples with reference topics.
	if got, want := srv.Count(), 2*4+3*3; got != want {
		t.Errorf("the judge was asked %d times, want %d", got, want)
	}
	for _, r := range srv.Requests() {
		if r.Header.Get("Authorization") != "Bearer "+testKey {
			t.Fatalf("request %d reached the server without the key", r.Seq)
		}
	}
	srv.Close()
	data, err := os.ReadFile(cassette)
	if err != nil {
		t.Fatalf("no cassette at the default path: %v", err)
	}
	if strings.Contains(string(data), testKey) || strings.Contains(strings.ToLower(string(data)), "authorization") {
		t.Errorf("the cassette holds the key or its header")
	}

	judgeEnv(t, offlineURL, "", "")
	for _, concurrency := range []string{"1", "8"} {
		replayed, stderr, code := runAgentcheck(t, "", judgedArgs("--judge-concurrency", concurrency, path)...)
		if code != 1 {
			t.Errorf("replay: exit %d, want 1 (stderr %q)", code, stderr)
		}
		if diff := cmp.Diff(recorded, replayed); diff != "" {
			t.Errorf("replay at concurrency %s differs from the recording (-recorded +replayed):\n%s", concurrency, diff)
		}
	}

	// The table shows the judged scores, and their means over the samples
	// that scored: (1+0+1)/3 and (0.99999999985+0+0)/3.
	table, _, _ := runAgentcheck(t, "", "eval", "--metrics", "agent_goal_accuracy,topic_adherence", path)
	rows := strings.Split(strings.TrimSuffix(table, "\n"), "\n")
	if f := strings.Fields(rows[1]); len(f) < 4 || !cmp.Equal(f[2:4], []string{"1.0000", "1.0000"}) { // the table rounds to 4 decimals
		t.Errorf("table row %q, want the judged scores", rows[1])
	}
	if f := strings.Fields(rows[len(rows)-1]); !cmp.Equal(f[:3], []string{"mean", "0.6667", "0.3333"}) {
		t.Errorf("table summary %q", rows[len(rows)-1])
	}
}

// TestEvalJudgedReplayMiss: a sample the cassette lacks gets an error line
// naming the cassette and the command that records it; the other samples
// are still scored from the cassette. Running that command records it.
func TestEvalJudgedReplayMiss(t *testing.T) {
	srv := judgetest.NewServer(foodScript())
	defer srv.Close()
	dir := t.TempDir()
	cassette := filepath.Join(dir, "food.yaml")
	first := writeFile(t, "first.jsonl", strings.Join(judgedSamples, "\n")+"\n")
	judgeEnv(t, srv.URL, testKey, "missing")
	if _, stderr, code := runAgentcheck(t, "", judgedArgs("--cassette", cassette, first)...); code != 1 {
		t.Fatalf("recording: exit %d: %s", code, stderr)
	}

	pasta := `{"user_input": [{"type": "human", "content": "Order pasta"}, {"type": "ai", "content": "Pasta is ordered."}], "reference_topics": ["food delivery"]}`
	more := writeFile(t, "more.jsonl", strings.Join(append(judgedSamples[:4:4], pasta), "\n")+"\n")
	judgeEnv(t, offlineURL, "", "")
	args := judgedArgs("--cassette", cassette, more)
	out, stderr, code := runAgentcheck(t, "", args...)
	if code != 1 || !strings.Contains(stderr, "2 of 5 samples could not be scored") {
		t.Errorf("replay: exit %d, stderr %q", code, stderr)
	}
	objs := parseJSONL(t, out)
	if len(objs) != 5 {
		t.Fatalf("%d lines for 5 samples:\n%s", len(objs), out)
	}
	checkJudgedOutput(t, strings.Join(strings.Split(out, "\n")[:4], "\n")+"\n", more, judgedScores)
	msg, _ := objs[4]["error"].(string)
	command := "AGENTCHECK_RECORD=missing agentcheck eval " + strings.Join(args[1:], " ")
	for _, want := range []string{
		more + ":5: sample 4: ",
		"agentcheck: replay miss: POST /v1/chat/completions",
		"cassette: " + cassette,
		"record it with: " + command,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("miss line does not contain %q:\n%s", want, msg)
		}
	}

	// The command it gives records what is missing, and only that.
	before := srv.Count()
	judgeEnv(t, srv.URL, testKey, "missing")
	if out, stderr, code := runAgentcheck(t, "", args...); code != 1 || strings.Contains(out, "replay miss") {
		t.Fatalf("recording the miss: exit %d\n%s\n%s", code, out, stderr)
	}
	if got := srv.Count() - before; got != 2+3 {
		t.Errorf("recording the miss asked the judge %d times, want 5 (the new sample's)", got)
	}
	judgeEnv(t, offlineURL, "", "")
	out, _, _ = runAgentcheck(t, "", args...)
	if got, want := strings.Split(onlyScores(t, out), "\n")[4], `{"agent_goal_accuracy":1.0,"topic_adherence":0.99999999985}`; got != want {
		t.Errorf("the recorded sample replays as %s, want %s", got, want)
	}
}

// TestEvalJudgePanel: repeating --judge-model makes a panel whose scores
// combine as --aggregation says; every model's judgments replay.
func TestEvalJudgePanel(t *testing.T) {
	srv := judgetest.NewServer(foodScript())
	defer srv.Close()
	path := writeFile(t, "runs.jsonl", strings.Join(judgedSamples, "\n")+"\n")
	cassette := filepath.Join(t.TempDir(), "panel.yaml")
	panel := []string{"--metrics", "agent_goal_accuracy", "--cassette", cassette, "--judge-model", "lenient", "--judge-model", "strict"}

	judgeEnv(t, srv.URL, testKey, "all")
	recorded, stderr, code := runAgentcheck(t, "", append(append([]string{"eval", "--format", "jsonl"}, panel...), path)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	models := map[string]int{}
	for _, r := range srv.Requests() {
		models[r.Chat.Model]++
	}
	if diff := cmp.Diff(map[string]int{"lenient": 8, "strict": 8}, models); diff != "" {
		t.Errorf("requests per model (-want +got):\n%s", diff)
	}
	srv.Close()

	judgeEnv(t, offlineURL, "", "")
	for _, tt := range []struct {
		flags  []string
		scores []string // the pizza, gym, sushi and capital samples
		stderr string
	}{
		{nil, []string{"0.5", "0.0", "0.5", "0.5"}, ""},
		{[]string{"--aggregation", "min"}, []string{"0.0", "0.0", "0.0", "0.0"}, ""},
		{[]string{"--aggregation", "majority"}, []string{"0.0", "0.0", "0.0", "0.0"}, ""},
		// A panel that disagrees has not passed: it scores 0, and a line
		// says why, with both scores.
		{[]string{"--aggregation", "consensus", "--tolerance", "0.5"}, []string{"0.0", "0.0", "0.0", "0.0"}, "sample 0: agent_goal_accuracy: the judges disagree: judges disagree: scores [1, 0] spread 1, more than the tolerance 0.5, so the panel scores 0 (their mean is 0.5)"},
	} {
		args := append(append(append([]string{"eval", "--format", "jsonl"}, panel...), tt.flags...), path)
		out, stderr, code := runAgentcheck(t, "", args...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", tt.flags, code, stderr)
			continue
		}
		var want []string
		for _, s := range tt.scores {
			want = append(want, `{"agent_goal_accuracy":`+s+`}`)
		}
		if diff := cmp.Diff(strings.Join(want, "\n")+"\n", onlyScores(t, out)); diff != "" {
			t.Errorf("%v (-want +got):\n%s", tt.flags, diff)
		}
		if tt.flags == nil && out != recorded {
			t.Errorf("the replay differs from the recording")
		}
		if !strings.Contains(stderr, tt.stderr) || tt.stderr == "" && stderr != "" {
			t.Errorf("%v: stderr %q, want %q", tt.flags, stderr, tt.stderr)
		}
	}
}

// TestEvalJudgeFailure: a judge that refuses to answer costs its sample an
// error line saying what came back, after the retries; the others score.
func TestEvalJudgeFailure(t *testing.T) {
	srv := judgetest.NewServer(foodScript())
	defer srv.Close()
	refused := `{"user_input": [{"type": "human", "content": "A refusal, please"}, {"type": "ai", "content": "No."}], "reference": "x"}`
	path := writeFile(t, "runs.jsonl", judgedSamples[0]+"\n"+refused+"\n"+judgedSamples[3]+"\n")
	judgeEnv(t, srv.URL, testKey, "all")
	out, stderr, code := runAgentcheck(t, "", "eval", "--format", "jsonl", "--metrics", "agent_goal_accuracy", path)
	if code != 1 || !strings.Contains(stderr, "1 of 3 samples could not be scored") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	objs := parseJSONL(t, out)
	if len(objs) != 3 || objs[0]["agent_goal_accuracy"] != 1.0 || objs[2]["agent_goal_accuracy"] != 1.0 {
		t.Fatalf("output:\n%s", out)
	}
	msg, _ := objs[1]["error"].(string)
	for _, want := range []string{path + ":2: sample 1: agent_goal_accuracy: every judge failed", "no usable answer in 3 attempts", `the model refused: \"I cannot judge this conversation.\"`} {
		if !strings.Contains(msg, strings.ReplaceAll(want, `\"`, `"`)) {
			t.Errorf("error line does not contain %q:\n%s", want, msg)
		}
	}
}

// TestEvalJudgedOrder: with judgments of random latency in flight at once,
// the output is still in input order, and the same as one at a time.
func TestEvalJudgedOrder(t *testing.T) {
	base := foodScript()
	srv := judgetest.NewServer(func(r judgetest.Request) judgetest.Reply {
		return base(r).After(time.Duration(rand.IntN(5)) * time.Millisecond)
	})
	defer srv.Close()
	var lines []string
	var want []string
	for i := range 60 {
		c := foodCases[i%len(foodCases)]
		lines = append(lines, fmt.Sprintf(`{"user_input": [{"type": "human", "content": "%s #%d"}, {"type": "ai", "content": "ok"}], "reference_topics": ["food delivery"]}`, c.word, i))
		goal := "0.0"
		if c.achieved {
			goal = "1.0"
		}
		topics := "0.0"
		if !c.refused && c.on {
			topics = "0.99999999985"
		}
		want = append(want, fmt.Sprintf(`{"agent_goal_accuracy":%s,"topic_adherence":%s}`, goal, topics))
	}
	path := writeFile(t, "many.jsonl", strings.Join(lines, "\n")+"\n")
	cassette := filepath.Join(t.TempDir(), "many.yaml")
	judgeEnv(t, srv.URL, testKey, "all")
	out, stderr, code := runAgentcheck(t, "", judgedArgs("--judge-concurrency", "16", "--cassette", cassette, path)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if diff := cmp.Diff(strings.Join(want, "\n")+"\n", onlyScores(t, out)); diff != "" {
		t.Errorf("concurrent judging (-want +got):\n%s", diff)
	}
	judgeEnv(t, offlineURL, "", "")
	replayed, _, _ := runAgentcheck(t, "", judgedArgs("--judge-concurrency", "1", "--cassette", cassette, path)...)
	if replayed != out {
		t.Errorf("the replay one at a time differs from the concurrent recording")
	}
}

// TestEvalJudgedSetupErrors: what stops a judged run before it starts, with
// exit status 2 and nothing on standard output.
func TestEvalJudgedSetupErrors(t *testing.T) {
	path := writeFile(t, "runs.jsonl", judgedSamples[0]+"\n")
	tests := []struct {
		name        string
		ci, record  string
		args        []string
		wantMessage []string
	}{
		{"CI refuses recording", "true", "missing", judgedArgs(path),
			[]string{"AGENTCHECK_RECORD=missing refused because this is a CI run (CI=true)", path + ".cassette.yaml"}},
		{"the built-in cassette only replays", "", "all", []string{"eval"},
			[]string{"cassettes/demo.yaml is embedded in the program, so it can only be replayed", "give --cassette PATH"}},
		{"standard input needs a cassette", "", "", judgedArgs("-"),
			[]string{"need --cassette PATH"}},
		{"several files need a cassette", "", "", judgedArgs(path, path),
			[]string{"need --cassette PATH"}},
		{"a bad record mode", "", "sometimes", judgedArgs(path),
			[]string{`AGENTCHECK_RECORD="sometimes": want missing, all`}},
	}
	for _, tt := range tests {
		judgeEnv(t, offlineURL, "", tt.record)
		t.Setenv("CI", tt.ci)
		out, stderr, code := runAgentcheck(t, judgedSamples[0], tt.args...)
		if code != 2 || out != "" {
			t.Errorf("%s: exit %d, stdout %q; want 2 and nothing", tt.name, code, out)
		}
		for _, w := range tt.wantMessage {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s: stderr %q does not contain %q", tt.name, stderr, w)
			}
		}
	}
	if _, err := os.Stat(path + ".cassette.yaml"); !os.IsNotExist(err) {
		t.Errorf("a refused run left a cassette (stat: %v)", err)
	}
}

// checkGoroutines fails t if goroutines started after it outlive t and its
// cleanups: call it first.
func checkGoroutines(t *testing.T) {
	opt := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, opt) })
}
