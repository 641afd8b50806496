package judge

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// RetryPolicy says how RetryTransport retries. The zero value is the
// default, the Java port's: 2 s, then ×2 per retry up to 30 s, 5 attempts.
type RetryPolicy struct {
	// Initial is the wait before the first retry (default 2 s); Multiplier
	// grows it for each next retry (default 2); Max caps it (default 30 s).
	// Each wait is jittered down by up to half, and is at least what the
	// server asked for in Retry-After. A server asking for more than Max
	// ends the retries.
	Initial    time.Duration
	Multiplier float64
	Max        time.Duration
	// MaxAttempts counts requests, the first included (default 5; 1 means
	// no retries).
	MaxAttempts int
	// AttemptTimeout bounds each request (default 2 min; negative: none),
	// so that a hung connection is retried rather than waited on forever.
	AttemptTimeout time.Duration
	// FailFastAfter is how many requests in a row may fail with a 5xx
	// status or a connection error, retries included, before the client
	// stops asking: every later request fails at once, so that a judge
	// that is down costs a few requests, not a run's worth of retries
	// (default 5; negative: never).
	FailFastAfter int
	// MaxResponseBytes bounds each response body, read as it arrives
	// (default 32 MiB). An answer over the bound is an error, not retried.
	MaxResponseBytes int64
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.Initial <= 0 {
		p.Initial = 2 * time.Second
	}
	if p.Multiplier < 1 {
		p.Multiplier = 2
	}
	if p.Max <= 0 {
		p.Max = 30 * time.Second
	}
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 5
	}
	if p.AttemptTimeout == 0 {
		p.AttemptTimeout = 2 * time.Minute
	}
	if p.FailFastAfter == 0 {
		p.FailFastAfter = 5
	}
	if p.MaxResponseBytes <= 0 {
		p.MaxResponseBytes = 32 << 20
	}
	return p
}

// backoff is the jittered wait before retry n (1-based): in [d/2, d] for
// d = Initial × Multiplier^(n-1), capped at Max.
func (p RetryPolicy) backoff(n int) time.Duration {
	d := float64(p.Initial) * math.Pow(p.Multiplier, float64(n-1))
	d = min(d, float64(p.Max))
	return time.Duration(d/2 + rand.Float64()*d/2)
}

// RetryTransport retries requests through base that fail for reasons that
// pass: 408, 429 and 5xx statuses (but 501), timeouts, dropped connections
// and other transport errors (but TLS certificate errors). It waits with
// jittered exponential backoff, at least as long as Retry-After (or
// retry-after-ms) says, and never past the context's deadline: when the next
// wait would end after it, it gives up at once with the last response. A
// cancelled context stops it at once. It reads each response body whole, so
// a connection dropped mid-body is retried too. The request body is
// replayed from memory. When it gives up on a failed status, it returns that
// response for the caller to report.
func RetryTransport(base http.RoundTripper, p RetryPolicy) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &retryTransport{base: base, p: p.withDefaults()}
}

type retryTransport struct {
	base http.RoundTripper
	p    RetryPolicy

	mu       sync.Mutex
	failures int    // requests failed in a row with a 5xx or a connection error
	last     string // the last of them
}

// UnavailableError is the error of a request a client did not send because
// the judge failed RetryPolicy.FailFastAfter requests in a row.
type UnavailableError struct {
	Failures int
	Last     string // the last failure: a status or a connection error
}

func (e *UnavailableError) Error() string {
	return fmt.Sprintf("judge unavailable: %d requests in a row failed (the last: %s), so this one was not sent (RetryPolicy.FailFastAfter)", e.Failures, e.Last)
}

// TooLargeError is an answer whose body passed RetryPolicy.MaxResponseBytes.
type TooLargeError struct {
	Status string
	Limit  int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("the response (%s) is larger than %d bytes (RetryPolicy.MaxResponseBytes); not retried", e.Status, e.Limit)
}

// unavailable is the error for a request not sent, nil when the judge may
// be asked.
func (t *retryTransport) unavailable() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.p.FailFastAfter > 0 && t.failures >= t.p.FailFastAfter {
		return &UnavailableError{Failures: t.failures, Last: t.last}
	}
	return nil
}

// count records the outcome of one attempt.
func (t *retryTransport) count(resp *http.Response, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var tooLarge *TooLargeError
	switch {
	case errors.As(err, &tooLarge):
		t.failures = 0 // the server answered
	case err != nil:
		t.failures++
		t.last = err.Error()
	case resp.StatusCode >= 500:
		t.failures++
		t.last = resp.Status
	default:
		t.failures = 0
	}
}

