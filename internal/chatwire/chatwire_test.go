package chatwire_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/internal/chatwire"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// sameAsRead is conv as the format can carry it: no error flags, reasoning
// or call kinds, and a tool_call_id on tool messages only.
func sameAsRead(conv agentcheck.Conversation) agentcheck.Conversation {
	out := make(agentcheck.Conversation, len(conv))
	for i, m := range conv {
		m.IsError, m.Reasoning = false, ""
		if m.Role != agentcheck.Tool {
			m.ToolCallID = ""
		}
		if m.ToolCalls != nil {
			calls := make([]agentcheck.ToolCall, len(m.ToolCalls))
			for j, tc := range m.ToolCalls {
				tc.Kind = agentcheck.FunctionTool
				calls[j] = tc
			}
			m.ToolCalls = calls
			if len(calls) == 0 {
				m.ToolCalls = nil // an empty list is not written
			}
		}
		out[i] = m
	}
	return out
}

var valueText = cmp.Comparer(func(a, b jsonvalue.Value) bool { return a.String() == b.String() })

func roundTrip(t *testing.T, conv agentcheck.Conversation) {
	t.Helper()
	data, err := chatwire.Messages(conv)
	if err != nil {
		t.Fatalf("Messages: %v\n%s", err, conv)
	}
	back, err := dataset.ParseOpenAIMessages(data)
	if err != nil {
		t.Fatalf("ParseOpenAIMessages: %v\n%s", err, data)
	}
	if diff := cmp.Diff(sameAsRead(conv), back, valueText); diff != "" {
		t.Fatalf("read back differs (-written +read):\n%s\nwire: %s", diff, data)
	}
}

var texts = []string{"", "Paris", "a <b> & \"c\"", "línea\nnueva", "🙂", `{"json": "in text"}`, "\u2028"}

func randomValue(r *rand.Rand, depth int) jsonvalue.Value {
	switch k := r.IntN(8); {
	case k == 0:
		return jsonvalue.Int(r.Int64N(2000) - 1000)
	case k == 1:
		return jsonvalue.Float(float64(r.IntN(100)) / 4)
	case k == 2:
		return jsonvalue.Bool(r.IntN(2) == 0)
	case k == 3:
		return jsonvalue.Value{}
	case k == 4 && depth < 3:
		items := make([]jsonvalue.Value, r.IntN(3))
		for i := range items {
			items[i] = randomValue(r, depth+1)
		}
		return jsonvalue.Array(items...)
	case k == 5 && depth < 3:
		return randomObject(r, depth+1)
	}
	return jsonvalue.String(texts[r.IntN(len(texts))])
}

func randomObject(r *rand.Rand, depth int) jsonvalue.Value {
	members := make([]jsonvalue.Member, r.IntN(4))
	for i := range members {
		members[i] = jsonvalue.Member{Key: fmt.Sprintf("k%d_%s", i, texts[r.IntN(len(texts))]), Value: randomValue(r, depth)}
	}
	return jsonvalue.Object(members...)
}

// Generated conversations of every shape the wrappers send (system prompt,
// turns of user messages, tool calls with any arguments, results, errors)
// read back as they were written.
func TestMessagesReadBackAsWritten(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 16))
	for n := range 500 {
		var conv agentcheck.Conversation
		if r.IntN(2) == 0 {
			conv = append(conv, agentcheck.Message{Role: agentcheck.System, Content: texts[r.IntN(len(texts))]})
		}
		for turn := range 1 + r.IntN(3) {
			conv = append(conv, agentcheck.Message{Role: agentcheck.Human, Content: texts[r.IntN(len(texts))]})
			for step := range r.IntN(3) {
				ai := agentcheck.Message{Role: agentcheck.AI, Content: texts[r.IntN(len(texts))], Reasoning: "thought", ToolCalls: []agentcheck.ToolCall{}}
				var results agentcheck.Conversation
				for c := range 1 + r.IntN(3) {
					tc := agentcheck.ToolCall{ID: fmt.Sprintf("call_%d_%d_%d", turn, step, c), Name: fmt.Sprintf("tool_%d", r.IntN(3)), Kind: agentcheck.MCPTool}
					switch r.IntN(6) {
					case 0:
						tc.InvalidArgs = `{"city": "Par`
					case 1:
						tc.Args = randomValue(r, 0) // not an object: kept as it is
						if tc.Args.Kind() == jsonvalue.NullKind {
							tc.Args = jsonvalue.Object() // null arguments read back as none, {}
						}
					default:
						tc.Args = randomObject(r, 0)
					}
					ai.ToolCalls = append(ai.ToolCalls, tc)
					results = append(results, agentcheck.Message{Role: agentcheck.Tool, ToolCallID: tc.ID, Content: texts[r.IntN(len(texts))], IsError: r.IntN(3) == 0})
				}
				conv = append(conv, ai)
				conv = append(conv, results...)
			}
			conv = append(conv, agentcheck.Message{Role: agentcheck.AI, Content: texts[r.IntN(len(texts))]})
		}
		t.Run(fmt.Sprint(n), func(t *testing.T) { roundTrip(t, conv) })
	}
}

