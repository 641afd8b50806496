package dataset_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/trajectory"
)

// sameRun is one agent run, two calls and their results, written as each
// format writes it, with the same ragas references.
var sameRun = map[dataset.Format]string{
	dataset.Ragas: `{"user_input": [
	  {"type": "human", "content": "Weather in Paris and Rome?"},
	  {"type": "ai", "content": "", "tool_calls": [{"name": "get_weather", "args": {"city": "Paris", "days": 2.0}}, {"name": "get_weather", "args": {"city": "Rome", "days": 1}}]},
	  {"type": "tool", "content": "sunny"}, {"type": "tool", "content": "rain"},
	  {"type": "ai", "content": "Paris is sunny, Rome rainy."}], ` + refs + `}`,
	dataset.OpenAI: `{"messages": [
	  {"role": "user", "content": "Weather in Paris and Rome?"},
	  {"role": "assistant", "content": null, "tool_calls": [
	    {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\",\"days\":2.0}"}},
	    {"id": "c2", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Rome\",\"days\":1}"}}]},
	  {"role": "tool", "tool_call_id": "c1", "content": "sunny"}, {"role": "tool", "tool_call_id": "c2", "content": "rain"},
	  {"role": "assistant", "content": "Paris is sunny, Rome rainy."}], ` + refs + `}`,
	dataset.Responses: `{"messages": [
	  {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Weather in Paris and Rome?"}]},
	  {"type": "function_call", "call_id": "c1", "name": "get_weather", "arguments": "{\"city\":\"Paris\",\"days\":2.0}"},
	  {"type": "function_call", "call_id": "c2", "name": "get_weather", "arguments": "{\"city\":\"Rome\",\"days\":1}"},
	  {"type": "function_call_output", "call_id": "c1", "output": "sunny"}, {"type": "function_call_output", "call_id": "c2", "output": "rain"},
	  {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Paris is sunny, Rome rainy."}]}], ` + refs + `}`,
	dataset.Anthropic: `{"messages": [
	  {"role": "user", "content": "Weather in Paris and Rome?"},
	  {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "get_weather", "input": {"city": "Paris", "days": 2.0}}, {"type": "tool_use", "id": "c2", "name": "get_weather", "input": {"city": "Rome", "days": 1}}]},
	  {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": "sunny"}, {"type": "tool_result", "tool_use_id": "c2", "content": "rain"}]},
	  {"role": "assistant", "content": [{"type": "text", "text": "Paris is sunny, Rome rainy."}]}], ` + refs + `}`,
	dataset.Gemini: `{"messages": [
	  {"role": "user", "parts": [{"text": "Weather in Paris and Rome?"}]},
	  {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "get_weather", "args": {"city": "Paris", "days": 2.0}}}, {"functionCall": {"id": "c2", "name": "get_weather", "args": {"city": "Rome", "days": 1}}}]},
	  {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "get_weather", "response": {"weather": "sunny"}}}, {"functionResponse": {"id": "c2", "name": "get_weather", "response": {"weather": "rain"}}}]},
	  {"role": "model", "parts": [{"text": "Paris is sunny, Rome rainy."}]}], ` + refs + `}`,
}

const refs = `"reference_tool_calls": [{"name": "get_weather", "args": {"city": "Paris", "days": 2}}, {"name": "get_weather", "args": {"city": "Rome", "days": 1}}], "reference": "Both forecasts given", "reference_topics": ["weather"]`

