package genkit_test

import (
	"context"
	"strings"
	"testing"

	"github.com/firebase/genkit/go/ai"
	gk "github.com/firebase/genkit/go/genkit"
	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/genkit"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

type weatherIn struct {
	City string  `json:"city"`
	Days float64 `json:"days"`
}

type forecast struct {
	Summary string  `json:"summary"`
	TempC   float64 `json:"temp_c"`
}

// fakeModel answers as a model plugin does, offline: when the last message
// is not a tool message, it asks for the weather in Paris and in Rome (refs
// when withRefs, else none, which Genkit fills in), else it gives the final
// answer. It records the request in the response, as Genkit's plugins do.
// With a stream callback it streams the answer in chunks first.
func fakeModel(withRefs bool) ai.ModelFunc {
	return func(ctx context.Context, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
		var parts []*ai.Part
		if last := req.Messages[len(req.Messages)-1]; last.Role != ai.RoleTool {
			ref := func(s string) string {
				if withRefs {
					return s
				}
				return ""
			}
			parts = []*ai.Part{
				ai.NewReasoningPart("The user wants two cities.", nil),
				ai.NewTextPart("Let me check."),
				ai.NewToolRequestPart(&ai.ToolRequest{Name: "get_weather", Ref: ref("call_paris"), Input: map[string]any{"city": "Paris", "days": 2.0}}),
				ai.NewToolRequestPart(&ai.ToolRequest{Name: "get_weather", Ref: ref("call_rome"), Input: map[string]any{"city": "Rome", "days": 1}}),
			}
		} else {
			parts = []*ai.Part{ai.NewTextPart("Paris: sunny, "), ai.NewTextPart("Rome: rain.")}
		}
		if cb != nil {
			for _, p := range parts {
				if err := cb(ctx, &ai.ModelResponseChunk{Content: []*ai.Part{p}}); err != nil {
					return nil, err
				}
			}
		}
		return &ai.ModelResponse{Request: req, Message: ai.NewModelMessage(parts...), FinishReason: ai.FinishReasonStop}, nil
	}
}

// runAgent runs a real Generate (or GenerateStream) with the fake model and
// a defined tool: Genkit runs the tool loop itself.
func runAgent(t *testing.T, stream, withRefs bool) *ai.ModelResponse {
	t.Helper()
	ctx := context.Background()
	g := gk.Init(ctx)
	gk.DefineModel(g, "fake/weather", &ai.ModelOptions{Supports: &ai.ModelSupports{Multiturn: true, Tools: true, SystemRole: true}}, fakeModel(withRefs))
	tool := gk.DefineTool(g, "get_weather", "Forecast for a city", func(tc *ai.ToolContext, in weatherIn) (forecast, error) {
		if in.City == "Paris" {
			return forecast{Summary: "sunny", TempC: 21.5}, nil
		}
		return forecast{Summary: "rain", TempC: 14}, nil
	})
	opts := []ai.GenerateOption{
		ai.WithModelName("fake/weather"),
		ai.WithSystem("You forecast the weather."),
		ai.WithPrompt("Weather in Paris for 2 days and Rome for 1?"),
		ai.WithTools(tool),
	}
	if !stream {
		resp, err := gk.Generate(ctx, g, opts...)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	var resp *ai.ModelResponse
	chunks := 0
	for v, err := range gk.GenerateStream(ctx, g, opts...) {
		if err != nil {
			t.Fatal(err)
		}
		if v.Done {
			resp = v.Response
		} else {
			chunks++
		}
	}
	// 4 parts of the first turn, the tool message, 2 parts of the answer.
	if chunks != 7 {
		t.Errorf("streamed %d chunks, want 7", chunks)
	}
	return resp
}

// weatherConversation is the run as written by hand.
func weatherConversation() agentcheck.Conversation {
	return agentcheck.Conversation{
		{Role: agentcheck.System, Content: "You forecast the weather."},
		{Role: agentcheck.Human, Content: "Weather in Paris for 2 days and Rome for 1?"},
		{Role: agentcheck.AI, Content: "Let me check.", ToolCalls: []agentcheck.ToolCall{
			{ID: "call_paris", Name: "get_weather", Args: jsonvalue.MustParse(`{"city":"Paris","days":2.0}`)},
			{ID: "call_rome", Name: "get_weather", Args: jsonvalue.MustParse(`{"city":"Rome","days":1}`)},
		}},
		{Role: agentcheck.Tool, Content: `{"summary":"sunny","temp_c":21.5}`, ToolCallID: "call_paris"},
		{Role: agentcheck.Tool, Content: `{"summary":"rain","temp_c":14}`, ToolCallID: "call_rome"},
		{Role: agentcheck.AI, Content: "Paris: sunny, \nRome: rain."},
	}
}

// inCallOrder puts the run's two Tool messages in the order of their
// calls: Genkit runs the tools at once and records their responses in the
// order they finish.
func inCallOrder(conv agentcheck.Conversation) {
	if len(conv) > 4 && conv[3].ToolCallID == "call_rome" {
		conv[3], conv[4] = conv[4], conv[3]
	}
}

var sameValue = cmp.Comparer(func(a, b jsonvalue.Value) bool { return a.Kind() == b.Kind() && a.String() == b.String() })

func TestGenerate(t *testing.T) {
	for _, stream := range []bool{false, true} {
		resp := runAgent(t, stream, true)
		for name, tr := range map[string]agentcheck.Transcript{
			"Response":          genkit.Response(resp),
			"Messages(History)": genkit.Messages(resp.History()),
		} {
			conv, err := tr.Conversation()
			if err != nil {
				t.Fatalf("stream=%v %s: %v", stream, name, err)
			}
			inCallOrder(conv)
			if diff := cmp.Diff(weatherConversation(), conv, sameValue); diff != "" {
				t.Errorf("stream=%v %s (-want +got):\n%s", stream, name, diff)
			}
			if err := conv.Validate(); err != nil {
				t.Errorf("stream=%v %s: %v", stream, name, err)
			}
		}
	}
}

// Without refs from the model, Genkit gives each tool request a random
// ref and its response the same: the calls keep them and stay paired.
func TestGenerateGenkitRefs(t *testing.T) {
	conv, err := genkit.Response(runAgent(t, false, false)).Conversation()
	if err != nil {
		t.Fatal(err)
	}
	calls := conv[2].ToolCalls
	if len(calls) != 2 || len(conv) != 6 {
		t.Fatalf("conversation:\n%v", conv)
	}
	for k, tc := range calls {
		if tc.ID == "" || strings.HasPrefix(tc.ID, "call_") {
			t.Errorf("call %d has ID %q, want Genkit's ref", k, tc.ID)
		}
	}
	// Paris's forecast answers the Paris call, whichever finished first.
	for _, m := range conv[3:5] {
		k := 1
		if strings.Contains(m.Content, "sunny") {
			k = 0
		}
		if m.Role != agentcheck.Tool || m.ToolCallID != calls[k].ID {
			t.Errorf("%s message %q answers %q, want %q", m.Role, m.Content, m.ToolCallID, calls[k].ID)
		}
	}
	if calls[0].ID == calls[1].ID {
		t.Errorf("both calls have ID %q", calls[0].ID)
	}
}
