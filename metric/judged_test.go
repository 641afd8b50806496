package metric

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/judgment"
)

// scriptJudge answers questions by name from a table; it stands in for a
// model in the tests of the metrics' arithmetic and call plan. The judge
// package's tests cover real HTTP.
type scriptJudge struct {
	model   string
	answers map[string]string
	fail    error

	mu    sync.Mutex
	calls []judgment.Question
}

func (j *scriptJudge) Model() string { return j.model }

func (j *scriptJudge) Ask(_ context.Context, q judgment.Question) (judgment.Answer, error) {
	j.mu.Lock()
	j.calls = append(j.calls, q)
	j.mu.Unlock()
	if j.fail != nil {
		return judgment.Answer{Model: j.model}, j.fail
	}
	a, ok := j.answers[q.Name]
	if !ok {
		return judgment.Answer{}, errors.New("no scripted answer for " + q.Name)
	}
	return judgment.Answer{JSON: json.RawMessage(a), Model: j.model, Usage: judgment.Usage{PromptTokens: 10, CompletionTokens: 5}, Source: "script"}, nil
}

type panel struct {
	members []judgment.Judge
	agg     judgment.Aggregation
}

func (p panel) Ask(ctx context.Context, q judgment.Question) (judgment.Answer, error) {
	return p.members[0].Ask(ctx, q)
}
func (p panel) Members() []judgment.Judge         { return p.members }
func (p panel) Aggregation() judgment.Aggregation { return p.agg }

func TestTopicScoresMatchRagas(t *testing.T) {
	for _, c := range []struct {
		answered, onTopic []bool
		p, r, f1          float64
	}{
		{[]bool{true, true, true}, []bool{true, true, false}, 0.6666666666444444, 0.99999999995, 0.79999999992},
		{[]bool{true, false, true, true}, []bool{true, true, false, true}, 0.6666666666444444, 0.6666666666444444, 0.6666666665944444},
		{[]bool{false, true}, []bool{true, true}, 0.9999999999, 0.499999999975, 0.6666666665777777},
		{[]bool{false}, []bool{false}, 0, 0, 0},
	} {
		p, r, f1 := topicScores(c.answered, c.onTopic)
		if p != c.p || r != c.r || f1 != c.f1 {
			t.Errorf("topicScores(%v, %v) = %v, %v, %v; ragas gives %v, %v, %v", c.answered, c.onTopic, p, r, f1, c.p, c.r, c.f1)
		}
	}
}

var topicSample = agentcheck.Sample{
	Conversation: agentcheck.Conversation{
		{Role: agentcheck.Human, Content: "Book me a table for two tonight, and what do you think of the election?"},
		{Role: agentcheck.AI, Content: "Booked at 8pm. I can't discuss politics."},
	},
	ReferenceTopics: []string{"restaurants"},
}

