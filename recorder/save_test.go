package recorder

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
)

func TestRecordMissingWritesOnlyWhatIsNew(t *testing.T) {
	srv, calls := chatServer(t)
	path := filepath.Join(t.TempDir(), "missing.yaml")
	session := func(questions ...string) []string {
		rec, err := Open(path, WithMode(RecordMissing), env())
		if err != nil {
			t.Fatal(err)
		}
		c := openaiClient(srv.URL, "sk-x", rec.Client())
		var got []string
		for _, q := range questions {
			resp, err := ask(t, c, q, "v1")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, resp.Choices[0].Message.Content)
		}
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
		return got
	}

	session("a")
	before, _ := os.ReadFile(path)
	stat, _ := os.Stat(path)
	if got := session("a"); got[0] != "answer 1" {
		t.Errorf("replayed %q, want answer 1", got[0])
	}
	after, _ := os.ReadFile(path)
	stat2, _ := os.Stat(path)
	if !bytes.Equal(before, after) || !stat.ModTime().Equal(stat2.ModTime()) {
		t.Error("a run that recorded nothing rewrote the cassette")
	}
	if got := session("a", "b", "a"); !cmp.Equal(got, []string{"answer 1", "answer 2", "answer 3"}) {
		t.Errorf("mixed run = %q", got)
	}
	if calls.Load() != 3 {
		t.Errorf("server saw %d calls, want 3", calls.Load())
	}
	c, err := cassette.Load(strings.TrimSuffix(path, ".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []int
	for _, it := range c.Interactions {
		ids = append(ids, it.ID)
	}
	if !cmp.Equal(ids, []int{0, 1, 2}) {
		t.Errorf("interaction ids = %v, want 0 1 2", ids)
	}
}

func TestRecordAllReplacesTheOldInteractions(t *testing.T) {
	srv, calls := chatServer(t)
	path := filepath.Join(t.TempDir(), "all.yaml")
	for _, mode := range []Mode{RecordMissing, RecordAll} {
		rec, _ := Open(path, WithMode(mode), env())
		c := openaiClient(srv.URL, "sk-x", rec.Client())
		for _, q := range []string{"q1", "q2"} {
			if _, err := ask(t, c, q, "v1"); err != nil {
				t.Fatal(err)
			}
		}
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if calls.Load() != 4 {
		t.Errorf("server saw %d calls, want 4: RecordAll must not replay", calls.Load())
	}
	c, err := cassette.Load(strings.TrimSuffix(path, ".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var answers []string
	for _, it := range c.Interactions {
		answers = append(answers, it.Response.Body[strings.Index(it.Response.Body, "answer"):][:8])
	}
	if !cmp.Equal(answers, []string{"answer 3", "answer 4"}) {
		t.Errorf("cassette answers = %q, want the re-recorded answer 3 and answer 4", answers)
	}
}

func TestRecordAllKeepsWhatOthersAddedMeanwhile(t *testing.T) {
	srv, _ := chatServer(t)
	path := filepath.Join(t.TempDir(), "merge.yaml")
	record := func(rec *Recorder, q string) {
		if _, err := ask(t, openaiClient(srv.URL, "sk-x", rec.Client()), q, "v1"); err != nil {
			t.Fatal(err)
		}
	}
	first, _ := Open(path, WithMode(RecordMissing), env())
	record(first, "old")
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}

	all, _ := Open(path, WithMode(RecordAll), env())
	other, _ := Open(path, WithMode(RecordMissing), env())
	record(other, "other")
	if err := other.Close(); err != nil {
		t.Fatal(err)
	}
	record(all, "old")
	if err := all.Close(); err != nil {
		t.Fatal(err)
	}

	c, err := cassette.Load(strings.TrimSuffix(path, ".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range c.Interactions {
		q := it.Request.Body[strings.Index(it.Request.Body, `"content":"`)+11:]
		q = q[strings.Index(q, `"content":"`)+11:]
		got = append(got, q[:strings.IndexByte(q, '"')]+" -> "+it.Response.Body[strings.Index(it.Response.Body, "answer"):][:8])
	}
	want := []string{"other -> answer 2", "old -> answer 3"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cassette after a re-recording (-want +got):\n%s", diff)
	}
}

func TestRecorderFailedWriteKeepsTheOldCassette(t *testing.T) {
	srv, _ := chatServer(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "atomic.yaml")
	// The interaction is written as it is recorded: a failed write fails
	// the request, and Close, which tries again.
	record := func(q string, opts ...Option) error {
		rec, _ := Open(path, append(opts, WithMode(RecordMissing), env())...)
		_, err := ask(t, openaiClient(srv.URL, "sk-x", rec.Client()), q, "v1")
		if cerr := rec.Close(); err == nil {
			err = cerr
		} else if cerr == nil {
			t.Errorf("Close after a failed write = nil, want the write error again")
		}
		return err
	}
	if err := record("first"); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)

	diskFull := errors.New("no space left on device")
	err := record("second", func(c *config) {
		c.syncFile = func(f *os.File) error { return diskFull }
	})
	if !errors.Is(err, diskFull) || !strings.Contains(err.Error(), "the old one is intact") {
		t.Fatalf("recording = %v, want the write error", err)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Errorf("a failed write changed the cassette:\n%s", after)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %q, want the cassette only (no temporary file)", names)
	}
}

func TestRecorderParallelUse(t *testing.T) {
	srv, _ := chatServer(t)
	dir := t.TempDir()
	t.Run("group", func(t *testing.T) {
		for i := range 4 {
			t.Run(strconv.Itoa(i), func(t *testing.T) {
				t.Parallel()
				rec := ForTest(t, WithDir(dir), WithMode(RecordMissing), env())
				c := openaiClient(srv.URL, "sk-x", rec.Client())
				var wg sync.WaitGroup
				for j := range 8 {
					wg.Go(func() {
						if _, err := ask(t, c, fmt.Sprintf("q%d", j%4), "v1"); err != nil {
							t.Error(err)
						}
					})
				}
				wg.Wait()
			})
		}
	})
	// Each subtest saved its own cassette when it ended; replay them
	// concurrently too.
	for i := range 4 {
		p := filepath.Join(dir, CassetteFile("TestRecorderParallelUse/group/"+strconv.Itoa(i)))
		c, err := cassette.Load(strings.TrimSuffix(p, ".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Interactions) != 8 {
			t.Errorf("%s holds %d interactions, want 8", p, len(c.Interactions))
		}
		rec, _ := Open(p, env(), WithUpstream(offline(t)))
		cl := openaiClient("http://127.0.0.1:1", "", rec.Client())
		var wg sync.WaitGroup
		for j := range 8 {
			wg.Go(func() {
				if _, err := ask(t, cl, fmt.Sprintf("q%d", j%4), "v1"); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
	}
}

// TestRecorderProcessesMerge runs several go test processes that record into
// one cassette at once, as go test does with packages sharing testdata.
func TestRecorderProcessesMerge(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	if testing.Short() {
		t.Skip("starts subprocesses")
	}
	srv, _ := chatServer(t)
	path := filepath.Join(t.TempDir(), "shared.yaml")
	const procs, each = 4, 5
	var wg sync.WaitGroup
	for p := range procs {
		wg.Go(func() {
			cmd := exec.Command(os.Args[0], "-test.run=^TestRecorderChildProcess$", "-test.count=1")
			cmd.Env = childEnv(fmt.Sprintf("AGENTCHECK_TEST_CHILD=%s|%s|%d|%d", path, srv.URL, p, each))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("child %d: %v\n%s", p, err, out)
			}
		})
	}
	wg.Wait()
	c, err := cassette.Load(strings.TrimSuffix(path, ".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, it := range c.Interactions {
		seen[it.Request.Body] = true
	}
	if len(c.Interactions) != procs*each || len(seen) != procs*each {
		t.Errorf("cassette holds %d interactions (%d distinct), want %d: a process's recording was lost", len(c.Interactions), len(seen), procs*each)
	}
}

func TestRecorderChildProcess(t *testing.T) {
	spec := os.Getenv("AGENTCHECK_TEST_CHILD")
	if spec == "" {
		t.Skip("run by TestRecorderProcessesMerge")
	}
	// The recorders forward to http.DefaultTransport, whose idle
	// connections would outlive the test (goleak, TestMain).
	t.Cleanup(http.DefaultTransport.(*http.Transport).CloseIdleConnections)
	parts := strings.Split(spec, "|")
	each, _ := strconv.Atoi(parts[3])
	// Several recorders per process, so that in-process saves contend too.
	var wg sync.WaitGroup
	for r := range 2 {
		wg.Go(func() {
			rec, err := Open(parts[0], WithMode(RecordMissing), env())
			if err != nil {
				t.Error(err)
				return
			}
			for i := r; i < each; i += 2 {
				body := fmt.Sprintf(`{"process":%s,"n":%d}`, parts[2], i)
				req, _ := http.NewRequest(http.MethodPost, parts[1]+"/v1/chat/completions", strings.NewReader(body))
				resp, err := rec.RoundTrip(req)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
			}
			if err := rec.Close(); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}

// TestRewriteKeepsTheCassettesMode: a cassette recorded anew is written
// with 0644, as os.Create makes a file to commit; one its owner made
// private (0600) stays private when a run rewrites it, by persisting
// (RecordAll) or by sorting on Close (RecordMissing).
func TestRewriteKeepsTheCassettesMode(t *testing.T) {
	srv, _ := chatServer(t)
	path := filepath.Join(t.TempDir(), "mode.yaml")
	session := func(mode Mode, q string) {
		t.Helper()
		rec, err := Open(path, WithMode(mode), env())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ask(t, openaiClient(srv.URL, "sk-x", rec.Client()), q, "v1"); err != nil {
			t.Fatal(err)
		}
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
	}
	perm := func() os.FileMode {
		t.Helper()
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Mode().Perm()
	}
	session(RecordMissing, "a")
	if got := perm(); got != 0o644 {
		t.Errorf("a new cassette has mode %v, want 0644", got)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	session(RecordMissing, "b")
	if after, _ := os.ReadFile(path); bytes.Equal(before, after) {
		t.Fatal("the second run did not rewrite the cassette; the test tests nothing")
	}
	if got := perm(); got != 0o600 {
		t.Errorf("after a RecordMissing run added to it, the cassette has mode %v, want its 0600", got)
	}
	session(RecordAll, "c")
	if got := perm(); got != 0o600 {
		t.Errorf("after a RecordAll run rewrote it, the cassette has mode %v, want its 0600", got)
	}
}
