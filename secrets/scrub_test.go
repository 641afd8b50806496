package secrets

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
)

func TestCredentialHeaderNames(t *testing.T) {
	for name, want := range map[string]bool{
		"X-Auth-Token": true, "X-Goog-Api-Key": true, "X-Session-Id": true, "X-Hub-Signature-256": true,
		"X-Client-Secret": true, "X-User-Password": true, "X-Amz-Security-Token": true, "X-Apikey": true,
		"Private-Token": true, "X-Csrf-Token": true, "Ocp-Apim-Subscription-Key": true,
		"X-Ratelimit-Remaining-Tokens": false, "X-Ratelimit-Limit-Tokens": false, "Anthropic-Ratelimit-Tokens-Remaining": false,
		"Www-Authenticate": false, "Idempotency-Key": false, "Content-Type": false, "X-Request-Id": false, "Keep-Alive": false,
		"X-Monkey-Business": false, "X-Tokens-Used": false,
		"X-Api-Cred": true, "X-Authentication": true, "X-Db-Passphrase": true,
		"X-Signature-Algorithm": false, "X-Auth-Status": false, "X-Token-Expires": false,
	} {
		if got := credentialHeaderName(name); got != want {
			t.Errorf("Expected credentialHeaderName(%q) to be %v, but it is %v", name, want, got)
		}
	}
}

func TestSecretNames(t *testing.T) {
	for name, want := range map[string]bool{
		"refresh_token": true, "client_secret": true, "auth_key": true, "password": true, "api_key": true, "apiKey": true,
		"access_token": true, "secret": true, "private_key": true, "openai_api_key": true, "AWS_SECRET_ACCESS_KEY": true,
		"sort_key": false, "cache_key": false, "key_points": false, "tokenizer": false, "max_tokens": false,
		"prompt_tokens": false, "token": true, "key": false, "api_key_env": false, "password_min_length": false,
		"AccountKey": true, "hf_token": true, "bot_token": true, "oauth_token_secret": true, "dsn": true, "webhook_url": true,
		"connection_string": true, "master_key": true, "APIKey": true, "has_password": false, "is_secret": false,
		"page_token": false, "public_key": false, "idempotency_key": false, "secret_name": false, "token_type": false,
	} {
		if got := secretField(name); got != want {
			t.Errorf("Expected secretField(%q) to be %v, but it is %v", name, want, got)
		}
	}
	for name, want := range map[string]bool{
		"appid": true, "access_key": true, "subscription-key": true, "key": true, "token": true, "sig": true, "code": true,
		"page_token": false, "sort_key": false, "max_tokens": false, "q": false,
	} {
		if got := secretParam(name); got != want {
			t.Errorf("Expected secretParam(%q) to be %v, but it is %v", name, want, got)
		}
	}
}

func compressed(t *testing.T, enc, s string) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w interface {
		Write([]byte) (int, error)
		Close() error
	}
	switch enc {
	case "gzip":
		w = gzip.NewWriter(&buf)
	case "deflate":
		w = zlib.NewWriter(&buf)
	case "raw deflate":
		w, _ = flate.NewWriter(&buf, flate.DefaultCompression)
	}
	w.Write([]byte(s))
	w.Close()
	return buf.Bytes()
}

