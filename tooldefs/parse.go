package tooldefs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Tool is one tool definition: a name and the JSON Schema its arguments
// must fit.
type Tool struct {
	Name        string
	Description string
	// Parameters is the JSON Schema of the arguments, as written. Empty (or
	// JSON null) means the tool takes any arguments: it is so for a hosted
	// tool ({"type":"web_search"}) and for an OpenAI function that gives no
	// parameters.
	Parameters json.RawMessage
	// Strict is OpenAI's "strict" flag, kept for reference. It changes
	// nothing here: a strict schema already says all it requires.
	Strict bool
}

// Define is a Tool named name whose arguments must fit the JSON Schema
// schemaJSON; New compiles it.
//
//	tooldefs.Define("search", `{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`)
func Define(name, schemaJSON string) Tool {
	return Tool{Name: name, Parameters: json.RawMessage(schemaJSON)}
}

// Set is a compiled set of tool definitions, ready to check calls. It is
// safe for concurrent use.
type Set struct {
	tools   []Tool
	schemas []*jsonschema.Schema // nil: any arguments
	byName  map[string]int
}

// Options tune how a Set is made. The zero value is what the package-level
// functions use.
type Options struct {
	// AssertFormat makes "format" (date-time, email, uri, uuid...) an
	// assertion, as draft-07 had it; by default, as JSON Schema 2020-12
	// says, it is only an annotation.
	AssertFormat bool
}

// DefinitionError is a tool definition that cannot be used: not a tool, a
// duplicate name, or a schema that is not valid JSON (Schema).
type DefinitionError struct {
	Index int    // the tool's position in the list, from 0
	Name  string // the tool's name, if it has one
	Field string // where the problem is: "parameters", "inputSchema", ...; "" for the tool itself
	Err   error
}

// Error is `tooldefs: tool 1 "search": parameters: ` and the problem.
func (e *DefinitionError) Error() string {
	var b strings.Builder
	b.WriteString("tooldefs: tool ")
	b.WriteString(strconv.Itoa(e.Index))
	if e.Name != "" {
		b.WriteString(" " + strconv.Quote(e.Name))
	}
	if e.Field != "" {
		b.WriteString(": " + e.Field)
	}
	b.WriteString(": " + e.Err.Error())
	return b.String()
}

// Unwrap is the problem itself.
func (e *DefinitionError) Unwrap() error { return e.Err }

// New compiles the tools' schemas into a Set.
func New(tools ...Tool) (*Set, error) { return Options{}.New(tools...) }

// Parse reads tool definitions from JSON in any of the forms providers
// write them, and compiles their schemas. The JSON is a list of tools, a
// single tool, or an object with a "tools" list — an MCP tools/list result
// (bare or inside a JSON-RPC response's "result"), or a whole OpenAI or
// Anthropic request body. Each tool is one of
//
//	{"type":"function","function":{"name":...,"description":...,"parameters":{...},"strict":true}}  OpenAI chat
//	{"type":"function","name":...,"parameters":{...}}                                                 OpenAI Responses
//	{"name":...,"description":...,"inputSchema":{...}}                                                MCP
//	{"name":...,"description":...,"input_schema":{...}}                                               Anthropic
//
// A tool of another type, such as {"type":"web_search"} or Anthropic's
// {"type":"web_search_20250305","name":"web_search"}, is a hosted tool: it
// is defined, under its name or else its type, and takes any arguments.
func Parse(data []byte) (*Set, error) { return Options{}.Parse(data) }

// FromValue is Parse of v marshalled with encoding/json: it reads the tool
// types of the SDKs (go-openai's []openai.Tool, an MCP SDK's tools, an
// Anthropic SDK's tool parameters), which marshal to the forms Parse reads.
func FromValue(v any) (*Set, error) { return Options{}.FromValue(v) }

// Must returns s, and panics if err is not nil; it is for definitions
// written in the test itself.
func Must(s *Set, err error) *Set {
	if err != nil {
		panic(err)
	}
	return s
}

// FromValue is the package-level FromValue with these options.
func (o Options) FromValue(v any) (*Set, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("tooldefs: marshalling %T: %w", v, err)
	}
	return o.Parse(data)
}

