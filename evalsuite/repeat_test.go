package evalsuite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
)

// agentPassing is a deterministic fake agent: run n (from 1) makes the
// right calls when pattern[n-1] is '1', else half-right ones.
func agentPassing(pattern string) func(context.Context) (agentcheck.Sample, error) {
	n := 0
	return func(context.Context) (agentcheck.Sample, error) {
		n++
		if pattern[(n-1)%len(pattern)] == '1' {
			return right(), nil
		}
		return half(), nil
	}
}

func flakySuite(requireAll bool) (Suite, []Case) {
	return Suite{
			Checks:         accuracy(1),
			Repeat:         4,
			RequireAllRuns: requireAll,
			Gates:          []Gate{PassAtK(2, 0.5), PassHatK(2, 0.9)},
		}, []Case{
			{ID: "steady", Run: agentPassing("1111")},
			{ID: "flaky", Run: agentPassing("1010")},
			{ID: "broken", Run: agentPassing("0000")},
		}
}

// Repeated cases: pass@k and pass^k per case and over the suite, the
// flaky case named, the broken case's subtest failed and the flaky one's
// left to the gates.
func TestRepeatedCasesReportPassAtKAndPassHatK(t *testing.T) {
	s, cases := flakySuite(false)
	ft := &fakeT{}
	res := Run(ft, s, cases)
	flaky := res.Cases[1]
	if flaky.Passes() != 2 || !near(flaky.PassAtK(2), 1-1.0/6) || !near(flaky.PassHatK(2), 1.0/6) {
		t.Errorf("Expected flaky (2 of 4) to have pass@2 5/6 and pass^2 1/6, but it has %d passes, %v and %v", flaky.Passes(), flaky.PassAtK(2), flaky.PassHatK(2))
	}
	if g := res.Gates[0]; !g.OK || !near(g.Value, (1+5.0/6+0)/3) {
		t.Errorf("Expected pass@2 over the suite to be 11/18 and hold, but it is %v (ok=%v)", g.Value, g.OK)
	}
	if g := res.Gates[1]; g.OK || !near(g.Value, (1+1.0/6+0)/3) || strings.Join(g.Below, ",") != "broken,flaky" {
		t.Errorf("Expected pass^2 over the suite to be 7/18 and fail on broken and flaky, but it is %v (ok=%v, below %q)", g.Value, g.OK, g.Below)
	}
	if len(ft.errs) != 1 {
		t.Fatalf("Expected the parent to fail once, but it has %q", ft.errs)
	}
	want := `Expected pass^2 (the mean over 3 cases of 4 runs each) to be at least 0.9, but it is 0.3889; the cases that pulled it down:
  case    metric              score  threshold  verdict
  broken  tool_call_accuracy  0.5    1          fail 0/4, pass^2 0
  flaky   tool_call_accuracy  0.75   1          flaky 2/4, pass^2 0.1667

Flaky cases (some runs passed, some failed): flaky (2/4 runs passed)

1 of 3 cases failed: broken`
	if ft.errs[0] != want {
		t.Errorf("Expected the parent's failure to be\n%s\nbut it is\n%s", want, ft.errs[0])
	}
	if ft.sub("flaky").failed || !ft.sub("broken").failed || ft.sub("steady").failed {
		t.Errorf("Expected only broken's subtest to fail, but steady=%v flaky=%v broken=%v", ft.sub("steady").failed, ft.sub("flaky").failed, ft.sub("broken").failed)
	}
	if got := ft.sub("broken").errs; len(got) != 1 || !strings.HasPrefix(got[0], `Expected at least one of 4 runs of case "broken" to pass, but none did:
  run 1: tool_call_accuracy scored 0.5, below 1`) {
		t.Errorf("Expected broken's subtest to list its failed runs, but it says %q", got)
	}
	if got := ft.sub("flaky").logs; len(got) != 1 || got[0] != "2 of 4 runs passed: pass rate 0.5 (95% Wilson interval [0.150, 0.850]), pass@4 1, pass^4 0; flaky" {
		t.Errorf("Expected flaky's subtest to log its statistics, but it logged %q", got)
	}
	if got := ft.attrs["agentcheck.pass^2"]; got != fmtAttr(res.Gates[1].Value) {
		t.Errorf("Expected the suite to record pass^2 as an attribute, but it recorded %q", got)
	}
}

