package matchers_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/goopenai"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/judgment"
	. "github.com/agentcheck/agentcheck/matchers"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/onsi/gomega"
	openai "github.com/sashabaranov/go-openai"
	"go.uber.org/goleak"
)

// booking is an agent run that booked the wrong time: the human asked for
// 8pm, the restaurant had 9pm, and the agent took it.
func booking(bookedAt string) agentcheck.Conversation {
	return agentcheck.Conversation{
		{Role: agentcheck.Human, Content: "Book a table for two at Luigi's tonight at 8pm. And who will win the election?"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{
			agentcheck.MustParseToolCall("book_table", `{"restaurant":"Luigi's","party":2,"time":"`+bookedAt+`"}`),
		}},
		{Role: agentcheck.Tool, Content: `{"status":"confirmed","time":"` + bookedAt + `","ref":"LU-311"}`},
		{Role: agentcheck.AI, Content: "Booked Luigi's for two at " + bookedAt + ", reference LU-311. Polls favour the incumbent."},
	}
}

const bookingReference = "A table for two at Luigi's is booked for 8pm tonight."

// judgeScript answers the judged metrics' questions about booking(...) the
// way a careful model would: the end state is whatever time the
// conversation booked, and only 20:00 achieves the goal; the human raised
// two topics, the agent answered both, and the election is on-topic only
// when "politics" is an allowed topic. The model
// "judge-lenient" finds every end state achieves the goal; "judge-broken"
// gets a 400 for every question.
func judgeScript() judgetest.Script {
	usage := func(r judgetest.Reply, prompt, completion int) judgetest.Reply {
		r.Usage = &openai.Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion}
		return r
	}
	return func(r judgetest.Request) judgetest.Reply {
		if r.Chat.Model == "judge-broken" {
			return judgetest.Reply{Status: http.StatusBadRequest, Message: "model judge-broken does not support json_schema"}
		}
		input := r.Message(-1)
		late := strings.Contains(input, "21:00")
		switch r.SchemaName() {
		case "agent_goal_infer":
			end := "A table for two at Luigi's is booked for 8pm tonight (reference LU-311)."
			if late {
				end = "A table for two at Luigi's is booked for 9pm tonight (reference LU-311), not 8pm."
			}
			return usage(judgetest.JSON(map[string]any{
				"user_goal": "Book a table for two at Luigi's tonight at 8pm.",
				"end_state": end,
			}), 412, 38)
		case "agent_goal_compare":
			if r.Chat.Model == "judge-lenient" || !strings.Contains(input, "9pm") {
				return usage(judgetest.JSON(map[string]any{"reason": "The booking matches: two people at Luigi's at 8pm.", "achieved": true}), 96, 17)
			}
			return usage(judgetest.JSON(map[string]any{"reason": "The table was booked for 9pm, but the goal is 8pm.", "achieved": false}), 96, 19)
		case "topic_extract":
			return usage(judgetest.JSON(map[string]any{"topics": []string{"table booking at Luigi's", "the election"}}), 380, 20)
		case "topic_refusal":
			return usage(judgetest.JSON(map[string]any{"topic_1": false, "topic_2": false}), 420, 14)
		case "topic_classify":
			politics := strings.Contains(input, "- politics")
			return usage(judgetest.JSON(map[string]any{"topic_1": true, "topic_2": politics}), 150, 14)
		}
		return judgetest.Reply{Status: http.StatusBadRequest, Message: "judgeScript: unexpected schema " + r.SchemaName()}
	}
}

// newJudge is a judge for t on s that records what its cassette in dir
// lacks; the environment is kept out of the cassette's decisions, so the
// tests run alike on CI.
func newJudge(t testing.TB, s *judgetest.Server, dir, model string, mode recorder.Mode) *judge.Client {
	rec := recorder.ForTest(t, recorder.WithDir(dir), recorder.WithMode(mode), noEnv())
	return judge.ForTest(t, judge.WithRecorder(rec),
		judge.WithBaseURL(s.URL), judge.WithModel(model), judge.WithMaxAnswerAttempts(1),
		judge.WithRetry(judge.RetryPolicy{Initial: time.Millisecond, MaxAttempts: 2}))
}

