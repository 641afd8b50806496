// Package recorder records HTTP exchanges into go-vcr v4 cassette files and
// replays them, so that tests which call a model (an LLM judge, the agent
// under test through its own http.Client) run offline, without a key, in CI.
// A Recorder replays by default; AGENTCHECK_RECORD=missing records the
// requests its cassette lacks and AGENTCHECK_RECORD=all records them all
// anew, never with CI=true. Requests match by method, path, query and
// canonical JSON body through an index, so a replay costs a map lookup; a
// miss names the cassette, the test, the closest recorded request with a
// diff against it, and the command that records it. Credentials and the
// project's own secrets (package secrets) never reach the file, which is
// saved atomically and merged under a lock with what other processes
// recorded meanwhile. ForTest gives a test its own cassette,
// testdata/cassettes/<test name>.yaml; it takes a small interface that
// *testing.T and Ginkgo's GinkgoT() both satisfy.
package recorder

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentcheck/agentcheck/secrets"
	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
)

// RecordEnv is the environment variable that turns recording on:
// "missing" records the requests a cassette lacks, "all" re-records every
// request. Empty (or "none") replays only.
const RecordEnv = "AGENTCHECK_RECORD"

// CassetteHeader is added to every response that went through a cassette,
// replayed or recorded (it is never stored): its value is the cassette's
// path, so that a caller can tell such an answer from a live one.
const CassetteHeader = "X-Agentcheck-Cassette"

// DefaultDir is where [ForTest] keeps a test's cassette, relative to the
// package directory go test runs in.
const DefaultDir = "testdata/cassettes"

// PromptVersionPrefix marks the version of the prompt a request was built
// with, in the "user" field of its JSON body (agentcheck's judge sends
// "agentcheck-prompt:goal/v1"). A replay miss whose closest recorded request
// has another version says that the prompt changed.
const PromptVersionPrefix = "agentcheck-prompt:"

// Mode says what a [Recorder] does with requests.
type Mode int

const (
	// RecordNone replays from the cassette and never touches the network.
	RecordNone Mode = iota
	// RecordMissing replays what the cassette holds and records the rest.
	RecordMissing
	// RecordAll sends every request upstream and replaces the cassette's old
	// interactions with the new ones.
	RecordAll
)

func (m Mode) String() string {
	switch m {
	case RecordNone:
		return "none"
	case RecordMissing:
		return "missing"
	case RecordAll:
		return "all"
	}
	return "Mode(" + strconv.Itoa(int(m)) + ")"
}

// ParseMode reads a value of [RecordEnv]: "", "none", "missing" or "all".
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "none", "replay":
		return RecordNone, nil
	case "missing":
		return RecordMissing, nil
	case "all":
		return RecordAll, nil
	}
	return RecordNone, fmt.Errorf("agentcheck: %s=%q: want missing, all, or empty to replay", RecordEnv, s)
}

// Option configures a [Recorder].
type Option func(*config)

type config struct {
	dir      string
	dirSet   bool
	mode     Mode
	modeSet  bool
	getenv   func(string) string
	upstream http.RoundTripper
	test     string
	rules    secrets.Rules
	// syncFile flushes the temporary cassette before the rename; a test
	// replaces it to prove that a failed write keeps the old cassette.
	syncFile func(*os.File) error
	command  string
	data     []byte // the cassette's content, when not read from its file
	dataSet  bool
}

func newConfig(opts []Option) config {
	cfg := config{dir: DefaultDir, getenv: os.Getenv, syncFile: (*os.File).Sync}
	for _, o := range opts {
		o(&cfg)
	}
	return cfg
}

// WithDir sets the directory [ForTest] keeps cassettes in (default
// [DefaultDir]). Open, which is given the cassette's path, refuses it.
func WithDir(dir string) Option {
	return func(c *config) { c.dir, c.dirSet = dir, true }
}

// WithMode sets the mode in code; it overrides [RecordEnv]. Recording is
// still refused when CI is true.
func WithMode(m Mode) Option {
	return func(c *config) { c.mode, c.modeSet = m, true }
}

// WithEnv replaces os.Getenv for reading AGENTCHECK_RECORD and CI, so that
// a test can set them without touching the process environment.
func WithEnv(getenv func(key string) string) Option {
	return func(c *config) { c.getenv = getenv }
}

// WithUpstream sets the transport that recorded requests go through (default
// http.DefaultTransport), for [Recorder.RoundTrip], [Recorder.Client] and
// [Recorder.Transport] given nil. Put retries here, below the recorder, so
// that a cassette holds only the final exchange.
func WithUpstream(next http.RoundTripper) Option {
	return func(c *config) { c.upstream = next }
}

// WithTestName names the test in replay-miss messages and in the command that
// records it. [ForTest] sets it from t.Name().
func WithTestName(name string) Option {
	return func(c *config) { c.test = name }
}

