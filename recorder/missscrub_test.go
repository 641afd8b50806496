package recorder

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReplayMissPrintsNoStoredSecret: a cassette written by another tool,
// or by hand, may hold a secret the recorder would have removed; the diff
// of a miss against it shows the secret's placeholder, never the secret.
func TestReplayMissPrintsNoStoredSecret(t *testing.T) {
	secret, token := fake("", 32, 200), fake("hf_", 34, 201)
	cassette := `---
version: 2
interactions:
    - id: 0
      request:
        body: '{"model":"m","q":"first","settings":{"client_secret":"` + secret + `","region":"eu"}}'
        url: https://api.example.com/v1/ask?hf_token=` + token + `&page=1
        method: POST
      response:
        body: '{"answer":1}'
        status: 200 OK
        code: 200
`
	msg := missAgainst(t, cassette, newReq(http.MethodPost, "https://api.example.com/v1/ask?page=2", "application/json",
		`{"model":"m","q":"second","settings":{"region":"eu"}}`))
	for _, s := range []string{secret, token} {
		if strings.Contains(msg, s) || strings.Contains(msg, s[:16]) {
			t.Errorf("Expected the miss message to hold no secret, but it prints %q:\n%s", s[:8]+"…", msg)
		}
	}
	if !strings.Contains(msg, "client_secret") || !strings.Contains(msg, "second") {
		t.Errorf("Expected the miss message to diff the requests (client_secret, second), but it is:\n%s", msg)
	}
}

// TestReplayMissPrintsNoShape: whatever credential format a hand-written
// cassette holds in its closest request (each of shapeMakers, freshly
// generated), the miss's message prints none of it.
func TestReplayMissPrintsNoShape(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 26))
	for _, sm := range shapeMakers() {
		text, secret := sm.make(r)
		t.Run(sm.name, func(t *testing.T) {
			body, _ := json.Marshal(map[string]any{"model": "m", "q": "first", "note": text})
			cassette := "---\nversion: 2\ninteractions:\n    - id: 0\n      request:\n        body: '" + strings.ReplaceAll(string(body), "'", "''") +
				"'\n        url: https://api.example.com/v1/ask\n        method: POST\n      response:\n        body: '{\"answer\":1}'\n        status: 200 OK\n        code: 200\n"
			msg := missAgainst(t, cassette, newReq(http.MethodPost, "https://api.example.com/v1/ask", "application/json", `{"model":"m","q":"second"}`))
			if strings.Contains(msg, secret) || !strings.Contains(msg, "first") {
				t.Errorf("Expected the miss message to diff the requests and print no %s, but it is:\n%s", sm.name, msg)
			}
		})
	}
}

// missAgainst replays req against the hand-written cassette and returns
// the replay miss's message, failing t unless req misses.
func missAgainst(t *testing.T, cassette string, req *http.Request) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "handwritten.yaml")
	if err := os.WriteFile(path, []byte(cassette), 0o644); err != nil {
		t.Fatal(err)
	}
	rec, err := Open(path, WithMode(RecordNone), env(), WithUpstream(offline(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	_, err = rec.RoundTrip(req)
	var miss *ReplayMissError
	if !errors.As(err, &miss) {
		t.Fatalf("Expected a replay miss, but got %v", err)
	}
	return miss.Error()
}
