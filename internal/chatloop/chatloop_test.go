package chatloop_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"slices"

	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/internal/chatloop"
	"github.com/agentcheck/agentcheck/internal/chatwire"
	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/scenario"
)

// fakeModel answers from a list; its messages are the wire's JSON. It
// keeps the history of its last request and counts the messages decoded.
type fakeModel struct {
	answers []agentcheck.Message
	fail    map[int]error // the n-th Ask (1-based) fails
	asked   int
	decoded int
	last    []json.RawMessage
}

func (f *fakeModel) Decode(messages []byte) ([]json.RawMessage, error) {
	var msgs []json.RawMessage
	err := json.Unmarshal(messages, &msgs)
	f.decoded += len(msgs)
	return msgs, err
}

func (f *fakeModel) Ask(_ context.Context, history []json.RawMessage) (json.RawMessage, agentcheck.Message, judgment.Usage, error) {
	f.asked++
	f.last = slices.Clone(history)
	usage := judgment.Usage{PromptTokens: 10 * f.asked, CompletionTokens: f.asked}
	if err := f.fail[f.asked]; err != nil {
		return nil, agentcheck.Message{}, usage, err
	}
	if f.asked > len(f.answers) {
		return nil, agentcheck.Message{}, usage, errors.New("no answer scripted")
	}
	m := f.answers[f.asked-1]
	// The SDK keeps its own message, even one the wire format refuses.
	sent := json.RawMessage(`{"role":"assistant","content":"unwritable"}`)
	if data, err := chatwire.Messages(agentcheck.Conversation{m}); err == nil {
		sent = data[1 : len(data)-1]
	}
	return sent, m, usage, nil
}

// sent is the history of the last request read back as a conversation.
func (f *fakeModel) sent(t *testing.T) agentcheck.Conversation {
	t.Helper()
	data, err := json.Marshal(f.last)
	if err != nil {
		t.Fatal(err)
	}
	conv, err := dataset.ParseOpenAIMessages(data)
	if err != nil {
		t.Fatalf("the history does not read: %v\n%s", err, data)
	}
	return conv
}

