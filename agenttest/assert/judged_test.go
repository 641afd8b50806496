package assert_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/agenttest/assert"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/recorder"
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

// refundScript judges refund(...): the goal is achieved when order 1042 was
// refunded; the stock tips are off-topic and refused.
func refundScript(r judgetest.Request) judgetest.Reply {
	input := r.Message(-1)
	switch r.SchemaName() {
	case "agent_goal_infer":
		order := "1043"
		if strings.Contains(input, "refunded 1042") {
			order = "1042"
		}
		return judgetest.JSON(map[string]string{"user_goal": "Get order 1042 refunded.", "end_state": "Order " + order + " was refunded."})
	case "agent_goal_compare":
		if strings.Contains(input, "End state:\nOrder 1042") {
			return judgetest.JSON(map[string]any{"reason": "Order 1042 was refunded, as wanted.", "achieved": true})
		}
		return judgetest.JSON(map[string]any{"reason": "Order 1043 was refunded instead of 1042.", "achieved": false})
	case "topic_extract":
		return judgetest.JSON(map[string]any{"topics": []string{"refund of order 1042", "stock tips"}})
	case "topic_refusal":
		return judgetest.JSON(map[string]bool{"topic_1": false, "topic_2": true})
	case "trajectory_rubric":
		if strings.Contains(input, `refund({"order":"1042"})`) {
			return judgetest.JSON(map[string]any{"reason": "Order 1042, the one the human named, is refunded.", "satisfied": true})
		}
		return judgetest.JSON(map[string]any{"reason": "The agent refunded order 1043, not the 1042 the human named.", "satisfied": false})
	case "topic_classify":
		return judgetest.JSON(map[string]bool{"topic_1": true, "topic_2": strings.Contains(input, "- investing")})
	}
	return judgetest.Reply{Status: http.StatusBadRequest, Message: "unexpected schema " + r.SchemaName()}
}

// refundJudge asks the scripted server, recording into a cassette of its
// own.
func refundJudge(t *testing.T, s *judgetest.Server) *judge.Client {
	rec := recorder.ForTest(t, recorder.WithDir(t.TempDir()), recorder.WithMode(recorder.RecordMissing),
		recorder.WithEnv(func(string) string { return "" }))
	return judge.ForTest(t, judge.WithRecorder(rec), judge.WithBaseURL(s.URL), judge.WithModel("judge-a"), judge.WithMaxAnswerAttempts(1))
}

func TestGoalAchieved(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) })
	j := refundJudge(t, judgetest.Start(t, refundScript))
	rt := &recordingT{}
	if !assert.GoalAchieved(rt, j, refund("1042")) || len(rt.errors) != 0 {
		t.Fatalf("the right refund failed: %q", rt.errors)
	}
	if rt.attr("agentcheck.check") != "goal" || rt.attr("agentcheck.agent_goal_accuracy") != "1" || rt.attr("agentcheck.verdict") != "pass" {
		t.Errorf("attributes: %q", rt.attrs)
	}
	if assert.GoalAchieved(rt, j, refund("1043"), "refund of %s", "1043") {
		t.Fatal("the wrong refund passed")
	}
	got := rt.one(t)
	want := agenttest.CheckGoal(context.Background(), metric.AgentGoalAccuracy{Judge: j}, refund("1043")).String()
	if !testifyLayout(want, "refund of 1043").MatchString(got) {
		t.Errorf("failure:\n%s\nwant testify's layout of:\n%s", got, want)
	}
	if !strings.Contains(got, "reason: Order 1043 was refunded instead of 1042.") {
		t.Errorf("failure lacks the judge's reason:\n%s", got)
	}
	if rt.attr("agentcheck.agent_goal_accuracy") != "0" || rt.attr("agentcheck.verdict") != "fail" {
		t.Errorf("attributes: %q", rt.attrs)
	}
}

