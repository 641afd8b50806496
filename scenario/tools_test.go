package scenario_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/scenario"
)

func TestNewToolboxRefusesBadTools(t *testing.T) {
	ok := func(context.Context, json.RawMessage) (string, error) { return "", nil }
	for _, c := range []struct {
		name  string
		tools []scenario.Tool
		want  string
	}{
		{"no name", []scenario.Tool{{Func: ok}}, "tool 0 has no name"},
		{"no func", []scenario.Tool{{Name: "lookup"}}, `tool "lookup" has no Func`},
		{"two of a name", []scenario.Tool{{Name: "lookup", Func: ok}, {Name: "lookup", Func: ok}}, `two tools are named "lookup"`},
		{"not JSON", []scenario.Tool{{Name: "lookup", Func: ok, Parameters: json.RawMessage(`{"type":`)}}, "lookup"},
		{"not an object schema", []scenario.Tool{{Name: "lookup", Func: ok, Parameters: json.RawMessage(`"string"`)}}, "lookup"},
	} {
		t.Run(c.name, func(t *testing.T) {
			box, err := scenario.NewToolbox(c.tools...)
			if err == nil || box != nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Expected an error naming %q, but got %v", c.want, err)
			}
		})
	}
}

// Outside a run, Call answers every call with a Tool message paired by
// ID: the Func's result, or an error the model can read.
func TestToolboxCall(t *testing.T) {
	var got []string
	box, err := scenario.NewToolbox(scenario.Tool{
		Name: "book", Parameters: json.RawMessage(`{"type":"object","properties":{"people":{"type":"integer"}},"required":["people"]}`),
		Func: func(_ context.Context, args json.RawMessage) (string, error) {
			got = append(got, string(args))
			var a struct{ People int }
			json.Unmarshal(args, &a)
			if a.People > 8 {
				return "", errors.New("no table that large:\nthe largest seats 8")
			}
			return "booked", nil
		},
	}, scenario.Tool{Name: "ping", Func: func(_ context.Context, args json.RawMessage) (string, error) {
		got = append(got, string(args))
		return "pong", nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	call := func(id, name, args string) agentcheck.ToolCall {
		c := agentcheck.MustParseToolCall(name, args)
		c.ID = id
		return c
	}
	noArgs := agentcheck.ToolCall{ID: "c5", Name: "ping"}
	for _, c := range []struct {
		call    agentcheck.ToolCall
		content string
		isError bool
	}{
		{call("c1", "book", `{"people": 4}`), "booked", false},
		{call("c2", "book", `{"people": "four"}`), "error: the arguments do not fit the tool's schema: /people: got string, want integer", true},
		{call("c3", "cancel", `{}`), `error: there is no tool named "cancel"`, true},
		{call("c4", "book", `{"people": 12}`), "error: no table that large:\nthe largest seats 8", true},
		{noArgs, "pong", false},
	} {
		m := box.Call(context.Background(), c.call)
		if m.Role != agentcheck.Tool || m.ToolCallID != c.call.ID || m.IsError != c.isError || !strings.HasPrefix(m.Content, c.content) {
			t.Errorf("%s: got %+v, want a tool message %q (error %v)", c.call, m, c.content, c.isError)
		}
	}
	if want := []string{`{"people":4}`, `{"people":12}`, `{}`}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("the Funcs were called with %q, want %q (never with arguments that do not fit)", got, want)
	}
	var none *scenario.Toolbox
	if m := none.Call(context.Background(), call("c6", "book", `{}`)); !m.IsError || !strings.Contains(m.Content, `no tool named "book"`) {
		t.Errorf("a nil Toolbox: %+v", m)
	}
}
