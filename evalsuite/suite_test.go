package evalsuite

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/metric"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// fakeT is a test double for Run: it records failures, logs, attributes
// and subtests, and skips the subtests skip names, as go test -run does.
type fakeT struct {
	name   string
	errs   []string
	logs   []string
	attrs  map[string]string
	subs   []*fakeT
	skip   func(name string) bool
	failed bool
}

func (f *fakeT) Helper() {}
func (f *fakeT) Errorf(format string, args ...any) {
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
	f.failed = true
}
func (f *fakeT) Logf(format string, args ...any) {
	f.logs = append(f.logs, fmt.Sprintf(format, args...))
}
func (f *fakeT) Attr(key, value string) {
	if f.attrs == nil {
		f.attrs = map[string]string{}
	}
	f.attrs[key] = value
}
func (f *fakeT) Context() context.Context { return context.Background() }
func (f *fakeT) Run(name string, fn func(*fakeT)) bool {
	if f.skip != nil && f.skip(name) {
		return true
	}
	sub := &fakeT{name: name}
	f.subs = append(f.subs, sub)
	fn(sub)
	f.failed = f.failed || sub.failed
	return !sub.failed
}

func (f *fakeT) sub(name string) *fakeT {
	for _, s := range f.subs {
		if s.name == name {
			return s
		}
	}
	return nil
}

// calls makes a sample whose agent made the calls made and should have made
// the calls want, each written name(args JSON).
func calls(made, want []string) agentcheck.Sample {
	parse := func(specs []string) []agentcheck.ToolCall {
		out := []agentcheck.ToolCall{}
		for _, spec := range specs {
			name, args, _ := strings.Cut(spec, "(")
			out = append(out, agentcheck.MustParseToolCall(name, strings.TrimSuffix(args, ")")))
		}
		return out
	}
	return agentcheck.Sample{
		Conversation: agentcheck.Conversation{
			{Role: agentcheck.Human, Content: "Book table 4"},
			{Role: agentcheck.AI, ToolCalls: parse(made)},
		},
		ReferenceToolCalls: parse(want),
	}
}

var reference = []string{`search({"q": "tables"})`, `book({"table": 4})`}

// right scores 1; half 0.5 (one call's argument wrong); wrong 0 (a tool
// name wrong).
func right() agentcheck.Sample { return calls(reference, reference) }
func half() agentcheck.Sample {
	return calls([]string{`search({"q": "tables"})`, `book({"table": 5})`}, reference)
}
func wrong() agentcheck.Sample {
	return calls([]string{`search({"q": "tables"})`, `cancel({})`}, reference)
}

func accuracy(threshold float64) []Check {
	return []Check{{Metric: metric.ToolCallAccuracy{}, Threshold: threshold}}
}

func TestPassingSuiteRecordsEveryCaseAsASubtest(t *testing.T) {
	ft := &fakeT{name: "TestSuite"}
	s := Suite{Checks: accuracy(0.8), Gates: []Gate{MeanAtLeast("tool_call_accuracy", 0.9), PassRateAtLeast(0.95)}}
	res := Run(ft, s, []Case{{ID: "a", Sample: right()}, {ID: "b", Sample: right()}, {ID: "c", Sample: right()}})
	if ft.failed || len(ft.errs) > 0 {
		t.Fatalf("Expected the suite to pass, but it failed: %q", ft.errs)
	}
	var names []string
	for _, s := range ft.subs {
		names = append(names, s.name)
		if got := s.attrs["agentcheck.tool_call_accuracy"]; got != "1" {
			t.Errorf("Expected case %s to record its tool_call_accuracy 1 as an attribute, but it recorded %q", s.name, got)
		}
	}
	if !slices.Equal(names, []string{"a", "b", "c"}) {
		t.Errorf("Expected a subtest per case, named by ID, but there were %q", names)
	}
	if ft.attrs["agentcheck.tool_call_accuracy"] != "1" || ft.attrs["agentcheck.pass_rate"] != "1" {
		t.Errorf("Expected the suite to record its mean score and pass rate, but it recorded %v", ft.attrs)
	}
	if !res.OK() || res.String() != "" || len(res.Cases) != 3 {
		t.Errorf("Expected an OK result of 3 cases with no summary, but got OK=%v, %d cases, summary %q", res.OK(), len(res.Cases), res.String())
	}
}

