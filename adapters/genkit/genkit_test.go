package genkit_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/plugins/googlegenai"
	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/genkit"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

type museumsIn struct {
	City    string `json:"city"`
	OpenNow bool   `json:"open_now"`
}

// transcript is a run with every kind of part, built with Genkit's own
// constructors.
func transcript() []*ai.Message {
	weather := ai.NewToolRequestPart(&ai.ToolRequest{Ref: "r1", Name: "weather", Input: map[string]any{"days": 2.0, "city": "Paris"}})
	interrupted := ai.NewToolRequestPart(&ai.ToolRequest{Ref: "r9", Name: "book", Input: map[string]any{"hotel": "Lutetia"}})
	interrupted.Metadata = map[string]any{"interrupt": map[string]any{"reason": "confirm"}}
	return []*ai.Message{
		ai.NewSystemTextMessage("You plan trips."),
		ai.NewUserMessage(ai.NewTextPart("Plan Paris."), ai.NewMediaPart("image/png", "data:image/png;base64,AAAA"), ai.NewTextPart(""), ai.NewTextPart("Two days."), ai.NewDataPart("ref TRIP-7")),
		ai.NewModelMessage(
			ai.NewReasoningPart("Weather, hotels, time, museums.", []byte("sig")),
			ai.NewTextPart("Checking."),
			weather,
			// No ref: paired by name below, and given a stable ID.
			ai.NewToolRequestPart(&ai.ToolRequest{Name: "hotels", Input: json.RawMessage(`{"city": "Paris", "max": 150.0, "stars": [4, 5]}`)}),
			ai.NewToolRequestPart(&ai.ToolRequest{Ref: "r3", Name: "clock"}),
			ai.NewToolRequestPart(&ai.ToolRequest{Ref: "r4", Name: "museums", Input: museumsIn{City: "Paris", OpenNow: true}}),
		),
		ai.NewMessage(ai.RoleTool, nil,
			ai.NewResponseForToolRequest(weather, "sunny"),
			ai.NewToolResponsePart(&ai.ToolResponse{Name: "hotels", Output: []any{map[string]any{"name": "Lutetia", "price": 140.0, "note": "<b>&</b>"}}}),
			ai.NewToolResponsePart(&ai.ToolResponse{Ref: "r3", Name: "clock", Output: map[string]any{"utc": true, "time": "09:00"}}),
		),
		// A multipart response, in a user message with text of its own.
		ai.NewUserMessage(
			ai.NewToolResponsePart(&ai.ToolResponse{Ref: "r4", Name: "museums", Content: []*ai.Part{ai.NewTextPart("Louvre"), ai.NewMediaPart("image/jpeg", "https://example.com/l.jpg"), ai.NewTextPart("Orsay")}}),
			ai.NewTextPart("Also, cheap please."),
		),
		// Code execution, as Genkit's Google AI plugin reports it.
		ai.NewModelMessage(
			googlegenai.NewExecutableCodePart("PYTHON", "print(150*2)"),
			googlegenai.NewCodeExecutionResultPart("OUTCOME_OK", "300\n"),
			googlegenai.NewExecutableCodePart("PYTHON", "1/0"),
			googlegenai.NewCodeExecutionResultPart("OUTCOME_FAILED", "ZeroDivisionError"),
			ai.NewTextPart("Total: 300 EUR."),
		),
		// A call that Genkit interrupted: it has no response.
		ai.NewModelMessage(ai.NewTextPart("Booking."), interrupted),
	}
}