func noEnv() recorder.Option {
	return recorder.WithEnv(func(string) string { return "" })
}

// checkLeaks fails t if it leaves goroutines behind: those it started and
// did not end by its cleanups. Goroutines from before it (Ginkgo's
// interrupt handler, once the package's specs have run) are not its own.
func checkLeaks(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) })
}

// failures is a Gomega whose failures are collected, not reported.
type failures struct {
	gomega.Gomega
	got []string
}

func newFailures() *failures {
	f := &failures{}
	f.Gomega = gomega.NewGomega(func(message string, _ ...int) { f.got = append(f.got, message) })
	return f
}

// one returns the single failure since the last call.
func (f *failures) one(t *testing.T) string {
	t.Helper()
	if len(f.got) != 1 {
		t.Fatalf("want 1 failure, got %d: %q", len(f.got), f.got)
	}
	msg := f.got[0]
	f.got = nil
	return msg
}

func (f *failures) none(t *testing.T) {
	t.Helper()
	if len(f.got) != 0 {
		t.Fatalf("unexpected failures:\n%s", strings.Join(f.got, "\n---\n"))
	}
}

// phase stands in for t during one phase of a test, so that a recording and
// its replay open the same cassette, named after t; the cassette is saved at
// end rather than at the end of the test.
type phase struct {
	testing.TB
	cleanups []func()
}

func (p *phase) Cleanup(f func()) { p.cleanups = append(p.cleanups, f) }

func (p *phase) end() {
	for i := len(p.cleanups) - 1; i >= 0; i-- {
		p.cleanups[i]()
	}
	p.cleanups = nil
}

func TestJudgedMatchersRecordThenReplayOffline(t *testing.T) {
	checkLeaks(t)
	dir := t.TempDir()
	s := judgetest.NewServer(judgeScript())
	defer s.Close()
	sample := agentcheck.Sample{Conversation: booking("21:00"), Reference: bookingReference, ReferenceTopics: []string{"restaurant bookings"}}

	run := func(j *judge.Client) (msgs []string, goal, topics metric.Result) {
		g := newFailures()
		g.Expect(sample).To(AchieveGoal(j))
		g.Expect(sample).To(StayOnTopics(j))
		var err error
		if goal, err = (metric.AgentGoalAccuracy{Judge: j}).Evaluate(context.Background(), sample); err != nil {
			t.Fatal(err)
		}
		if topics, err = (metric.TopicAdherence{Judge: j}).Evaluate(context.Background(), sample); err != nil {
			t.Fatal(err)
		}
		return g.got, goal, topics
	}

	rec := &phase{TB: t}
	recMsgs, recGoal, recTopics := run(newJudge(rec, s, dir, "judge-a", recorder.RecordAll))
	rec.end()
	asked := s.Count()
	s.Close()
	if asked != 10 {
		t.Errorf("the recording asked %d questions, want 2 per goal and 3 per topic judgment, twice", asked)
	}
	cassette := filepath.Join(dir, recorder.CassetteFile(t.Name()))
	if _, err := os.Stat(cassette); err != nil {
		t.Fatal(err)
	}

	// The replay has no key, and its server is closed: only the file answers.
	play := &phase{TB: t}
	j := judge.ForTest(play, judge.WithRecorder(recorder.ForTest(play, recorder.WithDir(dir), noEnv())),
		judge.WithBaseURL(s.URL), judge.WithModel("judge-a"), judge.WithAPIKey(""))
	playMsgs, playGoal, playTopics := run(j)
	play.end()

	if len(recMsgs) != 2 {
		t.Fatalf("the recording run gave %d failures, want the goal's and the topics': %q", len(recMsgs), recMsgs)
	}
	if diff := cmp.Diff(recMsgs, playMsgs); diff != "" {
		t.Errorf("the replay's messages differ from the recording's (-recorded +replayed):\n%s", diff)
	}
	ignore := cmpopts.IgnoreFields(metric.Verdict{}, "Duration")
	if diff := cmp.Diff(recGoal, playGoal, ignore); diff != "" {
		t.Errorf("goal result differs (-recorded +replayed):\n%s", diff)
	}
	if diff := cmp.Diff(recTopics, playTopics, ignore); diff != "" {
		t.Errorf("topic result differs (-recorded +replayed):\n%s", diff)
	}
	if recGoal.Score != 0 || recTopics.Verdicts[0].Precision != 0.49999999997500000 {
		t.Errorf("goal %v, topic precision %v; want 0 and 0.499999999975", recGoal.Score, recTopics.Verdicts[0].Precision)
	}
	for _, msg := range playMsgs {
		contains(t, msg, "cassette: "+cassette,
			"re-record: AGENTCHECK_RECORD=all AGENTCHECK_RECORD_TEST=TestJudgedMatchersRecordThenReplayOffline go test ./matchers -count=1 -run '^TestJudgedMatchersRecordThenReplayOffline$'")
	}
}

