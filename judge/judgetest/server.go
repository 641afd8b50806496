// Package judgetest serves a scripted, OpenAI-compatible chat completions API
// on loopback for tests, as net/http/httptest serves a handler: a Script
// answers each structured-output request with JSON content, each request of
// an agent's model with tool calls or text (ToolCalls, Turns), with usage
// filled, or with a fault a real endpoint produces (429 with or without
// Retry-After, 5xx, malformed or schema-invalid content, refusals, truncated
// answers, empty choices, slow answers, dropped connections). ByRole lets one
// server play a scenario's agent model, simulated user and judge at once.
// The server records what it received so that tests can assert on bodies and
// headers.
package judgetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Bounds that keep a misbehaving test from exhausting memory.
const (
	maxBody     = 4 << 20 // largest request body accepted
	maxRecorded = 10000   // requests kept for Requests; Count counts all
)

// Request is a chat completion request as the server received it.
type Request struct {
	// Seq is the request's 1-based order of arrival.
	Seq    int
	Method string
	Path   string
	Header http.Header
	// Body is the raw request body; Chat the body decoded, zero when it does
	// not decode (the server then replies 400).
	Body []byte
	Chat openai.ChatCompletionRequest
}

// SchemaName is the name of the request's response_format json_schema, ""
// when the request asks for no schema.
func (r Request) SchemaName() string {
	if f := r.Chat.ResponseFormat; f != nil && f.JSONSchema != nil {
		return f.JSONSchema.Name
	}
	return ""
}

// Schema is the request's response_format json_schema schema, decoded; nil
// when there is none.
func (r Request) Schema() map[string]any {
	f := r.Chat.ResponseFormat
	if f == nil || f.JSONSchema == nil || f.JSONSchema.Schema == nil {
		return nil
	}
	raw, err := f.JSONSchema.Schema.MarshalJSON()
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
}

// Field is the raw value of a top-level member of the body, and whether the
// body has it. It sees what the decoded Chat cannot: go-openai drops a zero
// temperature, so only Field("temperature") tells 0 from absent.
func (r Request) Field(name string) (json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(r.Body, &m) != nil {
		return nil, false
	}
	v, ok := m[name]
	return v, ok
}

// Message is the content of the request's i-th message; a negative i counts
// from the end, so Message(-1) is the last one.
func (r Request) Message(i int) string {
	if i < 0 {
		i += len(r.Chat.Messages)
	}
	if i < 0 || i >= len(r.Chat.Messages) {
		return ""
	}
	return r.Chat.Messages[i].Content
}

// Reply is what the server does with one request. The zero Reply answers
// 200 with empty content; the constructors below build the usual ones.
type Reply struct {
	// Content is the assistant message's content: the JSON answer, or an
	// agent model's text. With ToolCalls and no Content, content is null.
	Content string
	// ToolCalls are the tool calls of an agent model's reply (see
	// ToolCalls); FinishReason then defaults to "tool_calls".
	ToolCalls []ToolCall
	// Refusal, when set, is the message's refusal, and content is null.
	Refusal string
	// FinishReason defaults to "stop", or "tool_calls" with ToolCalls.
	FinishReason string
	// NoChoices answers with an empty choices list.
	NoChoices bool
	// Model defaults to the request's model.
	Model string
	// Usage defaults to token counts estimated from the texts' lengths.
	Usage *openai.Usage

	// Status, when not 0 or 200, makes the reply an OpenAI-style error with
	// Message (default: the status text).
	Status  int
	Message string
	// Body, when set, is sent as the response body verbatim, with Status
	// (default 200), instead of a chat completion.
	Body string
	// Header is added to the response's headers.
	Header http.Header

	// Latency delays the reply; the wait ends early if the client gives up
	// or the server closes.
	Latency time.Duration
	// Drop closes the connection without replying; Cut sends the status,
	// headers and half the body, then closes the connection.
	Drop, Cut bool

	exhausted string // set by Sequence when it has no reply left
}

