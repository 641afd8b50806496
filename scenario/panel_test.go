package scenario_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/scenario"
)

func judgeWith(name string, verdicts ...string) *fakeModel {
	return &fakeModel{name: name, verdict: func([]string, judgment.Question) []string { return verdicts }}
}

func TestPanel(t *testing.T) {
	criteria := []string{"looks the order up", "refunds it"}
	run := func(p judgment.Judge) *scenario.Result {
		return scenario.Scenario{Agent: echo(judgment.Usage{}), User: scenario.StaticUser("refund 1042"), Judge: p, Criteria: criteria}.Run(context.Background())
	}
	t.Run("a disagreement fails, showing both verdicts", func(t *testing.T) {
		res := run(judge.NewPanel([]judgment.Judge{judgeWith("strict", "met", "not_met"), judgeWith("lenient", "met", "met")}, judgment.Aggregation{}))
		if res.Passed || res.Err != nil {
			t.Fatalf("passed:\n%s", res)
		}
		s := res.String()
		for _, w := range []string{
			"1 of 2 judges found every criterion met",
			"judge strict, lenient at the end (turn 1)",
			"    judge strict:\n        1. looks the order up: met\n             met: looks the order up\n        2. refunds it: not met",
			"    judge lenient:\n        1. looks the order up: met",
		} {
			if !strings.Contains(s, w) {
				t.Errorf("Expected the report to say %q, but it is:\n%s", w, s)
			}
		}
	})
	t.Run("a consensus disagreement is named", func(t *testing.T) {
		res := run(judge.NewPanel([]judgment.Judge{judgeWith("a", "met", "not_met"), judgeWith("b", "met", "met")}, judgment.Aggregation{Method: judgment.Consensus, Tolerance: 0.1}))
		if res.Passed || !strings.Contains(res.String(), "disagreement: judges disagree") {
			t.Errorf("report:\n%s", res)
		}
	})
	t.Run("a majority decides", func(t *testing.T) {
		res := run(judge.NewPanel([]judgment.Judge{judgeWith("a", "met", "met"), judgeWith("b", "met", "not_met"), judgeWith("c", "met", "met")}, judgment.Aggregation{Method: judgment.Majority}))
		if !res.Passed {
			t.Errorf("failed:\n%s", res)
		}
	})
	t.Run("a failed member is left out", func(t *testing.T) {
		broken := &fakeModel{name: "broken", verdict: func(c []string, _ judgment.Question) []string { return c[:1] }} // answers too few
		res := run(judge.NewPanel([]judgment.Judge{broken, judgeWith("ok", "met", "met")}, judgment.Aggregation{}))
		if !res.Passed || !strings.Contains(res.String(), "judge broken: failed, left out:") {
			t.Errorf("report:\n%s", res)
		}
	})
	t.Run("every member failing is an error", func(t *testing.T) {
		res := run(judge.NewPanel([]judgment.Judge{
			&fakeModel{name: "x", verdict: func(c []string, _ judgment.Question) []string { return c[:1] }},
			&fakeModel{name: "y", verdict: func(c []string, _ judgment.Question) []string { return c[:1] }},
		}, judgment.Aggregation{}))
		var re *scenario.RunError
		if !errors.As(res.Err, &re) || re.Role != "judge" || !strings.Contains(re.Error(), "every judge of the panel failed") {
			t.Errorf("report:\n%s", res)
		}
	})
}

func TestLimiterBoundsParallelScenarios(t *testing.T) {
	lim := scenario.NewLimiter(2)
	// The user's answers go by the turn asked, not by the order of the
	// questions, which the scenarios share.
	m := &fakeModel{user: func(q judgment.Question, _ int) (bool, string, string) {
		if strings.Contains(q.Input, "Write turn 4") {
			return true, "", "done"
		}
		return false, "more", ""
	}, verdict: allMet}
	// Each question takes a moment, so that scenarios overlap.
	slow := slowJudge{m, 2 * time.Millisecond}
	var wg sync.WaitGroup
	results := make([]*scenario.Result, 8)
	for i := range results {
		wg.Go(func() {
			results[i] = scenario.Scenario{
				Agent: echo(judgment.Usage{}), User: scenario.SimulatedUser{Model: slow}, Judge: lim.Judge(slow),
				Criteria: []string{"echoes"}, Limiter: lim,
			}.Run(context.Background())
		})
	}
	wg.Wait()
	for _, r := range results {
		if !r.Passed || len(r.Turns) != 3 {
			t.Fatalf("a run failed:\n%s", r)
		}
	}
	if got := m.maxFlight.Load(); got > 2 || got < 1 {
		t.Errorf("%d questions were in flight at once, want at most 2", got)
	}
}

type slowJudge struct {
	*fakeModel
	d time.Duration
}

func (s slowJudge) Ask(ctx context.Context, q judgment.Question) (judgment.Answer, error) {
	time.Sleep(s.d)
	return s.fakeModel.Ask(ctx, q)
}