// TestSameRunSameScores: whichever format a run is written in, and whether
// the format is named or detected, the sample scores the same, to the bit.
func TestSameRunSameScores(t *testing.T) {
	metrics := []metric.Metric{
		metric.ToolCallAccuracy{}, metric.ToolCallAccuracy{AnyOrder: true, ArgSimilarity: metric.Levenshtein},
		metric.ToolCallF1{}, metric.TrajectoryMatch{Mode: trajectory.Unordered, Scoring: trajectory.ScoreF1, Threshold: 0.8},
	}
	scores := func(t *testing.T, s agentcheck.Sample) []float64 {
		var out []float64
		for _, m := range metrics {
			r, err := m.Evaluate(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, r.Score)
		}
		return out
	}
	base, err := dataset.Record{Text: sameRun[dataset.Ragas]}.SampleAs(dataset.Ragas)
	if err != nil {
		t.Fatal(err)
	}
	want := scores(t, base)
	if want[0] != 0.75 || want[2] != 1 {
		t.Fatalf("test bug: 2.0 against 2 should cost ToolCallAccuracy (str) half a call and not ToolCallF1 (==), got %v", want)
	}
	for f, text := range sameRun {
		for _, as := range []dataset.Format{f, dataset.Auto} {
			s, err := dataset.Record{File: "runs.jsonl", Line: 3, Text: text}.SampleAs(as)
			if err != nil {
				t.Fatalf("%s as %s: %v", f, as, err)
			}
			if got := scores(t, s); !equalFloats(got, want) {
				t.Errorf("%s as %s: scores %v, want %v", f, as, got, want)
			}
			if s.Reference != base.Reference || strings.Join(s.ReferenceTopics, ",") != "weather" || len(s.ReferenceToolCalls) != 2 {
				t.Errorf("%s as %s: references %q %q %v", f, as, s.Reference, s.ReferenceTopics, s.ReferenceToolCalls)
			}
			var roles []string
			for _, m := range s.Conversation {
				roles = append(roles, string(m.Role))
			}
			if got := strings.Join(roles, " "); got != "human ai tool tool ai" {
				t.Errorf("%s as %s: roles %s", f, as, got)
			}
			if f != dataset.Ragas && (s.Conversation[2].ToolCallID != "c1" || s.Conversation[3].ToolCallID != "c2") {
				t.Errorf("%s as %s: results not paired with their calls: %+v", f, as, s.Conversation[2:4])
			}
		}
	}
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestSampleAsErrorsSayWhere(t *testing.T) {
	for _, c := range []struct {
		format dataset.Format
		text   string
		want   string
	}{
		{dataset.Auto, `{"messages": [{"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"arguments": "{"}}]}]}`,
			`runs.jsonl:7: sample 4: openai messages: message 0 (ai), tool call 0: "function.name" must be a non-empty string`},
		{dataset.Auto, `{"messages": [{"role": "user", "content": "hi"}], "reference_tool_calls": [{"name": "f", "args": 3}]}`,
			`runs.jsonl:7: sample 4: reference_tool_calls[0]: "args" must be an object, got int`},
		{dataset.OpenAI, `{"user_input": []}`, `runs.jsonl:7: sample 4: "messages" is missing`},
		{dataset.Gemini, `{"messages": [`, `runs.jsonl:7: sample 4: column 15: unexpected end of input`},
		{dataset.Auto, `{"no": "conversation"}`, `runs.jsonl:7: sample 4: "user_input" is missing`},
	} {
		_, err := dataset.Record{File: "runs.jsonl", Line: 7, Index: 4, Text: c.text}.SampleAs(c.format)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s %s: error %v, want it to start %q", c.format, c.text, err, c.want)
		}
	}
	if _, err := dataset.ParseFormat("otel"); err == nil || !strings.Contains(err.Error(), "auto, ragas, openai, responses, anthropic, gemini") {
		t.Errorf("ParseFormat(otel) = %v", err)
	}
}

// TestReadAsAnotherFormatLosesNoCall: a run written in one provider's
// format and read as another's either fails, naming the message and the
// format to read it as, or reads the same calls: it never scores as a run
// in which the agent called nothing.
func TestReadAsAnotherFormatLosesNoCall(t *testing.T) {
	providers := []dataset.Format{dataset.OpenAI, dataset.Responses, dataset.Anthropic, dataset.Gemini}
	for _, written := range providers {
		rec := dataset.Record{File: "run.jsonl", Line: 1, Text: sameRun[written]}
		want, err := rec.SampleAs(written)
		if err != nil {
			t.Fatal(err)
		}
		for _, read := range providers {
			if read == written {
				continue
			}
			s, err := rec.SampleAs(read)
			if err != nil {
				if !strings.Contains(err.Error(), "message ") || !strings.Contains(err.Error(), "read the sample as") {
					t.Errorf("%s read as %s: Expected an error naming the message and the format to read it as, but got: %v", written, read, err)
				}
				continue
			}
			if got := s.Conversation.ToolCalls(); len(got) != len(want.Conversation.ToolCalls()) {
				t.Errorf("%s read as %s: Expected an error or the %d calls, but it read %d calls and no error", written, read, len(want.Conversation.ToolCalls()), len(got))
			}
		}
	}
	// Empty lists and nulls of another format's fields hold nothing to
	// lose: they are no error.
	rec := dataset.Record{File: "run.jsonl", Line: 1, Text: `{"messages": [{"role": "user", "content": "Hi", "tool_calls": [], "parts": []}, {"role": "assistant", "content": [{"type": "text", "text": "Hello"}], "tool_calls": null, "function_call": null}], "reference_tool_calls": []}`}
	if _, err := rec.SampleAs(dataset.Anthropic); err != nil {
		t.Errorf("Expected empty and null fields of other formats to be no error, but got %v", err)
	}
}

// An OpenTelemetry trace export read as samples fails with a hint to
// read it as traces, not with what a ragas sample lacks.
func TestOTLPExportReadAsSamplesSaysHow(t *testing.T) {
	f, err := os.Open("testdata/otel/weather.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for rec, err := range dataset.ReadRecords(f, "weather.jsonl") {
		if err != nil {
			t.Fatal(err)
		}
		if _, err := rec.Sample(); err == nil || !strings.Contains(err.Error(), "OpenTelemetry trace export") || !strings.Contains(err.Error(), "--input-format otel") {
			t.Errorf("record %d: Expected an error saying to read the file as OTLP traces, but got %v", rec.Index, err)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no records in testdata/otel/weather.jsonl")
	}
}
