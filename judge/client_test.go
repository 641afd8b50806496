package judge_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/google/go-cmp/cmp"
	openai "github.com/sashabaranov/go-openai"
	"go.uber.org/goleak"
)

const apiKey = "sk-test-4f9a2c-never-show-me"

var goalQuestion = judgment.Question{
	Name:          "agent_goal_compare",
	PromptVersion: "goal/v1",
	Instructions:  "You compare a desired outcome with an end state.",
	Input:         "Desired: a table for two at 8pm. End state: booked for two at 8pm.",
	Schema: map[string]any{
		"type":                 "object",
		"additionalProperties": false,
		"required":             []string{"reason", "achieved"},
		"properties": map[string]any{
			"reason":   map[string]any{"type": "string"},
			"achieved": map[string]any{"type": "boolean"},
		},
	},
}

const goodAnswer = `{"reason":"booked as asked","achieved":true}`

// fast is a retry policy for tests: the real one's shape in milliseconds.
var fast = judge.RetryPolicy{Initial: time.Millisecond, Max: 20 * time.Millisecond, MaxAttempts: 4, AttemptTimeout: 5 * time.Second}

// newClient is a client of s with a key, fast retries and no environment.
func newClient(s *judgetest.Server, opts ...judge.Option) *judge.Client {
	base := []judge.Option{judge.WithBaseURL(s.URL), judge.WithAPIKey(apiKey), judge.WithModel("judge-model"), judge.WithRetry(fast)}
	return judge.New(append(base, opts...)...)
}

