package agenttest_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/agenttest/internal/checkname"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/trajectory"
)

// attrT has the optional methods Record uses: Attr, ArtifactDir, Errorf and
// Helper.
type attrT struct {
	attrs    []string // "key=value"
	dir      string
	dirCalls int
	errors   []string
	helpers  int
}

func (a *attrT) Attr(key, value string) { a.attrs = append(a.attrs, key+"="+value) }
func (a *attrT) ArtifactDir() string    { a.dirCalls++; return a.dir }
func (a *attrT) Errorf(format string, args ...any) {
	a.errors = append(a.errors, fmt.Sprintf(format, args...))
}
func (a *attrT) Helper() { a.helpers++ }

// files lists dir's files.
func files(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestRecordAttrs(t *testing.T) {
	s := sample(t, travel)
	at := &attrT{dir: t.TempDir()}
	agenttest.Record(at, checkname.ToolCalls, s, agenttest.CheckToolCalls(s, trajectory.Superset, agenttest.CallTo("book")))
	if want := []string{"agentcheck.check=tool_calls", "agentcheck.verdict=pass"}; !slices.Equal(at.attrs, want) {
		t.Errorf("attributes of a pass = %q, want %q", at.attrs, want)
	}
	if at.dirCalls != 0 || len(files(t, at.dir)) != 0 {
		t.Errorf("a pass asked for the artifact directory %d times and wrote %q", at.dirCalls, files(t, at.dir))
	}
	if at.helpers == 0 {
		t.Error("Helper() was not called")
	}

	at = &attrT{dir: t.TempDir()}
	r := agenttest.CheckScore(context.Background(), metric.ToolCallAccuracy{}, s, 0.75)
	agenttest.Record(at, checkname.Score, s, r)
	want := []string{"agentcheck.check=score", "agentcheck.verdict=fail", "agentcheck.tool_call_accuracy=0.5",
		"agentcheck.artifacts=" + filepath.Join(at.dir, "agentcheck-score.txt") + "," + filepath.Join(at.dir, "agentcheck-score.json")}
	if !slices.Equal(at.attrs, want) {
		t.Errorf("attributes of a failure = %q, want %q", at.attrs, want)
	}

	// A check that cannot be made has no verdict either way.
	at = &attrT{dir: t.TempDir()}
	agenttest.Record(at, "tool calls\nof/the run", 42, agenttest.CheckToolCalls(42, trajectory.Strict))
	want = []string{"agentcheck.check=tool_calls_of_the_run", "agentcheck.verdict=error", "agentcheck.artifacts=" + filepath.Join(at.dir, "agentcheck-tool_calls_of_the_run.txt")}
	if !slices.Equal(at.attrs, want) || len(at.errors) != 0 {
		t.Errorf("attributes of an error = %q, want %q (errors %q)", at.attrs, want, at.errors)
	}

	// A t with none of the methods is left alone.
	agenttest.Record(struct{}{}, checkname.Score, s, r)
	agenttest.Record(nil, checkname.Score, s, r)
}

func TestRecordWritesArtifactsOnFailure(t *testing.T) {
	s := sample(t, travel)
	s.Reference = "Hotel A is booked for 2 nights."
	at := &attrT{dir: t.TempDir()}
	r := agenttest.CheckScore(context.Background(), metric.ToolCallAccuracy{}, s, 0.75)
	agenttest.Record(at, checkname.Score, s, r)
	agenttest.Record(at, checkname.Score, s, r) // a second failure of the same check
	if len(at.errors) != 0 {
		t.Fatalf("errors: %q", at.errors)
	}
	if got, want := files(t, at.dir), []string{"agentcheck-score-2.json", "agentcheck-score-2.txt", "agentcheck-score.json", "agentcheck-score.txt"}; !slices.Equal(got, want) {
		t.Fatalf("artifacts = %q, want %q", got, want)
	}
	report, err := os.ReadFile(filepath.Join(at.dir, "agentcheck-score.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if string(report) != r.String()+"\n" {
		t.Errorf("the report artifact:\n%s\nwant the Report's message:\n%s", report, r)
	}

	// The transcript reads back as the sample it was.
	js, err := os.ReadFile(filepath.Join(at.dir, "agentcheck-score.json"))
	if err != nil {
		t.Fatal(err)
	}
	back, err := agentcheck.ParseSample(string(js))
	if err != nil {
		t.Fatalf("the transcript artifact does not parse: %v\n%s", err, js)
	}
	if back.Conversation.String() != s.Conversation.String() || back.Reference != s.Reference ||
		fmt.Sprint(back.ReferenceToolCalls) != fmt.Sprint(s.ReferenceToolCalls) {
		t.Errorf("the transcript artifact:\n%s\nreads back as\n%s\nwant\n%s", js, back.Conversation, s.Conversation)
	}
	if !strings.Contains(string(js), `"type": "human"`) || !strings.Contains(string(js), `"args": {`) {
		t.Errorf("the transcript artifact is not a ragas sample:\n%s", js)
	}
}

func TestRecordKeepsWhatRagasHasNoFieldFor(t *testing.T) {
	conv := agentcheck.Conversation{
		{Role: agentcheck.System, Content: "You book hotels."},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{{ID: "c1", Name: "ping", Kind: agentcheck.MCPTool}}},
		{Role: agentcheck.Tool, ToolCallID: "c1", Content: "timeout", IsError: true},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{}},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{agentcheck.MustParseToolCall("scale", `{"by":NaN,"to":-Infinity,"tag":"<b>"}`)}},
	}
	at := &attrT{dir: t.TempDir()}
	agenttest.Record(at, checkname.Called, conv, agenttest.CheckCalled(conv, agenttest.CallTo("book"), agenttest.AtLeastOnce()))
	js, err := os.ReadFile(filepath.Join(at.dir, "agentcheck-called.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"type": "system"`, `"id": "c1"`, `"kind": "mcp"`, `"args": {}`, `"tool_call_id": "c1"`, `"is_error": true`, `"tool_calls": []`,
		`"args": {"by":NaN,"to":-Infinity,"tag":"<b>"}`} {
		if !strings.Contains(string(js), want) {
			t.Errorf("the transcript lacks %s:\n%s", want, js)
		}
	}
	if strings.Contains(string(js), "reference_tool_calls") {
		t.Errorf("a conversation without reference calls has them in the transcript:\n%s", js)
	}
}

