package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/recorder"
	"github.com/agentcheck/agentcheck/secrets"
	"github.com/google/go-cmp/cmp"
)

// Fake keys are assembled at run time, so that no secret scanner of this
// repository's source takes the test for a leak.
var (
	fakeProjectKey = "sk-proj-" + strings.Repeat("Qx7vB2", 10)
	fakeGoogleKey  = "AIza" + strings.Repeat("Sy9Kd", 7)
)

// cassetteYAML is a go-vcr cassette of two chat completions, as the
// recorder writes them; reqHeaders, url and body go into the second.
func cassetteYAML(reqHeaders, url, body string) string {
	return `---
version: 2
interactions:
    - id: 0
      request:
        body: '{"model":"gpt-4o-mini","max_tokens":50,"messages":[{"role":"user","content":"hi"}]}'
        headers:
            Content-Type:
                - application/json
        url: https://api.openai.com/v1/chat/completions
        method: POST
      response:
        body: |
            {"choices":[{"message":{"content":"hello"}}],"usage":{"prompt_tokens":9,"completion_tokens":1,"total_tokens":10}}
        headers:
            X-Ratelimit-Remaining-Tokens:
                - "149990"
        status: 200 OK
        code: 200
    - id: 1
      request:
        body: '` + body + `'
        headers:
            Content-Type:
                - application/json
` + reqHeaders + `        url: ` + url + `
        method: POST
      response:
        body: '{"choices":[]}'
        status: 200 OK
        code: 200
`
}