// Parse is the package-level Parse with these options.
func (o Options) Parse(data []byte) (*Set, error) {
	list, err := toolList(data, 0)
	if err != nil {
		return nil, fmt.Errorf("tooldefs: %w", err)
	}
	tools := make([]Tool, len(list))
	fields := make([]string, len(list))
	for i, raw := range list {
		t, field, err := parseTool(raw)
		if err != nil {
			return nil, &DefinitionError{Index: i, Name: t.Name, Field: field, Err: err}
		}
		tools[i], fields[i] = t, field
	}
	return o.compile(tools, fields)
}

// New is the package-level New with these options.
func (o Options) New(tools ...Tool) (*Set, error) {
	fields := make([]string, len(tools))
	for i := range fields {
		fields[i] = "parameters"
	}
	return o.compile(append([]Tool(nil), tools...), fields)
}

// toolList finds the list of tool objects in data.
func toolList(data []byte, depth int) ([]json.RawMessage, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, errors.New("no tool definitions: the input is empty")
	}
	switch data[0] {
	case '[':
		var list []json.RawMessage
		if err := json.Unmarshal(data, &list); err != nil {
			return nil, fmt.Errorf("tool list: %w", err)
		}
		return list, nil
	case '{':
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(data, &obj); err != nil {
			return nil, fmt.Errorf("tool definitions: %w", err)
		}
		if tools, ok := obj["tools"]; ok && depth < 2 {
			if t := bytes.TrimSpace(tools); len(t) == 0 || t[0] != '[' {
				return nil, fmt.Errorf(`"tools" must be a list, got %s`, clip(tools, 40))
			}
			return toolList(tools, depth+1)
		}
		if result, ok := obj["result"]; ok && depth == 0 {
			return toolList(result, depth+1)
		}
		return []json.RawMessage{data}, nil
	}
	return nil, fmt.Errorf("tool definitions must be a JSON list or object, got %s", clip(data, 40))
}

// wireTool holds the fields of every form a tool is written in.
type wireTool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Function    json.RawMessage `json:"function"`
	Parameters  json.RawMessage `json:"parameters"`
	InputSchema json.RawMessage `json:"inputSchema"`
	InputSnake  json.RawMessage `json:"input_schema"`
	Strict      *bool           `json:"strict"`
}

// parseTool reads one tool; field is where its schema came from.
func parseTool(raw json.RawMessage) (Tool, string, error) {
	var w wireTool
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return Tool{}, "", fmt.Errorf("a tool must be a JSON object, got %s", clip(raw, 40))
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return Tool{}, "", fieldError(err)
	}
	if present(w.Function) {
		if w.Type != "" && w.Type != "function" {
			return Tool{Name: w.Name}, "", fmt.Errorf(`a tool with a "function" must have type "function", got %q`, w.Type)
		}
		var f wireTool
		if err := json.Unmarshal(w.Function, &f); err != nil {
			return Tool{}, "function", fieldError(err)
		}
		t := Tool{Name: f.Name, Description: f.Description, Parameters: nonNull(f.Parameters), Strict: f.Strict != nil && *f.Strict}
		if t.Name == "" {
			return t, "function", errors.New(`no "name"`)
		}
		return t, "function.parameters", nil
	}
	switch w.Type {
	case "", "function", "custom":
	default:
		// A hosted tool: the provider runs it and knows its arguments.
		name := w.Name
		if name == "" {
			name = w.Type
		}
		return Tool{Name: name, Description: w.Description}, "", nil
	}
	t := Tool{Name: w.Name, Description: w.Description, Strict: w.Strict != nil && *w.Strict}
	if t.Name == "" {
		return t, "", errors.New(`no "name" (and no "function")`)
	}
	field := ""
	for _, c := range []struct {
		name string
		raw  json.RawMessage
	}{{"parameters", w.Parameters}, {"inputSchema", w.InputSchema}, {"input_schema", w.InputSnake}} {
		if !present(c.raw) {
			continue
		}
		if field != "" {
			return t, "", fmt.Errorf("both %q and %q give a schema; give one", field, c.name)
		}
		field, t.Parameters = c.name, c.raw
	}
	if field == "" {
		field = "parameters"
	}
	return t, field, nil
}

