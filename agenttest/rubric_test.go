package agenttest_test

import (
	"context"
	"errors"
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

// cancelRun is an agent run asked to cancel a subscription. A careful agent
// checks the plan first; a hasty one cancels straight away.
func cancelRun(checkFirst bool) agentcheck.Sample {
	c := agentcheck.Conversation{{Role: agentcheck.Human, Content: "Cancel my Pro subscription at the end of the month."}}
	if checkFirst {
		c = append(c,
			agentcheck.Message{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{agentcheck.MustParseToolCall("get_plan", `{"user":"u7"}`)}},
			agentcheck.Message{Role: agentcheck.Tool, Content: `{"plan":"pro","renews":"2026-12-01"}`})
	}
	c = append(c,
		agentcheck.Message{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{agentcheck.MustParseToolCall("cancel", `{"user":"u7","at":"period_end"}`)}},
		agentcheck.Message{Role: agentcheck.Tool, Content: "cancelled at period end"},
		agentcheck.Message{Role: agentcheck.AI, Content: "Your Pro plan ends on 1 December."})
	return agentcheck.Sample{Conversation: c, ReferenceToolCalls: []agentcheck.ToolCall{
		agentcheck.MustParseToolCall("get_plan", `{"user":"u7"}`),
		agentcheck.MustParseToolCall("cancel", `{"user":"u7","at":"period_end"}`),
	}}
}

const cancelRubric = `- check the plan before cancelling
- cancel at the end of the period, not at once`

// cancelScript judges cancelRun(...): "judge-a" checks whether the plan was
// looked up (or, for a free-text rubric with a reference, whether the run
// follows it); "judge-lenient" finds every run fine; "judge-garbled"
// answers in no schema.
func cancelScript(r judgetest.Request) judgetest.Reply {
	usage := func(rep judgetest.Reply, prompt, completion int) judgetest.Reply {
		rep.Usage = &openai.Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion}
		return rep
	}
	switch {
	case r.SchemaName() != "trajectory_rubric":
		return judgetest.Reply{Status: http.StatusBadRequest, Message: "unexpected schema " + r.SchemaName()}
	case r.Chat.Model == "judge-garbled":
		return usage(judgetest.Content(`{"verdict": "looks good"}`), 300, 8)
	}
	head, trajectory, _ := strings.Cut(r.Message(1), "\nTrajectory:\n")
	checked := strings.Contains(trajectory, "-> get_plan(") || r.Chat.Model == "judge-lenient"
	if _, criteria := r.Schema()["properties"].(map[string]any)["criteria"]; !criteria {
		if strings.Contains(head, "Reference trajectory") && !checked {
			return usage(judgetest.JSON(map[string]any{"reason": "The reference checks the plan first; the agent cancelled at [1] without it.", "satisfied": false}), 280, 22)
		}
		return usage(judgetest.JSON(map[string]any{"reason": "The agent cancelled at period end and said when.", "satisfied": true}), 270, 14)
	}
	first := map[string]any{"reason": "[1] reads the plan before [3] cancels.", "met": true}
	reason := "The agent checked the plan, then cancelled at period end."
	if !checked {
		first = map[string]any{"reason": "The first call, at [1], already cancels.", "met": false}
		reason = "The agent cancelled without checking the plan."
	}
	return usage(judgetest.JSON(map[string]any{
		"criteria": map[string]any{
			"criterion_1": first,
			"criterion_2": map[string]any{"reason": `cancel has "at":"period_end".`, "met": true},
		},
		"reason":    reason,
		"satisfied": checked,
	}), 350, 60)
}

func cancelJudge(t *testing.T, s *judgetest.Server, dir, model string) *judge.Client {
	rec := recorder.ForTest(t, recorder.WithDir(dir), recorder.WithMode(recorder.RecordMissing),
		recorder.WithEnv(func(string) string { return "" }))
	return judge.ForTest(t, judge.WithRecorder(rec), judge.WithBaseURL(s.URL), judge.WithModel(model), judge.WithMaxAnswerAttempts(1))
}

func rubricLeaks(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) })
}

