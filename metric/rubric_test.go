package metric_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	openai "github.com/sashabaranov/go-openai"
	"go.uber.org/goleak"
)

// refundRun is an agent run asked to refund order 1042. A careful agent
// looks the order up first; a hasty one refunds straight away.
func refundRun(lookUp bool) agentcheck.Sample {
	c := agentcheck.Conversation{{Role: agentcheck.Human, Content: "Order 1042 arrived broken, please refund it."}}
	if lookUp {
		c = append(c,
			agentcheck.Message{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{agentcheck.MustParseToolCall("lookup_order", `{"order":"1042"}`)}},
			agentcheck.Message{Role: agentcheck.Tool, Content: `{"order":"1042","status":"delivered","total":25}`})
	}
	c = append(c,
		agentcheck.Message{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{agentcheck.MustParseToolCall("refund", `{"order":"1042"}`)}},
		agentcheck.Message{Role: agentcheck.Tool, Content: "refunded 1042"},
		agentcheck.Message{Role: agentcheck.AI, Content: "Order 1042 is refunded."})
	return agentcheck.Sample{Conversation: c, ReferenceToolCalls: []agentcheck.ToolCall{
		agentcheck.MustParseToolCall("lookup_order", `{"order":"1042"}`),
		agentcheck.MustParseToolCall("refund", `{"order":"1042"}`),
	}}
}

const refundRubric = `The agent must:
- look the order up before changing it
- refund only the order the human named
- tell the human the outcome`

// rubricScript judges refundRun(...) as careful models would, from what the
// request shows. "judge-careful" checks the trajectory; "judge-lenient"
// finds every trajectory fine; "judge-garbled" never answers in the schema;
// "judge-flaky" answers malformed JSON first and carefully when asked again;
// "judge-contradicts" says the rubric is satisfied while a criterion is not
// met.
func rubricScript(r judgetest.Request) judgetest.Reply {
	usage := func(rep judgetest.Reply, prompt, completion int) judgetest.Reply {
		rep.Usage = &openai.Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion}
		return rep
	}
	if r.SchemaName() != "trajectory_rubric" {
		return judgetest.Reply{Status: http.StatusBadRequest, Message: "rubricScript: unexpected schema " + r.SchemaName()}
	}
	retry := len(r.Chat.Messages) > 2 // the client says what was wrong with the last answer
	switch r.Chat.Model {
	case "judge-garbled":
		if !retry {
			return usage(judgetest.MalformedJSON(), 500, 9)
		}
		return usage(judgetest.JSON(map[string]any{"reason": "looks fine"}), 540, 6)
	case "judge-flaky":
		if !retry {
			return usage(judgetest.MalformedJSON(), 500, 9)
		}
	}
	input := r.Message(1)
	rubric, rest, _ := strings.Cut(input, "\nTrajectory:\n")
	trajectory := rest
	looked := strings.Contains(trajectory, "-> lookup_order(")
	reference := strings.Contains(rubric, "Reference trajectory")
	_, criteria := r.Schema()["properties"].(map[string]any)["criteria"]

	lenient := r.Chat.Model == "judge-lenient"
	if !criteria {
		// A free-text rubric: does the run follow the reference, if any?
		if reference && !looked && !lenient {
			return usage(judgetest.JSON(map[string]any{
				"reason":    "The reference looks order 1042 up before refunding it; the agent refunded at [1] without looking it up.",
				"satisfied": false,
			}), 480, 31)
		}
		return usage(judgetest.JSON(map[string]any{"reason": "The agent refunded order 1042 at [1] and said so.", "satisfied": true}), 470, 20)
	}
	met := looked || lenient || r.Chat.Model == "judge-contradicts"
	first := map[string]any{"reason": "[1] looks order 1042 up before [3] refunds it.", "met": true}
	reason := "The agent looked order 1042 up, refunded only it and told the human."
	if !met || r.Chat.Model == "judge-contradicts" {
		first = map[string]any{"reason": "The refund at [1] is the first call; the order is never looked up.", "met": false}
		reason = "The agent refunded order 1042 without looking it up first."
	}
	return usage(judgetest.JSON(map[string]any{
		"criteria": map[string]any{
			"criterion_1": first,
			"criterion_2": map[string]any{"reason": "Only order 1042 is refunded.", "met": true},
			"criterion_3": map[string]any{"reason": "The last message says the order is refunded.", "met": true},
		},
		"reason":    reason,
		"satisfied": met,
	}), 610, 74)
}

