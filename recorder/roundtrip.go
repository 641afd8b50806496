package recorder

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/agentcheck/agentcheck/internal/contentcoding"
	"github.com/agentcheck/agentcheck/internal/vcr"
	"github.com/agentcheck/agentcheck/secrets"
)

// Recorder is an http.RoundTripper that replays HTTP exchanges from a go-vcr
// v4 cassette file and, when asked, records the ones it lacks.
//
// Requests match by method, path, query (sorted) and body: JSON bodies in
// canonical form (object keys sorted, whitespace ignored), other bodies byte
// for byte. Scheme, host, port, headers and credentials are not part of the
// match; nor is the base path of an OpenAI-compatible endpoint
// (/chat/completions under /v1, /api/v1 or an Azure deployment) or Azure's
// api-version, so a cassette recorded against one server replays against
// any other, or none. Requests of a case ([WithCase]) match only that
// case's interactions. Lookups are a map access. The n-th identical request
// of a case gets the n-th interaction recorded for it, so a retry after a
// rejected answer gets the next answer; past the recorded ones it is a miss.
//
// Every answer is recorded, errors (4xx, 5xx) included, and replayed as it
// came, streams (server-sent events) as streams. Each recorded interaction
// is written to the file at once, so a run cut short keeps what it
// recorded; Close puts the file in a stable order.
//
// A Recorder is safe for concurrent use. Close saves what was recorded.
type Recorder struct {
	path     string
	test     string
	pkg      string
	mode     Mode
	upstream http.RoundTripper
	redact   *secrets.Redactor
	normal   []Normalizer
	maxBody  int64
	syncFile func(*os.File) error
	existed  bool

	recordCmd string      // replaces the go test command in miss messages
	oldName   string      // the test's cassette under the naming rule before CassetteFile, when only it exists
	shared    string      // the key of ForTest's registry it is in, "" for none
	failed    func() bool // whether the test failed or was skipped (Prune)

	mu     sync.Mutex
	idx    *index
	loaded []*vcr.Interaction // the file's content at construction
	// added is what this run recorded, with the requests they answer;
	// written counts those already in the file.
	added   []*vcr.Interaction
	addedAs []request
	written int
	wrote   [32]byte // the SHA-256 of what writeAtomic last wrote
	missed  bool     // a request went unanswered
	closed  bool
}

// BodyTooLargeError is the error of an exchange whose request or response
// body passed the recorder's bound ([WithMaxBodyBytes]).
type BodyTooLargeError struct {
	Cassette string
	What     string // "request body" or "response body (200 OK)"
	Limit    int64
}

func (e *BodyTooLargeError) Error() string {
	return fmt.Sprintf("agentcheck: cassette %s: the %s is larger than %d bytes, the recorder's bound (recorder.WithMaxBodyBytes)", e.Cassette, e.What, e.Limit)
}

// Open opens the cassette at path (".yaml" is appended when missing). The
// mode comes from [RecordEnv] unless [WithMode] sets it; on CI (see [CI])
// recording modes are refused. In replay mode a missing file is not an
// error: a request then misses and says how to record it. Close the
// recorder to save what it recorded.
func Open(path string, opts ...Option) (*Recorder, error) {
	cfg := newConfig(opts)
	if cfg.dirSet {
		return nil, fmt.Errorf("agentcheck: cassette %s: recorder.WithDir names the directory of ForTest's cassettes; Open takes the cassette's path", path)
	}
	return open(path, cfg)
}

