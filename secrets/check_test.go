package secrets

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"
	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
)

// fakeKey is a key-shaped fake made at run time, so that no secret scanner
// of this repository's source takes the test for a leak: prefix, then n
// characters mixing letters and digits.
func fakeKey(prefix string, n int) string {
	const alphabet = "aB3xK9mQ7pZ2wR5tY8"
	var b strings.Builder
	b.WriteString(prefix)
	for i := range n {
		b.WriteByte(alphabet[(i*7+3)%len(alphabet)])
	}
	return b.String()
}

// secretInteraction is a judge's clean chat completion, as the recorder
// stores it.
func secretInteraction() *cassette.Interaction {
	return &cassette.Interaction{
		Request: cassette.Request{
			Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Host:    "api.openai.com",
			Method:  http.MethodPost,
			URL:     "https://api.openai.com/v1/chat/completions",
			Body:    `{"model":"gpt-4o-mini","max_tokens":100,"messages":[{"role":"user","content":"Is 2+2 4?"}],"seed":42,"user":"agentcheck-prompt:goal/v1"}`,
			Headers: http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json"}},
		},
		Response: cassette.Response{
			Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Status: "200 OK", Code: 200,
			Body: `{"id":"chatcmpl-9xYz3","choices":[{"index":0,"message":{"role":"assistant","content":"yes"},"finish_reason":"stop"}],` +
				`"usage":{"prompt_tokens":12,"completion_tokens":1,"total_tokens":13}}` + "\n",
			Headers: http.Header{
				"Content-Type":                   {"application/json"},
				"X-Ratelimit-Remaining-Tokens":   {"149984"},
				"X-Request-Id":                   {"req_7f3a9b2c41d8e6f0"},
				"Access-Control-Allow-Headers":   {"Authorization, Api-Key, Content-Type"},
				"X-Ratelimit-Limit-Tokens":       {"150000"},
				"Openai-Processing-Ms":           {"512"},
				"Strict-Transport-Security":      {"max-age=31536000"},
				"X-Content-Type-Options":         {"nosniff"},
				"Cf-Cache-Status":                {"DYNAMIC"},
				"Alt-Svc":                        {`h3=":443"; ma=86400`},
				"X-Ratelimit-Reset-Tokens":       {"6ms"},
				"X-Ratelimit-Remaining-Requests": {"9999"},
			},
		},
	}
}

// writeCassette writes the interactions as the recorder does and returns
// the file and its text.
func writeCassette(t testing.TB, its ...*cassette.Interaction) (path, text string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "leak.yaml")
	c := cassette.New(strings.TrimSuffix(path, ".yaml"))
	for i, it := range its {
		it.ID = i
		c.Interactions = append(c.Interactions, it)
	}
	data, err := yaml.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	data = append([]byte("---\n"), data...)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, string(data)
}

// lineOf is the 1-based line of the first line of text holding s.
func lineOf(t *testing.T, text, s string) int {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("%q is not in the cassette:\n%s", s, text)
	return 0
}

