package dataset_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/internal/samplereuse"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// jsonValues counts the JSON values of a text as the bound counts them,
// every object, list and scalar, not the keys: encoding/json's reading,
// not jsonvalue's.
func jsonValues(t *testing.T, text string) int {
	t.Helper()
	var x any
	if err := json.Unmarshal([]byte(text), &x); err != nil {
		t.Fatalf("%.80s: %v", text, err)
	}
	var count func(any) int
	count = func(x any) int {
		n := 1
		switch x := x.(type) {
		case []any:
			for _, e := range x {
				n += count(e)
			}
		case map[string]any:
			for _, e := range x {
				n += count(e)
			}
		}
		return n
	}
	return count(x)
}

// quote is text as a JSON string.
func quote(text string) string {
	b, _ := json.Marshal(text)
	return string(b)
}

// argsShape is a sample whose calls write their arguments as JSON
// strings, args[i] the i-th call's: text makes the sample, and at names
// where a call is in the error of a sample over the bound.
type argsShape struct {
	name   string
	format dataset.Format
	text   func(args []string) string
	at     func(call int) string
}

var argsShapes = []argsShape{
	{"openai", dataset.OpenAI, func(a []string) string {
		return `{"id": "s", "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": null, "tool_calls": [` +
			`{"id": "c0", "type": "function", "function": {"name": "f0", "arguments": ` + quote(a[0]) + `}}, ` +
			`{"id": "c1", "type": "function", "function": {"name": "f1", "arguments": ` + quote(a[1]) + `}}]}, ` +
			`{"role": "tool", "tool_call_id": "c0", "content": "ok"}, {"role": "tool", "tool_call_id": "c1", "content": "ok"}, ` +
			`{"role": "assistant", "content": "", "tool_calls": [{"id": "c2", "type": "function", "function": {"name": "f2", "arguments": ` + quote(a[2]) + `}}]}], ` +
			`"reference_tool_calls": [{"name": "f0", "args": {"x": [0]}}]}`
	}, func(call int) string {
		return fmt.Sprintf(`openai messages: message %d (ai), tool call %d "f%d": `, []int{1, 1, 4}[call], []int{0, 1, 0}[call], call)
	}},
	{"responses", dataset.Responses, func(a []string) string {
		return `{"messages": [{"role": "user", "content": [{"type": "input_text", "text": "hi"}]}, ` +
			`{"type": "function_call", "call_id": "c0", "name": "f0", "arguments": ` + quote(a[0]) + `}, ` +
			`{"type": "function_call", "call_id": "c1", "name": "f1", "arguments": ` + quote(a[1]) + `}, ` +
			`{"type": "function_call_output", "call_id": "c0", "output": "ok"}, {"type": "function_call_output", "call_id": "c1", "output": "ok"}, ` +
			`{"type": "function_call", "call_id": "c2", "name": "f2", "arguments": ` + quote(a[2]) + `}], ` +
			`"reference_tool_calls": [{"name": "f0", "args": {"x": [0]}}], "id": 7}`
	}, func(call int) string {
		return fmt.Sprintf(`responses messages: message %d (ai), tool call 0 "f%d": `, []int{1, 2, 5}[call], call)
	}},
}

// argsSets are the calls' arguments: objects, a list, a scalar, null and
// none (no arguments, null's one value counted), and text that is not
// JSON (no values, kept as written), long enough to meet the bound before
// its fault.
var argsSets = [][]string{
	{`{"x": [0, 0, 0], "y": {"z": "s"}}`, `[1, 2.5, true]`, `{"a": {"b": [null, "\u00e9"]}}`},
	{``, `null`, `{"q": "x"}`},
	{`{"x": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, oops]}`, `3`, `"Paris"`},
	{`{"x": [0, 0`, `{}`, `[[[]]]`},
}

// Under a Parser's bound, the values inside the calls' arguments strings
// count with the sample's own: a sample of OpenAI messages or Responses
// items (read as its format and as auto) whose text and arguments hold N
// values together reads under a bound of N as without a bound, and under
// N-1 it is the bound's error at its file and line, naming the message
// and the call whose arguments went past it; so is a bound the sample's
// own text meets exactly (the first call holding values goes past it),
// and under that the error names the sample alone, its reading stopped.
// The public readers and SampleAs stay unbounded.
func TestParserBoundCountsArguments(t *testing.T) {
	bound := samplereuse.BoundValues.(func(*dataset.Parser, int, string))
	for _, sh := range argsShapes {
		for _, args := range argsSets {
			text := sh.text(args)
			own := jsonValues(t, text)
			total := own
			var counted []int // the calls whose arguments hold values
			for i, a := range args {
				var x any
				if strings.TrimSpace(a) == "" || json.Unmarshal([]byte(a), &x) != nil {
					continue
				}
				total += jsonValues(t, a)
				counted = append(counted, i)
			}
			rec := dataset.Record{File: "data.jsonl", Line: 3, Index: 2, Text: text}
			want, err := rec.SampleAs(sh.format)
			if err != nil {
				t.Fatalf("%s %q: without the bound: %v", sh.name, args, err)
			}
			wantText := sampleText(want)
			over := func(at string, n int) string {
				return fmt.Sprintf("data.jsonl:3: sample 2: %sthe sample holds more than %d JSON values, the most one sample may hold (--max-sample-values)", at, n)
			}
			for _, f := range []dataset.Format{sh.format, dataset.Auto} {
				for _, tc := range []struct {
					max     int
					wantErr string
				}{
					{total + 1, ""},
					{total, ""},
					{total - 1, over(sh.at(counted[len(counted)-1]), total-1)},
					{own, over(sh.at(counted[0]), own)},
					{own - 1, over("", own-1)},
				} {
					p := dataset.Parser{Format: f}
					bound(&p, tc.max, "--max-sample-values")
					s, err := p.Sample(rec)
					if tc.wantErr == "" {
						if err != nil || sampleText(s) != wantText {
							t.Errorf("%s as %s %q, %d values, bound %d: %v\n%s\nwithout the bound\n%s", sh.name, f, args, total, tc.max, err, sampleText(s), wantText)
						}
						continue
					}
					var le *dataset.LoadError
					var limit *jsonvalue.LimitError
					if err == nil || err.Error() != tc.wantErr || !errors.As(err, &le) || !errors.As(err, &limit) || limit.Max != tc.max {
						t.Errorf("%s as %s %q, %d values, bound %d: error %v\nwant %s", sh.name, f, args, total, tc.max, err, tc.wantErr)
					}
				}
			}
		}
	}
}

// sampleText is what a sample read holds, written out: its id, its
// messages with their calls (arguments as JSON, or as written when not
// JSON) and its references.
func sampleText(s agentcheck.Sample) string {
	var b strings.Builder
	fmt.Fprintf(&b, "id %q\n", s.ID)
	for _, m := range s.Conversation {
		fmt.Fprintf(&b, "%s %q %q error %v\n", m.Role, m.Content, m.ToolCallID, m.IsError)
		for _, tc := range m.ToolCalls {
			fmt.Fprintf(&b, "  call %q %q %s %s invalid %q\n", tc.ID, tc.Name, tc.Kind, tc.Args, tc.InvalidArgs)
		}
	}
	for _, tc := range s.ReferenceToolCalls {
		fmt.Fprintf(&b, "reference %q %s\n", tc.Name, tc.Args)
	}
	return b.String()
}
