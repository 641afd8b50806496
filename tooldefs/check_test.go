package tooldefs_test

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/agentcheck/agentcheck/tooldefs"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// set compiles one tool "t" with the schema, failing the test on error.
func set(t *testing.T, schema string, opts ...tooldefs.Options) *tooldefs.Set {
	t.Helper()
	var o tooldefs.Options
	if len(opts) > 0 {
		o = opts[0]
	}
	s, err := o.New(tooldefs.Define("t", schema))
	if err != nil {
		t.Fatalf("New(%s): %v", schema, err)
	}
	return s
}

func call(t *testing.T, name, args string) agentcheck.ToolCall {
	t.Helper()
	tc, err := agentcheck.ParseToolCall(name, args)
	if err != nil {
		t.Fatal(err)
	}
	return tc
}

func strs(vs []tooldefs.Violation) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.String()
	}
	return out
}

func TestCheckKeywords(t *testing.T) {
	tests := []struct {
		name, schema, args string
		ptr, keyword, msg  string // the one violation; msg is a substring
		opts               tooldefs.Options
	}{
		{"type", `{"type":"object","properties":{"limit":{"type":"integer"}}}`, `{"limit":"5"}`, "/limit", "type", "got string, want integer", tooldefs.Options{}},
		{"type of a float for an integer", `{"properties":{"limit":{"type":"integer"}}}`, `{"limit":1.5}`, "/limit", "type", "got number, want integer", tooldefs.Options{}},
		{"required", `{"type":"object","required":["q"]}`, `{"limit":1}`, "", "required", "missing property 'q'", tooldefs.Options{}},
		{"enum", `{"properties":{"sort":{"enum":["asc","desc"]}}}`, `{"sort":"up"}`, "/sort", "enum", "value must be one of 'asc', 'desc'", tooldefs.Options{}},
		{"const", `{"properties":{"v":{"const":2}}}`, `{"v":3}`, "/v", "const", "value must be 2", tooldefs.Options{}},
		{"additionalProperties", `{"properties":{"q":{}},"additionalProperties":false}`, `{"q":1,"extra":2}`, "", "additionalProperties", "additional properties 'extra' not allowed", tooldefs.Options{}},
		{"minimum", `{"properties":{"n":{"minimum":1}}}`, `{"n":0}`, "/n", "minimum", "got 0, want 1", tooldefs.Options{}},
		{"maximum", `{"properties":{"n":{"maximum":10}}}`, `{"n":11}`, "/n", "maximum", "got 11, want 10", tooldefs.Options{}},
		{"exclusiveMinimum", `{"properties":{"n":{"exclusiveMinimum":0}}}`, `{"n":0}`, "/n", "exclusiveMinimum", "got 0, want 0", tooldefs.Options{}},
		{"multipleOf", `{"properties":{"n":{"multipleOf":5}}}`, `{"n":12}`, "/n", "multipleOf", "got 12, want 5", tooldefs.Options{}},
		{"big integer keeps its digits", `{"properties":{"n":{"maximum":12345678901234567890}}}`, `{"n":12345678901234567891}`, "/n", "maximum", "got 12345678901234567891, want 12345678901234567890", tooldefs.Options{}},
		{"minLength", `{"properties":{"q":{"minLength":2}}}`, `{"q":"a"}`, "/q", "minLength", "got 1, want 2", tooldefs.Options{}},
		{"maxLength", `{"properties":{"q":{"maxLength":2}}}`, `{"q":"abc"}`, "/q", "maxLength", "got 3, want 2", tooldefs.Options{}},
		{"pattern", `{"properties":{"id":{"pattern":"^r_[0-9]+$"}}}`, `{"id":"x9"}`, "/id", "pattern", "'x9' does not match pattern '^r_[0-9]+$'", tooldefs.Options{}},
		{"items", `{"properties":{"tags":{"items":{"type":"string"}}}}`, `{"tags":["a",2]}`, "/tags/1", "type", "got number, want string", tooldefs.Options{}},
		{"minItems", `{"properties":{"tags":{"minItems":1}}}`, `{"tags":[]}`, "/tags", "minItems", "got 0, want 1", tooldefs.Options{}},
		{"maxItems", `{"properties":{"tags":{"maxItems":1}}}`, `{"tags":[1,2]}`, "/tags", "maxItems", "got 2, want 1", tooldefs.Options{}},
		{"uniqueItems", `{"properties":{"tags":{"uniqueItems":true}}}`, `{"tags":[1,2,1]}`, "/tags", "uniqueItems", "items at 0 and 2 are equal", tooldefs.Options{}},
		{"maxProperties", `{"maxProperties":1}`, `{"a":1,"b":2}`, "", "maxProperties", "got 2, want 1", tooldefs.Options{}},
		{"exclusiveMaximum", `{"properties":{"n":{"exclusiveMaximum":1.5}}}`, `{"n":1.5}`, "/n", "exclusiveMaximum", "got 1.5, want 1.5", tooldefs.Options{}},
		{"contains", `{"properties":{"tags":{"contains":{"const":"x"}}}}`, `{"tags":["a"]}`, "/tags", "contains", "no items match contains schema", tooldefs.Options{}},
		{"maxContains", `{"properties":{"tags":{"contains":{"const":"x"},"maxContains":1}}}`, `{"tags":["x","a","x"]}`, "/tags", "maxContains", "2 items match (at 0, 2), want at most 1", tooldefs.Options{}},
		// (jsonschema v6.0.2 numbers the items after prefixItems from 0, so
		// this case has none.)
		{"items false", `{"properties":{"p":{"items":false}}}`, `{"p":[1]}`, "/p/0", "false", "no value is allowed here", tooldefs.Options{}},
		{"minLength counts as written, no thousands separator", `{"properties":{"q":{"minLength":1500}}}`, `{"q":"a"}`, "/q", "minLength", "got 1, want 1500", tooldefs.Options{}},
		{"minProperties", `{"minProperties":1}`, `{}`, "", "minProperties", "got 0, want 1", tooldefs.Options{}},
		{"propertyNames", `{"propertyNames":{"pattern":"^[a-z]+$"}}`, `{"Bad":1}`, "", "propertyNames", "invalid propertyName 'Bad'", tooldefs.Options{}},
		{"dependentRequired", `{"dependentRequired":{"end":["start"]}}`, `{"end":1}`, "", "dependentRequired", "properties 'start' required, if 'end' exists", tooldefs.Options{}},
		{"anyOf", `{"properties":{"x":{"anyOf":[{"type":"string"},{"type":"integer"}]}}}`, `{"x":true}`, "/x", "anyOf", "fits none of the 2 alternatives: (0) type: got boolean, want string; (1) type: got boolean, want integer", tooldefs.Options{}},
		{"oneOf, none", `{"properties":{"x":{"oneOf":[{"type":"string"},{"minimum":3}]}}}`, `{"x":1}`, "/x", "oneOf", "fits none of the 2 alternatives", tooldefs.Options{}},
		{"oneOf, two", `{"properties":{"x":{"oneOf":[{"type":"integer"},{"minimum":3}]}}}`, `{"x":5}`, "/x", "oneOf", "fits alternatives 0 and 1, want exactly one", tooldefs.Options{}},
		{"not", `{"properties":{"x":{"not":{"type":"null"}}}}`, `{"x":null}`, "/x", "not", "fits the schema it must not", tooldefs.Options{}},
		{"false schema", `{"properties":{"x":false}}`, `{"x":1}`, "/x", "false", "no value is allowed here", tooldefs.Options{}},
		{"$ref into $defs", `{"$defs":{"day":{"enum":["mon","tue"]}},"properties":{"d":{"$ref":"#/$defs/day"}}}`, `{"d":"sun"}`, "/d", "enum", "value must be one of 'mon', 'tue'", tooldefs.Options{}},
		{"if/then", `{"if":{"required":["refund"]},"then":{"required":["reason"]}}`, `{"refund":true}`, "", "required", "missing property 'reason'", tooldefs.Options{}},
		{"format, asserted", `{"properties":{"d":{"type":"string","format":"date"}}}`, `{"d":"tomorrow"}`, "/d", "format", "'tomorrow' is not valid date", tooldefs.Options{AssertFormat: true}},
		{"arguments of the wrong type", `{"type":"object"}`, `{}`, "", "type", "got array, want object", tooldefs.Options{}},
		{"pointer escapes", `{"properties":{"a/b~c":{"type":"string"}}}`, `{"a/b~c":1}`, "/a~1b~0c", "type", "got number, want string", tooldefs.Options{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := set(t, tt.schema, tt.opts)
			tc := call(t, "t", tt.args)
			if tt.name == "arguments of the wrong type" {
				v, err := jsonvalue.Parse([]byte(`[1]`))
				if err != nil {
					t.Fatal(err)
				}
				tc.Args = v
			}
			vs := s.Check([]agentcheck.ToolCall{call(t, "t", `{}`), tc})
			if tt.name == "minProperties" || tt.name == "required" {
				// The first call, {}, breaks these too.
				vs = vs[1:]
			}
			if len(vs) != 1 {
				t.Fatalf("got %d violations, want 1: %q", len(vs), strs(vs))
			}
			v := vs[0]
			if v.Call != 1 || v.Tool != "t" || v.Pointer != tt.ptr || v.Keyword != tt.keyword || !strings.Contains(v.Message, tt.msg) {
				t.Errorf("got %+v, want call 1 of t at %q, keyword %q, message containing %q", v, tt.ptr, tt.keyword, tt.msg)
			}
		})
	}
}

