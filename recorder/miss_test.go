package recorder

import (
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRecorderMissSaysWhatDiffersAndHowToRecord(t *testing.T) {
	srv, _ := chatServer(t)
	dir := t.TempDir()
	rec := ForTest(t, WithDir(dir), WithMode(RecordMissing), env())
	c := openaiClient(srv.URL, "sk-x", rec.Client())
	for _, q := range []string{"What is the capital of France?", "Book a flight to Paris on Friday."} {
		if _, err := ask(t, c, q, "goal-v1"); err != nil {
			t.Fatal(err)
		}
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}

	rec = ForTest(t, WithDir(dir), env(), WithUpstream(offline(t)))
	_, err := ask(t, openaiClient(srv.URL, "", rec.Client()), "Book a flight to Rome on Friday.", "goal-v2")
	var miss *ReplayMissError
	if !errors.As(err, &miss) {
		t.Fatalf("want a *ReplayMissError through go-openai, got %T %v", err, err)
	}
	path := filepath.Join(dir, CassetteFile("TestRecorderMissSaysWhatDiffersAndHowToRecord"))
	msg := err.Error()
	for _, want := range []string{
		"POST /v1/chat/completions",
		"cassette: " + path,
		"test: TestRecorderMissSaysWhatDiffersAndHowToRecord",
		"closest recorded request: interaction 0, POST http://127.0.0.1/v1/chat/completions",
		`-       "content": "Book a flight to Paris on Friday."`,
		`+       "content": "Book a flight to Rome on Friday."`,
		`-   "user": "agentcheck-prompt:goal-v1"`,
		`hint: the prompt version differs (recorded "goal-v1", now "goal-v2")`,
		"record it with: AGENTCHECK_RECORD=missing AGENTCHECK_RECORD_TEST=TestRecorderMissSaysWhatDiffersAndHowToRecord go test ./recorder -count=1 -run '^TestRecorderMissSaysWhatDiffersAndHowToRecord$'",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("miss message lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "capital of France") {
		t.Errorf("miss message shows the farther interaction:\n%s", msg)
	}
	if n := strings.Count(miss.Diff, "\n") + 1; n > 25 {
		t.Errorf("diff has %d lines, want a short one:\n%s", n, miss.Diff)
	}
}

func TestRecorderMissWithoutCassette(t *testing.T) {
	t.Run("sub test/with 'odd' name", func(t *testing.T) {
		dir := t.TempDir()
		rec := ForTest(t, WithDir(dir), env(), WithUpstream(offline(t)))
		req, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1:1/items?id=3", nil)
		_, err := rec.RoundTrip(req)
		var miss *ReplayMissError
		if !errors.As(err, &miss) {
			t.Fatalf("want *ReplayMissError, got %v", err)
		}
		want := &ReplayMissError{
			Cassette: filepath.Join(dir, CassetteFile(t.Name())),
			Test:     "TestRecorderMissWithoutCassette/sub_test/with_'odd'_name",
			Request:  "GET /items",
			Reason:   "the cassette file does not exist yet",
			Command:  `AGENTCHECK_RECORD=missing AGENTCHECK_RECORD_TEST='TestRecorderMissWithoutCassette/sub_test/with_'\''odd'\''_name' go test ./recorder -count=1 -run '^TestRecorderMissWithoutCassette$/^sub_test$/^with_'\''odd'\''_name$'`,
		}
		if diff := cmp.Diff(want, miss); diff != "" {
			t.Errorf("miss (-want +got):\n%s", diff)
		}
	})
}

func TestRecordModeFromEnvironment(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.yaml")
	tests := []struct {
		name    string
		opts    []Option
		want    Mode
		wantErr string
	}{
		{"unset replays", []Option{env()}, RecordNone, ""},
		{"missing", []Option{env(RecordEnv, "missing")}, RecordMissing, ""},
		{"all", []Option{env(RecordEnv, "all")}, RecordAll, ""},
		{"CI may replay", []Option{env("CI", "true")}, RecordNone, ""},
		{"option overrides environment", []Option{env(RecordEnv, "all"), WithMode(RecordNone)}, RecordNone, ""},
		{"bad value", []Option{env(RecordEnv, "yes")}, 0, `AGENTCHECK_RECORD="yes": want missing, all, prune, or empty`},
		{"CI refuses", []Option{env(RecordEnv, "missing", "CI", "true")}, 0, "AGENTCHECK_RECORD=missing refused because this is a CI run (CI=true)"},
		{"CI refuses the option too", []Option{env("CI", "1"), WithMode(RecordAll)}, 0, "refused because this is a CI run (CI=1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := Open(path, tt.opts...)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if rec.Mode() != tt.want {
				t.Errorf("mode = %v, want %v", rec.Mode(), tt.want)
			}
		})
	}
}
