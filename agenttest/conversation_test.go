package agenttest

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestConversationString(t *testing.T) {
	conv := Conversation{
		{Role: Human, Content: "Find Chinese restaurants\nand book one"},
		{Role: AI, Content: "Searching...", ToolCalls: []ToolCall{
			call("restaurant_search", `{"cuisine": "Chinese", "max": 3, "near": {"lat": 1.5, "lon": -0.0}}`),
			{Name: "list_tables"},
		}},
		{Role: Tool, Content: "Found Golden Dragon"},
		{Role: AI, ToolCalls: []ToolCall{}},
		{Role: AI, Content: "Done!"},
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
	if got := (Conversation{}).String(); got != "" {
		t.Errorf("empty conversation renders %q", got)
	}
}

func TestConversationToolCalls(t *testing.T) {
	a, b, c := call("a", `{}`), call("b", `{"x": 1}`), call("c", `{}`)
	conv := Conversation{
		{Role: Human, Content: "go"},
		{Role: AI, ToolCalls: []ToolCall{a, b}},
		{Role: Tool},
		{Role: Tool},
		{Role: AI, ToolCalls: []ToolCall{c}},
		{Role: Tool},
		{Role: AI, Content: "done"},
	}
	if diff := cmp.Diff([]ToolCall{a, b, c}, conv.ToolCalls(), equalValues); diff != "" {
		t.Errorf("ToolCalls (-want +got):\n%s", diff)
	}
	if got := (Conversation{{Role: Human}, {Role: AI}}).ToolCalls(); got != nil {
		t.Errorf("no calls: %v, want nil", got)
	}
}

func TestToolCallConstructors(t *testing.T) {
	tc := NewToolCall("search", map[string]any{"q": "go", "limit": 10, "exact": true, "w": 0.5})
	if got := tc.String(); got != `search({"exact":true,"limit":10,"q":"go","w":0.5})` {
		t.Errorf("NewToolCall: %s (keys sorted, numbers kept)", got)
	}
	if got := NewToolCall("noop", nil).String(); got != "noop()" {
		t.Errorf("NewToolCall without args: %s", got)
	}
	tc, err := ParseToolCall("search", `{"q": "go", "limit": 10.0}`)
	if err != nil || tc.String() != `search({"q":"go","limit":10.0})` {
		t.Errorf("ParseToolCall: %v, %v", tc, err)
	}
	_, err = ParseToolCall("search", `{"q": }`)
	var se *SyntaxError
	if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), `tool call "search": arguments: line 1, column 7:`) {
		t.Errorf("ParseToolCall syntax error: %v", err)
	}
	if _, err := ParseToolCall("search", `[1]`); err == nil || err.Error() != `tool call "search": arguments must be a JSON object, got array` {
		t.Errorf("ParseToolCall array: %v", err)
	}
	func() {
		defer func() {
			if r := recover(); r == nil {
				t.Error("MustParseToolCall did not panic")
			}
		}()
		MustParseToolCall("x", "{")
	}()
	func() {
		defer func() {
			r := recover()
			if s, _ := r.(string); !strings.Contains(s, `NewToolCall("x")`) {
				t.Errorf("NewToolCall panic = %v, want one naming the call", r)
			}
		}()
		NewToolCall("x", map[string]any{"f": func() {}})
	}()
}

func TestMessageErrorText(t *testing.T) {
	inner := errors.New("boom")
	tests := []struct {
		err  *MessageError
		want string
	}{
		{&MessageError{Message: 3, ToolCall: -1, Err: inner}, "message 3: boom"},
		{&MessageError{Message: 3, Role: AI, ToolCall: -1, Err: inner}, "message 3 (ai): boom"},
		{&MessageError{Message: 0, Role: AI, ToolCall: 2, Err: inner}, "message 0 (ai), tool call 2: boom"},
		{&MessageError{Message: 0, Role: AI, ToolCall: 2, Name: "get", Err: inner}, `message 0 (ai), tool call 2 "get": boom`},
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
