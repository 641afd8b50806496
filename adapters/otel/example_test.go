package otel_test

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentcheck/agentcheck/adapters/otel"
)

// Example converts the spans an instrumented agent run left in an
// in-memory exporter: the conversation is the last chat span's input and
// output messages; the reference calls are an attribute of the root span.
func Example() {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	tracer := tp.Tracer("weather-agent")

	// The agent run, as a GenAI instrumentation traces it.
	ctx, root := tracer.Start(context.Background(), "invoke_agent weather", trace.WithAttributes(
		attribute.String("agentcheck.reference_tool_calls", `[{"name": "get_weather", "args": {"city": "Paris"}}]`)))
	_, chat := tracer.Start(ctx, "chat gpt-4o", trace.WithAttributes(semconv.GenAIOperationNameChat,
		semconv.GenAIInputMessagesKey.String(`[{"role": "user", "parts": [{"type": "text", "content": "Weather in Paris?"}]}]`),
		semconv.GenAIOutputMessagesKey.String(`[{"role": "assistant", "parts": [{"type": "tool_call", "id": "call_1", "name": "get_weather", "arguments": {"city": "Paris"}}], "finish_reason": "tool_call"}]`)))
	chat.End()
	_, tool := tracer.Start(ctx, "execute_tool get_weather", trace.WithAttributes(semconv.GenAIOperationNameExecuteTool,
		semconv.GenAIToolName("get_weather"), semconv.GenAIToolCallID("call_1")))
	tool.End()
	_, chat = tracer.Start(ctx, "chat gpt-4o", trace.WithAttributes(semconv.GenAIOperationNameChat,
		semconv.GenAIInputMessagesKey.String(`[{"role": "user", "parts": [{"type": "text", "content": "Weather in Paris?"}]},
			{"role": "assistant", "parts": [{"type": "tool_call", "id": "call_1", "name": "get_weather", "arguments": {"city": "Paris"}}]},
			{"role": "tool", "parts": [{"type": "tool_call_response", "id": "call_1", "response": "rainy, 14C"}]}]`),
		semconv.GenAIOutputMessagesKey.String(`[{"role": "assistant", "parts": [{"type": "text", "content": "Rainy, 14C."}], "finish_reason": "stop"}]`)))
	chat.End()
	root.End()

	s, err := otel.Spans(exp.GetSpans()).Sample()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Conversation)
	fmt.Println("reference:", s.ReferenceToolCalls)
	// Output:
	// [0] human: Weather in Paris?
	// [1] ai:
	//     -> get_weather({"city":"Paris"})
	// [2] tool: rainy, 14C
	// [3] ai: Rainy, 14C.
	// reference: [get_weather({"city":"Paris"})]
}