func TestCheckFindsEachKindOfLeak(t *testing.T) {
	var (
		openai     = fakeKey("sk-", 48)
		project    = fakeKey("sk-proj-", 60)
		openrouter = fakeKey("sk-or-v1-", 64)
		anthropic  = fakeKey("sk-ant-api03-", 80)
		aws        = "AKIA" + strings.ToUpper(fakeKey("", 16))
		github     = fakeKey("ghp_", 36)
		githubPAT  = fakeKey("github_pat_", 60)
		google     = fakeKey("AIza", 35)
		slack      = fakeKey("xoxb-", 40)
		bearer     = fakeKey("", 32)
		jwt        = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0." + fakeKey("", 43)
		hexKey     = "3f9a" + fakeKey("", 28)
		password   = "hunter2" + fakeKey("", 9)
	)
	type leak struct {
		name   string
		edit   func(it *cassette.Interaction)
		secret string // the whole secret: never printed, its line is the finding's
		where  string
		what   string
	}
	reqHeader := func(name, v string) func(*cassette.Interaction) {
		return func(it *cassette.Interaction) { it.Request.Headers[name] = []string{v} }
	}
	reqBody := func(body string) func(*cassette.Interaction) {
		return func(it *cassette.Interaction) { it.Request.Body = body }
	}
	respBody := func(body string) func(*cassette.Interaction) {
		return func(it *cassette.Interaction) { it.Response.Body = body }
	}
	query := func(q string) func(*cassette.Interaction) {
		return func(it *cassette.Interaction) { it.Request.URL += "?" + q }
	}
	leaks := []leak{
		{"Authorization", reqHeader("Authorization", "Bearer "+project), project, "request header", `Authorization header "Bearer sk-p…"`},
		{"Proxy-Authorization", reqHeader("Proxy-Authorization", "Basic "+fakeKey("dXNl", 20)), fakeKey("dXNl", 20), "request header", `Proxy-Authorization header "Basic dXNl…"`},
		{"Api-Key", reqHeader("Api-Key", hexKey), hexKey, "request header", `Api-Key header "3f9a…"`},
		{"X-Api-Key", reqHeader("X-Api-Key", anthropic), anthropic, "request header", `X-Api-Key header "sk-a…"`},
		{"OpenAI-Organization", reqHeader("OpenAI-Organization", "org-"+fakeKey("", 24)), "org-" + fakeKey("", 24), "request header", `OpenAI-Organization header "org-…"`},
		{"OpenAI-Project", reqHeader("OpenAI-Project", "proj_"+fakeKey("", 24)), "proj_" + fakeKey("", 24), "request header", `OpenAI-Project header "proj…"`},
		{"Cookie", reqHeader("Cookie", "session="+fakeKey("", 30)), "session=" + fakeKey("", 30), "request header", `Cookie header "sess…"`},
		{"Set-Cookie", func(it *cassette.Interaction) {
			it.Response.Headers["Set-Cookie"] = []string{"__cf_bm=" + fakeKey("", 40) + "; path=/; HttpOnly"}
		}, "__cf_bm=" + fakeKey("", 40), "response header", `Set-Cookie header "__cf…"`},
		{"credential header name", reqHeader("X-Goog-Api-Key", google), google, "request header", `X-Goog-Api-Key header "AIza…"`},
		{"key format in another header", reqHeader("X-Debug", "sent with "+project), project, "request header", `OpenAI API key "sk-p…" in X-Debug header`},
		{"key query parameter", query("key=" + google), google, "request url", `key query parameter "AIza…"`},
		{"api_key query parameter", query("model=gpt-4o&api_key=" + hexKey), hexKey, "request url", `api_key query parameter "3f9a…"`},
		{"escaped query parameter", query("api_key=" + hexKey + "%2B1"), hexKey, "request url", `api_key query parameter "3f9a…"`},
		{"apikey query parameter", query("apikey=" + hexKey), hexKey, "request url", `apikey query parameter "3f9a…"`},
		{"access_token query parameter", query("access_token=" + bearer), bearer, "request url", `access_token query parameter "` + bearer[:4] + `…"`},
		{"token query parameter", query("token=" + bearer), bearer, "request url", `token query parameter "` + bearer[:4] + `…"`},
		{"password in the URL", func(it *cassette.Interaction) {
			it.Request.URL = "https://judge:" + password + "@llm.example.com/v1/chat/completions"
		}, password, "request url", `password in URL "hunt…"`},
		{"OpenAI key", reqBody(`{"messages":[{"role":"user","content":"my key is ` + openai + `"}]}`), openai, "request body", `OpenAI API key "sk-` + openai[3:4] + `…"`},
		{"OpenAI project key", respBody(`{"choices":[{"message":{"content":"try ` + project + `"}}]}`), project, "response body", `OpenAI API key "sk-p…"`},
		{"OpenRouter key", reqBody(`{"note":"` + openrouter + `"}`), openrouter, "request body", `OpenRouter API key "sk-o…"`},
		{"Anthropic key", reqBody(`{"note":"` + anthropic + `"}`), anthropic, "request body", `Anthropic API key "sk-a…"`},
		{"AWS access key ID", reqBody(`{"note":"aws ` + aws + ` here"}`), aws, "request body", `AWS access key ID "AKIA…"`},
		{"GitHub token", reqBody(`{"note":"` + github + `"}`), github, "request body", `GitHub token "ghp_…"`},
		{"GitHub fine-grained token", reqBody(`{"note":"` + githubPAT + `"}`), githubPAT, "request body", `GitHub token "gith…"`},
		{"Google API key", respBody(`{"note":"` + google + `"}`), google, "response body", `Google API key "AIza…"`},
		{"Slack token", reqBody(`{"note":"` + slack + `"}`), slack, "request body", `Slack token "xoxb…"`},
		{"bearer token in a body", reqBody(`curl -H "Authorization: Bearer ` + bearer + `" https://x`), bearer, "request body", `bearer token "` + bearer[:4] + `…"`},
		{"password on a YAML line", reqBody("db:\n  host: db.internal\n  password: " + password + "\n"), password, "request body", `password: "` + password[:4] + `…"`},
		{"client_secret quoted in a YAML list", respBody("clients:\n  - name: web\n  - client_secret: '" + hexKey + "'\n"), hexKey, "response body", `client_secret: "` + hexKey[:4] + `…"`},
		{"password line in a JSON string", reqBody(`{"messages":[{"role":"user","content":"here you go\npassword: ` + password + `"}]}`), password, "request body", `password: "` + password[:4] + `…"`},
		{"a command's --api-key flag in tool call arguments", reqBody(`{"tool_calls":[{"function":{"name":"shell","arguments":"{\"cmd\":\"deploy --api-key ` + hexKey + ` --yes\"}"}}]}`), hexKey, "request body", `--api-key "` + hexKey[:4] + `…"`},
		{"bearer token in any case (the scheme is case-insensitive)", reqBody(`curl -H "authorization: bEaReR ` + bearer + `" https://x`), bearer, "request body", `bearer token "` + bearer[:4] + `…"`},
		{"Kubernetes env entry (a name/value pair)", reqBody(`{"spec":{"containers":[{"env":[{"name":"LOG_LEVEL","value":"debug"},{"name":"OPENAI_API_KEY","value":"` + hexKey + `"}]}]}}`), hexKey, "request body", `"OPENAI_API_KEY" value "3f9a…"`},
		{"name/value pair, value first, in tool call arguments", reqBody(`{"tool_calls":[{"function":{"name":"deploy","arguments":"{\"env\":[{\"value\":\"` + password + `\",\"name\":\"DB_PASSWORD\"}]}"}}]}`), password, "request body", `"DB_PASSWORD" value "hunt…"`},
		{"Postman variable, members sorted apart", respBody(`{"values":[{"enabled":true,"key":"apiKey","type":"secret","value":"` + hexKey + `"}]}`), hexKey, "response body", `"apiKey" value "3f9a…"`},
		{"a Python dict in tool call arguments", reqBody(`{"tool_calls":[{"function":{"name":"python","arguments":"{\"code\":\"client = Client({'api_key': '` + hexKey + `'})\"}"}}]}`), hexKey, "request body", `api_key="3f9a…"`},
		{"a password field's value in a page", respBody(`<form><input type="password" name="pw" value="` + password + `"></form>`), password, "response body", `"password" value "hunt…"`},
		{"a token after its scheme in a JSON string", reqBody(`{"note":"{\"Authorization\": \"Token ` + hexKey + `\"}"}`), hexKey, "request body", `"Authorization" field "Token 3f9a…"`},
		{"mysql's -p<password> in a shell tool call", reqBody(`{"tool_calls":[{"function":{"name":"shell","arguments":"{\"cmd\":\"mysql -u root -p` + password + ` shop\"}"}}]}`), password, "request body", `-p "hunt…"`},
		{"JWT", respBody(`{"id_token_hint":"` + jwt + `"}`), jwt, "response body", `JWT "eyJh…"`},
		{"api_key JSON field", reqBody(`{"model":"m","api_key":"` + hexKey + `"}`), hexKey, "request body", `"api_key" field "3f9a…"`},
		{"client_secret JSON field", reqBody(`{"auth":{"client_secret":"` + hexKey + `"}}`), hexKey, "request body", `"client_secret" field "3f9a…"`},
		{"password in tool call arguments (JSON in JSON)", reqBody(`{"messages":[{"role":"assistant","tool_calls":[{"function":{"name":"login","arguments":"{\"user\":\"bob\",\"password\":\"` + password + `\"}"}}]}]}`), password, "request body", `"password" field "hunt…"`},
		{"api_key assignment in a form body", reqBody("model=m&api_key=" + hexKey + "&q=hi"), hexKey, "request body", `api_key form field "3f9a…"`},
		{"form field", func(it *cassette.Interaction) {
			it.Request.Form = url.Values{"client_secret": {hexKey}, "grant_type": {"client_credentials"}}
		}, hexKey, "request form", `client_secret form field "3f9a…"`},
		{"private key", respBody("-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n"), "-----BEGIN RSA PRIVATE KEY-----", "response body", `private key "----…"`},
		{"key on a later line of a block body", respBody("data: {\"a\":1}\n\ndata: {\"b\":\"" + project + "\"}\n\ndata: [DONE]\n"), project, "response body", `OpenAI API key "sk-p…"`},
	}
	for _, l := range leaks {
		t.Run(l.name, func(t *testing.T) {
			leaky := secretInteraction()
			l.edit(leaky)
			// The leak is in interaction 1; interaction 0 is clean.
			path, text := writeCassette(t, secretInteraction(), leaky)
			got, err := Check(path, Rules{})
			if err != nil {
				t.Fatal(err)
			}
			want := []Finding{{File: path, Line: lineOf(t, text, l.secret), Interaction: 1, Where: l.where, What: l.what}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s\ncassette:\n%s", diff, text)
			}
			for _, f := range got {
				if strings.Contains(f.String(), l.secret) {
					t.Errorf("finding %q prints the whole secret", f)
				}
			}
		})
	}
}

