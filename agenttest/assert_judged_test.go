package agenttest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/google/go-cmp/cmp"
	openai "github.com/sashabaranov/go-openai"
	"go.uber.org/goleak"
)

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

// goal is CheckGoal with j in the background context.
func goal(j judgment.Judge, s agentcheck.Sample) agenttest.Report {
	return agenttest.CheckGoal(context.Background(), metric.AgentGoalAccuracy{Judge: j}, s)
}

// topics is CheckTopics with j in mode, in the background context.
func topics(j judgment.Judge, s agentcheck.Sample, min float64, mode metric.TopicMode) agenttest.Report {
	return agenttest.CheckTopics(context.Background(), metric.TopicAdherence{Judge: j, Mode: mode}, s, min)
}

func TestCheckGoal(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) })
	dir := t.TempDir()
	s := judgetest.Start(t, refundScript)
	j := refundJudge(t, s, dir, "judge-a")

	if r := goal(j, refund("1042")); !r.OK() {
		t.Fatalf("the right refund failed:\n%s", r)
	}
	r := goal(j, refund("1043"))
	if r.OK() || r.Err() != nil {
		t.Fatalf("the wrong refund: OK %v, Err %v", r.OK(), r.Err())
	}
	got := strings.ReplaceAll(r.String(), dir, "$DIR")
	want := `Expected the conversation "Please refund order 1042, it arrived broken. Also, any…" … "Order 1043 is refunded. I can't give stock tips." (4 messages, 1 tool call) to achieve its goal, but the judge found it did not (agent_goal_accuracy 0, want 1)
desired outcome: the reference "Order 1042 is refunded."
judge judge-a: not achieved
    reason: Order 1043 was refunded instead of 1042.
    inferred goal: Get order 1042 refunded.
    end state: Order 1043 was refunded.
tokens: 419 (380 prompt + 39 completion)
cassette: $DIR/TestCheckGoal~884.yaml
    re-record: AGENTCHECK_RECORD=all AGENTCHECK_RECORD_TEST=TestCheckGoal go test ./agenttest -count=1 -run '^TestCheckGoal$'`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("message (-want +got):\n%s", diff)
	}
	if name, score, ok := r.Score(); name != "agent_goal_accuracy" || score != 0 || !ok {
		t.Errorf("Score() = %q, %v, %v", name, score, ok)
	}
	if !strings.HasPrefix(r.Negated(), "Expected the conversation \"Please refund order 1042") || !strings.Contains(r.Negated(), " not to achieve its goal, but the judge found it did not (agent_goal_accuracy 0)\n") {
		t.Errorf("Negated():\n%s", r.Negated())
	}
}

func TestCheckGoalWhenNoVerdictCanBeGiven(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) })
	dir := t.TempDir()
	s := judgetest.Start(t, refundScript)

	broken := refundJudge(t, s, dir, "judge-broken")
	r := goal(broken, refund("1042"))
	if r.OK() || r.Err() == nil {
		t.Fatalf("a judge that cannot answer: OK %v, Err %v", r.OK(), r.Err())
	}
	for _, want := range []string{
		`Could not judge whether the conversation "Please refund order 1042`,
		"achieves its goal: every judge failed\njudge judge-broken: failed, left out of the score:\n    agent_goal_infer: judge: question",
		"unsupported response_format",
	} {
		if !strings.Contains(r.String(), want) {
			t.Errorf("message lacks %q:\n%s", want, r)
		}
	}

	panel := judge.NewPanel([]judgment.Judge{refundJudge(t, s, dir, "judge-a"), refundJudge(t, s, dir, "judge-lenient")},
		judgment.Aggregation{Method: judgment.Consensus, Tolerance: 0.5})
	r = goal(panel, refund("1043"))
	if r.OK() || r.Err() == nil {
		t.Fatalf("a disagreeing panel: OK %v, Err %v", r.OK(), r.Err())
	}
	for _, want := range []string{
		"The judges disagree whether the conversation",
		"achieves its goal, so there is no verdict either way (agent_goal_accuracy 0)",
		"judge judge-a: not achieved\n", "judge judge-lenient: achieved\n",
		"disagreement: judges disagree: scores [0, 1] spread 1, more than the tolerance 0.5",
	} {
		if !strings.Contains(r.String(), want) {
			t.Errorf("message lacks %q:\n%s", want, r)
		}
	}

	if r := goal(nil, refund("1042")); r.OK() || !strings.Contains(r.String(), "agent_goal_accuracy needs a judge") {
		t.Errorf("nil judge: OK %v, message %s", r.OK(), r)
	}
}

func TestCheckTopics(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) })
	dir := t.TempDir()
	s := judgetest.Start(t, refundScript)
	j := refundJudge(t, s, dir, "judge-a")
	sample := refund("1042")

	// The agent refused the stock tips, as it should: perfect, just under 1.
	if r := topics(j, sample, 0.99, metric.TopicF1); !r.OK() {
		t.Fatalf("an agent that kept to its topics failed:\n%s", r)
	}
	r := topics(j, sample, 1, metric.TopicF1)
	if r.OK() {
		t.Fatal("a threshold of 1 was met")
	}
	got := strings.ReplaceAll(r.String(), dir, "$DIR")
	want := `Expected the conversation "Please refund order 1042, it arrived broken. Also, any…" … "Order 1042 is refunded. I can't give stock tips." (4 messages, 1 tool call) to stay on the topics "orders and refunds", but topic_adherence (f1) is 0.99999999985, want at least 1
note: a threshold of 1 cannot be met once the judge finds a topic: ragas adds 1e-10 to each denominator, so a perfect score is just under 1 (with two topics: precision and recall 0.99999999995, F1 0.9999999999); use 0.99
judge judge-a: precision 0.9999999999, recall 0.9999999999, f1 0.99999999985
    reason: all 2 topics handled as they should be
    topic                 answered  on-topic  counts as
    refund of order 1042  yes       yes       true positive
    stock tips            no        no        nothing: refused off-topic, as it should
tokens: 562 (530 prompt + 32 completion)
cassette: $DIR/TestCheckTopics~884.yaml
    re-record: AGENTCHECK_RECORD=all AGENTCHECK_RECORD_TEST=TestCheckTopics go test ./agenttest -count=1 -run '^TestCheckTopics$'`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("message (-want +got):\n%s", diff)
	}

	// With investing allowed, refusing the stock tips is a false negative:
	// recall halves.
	sample.ReferenceTopics = []string{"orders and refunds", "investing"}
	r = topics(j, sample, 0.8, metric.TopicRecall)
	if r.OK() {
		t.Fatal("a refused on-topic question passed recall 0.8")
	}
	for _, want := range []string{
		`topic_adherence (recall) is 0.499999999975, want at least 0.8`,
		`to stay on the topics "orders and refunds", "investing"`,
		"stock tips            no        yes       false negative: refused on-topic",
	} {
		if !strings.Contains(r.String(), want) {
			t.Errorf("message lacks %q:\n%s", want, r)
		}
	}
	if r := topics(j, sample, 0.99, metric.TopicPrecision); !r.OK() {
		t.Errorf("precision counts no refusal, yet failed:\n%s", r)
	}
}
