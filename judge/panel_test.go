package judge_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/metric"
	openai "github.com/sashabaranov/go-openai"
)

var (
	_ judgment.Judge = (*judge.Client)(nil)
	_ judgment.Panel = (*judge.Panel)(nil)
)

type constJudge struct {
	name  string
	calls int
}

func (j *constJudge) Ask(context.Context, judgment.Question) (judgment.Answer, error) {
	j.calls++
	return judgment.Answer{JSON: []byte(`{}`), Model: j.name}, nil
}

func TestPanel(t *testing.T) {
	a, b := &constJudge{name: "a"}, &constJudge{name: "b"}
	members := []judgment.Judge{a, b}
	p := judge.NewPanel(members, judgment.Aggregation{})
	members[0] = nil // the panel keeps its own copy
	if got := p.Aggregation(); got.Method != judgment.Mean {
		t.Errorf("default aggregation %+v, want mean", got)
	}
	m := p.Members()
	if len(m) != 2 || m[0] != a || m[1] != b {
		t.Fatalf("members %v", m)
	}
	m[1] = nil
	if p.Members()[1] != b {
		t.Error("Members exposes the panel's own slice")
	}
	ans, err := p.Ask(context.Background(), goalQuestion)
	if err != nil || string(ans.JSON) != "{}" || ans.Model != "a, b" || a.calls != 1 || b.calls != 1 {
		t.Errorf("Ask: %+v %v; calls a=%d b=%d, want every member asked once", ans, err, a.calls, b.calls)
	}
	if _, err := judge.NewPanel(nil, judgment.Aggregation{}).Ask(context.Background(), goalQuestion); err == nil || !strings.Contains(err.Error(), "no members") {
		t.Errorf("empty panel: %v", err)
	}
	if _, err := judge.NewPanel([]judgment.Judge{nil}, judgment.Aggregation{}).Ask(context.Background(), goalQuestion); err == nil {
		t.Error("nil member: no error")
	}
	c := judge.NewPanel([]judgment.Judge{judge.New(judge.WithModel("m1"), judge.WithBaseURL("http://localhost:11434/v1")), a},
		judgment.Aggregation{Method: judgment.Consensus, Tolerance: 0.25})
	if got, want := c.String(), "panel of 2 (m1 at http://localhost:11434/v1; *judge_test.constJudge), consensus within 0.25"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// TestPanelAskAsksEveryMember: a panel asked a question directly asks
// every member, and answers only when they all answered alike.
func TestPanelAskAsksEveryMember(t *testing.T) {
	checkGoroutines(t)
	answers := map[string]judgetest.Reply{
		"strict":  judgetest.Content(`{"reason":"booked as asked","achieved":true}`),
		"same":    judgetest.Content(`{"achieved": true, "reason": "booked as asked"}`), // the same JSON, written otherwise
		"lenient": judgetest.Content(`{"reason":"close enough","achieved":true}`),
		"broken":  judgetest.Status(400),
	}
	s := judgetest.Start(t, func(r judgetest.Request) judgetest.Reply { return answers[r.Chat.Model] })
	panelOf := func(models ...string) *judge.Panel {
		var members []judgment.Judge
		for _, m := range models {
			members = append(members, newClient(s, judge.WithModel(m), judge.WithMaxAnswerAttempts(1)))
		}
		return judge.NewPanel(members, judgment.Aggregation{})
	}
	ctx := context.Background()

	before := s.Count()
	ans, err := panelOf("strict", "same").Ask(ctx, goalQuestion)
	if err != nil {
		t.Fatal(err)
	}
	if n := s.Count() - before; n != 2 {
		t.Errorf("the server saw %d requests, want one per member", n)
	}
	if string(ans.JSON) != `{"reason":"booked as asked","achieved":true}` || ans.Model != "strict, same" || ans.Attempts != 2 ||
		ans.Usage.Total() == 0 || ans.Source != "live" || ans.PromptVersion != goalQuestion.PromptVersion {
		t.Errorf("agreeing members: %+v", ans)
	}

	_, err = panelOf("strict", "lenient").Ask(ctx, goalQuestion)
	for _, want := range []string{`panel question "agent_goal_compare": the members answered differently`,
		`strict: {"reason":"booked as asked","achieved":true}`, `lenient: {"reason":"close enough","achieved":true}`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("disagreeing members: error %v lacks %q", err, want)
		}
	}

	_, err = panelOf("strict", "broken").Ask(ctx, goalQuestion)
	var apiErr *openai.APIError
	if err == nil || !strings.Contains(err.Error(), "1 of 2 members gave no answer") || !strings.Contains(err.Error(), "broken: judge: question") ||
		!errors.As(err, &apiErr) || apiErr.HTTPStatusCode != 400 {
		t.Errorf("a failing member: error %v, want one naming it and wrapping its cause", err)
	}

	each, errs := panelOf("lenient", "broken", "strict").AskEach(ctx, goalQuestion)
	if len(each) != 3 || len(errs) != 3 || errs[0] != nil || errs[1] == nil || errs[2] != nil ||
		each[0].Model != "lenient" || each[2].Model != "strict" || !strings.Contains(string(each[0].JSON), "close enough") {
		t.Errorf("AskEach: %+v, %v", each, errs)
	}
}