// fieldError words a field of the wrong JSON type without Go's names.
func fieldError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Errorf("%q must be %s, got %s", te.Field, jsonType(te.Type.Kind().String()), te.Value)
	}
	return err
}

func jsonType(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool", "ptr":
		return "a boolean"
	}
	return "an object"
}

func present(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && string(t) != "null"
}

func nonNull(raw json.RawMessage) json.RawMessage {
	if !present(raw) {
		return nil
	}
	return raw
}

// clip is raw, shortened to about n bytes for a message.
func clip(raw []byte, n int) string {
	s := string(bytes.TrimSpace(raw))
	if len(s) > n {
		s = s[:n] + "..."
	}
	return s
}

// refuseLoader keeps compilation offline: a tool's schema must be
// self-contained.
type refuseLoader struct{}

func (refuseLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("$ref to %s: a tool's schema must be self-contained (only local refs such as #/$defs/x)", url)
}

// compile checks names and compiles every schema with one compiler.
func (o Options) compile(tools []Tool, fields []string) (*Set, error) {
	s := &Set{tools: tools, schemas: make([]*jsonschema.Schema, len(tools)), byName: make(map[string]int, len(tools))}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(refuseLoader{})
	if o.AssertFormat {
		c.AssertFormat()
	}
	for i, t := range tools {
		fail := func(field string, err error) (*Set, error) {
			return nil, &DefinitionError{Index: i, Name: t.Name, Field: field, Err: err}
		}
		if t.Name == "" {
			return fail("", errors.New("no name"))
		}
		if j, dup := s.byName[t.Name]; dup {
			return fail("", fmt.Errorf("tool %d has the same name", j))
		}
		s.byName[t.Name] = i
		if !present(t.Parameters) {
			continue
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(t.Parameters))
		if err != nil {
			return fail(fields[i], fmt.Errorf("not valid JSON: %w", err))
		}
		switch doc.(type) {
		case map[string]any, bool:
		default:
			return fail(fields[i], fmt.Errorf("a schema must be a JSON object or boolean, got %s", clip(t.Parameters, 40)))
		}
		url := "mem:///tooldefs/" + strconv.Itoa(i) + ".json"
		if err := c.AddResource(url, doc); err != nil {
			return fail(fields[i], err)
		}
		sch, err := c.Compile(url)
		if err != nil {
			return fail(fields[i], schemaError(err, url))
		}
		s.schemas[i] = sch
	}
	return s, nil
}

// schemaError rewords a compilation error: a schema that breaks the
// meta-schema lists where and how, by JSON pointer into the schema.
func schemaError(err error, url string) error {
	var sve *jsonschema.SchemaValidationError
	var ve *jsonschema.ValidationError
	if !errors.As(err, &sve) || !errors.As(sve.Err, &ve) {
		// The schema's own URL is made up: leave it out of the message.
		if msg := err.Error(); strings.Contains(msg, url) {
			return errors.New(strings.ReplaceAll(msg, url, ""))
		}
		return err
	}
	probs := problems(ve)
	if len(probs) == 0 {
		return err
	}
	sortProblems(probs)
	parts := make([]string, len(probs))
	for i, p := range probs {
		where := p.Pointer
		if where == "" {
			where = "(root)"
		}
		parts[i] = "at " + where + ": " + p.Keyword + ": " + p.Message
	}
	return fmt.Errorf("not a valid JSON Schema: %s", strings.Join(parts, "; "))
}

// Tools returns the definitions in the order given. The slice is a copy.
func (s *Set) Tools() []Tool { return append([]Tool(nil), s.tools...) }

// Names returns the tools' names in the order given.
func (s *Set) Names() []string {
	names := make([]string, len(s.tools))
	for i, t := range s.tools {
		names[i] = t.Name
	}
	return names
}

// Lookup returns the definition of the tool named name.
func (s *Set) Lookup(name string) (Tool, bool) {
	i, ok := s.byName[name]
	if !ok {
		return Tool{}, false
	}
	return s.tools[i], true
}
