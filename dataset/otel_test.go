package dataset_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

func otelCall(id, name, args string) agentcheck.ToolCall {
	return agentcheck.ToolCall{ID: id, Name: name, Args: jsonvalue.MustParse(args)}
}

func TestParseOTelMessages(t *testing.T) {
	tests := []struct {
		name, data string
		want       agentcheck.Conversation
	}{
		{"input history", `[
			{"role": "system", "parts": [{"type": "text", "content": "You book tables."}]},
			{"role": "user", "parts": [
				{"type": "text", "content": "A table for two"},
				{"type": "blob", "modality": "image", "mime_type": "image/png", "content": "AAAA"},
				{"type": "text", "content": "in Paris"}]},
			{"role": "assistant", "parts": [
				{"type": "reasoning", "content": "The user wants a table."},
				{"type": "text", "content": "Checking."},
				{"type": "tool_call", "id": "c1", "name": "find", "arguments": {"city": "Paris", "people": 2, "budget": 50.0}},
				{"type": "tool_call", "id": "c2", "name": "weather", "arguments": "{\"city\": \"Paris\", \"days\": 2.0}"},
				{"type": "tool_call", "id": "c3", "name": "clock"},
				{"type": "tool_call", "id": null, "name": "noop", "arguments": ""}],
			 "finish_reason": "tool_call"},
			{"role": "tool", "parts": [
				{"type": "tool_call_response", "id": "c1", "response": {"table": 7, "price": 1.0}},
				{"type": "tool_call_response", "id": "c2", "response": "sunny"},
				{"type": "tool_call_response", "id": "c3", "result": "20:00"},
				{"type": "tool_call_response", "response": null}]},
			{"role": "assistant", "parts": [{"type": "text", "content": "Table 7."}, {"type": "x-custom", "data": 1}]}]`,
			agentcheck.Conversation{
				{Role: agentcheck.System, Content: "You book tables."},
				{Role: agentcheck.Human, Content: "A table for two\nin Paris"},
				{Role: agentcheck.AI, Content: "Checking.", ToolCalls: []agentcheck.ToolCall{
					otelCall("c1", "find", `{"city": "Paris", "people": 2, "budget": 50.0}`),
					otelCall("c2", "weather", `{"city": "Paris", "days": 2.0}`),
					otelCall("c3", "clock", `{}`),
					otelCall("", "noop", `{}`),
				}},
				{Role: agentcheck.Tool, Content: `{"table":7,"price":1.0}`, ToolCallID: "c1"},
				{Role: agentcheck.Tool, Content: "sunny", ToolCallID: "c2"},
				{Role: agentcheck.Tool, Content: "20:00", ToolCallID: "c3"},
				{Role: agentcheck.Tool},
				{Role: agentcheck.AI, Content: "Table 7."},
			}},
		{"output: one choice with its finish reason", `[{"role": "assistant", "parts": [{"type": "text", "content": "Hello"}], "finish_reason": "stop"}]`,
			agentcheck.Conversation{{Role: agentcheck.AI, Content: "Hello"}}},
		{"results in a user message come before its text", `[
			{"role": "user", "parts": [{"type": "text", "content": "weather?"}]},
			{"role": "assistant", "parts": [{"type": "tool_call", "id": "t1", "name": "weather", "arguments": {"city": "Oslo"}}]},
			{"role": "user", "parts": [{"type": "text", "content": "and be quick"}, {"type": "tool_call_response", "id": "t1", "response": "snow"}]}]`,
			agentcheck.Conversation{
				{Role: agentcheck.Human, Content: "weather?"},
				{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{otelCall("t1", "weather", `{"city": "Oslo"}`)}},
				{Role: agentcheck.Tool, Content: "snow", ToolCallID: "t1"},
				{Role: agentcheck.Human, Content: "and be quick"},
			}},
		{"a result given as text", `[
			{"role": "assistant", "parts": [{"type": "tool_call", "name": "clock"}]},
			{"role": "tool", "parts": [{"type": "text", "content": "20:00"}]}]`,
			agentcheck.Conversation{
				{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{otelCall("", "clock", `{}`)}},
				{Role: agentcheck.Tool, Content: "20:00"},
			}},
		{"server tool calls are hosted, their responses follow", `[
			{"role": "user", "parts": [{"type": "text", "content": "news?"}]},
			{"role": "assistant", "parts": [
				{"type": "server_tool_call", "id": "ws_1", "name": "web_search", "server_tool_call": {"type": "web_search", "query": "news"}},
				{"type": "server_tool_call_response", "id": "ws_1", "server_tool_call_response": {"type": "web_search", "results": 3}},
				{"type": "text", "content": "Three stories."}]}]`,
			agentcheck.Conversation{
				{Role: agentcheck.Human, Content: "news?"},
				{Role: agentcheck.AI, Content: "Three stories.", ToolCalls: []agentcheck.ToolCall{{ID: "ws_1", Name: "web_search", Args: jsonvalue.MustParse(`{"query": "news"}`), Kind: agentcheck.HostedTool}}},
				{Role: agentcheck.Tool, Content: `{"type":"web_search","results":3}`, ToolCallID: "ws_1"},
			}},
		{"no messages", `[]`, agentcheck.Conversation{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := dataset.ParseOTelMessages([]byte(tt.data))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, sameValue); diff != "" {
				t.Errorf("conversation (-want +got):\n%s", diff)
			}
		})
	}
}