func TestAskSendsADeterministicStructuredRequest(t *testing.T) {
	checkGoroutines(t)
	s := judgetest.Start(t, judgetest.Always(judgetest.Reply{
		Content: goodAnswer, Model: "judge-model-2024-07-18",
		Usage: &openaiUsage{PromptTokens: 120, CompletionTokens: 9, TotalTokens: 129},
	}))
	ans, err := newClient(s).Ask(context.Background(), goalQuestion)
	if err != nil {
		t.Fatal(err)
	}
	want := judgment.Answer{
		JSON: json.RawMessage(goodAnswer), Model: "judge-model-2024-07-18",
		Usage: judgment.Usage{PromptTokens: 120, CompletionTokens: 9}, Attempts: 1, Source: "live",
		PromptVersion: goalQuestion.PromptVersion,
	}
	if diff := cmp.Diff(want, ans, ignoreDuration); diff != "" {
		t.Errorf("answer (-want +got):\n%s", diff)
	}
	if ans.Duration <= 0 {
		t.Errorf("duration %v", ans.Duration)
	}

	reqs := s.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	for field, want := range map[string]string{
		"temperature": "0",
		"seed":        "42",
		"model":       `"judge-model"`,
		"user":        `"agentcheck-prompt:goal/v1"`,
		"messages": `[{"role":"system","content":"You compare a desired outcome with an end state."},` +
			`{"role":"user","content":"Desired: a table for two at 8pm. End state: booked for two at 8pm."}]`,
		"response_format": `{"type":"json_schema","json_schema":{"name":"agent_goal_compare",` +
			`"schema":{"additionalProperties":false,"properties":{"achieved":{"type":"boolean"},"reason":{"type":"string"}},` +
			`"required":["reason","achieved"],"type":"object"},"strict":true}}`,
	} {
		got, ok := r.Field(field)
		if !ok || string(got) != want {
			t.Errorf("body %s = %s (present %v), want %s", field, got, ok, want)
		}
	}
	if _, ok := r.Field("metadata"); ok {
		t.Error("metadata sent: OpenAI refuses it unless the completion is stored")
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+apiKey {
		t.Errorf("Authorization %q", got)
	}
	if strings.Contains(string(r.Body), apiKey) {
		t.Error("the API key is in the request body")
	}
	for name, vs := range r.Header {
		if name != "Authorization" && strings.Contains(strings.Join(vs, " "), apiKey) {
			t.Errorf("the API key is in header %s", name)
		}
	}
}

type openaiUsage = openai.Usage

func TestReasoningModelsGetNoTemperature(t *testing.T) {
	s := judgetest.Start(t, judgetest.Always(judgetest.Content(goodAnswer)))
	for _, m := range []string{"o4-mini", "gpt-5-mini", "gpt-4.1"} {
		if _, err := newClient(s, judge.WithModel(m)).Ask(context.Background(), goalQuestion); err != nil {
			t.Fatal(err)
		}
	}
	reqs := s.Requests()
	for i, want := range []bool{false, false, true} {
		if _, ok := reqs[i].Field("temperature"); ok != want {
			t.Errorf("%s: temperature sent %v, want %v", reqs[i].Chat.Model, ok, want)
		}
		if v, _ := reqs[i].Field("seed"); string(v) != "42" {
			t.Errorf("%s: seed %s", reqs[i].Chat.Model, v)
		}
	}
}

var ignoreDuration = cmp.FilterPath(func(p cmp.Path) bool { return p.String() == "Duration" }, cmp.Ignore())

func TestAskRetriesAnswersThatDoNotFit(t *testing.T) {
	checkGoroutines(t)
	for _, c := range []struct {
		name    string
		bad     judgetest.Reply
		problem string
	}{
		{"malformed JSON", judgetest.MalformedJSON(), `the answer is not JSON (unexpected EOF): "{\"reason\": \"the agent booked the"`},
		{"schema-invalid", judgetest.Content(`{"reason":"ok","achieved":"yes"}`), `the answer does not fit the schema ($.achieved: want boolean, got string "yes")`},
		{"extra property", judgetest.Content(`{"reason":"ok","achieved":true,"score":1}`), `$: unexpected property "score"`},
		{"refusal", judgetest.Refusal("I can't judge this."), `the model refused: "I can't judge this."`},
		{"truncated", judgetest.Truncated(`{"reason":"the agent`), `cut off at the token limit (finish_reason "length") after 20 bytes: "{\"reason\":\"the agent"`},
		{"no choices", judgetest.NoChoices(), "the response has no choices"},
		{"empty content", judgetest.Content("  "), "the answer is empty"},
		{"content filter", judgetest.Reply{FinishReason: "content_filter"}, `a content filter withheld the answer`},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := judgetest.Start(t, judgetest.Sequence(c.bad).Then(judgetest.Always(judgetest.Content(goodAnswer))))
			ans, err := newClient(s).Ask(context.Background(), goalQuestion)
			if err != nil {
				t.Fatal(err)
			}
			if string(ans.JSON) != goodAnswer || ans.Attempts != 2 {
				t.Errorf("answer %s after %d attempts", ans.JSON, ans.Attempts)
			}
			reqs := s.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests", len(reqs))
			}
			first, second := reqs[0], reqs[1]
			if s1, s2 := *first.Chat.Seed, *second.Chat.Seed; s1 != 42 || s2 != 43 {
				t.Errorf("seeds %d, %d: a retry must change the seed", s1, s2)
			}
			if n := len(second.Chat.Messages); n != len(first.Chat.Messages)+1 {
				t.Fatalf("the retry has %d messages, the first request %d", n, len(first.Chat.Messages))
			}
			note := second.Message(-1)
			if !strings.HasPrefix(note, "Your previous answer was rejected: ") || !strings.Contains(note, c.problem) ||
				!strings.HasSuffix(note, "Answer again with only a JSON object that fits the agent_goal_compare schema.") {
				t.Errorf("the retry's last message %q does not say %q", note, c.problem)
			}
			if v, _ := second.Field("temperature"); string(v) != "0" {
				t.Errorf("retry temperature %s", v)
			}
		})
	}
}

func TestAskUsageAddsUpOverAttempts(t *testing.T) {
	s := judgetest.Start(t, judgetest.Sequence(
		judgetest.Reply{Content: "nope", Usage: &openaiUsage{PromptTokens: 100, CompletionTokens: 1}},
		judgetest.Reply{Content: goodAnswer, Usage: &openaiUsage{PromptTokens: 130, CompletionTokens: 12}},
	))
	ans, err := newClient(s).Ask(context.Background(), goalQuestion)
	if err != nil {
		t.Fatal(err)
	}
	if want := (judgment.Usage{PromptTokens: 230, CompletionTokens: 13}); ans.Usage != want {
		t.Errorf("usage %+v, want %+v", ans.Usage, want)
	}
}