func TestCheckRubric(t *testing.T) {
	rubricLeaks(t)
	dir := t.TempDir()
	s := judgetest.Start(t, cancelScript)
	j := cancelJudge(t, s, dir, "judge-a")
	m := metric.TrajectoryRubric{Judge: j, Rubric: cancelRubric}

	r := agenttest.CheckRubric(context.Background(), m, cancelRun(false))
	if r.OK() || r.Err() != nil {
		t.Fatalf("the hasty run passed, or was not judged: %v", r.Err())
	}
	want := `Expected the trajectory "Cancel my Pro subscription at the end of the month." … "Your Pro plan ends on 1 December." (4 messages, 1 tool call) to satisfy the rubric "- check the plan before cancelling - cancel at the end of…", but the judge found: The agent cancelled without checking the plan.
rubric:
    - check the plan before cancelling
    - cancel at the end of the period, not at once
judge judge-a: not satisfied
    criteria:
      1. check the plan before cancelling: not met
         The first call, at [1], already cancels.
      2. cancel at the end of the period, not at once: met
         cancel has "at":"period_end".
tokens: 410 (350 prompt + 60 completion)
cassette: $DIR/TestCheckRubric~884.yaml
    re-record: AGENTCHECK_RECORD=all AGENTCHECK_RECORD_TEST=TestCheckRubric go test ./agenttest -count=1 -run '^TestCheckRubric$'`
	if diff := cmp.Diff(want, strings.ReplaceAll(r.String(), dir, "$DIR")); diff != "" {
		t.Errorf("failure message (-want +got):\n%s", diff)
	}
	if name, score, ok := r.Score(); name != "trajectory_rubric" || score != 0 || !ok {
		t.Errorf("Score() = %q, %v, %v", name, score, ok)
	}

	// The careful run passes; its negation fails with the judge's reason.
	r = agenttest.CheckRubric(context.Background(), m, cancelRun(true))
	if !r.OK() {
		t.Fatalf("the careful run failed:\n%s", r)
	}
	if neg := r.Negated(); !strings.HasPrefix(neg, `Expected the trajectory "Cancel my Pro subscription at the end of the month." … "Your Pro plan ends on 1 December." (6 messages, 2 tool calls) not to satisfy the rubric "- check the plan before cancelling - cancel at the end of…", but the judge found it does: The agent checked the plan, then cancelled at period end.
rubric:`) || !strings.Contains(neg, "judge judge-a: satisfied\n    criteria:\n      1. check the plan before cancelling: met\n         [1] reads the plan before [3] cancels.\n") {
		t.Errorf("negated message:\n%s", neg)
	}
}

func TestCheckRubricWithAndWithoutReference(t *testing.T) {
	rubricLeaks(t)
	dir := t.TempDir()
	s := judgetest.Start(t, cancelScript)
	j := cancelJudge(t, s, dir, "judge-a")
	const rubric = "Do what the task needs, safely."
	hasty := cancelRun(false)

	if r := agenttest.CheckRubric(context.Background(), metric.TrajectoryRubric{Judge: j, Rubric: rubric}, hasty); !r.OK() {
		t.Errorf("without a reference the hasty run should pass:\n%s", r)
	}
	r := agenttest.CheckRubric(context.Background(), metric.TrajectoryRubric{Judge: j, Rubric: rubric, Reference: true}, hasty)
	want := `Expected the trajectory "Cancel my Pro subscription at the end of the month." … "Your Pro plan ends on 1 December." (4 messages, 1 tool call) to satisfy the rubric "Do what the task needs, safely.", but the judge found: The reference checks the plan first; the agent cancelled at [1] without it.
reference trajectory:
    [0] get_plan({"user":"u7"})
    [1] cancel({"user":"u7","at":"period_end"})
judge judge-a: not satisfied
tokens: 302 (280 prompt + 22 completion)
cassette: $DIR/TestCheckRubricWithAndWithoutReference~88411204.yaml
    re-record: AGENTCHECK_RECORD=all AGENTCHECK_RECORD_TEST=TestCheckRubricWithAndWithoutReference go test ./agenttest -count=1 -run '^TestCheckRubricWithAndWithoutReference$'`
	if diff := cmp.Diff(want, strings.ReplaceAll(r.String(), dir, "$DIR")); diff != "" {
		t.Errorf("failure message with a reference (-want +got):\n%s", diff)
	}

	hasty.ReferenceToolCalls = nil
	r = agenttest.CheckRubric(context.Background(), metric.TrajectoryRubric{Judge: j, Rubric: rubric, Reference: true}, hasty)
	var je *agenttest.JudgmentError
	if !errors.As(r.Err(), &je) || !strings.Contains(r.String(), `Could not judge whether the trajectory "Cancel my Pro`) ||
		!strings.Contains(r.String(), `satisfies the rubric "Do what the task needs, safely.": trajectory_rubric with Reference needs reference_tool_calls`) {
		t.Errorf("a reference judgment without reference calls: %v", r.Err())
	}
}

