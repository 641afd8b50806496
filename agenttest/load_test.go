package agenttest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	openai "github.com/sashabaranov/go-openai"
)

const (
	sampleA = `{"user_input": [{"type": "human", "content": "Find Chinese restaurants and book one"}, {"type": "ai", "content": "Searching...", "tool_calls": [{"name": "restaurant_search", "args": {"cuisine": "Chinese", "n": 3}}]}, {"type": "tool", "content": "Found Golden Dragon"}, {"type": "ai", "content": "Done!"}], "reference": "Table booked", "reference_tool_calls": [{"name": "restaurant_search", "args": {"cuisine": "Chinese", "n": 3.0}}], "reference_topics": ["restaurants"]}`
	sampleB = `{"user_input": [{"type": "human", "content": "hi"}, {"type": "ai", "content": "hello"}]}`
)

// wantA is sampleA as a Sample.
func wantA() Sample {
	return Sample{
		Conversation: Conversation{
			{Role: Human, Content: "Find Chinese restaurants and book one"},
			{Role: AI, Content: "Searching...", ToolCalls: []ToolCall{call("restaurant_search", `{"cuisine": "Chinese", "n": 3}`)}},
			{Role: Tool, Content: "Found Golden Dragon"},
			{Role: AI, Content: "Done!"},
		},
		Reference:          "Table booked",
		ReferenceToolCalls: []ToolCall{call("restaurant_search", `{"cuisine": "Chinese", "n": 3.0}`)},
		ReferenceTopics:    []string{"restaurants"},
	}
}

func wantB() Sample {
	return Sample{Conversation: Conversation{{Role: Human, Content: "hi"}, {Role: AI, Content: "hello"}}}
}

var equalValues = cmp.Comparer(Equal)

