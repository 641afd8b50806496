package dataset_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

const (
	sampleA = `{"user_input": [{"type": "human", "content": "Find Chinese restaurants and book one"}, {"type": "ai", "content": "Searching...", "tool_calls": [{"name": "restaurant_search", "args": {"cuisine": "Chinese", "n": 3}}]}, {"type": "tool", "content": "Found Golden Dragon"}, {"type": "ai", "content": "Done!"}], "reference": "Table booked", "reference_tool_calls": [{"name": "restaurant_search", "args": {"cuisine": "Chinese", "n": 3.0}}], "reference_topics": ["restaurants"]}`
	sampleB = `{"user_input": [{"type": "human", "content": "hi"}, {"type": "ai", "content": "hello"}]}`
)

// wantA is sampleA as a Sample.
func wantA() agentcheck.Sample {
	return agentcheck.Sample{
		Conversation: agentcheck.Conversation{
			{Role: agentcheck.Human, Content: "Find Chinese restaurants and book one"},
			{Role: agentcheck.AI, Content: "Searching...", ToolCalls: []agentcheck.ToolCall{call("restaurant_search", `{"cuisine": "Chinese", "n": 3}`)}},
			{Role: agentcheck.Tool, Content: "Found Golden Dragon"},
			{Role: agentcheck.AI, Content: "Done!"},
		},
		Reference:          "Table booked",
		ReferenceToolCalls: []agentcheck.ToolCall{call("restaurant_search", `{"cuisine": "Chinese", "n": 3.0}`)},
		ReferenceTopics:    []string{"restaurants"},
	}
}

func wantB() agentcheck.Sample {
	return agentcheck.Sample{Conversation: agentcheck.Conversation{{Role: agentcheck.Human, Content: "hi"}, {Role: agentcheck.AI, Content: "hello"}}}
}

// sameValue compares Values as identical: the same JSON text, key order
// and number kinds included (Equal would take 1 and 1.0 for the same).
var sameValue = cmp.Comparer(func(a, b jsonvalue.Value) bool { return a.Kind() == b.Kind() && a.String() == b.String() })

func call(name, args string) agentcheck.ToolCall { return agentcheck.MustParseToolCall(name, args) }

// readAll collects ReadSamples' samples and error texts. A reader that
// never ends fails the test instead of hanging it.
func readAll(t *testing.T, data, file string) ([]agentcheck.Sample, []string) {
	t.Helper()
	type result struct {
		samples []agentcheck.Sample
		errs    []string
	}
	done := make(chan result, 1)
	go func() {
		var r result
		for s, err := range dataset.ReadSamples(strings.NewReader(data), file) {
			if err != nil {
				r.errs = append(r.errs, err.Error())
				continue
			}
			r.samples = append(r.samples, s)
		}
		done <- r
	}()
	select {
	case r := <-done:
		return r.samples, r.errs
	case <-time.After(20 * time.Second):
		t.Fatalf("ReadSamples(%s) did not finish", file)
		return nil, nil
	}
}

