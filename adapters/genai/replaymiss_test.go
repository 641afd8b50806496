package genai_test

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	gogenai "google.golang.org/genai"

	"github.com/agentcheck/agentcheck/recorder"
)

// attempts counts the requests an SDK sends through a transport.
type attempts struct {
	next http.RoundTripper
	n    atomic.Int64
}

func (a *attempts) RoundTrip(r *http.Request) (*http.Response, error) {
	a.n.Add(1)
	return a.next.RoundTrip(r)
}

// TestGenaiDoesNotRetryAReplayMiss: genai, with retries turned on (it has
// none by default), sends a request the cassette lacks once, and its error
// is the recorder's miss, explained; for a stream too.
func TestGenaiDoesNotRetryAReplayMiss(t *testing.T) {
	rec, err := recorder.Open(filepath.Join(t.TempDir(), "empty.yaml"), recorder.WithMode(recorder.RecordNone), recorder.WithEnv(func(string) string { return "" }))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	attemptsAllowed, delay := int32(3), 0.01
	for _, stream := range []bool{false, true} {
		sent := &attempts{next: rec.Transport(nil)}
		client, err := gogenai.NewClient(context.Background(), &gogenai.ClientConfig{
			APIKey:     "none",
			Backend:    gogenai.BackendGeminiAPI,
			HTTPClient: &http.Client{Transport: sent},
			HTTPOptions: gogenai.HTTPOptions{BaseURL: "http://127.0.0.1:1/",
				RetryOptions: &gogenai.HTTPRetryOptions{Attempts: &attemptsAllowed, InitialDelay: &delay, MaxDelay: &delay}},
		})
		if err != nil {
			t.Fatal(err)
		}
		if stream {
			for _, err = range client.Models.GenerateContentStream(context.Background(), "gemini-2.5-flash", gogenai.Text("hi"), nil) {
				if err != nil {
					break
				}
			}
		} else {
			_, err = client.Models.GenerateContent(context.Background(), "gemini-2.5-flash", gogenai.Text("hi"), nil)
		}
		var miss *recorder.ReplayMissError
		if !errors.As(err, &miss) || !strings.Contains(err.Error(), "replay miss: POST /v1beta/models/gemini-2.5-flash") || !strings.Contains(err.Error(), "record it with: ") {
			t.Errorf("stream %v: Expected the recorder's miss, explained, but got %v", stream, err)
		}
		if n := sent.n.Load(); n != 1 {
			t.Errorf("stream %v: Expected one request for the miss, but genai sent %d", stream, n)
		}
	}
}
