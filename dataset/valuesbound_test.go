package dataset_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/internal/samplereuse"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// A Parser bounded in the JSON values a sample may hold
// (samplereuse.BoundValues) reads a sample of as many values as without
// the bound, and gives the bound's error, at the sample's file and line,
// for one of more: a ragas sample, read as ragas or auto (which then
// tries no other format: the reading stopped at the bound), and a
// provider's messages, read as their format or auto.
func TestParserBoundsValues(t *testing.T) {
	zeros := func(n int) string { return strings.TrimSuffix(strings.Repeat("0,", n), ",") }
	ragas := func(n int) string {
		return `{"user_input": [{"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": {"x": [` + zeros(n) + `]}}]}]}`
	}
	openai := func(n int) string {
		return `{"messages": [{"role": "assistant", "content": "", "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}], "extra": [` + zeros(n) + `]}`
	}
	bound := samplereuse.BoundValues.(func(*dataset.Parser, int, string))
	for _, tc := range []struct {
		format dataset.Format
		text   func(int) string
		fixed  int    // the values the sample holds besides the list's
		at     string // where the error is: the call, whose arguments string's {} is the value past the bound
	}{
		{dataset.Ragas, ragas, 10, ""},
		{dataset.Auto, ragas, 10, ""},
		{dataset.OpenAI, openai, 14, `openai messages: message 0 (ai), tool call 0 "f": `},
		{dataset.Auto, openai, 14, `openai messages: message 0 (ai), tool call 0 "f": `},
	} {
		const max = 100
		for _, n := range []int{max - tc.fixed, max - tc.fixed + 1} {
			p := dataset.Parser{Format: tc.format}
			bound(&p, max, "--max-sample-values")
			free := dataset.Parser{Format: tc.format}
			rec := dataset.Record{File: "data.jsonl", Line: 3, Index: 2, Text: tc.text(n)}
			want, wantErr := free.Sample(rec)
			if wantErr != nil {
				t.Fatalf("%s, %d values: without the bound: %v", tc.format, n+tc.fixed, wantErr)
			}
			s, err := p.Sample(rec)
			if n+tc.fixed <= max {
				if err != nil || len(s.Conversation) != len(want.Conversation) || len(s.Conversation[0].ToolCalls) != 1 {
					t.Errorf("%s, %d values, bound %d: %v, %+v; without the bound %+v", tc.format, n+tc.fixed, max, err, s, want)
				}
				continue
			}
			msg := fmt.Sprintf("data.jsonl:3: sample 2: %sthe sample holds more than %d JSON values, the most one sample may hold (--max-sample-values)", tc.at, max)
			var le *dataset.LoadError
			var over *jsonvalue.LimitError
			if err == nil || err.Error() != msg || !errors.As(err, &le) || !errors.As(err, &over) {
				t.Errorf("%s, %d values, bound %d: error %v, want %s", tc.format, n+tc.fixed, max, err, msg)
			}
		}
	}
}