// JSON is a reply whose content is v marshalled as JSON; v may also be a
// json.RawMessage or a []byte of JSON, sent as it is.
func JSON(v any) Reply {
	switch v := v.(type) {
	case json.RawMessage:
		return Reply{Content: string(v)}
	case []byte:
		return Reply{Content: string(v)}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return Reply{Status: http.StatusInternalServerError, Message: "judgetest: script value does not marshal: " + err.Error()}
	}
	return Reply{Content: string(b)}
}

// Content is a reply with the given content, JSON or not.
func Content(s string) Reply { return Reply{Content: s} }

// MalformedJSON is a reply whose content is cut-off JSON.
func MalformedJSON() Reply { return Reply{Content: `{"reason": "the agent booked the`} }

// Refusal is a reply in which the model refuses, content null.
func Refusal(text string) Reply { return Reply{Refusal: text} }

// Truncated is a reply with finish_reason "length": the model ran out of
// tokens in the middle of content.
func Truncated(content string) Reply { return Reply{Content: content, FinishReason: "length"} }

// NoChoices is a reply with an empty choices list.
func NoChoices() Reply { return Reply{NoChoices: true} }

// Status is an OpenAI-style error reply with the given HTTP status.
func Status(code int) Reply { return Reply{Status: code} }

// TooManyRequests is a 429 reply; when after is positive it carries
// Retry-After in whole seconds, rounded up, as HTTP allows no fractions. Add
// a retry-after-ms header with WithHeader for shorter waits.
func TooManyRequests(after time.Duration) Reply {
	r := Reply{Status: http.StatusTooManyRequests, Message: "Rate limit reached for requests"}
	if after > 0 {
		secs := (after + time.Second - 1) / time.Second
		r = r.WithHeader("Retry-After", strconv.Itoa(int(secs)))
	}
	return r
}

// Drop is a reply that closes the connection without answering.
func Drop() Reply { return Reply{Drop: true} }

// After returns r delayed by d.
func (r Reply) After(d time.Duration) Reply {
	r.Latency = d
	return r
}

// WithHeader returns r with a response header added.
func (r Reply) WithHeader(key, value string) Reply {
	h := r.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	h.Add(key, value)
	r.Header = h
	return r
}

// CutMidBody returns r sent only halfway: status, headers and half the body,
// then the connection closes.
func (r Reply) CutMidBody() Reply {
	r.Cut = true
	return r
}

// Script answers a request. The server may call it from several goroutines
// at once; the scripts built here are safe for that.
type Script func(Request) Reply

// Always answers every request with r.
func Always(r Reply) Script { return func(Request) Reply { return r } }

// Sequence answers the n-th request it is asked with replies[n-1]. Once they
// are used up it answers 400 "script exhausted", unless chained with Then.
func Sequence(replies ...Reply) Script {
	var mu sync.Mutex
	next := 0
	return func(Request) Reply {
		mu.Lock()
		defer mu.Unlock()
		if next == len(replies) {
			return Reply{exhausted: fmt.Sprintf("judgetest: the script's sequence of %d replies is used up", len(replies))}
		}
		next++
		return replies[next-1]
	}
}

// Then answers with s until s is exhausted (a Sequence used up), then with
// next: Sequence(TooManyRequests(0)).Then(Minimal()) fails once, then answers.
func (s Script) Then(next Script) Script {
	return func(r Request) Reply {
		if rep := s(r); rep.exhausted == "" {
			return rep
		}
		return next(r)
	}
}

// BySchema routes each request to the script named by its response_format
// schema name; a request with another name gets a 400 that lists the names.
func BySchema(routes map[string]Script) Script {
	return func(r Request) Reply {
		if s, ok := routes[r.SchemaName()]; ok {
			return s(r)
		}
		return Reply{Status: http.StatusBadRequest, Message: fmt.Sprintf(
			"judgetest: no script for schema %q (the script knows %s)", r.SchemaName(), quoteNames(slices.Sorted(maps.Keys(routes))))}
	}
}

