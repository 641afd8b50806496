package judge

import (
	"errors"
	"net/http"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// ForTest returns a judge for the test t: a Client, configured by opts as
// New configures one, whose requests go through t's own cassette as
// Cassette(t) opens it: testdata/cassettes/<t.Name()>.yaml, replayed by
// default, recorded only when AGENTCHECK_RECORD says so (never with CI=true,
// which fails the test), saved when the test ends. Replaying needs no key
// and no network:
//
//	j := judge.ForTest(t)
//	g.Expect(conversation).To(matchers.AchieveGoal(j))
//
// CassetteOptions among opts configure that cassette. The judges of one
// test that name the same cassette (a panel's members) share one recorder,
// opened with the first judge's options. A recorder given with WithCassette
// or WithRecorder takes the cassette's place, e.g. one cassette shared by
// the judge and the agent under test. Answers that go through the test's
// cassette, recorded or replayed, carry its path as their Source, so a
// failure message names the file to re-record in both runs alike.
func ForTest(t testing.TB, opts ...Option) *Client {
	t.Helper()
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	var copts []CassetteOption
	if o.recorder != nil {
		p := &cassetteProbe{}
		o.recorder(p)
		if !p.seen {
			return New(opts...) // the caller's own recorder
		}
		copts = p.opts
	}
	rec := testCassette(t, copts)
	return New(append(slices.Clone(opts), WithRecorder(func(next http.RoundTripper) http.RoundTripper {
		return namedCassette{rec.Client(&http.Client{Transport: next}).Transport, rec.Path()}
	}))...)
}

// openCassettes are the cassettes ForTest has open, by path, so that the
// judges of one test (a panel's members) share one recorder. Recorders of
// the same file would each save it at the end of the test, and with
// RecordAll the last to save cannot tell the other's fresh recordings from
// the stale ones it replaces when a deterministic server answered alike.
var openCassettes = struct {
	sync.Mutex
	m map[string]*Recorder
}{m: map[string]*Recorder{}}

// testCassette is Cassette(t, opts...), shared by the ForTest calls of a
// test that name the same file; the first call's options open it.
func testCassette(t testing.TB, opts []CassetteOption) *Recorder {
	t.Helper()
	cfg := cassetteConfig{dir: DefaultCassetteDir}
	for _, o := range opts {
		o(&cfg)
	}
	path, err := filepath.Abs(filepath.Join(cfg.dir, cassetteFileName(t.Name())))
	if err != nil {
		t.Fatalf("agentcheck: cassette for %s: %v", t.Name(), err)
	}
	openCassettes.Lock()
	defer openCassettes.Unlock()
	if rec, ok := openCassettes.m[path]; ok {
		return rec
	}
	rec := Cassette(t, opts...)
	openCassettes.m[path] = rec
	t.Cleanup(func() {
		openCassettes.Lock()
		delete(openCassettes.m, path)
		openCassettes.Unlock()
	})
	return rec
}

// CassetteOptions configures the cassette ForTest opens, e.g.
// judge.ForTest(t, judge.CassetteOptions(judge.WithCassetteDir("cassettes"))).
// Several add up. It means nothing to New, which has no test to name a
// cassette after: a client made so fails every request, saying to use
// WithCassette(Cassette(t, ...)) instead.
func CassetteOptions(opts ...CassetteOption) Option {
	opts = slices.Clone(opts)
	return func(o *options) {
		prev := o.recorder
		o.recorder = func(next http.RoundTripper) http.RoundTripper {
			if p, ok := next.(*cassetteProbe); ok {
				// ForTest asks which cassette options were given; an
				// earlier CassetteOptions answers first.
				if prev != nil {
					prev(p)
				}
				p.seen = true
				p.opts = append(p.opts, opts...)
				return p
			}
			return misplacedCassetteOptions{}
		}
	}
}

// cassetteProbe is how ForTest reads CassetteOptions back out of its
// options: it passes the probe to the recorder they installed, as if it were
// the transport to wrap. Options are functions on an unexported struct, so
// this keeps CassetteOptions an ordinary Option.
type cassetteProbe struct {
	seen bool
	opts []CassetteOption
}

func (*cassetteProbe) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("judge: internal error: the cassette probe was used as a transport")
}

type misplacedCassetteOptions struct{}

func (misplacedCassetteOptions) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		req.Body.Close()
	}
	return nil, errors.New("judge.CassetteOptions only configures the cassette of judge.ForTest; " +
		"with judge.New, use judge.WithCassette(judge.Cassette(t, options...))")
}

// namedCassette marks an answer that went through the test's cassette with
// the cassette's path, as the recorder marks the answers it replays, so that
// a recording run and its replays report the same Source.
type namedCassette struct {
	next http.RoundTripper
	path string
}

func (c namedCassette) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := c.next.RoundTrip(req)
	// Only 2xx and 3xx answers are recorded; a failure was not.
	if err == nil && resp.StatusCode >= 200 && resp.StatusCode < 400 {
		if resp.Header == nil {
			resp.Header = http.Header{}
		}
		if resp.Header.Get(CassetteHeader) == "" {
			resp.Header.Set(CassetteHeader, c.path)
		}
	}
	return resp, err
}