// The same conversation as OTel messages and as OpenAI Chat Completions
// messages reads the same.
func TestParseOTelMessagesSameAsOpenAI(t *testing.T) {
	openAI, err := dataset.ParseOpenAIMessages([]byte(`[
		{"role": "user", "content": "Weather in Paris?"},
		{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "weather", "arguments": "{\"city\": \"Paris\", \"days\": 2.0}"}}]},
		{"role": "tool", "tool_call_id": "c1", "content": "rainy"},
		{"role": "assistant", "content": "Rainy."}]`))
	if err != nil {
		t.Fatal(err)
	}
	otel, err := dataset.ParseOTelMessages([]byte(`[
		{"role": "user", "parts": [{"type": "text", "content": "Weather in Paris?"}]},
		{"role": "assistant", "parts": [{"type": "tool_call", "id": "c1", "name": "weather", "arguments": {"city": "Paris", "days": 2.0}}]},
		{"role": "tool", "parts": [{"type": "tool_call_response", "id": "c1", "response": "rainy"}]},
		{"role": "assistant", "parts": [{"type": "text", "content": "Rainy."}]}]`))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(openAI, otel, sameValue); diff != "" {
		t.Errorf("(-openai +otel):\n%s", diff)
	}
}

func TestParseOTelMessagesErrors(t *testing.T) {
	user := `{"role": "user", "parts": [{"type": "text", "content": "hi"}]}`
	tests := []struct {
		name, data string
		msg, call  int
		want       string
	}{
		{"not a list", `{"role": "user"}`, -1, -1, "want a list of messages, got object"},
		// Arguments that are a list, given or in a string, or not valid
		// JSON, are no error: see TestParseOTelMessagesKeepsMalformedArguments.
		{"call without a name", `[{"role": "assistant", "parts": [{"type": "tool_call", "id": "x", "arguments": {}}]}]`,
			0, 0, `message 0 (ai), tool call 0: part 0 (tool_call): "name" must be a non-empty string`},
		{"unknown role", `[` + user + `, {"role": "critic", "parts": []}]`, 1, -1, `message 1: unknown role "critic" (want user, assistant, system or tool)`},
		{"a call in a user message", `[{"role": "user", "parts": [{"type": "tool_call", "name": "f"}]}]`,
			0, 0, `message 0 (human), tool call 0 "f": part 0: a tool_call part in a message of role "user" (only assistant messages make calls)`},
		{"a result in an assistant message", `[{"role": "assistant", "parts": [{"type": "tool_call_response", "id": "x", "response": 1}]}]`,
			0, -1, `message 0 (ai): part 0: a tool_call_response part in a message of role "assistant"`},
		{"a result of an unknown call", `[` + user + `, {"role": "assistant", "parts": [{"type": "tool_call", "id": "c1", "name": "f"}]},
			{"role": "tool", "parts": [{"type": "tool_call_response", "id": "c9", "response": "?"}]}]`,
			2, -1, `message 2 (tool): tool_call_id "c9" answers no call of message 1 (its calls: "c1")`},
		{"a result with no call before it", `[` + user + `, {"role": "tool", "parts": [{"type": "tool_call_response", "id": "c1", "response": "?"}]}]`,
			1, -1, `message 1 (tool): a tool message must follow an ai message with tool calls or another tool message, but message 0 is a human message`},
		{"text that is not a string", `[{"role": "user", "parts": [{"type": "text", "content": 7}]}]`,
			0, -1, `message 0 (human): part 0 (text): "content" must be a string, got int`},
		{"a part without a type", `[{"role": "user", "parts": [{"content": "hi"}]}]`,
			0, -1, `message 0 (human): part 0: a part must be an object with a "type"`},
		{"parts not a list", `[{"role": "user", "parts": "hi"}]`, 0, -1, `message 0 (human): "parts" must be a list, got string`},
		{"a message not an object", `[` + user + `, "bye"]`, 1, -1, `message 1: a message must be an object, got string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := dataset.ParseOTelMessages([]byte(tt.data))
			if err == nil || err.Error() != tt.want {
				t.Fatalf("error:\n got %v\nwant %s", err, tt.want)
			}
			var me *agentcheck.MessageError
			if !errors.As(err, &me) {
				if tt.msg >= 0 {
					t.Fatalf("error %T is not a *agentcheck.MessageError", err)
				}
				return
			}
			if me.Message != tt.msg || me.ToolCall != tt.call {
				t.Errorf("message %d, call %d; want %d, %d", me.Message, me.ToolCall, tt.msg, tt.call)
			}
		})
	}
}

// weatherSample is the sample of trace 0af7651916cd43dd8448eb211c80319c
// in testdata/otel: two calls, one of which failed, and an answer.
func weatherSample() agentcheck.Sample {
	return agentcheck.Sample{
		Conversation: agentcheck.Conversation{
			{Role: agentcheck.System, Content: "You report the weather."},
			{Role: agentcheck.Human, Content: "Weather in Paris and Rome for two days?"},
			{Role: agentcheck.AI, Content: "Checking both.", ToolCalls: []agentcheck.ToolCall{
				otelCall("call_1", "get_weather", `{"city": "Paris", "days": 2.0}`),
				otelCall("call_2", "get_weather", `{"city": "Rome", "days": 2}`),
			}},
			{Role: agentcheck.Tool, Content: "sunny, 24C", ToolCallID: "call_1"},
			{Role: agentcheck.Tool, Content: `{"error":"timeout"}`, ToolCallID: "call_2", IsError: true},
			{Role: agentcheck.AI, Content: "Paris: sunny, 24C.\nRome: unknown."},
		},
		Reference: "Paris is sunny; Rome's weather is unknown.",
		ReferenceToolCalls: []agentcheck.ToolCall{
			call("get_weather", `{"city": "Paris", "days": 2.0}`),
			call("get_weather", `{"city": "Rome", "days": 3}`),
		},
		ReferenceTopics: []string{"weather"},
	}
}

// readTraces collects ReadOTLPTraces' samples and error texts.
func readTraces(t *testing.T, data, file string) ([]dataset.TraceSample, []string) {
	t.Helper()
	var samples []dataset.TraceSample
	var errs []string
	for s, err := range dataset.ReadOTLPTraces(strings.NewReader(data), file) {
		if err != nil {
			var te *dataset.TraceError
			if !errors.As(err, &te) {
				t.Errorf("error %T is not a *dataset.TraceError: %v", err, err)
			}
			errs = append(errs, err.Error())
			samples = append(samples, dataset.TraceSample{TraceID: "error"})
			continue
		}
		samples = append(samples, s)
	}
	return samples, errs
}

// A collector's file exporter writes one export per line; a trace's spans
// are spread over several, its root (with the references) last.
func TestReadOTLPTracesLines(t *testing.T) {
	data, err := os.ReadFile("testdata/otel/weather.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	samples, errs := readTraces(t, string(data), "weather.jsonl")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(samples) != 2 {
		t.Fatalf("%d samples, want 2", len(samples))
	}
	a, b := samples[0], samples[1]
	if a.TraceID != "0af7651916cd43dd8448eb211c80319c" || a.File != "weather.jsonl" || a.Line != 1 {
		t.Errorf("first trace %s at %s:%d, want 0af7651916cd43dd8448eb211c80319c at weather.jsonl:1", a.TraceID, a.File, a.Line)
	}
	if diff := cmp.Diff(weatherSample(), a.Sample, sameValue); diff != "" {
		t.Errorf("sample (-want +got):\n%s", diff)
	}
	if b.TraceID != "4bf92f3577b34da6a3ce929d0e0e4736" || b.Line != 2 {
		t.Errorf("second trace %s on line %d, want 4bf92f3577b34da6a3ce929d0e0e4736 on line 2", b.TraceID, b.Line)
	}
	want := agentcheck.Sample{Conversation: agentcheck.Conversation{{Role: agentcheck.Human, Content: "Hi"}, {Role: agentcheck.AI, Content: "Hello!"}}}
	if diff := cmp.Diff(want, b.Sample, sameValue); diff != "" {
		t.Errorf("second sample (-want +got):\n%s", diff)
	}
}

// One pretty-printed document, with the messages and references recorded
// in structured form (arrayValue, kvlistValue) and the spans in another
// order, reads as the same sample.
func TestReadOTLPTracesDocument(t *testing.T) {
	data, err := os.ReadFile("testdata/otel/weather.json")
	if err != nil {
		t.Fatal(err)
	}
	samples, errs := readTraces(t, string(data), "weather.json")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(samples) != 1 {
		t.Fatalf("%d samples, want 1", len(samples))
	}
	if diff := cmp.Diff(weatherSample(), samples[0].Sample, sameValue); diff != "" {
		t.Errorf("sample (-want +got):\n%s", diff)
	}
	if samples[0].Line != 22 {
		t.Errorf("trace on line %d, want 22 (its first span's spanId)", samples[0].Line)
	}
	// Arguments that are not valid JSON deep in the document load as
	// they are, on their call.
	broken := strings.Replace(string(data), `"stringValue": "{\"city\": \"Rome\", \"days\": 2}"`, `"stringValue": "{\"city\": \"Rome\", \"days\": }"`, 1)
	if broken == string(data) {
		t.Fatal("the fixture changed: no argument to break")
	}
	samples, errs = readTraces(t, broken, "weather.json")
	if len(errs) != 0 || len(samples) != 1 {
		t.Fatalf("broken arguments: %d samples, errors %q; want 1 sample and no error", len(samples), errs)
	}
	calls := samples[0].Sample.Conversation.ToolCalls()
	if len(calls) != 2 || calls[1].ID != "call_2" || calls[1].InvalidArgs != `{"city": "Rome", "days": }` || calls[1].Args.Kind() != jsonvalue.NullKind ||
		calls[0].InvalidArgs != "" || calls[0].Args.String() != `{"city":"Paris","days":2.0}` {
		t.Errorf("broken arguments: calls %+v, want call_2 with InvalidArgs and call_1 as it was", calls)
	}
	// A call without a name deep in the document is located on its
	// span's line.
	nameless := strings.Replace(broken, `"stringValue": "call_2"
                                              }
                                            },
                                            {
                                              "key": "name",
                                              "value": {
                                                "stringValue": "get_weather"`, `"stringValue": "call_2"
                                              }
                                            },
                                            {
                                              "key": "name",
                                              "value": {
                                                "intValue": "7"`, 1)
	if nameless == broken {
		t.Fatal("the fixture changed: no name to break")
	}
	_, errs = readTraces(t, nameless, "weather.json")
	want := `weather.json:128: trace 0af7651916cd43dd8448eb211c80319c, span 3d2c1b0a99887766 "chat gpt-4o", gen_ai.input.messages: message 1 (ai), tool call 1: part 2 (tool_call): "name" must be a non-empty string`
	if len(errs) != 1 || errs[0] != want {
		t.Errorf("errors:\n got %q\nwant %q", errs, want)
	}
}

// otlpSpan writes a span of trace tid as one OTLP JSON export line.
func otlpLine(tid, sid, parent, name string, end int, attrs ...string) string {
	return fmt.Sprintf(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":%q,"spanId":%q,"parentSpanId":%q,"name":%q,"endTimeUnixNano":"%d","attributes":[%s]}]}]}]}`,
		tid, sid, parent, name, end, strings.Join(attrs, ","))
}

func strAttr(key, value string) string {
	return fmt.Sprintf(`{"key":%q,"value":{"stringValue":%q}}`, key, value)
}

const (
	chatOp = `{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}}`
	hiIn   = `{"key":"gen_ai.input.messages","value":{"stringValue":"[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"hi\"}]}]"}}`
	hiOut  = `{"key":"gen_ai.output.messages","value":{"stringValue":"[{\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"content\":\"hello\"}]}]"}}`
)

// One bad trace never hides the others: each yields its own error, naming
// the file, the line, the trace, the span and what is wrong, in its place.
func TestReadOTLPTracesBadTraces(t *testing.T) {
	lines := []string{
		otlpLine("t1", "s1", "", "chat", 1, chatOp, hiIn, hiOut),
		otlpLine("t2", "s2", "r2", "chat", 1, chatOp, hiIn,
			`{"key":"gen_ai.output.messages","value":{"stringValue":"[{\"role\":\"assistant\",\"parts\":[{\"type\":\"tool_call\",\"id\":\"c\",\"name\":\"book\",\"arguments\":\"{\\\"day\\\": }\"},{\"type\":\"tool_call\",\"id\":\"d\",\"arguments\":\"{}\"}]}]"}}`),
		`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"t9","spanId":"s9",`,
		otlpLine("t3", "s3", "r3", "invoke_agent", 1),
		otlpLine("t4", "s4", "r4", "chat", 1, chatOp, hiIn, hiOut, strAttr("agentcheck.reference_tool_calls", `[]`)),
		otlpLine("t4", "r4", "", "agent", 2),
		otlpLine("t5", "s5", "", "chat", 1, chatOp, hiIn, hiOut, strAttr("agentcheck.reference_tool_calls", `[{"name": "f", "args": "x"}]`)),
		otlpLine("t6", "s6", "", "chat", 1, chatOp, hiOut),
		otlpLine("t7", "s7", "", "chat", 1, chatOp, hiIn, strAttr("gen_ai.output.messages", `[{"role": "assistant", "parts": [`)),
		otlpLine("t8", "s8", "", "chat", 1, chatOp, `{"key":"gen_ai.input.messages","value":{"weirdValue":1}}`),
		`{"spans": []}`,
		otlpLine("t2", "r2", "", "agent", 2),
		otlpLine("t10", "s10", "", "chat", 1, chatOp, hiIn, hiOut, strAttr("agentcheck.reference_tool_calls", `[{"name": "f", "args": {"n": 2.0}}]`)),
	}
	samples, errs := readTraces(t, strings.Join(lines, "\n")+"\n", "runs.otlp.jsonl")
	var ids []string
	for _, s := range samples {
		ids = append(ids, s.TraceID)
	}
	if want := []string{"t1", "error", "error", "error", "error", "error", "error", "error", "error", "error", "t10"}; !cmp.Equal(ids, want) {
		t.Errorf("samples %q, want %q", ids, want)
	}
	want := []string{
		`runs.otlp.jsonl:2: trace t2, span s2 "chat", gen_ai.output.messages: message 0 (ai), tool call 1: part 1 (tool_call): "name" must be a non-empty string`,
		`runs.otlp.jsonl:3: column 74: unexpected end of input, want an object key`,
		`runs.otlp.jsonl:4: trace t3: no chat span (a span with gen_ai.operation.name "chat")`,
		`runs.otlp.jsonl:5: trace t4, span s4 "chat", agentcheck.reference_tool_calls: references belong on the trace's root span, and this span's parent is r4`,
		`runs.otlp.jsonl:7: trace t5, span s5 "chat", agentcheck.reference_tool_calls: reference_tool_calls[0]: "args" must be an object, got string`,
		`runs.otlp.jsonl:8: trace t6, span s6 "chat", gen_ai.input.messages: the last chat span has no input messages (is the instrumentation recording message content?)`,
		`runs.otlp.jsonl:9: trace t7, span s7 "chat", gen_ai.output.messages: not valid JSON: line 1, column 34: unexpected end of input, want a value`,
		`runs.otlp.jsonl:10: trace t8, span s8 "chat", gen_ai.input.messages: unknown value type "weirdValue"`,
		`runs.otlp.jsonl:11: not an OTLP trace export: want an object with "resourceSpans"`,
	}
	if diff := cmp.Diff(want, errs); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	last := samples[len(samples)-1].Sample
	if got := last.ReferenceToolCalls; len(got) != 1 || got[0].Args.String() != `{"n":2.0}` {
		t.Errorf("reference calls %v, want f({\"n\":2.0})", got)
	}
	var me *agentcheck.MessageError
	for _, err := range dataset.ReadOTLPTraces(strings.NewReader(lines[1]), "x") {
		if !errors.As(err, &me) || me.Message != 0 || me.ToolCall != 1 || me.Name != "" {
			t.Errorf("error %v does not unwrap to message 0, call 1 without a name", err)
		}
	}
}

func TestReadOTLPTracesEmpty(t *testing.T) {
	for _, data := range []string{"", "\n  \n"} {
		samples, errs := readTraces(t, data, "empty.jsonl")
		if len(samples) != 0 || len(errs) != 0 {
			t.Errorf("%q: %d samples, errors %q; want none", data, len(samples), errs)
		}
	}
}

// The last chat span is the one that ended last; without end times, the
// last in the list.
func TestOTelTraceSampleLastChat(t *testing.T) {
	chat := func(id string, end time.Time, answer string) dataset.OTelSpan {
		return dataset.OTelSpan{TraceID: "t", SpanID: id, Name: "chat", EndTime: end, Attributes: map[string]jsonvalue.Value{
			"gen_ai.operation.name":  jsonvalue.String("chat"),
			"gen_ai.input.messages":  jsonvalue.String(`[{"role": "user", "parts": [{"type": "text", "content": "hi"}]}]`),
			"gen_ai.output.messages": jsonvalue.MustParse(`[{"role": "assistant", "parts": [{"type": "text", "content": "` + answer + `"}]}]`),
		}}
	}
	t0 := time.Unix(1767225600, 0)
	tests := []struct {
		name  string
		spans []dataset.OTelSpan
		want  string
	}{
		{"by end time", []dataset.OTelSpan{chat("a", t0.Add(2*time.Second), "late"), chat("b", t0.Add(time.Second), "early")}, "late"},
		{"equal end times: by position", []dataset.OTelSpan{chat("a", t0, "first"), chat("b", t0, "second")}, "second"},
		{"an end time unknown: by position", []dataset.OTelSpan{chat("a", t0.Add(time.Hour), "first"), chat("b", time.Time{}, "second")}, "second"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := dataset.OTelTraceSample(tt.spans)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Conversation[len(s.Conversation)-1].Content; got != tt.want {
				t.Errorf("answer %q, want %q", got, tt.want)
			}
		})
	}
}