func TestMessages(t *testing.T) {
	got, err := genkit.Messages(transcript()).Conversation()
	if err != nil {
		t.Fatal(err)
	}
	code := func(id, src string) agentcheck.ToolCall {
		return agentcheck.ToolCall{ID: id, Name: "code_execution", Kind: agentcheck.HostedTool, Args: jsonvalue.Object(
			jsonvalue.Member{Key: "code", Value: jsonvalue.String(src)}, jsonvalue.Member{Key: "language", Value: jsonvalue.String("PYTHON")})}
	}
	want := agentcheck.Conversation{
		{Role: agentcheck.System, Content: "You plan trips."},
		{Role: agentcheck.Human, Content: "Plan Paris.\nTwo days.\nref TRIP-7"},
		{Role: agentcheck.AI, Content: "Checking.", ToolCalls: []agentcheck.ToolCall{
			{ID: "r1", Name: "weather", Args: jsonvalue.MustParse(`{"city":"Paris","days":2.0}`)},
			{ID: "call_2_3", Name: "hotels", Args: jsonvalue.MustParse(`{"city":"Paris","max":150.0,"stars":[4,5]}`)},
			{ID: "r3", Name: "clock"},
			{ID: "r4", Name: "museums", Args: jsonvalue.MustParse(`{"city":"Paris","open_now":true}`)},
		}},
		{Role: agentcheck.Tool, Content: "sunny", ToolCallID: "r1"},
		{Role: agentcheck.Tool, Content: `[{"name":"Lutetia","note":"<b>&</b>","price":140}]`, ToolCallID: "call_2_3"},
		{Role: agentcheck.Tool, Content: `{"time":"09:00","utc":true}`, ToolCallID: "r3"},
		{Role: agentcheck.Tool, Content: "Louvre\nOrsay", ToolCallID: "r4"},
		{Role: agentcheck.Human, Content: "Also, cheap please."},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{code("call_5_0", "print(150*2)")}},
		{Role: agentcheck.Tool, Content: "300\n", ToolCallID: "call_5_0"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{code("call_5_2", "1/0")}},
		{Role: agentcheck.Tool, Content: "ZeroDivisionError", ToolCallID: "call_5_2", IsError: true},
		{Role: agentcheck.AI, Content: "Total: 300 EUR."},
		{Role: agentcheck.AI, Content: "Booking.", ToolCalls: []agentcheck.ToolCall{{ID: "r9", Name: "book", Args: jsonvalue.MustParse(`{"hotel":"Lutetia"}`)}}},
	}
	if diff := cmp.Diff(want, got, sameValue); diff != "" {
		t.Errorf("conversation (-want +got):\n%s", diff)
	}
	if err := got.Validate(); err != nil {
		t.Error(err)
	}
	// The IDs are stable: converting again gives the same conversation.
	again, err := genkit.Messages(transcript()).Conversation()
	if err != nil || !cmp.Equal(got, again, sameValue) {
		t.Errorf("second conversion differs (%v):\n%v", err, again)
	}
	// A Response of the same run, its last message the answer.
	msgs := transcript()
	n := len(msgs) - 1
	conv, err := genkit.Response(&ai.ModelResponse{Request: ai.NewModelRequest(nil, msgs[:n]...), Message: msgs[n]}).Conversation()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, conv, sameValue); diff != "" {
		t.Errorf("Response (-want +got):\n%s", diff)
	}
}

// By name, a response without a ref answers the earliest unanswered
// request of that name, whether that request had a ref or not.
func TestPairByName(t *testing.T) {
	msgs := []*ai.Message{
		ai.NewUserTextMessage("Two cities."),
		ai.NewModelMessage(
			ai.NewToolRequestPart(&ai.ToolRequest{Name: "weather", Input: map[string]any{"city": "Paris"}}),
			ai.NewToolRequestPart(&ai.ToolRequest{Ref: "rome", Name: "weather", Input: map[string]any{"city": "Rome"}}),
			ai.NewToolRequestPart(&ai.ToolRequest{Name: "weather", Input: map[string]any{"city": "Oslo"}}),
		),
		ai.NewMessage(ai.RoleTool, nil,
			ai.NewToolResponsePart(&ai.ToolResponse{Name: "weather", Output: "Paris: sun"}),
			ai.NewToolResponsePart(&ai.ToolResponse{Name: "weather", Output: "Rome: rain"}),
			ai.NewToolResponsePart(&ai.ToolResponse{Name: "weather", Output: "Oslo: snow"}),
		),
	}
	conv, err := genkit.Messages(msgs).Conversation()
	if err != nil {
		t.Fatal(err)
	}
	var ids, answered []string
	for _, tc := range conv[1].ToolCalls {
		ids = append(ids, tc.ID)
	}
	for _, m := range conv[2:] {
		answered = append(answered, m.ToolCallID)
	}
	want := []string{"call_1_0", "rome", "call_1_2"}
	if !cmp.Equal(ids, want) || !cmp.Equal(answered, want) {
		t.Errorf("calls %q answered by %q, want %q", ids, answered, want)
	}
}

