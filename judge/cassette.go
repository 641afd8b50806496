package judge

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"
	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
)

// RecordEnv is the environment variable that turns recording on:
// "missing" records the requests a cassette lacks, "all" re-records every
// request. Empty (or "none") replays only.
const RecordEnv = "AGENTCHECK_RECORD"

// CassetteHeader is added to every replayed response (never stored): its value
// is the cassette's path, so a caller can tell a replayed answer from a live one.
const CassetteHeader = "X-Agentcheck-Cassette"

// DefaultCassetteDir is where [Cassette] keeps a test's cassette, relative to
// the package directory go test runs in.
const DefaultCassetteDir = "testdata/cassettes"

// The judge sends its prompt version in the request's "user" field as
// promptVersionPrefix+version (OpenAI refuses "metadata" without "store"), so
// a miss can say that a prompt changed.

// redacted replaces secret values that rules (JSON paths, patterns) remove.
const redacted = "[REDACTED]"

// RecordMode says what a [Recorder] does with requests.
type RecordMode int

const (
	// RecordNone replays from the cassette and never touches the network.
	RecordNone RecordMode = iota
	// RecordMissing replays what the cassette holds and records the rest.
	RecordMissing
	// RecordAll sends every request upstream and replaces the cassette's old
	// interactions with the new ones.
	RecordAll
)

func (m RecordMode) String() string {
	switch m {
	case RecordNone:
		return "none"
	case RecordMissing:
		return "missing"
	case RecordAll:
		return "all"
	}
	return "RecordMode(" + strconv.Itoa(int(m)) + ")"
}

