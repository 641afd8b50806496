package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/recorder"
	openai "github.com/sashabaranov/go-openai"
)

// Defaults, used when neither an option nor the environment says otherwise.
const (
	DefaultModel   = "gpt-4o-mini"
	DefaultBaseURL = "https://api.openai.com/v1"
	// DefaultSeed is the seed of a question's first attempt; each further
	// attempt adds one.
	DefaultSeed = 42
	// DefaultMaxAnswerAttempts bounds the requests made for one question
	// when the answers do not fit its schema.
	DefaultMaxAnswerAttempts = 3
	// DefaultQuestionTimeout bounds one question, its retries and its
	// re-asks included.
	DefaultQuestionTimeout = 5 * time.Minute
)

// Environment variables read by New when the matching option is absent.
const (
	EnvAPIKey  = "OPENAI_API_KEY"
	EnvBaseURL = "OPENAI_BASE_URL"
	EnvModel   = "AGENTCHECK_JUDGE_MODEL"
)

// live is an answer's Source when no cassette replayed it.
const live = "live"

// Client is a Judge backed by an OpenAI-compatible chat completions
// endpoint (OpenAI, OpenRouter, Ollama, vLLM, a judgetest server, or a
// cassette replaying any of them). It asks with structured outputs, strict
// schemas, temperature 0 (none for OpenAI's reasoning models, which accept
// only their default) and a fixed seed; it checks every answer against the
// question's schema and asks again, differently, when one does not fit. A
// Client is safe for concurrent use.
type Client struct {
	model         string
	baseURL       string
	apiKey        string
	seed          int
	language      string
	answerTries   int
	timeout       time.Duration
	api           *openai.Client
	configProblem error
	// rerecord is the recorder's command that records its cassette anew,
	// for the answers that came from it.
	rerecord string
	// replaying: answers come from a cassette, errors included.
	replaying bool
	// bound, when set, ends every Ask when it ends: ForTest binds the
	// test's context.
	bound context.Context
}

// Option configures a Client.
type Option func(*options)

type options struct {
	model, baseURL, apiKey *string
	seed, answerTries      *int
	timeout                *time.Duration
	language               string
	retry                  RetryPolicy
	httpClient             *http.Client
	transport              http.RoundTripper
	recorder               *recorder.Recorder
}

// WithModel sets the judge model, overriding AGENTCHECK_JUDGE_MODEL.
func WithModel(model string) Option { return func(o *options) { o.model = &model } }

// WithBaseURL sets the endpoint, e.g. "https://openrouter.ai/api/v1" or
// "http://localhost:11434/v1" for Ollama, overriding OPENAI_BASE_URL.
func WithBaseURL(u string) Option { return func(o *options) { o.baseURL = &u } }

// WithAPIKey sets the key, overriding OPENAI_API_KEY; "" sends none.
func WithAPIKey(key string) Option { return func(o *options) { o.apiKey = &key } }

// WithSeed sets the seed of each question's first attempt.
func WithSeed(seed int) Option { return func(o *options) { o.seed = &seed } }

// WithLanguage sets the language of the judge's explanations: "en" (the
// default, the prompts' own language), "ru", or any language name. For
// other than English, the client appends to each question's instructions a
// sentence asking for free text in that language and JSON keys and fixed
// values as the schema gives them; the question is otherwise sent as is.
func WithLanguage(lang string) Option { return func(o *options) { o.language = lang } }

// WithMaxAnswerAttempts bounds the requests made for one question when the
// answers are refused, cut off, empty, not JSON or do not fit the schema
// (default 3; at least 1). HTTP retries are counted apart, by RetryPolicy.
func WithMaxAnswerAttempts(n int) Option { return func(o *options) { o.answerTries = &n } }

// WithQuestionTimeout bounds each question, its retries and re-asks
// included (default DefaultQuestionTimeout, 5 minutes; zero or negative:
// none but the context's).
func WithQuestionTimeout(d time.Duration) Option { return func(o *options) { o.timeout = &d } }

// WithRetry sets how failed HTTP requests are retried; zero fields keep
// their defaults.
func WithRetry(p RetryPolicy) Option { return func(o *options) { o.retry = p } }

// WithHTTPClient makes requests through hc: its Transport (or
// http.DefaultTransport when nil) carries them to the network, below the
// client's retries; its Timeout bounds each request of a question, HTTP
// retries included.
func WithHTTPClient(hc *http.Client) Option { return func(o *options) { o.httpClient = hc } }

// WithTransport sets the transport that carries requests to the network,
// below the client's retries. It takes precedence over WithHTTPClient's.
func WithTransport(rt http.RoundTripper) Option { return func(o *options) { o.transport = rt } }

