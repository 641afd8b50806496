package judge_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/onsi/ginkgo/v2"
)

var verdictQuestion = judgment.Question{
	Name:          "agent_goal_compare",
	PromptVersion: "goal/v1",
	Instructions:  "You compare a desired outcome with an end state.",
	Input:         "Desired: a refund of order 1042. End state: order 1042 refunded.",
	Schema: map[string]any{
		"type":                 "object",
		"additionalProperties": false,
		"required":             []string{"reason", "achieved"},
		"properties": map[string]any{
			"reason":   map[string]any{"type": "string"},
			"achieved": map[string]any{"type": "boolean"},
		},
	},
}

// The test helpers take small interfaces, which Ginkgo's GinkgoT() has as
// *testing.T does.
var (
	_ judge.T     = ginkgo.FullGinkgoTInterface(nil)
	_ recorder.T  = ginkgo.FullGinkgoTInterface(nil)
	_ judgetest.T = ginkgo.FullGinkgoTInterface(nil)
	_ judge.T     = (*testing.T)(nil)
	_ judgetest.T = (*testing.B)(nil)
)

const verdictAnswer = `{"reason":"order 1042 was refunded","achieved":true}`

// phase stands in for t during one phase of a test, so that a recording and
// its replay both open the cassette named after t: its cleanups, which save
// the cassette, run at end instead of at the end of the test.
type phase struct {
	testing.TB
	cleanups []func()
}

func (p *phase) Cleanup(f func()) { p.cleanups = append(p.cleanups, f) }

func (p *phase) end() {
	for i := len(p.cleanups) - 1; i >= 0; i-- {
		p.cleanups[i]()
	}
	p.cleanups = nil
}

// fatalOf runs f with a stand-in for t whose Fatal records the message and
// stops f's goroutine, as testing does; it returns the message, "" if f did
// not call Fatal.
func fatalOf(t *testing.T, f func(testing.TB)) string {
	ft := &fatalTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(ft)
	}()
	<-done
	return ft.msg
}

type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Fatal(args ...any) { f.msg = fmt.Sprint(args...); runtime.Goexit() }
func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// clearJudgeEnv keeps the developer's environment out of a test.
func clearJudgeEnv(t *testing.T) {
	for _, k := range []string{judge.EnvAPIKey, judge.EnvBaseURL, judge.EnvModel, recorder.RecordEnv, "CI"} {
		t.Setenv(k, "")
	}
}

func TestForTestRecordsThenReplaysWithoutKeyOrNetwork(t *testing.T) {
	checkGoroutines(t)
	clearJudgeEnv(t)
	t.Chdir(t.TempDir())
	const secret = "sk-fortest-secret-123"
	s := judgetest.NewServer(judgetest.Always(judgetest.Content(verdictAnswer)))
	defer s.Close()
	ctx := context.Background()

	rec := &phase{TB: t}
	recorded, err := judge.ForTest(rec, judge.WithRecorder(recorder.ForTest(rec, recorder.WithMode(recorder.RecordAll))),
		judge.WithBaseURL(s.URL), judge.WithAPIKey(secret)).Ask(ctx, verdictQuestion)
	if err != nil {
		t.Fatal(err)
	}
	rec.end()
	s.Close()

	path := filepath.Join("testdata", "cassettes", recorder.CassetteFile(t.Name()))
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the recording run left no cassette where ForTest says: %v", err)
	}
	if strings.Contains(string(raw), secret) {
		t.Errorf("the cassette holds the API key:\n%s", raw)
	}
	if recorded.Source != path {
		t.Errorf("recorded answer's Source = %q, want the cassette %q", recorded.Source, path)
	}
	// Outside the module (t.Chdir), the package is ".".
	if want := "AGENTCHECK_RECORD=all AGENTCHECK_RECORD_TEST=" + t.Name() + " go test . -count=1 -run '^" + t.Name() + "$'"; recorded.Rerecord != want {
		t.Errorf("recorded answer's Rerecord = %q, want %q", recorded.Rerecord, want)
	}

	// No option, no key, no server, and the default endpoint: the replay
	// must come from the file alone.
	play := &phase{TB: t}
	replayed, err := judge.ForTest(play).Ask(ctx, verdictQuestion)
	play.end()
	if err != nil {
		t.Fatalf("zero-config replay: %v", err)
	}
	if diff := cmp.Diff(recorded, replayed, cmpopts.IgnoreFields(judgment.Answer{}, "Duration")); diff != "" {
		t.Errorf("replay differs from the recording (-recorded +replayed):\n%s", diff)
	}
	if string(replayed.JSON) != verdictAnswer {
		t.Errorf("replayed %s, want %s", replayed.JSON, verdictAnswer)
	}
	if got := s.Count(); got != 1 {
		t.Errorf("the server saw %d requests, want the 1 recorded", got)
	}
}