// ParseRecordMode reads a value of [RecordEnv]: "", "none", "missing" or "all".
func ParseRecordMode(s string) (RecordMode, error) {
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

// CassetteOption configures a [Recorder].
type CassetteOption func(*cassetteConfig)

type cassetteConfig struct {
	dir      string
	mode     RecordMode
	modeSet  bool
	getenv   func(string) string
	upstream http.RoundTripper
	test     string
	headers  []string
	paths    [][]string
	patterns []*regexp.Regexp
	// syncFile flushes the temporary cassette before the rename; a test
	// replaces it to prove that a failed write keeps the old cassette.
	syncFile func(*os.File) error
	command  string
	data     []byte // the cassette's content, when not read from its file
	dataSet  bool
}

// WithCassetteDir sets the directory [Cassette] and [RecordClient] keep
// cassettes in (default [DefaultCassetteDir]).
func WithCassetteDir(dir string) CassetteOption {
	return func(c *cassetteConfig) { c.dir = dir }
}

// WithRecordMode sets the mode in code; it overrides [RecordEnv]. Recording
// is still refused when CI is true.
func WithRecordMode(m RecordMode) CassetteOption {
	return func(c *cassetteConfig) { c.mode, c.modeSet = m, true }
}

// WithCassetteEnv replaces os.Getenv for reading AGENTCHECK_RECORD and CI, so
// a test can set them without touching the process environment.
func WithCassetteEnv(getenv func(key string) string) CassetteOption {
	return func(c *cassetteConfig) { c.getenv = getenv }
}

// WithUpstream sets the transport that recorded requests go through (default
// http.DefaultTransport). Put retries here, below the recorder, so that a
// cassette holds only the final exchange.
func WithUpstream(next http.RoundTripper) CassetteOption {
	return func(c *cassetteConfig) { c.upstream = next }
}

// WithTestName names the test in replay-miss messages and in the command that
// records it. [Cassette] sets it from t.Name().
func WithTestName(name string) CassetteOption {
	return func(c *cassetteConfig) { c.test = name }
}

// WithRecordCommand sets the command a replay miss gives for recording what
// is missing, instead of the go test command derived from the package and
// the test: for programs, such as agentcheck eval, that replay cassettes
// outside go test.
func WithRecordCommand(cmd string) CassetteOption {
	return func(c *cassetteConfig) { c.command = cmd }
}

// WithCassetteData makes the recorder replay data, the content of a cassette
// file, instead of reading the file at path, which then only names the
// cassette in messages: for cassettes embedded in a program with go:embed.
// Such a recorder only replays: it refuses a recording mode, having no file
// to record into.
func WithCassetteData(data []byte) CassetteOption {
	return func(c *cassetteConfig) { c.data, c.dataSet = data, true }
}

// WithRedactHeaders removes more headers (case-insensitive) from stored
// requests and responses, besides Authorization, Api-Key, X-Api-Key,
// OpenAI-Organization, OpenAI-Project, Cookie, Set-Cookie and
// Proxy-Authorization, which are always removed.
func WithRedactHeaders(names ...string) CassetteOption {
	return func(c *cassetteConfig) { c.headers = append(c.headers, names...) }
}

// WithRedactJSON replaces the values at dot-separated paths in JSON request
// and response bodies by "[REDACTED]" ("user", "metadata.session",
// "messages.*.name"; "*" is every element or member, a number an index).
// Redaction happens before matching, so a redacted field may differ between
// the recording and the replay.
func WithRedactJSON(paths ...string) CassetteOption {
	return func(c *cassetteConfig) {
		for _, p := range paths {
			c.paths = append(c.paths, strings.Split(p, "."))
		}
	}
}

// WithRedactPattern replaces every match of re in URLs, header values and
// bodies by "[REDACTED]", before matching. The replacement must not match re
// again, or old cassettes stop matching.
func WithRedactPattern(re *regexp.Regexp) CassetteOption {
	return func(c *cassetteConfig) { c.patterns = append(c.patterns, re) }
}

// secretHeaders never reach a cassette file.
var secretHeaders = []string{
	"Authorization", "Proxy-Authorization", "Api-Key", "X-Api-Key",
	"OpenAI-Organization", "OpenAI-Project", "Cookie", "Set-Cookie",
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
	mode     RecordMode
	upstream http.RoundTripper
	redact   redactor
	syncFile func(*os.File) error
	existed  bool

	recordCmd string // replaces the go test command in miss messages

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

// NewRecorder opens the cassette at path (".yaml" is appended when missing).
// The mode comes from [RecordEnv] unless [WithRecordMode] sets it; with CI
// true, recording modes are refused. In replay mode a missing file is not an
// error: a request then misses and says how to record it.
func NewRecorder(path string, opts ...CassetteOption) (*Recorder, error) {
	cfg := cassetteConfig{getenv: os.Getenv, syncFile: (*os.File).Sync}
	for _, o := range opts {
		o(&cfg)
	}
	if !strings.HasSuffix(path, ".yaml") {
		path += ".yaml"
	}
	if !cfg.modeSet {
		m, err := ParseRecordMode(cfg.getenv(RecordEnv))
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
	if cfg.upstream == nil {
		cfg.upstream = http.DefaultTransport
	}
	r := &Recorder{
		path:     path,
		test:     cfg.test,
		pkg:      packageDir(),
		mode:     cfg.mode,
		upstream: cfg.upstream,
		redact:   newRedactor(cfg),
		syncFile: cfg.syncFile,
		slots:    make(map[string][]*cassette.Interaction),
		used:     make(map[string]int),
		routes:   make(map[string][]string),
		exact:    make(map[string]string),
	}
	r.recordCmd = cfg.command
	var loaded []*cassette.Interaction
	var existed bool
	var err error
	if cfg.dataSet {
		loaded, existed, err = loadCassetteData(path, cfg.data)
	} else {
		loaded, existed, err = loadCassette(path)
	}
	if err != nil && r.mode != RecordAll {
		// RecordAll replaces the file, so an unreadable one is no obstacle.
		if !errors.Is(err, fs.ErrPermission) {
			err = fmt.Errorf("%w\n  restore it from version control, or record it anew with: %s", err, r.rerecordCommand())
		}
		return nil, err
	}
	r.loaded, r.existed = loaded, existed
	if r.mode != RecordAll {
		for _, it := range loaded {
			key := r.redact.key(it.Request.Method, it.Request.URL, []byte(it.Request.Body))
			r.index(it, key)
			r.exact[string(exactKey(nil, it.Request.Method, it.Request.URL, []byte(it.Request.Body)))] = key
		}
	}
	return r, nil
}

// Cassette returns a Recorder on the test's own cassette,
// testdata/cassettes/<t.Name()>.yaml (subtests in subdirectories, unsafe
// characters replaced by "_"), and saves it when the test ends. A recorder
// that cannot start (a bad AGENTCHECK_RECORD, recording on CI, an unreadable
// cassette) fails the test.
func Cassette(t testing.TB, opts ...CassetteOption) *Recorder {
	t.Helper()
	cfg := cassetteConfig{dir: DefaultCassetteDir}
	for _, o := range opts {
		o(&cfg)
	}
	path := filepath.Join(cfg.dir, cassetteFileName(t.Name()))
	all := append([]CassetteOption{WithTestName(t.Name())}, opts...)
	r, err := NewRecorder(path, all...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := r.Close(); err != nil {
			t.Errorf("agentcheck: saving cassette: %v", err)
		}
	})
	return r
}

// RecordClient returns a copy of client (nil: a new client) whose requests go
// through the test's cassette, as [Cassette] does, so an agent's own HTTP
// traffic replays in CI. Misses are recorded through client's transport.
func RecordClient(t testing.TB, client *http.Client, opts ...CassetteOption) *http.Client {
	t.Helper()
	return Cassette(t, opts...).Client(client)
}

// Client returns a copy of client (nil: a new client) whose transport goes
// through this recorder's cassette; misses are recorded through client's own
// transport (http.DefaultTransport when it has none). One recorder can thus
// serve both the judge and the agent under test.
func (r *Recorder) Client(client *http.Client) *http.Client {
	var c http.Client
	if client != nil {
		c = *client
	}
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	c.Transport = &recordingTransport{r: r, upstream: next}
	return &c
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
func (r *Recorder) Mode() RecordMode { return r.mode }

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
	storedURL := r.redact.url(req.URL)
	storedBody := r.redact.body(body)
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

// exactKey is a request as it is stored: method, URL and body, unchanged,
// but for the URL's scheme and host, which requestKey ignores too, so that
// a cassette recorded against one server finds its requests byte for byte
// when replayed with another base URL. requestKey depends only on what
// exactKey keeps: method, escaped path, raw query and body (or the whole
// URL when it does not parse).
func exactKey(b []byte, method, storedURL string, body []byte) []byte {
	b = append(b, method...)
	b = append(b, ' ')
	if u, err := url.Parse(storedURL); err == nil {
		b = append(b, 'P')
		b = append(b, u.EscapedPath()...)
		b = append(b, '?')
		b = append(b, u.RawQuery...)
	} else {
		b = append(b, 'R')
		b = append(b, storedURL...)
	}
	b = append(b, '\n')
	return append(b, body...)
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
	stored := r.redact.body(respBody)
	it := &cassette.Interaction{
		Request: cassette.Request{
			Proto:         "HTTP/1.1",
			ProtoMajor:    1,
			ProtoMinor:    1,
			ContentLength: int64(len(storedBody)),
			Host:          req.URL.Host,
			Body:          string(storedBody),
			Headers:       r.redact.headers(req.Header),
			URL:           storedURL,
			Method:        req.Method,
		},
		Response: cassette.Response{
			Proto:         resp.Proto,
			ProtoMajor:    resp.ProtoMajor,
			ProtoMinor:    resp.ProtoMinor,
			ContentLength: int64(len(stored)),
			Body:          string(stored),
			Headers:       r.redact.headers(resp.Header),
			Status:        resp.Status,
			Code:          resp.StatusCode,
			Duration:      time.Since(start),
		},
	}
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

// Close saves the interactions recorded since the recorder started, if any:
// under a lock on the cassette's directory, it re-reads the file so that
// interactions another process recorded meanwhile are kept, and replaces it
// atomically (temporary file, fsync, rename). With RecordAll, the
// interactions the file held at the start are dropped. Close is idempotent.
func (r *Recorder) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	if len(r.added) == 0 {
		return nil
	}
	dir := filepath.Dir(r.path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("agentcheck: cassette %s: %w", r.path, err)
	}
	unlock, err := lockDir(dir)
	if err != nil {
		return fmt.Errorf("agentcheck: cassette %s: lock: %w", r.path, err)
	}
	defer unlock()
	current, _, err := loadCassette(r.path)
	if err != nil && r.mode != RecordAll {
		return err
	}
	var keep []*cassette.Interaction
	if r.mode == RecordAll {
		// Keep only what others added since we loaded: our old interactions
		// are the ones this run re-recorded.
		old := make(map[string]int, len(r.loaded))
		for _, it := range r.loaded {
			old[r.fingerprint(it)]++
		}
		for _, it := range current {
			if fp := r.fingerprint(it); old[fp] > 0 {
				old[fp]--
				continue
			}
			keep = append(keep, it)
		}
	} else {
		keep = current
	}
	c := cassette.New(strings.TrimSuffix(r.path, ".yaml"))
	c.Interactions = append(keep, r.added...)
	for i, it := range c.Interactions {
		it.ID = i
	}
	data, err := yaml.Marshal(c)
	if err != nil {
		return fmt.Errorf("agentcheck: cassette %s: %w", r.path, err)
	}
	return r.writeAtomic(append([]byte("---\n"), data...))
}

// recordingHeader marks each recorded response with an identity of its own,
// so that RecordAll, when it drops the interactions the file held at the
// start, tells them apart from identical ones another recorder of the same
// file has just written (a deterministic server answers both alike).
const recordingHeader = "X-Agentcheck-Recording"

func newRecordingID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func (r *Recorder) fingerprint(it *cassette.Interaction) string {
	if id := http.Header(it.Response.Headers).Get(recordingHeader); id != "" {
		return id
	}
	return r.redact.key(it.Request.Method, it.Request.URL, []byte(it.Request.Body)) +
		"\x00" + strconv.Itoa(it.Response.Code) + "\x00" + it.Response.Body
}

// writeAtomic replaces the cassette so that a reader, or a crash, sees either
// the old file or the new one, never a torn one.
func (r *Recorder) writeAtomic(data []byte) (err error) {
	dir, base := filepath.Split(r.path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return fmt.Errorf("agentcheck: cassette %s: %w", r.path, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
			err = fmt.Errorf("agentcheck: cassette %s not written, the old one is intact: %w", r.path, err)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = r.syncFile(f); err != nil {
		return err
	}
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(f.Name(), r.path); err != nil {
		return err
	}
	// Make the rename itself durable; not every system can sync a directory.
	if d, derr := os.Open(dir); derr == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// loadCassette reads a cassette with go-vcr's own loader; a missing file is
// an empty cassette.
func loadCassette(path string) (interactions []*cassette.Interaction, existed bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, fmt.Errorf("agentcheck: cassette %s: %w", path, err)
	}
	return loadCassetteData(path, data)
}

// loadCassetteData reads a cassette's content with go-vcr's own loader, and
// refuses one that is cut short: go-vcr reads an empty file as an empty
// cassette, and an interaction that lost its last fields as one whose
// response has status 0.
func loadCassetteData(path string, data []byte) (interactions []*cassette.Interaction, existed bool, err error) {
	if len(bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(data), []byte("---")))) == 0 {
		return nil, true, fmt.Errorf("agentcheck: cassette %s: the file is empty, yet a cassette always holds its version", path)
	}
	c, err := cassette.LoadWithFS(strings.TrimSuffix(path, ".yaml"), cassetteData(data))
	if err != nil {
		return nil, true, fmt.Errorf("agentcheck: cassette %s: %w", path, err)
	}
	for i, it := range c.Interactions {
		var missing []string
		switch {
		case it == nil:
			missing = []string{"content"}
		default:
			if it.Request.Method == "" {
				missing = append(missing, "request method")
			}
			if it.Request.URL == "" {
				missing = append(missing, "request url")
			}
			if it.Response.Code == 0 {
				missing = append(missing, "response code")
			}
		}
		if len(missing) > 0 {
			return nil, true, fmt.Errorf("agentcheck: cassette %s: interaction %d of %d has no %s: the file was cut short or edited",
				path, i, len(c.Interactions), strings.Join(missing, ", "))
		}
	}
	return c.Interactions, true, nil
}

// cassetteData is a go-vcr file system holding one cassette's content,
// whatever its name.
type cassetteData []byte

func (d cassetteData) ReadFile(string) ([]byte, error) { return d, nil }
func (d cassetteData) WriteFile(name string, _ []byte) error {
	return fmt.Errorf("cassette %s is read-only", name)
}
func (d cassetteData) IsFileExists(string) bool { return true }

func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}

// cassetteFileName turns a test name into a relative file name: subtests
// become directories, characters outside [A-Za-z0-9._-] become "_", and "."
// or ".." segments cannot climb out of the cassette directory.
func cassetteFileName(test string) string {
	segs := strings.Split(test, "/")
	for i, s := range segs {
		s = strings.Map(func(c rune) rune {
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_' {
				return c
			}
			return '_'
		}, s)
		if s == "" || strings.Trim(s, ".") == "" {
			s = strings.Repeat("_", max(len(s), 1))
		}
		segs[i] = s
	}
	return filepath.Join(segs...) + ".yaml"
}

// packageDir is the package go test runs in, relative to its module root
// ("./judge"), for the command a miss prints.
func packageDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			rel, err := filepath.Rel(dir, wd)
			if err != nil || rel == "." {
				return "."
			}
			return "./" + filepath.ToSlash(rel)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "."
		}
		dir = parent
	}
}

