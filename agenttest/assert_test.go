package agenttest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/metric"
)

// fakeT records what the assertions do to a test.
type fakeT struct {
	errors  []string
	helpers int
	failed  bool // FailNow was called
}

func (f *fakeT) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *fakeT) Helper()  { f.helpers++ }
func (f *fakeT) FailNow() { f.failed = true }

func (f *fakeT) message(t *testing.T) string {
	t.Helper()
	if len(f.errors) != 1 {
		t.Fatalf("want 1 error reported, got %d: %q", len(f.errors), f.errors)
	}
	if f.helpers == 0 {
		t.Error("Helper() was not called")
	}
	return f.errors[0]
}

// onlyErrorf has neither Helper nor FailNow.
type onlyErrorf struct{ n int }

func (o *onlyErrorf) Errorf(string, ...any) { o.n++ }

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

func TestAssertToolCalls(t *testing.T) {
	s := sample(t, travel)
	search := agenttest.CallTo("search").With(agenttest.Args{"city": "Paris"})
	book := agenttest.CallTo("book").With(agenttest.Args{"hotel": "A"}).AllowingExtraArgs()

	ft := &fakeT{}
	if agenttest.AssertToolCalls(ft, s, agenttest.InOrder, agenttest.CallTo("search"), book) != true || len(ft.errors) != 0 {
		t.Fatalf("a passing assertion failed: %q", ft.errors)
	}

	ft = &fakeT{}
	if agenttest.AssertToolCalls(ft, s, agenttest.Exactly, search, book) {
		t.Fatal("AssertToolCalls passed on a different argument")
	}
	msg := ft.message(t)
	want := agenttest.CheckToolCalls(s.Conversation.ToolCalls(), agenttest.Exactly, search, book).String()
	if msg != want {
		t.Errorf("message:\n%s\nwant the report:\n%s", msg, want)
	}
	for _, line := range []string{`- city: "Paris"`, `+ city: "paris"`, "(1 differs; -want +got)"} {
		if !strings.Contains(msg, line) {
			t.Errorf("message lacks %q:\n%s", line, msg)
		}
	}
	if ft.failed {
		t.Error("AssertToolCalls called FailNow")
	}

	ft = &fakeT{}
	if agenttest.RequireToolCalls(ft, s, agenttest.Exactly, search, book) || !ft.failed {
		t.Errorf("RequireToolCalls: failed=%v", ft.failed)
	}
	ft = &fakeT{}
	if !agenttest.RequireToolCalls(ft, &s, agenttest.AnyOrder, book) || ft.failed || len(ft.errors) != 0 {
		t.Errorf("RequireToolCalls on a passing check: failed=%v errors=%q", ft.failed, ft.errors)
	}

	ft = &fakeT{}
	agenttest.AssertToolCalls(ft, 42, agenttest.Exactly)
	if msg := ft.message(t); !strings.Contains(msg, "cannot take tool calls from int") {
		t.Errorf("bad actual: %s", msg)
	}

	// A TestingT with Errorf alone still gets the failure and a false.
	o := &onlyErrorf{}
	if agenttest.RequireToolCalls(o, s, agenttest.Exactly) || o.n != 1 {
		t.Errorf("RequireToolCalls with a bare TestingT: errors=%d", o.n)
	}
}