func TestAskGivesUpSayingWhatCameBack(t *testing.T) {
	checkGoroutines(t)
	long := `{"reason":"` + strings.Repeat("very ", 100) + `long","achieved":"maybe"}`
	s := judgetest.Start(t, judgetest.Sequence(judgetest.Refusal("no"), judgetest.MalformedJSON(), judgetest.Content(long)))
	ans, err := newClient(s).Ask(context.Background(), goalQuestion)
	var ae *judge.AnswerError
	if !errors.As(err, &ae) {
		t.Fatalf("err = %v, want an *AnswerError", err)
	}
	if ans.JSON != nil {
		t.Errorf("an answer came with the error: %s", ans.JSON)
	}
	if ans.Attempts != 3 || s.Count() != 3 || len(ae.Problems) != 3 || ae.Question != "agent_goal_compare" || ae.Model != "judge-model" {
		t.Errorf("attempts %d, requests %d, error %+v", ans.Attempts, s.Count(), ae)
	}
	msg := err.Error()
	for _, want := range []string{
		`judge: question "agent_goal_compare" (model judge-model): no usable answer in 3 attempts`,
		`attempt 1: the model refused: "no"`,
		`attempt 2: the answer is not JSON`,
		`attempt 3: the answer does not fit the schema ($.achieved: want boolean, got string "maybe")`,
		`… (`, // the long content is cut, and says how much
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	if len(msg) > 1500 {
		t.Errorf("error is %d bytes long: content must be truncated", len(msg))
	}

	one := judgetest.Start(t, judgetest.Always(judgetest.NoChoices()))
	_, err = newClient(one, judge.WithMaxAnswerAttempts(1)).Ask(context.Background(), goalQuestion)
	if err == nil || one.Count() != 1 || !strings.Contains(err.Error(), "no usable answer in 1 attempts; attempt 1: the response has no choices") {
		t.Errorf("WithMaxAnswerAttempts(1): %d requests, %v", one.Count(), err)
	}
}

func TestAskRetriesHTTPFaults(t *testing.T) {
	checkGoroutines(t)
	for _, c := range []struct {
		name  string
		fault judgetest.Reply
	}{
		{"429 without Retry-After", judgetest.TooManyRequests(0)},
		{"429 with retry-after-ms", judgetest.TooManyRequests(0).WithHeader("retry-after-ms", "5")},
		{"500", judgetest.Status(http.StatusInternalServerError)},
		{"502 with an HTML body", judgetest.Reply{Status: 502, Body: "<html>bad gateway</html>"}},
		{"503", judgetest.Status(http.StatusServiceUnavailable)},
		{"408", judgetest.Status(http.StatusRequestTimeout)},
		{"dropped connection", judgetest.Drop()},
		{"connection dropped mid-body", judgetest.Content(goodAnswer).CutMidBody()},
		{"slower than the attempt timeout", judgetest.Content(goodAnswer).After(time.Hour)},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := judgetest.Start(t, judgetest.Sequence(c.fault, c.fault).Then(judgetest.Always(judgetest.Content(goodAnswer))))
			policy := fast
			if c.name == "slower than the attempt timeout" {
				// Only this case needs a short attempt timeout; giving it to
				// every fault made them flaky on a loaded machine.
				policy.AttemptTimeout = 500 * time.Millisecond
			}
			ans, err := newClient(s, judge.WithRetry(policy)).Ask(context.Background(), goalQuestion)
			if err != nil {
				t.Fatal(err)
			}
			if string(ans.JSON) != goodAnswer || ans.Attempts != 3 || s.Count() != 3 {
				t.Errorf("answer %s, attempts %d, requests %d", ans.JSON, ans.Attempts, s.Count())
			}
			reqs := s.Requests()
			if string(reqs[0].Body) != string(reqs[2].Body) {
				t.Errorf("an HTTP retry changed the body:\n%s\n%s", reqs[0].Body, reqs[2].Body)
			}
		})
	}
}