// requestKey is what a request matches by: method, path, sorted query and
// canonical body. Its first line is the route, "METHOD path".
func requestKey(method, rawURL string, body []byte) string {
	path, query := rawURL, ""
	if u, err := url.Parse(rawURL); err == nil {
		path = u.EscapedPath()
		if u.RawQuery != "" {
			if q, err := url.ParseQuery(u.RawQuery); err == nil {
				query = q.Encode()
			} else {
				query = u.RawQuery
			}
		}
	}
	b := make([]byte, 0, len(method)+len(path)+len(query)+len(body)+3)
	b = append(b, method...)
	b = append(b, ' ')
	b = append(b, path...)
	b = append(b, '\n')
	if query != "" {
		b = append(b, '?')
		b = append(b, query...)
	}
	b = append(b, '\n')
	if canon, ok := appendCanonicalJSON(b, body); ok {
		return string(canon)
	}
	return string(append(b, body...))
}

// redactor applies the redaction rules; the same rules shape stored requests
// and lookup keys, so a redacted value never decides a match.
type redactor struct {
	secret   []string
	paths    [][]string
	patterns []*regexp.Regexp
}

func newRedactor(cfg cassetteConfig) redactor {
	return redactor{
		secret:   append(slices.Clone(secretHeaders), cfg.headers...),
		paths:    cfg.paths,
		patterns: cfg.patterns,
	}
}

