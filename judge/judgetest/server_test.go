package judgetest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck/judge/judgetest"
	"go.uber.org/goleak"
)

const goalRequest = `{"model":"m1","messages":[{"role":"system","content":"judge"},{"role":"user","content":"did it work?"}],
"temperature":0,"seed":7,"response_format":{"type":"json_schema","json_schema":{"name":"goal","strict":true,
"schema":{"type":"object","additionalProperties":false,"required":["achieved","reason","tags","level","note"],
"properties":{"achieved":{"type":"boolean"},"reason":{"type":"string"},"tags":{"type":"array","minItems":2,"items":{"type":"string"}},
"level":{"type":"string","enum":["low","high"]},"note":{"type":["null","integer"]}}}}}}`

func post(t *testing.T, ctx context.Context, url, body string) (*http.Response, []byte, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/chat/completions", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer sk-test")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return resp, data, err
}

type completion struct {
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Content *string `json:"content"`
			Refusal *string `json:"refusal"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
		TotalTokens      int `json:"total_tokens"`
	} `json:"usage"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

func decode(t *testing.T, data []byte) completion {
	t.Helper()
	var c completion
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatalf("response %s: %v", data, err)
	}
	return c
}

func TestMinimalAnswerFitsTheSchemaAndRequestsAreRecorded(t *testing.T) {
	checkGoroutines(t)
	s := judgetest.Start(t, nil)
	if !strings.HasPrefix(s.URL, "http://127.0.0.1:") && !strings.HasPrefix(s.URL, "http://[::1]:") {
		t.Errorf("URL %s is not on loopback", s.URL)
	}
	resp, data, err := post(t, context.Background(), s.URL, goalRequest)
	if err != nil {
		t.Fatal(err)
	}
	c := decode(t, data)
	if resp.StatusCode != 200 || len(c.Choices) != 1 || c.Choices[0].Message.Content == nil {
		t.Fatalf("status %d, body %s", resp.StatusCode, data)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(*c.Choices[0].Message.Content), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"achieved": false, "reason": "", "tags": []any{"", ""}, "level": "low", "note": 0.0}
	if g, w := mustJSON(t, got), mustJSON(t, want); g != w {
		t.Errorf("minimal answer %s, want %s", g, w)
	}
	if c.Model != "m1" || c.Choices[0].FinishReason != "stop" {
		t.Errorf("model %q finish %q", c.Model, c.Choices[0].FinishReason)
	}
	if c.Usage.PromptTokens != (len("judge")+len("did it work?")+3)/4 || c.Usage.TotalTokens != c.Usage.PromptTokens+c.Usage.CompletionTokens || c.Usage.CompletionTokens == 0 {
		t.Errorf("usage %+v", c.Usage)
	}

	reqs := s.Requests()
	if len(reqs) != 1 || s.Count() != 1 {
		t.Fatalf("recorded %d, count %d", len(reqs), s.Count())
	}
	r := reqs[0]
	if r.Seq != 1 || r.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer sk-test" || r.SchemaName() != "goal" {
		t.Errorf("recorded %d %s %q %q", r.Seq, r.Path, r.Header.Get("Authorization"), r.SchemaName())
	}
	if v, ok := r.Field("temperature"); !ok || string(v) != "0" {
		t.Errorf("Field(temperature) = %s, %v", v, ok)
	}
	if _, ok := r.Field("top_p"); ok {
		t.Error("Field reports a member the body lacks")
	}
	if r.Message(-1) != "did it work?" || r.Message(0) != "judge" || r.Message(5) != "" || *r.Chat.Seed != 7 {
		t.Errorf("messages %q %q, seed %v", r.Message(0), r.Message(-1), r.Chat.Seed)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestRepliesAndFaults(t *testing.T) {
	checkGoroutines(t)
	for _, c := range []struct {
		name   string
		reply  judgetest.Reply
		status int
		check  func(t *testing.T, resp *http.Response, c completion)
	}{
		{"json", judgetest.JSON(map[string]int{"a": 1}), 200, func(t *testing.T, _ *http.Response, c completion) {
			if *c.Choices[0].Message.Content != `{"a":1}` {
				t.Errorf("content %q", *c.Choices[0].Message.Content)
			}
		}},
		{"raw json", judgetest.JSON(json.RawMessage(`{"b": 2}`)), 200, func(t *testing.T, _ *http.Response, c completion) {
			if *c.Choices[0].Message.Content != `{"b": 2}` {
				t.Errorf("content %q", *c.Choices[0].Message.Content)
			}
		}},
		{"malformed", judgetest.MalformedJSON(), 200, func(t *testing.T, _ *http.Response, c completion) {
			if json.Valid([]byte(*c.Choices[0].Message.Content)) {
				t.Errorf("content %q is valid JSON", *c.Choices[0].Message.Content)
			}
		}},
		{"refusal", judgetest.Refusal("I can't help with that."), 200, func(t *testing.T, _ *http.Response, c completion) {
			m := c.Choices[0].Message
			if m.Refusal == nil || *m.Refusal != "I can't help with that." || m.Content != nil {
				t.Errorf("refusal %v content %v", m.Refusal, m.Content)
			}
		}},
		{"truncated", judgetest.Truncated(`{"a":`), 200, func(t *testing.T, _ *http.Response, c completion) {
			if c.Choices[0].FinishReason != "length" || *c.Choices[0].Message.Content != `{"a":` {
				t.Errorf("%+v", c.Choices[0])
			}
		}},
		{"no choices", judgetest.NoChoices(), 200, func(t *testing.T, _ *http.Response, c completion) {
			if c.Choices == nil || len(c.Choices) != 0 {
				t.Errorf("choices %v, want []", c.Choices)
			}
		}},
		{"model", judgetest.Reply{Content: "{}", Model: "m1-2024"}, 200, func(t *testing.T, _ *http.Response, c completion) {
			if c.Model != "m1-2024" {
				t.Errorf("model %q", c.Model)
			}
		}},
		{"429 with Retry-After", judgetest.TooManyRequests(1500 * time.Millisecond), 429, func(t *testing.T, resp *http.Response, c completion) {
			if resp.Header.Get("Retry-After") != "2" || c.Error == nil {
				t.Errorf("Retry-After %q, error %v", resp.Header.Get("Retry-After"), c.Error)
			}
		}},
		{"429 without Retry-After", judgetest.TooManyRequests(0), 429, func(t *testing.T, resp *http.Response, c completion) {
			if _, ok := resp.Header["Retry-After"]; ok {
				t.Error("Retry-After sent")
			}
		}},
		{"retry-after-ms", judgetest.TooManyRequests(0).WithHeader("retry-after-ms", "20"), 429, func(t *testing.T, resp *http.Response, c completion) {
			if resp.Header.Get("Retry-After-Ms") != "20" {
				t.Errorf("headers %v", resp.Header)
			}
		}},
		{"500", judgetest.Status(500), 500, func(t *testing.T, _ *http.Response, c completion) {
			if c.Error == nil || c.Error.Message != "Internal Server Error" {
				t.Errorf("error %+v", c.Error)
			}
		}},
		{"503", judgetest.Status(503), 503, nil},
		{"raw body", judgetest.Reply{Body: "<html>bad gateway</html>", Status: 502}, 502, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := judgetest.Start(t, judgetest.Always(c.reply))
			resp, data, err := post(t, context.Background(), s.URL, goalRequest)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, c.status, data)
			}
			if c.check != nil {
				c.check(t, resp, decode(t, data))
			}
		})
	}
}