// WithRecorder records to and replays from r's cassette. The recorder sits
// between the client and its retries, so that it sees each request once, as
// sent (temperature 0 included), and the final response, never the retried
// failures. Answers that come through it carry the cassette's path as their
// Source and r.RerecordCommand() as their Rerecord. In a test, ForTest
// gives the test's own cassette; to configure that cassette, or to share it
// with the agent's client, give the recorder here:
//
//	rec := recorder.ForTest(t, recorder.WithDir("testdata/judged"))
//	j := judge.ForTest(t, judge.WithRecorder(rec))
//	agent := NewAgent(rec.Client())
func WithRecorder(r *recorder.Recorder) Option {
	return func(o *options) { o.recorder = r }
}

// New makes a client. Each setting comes from its option, else from the
// environment (OPENAI_API_KEY, OPENAI_BASE_URL, AGENTCHECK_JUDGE_MODEL), else
// from the defaults. No key is needed for endpoints that want none (Ollama)
// or for replaying a cassette. A malformed base URL is reported by Ask.
func New(opts ...Option) *Client {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	c := &Client{
		model:       setting(o.model, EnvModel, ""),
		baseURL:     strings.TrimRight(setting(o.baseURL, EnvBaseURL, DefaultBaseURL), "/"),
		apiKey:      setting(o.apiKey, EnvAPIKey, ""),
		seed:        DefaultSeed,
		language:    o.language,
		answerTries: DefaultMaxAnswerAttempts,
		timeout:     DefaultQuestionTimeout,
	}
	if o.timeout != nil {
		c.timeout = *o.timeout
	}
	if c.model == "" {
		// Named nowhere: a replayed cassette answers with the model it
		// was recorded with, whatever the default is.
		c.model = DefaultModel
		if r := o.recorder; r != nil && (r.Mode() == recorder.RecordNone || r.Mode() == recorder.Prune) {
			if recorded := r.Models(); len(recorded) == 1 {
				c.model = recorded[0]
			}
		}
	}
	if o.seed != nil {
		c.seed = *o.seed
	}
	if o.answerTries != nil {
		c.answerTries = max(1, *o.answerTries)
	}
	if u, err := url.Parse(c.baseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		from := "WithBaseURL"
		if o.baseURL == nil {
			from = EnvBaseURL
		}
		c.configProblem = fmt.Errorf("judge: base URL %q (from %s) is not an http:// or https:// URL with a host", c.baseURL, from)
	}

	// The stack, top to bottom: go-openai → zero temperature → [recorder] →
	// retries → network. See the package documentation for why.
	network := o.transport
	if network == nil && o.httpClient != nil {
		network = o.httpClient.Transport
	}
	if network == nil {
		network = http.DefaultTransport
	}
	rt := RetryTransport(network, o.retry)
	if o.recorder != nil {
		rt = o.recorder.Transport(rt)
		c.rerecord = o.recorder.RerecordCommand()
		c.replaying = o.recorder.Mode() == recorder.RecordNone || o.recorder.Mode() == recorder.Prune
	}
	if !fixedTemperature(c.model) {
		rt = zeroTemperature{rt}
	}
	hc := &http.Client{Transport: rt}
	if o.httpClient != nil {
		own := *o.httpClient
		own.Transport = rt
		hc = &own
	}
	cfg := openai.DefaultConfig(c.apiKey)
	cfg.BaseURL = c.baseURL
	cfg.HTTPClient = hc
	c.api = openai.NewClientWithConfig(cfg)
	return c
}

// fixedTemperature reports OpenAI's reasoning models (the families
// go-openai validates as such), which refuse any temperature but their
// default: they get none, and stay as deterministic as they can be.
func fixedTemperature(model string) bool {
	for _, p := range []string{"o1", "o3", "o4", "gpt-5"} {
		if strings.HasPrefix(model, p) {
			return true
		}
	}
	return false
}

func setting(opt *string, env, def string) string {
	if opt != nil {
		return *opt
	}
	if v := os.Getenv(env); v != "" {
		return v
	}
	return def
}

// Model is the model the client asks for.
func (c *Client) Model() string { return c.model }

// String names the client's model and endpoint (never its key).
func (c *Client) String() string { return c.model + " at " + redactURL(c.baseURL) }