func TestAskHTTPErrorsSayWhatHappened(t *testing.T) {
	checkGoroutines(t)
	for _, c := range []struct {
		name     string
		reply    judgetest.Reply
		opts     []judge.Option
		requests int
		want     []string
	}{
		{"retries run out", judgetest.Status(503), nil, 4, []string{
			`judge: question "agent_goal_compare" (model judge-model at http://127.0.0.1:`,
			"status code: 503", "4 HTTP attempts", "gave up after 4 attempts: 503 Service Unavailable",
		}},
		{"not retryable", judgetest.Reply{Status: 400, Message: "schema name too long"}, nil, 1, []string{
			"status code: 400", "schema name too long",
		}},
		{"Retry-After beyond Max", judgetest.TooManyRequests(time.Minute), nil, 1, []string{
			"status code: 429", "not retried: the server asked to wait 1m0s, more than the retry policy's Max 20ms",
		}},
		{"dropped every time", judgetest.Drop(), nil, 4, []string{"EOF", "gave up after 4 attempts"}},
		{"unauthorized without a key", judgetest.Status(401), []judge.Option{judge.WithAPIKey("")}, 1, []string{
			"status code: 401", "no API key was given: set OPENAI_API_KEY or use judge.WithAPIKey",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := judgetest.Start(t, judgetest.Always(c.reply))
			ans, err := newClient(s, c.opts...).Ask(context.Background(), goalQuestion)
			if err == nil {
				t.Fatalf("no error; answer %s", ans.JSON)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if s.Count() != c.requests || ans.Attempts != c.requests {
				t.Errorf("%d requests, %d attempts, want %d", s.Count(), ans.Attempts, c.requests)
			}
		})
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	checkGoroutines(t)
	s := judgetest.Start(t, judgetest.Sequence(judgetest.TooManyRequests(time.Second)).Then(judgetest.Always(judgetest.Content(goodAnswer))))
	start := time.Now()
	ans, err := newClient(s, judge.WithRetry(judge.RetryPolicy{Initial: time.Millisecond, Max: 5 * time.Second})).Ask(context.Background(), goalQuestion)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < time.Second {
		t.Errorf("retried after %v, before the server's Retry-After: 1", d)
	}
	if ans.Attempts != 2 {
		t.Errorf("attempts %d", ans.Attempts)
	}
}

func TestRetriesStopAtTheDeadline(t *testing.T) {
	checkGoroutines(t)
	s := judgetest.Start(t, judgetest.Always(judgetest.TooManyRequests(3*time.Second)))
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := newClient(s, judge.WithRetry(judge.RetryPolicy{Initial: time.Millisecond, Max: 10 * time.Second})).Ask(ctx, goalQuestion)
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("waited %v: a retry that cannot happen before the deadline must not be waited for", d)
	}
	if err == nil || !strings.Contains(err.Error(), "status code: 429") ||
		!strings.Contains(err.Error(), "the context's deadline comes before the next retry in 3s") || s.Count() != 1 {
		t.Errorf("%d requests, err %v", s.Count(), err)
	}
}

func TestCancelStopsPromptly(t *testing.T) {
	checkGoroutines(t)
	for _, c := range []struct {
		name   string
		reply  judgetest.Reply
		policy judge.RetryPolicy
	}{
		{"during a slow answer", judgetest.Content(goodAnswer).After(time.Hour), fast},
		{"during a backoff", judgetest.Status(503), judge.RetryPolicy{Initial: time.Hour, Max: time.Hour}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := judgetest.Start(t, judgetest.Always(c.reply))
			ctx, cancel := context.WithCancel(context.Background())
			go func() {
				for s.Count() == 0 {
					time.Sleep(time.Millisecond)
				}
				time.Sleep(20 * time.Millisecond)
				cancel()
			}()
			start := time.Now()
			_, err := newClient(s, judge.WithRetry(c.policy), judge.WithQuestionTimeout(0)).Ask(ctx, goalQuestion)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want context.Canceled", err)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("Ask returned %v after the cancel", d)
			}
			if s.Count() != 1 {
				t.Errorf("%d requests after a cancel", s.Count())
			}
		})
	}
}