func TestDroppedConnections(t *testing.T) {
	checkGoroutines(t)
	s := judgetest.Start(t, judgetest.Sequence(judgetest.Drop(), judgetest.JSON(map[string]int{"n": 1}).CutMidBody()))
	if _, _, err := post(t, context.Background(), s.URL, goalRequest); err == nil {
		t.Error("a dropped connection gave no error")
	}
	resp, data, err := post(t, context.Background(), s.URL, goalRequest)
	if err == nil || resp.StatusCode != 200 || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("cut body: %v, %q", err, data)
	}
}

func TestSequenceThenAndExhaustion(t *testing.T) {
	checkGoroutines(t)
	s := judgetest.Start(t, judgetest.BySchema(map[string]judgetest.Script{
		"goal":  judgetest.Sequence(judgetest.Status(503)).Then(judgetest.Always(judgetest.Content("{}"))),
		"other": judgetest.Sequence(),
	}))
	var statuses []int
	for range 3 {
		resp, _, err := post(t, context.Background(), s.URL, goalRequest)
		if err != nil {
			t.Fatal(err)
		}
		statuses = append(statuses, resp.StatusCode)
	}
	if mustJSON(t, statuses) != "[503,200,200]" {
		t.Errorf("statuses %v", statuses)
	}
	other := strings.Replace(goalRequest, `"name":"goal"`, `"name":"other"`, 1)
	resp, data, _ := post(t, context.Background(), s.URL, other)
	if resp.StatusCode != 400 || !strings.Contains(string(data), "sequence of 0 replies is used up: no reply for request 4") {
		t.Errorf("exhausted: %d %s", resp.StatusCode, data)
	}
	unknown := strings.Replace(goalRequest, `"name":"goal"`, `"name":"nope"`, 1)
	resp, data, _ = post(t, context.Background(), s.URL, unknown)
	if resp.StatusCode != 400 || !strings.Contains(string(data), `no script for schema \"nope\"`) {
		t.Errorf("unknown schema: %d %s", resp.StatusCode, data)
	}
}