// Ask poses q and returns an answer that fits q.Schema, or an error that
// says what came back. It makes up to WithMaxAnswerAttempts requests, each
// retried over HTTP by the RetryPolicy; a request after a rejected answer
// has the next seed and a last user message that says what was wrong, so
// neither a model nor a cassette gives the same rejected answer again.
func (c *Client) Ask(ctx context.Context, q judgment.Question) (judgment.Answer, error) {
	start := time.Now()
	if c.bound != nil {
		var cancel context.CancelCauseFunc
		ctx, cancel = context.WithCancelCause(ctx)
		stop := context.AfterFunc(c.bound, func() { cancel(context.Cause(c.bound)) })
		defer func() {
			stop()
			cancel(nil)
		}()
	}
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, c.timeout, &QuestionTimeoutError{Question: q.Name, Timeout: c.timeout})
		defer cancel()
	}
	ans := judgment.Answer{Model: c.model, Source: live, PromptVersion: q.PromptVersion}
	fail := func(err error) (judgment.Answer, error) {
		ans.Duration = time.Since(start)
		return ans, c.redact(err)
	}
	if c.configProblem != nil {
		return fail(c.configProblem)
	}
	if err := checkQuestion(q); err != nil {
		return fail(fmt.Errorf("judge: question %q: %w", q.Name, err))
	}
	sch, rawSchema, err := compileQuestionSchema(q)
	if err != nil {
		return fail(fmt.Errorf("judge: question %q: %w", q.Name, err))
	}

	var problems []string
	for attempt := 1; attempt <= c.answerTries; attempt++ {
		prev := ""
		if len(problems) > 0 {
			prev = problems[len(problems)-1]
		}
		log := &attemptLog{}
		resp, err := c.api.CreateChatCompletion(context.WithValue(ctx, attemptLogKey{}, log), c.request(q, rawSchema, attempt, prev))
		ans.Attempts += max(1, log.count())
		if err != nil {
			var timeout *QuestionTimeoutError
			if errors.As(context.Cause(ctx), &timeout) {
				return fail(fmt.Errorf("%w (%d requests made)", timeout, ans.Attempts))
			}
			return fail(c.httpError(q, err, log))
		}
		ans.Usage = ans.Usage.Add(judgment.Usage{PromptTokens: resp.Usage.PromptTokens, CompletionTokens: resp.Usage.CompletionTokens})
		if resp.Model != "" {
			ans.Model = resp.Model
		}
		ans.Source, ans.Rerecord = live, ""
		if src := resp.Header().Get(recorder.CassetteHeader); src != "" {
			ans.Source, ans.Rerecord = src, c.rerecord
		}
		content, problem := inspect(resp, sch)
		if problem == "" {
			ans.JSON = content
			ans.Duration = time.Since(start)
			return ans, nil
		}
		// Scrubbed here, as the problem is quoted to the server in the next
		// request, which a cassette stores.
		problems = append(problems, c.scrub(problem))
	}
	return fail(&AnswerError{Question: q.Name, Model: ans.Model, Problems: problems})
}

// QuestionTimeoutError is a question that took longer than its timeout
// (WithQuestionTimeout).
type QuestionTimeoutError struct {
	Question string
	Timeout  time.Duration
}

func (e *QuestionTimeoutError) Error() string {
	return fmt.Sprintf("judge: question %q got no answer within %v, the question timeout (judge.WithQuestionTimeout)", e.Question, e.Timeout)
}

// AnswerError is a judge that gave no usable answer: every attempt came back
// refused, cut off, empty, not JSON or not fitting the schema.
type AnswerError struct {
	Question string
	Model    string
	// Problems says what was wrong with each attempt's answer, in order,
	// quoting (the start of) what came back.
	Problems []string
}

func (e *AnswerError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "judge: question %q (model %s): no usable answer in %d attempts", e.Question, e.Model, len(e.Problems))
	for i, p := range e.Problems {
		fmt.Fprintf(&b, "; attempt %d: %s", i+1, p)
	}
	return b.String()
}

func questionName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
			return false
		}
	}
	return true
}

func checkQuestion(q judgment.Question) error {
	if !questionName(q.Name) {
		return errors.New("the name must be 1 to 64 letters, digits, '_' or '-' (it names the response schema)")
	}
	if q.Instructions == "" && q.Input == "" {
		return errors.New("no instructions and no input")
	}
	return nil
}