func open(path string, cfg config) (*Recorder, error) {
	if !strings.HasSuffix(path, ".yaml") {
		path += ".yaml"
	}
	if !cfg.modeSet {
		m, err := ParseMode(cfg.getenv(RecordEnv))
		if err != nil {
			return nil, err
		}
		cfg.mode = narrowMode(m, cfg)
	}
	if cfg.mode != RecordNone {
		if ci, why := CI(cfg.getenv); ci {
			return nil, fmt.Errorf("agentcheck: %s=%s refused because this is a CI run (%s): cassettes are recorded on a developer machine and committed, CI only replays; unset %s (cassette %s)",
				RecordEnv, cfg.mode, why, RecordEnv, path)
		}
	}
	if cfg.dataSet && cfg.mode != RecordNone {
		return nil, fmt.Errorf("agentcheck: cassette %s is embedded in the program, so it can only be replayed: %s=%s needs a cassette file",
			path, RecordEnv, cfg.mode)
	}
	if cfg.maxBody <= 0 {
		return nil, fmt.Errorf("agentcheck: cassette %s: WithMaxBodyBytes(%d): the bound must be positive", path, cfg.maxBody)
	}
	redact, err := cfg.rules.Redactor()
	if err != nil {
		return nil, fmt.Errorf("agentcheck: cassette %s: %w", path, err)
	}
	if cfg.upstream == nil {
		cfg.upstream = http.DefaultTransport
	}
	r := &Recorder{
		path:      path,
		test:      cfg.test,
		pkg:       packageDir(),
		mode:      cfg.mode,
		upstream:  cfg.upstream,
		redact:    redact,
		normal:    cfg.normal,
		maxBody:   cfg.maxBody,
		syncFile:  cfg.syncFile,
		recordCmd: cfg.command,
		idx:       newIndex(),
	}
	var loaded []*vcr.Interaction
	var existed bool
	if cfg.dataSet {
		loaded, existed, err = loadCassetteData(path, cfg.data)
	} else {
		loaded, existed, err = loadCassette(path)
	}
	if err != nil && r.mode != RecordAll {
		// RecordAll replaces the file, so an unreadable one is no obstacle.
		if !errors.Is(err, fs.ErrPermission) {
			err = fmt.Errorf("%w\n  restore it from version control, or record it anew with: %s", err, r.RerecordCommand())
		}
		return nil, err
	}
	r.loaded, r.existed = loaded, existed
	if r.mode != RecordAll {
		for _, it := range loaded {
			r.idx.add(r.storedRequest(it), it)
		}
	}
	return r, nil
}

// storedRequest is the request a stored interaction answers.
func (r *Recorder) storedRequest(it *vcr.Interaction) request {
	u, body := it.Request.URL, it.Request.Body
	if len(r.normal) > 0 {
		var b []byte
		u, b = r.normalize(it.Request.Method, u, []byte(body))
		body = string(b)
	}
	return newRequest(http.Header(it.Request.Headers).Get(CaseHeader), it.Request.Method, u, body)
}

// normalize applies the normalizers to a request as stored.
func (r *Recorder) normalize(method, rawURL string, body []byte) (string, []byte) {
	if len(r.normal) == 0 {
		return rawURL, body
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return rawURL, body
	}
	q := &Request{Method: method, URL: u, Body: body}
	for _, n := range r.normal {
		n(q)
	}
	return q.URL.String(), q.Body
}

// Client returns a new http.Client whose requests go through the cassette,
// misses recorded through the upstream transport ([WithUpstream], by
// default http.DefaultTransport). To keep an agent's own client (its
// timeout, its transport), give it the recorder's transport instead:
//
//	hc.Transport = rec.Transport(hc.Transport)
func (r *Recorder) Client() *http.Client {
	return &http.Client{Transport: r.Transport(nil)}
}

// Transport returns a transport whose requests go through the cassette,
// misses recorded through base (nil: the upstream transport). One recorder
// can thus serve both a judge and the agent under test, each recording
// through its own transport.
//
// Unlike [Recorder.RoundTrip], the transports of Client and Transport
// answer a replay miss with a response, one that no SDK retries (see
// [ReplayMissError]): give an SDK these, not the Recorder itself.
func (r *Recorder) Transport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = r.upstream
	}
	return &recordingTransport{r: r, upstream: base}
}

type recordingTransport struct {
	r        *Recorder
	upstream http.RoundTripper
}

func (t *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.r.roundTrip(req, t.upstream)
	var miss *ReplayMissError
	if errors.As(err, &miss) {
		return t.r.missResponse(req, miss), nil
	}
	return resp, err
}

