package agentcheck_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

func TestConversationString(t *testing.T) {
	conv := agentcheck.Conversation{
		{Role: agentcheck.Human, Content: "Find Chinese restaurants\nand book one"},
		{Role: agentcheck.AI, Content: "Searching...", ToolCalls: []agentcheck.ToolCall{
			call("restaurant_search", `{"cuisine": "Chinese", "max": 3, "near": {"lat": 1.5, "lon": -0.0}}`),
			{Name: "list_tables"},
		}},
		{Role: agentcheck.Tool, Content: "Found Golden Dragon"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{}},
		{Role: agentcheck.AI, Content: "Done!"},
	}
	want := `[0] human: Find Chinese restaurants
    and book one
[1] ai: Searching...
    -> restaurant_search({"cuisine":"Chinese","max":3,"near":{"lat":1.5,"lon":-0.0}})
    -> list_tables()
[2] tool: Found Golden Dragon
[3] ai:
[4] ai: Done!`
	if got := conv.String(); got != want {
		t.Errorf("String():\n%s\nwant:\n%s", got, want)
	}
	if got := (agentcheck.Conversation{}).String(); got != "" {
		t.Errorf("empty conversation renders %q", got)
	}
}

func TestConversationToolCalls(t *testing.T) {
	a, b, c := call("a", `{}`), call("b", `{"x": 1}`), call("c", `{}`)
	conv := agentcheck.Conversation{
		{Role: agentcheck.Human, Content: "go"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{a, b}},
		{Role: agentcheck.Tool},
		{Role: agentcheck.Tool},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{c}},
		{Role: agentcheck.Tool},
		{Role: agentcheck.AI, Content: "done"},
	}
	if diff := cmp.Diff([]agentcheck.ToolCall{a, b, c}, conv.ToolCalls(), sameValue); diff != "" {
		t.Errorf("ToolCalls (-want +got):\n%s", diff)
	}
	if got := (agentcheck.Conversation{{Role: agentcheck.Human}, {Role: agentcheck.AI}}).ToolCalls(); got != nil {
		t.Errorf("no calls: %v, want nil", got)
	}
}

func TestToolCallConstructors(t *testing.T) {
	tc := agentcheck.NewToolCall("search", map[string]any{"q": "go", "limit": 10, "exact": true, "w": 0.5})
	if got := tc.String(); got != `search({"exact":true,"limit":10,"q":"go","w":0.5})` {
		t.Errorf("NewToolCall: %s (keys sorted, numbers kept)", got)
	}
	if got := agentcheck.NewToolCall("noop", nil).String(); got != "noop()" {
		t.Errorf("NewToolCall without args: %s", got)
	}
	tc, err := agentcheck.ParseToolCall("search", `{"q": "go", "limit": 10.0}`)
	if err != nil || tc.String() != `search({"q":"go","limit":10.0})` {
		t.Errorf("ParseToolCall: %v, %v", tc, err)
	}
	_, err = agentcheck.ParseToolCall("search", `{"q": }`)
	var se *jsonvalue.SyntaxError
	if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), `tool call "search": arguments: line 1, column 7:`) {
		t.Errorf("ParseToolCall syntax error: %v", err)
	}
	if _, err := agentcheck.ParseToolCall("search", `[1]`); err == nil || err.Error() != `tool call "search": arguments must be a JSON object, got array` {
		t.Errorf("ParseToolCall array: %v", err)
	}
	func() {
		defer func() {
			if r := recover(); r == nil {
				t.Error("MustParseToolCall did not panic")
			}
		}()
		agentcheck.MustParseToolCall("x", "{")
	}()
	func() {
		defer func() {
			r := recover()
			if s, _ := r.(string); !strings.Contains(s, `NewToolCall("x")`) {
				t.Errorf("NewToolCall panic = %v, want one naming the call", r)
			}
		}()
		agentcheck.NewToolCall("x", map[string]any{"f": func() {}})
	}()
}

func TestMessageErrorText(t *testing.T) {
	inner := errors.New("boom")
	tests := []struct {
		err  *agentcheck.MessageError
		want string
	}{
		{&agentcheck.MessageError{Message: 3, ToolCall: -1, Err: inner}, "message 3: boom"},
		{&agentcheck.MessageError{Message: 3, Role: agentcheck.AI, ToolCall: -1, Err: inner}, "message 3 (ai): boom"},
		{&agentcheck.MessageError{Message: 0, Role: agentcheck.AI, ToolCall: 2, Err: inner}, "message 0 (ai), tool call 2: boom"},
		{&agentcheck.MessageError{Message: 0, Role: agentcheck.AI, ToolCall: 2, Name: "get", Err: inner}, `message 0 (ai), tool call 2 "get": boom`},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
		if !errors.Is(tt.err, inner) {
			t.Errorf("%q does not unwrap", tt.want)
		}
	}
}

// TestConversationValidate covers ragas's rule for tool messages.
func TestConversationValidate(t *testing.T) {
	tc := []agentcheck.ToolCall{call("f", `{}`)}
	tests := []struct {
		name string
		conv agentcheck.Conversation
		err  string
	}{
		{"tool after ai with calls", agentcheck.Conversation{{Role: agentcheck.Human}, {Role: agentcheck.AI, ToolCalls: tc}, {Role: agentcheck.Tool}}, ""},
		{"tool after tool", agentcheck.Conversation{{Role: agentcheck.AI, ToolCalls: tc}, {Role: agentcheck.Tool}, {Role: agentcheck.Tool}}, ""},
		{"tool after ai with an empty list", agentcheck.Conversation{{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{}}, {Role: agentcheck.Tool}}, ""},
		{"system is kept", agentcheck.Conversation{{Role: agentcheck.System}, {Role: agentcheck.Human}}, ""},
		{"tool first", agentcheck.Conversation{{Role: agentcheck.Tool}}, "message 0 (tool): a tool message must follow an ai message with tool calls, but it is the first message"},
		{"tool after ai without calls", agentcheck.Conversation{{Role: agentcheck.AI}, {Role: agentcheck.Tool}}, "message 1 (tool): a tool message must follow an ai message with tool calls or another tool message, but message 0 is an ai message without tool calls"},
		{"calls on a human message", agentcheck.Conversation{{Role: agentcheck.Human, ToolCalls: tc}}, "message 0 (human): only ai messages make tool calls"},
		{"nameless call", agentcheck.Conversation{{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{{Args: jsonvalue.Object()}}}}, "message 0 (ai), tool call 0: tool call has no name"},
		{"array args", agentcheck.Conversation{{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{{Name: "f", Args: jsonvalue.Array()}}}}, ""},
		{"string args", agentcheck.Conversation{{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{{Name: "f", Args: jsonvalue.String("x")}}}}, ""},
		{"unknown role", agentcheck.Conversation{{Role: "robot"}}, `message 0 (robot): unknown role "robot" (want human, ai, tool or system)`},
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

func call(name, args string) agentcheck.ToolCall { return agentcheck.MustParseToolCall(name, args) }

// sameValue compares Values as identical: the same JSON text, key order
// and number kinds included (Equal would take 1 and 1.0 for the same).
var sameValue = cmp.Comparer(func(a, b jsonvalue.Value) bool { return a.Kind() == b.Kind() && a.String() == b.String() })