func TestCheckFitting(t *testing.T) {
	s := set(t, `{"type":"object","properties":{"q":{"type":"string"},"n":{"type":"integer","minimum":1},"d":{"format":"date"}},"required":["q"],"additionalProperties":false}`)
	for _, args := range []string{`{"q":"x"}`, `{"q":"x","n":3}`, `{"q":"x","n":3.0}`, `{"q":"x","d":"tomorrow"}`} {
		if vs := s.Check([]agentcheck.ToolCall{call(t, "t", args)}); len(vs) != 0 {
			t.Errorf("%s: got %q, want no violations (format is an annotation by default)", args, strs(vs))
		}
	}
}

func TestCheckUnparseableArguments(t *testing.T) {
	s := set(t, `{"type":"object","properties":{"q":{"type":"string"}}}`)
	bad := agentcheck.ToolCall{Name: "t", InvalidArgs: `{"q": "Par`}
	got := strs(s.Check([]agentcheck.ToolCall{call(t, "t", `{"q":"x"}`), bad}))
	if want := `[1] t: arguments are not valid JSON: "{\"q\": \"Par"`; len(got) != 1 || got[0] != want {
		t.Errorf("got %q, want [%s]", got, want)
	}
}

func TestCheckUndefinedTool(t *testing.T) {
	s, err := tooldefs.New(tooldefs.Define("search", `{}`), tooldefs.Define("book", `{}`))
	if err != nil {
		t.Fatal(err)
	}
	vs := s.Check([]agentcheck.ToolCall{call(t, "search", `{}`), call(t, "serach", `{"q":1}`)})
	want := []string{"[1] serach: not a defined tool; defined: search, book"}
	if got := strs(vs); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %q, want %q", got, want)
	}
	if vs[0].Keyword != "" || vs[0].Pointer != "" {
		t.Errorf("an undefined tool has no keyword or pointer, got %+v", vs[0])
	}
	empty, err := tooldefs.New()
	if err != nil {
		t.Fatal(err)
	}
	if got := strs(empty.Check([]agentcheck.ToolCall{call(t, "x", `{}`)})); len(got) != 1 || got[0] != "[0] x: no tool is defined" {
		t.Errorf("with no tools, got %q", got)
	}
}

