package agenttest_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/google/go-cmp/cmp"
	openai "github.com/sashabaranov/go-openai"
	"go.uber.org/goleak"
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
func refund(order string) agentcheck.Sample {
	return agentcheck.Sample{
		Conversation: agentcheck.Conversation{
			{Role: agentcheck.Human, Content: "Please refund order 1042, it arrived broken. Also, any stock tips?"},
			{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{agentcheck.MustParseToolCall("refund", `{"order":"`+order+`"}`)}},
			{Role: agentcheck.Tool, Content: "refunded " + order},
			{Role: agentcheck.AI, Content: "Order " + order + " is refunded. I can't give stock tips."},
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
	rec := recorder.ForTest(t, recorder.WithDir(dir), recorder.WithMode(recorder.RecordMissing),
		recorder.WithEnv(func(string) string { return "" }))
	return judge.ForTest(t, judge.WithRecorder(rec),
		judge.WithBaseURL(s.URL), judge.WithModel(model), judge.WithMaxAnswerAttempts(1))
}

func TestAssertGoalAchieved(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) })
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
	want := `Expected the conversation "Please refund order 1042, it arrived broken. Also, any…" … "Order 1043 is refunded. I can't give stock tips." (4 messages, 1 tool call) to achieve its goal, but the judge found it did not (agent_goal_accuracy 0, want 1)
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

	// The assertion fails with the check's report: one wording for both.
	r := agenttest.CheckGoal(context.Background(), metric.AgentGoalAccuracy{Judge: j}, refund("1043"))
	if r.OK() || strings.ReplaceAll(r.String(), dir, "$DIR") != got {
		t.Errorf("CheckGoal's report is not the assertion's message:\n%s", r)
	}
	if !strings.HasPrefix(r.Negated(), "Expected the conversation \"Please refund order 1042") || !strings.Contains(r.Negated(), " not to achieve its goal, but the judge found it did not (agent_goal_accuracy 0)\n") {
		t.Errorf("Negated():\n%s", r.Negated())
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
	t.Cleanup(func() { goleak.VerifyNone(t) })
	dir := t.TempDir()
	s := judgetest.Start(t, refundScript)
	ft := &judgedT{}

	broken := refundJudge(t, s, dir, "judge-broken")
	if agenttest.AssertGoalAchieved(ft, broken, refund("1042")) {
		t.Fatal("a judge that cannot answer passed the assertion")
	}
	msg := ft.one(t)
	for _, want := range []string{
		`Could not judge whether the conversation "Please refund order 1042`,
		"achieves its goal: every judge failed\njudge judge-broken: failed, left out of the score:\n    agent_goal_infer: judge: question",
		"unsupported response_format",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}

	panel := judge.NewPanel([]metric.Judge{refundJudge(t, s, dir, "judge-a"), refundJudge(t, s, dir, "judge-lenient")},
		metric.Aggregation{Method: metric.Consensus, Tolerance: 0.5})
	if agenttest.AssertGoalAchieved(ft, panel, refund("1043")) {
		t.Fatal("a disagreeing panel passed the assertion")
	}
	msg = ft.one(t)
	for _, want := range []string{
		"The judges disagree whether the conversation",
		"achieves its goal, so there is no verdict either way (agent_goal_accuracy 0.5)",
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
	t.Cleanup(func() { goleak.VerifyNone(t) })
	dir := t.TempDir()
	s := judgetest.Start(t, refundScript)
	j := refundJudge(t, s, dir, "judge-a")
	ft := &judgedT{}
	sample := refund("1042")

	// The agent refused the stock tips, as it should: perfect, just under 1.
	if !agenttest.AssertOnTopics(ft, j, sample, 0.99, metric.TopicF1) || len(ft.errors) != 0 {
		t.Fatalf("an agent that kept to its topics failed: %q", ft.errors)
	}
	if agenttest.AssertOnTopics(ft, j, sample, 1, metric.TopicF1) {
		t.Fatal("a threshold of 1 was met")
	}
	got := strings.ReplaceAll(ft.one(t), dir, "$DIR")
	want := `Expected the conversation "Please refund order 1042, it arrived broken. Also, any…" … "Order 1042 is refunded. I can't give stock tips." (4 messages, 1 tool call) to stay on the topics "orders and refunds", but topic_adherence (f1) is 0.99999999985, want at least 1
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
	if agenttest.RequireOnTopics(ft, j, sample, 0.8, metric.TopicRecall) || ft.failNow != 1 {
		t.Fatalf("a refused on-topic question passed recall 0.8, or Require did not stop: %d", ft.failNow)
	}
	msg := ft.one(t)
	for _, want := range []string{
		`topic_adherence (recall) is 0.499999999975, want at least 0.8`,
		`to stay on the topics "orders and refunds", "investing"`,
		"stock tips            no        yes       false negative: refused on-topic",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	if !agenttest.RequireOnTopics(ft, j, sample, 0.99, metric.TopicPrecision) || len(ft.errors) != 0 {
		t.Errorf("precision counts no refusal, yet failed: %q", ft.errors)
	}
}

// ctxT is a judgedT with a context of its own, as *testing.T and GinkgoT()
// have.
type ctxT struct {
	judgedT
	ctx context.Context
}

func (c *ctxT) Context() context.Context { return c.ctx }

func TestJudgedAssertionsUseTheTestsContext(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) })
	s := judgetest.Start(t, refundScript)
	// A judge that records everything: with no cassette to answer, every
	// question goes to the server, within the test's context.
	rec := recorder.ForTest(t, recorder.WithDir(t.TempDir()), recorder.WithMode(recorder.RecordAll),
		recorder.WithEnv(func(string) string { return "" }))
	j := judge.New(judge.WithRecorder(rec), judge.WithBaseURL(s.URL), judge.WithModel("judge-a"), judge.WithMaxAnswerAttempts(1))

	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the test has ended, or timed out
	ct := &ctxT{ctx: ctx}
	if agenttest.AssertGoalAchieved(ct, j, refund("1042")) {
		t.Fatal("a judged assertion passed in a cancelled test")
	}
	if msg := ct.one(t); !strings.Contains(msg, "context canceled") || !strings.HasPrefix(msg, "Could not judge whether the conversation") {
		t.Errorf("message: %s", msg)
	}
	if n := s.Count(); n != 0 {
		t.Errorf("the server was asked %d questions in a cancelled test", n)
	}

	// The same judge, in a live test's context, answers.
	ct = &ctxT{ctx: context.Background()}
	if !agenttest.AssertGoalAchieved(ct, j, refund("1042")) {
		t.Fatalf("the right refund failed: %q", ct.errors)
	}
}