func (x redactor) key(method, rawURL string, body []byte) string {
	if len(x.patterns) > 0 || len(x.paths) > 0 {
		rawURL = x.text(rawURL)
		body = x.body(body)
	}
	return requestKey(method, rawURL, body)
}

func (x redactor) url(u *url.URL) string {
	if u.User != nil {
		c := *u
		c.User = nil
		u = &c
	}
	return x.text(u.String())
}

func (x redactor) text(s string) string {
	for _, re := range x.patterns {
		s = re.ReplaceAllLiteralString(s, redacted)
	}
	return s
}

func (x redactor) headers(h http.Header) http.Header {
	out := make(http.Header, len(h))
	for name, values := range h {
		if slices.ContainsFunc(x.secret, func(s string) bool { return strings.EqualFold(s, name) }) {
			continue
		}
		vs := make([]string, len(values))
		for i, v := range values {
			vs[i] = x.text(v)
		}
		out[name] = vs
	}
	return out
}

func (x redactor) body(b []byte) []byte {
	for _, re := range x.patterns {
		b = re.ReplaceAllLiteral(b, []byte(redacted))
	}
	if len(x.paths) == 0 || len(b) == 0 {
		return b
	}
	v, err := decodeJSON(b)
	if err != nil {
		return b
	}
	changed := false
	for _, p := range x.paths {
		v = redactPath(v, p, &changed)
	}
	if !changed {
		return b
	}
	return encodeJSON(v, "")
}

