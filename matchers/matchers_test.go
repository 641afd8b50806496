package matchers_test

import (
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/goopenai"
	"github.com/agentcheck/agentcheck/agenttest"
	. "github.com/agentcheck/agentcheck/matchers"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/onsi/gomega"
	openai "github.com/sashabaranov/go-openai"
)

// collector is a Gomega whose failures are collected, not reported.
type collector struct {
	gomega.Gomega
	failures []string
}

func newCollector() *collector {
	r := &collector{}
	r.Gomega = gomega.NewGomega(func(message string, _ ...int) { r.failures = append(r.failures, message) })
	return r
}

// last returns the one failure message and forgets it.
func (r *collector) last(t *testing.T) string {
	t.Helper()
	if len(r.failures) != 1 {
		t.Fatalf("want 1 failure, got %d: %q", len(r.failures), r.failures)
	}
	msg := r.failures[0]
	r.failures = nil
	return msg
}

func (r *collector) none(t *testing.T) {
	t.Helper()
	if len(r.failures) != 0 {
		t.Fatalf("unexpected failures:\n%s", strings.Join(r.failures, "\n---\n"))
	}
}

func contains(t *testing.T, msg string, lines ...string) {
	t.Helper()
	for _, line := range lines {
		if !strings.Contains(msg, line) {
			t.Errorf("message lacks %q:\n%s", line, msg)
		}
	}
}

