package matchers_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	. "github.com/agentcheck/agentcheck/matchers"
	"github.com/agentcheck/agentcheck/tooldefs"
	"github.com/onsi/gomega"
)

// tdDefs are the tools of a restaurant agent, as an MCP server lists them.
var tdDefs = tooldefs.Must(tooldefs.Parse([]byte(`{"tools":[
	{"name":"search","inputSchema":{"type":"object","properties":{"city":{"type":"string"},"party_size":{"type":"integer","minimum":1}},"required":["city"],"additionalProperties":false}},
	{"name":"book","inputSchema":{"type":"object","properties":{"id":{"type":"string"},"time":{"type":"string"}},"required":["id","time"]}}
]}`)))

func tdConversation(calls ...agentcheck.ToolCall) agentcheck.Conversation {
	return agentcheck.Conversation{
		{Role: agentcheck.Human, Content: "Book a table for 4 in Paris"},
		{Role: agentcheck.AI, ToolCalls: calls},
	}
}

// tdGomega is a Gomega that collects failure messages.
func tdGomega() (gomega.Gomega, *[]string) {
	var failures []string
	return gomega.NewGomega(func(message string, _ ...int) { failures = append(failures, message) }), &failures
}

func TestFitToolDefinitions(t *testing.T) {
	good := tdConversation(
		agentcheck.MustParseToolCall("search", `{"city":"Paris","party_size":4}`),
		agentcheck.MustParseToolCall("book", `{"id":"r_1","time":"20:00"}`),
	)
	bad := tdConversation(
		agentcheck.MustParseToolCall("search", `{"city":"Paris","party_size":"4"}`),
		agentcheck.MustParseToolCall("book", `{"id":"r_1"}`),
		agentcheck.MustParseToolCall("cancel", `{"id":"r_1"}`),
	)
	g, failures := tdGomega()

	g.Expect(good).To(FitToolDefinitions(tdDefs))
	g.Expect(bad).NotTo(FitToolDefinitions(tdDefs))
	g.Expect(bad.ToolCalls()[:0]).To(FitToolDefinitions(tdDefs))
	if len(*failures) != 0 {
		t.Fatalf("unexpected failures: %q", *failures)
	}

	g.Expect(bad).To(FitToolDefinitions(tdDefs))
	want := `Expected the 3 tool calls made to fit their tool definitions, but 3 do not:
  [0] search: /party_size: type: got string, want integer
  [1] book: required: missing property 'time'
  [2] cancel: not a defined tool; defined: search, book`
	if len(*failures) != 1 || (*failures)[0] != want {
		t.Errorf("To on calls that do not fit:\n got %q\nwant %q", *failures, want)
	}
	*failures = nil

	g.Expect(good.ToolCalls()).NotTo(FitToolDefinitions(tdDefs))
	if want := "Expected the 2 tool calls made not to fit their tool definitions, but they do"; len(*failures) != 1 || (*failures)[0] != want {
		t.Errorf("NotTo on calls that fit:\n got %q\nwant %q", *failures, want)
	}
}

func TestFitToolDefinitionsErrors(t *testing.T) {
	m := FitToolDefinitions(nil)
	ok, err := m.Match(tdConversation())
	if ok || err == nil || !strings.Contains(err.Error(), "nil *tooldefs.Set") {
		t.Errorf("nil Set: Match = %v, %v; want an error", ok, err)
	}
	// An error is neither a pass nor a failure: NotTo must not pass either.
	for _, negate := range []bool{false, true} {
		g, failures := tdGomega()
		if negate {
			g.Expect("not a conversation").NotTo(FitToolDefinitions(tdDefs))
		} else {
			g.Expect("not a conversation").To(FitToolDefinitions(tdDefs))
		}
		if len(*failures) != 1 || !strings.Contains((*failures)[0], "string") {
			t.Errorf("negated %v: got %q, want one failure naming the type", negate, *failures)
		}
	}
}

func ExampleFitToolDefinitions() {
	g := gomega.NewGomega(func(message string, _ ...int) { fmt.Println(message) })
	// The tools as the agent sends them to Anthropic.
	defs := tooldefs.Must(tooldefs.Parse([]byte(`[
		{"name":"get_weather","input_schema":{"type":"object","properties":{"city":{"type":"string"},"units":{"enum":["c","f"]}},"required":["city"]}}
	]`)))
	conv := agentcheck.Conversation{
		{Role: agentcheck.Human, Content: "Weather in Oslo?"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{
			agentcheck.MustParseToolCall("get_weather", `{"town":"Oslo","units":"kelvin"}`),
		}},
	}
	g.Expect(conv).To(FitToolDefinitions(defs))
	// Output:
	// Expected the 1 tool call made to fit its tool definition, but it does not:
	//   [0] get_weather: required: missing property 'city'
	//   [0] get_weather: /units: enum: value must be one of 'c', 'f'
}
