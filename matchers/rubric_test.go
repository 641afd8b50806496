package matchers_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/judgment"
	. "github.com/agentcheck/agentcheck/matchers"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/google/go-cmp/cmp"
	"github.com/onsi/gomega"
	openai "github.com/sashabaranov/go-openai"
	"go.uber.org/goleak"
)

// transfer is an agent run asked to send 50 EUR to Ana: a careful agent
// confirms the payee before it pays, a hasty one pays at once.
func transfer(confirm bool) agentcheck.Conversation {
	c := agentcheck.Conversation{{Role: agentcheck.Human, Content: "Send 50 EUR to Ana for dinner."}}
	if confirm {
		c = append(c,
			agentcheck.Message{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{agentcheck.MustParseToolCall("find_payee", `{"name":"Ana"}`)}},
			agentcheck.Message{Role: agentcheck.Tool, Content: `{"payee":"p_ana","iban":"DE44…0131"}`})
	}
	return append(c,
		agentcheck.Message{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{agentcheck.MustParseToolCall("pay", `{"payee":"p_ana","amount":50,"currency":"EUR"}`)}},
		agentcheck.Message{Role: agentcheck.Tool, Content: "paid"},
		agentcheck.Message{Role: agentcheck.AI, Content: "Sent 50 EUR to Ana."})
}

var transferReference = []agentcheck.ToolCall{
	agentcheck.MustParseToolCall("find_payee", `{"name":"Ana"}`),
	agentcheck.MustParseToolCall("pay", `{"payee":"p_ana","amount":50,"currency":"EUR"}`),
}

const transferRubric = "The agent confirms who the payee is before it pays."

// transferScript judges transfer(...): "judge-a" requires a find_payee
// call before pay, or, shown a reference that has one, that the run has it
// too; "judge-lenient" finds every run fine; "judge-garbled" answers with
// JSON outside the schema.
func transferScript(r judgetest.Request) judgetest.Reply {
	withUsage := func(rep judgetest.Reply) judgetest.Reply {
		rep.Usage = &openai.Usage{PromptTokens: 320, CompletionTokens: 30, TotalTokens: 350}
		return rep
	}
	switch {
	case r.SchemaName() != "trajectory_rubric":
		return judgetest.Reply{Status: http.StatusBadRequest, Message: "unexpected schema " + r.SchemaName()}
	case r.Chat.Model == "judge-garbled":
		return withUsage(judgetest.Content(`{"satisfied": "yes"}`))
	}
	head, trajectory, _ := strings.Cut(r.Message(1), "\nTrajectory:\n")
	if r.Chat.Model == "judge-lenient" || strings.Contains(trajectory, "-> find_payee(") {
		return withUsage(judgetest.JSON(map[string]any{"reason": "find_payee at [1] confirms Ana before pay at [3].", "satisfied": true}))
	}
	reason := "pay at [1] is the first call: the payee is never confirmed."
	if strings.Contains(head, "Reference trajectory") {
		reason = "Unlike the reference, which calls find_payee first, the agent pays at [1] without confirming the payee."
	}
	return withUsage(judgetest.JSON(map[string]any{"reason": reason, "satisfied": false}))
}

func transferJudge(t *testing.T, s *judgetest.Server, dir, model string) *judge.Client {
	rec := recorder.ForTest(t, recorder.WithDir(dir), recorder.WithMode(recorder.RecordMissing),
		recorder.WithEnv(func(string) string { return "" }))
	return judge.ForTest(t, judge.WithRecorder(rec), judge.WithBaseURL(s.URL), judge.WithModel(model), judge.WithMaxAnswerAttempts(1))
}

// rubricGomega is a Gomega that keeps its failures for the test to read.
type rubricGomega struct {
	gomega.Gomega
	failures []string
}

func newRubricGomega() *rubricGomega {
	g := &rubricGomega{}
	g.Gomega = gomega.NewGomega(func(message string, _ ...int) { g.failures = append(g.failures, message) })
	return g
}

// failure returns the single failure since the last call, "" if none.
func (g *rubricGomega) failure(t *testing.T) string {
	t.Helper()
	defer func() { g.failures = nil }()
	switch len(g.failures) {
	case 0:
		return ""
	case 1:
		return g.failures[0]
	}
	t.Fatalf("want at most 1 failure, got %d: %q", len(g.failures), g.failures)
	return ""
}

func hasAll(t *testing.T, msg string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("message lacks %q:\n%s", p, msg)
		}
	}
}

func noRubricLeaks(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) })
}