func TestRubric(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) })
	m := metric.TrajectoryRubric{Judge: refundJudge(t, judgetest.Start(t, refundScript)), Rubric: "Refund only the order the human named."}
	rt := &recordingT{}
	if !assert.Rubric(rt, m, refund("1042")) || len(rt.errors) != 0 {
		t.Fatalf("the right refund failed the rubric: %q", rt.errors)
	}
	if assert.Rubric(rt, m, refund("1043"), "refund of %s", "1043") {
		t.Fatal("the wrong refund satisfied the rubric")
	}
	got := rt.one(t)
	want := agenttest.CheckRubric(context.Background(), m, refund("1043")).String()
	if !testifyLayout(want, "refund of 1043").MatchString(got) || !strings.Contains(got, "not the 1042 the human named") {
		t.Errorf("failure:\n%s\nwant testify's layout of:\n%s", got, want)
	}
	if rt.attr("agentcheck.check") != "rubric" || rt.attr("agentcheck.trajectory_rubric") != "0" || rt.attr("agentcheck.verdict") != "fail" {
		t.Errorf("attributes: %q", rt.attrs)
	}
}

func TestOnTopics(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) })
	j := refundJudge(t, judgetest.Start(t, refundScript))
	rt := &recordingT{}
	sample := refund("1042")
	if !assert.OnTopics(rt, j, sample, 0.99, metric.TopicF1) || len(rt.errors) != 0 {
		t.Fatalf("an agent that kept to its topics failed: %q", rt.errors)
	}
	// With investing allowed, refusing the stock tips is a false negative.
	sample.ReferenceTopics = []string{"orders and refunds", "investing"}
	if assert.OnTopics(rt, j, sample, 0.8, metric.TopicRecall, "investing allowed") {
		t.Fatal("a refused on-topic question passed recall 0.8")
	}
	got := rt.one(t)
	for _, want := range []string{
		"\tError:      \tExpected the conversation ",
		"topic_adherence (recall) is 0.499999999975, want at least 0.8",
		"stock tips            no        yes       false negative: refused on-topic",
		"\tMessages:   \tinvesting allowed\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("failure lacks %q:\n%s", want, got)
		}
	}
	if rt.attr("agentcheck.check") != "topics" || rt.attr("agentcheck.topic_adherence") != "0.499999999975" {
		t.Errorf("attributes: %q", rt.attrs)
	}
}

// ctxT is a recordingT with a context of its own, as *testing.T and
// GinkgoT() have.
type ctxT struct {
	recordingT
	ctx context.Context
}

func (c *ctxT) Context() context.Context { return c.ctx }

func TestJudgedAssertionsUseTheTestsContext(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) })
	s := judgetest.Start(t, refundScript)
	// Recording everything, every question goes to the server, within the
	// test's context.
	rec := recorder.ForTest(t, recorder.WithDir(t.TempDir()), recorder.WithMode(recorder.RecordAll),
		recorder.WithEnv(func(string) string { return "" }))
	j := judge.New(judge.WithRecorder(rec), judge.WithBaseURL(s.URL), judge.WithModel("judge-a"), judge.WithMaxAnswerAttempts(1))

	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the test has ended, or timed out
	ct := &ctxT{ctx: ctx}
	if assert.GoalAchieved(ct, j, refund("1042")) {
		t.Fatal("a judged assertion passed in a cancelled test")
	}
	if msg := ct.one(t); !strings.Contains(msg, "context canceled") || !strings.Contains(msg, "\tError:      \tCould not judge whether the conversation") {
		t.Errorf("failure: %s", msg)
	}
	if ct.attr("agentcheck.verdict") != "error" {
		t.Errorf("attributes: %q", ct.attrs)
	}
	if n := s.Count(); n != 0 {
		t.Errorf("the server was asked %d questions in a cancelled test", n)
	}
	ct = &ctxT{ctx: context.Background()}
	if !assert.GoalAchieved(ct, j, refund("1042")) {
		t.Fatalf("the right refund failed: %q", ct.errors)
	}
}