// Path is the cassette file.
func (r *Recorder) Path() string { return r.path }

// Mode is the recording mode in effect.
func (r *Recorder) Mode() Mode { return r.mode }

// RoundTrip replays the request's next recorded interaction or, in a
// recording mode, sends it upstream and records the answer. A replay miss
// returns a *[ReplayMissError]. An SDK would take that error for a
// dropped connection and retry it: give SDKs [Recorder.Client] or
// [Recorder.Transport], which answer a miss in a way they do not retry.
func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	return r.roundTrip(req, r.upstream)
}

func (r *Recorder) roundTrip(req *http.Request, upstream http.RoundTripper) (*http.Response, error) {
	if err := req.Context().Err(); err != nil {
		closeBody(req)
		return nil, err
	}
	var sent []byte
	if req.Body != nil && req.Body != http.NoBody {
		var err error
		sent, err = r.readBounded(req.Body, req.ContentLength, "request body")
		req.Body.Close()
		if err != nil {
			return nil, err
		}
	}
	// The request as stored and matched has its body decoded; the upstream
	// server gets it as sent.
	view, body, err := r.decoded(req, sent)
	if err != nil {
		return nil, err
	}
	storedURL, storedBody := r.scrubRequest(view, body)
	storedURL, storedBody = r.normalize(req.Method, storedURL, storedBody)
	q := newRequest(caseOf(req.Context()), req.Method, storedURL, string(storedBody))

	if r.mode != RecordAll {
		r.mu.Lock()
		it := r.idx.next(q)
		if it == nil && (r.mode == RecordNone || r.mode == Prune) {
			r.missed = true
		}
		r.mu.Unlock()
		if it != nil {
			return r.replay(req, it), nil
		}
		if r.mode == RecordNone || r.mode == Prune {
			return nil, r.miss(q, storedPath(storedURL))
		}
	}
	return r.record(req, sent, view, body, storedURL, q, upstream)
}

// decoded is the request as the recorder reads it: its body decoded by its
// Content-Encoding (bounded by the body bound), the header gone from the
// copy of the request it returns. A request without one is returned as it
// is.
func (r *Recorder) decoded(req *http.Request, sent []byte) (*http.Request, []byte, error) {
	enc := contentEncoding(req.Header)
	if enc == "" {
		return req, sent, nil
	}
	body, err := r.decode(enc, sent, "request body")
	if err != nil {
		return nil, nil, err
	}
	view := *req
	view.Header = req.Header.Clone()
	view.Header.Del("Content-Encoding")
	view.Header.Del("Content-Length")
	return &view, body, nil
}

// contentEncoding is the Content-Encoding of a message, its values joined,
// "" for none or identity.
func contentEncoding(h http.Header) string {
	enc := strings.Join(h.Values("Content-Encoding"), ", ")
	if strings.EqualFold(strings.TrimSpace(enc), "identity") {
		return ""
	}
	return enc
}

// decode undoes a body's Content-Encoding within the body bound.
func (r *Recorder) decode(encoding string, body []byte, what string) ([]byte, error) {
	d, err := contentcoding.Decode(encoding, body, r.maxBody)
	var tooLarge *contentcoding.TooLargeError
	switch {
	case errors.As(err, &tooLarge):
		return nil, &BodyTooLargeError{Cassette: r.path, What: what + ", decoded from " + strconv.Quote(encoding), Limit: r.maxBody}
	case err != nil:
		return nil, &UndecodableBodyError{Cassette: r.path, What: what, Encoding: encoding, Err: err}
	}
	return d, nil
}

// UndecodableBodyError is the error of an exchange whose request or
// response body has a Content-Encoding the recorder cannot undo: one it
// does not know, or a body that does not decode. The recorder stores every
// body decoded, so that the secrets it scrubs cannot hide in a compressed
// one; such an exchange is therefore not recorded.
type UndecodableBodyError struct {
	Cassette string
	What     string // "request body" or "response body (200 OK)"
	Encoding string // the Content-Encoding, e.g. "compress"
	Err      error  // why it does not decode
}