// readAll collects ReadSamples' samples and error texts. A reader that
// never ends fails the test instead of hanging it.
func readAll(t *testing.T, data, file string) ([]Sample, []string) {
	t.Helper()
	type result struct {
		samples []Sample
		errs    []string
	}
	done := make(chan result, 1)
	go func() {
		var r result
		for s, err := range ReadSamples(strings.NewReader(data), file) {
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
	wantLong := Sample{Conversation: Conversation{{Role: Human, Content: strings.Repeat("é", 70000)}}}
	tests := []struct {
		name, file, data string
		want             []Sample
	}{
		{"single JSON object", "one.json", "\n  " + sampleA + "\n", []Sample{wantA()}},
		{"JSON objects one after another", "two.json", sampleA + "\n" + sampleB, []Sample{wantA(), wantB()}},
		{"JSON array", "data.json", "[\n" + sampleA + ",\n" + sampleB + "\n]\n", []Sample{wantA(), wantB()}},
		{"JSON array, no extension", "data", "  [" + sampleA + "]", []Sample{wantA()}},
		{"empty JSON array", "data.json", "[ ]", nil},
		{"JSON array of a pretty-printed sample", "data.json", "[\n  {\n    \"user_input\": [\n      {\"type\": \"human\", \"content\": \"hi\"},\n      {\"type\": \"ai\", \"content\": \"hello\"}\n    ]\n  }\n]", []Sample{wantB()}},
		{"JSONL with blank lines and CRLF", "data.jsonl", "\r\n" + sampleA + "\r\n\r\n   \r\n" + sampleB + "\r\n", []Sample{wantA(), wantB()}},
		{"JSONL without a final newline", "data.ndjson", sampleB + "\n" + sampleB, []Sample{wantB(), wantB()}},
		{"JSONL line longer than 64 KiB", "data.jsonl", sampleB + "\n" + long + "\n" + sampleA + "\n", []Sample{wantB(), wantLong, wantA()}},
		{"JSONL by content", "data.txt", sampleA + "\n" + sampleB + "\n", []Sample{wantA(), wantB()}},
		// ragas accepts a tool message after an ai message whose tool_calls
		// is an empty list (but not after one without the field).
		{"tool after an empty tool_calls list", "data.jsonl",
			`{"user_input": [{"type": "ai", "content": "", "tool_calls": []}, {"type": "tool", "content": "x"}], "reference_tool_calls": []}`,
			[]Sample{{Conversation: Conversation{{Role: AI, ToolCalls: []ToolCall{}}, {Role: Tool, Content: "x"}}, ReferenceToolCalls: []ToolCall{}}}},
		{"null fields", "data.jsonl",
			`{"user_input": [{"type": "ai", "content": "a", "tool_calls": null}], "reference": null, "reference_tool_calls": null, "reference_topics": null, "extra": {"x": [1]}}`,
			[]Sample{{Conversation: Conversation{{Role: AI, Content: "a"}}}}},
		{"empty file", "data.jsonl", "", nil},
		{"blank file", "data.jsonl", "\n\n  \r\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, errs := readAll(t, tt.data, tt.file)
			if len(errs) > 0 {
				t.Fatalf("errors: %q", errs)
			}
			if diff := cmp.Diff(tt.want, got, equalValues); diff != "" {
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
			[]string{`data.jsonl:2: sample 1: line 1, column 51: unexpected ']', want a value`},
		},
		{
			"syntax error inside a multi-line array element", "data.json",
			"[\n" + sampleB + ",\n{\n  \"user_input\": [\n    {\"type\": \"human\" \"content\": \"x\"}\n  ]\n},\n" + sampleB + "]",
			2,
			[]string{`data.json:5: sample 1: line 3, column 22: unexpected '"' in object, want ',' or '}'`},
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
			[]string{`data.json:3: sample 2: unexpected end of input: the array of samples is not closed with ']'`},
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

func TestLoadErrorUnwraps(t *testing.T) {
	_, err := ParseSample([]byte(`{"user_input": [{"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": 1}]}]}`))
	var le *LoadError
	var me *MessageError
	if !errors.As(err, &le) || !errors.As(err, &me) {
		t.Fatalf("error %v (%T) is not a *LoadError wrapping a *MessageError", err, err)
	}
	if le.File != "" || le.Line != 1 || le.Sample != 0 || me.Message != 0 || me.ToolCall != 0 || me.Name != "f" || me.Role != AI {
		t.Errorf("LoadError %+v, MessageError %+v", le, me)
	}
	if !strings.HasPrefix(err.Error(), "<input>:1: sample 0: message 0 (ai), tool call 0 \"f\":") {
		t.Errorf("error text %q", err)
	}
	_, err = ParseSample([]byte("{\n\"user_input\": [}"))
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 2 || se.Column != 16 {
		t.Errorf("syntax error %v, want line 2 column 16", err)
	}
}

func TestLoadSamples(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "set.jsonl")
	data := sampleA + "\n" + `{"user_input": 1}` + "\n" + sampleB + "\n" + `{"user_input": [{"type": "tool", "content": ""}]}` + "\n"
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	samples, err := LoadSamples(path)
	if diff := cmp.Diff([]Sample{wantA(), wantB()}, samples, equalValues); diff != "" {
		t.Errorf("samples (-want +got):\n%s", diff)
	}
	want := path + `:2: sample 1: "user_input" must be a list of messages, got int` + "\n" +
		path + `:4: sample 3: message 0 (tool): a tool message must follow an ai message with tool calls, but it is the first message`
	if err == nil || err.Error() != want {
		t.Errorf("error:\n%v\nwant:\n%s", err, want)
	}
	if _, err := LoadSamples(filepath.Join(dir, "missing.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestConversationValidate covers ragas's rule for tool messages.
func TestConversationValidate(t *testing.T) {
	tc := []ToolCall{call("f", `{}`)}
	tests := []struct {
		name string
		conv Conversation
		err  string
	}{
		{"tool after ai with calls", Conversation{{Role: Human}, {Role: AI, ToolCalls: tc}, {Role: Tool}}, ""},
		{"tool after tool", Conversation{{Role: AI, ToolCalls: tc}, {Role: Tool}, {Role: Tool}}, ""},
		{"tool after ai with an empty list", Conversation{{Role: AI, ToolCalls: []ToolCall{}}, {Role: Tool}}, ""},
		{"system is kept", Conversation{{Role: System}, {Role: Human}}, ""},
		{"tool first", Conversation{{Role: Tool}}, "message 0 (tool): a tool message must follow an ai message with tool calls, but it is the first message"},
		{"tool after ai without calls", Conversation{{Role: AI}, {Role: Tool}}, "message 1 (tool): a tool message must follow an ai message with tool calls or another tool message, but message 0 is an ai message without tool calls"},
		{"calls on a human message", Conversation{{Role: Human, ToolCalls: tc}}, "message 0 (human): only ai messages make tool calls"},
		{"nameless call", Conversation{{Role: AI, ToolCalls: []ToolCall{{Args: ObjectOf()}}}}, "message 0 (ai), tool call 0: tool call has no name"},
		{"array args", Conversation{{Role: AI, ToolCalls: []ToolCall{{Name: "f", Args: ArrayOf()}}}}, `message 0 (ai), tool call 0 "f": arguments must be an object, got array`},
		{"unknown role", Conversation{{Role: "robot"}}, `message 0 (robot): unknown role "robot" (want human, ai, tool or system)`},
	}
	for _, tt := range tests {
		err := tt.conv.Validate()
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.err {
			t.Errorf("%s: error %q, want %q", tt.name, got, tt.err)
		}
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
	want := Conversation{
		{Role: System, Content: "be brief"},
		{Role: Human, Content: "weather in\nParis?"},
		{Role: AI, ToolCalls: []ToolCall{
			{ID: "call_1", Name: "weather", Args: MustParseValue(`{"city": "Paris", "days": 2.0}`)},
			{ID: "call_2", Name: "time", Args: ObjectOf()},
		}},
		{Role: Tool, Content: "sunny", ToolCallID: "call_1"},
		{Role: Tool, Content: "noon", ToolCallID: "call_2"},
		{Role: AI, Content: "Sunny at noon."},
	}
	for _, doc := range []string{msgs, `{"model": "gpt-4o", "messages": ` + msgs + `, "temperature": 0}`} {
		got, err := ParseOpenAIMessages([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got, equalValues); diff != "" {
			t.Errorf("conversation (-want +got):\n%s", diff)
		}
		// The int/float distinction survives the arguments string.
		if d, _ := got[2].ToolCalls[0].Args.Get("days"); d.Kind() != Float {
			t.Errorf("days is %s, want float", d.Kind())
		}
	}
	errTests := []struct{ doc, err string }{
		{`[{"role": "user", "content": "x"}, {"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": "ok", "arguments": "{}"}}, {"id": "b", "function": {"name": "weather", "arguments": "{\"city\": Paris}"}}]}]`,
			`message 1 (ai), tool call 1 "weather": arguments "{\"city\": Paris}" are not valid JSON: line 1, column 10: unexpected 'P', want a value`},
		{`[{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": "[1]"}}]}]`,
			`message 0 (ai), tool call 0 "f": arguments must be a JSON object, got array`},
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
		_, err := ParseOpenAIMessages([]byte(tt.doc))
		if err == nil || err.Error() != tt.err {
			t.Errorf("ParseOpenAIMessages(%s):\n got %v\nwant %s", tt.doc, err, tt.err)
		}
	}
	// Some servers send the arguments as an object.
	got, err := ParseOpenAIMessages([]byte(`[{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": {"b": 1, "a": 2}}}]}]`))
	if err != nil || got[0].ToolCalls[0].Args.String() != "{'b': 1, 'a': 2}" {
		t.Errorf("object arguments: %v, %v", got, err)
	}
}

func TestFromOpenAI(t *testing.T) {
	msgs := []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleDeveloper, Content: "rules"},
		{Role: openai.ChatMessageRoleUser, MultiContent: []openai.ChatMessagePart{
			{Type: openai.ChatMessagePartTypeText, Text: "look"},
			{Type: openai.ChatMessagePartTypeImageURL, ImageURL: &openai.ChatMessageImageURL{URL: "x"}},
			{Type: openai.ChatMessagePartTypeText, Text: "here"},
		}},
		{Role: openai.ChatMessageRoleAssistant, ToolCalls: []openai.ToolCall{
			{ID: "c1", Type: openai.ToolTypeFunction, Function: openai.FunctionCall{Name: "search", Arguments: `{"q": "go", "n": 10, "w": 1.0}`}},
		}},
		{Role: openai.ChatMessageRoleTool, ToolCallID: "c1", Content: "found"},
		{Role: openai.ChatMessageRoleAssistant, Content: "Here."},
	}
	got, err := FromOpenAI(msgs)
	if err != nil {
		t.Fatal(err)
	}
	want := Conversation{
		{Role: System, Content: "rules"},
		{Role: Human, Content: "look\nhere"},
		{Role: AI, ToolCalls: []ToolCall{{ID: "c1", Name: "search", Args: MustParseValue(`{"q": "go", "n": 10, "w": 1.0}`)}}},
		{Role: Tool, Content: "found", ToolCallID: "c1"},
		{Role: AI, Content: "Here."},
	}
	if diff := cmp.Diff(want, got, equalValues); diff != "" {
		t.Errorf("conversation (-want +got):\n%s", diff)
	}
	errTests := []struct {
		msgs []openai.ChatCompletionMessage
		err  string
	}{
		{[]openai.ChatCompletionMessage{{Role: "user"}, {Role: "assistant", ToolCalls: []openai.ToolCall{{Function: openai.FunctionCall{Name: "f", Arguments: "{"}}}}},
			`message 1 (ai), tool call 0 "f": arguments "{" are not valid JSON: line 1, column 2: unexpected end of input, want an object key`},
		{[]openai.ChatCompletionMessage{{Role: "assistant", ToolCalls: []openai.ToolCall{{Function: openai.FunctionCall{Arguments: "{}"}}}}},
			`message 0 (ai), tool call 0: tool call has no function name`},
		{[]openai.ChatCompletionMessage{{Role: "user", ToolCalls: []openai.ToolCall{{Function: openai.FunctionCall{Name: "f"}}}}},
			`message 0 (human): only assistant messages make tool calls`},
		{[]openai.ChatCompletionMessage{{Role: "robot"}}, `message 0: unknown role "robot"`},
		{[]openai.ChatCompletionMessage{{Role: "tool", Content: "x"}}, `message 0 (tool): a tool message must follow an ai message with tool calls, but it is the first message`},
	}
	for _, tt := range errTests {
		_, err := FromOpenAI(tt.msgs)
		if err == nil || err.Error() != tt.err {
			t.Errorf("FromOpenAI:\n got %v\nwant %s", err, tt.err)
		}
	}
}