func TestReadSamplesFormats(t *testing.T) {
	long := `{"user_input": [{"type": "human", "content": "` + strings.Repeat("é", 70000) + `"}]}`
	wantLong := agentcheck.Sample{Conversation: agentcheck.Conversation{{Role: agentcheck.Human, Content: strings.Repeat("é", 70000)}}}
	tests := []struct {
		name, file, data string
		want             []agentcheck.Sample
	}{
		{"single JSON object", "one.json", "\n  " + sampleA + "\n", []agentcheck.Sample{wantA()}},
		{"JSON objects one after another", "two.json", sampleA + "\n" + sampleB, []agentcheck.Sample{wantA(), wantB()}},
		{"JSON array", "data.json", "[\n" + sampleA + ",\n" + sampleB + "\n]\n", []agentcheck.Sample{wantA(), wantB()}},
		{"JSON array, no extension", "data", "  [" + sampleA + "]", []agentcheck.Sample{wantA()}},
		{"empty JSON array", "data.json", "[ ]", nil},
		{"JSON array of a pretty-printed sample", "data.json", "[\n  {\n    \"user_input\": [\n      {\"type\": \"human\", \"content\": \"hi\"},\n      {\"type\": \"ai\", \"content\": \"hello\"}\n    ]\n  }\n]", []agentcheck.Sample{wantB()}},
		{"JSONL with blank lines and CRLF", "data.jsonl", "\r\n" + sampleA + "\r\n\r\n   \r\n" + sampleB + "\r\n", []agentcheck.Sample{wantA(), wantB()}},
		{"JSONL without a final newline", "data.ndjson", sampleB + "\n" + sampleB, []agentcheck.Sample{wantB(), wantB()}},
		{"JSONL line longer than 64 KiB", "data.jsonl", sampleB + "\n" + long + "\n" + sampleA + "\n", []agentcheck.Sample{wantB(), wantLong, wantA()}},
		{"JSONL by content", "data.txt", sampleA + "\n" + sampleB + "\n", []agentcheck.Sample{wantA(), wantB()}},
		// ragas accepts a tool message after an ai message whose tool_calls
		// is an empty list (but not after one without the field).
		{"tool after an empty tool_calls list", "data.jsonl",
			`{"user_input": [{"type": "ai", "content": "", "tool_calls": []}, {"type": "tool", "content": "x"}], "reference_tool_calls": []}`,
			[]agentcheck.Sample{{Conversation: agentcheck.Conversation{{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{}}, {Role: agentcheck.Tool, Content: "x"}}, ReferenceToolCalls: []agentcheck.ToolCall{}}}},
		{"null fields", "data.jsonl",
			`{"user_input": [{"type": "ai", "content": "a", "tool_calls": null}], "reference": null, "reference_tool_calls": null, "reference_topics": null, "extra": {"x": [1]}}`,
			[]agentcheck.Sample{{Conversation: agentcheck.Conversation{{Role: agentcheck.AI, Content: "a"}}}}},
		{"empty file", "data.jsonl", "", nil},
		{"blank file", "data.jsonl", "\n\n  \r\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, errs := readAll(t, tt.data, tt.file)
			if len(errs) > 0 {
				t.Fatalf("errors: %q", errs)
			}
			if diff := cmp.Diff(tt.want, got, sameValue); diff != "" {
				t.Errorf("samples (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReadSamplesErrors: every bad sample is reported with file, line,
// sample index and, inside the sample, message index, role and tool call;
// the good samples around it still load.
func TestReadSamplesErrors(t *testing.T) {
	bad := func(msgs string) string { return `{"user_input": [` + msgs + `]}` }
	tests := []struct {
		name, file, data string
		good             int
		errs             []string
	}{
		{
			"bad args among good samples", "data.jsonl",
			sampleA + "\n\n" + bad(`{"type": "human", "content": "x"}, {"type": "ai", "content": "", "tool_calls": [{"name": "ok", "args": {}}, {"name": "f", "args": []}]}`) + "\n" + sampleB + "\n",
			2,
			[]string{`data.jsonl:3: sample 1: message 1 (ai), tool call 1 "f": "args" must be an object, got array`},
		},
		{
			"syntax error", "data.jsonl",
			sampleB + "\n" + `{"user_input": [{"type": "human", "content": "x"},]}` + "\n" + sampleB,
			2,
			[]string{`data.jsonl:2: sample 1: column 51: unexpected ']', want a value`},
		},
		{
			"syntax error inside a multi-line array element", "data.json",
			"[\n" + sampleB + ",\n{\n  \"user_input\": [\n    {\"type\": \"human\" \"content\": \"x\"}\n  ]\n},\n" + sampleB + "]",
			2,
			[]string{`data.json:5: sample 1: column 22: unexpected '"' in object, want ',' or '}'`},
		},
		{
			"tool message first", "data.jsonl",
			bad(`{"type": "tool", "content": "x"}`),
			0,
			[]string{`data.jsonl:1: sample 0: message 0 (tool): a tool message must follow an ai message with tool calls, but it is the first message`},
		},
		{
			"tool after ai without tool calls", "data.jsonl",
			bad(`{"type": "human", "content": "x"}, {"type": "ai", "content": "y"}, {"type": "tool", "content": "z"}`),
			0,
			[]string{`data.jsonl:1: sample 0: message 2 (tool): a tool message must follow an ai message with tool calls or another tool message, but message 1 is an ai message without tool calls`},
		},
		{
			"tool after human", "data.jsonl",
			bad(`{"type": "human", "content": "x"}, {"type": "tool", "content": "z"}`),
			0,
			[]string{`data.jsonl:1: sample 0: message 1 (tool): a tool message must follow an ai message with tool calls or another tool message, but message 0 is a human message`},
		},
		{
			"unknown type", "data.jsonl",
			bad(`{"type": "user", "content": "x"}`),
			0,
			[]string{`data.jsonl:1: sample 0: message 0: unknown "type" "user" (want "human", "ai" or "tool")`},
		},
		{
			"content not a string", "data.jsonl",
			bad(`{"type": "human", "content": 3}`),
			0,
			[]string{`data.jsonl:1: sample 0: message 0 (human): "content" must be a string, got int`},
		},
		{
			"tool call without name", "data.jsonl",
			bad(`{"type": "ai", "content": "", "tool_calls": [{"args": {}}]}`),
			0,
			[]string{`data.jsonl:1: sample 0: message 0 (ai), tool call 0: "name" must be a string`},
		},
		{
			"bad reference call", "data.jsonl",
			`{"user_input": [], "reference_tool_calls": [{"name": "a", "args": {}}, {"name": "b"}]}`,
			0,
			[]string{`data.jsonl:1: sample 0: reference_tool_calls[1]: "args" is missing`},
		},
		{
			"no user_input", "data.jsonl",
			`{"reference": "x"}` + "\n" + `[1]`,
			0,
			[]string{`data.jsonl:1: sample 0: "user_input" is missing`, `data.jsonl:2: sample 1: a sample must be a JSON object, got array`},
		},
		{
			"unclosed array", "data.json",
			"[\n" + sampleB + ",\n" + sampleB,
			2,
			[]string{`data.json:3: unexpected end of input: the array of samples is not closed with ']'`},
		},
		// The framing around the samples is no sample's: its error names
		// none (there is no sample 2 below), unlike a sample cut short.
		{
			"bytes after the array", "data.json",
			"[\n" + sampleB + ",\n" + sampleB + "\n] x",
			2,
			[]string{`data.json:4: unexpected 'x' after the array of samples`},
		},
		{
			"no comma between samples", "data.json",
			"[\n" + sampleB + "\n" + sampleB + "]",
			1,
			[]string{`data.json:3: unexpected '{' between samples, want ',' or ']'`},
		},
		{
			"a sample cut short", "data.json",
			"[\n" + sampleB + ",\n" + sampleB[:len(sampleB)-1],
			1,
			[]string{`data.json:3: sample 1: unexpected end of input inside the sample that starts on line 3`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, errs := readAll(t, tt.data, tt.file)
			if diff := cmp.Diff(tt.errs, errs); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			if len(got) != tt.good {
				t.Errorf("%d samples loaded, want %d", len(got), tt.good)
			}
		})
	}
}

// TestLoadErrorUnwraps: Record.Sample's errors are *LoadError, naming the
// record's file, line and index, wrapping ParseSample's error; a syntax
// error's line counts from the record's first line.
func TestLoadErrorUnwraps(t *testing.T) {
	_, err := dataset.Record{Line: 1, Text: `{"user_input": [{"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": 1}]}]}`}.Sample()
	var le *dataset.LoadError
	var me *agentcheck.MessageError
	if !errors.As(err, &le) || !errors.As(err, &me) {
		t.Fatalf("error %v (%T) is not a *LoadError wrapping a *MessageError", err, err)
	}
	if le.File != "" || le.Line != 1 || le.Sample != 0 || me.Message != 0 || me.ToolCall != 0 || me.Name != "f" || me.Role != agentcheck.AI {
		t.Errorf("LoadError %+v, MessageError %+v", le, me)
	}
	if !strings.HasPrefix(err.Error(), "<input>:1: sample 0: message 0 (ai), tool call 0 \"f\":") {
		t.Errorf("error text %q", err)
	}
	_, err = dataset.Record{File: "set.jsonl", Line: 10, Index: 4, Text: "{\n\"user_input\": [}"}.Sample()
	var se *jsonvalue.SyntaxError
	if !errors.As(err, &se) || se.Line != 2 || se.Column != 16 || !errors.As(err, &le) || le.Line != 11 {
		t.Errorf("syntax error %v, want line 2 column 16 of the record, line 11 of the file", err)
	}
	if want := "set.jsonl:11: sample 4: column 16: unexpected '}', want a value"; err == nil || err.Error() != want {
		t.Errorf("error text %q, want %q", err, want)
	}
}

func TestLoadSamples(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "set.jsonl")
	data := sampleA + "\n" + `{"user_input": 1}` + "\n" + sampleB + "\n" + `{"user_input": [{"type": "tool", "content": ""}]}` + "\n"
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	samples, err := dataset.LoadSamples(path)
	if diff := cmp.Diff([]agentcheck.Sample{wantA(), wantB()}, samples, sameValue); diff != "" {
		t.Errorf("samples (-want +got):\n%s", diff)
	}
	want := path + `:2: sample 1: "user_input" must be a list of messages, got int` + "\n" +
		path + `:4: sample 3: message 0 (tool): a tool message must follow an ai message with tool calls, but it is the first message`
	if err == nil || err.Error() != want {
		t.Errorf("error:\n%v\nwant:\n%s", err, want)
	}
	if _, err := dataset.LoadSamples(filepath.Join(dir, "missing.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestParseOpenAIMessages(t *testing.T) {
	msgs := `[
	{"role": "system", "content": "be brief"},
	{"role": "user", "content": [{"type": "text", "text": "weather in"}, {"type": "image_url", "image_url": {"url": "x"}}, {"type": "text", "text": "Paris?"}]},
	{"role": "assistant", "content": null, "tool_calls": [
		{"id": "call_1", "type": "function", "function": {"name": "weather", "arguments": "{\"city\": \"Paris\", \"days\": 2.0}"}},
		{"id": "call_2", "type": "function", "function": {"name": "time", "arguments": ""}}]},
	{"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
	{"role": "tool", "tool_call_id": "call_2", "content": "noon"},
	{"role": "assistant", "content": "Sunny at noon."}]`
	want := agentcheck.Conversation{
		{Role: agentcheck.System, Content: "be brief"},
		{Role: agentcheck.Human, Content: "weather in\nParis?"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{
			{ID: "call_1", Name: "weather", Args: jsonvalue.MustParse(`{"city": "Paris", "days": 2.0}`)},
			{ID: "call_2", Name: "time", Args: jsonvalue.Object()},
		}},
		{Role: agentcheck.Tool, Content: "sunny", ToolCallID: "call_1"},
		{Role: agentcheck.Tool, Content: "noon", ToolCallID: "call_2"},
		{Role: agentcheck.AI, Content: "Sunny at noon."},
	}
	for _, doc := range []string{msgs, `{"model": "gpt-4o", "messages": ` + msgs + `, "temperature": 0}`} {
		got, err := dataset.ParseOpenAIMessages([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got, sameValue); diff != "" {
			t.Errorf("conversation (-want +got):\n%s", diff)
		}
		// The int/float distinction survives the arguments string.
		if d, _ := got[2].ToolCalls[0].Args.Get("days"); d.Kind() != jsonvalue.FloatKind {
			t.Errorf("days is %s, want float", d.Kind())
		}
	}
	errTests := []struct{ doc, err string }{
		// Arguments that are a list, or not valid JSON, are no error: see
		// TestParseOpenAIMessagesKeepsMalformedArguments.
		{`[{"role": "assistant", "tool_calls": [{"function": {"arguments": "{}"}}]}]`,
			`message 0 (ai), tool call 0: "function.name" must be a non-empty string`},
		{`[{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": 3}}]}]`,
			`message 0 (ai), tool call 0 "f": "function.arguments" must be a JSON string, got int`},
		{`[{"role": "wizard", "content": "x"}]`, `message 0: unknown role "wizard"`},
		{`[{"role": "user", "content": 1}]`, `message 0 (human): "content" must be a string, a list of parts or null, got int`},
		{`[{"role": "tool", "content": "x"}]`, `message 0 (tool): a tool message must follow an ai message with tool calls, but it is the first message`},
		{`{"model": "x"}`, `want a list of messages or an object with "messages"`},
		{`"x"`, `want a list of messages, got string`},
		{`[`, `line 1, column 2: unexpected end of input, want a value`},
	}
	for _, tt := range errTests {
		_, err := dataset.ParseOpenAIMessages([]byte(tt.doc))
		if err == nil || err.Error() != tt.err {
			t.Errorf("ParseOpenAIMessages(%s):\n got %v\nwant %s", tt.doc, err, tt.err)
		}
	}
	// Some servers send the arguments as an object.
	got, err := dataset.ParseOpenAIMessages([]byte(`[{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": {"b": 1, "a": 2}}}]}]`))
	if err != nil || got[0].ToolCalls[0].Args.String() != `{"b":1,"a":2}` {
		t.Errorf("object arguments: %v, %v", got, err)
	}
	// Arguments that are a list are kept as they are.
	got, err = dataset.ParseOpenAIMessages([]byte(`[{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": "[1]"}}]}]`))
	if err != nil || got[0].ToolCalls[0].Args.String() != `[1]` {
		t.Errorf("list arguments: %v, %v", got, err)
	}
	// IDs that are not strings are no IDs.
	got, err = dataset.ParseOpenAIMessages([]byte(`[{"role": "assistant", "tool_calls": [{"id": 7, "function": {"name": "f", "arguments": "{}"}}, {"id": 8, "function": {"name": "g", "arguments": {}}}]}, {"role": "tool", "tool_call_id": 7, "content": "x"}]`))
	if err != nil || got[0].ToolCalls[0].ID != "" || got[0].ToolCalls[1].ID != "" || got[1].ToolCallID != "" {
		t.Errorf("int IDs: %v, %v", got, err)
	}
}
