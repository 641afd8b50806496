package recorder

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
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

// ForTest returns the recorder of t's own cassette,
// testdata/cassettes/<t.Name()>.yaml (subtests in subdirectories, characters
// outside [A-Za-z0-9._-] replaced by "_"; WithDir sets another directory),
// and saves it when the test ends. It replays by default and records only
// when AGENTCHECK_RECORD says so, never with CI=true. A recorder that cannot
// start (a bad AGENTCHECK_RECORD, recording on CI, an unreadable cassette)
// fails the test. The ForTest calls of a test that name the same file get
// the same recorder, opened with the first call's options, until it is
// closed: the agent's client and the judges of one test share their
// cassette, and only one of them saves it.
//
//	agent := NewAgent(recorder.ForTest(t).Client())
func ForTest(t T, opts ...Option) *Recorder {
	t.Helper()
	cfg := newConfig(opts)
	path := filepath.Join(cfg.dir, cassetteFileName(t.Name()))
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
	if _, ginkgo := t.(interface{ ParallelProcess() int }); ginkgo && cfg.command == "" {
		// A Ginkgo spec: go test -run picks test functions, not specs, so the
		// command focuses the spec by its full text.
		cfg.command = RecordEnv + "=missing go test " + packageDir() + " -ginkgo.focus '" +
			strings.ReplaceAll("^"+regexp.QuoteMeta(t.Name())+"$", "'", `'\''`) + "'"
	}
	r, err := open(path, cfg)
	if err != nil {
		t.Fatalf("%v", err)
	}
	r.shared = abs
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

// cassetteFileName turns a test name into a relative file name, one of its
// own for each test and subtest: subtests become directories; characters
// outside [A-Za-z0-9._-] become "_" and a segment that lost some, or is
// longer than maxSegment, is shortened and gets a hash of its name, so that
// "café" and "cafë" stay apart and every name fits a file system; "." or
// ".." segments cannot climb out of the cassette directory.
func cassetteFileName(test string) string {
	segs := strings.Split(test, "/")
	for i, name := range segs {
		s := strings.Map(func(c rune) rune {
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_' {
				return c
			}
			return '_'
		}, name)
		if s == "" || strings.Trim(s, ".") == "" {
			s = strings.Repeat("_", max(len(s), 1))
		}
		if s != name || len(s) > maxSegment {
			sum := sha256.Sum256([]byte(name))
			s = s[:min(len(s), maxSegment-9)] + "-" + hex.EncodeToString(sum[:4])
		}
		segs[i] = s
	}
	return filepath.Join(segs...) + ".yaml"
}

// maxSegment bounds a cassette file or directory name (file systems allow
// 255 bytes; ".yaml" and the temporary file's suffix need some).
const maxSegment = 120

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
