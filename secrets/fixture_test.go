package secrets

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
)

// cardNumbers is a Rules.Func: 16-digit numbers that pass the Luhn check.
func cardNumbers(text string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`\b[0-9]{16}\b`).FindAllString(text, -1) {
		sum := 0
		for i := range m {
			d := int(m[len(m)-1-i] - '0')
			if i%2 == 1 {
				if d *= 2; d > 9 {
					d -= 9
				}
			}
			sum += d
		}
		if sum%10 == 0 {
			out = append(out, m)
		}
	}
	return out
}

// fixtureRules and fixtureEnv are what the leaky fixture is checked with.
var fixtureRules = Rules{Env: []string{"FIXTURE_API_KEY"}, Names: []string{"tenant_pin"}, Func: cardNumbers}

func fixtureEnv(name string) string {
	if name == "FIXTURE_API_KEY" {
		return "fixture-env-9QwZ3xR7"
	}
	return ""
}

// blockWants are the findings on lines of block scalars, which cannot hold
// a "# want:" comment: the text on the line, and the kind.
var blockWants = map[string]string{
	"sk-proj-FAKE":                    "OpenAI API key",
	"sk-ant-api03-FAKE":               "Anthropic API key",
	"sk-or-v1-FAKE":                   "OpenRouter API key",
	"AIzaFAKE":                        "Google API key",
	"ghp_FAKE":                        "GitHub token",
	"gho_FAKE":                        "GitHub token",
	"github_pat_FAKE":                 "GitHub token",
	"xoxb-FAKE":                       "Slack token",
	"AKIA" + "FAKE0Q7ZP9KD3WM5":       "AWS access key ID",
	"eyJhbGciOiJIUzI1NiJ9":            "JWT",
	"Bearer FAKEbearer":               "bearer token",
	"deploy with fixture-env":         "value of $FIXTURE_API_KEY",
	"card 4111111111111111":           "(rule: func)",
	"-----BEGIN RSA PRIVATE KEY-----": "private key",
	`"client_secret":"8092aa`:         `"client_secret" field`,
	`"refresh_token":"92aa`:           `"refresh_token" field`,
}

// wantedFindings reads the kinds of secret each line of a fixture must
// report: its "# want: a | b" comment, or blockWants.
func wantedFindings(t *testing.T, text string) map[int][]string {
	t.Helper()
	want := map[int][]string{}
	used := map[string]bool{}
	for i, line := range strings.Split(text, "\n") {
		if _, w, ok := strings.Cut(line, " # want: "); ok {
			want[i+1] = strings.Split(w, " | ")
		}
		for s, kind := range blockWants {
			if strings.Contains(line, s) {
				want[i+1], used[s] = append(want[i+1], kind), true
			}
		}
	}
	for s := range blockWants {
		if !used[s] {
			t.Fatalf("Expected the fixture to hold %q, but it does not", s)
		}
	}
	return want
}

// TestCheckFindsEveryPlacementInTheFixture: each placement of the
// hand-written, unredacted fixture is one finding of the right kind on the
// right line, and no finding prints its secret.
//
// The fixture is committed gzipped (testdata/leaky.yaml.gz; read it with
// zcat): every value in it is fake, but it is a cassette full of
// credential-shaped text, and kept compressed no secret scanner run over
// the repository takes it for a leak. The test checks it as a file.
func TestCheckFindsEveryPlacementInTheFixture(t *testing.T) {
	data := leakyFixture(t)
	path := filepath.Join(t.TempDir(), "leaky.yaml")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	want := wantedFindings(t, string(data))
	got, err := Check(path, fixtureRules, WithGetenv(fixtureEnv))
	if err != nil {
		t.Fatal(err)
	}
	byLine := map[int][]string{}
	for _, f := range got {
		byLine[f.Line] = append(byLine[f.Line], f.What)
	}
	n := 0
	for line, kinds := range want {
		n += len(kinds)
		whats := slices.Clone(byLine[line])
		// The longest kinds first: "access_token query parameter" before
		// "token query parameter".
		kinds = slices.Clone(kinds)
		slices.SortFunc(kinds, func(a, b string) int { return len(b) - len(a) })
		for _, kind := range kinds {
			i := slices.IndexFunc(whats, func(w string) bool { return strings.Contains(w, kind) })
			if i < 0 {
				t.Errorf("%s:%d: Expected a finding of %q, but the line has %q", path, line, kind, byLine[line])
				continue
			}
			whats = slices.Delete(whats, i, i+1)
		}
		if len(whats) > 0 {
			t.Errorf("%s:%d: Expected only %q, but the check also found %q", path, line, kinds, whats)
		}
	}
	for line, whats := range byLine {
		if want[line] == nil {
			t.Errorf("%s:%d: Expected no finding on the line, but the check found %q", path, line, whats)
		}
	}
	if n < 40 {
		t.Errorf("Expected the fixture to hold at least 40 placements, but it holds %d", n)
	}
	// Secrets of 16 characters or more never appear whole in a finding.
	for _, f := range got {
		for _, s := range regexp.MustCompile(`[A-Za-z0-9_-]{16,}`).FindAllString(string(data), -1) {
			if strings.Contains(f.String(), s) && strings.ContainsFunc(s, func(r rune) bool { return r >= '0' && r <= '9' }) && !strings.Contains(path, s) {
				t.Errorf("Expected a finding to mask its secret, but %q prints %q", f, s)
			}
		}
	}
}

// TestCleanFixtureHoldsNoSecret: the check finds nothing in the clean
// fixture, and a Redactor changes none of its URLs, headers and bodies.
func TestCleanFixtureHoldsNoSecret(t *testing.T) {
	const path = "testdata/clean.yaml"
	if got, err := Check(path, fixtureRules, WithGetenv(fixtureEnv)); err != nil || len(got) > 0 {
		t.Errorf("Expected no finding in the clean fixture, but the check found %v (error %v)", got, err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c cassette.Cassette
	if err := yaml.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	x, err := fixtureRules.Redactor(WithGetenv(fixtureEnv))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Interactions) < 4 {
		t.Fatalf("Expected the clean fixture to hold 4 interactions, but it holds %d", len(c.Interactions))
	}
	for _, it := range c.Interactions {
		u, err := url.Parse(it.Request.URL)
		if err != nil {
			t.Fatal(err)
		}
		x := x.Learn(u, it.Request.Headers, []byte(it.Request.Body))
		if got := x.URL(u); got != it.Request.URL {
			t.Errorf("Expected the URL unchanged, but %s became %s", it.Request.URL, got)
		}
		for _, m := range []struct {
			h    http.Header
			body string
		}{{it.Request.Headers, it.Request.Body}, {it.Response.Headers, it.Response.Body}} {
			h, body := x.Message(m.h, []byte(m.body))
			if !bytes.Equal(body, []byte(m.body)) {
				t.Errorf("Expected the body unchanged, but\n%s\nbecame\n%s", m.body, body)
			}
			if len(h) != len(m.h) {
				t.Errorf("Expected the headers unchanged, but %v became %v", m.h, h)
			}
		}
	}
}

// leakyFixture is testdata/leaky.yaml.gz, decompressed.
func leakyFixture(t *testing.T) []byte {
	t.Helper()
	f, err := os.Open("testdata/leaky.yaml.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
