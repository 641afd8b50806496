package assert_test

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/agenttest/assert"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/trajectory"
	"github.com/stretchr/testify/suite"
	"go.uber.org/goleak"
)

// The judged assertions and the failing requires use goroutines; none may
// be left when the tests end.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		if attrsTest.dir != "" {
			os.RemoveAll(attrsTest.dir)
		}
		os.Exit(code)
	}))
}

// recordingT records what the assertions do to a test: the errors, the
// Helper calls and the attributes. It has a Name, as *testing.T does, so
// testify adds the Test line.
type recordingT struct {
	errors  []string
	helpers int
	attrs   [][2]string
}

func (r *recordingT) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recordingT) Helper()                { r.helpers++ }
func (r *recordingT) Name() string           { return "TestBooking" }
func (r *recordingT) Attr(key, value string) { r.attrs = append(r.attrs, [2]string{key, value}) }

// one returns the single error reported since the last call.
func (r *recordingT) one(t *testing.T) string {
	t.Helper()
	if len(r.errors) != 1 {
		t.Fatalf("want 1 error reported, got %d: %q", len(r.errors), r.errors)
	}
	if r.helpers == 0 {
		t.Error("Helper() was not called")
	}
	msg := r.errors[0]
	r.errors = nil
	return msg
}

// attr is the last value of the attribute key.
func (r *recordingT) attr(key string) string {
	v := ""
	for _, kv := range r.attrs {
		if kv[0] == key {
			v = kv[1]
		}
	}
	return v
}

// testifyLayout is testify's failure layout for the error msg and the
// message given, with any error trace: each label padded to the longest,
// "Error Trace", and each further line of a content aligned under its
// first.
func testifyLayout(msg, messages string) *regexp.Regexp {
	pad := func(label string) string {
		return "\t" + label + ":" + strings.Repeat(" ", len("Error Trace")-len(label)) + "\t"
	}
	body := func(s string) string {
		return regexp.QuoteMeta(strings.ReplaceAll(s, "\n", "\n\t"+strings.Repeat(" ", len("Error Trace")+1)+"\t"))
	}
	re := `^\n` + regexp.QuoteMeta(pad("Error Trace")) + `[^\n]*\n` +
		regexp.QuoteMeta(pad("Error")) + body(msg) + `\n` +
		regexp.QuoteMeta(pad("Test")) + `TestBooking\n`
	if messages != "" {
		re += regexp.QuoteMeta(pad("Messages")) + body(messages) + `\n`
	}
	return regexp.MustCompile(re + `$`)
}

