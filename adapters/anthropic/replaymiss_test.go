package anthropic_test

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

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

// TestAnthropicDoesNotRetryAReplayMiss: anthropic-sdk-go, with its default
// retries (two), sends a request the cassette lacks once, and its error is
// the recorder's miss, explained; for a stream too.
func TestAnthropicDoesNotRetryAReplayMiss(t *testing.T) {
	rec, err := recorder.Open(filepath.Join(t.TempDir(), "empty.yaml"), recorder.WithMode(recorder.RecordNone), recorder.WithEnv(func(string) string { return "" }))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	params := sdk.MessageNewParams{Model: sdk.ModelClaudeSonnet4_5, MaxTokens: 64, Messages: []sdk.MessageParam{sdk.NewUserMessage(sdk.NewTextBlock("hi"))}}
	for _, stream := range []bool{false, true} {
		sent := &attempts{next: rec.Transport(nil)}
		client := sdk.NewClient(option.WithBaseURL("http://127.0.0.1:1"), option.WithAPIKey("none"), option.WithHTTPClient(&http.Client{Transport: sent}))
		if stream {
			s := client.Messages.NewStreaming(context.Background(), params)
			for s.Next() {
			}
			err = s.Err()
			s.Close()
		} else {
			_, err = client.Messages.New(context.Background(), params)
		}
		var miss *recorder.ReplayMissError
		if !errors.As(err, &miss) || !strings.Contains(err.Error(), "replay miss: POST /v1/messages") || !strings.Contains(err.Error(), "record it with: ") {
			t.Errorf("stream %v: Expected the recorder's miss, explained, but got %v", stream, err)
		}
		if n := sent.n.Load(); n != 1 {
			t.Errorf("stream %v: Expected one request for the miss, but anthropic-sdk-go sent %d", stream, n)
		}
	}
}