// request builds the attempt-th request for q. Everything in it is a
// function of the question, the client's settings, the attempt and the
// previous attempt's problem, so a replay rebuilds it byte for byte.
func (c *Client) request(q judgment.Question, schema json.RawMessage, attempt int, prevProblem string) openai.ChatCompletionRequest {
	system := q.Instructions
	if note := languageNote(c.language); note != "" {
		if system != "" {
			system += "\n\n"
		}
		system += note
	}
	var msgs []openai.ChatCompletionMessage
	if system != "" {
		msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleSystem, Content: system})
	}
	if q.Input != "" {
		msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: q.Input})
	}
	if prevProblem != "" {
		msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: fmt.Sprintf(
			"Your previous answer was rejected: %s. Answer again with only a JSON object that fits the %s schema.", prevProblem, q.Name)})
	}
	seed := c.seed + attempt - 1
	req := openai.ChatCompletionRequest{
		Model:    c.model,
		Messages: msgs,
		// Temperature 0 is omitted by go-openai; zeroTemperature puts it back.
		Seed: &seed,
		ResponseFormat: &openai.ChatCompletionResponseFormat{
			Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{
				Name:   q.Name,
				Schema: schema,
				Strict: true,
			},
		},
	}
	if q.PromptVersion != "" {
		// The prompt version goes in "user", which every OpenAI-compatible
		// server accepts, marked so that a cassette's miss can say that the
		// prompt changed. Not OpenAI's "metadata": OpenAI refuses metadata
		// unless the completion is also stored ("store": true), which a
		// judge must not ask for.
		req.User = recorder.PromptVersionPrefix + q.PromptVersion
	}
	return req
}

func languageNote(lang string) string {
	name := lang
	switch strings.ToLower(lang) {
	case "", "en", "english":
		return ""
	case "ru", "russian":
		name = "Russian"
	}
	return fmt.Sprintf("Write every free-text value of your answer (reasons, explanations, goals, states) in %s. "+
		"Keep the JSON keys, and any value the schema fixes, exactly as the schema gives them.", name)
}

// inspect takes the answer out of a response, or says what is wrong with it.
func inspect(resp openai.ChatCompletionResponse, sch *schema) (json.RawMessage, string) {
	if len(resp.Choices) == 0 {
		return nil, "the response has no choices"
	}
	ch := resp.Choices[0]
	content := strings.TrimSpace(ch.Message.Content)
	switch {
	case ch.Message.Refusal != "":
		return nil, "the model refused: " + strconv.Quote(clip(ch.Message.Refusal, 200))
	case ch.FinishReason == openai.FinishReasonLength:
		return nil, fmt.Sprintf(`the answer was cut off at the token limit (finish_reason "length") after %d bytes: %s`,
			len(content), strconv.Quote(clip(content, 200)))
	case ch.FinishReason == openai.FinishReasonContentFilter:
		return nil, `a content filter withheld the answer (finish_reason "content_filter")`
	case len(ch.Message.ToolCalls) > 0 || ch.Message.FunctionCall != nil:
		return nil, "the model called a tool instead of answering"
	case content == "":
		return nil, "the answer is empty"
	}
	v, err := parseStrictJSON([]byte(content))
	if err != nil {
		return nil, fmt.Sprintf("the answer is not JSON (%v): %s", err, strconv.Quote(clip(content, 200)))
	}
	if problems := sch.check(v); len(problems) > 0 {
		return nil, fmt.Sprintf("the answer does not fit the schema (%s): %s", strings.Join(problems, "; "), strconv.Quote(clip(content, 200)))
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(content)); err != nil {
		return nil, "the answer is not JSON: " + err.Error()
	}
	return buf.Bytes(), ""
}

// httpError explains a request that failed for good: the endpoint, the
// status or transport error, and what the retries did.
func (c *Client) httpError(q judgment.Question, err error, log *attemptLog) error {
	var notes []string
	if n := log.count(); n > 1 {
		notes = append(notes, fmt.Sprintf("%d HTTP attempts", n))
	}
	if why := log.reason(); why != "" {
		notes = append(notes, why)
	}
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	status := 0
	if errors.As(err, &apiErr) {
		status = apiErr.HTTPStatusCode
	} else if errors.As(err, &reqErr) {
		status = reqErr.HTTPStatusCode
	}
	switch {
	case status != 0 && c.replaying:
		// A recorded error answer: the endpoint is not involved.
		notes = append(notes, "the cassette recorded this error answer; once the judge answers again, record it anew with: "+c.rerecord)
	default:
		if (status == http.StatusUnauthorized || status == http.StatusForbidden) && c.apiKey == "" {
			notes = append(notes, "no API key was given: set "+EnvAPIKey+" or use judge.WithAPIKey")
		}
		if advice := c.advice(status, err); advice != "" {
			notes = append(notes, advice)
		}
	}
	note := ""
	if len(notes) > 0 {
		note = " (" + strings.Join(notes, "; ") + ")"
	}
	// A replay miss is said as the recorder says it, not in the SDK's words
	// for how its body came back ("error, reading response body: ...").
	if miss := (*recorder.ReplayMissError)(nil); errors.As(err, &miss) {
		err = miss
	}
	return fmt.Errorf("judge: question %q (model %s at %s): %w%s", q.Name, c.model, redactURL(c.baseURL), err, note)
}