func redactPath(v any, path []string, changed *bool) any {
	if len(path) == 0 {
		*changed = true
		return redacted
	}
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if path[0] == "*" || path[0] == k {
				v[k] = redactPath(e, path[1:], changed)
			}
		}
	case []any:
		for i, e := range v {
			if path[0] == "*" || path[0] == strconv.Itoa(i) {
				v[i] = redactPath(e, path[1:], changed)
			}
		}
	}
	return v
}

func decodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("trailing data")
	}
	return v, nil
}

func encodeJSON(v any, indent string) []byte {
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false)
	e.SetIndent("", indent)
	e.Encode(v) // values come from decodeJSON: always encodable
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// appendCanonicalJSON appends b's canonical form: no insignificant
// whitespace, object members ordered by their key, strings written as
// encoding/json writes the string they decode to (so "\u00e9" and "é"
// match), numbers as their literal text. ok is false when b is not one JSON
// value. It is a hand scanner because matching runs on every replayed
// request.
func appendCanonicalJSON(dst, b []byte) (out []byte, ok bool) {
	p := canonScanner{b: b}
	p.skipSpace()
	if p.i == len(b) {
		return dst, false
	}
	dst, ok = p.value(dst, 0)
	p.skipSpace()
	return dst, ok && p.i == len(b)
}

type canonScanner struct {
	b []byte
	i int
	// members is a stack shared by nested objects, to spare an allocation
	// per object.
	members []canonMember
}

func (p *canonScanner) skipSpace() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *canonScanner) value(dst []byte, depth int) ([]byte, bool) {
	if p.i >= len(p.b) || depth > 1000 {
		return dst, false
	}
	switch c := p.b[p.i]; {
	case c == '{':
		return p.object(dst, depth)
	case c == '[':
		p.i++
		dst = append(dst, '[')
		p.skipSpace()
		if p.i < len(p.b) && p.b[p.i] == ']' {
			p.i++
			return append(dst, ']'), true
		}
		for {
			var ok bool
			p.skipSpace()
			if dst, ok = p.value(dst, depth+1); !ok {
				return dst, false
			}
			p.skipSpace()
			if p.i >= len(p.b) {
				return dst, false
			}
			switch p.b[p.i] {
			case ',':
				p.i++
				dst = append(dst, ',')
			case ']':
				p.i++
				return append(dst, ']'), true
			default:
				return dst, false
			}
		}
	case c == '"':
		s, ok := p.str()
		if !ok {
			return dst, false
		}
		return appendCanonicalString(dst, s)
	case c == '-' || c >= '0' && c <= '9':
		start := p.i
		for p.i < len(p.b) && strings.IndexByte("+-.eE0123456789", p.b[p.i]) >= 0 {
			p.i++
		}
		return append(dst, p.b[start:p.i]...), true
	default:
		for _, lit := range [...]string{"true", "false", "null"} {
			if bytes.HasPrefix(p.b[p.i:], []byte(lit)) {
				p.i += len(lit)
				return append(dst, lit...), true
			}
		}
		return dst, false
	}
}

// str returns the string literal at p.i, quotes included.
func (p *canonScanner) str() ([]byte, bool) {
	start := p.i
	p.i++
	for {
		j := bytes.IndexByte(p.b[p.i:], '"')
		if j < 0 {
			return nil, false
		}
		p.i += j + 1
		// The quote ends the string unless an odd run of backslashes
		// escapes it.
		bs := 0
		for k := p.i - 2; k > start && p.b[k] == '\\'; k-- {
			bs++
		}
		if bs%2 == 0 {
			return p.b[start:p.i], true
		}
	}
}