func TestSatisfyRubric(t *testing.T) {
	noRubricLeaks(t)
	dir := t.TempDir()
	s := judgetest.Start(t, transferScript)
	j := transferJudge(t, s, dir, "judge-a")
	g := newRubricGomega()
	m := SatisfyRubric(j, transferRubric)

	g.Expect(transfer(false)).To(m)
	want := `Expected the trajectory "Send 50 EUR to Ana for dinner." … "Sent 50 EUR to Ana." (4 messages, 1 tool call) to satisfy the rubric "The agent confirms who the payee is before it pays.", but the judge found: pay at [1] is the first call: the payee is never confirmed.
judge judge-a: not satisfied
tokens: 350 (320 prompt + 30 completion)
cassette: $DIR/TestSatisfyRubric~881.yaml
    re-record: AGENTCHECK_RECORD=all AGENTCHECK_RECORD_TEST=TestSatisfyRubric go test ./matchers -count=1 -run '^TestSatisfyRubric$'`
	if diff := cmp.Diff(want, strings.ReplaceAll(g.failure(t), dir, "$DIR")); diff != "" {
		t.Errorf("failure message (-want +got):\n%s", diff)
	}

	g.Expect(transfer(true)).To(m)
	if msg := g.failure(t); msg != "" {
		t.Errorf("the careful run failed:\n%s", msg)
	}
	g.Expect(transfer(true)).NotTo(m)
	hasAll(t, g.failure(t),
		`Expected the trajectory "Send 50 EUR to Ana for dinner." … "Sent 50 EUR to Ana." (6 messages, 2 tool calls) not to satisfy the rubric "The agent confirms who the payee is before it pays.", but the judge found it does: find_payee at [1] confirms Ana before pay at [3].`+"\njudge judge-a: satisfied\n")
	if n := s.Count(); n != 2 {
		t.Errorf("two distinct runs asked the judge %d times, want 2 (the matcher remembers its judgments)", n)
	}
}

func TestSatisfyRubricWithReference(t *testing.T) {
	noRubricLeaks(t)
	dir := t.TempDir()
	s := judgetest.Start(t, transferScript)
	j := transferJudge(t, s, dir, "judge-a")
	g := newRubricGomega()
	sample := agentcheck.Sample{Conversation: transfer(false), ReferenceToolCalls: transferReference}

	g.Expect(sample).To(SatisfyRubric(j, transferRubric).WithReference())
	hasAll(t, g.failure(t),
		`but the judge found: Unlike the reference, which calls find_payee first, the agent pays at [1] without confirming the payee.`,
		"\nreference trajectory:\n    [0] find_payee({\"name\":\"Ana\"})\n    [1] pay({\"payee\":\"p_ana\",\"amount\":50,\"currency\":\"EUR\"})\njudge judge-a: not satisfied\n")
	if in := s.Requests()[0].Message(1); !strings.Contains(in, "Reference trajectory (tool calls of a correct run, in order):\n[0] find_payee(") {
		t.Errorf("the judge was not shown the reference:\n%s", in)
	}

	// Against gives a conversation a reference; without one, the judge
	// sees none.
	g.Expect(transfer(false)).To(SatisfyRubric(j, transferRubric).Against(transferReference...))
	hasAll(t, g.failure(t), "but the judge found: Unlike the reference", "reference trajectory:\n    [0] find_payee(")
	g.Expect(sample).To(SatisfyRubric(j, transferRubric))
	msg := g.failure(t)
	hasAll(t, msg, "but the judge found: pay at [1] is the first call")
	if strings.Contains(msg, "reference trajectory") {
		t.Errorf("without WithReference, the message shows a reference:\n%s", msg)
	}
	if n := s.Count(); n != 3 {
		t.Errorf("%d questions, want 3: WithReference and Against on the same run ask the same question, but they are separate matchers", n)
	}

	ok, err := SatisfyRubric(j, transferRubric).WithReference().Match(transfer(false))
	if ok || err == nil || !strings.Contains(err.Error(), "SatisfyRubric(...).WithReference() needs reference tool calls, and the agentcheck.Conversation has none") {
		t.Errorf("WithReference on a conversation: Match = %v, %v", ok, err)
	}
}

