package recorder

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDataReplaysWithoutTheFile: a cassette's bytes, as go:embed
// gives them, replay under the name given, with no file at that path.
func TestDataReplaysWithoutTheFile(t *testing.T) {
	srv, calls := chatServer(t)
	path := filepath.Join(t.TempDir(), "embedded.yaml")
	rec, err := Open(path, WithMode(RecordMissing), env())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ask(t, openaiClient(srv.URL, "", rec.Client()), "Is 2+2 4?", "v1"); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(path)

	const name = "cassettes/demo.yaml"
	rep, err := Open(name, WithData(data), WithUpstream(offline(t)), env())
	if err != nil {
		t.Fatal(err)
	}
	resp, err := ask(t, openaiClient(srv.URL, "", rep.Client()), "Is 2+2 4?", "v1")
	if err != nil {
		t.Fatalf("replaying from data: %v", err)
	}
	if got := resp.Choices[0].Message.Content; got != "answer 1" {
		t.Errorf("replayed %q, want the recorded %q", got, "answer 1")
	}
	if got := resp.Header().Get(CassetteHeader); got != name {
		t.Errorf("%s = %q, want the name given, %q", CassetteHeader, got, name)
	}
	if calls.Load() != 1 {
		t.Errorf("the server saw %d requests, want only the recording's 1", calls.Load())
	}
	if err := rep.Close(); err != nil {
		t.Errorf("Close of a replay-only recorder: %v", err)
	}
	if _, err := os.Stat(name); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a replay from data wrote %s (stat: %v)", name, err)
	}

	// A miss names the cassette and gives the command set for it.
	_, err = ask(t, openaiClient(srv.URL, "", rep.Client()), "Is 3+3 6?", "v1")
	var miss *ReplayMissError
	if !errors.As(err, &miss) {
		t.Fatalf("unrecorded request: %v, want a *ReplayMissError", err)
	}
	if miss.Cassette != name || !strings.Contains(miss.Command, "go test") {
		t.Errorf("miss names cassette %q and command %q", miss.Cassette, miss.Command)
	}

	// Recording modes are refused: there is no file to record into.
	for _, mode := range []string{"missing", "all"} {
		_, err := Open(name, WithData(data), env(RecordEnv, mode))
		if err == nil || !strings.Contains(err.Error(), "can only be replayed") || !strings.Contains(err.Error(), name) {
			t.Errorf("%s=%s with cassette data: %v, want a refusal naming %s", RecordEnv, mode, err, name)
		}
	}
	// Data that is no cassette is an error naming it.
	if _, err := Open(name, WithData([]byte("interactions: [1, 2")), env()); err == nil || !strings.Contains(err.Error(), name) {
		t.Errorf("broken cassette data: %v, want an error naming %s", err, name)
	}
}

// TestRecordCommandReplacesTheGoTestCommand: a program replaying cassettes
// outside go test says how to record with its own command.
func TestRecordCommandReplacesTheGoTestCommand(t *testing.T) {
	srv, _ := chatServer(t)
	const cmd = "AGENTCHECK_RECORD=missing agentcheck eval --cassette runs.cassette.yaml runs.jsonl"
	path := filepath.Join(t.TempDir(), "runs.cassette.yaml")
	rec, err := Open(path, WithRecordCommand(cmd), WithTestName("TestIgnored"), WithUpstream(offline(t)), env())
	if err != nil {
		t.Fatal(err)
	}
	_, err = ask(t, openaiClient(srv.URL, "", rec.Client()), "Is 2+2 4?", "v1")
	var miss *ReplayMissError
	if !errors.As(err, &miss) {
		t.Fatalf("got %v, want a *ReplayMissError", err)
	}
	if miss.Command != cmd || !strings.HasSuffix(miss.Error(), "record it with: "+cmd) {
		t.Errorf("miss command %q, message:\n%s\nwant the command %q", miss.Command, miss.Error(), cmd)
	}
}