// TestCheckKnowsTheVocabulary: token counts, schemas describing
// credentials, placeholders, words that start like keys and "[REDACTED]"
// are no secrets.
func TestCheckKnowsTheVocabulary(t *testing.T) {
	it := secretInteraction()
	it.Request.URL += "?api_key=%5BREDACTED%5D&page_token=abc123def456&max_tokens=10&key=[REDACTED]"
	it.Request.Headers["Authorization"] = []string{"Bearer [REDACTED]"}
	it.Request.Headers["Api-Key"] = []string{"[REDACTED]"}
	it.Request.Headers["X-Auth-Token"] = []string{""}
	it.Response.Headers["X-Clerk-Auth-Status"] = []string{"signed-out"}
	it.Request.Form = url.Values{"api_key": {"[REDACTED]"}, "max_tokens": {"100"}}
	it.Request.Body = `{"model":"gpt-4o-mini","max_tokens":100,"max_completion_tokens":50,"logprobs":true,"top_logprobs":2,` +
		`"messages":[{"role":"user","content":"A task-based desk-top skeleton, sk-learn-pipelines-and-transformers, the bearer of bad news and password: later."},` +
		`{"role":"assistant","tool_calls":[{"function":{"name":"login","arguments":"{\"api_key\":\"$OPENAI_API_KEY\",\"password\":null}"}}]}],` +
		`"tools":[{"type":"function","function":{"name":"login","parameters":{"type":"object","properties":{"api_key":{"type":"string"},"password":{"type":"string","description":"the user's password"}}}}}],` +
		`"metadata":{"key":"session-7","token":"Hello","token_budget":"1000","api_key_env":"OPENAI_API_KEY","secret_key":"***"},"user":"agentcheck-prompt:goal/v1","seed":42}`
	it.Response.Body = `{"id":"chatcmpl-9xYz3AbC","system_fingerprint":"fp_44709d6fcb",` +
		`"choices":[{"index":0,"message":{"role":"assistant","content":"{\"verdict\":1,\"reason\":\"the api_key was [REDACTED]\"}"},` +
		// Lines that label things as a config's lines assign them.
		`"notes":"Password: see the vault\npassword: later.\napi_key: <YOUR_API_KEY>\nsecret: true\nclient_secret: ${CLIENT_SECRET}\npassword: ********\nPassword: 8 characters or more",` +
		// Flags that are not credentials, or hold none.
		`"cmd":"run --token-budget 1000 --password-file ~/.pw --key value --api-key --secret-ref vault/x",` +
		// Name/value pairs that hold no credential, or whose name is a label.
		`"env":[{"name":"OPENAI_API_KEY","valueFrom":{"secretKeyRef":{"name":"openai","key":"api-key"}}},{"name":"API_KEY","value":"${API_KEY}"},` +
		`{"name":"Reset password","value":"reset-now"},{"key":"max_tokens","value":"100"},{"name":"token","value":"Hello"}],` +
		`"logprobs":{"content":[{"token":"Hello","logprob":-0.1,"bytes":[72],"top_logprobs":[{"token":"Hi","logprob":-2.3}]}]}}],` +
		`"usage":{"prompt_tokens":181,"completion_tokens":17,"total_tokens":198,"prompt_tokens_details":{"cached_tokens":0}}}`
	path, text := writeCassette(t, it)
	got, err := Check(path, Rules{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) > 0 {
		t.Errorf("Check found secrets in a clean cassette:\n%s\ncassette:\n%s", findingLines(got), text)
	}
}

func findingLines(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.String() + "\n")
	}
	return b.String()
}