func TestLimiterClient(t *testing.T) {
	var inFlight, most atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(3 * time.Millisecond)
		w.Write([]byte("ok"))
	}))
	defer srv.Close()
	hc := scenario.NewLimiter(3).Client(srv.Client())
	var wg sync.WaitGroup
	for range 12 {
		wg.Go(func() {
			resp, err := hc.Get(srv.URL)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
		})
	}
	wg.Wait()
	if m := most.Load(); m > 3 || m < 2 {
		t.Errorf("%d requests were in flight at once, want at most 3", m)
	}
}

func TestLimiterWaitEndsWithTheContext(t *testing.T) {
	lim := scenario.NewLimiter(1)
	held := &fakeModel{user: userSays("a"), hold: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan *scenario.Result)
	go func() {
		done <- scenario.Scenario{Agent: echo(judgment.Usage{}), User: scenario.SimulatedUser{Model: held}, Limiter: lim}.Run(ctx)
	}()
	for held.inFlight.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	// The slot is taken: a second scenario waits for it until its context ends.
	ctx2, cancel2 := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel2()
	res := scenario.Scenario{Agent: echo(judgment.Usage{}), User: scenario.SimulatedUser{Model: &fakeModel{user: userSays("b")}}, Limiter: lim}.Run(ctx2)
	if !strings.Contains(res.String(), "waiting for a free request slot (Scenario.Limiter, 1 at once): context deadline exceeded") {
		t.Errorf("report:\n%s", res)
	}
	cancel()
	if r := <-done; !errors.Is(r.Err, context.Canceled) {
		t.Errorf("the held run: %v", r.Err)
	}
}

// fakeT is a test as Test sees it, recording what it is told.
type fakeT struct {
	ctx       context.Context
	errors    []string
	attrs     map[string]string
	artifacts string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *fakeT) Context() context.Context { return f.ctx }
func (f *fakeT) Attr(k, v string)         { f.attrs[k] = v }
func (f *fakeT) ArtifactDir() string      { return f.artifacts }

func TestTestRecordsTheRun(t *testing.T) {
	ft := &fakeT{ctx: t.Context(), attrs: map[string]string{}, artifacts: t.TempDir()}
	res := scenario.Scenario{
		Name: "refund", Agent: echo(judgment.Usage{PromptTokens: 7}), User: scenario.StaticUser("refund please"),
		Judge: judgeWith("judge-1", "not_met"), Criteria: []string{"refunds"},
	}.Test(ft)
	if len(ft.errors) != 1 || ft.errors[0] != res.String() {
		t.Fatalf("Errorf called %d times: %q", len(ft.errors), ft.errors)
	}
	for k, v := range map[string]string{
		"agentcheck.check": "scenario", "agentcheck.verdict": "fail",
		"agentcheck.scenario.name": "refund", "agentcheck.scenario.end": "user", "agentcheck.scenario.turns": "1",
		"agentcheck.scenario.tokens": "7", "agentcheck.scenario.tokens.agent": "7", "agentcheck.scenario.tool_calls": "0",
	} {
		if ft.attrs[k] != v {
			t.Errorf("attribute %s = %q, want %q", k, ft.attrs[k], v)
		}
	}
	report, err := os.ReadFile(filepath.Join(ft.artifacts, "agentcheck-scenario.txt"))
	if err != nil || strings.TrimSpace(string(report)) != res.String() {
		t.Errorf("the report artifact (%v):\n%s", err, report)
	}
	sample, err := os.ReadFile(filepath.Join(ft.artifacts, "agentcheck-scenario.json"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := agentcheck.ParseSample(string(sample))
	if err != nil || len(s.Conversation) != 2 || s.Conversation[1].Content != "echo: refund please" {
		t.Errorf("the transcript artifact (%v): %s", err, sample)
	}
}

// Scenarios in parallel tests share one Limiter: their model questions stay
// within its bound, and each test gets its own run.
func TestParallelScenarios(t *testing.T) {
	lim := scenario.NewLimiter(2)
	m := &fakeModel{user: func(q judgment.Question, _ int) (bool, string, string) {
		if strings.Contains(q.Input, "Write turn 3") {
			return true, "", "done"
		}
		return false, "more", ""
	}, verdict: allMet}
	slow := slowJudge{m, time.Millisecond}
	for i := range 4 {
		t.Run(fmt.Sprint("run", i), func(t *testing.T) {
			t.Parallel()
			res := scenario.Scenario{
				Name: t.Name(), Agent: echo(judgment.Usage{}), User: scenario.SimulatedUser{Model: slow},
				Judge: slow, Criteria: []string{"echoes"}, Limiter: lim,
			}.Test(t)
			if len(res.Turns) != 2 {
				t.Errorf("%d turns", len(res.Turns))
			}
		})
	}
	t.Cleanup(func() {
		if got := m.maxFlight.Load(); got > 2 {
			t.Errorf("%d questions were in flight at once, want at most 2", got)
		}
	})
}
