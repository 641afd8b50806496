package recorder

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	openai "github.com/sashabaranov/go-openai"
)

// nondeterministic is a server that answers every request with a new
// answer, as a judge at a temperature above zero does, with the volatile
// headers real endpoints send.
func nondeterministic(t *testing.T) *httptest.Server {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-Id", fmt.Sprint(rand.Int64()))
		w.Header().Set("Openai-Processing-Ms", fmt.Sprint(rand.IntN(900)))
		fmt.Fprintf(w, `{"answer":%d}`, n.Add(1))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// post sends body to url through rt as case id (none when id is "").
func post(t *testing.T, rt http.RoundTripper, url, id, body string) string {
	t.Helper()
	ctx := context.Background()
	if id != "" {
		ctx = WithCase(ctx, id)
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := rt.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// runCases sends, for each of n cases at once (8 at a time, in a random
// order), the same request twice, and returns what each case got.
func runCases(t *testing.T, rt http.RoundTripper, url string, n int) []string {
	got := make([]string, n)
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for _, i := range rand.Perm(n) {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			id := fmt.Sprintf("sample %d", i)
			first := post(t, rt, url, id, `{"question":"identical for every case"}`)
			second := post(t, rt, url, id, `{"question":"identical for every case"}`)
			got[i] = first + " " + second
		})
	}
	wg.Wait()
	return got
}

// Identical requests of concurrent cases, answered differently each time:
// every replay, in any order, gives each case what the recording gave it.
func TestCasesReplayWhatTheRecordingReported(t *testing.T) {
	srv := nondeterministic(t)
	path := filepath.Join(t.TempDir(), "cases.yaml")
	rec, _ := Open(path, WithMode(RecordMissing), env())
	want := runCases(t, rec, srv.URL+"/v1/chat/completions", 12)
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	for run := range 20 {
		replay, err := Open(path, env(), WithUpstream(offline(t)))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, runCases(t, replay, "http://127.0.0.1:1/v1/chat/completions", 12)); diff != "" {
			t.Fatalf("replay %d differs from the recording (-recorded +replayed):\n%s", run, diff)
		}
	}
}

func TestCIDetection(t *testing.T) {
	tests := []struct {
		env  []string
		ci   bool
		name string
	}{
		{nil, false, ""},
		{[]string{"CI", ""}, false, ""},
		{[]string{"CI", "false"}, false, ""},
		{[]string{"CI", "0"}, false, ""},
		{[]string{"CI", "no"}, false, ""},
		{[]string{"CI", "OFF"}, false, ""},
		{[]string{"CI", "true"}, true, "CI=true"},
		{[]string{"CI", "1"}, true, "CI=1"},
		{[]string{"CI", "yes"}, true, "CI=yes"},
		{[]string{"CI", "on"}, true, "CI=on"},
		{[]string{"CI", "woodpecker"}, true, "CI=woodpecker"},
		{[]string{"GITHUB_ACTIONS", "true"}, true, "GITHUB_ACTIONS"},
		{[]string{"GITLAB_CI", "true"}, true, "GITLAB_CI"},
		{[]string{"BUILDKITE", "true"}, true, "BUILDKITE"},
		{[]string{"JENKINS_URL", "http://jenkins"}, true, "JENKINS_URL"},
		{[]string{"TF_BUILD", "True"}, true, "TF_BUILD"},
		{[]string{"TEAMCITY_VERSION", "2024.1"}, true, "TEAMCITY_VERSION"},
		{[]string{"CI", "false", "GITHUB_ACTIONS", "true"}, false, ""},
	}
	for _, tt := range tests {
		m := map[string]string{}
		for i := 0; i < len(tt.env); i += 2 {
			m[tt.env[i]] = tt.env[i+1]
		}
		ci, name := CI(func(k string) string { return m[k] })
		if ci != tt.ci || name != tt.name {
			t.Errorf("CI(%v) = %v, %q; want %v, %q", tt.env, ci, name, tt.ci, tt.name)
		}
		_, err := Open(filepath.Join(t.TempDir(), "c"), WithMode(RecordMissing), env(tt.env...))
		if refused := err != nil && strings.Contains(err.Error(), "refused because this is a CI run"); refused != tt.ci {
			t.Errorf("recording with %v: %v", tt.env, err)
		}
	}
}