// WithRecordCommand sets the command a replay miss gives for recording what
// is missing, instead of the go test command derived from the package and
// the test: for programs, such as agentcheck eval, that replay cassettes
// outside go test.
func WithRecordCommand(cmd string) Option {
	return func(c *config) { c.command = cmd }
}

// WithData makes the recorder replay data, the content of a cassette file,
// instead of reading the file at path, which then only names the cassette
// in messages: for cassettes embedded in a program with go:embed. Such a
// recorder only replays: it refuses a recording mode, having no file to
// record into.
func WithData(data []byte) Option {
	return func(c *config) { c.data, c.dataSet = data, true }
}

// WithRedaction adds a project's own redaction rules to the credential
// headers that are always dropped: their headers are dropped too, and the
// values at their JSON paths and the matches of their patterns become
// "[REDACTED]" in stored requests and responses. Redaction happens before
// matching, so a redacted value may differ between the recording and the
// replay. Several add up; a rule that cannot work makes Open fail.
// agentcheck cassettes check, given the same rules, proves they applied.
func WithRedaction(rules secrets.Rules) Option {
	return func(c *config) {
		c.rules.Headers = append(c.rules.Headers, rules.Headers...)
		c.rules.JSONPaths = append(c.rules.JSONPaths, rules.JSONPaths...)
		c.rules.Patterns = append(c.rules.Patterns, rules.Patterns...)
	}
}

// Recorder is an http.RoundTripper that replays HTTP exchanges from a go-vcr
// v4 cassette file and, when asked, records the ones it lacks.
//
// Requests match by method, path, query (sorted) and body: JSON bodies in
// canonical form (object keys sorted, whitespace ignored), other bodies byte
// for byte; headers and host are ignored. Lookups are a map access. The n-th
// identical request of a run gets the n-th interaction recorded for it, so a
// retry after a rejected answer gets the next answer, and a replay sees what
// the recording run saw; past the recorded ones it is a miss.
//
// A Recorder is safe for concurrent use. Close saves what was recorded.
type Recorder struct {
	path     string
	test     string
	pkg      string
	mode     Mode
	upstream http.RoundTripper
	redact   *secrets.Redactor
	syncFile func(*os.File) error
	existed  bool

	recordCmd string // replaces the go test command in miss messages
	shared    string // the key of ForTest's registry it is in, "" for none

	mu sync.Mutex
	// slots maps a request key to the interactions that answer it, in order;
	// used counts how many of them this run consumed.
	slots map[string][]*cassette.Interaction
	used  map[string]int
	// exact maps a request as stored, byte for byte, to its key: a client
	// sends the same bytes it sent when recording, so most lookups skip
	// canonicalizing the body, the costliest step of a replay.
	exact map[string]string
	// routes maps "METHOD path" to the keys recorded for it, to find the
	// closest request on a miss.
	routes map[string][]string
	// loaded is the file's content at construction; RecordAll drops it at
	// save time. added is what this run recorded.
	loaded []*cassette.Interaction
	added  []*cassette.Interaction
	closed bool
}

// Open opens the cassette at path (".yaml" is appended when missing). The
// mode comes from [RecordEnv] unless [WithMode] sets it; with CI true,
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
		cfg.mode = m
	}
	if cfg.mode != RecordNone {
		if ci, _ := strconv.ParseBool(cfg.getenv("CI")); ci {
			return nil, fmt.Errorf("agentcheck: recording (%s=%s) refused because CI=true: cassettes are recorded on a developer machine and committed, CI only replays; unset %s (cassette %s)",
				RecordEnv, cfg.mode, RecordEnv, path)
		}
	}
	if cfg.dataSet && cfg.mode != RecordNone {
		return nil, fmt.Errorf("agentcheck: cassette %s is embedded in the program, so it can only be replayed: recording (%s=%s) needs a cassette file",
			path, RecordEnv, cfg.mode)
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
		syncFile:  cfg.syncFile,
		recordCmd: cfg.command,
		slots:     make(map[string][]*cassette.Interaction),
		used:      make(map[string]int),
		routes:    make(map[string][]string),
		exact:     make(map[string]string),
	}
	var loaded []*cassette.Interaction
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
			key := r.key(it.Request.Method, it.Request.URL, []byte(it.Request.Body))
			r.index(it, key)
			r.exact[string(exactKey(nil, it.Request.Method, it.Request.URL, []byte(it.Request.Body)))] = key
		}
	}
	return r, nil
}

// key is the request key of a stored request; the redaction rules shape
// stored requests and lookup keys alike, so a redacted value never decides
// a match.
func (r *Recorder) key(method, rawURL string, body []byte) string {
	return requestKey(method, r.redact.Text(rawURL), r.redact.Body(body))
}

// Client returns a new http.Client whose requests go through the cassette,
// misses recorded through the upstream transport ([WithUpstream], by
// default http.DefaultTransport). To keep an agent's own client (its
// timeout, its transport), give it the recorder's transport instead:
//
//	hc.Transport = rec.Transport(hc.Transport)
func (r *Recorder) Client() *http.Client {
	return &http.Client{Transport: r}
}

