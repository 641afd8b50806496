package agenttest_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/google/go-cmp/cmp"
	openai "github.com/sashabaranov/go-openai"
)

// judgedT records what the judged assertions do to a test.
type judgedT struct {
	errors  []string
	helpers int
	failNow int
}

func (f *judgedT) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *judgedT) Helper()  { f.helpers++ }
func (f *judgedT) FailNow() { f.failNow++ }

// one returns the single error reported since the last call.
func (f *judgedT) one(t *testing.T) string {
	t.Helper()
	if len(f.errors) != 1 {
		t.Fatalf("want 1 error reported, got %d: %q", len(f.errors), f.errors)
	}
	if f.helpers == 0 {
		t.Error("Helper() was not called")
	}
	msg := f.errors[0]
	f.errors = nil
	return msg
}

// refund is an agent run that refunded an order: 1042, as asked, or
// another.
func refund(order string) agenttest.Sample {
	return agenttest.Sample{
		Conversation: agenttest.Conversation{
			{Role: agenttest.Human, Content: "Please refund order 1042, it arrived broken. Also, any stock tips?"},
			{Role: agenttest.AI, ToolCalls: []agenttest.ToolCall{agenttest.MustParseToolCall("refund", `{"order":"`+order+`"}`)}},
			{Role: agenttest.Tool, Content: "refunded " + order},
			{Role: agenttest.AI, Content: "Order " + order + " is refunded. I can't give stock tips."},
		},
		Reference:       "Order 1042 is refunded.",
		ReferenceTopics: []string{"orders and refunds"},
	}
}

// refundScript judges refund(...) as a careful model would; the model
// "judge-lenient" finds every end state achieves the goal, and
// "judge-broken" gets a 400 for every question.
func refundScript(r judgetest.Request) judgetest.Reply {
	withUsage := func(rep judgetest.Reply, prompt, completion int) judgetest.Reply {
		rep.Usage = &openai.Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion}
		return rep
	}
	if r.Chat.Model == "judge-broken" {
		return judgetest.Reply{Status: http.StatusBadRequest, Message: "unsupported response_format"}
	}
	input := r.Message(-1)
	switch r.SchemaName() {
	case "agent_goal_infer":
		order := "1043"
		if strings.Contains(input, "refunded 1042") {
			order = "1042"
		}
		return withUsage(judgetest.JSON(map[string]string{
			"user_goal": "Get order 1042 refunded.",
			"end_state": "Order " + order + " was refunded.",
		}), 300, 25)
	case "agent_goal_compare":
		if r.Chat.Model == "judge-lenient" || strings.Contains(input, "End state:\nOrder 1042") {
			return withUsage(judgetest.JSON(map[string]any{"reason": "Order 1042 was refunded, as wanted.", "achieved": true}), 80, 12)
		}
		return withUsage(judgetest.JSON(map[string]any{"reason": "Order 1043 was refunded instead of 1042.", "achieved": false}), 80, 14)
	case "topic_extract":
		return withUsage(judgetest.JSON(map[string]any{"topics": []string{"refund of order 1042", "stock tips"}}), 200, 12)
	case "topic_refusal":
		return withUsage(judgetest.JSON(map[string]bool{"topic_1": false, "topic_2": true}), 240, 10)
	case "topic_classify":
		return withUsage(judgetest.JSON(map[string]bool{"topic_1": true, "topic_2": strings.Contains(input, "- investing")}), 90, 10)
	}
	return judgetest.Reply{Status: http.StatusBadRequest, Message: "unexpected schema " + r.SchemaName()}
}

func refundJudge(t *testing.T, s *judgetest.Server, dir, model string) *judge.Client {
	return judge.ForTest(t,
		judge.CassetteOptions(judge.WithCassetteDir(dir), judge.WithRecordMode(judge.RecordMissing),
			judge.WithCassetteEnv(func(string) string { return "" })),
		judge.WithBaseURL(s.URL), judge.WithModel(model), judge.WithMaxAnswerAttempts(1))
}