// inDir replaces the test's temporary directory in a message, for
// comparing it with a literal.
func inDir(msg, dir string) string { return strings.ReplaceAll(msg, dir, "$DIR") }

func TestAchieveGoalFailureMessages(t *testing.T) {
	checkLeaks(t)
	dir := t.TempDir()
	s := judgetest.Start(t, judgeScript())
	j := newJudge(t, s, dir, "judge-a", recorder.RecordMissing)
	g := newFailures()
	late := agentcheck.Sample{Conversation: booking("21:00"), Reference: bookingReference}

	g.Expect(late).To(AchieveGoal(j))
	want := `Expected the conversation "Book a table for two at Luigi's tonight at 8pm. And who…" … "Booked Luigi's for two at 21:00, reference LU-311. Polls…" (4 messages, 1 tool call) to achieve its goal, but the judge found it did not (agent_goal_accuracy 0, want 1)
desired outcome: the reference "A table for two at Luigi's is booked for 8pm tonight."
judge judge-a: not achieved
    reason: The table was booked for 9pm, but the goal is 8pm.
    inferred goal: Book a table for two at Luigi's tonight at 8pm.
    end state: A table for two at Luigi's is booked for 9pm tonight (reference LU-311), not 8pm.
tokens: 565 (508 prompt + 57 completion)
cassette: $DIR/TestAchieveGoalFailureMessages~881102.yaml
    re-record: AGENTCHECK_RECORD=all AGENTCHECK_RECORD_TEST=TestAchieveGoalFailureMessages go test ./matchers -count=1 -run '^TestAchieveGoalFailureMessages$'`
	if diff := cmp.Diff(want, inDir(g.one(t), dir)); diff != "" {
		t.Errorf("goal failure message (-want +got):\n%s", diff)
	}
	reqs := s.Requests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].Message(-1), bookingReference) {
		t.Fatalf("want the inference, then a comparison with the reference; got %d requests", len(reqs))
	}

	// On time: the negated message says the judge found it achieved; a
	// conversation with no reference is judged against the inferred goal.
	onTime := booking("20:00")
	g.Expect(onTime).To(AchieveGoal(j))
	g.none(t)
	g.Expect(onTime).NotTo(AchieveGoal(j))
	contains(t, g.one(t),
		`Expected the conversation "Book a table for two at Luigi's tonight at 8pm. And who…" … "Booked Luigi's for two at 20:00, reference LU-311. Polls…" (4 messages, 1 tool call) not to achieve its goal, but the judge found it did (agent_goal_accuracy 1)`,
		"desired outcome: the goal each judge inferred (no reference given)\njudge judge-a: achieved\n",
		"end state: A table for two at Luigi's is booked for 8pm tonight (reference LU-311).")

	// Against gives a conversation a reference; WithoutReference drops a
	// sample's.
	before := len(s.Requests())
	g.Expect(booking("21:00")).To(AchieveGoal(j).Against("Any table at Luigi's tonight."))
	contains(t, g.one(t), `desired outcome: the reference "Any table at Luigi's tonight."`)
	g.Expect(late).To(AchieveGoal(j).WithoutReference())
	contains(t, g.one(t), "desired outcome: the goal each judge inferred (the reference is ignored: WithoutReference)")
	reqs = s.Requests()[before:]
	if len(reqs) != 4 || !strings.Contains(reqs[1].Message(-1), "Any table at Luigi's tonight.") || strings.Contains(reqs[3].Message(-1), bookingReference) {
		t.Errorf("Against and WithoutReference did not set what the judge compares with")
	}

	// The actual may be an adapter's transcript: go-openai messages.
	msgs := goopenai.Messages{
		{Role: "user", Content: "Book a table for two at Luigi's tonight at 8pm."},
		{Role: "assistant", Content: "Booked for two at 20:00."},
	}
	g.Expect(msgs).To(AchieveGoal(j))
	g.none(t)
}

