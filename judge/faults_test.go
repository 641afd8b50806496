package judge_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/google/go-cmp/cmp"
	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
)

// The faults a user meets with cassettes and judges, beyond those the
// cassette and client tests already cover (secrets, merges between
// processes, a failed write, each HTTP fault retried once).

// faultEnv is a cassette environment with no record mode and no CI, whatever
// the process has.
func faultEnv() recorder.Option {
	return recorder.WithEnv(func(string) string { return "" })
}

// bookingQuestion is goalQuestion about the n-th booking.
func bookingQuestion(n int) judgment.Question {
	q := goalQuestion
	q.Input = fmt.Sprintf("Desired: booking %d. End state: booking %d made.", n, n)
	return q
}

// recordBookings records the answers to questions 1..n into a new cassette
// and returns its path and content.
func recordBookings(t *testing.T, n int) (string, []byte) {
	t.Helper()
	s := judgetest.Start(t, judgetest.Always(judgetest.Content(goodAnswer)))
	path := filepath.Join(t.TempDir(), "judge.yaml")
	rec, err := recorder.Open(path, recorder.WithMode(recorder.RecordAll), faultEnv())
	if err != nil {
		t.Fatal(err)
	}
	c := newClient(s, judge.WithRecorder(rec))
	for i := 1; i <= n; i++ {
		if _, err := c.Ask(context.Background(), bookingQuestion(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, data
}

// offsetOf is the offset of the at-th occurrence (1-based) of sub in data,
// plus skip.
func offsetOf(t *testing.T, data []byte, sub string, at, skip int) int {
	t.Helper()
	off := 0
	for range at {
		i := strings.Index(string(data[off:]), sub)
		if i < 0 {
			t.Fatalf("%q occurs fewer than %d times in the cassette", sub, at)
		}
		off += i + len(sub)
	}
	return off - len(sub) + skip
}

// TestCassetteCutShortOrCorrupt: a cassette that is cut short (a copy
// interrupted, a disk full outside agentcheck's atomic writes) or corrupt (a
// merge conflict, a bad edit) is refused when it is opened, with an error
// that names the file, where it breaks when YAML says so, and the command
// that records it anew; recording it anew then works.
func TestCassetteCutShortOrCorrupt(t *testing.T) {
	path, good := recordBookings(t, 3)
	lines := strings.SplitAfter(string(good), "\n")
	inBody := offsetOf(t, good, "body: '", 2, 60)
	bodyLine := fmt.Sprintf("line %d: ", strings.Count(string(good[:inBody]), "\n")+1)
	tests := []struct {
		name string
		data string
		want []string // besides the path and the command
	}{
		{"cut inside a request body", string(good[:inBody]), []string{"found unexpected end of stream", bodyLine}},
		{"cut before an interaction's response", string(good[:offsetOf(t, good, "      response:\n", 3, 0)]), []string{"interaction 2 of 3", "no response code"}},
		{"cut inside a response body", string(good[:offsetOf(t, good, "body: |\n", 1, 30)]), []string{"interaction 0 of 1", "no response code"}},
		{"the last lines lost", strings.Join(lines[:len(lines)-3], ""), []string{"interaction 2 of 3", "no response code"}},
		{"empty", "", []string{"the file is empty"}},
		{"a document marker only", "---\n", []string{"the file is empty"}},
		{"a merge conflict", "<<<<<<< HEAD\n" + string(good) + "=======\n" + string(good) + ">>>>>>> theirs\n", []string{"line 1: cannot unmarshal"}},
		{"not YAML", "\x00\x01\x02 binary", []string{"control characters are not allowed"}},
	}
	command := "AGENTCHECK_RECORD=all AGENTCHECK_RECORD_TEST=TestCassetteCutShortOrCorrupt go test ./judge -count=1 -run '^TestCassetteCutShortOrCorrupt$'"
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(path, []byte(tt.data), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, mode := range []recorder.Mode{recorder.RecordNone, recorder.RecordMissing} {
				_, err := recorder.Open(path, recorder.WithMode(mode), faultEnv(), recorder.WithTestName("TestCassetteCutShortOrCorrupt"))
				if err == nil {
					t.Fatalf("%s: the broken cassette opened", mode)
				}
				for _, w := range append([]string{"cassette " + path + ": ", "restore it from version control, or record it anew with: " + command}, tt.want...) {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("%s: error lacks %q:\n%v", mode, w, err)
					}
				}
			}
			// What the error says to do works: recording anew replaces the
			// file with a sound one.
			s := judgetest.Start(t, judgetest.Always(judgetest.Content(goodAnswer)))
			rec, err := recorder.Open(path, recorder.WithMode(recorder.RecordAll), faultEnv())
			if err != nil {
				t.Fatalf("recording anew: %v", err)
			}
			if _, err := newClient(s, judge.WithRecorder(rec)).Ask(context.Background(), bookingQuestion(1)); err != nil {
				t.Fatal(err)
			}
			if err := rec.Close(); err != nil {
				t.Fatal(err)
			}
			checkWholeCassette(t, path, 1)
		})
	}
}

