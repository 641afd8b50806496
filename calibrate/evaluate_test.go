package calibrate_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/calibrate"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/google/go-cmp/cmp"
)

const refundRubric = `The agent must:
- look the order up before refunding it
- tell the human the outcome`

// refunds are four refund runs; the scripted judge finds "look the order
// up" met when the run calls lookup, "tell the outcome" met when the last
// message says "refunded" — except for run r3, whose second criterion it
// decides differently on every other request.
func refunds() []calibrate.Sample {
	var out []calibrate.Sample
	for i, tc := range []struct{ lookup, told bool }{{true, true}, {false, true}, {true, true}, {true, false}} {
		c := agentcheck.Conversation{{Role: agentcheck.Human, Content: fmt.Sprintf("Refund order r%d", i+1)}}
		if tc.lookup {
			c = append(c, agentcheck.Message{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{agentcheck.MustParseToolCall("lookup", `{"order": 1}`)}},
				agentcheck.Message{Role: agentcheck.Tool, Content: "found"})
		}
		c = append(c, agentcheck.Message{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{agentcheck.MustParseToolCall("refund", `{"order": 1}`)}},
			agentcheck.Message{Role: agentcheck.Tool, Content: "ok"})
		final := "Done."
		if tc.told {
			final = "Your order is refunded."
		}
		c = append(c, agentcheck.Message{Role: agentcheck.AI, Content: final})
		out = append(out, calibrate.Sample{ID: fmt.Sprintf("r%d", i+1), Sample: agentcheck.Sample{Conversation: c}})
	}
	return out
}

func rubricScript() judgetest.Script {
	var mu sync.Mutex
	asked := map[string]int{}
	return judgetest.BySchema(map[string]judgetest.Script{
		"trajectory_rubric": func(r judgetest.Request) judgetest.Reply {
			in := r.Message(1)
			id := strings.Fields(in[strings.Index(in, "Refund order ")+len("Refund order "):])[0]
			mu.Lock()
			asked[id]++
			n := asked[id]
			mu.Unlock()
			lookup := strings.Contains(in, "lookup(")
			told := strings.Contains(in, "refunded")
			if id == "r3" && n%2 == 0 {
				told = !told
			}
			return judgetest.JSON(map[string]any{
				"criteria": map[string]any{
					"criterion_1": map[string]any{"reason": fmt.Sprintf("lookup called: %v", lookup), "met": lookup},
					"criterion_2": map[string]any{"reason": fmt.Sprintf("outcome told: %v", told), "met": told},
				},
				"reason":    "judged " + id,
				"satisfied": lookup && told,
			})
		},
	})
}