// A run cut short by os.Exit, a panic or go test -timeout keeps what it
// recorded before, in a whole cassette, with no temporary file left.
func TestRecordingSurvivesACrash(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	if testing.Short() {
		t.Skip("starts subprocesses")
	}
	srv, _ := chatServer(t)
	for _, how := range []string{"exit", "panic", "timeout"} {
		t.Run(how, func(t *testing.T) {
			var dir, path string
			var out []byte
			var err error
			// go test -timeout cuts the child short after it recorded, if
			// that was before the timeout: on a machine too loaded for
			// that, it runs again with twice the time.
			for timeout := 250 * time.Millisecond; ; timeout *= 2 {
				dir = t.TempDir()
				path = filepath.Join(dir, "crash.yaml")
				args := []string{"-test.run=^TestRecorderCrashingChild$", "-test.count=1"}
				if how == "timeout" {
					args = append(args, "-test.timeout="+timeout.String())
				}
				cmd := exec.Command(os.Args[0], args...)
				cmd.Env = childEnv("AGENTCHECK_TEST_CRASH=" + path + "|" + srv.URL + "|" + how)
				out, err = cmd.CombinedOutput()
				if how != "timeout" || bytes.Contains(out, []byte(crashChildRecorded)) || timeout > 30*time.Second {
					break
				}
			}
			if err == nil {
				t.Fatalf("the child did not crash:\n%s", out)
			}
			its, _, err := loadCassette(path)
			if err != nil {
				t.Fatalf("cassette after a crash: %v\n%s", err, out)
			}
			if len(its) != 3 {
				t.Errorf("cassette holds %d interactions after a crash, want the 3 recorded before it", len(its))
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("directory holds %d files, want the cassette only", len(entries))
			}
			replay, _ := Open(path, env(), WithUpstream(offline(t)))
			for i := range 3 {
				if got := post(t, replay, "http://127.0.0.1:1/v1/chat/completions", "", fmt.Sprintf(`{"n":%d}`, i)); !strings.Contains(got, "answer") {
					t.Errorf("replay %d: %s", i, got)
				}
			}
		})
	}
}

// crashChildRecorded is what TestRecorderCrashingChild says once it has
// recorded, before it crashes.
const crashChildRecorded = "recorded 3 interactions; crashing"

// childEnv is the environment of a child process that runs this test
// binary: this process's, plus extra. A child built with the race detector
// does not sleep at exit (GORACE's atexit_sleep_ms, 1 s by default, which
// waits for goroutines still running to race): it runs one test, whose
// races the testing package reports as the test ends.
func childEnv(extra ...string) []string {
	race := "atexit_sleep_ms=0"
	if v := os.Getenv("GORACE"); v != "" {
		race = v + " " + race
	}
	return append(append(os.Environ(), "GORACE="+race), extra...)
}

func TestRecorderCrashingChild(t *testing.T) {
	spec := os.Getenv("AGENTCHECK_TEST_CRASH")
	if spec == "" {
		t.Skip("run by TestRecordingSurvivesACrash")
	}
	parts := strings.Split(spec, "|")
	rec, err := Open(parts[0], WithMode(RecordMissing), env(), realSync)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		post(t, rec, parts[1]+"/v1/chat/completions", "", fmt.Sprintf(`{"n":%d}`, i))
	}
	fmt.Fprintln(os.Stderr, crashChildRecorded)
	switch parts[2] {
	case "exit":
		os.Exit(3)
	case "panic":
		panic("the agent under test crashed")
	case "timeout":
		time.Sleep(time.Minute)
	}
}