func TestCheckNamesTheFileAndLineOfBadYAML(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       string // after "path"
	}{
		{"unclosed flow sequence", "version: 2\ninteractions: [\n  {id: 0,\n", ":3: corrupt cassette: did not find expected node content"},
		{"truncated quoted body", "---\nversion: 2\ninteractions:\n    - id: 0\n      request:\n        body: '{\"model\":\"gpt\n", ":6: corrupt cassette: found unexpected end of stream"},
		{"headers of the wrong type", "version: 2\ninteractions:\n  - id: 0\n    request:\n      headers: x\n", ":5: not a go-vcr cassette: cannot unmarshal !!str `x` into http.Header"},
		{"empty file", "", ": empty file, not a go-vcr cassette"},
		{"other YAML", "name: ci\non: push\n", ":1: not a go-vcr cassette: no interactions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bad.yaml")
			os.WriteFile(path, []byte(tc.text), 0o644)
			got, err := Check(path, Rules{})
			if err == nil {
				t.Fatalf("Check = %v, nil; want an error", got)
			}
			if want := path + tc.want; err.Error() != want {
				t.Errorf("error = %q\nwant    %q", err, want)
			}
		})
	}
	if _, err := Check(filepath.Join(t.TempDir(), "missing.yaml"), Rules{}); err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("a missing file: error %v, want one naming it", err)
	}
}