// Minimal answers every request with the smallest JSON that fits its
// response_format schema: empty strings, zeros, false, the first enum value,
// the first non-null type of a type list, arrays of minItems such values.
func Minimal() Script {
	return func(r Request) Reply { return JSON(minimal(r.Schema(), 0)) }
}

func minimal(schema map[string]any, depth int) any {
	if schema == nil || depth > 32 {
		return nil
	}
	if enum, ok := schema["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	typ, _ := schema["type"].(string)
	if list, ok := schema["type"].([]any); ok {
		for _, t := range list {
			if s, _ := t.(string); s != "null" {
				typ = s
				break
			}
		}
	}
	switch typ {
	case "object":
		out := map[string]any{}
		props, _ := schema["properties"].(map[string]any)
		for name, p := range props {
			ps, _ := p.(map[string]any)
			out[name] = minimal(ps, depth+1)
		}
		return out
	case "array":
		n, _ := schema["minItems"].(float64)
		items, _ := schema["items"].(map[string]any)
		out := make([]any, 0, int(n))
		for range int(n) {
			out = append(out, minimal(items, depth+1))
		}
		return out
	case "string":
		return ""
	case "integer", "number":
		return 0
	case "boolean":
		return false
	}
	return nil
}

// Server is a scripted chat completions endpoint on loopback.
type Server struct {
	// URL is the base URL to give a client, e.g. as OPENAI_BASE_URL:
	// "http://127.0.0.1:port/v1". The server answers POST
	// {URL}/chat/completions, and /chat/completions under any other base
	// path (/api/v1 as at OpenRouter, /openai/deployments/NAME as at Azure).
	URL string

	srv    *httptest.Server
	script Script
	done   chan struct{} // closed by Close, to end waits in handlers
	close  sync.Once

	mu    sync.Mutex
	count int
	reqs  []Request
}

// NewServer starts a server that answers with script; a nil script is
// Minimal(). Close it when done, or use Start.
func NewServer(script Script) *Server {
	if script == nil {
		script = Minimal()
	}
	s := &Server{script: script, done: make(chan struct{})}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL + "/v1"
	return s
}

// T is what Start needs of a test. *testing.T, *testing.B and Ginkgo's
// GinkgoT() have it.
type T interface {
	Helper()
	Cleanup(func())
}

// Start is NewServer closed at the end of the test.
func Start(t T, script Script) *Server {
	t.Helper()
	s := NewServer(script)
	t.Cleanup(s.Close)
	return s
}

// Close ends slow replies in progress, closes every connection and waits for
// the handlers to return. It may be called more than once.
func (s *Server) Close() {
	s.close.Do(func() {
		close(s.done)
		s.srv.CloseClientConnections()
		s.srv.Close()
	})
}

// Count is how many requests arrived, including any beyond those Requests
// keeps.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count
}

// Requests are the requests received so far in order of arrival (the first
// 10,000 of them).
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	if !strings.HasSuffix(path, "/chat/completions") {
		writeError(w, http.StatusNotFound, fmt.Sprintf("judgetest: no endpoint %s %s (only POST .../chat/completions)", r.Method, path))
		return
	}
	if r.Method != http.MethodPost {
		writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("judgetest: %s %s: only POST", r.Method, path))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		writeError(w, http.StatusRequestEntityTooLarge, "judgetest: reading the request body: "+err.Error())
		return
	}
	req := Request{Method: r.Method, Path: path, Header: r.Header.Clone(), Body: body}
	decodeErr := json.Unmarshal(body, &req.Chat)
	s.mu.Lock()
	s.count++
	req.Seq = s.count
	if len(s.reqs) < maxRecorded {
		s.reqs = append(s.reqs, req)
	}
	s.mu.Unlock()
	if decodeErr != nil {
		writeError(w, http.StatusBadRequest, "judgetest: the body is not a chat completion request: "+decodeErr.Error())
		return
	}

	rep := s.script(req)
	if rep.exhausted != "" {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("%s: no reply for request %d", rep.exhausted, req.Seq))
		return
	}
	if !s.wait(r.Context(), rep.Latency) {
		// The client gave up or the server is closing: close the connection
		// rather than let net/http send an empty 200.
		panic(http.ErrAbortHandler)
	}
	if rep.Drop {
		hijackClose(w)
		return
	}

	status, out := rep.Status, []byte(rep.Body)
	switch {
	case rep.Body != "":
		if status == 0 {
			status = http.StatusOK
		}
	case status != 0 && status != http.StatusOK:
		msg := rep.Message
		if msg == "" {
			msg = http.StatusText(status)
		}
		out = errorBody(status, msg)
	default:
		status, out = http.StatusOK, completion(req, rep)
	}
	for k, vs := range rep.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(out)))
	w.WriteHeader(status)
	if rep.Cut {
		_, _ = w.Write(out[:len(out)/2])
		hijackClose(w)
		return
	}
	_, _ = w.Write(out)
}