// Recording "all" in one subtest never touches a sibling's cassette.
func TestSubtestsHaveCassettesOfTheirOwn(t *testing.T) {
	srv, _ := chatServer(t)
	dir := t.TempDir()
	record := func(name string, mode Mode) []byte {
		ft := &fakeT{name: "TestParent/" + name}
		r := forTest(ft, WithDir(dir), WithMode(mode), env())
		post(t, r, srv.URL+"/v1/chat/completions", "", `{"q":"`+name+`"}`)
		ft.end()
		data, err := os.ReadFile(r.Path())
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	a := record("a", RecordMissing)
	record("a b", RecordMissing)
	record("b", RecordAll)
	record("b", RecordAll)
	after, _ := os.ReadFile(filepath.Join(dir, CassetteFile("TestParent/a")))
	if !bytes.Equal(a, after) {
		t.Errorf("re-recording a sibling changed TestParent/a's cassette")
	}
	entries, _ := os.ReadDir(filepath.Join(dir, filepath.Dir(CassetteFile("TestParent/a"))))
	if len(entries) != 3 {
		t.Errorf("TestParent has %d cassettes, want one per subtest (a, a b, b)", len(entries))
	}
}

// Re-recording the same answers gives the same file, byte for byte, on
// another port, with another key, with cases answered in another order.
func TestReRecordingIsByteIdentical(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tidy.yaml")
	record := func(key string) []byte {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			time.Sleep(time.Duration(rand.IntN(3)) * time.Millisecond)
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("X-Request-Id", fmt.Sprint(rand.Int64()))
			w.Header().Set("X-Ratelimit-Remaining-Tokens", fmt.Sprint(rand.IntN(9999)))
			w.Header().Set("Cf-Ray", fmt.Sprint(rand.Int64()))
			fmt.Fprintf(w, `{"echo":%s}`, b)
		}))
		defer srv.Close()
		rec, _ := Open(path, WithMode(RecordAll), env())
		rt := rec.Transport(roundTripFunc(func(req *http.Request) (*http.Response, error) {
			req.Header.Set("Authorization", "Bearer "+key)
			req.Header.Set("User-Agent", "agent/"+key)
			return http.DefaultTransport.RoundTrip(req)
		}))
		var wg sync.WaitGroup
		for _, i := range rand.Perm(6) {
			wg.Go(func() {
				post(t, rt, srv.URL+"/v1/chat/completions", fmt.Sprintf("case %d", i%3), fmt.Sprintf(`{"q":%d}`, i))
			})
		}
		wg.Wait()
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(path)
		return data
	}
	first := record("sk-first-key-0000000000000000")
	second := record("sk-second-key-111111111111111")
	if diff := cmp.Diff(string(first), string(second)); diff != "" {
		t.Errorf("re-recording the same answers changed the file (-first +second):\n%s", diff)
	}
	for _, volatile := range []string{"Date", "X-Request-Id", "Ratelimit", "Cf-Ray", "127.0.0.1:", "duration: '0s'\n"} {
		has := strings.Contains(string(first), volatile)
		if has != (volatile == "duration: '0s'\n") {
			t.Errorf("the cassette holds %q: %v", volatile, has)
		}
	}
}

// Prune drops what a passing run did not use, and nothing when a request
// missed or the test failed.
func TestPrune(t *testing.T) {
	srv, _ := chatServer(t)
	path := filepath.Join(t.TempDir(), "prune.yaml")
	rec, _ := Open(path, WithMode(RecordMissing), env())
	for i := range 3 {
		post(t, rec, srv.URL+"/v1/chat/completions", "", fmt.Sprintf(`{"n":%d}`, i))
	}
	rec.Close()
	full, _ := os.ReadFile(path)

	count := func() int {
		its, _, err := loadCassette(path)
		if err != nil {
			t.Fatal(err)
		}
		return len(its)
	}
	// A failed test prunes nothing.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, CassetteFile("TestPruned")), full, 0o644)
	ft := &failedT{fakeT{name: "TestPruned"}}
	pr := forTest(&ft.fakeT, WithDir(dir), WithMode(Prune), env())
	pr.failed = ft.Failed // what ForTest takes from a *testing.T that failed
	post(t, pr, "http://127.0.0.1:1/v1/chat/completions", "", `{"n":0}`)
	ft.end()
	if data, _ := os.ReadFile(filepath.Join(dir, CassetteFile("TestPruned"))); !bytes.Equal(data, full) {
		t.Errorf("a failed test pruned its cassette")
	}

	// A miss prunes nothing.
	miss, _ := Open(path, WithMode(Prune), env(), WithUpstream(offline(t)))
	post(t, miss, "http://127.0.0.1:1/v1/chat/completions", "", `{"n":0}`)
	req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1:1/v1/chat/completions", strings.NewReader(`{"n":9}`))
	if _, err := miss.RoundTrip(req); err == nil {
		t.Fatal("no miss")
	}
	miss.Close()
	if count() != 3 {
		t.Fatalf("a run with a miss pruned the cassette to %d", count())
	}

	// A passing run keeps what it used, in the file's order.
	used, _ := Open(path, WithMode(Prune), env(), WithUpstream(offline(t)))
	post(t, used, "http://127.0.0.1:1/v1/chat/completions", "", `{"n":2}`)
	post(t, used, "http://127.0.0.1:1/v1/chat/completions", "", `{"n":0}`)
	if err := used.Close(); err != nil {
		t.Fatal(err)
	}
	its, _, _ := loadCassette(path)
	var bodies []string
	for _, it := range its {
		bodies = append(bodies, it.Request.Body)
	}
	if !cmp.Equal(bodies, []string{`{"n":0}`, `{"n":2}`}) {
		t.Errorf("pruned cassette holds %q, want the two used, in order", bodies)
	}
	if _, err := Open(path, WithMode(Prune), env("CI", "true")); err == nil {
		t.Error("pruning on CI was allowed")
	}
}

