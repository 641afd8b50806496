package openaigo_test

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

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

// TestOpenAIGoDoesNotRetryAReplayMiss: openai-go, with its default retries
// (two), sends a request the cassette lacks once, and its error is the
// recorder's miss, explained; for a stream too.
func TestOpenAIGoDoesNotRetryAReplayMiss(t *testing.T) {
	checkGoroutines(t)
	rec, err := recorder.Open(filepath.Join(t.TempDir(), "empty.yaml"), recorder.WithMode(recorder.RecordNone), recorder.WithEnv(func(string) string { return "" }))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	params := openai.ChatCompletionNewParams{Model: "gpt-4o-mini", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}}
	for _, stream := range []bool{false, true} {
		sent := &attempts{next: rec.Transport(nil)}
		client := openai.NewClient(option.WithBaseURL("http://127.0.0.1:1/v1"), option.WithAPIKey("sk-none"), option.WithHTTPClient(&http.Client{Transport: sent}))
		if stream {
			s := client.Chat.Completions.NewStreaming(context.Background(), params)
			for s.Next() {
			}
			err = s.Err()
			s.Close()
		} else {
			_, err = client.Chat.Completions.New(context.Background(), params)
		}
		var miss *recorder.ReplayMissError
		if !errors.As(err, &miss) || !strings.Contains(err.Error(), "replay miss: POST /v1/chat/completions") || !strings.Contains(err.Error(), "record it with: ") {
			t.Errorf("stream %v: Expected the recorder's miss, explained, but got %v", stream, err)
		}
		if n := sent.n.Load(); n != 1 {
			t.Errorf("stream %v: Expected one request for the miss, but openai-go sent %d", stream, n)
		}
	}
}
