package agenttest_test

import (
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/dataset"
)

func TestCheckSteps(t *testing.T) {
	// An Anthropic transcript with thinking: reasoning steps where it has them.
	conv, err := dataset.ParseAnthropicMessages([]byte(`[
	  {"role": "user", "content": "Book a table for 4 in Paris"},
	  {"role": "assistant", "content": [
	    {"type": "thinking", "thinking": "Search first, then book.", "signature": "x"},
	    {"type": "tool_use", "id": "t1", "name": "search", "input": {"city": "Paris"}}]},
	  {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "r_17"}]},
	  {"role": "assistant", "content": [
	    {"type": "thinking", "thinking": "r_17 it is."},
	    {"type": "tool_use", "id": "t2", "name": "book", "input": {"id": "r_17"}},
	    {"type": "tool_use", "id": "t3", "name": "sms", "input": {}}]},
	  {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t2", "content": "ok"}, {"type": "tool_result", "tool_use_id": "t3", "content": "sent"}]},
	  {"role": "assistant", "content": [{"type": "text", "text": "Booked."}]}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		kind  agenttest.StepKind
		count agenttest.Count
		ok    bool
		want  string
	}{
		{agenttest.ReasoningStep, agenttest.AtLeastOnce(), true, "Expected the agent not to take at least 1 reasoning step, but it took 2 reasoning steps"},
		{agenttest.ReasoningStep, agenttest.Times(1), false, "Expected the agent to take exactly 1 reasoning step, but it took 2 reasoning steps"},
		{agenttest.ToolCallStep, agenttest.AtMost(2), false, "Expected the agent to take at most 2 tool calls, but it took 3 tool calls"},
		{agenttest.ToolCallStep, agenttest.Between(1, 3), true, "Expected the agent not to take between 1 and 3 tool calls, but it took 3 tool calls"},
		{agenttest.TextStep, agenttest.Never(), false, "Expected the agent to take no text answers, but it took 1 text answer"},
	} {
		r := agenttest.CheckSteps(conv, tt.kind, tt.count)
		msg := r.String()
		if r.OK() {
			msg = r.Negated()
		}
		if r.OK() != tt.ok || msg != tt.want {
			t.Errorf("CheckSteps(%s, %v) = %v, %q; want %v, %q", tt.kind, tt.count, r.OK(), msg, tt.ok, tt.want)
		}
	}
	// A transcript without reasoning has none; a conversation's Reasoning is
	// no part of its content.
	if n, err := agenttest.CountSteps([]agentcheck.ToolCall{{Name: "a"}}, agenttest.ReasoningStep); n != 0 || err != nil {
		t.Errorf("reasoning steps of bare calls: %d, %v", n, err)
	}
	if conv[1].Content != "" || conv[1].Reasoning != "Search first, then book." {
		t.Errorf("thinking went into the content: %+v", conv[1])
	}
}
