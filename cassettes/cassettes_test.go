package cassettes_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/cassettes"
	"github.com/agentcheck/agentcheck/recorder"
	"go.yaml.in/yaml/v3"
)

// secrets are what a key or a credential header looks like in a file.
var secrets = regexp.MustCompile(`(?i)authorization|bearer\s|\bsk-[a-z0-9_-]{6,}|api[-_]key|openai-organization|openai-project|cookie`)

func files(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob("*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(paths, "demo.yaml") {
		t.Fatalf("cassettes %v: demo.yaml, the agentcheck eval demo's, is missing", paths)
	}
	return paths
}

// TestNoSecrets scans every cassette for keys and credential headers: the
// recorder redacts them, and the recordings sent a key to prove it.
func TestNoSecrets(t *testing.T) {
	for _, path := range files(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if m := secrets.FindString(line); m != "" {
				t.Errorf("%s:%d: %q looks like a secret: %.200s", path, i+1, m, line)
			}
		}
	}
}

// TestSecretPatternFindsSecrets keeps TestNoSecrets honest.
func TestSecretPatternFindsSecrets(t *testing.T) {
	// Canary credentials are put together at run time, so that no scan of
	// the repository mistakes this test for a leak.
	for _, line := range []string{
		"            " + "Author" + "ization:",
		"                - Bearer " + "sk-" + "proj-abc123DEF456",
		`body: '{"api_key":"x"}'`,
		"            Set-Cookie:",
		"            OpenAI-Organization:",
	} {
		if !secrets.MatchString(line) {
			t.Errorf("the secret pattern misses %q", line)
		}
	}
	if m := secrets.FindString("a task-based desk-top skeleton"); m != "" {
		t.Errorf("the secret pattern finds %q in ordinary words", m)
	}
}

// TestCassettesLoad opens every cassette as the judge replays it, and reads
// each one's requests: chat completions, each naming its model.
func TestCassettesLoad(t *testing.T) {
	for _, path := range files(t) {
		rec, err := recorder.Open(path, recorder.WithMode(recorder.RecordNone))
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		rec.Close()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var c struct {
			Version      int
			Interactions []struct {
				Request struct {
					URL, Body string
				}
				Response struct {
					Code int
				}
			}
		}
		if err := yaml.Unmarshal(data, &c); err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if c.Version != 2 || len(c.Interactions) == 0 {
			t.Errorf("%s: version %d with %d interactions, want a go-vcr v2 cassette with some", path, c.Version, len(c.Interactions))
		}
		for i, it := range c.Interactions {
			if !strings.HasSuffix(it.Request.URL, "/chat/completions") || !strings.Contains(it.Request.Body, `"model":"`) || it.Response.Code != 200 {
				t.Errorf("%s: interaction %d: %s, status %d: not a judge's answered chat completion", path, i, it.Request.URL, it.Response.Code)
			}
		}
	}
}

// TestFSHoldsEveryCassette: the embedded files are the directory's.
func TestFSHoldsEveryCassette(t *testing.T) {
	for _, path := range files(t) {
		embedded, err := fs.ReadFile(cassettes.FS(), path)
		if err != nil {
			t.Errorf("FS: %v", err)
			continue
		}
		onDisk, _ := os.ReadFile(path)
		if string(embedded) != string(onDisk) {
			t.Errorf("FS's %s differs from the file", path)
		}
	}
}
