package judge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	openai "github.com/sashabaranov/go-openai"
	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
	"gopkg.in/dnaeon/go-vcr.v4/pkg/recorder"
)

// env stands in for the process environment, so tests neither depend on nor
// change AGENTCHECK_RECORD and CI.
func env(kv ...string) CassetteOption {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return WithCassetteEnv(func(k string) string { return m[k] })
}

// offline is an upstream that fails the test: replays must not reach any
// server.
func offline(t *testing.T) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		t.Errorf("request reached the network: %s %s", req.Method, req.URL)
		return nil, errors.New("offline")
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// chatServer is a loopback OpenAI-compatible server; the n-th answer's
// content is "answer n" and every answer sets a cookie.
func chatServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Set-Cookie", "session=COOKIE-SECRET-42; Path=/")
		fmt.Fprintf(w, `{"id":"chatcmpl-%d","object":"chat.completion","created":1,"model":"gpt-4o-mini",`+
			`"choices":[{"index":0,"message":{"role":"assistant","content":"answer %d"},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":10,"completion_tokens":2,"total_tokens":12}}`, n, n)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func openaiClient(baseURL, key string, hc *http.Client) *openai.Client {
	cfg := openai.DefaultConfig(key)
	cfg.BaseURL = baseURL + "/v1"
	cfg.OrgID = "org-ORG-SECRET-7"
	cfg.HTTPClient = hc
	return openai.NewClientWithConfig(cfg)
}

func chatRequest(question, promptVersion string) openai.ChatCompletionRequest {
	return openai.ChatCompletionRequest{
		Model:    "gpt-4o-mini",
		Messages: []openai.ChatCompletionMessage{{Role: "system", Content: "You judge agents."}, {Role: "user", Content: question}},
		Seed:     new(int),
		User:     promptVersionPrefix + promptVersion,
	}
}

func ask(t *testing.T, c *openai.Client, question, version string) (openai.ChatCompletionResponse, error) {
	t.Helper()
	return c.CreateChatCompletion(context.Background(), chatRequest(question, version))
}

