package recorder

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// counting counts the requests that reach rt.
type counting struct {
	rt http.RoundTripper
	n  atomic.Int64
}

func (c *counting) RoundTrip(req *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.rt.RoundTrip(req)
}

// TestReplayMissIsAnsweredNotRetried: the recorder's client answers a miss
// with a 404 that says not to retry, whose body reads as the miss and then
// fails with the *ReplayMissError; go-openai returns that error after one
// request. RoundTrip itself still returns the error.
func TestReplayMissIsAnsweredNotRetried(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.yaml")
	rec, err := Open(path, WithMode(RecordNone), env(), WithUpstream(offline(t)), WithTestName("TestX"))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()

	resp, err := rec.Client().Post("http://127.0.0.1:1/v1/chat/completions", "application/json", strings.NewReader(`{"model":"m"}`))
	if err != nil {
		t.Fatalf("Expected the miss answered with a response, but the client failed: %v", err)
	}
	if resp.StatusCode != http.StatusNotFound || resp.Header.Get("X-Should-Retry") != "false" || resp.Header.Get(CassetteHeader) != path {
		t.Errorf("Expected 404 with X-Should-Retry: false and the cassette named, but got %s %v", resp.Status, resp.Header)
	}
	text, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	var miss *ReplayMissError
	if !errors.As(err, &miss) || miss.Test != "TestX" {
		t.Fatalf("Expected the body to fail with the *ReplayMissError once read, but got %v", err)
	}
	var body struct {
		Error struct{ Message, Type string }
	}
	if err := json.Unmarshal(text, &body); err != nil || body.Error.Message != miss.Error() || body.Error.Type != "agentcheck_replay_miss" {
		t.Errorf("Expected the body to be the miss as JSON, but it is %q (%v)", text, err)
	}

	sdk := &counting{rt: rec.Transport(nil)}
	_, err = ask(t, openaiClient("http://127.0.0.1:1", "sk-none", &http.Client{Transport: sdk}), "q", "goal/v1")
	if !errors.As(err, &miss) || !strings.Contains(err.Error(), "replay miss: POST /v1/chat/completions") || !strings.Contains(err.Error(), "record it with: ") {
		t.Errorf("Expected go-openai's error to be the miss, explained, but it is %v", err)
	}
	if sdk.n.Load() != 1 {
		t.Errorf("Expected one request per miss, but %d reached the transport", sdk.n.Load())
	}

	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, "http://127.0.0.1:1/x", nil)
	if _, err := rec.RoundTrip(req); !errors.As(err, &miss) {
		t.Errorf("Expected RoundTrip to return the *ReplayMissError, but got %v", err)
	}
}