func TestAPIKeyNeverInErrors(t *testing.T) {
	checkGoroutines(t)
	// A hostile or careless server echoes the Authorization header back, in an
	// error message and in the content.
	echo := func(r judgetest.Request) judgetest.Reply {
		auth := r.Header.Get("Authorization")
		if r.Seq == 1 {
			return judgetest.Content("not JSON, but your header: " + auth)
		}
		return judgetest.Reply{Status: 400, Message: "bad key " + auth}
	}
	s := judgetest.Start(t, echo)
	_, err := newClient(s).Ask(context.Background(), goalQuestion)
	if err == nil {
		t.Fatal("no error")
	}
	if strings.Contains(err.Error(), apiKey) || !strings.Contains(err.Error(), "bad key Bearer [redacted]") {
		t.Errorf("error %q", err)
	}
	// The retry quotes the rejected content back to the server, in a body a
	// cassette would store: without the key.
	reqs := s.Requests()
	if len(reqs) != 2 || strings.Contains(string(reqs[1].Body), apiKey) || !strings.Contains(reqs[1].Message(-1), "your header: Bearer [redacted]") {
		t.Errorf("%d requests; the retry says %q", len(reqs), reqs[len(reqs)-1].Message(-1))
	}
	if c := judge.New(judge.WithAPIKey(apiKey)).String(); strings.Contains(c, apiKey) {
		t.Errorf("String() = %q", c)
	}
	if c := fmt.Sprintf("%v %+v", judge.New(judge.WithAPIKey(apiKey)), judge.New(judge.WithAPIKey(apiKey))); strings.Contains(c, apiKey) {
		t.Errorf("formatted client %q", c)
	}
}

func TestSettingsComeFromOptionsThenEnvironment(t *testing.T) {
	checkGoroutines(t)
	s := judgetest.Start(t, judgetest.Always(judgetest.Content(goodAnswer)))
	t.Setenv("OPENAI_BASE_URL", s.URL+"/") // a trailing slash is fine
	t.Setenv("OPENAI_API_KEY", "sk-from-env")
	t.Setenv("AGENTCHECK_JUDGE_MODEL", "env-model")

	if _, err := judge.New(judge.WithRetry(fast)).Ask(context.Background(), goalQuestion); err != nil {
		t.Fatal(err)
	}
	if _, err := judge.New(judge.WithModel("code-model"), judge.WithAPIKey("sk-from-code"), judge.WithRetry(fast)).Ask(context.Background(), goalQuestion); err != nil {
		t.Fatal(err)
	}
	reqs := s.Requests()
	if len(reqs) != 2 || reqs[0].Chat.Model != "env-model" || reqs[0].Header.Get("Authorization") != "Bearer sk-from-env" ||
		reqs[1].Chat.Model != "code-model" || reqs[1].Header.Get("Authorization") != "Bearer sk-from-code" {
		t.Errorf("requests %v / %v", reqs[0].Header, reqs[1].Header)
	}
	if m := judge.New().Model(); m != "env-model" {
		t.Errorf("Model() = %q", m)
	}

	t.Setenv("AGENTCHECK_JUDGE_MODEL", "")
	t.Setenv("OPENAI_BASE_URL", "")
	if c := judge.New(); c.Model() != "gpt-4o-mini" || c.String() != "gpt-4o-mini at https://api.openai.com/v1" {
		t.Errorf("defaults: %s", c)
	}
}

func TestBadBaseURLSaysWhereItCameFrom(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "localhost:11434/v1")
	_, err := judge.New().Ask(context.Background(), goalQuestion)
	if err == nil || !strings.Contains(err.Error(), `base URL "localhost:11434/v1" (from OPENAI_BASE_URL) is not an http:// or https:// URL with a host`) {
		t.Errorf("err = %v", err)
	}
	_, err = judge.New(judge.WithBaseURL("ftp://x")).Ask(context.Background(), goalQuestion)
	if err == nil || !strings.Contains(err.Error(), "(from WithBaseURL)") {
		t.Errorf("err = %v", err)
	}
}

func TestBadQuestionsAreRefusedBeforeAnyRequest(t *testing.T) {
	s := judgetest.Start(t, nil)
	c := newClient(s)
	for _, cs := range []struct {
		name string
		edit func(q *judgment.Question)
		want string
	}{
		{"bad name", func(q *judgment.Question) { q.Name = "goal accuracy" }, `question "goal accuracy": the name must be 1 to 64 letters`},
		{"no name", func(q *judgment.Question) { q.Name = "" }, "the name must be"},
		{"no texts", func(q *judgment.Question) { q.Instructions, q.Input = "", "" }, "no instructions and no input"},
		{"no schema", func(q *judgment.Question) { q.Schema = nil }, "the question has no schema"},
		{"loose schema", func(q *judgment.Question) {
			q.Schema = map[string]any{"type": "object", "properties": map[string]any{}, "additionalProperties": false, "required": []string{"x"}}
		}, `the schema is not strict: $: required names "x"`},
	} {
		q := goalQuestion
		cs.edit(&q)
		_, err := c.Ask(context.Background(), q)
		if err == nil || !strings.Contains(err.Error(), cs.want) {
			t.Errorf("%s: err = %v, want %q", cs.name, err, cs.want)
		}
	}
	if s.Count() != 0 {
		t.Errorf("%d requests for bad questions", s.Count())
	}
}