func TestStayOnTopicsFailureMessages(t *testing.T) {
	checkLeaks(t)
	dir := t.TempDir()
	s := judgetest.Start(t, judgeScript())
	j := newJudge(t, s, dir, "judge-a", recorder.RecordMissing)
	g := newFailures()
	sample := agentcheck.Sample{Conversation: booking("20:00"), ReferenceTopics: []string{"restaurant bookings"}}

	g.Expect(sample).To(StayOnTopics(j))
	want := `Expected the conversation "Book a table for two at Luigi's tonight at 8pm. And who…" … "Booked Luigi's for two at 20:00, reference LU-311. Polls…" (4 messages, 1 tool call) to stay on the topics "restaurant bookings", but topic_adherence (f1) is 0.6666666665777777, want at least 0.8
judge judge-a: precision 0.499999999975, recall 0.9999999999, f1 0.6666666665777777
    reason: answered off-topic "the election"
    topic                     answered  on-topic  counts as
    table booking at Luigi's  yes       yes       true positive
    the election              yes       no        false positive: answered off-topic
tokens: 998 (950 prompt + 48 completion)
cassette: $DIR/TestStayOnTopicsFailureMessages~88a081.yaml
    re-record: AGENTCHECK_RECORD=all AGENTCHECK_RECORD_TEST=TestStayOnTopicsFailureMessages go test ./matchers -count=1 -run '^TestStayOnTopicsFailureMessages$'`
	if diff := cmp.Diff(want, inDir(g.one(t), dir)); diff != "" {
		t.Errorf("topics failure message (-want +got):\n%s", diff)
	}

	// Recall counts only refused on-topic questions: none here.
	g.Expect(sample).To(StayOnTopics(j).Mode(metric.TopicRecall))
	g.none(t)
	g.Expect(sample).NotTo(StayOnTopics(j).Mode(metric.TopicRecall))
	contains(t, g.one(t), `not to stay on the topics "restaurant bookings", but topic_adherence (recall) is 0.9999999999, at least 0.8`)
	g.Expect(sample).To(StayOnTopics(j).Mode(metric.TopicPrecision).AtLeast(0.4))
	g.none(t)

	// The matcher's topics replace the sample's: with politics allowed,
	// both topics are on-topic, the score is perfect, and still under 1.
	g.Expect(sample).To(StayOnTopics(j, "restaurant bookings", "politics"))
	g.none(t)
	g.Expect(sample).To(StayOnTopics(j, "restaurant bookings", "politics").AtLeast(1))
	contains(t, g.one(t),
		`to stay on the topics "restaurant bookings", "politics", but topic_adherence (f1) is 0.9999999999, want at least 1`,
		"note: a threshold of 1 cannot be met once the judge finds a topic",
		"the election              yes       yes       true positive")
	last := s.Requests()[len(s.Requests())-1]
	if last.SchemaName() != "topic_classify" && last.SchemaName() != "topic_refusal" {
		t.Fatalf("last request %q", last.SchemaName())
	}
}

