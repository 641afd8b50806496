package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/sashabaranov/go-openai"
)

// mergeQuestion is the i-th question of the suite recorded in shards: its
// case, and the text go-openai sends.
func mergeQuestion(i int) (label, question string) {
	return fmt.Sprintf("sample-%d", i%5), fmt.Sprintf("question %d", i)
}

// askThrough sends question i through go-openai and the recorder, in its
// case, and returns the answer.
func askThrough(t *testing.T, rec *recorder.Recorder, baseURL string, i int) (string, error) {
	t.Helper()
	cfg := openai.DefaultConfig("sk-test-not-a-real-key")
	cfg.BaseURL = baseURL
	cfg.HTTPClient = rec.Client()
	label, question := mergeQuestion(i)
	resp, err := openai.NewClientWithConfig(cfg).CreateChatCompletion(recorder.WithCase(context.Background(), label),
		openai.ChatCompletionRequest{Model: "gpt-4o-mini", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: question}}})
	if err != nil {
		return "", err
	}
	return resp.Choices[0].Message.Content, nil
}

// Two shards record their halves of a suite through go-openai, the real
// recorder and judgetest's server on loopback, each starting from the
// committed cassette; merging the shards' cassettes (with the committed
// one, in every order) gives one cassette, the same bytes each time, that
// passes the secret check and replays every question of both halves
// strictly, offline, with the answers recorded.
func TestCassettesMergeReplaysBothShards(t *testing.T) {
	checkGoroutines(t)
	srv := judgetest.Start(t, func(r judgetest.Request) judgetest.Reply {
		return judgetest.Content("the answer to " + r.Message(-1))
	})
	dir := t.TempDir()
	noEnv := recorder.WithEnv(func(string) string { return "" })
	record := func(path string, mode recorder.Mode, questions ...int) {
		t.Helper()
		rec, err := recorder.Open(path, recorder.WithMode(mode), noEnv)
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range questions {
			if _, err := askThrough(t, rec, srv.URL, i); err != nil {
				t.Fatalf("recording question %d into %s: %v", i, path, err)
			}
		}
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
	}
	committed := filepath.Join(dir, "committed.yaml")
	record(committed, recorder.RecordAll, 0, 1)
	base, err := os.ReadFile(committed)
	if err != nil {
		t.Fatal(err)
	}
	shards := []string{filepath.Join(dir, "shard-1.yaml"), filepath.Join(dir, "shard-2.yaml")}
	for s, path := range shards {
		if err := os.WriteFile(path, base, 0o644); err != nil {
			t.Fatal(err)
		}
		var half []int
		for i := 2 + s; i < 12; i += 2 {
			half = append(half, i)
		}
		half = append(half, 0) // replayed from the committed cassette, not recorded again
		record(path, recorder.RecordMissing, half...)
	}
	if srv.Count() != 12 {
		t.Fatalf("Expected 12 questions to reach the server (2 committed, 5 in each shard), but %d did", srv.Count())
	}

	inputs := []string{committed, shards[0], shards[1]}
	var merged string
	for _, order := range [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}} {
		args := []string{"cassettes", "merge"}
		for _, i := range order {
			args = append(args, inputs[i])
		}
		out, stderr, code := runAgentcheck(t, "", args...)
		if code != exitOK {
			t.Fatalf("merge %v: exit %d: %s", order, code, stderr)
		}
		if merged == "" {
			merged = out
		} else if out != merged {
			t.Fatalf("Expected the same bytes whatever the order, but merging in order %v gives:\n%s\nand first:\n%s", order, out, merged)
		}
	}
	if n := strings.Count(merged, "\n    - id: "); n != 12 {
		t.Fatalf("Expected 12 interactions in the merged cassette (the committed 2 once), but it holds %d:\n%s", n, merged)
	}
	mergedPath := filepath.Join(dir, "merged.yaml")
	if err := os.WriteFile(mergedPath, []byte(merged), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, stderr, code := runAgentcheck(t, "", "cassettes", "check", mergedPath); code != exitOK {
		t.Fatalf("Expected the merged cassette to pass the secret check, but it exits %d:\n%s%s", code, out, stderr)
	}

	srv.Close()
	rec, err := recorder.Open(mergedPath, recorder.WithMode(recorder.RecordNone), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	for i := 11; i >= 0; i-- { // in another order than recorded
		got, err := askThrough(t, rec, srv.URL, i)
		_, question := mergeQuestion(i)
		if err != nil || got != "the answer to "+question {
			t.Fatalf("Expected question %d to replay %q from the merged cassette, but got %q, %v", i, "the answer to "+question, got, err)
		}
	}
	// Strictly: one question more than recorded is a miss, not an answer.
	if _, err := askThrough(t, rec, srv.URL, 3); err == nil {
		t.Fatal("Expected a question asked once more than recorded to miss, but it was answered")
	}
}

// The same question of the same case answered differently by two shards
// is a conflict: both files and both indexes are named, nothing is written
// and the exit status is 1.
func TestCassettesMergeReportsConflicts(t *testing.T) {
	its := func(answer string) string {
		return "---\nversion: 2\ninteractions:\n    - id: 0\n      request:\n        proto: HTTP/1.1\n        proto_major: 1\n        proto_minor: 1\n" +
			"        content_length: 9\n        host: h\n        body: '{\"q\":\"a\"}'\n        headers:\n            X-Agentcheck-Case:\n                - s1\n" +
			"        url: http://h/v1/chat/completions\n        method: POST\n      response:\n        proto: HTTP/1.1\n        proto_major: 1\n" +
			"        proto_minor: 1\n        content_length: 2\n        body: '" + answer + "'\n        headers: {}\n        status: 200 OK\n        code: 200\n        duration: 1ms\n"
	}
	dir := t.TempDir()
	a := writeIn(t, dir, "a.yaml", its(`{"x":1}`))
	b := writeIn(t, dir, "b.yaml", its(`{"x":2}`))
	same := writeIn(t, dir, "same.yaml", its(`{"x":1}`))
	out, stderr, code := runAgentcheck(t, "", "cassettes", "merge", b, same, a)
	want := a + ` interaction 0 and ` + b + ` interaction 0 answer the 1st POST /v1/chat/completions request of case "s1" differently (response body differs)`
	if code != exitFailed || out != "" || !strings.Contains(stderr, want) || strings.Contains(stderr, same+" interaction") {
		t.Fatalf("Expected exit 1, no output and the conflict\n  %s\nbut got exit %d, stdout %q, stderr:\n%s", want, code, out, stderr)
	}
	if out, stderr, code := runAgentcheck(t, "", "cassettes", "merge", a, same); code != exitOK || strings.Count(out, "- id:") != 1 {
		t.Fatalf("Expected two identical interactions to merge into one, but got exit %d:\n%s%s", code, out, stderr)
	}
}

func TestCassettesMergeBoundsItsInput(t *testing.T) {
	dir := t.TempDir()
	a := writeIn(t, dir, "a.yaml", "---\nversion: 2\ninteractions: []\n")
	big := writeIn(t, dir, "big.yaml", "---\nversion: 2\ninteractions: []\n"+strings.Repeat("# padding\n", 10))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-bytes", "100", a, big}, big + ": the cassettes pass --max-bytes (100 bytes together) here"},
		{[]string{"--max-bytes", "0", a}, "--max-bytes 0: the bound must be positive"},
		{nil, "no cassettes given"},
		{[]string{dir}, dir + " is a directory"},
		{[]string{filepath.Join(dir, "missing.yaml")}, "missing.yaml: no such file"},
	} {
		out, stderr, code := runAgentcheck(t, "", append([]string{"cassettes", "merge"}, tc.args...)...)
		if code != exitUsage || out != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("merge %q: Expected exit 2 saying %q, but got exit %d, stdout %q, stderr:\n%s", tc.args, tc.want, code, out, stderr)
		}
	}
}

// A cassette cut short is an error that says so once under the command's
// name, without the library's own "agentcheck: " after it.
func TestCassettesMergeSaysACutCassetteOnce(t *testing.T) {
	dir := t.TempDir()
	a := writeIn(t, dir, "a.yaml", "---\nversion: 2\ninteractions: []\n")
	cut := writeIn(t, dir, "cut.yaml", "version: 2\ninteractions:\n  - id: 0\n    request:\n      proto: HTTP/1.1\n")
	_, stderr, code := runAgentcheck(t, "", "cassettes", "merge", a, cut)
	if code == exitOK || !strings.HasPrefix(stderr, "agentcheck cassettes merge: cassette ") || !strings.Contains(stderr, "cut short") || strings.Contains(stderr, ": agentcheck: ") {
		t.Errorf("Expected one \"agentcheck cassettes merge: cassette …\" error saying the cassette was cut short, but got exit %d:\n%s", code, stderr)
	}
}