// When the last chat span's output ends with calls, the results their
// execute_tool spans recorded follow.
func TestOTelTraceSampleToolResults(t *testing.T) {
	spans := []dataset.OTelSpan{
		{TraceID: "t", SpanID: "c", ParentSpanID: "r", Name: "chat", Attributes: map[string]jsonvalue.Value{
			"gen_ai.operation.name":  jsonvalue.String("chat"),
			"gen_ai.input.messages":  jsonvalue.String(`[{"role": "user", "parts": [{"type": "text", "content": "go"}]}]`),
			"gen_ai.output.messages": jsonvalue.String(`[{"role": "assistant", "parts": [{"type": "tool_call", "id": "1", "name": "a"}, {"type": "tool_call", "id": "2", "name": "b"}, {"type": "tool_call", "id": "3", "name": "c"}]}]`),
		}},
		{TraceID: "t", SpanID: "x1", ParentSpanID: "r", Name: "execute_tool a", Attributes: map[string]jsonvalue.Value{
			"gen_ai.operation.name": jsonvalue.String("execute_tool"), "gen_ai.tool.call.id": jsonvalue.String("1"),
			"gen_ai.tool.call.result": jsonvalue.MustParse(`{"ok": 1.0}`),
		}},
		{TraceID: "t", SpanID: "x2", ParentSpanID: "r", Name: "execute_tool b", Error: true, Attributes: map[string]jsonvalue.Value{
			"gen_ai.operation.name": jsonvalue.String("execute_tool"), "gen_ai.tool.call.id": jsonvalue.String("2"),
			"gen_ai.tool.call.result": jsonvalue.String("boom"),
		}},
		{TraceID: "t", SpanID: "r", Name: "agent", Attributes: map[string]jsonvalue.Value{
			"agentcheck.reference_topics": jsonvalue.Array(jsonvalue.String("tools")),
		}},
	}
	s, err := dataset.OTelTraceSample(spans)
	if err != nil {
		t.Fatal(err)
	}
	want := agentcheck.Sample{
		Conversation: agentcheck.Conversation{
			{Role: agentcheck.Human, Content: "go"},
			{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{otelCall("1", "a", `{}`), otelCall("2", "b", `{}`), otelCall("3", "c", `{}`)}},
			{Role: agentcheck.Tool, Content: `{"ok":1.0}`, ToolCallID: "1"},
			{Role: agentcheck.Tool, Content: "boom", ToolCallID: "2", IsError: true},
		},
		ReferenceTopics: []string{"tools"},
	}
	if diff := cmp.Diff(want, s, sameValue); diff != "" {
		t.Errorf("sample (-want +got):\n%s", diff)
	}
}