func TestContentIsNullOnlyBesideCalls(t *testing.T) {
	conv := agentcheck.Conversation{
		{Role: agentcheck.Human, Content: ""},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{{ID: "c1", Name: "f"}}},
		{Role: agentcheck.Tool, ToolCallID: "c1", Content: ""},
		{Role: agentcheck.AI, Content: ""},
	}
	data, err := chatwire.Messages(conv)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"role":"user","content":""},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},` +
		`{"role":"tool","content":"","tool_call_id":"c1"},{"role":"assistant","content":""}]`
	if string(data) != want {
		t.Errorf("got  %s\nwant %s", data, want)
	}
}

func TestWhatTheFormatCannotCarryIsAnErrorNamingTheMessage(t *testing.T) {
	for _, c := range []struct {
		conv agentcheck.Conversation
		want string
		call int
	}{
		{agentcheck.Conversation{{Role: agentcheck.Human}, {Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{{ID: "a", Name: "f"}, {Name: "book"}}}},
			`message 1 (ai), tool call 1 "book": the call has no ID, which Chat Completions needs to pair it with its result`, 1},
		{agentcheck.Conversation{{Role: agentcheck.Human}, {Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{{ID: "a", Name: "f"}}}, {Role: agentcheck.Tool, Content: "x"}},
			"message 2 (tool): a tool result needs the ID of the call it answers (tool_call_id)", -1},
		{agentcheck.Conversation{{Role: "robot"}}, `message 0 (robot): unknown role "robot"`, -1},
	} {
		_, err := chatwire.Messages(c.conv)
		var me *agentcheck.MessageError
		if !errors.As(err, &me) || err.Error() != c.want || me.ToolCall != c.call {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
}

// Any Chat Completions messages that read as a conversation are written back
// as messages that read as the same conversation.
func FuzzReadWriteRead(f *testing.F) {
	for _, s := range []string{
		`[{"role":"system","content":"s"},{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"a\": 1.0, \"b\": [1, {\"c\": null}]}"}}]},{"role":"tool","tool_call_id":"c","content":"ok"},{"role":"assistant","content":"done"}]`,
		`[{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},{"role":"assistant","refusal":"no"}]`,
		`[{"role":"developer","content":"d"},{"role":"assistant","tool_calls":[{"id":"x","type":"function","function":{"name":"g","arguments":"{\"bad"}}]},{"role":"function","tool_call_id":"x","content":"r"}]`,
		`{"messages":[{"role":"assistant","tool_calls":[{"id":"y","type":"function","function":{"name":"g","arguments":"[1,2]"}}]}]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		conv, err := dataset.ParseOpenAIMessages([]byte(text))
		if err != nil {
			return
		}
		for _, m := range conv {
			if m.Role == agentcheck.Tool && m.ToolCallID == "" {
				return // the API needs the ID; Messages refuses it
			}
			if m.ToolCalls != nil && len(m.ToolCalls) == 0 {
				return // the API refuses an empty tool_calls list; Messages leaves it out
			}
			for _, tc := range m.ToolCalls {
				if tc.ID == "" {
					return
				}
			}
		}
		roundTrip(t, conv)
	})
}
