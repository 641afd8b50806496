package judge_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/recorder"
)

// A judge answering 503 to everything costs a few requests, not a run's
// worth of retries: after RetryPolicy.FailFastAfter failed requests in a row
// the client stops asking, and every question still gets its own error.
func TestFailFastWhenTheJudgeIsDown(t *testing.T) {
	checkGoroutines(t)
	s := judgetest.Start(t, judgetest.Always(judgetest.Status(503)))
	c := newClient(s)
	const questions = 20
	errs := make([]error, questions)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8) // the CLI's default judge concurrency
	for i := range questions {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			_, errs[i] = c.Ask(context.Background(), bookingQuestion(i))
		})
	}
	wg.Wait()
	if n := s.Count(); n >= questions {
		t.Errorf("the server got %d requests for %d questions, want fewer than one per question", n, questions)
	}
	unavailable := 0
	for i, err := range errs {
		if err == nil {
			t.Fatalf("question %d: no error", i)
		}
		var u *judge.UnavailableError
		if errors.As(err, &u) {
			unavailable++
			if !strings.Contains(err.Error(), "503 Service Unavailable") || !strings.Contains(err.Error(), "RetryPolicy.FailFastAfter") {
				t.Errorf("question %d: %v, want the last failure and the setting named", i, err)
			}
		}
	}
	if unavailable < questions-8 {
		t.Errorf("%d of %d questions failed fast, want all but those already under way", unavailable, questions)
	}

	// A success in between resets the count.
	var n int
	var mu sync.Mutex
	flaky := judgetest.Start(t, func(judgetest.Request) judgetest.Reply {
		mu.Lock()
		defer mu.Unlock()
		n++
		if n%3 == 0 {
			return judgetest.Content(goodAnswer)
		}
		return judgetest.Status(502)
	})
	fc := newClient(flaky)
	for i := range 6 {
		if _, err := fc.Ask(context.Background(), bookingQuestion(i)); err != nil {
			t.Fatalf("question %d with a judge that fails twice then answers: %v", i, err)
		}
	}
}