func TestOTelTraceSampleErrors(t *testing.T) {
	chat := map[string]jsonvalue.Value{
		"gen_ai.operation.name": jsonvalue.String("chat"),
		"gen_ai.input.messages": jsonvalue.String(`[{"role": "user", "parts": [{"type": "text", "content": "hi"}]}]`),
	}
	tests := []struct {
		name  string
		spans []dataset.OTelSpan
		want  string
	}{
		{"no spans", nil, "no spans"},
		{"spans of two traces", []dataset.OTelSpan{{TraceID: "a", SpanID: "1"}, {TraceID: "b", SpanID: "2", Name: "x"}},
			`trace a, span 2 "x": the span is of trace b`},
		{"two roots with references", []dataset.OTelSpan{
			{TraceID: "a", SpanID: "1", Name: "r1", Attributes: map[string]jsonvalue.Value{"agentcheck.reference": jsonvalue.String("x")}},
			{TraceID: "a", SpanID: "2", Name: "r2", ParentSpanID: "remote", Attributes: map[string]jsonvalue.Value{"agentcheck.reference": jsonvalue.String("y")}},
			{TraceID: "a", SpanID: "3", Name: "chat", Attributes: chat}},
			`trace a, span 2 "r2", agentcheck.reference: span 1 "r1", another root, has references too`},
		{"a reference that is not a string", []dataset.OTelSpan{
			{TraceID: "a", SpanID: "1", Name: "r", Attributes: map[string]jsonvalue.Value{"agentcheck.reference": jsonvalue.Int(3)}},
			{TraceID: "a", SpanID: "3", Name: "chat", Attributes: chat}},
			`trace a, span 1 "r", agentcheck.reference: "reference" must be a string, got int`},
		{"topics not JSON", []dataset.OTelSpan{
			{TraceID: "a", SpanID: "1", Name: "r", Attributes: map[string]jsonvalue.Value{"agentcheck.reference_topics": jsonvalue.String("weather")}},
			{TraceID: "a", SpanID: "3", Name: "chat", Attributes: chat}},
			`trace a, span 1 "r", agentcheck.reference_topics: not valid JSON: line 1, column 1: unexpected 'w', want a value`},
		{"system instructions not a list", []dataset.OTelSpan{{TraceID: "a", SpanID: "3", Name: "chat", Attributes: map[string]jsonvalue.Value{
			"gen_ai.operation.name": jsonvalue.String("chat"), "gen_ai.input.messages": chat["gen_ai.input.messages"],
			"gen_ai.system_instructions": jsonvalue.String(`{"type": "text"}`)}}},
			`trace a, span 3 "chat", gen_ai.system_instructions: want a list of parts, got object`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := dataset.OTelTraceSample(tt.spans)
			var te *dataset.TraceError
			if !errors.As(err, &te) {
				t.Fatalf("error %v (%T) is not a *dataset.TraceError", err, err)
			}
			if err.Error() != tt.want {
				t.Errorf("error:\n got %s\nwant %s", err, tt.want)
			}
		})
	}
}