// wait sleeps d, and reports false if the request or the server ended first.
func (s *Server) wait(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-s.done:
		return false
	}
}

func hijackClose(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler) // not HTTP/1: abort the stream instead
	}
	_ = conn.Close()
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(errorBody(status, msg))
}

func errorBody(status int, msg string) []byte {
	typ := "invalid_request_error"
	switch {
	case status == http.StatusTooManyRequests:
		typ = "rate_limit_exceeded"
	case status >= 500:
		typ = "server_error"
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": typ, "code": nil}})
	return b
}

// completion renders a reply as a chat completion response, with usage
// estimated at about four bytes a token when the reply sets none.
func completion(req Request, rep Reply) []byte {
	type message struct {
		Role      string     `json:"role"`
		Content   *string    `json:"content"`
		Refusal   *string    `json:"refusal"`
		ToolCalls []wireCall `json:"tool_calls,omitempty"`
	}
	type choice struct {
		Index        int     `json:"index"`
		Message      message `json:"message"`
		FinishReason string  `json:"finish_reason"`
	}
	model := rep.Model
	if model == "" {
		model = req.Chat.Model
	}
	calls := wireCalls(req, rep.ToolCalls)
	usage := rep.Usage
	if usage == nil {
		prompt := 0
		for _, m := range req.Chat.Messages {
			prompt += len(m.Content)
			for _, c := range m.ToolCalls {
				prompt += len(c.Function.Name) + len(c.Function.Arguments)
			}
		}
		answer := len(rep.Content) + len(rep.Refusal)
		for _, c := range calls {
			answer += len(c.Function.Name) + len(c.Function.Arguments)
		}
		usage = &openai.Usage{PromptTokens: tokens(prompt), CompletionTokens: tokens(answer)}
		usage.TotalTokens = usage.PromptTokens + usage.CompletionTokens
	}
	choices := []choice{}
	if !rep.NoChoices {
		msg := message{Role: "assistant", ToolCalls: calls}
		switch {
		case rep.Refusal != "":
			msg.Refusal = &rep.Refusal
		case rep.Content != "" || len(calls) == 0:
			msg.Content = &rep.Content
		}
		finish := rep.FinishReason
		switch {
		case finish != "":
		case len(calls) > 0:
			finish = "tool_calls"
		default:
			finish = "stop"
		}
		choices = append(choices, choice{Message: msg, FinishReason: finish})
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(map[string]any{
		"id":                 fmt.Sprintf("chatcmpl-judgetest-%d", req.Seq),
		"object":             "chat.completion",
		"created":            1700000000,
		"model":              model,
		"choices":            choices,
		"usage":              map[string]int{"prompt_tokens": usage.PromptTokens, "completion_tokens": usage.CompletionTokens, "total_tokens": usage.TotalTokens},
		"system_fingerprint": "fp_judgetest",
	})
	return buf.Bytes()
}

func tokens(n int) int { return (n + 3) / 4 }