// RequireAllRuns fails the flaky case's subtest too.
func TestRequireAllRunsFailsFlakyCases(t *testing.T) {
	s, cases := flakySuite(true)
	ft := &fakeT{}
	Run(ft, s, cases)
	got := ft.sub("flaky").errs
	if len(got) != 1 || !strings.HasPrefix(got[0], `Expected all 4 runs of case "flaky" to pass, but 2 failed:
  run 2: tool_call_accuracy scored 0.5, below 1`) {
		t.Errorf("Expected flaky's subtest to fail listing runs 2 and 4, but it says %q", got)
	}
}

func TestNoCaseRanEveryGateHolds(t *testing.T) {
	res := Suite{Checks: accuracy(1), Gates: []Gate{MeanAtLeast("tool_call_accuracy", 1), PassRateAtLeast(1)}}.Evaluate(context.Background(), nil)
	if !res.OK() || res.String() != "" {
		t.Errorf("Expected a suite of no cases to pass, but it says %q", res.String())
	}
}

// A table lists at most 50 cases and counts the rest.
func TestLongTablesAreCut(t *testing.T) {
	var cases []Case
	for i := range 60 {
		cases = append(cases, Case{ID: fmt.Sprintf("c%02d", i), Sample: wrong()})
	}
	res := Suite{Checks: accuracy(1), Gates: []Gate{MeanAtLeast("tool_call_accuracy", 1)}}.Evaluate(context.Background(), cases)
	out := res.Gates[0].String()
	if !strings.Contains(out, "  c49 ") || strings.Contains(out, "  c50 ") || !strings.HasSuffix(out, "... and 10 more cases") {
		t.Errorf("Expected the table to stop after c49 and count 10 more, but it is\n%s", out)
	}
}

func TestLoadCases(t *testing.T) {
	cases, err := LoadCases("testdata/cases.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range cases {
		ids = append(ids, c.ID)
	}
	if strings.Join(ids, ",") != "book-1,book-2,3,line 4" {
		t.Errorf("Expected the IDs book-1, book-2, 3 and line 4, but they are %q", ids)
	}
	if th := cases[2].Thresholds["tool_call_accuracy"]; th != 0.5 || len(cases[0].Thresholds) != 0 {
		t.Errorf("Expected case 3 alone to have its own threshold 0.5, but the thresholds are %v and %v", cases[2].Thresholds, cases[0].Thresholds)
	}
	if n := len(cases[1].Sample.ReferenceToolCalls); n != 2 {
		t.Errorf("Expected book-2 to have 2 reference calls, but it has %d", n)
	}

	path := filepath.Join(t.TempDir(), "bad.jsonl")
	bad := `{"id": "ok", "user_input": [{"type": "human", "content": "hi"}]}
{"id": [1], "user_input": [{"type": "human", "content": "hi"}]}
{"id": "t", "thresholds": {"f1": "high"}, "user_input": [{"type": "human", "content": "hi"}]}
{"user_input": 
`
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	cases, err = LoadCases(path)
	if len(cases) != 1 || cases[0].ID != "ok" {
		t.Errorf("Expected the one good case to load, but got %+v", cases)
	}
	for _, want := range []string{
		path + `:2: sample 1: "id": want a string or an integer, got array`,
		path + `:3: sample 2: "thresholds": f1: want a number, got string`,
		path + `:4: sample 3:`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Expected the error to say %q, but it is %v", want, err)
		}
	}
}

// A repeated case's subtest says its runs' pass rate once: in its log when
// it passed, in its failure (which ends with it) when it failed.
func TestRepeatedCaseStatsSaidOnce(t *testing.T) {
	ft := &fakeT{name: "TestSuite"}
	n := 0
	alternate := func(context.Context) (agentcheck.Sample, error) {
		n++
		if n%2 == 0 {
			return half(), nil
		}
		return right(), nil
	}
	Run(ft, Suite{Checks: accuracy(0.9), Repeat: 2, RequireAllRuns: true}, []Case{{ID: "flaky", Run: alternate}, {ID: "steady", Sample: right()}})
	count := func(sub *fakeT) int {
		c := 0
		for _, s := range append(append([]string{}, sub.logs...), sub.errs...) {
			c += strings.Count(s, "of 2 runs passed: pass rate")
		}
		return c
	}
	for _, id := range []string{"flaky", "steady"} {
		sub := ft.sub(id)
		if sub == nil {
			t.Fatalf("no subtest %s", id)
		}
		if c := count(sub); c != 1 {
			t.Errorf("Expected case %s's subtest to say its pass rate once, but it says it %d times:\nlogs %q\nerrors %q", id, c, sub.logs, sub.errs)
		}
	}
}