// TestPanelOfModelsJudgesGoalAccuracy runs a whole judged metric through a
// panel of real clients over HTTP: each model judges concurrently, the one
// that fails is dropped with its cause, and the others are averaged.
func TestPanelOfModelsJudgesGoalAccuracy(t *testing.T) {
	checkGoroutines(t)
	verdict := func(achieved bool, reason string) judgetest.Script {
		return judgetest.BySchema(map[string]judgetest.Script{
			"agent_goal_infer":   judgetest.Always(judgetest.JSON(map[string]string{"user_goal": "a table for two at 8pm", "end_state": "booked #123"})),
			"agent_goal_compare": judgetest.Always(judgetest.JSON(map[string]any{"reason": reason, "achieved": achieved})),
		})
	}
	byModel := map[string]judgetest.Script{
		"yes":    verdict(true, "booked as asked"),
		"no":     verdict(false, "no time confirmed"),
		"broken": judgetest.Always(judgetest.Status(400)),
	}
	var mu sync.Mutex
	inFlight, most := 0, 0
	s := judgetest.Start(t, func(r judgetest.Request) judgetest.Reply {
		mu.Lock()
		inFlight++
		most = max(most, inFlight)
		mu.Unlock()
		time.Sleep(20 * time.Millisecond) // let the members overlap
		mu.Lock()
		inFlight--
		mu.Unlock()
		return byModel[r.Chat.Model](r)
	})
	var members []judgment.Judge
	for _, m := range []string{"yes", "no", "broken"} {
		members = append(members, newClient(s, judge.WithModel(m)))
	}
	sample := agentcheck.Sample{
		Conversation: agentcheck.Conversation{
			{Role: agentcheck.Human, Content: "Book a table for two at 8pm"},
			{Role: agentcheck.AI, Content: "Booked, confirmation #123."},
		},
		Reference: "A table for two is booked at 8pm",
	}
	r, err := metric.AgentGoalAccuracy{Judge: judge.NewPanel(members, judgment.Aggregation{})}.Evaluate(context.Background(), sample)
	if err != nil {
		t.Fatal(err)
	}
	if r.Score != 0.5 || len(r.Verdicts) != 3 {
		t.Fatalf("score %v with %d verdicts", r.Score, len(r.Verdicts))
	}
	yes, no, broken := r.Verdicts[0], r.Verdicts[1], r.Verdicts[2]
	if yes.Model != "yes" || yes.Score != 1 || yes.Reason != "booked as asked" || yes.Usage.Total() == 0 || yes.Source != "live" {
		t.Errorf("yes verdict %+v", yes)
	}
	if no.Model != "no" || no.Score != 0 || no.Reason != "no time confirmed" || no.EndState != "booked #123" {
		t.Errorf("no verdict %+v", no)
	}
	if broken.Model != "broken" || broken.Err == nil || !strings.Contains(broken.Err.Error(), "status code: 400") {
		t.Errorf("broken verdict %+v", broken)
	}
	if most < 2 {
		t.Errorf("at most %d requests were in flight at once: the members did not judge concurrently", most)
	}
}