func TestBadRequests(t *testing.T) {
	checkGoroutines(t)
	s := judgetest.Start(t, nil)
	for _, c := range []struct {
		method, path, body string
		status             int
		want               string
	}{
		{"POST", "/v1/embeddings", "{}", 404, "no endpoint POST /v1/embeddings"},
		{"GET", "/v1/chat/completions", "", 405, "only POST"},
		{"POST", "/v1/chat/completions", "not json", 400, "not a chat completion request"},
		{"POST", "/chat/completions", goalRequest, 200, `"choices"`},
	} {
		base := strings.TrimSuffix(s.URL, "/v1")
		req, _ := http.NewRequest(c.method, base+c.path, strings.NewReader(c.body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || !bytes.Contains(data, []byte(c.want)) {
			t.Errorf("%s %s: %d %s, want %d with %q", c.method, c.path, resp.StatusCode, data, c.status, c.want)
		}
	}
	if s.Count() != 2 {
		t.Errorf("count %d: the undecodable request and the good one count, the wrong endpoints do not", s.Count())
	}
}

func TestLatencyHonoursTheClientAndClose(t *testing.T) {
	checkGoroutines(t)
	s := judgetest.NewServer(judgetest.Always(judgetest.Content("{}").After(time.Hour)))
	defer s.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, _, err := post(t, ctx, s.URL, goalRequest); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the deadline", err)
	}

	// A request still waiting when the server closes ends with the server.
	done := make(chan error, 1)
	go func() {
		_, _, err := post(t, context.Background(), s.URL, goalRequest)
		done <- err
	}()
	for s.Count() < 2 {
		time.Sleep(time.Millisecond)
	}
	s.Close()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a reply cut short by Close came back as a success")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close left a slow reply hanging")
	}
	s.Close() // twice is fine
}

func TestLatencyDelaysTheReply(t *testing.T) {
	s := judgetest.Start(t, judgetest.Always(judgetest.Content("{}").After(30*time.Millisecond)))
	start := time.Now()
	if _, _, err := post(t, context.Background(), s.URL, goalRequest); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 30*time.Millisecond {
		t.Errorf("reply after %v, before its latency", d)
	}
}

// checkGoroutines fails t if goroutines started after it outlive t and its
// cleanups (the server's Close among them): call it first.
func checkGoroutines(t *testing.T) {
	opt := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, opt) })
}