func TestAssertScoreToolCallAccuracy(t *testing.T) {
	s := sample(t, travel)
	ft := &fakeT{}
	if !agenttest.AssertScore(ft, metric.ToolCallAccuracy{}, s, 0.5) || len(ft.errors) != 0 {
		t.Fatalf("0.5 >= 0.5 failed: %q", ft.errors)
	}
	ft = &fakeT{}
	if agenttest.AssertScore(ft, metric.ToolCallAccuracy{}, s, 0.8) {
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
	if msg := ft.message(t); msg != want {
		t.Errorf("message:\n%s\nwant:\n%s", msg, want)
	}
	if ft.failed {
		t.Error("Assert called FailNow")
	}

	// A similarity scores the pair partly, and the message says how much.
	ft = &fakeT{}
	agenttest.RequireScore(ft, metric.ToolCallAccuracy{ArgSimilarity: metric.Levenshtein}, s, 0.95)
	msg := ft.message(t)
	for _, line := range []string{"Expected the agent's tool calls to score tool_call_accuracy >= 0.95, but they score 0.9", "(argument score 0.8):"} {
		if !strings.Contains(msg, line) {
			t.Errorf("message lacks %q:\n%s", line, msg)
		}
	}
	if !ft.failed {
		t.Error("RequireScore did not call FailNow")
	}

	// No reference calls: ragas refuses, and so does the assertion.
	ft = &fakeT{}
	s.ReferenceToolCalls = nil
	agenttest.AssertScore(ft, metric.ToolCallAccuracy{}, s, 0)
	if msg := ft.message(t); !strings.Contains(msg, "needs reference_tool_calls") {
		t.Errorf("message: %s", msg)
	}
}

func TestAssertScoreToolCallF1(t *testing.T) {
	s := sample(t, `{"user_input":[{"type":"ai","content":"","tool_calls":[
	  {"name":"search","args":{"city":"Paris","debug":true}},
	  {"name":"book","args":{"hotel":"A"}},
	  {"name":"book","args":{"hotel":"A"}},
	  {"name":"log","args":{}}]}],
	 "reference_tool_calls":[{"name":"search","args":{"city":"Paris"}},{"name":"book","args":{"hotel":"A"}},{"name":"pay","args":{"amount":10}}]}`)
	ft := &fakeT{}
	if agenttest.AssertScore(ft, metric.ToolCallF1{}, s, 0.5) {
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
	if msg := ft.message(t); msg != want {
		t.Errorf("message:\n%s\nwant:\n%s", msg, want)
	}
	ft = &fakeT{}
	if !agenttest.RequireScore(ft, metric.ToolCallF1{}, s, 0.3333) || ft.failed {
		t.Errorf("0.3333 >= 0.3333 failed: %q", ft.errors)
	}
	ft = &fakeT{}
	if agenttest.RequireScore(ft, metric.ToolCallF1{}, s, 0.9) || !ft.failed {
		t.Error("RequireToolCallF1 did not call FailNow")
	}
}

func TestAssertCalled(t *testing.T) {
	s := sample(t, travel)
	ft := &fakeT{}
	if !agenttest.AssertCalled(ft, s, agenttest.CallTo("book"), agenttest.Times(1)) || len(ft.errors) != 0 {
		t.Fatalf("book was called once: %q", ft.errors)
	}
	if !agenttest.AssertCalled(ft, s.Conversation, agenttest.CallTo("search"), agenttest.AtLeastOnce()) || len(ft.errors) != 0 {
		t.Fatalf("search was called: %q", ft.errors)
	}
	ft = &fakeT{}
	agenttest.AssertCalled(ft, s, agenttest.CallTo("search").With(agenttest.Args{"city": "Paris"}), agenttest.Times(1))
	want := `Expected search(city: "Paris") to be called 1 time, but it was called 0 times:
  ~ [0] search(city: "paris")
      - city: "Paris"
      + city: "paris"
    [1] book(hotel: "A", nights: 2)`
	if msg := ft.message(t); msg != want {
		t.Errorf("message:\n%s\nwant:\n%s", msg, want)
	}

	ft = &fakeT{}
	if !agenttest.AssertNeverCalled(ft, s, "cancel") || len(ft.errors) != 0 {
		t.Fatalf("cancel was never called: %q", ft.errors)
	}
	if agenttest.AssertNeverCalled(ft, s, "book") {
		t.Fatal("AssertNeverCalled(book) passed")
	}
	want = `Expected no call to book, but it was called 1 time:
    [0] search(city: "paris")
  = [1] book(hotel: "A", nights: 2)`
	if msg := ft.message(t); msg != want {
		t.Errorf("message:\n%s\nwant:\n%s", msg, want)
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

func ExampleAssertToolCalls() {
	conv := agentcheck.Conversation{
		{Role: agentcheck.Human, Content: "What's the weather in Lisbon?"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{
			agentcheck.MustParseToolCall("get_weather", `{"city":"Lisbon","unit":"F"}`),
		}},
	}
	// In a test, pass the *testing.T; here a T that prints.
	agenttest.AssertToolCalls(printT{}, conv, agenttest.Exactly,
		agenttest.CallTo("get_weather").With(agenttest.Args{"city": "Lisbon", "unit": agenttest.OneOf("C", "celsius")}))
	// Output:
	// Expected the 1 tool call made to be exactly this call (1 differs; -want +got):
	//     want                                                          got
	//   ~ [0] get_weather(city: "Lisbon", unit: OneOf("C", "celsius"))  [0] get_weather(city: "Lisbon", unit: "F")
	//
	//   want[0] get_weather vs got[0] get_weather:
	//       - unit: OneOf("C", "celsius")
	//       + unit: "F"
}

type printT struct{}

func (printT) Errorf(format string, args ...any) { fmt.Printf(format+"\n", args...) }