// rubricJudge is a judge for t on s whose cassette lives in dir: it
// records what the cassette lacks, and asks at most attempts times per
// question.
func rubricJudge(t testing.TB, s *judgetest.Server, dir, model string, attempts int) *judge.Client {
	rec := recorder.ForTest(t, recorder.WithDir(dir), recorder.WithMode(recorder.RecordMissing),
		recorder.WithEnv(func(string) string { return "" }))
	return judge.ForTest(t, judge.WithRecorder(rec), judge.WithBaseURL(s.URL), judge.WithModel(model),
		judge.WithMaxAnswerAttempts(attempts), judge.WithRetry(judge.RetryPolicy{Initial: time.Millisecond, MaxAttempts: 2}))
}

func noLeaks(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) })
}

func TestRubricCriteria(t *testing.T) {
	for _, c := range []struct {
		rubric string
		want   []string
	}{
		{refundRubric, []string{"look the order up before changing it", "refund only the order the human named", "tell the human the outcome"}},
		{"Refund the order the human names, and nothing else.", nil},
		{"1. find the order\n2) refund it,\n   with a note\n\nnot a criterion\n* tell the human", []string{"find the order", "refund it, with a note", "tell the human"}},
		{"- first\nflush-left text ends the item\n  and so is not continued", []string{"first"}},
		{"-no space is not a list\n1.5 litres is not one either\n2.", nil},
	} {
		if got := metric.RubricCriteria(c.rubric); !reflect.DeepEqual(got, c.want) {
			t.Errorf("RubricCriteria(%q) = %q, want %q", c.rubric, got, c.want)
		}
	}
}

func TestTrajectoryRubricPassesAndFailsWithReasons(t *testing.T) {
	noLeaks(t)
	dir := t.TempDir()
	s := judgetest.Start(t, rubricScript)
	j := rubricJudge(t, s, dir, "judge-careful", 1)
	m := metric.TrajectoryRubric{Judge: j, Rubric: refundRubric}
	if m.Name() != "trajectory_rubric" {
		t.Fatalf("Name() = %q", m.Name())
	}

	r, criteria, err := m.EvaluateCriteria(context.Background(), refundRun(true))
	if err != nil {
		t.Fatal(err)
	}
	if r.Score != 1 || r.Reason != "The agent looked order 1042 up, refunded only it and told the human." {
		t.Errorf("careful run: score %v, reason %q; want 1 with the judge's reason", r.Score, r.Reason)
	}
	if len(criteria) != 1 || len(criteria[0]) != 3 || !criteria[0][0].Met || criteria[0][2].Criterion != "tell the human the outcome" {
		t.Errorf("criteria = %+v; want the judge's three, all met", criteria)
	}
	v := r.Verdicts[0]
	cassette := filepath.Join(dir, recorder.CassetteFile(t.Name()))
	if v.Model != "judge-careful" || v.PromptVersion != metric.RubricPromptVersion || v.Usage != (judgment.Usage{PromptTokens: 610, CompletionTokens: 74}) ||
		r.Usage != v.Usage || v.Source != cassette || !strings.Contains(v.Rerecord, "TestTrajectoryRubricPassesAndFailsWithReasons") {
		t.Errorf("verdict %+v; want model, prompt version, usage 610+74 and the cassette %s", v, cassette)
	}

	// The hasty run fails, with the judge's reasons, overall and per criterion.
	r, criteria, err = m.EvaluateCriteria(context.Background(), refundRun(false))
	if err != nil {
		t.Fatal(err)
	}
	if r.Score != 0 || r.Reason != "The agent refunded order 1042 without looking it up first." {
		t.Errorf("hasty run: score %v, reason %q; want 0 with the judge's reason", r.Score, r.Reason)
	}
	if c := criteria[0][0]; c.Met || c.Reason != "The refund at [1] is the first call; the order is never looked up." || c.Criterion != "look the order up before changing it" {
		t.Errorf("criterion 1 = %+v; want it not met, with the judge's reason", c)
	}
	if passed, judged := r.Votes(); passed != 0 || judged != 1 {
		t.Errorf("votes %d of %d, want 0 of 1", passed, judged)
	}

	// What the judge was asked: the rubric, its criteria as required keys
	// of a strict schema, and the trajectory with its calls and results.
	reqs := s.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want one per judgment", len(reqs))
	}
	q := reqs[1]
	if q.Chat.User != recorder.PromptVersionPrefix+metric.RubricPromptVersion || !q.Chat.ResponseFormat.JSONSchema.Strict {
		t.Errorf("request user %q, strict %v", q.Chat.User, q.Chat.ResponseFormat.JSONSchema.Strict)
	}
	crit := q.Schema()["properties"].(map[string]any)["criteria"].(map[string]any)
	if got := crit["required"]; !reflect.DeepEqual(got, []any{"criterion_1", "criterion_2", "criterion_3"}) {
		t.Errorf("the criteria's schema requires %v, want one verdict per criterion", got)
	}
	for _, want := range []string{
		"Rubric:\nThe agent must:\n- look the order up before changing it",
		"Criteria:\ncriterion_1: look the order up before changing it\ncriterion_2: refund only the order the human named\n",
		"Trajectory:\n[0] human: Order 1042 arrived broken, please refund it.\n[1] ai:\n    -> refund({\"order\":\"1042\"})\n[2] tool: refunded 1042",
	} {
		if !strings.Contains(q.Message(1), want) {
			t.Errorf("the judge's input lacks %q:\n%s", want, q.Message(1))
		}
	}
	if strings.Contains(q.Message(1), "Reference trajectory") || strings.Contains(q.Message(0), "reference trajectory") {
		t.Errorf("without Reference, the judge must not be shown one:\n%s", q.Message(1))
	}
}

