package agenttest_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
)

// ptrTranscript is a Transcript of pointer type whose method dereferences
// its receiver, as an adapter's may.
type ptrTranscript struct{ conv agentcheck.Conversation }

func (p *ptrTranscript) Conversation() (agentcheck.Conversation, error) { return p.conv, nil }

// sliceTranscript is a Transcript of slice type: nil is an empty one.
type sliceTranscript []string

func (s sliceTranscript) Conversation() (agentcheck.Conversation, error) {
	var c agentcheck.Conversation
	for _, text := range s {
		c = append(c, agentcheck.Message{Role: agentcheck.Human, Content: text})
	}
	return c, nil
}

// funcTranscript is a Transcript of func type.
type funcTranscript func() (agentcheck.Conversation, error)

func (f funcTranscript) Conversation() (agentcheck.Conversation, error) { return f() }

// TestSampleOf: SampleOf takes exactly what its doc lists; nil, nil
// pointers (a Transcript's included) and other types are errors naming the
// type, never a panic.
func TestSampleOf(t *testing.T) {
	conv := agentcheck.Conversation{{Role: agentcheck.Human, Content: "hi"}}
	calls := []agentcheck.ToolCall{agentcheck.MustParseToolCall("f", `{}`)}
	sample := agentcheck.Sample{Conversation: conv, Reference: "done"}
	for _, tt := range []struct {
		name   string
		actual any
		want   agentcheck.Sample
	}{
		{"Sample", sample, sample},
		{"*Sample", &sample, sample},
		{"Conversation", conv, agentcheck.Sample{Conversation: conv}},
		{"*Conversation", &conv, agentcheck.Sample{Conversation: conv}},
		{"[]Message", []agentcheck.Message(conv), agentcheck.Sample{Conversation: conv}},
		{"[]ToolCall", calls, agentcheck.Sample{Conversation: agentcheck.Conversation{{Role: agentcheck.AI, ToolCalls: calls}}}},
		{"Transcript", &ptrTranscript{conv}, agentcheck.Sample{Conversation: conv}},
		{"nil slice Transcript", sliceTranscript(nil), agentcheck.Sample{}},
	} {
		got, err := agenttest.SampleOf(tt.actual)
		if err != nil || got.Reference != tt.want.Reference || got.Conversation.String() != tt.want.Conversation.String() {
			t.Errorf("%s: Expected %v, but got %v, %v", tt.name, tt.want, got, err)
		}
	}
	for _, tt := range []struct {
		name   string
		actual any
		says   string
	}{
		{"nil", nil, "cannot take tool calls from <nil>"},
		{"nil *Sample", (*agentcheck.Sample)(nil), "nil *agentcheck.Sample"},
		{"nil *Conversation", (*agentcheck.Conversation)(nil), "nil *agentcheck.Conversation"},
		{"nil pointer Transcript", (*ptrTranscript)(nil), "nil *agenttest_test.ptrTranscript"},
		{"nil func Transcript", funcTranscript(nil), "nil agenttest_test.funcTranscript"},
		{"a Transcript that fails", funcTranscript(func() (agentcheck.Conversation, error) { return nil, errors.New("bad message 3") }), "agenttest_test.funcTranscript: bad message 3"},
		{"another type", []string{"hi"}, "cannot take tool calls from []string"},
	} {
		_, err := agenttest.SampleOf(tt.actual)
		if err == nil || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("%s: Expected an error saying %q, but got %v", tt.name, tt.says, err)
		}
		if _, err := agenttest.ConversationOf(tt.actual); err == nil {
			t.Errorf("%s: Expected ConversationOf to fail too", tt.name)
		}
	}
}