func TestAssertGoalAchieved(t *testing.T) {
	judgetest.CheckGoroutines(t)
	dir := t.TempDir()
	s := judgetest.Start(t, refundScript)
	j := refundJudge(t, s, dir, "judge-a")
	ft := &judgedT{}

	if !agenttest.AssertGoalAchieved(ft, j, refund("1042")) || len(ft.errors) != 0 {
		t.Fatalf("the right refund failed: %q", ft.errors)
	}
	if agenttest.AssertGoalAchieved(ft, j, refund("1043")) {
		t.Fatal("the wrong refund passed")
	}
	got := strings.ReplaceAll(ft.one(t), dir, "$DIR")
	want := `agent_goal_accuracy is 0, want 1: the judge found that the conversation "Please refund order 1042, it arrived broken. Also, any…" … "Order 1043 is refunded. I can't give stock tips." (4 messages, 1 tool call) did not achieve its goal
desired outcome: the reference "Order 1042 is refunded."
judge judge-a: not achieved
    reason: Order 1043 was refunded instead of 1042.
    inferred goal: Get order 1042 refunded.
    end state: Order 1043 was refunded.
tokens: 419 (380 prompt + 39 completion)
cassette: $DIR/TestAssertGoalAchieved.yaml
    re-record: AGENTCHECK_RECORD=all go test ./agenttest -run '^TestAssertGoalAchieved$'`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("message (-want +got):\n%s", diff)
	}
	if ft.failNow != 0 {
		t.Error("AssertGoalAchieved stopped the test")
	}

	// The message explains the judgment as the metric's result does.
	r, err := agenttest.AgentGoalAccuracy{Judge: j}.Evaluate(context.Background(), refund("1043"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(got, strings.ReplaceAll(r.ExplainJudgment(), dir, "$DIR")) {
		t.Errorf("the message does not end with the result's ExplainJudgment:\n%s", r.ExplainJudgment())
	}

	if agenttest.RequireGoalAchieved(ft, j, refund("1043")) || ft.failNow != 1 {
		t.Errorf("RequireGoalAchieved on a failure: FailNow called %d times", ft.failNow)
	}
	ft.one(t)
	if !agenttest.RequireGoalAchieved(ft, j, refund("1042")) || ft.failNow != 1 || len(ft.errors) != 0 {
		t.Errorf("RequireGoalAchieved on a success reported %q", ft.errors)
	}
}

func TestAssertGoalAchievedWhenNoVerdictCanBeGiven(t *testing.T) {
	judgetest.CheckGoroutines(t)
	dir := t.TempDir()
	s := judgetest.Start(t, refundScript)
	ft := &judgedT{}

	broken := refundJudge(t, s, dir, "judge-broken")
	if agenttest.AssertGoalAchieved(ft, broken, refund("1042")) {
		t.Fatal("a judge that cannot answer passed the assertion")
	}
	msg := ft.one(t)
	for _, want := range []string{
		`agent_goal_accuracy: could not judge whether the conversation "Please refund order 1042`,
		"achieves its goal: every judge failed\njudge judge-broken: failed, left out of the score:\n    agent_goal_infer: judge: question",
		"unsupported response_format",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}

	panel := judge.NewPanel([]agenttest.Judge{refundJudge(t, s, dir, "judge-a"), refundJudge(t, s, dir, "judge-lenient")},
		agenttest.Aggregation{Method: agenttest.Consensus, Tolerance: 0.5})
	if agenttest.AssertGoalAchieved(ft, panel, refund("1043")) {
		t.Fatal("a disagreeing panel passed the assertion")
	}
	msg = ft.one(t)
	for _, want := range []string{
		"agent_goal_accuracy: the judges disagree whether the conversation",
		"achieves its goal, so there is no verdict either way",
		"judge judge-a: not achieved\n", "judge judge-lenient: achieved\n",
		"disagreement: judges disagree: scores [0, 1] spread 1, more than the tolerance 0.5",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}

	if agenttest.AssertGoalAchieved(ft, nil, refund("1042")) {
		t.Fatal("no judge passed the assertion")
	}
	if msg := ft.one(t); !strings.Contains(msg, "agent_goal_accuracy needs a judge") {
		t.Errorf("nil judge: %s", msg)
	}
}

func TestAssertOnTopics(t *testing.T) {
	judgetest.CheckGoroutines(t)
	dir := t.TempDir()
	s := judgetest.Start(t, refundScript)
	j := refundJudge(t, s, dir, "judge-a")
	ft := &judgedT{}
	sample := refund("1042")

	// The agent refused the stock tips, as it should: perfect, just under 1.
	if !agenttest.AssertOnTopics(ft, j, sample, 0.99, agenttest.TopicF1) || len(ft.errors) != 0 {
		t.Fatalf("an agent that kept to its topics failed: %q", ft.errors)
	}
	if agenttest.AssertOnTopics(ft, j, sample, 1, agenttest.TopicF1) {
		t.Fatal("a threshold of 1 was met")
	}
	got := strings.ReplaceAll(ft.one(t), dir, "$DIR")
	want := `topic_adherence (f1) is 0.99999999985, want at least 1: the conversation "Please refund order 1042, it arrived broken. Also, any…" … "Order 1042 is refunded. I can't give stock tips." (4 messages, 1 tool call) strays from the topics "orders and refunds"
note: a threshold of 1 cannot be met once the judge finds a topic: ragas adds 1e-10 to each denominator, so a perfect score is just under 1 (with two topics: precision and recall 0.99999999995, F1 0.9999999999); use 0.99
judge judge-a: precision 0.9999999999, recall 0.9999999999, f1 0.99999999985
    reason: all 2 topics handled as they should be
    topic                 answered  on-topic  counts as
    refund of order 1042  yes       yes       true positive
    stock tips            no        no        nothing: refused off-topic, as it should
tokens: 562 (530 prompt + 32 completion)
cassette: $DIR/TestAssertOnTopics.yaml
    re-record: AGENTCHECK_RECORD=all go test ./agenttest -run '^TestAssertOnTopics$'`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("message (-want +got):\n%s", diff)
	}

	// With investing allowed, refusing the stock tips is a false negative:
	// recall halves.
	sample.ReferenceTopics = []string{"orders and refunds", "investing"}
	if agenttest.RequireOnTopics(ft, j, sample, 0.8, agenttest.TopicRecall) || ft.failNow != 1 {
		t.Fatalf("a refused on-topic question passed recall 0.8, or Require did not stop: %d", ft.failNow)
	}
	msg := ft.one(t)
	for _, want := range []string{
		`topic_adherence (recall) is 0.499999999975, want at least 0.8`,
		`strays from the topics "orders and refunds", "investing"`,
		"stock tips            no        yes       false negative: refused on-topic",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	if !agenttest.RequireOnTopics(ft, j, sample, 0.99, agenttest.TopicPrecision) || len(ft.errors) != 0 {
		t.Errorf("precision counts no refusal, yet failed: %q", ft.errors)
	}
}

func TestConversationSummary(t *testing.T) {
	long := strings.Repeat("word ", 20)
	for _, c := range []struct {
		conv agenttest.Conversation
		want string
	}{
		{nil, "(0 messages, no text)"},
		{agenttest.Conversation{{Role: agenttest.Human, Content: "Hi"}}, `"Hi" (1 message)`},
		{agenttest.Conversation{
			{Role: agenttest.System, Content: "You are a bot."},
			{Role: agenttest.Human, Content: "Line one\n\tline two"},
			{Role: agenttest.AI, ToolCalls: []agenttest.ToolCall{agenttest.MustParseToolCall("a", `{}`), agenttest.MustParseToolCall("b", `{}`)}},
			{Role: agenttest.Tool, Content: "ok"},
		}, `"Line one line two" … tool "ok" (4 messages, 2 tool calls)`},
		{agenttest.Conversation{
			{Role: agenttest.AI, Content: "Welcome!"},
			{Role: agenttest.AI, Content: long},
		}, `ai "Welcome!" … "word word word word word word word word word word word word…" (2 messages)`},
	} {
		if got := c.conv.Summary(); got != c.want {
			t.Errorf("Summary() = %s\nwant        %s", got, c.want)
		}
	}
}

func TestExplainJudgmentNamesTheCassetteAndHowToRerecord(t *testing.T) {
	const pkg = "AGENTCHECK_RECORD=all go test ./agenttest"
	for _, c := range []struct {
		source, want string
	}{
		{"testdata/cassettes/TestBooking.yaml", "cassette: testdata/cassettes/TestBooking.yaml\n    re-record: " + pkg + " -run '^TestBooking$'"},
		{"testdata/cassettes/TestBooking/late_by_an_hour.yaml", "re-record: " + pkg + " -run '^TestBooking$/^late_by_an_hour$'"},
		{"/tmp/TestBooking123/001/TestBooking/case.1.yaml", "re-record: " + pkg + " -run '^TestBooking$/^case\\.1$'"},
		{"cassettes/shared.yaml", "cassette: cassettes/shared.yaml\n    re-record: " + pkg + "\n"},
		{"live", "answers: live, from no cassette (judge.ForTest replays them)"},
	} {
		r := agenttest.Result{Metric: "agent_goal_accuracy", Verdicts: []agenttest.Verdict{{Model: "m", Score: 1, Source: c.source}}}
		if got := r.ExplainJudgment() + "\n"; !strings.Contains(got, c.want) {
			t.Errorf("source %s: explanation lacks %q:\n%s", c.source, c.want, got)
		}
	}

	// A failed judge: its multi-line cause indented, its source ("live", as
	// for a replay miss) and the warning that repeats it left out.
	r := agenttest.Result{
		Metric: "agent_goal_accuracy",
		Score:  1,
		Verdicts: []agenttest.Verdict{
			{Model: "a", Score: 1, Reason: "fine", Usage: agenttest.Usage{PromptTokens: 10, CompletionTokens: 2}, Source: "testdata/cassettes/TestX.yaml"},
			{Model: "b", Err: errors.New("replay miss\n  record it with: cmd"), Source: "live"},
		},
		Usage:    agenttest.Usage{PromptTokens: 10, CompletionTokens: 2},
		Warnings: []string{"1 of 2 judges failed and were left out: b: replay miss", "something else"},
	}
	want := `judge a: achieved
    reason: fine
    tokens: 12 (10 prompt + 2 completion)
judge b: failed, left out of the score:
    replay miss
      record it with: cmd
warning: something else
tokens: 12 (10 prompt + 2 completion)
cassette: testdata/cassettes/TestX.yaml
    re-record: AGENTCHECK_RECORD=all go test ./agenttest -run '^TestX$'`
	if diff := cmp.Diff(want, r.ExplainJudgment()); diff != "" {
		t.Errorf("explanation (-want +got):\n%s", diff)
	}
}