// advice says what the user can do about a request that failed for good,
// after the retries: "" when it has nothing to add.
func (c *Client) advice(status int, err error) string {
	var timeout attemptTimeout
	var dial *net.OpError
	switch {
	case status == http.StatusTooManyRequests:
		return "the endpoint is rate-limiting: ask fewer questions at once (agentcheck eval --judge-concurrency), or allow more retries with judge.WithRetry"
	case status == http.StatusRequestTimeout || status >= 500:
		return "the endpoint is failing or overloaded: try again later, or allow more retries with judge.WithRetry"
	case status == http.StatusNotFound:
		return fmt.Sprintf("check the model name (%s or judge.WithModel) and the base URL (%s or judge.WithBaseURL), which usually ends in /v1", EnvModel, EnvBaseURL)
	case status != 0:
		return ""
	case errors.As(err, &timeout):
		return "no answer came within RetryPolicy.AttemptTimeout: a slow model (a local one, a long conversation) may need a longer one, set with judge.WithRetry"
	case errors.As(err, &dial) && dial.Op == "dial":
		return fmt.Sprintf("nothing answers at %s: start the server, or check the base URL (%s or judge.WithBaseURL)", redactURL(c.baseURL), EnvBaseURL)
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return "the endpoint, or a proxy before it, closed the connection without a whole answer: try again later"
	}
	return ""
}

// redact keeps the API key out of an error's text, whatever a server or a
// transport put in it.
func (c *Client) redact(err error) error {
	if err == nil || c.apiKey == "" || !strings.Contains(err.Error(), c.apiKey) {
		return err
	}
	return &redactedError{msg: c.scrub(err.Error()), err: err}
}

func (c *Client) scrub(s string) string {
	if c.apiKey == "" {
		return s
	}
	return strings.ReplaceAll(s, c.apiKey, "[redacted]")
}

type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return s
	}
	return u.Redacted()
}

// zeroTemperature adds "temperature":0 to a JSON request body that has no
// temperature. go-openai's Temperature is a float32 with omitempty, so 0, the
// setting a judge needs, is never sent, and servers default to 1 (OpenAI) or
// their own value. It sits above the recorder, so cassettes hold and match
// the body the server saw.
type zeroTemperature struct{ next http.RoundTripper }

func (t zeroTemperature) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return t.next.RoundTrip(req)
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	return t.next.RoundTrip(withBody(req, withZeroTemperature(body)))
}

func withZeroTemperature(body []byte) []byte {
	keys, ok := topLevelKeys(body)
	if !ok {
		return body // not a JSON object: not ours to change
	}
	if _, has := keys["temperature"]; has {
		return body
	}
	trimmed := bytes.TrimRight(body, " \t\r\n")
	end := len(trimmed) - 1 // the closing brace
	out := make([]byte, 0, len(trimmed)+len(`,"temperature":0}`))
	out = append(out, trimmed[:end]...)
	if len(keys) > 0 {
		out = append(out, ',')
	}
	return append(out, `"temperature":0}`...)
}

// topLevelKeys lists the keys of a JSON object without decoding its values:
// a full decode of every request body cost more than the rest of a replayed
// judgment. Keys are compared as written (go-openai writes no escapes in
// its field names). ok is false when body is not an object; go-openai
// marshalled it, so it is well-formed.
func topLevelKeys(body []byte) (keys map[string]struct{}, ok bool) {
	b := bytes.TrimSpace(body)
	if len(b) < 2 || b[0] != '{' || b[len(b)-1] != '}' {
		return nil, false
	}
	keys = map[string]struct{}{}
	depth, inString, escaped, expectKey := 0, false, false, false
	keyStart := -1
	for i, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
				if keyStart >= 0 {
					keys[string(b[keyStart:i])] = struct{}{}
					keyStart = -1
				}
			}
		case c == '"':
			inString = true
			if depth == 1 && expectKey {
				keyStart = i + 1
				expectKey = false
			}
		case c == '{' || c == '[':
			depth++
			if depth == 1 {
				expectKey = true
			}
		case c == '}' || c == ']':
			depth--
		case c == ',' && depth == 1:
			expectKey = true
		}
	}
	return keys, true
}

// withBody is a shallow copy of req with body as its body.
func withBody(req *http.Request, body []byte) *http.Request {
	r := req.Clone(req.Context())
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return r
}
