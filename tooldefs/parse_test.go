package tooldefs_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/tooldefs"
	openai "github.com/sashabaranov/go-openai"
)

const searchSchema = `{"type":"object","properties":{"q":{"type":"string"},"limit":{"type":"integer"}},"required":["q"]}`

// checkSearch asserts that s defines "search" with searchSchema: a good call
// fits and a bad one breaks it where expected.
func checkSearch(t *testing.T, s *tooldefs.Set) {
	t.Helper()
	good := agentcheck.MustParseToolCall("search", `{"q":"pho","limit":3}`)
	bad := agentcheck.MustParseToolCall("search", `{"limit":"3"}`)
	got := strs(s.Check([]agentcheck.ToolCall{good, bad}))
	want := []string{"[1] search: required: missing property 'q'", "[1] search: /limit: type: got string, want integer"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestParseFormats(t *testing.T) {
	tests := []struct {
		name, json string
		names      []string
		desc       string
		strict     bool
	}{
		{"OpenAI chat", `[{"type":"function","function":{"name":"search","description":"Find places","parameters":` + searchSchema + `,"strict":true}}]`, []string{"search"}, "Find places", true},
		{"OpenAI chat, request body", `{"model":"gpt-4o","messages":[],"tools":[{"type":"function","function":{"name":"search","parameters":` + searchSchema + `}},{"type":"function","function":{"name":"now"}}]}`, []string{"search", "now"}, "", false},
		{"OpenAI Responses", `[{"type":"function","name":"search","description":"Find places","parameters":` + searchSchema + `,"strict":true},{"type":"web_search_preview"}]`, []string{"search", "web_search_preview"}, "Find places", true},
		{"MCP tools/list result", `{"tools":[{"name":"search","description":"Find places","inputSchema":` + searchSchema + `}],"nextCursor":"x"}`, []string{"search"}, "Find places", false},
		{"MCP JSON-RPC response", `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"search","inputSchema":` + searchSchema + `}]}}`, []string{"search"}, "", false},
		{"MCP bare list", `[{"name":"search","title":"Search","inputSchema":` + searchSchema + `,"annotations":{"readOnlyHint":true}}]`, []string{"search"}, "", false},
		{"Anthropic", `[{"name":"search","description":"Find places","input_schema":` + searchSchema + `},{"type":"web_search_20250305","name":"web_search","max_uses":3}]`, []string{"search", "web_search"}, "Find places", false},
		{"Anthropic request body", `{"model":"claude","max_tokens":10,"tools":[{"type":"custom","name":"search","input_schema":` + searchSchema + `}]}`, []string{"search"}, "", false},
		{"a single tool", `{"name":"search","input_schema":` + searchSchema + `}`, []string{"search"}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := tooldefs.Parse([]byte(tt.json))
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(s.Names(), ","); got != strings.Join(tt.names, ",") {
				t.Errorf("Names() = %s, want %s", got, strings.Join(tt.names, ","))
			}
			tool, ok := s.Lookup("search")
			if !ok || tool.Description != tt.desc || tool.Strict != tt.strict {
				t.Errorf("Lookup(search) = %+v, %v; want description %q, strict %v", tool, ok, tt.desc, tt.strict)
			}
			checkSearch(t, s)
			for _, name := range tt.names[1:] {
				// A tool without parameters, or hosted, takes any arguments.
				if vs := s.Check([]agentcheck.ToolCall{agentcheck.MustParseToolCall(name, `{"anything":[1]}`)}); len(vs) != 0 {
					t.Errorf("%s: got %q, want no violations", name, strs(vs))
				}
			}
		})
	}
}

func TestDefine(t *testing.T) {
	s, err := tooldefs.New(tooldefs.Define("search", searchSchema), tooldefs.Define("ping", ""))
	if err != nil {
		t.Fatal(err)
	}
	checkSearch(t, s)
	if got := strings.Join(s.Names(), ","); got != "search,ping" {
		t.Errorf("Names() = %s", got)
	}
	tools := s.Tools()
	tools[0].Name = "changed"
	if _, ok := s.Lookup("search"); !ok || s.Names()[0] != "search" {
		t.Error("Tools() must return a copy")
	}
}

func TestFromValue(t *testing.T) {
	tools := []openai.Tool{{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
		Name: "search", Description: "Find places", Parameters: json.RawMessage(searchSchema),
	}}}
	s, err := tooldefs.FromValue(tools)
	if err != nil {
		t.Fatal(err)
	}
	checkSearch(t, s)
	mcp := map[string]any{"tools": []map[string]any{{"name": "search", "inputSchema": json.RawMessage(searchSchema)}}}
	s, err = tooldefs.FromValue(mcp)
	if err != nil {
		t.Fatal(err)
	}
	checkSearch(t, s)
	if _, err := tooldefs.FromValue(func() {}); err == nil || !strings.Contains(err.Error(), "func()") {
		t.Errorf("FromValue(func) error = %v, want one naming the type", err)
	}
}