// appendCanonicalString appends the string literal lit (quotes included)
// as encoding/json writes the string it decodes to: escapes in one form,
// invalid UTF-8 and lone surrogates as U+FFFD. ok is false for a literal
// JSON does not allow (a bad escape, a raw control character).
func appendCanonicalString(dst, lit []byte) ([]byte, bool) {
	body := lit[1 : len(lit)-1]
	plain := true
	for _, c := range body {
		if c < 0x20 || c >= utf8.RuneSelf || c == '\\' || c == '<' || c == '>' || c == '&' {
			plain = false
			break
		}
	}
	if plain {
		return append(dst, lit...), true
	}
	dst = append(dst, '"')
	for i := 0; i < len(body); {
		r, n := rune(body[i]), 1
		switch {
		case r == '\\':
			if i+1 >= len(body) {
				return dst, false
			}
			n = 2
			switch body[i+1] {
			case '"', '\\', '/':
				r = rune(body[i+1])
			case 'b':
				r = '\b'
			case 'f':
				r = '\f'
			case 'n':
				r = '\n'
			case 'r':
				r = '\r'
			case 't':
				r = '\t'
			case 'u':
				var ok bool
				if r, ok = hexRune(body[i+2:]); !ok {
					return dst, false
				}
				n = 6
				if utf16.IsSurrogate(r) {
					lo := rune(-1)
					if rest := body[i+6:]; len(rest) >= 2 && rest[0] == '\\' && rest[1] == 'u' {
						lo, _ = hexRune(rest[2:])
					}
					if r = utf16.DecodeRune(r, lo); r != utf8.RuneError {
						n = 12
					}
				}
			default:
				return dst, false
			}
		case r < 0x20:
			return dst, false
		case r >= utf8.RuneSelf:
			r, n = utf8.DecodeRune(body[i:])
		}
		i += n
		switch r {
		case '"', '\\':
			dst = append(dst, '\\', byte(r))
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '<', '>', '&', '\u2028', '\u2029':
			dst = appendUEscape(dst, r)
		default:
			if r < 0x20 {
				dst = appendUEscape(dst, r)
			} else {
				dst = utf8.AppendRune(dst, r)
			}
		}
	}
	return append(dst, '"'), true
}

func appendUEscape(dst []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(dst, '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
}

// hexRune reads the 4 hex digits of a \u escape.
func hexRune(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

type canonMember struct {
	start, keyEnd, end int // the member's canonical text in dst, and its key's
}

func (p *canonScanner) object(dst []byte, depth int) ([]byte, bool) {
	p.i++
	base := len(dst)
	dst = append(dst, '{')
	p.skipSpace()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return append(dst, '}'), true
	}
	first := len(p.members)
	defer func() { p.members = p.members[:first] }()
	for {
		p.skipSpace()
		if p.i >= len(p.b) || p.b[p.i] != '"' {
			return dst, false
		}
		key, ok := p.str()
		if !ok {
			return dst, false
		}
		p.skipSpace()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return dst, false
		}
		p.i++
		p.skipSpace()
		start := len(dst)
		if dst, ok = appendCanonicalString(dst, key); !ok {
			return dst, false
		}
		keyEnd := len(dst)
		dst = append(dst, ':')
		if dst, ok = p.value(dst, depth+1); !ok {
			return dst, false
		}
		p.members = append(p.members, canonMember{start: start, keyEnd: keyEnd, end: len(dst)})
		p.skipSpace()
		if p.i >= len(p.b) {
			return dst, false
		}
		if p.b[p.i] == '}' {
			p.i++
			break
		}
		if p.b[p.i] != ',' {
			return dst, false
		}
		p.i++
		dst = append(dst, ',')
	}
	members := p.members[first:]
	byKey := func(a, b canonMember) int { return bytes.Compare(dst[a.start:a.keyEnd], dst[b.start:b.keyEnd]) }
	if !slices.IsSortedFunc(members, byKey) {
		slices.SortStableFunc(members, byKey)
		text := slices.Clone(dst[base:])
		dst = append(dst[:base], '{')
		for i, m := range members {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, text[m.start-base:m.end-base]...)
		}
	}
	return append(dst, '}'), true
}

// ReplayMissError is returned by [Recorder.RoundTrip] (wrapped by the HTTP
// client) when the cassette has no interaction left for a request and
// recording is off. Its message names the cassette, the test, the closest
// recorded request with a diff against it, and the command that records it.
type ReplayMissError struct {
	Cassette string // the cassette file
	Test     string // the test, when known
	Request  string // "POST /v1/chat/completions"
	Reason   string // why nothing matched
	Closest  string // the closest recorded request, "" when there is none
	Diff     string // -recorded +got lines against Closest
	Hint     string // e.g. that the prompt version changed
	Command  string // the command that records the missing interaction
}