func TestTrajectoryRubricWithAndWithoutReference(t *testing.T) {
	noLeaks(t)
	s := judgetest.Start(t, rubricScript)
	j := rubricJudge(t, s, t.TempDir(), "judge-careful", 1)
	const rubric = "Do what the task needs, in a sensible order, and nothing the human did not ask for."
	hasty := refundRun(false)

	without, err := metric.TrajectoryRubric{Judge: j, Rubric: rubric}.Evaluate(context.Background(), hasty)
	if err != nil {
		t.Fatal(err)
	}
	with, err := metric.TrajectoryRubric{Judge: j, Rubric: rubric, Reference: true}.Evaluate(context.Background(), hasty)
	if err != nil {
		t.Fatal(err)
	}
	if without.Score != 1 || with.Score != 0 || !strings.Contains(with.Reason, "without looking it up") {
		t.Errorf("without a reference %v, with one %v (%q); want 1, then 0 because the reference looks the order up", without.Score, with.Score, with.Reason)
	}
	reqs := s.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if _, ok := reqs[1].Schema()["properties"].(map[string]any)["criteria"]; ok {
		t.Error("a rubric that is not a list must not ask for criteria")
	}
	in := reqs[1].Message(1)
	if !strings.Contains(in, "Reference trajectory (tool calls of a correct run, in order):\n[0] lookup_order({\"order\":\"1042\"})\n[1] refund({\"order\":\"1042\"})\n") ||
		!strings.Contains(reqs[1].Message(0), "reference trajectory") {
		t.Errorf("with Reference, the judge must see the reference calls and be told what they are:\n%s", in)
	}
	if strings.Contains(reqs[0].Message(1), "Reference trajectory") {
		t.Error("without Reference, the judge saw the reference calls")
	}

	// A reference of no calls says so; a sample with none cannot be judged
	// with Reference.
	noCalls := hasty
	noCalls.ReferenceToolCalls = []agentcheck.ToolCall{}
	if _, err := (metric.TrajectoryRubric{Judge: j, Rubric: rubric, Reference: true}).Evaluate(context.Background(), noCalls); err != nil {
		t.Fatal(err)
	}
	if in := s.Requests()[2].Message(1); !strings.Contains(in, "(no tool calls: a correct run calls no tool)") {
		t.Errorf("an empty reference is not shown as such:\n%s", in)
	}
	noCalls.ReferenceToolCalls = nil
	_, err = metric.TrajectoryRubric{Judge: j, Rubric: rubric, Reference: true}.Evaluate(context.Background(), noCalls)
	if err == nil || !strings.Contains(err.Error(), "trajectory_rubric with Reference needs reference_tool_calls") {
		t.Errorf("Reference without reference calls: err = %v", err)
	}
	if n := s.Count(); n != 3 {
		t.Errorf("%d requests; a sample that cannot be judged must not reach the judge", n)
	}
}