func sample(t *testing.T, js string) agentcheck.Sample {
	t.Helper()
	s, err := agentcheck.ParseSample(js)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// travel: the agent searched for "paris" where "Paris" was expected, and
// booked the right hotel.
const travel = `{"user_input":[
 {"type":"human","content":"Book me a hotel in Paris"},
 {"type":"ai","content":"","tool_calls":[{"name":"search","args":{"city":"paris"}},{"name":"book","args":{"hotel":"A","nights":2}}]},
 {"type":"tool","content":"ok"},
 {"type":"tool","content":"ok"}],
 "reference_tool_calls":[{"name":"search","args":{"city":"Paris"}},{"name":"book","args":{"hotel":"A","nights":2}}]}`

var (
	search = agenttest.CallTo("search").With(agenttest.Args{"city": "Paris"})
	book   = agenttest.CallTo("book").With(agenttest.Args{"hotel": "A"}).AllowingExtraArgs()
)

func TestToolCalls(t *testing.T) {
	s := sample(t, travel)
	rt := &recordingT{}
	if !assert.ToolCalls(rt, s, trajectory.InOrder, assert.Calls{agenttest.CallTo("search"), book}) || len(rt.errors) != 0 {
		t.Fatalf("a passing assertion failed: %q", rt.errors)
	}
	if rt.attr("agentcheck.check") != "tool_calls" || rt.attr("agentcheck.verdict") != "pass" {
		t.Errorf("attributes of a pass: %q", rt.attrs)
	}

	rt = &recordingT{}
	if assert.ToolCalls(rt, s, trajectory.Strict, assert.Calls{search, book}, "booking %s for %d nights", "A", 2) {
		t.Fatal("ToolCalls passed on a different argument")
	}
	got := rt.one(t)
	report := agenttest.CheckToolCalls(s, trajectory.Strict, search, book).String()
	if re := testifyLayout(report, "booking A for 2 nights"); !re.MatchString(got) {
		t.Errorf("failure:\n%s\nwant testify's layout of the report:\n%s", got, report)
	}
	for _, line := range []string{`- city: "Paris"`, `+ city: "paris"`, "(1 differs; -want +got)", "Messages:   \tbooking A for 2 nights"} {
		if !strings.Contains(got, line) {
			t.Errorf("failure lacks %q:\n%s", line, got)
		}
	}
	if rt.attr("agentcheck.verdict") != "fail" {
		t.Errorf("attributes of a failure: %q", rt.attrs)
	}

	// Without a message, testify leaves the Messages line out.
	assert.ToolCalls(rt, s, trajectory.Strict, assert.Calls{search, book})
	if got := rt.one(t); !testifyLayout(report, "").MatchString(got) {
		t.Errorf("failure without a message:\n%s", got)
	}

	// What is not a conversation fails, and says so.
	assert.ToolCalls(rt, 42, trajectory.Strict, nil)
	if got := rt.one(t); !strings.Contains(got, "cannot take tool calls from int") {
		t.Errorf("bad actual: %s", got)
	}
	if rt.attr("agentcheck.verdict") != "error" {
		t.Errorf("attributes of a check that could not be made: %q", rt.attrs)
	}
}

func TestCalled(t *testing.T) {
	s := sample(t, travel)
	rt := &recordingT{}
	if !assert.Called(rt, s, agenttest.CallTo("book"), agenttest.Times(1)) ||
		!assert.Called(rt, s.Conversation, agenttest.CallTo("search"), agenttest.AtLeastOnce()) ||
		!assert.NotCalled(rt, s, "cancel") || len(rt.errors) != 0 {
		t.Fatalf("passing assertions failed: %q", rt.errors)
	}
	if assert.Called(rt, s, search, agenttest.Times(1), "the search") {
		t.Fatal("Called passed with no matching call")
	}
	want := agenttest.CheckCalled(s, search, agenttest.Times(1)).String()
	if got := rt.one(t); !testifyLayout(want, "the search").MatchString(got) {
		t.Errorf("failure:\n%s\nwant testify's layout of:\n%s", got, want)
	}
	if assert.NotCalled(rt, s, "book") {
		t.Fatal("NotCalled(book) passed")
	}
	want = "Expected no call to book, but it was called 1 time:\n    [0] search(city: \"paris\")\n  = [1] book(hotel: \"A\", nights: 2)"
	if got := rt.one(t); !testifyLayout(want, "").MatchString(got) {
		t.Errorf("failure:\n%s\nwant testify's layout of:\n%s", got, want)
	}
	if rt.attr("agentcheck.check") != "called" {
		t.Errorf("attributes: %q", rt.attrs)
	}
}

func TestScore(t *testing.T) {
	s := sample(t, travel)
	rt := &recordingT{}
	if !assert.Score(rt, metric.ToolCallAccuracy{}, s, 0.5) || len(rt.errors) != 0 {
		t.Fatalf("0.5 >= 0.5 failed: %q", rt.errors)
	}
	if rt.attr("agentcheck.tool_call_accuracy") != "0.5" || rt.attr("agentcheck.check") != "score" {
		t.Errorf("attributes: %q", rt.attrs)
	}
	if assert.Score(rt, metric.ToolCallF1{}, s, 0.8, "F1 of %q", "travel") {
		t.Fatal("F1 0.5 >= 0.8 passed")
	}
	got := rt.one(t)
	if !strings.Contains(got, "\tError:      \tExpected the agent's tool calls to score tool_call_f1 >= 0.8, but they score 0.5\n") ||
		!strings.HasSuffix(got, "\tMessages:   \tF1 of \"travel\"\n") {
		t.Errorf("failure:\n%s", got)
	}
	if rt.attr("agentcheck.tool_call_f1") != "0.5" || rt.attr("agentcheck.verdict") != "fail" {
		t.Errorf("attributes: %q", rt.attrs)
	}
}

// A bare assert.TestingT, with Errorf alone, gets the failure too.
type onlyErrorf struct{ n int }

func (o *onlyErrorf) Errorf(string, ...any) { o.n++ }

func TestBareTestingT(t *testing.T) {
	o := &onlyErrorf{}
	if assert.NotCalled(o, sample(t, travel), "book") || o.n != 1 {
		t.Errorf("NotCalled with a bare TestingT: returned true or %d errors", o.n)
	}
}

// BookingSuite is a testify suite whose tests assert with agentcheck.
type BookingSuite struct {
	suite.Suite
	travel agentcheck.Sample
}

func (s *BookingSuite) SetupTest() {
	var err error
	s.travel, err = agentcheck.ParseSample(travel)
	s.Require().NoError(err)
}

func (s *BookingSuite) TestBooksTheHotel() {
	s.True(assert.ToolCalls(s.T(), s.travel, trajectory.Superset, assert.Calls{book}))
	s.True(assert.Called(s.T(), s.travel, agenttest.CallTo("search").With(agenttest.Args{"city": "paris"}), agenttest.Times(1)))
	s.True(assert.NotCalled(s.T(), s.travel, "cancel"))
	s.True(assert.Score(s.T(), metric.ToolCallAccuracy{}, s.travel, 0.5, "half the calls are right"))
}

func TestInASuite(t *testing.T) {
	suite.Run(t, new(BookingSuite))
}

// printT prints a failure as go test shows it (tabs as spaces, no
// trailing space), less the Error Trace's lines, which vary with where the
// example runs.
type printT struct{}

func (printT) Errorf(format string, args ...any) {
	msg := strings.ReplaceAll(fmt.Sprintf(format, args...), "\t", "    ")
	trace := false
	for _, line := range strings.Split(strings.Trim(msg, "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "    Error Trace:"):
			trace, line = true, "    Error Trace:    ..."
		case trace && strings.HasPrefix(line, "        "):
			continue // the trace's further callers
		default:
			trace = false
		}
		fmt.Println(strings.TrimRight(line, " "))
	}
}

func ExampleToolCalls() {
	conv := agentcheck.Conversation{
		{Role: agentcheck.Human, Content: "What's the weather in Lisbon?"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{
			agentcheck.MustParseToolCall("get_weather", `{"city":"Lisbon","unit":"F"}`),
		}},
	}
	// In a test, pass the *testing.T; here a TestingT that prints.
	ok := assert.ToolCalls(printT{}, conv, trajectory.Strict, assert.Calls{
		agenttest.CallTo("get_weather").With(agenttest.Args{"city": "Lisbon", "unit": agenttest.OneOf("C", "celsius")}),
	}, "weather for %s", "Lisbon")
	fmt.Println(ok)
	// Output:
	// Error Trace:    ...
	//     Error:          Expected the 1 tool call made to be exactly this call (1 differs; -want +got):
	//                         want                                                          got
	//                       ~ [0] get_weather(city: "Lisbon", unit: OneOf("C", "celsius"))  [0] get_weather(city: "Lisbon", unit: "F")
	//
	//                       want[0] get_weather vs got[0] get_weather:
	//                           - unit: OneOf("C", "celsius")
	//                           + unit: "F"
	//     Messages:       weather for Lisbon
	// false
}
