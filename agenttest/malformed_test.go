package agenttest_test

import (
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/trajectory"
)

// malformedConversation is an OpenAI run, as goopenai and the datasets read
// it, whose first call's arguments were cut off: not valid JSON.
const malformedConversation = `[
  {"role": "user", "content": "Find a table in Paris and book it"},
  {"role": "assistant", "content": null, "tool_calls": [
    {"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{\"city\": \"Par"}},
    {"id": "c2", "type": "function", "function": {"name": "book", "arguments": "{\"table\": 7}"}}]},
  {"role": "tool", "tool_call_id": "c1", "content": "error: invalid arguments"},
  {"role": "tool", "tool_call_id": "c2", "content": "booked"}]`

// A call with unparseable arguments is still a call of its tool: name-only
// checks count it, checks of its arguments fail and say why, and the other
// calls of the conversation are checked as usual.
func TestMalformedArgumentsEndToEnd(t *testing.T) {
	conv, err := dataset.ParseOpenAIMessages([]byte(malformedConversation))
	if err != nil {
		t.Fatalf("Expected the conversation to load, but got %v", err)
	}

	if r := agenttest.CheckCalled(conv, agenttest.CallTo("search"), agenttest.Times(1)); !r.OK() {
		t.Errorf("Expected search to count as called once, but: %s", r)
	}
	if r := agenttest.CheckToolCalls(conv, trajectory.Strict, agenttest.CallTo("search"), agenttest.CallTo("book")); !r.OK() {
		t.Errorf("Expected the calls to match by name alone, but: %s", r)
	}

	r := agenttest.CheckToolCalls(conv, trajectory.Strict,
		agenttest.CallTo("search").With(agenttest.Args{"city": "Paris"}),
		agenttest.CallTo("book").With(agenttest.Args{"table": 7}))
	if r.OK() {
		t.Fatalf("Expected the malformed call to fail the argument check, but it passed: %s", r)
	}
	msg := r.String()
	for _, want := range []string{`unparseable arguments "{\"city\": \"Par"`, "not valid JSON"} {
		if !strings.Contains(msg, want) {
			t.Errorf("Expected the failure to mention %q, but it is:\n%s", want, msg)
		}
	}
	// book matched: its row is '=', and the differences are search's alone.
	if !strings.Contains(msg, "= [1] book(table: 7)") || !strings.Contains(msg, "~ [0] search") || strings.Contains(msg, "vs got[1]") {
		t.Errorf("Expected book to match and only search to differ, but the report is:\n%s", msg)
	}
	// book's own arguments are still checked.
	if r := agenttest.CheckToolCalls(conv, trajectory.Superset, agenttest.CallTo("book").With(agenttest.Args{"table": 8})); r.OK() {
		t.Errorf("Expected book with the wrong table to fail, but it passed: %s", r)
	}
	if r := agenttest.CheckToolCalls(conv, trajectory.Superset, agenttest.CallTo("book").With(agenttest.Args{"table": 7})); !r.OK() {
		t.Errorf("Expected book with its table to match beside the malformed call, but: %s", r)
	}
}

// A score's diff of a call with unparseable arguments says so, rather than
// calling each reference argument missing; and a diff of the whole
// arguments reads as a diff, with no empty argument name before it.
func TestMalformedArgumentsInAScoresDiff(t *testing.T) {
	s := sample(t, `{"user_input": [{"type": "human", "content": "Weather?"},
	  {"type": "ai", "content": "", "tool_calls": [{"name": "get_weather", "args": {"city": "Paris"}}]}],
	 "reference_tool_calls": [{"name": "get_weather", "args": {"city": "Paris", "unit": "C"}}]}`)
	calls := s.Conversation[1].ToolCalls
	calls[0].Args, calls[0].InvalidArgs = agentcheck.ParseArguments(`{"city": "Par`)
	for _, m := range []metric.Metric{metric.ToolCallAccuracy{}, metric.ToolCallF1{}, metric.TrajectoryMatch{}} {
		msg := score(m, s, 0.9).String()
		if !strings.Contains(msg, `+ unparseable arguments "{\"city\": \"Par"`) || !strings.Contains(msg, "the arguments are not valid JSON") ||
			strings.Contains(msg, "(missing)") {
			t.Errorf("Expected %s's diff to say the arguments are not valid JSON, and no argument missing, but it is:\n%s", m.Name(), msg)
		}
	}
	conv, err := dataset.ParseOpenAIMessages([]byte(malformedConversation))
	if err != nil {
		t.Fatal(err)
	}
	msg := agenttest.CheckToolCalls(conv, trajectory.Superset, agenttest.CallTo("search").With(agenttest.Args{"city": "Paris"})).String()
	if !strings.Contains(msg, "      - {\"city\":\"Paris\"}\n      + unparseable arguments") {
		t.Errorf("Expected the whole arguments' diff to have no argument name, but it is:\n%s", msg)
	}
}
