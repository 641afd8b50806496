package recorder

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fakeT is a test that is not a *testing.T, as Ginkgo's GinkgoT() is not:
// ForTest needs only the methods of T.
type fakeT struct {
	name     string
	cleanups []func()
	errors   []string
	fatal    string
}

func (f *fakeT) Helper()           {}
func (f *fakeT) Name() string      { return f.name }
func (f *fakeT) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }
func (f *fakeT) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// end runs the cleanups, as testing does when a test ends.
func (f *fakeT) end() {
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
	f.cleanups = nil
}

// forTest runs ForTest in a goroutine of its own, which Fatalf ends.
func forTest(t *fakeT, opts ...Option) *Recorder {
	var r *Recorder
	done := make(chan struct{})
	go func() {
		defer close(done)
		r = ForTest(t, opts...)
	}()
	<-done
	return r
}

func TestForTestSharesTheRecorderOfItsFile(t *testing.T) {
	dir := t.TempDir()
	ft := &fakeT{name: "TestX/case_1"}
	a := forTest(ft, WithDir(dir), env())
	b := forTest(ft, WithDir(dir), WithMode(RecordAll), env()) // the first call's options stand
	if a == nil || a != b {
		t.Fatalf("two ForTest calls of one test: %p and %p, want one recorder", a, b)
	}
	if want := filepath.Join(dir, "TestX~88", "case_1.yaml"); a.Path() != want || a.Mode() != RecordNone {
		t.Errorf("path %s, mode %v; want %s, none", a.Path(), a.Mode(), want)
	}
	if other := forTest(ft, WithDir(t.TempDir()), env()); other == a {
		t.Error("ForTest of another directory returned the same recorder")
	}
	ft.end()
	if len(ft.errors) > 0 || ft.fatal != "" {
		t.Errorf("errors %q, fatal %q", ft.errors, ft.fatal)
	}
	// Closed at the end of the test, it is no longer shared.
	if c := forTest(ft, WithDir(dir), env()); c == a {
		t.Error("ForTest returned a closed recorder")
	}
	ft.end()
}

func TestForTestFailsTheTestThatCannotStart(t *testing.T) {
	ft := &fakeT{name: "TestOnCI"}
	dir := t.TempDir()
	if r := forTest(ft, WithDir(dir), env(RecordEnv, "missing", "CI", "true")); r != nil {
		t.Errorf("ForTest recording on CI returned %v", r)
	}
	for _, want := range []string{"AGENTCHECK_RECORD=missing", "refused because this is a CI run (CI=true)", filepath.Join(dir, "TestOnCI~8b.yaml")} {
		if !strings.Contains(ft.fatal, want) {
			t.Errorf("fatal message %q lacks %q", ft.fatal, want)
		}
	}
	// A failed start leaves nothing shared: replaying then works.
	ft = &fakeT{name: "TestOnCI"}
	if r := forTest(ft, WithDir(dir), env("CI", "true")); r == nil || ft.fatal != "" {
		t.Errorf("replay on CI: %v, fatal %q", r, ft.fatal)
	}
	ft.end()
}

func TestForTestReportsAFailedSave(t *testing.T) {
	srv, _ := chatServer(t)
	ft := &fakeT{name: "TestSave"}
	diskFull := errors.New("no space left on device")
	r := forTest(ft, WithDir(t.TempDir()), WithMode(RecordMissing), env(), func(c *config) {
		c.syncFile = func(*os.File) error { return diskFull }
	})
	if _, err := ask(t, openaiClient(srv.URL, "sk-x", r.Client()), "q", "v1"); !errors.Is(err, diskFull) {
		t.Fatalf("recording = %v, want the write error", err)
	}
	ft.end()
	if len(ft.errors) != 1 || !strings.Contains(ft.errors[0], "agentcheck: saving cassette:") || !strings.Contains(ft.errors[0], diskFull.Error()) {
		t.Errorf("errors %q, want the failed save", ft.errors)
	}
}