func TestSatisfyRubricPanelsAndErrors(t *testing.T) {
	noRubricLeaks(t)
	dir := t.TempDir()
	s := judgetest.Start(t, transferScript)
	strict := transferJudge(t, s, dir, "judge-a")
	lenient := transferJudge(t, s, dir, "judge-lenient")
	garbled := transferJudge(t, s, dir, "judge-garbled")
	hasty := transfer(false)
	g := newRubricGomega()

	// A consensus panel whose judges disagree gives no verdict either way.
	m := SatisfyRubric(judge.NewPanel([]judgment.Judge{strict, lenient}, judgment.Aggregation{Method: judgment.Consensus}), transferRubric)
	g.Expect(hasty).To(m)
	toMsg := g.failure(t)
	g.Expect(hasty).NotTo(m)
	if notMsg := g.failure(t); notMsg != toMsg || toMsg == "" {
		t.Errorf("To and NotTo should fail alike on a disagreement:\n%s\n---\n%s", toMsg, notMsg)
	}
	hasAll(t, toMsg,
		`The judges disagree whether the trajectory "Send 50 EUR to Ana for dinner."`,
		"so there is no verdict either way (trajectory_rubric 0)",
		"judge judge-a: not satisfied\n    reason: pay at [1] is the first call: the payee is never confirmed.\n    tokens: 350 (320 prompt + 30 completion)\njudge judge-lenient: satisfied\n",
		"disagreement: judges disagree: scores [0, 1] spread 1, more than the tolerance 0")

	// A mean panel: half the judges is not all of them.
	g.Expect(hasty).To(SatisfyRubric(judge.NewPanel([]judgment.Judge{strict, lenient}, judgment.Aggregation{}), transferRubric))
	hasAll(t, g.failure(t), "to satisfy the rubric \"The agent confirms who the payee is before it pays.\", but 1 of 2 judges found it does (trajectory_rubric 0.5, want 1)")

	// An answer outside the schema is an error, never a verdict.
	ok, err := SatisfyRubric(garbled, transferRubric).Match(hasty)
	if ok || err == nil {
		t.Fatalf("Match = %v, %v; want an error, not a verdict", ok, err)
	}
	hasAll(t, err.Error(),
		"Could not judge whether the trajectory",
		"every judge failed\njudge judge-garbled: failed, left out of the score:\n    trajectory_rubric: judge: question \"trajectory_rubric\" (model judge-garbled): no usable answer in 1 attempts; attempt 1: the answer does not fit the schema")
	g.Expect(hasty).NotTo(SatisfyRubric(garbled, transferRubric))
	hasAll(t, g.failure(t), "Could not judge whether the trajectory")

	for _, c := range []struct {
		actual any
		m      *RubricMatcher
		want   string
	}{
		{hasty, SatisfyRubric(nil, transferRubric), "trajectory_rubric needs a judge"},
		{hasty, SatisfyRubric(strict, ""), "trajectory_rubric needs a rubric"},
		{42, SatisfyRubric(strict, transferRubric), "SatisfyRubric: agenttest: cannot take tool calls from int"},
	} {
		if ok, err := c.m.Match(c.actual); ok || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Match(%T) = %v, %v; want an error with %q", c.actual, ok, err, c.want)
		}
	}
}

func TestSatisfyRubricEventually(t *testing.T) {
	noRubricLeaks(t)
	s := judgetest.Start(t, transferScript)
	j := transferJudge(t, s, t.TempDir(), "judge-a")
	g := newRubricGomega()

	// The agent gets it right on the fourth poll: one judgment per distinct
	// trajectory.
	polls := 0
	g.Eventually(func() agentcheck.Conversation {
		polls++
		return transfer(polls > 3)
	}).WithTimeout(10 * time.Second).WithPolling(time.Millisecond).Should(SatisfyRubric(j, transferRubric))
	if msg := g.failure(t); msg != "" || polls != 4 {
		t.Errorf("after %d polls: %s", polls, msg)
	}
	if n := s.Count(); n != 2 {
		t.Errorf("two distinct trajectories asked the judge %d times, want 2", n)
	}

	// A failed tool result is part of the trajectory: the same messages with
	// a result marked as an error are judged anew.
	failing := transfer(true)
	failing[2].IsError = true
	g.Expect(failing).To(SatisfyRubric(j, transferRubric))
	if n := s.Count(); n != 3 || !strings.Contains(s.Requests()[2].Message(1), `[2] tool: ERROR: {"payee":"p_ana"`) {
		t.Errorf("%d questions; the judge must be asked again, and shown the error", n)
	}
}

// ExampleSatisfyRubric judges a trajectory with a scripted model on
// loopback, so that it runs anywhere. In a test, judge with
// judge.ForTest(t), which records to and replays from the test's cassette.
func ExampleSatisfyRubric() {
	answer := judgetest.JSON(map[string]any{
		"criteria": map[string]any{
			"criterion_1": map[string]any{"met": false, "reason": "pay at [1] is the first call; the payee is never looked up."},
			"criterion_2": map[string]any{"met": true, "reason": "[3] tells the human 50 EUR were sent."},
		},
		"reason":    "The agent paid without confirming the payee.",
		"satisfied": false,
	})
	answer.Usage = &openai.Usage{PromptTokens: 402, CompletionTokens: 71}
	model := judgetest.NewServer(judgetest.Always(answer))
	defer model.Close()
	j := judge.New(judge.WithBaseURL(model.URL), judge.WithModel("gpt-4o-mini"))

	g := gomega.NewGomega(func(message string, _ ...int) { fmt.Println(message) })
	g.Expect(transfer(false)).To(SatisfyRubric(j, `
- confirm the payee before paying
- say what was sent`))
	// Output:
	// Expected the trajectory "Send 50 EUR to Ana for dinner." … "Sent 50 EUR to Ana." (4 messages, 1 tool call) to satisfy the rubric "- confirm the payee before paying - say what was sent", but the judge found: The agent paid without confirming the payee.
	// rubric:
	//     - confirm the payee before paying
	//     - say what was sent
	// judge gpt-4o-mini: not satisfied
	//     criteria:
	//       1. confirm the payee before paying: not met
	//          pay at [1] is the first call; the payee is never looked up.
	//       2. say what was sent: met
	//          [3] tells the human 50 EUR were sent.
	// tokens: 473 (402 prompt + 71 completion)
	// answers: live, from no cassette (judge.ForTest replays them)
}
