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
	path := filepath.Join(dir, "TestRecorderMissSaysWhatDiffersAndHowToRecord.yaml")
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
		"record it with: AGENTCHECK_RECORD=missing go test ./recorder -run '^TestRecorderMissSaysWhatDiffersAndHowToRecord$'",
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
			Cassette: filepath.Join(dir, "TestRecorderMissWithoutCassette", "sub_test", "with__odd__name-11dcc353.yaml"),
			Test:     "TestRecorderMissWithoutCassette/sub_test/with_'odd'_name",
			Request:  "GET /items",
			Reason:   "the cassette file does not exist yet",
			Command:  `AGENTCHECK_RECORD=missing go test ./recorder -run '^TestRecorderMissWithoutCassette$/^sub_test$/^with_'\''odd'\''_name$'`,
		}
		if diff := cmp.Diff(want, miss); diff != "" {
			t.Errorf("miss (-want +got):\n%s", diff)
		}
	})
}

func TestCassetteFileName(t *testing.T) {
	tests := map[string]string{
		"TestX":                 "TestX.yaml",
		"TestX/case_1":          filepath.Join("TestX", "case_1.yaml"),
		"TestX/a:b*c?<d>|e\\f":  filepath.Join("TestX", "a_b_c__d__e_f-00b51144.yaml"),
		"TestX/../../etc":       filepath.Join("TestX", "__-5ec1f7e7", "__-5ec1f7e7", "etc.yaml"),
		"TestX/#01":             filepath.Join("TestX", "_01-63e34b05.yaml"),
		"TestX/Ünïcode_and.dot": filepath.Join("TestX", "_n_code_and.dot-c6267397.yaml"),
	}
	for name, want := range tests {
		if got := cassetteFileName(name); got != want {
			t.Errorf("cassetteFileName(%q) = %q, want %q", name, got, want)
		}
	}
	// Each test and subtest its own file, whatever its name holds.
	names := []string{
		"TestX/café", "TestX/cafë", "TestX/caf_", "TestX/caf_-x", "TestX/a_b", "TestX/a.b", "TestX/日本語", "TestX/中文字",
		"TestX/" + strings.Repeat("long name ", 40) + "1", "TestX/" + strings.Repeat("long name ", 40) + "2",
		"TestX", "TestX/sub", "TestX/sub/deeper", "TestX/Sub",
	}
	seen := map[string]string{}
	for _, n := range names {
		f := cassetteFileName(n)
		if other, dup := seen[f]; dup {
			t.Errorf("%q and %q share the cassette %s", n, other, f)
		}
		seen[f] = n
		for _, seg := range strings.Split(f, string(filepath.Separator)) {
			if len(seg) > maxSegment+len(".yaml") {
				t.Errorf("cassetteFileName(%q) has a segment of %d bytes", n, len(seg))
			}
		}
	}
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