func writeIn(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCassettesCheckPrintsEachLeakMasked(t *testing.T) {
	dir := t.TempDir()
	leak := writeIn(t, dir, "leak.yaml", cassetteYAML(
		"            Authorization:\n                - Bearer "+fakeProjectKey+"\n",
		"https://generativelanguage.googleapis.com/v1/models?key="+fakeGoogleKey,
		`{"messages":[{"role":"user","content":"my key: `+fakeProjectKey+`"}]}`))
	writeIn(t, dir, "sub/clean.yml", cassetteYAML("", "https://api.openai.com/v1/chat/completions", `{"n":1}`))
	writeIn(t, dir, "notes.txt", "not a cassette: "+fakeProjectKey)

	stdout, stderr, code := runAgentcheck(t, "", "cassettes", "check", dir)
	if code != exitFailed {
		t.Errorf("exit status %d, want %d; stderr:\n%s", code, exitFailed, stderr)
	}
	want := []string{
		leak + `:22: interaction 1: request body: OpenAI API key "sk-p…"`,
		leak + `:27: interaction 1: request header: Authorization header "Bearer sk-p…"`,
		leak + `:28: interaction 1: request url: key query parameter "AIza…"`,
		"agentcheck cassettes check: 3 secrets in 1 of 2 cassettes",
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if diff := cmp.Diff(want, lines[:min(len(lines), len(want))]); diff != "" {
		t.Errorf("output (-want +got):\n%s\nstdout:\n%s", diff, stdout)
	}
	if !strings.Contains(stdout, "recorder.WithRedaction(secrets.Rules{...})") {
		t.Errorf("the output does not say how to redact:\n%s", stdout)
	}
	for _, secret := range []string{fakeProjectKey, fakeGoogleKey, fakeProjectKey[:12]} {
		if strings.Contains(stdout+stderr, secret) {
			t.Errorf("the output prints the secret %q:\n%s%s", secret, stdout, stderr)
		}
	}
}

// TestCassettesCheckPassesTheRepositoryCassettes is what CI runs.
func TestCassettesCheckPassesTheRepositoryCassettes(t *testing.T) {
	dir := filepath.Join("..", "..", "cassettes")
	n, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	stdout, stderr, code := runAgentcheck(t, "", "cassettes", "check", dir, filepath.Join("..", "..", "judge", "testdata", "cassettes"))
	if want := fmt.Sprintf("agentcheck cassettes check: no secrets in %d cassettes\n", len(n)+1); code != exitOK || stdout != want {
		t.Errorf("exit status %d, stdout %q, want %d and %q; stderr:\n%s", code, stdout, exitOK, want, stderr)
	}
}

func TestCassettesCheckDefaultsToTheCassetteDirectories(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	stdout, stderr, code := runAgentcheck(t, "", "cassettes", "check")
	if code != exitUsage || !strings.Contains(stderr, "no PATH given and neither testdata/cassettes nor cassettes exists here") {
		t.Errorf("without cassette directories: exit status %d, stderr %q, want %d naming the directories", code, stderr, exitUsage)
	}

	writeIn(t, dir, "testdata/cassettes/TestA/sub.yaml", cassetteYAML("            Cookie:\n                - session="+fakeProjectKey+"\n", "https://x.test/v1", `{}`))
	writeIn(t, dir, "cassettes/shared.yaml", cassetteYAML("", "https://x.test/v1", `{}`))
	writeIn(t, dir, ".hidden/leak.yaml", cassetteYAML("            Cookie:\n                - session="+fakeProjectKey+"\n", "https://x.test/v1", `{}`))
	stdout, stderr, code = runAgentcheck(t, "", "cassettes", "check")
	want := "testdata/cassettes/TestA/sub.yaml:27: interaction 1: request header: Cookie header \"sess…\"\n" +
		"agentcheck cassettes check: 1 secret in 1 of 2 cassettes\n"
	if code != exitFailed || !strings.HasPrefix(stdout, want) {
		t.Errorf("exit status %d, stdout:\n%s\nwant %d and:\n%s\nstderr: %s", code, stdout, exitFailed, want, stderr)
	}
}

// TestCassettesCheckProvesTheRulesApplied: a cassette recorded with
// recorder.WithRedaction(rules) passes the check with the same rules, given as flags
// or as a rules file; one recorded without them fails it, naming each path,
// header and pattern, though it passes the check without rules.
func TestCassettesCheckProvesTheRulesApplied(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"user":{"email":"alice@example.com"},"id":"acct-123456"}`)
	}))
	defer srv.Close()
	rules := secrets.Rules{
		Headers:   []string{"X-Customer-Id"},
		JSONPaths: []string{"user.email"},
		Patterns:  []string{`acct-[0-9]{6}`},
	}
	dir := t.TempDir()
	record := func(name string, opts ...recorder.Option) string {
		t.Helper()
		path := filepath.Join(dir, name)
		rec, err := recorder.Open(path, append(opts, recorder.WithMode(recorder.RecordMissing),
			recorder.WithEnv(func(string) string { return "" }))...)
		if err != nil {
			t.Fatal(err)
		}
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/chat/completions",
			strings.NewReader(`{"user":{"email":"alice@example.com","plan":"pro"},"note":"acct-654321"}`))
		req.Header.Set("X-Customer-Id", "cust-000042")
		resp, err := rec.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
		return path
	}
	redacted := record("with-rules.yaml", recorder.WithRedaction(rules))
	plain := record("without-rules.yaml")
	rulesFile := writeIn(t, dir, "rules.json", `{"headers":["X-Customer-Id"],"json_paths":["user.email"],"patterns":["acct-[0-9]{6}"]}`)
	flags := []string{"--header", "X-Customer-Id", "--json-path", "user.email", "--pattern", `acct-[0-9]{6}`}

	for name, ruleArgs := range map[string][]string{"flags": flags, "rules file": {"--rules", rulesFile}} {
		t.Run(name, func(t *testing.T) {
			args := append(append([]string{"cassettes", "check"}, ruleArgs...), redacted)
			if stdout, stderr, code := runAgentcheck(t, "", args...); code != exitOK {
				t.Errorf("recorded with the rules: exit status %d, want %d\n%s%s", code, exitOK, stdout, stderr)
			}
			args = append(append([]string{"cassettes", "check"}, ruleArgs...), plain)
			stdout, stderr, code := runAgentcheck(t, "", args...)
			if code != exitFailed {
				t.Errorf("recorded without the rules: exit status %d, want %d\n%s", code, exitFailed, stderr)
			}
			for _, want := range []string{
				`request header: X-Customer-Id header "cus…" (rule: header X-Customer-Id)`,
				`request body: user.email "alic…" (rule: json path user.email)`,
				`request body: "acc…" (rule: pattern acct-[0-9]{6})`,
				`response body: user.email "alic…" (rule: json path user.email)`,
				`response body: "acc…" (rule: pattern acct-[0-9]{6})`,
				"5 secrets in 1 of 1 cassette",
			} {
				if !strings.Contains(stdout, want) {
					t.Errorf("output lacks %q:\n%s", want, stdout)
				}
			}
			if !strings.HasPrefix(stdout, plain+":") {
				t.Errorf("findings do not start with the cassette's path %s:\n%s", plain, stdout)
			}
		})
	}
	if stdout, _, code := runAgentcheck(t, "", "cassettes", "check", plain); code != exitOK {
		t.Errorf("without rules the email and account are not credentials; exit status %d:\n%s", code, stdout)
	}
}

// TestCassettesCheckNamesACorruptCassette: exit status 2 naming file and
// line, and the other cassettes are still checked.
func TestCassettesCheckNamesACorruptCassette(t *testing.T) {
	dir := t.TempDir()
	corrupt := writeIn(t, dir, "a-corrupt.yaml", "---\nversion: 2\ninteractions:\n    - id: 0\n      request:\n        body: '{\"model\":\"gpt\n")
	leak := writeIn(t, dir, "b-leak.yaml", cassetteYAML("            X-Api-Key:\n                - "+fakeProjectKey+"\n", "https://x.test/v1", `{}`))
	stdout, stderr, code := runAgentcheck(t, "", "cassettes", "check", dir)
	if code != exitUsage {
		t.Errorf("exit status %d, want %d", code, exitUsage)
	}
	wantErr := "agentcheck cassettes check: " + corrupt + ":6: corrupt cassette: found unexpected end of stream\n" +
		"agentcheck cassettes check: 1 of 2 cassettes could not be checked\n"
	if stderr != wantErr {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, wantErr)
	}
	if want := leak + `:27: interaction 1: request header: X-Api-Key header "sk-p…"`; !strings.HasPrefix(stdout, want+"\n") {
		t.Errorf("the corrupt cassette hid the leak in the other one; stdout:\n%s\nwant it to start with:\n%s", stdout, want)
	}
}

func TestCassettesCheckUsageErrors(t *testing.T) {
	dir := t.TempDir()
	cassette := writeIn(t, dir, "c.yaml", cassetteYAML("", "https://x.test/v1", `{}`))
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	badRules := writeIn(t, dir, "rules.json", `{"header": ["X-Customer-Id"]}`)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"cassettes"}, "Usage: agentcheck cassettes check"},
		{[]string{"cassettes", "scan"}, `agentcheck cassettes: unknown command "scan"`},
		{[]string{"cassettes", "check", "--bogus", cassette}, "flag provided but not defined: -bogus"},
		{[]string{"cassettes", "check", "--pattern", "acct-(", cassette}, `pattern rule "acct-(": error parsing regexp`},
		{[]string{"cassettes", "check", "--pattern", "[A-Z]+", cassette}, `matches in "[REDACTED]", its own replacement`},
		{[]string{"cassettes", "check", "--json-path", "user..email", cassette}, `json path rule "user..email" has an empty segment`},
		{[]string{"cassettes", "check", "--rules", badRules, cassette}, "rules file " + badRules + `: json: unknown field "header"`},
		{[]string{"cassettes", "check", "--rules", filepath.Join(dir, "none.json"), cassette}, "none.json: no such file"},
		{[]string{"cassettes", "check", filepath.Join(dir, "missing.yaml")}, "missing.yaml: no such file"},
		{[]string{"cassettes", "check", empty}, empty + ": no cassettes (*.yaml, *.yml) in the directory"},
	} {
		stdout, stderr, code := runAgentcheck(t, "", tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("agentcheck %s: exit status %d, stderr %q; want %d and %q (stdout %q)", strings.Join(tc.args, " "), code, stderr, exitUsage, tc.want, stdout)
		}
	}
	for _, args := range [][]string{{"cassettes", "check", "-h"}, {"help", "cassettes"}, {"cassettes", "help"}} {
		stdout, _, code := runAgentcheck(t, "", args...)
		if code != exitOK || !strings.HasPrefix(stdout, "Usage: agentcheck cassettes check [flags] [PATH...]") {
			t.Errorf("agentcheck %s: exit status %d, stdout %q; want the usage", strings.Join(args, " "), code, stdout)
		}
	}
	if stdout, _, _ := runAgentcheck(t, "", "help"); !strings.Contains(stdout, "agentcheck cassettes check [flags] [PATH...]") {
		t.Errorf("agentcheck help does not list cassettes check:\n%s", stdout)
	}
}

// TestCassettesCheckSearchesHiddenDirectories: cassettes under .cassettes
// and .github are checked, the repository's .git is not, and other YAML
// found there (a workflow) is skipped rather than an error.
func TestCassettesCheckSearchesHiddenDirectories(t *testing.T) {
	dir := t.TempDir()
	hidden := writeIn(t, dir, ".cassettes/leak.yaml", cassetteYAML("            X-Auth-Token:\n                - "+fakeProjectKey[8:40]+"\n", "https://x.test/v1", `{}`))
	writeIn(t, dir, ".github/workflows/ci.yml", "name: ci\non: push\njobs: {}\n")
	writeIn(t, dir, ".github/cassettes/clean.yaml", cassetteYAML("", "https://x.test/v1", `{}`))
	// The repository's own .git is not searched.
	writeIn(t, dir, ".git/HEAD", "ref: refs/heads/main\n")
	writeIn(t, dir, ".git/objects/info/packs", "")
	writeIn(t, dir, ".git/leak.yaml", cassetteYAML("            Cookie:\n                - s="+fakeProjectKey+"\n", "https://x.test/v1", `{}`))
	stdout, stderr, code := runAgentcheck(t, "", "cassettes", "check", dir)
	want := hidden + `:27: interaction 1: request header: X-Auth-Token header "` + fakeProjectKey[8:12] + "…\"\n" +
		"agentcheck cassettes check: 1 secret in 1 of 2 cassettes\n"
	if code != exitFailed || !strings.HasPrefix(stdout, want) {
		t.Errorf("Expected exit status %d and output starting\n%s\nbut got %d and\n%s\nstderr: %s", exitFailed, want, code, stdout, stderr)
	}
	// A named file that is no cassette is still an error.
	if _, stderr, code := runAgentcheck(t, "", "cassettes", "check", filepath.Join(dir, ".github/workflows/ci.yml")); code != exitUsage || !strings.Contains(stderr, "not a go-vcr cassette") {
		t.Errorf("Expected a named workflow file to be refused with exit status %d, but got %d and stderr %q", exitUsage, code, stderr)
	}
}

// TestCassettesCheckTakesNamesAndEnv: --name and --env (and their rules
// file fields) find what the default check does not.
func TestCassettesCheckTakesNamesAndEnv(t *testing.T) {
	envValue := "env-" + fakeProjectKey[10:30]
	t.Setenv("AGENTCHECK_TEST_CHECK_ENV", envValue)
	dir := t.TempDir()
	path := writeIn(t, dir, "c.yaml", cassetteYAML("", "https://x.test/v1?tenant_pin=8231", `{"note":"deploy `+envValue+`"}`))
	if stdout, _, code := runAgentcheck(t, "", "cassettes", "check", path); code != exitOK {
		t.Fatalf("Expected the default check to pass, but it exited %d:\n%s", code, stdout)
	}
	rules := writeIn(t, dir, "rules.json", `{"names":["tenant_pin"],"env":["AGENTCHECK_TEST_CHECK_ENV"]}`)
	for _, args := range [][]string{{"--name", "tenant_pin", "--env", "AGENTCHECK_TEST_CHECK_ENV"}, {"--rules", rules}} {
		stdout, stderr, code := runAgentcheck(t, "", append(append([]string{"cassettes", "check"}, args...), path)...)
		for _, want := range []string{
			`request url: tenant_pin query parameter "8…"`,
			`request body: value of $AGENTCHECK_TEST_CHECK_ENV "env-…"`,
			"2 secrets in 1 of 1 cassette",
		} {
			if code != exitFailed || !strings.Contains(stdout, want) {
				t.Errorf("%v: Expected exit status %d and %q in the output, but got %d and\n%s%s", args, exitFailed, want, code, stdout, stderr)
			}
		}
		if strings.Contains(stdout, envValue) {
			t.Errorf("%v: Expected the output to mask the value, but it prints it:\n%s", args, stdout)
		}
	}
}

// TestCassettesCheckSearchesEveryDirectory: a subtest's directory named
// .git (no repository: no HEAD, no objects/) is searched, and so is a
// directory reached through a symbolic link; a link back up the tree ends
// no walk in a loop, and each directory is searched once.
func TestCassettesCheckSearchesEveryDirectory(t *testing.T) {
	dir := t.TempDir()
	leak := "            X-Auth-Token:\n                - " + fakeProjectKey[8:40] + "\n"
	subtest := writeIn(t, dir, "cassettes/TestAgent/.git/leak.yaml", cassetteYAML(leak, "https://x.test/v1", `{}`))
	shared := writeIn(t, t.TempDir(), "shared/leak.yaml", cassetteYAML(leak, "https://x.test/v1", `{}`))
	if err := os.Symlink(filepath.Dir(shared), filepath.Join(dir, "cassettes", "shared")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Symlink("..", filepath.Join(dir, "cassettes", "TestAgent", "up")); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runAgentcheck(t, "", "cassettes", "check", filepath.Join(dir, "cassettes"))
	linked := filepath.Join(dir, "cassettes", "shared", "leak.yaml")
	for _, file := range []string{subtest, linked} {
		if !strings.Contains(stdout, file+":27: interaction 1: request header: X-Auth-Token header") {
			t.Errorf("Expected the leak in %s found, but the output is\n%s\nstderr: %s", file, stdout, stderr)
		}
	}
	if code != exitFailed || !strings.Contains(stdout, "2 secrets in 2 of 2 cassettes") {
		t.Errorf("Expected exit status %d and each cassette checked once, but got %d and\n%s\nstderr: %s", exitFailed, code, stdout, stderr)
	}
}