func TestBadDefinitions(t *testing.T) {
	tests := []struct {
		name, json string
		index      int    // -1: not a DefinitionError
		tool       string // the name the error gives
		field      string
		want       string // the whole message
	}{
		{"invalid type", `[{"name":"ok","input_schema":{}},{"name":"search","input_schema":{"properties":{"limit":{"type":"int"}}}}]`, 1, "search", "input_schema",
			`tooldefs: tool 1 "search": input_schema: not a valid JSON Schema: at /properties/limit/type: anyOf: fits none of the 2 alternatives: (0) enum: value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string'; (1) type: got string, want array`},
		{"keyword of the wrong type", `[{"type":"function","function":{"name":"search","parameters":{"required":"q","minimum":"1"}}}]`, 0, "search", "function.parameters",
			`tooldefs: tool 0 "search": function.parameters: not a valid JSON Schema: at /minimum: type: got string, want number; at /required: type: got string, want array`},
		{"bad regex", `[{"name":"s","inputSchema":{"pattern":"("}}]`, 0, "s", "inputSchema",
			"tooldefs: tool 0 \"s\": inputSchema: not a valid JSON Schema: at /pattern: format: '(' is not valid regex: error parsing regexp: missing closing ): `(`"},
		{"remote $ref", `[{"name":"s","parameters":{"$ref":"https://example.com/s.json"}}]`, 0, "s", "parameters",
			`tooldefs: tool 0 "s": parameters: failing loading "https://example.com/s.json": $ref to https://example.com/s.json: a tool's schema must be self-contained (only local refs such as #/$defs/x)`},
		{"dangling $ref", `[{"name":"s","parameters":{"$ref":"#/$defs/nope"}}]`, 0, "s", "parameters",
			`tooldefs: tool 0 "s": parameters: json-pointer in "#/$defs/nope" not found`},
		{"schema not an object", `[{"name":"s","parameters":[1]}]`, 0, "s", "parameters",
			`tooldefs: tool 0 "s": parameters: a schema must be a JSON object or boolean, got [1]`},
		{"duplicate name", `[{"name":"s"},{"name":"t"},{"name":"s"}]`, 2, "s", "",
			`tooldefs: tool 2 "s": tool 0 has the same name`},
		{"name not a string", `[{"name":5}]`, 0, "", "",
			`tooldefs: tool 0: "name" must be a string, got number`},
		{"strict not a boolean", `[{"type":"function","function":{"name":"s","strict":"yes"}}]`, 0, "", "function",
			`tooldefs: tool 0: function: "strict" must be a boolean, got string`},
		{"no name", `[{"name":"s"},{"description":"x","input_schema":{}}]`, 1, "", "",
			`tooldefs: tool 1: no "name" (and no "function")`},
		{"chat tool without name", `[{"type":"function","function":{"parameters":{}}}]`, 0, "", "function",
			`tooldefs: tool 0: function: no "name"`},
		{"two schemas", `[{"name":"s","parameters":{},"input_schema":{}}]`, 0, "s", "",
			`tooldefs: tool 0 "s": both "parameters" and "input_schema" give a schema; give one`},
		{"not an object", `["search"]`, 0, "", "",
			`tooldefs: tool 0: a tool must be a JSON object, got "search"`},
		{"tools not a list", `{"tools":{"name":"s"}}`, -1, "", "",
			`tooldefs: "tools" must be a list, got {"name":"s"}`},
		{"not JSON", `[{"name":`, -1, "", "",
			`tooldefs: tool list: unexpected end of JSON input`},
		{"empty", ` `, -1, "", "",
			`tooldefs: no tool definitions: the input is empty`},
		{"a number", `42`, -1, "", "",
			`tooldefs: tool definitions must be a JSON list or object, got 42`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := tooldefs.Parse([]byte(tt.json))
			if err == nil {
				t.Fatalf("got a Set of %v, want an error", s.Names())
			}
			if err.Error() != tt.want {
				t.Errorf("error\n got %s\nwant %s", err, tt.want)
			}
			var de *tooldefs.DefinitionError
			if got := errors.As(err, &de); got != (tt.index >= 0) {
				t.Fatalf("errors.As(DefinitionError) = %v for %v", got, err)
			}
			if de != nil && (de.Index != tt.index || de.Name != tt.tool || de.Field != tt.field) {
				t.Errorf("got index %d, name %q, field %q; want %d, %q, %q", de.Index, de.Name, de.Field, tt.index, tt.tool, tt.field)
			}
		})
	}
}

func TestDefineBadSchema(t *testing.T) {
	_, err := tooldefs.New(tooldefs.Define("a", `{}`), tooldefs.Define("b", `{"type":`))
	if err == nil || err.Error() != `tooldefs: tool 1 "b": parameters: not valid JSON: unexpected EOF` {
		t.Errorf("got %v", err)
	}
	_, err = tooldefs.New(tooldefs.Define("", `{}`))
	if err == nil || err.Error() != `tooldefs: tool 0: no name` {
		t.Errorf("got %v", err)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(error).Error(), `tool 0 "x"`) {
			t.Errorf("Must panicked with %v, want the definition error", r)
		}
	}()
	tooldefs.Must(tooldefs.New(tooldefs.Define("x", `{"type":"nope"}`)))
}

func TestAssertFormatOption(t *testing.T) {
	js := []byte(`[{"name":"at","input_schema":{"properties":{"when":{"format":"date-time"}}}}]`)
	tc := []agentcheck.ToolCall{agentcheck.MustParseToolCall("at", `{"when":"soon"}`)}
	lax, err := tooldefs.Parse(js)
	if err != nil {
		t.Fatal(err)
	}
	strict, err := tooldefs.Options{AssertFormat: true}.Parse(js)
	if err != nil {
		t.Fatal(err)
	}
	if vs := lax.Check(tc); len(vs) != 0 {
		t.Errorf("format is an annotation by default, got %q", strs(vs))
	}
	if vs := strict.Check(tc); len(vs) != 1 || vs[0].Keyword != "format" || vs[0].Pointer != "/when" {
		t.Errorf("with AssertFormat, got %q", strs(vs))
	}
}
