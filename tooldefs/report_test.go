package tooldefs_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/tooldefs"
)

var defs = tooldefs.Must(tooldefs.Parse([]byte(`[
	{"type":"function","function":{"name":"search","parameters":{"type":"object","properties":{"q":{"type":"string"},"limit":{"type":"integer"}},"required":["q"],"additionalProperties":false}}},
	{"type":"function","function":{"name":"book","parameters":{"type":"object","properties":{"id":{"type":"string"},"time":{"type":"string"}},"required":["id","time"]}}}
]`)))

var conv = agentcheck.Conversation{
	{Role: agentcheck.Human, Content: "Book pho for 8pm"},
	{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{
		agentcheck.MustParseToolCall("search", `{"q":"pho"}`),
		agentcheck.MustParseToolCall("search", `{"q":"pho","limit":"5","near":"me"}`),
	}},
	{Role: agentcheck.Tool, Content: "r_1"},
	{Role: agentcheck.Tool, Content: "r_1"},
	{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{agentcheck.MustParseToolCall("book", `{"id":"r_1"}`)}},
}

func TestCheckCallsMessage(t *testing.T) {
	r := tooldefs.CheckCalls(conv, defs)
	if r.OK() || r.Err() != nil {
		t.Fatalf("OK() = %v, Err() = %v; want a failure", r.OK(), r.Err())
	}
	want := `Expected the 3 tool calls made to fit their tool definitions, but 2 do not:
  [1] search: additionalProperties: additional properties 'near' not allowed
  [1] search: /limit: type: got string, want integer
  [2] book: required: missing property 'time'`
	if got := r.String(); got != want {
		t.Errorf("message\n got:\n%s\nwant:\n%s", got, want)
	}
}

func TestCheckCallsPasses(t *testing.T) {
	calls := []agentcheck.ToolCall{
		agentcheck.MustParseToolCall("search", `{"q":"pho","limit":5}`),
		agentcheck.MustParseToolCall("book", `{"id":"r_1","time":"20:00"}`),
	}
	r := tooldefs.CheckCalls(calls, defs)
	if !r.OK() {
		t.Fatalf("want a pass, got %s", r)
	}
	if got, want := r.Negated(), "Expected the 2 tool calls made not to fit their tool definitions, but they do"; got != want {
		t.Errorf("Negated() = %q, want %q", got, want)
	}
}

func TestCheckCallsOneCall(t *testing.T) {
	bad := []agentcheck.ToolCall{agentcheck.MustParseToolCall("serach", `{}`)}
	r := tooldefs.CheckCalls(bad, defs)
	want := "Expected the 1 tool call made to fit its tool definition, but it does not:\n  [0] serach: not a defined tool; defined: search, book"
	if r.OK() || r.String() != want {
		t.Errorf("OK() = %v, message %q; want %q", r.OK(), r.String(), want)
	}
	good := []agentcheck.ToolCall{agentcheck.MustParseToolCall("search", `{"q":"x"}`)}
	if r := tooldefs.CheckCalls(good, defs); !r.OK() || r.Negated() != "Expected the 1 tool call made not to fit its tool definition, but it does" {
		t.Errorf("OK() = %v, Negated() = %q", r.OK(), r.Negated())
	}
	one := []agentcheck.ToolCall{good[0], bad[0]}
	if got := tooldefs.CheckCalls(one, defs).String(); !strings.HasPrefix(got, "Expected the 2 tool calls made to fit their tool definitions, but 1 does not:\n") {
		t.Errorf("got %q", got)
	}
}

func TestCheckCallsNoCalls(t *testing.T) {
	r := tooldefs.CheckCalls(agentcheck.Conversation{{Role: agentcheck.Human, Content: "hi"}}, defs)
	if !r.OK() || r.Negated() != "Expected the 0 tool calls made not to fit their tool definitions, but they do" {
		t.Errorf("OK() = %v, Negated() = %q", r.OK(), r.Negated())
	}
}

func TestCheckCallsErrors(t *testing.T) {
	r := tooldefs.CheckCalls(conv, nil)
	if r.OK() || r.Err() == nil || !strings.Contains(r.String(), "nil") {
		t.Errorf("nil Set: OK() = %v, Err() = %v", r.OK(), r.Err())
	}
	r = tooldefs.CheckCalls(42, defs)
	if r.OK() || r.Err() == nil || !strings.Contains(r.Err().Error(), "int") {
		t.Errorf("an int: OK() = %v, Err() = %v; want an error naming the type", r.OK(), r.Err())
	}
}

// fakeT records what a test would have printed.
type fakeT struct {
	errors []string
	helped bool
}

func (f *fakeT) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *fakeT) Helper() { f.helped = true }

func TestAssertFit(t *testing.T) {
	var ft fakeT
	if tooldefs.AssertFit(&ft, conv, defs) {
		t.Error("AssertFit passed calls that do not fit")
	}
	if len(ft.errors) != 1 || ft.errors[0] != tooldefs.CheckCalls(conv, defs).String() || !ft.helped {
		t.Errorf("got errors %q (helper called: %v), want the report's message once", ft.errors, ft.helped)
	}
	ft = fakeT{}
	if !tooldefs.AssertFit(&ft, conv[:2][:1], defs) || len(ft.errors) != 0 {
		t.Errorf("AssertFit failed a conversation with no calls: %q", ft.errors)
	}
}

// recordingT is a test with the methods agenttest.Record writes to.
type recordingT struct {
	fakeT
	attrs []string
	dir   string
}

func (r *recordingT) Attr(key, value string) { r.attrs = append(r.attrs, key+"="+value) }
func (r *recordingT) ArtifactDir() string    { return r.dir }

// TestAssertFitRecords: AssertFit records its outcome as every assertion
// does, with the failure report and the transcript when it fails.
func TestAssertFitRecords(t *testing.T) {
	rt := &recordingT{dir: t.TempDir()}
	tooldefs.AssertFit(rt, conv[:2][:1], defs)
	if want := []string{"agentcheck.check=tool_definitions", "agentcheck.verdict=pass"}; !slices.Equal(rt.attrs, want) {
		t.Errorf("Expected a pass to record %q, but it records %q", want, rt.attrs)
	}
	rt.attrs = nil
	tooldefs.AssertFit(rt, conv, defs)
	if len(rt.attrs) != 3 || rt.attrs[1] != "agentcheck.verdict=fail" || !strings.HasPrefix(rt.attrs[2], "agentcheck.artifacts=") {
		t.Fatalf("Expected a failure to record its verdict and artifacts, but it records %q", rt.attrs)
	}
	report, err := os.ReadFile(filepath.Join(rt.dir, "agentcheck-tool_definitions.txt"))
	if err != nil || string(report) != tooldefs.CheckCalls(conv, defs).String()+"\n" {
		t.Errorf("Expected the failure report in the artifacts, but got %q, %v", report, err)
	}
	if _, err := os.Stat(filepath.Join(rt.dir, "agentcheck-tool_definitions.json")); err != nil {
		t.Errorf("Expected the transcript in the artifacts: %v", err)
	}
}