// checkWholeCassette loads a cassette with go-vcr's own loader and checks that
// every interaction is whole: a request, and a chat completion answer.
func checkWholeCassette(t *testing.T, path string, want int) []*cassette.Interaction {
	t.Helper()
	c, err := cassette.Load(strings.TrimSuffix(path, ".yaml"))
	if err != nil {
		t.Fatalf("the cassette does not load: %v", err)
	}
	if want >= 0 && len(c.Interactions) != want {
		t.Errorf("the cassette holds %d interactions, want %d", len(c.Interactions), want)
	}
	for i, it := range c.Interactions {
		if it.ID != i || it.Request.Method != http.MethodPost || !strings.HasSuffix(it.Request.URL, "/chat/completions") ||
			!strings.Contains(it.Request.Body, `"messages"`) || it.Response.Code != 200 ||
			!strings.HasPrefix(it.Response.Body, `{"choices":[`) || !strings.HasSuffix(strings.TrimSpace(it.Response.Body), "}") {
			t.Errorf("interaction %d is not whole: %+v", i, it)
		}
	}
	return c.Interactions
}

// bookingSample is a short conversation about the n-th booking.
func bookingSample(n int) agentcheck.Sample {
	return agentcheck.Sample{
		Conversation: agentcheck.Conversation{
			{Role: agentcheck.Human, Content: fmt.Sprintf("Book table %d for two at 8pm", n)},
			{Role: agentcheck.AI, Content: fmt.Sprintf("Booked table %d, confirmation #%d.", n, 100+n)},
		},
		Reference: fmt.Sprintf("Table %d is booked for two at 8pm", n),
	}
}

// bookingScript judges bookingSample(n): achieved when n is even.
func bookingScript() judgetest.Script {
	number := func(r judgetest.Request) int {
		var n int
		in := r.Message(1)
		if i := strings.Index(in, "able "); i >= 0 {
			fmt.Sscanf(in[i+5:], "%d", &n)
		}
		return n
	}
	return judgetest.BySchema(map[string]judgetest.Script{
		"agent_goal_infer": func(r judgetest.Request) judgetest.Reply {
			n := number(r)
			return judgetest.JSON(map[string]string{"user_goal": fmt.Sprintf("book table %d", n), "end_state": fmt.Sprintf("table %d booked", n)})
		},
		"agent_goal_compare": func(r judgetest.Request) judgetest.Reply {
			return judgetest.JSON(map[string]any{"reason": "compared", "achieved": number(r)%2 == 0})
		},
	})
}

