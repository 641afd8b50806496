package recorder

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentcheck/agentcheck/secrets"
)

// loginServer answers each login with the password it was given (its
// length and last character) and a count of the answers given, so that an
// answer tells which request it was recorded for.
func loginServer(t *testing.T) *httptest.Server {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.Contains(string(b), `"include"`):
			io.WriteString(w, `{"mode":"with cookies"}`)
		case strings.Contains(string(b), `"omit"`):
			io.WriteString(w, `{"mode":"without cookies"}`)
		default:
			var in struct{ Password string }
			json.Unmarshal(b, &in)
			fmt.Fprintf(w, `{"answer":%d,"for":"%d%c"}`, n.Add(1), len(in.Password), in.Password[len(in.Password)-1])
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func send(t *testing.T, rec *Recorder, rawURL, body string) string {
	t.Helper()
	resp, err := rec.RoundTrip(newReq(http.MethodPost, rawURL, "application/json", body))
	if err != nil {
		t.Fatalf("%s %s: %v", rawURL, body, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// TestDistinctSecretsReplayTheirOwnAnswers: two requests that differ only
// in a redacted value are stored as two requests ("[REDACTED]" and
// "[REDACTED-2]"), not as one asked twice: a replay with other values
// gets each its own answers, though it asks them in another order than
// the recording did.
func TestDistinctSecretsReplayTheirOwnAnswers(t *testing.T) {
	srv := loginServer(t)
	path := filepath.Join(t.TempDir(), "logins.yaml")
	rec, err := Open(path, WithMode(RecordMissing), env())
	if err != nil {
		t.Fatal(err)
	}
	login := func(rec *Recorder, password string) string {
		return send(t, rec, srv.URL+"/login", `{"password":"`+password+`","remember":true}`)
	}
	pwA, pwB := fake("pw-", 16, 1), fake("pw-", 20, 2)
	a1, a2, b := login(rec, pwA), login(rec, pwA), login(rec, pwB)
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	for _, s := range []string{pwA, pwB} {
		if strings.Contains(string(data), s) {
			t.Fatalf("Expected no password in the cassette, but it holds one:\n%s", data)
		}
	}
	if !strings.Contains(string(data), `[REDACTED]`) || !strings.Contains(string(data), `[REDACTED-2]`) {
		t.Errorf("Expected the two passwords stored as [REDACTED] and [REDACTED-2], but the cassette is:\n%s", data)
	}
	if found, err := secrets.Check(path, secrets.Rules{}); err != nil || len(found) > 0 {
		t.Errorf("Expected the check to pass the cassette, but it found %v (error %v)", found, err)
	}

	// CI replays with passwords of its own, the second login first.
	rec, err = Open(path, WithMode(RecordNone), env(), WithUpstream(offline(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	ciA, ciB := "ci-"+fake("", 12, 3), "ci-"+fake("", 12, 4)
	for i, c := range []struct{ password, want string }{{ciA, a1}, {ciB, b}, {ciA, a2}} {
		if got := login(rec, c.password); got != c.want {
			t.Errorf("login %d: Expected the answer recorded for its password, %s, but it replayed %s (recorded: %s %s %s)", i+1, c.want, got, a1, a2, b)
		}
	}
}

// TestLookalikesAreNotMerged: {"credentials":"include"} and
// {"credentials":"omit"} are not secrets: stored as they were, they replay
// their own answers in any order.
func TestLookalikesAreNotMerged(t *testing.T) {
	srv := loginServer(t)
	path := filepath.Join(t.TempDir(), "fetch.yaml")
	rec, err := Open(path, WithMode(RecordMissing), env())
	if err != nil {
		t.Fatal(err)
	}
	include, omit := `{"url":"/api","credentials":"include"}`, `{"url":"/api","credentials":"omit"}`
	wantInclude, wantOmit := send(t, rec, srv.URL+"/fetch", include), send(t, rec, srv.URL+"/fetch", omit)
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); strings.Contains(string(data), secrets.Redacted) {
		t.Errorf("Expected nothing redacted, but the cassette is:\n%s", data)
	}
	rec, err = Open(path, WithMode(RecordNone), env(), WithUpstream(offline(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	if got := send(t, rec, srv.URL+"/fetch", omit); got != wantOmit {
		t.Errorf("Expected omit to replay %q, but it replayed %q", wantOmit, got)
	}
	if got := send(t, rec, srv.URL+"/fetch", include); got != wantInclude {
		t.Errorf("Expected include to replay %q, but it replayed %q", wantInclude, got)
	}
}