func ExampleNew() {
	// A scripted endpoint stands in for OpenAI, OpenRouter or Ollama here;
	// in a real test the client would replay a cassette instead.
	srv := judgetest.NewServer(judgetest.Always(judgetest.JSON(map[string]any{"reason": "booked as asked", "achieved": true})))
	defer srv.Close()

	j := judge.New(judge.WithBaseURL(srv.URL), judge.WithModel("gpt-4o-mini"), judge.WithAPIKey(""))
	ans, err := j.Ask(context.Background(), judgment.Question{
		Name:          "agent_goal_compare",
		PromptVersion: "goal/v1",
		Instructions:  "Decide whether the end state achieves the desired outcome.",
		Input:         "Desired: a table for two at 8pm.\nEnd state: booked for two at 8pm.",
		Schema: map[string]any{
			"type":                 "object",
			"properties":           map[string]any{"reason": map[string]any{"type": "string"}, "achieved": map[string]any{"type": "boolean"}},
			"required":             []string{"reason", "achieved"},
			"additionalProperties": false,
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(ans.JSON), ans.Model, ans.Attempts, ans.Source)
	// Output: {"achieved":true,"reason":"booked as asked"} gpt-4o-mini 1 live
}

func ExampleNewPanel() {
	panel := judge.NewPanel([]judgment.Judge{
		judge.New(judge.WithModel("gpt-4o-mini"), judge.WithBaseURL("https://api.openai.com/v1")),
		judge.New(judge.WithModel("anthropic/claude-3.5-haiku"), judge.WithBaseURL("https://openrouter.ai/api/v1")),
	}, judgment.Aggregation{Method: judgment.Consensus, Tolerance: 0.2})
	fmt.Println(panel)
	// Output: panel of 2 (gpt-4o-mini at https://api.openai.com/v1; anthropic/claude-3.5-haiku at https://openrouter.ai/api/v1), consensus within 0.2
}

// BenchmarkLiveJudging200 judges 200 questions at concurrency 16 against a
// scripted server that takes 50 ms per answer. The ideal wall time is
// 200/16 × 50 ms = 625 ms (13 rounds, 650 ms, for whole rounds); the
// "x-ideal" metric is the measured time over 625 ms.
func BenchmarkLiveJudging200(b *testing.B) {
	const questions, concurrency, latency = 200, 16, 50 * time.Millisecond
	s := judgetest.NewServer(judgetest.Always(judgetest.Content(goodAnswer).After(latency)))
	defer s.Close()
	c := judge.New(judge.WithBaseURL(s.URL), judge.WithAPIKey(apiKey), judge.WithModel("judge-model"))
	b.ResetTimer()
	for b.Loop() {
		work := make(chan struct{}, questions)
		for range questions {
			work <- struct{}{}
		}
		close(work)
		var wg sync.WaitGroup
		var failed error
		var mu sync.Mutex
		for range concurrency {
			wg.Go(func() {
				for range work {
					if _, err := c.Ask(context.Background(), goalQuestion); err != nil {
						mu.Lock()
						failed = errors.Join(failed, err)
						mu.Unlock()
					}
				}
			})
		}
		wg.Wait()
		if failed != nil {
			b.Fatal(failed)
		}
	}
	ideal := float64(questions) / concurrency * float64(latency)
	b.ReportMetric(float64(b.Elapsed())/float64(b.N)/ideal, "x-ideal")
}
