package recorder

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentcheck/agentcheck/secrets"
	"github.com/google/go-cmp/cmp"
	openai "github.com/sashabaranov/go-openai"
	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
	vcr "gopkg.in/dnaeon/go-vcr.v4/pkg/recorder"
)

// env stands in for the process environment, so tests neither depend on nor
// change AGENTCHECK_RECORD and CI.
func env(kv ...string) Option {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return WithEnv(func(k string) string { return m[k] })
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
		User:     PromptVersionPrefix + promptVersion,
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

	rec, err := Open(path, WithMode(RecordMissing), env())
	if err != nil {
		t.Fatal(err)
	}
	resp, err := ask(t, openaiClient(srv.URL, key, rec.Client()), "Is 2+2 4?", "goal-v1")
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
	rec, err = Open(path, env(), WithUpstream(offline(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	resp, err = ask(t, openaiClient("http://127.0.0.1:1", "", rec.Client()), "Is 2+2 4?", "goal-v1")
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

	rec, _ := Open(path, WithMode(RecordMissing), env())
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
			rec, _ := Open(path, env(), WithUpstream(offline(t)))
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
		c := openaiClient(srv.URL, "sk-x", rec.Client())
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

	rec, _ := Open(path, WithMode(RecordMissing), env())
	recorded := run(rec, 3)
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	want := []string{"answer 1", "answer 2", "answer 3"}
	if diff := cmp.Diff(want, recorded); diff != "" {
		t.Fatalf("recording run (-want +got):\n%s", diff)
	}

	rec, _ = Open(path, env(), WithUpstream(offline(t)))
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

func TestRecorderReplaysGoVCRRecordings(t *testing.T) {
	srv, _ := chatServer(t)
	name := filepath.Join(t.TempDir(), "govcr")
	vcr, err := vcr.New(name, vcr.WithMode(vcr.ModeRecordOnly))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ask(t, openaiClient(srv.URL, "sk-x", vcr.GetDefaultClient()), "recorded by go-vcr", "v1"); err != nil {
		t.Fatal(err)
	}
	if err := vcr.Stop(); err != nil {
		t.Fatal(err)
	}
	rec, err := Open(name+".yaml", env(), WithUpstream(offline(t)))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := ask(t, openaiClient(srv.URL, "", rec.Client()), "recorded by go-vcr", "v1")
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Choices[0].Message.Content; got != "answer 1" {
		t.Errorf("replayed %q, want answer 1", got)
	}
}

// Every answer is recorded, errors included, and replayed as it came: a
// judge that failed when recording fails the same way on replay.
func TestRecorderRecordsErrorAnswers(t *testing.T) {
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
	get := func(rec *Recorder) (got []string) {
		for range 3 {
			req, _ := http.NewRequest(http.MethodGet, srv.URL+"/thing", nil)
			resp, err := rec.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			got = append(got, fmt.Sprintf("%d %s", resp.StatusCode, strings.TrimSpace(string(b))))
		}
		return got
	}
	rec, _ := Open(path, WithMode(RecordMissing), env())
	want := []string{"503 overloaded", "429 slow down", "200 ok"}
	if got := get(rec); !cmp.Equal(got, want) {
		t.Errorf("recording: caller saw %q, want %q", got, want)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	c, err := cassette.Load(strings.TrimSuffix(path, ".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var codes []int
	for _, it := range c.Interactions {
		codes = append(codes, it.Response.Code)
	}
	if !cmp.Equal(codes, []int{503, 429, 200}) {
		t.Fatalf("cassette holds %v, want every answer in the order it came", codes)
	}
	rec, _ = Open(path, env(), WithUpstream(offline(t)))
	if got := get(rec); !cmp.Equal(got, want) {
		t.Errorf("replay: caller saw %q, want what the recording saw, %q", got, want)
	}
}

func TestRecorderUserRedactions(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Session-Token", "tok-RESP-1")
		fmt.Fprint(w, `{"echo":"hello","token":"tok-RESP-2"}`)
	}))
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "redact.yaml")
	opts := []Option{
		env(),
		WithRedaction(secrets.Rules{Headers: []string{"x-session-token"}, JSONPaths: []string{"user"}}),
		WithRedaction(secrets.Rules{JSONPaths: []string{"messages.*.name", "token"}, Patterns: []string{`acct-[0-9]+`}}), // they add up
	}
	send := func(rec *Recorder, user, name, acct string) (*http.Response, error) {
		body := fmt.Sprintf(`{"user":%q,"messages":[{"role":"user","name":%q,"content":"account %s"}]}`, user, name, acct)
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/chat/completions?account="+acct, strings.NewReader(body))
		req.Header.Set("X-Session-Token", "tok-REQ-3")
		return rec.RoundTrip(req)
	}

	rec, _ := Open(path, append(opts, WithMode(RecordMissing))...)
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
	rec, _ = Open(path, append(opts, WithUpstream(offline(t)))...)
	resp, err = send(rec, "user-PII-2", "Bob", "acct-7")
	if err != nil {
		t.Fatalf("a request differing only in redacted values must replay: %v", err)
	}
	b, _ = io.ReadAll(resp.Body)
	if want := `{"echo":"hello","token":"[REDACTED]"}`; string(b) != want {
		t.Errorf("replayed body = %s, want %s", b, want)
	}
}

func TestTransportWrapsTheAgentsClient(t *testing.T) {
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
		rec := ForTest(t, WithDir(dir), WithMode(RecordMissing), env())
		c := *agent
		c.Transport = rec.Transport(agent.Transport)
		for _, city := range []string{"Paris", "Oslo"} {
			weather(&c, city)
		}
	})
	if viaAgentTransport.Load() != 2 {
		t.Errorf("recording went %d times through the agent's transport, want 2", viaAgentTransport.Load())
	}
	t.Run("replay", func(t *testing.T) {
		agent.Transport = offline(t)
		rec, err := Open(filepath.Join(dir, CassetteFile("TestTransportWrapsTheAgentsClient/record")), env())
		if err != nil {
			t.Fatal(err)
		}
		c := &http.Client{Transport: rec.Transport(agent.Transport)}
		got := []string{weather(c, "Oslo"), weather(c, "Paris")}
		want := []string{`{"city":"Oslo","temp":12}`, `{"city":"Paris","temp":11}`}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("agent replay (-want +got):\n%s", diff)
		}
	})
}