// An answer over the size bound is an error at once, read no further than
// the bound, and not retried; the recorder bounds what it records the same
// way, so an endless body exhausts nothing.
func TestAnswerOverTheBound(t *testing.T) {
	checkGoroutines(t)
	var mu sync.Mutex
	requests := 0
	endless := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests++
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		chunk := make([]byte, 64<<10)
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	t.Cleanup(endless.Close)
	policy := fast
	policy.MaxResponseBytes = 1 << 20
	c := judge.New(judge.WithBaseURL(endless.URL+"/v1"), judge.WithAPIKey(apiKey), judge.WithModel("m"), judge.WithRetry(policy))
	_, err := c.Ask(context.Background(), goalQuestion)
	var tooLarge *judge.TooLargeError
	if !errors.As(err, &tooLarge) || !strings.Contains(err.Error(), "larger than 1048576 bytes") || !strings.Contains(err.Error(), "not retried") {
		t.Fatalf("err = %v, want the bound named", err)
	}
	if requests != 1 {
		t.Errorf("%d requests, want 1: an answer over the bound is not retried", requests)
	}

	rec, err := recorder.Open(filepath.Join(t.TempDir(), "big.yaml"), recorder.WithMode(recorder.RecordMissing),
		recorder.WithEnv(func(string) string { return "" }), recorder.WithMaxBodyBytes(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := rec.Client().Get(endless.URL + "/zero")
	if err == nil {
		resp.Body.Close()
	}
	var recTooLarge *recorder.BodyTooLargeError
	if !errors.As(err, &recTooLarge) || !strings.Contains(err.Error(), "larger than 1048576 bytes") {
		t.Errorf("recording an endless body: %v, want the recorder's bound", err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
}

// A question is bounded as a whole, its retries included.
func TestQuestionTimeout(t *testing.T) {
	checkGoroutines(t)
	s := judgetest.Start(t, judgetest.Always(judgetest.Content(goodAnswer).After(time.Hour)))
	policy := fast
	policy.AttemptTimeout = time.Hour
	_, err := newClient(s, judge.WithRetry(policy), judge.WithQuestionTimeout(300*time.Millisecond)).Ask(context.Background(), goalQuestion)
	var timeout *judge.QuestionTimeoutError
	if !errors.As(err, &timeout) || !strings.Contains(err.Error(), "within 300ms, the question timeout (judge.WithQuestionTimeout)") {
		t.Fatalf("err = %v, want the question timeout", err)
	}
	if judge.DefaultQuestionTimeout < time.Minute || judge.DefaultQuestionTimeout > 10*time.Minute {
		t.Errorf("DefaultQuestionTimeout = %v, want minutes", judge.DefaultQuestionTimeout)
	}
}

// clearEndpointEnv unsets what would name an endpoint, a key or a model, as
// on a CI machine that has none of them.
func clearEndpointEnv(t *testing.T) {
	for _, v := range []string{judge.EnvAPIKey, judge.EnvBaseURL, judge.EnvModel} {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
}

// A cassette recorded against any OpenAI-compatible endpoint (a base path of
// its own, a model of its own, a key) replays where no endpoint, key or
// model is set: with the recorded model when the replay names none, and
// with a miss that names the recorded model when it names another.
func TestCassettesArePortable(t *testing.T) {
	clearEndpointEnv(t)
	for _, base := range []string{"/api/v1", "/v1", "/openai/deployments/judge"} {
		t.Run(strings.Trim(base, "/"), func(t *testing.T) {
			s := judgetest.Start(t, judgetest.Always(judgetest.Content(goodAnswer)))
			origin := strings.TrimSuffix(s.URL, "/v1")
			path := filepath.Join(t.TempDir(), "judge.yaml")
			noEnv := recorder.WithEnv(func(string) string { return "" })
			rec, _ := recorder.Open(path, recorder.WithMode(recorder.RecordMissing), noEnv)
			recorded, err := judge.New(judge.WithBaseURL(origin+base), judge.WithAPIKey("sk-or-v1-recording-key"),
				judge.WithModel("meta-llama/llama-3.3-70b-instruct"), judge.WithRecorder(rec)).Ask(context.Background(), goalQuestion)
			if err != nil {
				t.Fatal(err)
			}
			if err := rec.Close(); err != nil {
				t.Fatal(err)
			}
			s.Close()

			// CI: no endpoint, no key, no model.
			replay, _ := recorder.Open(path, noEnv)
			c := judge.New(judge.WithRecorder(replay))
			if c.Model() != "meta-llama/llama-3.3-70b-instruct" {
				t.Errorf("a judge that names no model replays with %q, want the recorded one", c.Model())
			}
			got, err := c.Ask(context.Background(), goalQuestion)
			if err != nil {
				t.Fatalf("replay with no endpoint set: %v", err)
			}
			if string(got.JSON) != string(recorded.JSON) || got.Source != path {
				t.Errorf("replay = %s from %s, want %s from the cassette", got.JSON, got.Source, recorded.JSON)
			}

			// Another model named: the miss says which one was recorded.
			replay, _ = recorder.Open(path, noEnv)
			_, err = judge.New(judge.WithRecorder(replay), judge.WithModel("gpt-4o")).Ask(context.Background(), goalQuestion)
			var miss *recorder.ReplayMissError
			if !errors.As(err, &miss) || !strings.Contains(miss.Hint, `recorded with model "meta-llama/llama-3.3-70b-instruct"`) ||
				!strings.Contains(miss.Hint, `this run asks for "gpt-4o"`) {
				t.Errorf("replay with another model: %v, want a miss naming the recorded model", err)
			}
		})
	}
}

// An error answer is recorded and replayed as the same error, with advice
// that fits a replay: record again, not "try later".
func TestRecordedErrorAnswerReplays(t *testing.T) {
	clearEndpointEnv(t)
	s := judgetest.Start(t, judgetest.Always(judgetest.Status(400)))
	path := filepath.Join(t.TempDir(), "judge.yaml")
	noEnv := recorder.WithEnv(func(string) string { return "" })
	rec, _ := recorder.Open(path, recorder.WithMode(recorder.RecordMissing), noEnv, recorder.WithRecordCommand("AGENTCHECK_RECORD=missing go test ./x"))
	_, recErr := newClient(s, judge.WithRecorder(rec)).Ask(context.Background(), goalQuestion)
	if recErr == nil || !strings.Contains(recErr.Error(), "status code: 400") {
		t.Fatalf("recording: %v, want the 400", recErr)
	}
	rec.Close()
	replay, _ := recorder.Open(path, noEnv, recorder.WithRecordCommand("AGENTCHECK_RECORD=missing go test ./x"))
	_, err := newClient(s, judge.WithRecorder(replay)).Ask(context.Background(), goalQuestion)
	if err == nil || !strings.Contains(err.Error(), "status code: 400") {
		t.Fatalf("replay: %v, want the recorded 400", err)
	}
	want := "the cassette recorded this error answer; once the judge answers again, record it anew with: AGENTCHECK_RECORD=all go test ./x"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("replay error: %v\nwant the advice %q", err, want)
	}
	if s.Count() != 1 {
		t.Errorf("the server got %d requests, want the recording's one", s.Count())
	}
}

// readmeRecipes reads the README's recording recipes: the variables each
// "# Name" recipe of its sh block sets, by name.
func readmeRecipes(t *testing.T) map[string]map[string]string {
	t.Helper()
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	recipes := map[string]map[string]string{}
	var name string
	assign := regexp.MustCompile(`^([A-Z_]+)=(\S+)$`)
	for _, line := range strings.Split(strings.ReplaceAll(string(data), "\\\n", " "), "\n") {
		switch {
		case strings.HasPrefix(line, "# ") && !strings.HasPrefix(line, "# agentcheck"):
			name = strings.Fields(strings.TrimPrefix(line, "# "))[0]
			name = strings.TrimSuffix(name, ",")
		case name != "" && strings.Contains(line, "go test"):
			vars := map[string]string{}
			for _, f := range strings.Fields(line) {
				if m := assign.FindStringSubmatch(f); m != nil {
					vars[m[1]] = m[2]
				}
			}
			recipes[name] = vars
			name = ""
		case strings.TrimSpace(line) == "":
			name = ""
		}
	}
	return recipes
}

// The README's recipes for OpenRouter and Ollama: a cassette recorded with
// their variables (against the scripted judge standing in for the service,
// at the service's base path) replays on CI with none of them set.
func TestReadmeRecipesReplayOnCI(t *testing.T) {
	recipes := readmeRecipes(t)
	for _, name := range []string{"OpenRouter", "Ollama"} {
		t.Run(name, func(t *testing.T) {
			vars, ok := recipes[name]
			if !ok || vars[judge.EnvBaseURL] == "" || vars[judge.EnvModel] == "" || vars[recorder.RecordEnv] != "missing" {
				t.Fatalf("the README's %s recipe sets %v; want a base URL, a model and %s=missing", name, vars, recorder.RecordEnv)
			}
			s := judgetest.Start(t, judgetest.Always(judgetest.Content(goodAnswer)))
			service, err := url.Parse(vars[judge.EnvBaseURL])
			if err != nil {
				t.Fatal(err)
			}
			origin := strings.TrimSuffix(s.URL, "/v1")
			path := filepath.Join(t.TempDir(), "TestBookingAgent.yaml")

			clearEndpointEnv(t)
			t.Setenv("CI", "")
			for k, v := range vars {
				if k == judge.EnvBaseURL {
					v = origin + service.Path // the service, at its own base path
				}
				t.Setenv(k, v)
			}
			rec, err := recorder.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			recorded, err := judge.New(judge.WithRecorder(rec)).Ask(context.Background(), goalQuestion)
			if err != nil {
				t.Fatalf("recording as the recipe says: %v", err)
			}
			rec.Close()
			s.Close()

			for k := range vars {
				t.Setenv(k, "")
				os.Unsetenv(k)
			}
			t.Setenv("CI", "true")
			replay, err := recorder.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			got, err := judge.New(judge.WithRecorder(replay)).Ask(context.Background(), goalQuestion)
			if err != nil {
				t.Fatalf("replay on CI with none of the recipe's variables: %v", err)
			}
			if string(got.JSON) != string(recorded.JSON) || got.Model != recorded.Model {
				t.Errorf("replay = %s by %s, want %s by %s", got.JSON, got.Model, recorded.JSON, recorded.Model)
			}
		})
	}
}
