package dataset_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// Every reader that parses arguments from a JSON string keeps arguments
// that are not valid JSON in the call's InvalidArgs instead of failing.

func TestParseResponsesItemsKeepsMalformedArguments(t *testing.T) {
	conv, err := dataset.ParseResponsesItems([]byte(`[
	  {"role": "user", "content": "Weather in Paris?"},
	  {"type": "function_call", "call_id": "c1", "name": "get_weather", "arguments": "{\"city\": Paris}"},
	  {"type": "function_call", "call_id": "c2", "name": "get_time", "arguments": "{\"tz\": \"CET\"}"},
	  {"type": "function_call_output", "call_id": "c1", "output": "bad arguments"},
	  {"type": "function_call_output", "call_id": "c2", "output": "noon"},
	  {"type": "mcp_call", "id": "m1", "name": "roll", "server_label": "dice", "arguments": "{", "output": "4"}]`))
	if err != nil {
		t.Fatalf("Expected items with malformed arguments to load, but got %v", err)
	}
	want := []agentcheck.ToolCall{
		{ID: "c1", Name: "get_weather", InvalidArgs: `{"city": Paris}`},
		{ID: "c2", Name: "get_time", Args: jsonvalue.MustParse(`{"tz": "CET"}`)},
		{ID: "m1", Name: "roll", Kind: agentcheck.MCPTool, InvalidArgs: "{"},
	}
	if diff := cmp.Diff(want, conv.ToolCalls(), sameValue); diff != "" {
		t.Errorf("Expected the malformed arguments to be kept as written, but the calls differ (-want +got):\n%s", diff)
	}
	if last := conv[len(conv)-1]; last.Role != agentcheck.Tool || last.ToolCallID != "m1" || last.Content != "4" {
		t.Errorf("Expected the MCP call's result after it, but the last message is %+v", last)
	}
}

func TestParseOTelMessagesKeepsMalformedArguments(t *testing.T) {
	conv, err := dataset.ParseOTelMessages([]byte(`[
	  {"role": "user", "parts": [{"type": "text", "content": "Book in Paris"}]},
	  {"role": "assistant", "parts": [
	    {"type": "tool_call", "id": "a", "name": "find", "arguments": {"city": "Paris"}},
	    {"type": "tool_call", "id": "b", "name": "book", "arguments": "{\"city\": \"Paris\","}]}]`))
	if err != nil {
		t.Fatalf("Expected messages with malformed arguments to load, but got %v", err)
	}
	want := []agentcheck.ToolCall{
		{ID: "a", Name: "find", Args: jsonvalue.MustParse(`{"city": "Paris"}`)},
		{ID: "b", Name: "book", InvalidArgs: `{"city": "Paris",`},
	}
	if diff := cmp.Diff(want, conv.ToolCalls(), sameValue); diff != "" {
		t.Errorf("Expected the malformed arguments to be kept as written, but the calls differ (-want +got):\n%s", diff)
	}
}

// A dataset line in OpenAI's shape whose call has malformed arguments is a
// sample, with the call kept: the metrics score it.
func TestSampleAsKeepsMalformedArguments(t *testing.T) {
	rec := dataset.Record{File: "runs.jsonl", Line: 3, Index: 2, Text: `{"messages": [
	  {"role": "user", "content": "Weather in Paris?"},
	  {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{\"city\": \"Par"}}]}],
	  "reference_tool_calls": [{"name": "search", "args": {"city": "Paris"}}]}`}
	for _, f := range []dataset.Format{dataset.Auto, dataset.OpenAI} {
		s, err := rec.SampleAs(f)
		if err != nil {
			t.Fatalf("Expected the %s sample to load, but got %v", f, err)
		}
		calls := s.Conversation.ToolCalls()
		if len(calls) != 1 || calls[0].Name != "search" || calls[0].InvalidArgs != `{"city": "Par` || calls[0].Args.Kind() != jsonvalue.NullKind {
			t.Errorf("Expected the %s sample's call search with its arguments kept as written, but got %+v", f, calls)
		}
		if len(s.ReferenceToolCalls) != 1 || s.ReferenceToolCalls[0].Args.String() != `{"city":"Paris"}` {
			t.Errorf("Expected the %s sample's reference call, but got %v", f, s.ReferenceToolCalls)
		}
	}
}

// Arguments that are JSON but not an object are kept as they are.
func TestReadersKeepListArguments(t *testing.T) {
	resp, err := dataset.ParseResponsesItems([]byte(`[{"type": "function_call", "call_id": "c1", "name": "f", "arguments": "[1]"}]`))
	if err != nil || resp.ToolCalls()[0].Args.String() != `[1]` {
		t.Errorf("Expected the Responses call f([1]), but got %v, %v", resp, err)
	}
	conv, err := dataset.ParseOTelMessages([]byte(`[{"role": "assistant", "parts": [
	  {"type": "tool_call", "name": "f", "arguments": [1]},
	  {"type": "tool_call", "name": "g", "arguments": "[2]"},
	  {"type": "tool_call", "name": "h", "arguments": 7}]}]`))
	if err != nil || len(conv.ToolCalls()) != 3 || conv.ToolCalls()[0].Args.String() != `[1]` || conv.ToolCalls()[1].Args.String() != `[2]` || conv.ToolCalls()[2].Args.String() != `7` {
		t.Errorf("Expected the OTel calls f([1]), g([2]), h(7), but got %v, %v", conv, err)
	}
}