func TestForTestNamesTheCassetteAfterTheSubtest(t *testing.T) {
	dir := t.TempDir()
	s := judgetest.Start(t, judgetest.Always(judgetest.Content(verdictAnswer)))
	t.Run("refund of order #1042", func(t *testing.T) {
		j := judge.ForTest(t,
			judge.WithRecorder(recorder.ForTest(t, recorder.WithDir(dir), recorder.WithMode(recorder.RecordMissing), fortestEnv())),
			judge.WithBaseURL(s.URL))
		if _, err := j.Ask(context.Background(), verdictQuestion); err != nil {
			t.Fatal(err)
		}
	})
	// "#" is not kept in a file name, so the name carries a hash of the
	// subtest's own name to keep "#1042" and "_1042" apart.
	want := filepath.Join(dir, "TestForTestNamesTheCassetteAfterTheSubtest~891090109", "refund_of_order__1042-*.yaml")
	if got, _ := filepath.Glob(want); len(got) != 1 {
		t.Errorf("cassettes matching %s: %q, want one", want, got)
	}
}

func TestForTestRefusesToRecordOnCI(t *testing.T) {
	clearJudgeEnv(t)
	t.Chdir(t.TempDir())
	t.Setenv("CI", "true")
	t.Setenv(recorder.RecordEnv, "missing")
	msg := fatalOf(t, func(tb testing.TB) { judge.ForTest(tb) })
	for _, want := range []string{"AGENTCHECK_RECORD=missing", "refused because this is a CI run (CI=true)", "unset AGENTCHECK_RECORD", filepath.Join("testdata", "cassettes", recorder.CassetteFile(t.Name()))} {
		if !strings.Contains(msg, want) {
			t.Errorf("ForTest with CI=true and AGENTCHECK_RECORD=missing: fatal message lacks %q: %q", want, msg)
		}
	}

	// The same refusal when the mode is set in code.
	msg = fatalOf(t, func(tb testing.TB) {
		judge.ForTest(tb, judge.WithRecorder(recorder.ForTest(tb, recorder.WithMode(recorder.RecordAll))))
	})
	if !strings.Contains(msg, "AGENTCHECK_RECORD=all") || !strings.Contains(msg, "refused because this is a CI run (CI=true)") {
		t.Errorf("ForTest with CI=true and RecordAll in code: fatal message %q", msg)
	}

	// Replaying on CI is what CI is for.
	t.Setenv(recorder.RecordEnv, "")
	if msg := fatalOf(t, func(tb testing.TB) { judge.ForTest(tb) }); msg != "" {
		t.Errorf("replay on CI failed: %s", msg)
	}
}

func TestForTestReplayMissSaysHowToRecord(t *testing.T) {
	dir := t.TempDir()
	j := judge.ForTest(t, judge.WithRecorder(recorder.ForTest(t, recorder.WithDir(dir), fortestEnv())))
	_, err := j.Ask(context.Background(), verdictQuestion)
	if err == nil {
		t.Fatal("an empty cassette replayed an answer")
	}
	for _, want := range []string{
		"replay miss", "the cassette file does not exist yet",
		filepath.Join(dir, recorder.CassetteFile(t.Name())),
		"AGENTCHECK_RECORD=missing AGENTCHECK_RECORD_TEST=TestForTestReplayMissSaysHowToRecord go test ./judge -count=1 -run '^TestForTestReplayMissSaysHowToRecord$'",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("miss error lacks %q:\n%v", want, err)
		}
	}
}