func TestLanguageOnlyAddsToInstructions(t *testing.T) {
	s := judgetest.Start(t, judgetest.Always(judgetest.Content(goodAnswer)))
	for _, lang := range []string{"en", "ru"} {
		if _, err := newClient(s, judge.WithLanguage(lang)).Ask(context.Background(), goalQuestion); err != nil {
			t.Fatal(err)
		}
	}
	reqs := s.Requests()
	if got := reqs[0].Message(0); got != goalQuestion.Instructions {
		t.Errorf("en system message %q", got)
	}
	ru := reqs[1].Message(0)
	if !strings.HasPrefix(ru, goalQuestion.Instructions+"\n\n") || !strings.Contains(ru, "in Russian") || !strings.Contains(ru, "Keep the JSON keys") {
		t.Errorf("ru system message %q", ru)
	}
	if reqs[1].Message(1) != goalQuestion.Input {
		t.Errorf("the input changed: %q", reqs[1].Message(1))
	}
}

// TestRecorderSitsBetweenTemperatureFixAndRetries: the recorder sees each
// request once, as sent (temperature 0 included), and the final response,
// never the retried failures.
func TestRecorderSitsBetweenTemperatureFixAndRetries(t *testing.T) {
	checkGoroutines(t)
	s := judgetest.Start(t, judgetest.Sequence(judgetest.TooManyRequests(0), judgetest.Status(500), judgetest.Drop()).
		Then(judgetest.Always(judgetest.Content(goodAnswer))))
	path := filepath.Join(t.TempDir(), "judge.yaml")
	rec, err := recorder.Open(path, recorder.WithMode(recorder.RecordAll), recorder.WithEnv(func(string) string { return "" }),
		recorder.WithTestName("TestX"))
	if err != nil {
		t.Fatal(err)
	}
	ans, err := newClient(s, judge.WithRecorder(rec)).Ask(context.Background(), goalQuestion)
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	its := checkWholeCassette(t, path, 1)
	if len(its) == 1 && !strings.HasSuffix(its[0].Request.Body, `,"temperature":0}`) {
		t.Errorf("the recorder saw no temperature 0: %s", its[0].Request.Body)
	}
	if ans.Attempts != 4 || s.Count() != 4 || ans.Source != path {
		t.Errorf("attempts %d, requests %d, source %q", ans.Attempts, s.Count(), ans.Source)
	}
	if want := "AGENTCHECK_RECORD=all AGENTCHECK_RECORD_TEST=TestX go test ./judge -count=1 -run '^TestX$'"; ans.Rerecord != want || rec.RerecordCommand() != want {
		t.Errorf("Rerecord %q, want the recorder's %q", ans.Rerecord, want)
	}
}

// countingTransport is a network transport that counts what passes.
type countingTransport struct {
	mu sync.Mutex
	n  int
}

func (c *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	return http.DefaultTransport.RoundTrip(req)
}

