package scenario_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/agentcheck/agentcheck/scenario"
)

// TestParallelScenariosReplayTheirOwnAnswers runs scenarios of distinct
// names at once through one cassette. Their requests are identical (the
// same first message, the same agent), and the recording model answers in
// the order questions arrive, so each run's transcript depends on that
// order; each replay, concurrent too, gives every scenario its own
// recorded answers, whatever order the runs now go in.
func TestParallelScenariosReplayTheirOwnAnswers(t *testing.T) {
	var asked atomic.Int32
	srv := judgetest.Start(t, judgetest.BySchema(map[string]judgetest.Script{
		"scenario_user": func(judgetest.Request) judgetest.Reply {
			n := asked.Add(1)
			if n > 8 {
				return judgetest.UserDone("done")
			}
			return judgetest.UserSays(fmt.Sprintf("answer %d", n))
		},
	}))
	path := filepath.Join(t.TempDir(), "parallel.yaml")
	const runs = 4
	transcripts := func(mode recorder.Mode, url string) map[string]string {
		rec, err := recorder.Open(path, recorder.WithMode(mode), recorder.WithEnv(func(string) string { return "" }))
		if err != nil {
			t.Fatal(err)
		}
		j := judge.New(judge.WithRecorder(rec), judge.WithBaseURL(url), judge.WithModel("user-model"), judge.WithAPIKey(""))
		var mu sync.Mutex
		out := map[string]string{}
		var wg sync.WaitGroup
		for i := range runs {
			wg.Go(func() {
				s := scenario.Scenario{
					Name: fmt.Sprint("run ", i), Agent: echo(judgment.Usage{}), MaxTurns: 3,
					User: scenario.SimulatedUser{Model: j, FirstMessage: "hello"},
				}
				res := s.Run(context.Background())
				if res.Err != nil {
					t.Errorf("%s (%v): %s", s.Name, mode, res)
				}
				mu.Lock()
				out[s.Name] = res.Conversation.String()
				mu.Unlock()
			})
		}
		wg.Wait()
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	recorded := transcripts(recorder.RecordAll, srv.URL)
	srv.Close()
	distinct := map[string]bool{}
	for _, c := range recorded {
		distinct[c] = true
	}
	if len(distinct) < 2 {
		t.Fatalf("the recorded runs are alike, so the test shows nothing: %v", recorded)
	}
	for i := range 3 {
		if got := transcripts(recorder.RecordNone, srv.URL); fmt.Sprint(got) != fmt.Sprint(recorded) {
			t.Errorf("replay %d differs:\n%v\nrecorded:\n%v", i+1, got, recorded)
		}
	}
}

// Scenarios of one name at once through one cassette would file their
// requests under one case, and a replay could give each the other's
// answers: one of them fails, saying so, recording or replaying. Without
// a cassette, or one after the other, the name may repeat.
func TestParallelScenariosOfOneNameThroughOneCassette(t *testing.T) {
	// The runs' questions are answered once all three are in, so that
	// they are in flight at once.
	const runs = 3
	var arrived atomic.Int32
	together := make(chan struct{})
	atOnce := judgetest.Start(t, judgetest.BySchema(map[string]judgetest.Script{
		"scenario_user": func(judgetest.Request) judgetest.Reply {
			if arrived.Add(1) == runs {
				close(together)
			}
			select {
			case <-together:
			case <-time.After(10 * time.Second): // not all came: the test fails below
			}
			return judgetest.UserDone("done")
		},
	}))
	srv := judgetest.Start(t, judgetest.BySchema(map[string]judgetest.Script{"scenario_user": judgetest.Always(judgetest.UserDone("done"))}))
	run := func(t *testing.T, j judgment.Judge, parallel bool) []*scenario.Result {
		s := scenario.Scenario{Agent: echo(judgment.Usage{}), User: scenario.SimulatedUser{Model: j, FirstMessage: "hello"}}
		results := make([]*scenario.Result, runs)
		var wg sync.WaitGroup
		for i := range results {
			if parallel {
				wg.Go(func() { results[i] = s.Run(context.Background()) })
			} else {
				results[i] = s.Run(context.Background())
			}
		}
		wg.Wait()
		return results
	}
	failed := func(results []*scenario.Result) (n int, msg string) {
		for _, r := range results {
			if r.Err != nil {
				n, msg = n+1, r.Err.Error()
			}
		}
		return n, msg
	}
	t.Run("one cassette, at once", func(t *testing.T) {
		rec, err := recorder.Open(filepath.Join(t.TempDir(), "c.yaml"), recorder.WithMode(recorder.RecordAll), recorder.WithEnv(func(string) string { return "" }))
		if err != nil {
			t.Fatal(err)
		}
		defer rec.Close()
		j := judge.New(judge.WithRecorder(rec), judge.WithBaseURL(atOnce.URL), judge.WithModel("m"), judge.WithAPIKey(""))
		n, msg := failed(run(t, j, true))
		if n != runs-1 || !strings.Contains(msg, `another run of the scenario "scenario" goes through the cassette`) || !strings.Contains(msg, "give the scenarios distinct Names") {
			t.Errorf("Expected all but the first run to fail naming the shared case, but %d of %d failed: %s", n, runs, msg)
		}
	})
	t.Run("one cassette, one after the other", func(t *testing.T) {
		rec, err := recorder.Open(filepath.Join(t.TempDir(), "c.yaml"), recorder.WithMode(recorder.RecordAll), recorder.WithEnv(func(string) string { return "" }))
		if err != nil {
			t.Fatal(err)
		}
		defer rec.Close()
		j := judge.New(judge.WithRecorder(rec), judge.WithBaseURL(srv.URL), judge.WithModel("m"), judge.WithAPIKey(""))
		if n, msg := failed(run(t, j, false)); n != 0 {
			t.Errorf("%d runs failed: %s", n, msg)
		}
	})
	t.Run("no cassette, at once", func(t *testing.T) {
		j := judge.New(judge.WithBaseURL(srv.URL), judge.WithModel("m"), judge.WithAPIKey(""))
		if n, msg := failed(run(t, j, true)); n != 0 {
			t.Errorf("%d runs failed: %s", n, msg)
		}
	})
}