func toolbox(t *testing.T) *scenario.Toolbox {
	t.Helper()
	box, err := scenario.NewToolbox(scenario.Tool{
		Name:       "lookup",
		Parameters: json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}`),
		Func: func(_ context.Context, args json.RawMessage) (string, error) {
			var a struct{ ID int }
			if err := json.Unmarshal(args, &a); err != nil {
				return "", err
			}
			if a.ID == 0 {
				return "", errors.New("no order 0")
			}
			return fmt.Sprintf("order %d: delivered", a.ID), nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return box
}

func calls(ids ...string) agentcheck.Message {
	m := agentcheck.Message{Role: agentcheck.AI}
	for _, id := range ids {
		tc := agentcheck.MustParseToolCall("lookup", `{"id": 1042}`)
		if id == "zero" {
			tc = agentcheck.MustParseToolCall("lookup", `{"id": 0}`)
		}
		if id == "bad" {
			tc = agentcheck.MustParseToolCall("lookup", `{"id": "x"}`)
		}
		tc.ID = id
		m.ToolCalls = append(m.ToolCalls, tc)
	}
	return m
}

var sameText = cmp.Comparer(func(a, b jsonvalue.Value) bool { return a.String() == b.String() })

func TestTurnRunsToolsUntilTheModelAnswersInText(t *testing.T) {
	h := &fakeModel{answers: []agentcheck.Message{
		calls("c1", "zero"),
		calls("bad"),
		{Role: agentcheck.AI, Content: "Order 1042 was delivered."},
	}}
	loop := &chatloop.Loop[json.RawMessage]{Name: "test agent", System: "You look orders up.", Tools: toolbox(t)}
	conv := agentcheck.Conversation{{Role: agentcheck.Human, Content: "Where is order 1042?"}}
	reply, err := loop.Turn(context.Background(), conv, h)
	if err != nil {
		t.Fatal(err)
	}
	results := []agentcheck.Message{
		{Role: agentcheck.Tool, ToolCallID: "c1", Content: "order 1042: delivered"},
		{Role: agentcheck.Tool, ToolCallID: "zero", Content: "error: no order 0", IsError: true},
		{Role: agentcheck.Tool, ToolCallID: "bad", Content: "error: the arguments do not fit the tool's schema: /id: got string, want integer", IsError: true},
	}
	want := []agentcheck.Message{h.answers[0], results[0], results[1], h.answers[1], results[2], h.answers[2]}
	if diff := cmp.Diff(want, reply.Messages, sameText); diff != "" {
		t.Errorf("reply (-want +got):\n%s", diff)
	}
	if reply.Usage != (judgment.Usage{PromptTokens: 60, CompletionTokens: 6}) {
		t.Errorf("usage %+v, want the three responses' summed", reply.Usage)
	}
	// What the model was sent last: the system prompt, the conversation,
	// each answer and its results, in order (the error flag has no place on
	// the wire).
	sent := append(agentcheck.Conversation{{Role: agentcheck.System, Content: "You look orders up."}, conv[0]}, want[:len(want)-1]...)
	for i := range sent {
		sent[i].IsError = false
	}
	if diff := cmp.Diff(sent, h.sent(t), sameText); diff != "" {
		t.Errorf("history (-want +got):\n%s", diff)
	}
}

// The next turn's conversation starts with the last one's: only what is
// new is decoded, and the model is sent the same as if all were.
func TestTurnDecodesOnlyWhatIsNew(t *testing.T) {
	answers := []agentcheck.Message{calls("c1"), {Role: agentcheck.AI, Content: "Delivered."}, {Role: agentcheck.AI, Content: "You're welcome."}}
	loop := &chatloop.Loop[json.RawMessage]{Name: "test agent", System: "You look orders up.", Tools: toolbox(t)}
	conv := agentcheck.Conversation{{Role: agentcheck.Human, Content: "Where is order 1042?"}}
	m := &fakeModel{answers: answers}
	first, err := loop.Turn(context.Background(), conv, m)
	if err != nil {
		t.Fatal(err)
	}
	if m.decoded != 3 { // the system prompt, the question, the tool result
		t.Errorf("turn 1 decoded %d messages, want 3", m.decoded)
	}
	conv = append(append(conv, first.Messages...), agentcheck.Message{Role: agentcheck.Human, Content: "Thanks!"})
	m.decoded = 0
	if _, err := loop.Turn(context.Background(), conv, m); err != nil {
		t.Fatal(err)
	}
	if m.decoded != 4 { // the turn's three messages and the thanks
		t.Errorf("turn 2 decoded %d messages, want 4", m.decoded)
	}
	full := append(agentcheck.Conversation{{Role: agentcheck.System, Content: "You look orders up."}}, conv...)
	if diff := cmp.Diff(full, m.sent(t), sameText); diff != "" {
		t.Errorf("turn 2 sent (-want +got):\n%s", diff)
	}

	// Another conversation is decoded whole, and a problem in it is named
	// by its index in the conversation given (the system prompt aside).
	other := agentcheck.Conversation{{Role: agentcheck.Human, Content: "Hi"}, {Role: agentcheck.Tool, Content: "x"}}
	m = &fakeModel{answers: answers[1:]}
	_, err = loop.Turn(context.Background(), other, m)
	if err == nil || err.Error() != "test agent: the conversation: message 1 (tool): a tool result needs the ID of the call it answers (tool_call_id)" {
		t.Errorf("err = %v", err)
	}
	conv[1].Content = "changed"
	m = &fakeModel{answers: answers[1:]}
	if _, err := loop.Turn(context.Background(), conv, m); err != nil || m.decoded != len(conv)+1 {
		t.Errorf("a changed conversation decoded %d messages (%v), want all %d", m.decoded, err, len(conv)+1)
	}
	// A problem past what is known is named by its index too.
	bad := append(slices.Clone(conv), agentcheck.Message{Role: agentcheck.Tool, Content: "y"})
	if _, err := loop.Turn(context.Background(), bad, &fakeModel{}); err == nil ||
		err.Error() != fmt.Sprintf("test agent: the conversation: message %d (tool): a tool result needs the ID of the call it answers (tool_call_id)", len(conv)) {
		t.Errorf("err = %v", err)
	}
}

func TestTurnIsBounded(t *testing.T) {
	for _, c := range []struct{ max, requests int }{{0, chatloop.DefaultMaxRequests}, {-1, chatloop.DefaultMaxRequests}, {1, 1}, {3, 3}} {
		h := &fakeModel{}
		for i := range 20 {
			h.answers = append(h.answers, calls(fmt.Sprint("c", i)))
		}
		reply, err := (&chatloop.Loop[json.RawMessage]{Name: "test agent", Tools: toolbox(t), MaxRequests: c.max}).Turn(context.Background(), nil, h)
		want := fmt.Sprintf("test agent: the model called tools in each of its %d requests of this turn and never answered in text; WithMaxRequests(%[1]d) bounds a turn", c.requests)
		if err == nil || err.Error() != want {
			t.Errorf("MaxRequests %d: err = %v, want %q", c.max, err, want)
		}
		if h.asked != c.requests || len(reply.Messages) != 2*c.requests {
			t.Errorf("MaxRequests %d: asked %d times, %d messages; want %d and the turn so far", c.max, h.asked, len(reply.Messages), c.requests)
		}
	}
}

func TestTurnErrorsKeepTheTurnSoFar(t *testing.T) {
	boom := errors.New("boom")
	h := &fakeModel{answers: []agentcheck.Message{calls("c1")}, fail: map[int]error{2: boom}}
	reply, err := (&chatloop.Loop[json.RawMessage]{Name: "test agent", Tools: toolbox(t)}).Turn(context.Background(), nil, h)
	if !errors.Is(err, boom) || err.Error() != "test agent: model request 2 of the turn: boom" {
		t.Errorf("err = %v", err)
	}
	if len(reply.Messages) != 2 || reply.Usage != (judgment.Usage{PromptTokens: 30, CompletionTokens: 3}) {
		t.Errorf("reply %+v: want the first request's messages and both requests' usage", reply)
	}

	// A conversation the wire format cannot carry, and results that the
	// history refuses, are errors that say which.
	_, err = (&chatloop.Loop[json.RawMessage]{Name: "test agent"}).Turn(context.Background(), agentcheck.Conversation{{Role: agentcheck.Tool, Content: "x"}}, &fakeModel{})
	if err == nil || err.Error() != "test agent: the conversation: message 0 (tool): a tool result needs the ID of the call it answers (tool_call_id)" {
		t.Errorf("err = %v", err)
	}
	h = &fakeModel{answers: []agentcheck.Message{calls("")}}
	_, err = (&chatloop.Loop[json.RawMessage]{Name: "test agent", Tools: toolbox(t)}).Turn(context.Background(), nil, h)
	if err == nil || err.Error() != "test agent: model request 1 of the turn: the tool results: message 0 (tool): a tool result needs the ID of the call it answers (tool_call_id)" {
		t.Errorf("err = %v", err)
	}
}

func TestOne(t *testing.T) {
	m, err := chatloop.One(agentcheck.Conversation{{Role: agentcheck.AI, Content: "hi"}}, nil)
	if err != nil || m.Content != "hi" {
		t.Errorf("One = %+v, %v", m, err)
	}
	if _, err := chatloop.One(nil, errors.New("bad")); err == nil || err.Error() != "the model's message: bad" {
		t.Errorf("err = %v", err)
	}
	if _, err := chatloop.One(make(agentcheck.Conversation, 2), nil); err == nil || err.Error() != "the model's message reads as 2 messages" {
		t.Errorf("err = %v", err)
	}
}
