package scenario

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"sync"

	"github.com/agentcheck/agentcheck/judgment"
)

// Limiter bounds the model requests in flight at once, across every
// scenario that shares it: the simulated user's and the judge's questions
// (Scenario.Limiter), and the agent's own requests when its client is made
// by Client. A request waits for a free slot, or for its context to end. A
// Limiter is safe for concurrent use; share one between parallel tests.
type Limiter struct {
	slots chan struct{}
}

// NewLimiter allows n requests at once (at least 1).
func NewLimiter(n int) *Limiter {
	return &Limiter{slots: make(chan struct{}, max(n, 1))}
}

// holding marks a context whose request holds a slot of a Limiter, so that
// what it calls in turn (a judge client whose transport is limited too)
// does not wait for a second slot of the same Limiter.
type holding struct{ l *Limiter }

// acquire waits for a slot and returns the context to make the request
// with and the function that frees the slot.
func (l *Limiter) acquire(ctx context.Context) (context.Context, func(), error) {
	if l == nil || ctx.Value(holding{l}) != nil {
		return ctx, func() {}, nil
	}
	ended := func() error {
		return fmt.Errorf("waiting for a free request slot (Scenario.Limiter, %d at once): %w", cap(l.slots), context.Cause(ctx))
	}
	if ctx.Err() != nil { // select would pick a free slot half the time
		return ctx, nil, ended()
	}
	select {
	case l.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx, nil, ended()
	}
	var once sync.Once
	return context.WithValue(ctx, holding{l}, true), func() { once.Do(func() { <-l.slots }) }, nil
}

// Client returns a copy of hc (http.DefaultClient's settings when nil)
// whose requests wait for a slot: give it to the agent, in place of hc.
//
//	cfg := openai.DefaultConfig(key)
//	cfg.HTTPClient = limiter.Client(recorder.ForTest(t).Client())
//	agent := goopenai.Agent(openai.NewClientWithConfig(cfg), model, ...)
func (l *Limiter) Client(hc *http.Client) *http.Client {
	c := http.Client{}
	if hc != nil {
		c = *hc
	}
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	c.Transport = limitedTransport{l, next}
	return &c
}

type limitedTransport struct {
	l    *Limiter
	next http.RoundTripper
}

func (t limitedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, release, err := t.l.acquire(req.Context())
	if err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	resp, err := t.next.RoundTrip(req.WithContext(ctx))
	if err != nil {
		release()
		return nil, err
	}
	// The slot is the request's until its answer is read.
	resp.Body = &releasingBody{ReadCloser: resp.Body, release: release}
	return resp, nil
}

type releasingBody struct {
	io.ReadCloser
	release func()
}

func (b *releasingBody) Close() error {
	err := b.ReadCloser.Close()
	b.release()
	return err
}

// Judge returns j whose questions wait for a slot; a panel stays a panel
// (judgment.Panel), each member waiting for its own slot.
func (l *Limiter) Judge(j judgment.Judge) judgment.Judge {
	if p, ok := j.(judgment.Panel); ok && len(p.Members()) > 0 {
		members := p.Members()
		limited := make([]judgment.Judge, len(members))
		for i, m := range members {
			limited[i] = limitedJudge{l, m}
		}
		return limitedPanel{limitedJudge{l, j}, limited, p.Aggregation()}
	}
	return limitedJudge{l, j}
}

type limitedJudge struct {
	l *Limiter
	j judgment.Judge
}

func (lj limitedJudge) Ask(ctx context.Context, q judgment.Question) (judgment.Answer, error) {
	ctx, release, err := lj.l.acquire(ctx)
	if err != nil {
		return judgment.Answer{}, fmt.Errorf("%s: %w", q.Name, err)
	}
	defer release()
	return lj.j.Ask(ctx, q)
}

// Model is the limited judge's model, for reports.
func (lj limitedJudge) Model() string { return modelOf(lj.j) }

type limitedPanel struct {
	limitedJudge
	members []judgment.Judge
	agg     judgment.Aggregation
}

func (p limitedPanel) Members() []judgment.Judge         { return p.members }
func (p limitedPanel) Aggregation() judgment.Aggregation { return p.agg }

// modelOf names a judge for reports before it has answered.
func modelOf(j judgment.Judge) string {
	if m, ok := j.(interface{ Model() string }); ok {
		return m.Model()
	}
	return fmt.Sprintf("%T", j)
}

// hooks are what a run lends the simulated user and the judge through the
// context: the limiter their questions wait on, and where the cassettes
// their answers came from are noted for the report.
type hooks struct {
	limiter *Limiter
	// label is the run's case in the cassette when the run chose it
	// (Run: the scenario's Name), "" when its caller did (Case).
	label   string
	mu      sync.Mutex
	sources []source
	claimed []runKey
}

// running are the runs in progress that chose their case, by that case and
// the model client (a pointer: one client, one cassette) they asked through.
// Two runs of one Name through one cassette at once file their requests
// under one case, and a replay could give each the other's answers.
var running = struct {
	sync.Mutex
	m map[runKey]*hooks
}{m: map[runKey]*hooks{}}

type runKey struct {
	client uintptr
	label  string
}

// claim notes that the run asks through j, and reports whether another run
// of its case asks through j at the same time.
func (h *hooks) claim(j judgment.Judge) (shared bool) {
	v := reflect.ValueOf(j)
	if h.label == "" || v.Kind() != reflect.Pointer {
		return false
	}
	k := runKey{v.Pointer(), h.label}
	running.Lock()
	defer running.Unlock()
	switch owner := running.m[k]; owner {
	case h:
		return false
	case nil:
		running.m[k] = h
		h.mu.Lock()
		h.claimed = append(h.claimed, k)
		h.mu.Unlock()
		return false
	}
	return true
}

// release ends the run's claims.
func (h *hooks) release() {
	h.mu.Lock()
	claimed := h.claimed
	h.claimed = nil
	h.mu.Unlock()
	running.Lock()
	defer running.Unlock()
	for _, k := range claimed {
		if running.m[k] == h {
			delete(running.m, k)
		}
	}
}

type source struct{ path, rerecord string }

type hooksKey struct{}

func withHooks(ctx context.Context, h *hooks) context.Context {
	return context.WithValue(ctx, hooksKey{}, h)
}

// hooksOf is the run's hooks, or the default limiter's outside a run.
func hooksOf(ctx context.Context) *hooks {
	if h, ok := ctx.Value(hooksKey{}).(*hooks); ok {
		return h
	}
	return &hooks{limiter: defaultLimiter}
}

// ask asks j within a slot of the limiter and notes where the answer came
// from.
func (h *hooks) ask(ctx context.Context, j judgment.Judge, q judgment.Question) (judgment.Answer, error) {
	shared := h.claim(j)
	ctx, release, err := h.limiter.acquire(ctx)
	if err != nil {
		return judgment.Answer{}, fmt.Errorf("%s: %w", q.Name, err)
	}
	defer release()
	a, err := j.Ask(ctx, q)
	if shared && a.Source != "" && a.Source != "live" {
		return judgment.Answer{}, fmt.Errorf("%s: another run of the scenario %q goes through the cassette %s at the same time: the requests of both are filed under the case %q, so that a replay may give each the other's answers; give the scenarios distinct Names",
			q.Name, h.label, a.Source, h.label)
	}
	h.note(a.Source, a.Rerecord)
	return a, err
}

func (h *hooks) note(path, rerecord string) {
	if path == "" || path == "live" {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, s := range h.sources {
		if s.path == path {
			return
		}
	}
	h.sources = append(h.sources, source{path, rerecord})
}