func (e *UndecodableBodyError) Error() string {
	return fmt.Sprintf("agentcheck: cassette %s: the %s has Content-Encoding %q, which the recorder cannot decode (%v); it stores bodies decoded so that no secret hides in them, so it does not record this exchange: let the client ask for %s (Accept-Encoding)",
		e.Cassette, e.What, e.Encoding, e.Err, contentcoding.Supported)
}

func (e *UndecodableBodyError) Unwrap() error { return e.Err }

// storedPath is the path of a stored (scrubbed) URL, for a miss message: a
// token in the live path never reaches it.
func storedPath(storedURL string) string {
	if u, err := url.Parse(storedURL); err == nil {
		return u.EscapedPath()
	}
	return ""
}

// readBounded reads a body whole, failing as soon as it passes maxBody.
func (r *Recorder) readBounded(body io.Reader, length int64, what string) ([]byte, error) {
	if length > r.maxBody {
		return nil, &BodyTooLargeError{Cassette: r.path, What: what, Limit: r.maxBody}
	}
	var buf bytes.Buffer
	if length > 0 {
		buf.Grow(int(length) + bytes.MinRead)
	}
	n, err := buf.ReadFrom(io.LimitReader(body, r.maxBody+1))
	if err != nil {
		return nil, err
	}
	if n > r.maxBody {
		return nil, &BodyTooLargeError{Cassette: r.path, What: what, Limit: r.maxBody}
	}
	return buf.Bytes(), nil
}

func (r *Recorder) replay(req *http.Request, it *vcr.Interaction) *http.Response {
	h := it.Response.Headers.Clone()
	if h == nil {
		h = make(http.Header, 1)
	}
	// The stored body may have been redacted; the length is the body's own.
	h.Del("Content-Length")
	h.Set(CassetteHeader, r.path)
	status := it.Response.Status
	if status == "" {
		status = strconv.Itoa(it.Response.Code) + " " + http.StatusText(it.Response.Code)
	}
	return &http.Response{
		Status:        status,
		StatusCode:    it.Response.Code,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		Body:          io.NopCloser(strings.NewReader(it.Response.Body)),
		ContentLength: int64(len(it.Response.Body)),
		Request:       req,
	}
}

// record sends the request upstream as sent (its body sent, encoded as it
// was) and records the exchange as read: view and body are the request with
// its body decoded, and the response is stored decoded too.
func (r *Recorder) record(req *http.Request, sent []byte, view *http.Request, body []byte, storedURL string, q request, upstream http.RoundTripper) (*http.Response, error) {
	out := req.Clone(req.Context())
	out.Body, out.GetBody = http.NoBody, nil
	if sent != nil {
		out.Body = io.NopCloser(bytes.NewReader(sent))
		out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(sent)), nil }
		out.ContentLength = int64(len(sent))
	}
	resp, err := upstream.RoundTrip(out)
	if err != nil {
		return nil, err
	}
	what := "response body (" + resp.Status + ")"
	respBody, err := r.readBounded(resp.Body, resp.ContentLength, what)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(respBody))
	resp.ContentLength = int64(len(respBody))
	storedHeader, storedBody := resp.Header.Clone(), respBody
	if enc := contentEncoding(resp.Header); enc != "" {
		if storedBody, err = r.decode(enc, respBody, what); err != nil {
			return nil, err
		}
		storedHeader.Del("Content-Encoding")
	}
	it := &vcr.Interaction{
		Request: vcr.Request{
			Proto:         "HTTP/1.1",
			ProtoMajor:    1,
			ProtoMinor:    1,
			ContentLength: int64(len(q.body)),
			Host:          tidyHost(req.URL.Host),
			Body:          q.body,
			Headers:       view.Header.Clone(),
			URL:           tidyURL(storedURL),
			Method:        req.Method,
		},
		Response: vcr.Response{
			Proto:      "HTTP/1.1",
			ProtoMajor: 1,
			ProtoMinor: 1,
			Body:       string(storedBody),
			Headers:    storedHeader,
			Status:     resp.Status,
			Code:       resp.StatusCode,
		},
	}
	r.scrubInteraction(it, view, body)
	tidyHeaders(it.Request.Headers, volatileRequestHeaders)
	tidyHeaders(it.Response.Headers, volatileResponseHeaders)
	if q.label != "" {
		it.Request.Headers.Set(CaseHeader, q.label)
	}
	it.Response.ContentLength = int64(len(it.Response.Body))
	r.mu.Lock()
	g := r.idx.add(q, it)
	g.used = len(g.its)
	r.added = append(r.added, it)
	r.addedAs = append(r.addedAs, q)
	werr := r.persist()
	r.mu.Unlock()
	if werr != nil {
		resp.Body.Close()
		return nil, werr
	}
	// Name the cassette on the recorded answer too (not stored), so that a
	// recording run reports the same source its replays will.
	resp.Header.Set(CassetteHeader, r.path)
	return resp, nil
}