// TestMessageDecodesBodies: compressed bodies are stored decoded, without
// their Content-Encoding and with their length; NDJSON, server-sent events
// and a BOM are read through; JSON stays JSON.
func TestMessageDecodesBodies(t *testing.T) {
	key := fakeKey("", 32)
	x, _ := Rules{}.Redactor()
	for _, enc := range []string{"gzip", "deflate", "raw deflate"} {
		h := http.Header{"Content-Encoding": {strings.Fields(enc)[len(strings.Fields(enc))-1]}, "Content-Length": {"99"}, "Content-Type": {"application/json"}}
		gotH, got := x.Message(h, compressed(t, enc, `{"access_token":"`+key+`","n":1}`))
		if want := `{"access_token":"[REDACTED]","n":1}`; string(got) != want {
			t.Errorf("%s: Expected the body %s, but it is %q", enc, want, got)
		}
		if gotH.Get("Content-Encoding") != "" || gotH.Get("Content-Length") != fmt.Sprint(len(got)) {
			t.Errorf("%s: Expected no Content-Encoding and Content-Length %d, but the headers are %v", enc, len(got), gotH)
		}
	}
	for name, tc := range map[string]struct{ ctype, in, want string }{
		"ndjson":         {"application/x-ndjson", "{\"a\":1}\n{\"password\":\"" + key + "\"}\n", "{\"a\":1}\n{\"password\":\"[REDACTED]\"}\n"},
		"ndjson sniffed": {"", "{\"a\":1}\n{\"client_secret\":\"" + key + "\"}", "{\"a\":1}\n{\"client_secret\":\"[REDACTED]\"}"},
		"events": {"text/event-stream", "event: x\r\ndata: {\"b\":{\"api_key\":\"" + key + "\"}}\r\n\r\ndata: [DONE]\r\n",
			"event: x\r\ndata: {\"b\":{\"api_key\":\"[REDACTED]\"}}\r\n\r\ndata: [DONE]\r\n"},
		"bom":  {"application/json", "\ufeff{ \"secret\": \"" + key + "\" }", "\ufeff{\"secret\":\"[REDACTED]\"}"},
		"form": {"application/x-www-form-urlencoded", "a=1&code=" + key + "&b=2", "a=1&code=%5BREDACTED%5D&b=2"},
		"text": {"text/plain", "token=" + key + " and api_key=" + key, "token=[REDACTED] and api_key=[REDACTED]"},
		// A bare token is a tokenizer's piece of text unless its value
		// looks generated.
		"logprobs": {"application/json", `{"logprobs":{"content":[{"token":"Hello","logprob":-0.1},{"token":" world"},{"token":"Python3"},{"token":"getElementById"},{"token":"________________"},{"token":"2024-11-26T10:00:00Z"}]}}`,
			`{"logprobs":{"content":[{"token":"Hello","logprob":-0.1},{"token":" world"},{"token":"Python3"},{"token":"getElementById"},{"token":"________________"},{"token":"2024-11-26T10:00:00Z"}]}}`},
		"login token": {"application/json", `{"token":"` + fakeHex(40) + `","user":{"id":7}}`, `{"token":"[REDACTED]","user":{"id":7}}`},
	} {
		_, got := x.Message(http.Header{"Content-Type": {tc.ctype}}, []byte(tc.in))
		if string(got) != tc.want {
			t.Errorf("%s: Expected %q, but got %q", name, tc.want, got)
		}
	}
}

// TestLearnScrubsEchoes: a request's credentials are removed wherever an
// answer echoes them, raw, URL-encoded or inside base64 at any offset.
func TestLearnScrubsEchoes(t *testing.T) {
	key, pw := "k/"+fakeKey("", 30)+"+=", "pw-"+fakeKey("", 9)
	u, _ := url.Parse("https://api.example.com/v1/x?appid=" + url.QueryEscape(key))
	x, _ := Rules{}.Redactor()
	learned := x.Learn(u, http.Header{"Content-Type": {"application/json"}}, []byte(`{"login":{"password":"`+pw+`"}}`))
	for _, prefix := range []string{"", "a", "ab", "abc"} {
		for _, echo := range []string{
			key, url.QueryEscape(key), url.PathEscape(key), pw,
			base64.StdEncoding.EncodeToString([]byte(prefix + key)),
			base64.URLEncoding.EncodeToString([]byte(prefix + pw + "!")),
		} {
			body := learned.Body([]byte(`{"note":"echo ` + echo + `"}`))
			var v map[string]string
			if err := json.Unmarshal(body, &v); err != nil {
				t.Errorf("Expected the body to stay JSON, but %v: %s", err, body)
			}
			for _, secret := range []string{key, pw} {
				b64 := base64.StdEncoding.EncodeToString([]byte(secret))
				for _, form := range []string{secret, url.QueryEscape(secret), b64[4 : len(b64)-4]} {
					if strings.Contains(string(body), form) {
						t.Errorf("Expected no trace of %q in the body, but %q holds %q", secret, body, form)
					}
				}
			}
		}
	}
	if got := x.Body([]byte(`{"note":"` + key + `"}`)); !strings.Contains(string(got), key) {
		t.Errorf("Expected Learn to leave the Redactor it was called on unchanged, but it redacts the learned key: %s", got)
	}
	loc := learned.Headers(http.Header{"Location": {"/cb?x=" + url.QueryEscape(key)}, "X-Echo": {"sent " + key}})
	if strings.Contains(fmt.Sprint(loc), fakeKey("", 30)) {
		t.Errorf("Expected the learned key out of the headers, but they are %v", loc)
	}
}