func TestJudgedPanels(t *testing.T) {
	checkLeaks(t)
	dir := t.TempDir()
	s := judgetest.Start(t, judgeScript())
	strict := newJudge(t, s, dir, "judge-a", recorder.RecordMissing)
	lenient := newJudge(t, s, dir, "judge-lenient", recorder.RecordMissing)
	broken := newJudge(t, s, dir, "judge-broken", recorder.RecordMissing)
	late := agentcheck.Sample{Conversation: booking("21:00"), Reference: bookingReference}
	g := newFailures()

	// A consensus panel whose judges disagree gives no verdict either way:
	// To and NotTo both fail, showing both verdicts and the disagreement.
	consensus := judge.NewPanel([]judgment.Judge{strict, lenient}, judgment.Aggregation{Method: judgment.Consensus, Tolerance: 0.2})
	m := AchieveGoal(consensus)
	g.Expect(late).To(m)
	toMsg := g.one(t)
	g.Expect(late).NotTo(m)
	if notMsg := g.one(t); notMsg != toMsg {
		t.Errorf("To and NotTo should fail alike on a disagreement:\n%s\n---\n%s", toMsg, notMsg)
	}
	contains(t, toMsg,
		"The judges disagree whether the conversation",
		"so there is no verdict either way (agent_goal_accuracy 0)",
		"judge judge-a: not achieved\n    reason: The table was booked for 9pm, but the goal is 8pm.",
		"    tokens: 565 (508 prompt + 57 completion)\njudge judge-lenient: achieved\n",
		"disagreement: judges disagree: scores [0, 1] spread 1, more than the tolerance 0.2",
		"tokens: 1128 (1016 prompt + 112 completion)")

	// A mean panel: half the judges is not all of them.
	g.Expect(late).To(AchieveGoal(judge.NewPanel([]judgment.Judge{strict, lenient}, judgment.Aggregation{})))
	contains(t, g.one(t), "to achieve its goal, but 1 of 2 judges found it did (agent_goal_accuracy 0.5, want 1)")

	// A failing member is left out with its cause; the others decide.
	withBroken := judge.NewPanel([]judgment.Judge{lenient, broken}, judgment.Aggregation{})
	g.Expect(late).To(AchieveGoal(withBroken))
	g.none(t)
	g.Expect(late).NotTo(AchieveGoal(withBroken))
	contains(t, g.one(t),
		"not to achieve its goal, but the judge found it did (agent_goal_accuracy 1)",
		"judge judge-broken: failed, left out of the score:\n    agent_goal_infer: judge: question \"agent_goal_infer\" (model judge-broken at "+s.URL+"): error, status code: 400",
		"model judge-broken does not support json_schema")
}

