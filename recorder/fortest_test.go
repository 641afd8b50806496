package recorder

import (
	"errors"
	"fmt"
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