func TestRecorderKeepsSecretsOutOfTheCassette(t *testing.T) {
	const key = "sk-test-KEY-SECRET-0123456789"
	srv, calls := chatServer(t)
	path := filepath.Join(t.TempDir(), "secrets.yaml")

	rec, err := NewRecorder(path, WithRecordMode(RecordMissing), env())
	if err != nil {
		t.Fatal(err)
	}
	resp, err := ask(t, openaiClient(srv.URL, key, rec.Client(nil)), "Is 2+2 4?", "goal-v1")
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Choices[0].Message.Content; got != "answer 1" {
		t.Fatalf("recorded answer = %q, want %q", got, "answer 1")
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}

	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{key, "Bearer", "org-ORG-SECRET-7", "COOKIE-SECRET-42"} {
		if bytes.Contains(raw, []byte(secret)) {
			t.Errorf("cassette contains %q:\n%s", secret, raw)
		}
	}
	for _, header := range []string{"authorization", "openai-organization", "set-cookie"} {
		if bytes.Contains(bytes.ToLower(raw), []byte(header)) {
			t.Errorf("cassette contains header %q:\n%s", header, raw)
		}
	}

	// The file is a go-vcr v4 cassette: its own loader reads it.
	c, err := cassette.Load(strings.TrimSuffix(path, ".yaml"))
	if err != nil {
		t.Fatalf("go-vcr cannot load the cassette: %v", err)
	}
	if len(c.Interactions) != 1 {
		t.Fatalf("cassette holds %d interactions, want 1", len(c.Interactions))
	}
	got := c.Interactions[0]
	if got.Request.Method != http.MethodPost || !strings.HasSuffix(got.Request.URL, "/v1/chat/completions") ||
		!strings.Contains(got.Request.Body, "Is 2+2 4?") || got.Response.Code != 200 ||
		!strings.Contains(got.Response.Body, "answer 1") {
		t.Errorf("stored interaction = %+v", got)
	}
	if ct := got.Request.Headers.Get("Content-Type"); ct != "application/json" {
		t.Errorf("stored request Content-Type = %q: non-secret headers must stay", ct)
	}

	// Replay: no key, another host, no network.
	rec, err = NewRecorder(path, env(), WithUpstream(offline(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	resp, err = ask(t, openaiClient("http://127.0.0.1:1", "", rec.Client(nil)), "Is 2+2 4?", "goal-v1")
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Choices[0].Message.Content; got != "answer 1" {
		t.Errorf("replayed answer = %q, want %q", got, "answer 1")
	}
	if got := resp.Header().Get(CassetteHeader); got != path {
		t.Errorf("replayed %s header = %q, want the cassette path %q", CassetteHeader, got, path)
	}
	if calls.Load() != 1 {
		t.Errorf("server saw %d calls, want 1 (the recording only)", calls.Load())
	}
	if bytes.Contains(raw, []byte(CassetteHeader)) {
		t.Errorf("the %s header reached the file", CassetteHeader)
	}
}

func TestRecorderMatchesCanonicalJSONBodies(t *testing.T) {
	srv, _ := chatServer(t)
	path := filepath.Join(t.TempDir(), "canon.yaml")
	post := func(rt http.RoundTripper, target, body string) (string, error) {
		req, _ := http.NewRequest(http.MethodPost, target, strings.NewReader(body))
		resp, err := rt.RoundTrip(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return string(b), err
	}

	rec, _ := NewRecorder(path, WithRecordMode(RecordMissing), env())
	for _, body := range []string{`{"b":1,"a":[1,{"y":2,"x":"s p"}]}`, "plain text body"} {
		if _, err := post(rec, srv.URL+"/v1/x?b=2&a=1", body); err != nil {
			t.Fatal(err)
		}
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name, url, body string
		hit             bool
	}{
		{"keys reordered, whitespace added", "/v1/x?a=1&b=2", "{ \"a\" : [ 1 , {\"x\":\"s p\",\n\"y\":2} ], \"b\":1 }", true},
		{"other host", "/v1/x?b=2&a=1", `{"a":[1,{"x":"s p","y":2}],"b":1}`, true},
		{"array order matters", "/v1/x?b=2&a=1", `{"a":[{"x":"s p","y":2},1],"b":1}`, false},
		{"space inside a string matters", "/v1/x?b=2&a=1", `{"a":[1,{"x":"sp","y":2}],"b":1}`, false},
		{"number text matters", "/v1/x?b=2&a=1", `{"a":[1,{"x":"s p","y":2.0}],"b":1}`, false},
		{"other path", "/v1/y?b=2&a=1", `{"a":[1,{"x":"s p","y":2}],"b":1}`, false},
		{"other query", "/v1/x?b=3&a=1", `{"a":[1,{"x":"s p","y":2}],"b":1}`, false},
		{"text body by bytes", "/v1/x?a=1&b=2", "plain text body", true},
		{"text body differs", "/v1/x?a=1&b=2", "plain  text body", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			host := srv.URL
			if tt.name == "other host" {
				host = "http://127.0.0.1:1"
			}
			rec, _ := NewRecorder(path, env(), WithUpstream(offline(t)))
			defer rec.Close()
			_, err := post(rec, host+tt.url, tt.body)
			var miss *ReplayMissError
			if tt.hit && err != nil {
				t.Errorf("want a replay, got %v", err)
			}
			if !tt.hit && !errors.As(err, &miss) {
				t.Errorf("want a *ReplayMissError, got %v", err)
			}
		})
	}
}

func TestRecorderReplaysIdenticalRequestsInRecordedOrder(t *testing.T) {
	srv, _ := chatServer(t)
	path := filepath.Join(t.TempDir(), "same.yaml")
	run := func(rec *Recorder, n int) []string {
		c := openaiClient(srv.URL, "sk-x", rec.Client(nil))
		var got []string
		for range n {
			resp, err := ask(t, c, "same question", "v1")
			if err != nil {
				got = append(got, "error: "+err.Error())
				continue
			}
			got = append(got, resp.Choices[0].Message.Content)
		}
		return got
	}

	rec, _ := NewRecorder(path, WithRecordMode(RecordMissing), env())
	recorded := run(rec, 3)
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	want := []string{"answer 1", "answer 2", "answer 3"}
	if diff := cmp.Diff(want, recorded); diff != "" {
		t.Fatalf("recording run (-want +got):\n%s", diff)
	}

	rec, _ = NewRecorder(path, env(), WithUpstream(offline(t)))
	defer rec.Close()
	replayed := run(rec, 4)
	if diff := cmp.Diff(want, replayed[:3]); diff != "" {
		t.Errorf("replay must repeat the recording run (-want +got):\n%s", diff)
	}
	for _, s := range []string{"holds 3 interaction(s) for this exact request", "identical request #4", path} {
		if !strings.Contains(replayed[3], s) {
			t.Errorf("4th identical request: error %q lacks %q", replayed[3], s)
		}
	}
}

func TestRecorderMissSaysWhatDiffersAndHowToRecord(t *testing.T) {
	srv, _ := chatServer(t)
	dir := t.TempDir()
	rec := Cassette(t, WithCassetteDir(dir), WithRecordMode(RecordMissing), env())
	c := openaiClient(srv.URL, "sk-x", rec.Client(nil))
	for _, q := range []string{"What is the capital of France?", "Book a flight to Paris on Friday."} {
		if _, err := ask(t, c, q, "goal-v1"); err != nil {
			t.Fatal(err)
		}
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}

	rec = Cassette(t, WithCassetteDir(dir), env(), WithUpstream(offline(t)))
	_, err := ask(t, openaiClient(srv.URL, "", rec.Client(nil)), "Book a flight to Rome on Friday.", "goal-v2")
	var miss *ReplayMissError
	if !errors.As(err, &miss) {
		t.Fatalf("want a *ReplayMissError through go-openai, got %T %v", err, err)
	}
	path := filepath.Join(dir, "TestRecorderMissSaysWhatDiffersAndHowToRecord.yaml")
	msg := err.Error()
	for _, want := range []string{
		"POST /v1/chat/completions",
		"cassette: " + path,
		"test: TestRecorderMissSaysWhatDiffersAndHowToRecord",
		"closest recorded request: interaction 1",
		`-       "content": "Book a flight to Paris on Friday."`,
		`+       "content": "Book a flight to Rome on Friday."`,
		`-   "user": "agentcheck-prompt:goal-v1"`,
		`hint: the prompt version differs (recorded "goal-v1", now "goal-v2")`,
		"record it with: AGENTCHECK_RECORD=missing go test ./judge -run '^TestRecorderMissSaysWhatDiffersAndHowToRecord$'",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("miss message lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "capital of France") {
		t.Errorf("miss message shows the farther interaction:\n%s", msg)
	}
	if n := strings.Count(miss.Diff, "\n") + 1; n > 25 {
		t.Errorf("diff has %d lines, want a short one:\n%s", n, miss.Diff)
	}
}

func TestRecorderMissWithoutCassette(t *testing.T) {
	t.Run("sub test/with 'odd' name", func(t *testing.T) {
		dir := t.TempDir()
		rec := Cassette(t, WithCassetteDir(dir), env(), WithUpstream(offline(t)))
		req, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1:1/items?id=3", nil)
		_, err := rec.RoundTrip(req)
		var miss *ReplayMissError
		if !errors.As(err, &miss) {
			t.Fatalf("want *ReplayMissError, got %v", err)
		}
		want := &ReplayMissError{
			Cassette: filepath.Join(dir, "TestRecorderMissWithoutCassette", "sub_test", "with__odd__name.yaml"),
			Test:     "TestRecorderMissWithoutCassette/sub_test/with_'odd'_name",
			Request:  "GET /items",
			Reason:   "the cassette file does not exist yet",
			Command:  `AGENTCHECK_RECORD=missing go test ./judge -run '^TestRecorderMissWithoutCassette$/^sub_test$/^with_'\''odd'\''_name$'`,
		}
		if diff := cmp.Diff(want, miss); diff != "" {
			t.Errorf("miss (-want +got):\n%s", diff)
		}
	})
}

func TestCassetteFileName(t *testing.T) {
	tests := map[string]string{
		"TestX":                 "TestX.yaml",
		"TestX/case_1":          filepath.Join("TestX", "case_1.yaml"),
		"TestX/a:b*c?<d>|e\\f":  filepath.Join("TestX", "a_b_c__d__e_f.yaml"),
		"TestX/../../etc":       filepath.Join("TestX", "__", "__", "etc.yaml"),
		"TestX/#01":             filepath.Join("TestX", "_01.yaml"),
		"TestX/Ünïcode_and.dot": filepath.Join("TestX", "_n_code_and.dot.yaml"),
	}
	for name, want := range tests {
		if got := cassetteFileName(name); got != want {
			t.Errorf("cassetteFileName(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestRecordModeFromEnvironment(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.yaml")
	tests := []struct {
		name    string
		opts    []CassetteOption
		want    RecordMode
		wantErr string
	}{
		{"unset replays", []CassetteOption{env()}, RecordNone, ""},
		{"missing", []CassetteOption{env(RecordEnv, "missing")}, RecordMissing, ""},
		{"all", []CassetteOption{env(RecordEnv, "all")}, RecordAll, ""},
		{"CI may replay", []CassetteOption{env("CI", "true")}, RecordNone, ""},
		{"option overrides environment", []CassetteOption{env(RecordEnv, "all"), WithRecordMode(RecordNone)}, RecordNone, ""},
		{"bad value", []CassetteOption{env(RecordEnv, "yes")}, 0, `AGENTCHECK_RECORD="yes": want missing, all, or empty`},
		{"CI refuses", []CassetteOption{env(RecordEnv, "missing", "CI", "true")}, 0, "recording (AGENTCHECK_RECORD=missing) refused because CI=true"},
		{"CI refuses the option too", []CassetteOption{env("CI", "1"), WithRecordMode(RecordAll)}, 0, "refused because CI=true"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := NewRecorder(path, tt.opts...)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if rec.Mode() != tt.want {
				t.Errorf("mode = %v, want %v", rec.Mode(), tt.want)
			}
		})
	}
}

func TestRecordMissingWritesOnlyWhatIsNew(t *testing.T) {
	srv, calls := chatServer(t)
	path := filepath.Join(t.TempDir(), "missing.yaml")
	session := func(questions ...string) []string {
		rec, err := NewRecorder(path, WithRecordMode(RecordMissing), env())
		if err != nil {
			t.Fatal(err)
		}
		c := openaiClient(srv.URL, "sk-x", rec.Client(nil))
		var got []string
		for _, q := range questions {
			resp, err := ask(t, c, q, "v1")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, resp.Choices[0].Message.Content)
		}
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
		return got
	}

	session("a")
	before, _ := os.ReadFile(path)
	stat, _ := os.Stat(path)
	if got := session("a"); got[0] != "answer 1" {
		t.Errorf("replayed %q, want answer 1", got[0])
	}
	after, _ := os.ReadFile(path)
	stat2, _ := os.Stat(path)
	if !bytes.Equal(before, after) || !stat.ModTime().Equal(stat2.ModTime()) {
		t.Error("a run that recorded nothing rewrote the cassette")
	}
	if got := session("a", "b", "a"); !cmp.Equal(got, []string{"answer 1", "answer 2", "answer 3"}) {
		t.Errorf("mixed run = %q", got)
	}
	if calls.Load() != 3 {
		t.Errorf("server saw %d calls, want 3", calls.Load())
	}
	c, err := cassette.Load(strings.TrimSuffix(path, ".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []int
	for _, it := range c.Interactions {
		ids = append(ids, it.ID)
	}
	if !cmp.Equal(ids, []int{0, 1, 2}) {
		t.Errorf("interaction ids = %v, want 0 1 2", ids)
	}
}

func TestRecordAllReplacesTheOldInteractions(t *testing.T) {
	srv, calls := chatServer(t)
	path := filepath.Join(t.TempDir(), "all.yaml")
	for _, mode := range []RecordMode{RecordMissing, RecordAll} {
		rec, _ := NewRecorder(path, WithRecordMode(mode), env())
		c := openaiClient(srv.URL, "sk-x", rec.Client(nil))
		for _, q := range []string{"q1", "q2"} {
			if _, err := ask(t, c, q, "v1"); err != nil {
				t.Fatal(err)
			}
		}
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if calls.Load() != 4 {
		t.Errorf("server saw %d calls, want 4: RecordAll must not replay", calls.Load())
	}
	c, err := cassette.Load(strings.TrimSuffix(path, ".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var answers []string
	for _, it := range c.Interactions {
		answers = append(answers, it.Response.Body[strings.Index(it.Response.Body, "answer"):][:8])
	}
	if !cmp.Equal(answers, []string{"answer 3", "answer 4"}) {
		t.Errorf("cassette answers = %q, want the re-recorded answer 3 and answer 4", answers)
	}
}

func TestRecordAllKeepsWhatOthersAddedMeanwhile(t *testing.T) {
	srv, _ := chatServer(t)
	path := filepath.Join(t.TempDir(), "merge.yaml")
	record := func(rec *Recorder, q string) {
		if _, err := ask(t, openaiClient(srv.URL, "sk-x", rec.Client(nil)), q, "v1"); err != nil {
			t.Fatal(err)
		}
	}
	first, _ := NewRecorder(path, WithRecordMode(RecordMissing), env())
	record(first, "old")
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}

	all, _ := NewRecorder(path, WithRecordMode(RecordAll), env())
	other, _ := NewRecorder(path, WithRecordMode(RecordMissing), env())
	record(other, "other")
	if err := other.Close(); err != nil {
		t.Fatal(err)
	}
	record(all, "old")
	if err := all.Close(); err != nil {
		t.Fatal(err)
	}

	c, err := cassette.Load(strings.TrimSuffix(path, ".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range c.Interactions {
		q := it.Request.Body[strings.Index(it.Request.Body, `"content":"`)+11:]
		q = q[strings.Index(q, `"content":"`)+11:]
		got = append(got, q[:strings.IndexByte(q, '"')]+" -> "+it.Response.Body[strings.Index(it.Response.Body, "answer"):][:8])
	}
	want := []string{"other -> answer 2", "old -> answer 3"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cassette after a re-recording (-want +got):\n%s", diff)
	}
}

func TestRecorderReplaysGoVCRRecordings(t *testing.T) {
	srv, _ := chatServer(t)
	name := filepath.Join(t.TempDir(), "govcr")
	vcr, err := recorder.New(name, recorder.WithMode(recorder.ModeRecordOnly))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ask(t, openaiClient(srv.URL, "sk-x", vcr.GetDefaultClient()), "recorded by go-vcr", "v1"); err != nil {
		t.Fatal(err)
	}
	if err := vcr.Stop(); err != nil {
		t.Fatal(err)
	}
	rec, err := NewRecorder(name+".yaml", env(), WithUpstream(offline(t)))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := ask(t, openaiClient(srv.URL, "", rec.Client(nil)), "recorded by go-vcr", "v1")
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Choices[0].Message.Content; got != "answer 1" {
		t.Errorf("replayed %q, want answer 1", got)
	}
}

func TestRecorderRecordsOnlySuccessfulAnswers(t *testing.T) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch calls.Add(1) {
		case 1:
			http.Error(w, "overloaded", http.StatusServiceUnavailable)
		case 2:
			w.Header().Set("Retry-After", "0")
			http.Error(w, "slow down", http.StatusTooManyRequests)
		default:
			fmt.Fprint(w, "ok")
		}
	}))
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "status.yaml")
	rec, _ := NewRecorder(path, WithRecordMode(RecordMissing), env())
	var codes []int
	for range 3 {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/thing", nil)
		resp, err := rec.Client(nil).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		codes = append(codes, resp.StatusCode)
	}
	if !cmp.Equal(codes, []int{503, 429, 200}) {
		t.Errorf("caller saw %v, want the failures passed through then 200", codes)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	c, err := cassette.Load(strings.TrimSuffix(path, ".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Interactions) != 1 || c.Interactions[0].Response.Code != 200 {
		t.Fatalf("cassette = %+v, want the 200 only", c.Interactions)
	}
	// The 200 fills the first slot: a replay gets it on the first try.
	rec, _ = NewRecorder(path, env(), WithUpstream(offline(t)))
	req, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1:1/thing", nil)
	resp, err := rec.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || string(b) != "ok" {
		t.Errorf("replay = %d %q, want 200 ok", resp.StatusCode, b)
	}
}

func TestRecorderUserRedactions(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Session-Token", "tok-RESP-1")
		fmt.Fprint(w, `{"echo":"hello","token":"tok-RESP-2"}`)
	}))
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "redact.yaml")
	opts := []CassetteOption{
		env(),
		WithRedactHeaders("x-session-token"),
		WithRedactJSON("user", "messages.*.name", "token"),
		WithRedactPattern(regexp.MustCompile(`acct-[0-9]+`)),
	}
	send := func(rec *Recorder, user, name, acct string) (*http.Response, error) {
		body := fmt.Sprintf(`{"user":%q,"messages":[{"role":"user","name":%q,"content":"account %s"}]}`, user, name, acct)
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/chat/completions?account="+acct, strings.NewReader(body))
		req.Header.Set("X-Session-Token", "tok-REQ-3")
		return rec.RoundTrip(req)
	}

	rec, _ := NewRecorder(path, append(opts, WithRecordMode(RecordMissing))...)
	resp, err := send(rec, "user-PII-1", "Alice-PII", "acct-991")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(b), "tok-RESP-2") {
		t.Errorf("the live caller must get the real answer, got %s", b)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	for _, secret := range []string{"user-PII-1", "Alice-PII", "acct-991", "tok-REQ-3", "tok-RESP-1", "tok-RESP-2"} {
		if bytes.Contains(raw, []byte(secret)) {
			t.Errorf("cassette contains %q:\n%s", secret, raw)
		}
	}
	if !bytes.Contains(raw, []byte("[REDACTED]")) || !bytes.Contains(raw, []byte("hello")) {
		t.Errorf("cassette should keep the rest and mark redactions:\n%s", raw)
	}

	// Redacted values do not take part in matching.
	rec, _ = NewRecorder(path, append(opts, WithUpstream(offline(t)))...)
	resp, err = send(rec, "user-PII-2", "Bob", "acct-7")
	if err != nil {
		t.Fatalf("a request differing only in redacted values must replay: %v", err)
	}
	b, _ = io.ReadAll(resp.Body)
	if want := `{"echo":"hello","token":"[REDACTED]"}`; string(b) != want {
		t.Errorf("replayed body = %s, want %s", b, want)
	}
}

func TestRecordClientWrapsTheAgentsClient(t *testing.T) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"city":%q,"temp":%d}`, r.URL.Query().Get("city"), 10+calls.Add(1))
	}))
	defer srv.Close()
	dir := t.TempDir()
	var viaAgentTransport atomic.Int64
	agent := &http.Client{
		Timeout: 7e9,
		Transport: roundTripFunc(func(req *http.Request) (*http.Response, error) {
			viaAgentTransport.Add(1)
			return http.DefaultTransport.RoundTrip(req)
		}),
	}
	weather := func(c *http.Client, city string) string {
		resp, err := c.Get(srv.URL + "/weather?city=" + city)
		if err != nil {
			return "error: " + err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}

	t.Run("record", func(t *testing.T) {
		c := RecordClient(t, agent, WithCassetteDir(dir), WithRecordMode(RecordMissing), env())
		if c == agent || c.Timeout != agent.Timeout {
			t.Errorf("want a copy keeping the timeout, got %+v", c)
		}
		for _, city := range []string{"Paris", "Oslo"} {
			weather(c, city)
		}
	})
	if viaAgentTransport.Load() != 2 {
		t.Errorf("recording went %d times through the agent's transport, want 2", viaAgentTransport.Load())
	}
	t.Run("replay", func(t *testing.T) {
		agent.Transport = offline(t)
		rec, err := NewRecorder(filepath.Join(dir, "TestRecordClientWrapsTheAgentsClient", "record.yaml"), env())
		if err != nil {
			t.Fatal(err)
		}
		c := rec.Client(agent)
		got := []string{weather(c, "Oslo"), weather(c, "Paris")}
		want := []string{`{"city":"Oslo","temp":12}`, `{"city":"Paris","temp":11}`}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("agent replay (-want +got):\n%s", diff)
		}
	})
}

func TestRecorderFailedWriteKeepsTheOldCassette(t *testing.T) {
	srv, _ := chatServer(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "atomic.yaml")
	record := func(q string, opts ...CassetteOption) error {
		rec, _ := NewRecorder(path, append(opts, WithRecordMode(RecordMissing), env())...)
		if _, err := ask(t, openaiClient(srv.URL, "sk-x", rec.Client(nil)), q, "v1"); err != nil {
			t.Fatal(err)
		}
		return rec.Close()
	}
	if err := record("first"); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)

	diskFull := errors.New("no space left on device")
	err := record("second", func(c *cassetteConfig) {
		c.syncFile = func(f *os.File) error { return diskFull }
	})
	if !errors.Is(err, diskFull) || !strings.Contains(err.Error(), "the old one is intact") {
		t.Fatalf("Close = %v, want the write error", err)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Errorf("a failed write changed the cassette:\n%s", after)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %q, want the cassette only (no temporary file)", names)
	}
}

func TestRecorderParallelUse(t *testing.T) {
	srv, _ := chatServer(t)
	dir := t.TempDir()
	t.Run("group", func(t *testing.T) {
		for i := range 4 {
			t.Run(strconv.Itoa(i), func(t *testing.T) {
				t.Parallel()
				rec := Cassette(t, WithCassetteDir(dir), WithRecordMode(RecordMissing), env())
				c := openaiClient(srv.URL, "sk-x", rec.Client(nil))
				var wg sync.WaitGroup
				for j := range 8 {
					wg.Go(func() {
						if _, err := ask(t, c, fmt.Sprintf("q%d", j%4), "v1"); err != nil {
							t.Error(err)
						}
					})
				}
				wg.Wait()
			})
		}
	})
	// Each subtest saved its own cassette when it ended; replay them
	// concurrently too.
	for i := range 4 {
		p := filepath.Join(dir, "TestRecorderParallelUse", "group", strconv.Itoa(i)+".yaml")
		c, err := cassette.Load(strings.TrimSuffix(p, ".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Interactions) != 8 {
			t.Errorf("%s holds %d interactions, want 8", p, len(c.Interactions))
		}
		rec, _ := NewRecorder(p, env(), WithUpstream(offline(t)))
		cl := openaiClient("http://127.0.0.1:1", "", rec.Client(nil))
		var wg sync.WaitGroup
		for j := range 8 {
			wg.Go(func() {
				if _, err := ask(t, cl, fmt.Sprintf("q%d", j%4), "v1"); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
	}
}

// TestRecorderProcessesMerge runs several go test processes that record into
// one cassette at once, as go test does with packages sharing testdata.
func TestRecorderProcessesMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("starts subprocesses")
	}
	srv, _ := chatServer(t)
	path := filepath.Join(t.TempDir(), "shared.yaml")
	const procs, each = 4, 5
	var wg sync.WaitGroup
	for p := range procs {
		wg.Go(func() {
			cmd := exec.Command(os.Args[0], "-test.run=^TestRecorderChildProcess$", "-test.count=1")
			cmd.Env = append(os.Environ(), fmt.Sprintf("AGENTCHECK_TEST_CHILD=%s|%s|%d|%d", path, srv.URL, p, each))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("child %d: %v\n%s", p, err, out)
			}
		})
	}
	wg.Wait()
	c, err := cassette.Load(strings.TrimSuffix(path, ".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, it := range c.Interactions {
		seen[it.Request.Body] = true
	}
	if len(c.Interactions) != procs*each || len(seen) != procs*each {
		t.Errorf("cassette holds %d interactions (%d distinct), want %d: a process's recording was lost", len(c.Interactions), len(seen), procs*each)
	}
}

func TestRecorderChildProcess(t *testing.T) {
	spec := os.Getenv("AGENTCHECK_TEST_CHILD")
	if spec == "" {
		t.Skip("run by TestRecorderProcessesMerge")
	}
	parts := strings.Split(spec, "|")
	each, _ := strconv.Atoi(parts[3])
	// Several recorders per process, so that in-process saves contend too.
	var wg sync.WaitGroup
	for r := range 2 {
		wg.Go(func() {
			rec, err := NewRecorder(parts[0], WithRecordMode(RecordMissing), env())
			if err != nil {
				t.Error(err)
				return
			}
			for i := r; i < each; i += 2 {
				body := fmt.Sprintf(`{"process":%s,"n":%d}`, parts[2], i)
				req, _ := http.NewRequest(http.MethodPost, parts[1]+"/v1/chat/completions", strings.NewReader(body))
				resp, err := rec.RoundTrip(req)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
			}
			if err := rec.Close(); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}

func TestCanonicalJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{` {"b" : 1, "a": {"d": [true, false, null], "c": -1.5e3}} `, `{"a":{"c":-1.5e3,"d":[true,false,null]},"b":1}`},
		{`[]`, `[]`},
		{`{}`, `{}`},
		{`"a \"quoted\" string"`, `"a \"quoted\" string"`},
		{`{"b":"x\\", "a":"q\"r\\\"s"}`, `{"a":"q\"r\\\"s","b":"x\\"}`},
		// Strings by what they decode to: an escape matches its character.
		{`{"z":{},"y":[{}],"x":"\u00e9"}`, `{"x":"é","y":[{}],"z":{}}`},
	}
	for _, tt := range tests {
		got, ok := appendCanonicalJSON(nil, []byte(tt.in))
		if !ok || string(got) != tt.want {
			t.Errorf("canonical(%s) = %s, %v; want %s", tt.in, got, ok, tt.want)
		}
	}
	for _, bad := range []string{``, `{`, `{"a" 1}`, `[1,]`, `{"a":1}x`, `tru`, `"open`, `{"a":1,}`, `plain text`} {
		if got, ok := appendCanonicalJSON(nil, []byte(bad)); ok {
			t.Errorf("canonical(%q) = %s, want not JSON", bad, got)
		}
	}
}