// TestEnvSecretInEveryEncoding: a project's secret is removed, and
// Check finds it, in each encoding a body or a URL may give it: raw,
// URL-encoded with upper- or lower-case escapes, as a JSON string holds
// it, hex, and base64 at each offset.
func TestEnvSecretInEveryEncoding(t *testing.T) {
	key := "Kq7/Zr+2" + fakeKey("", 16)
	env := func(name string) string { return map[string]string{"MY_SERVICE_KEY": key}[name] }
	rules := Rules{Env: []string{"MY_SERVICE_KEY"}}
	x, err := rules.Redactor(WithGetenv(env))
	if err != nil {
		t.Fatal(err)
	}
	b64 := func(prefix string) string { return base64.StdEncoding.EncodeToString([]byte(prefix + key)) }
	forms := map[string]string{
		"raw": key, "URL-encoded": url.QueryEscape(key), "lower-case escapes": strings.NewReplacer("%2F", "%2f", "%2B", "%2b").Replace(url.QueryEscape(key)),
		"JSON slash": strings.ReplaceAll(key, "/", `\/`), "hex": hex.EncodeToString([]byte(key)), "HEX": strings.ToUpper(hex.EncodeToString([]byte(key))),
		"base64": b64(""), "base64 after one byte": b64("u:"), "base64 after two bytes": b64("us:"),
	}
	var its []*cassette.Interaction
	var names []string
	for name, f := range forms {
		text := "note " + f + " end"
		if got := x.Text(text); strings.Contains(got, f) || !strings.Contains(got, Redacted) {
			t.Errorf("%s: Expected %q redacted, but got %q", name, text, got)
		}
		it := secretInteraction()
		inResponse("text/plain", text)(it)
		its = append(its, it)
		names = append(names, name)
	}
	path, _ := writeCassette(t, its...)
	found, err := Check(path, rules, WithGetenv(env))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, f := range found {
		seen[f.Interaction] = true
	}
	for i, name := range names {
		if !seen[i] {
			t.Errorf("%s: Expected Check to find the secret, but it found nothing", name)
		}
	}
}

func TestRulesOfTheProject(t *testing.T) {
	envKey := fakeKey("env-", 20)
	rules := Rules{Env: []string{"MY_API_KEY", "SHORT", "UNSET"}}.Merge(Rules{
		Names: []string{"tenant_pin"},
		Func:  func(s string) []string { return cardNumbers(s) },
	})
	x, err := rules.Redactor(WithGetenv(func(name string) string {
		return map[string]string{"MY_API_KEY": envKey, "SHORT": "abc"}[name]
	}))
	if err != nil {
		t.Fatal(err)
	}
	in := `{"tenantPin":839201,"n":1,"note":"key ` + envKey + ` base64 ` + base64.StdEncoding.EncodeToString([]byte(envKey)) + `, card 4111111111111111, abc"}`
	want := `{"n":1,"note":"key [REDACTED] base64 [REDACTED], card [REDACTED], abc","tenantPin":"[REDACTED]"}`
	if got := string(x.Body([]byte(in))); got != want {
		t.Errorf("Expected\n%s\nbut got\n%s", want, got)
	}
	u, _ := url.Parse("https://x.test/a?tenant-pin=1234&page=2")
	if got, want := x.URL(u), "https://x.test/a?tenant-pin=[REDACTED]&page=2"; got != want {
		t.Errorf("Expected the URL %s, but got %s", want, got)
	}
	for _, bad := range []Rules{{Env: []string{"$MY_KEY"}}, {Names: []string{"-"}}} {
		if _, err := bad.Redactor(); err == nil {
			t.Errorf("Expected %+v to be refused, but it was accepted", bad)
		}
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "rules.json")
	os.WriteFile(p, []byte(`{"names":["tenant_pin"],"env":["MY_API_KEY"],"headers":["X-Tenant"]}`), 0o644)
	got, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Rules{Names: []string{"tenant_pin"}, Env: []string{"MY_API_KEY"}, Headers: []string{"X-Tenant"}}, got, cmp.Comparer(func(a, b func(string) []string) bool { return a == nil && b == nil })); diff != "" {
		t.Errorf("Expected the rules file read whole, but (-want +got):\n%s", diff)
	}
}