func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil && req.Body != http.NoBody {
		var err error
		body, err = io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("reading the request body: %w", err)
		}
	}
	ctx := req.Context()
	log, _ := ctx.Value(attemptLogKey{}).(*attemptLog)
	for n := 1; ; n++ {
		if err := t.unavailable(); err != nil {
			log.setReason(err.Error())
			return nil, err
		}
		log.add()
		resp, err := t.once(req, body)
		if ctx.Err() == nil {
			t.count(resp, err)
		}
		if ctx.Err() != nil {
			if resp != nil {
				resp.Body.Close()
			}
			return nil, ctx.Err()
		}
		why, retry := t.retryable(resp, err)
		if !retry {
			return resp, err
		}
		wait := t.p.backoff(n)
		if resp != nil {
			if after, ok := retryAfter(resp.Header, time.Now()); ok {
				if after > t.p.Max {
					log.setReason(fmt.Sprintf("not retried: the server asked to wait %v, more than the retry policy's Max %v", after, t.p.Max))
					return resp, err
				}
				wait = max(wait, after)
			}
		}
		giveUp := ""
		if n >= t.p.MaxAttempts {
			giveUp = fmt.Sprintf("gave up after %d attempts: %s", n, why)
		} else if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < wait {
			giveUp = fmt.Sprintf("gave up after %d attempts: %s, and the context's deadline comes before the next retry in %v", n, why, wait.Round(time.Millisecond))
		}
		if giveUp != "" {
			log.setReason(giveUp)
			if err != nil && log == nil {
				// A Client reports the reason from its log; anyone else
				// has only the error.
				return nil, fmt.Errorf("%w (%s)", err, giveUp)
			}
			return resp, err
		}
		if resp != nil {
			resp.Body.Close()
		}
		timer := time.NewTimer(wait)
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return nil, ctx.Err()
		}
	}
}

// once sends one attempt, with its own timeout, and reads the whole response.
func (t *retryTransport) once(req *http.Request, body []byte) (*http.Response, error) {
	ctx, cancel := req.Context(), context.CancelFunc(func() {})
	if t.p.AttemptTimeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, t.p.AttemptTimeout)
	}
	defer cancel()
	r := req.Clone(ctx)
	if body != nil {
		r = withBody(r, body)
	}
	resp, err := t.base.RoundTrip(r)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) && req.Context().Err() == nil {
			return nil, attemptTimeout{t.p.AttemptTimeout, err}
		}
		return nil, err
	}
	limit := t.p.MaxResponseBytes
	if resp.ContentLength > limit {
		resp.Body.Close()
		return nil, &TooLargeError{Status: resp.Status, Limit: limit}
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("reading the response (%s): %w", resp.Status, err)
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Status: resp.Status, Limit: limit}
	}
	resp.Body = io.NopCloser(bytes.NewReader(data))
	resp.ContentLength = int64(len(data))
	return resp, nil
}

type attemptTimeout struct {
	d   time.Duration
	err error
}

func (e attemptTimeout) Error() string {
	return fmt.Sprintf("no response within the attempt timeout %v: %v", e.d, e.err)
}
func (e attemptTimeout) Unwrap() error { return e.err }

func (t *retryTransport) retryable(resp *http.Response, err error) (string, bool) {
	if err != nil {
		var certErr *tls.CertificateVerificationError
		var tooLarge *TooLargeError
		if errors.As(err, &certErr) || errors.As(err, &tooLarge) {
			return "", false
		}
		return err.Error(), true
	}
	switch c := resp.StatusCode; {
	case c == http.StatusRequestTimeout, c == http.StatusTooManyRequests, c >= 500 && c != http.StatusNotImplemented:
		return resp.Status, true
	}
	return "", false
}

// retryAfter reads how long the server asks to wait: OpenAI's
// retry-after-ms, else Retry-After in seconds or as an HTTP date.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && ms < 1e12 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil && secs >= 0 {
		if secs > 1e6 {
			secs = 1e6 // days: more than any Max, without overflow
		}
		return time.Duration(secs) * time.Second, true
	}
	if at, err := http.ParseTime(v); err == nil {
		return max(0, at.Sub(now)), true
	}
	return 0, false
}

// attemptLog is how the retrying transport, far below go-openai, tells the
// client how many requests one call made and why it stopped retrying. It
// travels in the request's context; a cassette replaying a response never
// reaches the transport, and the call counts as one attempt.
type attemptLog struct {
	mu  sync.Mutex
	n   int
	why string
}

type attemptLogKey struct{}

func (l *attemptLog) add() {
	if l != nil {
		l.mu.Lock()
		l.n++
		l.mu.Unlock()
	}
}

func (l *attemptLog) setReason(why string) {
	if l != nil {
		l.mu.Lock()
		l.why = why
		l.mu.Unlock()
	}
}

func (l *attemptLog) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n
}

func (l *attemptLog) reason() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.why
}