// Transport returns a transport whose requests go through the cassette,
// misses recorded through base (nil: the upstream transport). One recorder
// can thus serve both a judge and the agent under test, each recording
// through its own transport.
func (r *Recorder) Transport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		return r
	}
	return &recordingTransport{r: r, upstream: base}
}

type recordingTransport struct {
	r        *Recorder
	upstream http.RoundTripper
}

func (t *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	return t.r.roundTrip(req, t.upstream)
}

// Path is the cassette file.
func (r *Recorder) Path() string { return r.path }

// Mode is the recording mode in effect.
func (r *Recorder) Mode() Mode { return r.mode }

// RoundTrip replays the request's next recorded interaction or, in a
// recording mode, sends it upstream and records a 2xx or 3xx answer. A replay
// miss returns a *[ReplayMissError].
func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	return r.roundTrip(req, r.upstream)
}

func (r *Recorder) roundTrip(req *http.Request, upstream http.RoundTripper) (*http.Response, error) {
	if err := req.Context().Err(); err != nil {
		closeBody(req)
		return nil, err
	}
	var body []byte
	if req.Body != nil && req.Body != http.NoBody {
		var buf bytes.Buffer
		if req.ContentLength > 0 {
			buf.Grow(int(min(req.ContentLength, 1<<20)) + bytes.MinRead)
		}
		_, err := buf.ReadFrom(req.Body)
		req.Body.Close()
		body = buf.Bytes()
		if err != nil {
			return nil, err
		}
	}
	storedURL, storedBody := r.scrubRequest(req, body)
	exact := exactKey(nil, req.Method, storedURL, storedBody)
	r.mu.Lock()
	key, ok := r.exact[string(exact)]
	r.mu.Unlock()
	if !ok {
		key = requestKey(req.Method, storedURL, storedBody)
	}

	if r.mode != RecordAll {
		r.mu.Lock()
		n := r.used[key]
		if recorded := r.slots[key]; n < len(recorded) {
			r.used[key] = n + 1
			r.mu.Unlock()
			return r.replay(req, recorded[n]), nil
		}
		r.mu.Unlock()
		if r.mode == RecordNone {
			return nil, r.miss(key)
		}
	}
	return r.record(req, body, storedURL, storedBody, key, upstream)
}

func (r *Recorder) replay(req *http.Request, it *cassette.Interaction) *http.Response {
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

func (r *Recorder) record(req *http.Request, body []byte, storedURL string, storedBody []byte, key string, upstream http.RoundTripper) (*http.Response, error) {
	out := req.Clone(req.Context())
	out.Body, out.GetBody = http.NoBody, nil
	if body != nil {
		out.Body = io.NopCloser(bytes.NewReader(body))
		out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		out.ContentLength = int64(len(body))
	}
	start := time.Now()
	resp, err := upstream.RoundTrip(out)
	if err != nil {
		return nil, err
	}
	respBody, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(respBody))
	resp.ContentLength = int64(len(respBody))
	// Only answers are recorded: a 429 or 5xx that survived the retries
	// below must not be replayed forever. 3xx stays because a client
	// follows redirects hop by hop, each hop a separate exchange.
	if resp.StatusCode < 200 || resp.StatusCode >= 400 {
		return resp, nil
	}
	it := &cassette.Interaction{
		Request: cassette.Request{
			Proto:         "HTTP/1.1",
			ProtoMajor:    1,
			ProtoMinor:    1,
			ContentLength: int64(len(storedBody)),
			Host:          req.URL.Host,
			Body:          string(storedBody),
			Headers:       req.Header.Clone(),
			URL:           storedURL,
			Method:        req.Method,
		},
		Response: cassette.Response{
			Proto:         resp.Proto,
			ProtoMajor:    resp.ProtoMajor,
			ProtoMinor:    resp.ProtoMinor,
			Body:          string(respBody),
			Headers:       resp.Header.Clone(),
			Status:        resp.Status,
			Code:          resp.StatusCode,
			Duration:      time.Since(start),
		},
	}
	r.scrubInteraction(it, req)
	if it.Response.Headers == nil {
		it.Response.Headers = http.Header{}
	}
	it.Response.Headers.Set(recordingHeader, newRecordingID())
	r.mu.Lock()
	r.index(it, key)
	r.exact[string(exactKey(nil, req.Method, storedURL, storedBody))] = key
	r.used[key]++
	r.added = append(r.added, it)
	r.mu.Unlock()
	// Name the cassette on the recorded answer too (not stored), so that a
	// recording run reports the same source its replays will.
	resp.Header.Set(CassetteHeader, r.path)
	return resp, nil
}

// index makes it the next slot for key. Callers hold mu or own r.
func (r *Recorder) index(it *cassette.Interaction, key string) {
	if len(r.slots[key]) == 0 {
		route := key[:strings.IndexByte(key, '\n')]
		r.routes[route] = append(r.routes[route], key)
	}
	r.slots[key] = append(r.slots[key], it)
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}
