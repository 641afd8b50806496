package dataset_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

func TestParseOpenAIMessagesPairsResultsRefusalsAndCustomTools(t *testing.T) {
	conv, err := dataset.ParseOpenAIMessages([]byte(`[
	  {"role": "user", "content": "patch it"},
	  {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "custom", "custom": {"name": "apply_patch", "input": "*** Begin Patch"}}]},
	  {"role": "tool", "tool_call_id": "c1", "content": "done"},
	  {"role": "assistant", "content": null, "refusal": "I can't help with that."},
	  {"role": "assistant", "content": [{"type": "refusal", "refusal": "Nor that."}]}]`))
	if err != nil {
		t.Fatal(err)
	}
	if tc := conv[1].ToolCalls[0]; tc.Name != "apply_patch" || tc.ID != "c1" || tc.Args.String() != `{"input":"*** Begin Patch"}` {
		t.Errorf("custom tool call = %+v", tc)
	}
	if conv[3].Content != "I can't help with that." || conv[4].Content != "Nor that." {
		t.Errorf("refusals: %q, %q", conv[3].Content, conv[4].Content)
	}

	_, err = dataset.ParseOpenAIMessages([]byte(`[
	  {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
	  {"role": "tool", "tool_call_id": "c1", "content": "ok"},
	  {"role": "tool", "tool_call_id": "c9", "content": "?"}]`))
	if err == nil || err.Error() != `message 2 (tool): tool_call_id "c9" answers no call of message 0 (its calls: "c1")` {
		t.Errorf("a result for an unknown call: %v", err)
	}
	for _, bad := range []struct{ json, want string }{
		{`[{"role": "assistant", "tool_calls": [{"type": "custom", "custom": {"input": "x"}}]}]`, `message 0 (ai), tool call 0: "custom.name" must be a non-empty string`},
		{`[{"role": "assistant", "tool_calls": [{"type": "custom", "custom": {"name": "p", "input": 3}}]}]`, `message 0 (ai), tool call 0 "p": "custom.input" must be a string, got int`},
	} {
		if _, err := dataset.ParseOpenAIMessages([]byte(bad.json)); err == nil || err.Error() != bad.want {
			t.Errorf("%s: error %v, want %s", bad.json, err, bad.want)
		}
	}
}

// A call whose arguments are not valid JSON loads with them kept as
// written, Args null; the other calls of the message load as usual.
func TestParseOpenAIMessagesKeepsMalformedArguments(t *testing.T) {
	conv, err := dataset.ParseOpenAIMessages([]byte(`[
	  {"role": "user", "content": "Weather in Paris and Rome?"},
	  {"role": "assistant", "content": null, "tool_calls": [
	    {"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{\"city\": \"Par"}},
	    {"id": "c2", "type": "function", "function": {"name": "search", "arguments": "{\"city\": \"Rome\"}"}},
	    {"id": "c3", "type": "function", "function": {"name": "now", "arguments": "null"}}]},
	  {"role": "tool", "tool_call_id": "c1", "content": "bad arguments"},
	  {"role": "tool", "tool_call_id": "c2", "content": "sunny"},
	  {"role": "tool", "tool_call_id": "c3", "content": "noon"}]`))
	if err != nil {
		t.Fatalf("Expected messages with one malformed call to load, but got %v", err)
	}
	want := []agentcheck.ToolCall{
		{ID: "c1", Name: "search", InvalidArgs: `{"city": "Par`},
		{ID: "c2", Name: "search", Args: jsonvalue.MustParse(`{"city": "Rome"}`)},
		{ID: "c3", Name: "now", Args: jsonvalue.Object()}, // null is no arguments
	}
	if diff := cmp.Diff(want, conv.ToolCalls(), sameValue); diff != "" {
		t.Errorf("Expected the calls to keep the malformed arguments as written, but they differ (-want +got):\n%s", diff)
	}
	if len(conv) != 5 || conv[2].ToolCallID != "c1" {
		t.Errorf("Expected the result of the malformed call to stay paired with it, but got %v", conv)
	}
}