// TestEvaluateRubricCriteria calibrates a rubric criterion by criterion
// through the Go API, the judge's traffic recorded with each run its own
// cassette case and then replayed offline with the same report.
func TestEvaluateRubricCriteria(t *testing.T) {
	srv := judgetest.Start(t, rubricScript())
	cassette := filepath.Join(t.TempDir(), "rubric.yaml")
	labels := []calibrate.Label{
		{ID: "r1", Criterion: "look the order up before refunding it", Score: 1},
		{ID: "r2", Criterion: "look the order up before refunding it", Score: 0},
		{ID: "r3", Criterion: "look the order up before refunding it", Score: 1},
		{ID: "r4", Criterion: "look the order up before refunding it", Score: 0, Rationale: "the lookup result was ignored"},
		{ID: "r1", Criterion: "tell the human the outcome", Score: 1},
		{ID: "r3", Criterion: "tell the human the outcome", Score: 1},
		{ID: "r4", Criterion: "tell the human the outcome", Score: 0},
		{ID: "r1", Metric: "trajectory_rubric", Score: 1},
		{ID: "r4", Metric: "trajectory_rubric", Score: 0},
	}
	run := func(mode recorder.Mode, baseURL string) calibrate.Report {
		t.Helper()
		rec, err := recorder.Open(cassette, recorder.WithMode(mode), recorder.WithEnv(func(string) string { return "" })) // recording refuses to run under CI=true
		if err != nil {
			t.Fatal(err)
		}
		j := judge.New(judge.WithBaseURL(baseURL), judge.WithAPIKey(""), judge.WithModel("gpt-4o-mini"), judge.WithRecorder(rec))
		m := metric.TrajectoryRubric{Judge: j, Rubric: refundRubric}
		rep, err := calibrate.Evaluate(context.Background(), m, refunds(), labels, calibrate.Options{Repeats: 2, Case: recorder.WithCase})
		if err != nil {
			t.Fatal(err)
		}
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
		return rep
	}
	recorded := run(recorder.RecordAll, srv.URL)
	if srv.Count() != 4*2 {
		t.Errorf("Expected 8 questions (4 samples, 2 runs), the server got %d", srv.Count())
	}
	replayed := run(recorder.RecordNone, "http://127.0.0.1:9/v1")
	if diff := cmp.Diff(recorded, replayed, cmp.Comparer(func(a, b float64) bool { return a == b || (a != a && b != b) })); diff != "" {
		t.Errorf("the replay differs (-recorded +replayed):\n%s", diff)
	}
	byKey := map[string]calibrate.Result{}
	for _, r := range replayed.Results {
		byKey[r.Key] = r
	}
	lookup := byKey["criterion: look the order up before refunding it"]
	// The judge: met for r1, r3, r4; people: r1, r3. So TP 2, FP 1 (r4), TN 1.
	if lookup.Confusion != (calibrate.Confusion{TP: 2, FP: 1, TN: 1}) || len(lookup.Disagreements) != 1 ||
		lookup.Disagreements[0].Reason != "lookup called: true" || lookup.Disagreements[0].Rationales[0] != "the lookup result was ignored" {
		t.Errorf("criterion 1: %+v", lookup)
	}
	told := byKey["criterion: tell the human the outcome"]
	if told.Confusion != (calibrate.Confusion{TP: 2, TN: 1}) || told.Consistency == nil || !cmp.Equal(told.Consistency.Straddling, []string{"r3"}) {
		t.Errorf("criterion 2: %+v %+v", told.Confusion, told.Consistency)
	}
	whole := byKey["trajectory_rubric"]
	if whole.Confusion != (calibrate.Confusion{TP: 1, TN: 1}) {
		t.Errorf("the rubric: %+v", whole.Confusion)
	}
	if !cmp.Equal(replayed.SamplesWithoutLabels, []string(nil)) {
		t.Errorf("every sample is labelled: %v", replayed.SamplesWithoutLabels)
	}

	// The file records each key with the rubric's setup.
	setup, ok := calibrate.SetupOf(metric.TrajectoryRubric{Judge: judge.New(judge.WithModel("gpt-4o-mini")), Rubric: refundRubric})
	if !ok || setup.PromptVersion != metric.RubricPromptVersion || setup.CriteriaHash != calibrate.CriteriaHash(refundRubric) {
		t.Fatalf("setup %+v", setup)
	}
	f := calibrate.NewFile(replayed, map[string]calibrate.Setup{"trajectory_rubric": setup}, 0, time.Date(2026, 3, 1, 23, 0, 0, 0, time.FixedZone("x", -5*3600)))
	if f.Date != "2026-03-02" {
		t.Errorf("the date is UTC's: %s", f.Date)
	}
	data, _ := json.Marshal(f)
	if !strings.Contains(string(data), `"criterion: tell the human the outcome":{"judges":null`) {
		t.Errorf("a key without a setup is recorded without one: %s", data)
	}
}

func TestEvaluateRefusesMismatchedLabels(t *testing.T) {
	m := metric.AgentGoalAccuracy{}
	for _, tc := range []struct {
		labels []calibrate.Label
		want   string
	}{
		{nil, "calibrate: no labels to compare agent_goal_accuracy with"},
		{[]calibrate.Label{{ID: "a", Metric: "topic_adherence", Line: 3}}, `line 3 labels metric "topic_adherence", but the judge is calibrated for agent_goal_accuracy`},
		{[]calibrate.Label{{ID: "a", Criterion: "be kind", Line: 1}}, `line 1 labels criterion "be kind", which is not a criterion of agent_goal_accuracy`},
	} {
		_, err := calibrate.Evaluate(context.Background(), m, nil, tc.labels, calibrate.Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Expected %q, got %v", tc.want, err)
		}
	}
}