func TestTopicAdherenceMakesThreeCallsInTwoRounds(t *testing.T) {
	j := &scriptJudge{model: "m1", answers: map[string]string{
		"topic_extract":  `{"topics":["table booking","election","wine"]}`,
		"topic_refusal":  `{"topic_1":false,"topic_2":true,"topic_3":false}`,
		"topic_classify": `{"topic_1":true,"topic_2":false,"topic_3":false}`,
	}}
	for _, mode := range []TopicMode{TopicF1, TopicPrecision, TopicRecall} {
		j.calls = nil
		r, err := TopicAdherence{Judge: j, Mode: mode}.Evaluate(context.Background(), topicSample)
		if err != nil {
			t.Fatal(err)
		}
		if len(j.calls) != 3 || j.calls[0].Name != "topic_extract" {
			t.Fatalf("calls = %d, first %q; want 3 starting with topic_extract", len(j.calls), j.calls[0].Name)
		}
		// answered [T,F,T], on-topic [T,F,F]: TP 1, FP 1 (wine), FN 0.
		p, rc, f1 := topicScores([]bool{true, false, true}, []bool{true, false, false})
		want := map[TopicMode]float64{TopicF1: f1, TopicPrecision: p, TopicRecall: rc}[mode]
		if r.Score != want {
			t.Errorf("%s: score %v, want %v", mode, r.Score, want)
		}
		v := r.Verdicts[0]
		if len(v.Topics) != 3 || v.Topics[1].OnTopic || v.Topics[1].Answered {
			t.Errorf("topics = %+v", v.Topics)
		}
		if !strings.Contains(r.Reason, `answered off-topic "wine"`) {
			t.Errorf("reason %q does not name the off-topic answer", r.Reason)
		}
		if r.Usage.Total() != 45 {
			t.Errorf("usage %+v, want 3 calls of 15 tokens", r.Usage)
		}
	}
	for _, q := range j.calls[1:] {
		if !strings.Contains(string(mustJSON(q.Schema)), `"topic_3"`) {
			t.Errorf("%s schema does not require one verdict per topic: %s", q.Name, mustJSON(q.Schema))
		}
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func TestTopicAdherenceNoTopicsIsExplainedNotNaN(t *testing.T) {
	j := &scriptJudge{model: "m1", answers: map[string]string{"topic_extract": `{"topics":[]}`}}
	r, err := TopicAdherence{Judge: j}.Evaluate(context.Background(), topicSample)
	if err != nil {
		t.Fatal(err)
	}
	if math.IsNaN(r.Score) || r.Score != 1 || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "no topics") {
		t.Errorf("score %v warnings %q; want 1 with a warning about no topics", r.Score, r.Warnings)
	}
	if len(j.calls) != 1 {
		t.Errorf("%d calls; with no topics only the extraction is needed", len(j.calls))
	}
}

func TestTopicAdherenceNeedsReferenceTopics(t *testing.T) {
	s := topicSample
	s.ReferenceTopics = nil
	_, err := TopicAdherence{Judge: &scriptJudge{}}.Evaluate(context.Background(), s)
	if err == nil || !strings.Contains(err.Error(), "reference_topics") {
		t.Fatalf("err = %v, want one naming reference_topics", err)
	}
}

var goalSample = agentcheck.Sample{
	Conversation: agentcheck.Conversation{
		{Role: agentcheck.Human, Content: "Book a table for two at 8pm"},
		{Role: agentcheck.AI, Content: "", ToolCalls: []agentcheck.ToolCall{agentcheck.MustParseToolCall("book", `{"party":2,"time":"20:00"}`)}},
		{Role: agentcheck.Tool, Content: "confirmed #123"},
		{Role: agentcheck.AI, Content: "Booked, confirmation #123."},
	},
	Reference: "A table for two is booked at 8pm",
}

func TestAgentGoalAccuracy(t *testing.T) {
	j := &scriptJudge{model: "m1", answers: map[string]string{
		"agent_goal_infer":   `{"user_goal":"book a table for two at 8pm","end_state":"table for two booked at 20:00, #123"}`,
		"agent_goal_compare": `{"reason":"booking confirmed for the requested time and size","achieved":true}`,
	}}
	r, err := AgentGoalAccuracy{Judge: j}.Evaluate(context.Background(), goalSample)
	if err != nil {
		t.Fatal(err)
	}
	if r.Score != 1 || r.Verdicts[0].EndState == "" || r.Verdicts[0].UserGoal == "" || r.Reason != "booking confirmed for the requested time and size" {
		t.Errorf("result %+v", r)
	}
	if len(j.calls) != 2 {
		t.Fatalf("%d calls, want 2", len(j.calls))
	}
	if v := r.Verdicts[0]; v.PromptVersion != GoalPromptVersion || v.Usage.Total() != 30 || v.Model != "m1" {
		t.Errorf("verdict carries prompt version %q, usage %+v, model %q; want %q, 30 tokens, m1", v.PromptVersion, v.Usage, v.Model, GoalPromptVersion)
	}
	if !strings.Contains(j.calls[1].Input, goalSample.Reference) {
		t.Errorf("with a reference, the comparison must use it: %q", j.calls[1].Input)
	}
	if !strings.Contains(j.calls[0].Input, `book({"party":2,"time":"20:00"})`) {
		t.Errorf("the judge must see the tool calls: %q", j.calls[0].Input)
	}

	j.calls = nil
	s := goalSample
	s.Reference = ""
	if _, err := (AgentGoalAccuracy{Judge: j}).Evaluate(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(j.calls[1].Input, "book a table for two at 8pm") {
		t.Errorf("without a reference, the comparison must use the inferred goal: %q", j.calls[1].Input)
	}
}

func TestPanelDropsFailingJudgeAndAggregates(t *testing.T) {
	yes := &scriptJudge{model: "yes", answers: map[string]string{
		"agent_goal_infer":   `{"user_goal":"g","end_state":"e"}`,
		"agent_goal_compare": `{"reason":"ok","achieved":true}`,
	}}
	no := &scriptJudge{model: "no", answers: map[string]string{
		"agent_goal_infer":   `{"user_goal":"g","end_state":"e"}`,
		"agent_goal_compare": `{"reason":"missing time","achieved":false}`,
	}}
	broken := &scriptJudge{model: "broken", fail: errors.New("HTTP 500 after 3 attempts")}
	for _, c := range []struct {
		agg          judgment.Aggregation
		want         float64
		disagreement bool
	}{
		{judgment.Aggregation{Method: judgment.Mean}, 0.5, false},
		{judgment.Aggregation{Method: judgment.Majority}, 0, false},
		{judgment.Aggregation{Method: judgment.Min}, 0, false},
		{judgment.Aggregation{Method: judgment.Unanimous}, 0, false},
		{judgment.Aggregation{Method: judgment.Consensus, Tolerance: 0.1}, 0, true},
	} {
		r, err := AgentGoalAccuracy{Judge: panel{[]judgment.Judge{yes, no, broken}, c.agg}}.Evaluate(context.Background(), goalSample)
		if err != nil {
			t.Fatal(err)
		}
		if r.Score != c.want || (r.Disagreement != "") != c.disagreement {
			t.Errorf("%s: score %v disagreement %q; want %v, %v", c.agg.Method, r.Score, r.Disagreement, c.want, c.disagreement)
		}
		if passed, judged := r.Votes(); passed != 1 || judged != 2 {
			t.Errorf("%s: votes %d of %d, want 1 of 2 (the failing judge counts in neither)", c.agg.Method, passed, judged)
		}
		if len(r.Verdicts) != 3 || r.Verdicts[2].Err == nil || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "HTTP 500") {
			t.Errorf("%s: the failing judge must be kept with its cause: %+v %q", c.agg.Method, r.Verdicts, r.Warnings)
		}
	}
	_, err := AgentGoalAccuracy{Judge: panel{[]judgment.Judge{broken, broken}, judgment.Aggregation{}}}.Evaluate(context.Background(), goalSample)
	if err == nil || !strings.Contains(err.Error(), "every judge failed") {
		t.Errorf("all judges failing: err = %v", err)
	}
}
