// Package recorder records HTTP exchanges into go-vcr v4 cassette files and
// replays them, so that tests which call a model (an LLM judge, the agent
// under test through its own http.Client) run offline, without a key, in CI.
// A Recorder replays by default; AGENTCHECK_RECORD=missing records the
// requests its cassette lacks and AGENTCHECK_RECORD=all records them all
// anew, never with CI=true. Requests match by method, path, query and
// canonical JSON body through an index, so a replay costs a map lookup; a
// miss names the cassette, the test, the closest recorded request with a
// diff against it, and the command that records it; through [Recorder.Client]
// and [Recorder.Transport] a miss is answered so that SDKs do not retry it.
// Bodies are stored decoded from any content coding (gzip, deflate, br,
// zstd), and a body that is not UTF-8 (an image, audio) as YAML's !!binary,
// the form go-vcr writes itself, so it replays byte for byte. Credentials
// and the project's own secrets (package secrets) never reach the file,
// which is saved atomically and merged under a lock with what other
// processes recorded meanwhile. ForTest gives a test its own cassette,
// testdata/cassettes/<test name>.yaml (CassetteFile), and prints the
// command that records that test alone; it takes a small interface that
// *testing.T and Ginkgo's GinkgoT() both satisfy.
package recorder

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/agentcheck/agentcheck/secrets"
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
	// Prune replays like RecordNone, then drops from the cassette the
	// interactions this run did not use, provided that every request was
	// answered and the test passed (ForTest), so that a run which stopped
	// early never prunes what its later requests would have used.
	Prune
)

func (m Mode) String() string {
	switch m {
	case RecordNone:
		return "none"
	case RecordMissing:
		return "missing"
	case RecordAll:
		return "all"
	case Prune:
		return "prune"
	}
	return "Mode(" + strconv.Itoa(int(m)) + ")"
}

// ParseMode reads a value of [RecordEnv]: "", "none", "missing", "all" or
// "prune".
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "none", "replay":
		return RecordNone, nil
	case "missing":
		return RecordMissing, nil
	case "all":
		return RecordAll, nil
	case "prune":
		return Prune, nil
	}
	return RecordNone, fmt.Errorf("agentcheck: %s=%q: want missing, all, prune, or empty to replay", RecordEnv, s)
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
	maxBody  int64
	normal   []Normalizer
}

// syncFile is how a recorder flushes a cassette it wrote, and then the
// directory the cassette was renamed in: (*os.File).Sync. The package's
// tests, which write thousands of cassettes to temporary directories,
// leave out the disk's flush (nosync_test.go), but for the crash test.
var syncFile = (*os.File).Sync

func newConfig(opts []Option) config {
	cfg := config{dir: DefaultDir, getenv: os.Getenv, syncFile: syncFile, maxBody: DefaultMaxBodyBytes}
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

// WithMode sets the mode in code; it overrides [RecordEnv]. Recording (and
// pruning) is still refused on CI (see [CI]).
func WithMode(m Mode) Option {
	return func(c *config) { c.mode, c.modeSet = m, true }
}

// WithEnv replaces os.Getenv for reading AGENTCHECK_RECORD and the CI
// variables, so that a test can set them without touching the process
// environment.
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

// WithRedaction adds a project's own redaction rules (package secrets) to
// what is always scrubbed (credential headers, query, form and JSON fields
// named as credentials, credential-shaped values, echoes of the request's
// credentials): their headers are dropped too, and the values of their
// field names, JSON paths, patterns, environment variables and Func become
// "[REDACTED]" in stored requests and responses. Redaction happens before
// matching, so a redacted value may differ between the recording and the
// replay. Several add up; a rule that cannot work makes Open fail.
// agentcheck cassettes check, given the same rules, proves they applied.
func WithRedaction(rules secrets.Rules) Option {
	return func(c *config) { c.rules = c.rules.Merge(rules) }
}

// DefaultMaxBodyBytes bounds each request and response body the recorder
// reads, 32 MiB; [WithMaxBodyBytes] sets another bound.
const DefaultMaxBodyBytes = 32 << 20

// WithMaxBodyBytes bounds the bodies the recorder reads and stores, as
// sent and, for a compressed body, once decoded. A body over the bound is
// never read (or decoded) whole: the exchange fails with a
// *[BodyTooLargeError] as soon as the bound is passed.
func WithMaxBodyBytes(n int64) Option {
	return func(c *config) { c.maxBody = n }
}

// Request is a request as the recorder matches and stores it, for a
// [Normalizer] to rewrite.
type Request struct {
	Method string
	URL    *url.URL
	Body   []byte
}

// A Normalizer rewrites a request before it is matched and stored: it
// drops what changes from run to run and says nothing about what was asked,
// such as a timestamp or a request id in the agent's own requests. The
// cassette stores the normalized request, and a cassette's requests are
// normalized again when it is opened, so a normalizer added later applies to
// old recordings too; it must therefore give the same result when applied
// twice. The upstream server always gets the request as sent. Without
// normalizers, bodies match exactly (JSON in canonical form).
//
//	recorder.WithNormalizer(func(r *recorder.Request) {
//		r.Body = timestamp.ReplaceAll(r.Body, []byte(`"ts":0`))
//	})
type Normalizer func(*Request)

// WithNormalizer adds a normalizer; several apply in order.
func WithNormalizer(n Normalizer) Option {
	return func(c *config) { c.normal = append(c.normal, n) }
}

// CI reports whether the environment is a CI run, and which variable says
// so. CI is set by most CI systems; any value but "", "0", "false", "no" or
// "off" (in any case) counts. Other systems are known by their own
// variables (GITHUB_ACTIONS, GITLAB_CI, BUILDKITE, CIRCLECI, TRAVIS,
// JENKINS_URL, TF_BUILD, TEAMCITY_VERSION, BITBUCKET_BUILD_NUMBER,
// CODEBUILD_BUILD_ID, DRONE, APPVEYOR, ...). On CI
// the recorder only replays.
func CI(getenv func(string) string) (bool, string) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if v := strings.TrimSpace(getenv("CI")); v != "" {
		switch strings.ToLower(v) {
		case "0", "false", "no", "off":
			return false, ""
		}
		return true, "CI=" + v
	}
	for _, name := range ciVariables {
		if getenv(name) != "" {
			return true, name
		}
	}
	return false, ""
}

// ciVariables are set by CI systems that do not set CI, or not always.
var ciVariables = []string{
	"GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE", "CIRCLECI", "TRAVIS", "JENKINS_URL", "HUDSON_URL",
	"TF_BUILD", "TEAMCITY_VERSION", "BITBUCKET_BUILD_NUMBER", "CODEBUILD_BUILD_ID", "DRONE",
	"APPVEYOR", "SEMAPHORE", "WOODPECKER_CI", "BUDDY_WORKSPACE_ID", "CIRRUS_CI", "NETLIFY",
	"VERCEL", "HEROKU_TEST_RUN_ID", "CF_BUILD_ID", "BUILDKITE_BUILD_ID", "GO_PIPELINE_NAME",
	"SYSTEM_TEAMFOUNDATIONCOLLECTIONURI", "CI_NAME", "CONTINUOUS_INTEGRATION",
}
