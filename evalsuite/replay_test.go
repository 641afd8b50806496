package evalsuite

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/recorder"
)

// goalSample is what a deterministic fake agent returns on every run: the
// judge's requests about it are identical from run to run and from case to
// case, so only the run labels tell them apart.
func goalSample(context.Context) (agentcheck.Sample, error) {
	return agentcheck.Sample{
		Conversation: agentcheck.Conversation{
			{Role: agentcheck.Human, Content: "Book table 4 for tonight"},
			{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{agentcheck.MustParseToolCall("book", `{"table": 4}`)}},
			{Role: agentcheck.Tool, Content: "booked"},
			{Role: agentcheck.AI, Content: "Table 4 is booked for tonight."},
		},
		Reference: "Table 4 booked for tonight",
	}, nil
}

func goalSuite(j judgment.Judge) Suite {
	return Suite{Checks: []Check{{Metric: metric.AgentGoalAccuracy{Judge: j}, Threshold: 1}}, Repeat: 3}
}

func runScores(c CaseResult) []float64 {
	var s []float64
	for _, r := range c.Runs {
		s = append(s, r.Scores[0])
	}
	return s
}

// A judge that answers identical questions differently (as one at a
// temperature above zero does) is recorded once; the replay gives every
// run of every case its own recorded verdict, whichever cases run and in
// whatever order, because each run asks under its own label (id#runN).
func TestRecordedJudgeReplaysEveryRunSeparately(t *testing.T) {
	// The compare verdicts in the order they are asked: a's three runs,
	// then b's.
	achieved := []bool{true, false, true, false, false, true}
	var replies []judgetest.Reply
	for _, a := range achieved {
		replies = append(replies, judgetest.JSON(map[string]any{"reason": "judged", "achieved": a}))
	}
	srv := judgetest.NewServer(judgetest.BySchema(map[string]judgetest.Script{
		"agent_goal_infer":   judgetest.Always(judgetest.JSON(map[string]any{"user_goal": "book table 4", "end_state": "table 4 booked"})),
		"agent_goal_compare": judgetest.Sequence(replies...),
	}))
	defer srv.Close()
	upstream := &http.Transport{}
	defer upstream.CloseIdleConnections()

	path := filepath.Join(t.TempDir(), "judge.yaml")
	rec, err := recorder.Open(path, recorder.WithMode(recorder.RecordMissing), recorder.WithUpstream(upstream),
		recorder.WithEnv(func(string) string { return "" }))
	if err != nil {
		t.Fatal(err)
	}
	cases := []Case{{ID: "a", Run: goalSample}, {ID: "b", Run: goalSample}}
	recorded := goalSuite(judge.New(judge.WithRecorder(rec), judge.WithBaseURL(srv.URL), judge.WithModel("judge-model"), judge.WithAPIKey(""))).
		Evaluate(context.Background(), cases)
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	want := map[string][]float64{"a": {1, 0, 1}, "b": {0, 0, 1}}
	for _, c := range recorded.Cases {
		if got := runScores(c); !slices.Equal(got, want[c.ID]) {
			t.Fatalf("Expected the recording run of %s to score %v, but it scored %v (%v)", c.ID, want[c.ID], got, c.Runs[0].Err)
		}
	}
	cassette, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, label := range []string{"a#run1", "a#run3", "b#run2"} {
		if !strings.Contains(string(cassette), label) {
			t.Errorf("Expected the cassette to file requests under %s, but it has no such label", label)
		}
	}

	replayJudge := func(t *testing.T) judgment.Judge {
		rec, err := recorder.Open(path, recorder.WithMode(recorder.RecordNone))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rec.Close() })
		return judge.New(judge.WithRecorder(rec), judge.WithBaseURL("http://127.0.0.1:1/v1"), judge.WithModel("judge-model"), judge.WithAPIKey(""))
	}
	t.Run("only b", func(t *testing.T) {
		// go test -run 'Suite/b': b's runs are the first to ask, yet get b's
		// answers, not a's.
		ft := &fakeT{skip: func(name string) bool { return name == "a" }}
		res := Run(ft, goalSuite(replayJudge(t)), cases)
		if len(res.Cases) != 1 || !slices.Equal(runScores(res.Cases[0]), want["b"]) {
			t.Errorf("Expected the replay of b alone to score %v, but it scored %+v", want["b"], res.Cases)
		}
		if sub := ft.sub("b"); sub == nil || sub.attrs["agentcheck.pass_rate"] != "0.3333333333333333" {
			t.Errorf("Expected b to record its pass rate of 1/3, but it recorded %+v", sub)
		}
	})
	t.Run("reversed", func(t *testing.T) {
		res := goalSuite(replayJudge(t)).Evaluate(context.Background(), []Case{cases[1], cases[0]})
		for _, c := range res.Cases {
			if got := runScores(c); !slices.Equal(got, want[c.ID]) {
				t.Errorf("Expected the reversed replay of %s to score %v, but it scored %v", c.ID, want[c.ID], got)
			}
		}
	})
}

// The agent gets each run's label in its context, for its own recorded
// client.
func TestRunLabels(t *testing.T) {
	if got := RunLabel("book-1", 2); got != "book-1#run2" {
		t.Errorf("Expected run 2 of book-1 to be labelled book-1#run2, but it is %q", got)
	}
}