func TestForTestKeepsTheCallersRecorder(t *testing.T) {
	clearJudgeEnv(t)
	t.Chdir(t.TempDir())
	dir := t.TempDir()
	s := judgetest.Start(t, judgetest.Always(judgetest.Content(verdictAnswer)))
	own := recorder.ForTest(t, recorder.WithDir(dir), recorder.WithMode(recorder.RecordMissing), fortestEnv())
	j := judge.ForTest(t, judge.WithRecorder(own), judge.WithBaseURL(s.URL))
	ans, err := j.Ask(context.Background(), verdictQuestion)
	if err != nil {
		t.Fatal(err)
	}
	if ans.Source != own.Path() || ans.Rerecord != own.RerecordCommand() {
		t.Errorf("answer from %q, re-recorded with %q; want the caller's cassette %q and %q", ans.Source, ans.Rerecord, own.Path(), own.RerecordCommand())
	}
	if err := own.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(own.Path()); err != nil {
		t.Errorf("the caller's cassette was not written: %v", err)
	}
	if _, err := os.Stat("testdata"); err == nil {
		t.Errorf("ForTest opened a cassette of its own besides the caller's")
	}
}

// cancelled is a test whose context is already over.
type cancelled struct{ testing.TB }

func (cancelled) Context() context.Context {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("the test is over"))
	return ctx
}

// TestForTestAsksWithinTheTestsContext: a judge made for a test stops when
// the test's context ends, whatever context Ask is given.
func TestForTestAsksWithinTheTestsContext(t *testing.T) {
	checkGoroutines(t)
	s := judgetest.Start(t, judgetest.Always(judgetest.Content(verdictAnswer).After(time.Hour)))
	dir := t.TempDir()
	own := recorder.ForTest(t, recorder.WithDir(dir), recorder.WithMode(recorder.RecordMissing), fortestEnv())
	j := judge.ForTest(cancelled{t}, judge.WithRecorder(own), judge.WithBaseURL(s.URL))
	start := time.Now()
	_, err := j.Ask(context.Background(), verdictQuestion)
	if !errors.Is(err, context.Canceled) || time.Since(start) > 5*time.Second {
		t.Errorf("Ask in an ended test: %v after %v, want context.Canceled at once", err, time.Since(start))
	}
	if ans, err := judge.ForTest(t, judge.WithRecorder(own), judge.WithBaseURL(s.URL)).Ask(timeout(t, time.Millisecond), verdictQuestion); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Ask's own context no longer bounds it: %+v, %v", ans, err)
	}
}

func timeout(t *testing.T, d time.Duration) context.Context {
	c, cancel := context.WithTimeout(t.Context(), d)
	t.Cleanup(cancel)
	return c
}

// fortestEnv is an empty environment for the cassette: no recording, no CI.
func fortestEnv() recorder.Option {
	return recorder.WithEnv(func(string) string { return "" })
}

// A panel's judges in one test share the test's cassette. Two recorders of
// one file would each save it, and on a re-recording (RecordAll) with a
// server that answers alike, the last to save would drop the other's
// interactions as stale ones it replaces.
func TestForTestJudgesOfOneTestShareTheCassette(t *testing.T) {
	checkGoroutines(t)
	dir := t.TempDir()
	run := func(mode recorder.Mode) (sources []string, errs []error) {
		s := judgetest.NewServer(judgetest.Always(judgetest.Content(verdictAnswer)))
		defer s.Close()
		p := &phase{TB: t}
		defer p.end()
		for _, model := range []string{"judge-a", "judge-b"} {
			j := judge.ForTest(p, judge.WithRecorder(recorder.ForTest(p, recorder.WithDir(dir), recorder.WithMode(mode), fortestEnv())),
				judge.WithBaseURL(s.URL), judge.WithModel(model))
			a, err := j.Ask(context.Background(), verdictQuestion)
			sources, errs = append(sources, a.Source), append(errs, err)
		}
		return sources, errs
	}
	run(recorder.RecordAll)
	run(recorder.RecordAll) // a fresh server: the same answers, byte for byte
	sources, errs := run(recorder.RecordNone)
	for i, err := range errs {
		if err != nil {
			t.Errorf("judge %d does not replay after re-recording: %v", i, err)
		}
	}
	want := filepath.Join(dir, recorder.CassetteFile(t.Name()))
	if sources[0] != want || sources[1] != want {
		t.Errorf("sources %q, want both %q", sources, want)
	}
}