type failedT struct{ fakeT }

func (f *failedT) Failed() bool { return true }

// A normalizer drops what changes from run to run in the agent's own
// requests; the cassette stores the normalized request, and exact matching
// stays the default.
func TestNormalizer(t *testing.T) {
	srv, calls := chatServer(t)
	path := filepath.Join(t.TempDir(), "normal.yaml")
	stamp := regexp.MustCompile(`"sent_at":"[^"]*"`)
	normal := WithNormalizer(func(r *Request) {
		r.Body = stamp.ReplaceAll(r.Body, []byte(`"sent_at":""`))
		q := r.URL.Query()
		q.Del("request_id")
		r.URL.RawQuery = q.Encode()
	})
	body := func(at time.Time) string { return `{"q":"stock","sent_at":"` + at.Format(time.RFC3339Nano) + `"}` }
	rec, _ := Open(path, WithMode(RecordMissing), env(), normal)
	post(t, rec, srv.URL+"/agent?request_id=1", "", body(time.Now()))
	rec.Close()
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), "request_id") || !strings.Contains(string(data), `"sent_at":""`) {
		t.Errorf("the cassette holds the request as sent, not as normalized:\n%s", data)
	}
	replay, _ := Open(path, env(), normal, WithUpstream(offline(t)))
	if got := post(t, replay, "http://127.0.0.1:1/agent?request_id=2", "", body(time.Now().Add(time.Hour))); !strings.Contains(got, "answer 1") {
		t.Errorf("replay with another timestamp = %s", got)
	}
	exact, _ := Open(path, env(), WithUpstream(offline(t)))
	req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1:1/agent", strings.NewReader(body(time.Now())))
	var miss *ReplayMissError
	if _, err := exact.RoundTrip(req); !errors.As(err, &miss) {
		t.Errorf("without the normalizer: %v, want a miss", err)
	}
	if calls.Load() != 1 {
		t.Errorf("%d upstream calls, want 1", calls.Load())
	}
}

// A streamed answer (server-sent events) is recorded and replayed as a
// stream: the agent's streaming client reads the same chunks.
func TestStreamsReplayAsStreams(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		for _, word := range []string{"Booked", " for", " Friday."} {
			fmt.Fprintf(w, "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":%q}}]}\n\n", word)
			w.(http.Flusher).Flush()
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	read := func(c *openai.Client) string {
		stream, err := c.CreateChatCompletionStream(context.Background(), chatRequest("book it", "v1"))
		if err != nil {
			t.Fatal(err)
		}
		defer stream.Close()
		var b strings.Builder
		for {
			chunk, err := stream.Recv()
			if errors.Is(err, io.EOF) {
				return b.String()
			}
			if err != nil {
				t.Fatal(err)
			}
			b.WriteString(chunk.Choices[0].Delta.Content)
		}
	}
	path := filepath.Join(t.TempDir(), "stream.yaml")
	rec, _ := Open(path, WithMode(RecordMissing), env())
	if got := read(openaiClient(srv.URL, "sk-x", rec.Client())); got != "Booked for Friday." {
		t.Fatalf("recording: %q", got)
	}
	rec.Close()
	replay, _ := Open(path, env(), WithUpstream(offline(t)))
	if got := read(openaiClient("http://127.0.0.1:1", "", replay.Client())); got != "Booked for Friday." {
		t.Errorf("replay: %q", got)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), "text/event-stream") || !strings.Contains(string(data), "body: |+\n            data: ") {
		t.Errorf("the stream is not stored as readable events:\n%s", data)
	}
}