// OTelTraces groups spans by trace, in order of first appearance.
func TestOTelTraces(t *testing.T) {
	span := func(tid, answer string) dataset.OTelSpan {
		return dataset.OTelSpan{TraceID: tid, SpanID: "s" + tid, Name: "chat", Attributes: map[string]jsonvalue.Value{
			"gen_ai.operation.name":  jsonvalue.String("chat"),
			"gen_ai.input.messages":  jsonvalue.String(`[{"role": "user", "parts": [{"type": "text", "content": "hi"}]}]`),
			"gen_ai.output.messages": jsonvalue.String(`[{"role": "assistant", "parts": [{"type": "text", "content": "` + answer + `"}]}]`),
		}}
	}
	bad := dataset.OTelSpan{TraceID: "b", SpanID: "sb", Name: "chat", Attributes: map[string]jsonvalue.Value{"gen_ai.operation.name": jsonvalue.String("chat")}}
	var got []string
	for s, err := range dataset.OTelTraces([]dataset.OTelSpan{span("z", "one"), bad, span("a", "two"), span("z", "three")}) {
		if err != nil {
			got = append(got, "error: "+err.Error())
			continue
		}
		got = append(got, s.TraceID+": "+s.Sample.Conversation[1].Content)
	}
	want := []string{"z: three", `error: trace b, span sb "chat", gen_ai.input.messages: the last chat span has no input messages (is the instrumentation recording message content?)`, "a: two"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// ExampleReadOTLPTraces reads a collector's export of an agent's trace:
// the conversation is its last chat span's input and output messages, the
// reference calls an attribute of its root span.
func ExampleReadOTLPTraces() {
	export := `{"resourceSpans": [{"scopeSpans": [{"spans": [
  {"traceId": "0af7651916cd43dd8448eb211c80319c", "spanId": "00f067aa0ba902b7", "parentSpanId": "b7ad6b7169203331", "name": "chat gpt-4o",
   "attributes": [
    {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
    {"key": "gen_ai.input.messages", "value": {"stringValue": "[{\"role\": \"user\", \"parts\": [{\"type\": \"text\", \"content\": \"Weather in Paris?\"}]}, {\"role\": \"assistant\", \"parts\": [{\"type\": \"tool_call\", \"id\": \"call_1\", \"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 2.0}}]}, {\"role\": \"tool\", \"parts\": [{\"type\": \"tool_call_response\", \"id\": \"call_1\", \"response\": \"rainy, 14C\"}]}]"}},
    {"key": "gen_ai.output.messages", "value": {"stringValue": "[{\"role\": \"assistant\", \"parts\": [{\"type\": \"text\", \"content\": \"Rainy, 14C.\"}], \"finish_reason\": \"stop\"}]"}}]},
  {"traceId": "0af7651916cd43dd8448eb211c80319c", "spanId": "b7ad6b7169203331", "name": "invoke_agent weather",
   "attributes": [
    {"key": "agentcheck.reference_tool_calls", "value": {"stringValue": "[{\"name\": \"get_weather\", \"args\": {\"city\": \"Paris\", \"days\": 2.0}}]"}}]}
]}]}]}`
	for s, err := range dataset.ReadOTLPTraces(strings.NewReader(export), "traces.json") {
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(s.TraceID)
		fmt.Println(s.Sample.Conversation)
		fmt.Println("reference:", s.Sample.ReferenceToolCalls)
	}
	// Output:
	// 0af7651916cd43dd8448eb211c80319c
	// [0] human: Weather in Paris?
	// [1] ai:
	//     -> get_weather({"city":"Paris","days":2.0})
	// [2] tool: rainy, 14C
	// [3] ai: Rainy, 14C.
	// reference: [get_weather({"city":"Paris","days":2.0})]
}

// Whatever it is given, ParseOTelMessages does not panic, and what it
// returns is a valid conversation.
func FuzzParseOTelMessages(f *testing.F) {
	for _, seed := range []string{
		`[{"role": "user", "parts": [{"type": "text", "content": "hi"}]}]`,
		`[{"role": "assistant", "parts": [{"type": "tool_call", "id": "c", "name": "f", "arguments": "{\"a\": 2.0}"}]},
		  {"role": "user", "parts": [{"type": "tool_call_response", "id": "c", "response": {"x": [1]}}, {"type": "text", "content": "ok"}]}]`,
		`[{"role": "assistant", "parts": [{"type": "server_tool_call", "name": "s", "server_tool_call": {"type": "s"}}, {"type": "server_tool_call_response", "server_tool_call_response": {}}]}]`,
		`[{"role": "tool", "parts": []}]`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		conv, err := dataset.ParseOTelMessages(data)
		if err != nil {
			return
		}
		if err := conv.Validate(); err != nil {
			t.Errorf("ParseOTelMessages(%q) gave an invalid conversation: %v", data, err)
		}
	})
}

// Whatever it is given, ReadOTLPTraces does not panic, and every error it
// yields is a *TraceError.
func FuzzReadOTLPTraces(f *testing.F) {
	f.Add([]byte(otlpLine("t", "s", "", "chat", 1, chatOp, hiIn, hiOut, strAttr("agentcheck.reference_tool_calls", `[{"name": "f", "args": {}}]`))))
	f.Add([]byte("{\n \"resourceSpans\": [{\"scopeSpans\": [{\"spans\": [{\"traceId\": \"t\", \"spanId\": \"s\", \"attributes\": [{\"key\": \"gen_ai.input.messages\", \"value\": {\"arrayValue\": {\"values\": [{\"kvlistValue\": {\"values\": []}}]}}}]}]}]}]\n}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, err := range dataset.ReadOTLPTraces(bytes.NewReader(data), "f") {
			var te *dataset.TraceError
			if err != nil && !errors.As(err, &te) {
				t.Errorf("error %T is not a *dataset.TraceError: %v", err, err)
			}
		}
	})
}