func (e *ReplayMissError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "agentcheck: replay miss: %s: %s\n", e.Request, e.Reason)
	fmt.Fprintf(&b, "  cassette: %s\n", e.Cassette)
	if e.Test != "" {
		fmt.Fprintf(&b, "  test: %s\n", e.Test)
	}
	if e.Closest != "" {
		fmt.Fprintf(&b, "  closest recorded request: %s\n", e.Closest)
	}
	if e.Diff != "" {
		b.WriteString("  diff (-recorded +got):\n")
		for _, l := range strings.Split(e.Diff, "\n") {
			b.WriteString("    " + l + "\n")
		}
	}
	if e.Hint != "" {
		fmt.Fprintf(&b, "  hint: %s\n", e.Hint)
	}
	fmt.Fprintf(&b, "  record it with: %s", e.Command)
	return b.String()
}

// miss builds the error for a request nothing answers. It is off the fast
// path, so it may scan every key of the route.
func (r *Recorder) miss(key string) error {
	route := key[:strings.IndexByte(key, '\n')]
	e := &ReplayMissError{
		Cassette: r.path,
		Test:     r.test,
		Request:  route,
		Command:  r.command(),
	}
	r.mu.Lock()
	recorded, used := len(r.slots[key]), r.used[key]
	candidates := slices.Clone(r.routes[route])
	total := 0
	for _, s := range r.slots {
		total += len(s)
	}
	var slots []*cassette.Interaction
	best, bestDist := "", -1
	for _, k := range candidates {
		if d := bodyDistance(k, key); bestDist < 0 || d < bestDist {
			best, bestDist = k, d
		}
	}
	if best != "" {
		slots = r.slots[best]
	}
	r.mu.Unlock()

	switch {
	case recorded > 0:
		e.Reason = fmt.Sprintf("the cassette holds %d interaction(s) for this exact request and this run already replayed them all (this is identical request #%d); record the extra call", recorded, used+1)
		return e
	case !r.existed:
		e.Reason = "the cassette file does not exist yet"
	case best == "":
		e.Reason = fmt.Sprintf("no recorded request has this method and path (the cassette holds %d interaction(s))", total)
	default:
		e.Reason = "no recorded request has this body"
	}
	if best == "" {
		return e
	}
	it := slots[0]
	e.Closest = fmt.Sprintf("interaction %d, %s %s", it.ID, it.Request.Method, it.Request.URL)
	wantQuery, wantBody := splitKey(best)
	gotQuery, gotBody := splitKey(key)
	var diff []string
	if wantQuery != gotQuery {
		diff = append(diff, "- query: "+strings.TrimPrefix(wantQuery, "?"), "+ query: "+strings.TrimPrefix(gotQuery, "?"))
	}
	diff = append(diff, lineDiff(prettyBody(wantBody), prettyBody(gotBody), 24)...)
	e.Diff = strings.Join(diff, "\n")
	if w, g := promptVersion(wantBody), promptVersion(gotBody); w != g {
		e.Hint = fmt.Sprintf("the prompt version differs (recorded %q, now %q): the judge's prompt changed, so its cassettes need re-recording; %s also drops the old prompt's interactions",
			w, g, r.rerecordCommand())
	}
	return e
}

// rerecordCommand is command with AGENTCHECK_RECORD=all: it records the
// test's interactions anew, dropping the cassette's old ones.
func (r *Recorder) rerecordCommand() string {
	cmd := r.command()
	if rest, ok := strings.CutPrefix(cmd, RecordEnv+"=missing "); ok {
		return RecordEnv + "=all " + rest
	}
	return RecordEnv + "=all " + cmd
}

// command is the shell command that records this test's missing
// interactions.
func (r *Recorder) command() string {
	if r.recordCmd != "" {
		return r.recordCmd
	}
	cmd := RecordEnv + "=missing go test " + r.pkg
	if r.test == "" {
		return cmd
	}
	segs := strings.Split(r.test, "/")
	for i, s := range segs {
		segs[i] = "^" + regexp.QuoteMeta(s) + "$"
	}
	return cmd + " -run '" + strings.ReplaceAll(strings.Join(segs, "/"), "'", `'\''`) + "'"
}

func splitKey(key string) (query, body string) {
	rest := key[strings.IndexByte(key, '\n')+1:]
	nl := strings.IndexByte(rest, '\n')
	return rest[:nl], rest[nl+1:]
}

// bodyDistance is a cheap stand-in for the size of a textual diff between
// two canonical requests: the members and elements (split at , { [) that one
// has and the other lacks are paired in order, and each pair costs the bytes
// left after trimming their common prefix and suffix.
func bodyDistance(a, b string) int {
	ta, tb := tokens(a), tokens(b)
	ua, ub := unmatched(ta, tb), unmatched(tb, ta)
	cost := 0
	for i := range max(len(ua), len(ub)) {
		switch {
		case i >= len(ua):
			cost += len(ub[i])
		case i >= len(ub):
			cost += len(ua[i])
		default:
			x, y := ua[i], ub[i]
			p := 0
			for p < len(x) && p < len(y) && x[p] == y[p] {
				p++
			}
			s := 0
			for s < len(x)-p && s < len(y)-p && x[len(x)-1-s] == y[len(y)-1-s] {
				s++
			}
			cost += len(x) + len(y) - 2*(p+s)
		}
	}
	return cost
}