func TestOpenRefusesWithDir(t *testing.T) {
	_, err := Open(filepath.Join(t.TempDir(), "x.yaml"), WithDir("elsewhere"))
	if err == nil || !strings.Contains(err.Error(), "WithDir names the directory of ForTest's cassettes") {
		t.Errorf("Open with WithDir: %v", err)
	}
}

func TestRerecordCommand(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		opts []Option
		want string
	}{
		{nil, "AGENTCHECK_RECORD=all go test ./recorder -count=1"},
		{[]Option{WithTestName("TestX/it's")}, `AGENTCHECK_RECORD=all AGENTCHECK_RECORD_TEST='TestX/it'\''s' go test ./recorder -count=1 -run '^TestX$/^it'\''s$'`},
		{[]Option{WithTestName("TestX/a.b[c]")}, `AGENTCHECK_RECORD=all AGENTCHECK_RECORD_TEST='TestX/a.b[c]' go test ./recorder -count=1 -run '^TestX$/^a\.b\[c\]$'`},
		{[]Option{WithTestName("spec\twith\x1b[31m")}, `AGENTCHECK_RECORD=all AGENTCHECK_RECORD_TEST=$'spec\x09with\x1b[31m' go test ./recorder -count=1 -run '^spec\x{9}with\x{1b}\[31m$'`},
		{[]Option{WithRecordCommand("AGENTCHECK_RECORD=missing agentcheck eval --cassette c.yaml runs.jsonl")}, "AGENTCHECK_RECORD=all agentcheck eval --cassette c.yaml runs.jsonl"},
		{[]Option{WithRecordCommand("make record")}, "AGENTCHECK_RECORD=all make record"},
	} {
		r, err := Open(filepath.Join(dir, "c.yaml"), append(tc.opts, env())...)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.RerecordCommand(); got != tc.want {
			t.Errorf("RerecordCommand() = %q, want %q", got, tc.want)
		}
	}
	r := forTest(&fakeT{name: "TestY/sub"}, WithDir(dir), env())
	if got, want := r.RerecordCommand(), "AGENTCHECK_RECORD=all AGENTCHECK_RECORD_TEST=TestY/sub go test ./recorder -count=1 -run '^TestY$/^sub$'"; got != want {
		t.Errorf("ForTest's RerecordCommand() = %q, want %q", got, want)
	}
	r.Close()
}

// A cassette recorded before the portable names (TestBooking.yaml, not
// TestBooking~88.yaml) is not read, but the miss says how to rename it.
func TestForTestMissNamesTheCassetteUnderItsOldName(t *testing.T) {
	for _, c := range []struct{ test, old string }{
		{"TestBooking", "TestBooking.yaml"},
		{"TestBooking/books a table", "TestBooking/books_a_table-ed7407f5.yaml"}, // 8 hex digits of the name's SHA-256
	} {
		dir := t.TempDir()
		old := filepath.Join(dir, c.old)
		if got := oldCassette(dir, c.test, ""); got != "" {
			t.Errorf("%s: an old cassette that does not exist was found: %s", c.test, got)
		}
		if err := os.MkdirAll(filepath.Dir(old), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(old, []byte("version: 2\ninteractions: []\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		ft := &fakeT{name: c.test}
		var miss *ReplayMissError
		func() {
			defer ft.end()
			r := ForTest(ft, WithDir(dir), WithEnv(func(string) string { return "" }))
			req, _ := http.NewRequest("POST", "http://127.0.0.1:9/v1/chat/completions", strings.NewReader(`{"model":"m"}`))
			_, err := r.RoundTrip(req)
			if !errors.As(err, &miss) {
				t.Fatalf("%s: %v, want a replay miss", c.test, err)
			}
		}()
		want := filepath.Join(dir, CassetteFile(c.test))
		if miss.Cassette != want || !strings.Contains(miss.Error(), renameCommand(old, want)) {
			t.Errorf("%s: the miss does not say how to rename %s to %s:\n%s", c.test, old, want, miss.Error())
		}
	}
	// A test whose name the new rule keeps as it is has no old name.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "lower_case.yaml"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := oldCassette(dir, "lower_case", filepath.Join(dir, CassetteFile("lower_case"))); got != "" {
		t.Errorf("lower_case has an old name: %s", got)
	}
}