// A failing gate fails the parent with a table of only the cases below it;
// the failing cases fail their own subtests.
func TestFailingGateShowsTheCasesThatPulledItDown(t *testing.T) {
	ft := &fakeT{name: "TestSuite"}
	s := Suite{Checks: accuracy(0.8), Gates: []Gate{MeanAtLeast("tool_call_accuracy", 0.9), PassRateAtLeast(0.5)}}
	Run(ft, s, []Case{
		{ID: "book-ok", Sample: right()},
		{ID: "book-half", Sample: half()},
		{ID: "refund-wrong", Sample: wrong()},
		{ID: "search-ok", Sample: right()},
	})
	if !ft.failed || len(ft.errs) != 1 {
		t.Fatalf("Expected the parent to fail once, with the summary, but it has failures %q", ft.errs)
	}
	want := `Expected the mean tool_call_accuracy over 4 cases to be at least 0.9, but it is 0.625; the cases under 0.9:
  case          metric              score  threshold  verdict
  refund-wrong  tool_call_accuracy  0      0.8        fail
  book-half     tool_call_accuracy  0.5    0.8        fail

2 of 4 cases failed: book-half, refund-wrong`
	if ft.errs[0] != want {
		t.Errorf("Expected the parent's failure to be\n%s\nbut it is\n%s", want, ft.errs[0])
	}
	for _, c := range []struct {
		name   string
		failed bool
	}{{"book-ok", false}, {"book-half", true}, {"refund-wrong", true}, {"search-ok", false}} {
		if sub := ft.sub(c.name); sub == nil || sub.failed != c.failed {
			t.Errorf("Expected subtest %s to have failed=%v, but it is %+v", c.name, c.failed, sub)
		}
	}
	if got := ft.sub("book-half").errs; len(got) != 1 || !strings.HasPrefix(got[0], `Expected case "book-half" to score a tool_call_accuracy of at least 0.8, but it scored 0.5`) {
		t.Errorf("Expected book-half's subtest to say what it scored against its threshold, but it says %q", got)
	}
}

// A case's own threshold replaces the check's; a case below its threshold
// fails its subtest but not the parent when every gate holds.
func TestCaseThresholdOverridesTheCheck(t *testing.T) {
	ft := &fakeT{}
	res := Run(ft, Suite{Checks: accuracy(0.8)}, []Case{
		{ID: "lenient", Sample: half(), Thresholds: map[string]float64{"tool_call_accuracy": 0.5}},
		{ID: "strict", Sample: half()},
	})
	if ft.sub("lenient").failed || !ft.sub("strict").failed {
		t.Errorf("Expected only the strict case to fail, but lenient failed=%v, strict failed=%v", ft.sub("lenient").failed, ft.sub("strict").failed)
	}
	if len(ft.errs) != 0 {
		t.Errorf("Expected the parent to fail only through its subtest, but it reported %q", ft.errs)
	}
	if res.OK() || res.Cases[0].Thresholds[0] != 0.5 || res.Cases[1].Thresholds[0] != 0.8 {
		t.Errorf("Expected a failed result with thresholds 0.5 and 0.8, but got OK=%v, %v and %v", res.OK(), res.Cases[0].Thresholds, res.Cases[1].Thresholds)
	}
}

// An agent's error or panic fails its run, and the pass rate gate lists it
// with the error.
func TestAgentErrorsAndPanicsFailTheirRun(t *testing.T) {
	ft := &fakeT{}
	s := Suite{Checks: accuracy(1), Gates: []Gate{PassRateAtLeast(0.9)}}
	res := Run(ft, s, []Case{
		{ID: "ok", Run: func(context.Context) (agentcheck.Sample, error) { return right(), nil }},
		{ID: "down", Run: func(context.Context) (agentcheck.Sample, error) {
			return agentcheck.Sample{}, errors.New("model unavailable")
		}},
		{ID: "crash", Run: func(context.Context) (agentcheck.Sample, error) { panic("nil map") }},
	})
	if len(ft.errs) != 1 {
		t.Fatalf("Expected the parent to fail with the summary, but it has %q", ft.errs)
	}
	for _, want := range []string{
		"Expected the pass rate over 3 runs to be at least 0.9, but it is 0.3333 (1 passed; 95% Wilson interval [0.061, 0.792])",
		"  crash  (error)  -      -          error",
		"  down   (error)  -      -          error",
		"errors:\n  crash: run 1: the agent failed: panic: nil map\n  down: run 1: the agent failed: model unavailable",
	} {
		if !strings.Contains(ft.errs[0], want) {
			t.Errorf("Expected the summary to contain\n%s\nbut it is\n%s", want, ft.errs[0])
		}
	}
	if got := ft.sub("down").errs; len(got) != 1 || got[0] != `Expected case "down" to be scored, but the agent failed: model unavailable` {
		t.Errorf("Expected down's subtest to report the agent's error, but it reports %q", got)
	}
	if res.Cases[1].Verdict() != "error" {
		t.Errorf("Expected down's verdict to be error, but it is %q", res.Cases[1].Verdict())
	}
}