// TestOlderPromptVersionMisses: a cassette recorded with an older version of
// the judge's prompts does not replay stale judgments through the metric: the
// miss says the prompt version changed and how to record again, and doing so
// replaces the old interactions.
func TestOlderPromptVersionMisses(t *testing.T) {
	checkGoroutines(t)
	s := judgetest.Start(t, bookingScript())
	path := filepath.Join(t.TempDir(), "TestOlderPromptVersionMisses.yaml")
	evaluate := func(mode recorder.Mode) (metric.Result, error) {
		rec, err := recorder.Open(path, recorder.WithMode(mode), faultEnv(), recorder.WithTestName(t.Name()))
		if err != nil {
			t.Fatal(err)
		}
		defer func() {
			if err := rec.Close(); err != nil {
				t.Error(err)
			}
		}()
		return metric.AgentGoalAccuracy{Judge: newClient(s, judge.WithRecorder(rec))}.Evaluate(context.Background(), bookingSample(2))
	}
	if r, err := evaluate(recorder.RecordAll); err != nil || r.Score != 1 {
		t.Fatalf("recording: score %v, %v", r.Score, err)
	}
	// The same cassette as an older prompt would have recorded it: another
	// version and another wording.
	data, _ := os.ReadFile(path)
	current := "agentcheck-prompt:" + metric.GoalPromptVersion
	if !strings.Contains(string(data), current) || !strings.Contains(string(data), "You review the transcript") {
		t.Fatalf("the recorded requests do not carry %q and the prompt's wording:\n%s", current, data)
	}
	old := strings.NewReplacer(current, "agentcheck-prompt:goal/v0", "You review the transcript", "You read the transcript").Replace(string(data))
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}

	_, err := evaluate(recorder.RecordNone)
	var miss *recorder.ReplayMissError
	if !errors.As(err, &miss) {
		t.Fatalf("replay with a newer prompt: %v, want a *ReplayMissError", err)
	}
	// The question says the miss itself, not the SDK's words for how it
	// reached it (go-openai's "error, reading response body").
	if !strings.Contains(err.Error(), "/v1): agentcheck: replay miss: ") || strings.Contains(err.Error(), "reading response body") {
		t.Errorf("Expected the question's error to go straight from the question to the miss, but it is:\n%v", err)
	}
	for _, want := range []string{
		"agent_goal_accuracy: every judge failed",
		"agentcheck: replay miss: POST /v1/chat/completions: no recorded request has this body",
		"cassette: " + path,
		`hint: the prompt version differs (recorded "goal/v0", now "` + metric.GoalPromptVersion + `"): the judge's prompt changed, so its cassettes need re-recording; ` +
			"AGENTCHECK_RECORD=all AGENTCHECK_RECORD_TEST=TestOlderPromptVersionMisses go test ./judge -count=1 -run '^TestOlderPromptVersionMisses$' also drops the old prompt's interactions",
		"record it with: AGENTCHECK_RECORD=missing AGENTCHECK_RECORD_TEST=TestOlderPromptVersionMisses go test ./judge -count=1 -run '^TestOlderPromptVersionMisses$'",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the miss lacks %q:\n%v", want, err)
		}
	}
	for _, want := range []string{`(?m)^ +- +"content": "You read the transcript`, `(?m)^ +\+ +"content": "You review the transcript`} {
		if !regexp.MustCompile(want).MatchString(err.Error()) {
			t.Errorf("the miss's diff lacks a line matching %s:\n%v", want, err)
		}
	}

	// Re-recording as the hint says keeps only the new prompt's requests.
	before := s.Count()
	if r, err := evaluate(recorder.RecordAll); err != nil || r.Score != 1 {
		t.Fatalf("re-recording: score %v, %v", r.Score, err)
	}
	if got := s.Count() - before; got != 2 {
		t.Errorf("re-recording asked %d questions, want 2", got)
	}
	for _, it := range checkWholeCassette(t, path, 2) {
		if !strings.Contains(it.Request.Body, current) {
			t.Errorf("a request of the old prompt is left: %.200s", it.Request.Body)
		}
	}
	if r, err := evaluate(recorder.RecordNone); err != nil || r.Score != 1 {
		t.Errorf("replay after re-recording: score %v, %v", r.Score, err)
	}
}