func TestTrajectoryRubricReportsAnswersItCannotScore(t *testing.T) {
	noLeaks(t)
	s := judgetest.Start(t, rubricScript)
	dir := t.TempDir()
	careful := refundRun(true)

	t.Run("malformed answers", func(t *testing.T) {
		j := rubricJudge(t, s, dir, "judge-garbled", 2)
		r, err := metric.TrajectoryRubric{Judge: j, Rubric: refundRubric}.Evaluate(context.Background(), careful)
		var answerErr *judge.AnswerError
		if err == nil || !errors.As(err, &answerErr) || !strings.Contains(err.Error(), "trajectory_rubric: every judge failed") {
			t.Fatalf("err = %v; want every judge failed, with the judge's AnswerError", err)
		}
		if len(answerErr.Problems) != 2 || !strings.Contains(answerErr.Problems[0], "not JSON") || !strings.Contains(answerErr.Problems[1], "does not fit the schema") {
			t.Errorf("problems %q; want the malformed answer, then the one missing fields", answerErr.Problems)
		}
		if r.Score != 0 || r.Verdicts[0].Err == nil || r.Verdicts[0].Score != 0 {
			t.Errorf("result %+v: an unusable answer must be an error, not a score", r)
		}
	})

	t.Run("retried until it fits", func(t *testing.T) {
		before := s.Count()
		j := rubricJudge(t, s, dir, "judge-flaky", 2)
		r, err := metric.TrajectoryRubric{Judge: j, Rubric: refundRubric}.Evaluate(context.Background(), careful)
		if err != nil {
			t.Fatal(err)
		}
		if r.Score != 1 || s.Count()-before != 2 || r.Usage.Total() != 500+9+610+74 {
			t.Errorf("score %v after %d requests, usage %+v; want 1 after 2, both paid for", r.Score, s.Count()-before, r.Usage)
		}
		if last := s.Requests()[s.Count()-1]; !strings.Contains(last.Message(-1), "Your previous answer was rejected") {
			t.Errorf("the second request does not say why the first answer was rejected: %q", last.Message(-1))
		}
	})

	t.Run("answer that contradicts itself", func(t *testing.T) {
		j := rubricJudge(t, s, dir, "judge-contradicts", 1)
		r, err := metric.TrajectoryRubric{Judge: j, Rubric: refundRubric}.Evaluate(context.Background(), careful)
		if err == nil || !strings.Contains(err.Error(), "the answer contradicts itself: satisfied is true, but criterion 1 is not met") {
			t.Fatalf("err = %v; want the contradiction reported", err)
		}
		if r.Verdicts[0].Score != 0 || r.Usage.Total() != 684 {
			t.Errorf("verdict %+v: a contradiction is not scored, but its tokens count", r.Verdicts[0])
		}
	})

	t.Run("what cannot be asked", func(t *testing.T) {
		j := rubricJudge(t, s, dir, "judge-careful", 1)
		before := s.Count()
		for _, c := range []struct {
			m    metric.TrajectoryRubric
			s    agentcheck.Sample
			want string
		}{
			{metric.TrajectoryRubric{Judge: j, Rubric: " \n"}, careful, "trajectory_rubric needs a rubric"},
			{metric.TrajectoryRubric{Judge: j, Rubric: refundRubric}, agentcheck.Sample{}, "trajectory_rubric: the conversation is empty"},
			{metric.TrajectoryRubric{Rubric: refundRubric}, careful, "trajectory_rubric needs a judge"},
			{metric.TrajectoryRubric{Judge: j, Rubric: strings.Repeat("- x\n", 51)}, careful, "the rubric lists 51 criteria, more than 50"},
		} {
			if _, err := c.m.Evaluate(context.Background(), c.s); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want %q", err, c.want)
			}
		}
		if s.Count() != before {
			t.Error("a question that cannot be asked reached the judge")
		}
	})
}