func TestJudgedMatchersReportJudgeErrors(t *testing.T) {
	checkLeaks(t)
	s := judgetest.Start(t, judgeScript())
	late := agentcheck.Sample{Conversation: booking("21:00"), Reference: bookingReference, ReferenceTopics: []string{"restaurant bookings"}}
	g := newFailures()

	t.Run("every judge failed", func(t *testing.T) {
		broken := newJudge(t, s, t.TempDir(), "judge-broken", recorder.RecordMissing)
		for _, m := range []interface {
			Match(any) (bool, error)
		}{AchieveGoal(broken), StayOnTopics(broken)} {
			ok, err := m.Match(late)
			if ok || err == nil {
				t.Fatalf("%T: Match = %v, %v; want an error, not a verdict", m, ok, err)
			}
		}
		g.Expect(late).NotTo(AchieveGoal(broken))
		msg := g.one(t)
		contains(t, msg,
			"Could not judge whether the conversation",
			"achieves its goal: every judge failed\njudge judge-broken: failed, left out of the score:\n    agent_goal_infer: judge:",
			"model judge-broken does not support json_schema")
		if strings.Contains(msg, "tokens:") {
			t.Errorf("no judge answered, yet the message counts tokens:\n%s", msg)
		}
	})

	t.Run("replay miss", func(t *testing.T) {
		j := newJudge(t, s, t.TempDir(), "judge-a", recorder.RecordNone)
		g.Expect(late).To(StayOnTopics(j))
		contains(t, g.one(t),
			`Could not judge whether the conversation`,
			`stays on the topics "restaurant bookings": every judge failed`,
			"agentcheck: replay miss: POST /v1/chat/completions: the cassette file does not exist yet",
			"      record it with: AGENTCHECK_RECORD=missing AGENTCHECK_RECORD_TEST=TestJudgedMatchersReportJudgeErrors/replay_miss go test ./matchers -count=1 -run '^TestJudgedMatchersReportJudgeErrors$/^replay_miss$'")
	})

	t.Run("what cannot be judged", func(t *testing.T) {
		j := newJudge(t, s, t.TempDir(), "judge-a", recorder.RecordMissing)
		for _, c := range []struct {
			actual any
			m      interface {
				Match(any) (bool, error)
			}
			want string
		}{
			{late, AchieveGoal(nil), "agent_goal_accuracy needs a judge"},
			{42, AchieveGoal(j), "AchieveGoal: agenttest: cannot take tool calls from int"},
			{(*agentcheck.Sample)(nil), StayOnTopics(j), "StayOnTopics: agenttest: cannot take tool calls from a nil *agentcheck.Sample"},
			{late.Conversation, StayOnTopics(j), "StayOnTopics needs topics"},
			{agentcheck.Sample{ReferenceTopics: []string{"x"}}, StayOnTopics(j), "topic_adherence: the conversation is empty"},
		} {
			ok, err := c.m.Match(c.actual)
			if ok || err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%T on %T: Match = %v, %v; want an error with %q", c.m, c.actual, ok, err, c.want)
			}
		}
	})
}

func TestEventuallyAsksTheJudgeOncePerConversation(t *testing.T) {
	checkLeaks(t)
	s := judgetest.Start(t, judgeScript())
	j := newJudge(t, s, t.TempDir(), "judge-a", recorder.RecordMissing)
	g := newFailures()

	// The same conversation on every poll, a fresh value each time: judged
	// once, failure message included. A second to time out in: under load
	// the first poll's judgment can take a tenth of one, and the test needs
	// several polls.
	polls := 0
	g.Eventually(func() agentcheck.Conversation {
		polls++
		return booking("21:00")
	}).WithTimeout(time.Second).WithPolling(2 * time.Millisecond).Should(AchieveGoal(j).Against(bookingReference))
	contains(t, g.one(t), "Timed out after", "to achieve its goal, but the judge found it did not")
	if polls < 3 {
		t.Fatalf("Eventually polled %d times; the test needs several", polls)
	}
	if n := s.Count(); n != 2 {
		t.Errorf("%d polls of one conversation asked the judge %d questions, want 2 (one judgment)", polls, n)
	}

	// The agent gets it right on the sixth poll: one judgment per distinct
	// conversation, and Eventually succeeds.
	polls = 0
	before := s.Count()
	g.Eventually(func() agentcheck.Conversation {
		polls++
		if polls <= 5 {
			return booking("21:00")
		}
		return booking("20:00")
	}).WithTimeout(10 * time.Second).WithPolling(time.Millisecond).Should(AchieveGoal(j).Against(bookingReference))
	g.none(t)
	if polls != 6 {
		t.Errorf("polled %d times, want 6", polls)
	}
	if n := s.Count() - before; n != 4 {
		t.Errorf("two distinct conversations asked the judge %d questions, want 4", n)
	}

	// A failed judgment is not asked again on every poll either, and
	// Eventually prints it as it is.
	broken := newJudge(t, s, t.TempDir(), "judge-broken", recorder.RecordMissing)
	before = s.Count()
	polls = 0
	g.Eventually(func() agentcheck.Sample {
		polls++
		return agentcheck.Sample{Conversation: booking("21:00"), ReferenceTopics: []string{"restaurant bookings"}}
	}).WithTimeout(time.Second).WithPolling(2 * time.Millisecond).Should(StayOnTopics(broken))
	msg := g.one(t)
	contains(t, msg, "Could not judge whether the conversation", "every judge failed")
	if strings.Contains(msg, "judgedError") {
		t.Errorf("Eventually dumped the error's struct:\n%s", msg)
	}
	if n := s.Count() - before; n != 1 || polls < 2 {
		t.Errorf("%d polls asked the failing judge %d questions, want 1", polls, n)
	}
}