func TestCheckRubricPanels(t *testing.T) {
	rubricLeaks(t)
	dir := t.TempDir()
	s := judgetest.Start(t, cancelScript)
	strict := cancelJudge(t, s, dir, "judge-a")
	lenient := cancelJudge(t, s, dir, "judge-lenient")
	hasty := cancelRun(false)

	// A mean panel that disagrees fails, with each judge's reason and
	// verdict on every criterion.
	r := agenttest.CheckRubric(context.Background(), metric.TrajectoryRubric{
		Judge: judge.NewPanel([]judgment.Judge{strict, lenient}, judgment.Aggregation{}), Rubric: cancelRubric}, hasty)
	if r.OK() || r.Err() != nil {
		t.Fatalf("half a panel is not the whole: %v", r.Err())
	}
	msg := r.String()
	for _, want := range []string{
		`to satisfy the rubric "- check the plan before cancelling - cancel at the end of…", but 1 of 2 judges found it does (trajectory_rubric 0.5, want 1)`,
		"judge judge-a: not satisfied\n    reason: The agent cancelled without checking the plan.\n    criteria:\n      1. check the plan before cancelling: not met\n",
		"    tokens: 410 (350 prompt + 60 completion)\njudge judge-lenient: satisfied\n    reason: The agent checked the plan, then cancelled at period end.\n",
		"\ntokens: 820 (700 prompt + 120 completion)\ncassette: ",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("panel message lacks %q:\n%s", want, msg)
		}
	}

	// A consensus panel that disagrees gives no verdict either way.
	r = agenttest.CheckRubric(context.Background(), metric.TrajectoryRubric{
		Judge: judge.NewPanel([]judgment.Judge{strict, lenient}, judgment.Aggregation{Method: judgment.Consensus, Tolerance: 0.2}), Rubric: cancelRubric}, hasty)
	if r.Err() == nil || r.String() != r.Negated() ||
		!strings.Contains(r.String(), `The judges disagree whether the trajectory "Cancel my Pro`) ||
		!strings.Contains(r.String(), "so there is no verdict either way (trajectory_rubric 0)") ||
		!strings.Contains(r.String(), "disagreement: judges disagree: scores [0, 1] spread 1, more than the tolerance 0.2") {
		t.Errorf("consensus disagreement:\n%s", r)
	}
}

func TestCheckRubricReportsMalformedAnswers(t *testing.T) {
	rubricLeaks(t)
	dir := t.TempDir()
	s := judgetest.Start(t, cancelScript)
	garbled := cancelJudge(t, s, dir, "judge-garbled")
	lenient := cancelJudge(t, s, dir, "judge-lenient")
	careful := cancelRun(true)

	r := agenttest.CheckRubric(context.Background(), metric.TrajectoryRubric{Judge: garbled, Rubric: cancelRubric}, careful)
	if r.OK() || r.Err() == nil {
		t.Fatal("an answer that does not fit the schema gave a verdict")
	}
	for _, want := range []string{
		`Could not judge whether the trajectory "Cancel my Pro subscription at the end of the month."`,
		"satisfies the rubric \"- check the plan before cancelling - cancel at the end of…\": every judge failed\njudge judge-garbled: failed, left out of the score:\n    trajectory_rubric: judge: question \"trajectory_rubric\" (model judge-garbled): no usable answer in 1 attempts; attempt 1: the answer does not fit the schema",
	} {
		if !strings.Contains(r.String(), want) {
			t.Errorf("message lacks %q:\n%s", want, r)
		}
	}
	if r.Negated() != r.String() {
		t.Error("a check that could not be made must fail negated too")
	}

	// In a panel, the garbled member is left out and named; the rest decide.
	r = agenttest.CheckRubric(context.Background(), metric.TrajectoryRubric{
		Judge: judge.NewPanel([]judgment.Judge{lenient, garbled}, judgment.Aggregation{}), Rubric: cancelRubric}, careful)
	if !r.OK() {
		t.Fatalf("the lenient judge's verdict should decide:\n%s", r)
	}
	if neg := r.Negated(); !strings.Contains(neg, "but 1 of 1 judges found it does (trajectory_rubric 1)") ||
		!strings.Contains(neg, "judge judge-garbled: failed, left out of the score:") {
		t.Errorf("negated panel message:\n%s", neg)
	}
}
