package recorder

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/secrets"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestRecordedCassetteWithAKeyPassesTheCheck: the recorder's redaction and
// the check agree. A real client sends a key, an organization and a cookie;
// the server sets one.
func TestRecordedCassetteWithAKeyPassesTheCheck(t *testing.T) {
	key := "sk-proj-" + strings.Repeat("aB3xK9mQ7pZ2", 5) // made at run time: no scanner of the source takes it for a leak
	srv, _ := chatServer(t)
	path := filepath.Join(t.TempDir(), "recorded.yaml")
	rec, err := Open(path, WithMode(RecordMissing), env())
	if err != nil {
		t.Fatal(err)
	}
	hc := &http.Client{Transport: rec.Transport(cookieTransport{http.DefaultTransport})}
	if _, err := ask(t, openaiClient(srv.URL, key, hc), "Is 2+2 4?", "goal-v1"); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := secrets.Check(path, secrets.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) > 0 {
		t.Errorf("a recorded cassette fails the check:\n%s", fmt.Sprint(got))
	}

	// The same file with the header the recorder dropped put back fails:
	// the check reads this cassette, it does not pass by overlooking it.
	raw, _ := os.ReadFile(path)
	leaked := strings.Replace(string(raw), "        headers:\n", "        headers:\n            Authorization:\n                - Bearer "+key+"\n", 1)
	if leaked == string(raw) {
		t.Fatalf("no request headers in the recorded cassette:\n%s", raw)
	}
	if err := os.WriteFile(path, []byte(leaked), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err = secrets.Check(path, secrets.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	want := []secrets.Finding{{File: path, Line: lineOf(t, leaked, key), Interaction: 0, Where: "request header", What: `Authorization header "Bearer sk-p…"`}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// cookieTransport sends a session cookie, as a browser-like client would.
type cookieTransport struct{ next http.RoundTripper }

func (c cookieTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Cookie", "session=COOKIE-SECRET-99")
	return c.next.RoundTrip(req)
}

// TestRedactionRulesConfigureTheRecorderAndTheCheck: a recorder configured with
// WithRedaction(rules) leaves nothing the check with the same rules finds; a
// cassette recorded without them fails that check, naming each rule and
// place, though the default check sees nothing wrong in it.
func TestRedactionRulesConfigureTheRecorderAndTheCheck(t *testing.T) {
	rules := secrets.Rules{
		Headers:   []string{"X-Customer-Id"},
		JSONPaths: []string{"user.email", "messages.*.name"},
		Patterns:  []string{`acct-[0-9]{6}`},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("X-Customer-Id", "cust-resp-77")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"user":{"email":"alice@example.com","plan":"pro"},"note":"billed to acct-123456"}`)
	}))
	defer srv.Close()
	record := func(path string, opts ...Option) {
		t.Helper()
		rec, err := Open(path, append(opts, WithMode(RecordMissing), env())...)
		if err != nil {
			t.Fatal(err)
		}
		body := `{"user":{"email":"alice@example.com"},"messages":[{"role":"user","name":"Alice","content":"my account is acct-123456"}]}`
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/chat/completions", strings.NewReader(body))
		req.Header.Set("X-Customer-Id", "cust-req-42")
		resp, err := rec.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	redactedPath, plainPath := filepath.Join(dir, "with-rules.yaml"), filepath.Join(dir, "without.yaml")
	record(redactedPath, WithRedaction(rules))
	record(plainPath)

	if got, err := secrets.Check(redactedPath, rules); err != nil || len(got) > 0 {
		t.Errorf("recorded with WithRedaction(rules), the check with the rules finds:\n%s(error %v)", fmt.Sprint(got), err)
	}
	if got, err := secrets.Check(plainPath, secrets.Rules{}); err != nil || len(got) > 0 {
		t.Errorf("without rules, nothing in the cassette is a known credential, yet the check finds:\n%s(error %v)", fmt.Sprint(got), err)
	}
	got, err := secrets.Check(plainPath, rules)
	if err != nil {
		t.Fatal(err)
	}
	var whats []string
	for _, f := range got {
		whats = append(whats, f.Where+": "+f.What)
	}
	want := []string{
		`request header: X-Customer-Id header "cus…" (rule: header X-Customer-Id)`,
		`request body: messages.0.name "A…" (rule: json path messages.*.name)`,
		`request body: user.email "alic…" (rule: json path user.email)`,
		`request body: "acc…" (rule: pattern acct-[0-9]{6})`,
		`response header: X-Customer-Id header "cust…" (rule: header X-Customer-Id)`,
		`response body: user.email "alic…" (rule: json path user.email)`,
		`response body: "acc…" (rule: pattern acct-[0-9]{6})`,
	}
	if diff := cmp.Diff(want, whats, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("findings without the rules applied (-want +got):\n%s", diff)
	}
	raw, _ := os.ReadFile(plainPath)
	for _, f := range got {
		if want := lineOf(t, string(raw), strings.SplitN(f.Where, " ", 2)[0]+":"); f.Line <= want {
			t.Errorf("%s: line %d is not inside the %s (which starts at line %d)", f, f.Line, f.Where, want)
		}
	}
}

// TestPackageCassettesHoldNoSecrets checks the recorder's own cassettes.
func TestPackageCassettesHoldNoSecrets(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(DefaultDir, "*.yaml"))
	if len(paths) == 0 {
		t.Fatalf("no cassettes in %s", DefaultDir)
	}
	for _, p := range paths {
		got, err := secrets.Check(p, secrets.Rules{})
		if err != nil || len(got) > 0 {
			t.Errorf("%s:\n%s(error %v)", p, fmt.Sprint(got), err)
		}
	}
}

// lineOf is the 1-based line of the first line of text holding s.
func lineOf(t *testing.T, text, s string) int {
	t.Helper()
	i := strings.Index(text, s)
	if i < 0 {
		t.Fatalf("%q is not in the cassette:\n%s", s, text)
	}
	return 1 + strings.Count(text[:i], "\n")
}