func TestRecordReportsArtifactsItCannotWrite(t *testing.T) {
	s := sample(t, travel)
	r := agenttest.CheckCalled(s, agenttest.CallTo("cancel"), agenttest.Times(1))
	missing := filepath.Join(t.TempDir(), "gone")
	at := &attrT{dir: missing}
	agenttest.Record(at, checkname.Called, s, r)
	if len(at.errors) != 1 || !strings.Contains(at.errors[0], "agentcheck: writing the failure report of the called check") ||
		!strings.Contains(at.errors[0], "gone") {
		t.Errorf("errors = %q", at.errors)
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Record made the artifact directory: %v", err)
	}
	at = &attrT{}
	agenttest.Record(at, checkname.Called, s, r)
	if len(at.errors) != 1 || !strings.Contains(at.errors[0], "ArtifactDir is empty") {
		t.Errorf("errors with an empty ArtifactDir = %q", at.errors)
	}
}

func ExampleRecord() {
	conv := agentcheck.Conversation{{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{
		agentcheck.MustParseToolCall("search", `{"city":"Paris"}`),
	}}}
	// In a test, pass the *testing.T; here a T that prints its attributes.
	agenttest.Record(printAttrs{}, checkname.Called, conv,
		agenttest.CheckCalled(conv, agenttest.CallTo("search"), agenttest.Times(1)))
	// Output:
	// agentcheck.check = called
	// agentcheck.verdict = pass
}

type printAttrs struct{}

func (printAttrs) Attr(key, value string) { fmt.Println(key, "=", value) }