func mustSample(t *testing.T, js string) agentcheck.Sample {
	t.Helper()
	s, err := agentcheck.ParseSample(js)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const weather = `{"user_input":[
 {"type":"human","content":"Weather in Paris and Rome for the 14th?"},
 {"type":"ai","content":"","tool_calls":[
   {"name":"get_weather","args":{"city":"Paris","date":"2024-02-14","temp_c":3.14}},
   {"name":"get_weather","args":{"city":"rome","date":"2024-01-14"}}]},
 {"type":"tool","content":"sunny"},{"type":"tool","content":"rain"},
 {"type":"ai","content":"Sunny in Paris, rain in Rome."}],
 "reference_tool_calls":[
   {"name":"get_weather","args":{"city":"Paris","date":"2024-01-14"}},
   {"name":"get_weather","args":{"city":"Rome","date":"2024-01-14"}}]}`

func TestHaveToolCalls(t *testing.T) {
	s := mustSample(t, weather)
	g := newCollector()
	paris := agenttest.CallTo("get_weather").With(agenttest.Args{
		"city":   "Paris",
		"date":   gomega.MatchRegexp(`^2024-01-\d\d$`),
		"temp_c": gomega.BeNumerically("~", 3.1, 0.1),
	})
	rome := agenttest.CallTo("get_weather").With(agenttest.Args{"city": "Rome"}).Ignoring("date")

	if g.Expect(s).To(HaveToolCalls(paris, rome)) {
		t.Fatal("HaveToolCalls passed")
	}
	msg := g.last(t)
	want := "Expected the 2 tool calls made to be exactly these 2, in this order (2 differ; -want +got):\n" +
		"    want                                          got\n" +
		"  ~ [0] get_weather(city: \"Paris\", date: MatchRegexp(`^2024-01-\\d\\d$`), temp_c: BeNumerically(\"~\", 3.1, 0.1))\n" +
		"                                                  [0] get_weather(city: \"Paris\", date: \"2024-02-14\", temp_c: 3.14)\n" +
		"  ~ [1] get_weather(city: \"Rome\", date: ignored)  [1] get_weather(city: \"rome\", date: \"2024-01-14\")\n" +
		"\n" +
		"  want[0] get_weather vs got[0] get_weather:\n" +
		"      - date: MatchRegexp(`^2024-01-\\d\\d$`)\n" +
		"      + date: \"2024-02-14\"\n" +
		"        Expected <string>: 2024-02-14 to match regular expression <string>: ^2024-01-\\d\\d$\n" +
		"  want[1] get_weather vs got[1] get_weather:\n" +
		"      - city: \"Rome\"\n" +
		"      + city: \"rome\""
	if msg != want {
		t.Errorf("message:\n%s\nwant:\n%s", msg, want)
	}

	// The Gomega matchers inside Args see plain Go values and pass.
	ok := agenttest.CallTo("get_weather").With(agenttest.Args{
		"city":   gomega.HaveSuffix("ris"),
		"date":   gomega.MatchRegexp(`^2024-02-\d\d$`),
		"temp_c": gomega.BeNumerically("~", 3.1, 0.1),
	})
	g.Expect(s).To(HaveToolCallsInOrder(ok))
	g.Expect(s).To(ContainToolCalls(agenttest.CallTo("get_weather"), ok))
	g.Expect(s).To(HaveToolCallsInAnyOrder(agenttest.CallTo("get_weather"))) // the deprecated name of ContainToolCalls
	g.none(t)

	g.Expect(s).To(ContainToolCalls(ok, ok))
	contains(t, g.last(t), "to include these 2 in any order (1 not found;", "want[1] get_weather vs got[1] get_weather:\n", `+ city: "rome"`, "Expected <string>: rome to have suffix <string>: ris",
		"- temp_c: BeNumerically(\"~\", 3.1, 0.1)  (missing)\n      (got[0] matches it but is already paired with want[0])")

	// ConsistOf: the same calls in any order and nothing else; Among: no
	// call outside the expected ones.
	g.Expect(s).To(ConsistOfToolCalls(agenttest.CallTo("get_weather"), ok))
	g.Expect(s).To(HaveToolCallsAmong(agenttest.CallTo("get_weather"), ok, agenttest.CallTo("sms")))
	g.none(t)
	g.Expect(s).To(ConsistOfToolCalls(ok))
	contains(t, g.last(t), "Expected the 2 tool calls made to be exactly this call (1 unexpected; -want +got):")
	g.Expect(s).To(HaveToolCallsAmong(agenttest.CallTo("sms"), ok))
	contains(t, g.last(t), "Expected the 2 tool calls made to be among these 2 (1 unexpected; -want +got):")

	// Negated, the message says that they do match, and shows the table.
	g.Expect(s.Conversation).NotTo(HaveToolCallsInOrder(ok))
	contains(t, g.last(t), "Expected the 2 tool calls made not to include this call, but they do:\n",
		"  = [0] get_weather(city: HaveSuffix(\"ris\")")
	g.Expect(s).NotTo(HaveToolCalls(agenttest.CallTo("get_weather"), agenttest.CallTo("get_weather")))
	contains(t, g.last(t), "Expected the 2 tool calls made not to be exactly these 2, in this order, but they do:")

	// Composite Gomega matchers are rendered as the calls that built them.
	odd := agenttest.CallTo("get_weather").With(agenttest.Args{
		"city": gomega.And(gomega.HavePrefix("P"), gomega.Not(gomega.Equal("Paris"))),
		"date": gomega.Satisfy(func(string) bool { return false }),
	}).AllowingExtraArgs()
	g.Expect(s).To(HaveCalledTool(odd))
	contains(t, g.last(t), `Expected a call to get_weather(city: And(HavePrefix("P"), Not(Equal("Paris"))), date: Satisfy(func), ...)`,
		`- city: And(HavePrefix("P"), Not(Equal("Paris")))`, `+ city: "Paris"`, "Expected <string>: Paris not to equal <string>: Paris")

	// Anything else is an error that names the type.
	g.Expect("hello").To(HaveToolCalls())
	contains(t, g.last(t), "cannot take tool calls from string")
}

func TestHaveCalledTool(t *testing.T) {
	s := mustSample(t, weather)
	g := newCollector()
	g.Expect(s).To(HaveCalledTool("get_weather"))
	g.Expect(s).To(HaveCalledTool("get_weather").Times(2))
	g.Expect(s).NotTo(HaveCalledTool("book_flight"))
	g.Expect(&s).To(HaveCalledTool(agenttest.CallTo("get_weather").With(agenttest.Args{"city": "rome"}).AllowingExtraArgs()).Times(1))
	g.none(t)

	g.Expect(s).NotTo(HaveCalledTool("get_weather"))
	want := "Expected no call to get_weather, but it was called 2 times:\n" +
		"  = [0] get_weather(city: \"Paris\", date: \"2024-02-14\", temp_c: 3.14)\n" +
		"  = [1] get_weather(city: \"rome\", date: \"2024-01-14\")"
	if msg := g.last(t); msg != want {
		t.Errorf("message:\n%s\nwant:\n%s", msg, want)
	}

	g.Expect(s).To(HaveCalledTool("get_weather").Times(3))
	contains(t, g.last(t), "Expected get_weather to be called 3 times, but it was called 2 times:")

	g.Expect(s).NotTo(HaveCalledTool("get_weather").Times(2))
	contains(t, g.last(t), "Expected get_weather not to be called 2 times, but it was:\n  = [0] get_weather(")

	g.Expect(s).To(HaveCalledTool(agenttest.CallTo("get_weather").With(agenttest.Args{"city": "Rome"}).AllowingExtraArgs()))
	want = "Expected a call to get_weather(city: \"Rome\", ...) among the 2 tool calls made, but none matches:\n" +
		"  ~ [0] get_weather(city: \"Paris\", date: \"2024-02-14\", temp_c: 3.14)\n" +
		"      - city: \"Rome\"\n" +
		"      + city: \"Paris\"\n" +
		"  ~ [1] get_weather(city: \"rome\", date: \"2024-01-14\")\n" +
		"      - city: \"Rome\"\n" +
		"      + city: \"rome\""
	if msg := g.last(t); msg != want {
		t.Errorf("message:\n%s\nwant:\n%s", msg, want)
	}

	g.Expect(s).To(HaveCalledTool(42))
	contains(t, g.last(t), "HaveCalledTool takes a tool name or an agenttest.ExpectedCall, got int")
}

func TestHaveToolCallAccuracy(t *testing.T) {
	s := mustSample(t, weather)
	g := newCollector()
	// ragas: Paris pair scores 1/2 (date differs), Rome pair 1/2 (city).
	g.Expect(s).To(HaveToolCallAccuracy(0.5))
	g.Expect(s).To(HaveToolCallAccuracy(gomega.BeNumerically("==", 0.5)))
	g.Expect(&s).NotTo(HaveToolCallAccuracy(0.51))
	g.none(t)

	g.Expect(s).To(HaveToolCallAccuracy(0.8))
	want := `Expected the agent's tool calls to score tool_call_accuracy >= 0.8, but they score 0.5
reason: 2 calls aligned by name; mean argument score 0.5
    reference                                           predicted
  ~ [0] get_weather(city: "Paris", date: "2024-01-14")  [0] get_weather(city: "Paris", date: "2024-02-14", temp_c: 3.14)
  ~ [1] get_weather(city: "Rome", date: "2024-01-14")   [1] get_weather(city: "rome", date: "2024-01-14")

  ref[0] get_weather vs pred[0] get_weather (argument score 0.5):
      - date: "2024-01-14"
      + date: "2024-02-14"
  ref[1] get_weather vs pred[1] get_weather (argument score 0.5):
      - city: "Rome"
      + city: "rome"`
	if msg := g.last(t); msg != want {
		t.Errorf("message:\n%s\nwant:\n%s", msg, want)
	}

	g.Expect(s).NotTo(HaveToolCallAccuracy(0.5))
	contains(t, g.last(t), "Expected the agent's tool calls not to score tool_call_accuracy >= 0.5, but they score 0.5\n")

	g.Expect(s).To(HaveToolCallAccuracy(gomega.BeNumerically(">", 0.9)))
	contains(t, g.last(t),
		"Expected the agent's tool calls to score a tool_call_accuracy that satisfies the matcher, but they score 0.5:\n    Expected\n        <float64>: 0.5\n    to be >\n        <float64>: 0.9\n",
		"ref[1] get_weather vs pred[1] get_weather")

	// Another metric: Levenshtein similarity scores "rome" 0.75 and the
	// dates 0.9; the message names the metric's score.
	lev := HaveToolCallAccuracy(gomega.BeNumerically("~", 0.9125, 1e-12)).
		Using(metric.ToolCallAccuracy{ArgSimilarity: metric.Levenshtein})
	g.Expect(s).To(lev)
	g.none(t)
	g.Expect(s).To(HaveToolCallAccuracy(0.95).Using(metric.ToolCallAccuracy{ArgSimilarity: metric.Levenshtein}))
	contains(t, g.last(t), "tool_call_accuracy >= 0.95, but they score 0.9125", "(argument score 0.875):")

	// Against replaces the reference, and is what a conversation needs.
	paris := agentcheck.MustParseToolCall("get_weather", `{"city":"Paris","date":"2024-02-14"}`)
	rome := agentcheck.MustParseToolCall("get_weather", `{"city":"rome","date":"2024-01-14"}`)
	g.Expect(s.Conversation).To(HaveToolCallAccuracy(1.0).Against(paris, rome))
	g.Expect(s).To(HaveToolCallAccuracy(1).Against(paris, rome))
	g.none(t)
	g.Expect(s.Conversation).To(HaveToolCallAccuracy(1.0).Against(rome, paris))
	contains(t, g.last(t), "but they score 0\n", "mean argument score 0\n", `- city: "rome"`)
	g.Expect(s.Conversation).To(HaveToolCallAccuracy(0.5))
	contains(t, g.last(t), "tool_call_accuracy needs reference tool calls, and a agentcheck.Conversation has none: give a Sample, or the calls with .Against(...)")
	g.Expect(s.Conversation).To(HaveToolCallAccuracy(0.5).Against())
	contains(t, g.last(t), "no tool calls expected, 2 made")

	g.Expect(s).To(HaveToolCallAccuracy("high"))
	contains(t, g.last(t), "tool_call_accuracy: want a number or a Gomega matcher for the score, got string")
}

func TestHaveToolCallF1(t *testing.T) {
	msgs := goopenai.Messages{
		{Role: openai.ChatMessageRoleUser, Content: "Weather in Paris?"},
		{Role: openai.ChatMessageRoleAssistant, ToolCalls: []openai.ToolCall{
			{ID: "1", Type: openai.ToolTypeFunction, Function: openai.FunctionCall{Name: "get_weather", Arguments: `{"city":"Paris","days":1.0}`}},
			{ID: "2", Type: openai.ToolTypeFunction, Function: openai.FunctionCall{Name: "get_news", Arguments: `{"city":"Paris"}`}},
		}},
	}
	ref := agentcheck.MustParseToolCall("get_weather", `{"days":1,"city":"Paris"}`)
	g := newCollector()
	// Python's == makes 1 == 1.0 and ignores key order: one of two calls
	// made was expected, the one expected was made.
	g.Expect(msgs).To(HaveToolCallF1(gomega.BeNumerically("==", 0.6667)).Against(ref))
	g.none(t)
	g.Expect(msgs).To(HaveToolCallF1(0.9).Against(ref))
	want := `Expected the agent's tool calls to score tool_call_f1 >= 0.9, but they score 0.6667
reason: 1 of 2 distinct calls made were expected (precision 0.5), 1 of 1 distinct expected calls were made (recall 1)
    reference                                predicted
  = [0] get_weather(days: 1, city: "Paris")  [0] get_weather(city: "Paris", days: 1.0)
  +                                          [1] get_news(city: "Paris")`
	if msg := g.last(t); msg != want {
		t.Errorf("message:\n%s\nwant:\n%s", msg, want)
	}
}

// The matchers work with gomega.NewWithT, the way tests use them.
func TestWithT(t *testing.T) {
	g := gomega.NewWithT(t)
	s := mustSample(t, weather)
	g.Expect(s).To(HaveCalledTool("get_weather").Times(2))
	g.Expect(s).To(ContainToolCalls(
		agenttest.CallTo("get_weather").With(agenttest.Args{"city": "rome", "date": "2024-01-14"}),
	))
	g.Expect(s).To(HaveToolCallF1(gomega.BeNumerically("<", 0.1)))
}