func TestRulesRefuseRulesThatCannotWork(t *testing.T) {
	for _, tc := range []struct {
		rules Rules
		want  string
	}{
		{Rules{Patterns: []string{`acct-(`}}, `pattern rule "acct-(": error parsing regexp`},
		{Rules{Patterns: []string{`[0-9]*`}}, `pattern rule "[0-9]*" matches the empty string`},
		{Rules{Patterns: []string{`[A-Z]{4,}`}}, `pattern rule "[A-Z]{4,}" matches in "[REDACTED]", its own replacement`},
		{Rules{Headers: []string{" "}}, `header rule " " is not a header name`},
		{Rules{JSONPaths: []string{"user..email"}}, `json path rule "user..email" has an empty segment`},
	} {
		if _, err := tc.rules.Redactor(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v.Redactor() error = %v, want %q", tc.rules, err, tc.want)
		}
		path, _ := writeCassette(t, secretInteraction())
		if _, err := Check(path, tc.rules); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Check with %+v: error = %v, want %q", tc.rules, err, tc.want)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	good := write("good.json", `{"headers": ["X-Customer-Id"], "json_paths": ["user.email"], "patterns": ["acct-[0-9]+"]}`)
	got, err := Load(good)
	if err != nil {
		t.Fatal(err)
	}
	want := Rules{Headers: []string{"X-Customer-Id"}, JSONPaths: []string{"user.email"}, Patterns: []string{"acct-[0-9]+"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
	for name, tc := range map[string]struct{ text, want string }{
		"typo.json":    {`{"json_path": ["user.email"]}`, `rules file %s: json: unknown field "json_path"`},
		"syntax.json":  {"{\n  \"headers\": [\"a\",]\n}", `rules file %s:2: invalid character ']'`},
		"pattern.json": {`{"patterns": ["(("]}`, `rules file %s: pattern rule "((": error parsing regexp`},
		"two.json":     {`{} {}`, `rules file %s: data after the JSON object`},
	} {
		p := write(name, tc.text)
		if _, err := Load(p); err == nil || !strings.HasPrefix(err.Error(), fmt.Sprintf(tc.want, p)) {
			t.Errorf("Load(%s) error = %v\nwant prefix %q", name, err, fmt.Sprintf(tc.want, p))
		}
	}
}

func TestMaskShowsAtMostAThird(t *testing.T) {
	for in, want := range map[string]string{
		"sk-proj-abcdefghijklmnop": `"sk-p…"`,
		"Bearer sk-proj-abcdefgh":  `"Bearer sk-p…"`,
		"basic dXNlcjpwYXNz":       `"basic dXNl…"`,
		"hunter2":                  `"hu…"`,
		"ab":                       `"…"`,
		"abcdefghijk":              `"abc…"`,
		"ключ-секрет-длинный":      `"ключ…"`,
	} {
		if got := mask(in); got != want {
			t.Errorf("mask(%q) = %s, want %s", in, got, want)
		}
	}
}

func ExampleCheck() {
	dir, _ := os.MkdirTemp("", "agentcheck")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "leak.yaml")
	os.WriteFile(path, []byte(`---
version: 2
interactions:
    - id: 0
      request:
        body: '{"user":{"email":"alice@example.com"}}'
        headers:
            Authorization:
                - Bearer sk-not-a-real-key-0123456789
        url: https://api.openai.com/v1/chat/completions?api_key=abc123def456
        method: POST
      response:
        body: '{}'
        code: 200
`), 0o644)
	findings, err := Check(path, Rules{JSONPaths: []string{"user.email"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range findings {
		fmt.Printf("line %d: interaction %d: %s: %s\n", f.Line, f.Interaction, f.Where, f.What)
	}
	// Output:
	// line 6: interaction 0: request body: user.email "alic…" (rule: json path user.email)
	// line 9: interaction 0: request header: Authorization header "Bearer sk-n…"
	// line 10: interaction 0: request url: api_key query parameter "abc1…"
}

// BenchmarkCheck checks a cassette of 1,000 chat completions, the
// size of a large judged suite's.
func BenchmarkCheck(b *testing.B) {
	its := make([]*cassette.Interaction, 1000)
	for i := range its {
		its[i] = secretInteraction()
		its[i].Request.Body = fmt.Sprintf(`{"model":"gpt-4o-mini","messages":[{"role":"system","content":"You judge agents."},{"role":"user","content":"Conversation %d:\n[0] human: book a table for two at 7pm\n[1] ai: booked"}],"seed":42,"user":"agentcheck-prompt:goal/v1","temperature":0}`, i)
	}
	path, _ := writeCassette(b, its...)
	info, _ := os.Stat(path)
	b.SetBytes(info.Size())
	b.ReportAllocs()
	for b.Loop() {
		if f, err := Check(path, Rules{JSONPaths: []string{"messages.*.name"}, Patterns: []string{`acct-[0-9]+`}}); err != nil || len(f) > 0 {
			b.Fatal(f, err)
		}
	}
}

// TestRedactorScrubsCodeAndMarkup: credentials as code and markup write
// them (a Python dict, PHP and Ruby hashes, Go's :=, a JavaScript object,
// an index of the environment, a tag's value attribute, a scheme before
// the token) are scrubbed; comparisons, unquoted values, placeholders and
// labels stay.
func TestRedactorScrubsCodeAndMarkup(t *testing.T) {
	x, err := Rules{}.Redactor()
	if err != nil {
		t.Fatal(err)
	}
	key := "3f9a" + fakeKey("", 28)
	for _, tc := range []struct{ in, want string }{
		{`{'api_key': '<K>', 'model': 'gpt-4o'}`, `{'api_key': '<R>', 'model': 'gpt-4o'}`},
		{`$password = "<K>";`, `$password = "<R>";`},
		{`'password' => '<K>',`, `'password' => '<R>',`},
		{`:api_key => "<K>"`, `:api_key => "<R>"`},
		{`dbPassword := "<K>"`, `dbPassword := "<R>"`},
		{`new OpenAI({ apiKey: '<K>' })`, `new OpenAI({ apiKey: '<R>' })`},
		{`os.environ["OPENAI_API_KEY"] = "<K>"`, `os.environ["OPENAI_API_KEY"] = "<R>"`},
		{`curl -H 'X-Api-Key: <K>' https://x`, `curl -H 'X-Api-Key: <R>' https://x`},
		// A token after a scheme is one, whatever follows it.
		{`{"authorization":"Token abc123def456 for the staging server"}`, `{"authorization":"Token <R> for the staging server"}`},
		{`{"authorization":"Token for the staging server"}`, `{"authorization":"Token for the staging server"}`},
		{`<input type="password" name="pw" value="<K>">`, `<input type="password" name="pw" value="<R>">`},
		{`<add key="ApiKey" value="<K>" />`, `<add key="ApiKey" value="<R>" />`},
		{`<add key="Password" value="letmeinplease" />`, `<add key="Password" value="<R>" />`},
		{"env:\n  - name: DB_PASSWORD\n    value: |\n      <K>\n  - name: LOG_LEVEL\n", "env:\n  - name: DB_PASSWORD\n    value: |\n      <R>\n  - name: LOG_LEVEL\n"},
		{"db:\n  password: >-\n    <K>\n", "db:\n  password: >-\n    <R>\n"},
		{`DB_PASSWORD=Winter(2024)`, `DB_PASSWORD=<R>`},
		{`mysql -u root -p<K> shop`, `mysql -u root -p<R> shop`},
		{`cd /app && sudo mysqldump -p'<K>' shop`, `cd /app && sudo mysqldump -p'<R>' shop`},
		{`sshpass -p '<K>' ssh deploy@host`, `sshpass -p '<R>' ssh deploy@host`},
		{`docker login -u bob -p <K> ghcr.io`, `docker login -u bob -p <R> ghcr.io`},
		{`redis-cli -h cache -a <K> ping`, `redis-cli -h cache -a <R> ping`},
		{`curl -u admin:<K> https://x`, `curl -u admin:<R> https://x`},
		{`{"headers": {"Authorization": "Token <K>"}}`, `{"headers": {"Authorization": "Token <R>"}}`},
		{`{"smtp_pass": "<K>"}`, `{"smtp_pass": "<R>"}`},
		{`{ "password": '<K>' }`, `{ "password": '<R>' }`},
		{`<input type=password value="<K>">`, `<input type=password value="<R>">`},
		{"<input name=\"api_key\"\n       value=\"<K>\">", "<input name=\"api_key\"\n       value=\"<R>\">"},
		{"env:\n  - name: DB_PASSWORD\n    value: <K>\n  - name: LOG_LEVEL\n    value: debug\n", "env:\n  - name: DB_PASSWORD\n    value: <R>\n  - name: LOG_LEVEL\n    value: debug\n"},
		{`{"env":"{\"name\":\"DB_PASSWORD\",\"value\":\"correct horse battery staple\"}"}`, `{"env":"{\"name\":\"DB_PASSWORD\",\"value\":\"<R>\"}"}`},
		{`{"password":"correct horse battery staple"}`, `{"password":"<R>"}`},
		{`{"value":"Token <K>","name":"Authorization"}`, `{"value":"Token <R>","name":"Authorization"}`},
		{`DB_PASSWORD=p@ss(w0rd)`, `DB_PASSWORD=<R>`},
		{`export API_KEY=abc(123)def456`, `export API_KEY=<R>`},
		// What stays.
		{`if password == "<K>" {`, `if password == "<K>" {`},
		{`password != '<K>'`, `password != '<K>'`},
		{`api_key = os.environ["OPENAI_API_KEY"]`, `api_key = os.environ["OPENAI_API_KEY"]`},
		{`apiKey: 'YOUR_API_KEY'`, `apiKey: 'YOUR_API_KEY'`},
		{`password = getpass()`, `password = getpass()`},
		{`<input type="password" name="password" value="">`, `<input type="password" name="password" value="">`},
		{`<option value="<K>">`, `<option value="<K>">`},
		{`<input name="Reset password" value="<K>">`, `<input name="Reset password" value="<K>">`},
		{`{"pass": true, "result": "pass"}`, `{"pass": true, "result": "pass"}`},
		{`{"first_pass": "draft-v2-final", "judge_pass": "gpt-4o-mini-2024"}`, `{"first_pass": "draft-v2-final", "judge_pass": "gpt-4o-mini-2024"}`},
		{`'password' => 'required',`, `'password' => 'required',`},
		{`errors = {'password': 'This field is required.'}`, `errors = {'password': 'This field is required.'}`},
		{`{"value":"abc","name":"DB_PASSWORD x"}`, `{"value":"abc","name":"DB_PASSWORD x"}`},
		{`password = read_secret(path)`, `password = read_secret(path)`},
		{`mysql -u root -p shop`, `mysql -u root -p shop`},
		{`curl -u "$USER:$PASS" https://x`, `curl -u "$USER:$PASS" https://x`},
		{`docker run -p 8080:80 nginx && gcc -pthread x.c && ls -a /tmp`, `docker run -p 8080:80 nginx && gcc -pthread x.c && ls -a /tmp`},
		{`{"api_key": "your api key", "access_token": "the token from the login call"}`, `{"api_key": "your api key", "access_token": "the token from the login call"}`},
		{"- metadata:\n    name: DB_PASSWORD\n  value: abc123xyz9\n", "- metadata:\n    name: DB_PASSWORD\n  value: abc123xyz9\n"},
		{`{"name":"code","value":"print(1)"}`, `{"name":"code","value":"print(1)"}`},
	} {
		in := strings.ReplaceAll(tc.in, "<K>", key)
		want := strings.ReplaceAll(strings.ReplaceAll(tc.want, "<K>", key), "<R>", Redacted)
		if got := x.Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
	// A form's names are read unescaped, as the check reads them.
	form := "q=1&api%5Fkey=" + key
	if got := string(x.Body([]byte(form))); strings.Contains(got, key) {
		t.Errorf("Body(%q) = %q, which keeps the key", form, got)
	}
}

// A credential on a line `name: value` or after a command's flag is
// redacted where it stands, the name, the quotes and the rest of the text
// kept; a label of prose, or a flag's other value, is not.
func TestRedactorScrubsLinesAndFlags(t *testing.T) {
	x, err := Rules{}.Redactor()
	if err != nil {
		t.Fatal(err)
	}
	key := "3f9a" + fakeKey("", 28)
	for in, want := range map[string]string{
		"db:\n  host: db.internal\n  password: " + key + "\n": "db:\n  host: db.internal\n  password: " + Redacted + "\n",
		"clients:\n  - client_secret: '" + key + "'  # web\n": "clients:\n  - client_secret: '" + Redacted + "'  # web\n",
		"API_KEY: " + key: "API_KEY: " + Redacted,
		"db:\n  password: Winter(2024)\n  token: " + key + "{1}\n":  "db:\n  password: " + Redacted + "\n  token: " + Redacted + "\n",
		"Password: see the vault\nsecret: true\n":                   "Password: see the vault\nsecret: true\n",
		"mysql --password " + key + " -h db":                        "mysql --password " + Redacted + " -h db",
		"login --auth-token '" + key + "'":                          "login --auth-token '" + Redacted + "'",
		"run --token-budget 1000 --password-file ~/.pw":             "run --token-budget 1000 --password-file ~/.pw",
		`env: [{"name": "OPENAI_API_KEY", "value": "` + key + `"}]`: `env: [{"name": "OPENAI_API_KEY", "value": "` + Redacted + `"}]`,
		`{\"Value\":\"` + key + `\",\"Name\":\"X-Api-Key\"}`:        `{\"Value\":\"` + Redacted + `\",\"Name\":\"X-Api-Key\"}`,
		`[{"name":"Reset password","value":"` + key + `"}]`:         `[{"name":"Reset password","value":"` + key + `"}]`,
		// Headers given to a command, and what curl -v shows it sent.
		`curl -H "X-Api-Key:` + key + `" https://x`:                                                     `curl -H "X-Api-Key:` + Redacted + `" https://x`,
		`wget --header=Private-Token:` + key + ` https://x`:                                             `wget --header=Private-Token:` + Redacted + ` https://x`,
		`wget "--header=Authorization: Token ` + key + `" https://x`:                                    `wget "--header=Authorization: Token ` + Redacted + `" https://x`,
		"> GET / HTTP/1.1\n> X-Auth-Token: " + key + "\n> Accept: */*":                                  "> GET / HTTP/1.1\n> X-Auth-Token: " + Redacted + "\n> Accept: */*",
		`curl -H "Content-Type:application/json" -H "X-Api-Key: $API_KEY" --header=X-Request-Id:` + key: `curl -H "Content-Type:application/json" -H "X-Api-Key: $API_KEY" --header=X-Request-Id:` + key,
	} {
		if got := x.Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}
