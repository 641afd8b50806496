package agenttest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/metric"
)

func sample(t *testing.T, js string) agentcheck.Sample {
	t.Helper()
	s, err := agentcheck.ParseSample(js)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// travel: the agent searched for "paris" where "Paris" was expected, booked
// the right hotel, and paid twice.
const travel = `{"user_input":[
 {"type":"human","content":"Book me a hotel in Paris"},
 {"type":"ai","content":"","tool_calls":[{"name":"search","args":{"city":"paris"}},{"name":"book","args":{"hotel":"A","nights":2}}]},
 {"type":"tool","content":"ok"},
 {"type":"tool","content":"ok"}],
 "reference_tool_calls":[{"name":"search","args":{"city":"Paris"}},{"name":"book","args":{"hotel":"A","nights":2}}]}`

// score is CheckScore in the background context.
func score(m metric.Metric, s agentcheck.Sample, min float64) agenttest.Report {
	return agenttest.CheckScore(context.Background(), m, s, min)
}

func TestCheckScoreToolCallAccuracy(t *testing.T) {
	s := sample(t, travel)
	if r := score(metric.ToolCallAccuracy{}, s, 0.5); !r.OK() {
		t.Fatalf("0.5 >= 0.5 failed:\n%s", r)
	}
	r := score(metric.ToolCallAccuracy{}, s, 0.8)
	if r.OK() {
		t.Fatal("0.5 >= 0.8 passed")
	}
	want := `Expected the agent's tool calls to score tool_call_accuracy >= 0.8, but they score 0.5
reason: 2 calls aligned by name; mean argument score 0.5
    reference                        predicted
  ~ [0] search(city: "Paris")        [0] search(city: "paris")
  = [1] book(hotel: "A", nights: 2)  [1] book(hotel: "A", nights: 2)

  ref[0] search vs pred[0] search (argument score 0):
      - city: "Paris"
      + city: "paris"`
	if msg := r.String(); msg != want {
		t.Errorf("message:\n%s\nwant:\n%s", msg, want)
	}
	if name, got, ok := r.Score(); name != "tool_call_accuracy" || got != 0.5 || !ok {
		t.Errorf("Score() = %q, %v, %v; want tool_call_accuracy, 0.5, true", name, got, ok)
	}

	// A similarity scores the pair partly, and the message says how much.
	msg := score(metric.ToolCallAccuracy{ArgSimilarity: metric.Levenshtein}, s, 0.95).String()
	for _, line := range []string{"Expected the agent's tool calls to score tool_call_accuracy >= 0.95, but they score 0.9", "(argument score 0.8):"} {
		if !strings.Contains(msg, line) {
			t.Errorf("message lacks %q:\n%s", line, msg)
		}
	}

	// No reference calls: ragas refuses, and so does the check.
	s.ReferenceToolCalls = nil
	r = score(metric.ToolCallAccuracy{}, s, 0)
	if r.OK() || r.Err() == nil || !strings.Contains(r.String(), "needs reference_tool_calls") {
		t.Errorf("without reference calls: OK %v, Err %v, message %s", r.OK(), r.Err(), r)
	}
}

func TestCheckScoreToolCallF1(t *testing.T) {
	s := sample(t, `{"user_input":[{"type":"ai","content":"","tool_calls":[
	  {"name":"search","args":{"city":"Paris","debug":true}},
	  {"name":"book","args":{"hotel":"A"}},
	  {"name":"book","args":{"hotel":"A"}},
	  {"name":"log","args":{}}]}],
	 "reference_tool_calls":[{"name":"search","args":{"city":"Paris"}},{"name":"book","args":{"hotel":"A"}},{"name":"pay","args":{"amount":10}}]}`)
	r := score(metric.ToolCallF1{}, s, 0.5)
	if r.OK() {
		t.Fatal("F1 0.3333 >= 0.5 passed")
	}
	want := `Expected the agent's tool calls to score tool_call_f1 >= 0.5, but they score 0.3333
reason: 1 of 3 distinct calls made were expected (precision 0.3333333333333333), 1 of 3 distinct expected calls were made (recall 0.3333333333333333)
    reference                  predicted
  - [0] search(city: "Paris")
  = [1] book(hotel: "A")       [1] book(hotel: "A")
  - [2] pay(amount: 10)
  +                            [0] search(city: "Paris", debug: true)
  +                            [2] book(hotel: "A")
  +                            [3] log()

  ref[0] search not made; closest is pred[0]:
      + debug: true  (unexpected)
  ref[2] pay not made: no call to pay was predicted
  pred[2] repeats pred[1]; ToolCallF1 counts a call once`
	if msg := r.String(); msg != want {
		t.Errorf("message:\n%s\nwant:\n%s", msg, want)
	}
	if r := score(metric.ToolCallF1{}, s, 0.3333); !r.OK() {
		t.Errorf("0.3333 >= 0.3333 failed:\n%s", r)
	}
}

func TestCheckCalledMessages(t *testing.T) {
	s := sample(t, travel)
	if r := agenttest.CheckCalled(s, agenttest.CallTo("book"), agenttest.Times(1)); !r.OK() {
		t.Fatalf("book was called once:\n%s", r)
	}
	if r := agenttest.CheckCalled(s.Conversation, agenttest.CallTo("search"), agenttest.AtLeastOnce()); !r.OK() {
		t.Fatalf("search was called:\n%s", r)
	}
	r := agenttest.CheckCalled(s, agenttest.CallTo("search").With(agenttest.Args{"city": "Paris"}), agenttest.Times(1))
	want := `Expected search(city: "Paris") to be called 1 time, but it was called 0 times:
  ~ [0] search(city: "paris")
      - city: "Paris"
      + city: "paris"
    [1] book(hotel: "A", nights: 2)`
	if r.OK() || r.String() != want {
		t.Errorf("OK %v, message:\n%s\nwant:\n%s", r.OK(), r, want)
	}
	if r := agenttest.CheckCalled(s, agenttest.CallTo("cancel"), agenttest.Never()); !r.OK() {
		t.Fatalf("cancel was never called:\n%s", r)
	}
	r = agenttest.CheckCalled(s, agenttest.CallTo("book"), agenttest.Never())
	want = `Expected no call to book, but it was called 1 time:
    [0] search(city: "paris")
  = [1] book(hotel: "A", nights: 2)`
	if r.OK() || r.String() != want {
		t.Errorf("OK %v, message:\n%s\nwant:\n%s", r.OK(), r, want)
	}
}

func TestCheckScoreExplains(t *testing.T) {
	pred := calls(`a {"x":1}`)
	ref := calls(`a {"x":1.0,"y":"z"}`)
	s := agentcheck.Sample{Conversation: agentcheck.Conversation{{Role: agentcheck.AI, ToolCalls: pred}}, ReferenceToolCalls: ref}
	got := agenttest.CheckScore(context.Background(), metric.ToolCallAccuracy{}, s, 1).String()
	for _, line := range []string{"reason: ", "~ [0] a(x: 1.0, y: \"z\")  [0] a(x: 1)", "- x: 1.0", "+ x: 1", `- y: "z"  (missing)`} {
		if !strings.Contains(got, line) {
			t.Errorf("report lacks %q:\n%s", line, got)
		}
	}
	// ToolCallF1 compares with Python's ==, so 1 and 1.0 are the same.
	got = agenttest.CheckScore(context.Background(), metric.ToolCallF1{}, s, 1).String()
	if strings.Contains(got, "- x:") || !strings.Contains(got, `- y: "z"  (missing)`) {
		t.Errorf("F1 report:\n%s", got)
	}
	// Pairs that name calls the sample lacks show as unknown, not as a panic.
	odd := fixedMetric{metric.Result{Metric: "m", Pairs: []metric.CallPair{{Reference: 0, Predicted: 0}}}}
	if got := agenttest.CheckScore(context.Background(), odd, agentcheck.Sample{}, 1).String(); !strings.Contains(got, "[0] ?") {
		t.Errorf("report with missing calls:\n%s", got)
	}
	why := fixedMetric{metric.Result{Metric: "m", Reason: "why"}}
	if got := agenttest.CheckScore(context.Background(), why, agentcheck.Sample{}, 1).String(); got != "Expected the agent's tool calls to score m >= 1, but they score 0\nreason: why" {
		t.Errorf("report without pairs = %q", got)
	}
	// A Gomega-shaped matcher in place of the threshold.
	r := agenttest.CheckScore(context.Background(), why, agentcheck.Sample{}, beAbove(0.5))
	if r.OK() || r.String() != "Expected the agent's tool calls to score a m that satisfies the matcher, but they score 0:\n    Expected\n        <float64>: 0\n    to be above 0.5\nreason: why" {
		t.Errorf("matcher report = %q", r.String())
	}
	if _, score, ok := r.Score(); !ok || score != 0 {
		t.Errorf("Score() = %v, %v", score, ok)
	}
}

// beAbove has the shape of Gomega's BeNumerically(">", x).
type beAbove float64

func (b beAbove) Match(actual any) (bool, error) { return actual.(float64) > float64(b), nil }

func (b beAbove) FailureMessage(actual any) string {
	return fmt.Sprintf("Expected\n    <float64>: %v\nto be above %v", actual, float64(b))
}

func (b beAbove) NegatedFailureMessage(actual any) string {
	return fmt.Sprintf("Expected\n    <float64>: %v\nnot to be above %v", actual, float64(b))
}

// fixedMetric always gives its result.
type fixedMetric struct{ r metric.Result }

func (f fixedMetric) Name() string { return f.r.Metric }

func (f fixedMetric) Evaluate(context.Context, agentcheck.Sample) (metric.Result, error) {
	return f.r, nil
}

// failingMetric is a metric of a user's whose error does not name it.
type failingMetric struct{ err error }

func (failingMetric) Name() string { return "my_metric" }
func (m failingMetric) Evaluate(context.Context, agentcheck.Sample) (metric.Result, error) {
	return metric.Result{Metric: "my_metric"}, m.err
}

// A metric that cannot score the sample is named once in the message: the
// package's metrics name themselves in their errors, a user's metric may
// not, and either way the cause stays for errors.Is.
func TestCheckScoreNamesAMetricThatCannotScoreOnce(t *testing.T) {
	r := score(metric.ToolCallAccuracy{}, sample(t, `{"user_input":[{"type":"human","content":"hi"}]}`), 0.9)
	if msg := r.String(); r.Err() == nil || !strings.HasPrefix(msg, "tool_call_accuracy needs reference_tool_calls") {
		t.Errorf("Expected the message to start with the metric's own error, but it is %q (Err %v)", msg, r.Err())
	}
	cause := errors.New("the sample's tool is unknown")
	r = score(failingMetric{err: cause}, sample(t, travel), 0.9)
	if msg := r.String(); msg != "my_metric: the sample's tool is unknown" || !errors.Is(r.Err(), cause) {
		t.Errorf("Expected a user's metric's error to be named by the metric and wrap its cause, but it is %q (errors.Is %v)", msg, errors.Is(r.Err(), cause))
	}
}