// TestInterruptedRecordingKeepsWhatWasRecorded: a recording run cancelled in
// the middle (Ctrl-C) leaves a consistent cassette holding every answer
// that came back before the cancel; a run with AGENTCHECK_RECORD=missing then
// asks only what is missing, and the cassette replays the whole run.
func TestInterruptedRecordingKeepsWhatWasRecorded(t *testing.T) {
	checkGoroutines(t)
	const samples = 12 // 2 questions each
	script := bookingScript()
	s := judgetest.Start(t, func(r judgetest.Request) judgetest.Reply {
		return script(r).After(time.Duration(5+r.Seq%4*5) * time.Millisecond)
	})
	path := filepath.Join(t.TempDir(), "interrupted.yaml")
	run := func(ctx context.Context, mode recorder.Mode, key string) ([]float64, []error) {
		rec, err := recorder.Open(path, recorder.WithMode(mode), faultEnv())
		if err != nil {
			t.Fatal(err)
		}
		m := metric.AgentGoalAccuracy{Judge: newClient(s, judge.WithRecorder(rec), judge.WithAPIKey(key))}
		scores, errs := make([]float64, samples), make([]error, samples)
		var wg sync.WaitGroup
		for i := range samples {
			wg.Go(func() {
				r, err := m.Evaluate(ctx, bookingSample(i))
				scores[i], errs[i] = r.Score, err
			})
		}
		wg.Wait()
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
		return scores, errs
	}

	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for s.Count() < samples+samples/2 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	_, errs := run(ctx, recorder.RecordMissing, apiKey)
	cancelled, done := 0, 0
	for _, err := range errs {
		switch {
		case err == nil:
			done++
		case errors.Is(err, context.Canceled):
			cancelled++
		default:
			t.Errorf("an interrupted evaluation failed otherwise: %v", err)
		}
	}
	recorded := checkWholeCassette(t, path, -1)
	if cancelled == 0 || len(recorded) == 0 || len(recorded) >= 2*samples {
		t.Fatalf("%d evaluations cancelled, %d interactions recorded of %d: the cancel did not come mid-run", cancelled, len(recorded), 2*samples)
	}
	if len(recorded) < 2*done {
		t.Errorf("%d evaluations finished before the interrupt, but the cassette keeps only %d answers", done, len(recorded))
	}

	// The second run asks with a key of its own: a question the first run
	// sent just before the interrupt may reach the server only now (on one
	// CPU it does), and is none of the second run's.
	secondKey := apiKey + "-second"
	scores, errs := run(context.Background(), recorder.RecordMissing, secondKey)
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	asked := 0
	for _, r := range s.Requests() {
		if r.Header.Get("Authorization") == "Bearer "+secondKey {
			asked++
		}
	}
	if asked != 2*samples-len(recorded) {
		t.Errorf("the second run asked %d questions; %d were recorded before the interrupt, so want %d", asked, len(recorded), 2*samples-len(recorded))
	}
	checkWholeCassette(t, path, 2*samples)
	want := make([]float64, samples)
	for i := range want {
		want[i] = float64(1 - i%2)
	}
	if diff := cmp.Diff(want, scores); diff != "" {
		t.Errorf("scores (-want +got):\n%s", diff)
	}
	s.Close()
	replayed, errs := run(context.Background(), recorder.RecordNone, apiKey)
	if err := errors.Join(errs...); err != nil || !cmp.Equal(replayed, want) {
		t.Errorf("replay: %v, %v", replayed, err)
	}
}