func TestTrajectoryRubricPanel(t *testing.T) {
	noLeaks(t)
	s := judgetest.Start(t, rubricScript)
	dir := t.TempDir()
	careful := rubricJudge(t, s, dir, "judge-careful", 1)
	lenient := rubricJudge(t, s, dir, "judge-lenient", 1)
	garbled := rubricJudge(t, s, dir, "judge-garbled", 1)
	hasty := refundRun(false)

	for _, c := range []struct {
		agg          judgment.Aggregation
		want         float64
		disagreement bool
	}{
		{judgment.Aggregation{}, 0.5, false},
		{judgment.Aggregation{Method: judgment.Majority}, 0, false},
		{judgment.Aggregation{Method: judgment.Consensus, Tolerance: 0.2}, 0, true},
	} {
		p := judge.NewPanel([]judgment.Judge{careful, lenient, garbled}, c.agg)
		r, criteria, err := metric.TrajectoryRubric{Judge: p, Rubric: refundRubric}.EvaluateCriteria(context.Background(), hasty)
		if err != nil {
			t.Fatal(err)
		}
		if r.Score != c.want || (r.Disagreement != "") != c.disagreement {
			t.Errorf("%s: score %v, disagreement %q; want %v, %v", c.agg.Method, r.Score, r.Disagreement, c.want, c.disagreement)
		}
		if passed, judged := r.Votes(); passed != 1 || judged != 2 || r.Reason != "1 of 2 judges found the trajectory satisfies the rubric" {
			t.Errorf("%s: votes %d of %d, reason %q", c.agg.Method, passed, judged, r.Reason)
		}
		// The verdicts and their criteria line up, member by member.
		if r.Verdicts[0].Model != "judge-careful" || criteria[0][0].Met || r.Verdicts[1].Model != "judge-lenient" || !criteria[1][0].Met ||
			r.Verdicts[2].Err == nil || criteria[2] != nil {
			t.Errorf("%s: verdicts %+v, criteria %+v", c.agg.Method, r.Verdicts, criteria)
		}
		if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "1 of 3 judges failed") {
			t.Errorf("%s: warnings %q; want the garbled judge left out", c.agg.Method, r.Warnings)
		}
		if r.Usage.Total() != 2*(610+74)+509 {
			t.Errorf("%s: usage %+v; want every judge's tokens, the failed one's too", c.agg.Method, r.Usage)
		}
	}
}

// TestTrajectoryRubricRecordThenReplay records judgments to a cassette,
// then replays them with the server gone and no key: the same results.
func TestTrajectoryRubricRecordThenReplay(t *testing.T) {
	noLeaks(t)
	dir := t.TempDir()
	s := judgetest.NewServer(rubricScript)
	defer s.Close()
	run := func(j judgment.Judge) (out []metric.Result) {
		for _, sample := range []agentcheck.Sample{refundRun(true), refundRun(false)} {
			for _, m := range []metric.TrajectoryRubric{{Judge: j, Rubric: refundRubric}, {Judge: j, Rubric: "Follow the reference.", Reference: true}} {
				r, err := m.Evaluate(context.Background(), sample)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, r)
			}
		}
		return out
	}
	open := func(mode recorder.Mode) *recorder.Recorder {
		rec, err := recorder.Open(filepath.Join(dir, "rubric.yaml"), recorder.WithMode(mode), recorder.WithTestName(t.Name()),
			recorder.WithEnv(func(string) string { return "" }))
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	rec := open(recorder.RecordAll)
	recorded := run(judge.New(judge.WithRecorder(rec), judge.WithBaseURL(s.URL), judge.WithModel("judge-careful")))
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if n := s.Count(); n != 4 {
		t.Fatalf("the recording asked %d questions, want 4", n)
	}

	rec = open(recorder.RecordNone)
	defer rec.Close()
	replayed := run(judge.New(judge.WithRecorder(rec), judge.WithBaseURL(s.URL), judge.WithModel("judge-careful"), judge.WithAPIKey("")))
	if diff := cmp.Diff(recorded, replayed, cmpopts.IgnoreFields(metric.Verdict{}, "Duration")); diff != "" {
		t.Errorf("the replay differs from the recording (-recorded +replayed):\n%s", diff)
	}
	if got := []float64{replayed[0].Score, replayed[1].Score, replayed[2].Score, replayed[3].Score}; !reflect.DeepEqual(got, []float64{1, 1, 0, 0}) {
		t.Errorf("scores %v, want the careful run to pass and the hasty one to fail", got)
	}
	if src := replayed[0].Verdicts[0].Source; src != filepath.Join(dir, "rubric.yaml") {
		t.Errorf("replayed answers come from %q, want the cassette", src)
	}
}

