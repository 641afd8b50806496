package otel_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/otel"
	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// The messages of the GenAI semantic conventions, as an instrumentation
// writes them with encoding/json.
type part struct {
	Type      string          `json:"type"`
	Content   string          `json:"content,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Response  any             `json:"response,omitempty"`
}

type message struct {
	Role         string `json:"role"`
	Parts        []part `json:"parts"`
	FinishReason string `json:"finish_reason,omitempty"`
}

// seqIDs gives traces and spans IDs 1, 2, 3..., so that errors can be
// compared whole.
type seqIDs struct {
	mu          sync.Mutex
	trace, span uint64
}

func (g *seqIDs) NewIDs(ctx context.Context) (trace.TraceID, trace.SpanID) {
	g.mu.Lock()
	g.trace++
	var tid trace.TraceID
	binary.BigEndian.PutUint64(tid[8:], g.trace)
	g.mu.Unlock()
	return tid, g.NewSpanID(ctx, tid)
}

func (g *seqIDs) NewSpanID(context.Context, trace.TraceID) trace.SpanID {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.span++
	var sid trace.SpanID
	binary.BigEndian.PutUint64(sid[:], g.span)
	return sid
}

// newTracer is a real SDK tracer that exports each span to an in-memory
// exporter as it ends.
func newTracer(t *testing.T) (trace.Tracer, *tracetest.InMemoryExporter) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp), sdktrace.WithIDGenerator(&seqIDs{}))
	t.Cleanup(func() { tp.Shutdown(context.Background()) })
	return tp.Tracer("weather-agent"), exp
}

// messagesAttr records messages on a span as a JSON string, or, when
// structured, as the SDK's structured values (slices and maps).
func messagesAttr(key attribute.Key, v any, structured bool) attribute.KeyValue {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	if !structured {
		return key.String(string(data))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		panic(err)
	}
	return attribute.KeyValue{Key: key, Value: attrValue(x)}
}

func attrValue(x any) attribute.Value {
	switch x := x.(type) {
	case string:
		return attribute.StringValue(x)
	case bool:
		return attribute.BoolValue(x)
	case json.Number:
		if n, err := x.Int64(); err == nil && !strings.ContainsAny(string(x), ".eE") {
			return attribute.Int64Value(n)
		}
		f, _ := x.Float64()
		return attribute.Float64Value(f)
	case []any:
		vs := make([]attribute.Value, len(x))
		for i, e := range x {
			vs[i] = attrValue(e)
		}
		return attribute.SliceValue(vs...)
	case map[string]any:
		var kvs []attribute.KeyValue
		for k, e := range x {
			kvs = append(kvs, attribute.KeyValue{Key: attribute.Key(k), Value: attrValue(e)})
		}
		return attribute.MapValue(kvs...)
	}
	return attribute.Value{}
}

const referenceCalls = `[{"name": "get_weather", "args": {"city": "Paris", "days": 2.0}}, {"name": "get_weather", "args": {"city": "Rome", "days": 3}}]`

// runAgent traces a weather agent's run as a GenAI instrumentation would:
// an invoke_agent root span holding the references, a chat span per model
// call, each repeating the history so far, and an execute_tool span per
// call, the one for Rome failing. It is the run of trace
// 0af7651916cd43dd8448eb211c80319c in dataset/testdata/otel.
func runAgent(ctx context.Context, tracer trace.Tracer, structured bool) {
	ctx, root := tracer.Start(ctx, "invoke_agent weather", trace.WithAttributes(
		semconv.GenAIOperationNameInvokeAgent, semconv.GenAIAgentName("weather"),
		attribute.String("agentcheck.reference_tool_calls", referenceCalls),
		attribute.String("agentcheck.reference", "Paris is sunny; Rome's weather is unknown."),
		attribute.StringSlice("agentcheck.reference_topics", []string{"weather"})))
	defer root.End()
	system := []part{{Type: "text", Content: "You report the weather."}}
	history := []message{{Role: "user", Parts: []part{{Type: "text", Content: "Weather in Paris and Rome for two days?"}}}}
	chat := func(answer message) {
		_, span := tracer.Start(ctx, "chat gpt-4o", trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(
			semconv.GenAIOperationNameChat, semconv.GenAIProviderNameOpenAI, semconv.GenAIRequestModel("gpt-4o")))
		span.SetAttributes(
			messagesAttr(semconv.GenAISystemInstructionsKey, system, structured),
			messagesAttr(semconv.GenAIInputMessagesKey, history, structured),
			messagesAttr(semconv.GenAIOutputMessagesKey, []message{answer}, structured))
		span.End()
		history = append(history, answer)
	}
	chat(message{Role: "assistant", FinishReason: "tool_call", Parts: []part{
		{Type: "text", Content: "Checking both."},
		{Type: "tool_call", ID: "call_1", Name: "get_weather", Arguments: json.RawMessage(`{"city": "Paris", "days": 2.0}`)},
		{Type: "tool_call", ID: "call_2", Name: "get_weather", Arguments: json.RawMessage(`"{\"city\": \"Rome\", \"days\": 2}"`)},
	}})
	results := message{Role: "tool"}
	for _, r := range []struct {
		id      string
		result  any
		failure string
	}{{"call_1", "sunny, 24C", ""}, {"call_2", map[string]any{"error": "timeout"}, "timeout"}} {
		_, span := tracer.Start(ctx, "execute_tool get_weather", trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(
			semconv.GenAIOperationNameExecuteTool, semconv.GenAIToolName("get_weather"), semconv.GenAIToolCallID(r.id)))
		if r.failure != "" {
			span.SetStatus(codes.Error, r.failure)
		}
		span.End()
		results.Parts = append(results.Parts, part{Type: "tool_call_response", ID: r.id, Response: r.result})
	}
	history = append(history, results)
	chat(message{Role: "assistant", FinishReason: "stop", Parts: []part{
		{Type: "reasoning", Content: "Rome failed."},
		{Type: "text", Content: "Paris: sunny, 24C."},
		{Type: "text", Content: "Rome: unknown."},
	}})
}

func weatherConversation() agentcheck.Conversation {
	return agentcheck.Conversation{
		{Role: agentcheck.System, Content: "You report the weather."},
		{Role: agentcheck.Human, Content: "Weather in Paris and Rome for two days?"},
		{Role: agentcheck.AI, Content: "Checking both.", ToolCalls: []agentcheck.ToolCall{
			{ID: "call_1", Name: "get_weather", Args: jsonvalue.MustParse(`{"city": "Paris", "days": 2.0}`)},
			{ID: "call_2", Name: "get_weather", Args: jsonvalue.MustParse(`{"city": "Rome", "days": 2}`)},
		}},
		{Role: agentcheck.Tool, Content: "sunny, 24C", ToolCallID: "call_1"},
		{Role: agentcheck.Tool, Content: `{"error":"timeout"}`, ToolCallID: "call_2", IsError: true},
		{Role: agentcheck.AI, Content: "Paris: sunny, 24C.\nRome: unknown."},
	}
}

func weatherSample() agentcheck.Sample {
	return agentcheck.Sample{
		Conversation: weatherConversation(),
		Reference:    "Paris is sunny; Rome's weather is unknown.",
		ReferenceToolCalls: []agentcheck.ToolCall{
			agentcheck.MustParseToolCall("get_weather", `{"city": "Paris", "days": 2.0}`),
			agentcheck.MustParseToolCall("get_weather", `{"city": "Rome", "days": 3}`),
		},
		ReferenceTopics: []string{"weather"},
	}
}

// sameSample compares samples, arguments by their JSON (so that 2 and 2.0
// differ) and, for structured attributes, whose maps the SDK sorts by
// key, in canonical key order.
func sameSample(t *testing.T, want, got agentcheck.Sample, canonical bool) {
	t.Helper()
	text := func(v jsonvalue.Value) string {
		if canonical {
			return v.Canonical()
		}
		return v.String()
	}
	render := func(s agentcheck.Sample) string {
		var b strings.Builder
		for _, m := range s.Conversation {
			b.WriteString(strings.Join([]string{string(m.Role), m.Content, m.ToolCallID}, "|"))
			if m.IsError {
				b.WriteString("|error")
			}
			for _, tc := range m.ToolCalls {
				b.WriteString("\n  " + tc.ID + " " + tc.Name + string(tc.Kind) + text(tc.Args))
			}
			b.WriteString("\n")
		}
		b.WriteString("reference: " + s.Reference + "\n")
		for _, tc := range s.ReferenceToolCalls {
			b.WriteString("reference call: " + tc.Name + text(tc.Args) + "\n")
		}
		b.WriteString("topics: " + strings.Join(s.ReferenceTopics, ", "))
		return b.String()
	}
	if w, g := render(want), render(got); w != g {
		t.Errorf("sample:\n got %s\nwant %s", g, w)
	}
}

func TestSpans(t *testing.T) {
	for _, structured := range []bool{false, true} {
		tracer, exp := newTracer(t)
		runAgent(context.Background(), tracer, structured)
		spans := otel.Spans(exp.GetSpans())
		if len(spans) != 5 {
			t.Fatalf("%d spans, want 5", len(spans))
		}
		s, err := spans.Sample()
		if err != nil {
			t.Fatal(err)
		}
		sameSample(t, weatherSample(), s, structured)
		conv, err := spans.Conversation()
		if err != nil {
			t.Fatal(err)
		}
		sameSample(t, agentcheck.Sample{Conversation: weatherConversation()}, agentcheck.Sample{Conversation: conv}, structured)
		// The SDK keeps a float a float, even in a map.
		if got := conv[2].ToolCalls[0].Args.Canonical(); got != `{"city":"Paris","days":2.0}` {
			t.Errorf("structured=%v: arguments %s, want days 2.0", structured, got)
		}
	}
}

// The spans convert as the same trace does in a collector's OTLP JSON
// export, read by the CLI's reader.
func TestSpansSameAsOTLP(t *testing.T) {
	f, err := os.Open("../../dataset/testdata/otel/weather.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var fromFile agentcheck.Sample
	for s, err := range dataset.ReadOTLPTraces(f, "weather.jsonl") {
		if err != nil {
			t.Fatal(err)
		}
		if s.TraceID == "0af7651916cd43dd8448eb211c80319c" {
			fromFile = s.Sample
		}
	}
	tracer, exp := newTracer(t)
	runAgent(context.Background(), tracer, false)
	s, err := otel.Spans(exp.GetSpans()).Sample()
	if err != nil {
		t.Fatal(err)
	}
	sameSample(t, fromFile, s, false)
}

// A SpanRecorder's read-only spans convert as the exporter's stubs do.
func TestFromReadOnly(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer tp.Shutdown(context.Background())
	runAgent(context.Background(), tp.Tracer("weather-agent"), false)
	s, err := otel.FromReadOnly(rec.Ended()).Sample()
	if err != nil {
		t.Fatal(err)
	}
	sameSample(t, weatherSample(), s, false)
}

// Spans of several traces make one sample each, in order of each trace's
// first span; as one Transcript they are an error.
func TestSamples(t *testing.T) {
	tracer, exp := newTracer(t)
	ctx := context.Background()
	runAgent(ctx, tracer, false)
	gctx, greeter := tracer.Start(ctx, "invoke_agent greeter")
	_, chat := tracer.Start(gctx, "chat", trace.WithAttributes(semconv.GenAIOperationNameChat,
		messagesAttr(semconv.GenAIInputMessagesKey, []message{{Role: "user", Parts: []part{{Type: "text", Content: "Hi"}}}}, false),
		messagesAttr(semconv.GenAIOutputMessagesKey, []message{{Role: "assistant", Parts: []part{{Type: "text", Content: "Hello!"}}}}, false)))
	chat.End()
	greeter.End()
	_, lost := tracer.Start(ctx, "invoke_agent lost") // no chat span
	lost.End()

	spans := otel.Spans(exp.GetSpans())
	var got []string
	for s, err := range spans.Samples() {
		if err != nil {
			got = append(got, "error: "+err.Error())
			continue
		}
		got = append(got, s.TraceID+": "+s.Sample.Conversation[len(s.Sample.Conversation)-1].Content)
	}
	want := []string{
		"00000000000000000000000000000001: Paris: sunny, 24C.\nRome: unknown.",
		"00000000000000000000000000000002: Hello!",
		`error: trace 00000000000000000000000000000003: no chat span (a span with gen_ai.operation.name "chat")`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("samples:\n got %q\nwant %q", got, want)
	}
	_, err := spans.Conversation()
	if want := "the spans are of 3 traces (00000000000000000000000000000001, 00000000000000000000000000000002, 00000000000000000000000000000003): read one sample per trace with Samples"; err == nil || err.Error() != want {
		t.Errorf("error:\n got %v\nwant %s", err, want)
	}
	if _, err := otel.Spans(nil).Conversation(); err == nil || err.Error() != "no spans" {
		t.Errorf("no spans: error %v", err)
	}
}

// Malformed attributes are errors naming the trace, the span, the
// attribute and, inside messages, the message and tool call.
func TestErrors(t *testing.T) {
	user := message{Role: "user", Parts: []part{{Type: "text", Content: "Book a table"}}}
	call := func(args string) message {
		return message{Role: "assistant", Parts: []part{{Type: "text", Content: "Booking."},
			{Type: "tool_call", ID: "c1", Name: "find", Arguments: json.RawMessage(`{}`)},
			{Type: "tool_call", ID: "c2", Name: "book", Arguments: json.RawMessage(args)}}}
	}
	tests := []struct {
		name      string
		attrs     []attribute.KeyValue
		root      []attribute.KeyValue
		want      string
		msg, call int // of the *agentcheck.MessageError; -2 for none
	}{
		// Arguments that are not valid JSON, or a number, are no error:
		// the call keeps them (not valid JSON, in InvalidArgs).
		{"unknown role", []attribute.KeyValue{
			messagesAttr(semconv.GenAIInputMessagesKey, []message{user, {Role: "critic", Parts: []part{{Type: "text", Content: "bad"}}}}, false)}, nil,
			`trace 00000000000000000000000000000001, span 0000000000000002 "chat", gen_ai.input.messages: message 1: unknown role "critic" (want user, assistant, system or tool)`,
			1, -1},
		{"a result of an unknown call", []attribute.KeyValue{
			messagesAttr(semconv.GenAIInputMessagesKey, []message{user, call(`{}`), {Role: "tool", Parts: []part{{Type: "tool_call_response", ID: "c9", Response: "ok"}}}}, false)}, nil,
			`trace 00000000000000000000000000000001, span 0000000000000002 "chat", gen_ai.input.messages: message 2 (tool): tool_call_id "c9" answers no call of message 1 (its calls: "c1", "c2")`,
			2, -1},
		{"messages not JSON", []attribute.KeyValue{semconv.GenAIInputMessagesKey.String(`[{"role": "user", "parts": [`)}, nil,
			`trace 00000000000000000000000000000001, span 0000000000000002 "chat", gen_ai.input.messages: not valid JSON: line 1, column 29: unexpected end of input, want a value`,
			-2, 0},
		{"no input messages", []attribute.KeyValue{messagesAttr(semconv.GenAIOutputMessagesKey, []message{call(`{}`)}, false)}, nil,
			`trace 00000000000000000000000000000001, span 0000000000000002 "chat", gen_ai.input.messages: the last chat span has no input messages (is the instrumentation recording message content?)`,
			-2, 0},
		{"reference calls malformed", []attribute.KeyValue{messagesAttr(semconv.GenAIInputMessagesKey, []message{user}, false)},
			[]attribute.KeyValue{attribute.String("agentcheck.reference_tool_calls", `[{"name": "book", "args": [1]}]`)},
			`trace 00000000000000000000000000000001, span 0000000000000001 "invoke_agent", agentcheck.reference_tool_calls: reference_tool_calls[0]: "args" must be an object, got array`,
			-2, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tracer, exp := newTracer(t)
			ctx, root := tracer.Start(context.Background(), "invoke_agent", trace.WithAttributes(tt.root...))
			_, chat := tracer.Start(ctx, "chat", trace.WithAttributes(semconv.GenAIOperationNameChat))
			chat.SetAttributes(tt.attrs...)
			chat.End()
			root.End()
			_, err := otel.Spans(exp.GetSpans()).Conversation()
			if err == nil || err.Error() != tt.want {
				t.Fatalf("error:\n got %v\nwant %s", err, tt.want)
			}
			var te *dataset.TraceError
			if !errors.As(err, &te) || te.TraceID != "00000000000000000000000000000001" {
				t.Errorf("error %T does not unwrap to a *dataset.TraceError of the trace", err)
			}
			var me *agentcheck.MessageError
			if errors.As(err, &me) != (tt.msg != -2) {
				t.Fatalf("error %T: unwraps to a *agentcheck.MessageError: %v, want %v", err, !(tt.msg != -2), tt.msg != -2)
			}
			if me != nil && (me.Message != tt.msg || me.ToolCall != tt.call) {
				t.Errorf("message %d, call %d; want %d, %d", me.Message, me.ToolCall, tt.msg, tt.call)
			}
		})
	}
}