// A suite that is set up wrong runs nothing and says what is wrong where.
func TestBadSuiteRunsNothing(t *testing.T) {
	ft := &fakeT{}
	s := Suite{
		Checks: []Check{{Metric: metric.ToolCallAccuracy{}}, {Metric: metric.ToolCallAccuracy{}}, {}},
		Gates:  []Gate{MeanAtLeast("goal", 0.5), PassAtK(3, 0.9), {}},
		Repeat: 2,
	}
	res := Run(ft, s, []Case{{ID: "x"}, {ID: "x", Thresholds: map[string]float64{"f1": 1}}})
	if len(ft.subs) != 0 || res.Err == nil || len(ft.errs) != 1 {
		t.Fatalf("Expected no subtest and one failure, but got %d subtests and %q", len(ft.subs), ft.errs)
	}
	for _, want := range []string{
		"Checks[1] scores tool_call_accuracy again",
		"Checks[2] has no Metric",
		"Gates[0] mean goal ≥ 0.5: no check scores goal",
		"Gates[1] pass@3 ≥ 0.9: needs at least 3 runs of each case, but Repeat is 2",
		"Gates[2] zero gate ≥ 0: a zero Gate checks nothing",
		`cases 1 and 2 both have the ID "x"`,
		`case "x" has a threshold for f1, which no check scores`,
	} {
		if !strings.Contains(ft.errs[0], want) {
			t.Errorf("Expected the failure to say %q, but it is\n%s", want, ft.errs[0])
		}
	}
}

// Cases that go test -run leaves out do not count in the gates.
func TestGatesJudgeOnlyTheCasesThatRan(t *testing.T) {
	ft := &fakeT{skip: func(name string) bool { return name == "bad" }}
	res := Run(ft, Suite{Checks: accuracy(1), Gates: []Gate{MeanAtLeast("tool_call_accuracy", 1)}},
		[]Case{{ID: "good", Sample: right()}, {ID: "bad", Sample: wrong()}})
	if ft.failed || len(res.Cases) != 1 || !res.Gates[0].OK {
		t.Errorf("Expected the suite to pass on the one case that ran, but it failed=%v with %d cases: %q", ft.failed, len(res.Cases), ft.errs)
	}
}

// An empty ID is named by the case's position.
func TestEmptyIDIsNamedByPosition(t *testing.T) {
	ft := &fakeT{}
	Run(ft, Suite{}, []Case{{ID: "first"}, {}})
	if len(ft.subs) != 2 || ft.subs[1].name != "case 2" {
		t.Errorf("Expected the second case to be named \"case 2\", but the subtests are %+v", ft.subs)
	}
}

// Suite.Run takes *testing.T itself: the cases become real subtests.
func TestSuiteRunWithTestingT(t *testing.T) {
	res := Suite{Checks: accuracy(1)}.Run(t, []Case{{ID: "real", Sample: right()}})
	if !res.OK() || res.Cases[0].ID != "real" {
		t.Errorf("Expected the real case to pass, but the result is %+v", res)
	}
}

// Without an update, a missing baseline fails as a missing golden file does.
func TestMissingBaselineFailsAndSaysHowToWriteIt(t *testing.T) {
	t.Setenv(UpdateEnv, "") // whatever the developer's shell says
	dir := t.TempDir()
	res := Suite{Checks: accuracy(0), Baseline: dir + "/b.json"}.Evaluate(context.Background(), []Case{{ID: "a", Sample: right()}})
	if res.BaselineWritten || res.Err == nil || !strings.Contains(res.Err.Error(), "there is none: run the test with AGENTCHECK_UPDATE_BASELINE=1 to write it") {
		t.Errorf("Expected a missing baseline to fail and say how to write it, but written=%v, err=%v", res.BaselineWritten, res.Err)
	}
}

// A case its metric cannot score names the metric once in its run's error,
// as agenttest's checks do.
func TestUnscorableCaseNamesTheMetricOnce(t *testing.T) {
	noReference := right()
	noReference.ReferenceToolCalls = nil
	res := Suite{Checks: accuracy(0.5)}.Evaluate(context.Background(), []Case{{ID: "a", Sample: noReference}})
	err := res.Cases[0].Runs[0].Err
	if err == nil || err.Error() != "run 1: tool_call_accuracy needs reference_tool_calls, and the sample has none" {
		t.Errorf("Expected the run's error to name tool_call_accuracy once, but it is %v", err)
	}
}

// A gate over one case, or one run, says so in the singular.
func TestGateOverOneCaseIsSingular(t *testing.T) {
	ft := &fakeT{name: "TestSuite"}
	Run(ft, Suite{Checks: accuracy(0.9), Gates: []Gate{MeanAtLeast("tool_call_accuracy", 0.9), PassRateAtLeast(1)}}, []Case{{ID: "a", Sample: half()}})
	msg := strings.Join(ft.errs, "\n")
	for _, want := range []string{"Expected the mean tool_call_accuracy over 1 case to be", "Expected the pass rate over 1 run to be"} {
		if !strings.Contains(msg, want) {
			t.Errorf("Expected the failure to say %q, but it is:\n%s", want, msg)
		}
	}
}