func TestCheckHostedToolNeedNotBeDefined(t *testing.T) {
	s := set(t, `{}`)
	hosted := call(t, "web_search", `{"query":"x"}`)
	hosted.Kind = agentcheck.HostedTool
	mcp := call(t, "web_search", `{"query":"x"}`)
	mcp.Kind = agentcheck.MCPTool
	vs := s.Check([]agentcheck.ToolCall{hosted, mcp})
	if got := strs(vs); len(got) != 1 || !strings.HasPrefix(got[0], "[1] web_search: not a defined tool") {
		t.Errorf("got %q, want only the MCP call reported", got)
	}
}

func TestCheckNoArguments(t *testing.T) {
	s := set(t, `{"type":"object","required":["q"]}`)
	vs := s.Check([]agentcheck.ToolCall{{Name: "t"}}) // zero Args: no arguments, checked as {}
	if got := strs(vs); len(got) != 1 || got[0] != "[0] t: required: missing property 'q'" {
		t.Errorf("got %q", got)
	}
	any := set(t, `{"type":"object"}`)
	if vs := any.Check([]agentcheck.ToolCall{{Name: "t"}}); len(vs) != 0 {
		t.Errorf("no arguments against an object schema: got %q", strs(vs))
	}
}

func TestCheckNotJSON(t *testing.T) {
	s := set(t, `{}`)
	args, err := jsonvalue.Of(map[string]any{"n": math.NaN(), "m": []any{math.Inf(1)}})
	if err != nil {
		t.Skipf("jsonvalue.Of refuses NaN (%v): nothing to check", err)
	}
	vs := s.Check([]agentcheck.ToolCall{{Name: "t", Args: args}})
	if got := strs(vs); len(got) != 1 || got[0] != "[0] t: arguments are not valid JSON: /m/0 is +Inf, /n is NaN" {
		t.Errorf("got %q", got)
	}
}

func TestCheckOrderIsStable(t *testing.T) {
	s := set(t, `{"properties":{"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"string"},"d":{"type":"string"}},"required":["z"]}`)
	tc := call(t, "t", `{"d":1,"c":2,"b":3,"a":4}`)
	want := "[0] t: required: missing property 'z'\n[0] t: /a: type: got number, want string\n[0] t: /b: type: got number, want string\n[0] t: /c: type: got number, want string\n[0] t: /d: type: got number, want string"
	for range 20 {
		if got := strings.Join(strs(s.Check([]agentcheck.ToolCall{tc})), "\n"); got != want {
			t.Fatalf("got\n%s\nwant\n%s", got, want)
		}
	}
}

func TestCheckCall(t *testing.T) {
	s := set(t, `{"properties":{"n":{"type":"integer"}}}`)
	vs := s.CheckCall(call(t, "t", `{"n":"1"}`))
	if got := strs(vs); len(got) != 1 || got[0] != "[0] t: /n: type: got string, want integer" {
		t.Errorf("got %q", got)
	}
}

func TestCheckConcurrently(t *testing.T) {
	s := set(t, `{"properties":{"n":{"type":"integer"},"s":{"enum":["a"]}}}`)
	calls := []agentcheck.ToolCall{call(t, "t", `{"n":"x","s":"b"}`), call(t, "u", `{}`)}
	want := fmt.Sprint(strs(s.Check(calls)))
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				if got := fmt.Sprint(strs(s.Check(calls))); got != want {
					errs <- got
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for got := range errs {
		t.Errorf("concurrent Check got %s, want %s", got, want)
	}
}