// TestTrajectoryRubricCommittedCassette replays the committed cassette
// testdata/cassettes/TestTrajectoryRubricCommittedCassette~88020804.yaml, as CI
// does; AGENTCHECK_RECORD=all records it anew from the scripted server.
func TestTrajectoryRubricCommittedCassette(t *testing.T) {
	noLeaks(t)
	s := judgetest.Start(t, rubricScript)
	mode, err := recorder.ParseMode(os.Getenv(recorder.RecordEnv))
	if err != nil {
		t.Fatal(err)
	}
	careful := judge.ForTest(t, judge.WithBaseURL(s.URL), judge.WithModel("judge-careful"))
	lenient := judge.ForTest(t, judge.WithBaseURL(s.URL), judge.WithModel("judge-lenient"))
	p := judge.NewPanel([]judgment.Judge{careful, lenient}, judgment.Aggregation{Method: judgment.Unanimous})
	r, criteria, err := metric.TrajectoryRubric{Judge: p, Rubric: refundRubric}.EvaluateCriteria(context.Background(), refundRun(false))
	if err != nil {
		t.Fatal(err)
	}
	if r.Score != 0 || criteria[0][0].Met || !criteria[1][0].Met || r.Usage.Total() != 2*684 {
		t.Errorf("score %v, criteria %+v, usage %+v; want the careful judge's veto", r.Score, criteria, r.Usage)
	}
	want := filepath.Join("testdata", "cassettes", recorder.CassetteFile(t.Name()))
	for _, v := range r.Verdicts {
		if v.Source != want {
			t.Errorf("judge %s answered from %q, want %s", v.Model, v.Source, want)
		}
	}
	if mode == recorder.RecordNone && s.Count() != 0 {
		t.Errorf("replaying asked the server %d questions", s.Count())
	}
}

// ExampleTrajectoryRubric judges a trajectory against a rubric written as a
// list, with a scripted model on loopback so that it runs anywhere. In a
// test, judge with judge.ForTest(t), which replays the test's cassette.
func ExampleTrajectoryRubric() {
	answer := judgetest.JSON(map[string]any{
		"criteria": map[string]any{
			"criterion_1": map[string]any{"met": false, "reason": "The refund at [1] is the first call."},
			"criterion_2": map[string]any{"met": true, "reason": "Only order 1042 is refunded."},
		},
		"reason":    "The agent refunded without looking the order up.",
		"satisfied": false,
	})
	answer.Usage = &openai.Usage{PromptTokens: 540, CompletionTokens: 66}
	model := judgetest.NewServer(judgetest.Always(answer))
	defer model.Close()
	j := judge.New(judge.WithBaseURL(model.URL), judge.WithModel("gpt-4o-mini"))

	m := metric.TrajectoryRubric{Judge: j, Rubric: `
- look the order up before refunding it
- refund only the order the human named`}
	r, criteria, err := m.EvaluateCriteria(context.Background(), refundRun(false))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r)
	for _, c := range criteria[0] {
		fmt.Printf("%s: met %v (%s)\n", c.Criterion, c.Met, c.Reason)
	}
	fmt.Println("tokens:", r.Usage.Total())
	// Output:
	// trajectory_rubric = 0: The agent refunded without looking the order up.
	// look the order up before refunding it: met false (The refund at [1] is the first call.)
	// refund only the order the human named: met true (Only order 1042 is refunded.)
	// tokens: 606
}