// A committed cassette replays with no network and no key; the answer
// carries the cassette's path in a header.
func ExampleNewRecorder() {
	// WithRecordMode pins replay here; tests usually let AGENTCHECK_RECORD
	// decide.
	rec, err := NewRecorder("testdata/cassettes/ExampleNewRecorder.yaml", WithRecordMode(RecordNone))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rec.Close()
	// Key order and whitespace do not matter, nor does the host.
	body := `{ "seed": 1, "model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Is 2+2 4?"}] }`
	resp, err := rec.Client(nil).Post("http://127.0.0.1:1/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(resp.Body)
	fmt.Println(string(answer))
	fmt.Println(resp.Header.Get(CassetteHeader))
	// Output:
	// {"choices":[{"message":{"role":"assistant","content":"{\"verdict\":1,\"reason\":\"4 is right\"}"}}]}
	// testdata/cassettes/ExampleNewRecorder.yaml
}

// Two recorders of one file re-recording at once against a server that
// answers identical requests identically (a panel's judges in one test, say)
// must not take each other's fresh answers for the old ones and drop them.
func TestRecordAllKeepsIdenticalAnswersOfAnotherRecorder(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-4o-mini",`+
			`"choices":[{"index":0,"message":{"role":"assistant","content":"same"},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":10,"completion_tokens":2,"total_tokens":12}}`)
	}))
	t.Cleanup(srv.Close)
	path := filepath.Join(t.TempDir(), "twice.yaml")
	record := func(recs ...*Recorder) {
		for _, rec := range recs {
			if _, err := ask(t, openaiClient(srv.URL, "sk-x", rec.Client(nil)), "q", "v1"); err != nil {
				t.Fatal(err)
			}
		}
		for _, rec := range recs {
			if err := rec.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
	open := func() *Recorder {
		rec, err := NewRecorder(path, WithRecordMode(RecordAll), env())
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	record(open(), open())
	record(open(), open()) // the re-recording: both load the two old answers
	c, err := cassette.Load(strings.TrimSuffix(path, ".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Interactions) != 2 {
		t.Fatalf("cassette holds %d interactions after re-recording, want the 2 fresh ones", len(c.Interactions))
	}
	replay, _ := NewRecorder(path, env())
	for i := 0; i < 2; i++ {
		if _, err := ask(t, openaiClient("http://127.0.0.1:9", "", replay.Client(nil)), "q", "v1"); err != nil {
			t.Fatalf("replay of identical request #%d: %v", i+1, err)
		}
	}
}

// TestExactKeyFactorsRequestKey checks that requests with the same exact key
// have the same request key, which the replay's exact index relies on, and
// that the exact key ignores only the scheme and host.
func TestExactKeyFactorsRequestKey(t *testing.T) {
	body := []byte(`{"model": "m", "messages": [{"role": "user", "content": "hi"}]}`)
	urls := []string{
		"http://127.0.0.1:9/v1/chat/completions",
		"https://api.example.com/v1/chat/completions",
		"http://127.0.0.1:9/v1/chat/completions?b=2&a=1",
		"http://h/v1/chat/completions?b=2&a=1",
		"http://127.0.0.1:9/v2/chat/completions",
		"http://127.0.0.1:9/v1/chat%2Fcompletions",
		"/v1/chat/completions",
		"http://[::1/v1/chat/completions",
		"%zz",
	}
	for _, a := range urls {
		for _, b := range urls {
			ea, eb := string(exactKey(nil, "POST", a, body)), string(exactKey(nil, "POST", b, body))
			ka, kb := requestKey("POST", a, body), requestKey("POST", b, body)
			if ea == eb && ka != kb {
				t.Errorf("%q and %q: same exact key, request keys differ:\n%s\n%s", a, b, ka, kb)
			}
		}
	}
	same := func(a, b string) bool {
		return string(exactKey(nil, "POST", a, body)) == string(exactKey(nil, "POST", b, body))
	}
	if !same(urls[0], urls[1]) {
		t.Errorf("the host changed the exact key of %q", urls[0])
	}
	if same(urls[0], urls[4]) || same(urls[0], urls[2]) || same(urls[0], urls[5]) {
		t.Errorf("exact key ignores more than the scheme and host")
	}
	if string(exactKey(nil, "POST", urls[0], body)) == string(exactKey(nil, "POST", urls[0], append(slices.Clone(body), ' '))) {
		t.Errorf("exact key ignores the body's bytes")
	}
}
