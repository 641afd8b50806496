package main

import (
	"strings"
	"testing"
)

// TestEvalScoresMalformedArguments: a sample in OpenAI's shape whose call
// has arguments that are not valid JSON is scored, the call counting as
// wrong; a line that is not JSON at all, or a call without a name, still
// gets its own error line.
func TestEvalScoresMalformedArguments(t *testing.T) {
	const (
		user = `{"role": "user", "content": "Find a table in Paris and book it"}`
		ref  = `"reference_tool_calls": [{"name": "search", "args": {"city": "Paris"}}, {"name": "book", "args": {"table": 7}}]`
	)
	call := func(id, name, args string) string {
		return `{"id": "` + id + `", "type": "function", "function": {"name": "` + name + `", "arguments": ` + args + `}}`
	}
	lines := []string{
		`{"messages": [` + user + `, {"role": "assistant", "tool_calls": [` + call("c1", "search", `"{\"city\": \"Par"`) + `, ` + call("c2", "book", `"{\"table\": 7}"`) + `]}], ` + ref + `}`,
		`{"messages": [` + user + `, {"role": "assistant", "tool_calls": [` + call("c1", "search", `"{\"city\": \"Paris\"}"`) + `, ` + call("c2", "book", `"{\"table\": 7}"`) + `]}], ` + ref + `}`,
		`{"messages": [` + user + `, {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{\"city\": \"Par`,
		`{"messages": [` + user + `, {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"arguments": "{"}}]}], ` + ref + `}`,
	}
	path := writeFile(t, "runs.jsonl", strings.Join(lines, "\n")+"\n")
	for _, format := range []string{"auto", "openai"} {
		out, stderr, code := runAgentcheck(t, "", "eval", "--format", "jsonl", "--input-format", format, path)
		out = onlyScores(t, out)
		got := strings.Split(strings.TrimSpace(out), "\n")
		if code != 1 || len(got) != 4 || !strings.Contains(stderr, "2 of 4 samples could not be scored") {
			t.Fatalf("--input-format %s: Expected 4 lines, exit 1 and 2 samples not scored, but got exit %d\n%s%s", format, code, out, stderr)
		}
		// The malformed search earns nothing; book is right.
		if want := `{"tool_call_accuracy":0.5,"tool_call_f1":0.5}`; got[0] != want {
			t.Errorf("--input-format %s: Expected the malformed sample to score %s, but got %s", format, want, got[0])
		}
		if want := `{"tool_call_accuracy":1.0,"tool_call_f1":1.0}`; got[1] != want {
			t.Errorf("--input-format %s: Expected the good sample to score %s, but got %s", format, want, got[1])
		}
		if !strings.Contains(got[2], "runs.jsonl:3: sample 2: column ") || !strings.Contains(got[2], "unterminated string") {
			t.Errorf("--input-format %s: Expected the broken line to be an error on line 3, but got %s", format, got[2])
		}
		if !strings.Contains(got[3], `runs.jsonl:4: sample 3: `) || !strings.Contains(got[3], `message 1 (ai), tool call 0: \"function.name\" must be a non-empty string`) {
			t.Errorf("--input-format %s: Expected the nameless call to be an error on line 4, but got %s", format, got[3])
		}
	}
}
