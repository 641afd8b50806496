package recorder

import (
	"os"
	"path/filepath"
	"sync"
)

// T is what ForTest needs of a test. *testing.T, *testing.B, *testing.F and
// Ginkgo's GinkgoT() all have it.
type T interface {
	Helper()
	Name() string
	Cleanup(func())
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// ForTest returns the recorder of t's own cassette, the file
// [CassetteFile](t.Name()) under testdata/cassettes (WithDir sets another
// directory), such as testdata/cassettes/TestBooking~88/paris.yaml for the
// subtest TestBooking/paris, and saves it when the test ends. It replays by default and records only
// when AGENTCHECK_RECORD says so, never with CI=true. A recorder that cannot
// start (a bad AGENTCHECK_RECORD, recording on CI, an unreadable cassette)
// fails the test. The ForTest calls of a test that name the same file get
// the same recorder, opened with the first call's options, until it is
// closed: the agent's client and the judges of one test share their
// cassette, and only one of them saves it. Its replay misses and failures
// print the command that records that test alone (see [RecordTestEnv]).
//
//	agent := NewAgent(recorder.ForTest(t).Client())
func ForTest(t T, opts ...Option) *Recorder {
	t.Helper()
	cfg := newConfig(opts)
	path := filepath.Join(cfg.dir, CassetteFile(t.Name()))
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatalf("agentcheck: cassette for %s: %v", t.Name(), err)
	}
	shared.Lock()
	defer shared.Unlock()
	if r, ok := shared.m[abs]; ok {
		return r
	}
	if cfg.test == "" {
		cfg.test = t.Name()
	}
	if cfg.command == "" {
		cfg.command = forTestCommand(t, cfg.test)
	}
	r, err := open(path, cfg)
	if err != nil {
		t.Fatalf("%v", err)
	}
	r.shared = abs
	if !r.existed {
		r.oldName = oldCassette(cfg.dir, t.Name(), path)
	}
	if f, ok := t.(interface{ Failed() bool }); ok {
		r.failed = f.Failed
		if s, ok := t.(interface{ Skipped() bool }); ok {
			r.failed = func() bool { return f.Failed() || s.Skipped() }
		}
	}
	shared.m[abs] = r
	t.Cleanup(func() {
		if err := r.Close(); err != nil {
			t.Errorf("agentcheck: saving cassette: %v", err)
		}
	})
	return r
}

// shared are the recorders ForTest has open, by absolute path. Recorders of
// the same file would each save it at the end of the test, and with
// RecordAll the last to save could not tell the other's fresh recordings
// from the stale ones it replaces when a deterministic server answered
// alike.
var shared = struct {
	sync.Mutex
	m map[string]*Recorder
}{m: map[string]*Recorder{}}

// unshare takes a closed recorder out of ForTest's registry, so that the
// next ForTest of its file opens it afresh.
func unshare(r *Recorder) {
	if r.shared == "" {
		return
	}
	shared.Lock()
	if shared.m[r.shared] == r {
		delete(shared.m, r.shared)
	}
	shared.Unlock()
}

// packageDir is the package go test runs in, relative to its module root
// ("./judge"), for the commands a miss prints.
func packageDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			rel, err := filepath.Rel(dir, wd)
			if err != nil || rel == "." {
				return "."
			}
			return "./" + filepath.ToSlash(rel)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "."
		}
		dir = parent
	}
}
