// Package otel reads the OpenTelemetry GenAI spans of an agent run, as the
// OpenTelemetry Go SDK (go.opentelemetry.io/otel/sdk) hands them to a test,
// as an agentcheck.Conversation or Sample: pass the tracetest.SpanStubs of
// a tracetest.InMemoryExporter (Spans(exporter.GetSpans())), or the
// []sdktrace.ReadOnlySpan of a tracetest.SpanRecorder
// (FromReadOnly(recorder.Ended())), wherever agentcheck, agenttest or
// matchers take a conversation. The conversation is the last chat span's
// gen_ai.input.messages and gen_ai.output.messages (each chat span repeats
// the history so far), recorded as JSON strings or as structured attribute
// values; the references are attributes of the trace's root span
// (agentcheck.reference_tool_calls and the like). The spans are read by
// dataset.OTelTraceSample, as the CLI reads a collector's OTLP JSON export
// (dataset.ReadOTLPTraces), so that a trace converts the same either way.
// Only this package, not agentcheck, depends on the OpenTelemetry SDK.
package otel

import (
	"encoding/base64"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// Spans are the finished spans of agent runs, as a
// tracetest.InMemoryExporter's GetSpans returns them, in any order. As a
// Transcript they must be the spans of one trace; Samples reads one sample
// per trace.
type Spans tracetest.SpanStubs

// FromReadOnly makes Spans of the SDK's read-only spans, as a
// tracetest.SpanRecorder's Ended returns them or an exporter receives
// them.
func FromReadOnly(spans []sdktrace.ReadOnlySpan) Spans {
	return Spans(tracetest.SpanStubsFromReadOnlySpans(spans))
}

// Conversation is the conversation of the one trace the spans are of (see
// Sample). An error names the trace, the span and the attribute, and, in
// an attribute of messages, the message and tool call (a
// *dataset.TraceError wrapping an *agentcheck.MessageError).
func (s Spans) Conversation() (agentcheck.Conversation, error) {
	sample, err := s.Sample()
	return sample.Conversation, err
}

// Sample is the sample of the one trace the spans are of, as
// dataset.OTelTraceSample makes it: the conversation is the last chat
// span's (gen_ai.operation.name "chat") input messages followed by its
// output messages; execute_tool spans add no calls, but one whose status
// is Error marks the result of its gen_ai.tool.call.id as an error; the
// references are the root span's agentcheck.reference_tool_calls (a JSON
// string holding a ragas reference list), agentcheck.reference and
// agentcheck.reference_topics. Spans of several traces are an error.
func (s Spans) Sample() (agentcheck.Sample, error) {
	spans := s.spans()
	if len(spans) == 0 {
		return agentcheck.Sample{}, errors.New("no spans")
	}
	var traces []string
	for _, sp := range spans {
		if !slices.Contains(traces, sp.TraceID) {
			traces = append(traces, sp.TraceID)
		}
	}
	if len(traces) > 1 {
		return agentcheck.Sample{}, fmt.Errorf("the spans are of %d traces (%s): read one sample per trace with Samples", len(traces), strings.Join(traces, ", "))
	}
	return dataset.OTelTraceSample(spans)
}

// Samples reads one sample per trace (see Sample), in order of each
// trace's first span in s; TraceSample.TraceID names the trace. A trace
// that cannot be read yields its *dataset.TraceError, and the others still
// read.
func (s Spans) Samples() iter.Seq2[dataset.TraceSample, error] {
	return dataset.OTelTraces(s.spans())
}

func (s Spans) spans() []dataset.OTelSpan {
	spans := make([]dataset.OTelSpan, len(s))
	for i, st := range s {
		sp := dataset.OTelSpan{
			TraceID:    st.SpanContext.TraceID().String(),
			SpanID:     st.SpanContext.SpanID().String(),
			Name:       st.Name,
			EndTime:    st.EndTime,
			Error:      st.Status.Code == codes.Error,
			Attributes: make(map[string]jsonvalue.Value, len(st.Attributes)),
		}
		if st.Parent.HasSpanID() {
			sp.ParentSpanID = st.Parent.SpanID().String()
		}
		for _, kv := range st.Attributes {
			sp.Attributes[string(kv.Key)] = value(kv.Value)
		}
		spans[i] = sp
	}
	return spans
}

// value is an attribute's value as JSON, as OTLP JSON would carry it:
// bytes as base64 text, a slice as a list, a map as an object.
func value(v attribute.Value) jsonvalue.Value {
	switch v.Type() {
	case attribute.BOOL:
		return jsonvalue.Bool(v.AsBool())
	case attribute.INT64:
		return jsonvalue.Int(v.AsInt64())
	case attribute.FLOAT64:
		return jsonvalue.Float(v.AsFloat64())
	case attribute.STRING:
		return jsonvalue.String(v.AsString())
	case attribute.BYTESLICE:
		return jsonvalue.String(base64.StdEncoding.EncodeToString(v.AsByteSlice()))
	case attribute.BOOLSLICE:
		return list(v.AsBoolSlice(), jsonvalue.Bool)
	case attribute.INT64SLICE:
		return list(v.AsInt64Slice(), jsonvalue.Int)
	case attribute.FLOAT64SLICE:
		return list(v.AsFloat64Slice(), jsonvalue.Float)
	case attribute.STRINGSLICE:
		return list(v.AsStringSlice(), jsonvalue.String)
	case attribute.SLICE:
		return list(v.AsSlice(), value)
	case attribute.MAP:
		kvs := v.AsMap()
		ms := make([]jsonvalue.Member, len(kvs))
		for i, kv := range kvs {
			ms[i] = jsonvalue.Member{Key: string(kv.Key), Value: value(kv.Value)}
		}
		return jsonvalue.Object(ms...)
	}
	return jsonvalue.Value{}
}

func list[T any](xs []T, of func(T) jsonvalue.Value) jsonvalue.Value {
	items := make([]jsonvalue.Value, len(xs))
	for i, x := range xs {
		items[i] = of(x)
	}
	return jsonvalue.Array(items...)
}