// volatileRequestHeaders and volatileResponseHeaders change from run to run
// (or describe the connection, not the exchange) and are not stored, so
// that re-recording the same answers gives the same file.
var (
	volatileRequestHeaders = []string{
		"Content-Length", "Accept-Encoding", "Connection", "User-Agent", "X-Stainless-*",
		"Idempotency-Key", "X-Request-Id", "Traceparent", "Tracestate",
	}
	volatileResponseHeaders = []string{
		"Date", "Age", "Expires", "Last-Modified", "Etag", "Content-Length", "Connection", "Keep-Alive",
		"Transfer-Encoding", "Via", "Alt-Svc", "Server-Timing", "Cf-Ray", "Cf-Cache-Status", "Nel",
		"Report-To", "Openai-Processing-Ms", "Openai-Version", "X-Envoy-Upstream-Service-Time",
		"X-Ratelimit-*", "Anthropic-Ratelimit-*", "*-Request-Id", "Request-Id", "X-Request-Id",
		"X-Amzn-*", "X-Cloud-Trace-Context", "X-Cache*", "Strict-Transport-Security",
	}
)

// tidyHeaders deletes the headers named (a trailing or leading "*" is any
// text).
func tidyHeaders(h http.Header, names []string) {
	for name := range h {
		for _, pattern := range names {
			p := http.CanonicalHeaderKey(strings.Trim(pattern, "*"))
			var hit bool
			switch {
			case strings.HasPrefix(pattern, "*"):
				hit = strings.HasSuffix(name, p)
			case strings.HasSuffix(pattern, "*"):
				hit = strings.HasPrefix(name, p)
			default:
				hit = name == p
			}
			if hit {
				delete(h, name)
				break
			}
		}
	}
}

// tidyHost drops the port of a loopback host, which changes with every run
// of a local server.
func tidyHost(host string) string {
	h, _, err := net.SplitHostPort(host)
	if err != nil {
		return host
	}
	if h == "localhost" || net.ParseIP(h).IsLoopback() {
		return h
	}
	return host
}

func tidyURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	if h := tidyHost(u.Host); h != u.Host {
		if strings.Contains(h, ":") {
			h = "[" + h + "]"
		}
		u.Host = h
		return u.String()
	}
	return raw
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}

// Models is the models that the cassette's JSON requests name in their
// "model" field, sorted: a judge told no model replays with the one its
// cassette was recorded with.
func (r *Recorder) Models() []string {
	var models []string
	for _, it := range r.loaded {
		m := modelOf(it.Request.Body)
		if m != "" && !slices.Contains(models, m) {
			models = append(models, m)
		}
	}
	slices.Sort(models)
	return models
}

// modelOf is a JSON body's "model": read off the front of the body when it
// starts with it, as clients' bodies do, else by decoding the body.
func modelOf(body string) string {
	if rest, ok := strings.CutPrefix(body, `{"model":"`); ok {
		if end := strings.IndexAny(rest, `"\`); end >= 0 && rest[end] == '"' {
			return rest[:end]
		}
	}
	return bodyFields(body).Model
}