// TestCheckFollowsAliasesWithinABound: a secret behind an alias is found,
// and an alias bomb is refused.
func TestCheckFollowsAliasesWithinABound(t *testing.T) {
	key := fakeKey("", 32)
	dir := t.TempDir()
	aliased := filepath.Join(dir, "aliased.yaml")
	os.WriteFile(aliased, []byte(`version: 2
defaults:
    headers: &h
        X-Api-Key:
            - `+key+`
    response: &r
        body: '{"refresh_token":"`+key+`x"}'
        code: 200
interactions:
    - id: 0
      request:
        headers: *h
        url: https://x.test/a
        method: GET
      response:
        <<: *r
        status: 200 OK
`), 0o644)
	got, err := Check(aliased, Rules{})
	if err != nil {
		t.Fatal(err)
	}
	var whats []string
	for _, f := range got {
		whats = append(whats, fmt.Sprintf("%d %s: %s", f.Line, f.Where, f.What))
	}
	want := []string{`5 request header: X-Api-Key header "` + key[:4] + `…"`, `7 response body: "refresh_token" field "` + key[:4] + `…"`}
	if diff := cmp.Diff(want, whats); diff != "" {
		t.Errorf("Expected the secrets behind aliases found at their anchors' lines, but (-want +got):\n%s", diff)
	}

	bomb := filepath.Join(dir, "bomb.yaml")
	os.WriteFile(bomb, []byte(laughs), 0o644)
	if _, err := Check(bomb, Rules{}); err == nil || !strings.Contains(err.Error(), "bomb.yaml:") || !strings.Contains(err.Error(), "an alias bomb?") {
		t.Errorf("Expected an alias bomb to be refused with an error naming the file, but the error is %v", err)
	}
}

// laughs is a "billion laughs" YAML: nine levels of nine aliases.
var laughs = func() string {
	var b strings.Builder
	b.WriteString("version: 2\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		fmt.Fprintf(&b, "%s: &%s [*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s]\n", n, n, prev, prev, prev, prev, prev, prev, prev, prev, prev)
		prev = n
	}
	b.WriteString("interactions: [{id: 0, request: {body: *i}}]\n")
	return b.String()
}()

// BenchmarkCheckAliasBomb: refusing a billion laughs costs microseconds.
func BenchmarkCheckAliasBomb(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bomb.yaml")
	os.WriteFile(path, []byte(laughs), 0o644)
	for b.Loop() {
		if _, err := Check(path, Rules{}); err == nil {
			b.Fatal("Expected the alias bomb refused")
		}
	}
}

// BenchmarkRedactorBody scrubs a clean judge request, as every replayed
// request is.
func BenchmarkRedactorBody(b *testing.B) {
	x, _ := Rules{}.Redactor()
	body := []byte(`{"model":"gpt-4o-mini","max_tokens":100,"messages":[{"role":"system","content":"` + strings.Repeat("Judge whether the agent achieved the goal. ", 40) + `"}],"seed":42}`)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		x.Body(body)
	}
}

func ExampleRedactor_Learn() {
	x, _ := Rules{}.Redactor()
	u, _ := url.Parse("https://api.example.com/v1/me?appid=0a1b2c3d4e5f6a7b")
	x = x.Learn(u, http.Header{"X-Auth-Token": {"tok-9f8e7d6c5b4a"}}, nil)
	fmt.Println(x.URL(u))
	fmt.Println(string(x.Body([]byte(`{"you":"tok-9f8e7d6c5b4a","b64":"` + base64.StdEncoding.EncodeToString([]byte("0a1b2c3d4e5f6a7b")) + `"}`))))
	fmt.Println(x.Headers(http.Header{"X-Auth-Token": {"tok-9f8e7d6c5b4a"}, "Location": {"/next?token=tok-9f8e7d6c5b4a"}}))
	// Output:
	// https://api.example.com/v1/me?appid=[REDACTED]
	// {"b64":"[REDACTED]","you":"[REDACTED]"}
	// map[Location:[/next?token=[REDACTED]]]
}