func TestCustomNetworkTransportSitsBelowRetries(t *testing.T) {
	checkGoroutines(t)
	s := judgetest.Start(t, judgetest.Sequence(judgetest.Status(503), judgetest.Drop()).Then(judgetest.Always(judgetest.Content(goodAnswer))))
	viaTransport, viaClient := &countingTransport{}, &countingTransport{}
	if _, err := newClient(s, judge.WithTransport(viaTransport)).Ask(context.Background(), goalQuestion); err != nil {
		t.Fatal(err)
	}
	hc := &http.Client{Transport: viaClient, Timeout: 10 * time.Second}
	if _, err := newClient(s, judge.WithHTTPClient(hc)).Ask(context.Background(), goalQuestion); err != nil {
		t.Fatal(err)
	}
	if viaTransport.n != 3 || viaClient.n != 1 || hc.Transport != viaClient {
		t.Errorf("the network transports saw %d and %d requests, want 3 (two faults retried) and 1; the caller's client changed: %v",
			viaTransport.n, viaClient.n, hc.Transport != viaClient)
	}
	hung := judgetest.Start(t, judgetest.Always(judgetest.Content(goodAnswer).After(time.Hour)))
	start := time.Now()
	_, err := newClient(hung, judge.WithHTTPClient(&http.Client{Timeout: 100 * time.Millisecond})).Ask(context.Background(), goalQuestion)
	var urlErr *url.Error
	if !errors.As(err, &urlErr) || !urlErr.Timeout() || time.Since(start) > 5*time.Second {
		t.Errorf("the http.Client's Timeout did not bound the request: %v after %v", err, time.Since(start))
	}
}

func TestCassetteRecordsTheCleanExchangeAndReplaysOffline(t *testing.T) {
	checkGoroutines(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "judge.yaml")
	s := judgetest.NewServer(judgetest.Sequence(judgetest.TooManyRequests(0), judgetest.MalformedJSON()).
		Then(judgetest.Always(judgetest.Content(goodAnswer))))
	defer s.Close()

	// The test records on purpose, so CI's refusal to record (CI=true) must
	// not reach it: the environment it sees is empty.
	noEnv := recorder.WithEnv(func(string) string { return "" })
	rec, err := recorder.Open(path, recorder.WithMode(recorder.RecordAll), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	recorded, err := newClient(s, judge.WithRecorder(rec)).Ask(context.Background(), goalQuestion)
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	s.Close() // replay must not need the server
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{apiKey, "Rate limit", "code: 429", "Too Many Requests"} {
		if strings.Contains(string(file), bad) {
			t.Errorf("the cassette holds %q:\n%s", bad, file)
		}
	}
	if !strings.Contains(string(file), `temperature`) {
		t.Errorf("the cassette lost the temperature:\n%s", file)
	}

	replayer, err := recorder.Open(path, recorder.WithMode(recorder.RecordNone), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	defer replayer.Close()
	replayed, err := judge.New(judge.WithBaseURL(s.URL), judge.WithAPIKey(""), judge.WithModel("judge-model"),
		judge.WithRetry(fast), judge.WithRecorder(replayer)).Ask(context.Background(), goalQuestion)
	if err != nil {
		t.Fatal(err)
	}
	if string(replayed.JSON) != string(recorded.JSON) || replayed.Usage != recorded.Usage || replayed.Model != recorded.Model {
		t.Errorf("replayed %+v, recorded %+v", replayed, recorded)
	}
	// A recording run names the cassette it wrote to, as its replays do.
	if recorded.Source != path || replayed.Source != path {
		t.Errorf("sources %q recorded, %q replayed; want both %q", recorded.Source, replayed.Source, path)
	}
	if recorded.Attempts != 3 || replayed.Attempts != 2 {
		t.Errorf("attempts %d recorded (429 retried, then a malformed answer asked again), %d replayed", recorded.Attempts, replayed.Attempts)
	}
}

func TestConcurrentAsks(t *testing.T) {
	checkGoroutines(t)
	// Every fifth of the first 40 requests fails: each of the 8 is retried,
	// and no question meets its four attempts' failures, which a 503 on
	// every fifth request however late let one in some sixteen runs do
	// (its retries, among the others' requests, landing on fifths).
	s := judgetest.Start(t, func(r judgetest.Request) judgetest.Reply {
		if r.Seq%5 == 0 && r.Seq <= 40 {
			return judgetest.Status(503)
		}
		return judgetest.Content(goodAnswer).After(time.Millisecond)
	})
	c := newClient(s)
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for range 40 {
		wg.Go(func() {
			if _, err := c.Ask(context.Background(), goalQuestion); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := s.Count(); n < 48 {
		t.Errorf("%d requests for 40 questions, 8 of which failed once", n)
	}
}

// checkGoroutines fails t if goroutines started after it outlive t and its
// cleanups (servers' Close among them): call it first.
func checkGoroutines(t *testing.T) {
	opt := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, opt) })
}