// unmatched returns, in order, the tokens of a that b does not have (as
// multisets).
func unmatched(a, b []string) []string {
	count := make(map[string]int, len(b))
	for _, t := range b {
		count[t]++
	}
	var out []string
	for _, t := range a {
		if count[t] > 0 {
			count[t]--
			continue
		}
		out = append(out, t)
	}
	return out
}

func tokens(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '{' || r == '[' || r == '\n' })
}

func prettyBody(body string) []string {
	if v, err := decodeJSON([]byte(body)); err == nil {
		return strings.Split(string(encodeJSON(v, "  ")), "\n")
	}
	return strings.Split(body, "\n")
}

func promptVersion(body string) string {
	var v struct {
		User string `json:"user"`
	}
	if json.Unmarshal([]byte(body), &v) != nil {
		return ""
	}
	return strings.TrimPrefix(v.User, promptVersionPrefix)
}

// lineDiff renders the changed lines of want → got with one line of context,
// at most limit lines; long lines are cut around their first difference.
func lineDiff(want, got []string, limit int) []string {
	pre := 0
	for pre < len(want) && pre < len(got) && want[pre] == got[pre] {
		pre++
	}
	suf := 0
	for suf < len(want)-pre && suf < len(got)-pre && want[len(want)-1-suf] == got[len(got)-1-suf] {
		suf++
	}
	w, g := want[pre:len(want)-suf], got[pre:len(got)-suf]
	type op struct {
		kind byte // ' ', '-', '+'
		line string
	}
	var ops []op
	if pre > 0 {
		ops = append(ops, op{' ', want[pre-1]})
	}
	if len(w)*len(g) <= 250_000 {
		// Longest common subsequence, walked forwards.
		lcs := make([][]int32, len(w)+1)
		for i := range lcs {
			lcs[i] = make([]int32, len(g)+1)
		}
		for i := len(w) - 1; i >= 0; i-- {
			for j := len(g) - 1; j >= 0; j-- {
				if w[i] == g[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < len(w) || j < len(g) {
			switch {
			case i < len(w) && j < len(g) && w[i] == g[j]:
				ops = append(ops, op{' ', w[i]})
				i++
				j++
			case j == len(g) || i < len(w) && lcs[i+1][j] >= lcs[i][j+1]:
				ops = append(ops, op{'-', w[i]})
				i++
			default:
				ops = append(ops, op{'+', g[j]})
				j++
			}
		}
	} else {
		for _, l := range w {
			ops = append(ops, op{'-', l})
		}
		for _, l := range g {
			ops = append(ops, op{'+', l})
		}
	}
	if suf > 0 {
		ops = append(ops, op{' ', want[len(want)-suf]})
	}
	// Keep changed lines and their immediate neighbours.
	var out []string
	lastKept := -2
	for k, o := range ops {
		near := o.kind != ' ' || k > 0 && ops[k-1].kind != ' ' || k+1 < len(ops) && ops[k+1].kind != ' '
		if !near {
			continue
		}
		if lastKept >= 0 && k > lastKept+1 {
			out = append(out, "  ...")
		}
		lastKept = k
		line := o.line
		if o.kind != ' ' {
			// Align the cut of a changed line with its counterpart.
			other := ""
			for _, p := range ops[k+1:] {
				if p.kind != ' ' && p.kind != o.kind {
					other = p.line
					break
				}
				if p.kind == ' ' {
					break
				}
			}
			if other == "" {
				for q := k - 1; q >= 0 && ops[q].kind != ' '; q-- {
					if ops[q].kind != o.kind {
						other = ops[q].line
					}
				}
			}
			line = cutAround(line, other)
		} else {
			line = cutAround(line, line)
		}
		out = append(out, string(o.kind)+" "+line)
		if len(out) >= limit {
			out = append(out, "  ... (diff cut)")
			break
		}
	}
	return out
}

// cutAround shortens a long line to a window around where it starts to
// differ from other.
func cutAround(line, other string) string {
	const width = 100
	if len(line) <= width {
		return line
	}
	p := 0
	for p < len(line) && p < len(other) && line[p] == other[p] {
		p++
	}
	if p == len(line) && line == other {
		p = 0
	}
	start := max(0, p-width/3)
	end := min(len(line), start+width)
	s := strings.ToValidUTF8(line[start:end], "")
	if start > 0 {
		s = "…" + s
	}
	if end < len(line) {
		s += "…"
	}
	return s
}