func TestResponse(t *testing.T) {
	answer := ai.NewModelTextMessage("Hi.")
	for _, tt := range []struct {
		name string
		resp *ai.ModelResponse
		want string
	}{
		{"no request", &ai.ModelResponse{Message: answer}, "[0] ai: Hi."},
		{"no message", &ai.ModelResponse{Request: ai.NewModelRequest(nil, ai.NewUserTextMessage("Hello"))}, "[0] human: Hello"},
		{"both", &ai.ModelResponse{Request: ai.NewModelRequest(nil, ai.NewUserTextMessage("Hello")), Message: answer}, "[0] human: Hello\n[1] ai: Hi."},
		{"empty", &ai.ModelResponse{}, ""},
	} {
		conv, err := genkit.Response(tt.resp).Conversation()
		if err != nil || conv.String() != tt.want {
			t.Errorf("%s: got %q, %v; want %q", tt.name, conv, err, tt.want)
		}
	}
	if _, err := genkit.Response(nil).Conversation(); err == nil || err.Error() != "genkit: the model response is nil" {
		t.Errorf("nil response: %v", err)
	}
	// An error in the answer names it by its place in the history.
	bad := &ai.ModelResponse{
		Request: ai.NewModelRequest(nil, ai.NewUserTextMessage("Hello")),
		Message: ai.NewModelMessage(ai.NewToolRequestPart(&ai.ToolRequest{Name: "f", Input: map[string]any{"c": make(chan int)}})),
	}
	_, err := genkit.Response(bad).Conversation()
	if want := `message 1 (ai), tool call 0 "f": part 0: input: c: agentcheck: cannot convert chan int to a JSON value: json: unsupported type: chan int`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestErrors(t *testing.T) {
	user := ai.NewUserTextMessage("Go.")
	req := func(ref, name string, input any) *ai.Part {
		return ai.NewToolRequestPart(&ai.ToolRequest{Ref: ref, Name: name, Input: input})
	}
	resp := func(ref, name string, output any) *ai.Part {
		return ai.NewToolResponsePart(&ai.ToolResponse{Ref: ref, Name: name, Output: output})
	}
	model := func(parts ...*ai.Part) *ai.Message { return ai.NewModelMessage(parts...) }
	tool := func(parts ...*ai.Part) *ai.Message { return ai.NewMessage(ai.RoleTool, nil, parts...) }
	for _, tt := range []struct {
		name     string
		msgs     []*ai.Message
		message  int
		toolCall int
		err      string
	}{
		{"nil message", []*ai.Message{user, nil}, 1, -1,
			`message 1: the message is nil`},
		{"unknown role", []*ai.Message{user, ai.NewTextMessage("robot", "beep")}, 1, -1,
			`message 1: unknown role "robot" (want user, model, system or tool)`},
		{"no role", []*ai.Message{{Content: []*ai.Part{ai.NewTextPart("x")}}}, 0, -1,
			`message 0: unknown role "" (want user, model, system or tool)`},
		{"nil part", []*ai.Message{user, model(ai.NewTextPart("a"), nil)}, 1, -1,
			`message 1 (ai): part 1 is nil`},
		{"unknown part kind", []*ai.Message{user, model(&ai.Part{Kind: 42, Text: "?"})}, 1, -1,
			`message 1 (ai): part 0: unknown part kind 42`},
		// An input that is a string or a list, or not valid JSON, is no
		// error: see TestMalformedInput.
		{"input not convertible", []*ai.Message{user, model(req("r1", "search", map[string]any{"c": make(chan int)}))}, 1, 0,
			`message 1 (ai), tool call 0 "search": part 0: input: c: agentcheck: cannot convert chan int to a JSON value: json: unsupported type: chan int`},
		{"no name", []*ai.Message{user, model(req("r1", "", map[string]any{}))}, 1, 0,
			`message 1 (ai), tool call 0: part 0: the tool request has no name`},
		{"no tool request", []*ai.Message{user, model(&ai.Part{Kind: ai.PartToolRequest})}, 1, 0,
			`message 1 (ai), tool call 0: part 0: a tool request part without a tool request`},
		{"request in a user message", []*ai.Message{ai.NewUserMessage(ai.NewTextPart("x"), req("r1", "search", nil))}, 0, 0,
			`message 0 (human), tool call 0 "search": part 1: a tool request in a user message: only model messages make tool requests`},
		{"response in a model message", []*ai.Message{user, model(req("r1", "f", nil), resp("r1", "f", "x"))}, 1, -1,
			`message 1 (ai): part 1: a tool response in a model message: only tool and user messages hold tool responses`},
		{"response in a system message", []*ai.Message{ai.NewSystemMessage(resp("r1", "f", "x"))}, 0, -1,
			`message 0 (system): part 0: a tool response in a system message: only tool and user messages hold tool responses`},
		{"unknown ref", []*ai.Message{user, model(req("r1", "f", nil)), tool(resp("r9", "f", "x"))}, 2, -1,
			`message 2 (tool): part 0: tool response "f" answers ref "r9", which no tool request made`},
		{"ref answered twice", []*ai.Message{user, model(req("r1", "f", nil)), tool(resp("r1", "f", "x"), resp("r1", "f", "y"))}, 2, -1,
			`message 2 (tool): part 1: tool response "f" answers ref "r1", whose tool request is answered already`},
		{"ref of another tool", []*ai.Message{user, model(req("r1", "f", nil)), tool(resp("r1", "g", "x"))}, 2, -1,
			`message 2 (tool): part 0: tool response "g" answers ref "r1", a request of "f"`},
		{"name never requested", []*ai.Message{user, model(req("r1", "f", nil)), tool(resp("", "g", "x"))}, 2, -1,
			`message 2 (tool): part 0: tool response "g" answers no tool request: no request of that name was made`},
		{"name answered", []*ai.Message{user, model(req("", "f", nil)), tool(resp("", "f", "x"), resp("", "f", "y"))}, 2, -1,
			`message 2 (tool): part 1: tool response "f" answers no tool request: every request of that name is answered already`},
		{"neither ref nor name", []*ai.Message{user, model(req("r1", "f", nil)), tool(resp("", "", "x"))}, 2, -1,
			`message 2 (tool): part 0: the tool response has neither a ref nor a name to pair it with its tool request`},
		{"no tool response", []*ai.Message{user, model(req("r1", "f", nil)), tool(&ai.Part{Kind: ai.PartToolResponse})}, 2, -1,
			`message 2 (tool): part 0: a tool response part without a tool response`},
		{"response out of place", []*ai.Message{user, model(req("r1", "f", nil)), user, tool(resp("r1", "f", "x"))}, 3, -1,
			`message 3 (tool): part 0: tool response "f" must follow the model message that made the call, or other tool responses`},
		{"response first", []*ai.Message{tool(resp("r1", "f", "x"))}, 0, -1,
			`message 0 (tool): part 0: tool response "f" answers ref "r1", which no tool request made`},
		{"output not convertible", []*ai.Message{user, model(req("r1", "f", nil)), tool(resp("r1", "f", func() {}))}, 2, -1,
			`message 2 (tool): part 0: tool response "f": output: json: unsupported type: func()`},
		{"text in a tool message", []*ai.Message{user, model(req("r1", "f", nil)), tool(resp("r1", "f", "x"), ai.NewTextPart("note"))}, 2, -1,
			`message 2 (tool): part 1: a tool message holds tool responses, not text ("note")`},
		{"tool message without responses", []*ai.Message{user, model(req("r1", "f", nil)), tool()}, 2, -1,
			`message 2 (tool): a tool message without tool responses`},
		{"code not an object", []*ai.Message{user, model(ai.NewCustomPart(map[string]any{"executableCode": "print(1)"}))}, 1, 0,
			`message 1 (ai), tool call 0 "code_execution": part 0: executableCode must be an object, got string`},
		{"code result without code", []*ai.Message{user, model(ai.NewTextPart("x"), googlegenai.NewCodeExecutionResultPart("OUTCOME_OK", "1"))}, 1, -1,
			`message 1 (ai): part 1: codeExecutionResult answers no tool request: no request of that name was made`},
		{"code result output", []*ai.Message{user, model(googlegenai.NewExecutableCodePart("PYTHON", "1"), ai.NewCustomPart(map[string]any{"codeExecutionResult": map[string]any{"output": 1}}))}, 1, -1,
			`message 1 (ai): part 1: codeExecutionResult: "output" must be a string, got int`},
	} {
		_, err := genkit.Messages(tt.msgs).Conversation()
		var me *agentcheck.MessageError
		if !errors.As(err, &me) {
			t.Errorf("%s: got %v, want a *agentcheck.MessageError", tt.name, err)
			continue
		}
		if err.Error() != tt.err || me.Message != tt.message || me.ToolCall != tt.toolCall {
			t.Errorf("%s:\n got %v (message %d, tool call %d)\nwant %s (message %d, tool call %d)", tt.name, err, me.Message, me.ToolCall, tt.err, tt.message, tt.toolCall)
		}
	}
}