// TestHTTPFaultsThatDoNotPassSayWhatToDo: each fault that outlasts the
// retries ends in an error naming what happened, how many attempts were
// made, and what the user can do about it.
func TestHTTPFaultsThatDoNotPassSayWhatToDo(t *testing.T) {
	checkGoroutines(t)
	// Only the answer slower than it waits for the attempt timeout; the
	// others keep fast's, which no loaded machine reaches.
	short := fast
	short.AttemptTimeout = 100 * time.Millisecond
	for _, c := range []struct {
		name  string
		reply judgetest.Reply
		want  []string
	}{
		{"429 without Retry-After", judgetest.TooManyRequests(0), []string{
			"status code: 429", "gave up after 4 attempts: 429 Too Many Requests", "rate-limiting", "fewer questions at once",
		}},
		{"429 with Retry-After", judgetest.TooManyRequests(0).WithHeader("Retry-After", "0"), []string{
			"status code: 429", "gave up after 4 attempts", "rate-limiting",
		}},
		{"500", judgetest.Status(500), []string{"status code: 500", "gave up after 4 attempts: 500 Internal Server Error", "the endpoint is failing"}},
		{"503 with Retry-After", judgetest.Status(503).WithHeader("Retry-After", "0"), []string{"status code: 503", "gave up after 4 attempts", "the endpoint is failing"}},
		{"slower than the attempt timeout", judgetest.Content(goodAnswer).After(time.Hour), []string{
			"no response within the attempt timeout 100ms", "gave up after 4 attempts", "RetryPolicy.AttemptTimeout",
		}},
		{"cut mid-body", judgetest.Content(goodAnswer).CutMidBody(), []string{"unexpected EOF", "gave up after 4 attempts", "closed the connection"}},
		{"dropped", judgetest.Drop(), []string{"EOF", "gave up after 4 attempts", "closed the connection"}},
		{"wrong path", judgetest.Reply{Status: 404, Message: "Not found"}, []string{"status code: 404", "OPENAI_BASE_URL", "/v1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := judgetest.Start(t, judgetest.Always(c.reply))
			policy := fast
			if c.reply.Latency > 0 {
				policy = short
			}
			_, err := newClient(s, judge.WithRetry(policy)).Ask(context.Background(), goalQuestion)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
		})
	}
	t.Run("nothing listening", func(t *testing.T) {
		s := judgetest.NewServer(nil)
		s.Close()
		_, err := newClient(s).Ask(context.Background(), goalQuestion)
		for _, w := range []string{"connection refused", "gave up after 4 attempts", "nothing answers at " + s.URL, "OPENAI_BASE_URL"} {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("error lacks %q:\n%v", w, err)
			}
		}
	})
}

// panelOf is a panel of clients of s, one per model, aggregated by mean.
func panelOf(s *judgetest.Server, policy judge.RetryPolicy, models ...string) *judge.Panel {
	var members []judgment.Judge
	for _, m := range models {
		// No question timeout: the tests that use it wait on the retry
		// policy and the context alone.
		members = append(members, newClient(s, judge.WithModel(m), judge.WithRetry(policy), judge.WithQuestionTimeout(0)))
	}
	return judge.NewPanel(members, judgment.Aggregation{})
}