func TestJudgedMatcherIsSafeForConcurrentUse(t *testing.T) {
	checkLeaks(t)
	s := judgetest.Start(t, judgeScript())
	j := newJudge(t, s, t.TempDir(), "judge-a", recorder.RecordMissing)
	m := StayOnTopics(j, "restaurant bookings")
	results := make(chan bool, 8)
	for range 8 {
		go func() {
			ok, err := m.Match(booking("21:00"))
			results <- ok && err == nil
		}()
	}
	for range 8 {
		if <-results {
			t.Error("an off-topic conversation passed")
		}
	}
	if n := s.Count(); n != 3 {
		t.Errorf("8 concurrent matches of one conversation asked %d questions, want 3 (one judgment)", n)
	}
}

// ExampleAchieveGoal judges a conversation with a scripted model on
// loopback, so that it runs anywhere. In a test, judge with
// judge.ForTest(t), which records to and replays from the test's cassette.
func ExampleAchieveGoal() {
	answer := func(v any, promptTokens, completionTokens int) judgetest.Script {
		r := judgetest.JSON(v)
		r.Usage = &openai.Usage{PromptTokens: promptTokens, CompletionTokens: completionTokens}
		return judgetest.Always(r)
	}
	model := judgetest.NewServer(judgetest.BySchema(map[string]judgetest.Script{
		"agent_goal_infer": answer(map[string]string{
			"user_goal": "Move the 3pm meeting with Ana to Friday.",
			"end_state": "The meeting was moved to Thursday.",
		}, 310, 24),
		"agent_goal_compare": answer(map[string]any{
			"reason":   "The meeting is on Thursday, not Friday.",
			"achieved": false,
		}, 95, 18),
	}))
	defer model.Close()
	j := judge.New(judge.WithBaseURL(model.URL), judge.WithModel("gpt-4o-mini"))

	meeting := agentcheck.Conversation{
		{Role: agentcheck.Human, Content: "Move my 3pm with Ana to Friday"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{
			agentcheck.MustParseToolCall("update_event", `{"id":"ev_42","day":"Thursday"}`),
		}},
		{Role: agentcheck.Tool, Content: "ok"},
		{Role: agentcheck.AI, Content: "Moved to Friday."},
	}
	g := gomega.NewGomega(func(message string, _ ...int) { fmt.Println(message) })
	g.Expect(meeting).To(AchieveGoal(j).Against("The meeting with Ana is on Friday at 3pm."))
	// Output:
	// Expected the conversation "Move my 3pm with Ana to Friday" … "Moved to Friday." (4 messages, 1 tool call) to achieve its goal, but the judge found it did not (agent_goal_accuracy 0, want 1)
	// desired outcome: the reference "The meeting with Ana is on Friday at 3pm."
	// judge gpt-4o-mini: not achieved
	//     reason: The meeting is on Thursday, not Friday.
	//     inferred goal: Move the 3pm meeting with Ana to Friday.
	//     end state: The meeting was moved to Thursday.
	// tokens: 447 (405 prompt + 42 completion)
	// answers: live, from no cassette (judge.ForTest replays them)
}