// TestPanelWithASlowJudge: a panel waits for a judge much slower than the
// others when it can, and, at the context's deadline, leaves it out with its
// cause and scores with the others.
func TestPanelWithASlowJudge(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	checkGoroutines(t)
	script := bookingScript()
	s := judgetest.Start(t, func(r judgetest.Request) judgetest.Reply {
		rep := script(r)
		switch {
		case r.Chat.Model == "quick-b" && r.SchemaName() == "agent_goal_compare":
			rep = judgetest.JSON(map[string]any{"reason": "not confirmed", "achieved": false})
		case r.Chat.Model == "slow" && strings.Contains(r.Message(1), "able 4"):
			rep = rep.After(time.Hour) // hung, for the sample judged with a deadline
		case r.Chat.Model == "slow":
			rep = rep.After(400 * time.Millisecond)
		}
		return rep
	})
	policy := fast
	policy.AttemptTimeout = 2 * time.Hour // the slow judge is slow, not hung
	panel := panelOf(s, policy, "quick-a", "quick-b", "slow")

	start := time.Now()
	r, err := metric.AgentGoalAccuracy{Judge: panel}.Evaluate(context.Background(), bookingSample(2))
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 800*time.Millisecond {
		t.Errorf("the panel answered after %v, before the slow judge's two answers (400ms each)", d)
	}
	if len(r.Verdicts) != 3 || r.Verdicts[2].Err != nil || r.Verdicts[2].Score != 1 || r.Score != 2.0/3 || len(r.Warnings) != 0 {
		t.Errorf("without a deadline: score %v, verdicts %+v, warnings %q; want the slow judge counted", r.Score, r.Verdicts, r.Warnings)
	}

	// A deadline that leaves the quick judges time to answer: on a machine
	// too loaded for them to answer in time, the sample is judged again
	// with twice the time.
	var deadline, elapsed time.Duration
	for deadline = 250 * time.Millisecond; ; deadline *= 2 {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		start = time.Now()
		r, err = metric.AgentGoalAccuracy{Judge: panel}.Evaluate(ctx, bookingSample(4))
		elapsed = time.Since(start)
		cancel()
		quickAnswered := err == nil && len(r.Verdicts) == 3 && r.Verdicts[0].Err == nil && r.Verdicts[1].Err == nil
		if quickAnswered || deadline >= 8*time.Second {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	if elapsed > deadline+time.Second {
		t.Errorf("the panel answered %v after a %v deadline", elapsed, deadline)
	}
	slow := r.Verdicts[2]
	if r.Score != 0.5 || slow.Model != "slow" || !errors.Is(slow.Err, context.DeadlineExceeded) {
		t.Errorf("at the deadline: score %v, slow verdict %+v; want the quick judges' mean and the slow one left out", r.Score, slow)
	}
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "1 of 3 judges failed and were left out: slow: agent_goal_infer") ||
		!strings.Contains(r.Warnings[0], "context deadline exceeded") {
		t.Errorf("warnings %q; want the slow judge's cause", r.Warnings)
	}
}

// TestCancelStopsAPanelPromptly: cancelling a judged evaluation stops every
// member's request in flight at once, sends no more, and leaves no
// goroutine behind.
func TestCancelStopsAPanelPromptly(t *testing.T) {
	checkGoroutines(t)
	for _, c := range []struct {
		name  string
		reply judgetest.Reply
	}{
		{"answers that never come", judgetest.Content(goodAnswer).After(time.Hour)},
		{"retries far apart", judgetest.Status(503).WithHeader("Retry-After", "3600")},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := judgetest.Start(t, judgetest.Always(c.reply))
			policy := judge.RetryPolicy{Initial: time.Hour, Max: 2 * time.Hour, AttemptTimeout: 2 * time.Hour}
			panel := panelOf(s, policy, "a", "b", "c")
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				_, err := metric.AgentGoalAccuracy{Judge: panel}.Evaluate(ctx, bookingSample(1))
				done <- err
			}()
			for s.Count() < 3 {
				time.Sleep(time.Millisecond)
			}
			time.Sleep(20 * time.Millisecond)
			cancel()
			cancelled := time.Now()
			select {
			case err := <-done:
				if d := time.Since(cancelled); d > time.Second {
					t.Errorf("the evaluation returned %v after the cancel", d)
				}
				if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "every judge failed") {
					t.Errorf("err = %v, want every judge failed with context.Canceled", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the evaluation still runs 10s after the cancel")
			}
			time.Sleep(20 * time.Millisecond)
			if n := s.Count(); n != 3 {
				t.Errorf("%d requests, want the 3 members' first ones only", n)
			}
		})
	}
}
