package dataset

import (
	"errors"
	"fmt"
	"iter"
	"strings"
	"time"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/pyvalue"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// OpenTelemetry GenAI traces: the gen_ai.input.messages and
// gen_ai.output.messages of the semantic conventions' chat spans, and the
// OTLP JSON a collector exports.

// The attributes the trace readers look at.
const (
	otelOperation    = "gen_ai.operation.name"
	otelInput        = "gen_ai.input.messages"
	otelOutput       = "gen_ai.output.messages"
	otelSystem       = "gen_ai.system_instructions"
	otelToolCallID   = "gen_ai.tool.call.id"
	otelToolResult   = "gen_ai.tool.call.result"
	otelErrorType    = "error.type"
	otelReference    = "agentcheck.reference"
	otelRefToolCalls = "agentcheck.reference_tool_calls"
	otelRefTopics    = "agentcheck.reference_topics"
)

// ParseOTelMessages reads one gen_ai.input.messages or
// gen_ai.output.messages value of the OpenTelemetry GenAI semantic
// conventions: a JSON list of messages {"role", "parts", "finish_reason"}.
// Roles user, assistant (or model), system (or developer) and tool become
// Human, AI, System and Tool messages. Text parts are joined with "\n"; reasoning, blob, file, uri
// and parts of unknown types are skipped. A tool_call part {"id", "name",
// "arguments"} is a function ToolCall of its assistant message (arguments:
// a JSON value, or a JSON string holding one, kept in the call's
// InvalidArgs when it is not valid JSON; none is an empty object),
// and a server_tool_call part {"id", "name", "server_tool_call"} a hosted
// one, whose arguments are the server_tool_call object without its "type".
// A tool_call_response part {"id", "response"} is a Tool message answering
// the call with that ID (Content: the response, a string as it is and
// anything else as compact JSON; "result" is read where "response" is
// missing); in a user message the results come first and the text after
// them, as a Human message. A server_tool_call_response part is a Tool
// message after its assistant message, its Content the response object.
// Numbers keep their JSON spelling (2.0 stays a float).
//
// An error is an *agentcheck.MessageError whose message index is the
// message's in the list, naming the part and, for a call, its index among
// the message's calls and its name.
func ParseOTelMessages(data []byte) (agentcheck.Conversation, error) {
	v, err := jsonvalue.Parse(data)
	if err != nil {
		return nil, err
	}
	return otelMessages(v)
}

func otelMessages(v jsonvalue.Value) (agentcheck.Conversation, error) {
	if v.Kind() != jsonvalue.ArrayKind {
		return nil, fmt.Errorf("want a list of messages, got %s", v.Kind())
	}
	conv := agentcheck.Conversation{}
	for i := range v.Len() {
		var err error
		if conv, err = otelMessage(conv, i, v.Index(i)); err != nil {
			return nil, err
		}
	}
	if err := conv.Validate(); err != nil {
		return nil, err
	}
	return conv, pairResults(conv)
}

func otelRole(role string) (agentcheck.Role, bool) {
	switch role {
	case "user":
		return agentcheck.Human, true
	case "assistant", "model":
		return agentcheck.AI, true
	case "system", "developer":
		return agentcheck.System, true
	case "tool":
		return agentcheck.Tool, true
	}
	return "", false
}

// otelMessage appends the messages that message i, v, makes to conv.
func otelMessage(conv agentcheck.Conversation, i int, v jsonvalue.Value) (agentcheck.Conversation, error) {
	fail := func(role agentcheck.Role, call int, name string, format string, args ...any) (agentcheck.Conversation, error) {
		return nil, &agentcheck.MessageError{Message: i, Role: role, ToolCall: call, Name: name, Err: fmt.Errorf(format, args...)}
	}
	if v.Kind() != jsonvalue.ObjectKind {
		return fail("", -1, "", "a message must be an object, got %s", v.Kind())
	}
	r, _ := v.Get("role")
	role, ok := otelRole(stringText(r))
	if !ok {
		return fail("", -1, "", "unknown role %q (want user, assistant, system or tool)", pyvalue.Str(r))
	}
	parts, _ := v.Get("parts")
	if k := parts.Kind(); k != jsonvalue.ArrayKind && k != jsonvalue.NullKind {
		return fail(role, -1, "", `"parts" must be a list, got %s`, k)
	}
	var texts []string
	var calls []agentcheck.ToolCall
	var results []agentcheck.Message
	for j := range parts.Len() {
		p := parts.Index(j)
		typ, _ := p.Get("type")
		if p.Kind() != jsonvalue.ObjectKind || typ.Kind() != jsonvalue.StringKind {
			return fail(role, -1, "", `part %d: a part must be an object with a "type"`, j)
		}
		switch t := typ.Text(); t {
		case "text":
			c, _ := p.Get("content")
			if c.Kind() != jsonvalue.StringKind {
				return fail(role, -1, "", `part %d (text): "content" must be a string, got %s`, j, c.Kind())
			}
			texts = append(texts, c.Text())
		case "tool_call", "server_tool_call":
			name, _ := p.Get("name")
			if role != agentcheck.AI {
				return fail(role, len(calls), stringText(name), "part %d: a %s part in a message of role %q (only assistant messages make calls)", j, t, stringText(r))
			}
			tc, err := otelCall(t, p)
			if err != nil {
				return fail(role, len(calls), stringText(name), "part %d (%s): %v", j, t, err)
			}
			calls = append(calls, tc)
		case "tool_call_response", "server_tool_call_response":
			if role == agentcheck.System || (role == agentcheck.AI && t == "tool_call_response") {
				return fail(role, -1, "", "part %d: a %s part in a message of role %q", j, t, stringText(r))
			}
			res, err := otelResult(t, p)
			if err != nil {
				return fail(role, -1, "", "part %d (%s): %v", j, t, err)
			}
			results = append(results, res)
		}
	}
	text := strings.Join(texts, "\n")
	switch role {
	case agentcheck.AI:
		conv = append(conv, agentcheck.Message{Role: role, Content: text, ToolCalls: calls})
		return append(conv, results...), nil
	case agentcheck.Human:
		conv = append(conv, results...)
		if text != "" || len(results) == 0 {
			conv = append(conv, agentcheck.Message{Role: role, Content: text})
		}
		return conv, nil
	case agentcheck.Tool:
		conv = append(conv, results...)
		if text != "" || len(results) == 0 {
			// A result given as text, which names no call.
			conv = append(conv, agentcheck.Message{Role: role, Content: text})
		}
		return conv, nil
	}
	return append(conv, agentcheck.Message{Role: role, Content: text}), nil
}

// otelCall reads a tool_call or server_tool_call part.
func otelCall(typ string, p jsonvalue.Value) (agentcheck.ToolCall, error) {
	name, _ := p.Get("name")
	id, _ := p.Get("id")
	if name.Kind() != jsonvalue.StringKind || name.Text() == "" {
		return agentcheck.ToolCall{}, errors.New(`"name" must be a non-empty string`)
	}
	if k := id.Kind(); k != jsonvalue.StringKind && k != jsonvalue.NullKind {
		return agentcheck.ToolCall{}, fmt.Errorf(`"id" must be a string, got %s`, k)
	}
	if typ == "server_tool_call" {
		tc := agentcheck.ToolCall{ID: stringText(id), Name: name.Text(), Kind: agentcheck.HostedTool}
		switch x, _ := p.Get("server_tool_call"); x.Kind() {
		case jsonvalue.NullKind:
			tc.Args = jsonvalue.Object()
		case jsonvalue.ObjectKind:
			var ms []jsonvalue.Member
			for _, m := range x.Members() {
				if m.Key != "type" {
					ms = append(ms, m)
				}
			}
			tc.Args = jsonvalue.Object(ms...)
		default:
			return tc, fmt.Errorf(`"server_tool_call" must be an object, got %s`, x.Kind())
		}
		return tc, nil
	}
	switch args, _ := p.Get("arguments"); args.Kind() {
	case jsonvalue.NullKind:
		return agentcheck.ToolCall{ID: stringText(id), Name: name.Text(), Args: jsonvalue.Object()}, nil
	case jsonvalue.ObjectKind:
		return agentcheck.ToolCall{ID: stringText(id), Name: name.Text(), Args: args}, nil
	case jsonvalue.StringKind:
		return openAIArguments(stringText(id), name.Text(), args.Text(), nil)
	default: // the conventions allow any value: a list, a number
		return agentcheck.ToolCall{ID: stringText(id), Name: name.Text(), Args: args}, nil
	}
}

// otelResult reads a tool_call_response or server_tool_call_response part
// as a Tool message.
func otelResult(typ string, p jsonvalue.Value) (agentcheck.Message, error) {
	id, _ := p.Get("id")
	if k := id.Kind(); k != jsonvalue.StringKind && k != jsonvalue.NullKind {
		return agentcheck.Message{}, fmt.Errorf(`"id" must be a string, got %s`, k)
	}
	key := "response"
	if typ == "server_tool_call_response" {
		key = "server_tool_call_response"
	}
	resp, ok := p.Get(key)
	if !ok && typ == "tool_call_response" {
		resp, _ = p.Get("result") // as the conventions' own example spells it
	}
	return agentcheck.Message{Role: agentcheck.Tool, Content: otelText(resp), ToolCallID: stringText(id)}, nil
}

// otelText is a response as text: a string as it is, null as "", anything
// else as compact JSON.
func otelText(v jsonvalue.Value) string {
	switch v.Kind() {
	case jsonvalue.NullKind:
		return ""
	case jsonvalue.StringKind:
		return v.Text()
	}
	return v.String()
}

// otelSystemInstructions reads gen_ai.system_instructions, a list of parts,
// as the text of a System message.
func otelSystemInstructions(v jsonvalue.Value) (string, error) {
	if v.Kind() != jsonvalue.ArrayKind {
		return "", fmt.Errorf("want a list of parts, got %s", v.Kind())
	}
	var texts []string
	for j := range v.Len() {
		p := v.Index(j)
		if typ, _ := p.Get("type"); typ.Text() != "text" {
			continue
		}
		c, _ := p.Get("content")
		if c.Kind() != jsonvalue.StringKind {
			return "", fmt.Errorf(`part %d (text): "content" must be a string, got %s`, j, c.Kind())
		}
		texts = append(texts, c.Text())
	}
	return strings.Join(texts, "\n"), nil
}

// Traces.

// OTelSpan is one span of a trace, with what the trace readers need of
// it: ReadOTLPTraces reads them from OTLP JSON, and the adapter
// github.com/agentcheck/agentcheck/adapters/otel from the spans of the
// OpenTelemetry Go SDK. Attribute values are JSON: a string attribute is a
// String, whether or not its text is JSON; a structured one (a list, a map)
// the Array or Object it is.
type OTelSpan struct {
	TraceID, SpanID string // hex, as OTLP JSON writes them
	ParentSpanID    string // "" for a root span
	Name            string
	EndTime         time.Time // the zero Time when not known
	Error           bool      // the span's status is Error
	Attributes      map[string]jsonvalue.Value
	Line            int // where the span is in a file (1-based), 0 when not from one
}

func (s *OTelSpan) attr(key string) (jsonvalue.Value, bool) {
	v, ok := s.Attributes[key]
	return v, ok
}

// TraceSample is the sample one trace makes.
type TraceSample struct {
	TraceID string
	File    string // "" when not read from a file
	Line    int    // where the trace's first span is in File, 0 when not from one
	Sample  agentcheck.Sample
}

// TraceError is a trace, or a part of an OTLP file, that could not be
// read, located by file and line (when read from a file), trace and span
// ID, and the attribute at fault. Err is the problem: inside an attribute
// of messages, an *agentcheck.MessageError naming the message and call.
type TraceError struct {
	File      string
	Line      int
	TraceID   string
	SpanID    string
	Span      string // the span's name
	Attribute string
	Err       error
}

// Error is "file:line: trace t, span s \"name\", attribute: " and the
// problem, leaving out what is not known ("file: " for the whole file).
func (e *TraceError) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "%s:%d: ", shownFile(e.File), e.Line)
	} else if e.File != "" {
		fmt.Fprintf(&b, "%s: ", shownFile(e.File))
	}
	var where []string
	if e.TraceID != "" {
		where = append(where, "trace "+e.TraceID)
	}
	if e.SpanID != "" || e.Span != "" {
		where = append(where, strings.TrimSpace(fmt.Sprintf("span %s %q", e.SpanID, e.Span)))
	}
	if e.Attribute != "" {
		where = append(where, e.Attribute)
	}
	if len(where) > 0 {
		b.WriteString(strings.Join(where, ", "))
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap is the problem itself.
func (e *TraceError) Unwrap() error { return e.Err }

// isModelSpan reports whether s is a call of a model whose messages it
// records: a chat span (or generate_content, or text_completion).
func (s *OTelSpan) isModelSpan() bool {
	op, _ := s.attr(otelOperation)
	switch stringText(op) {
	case "chat", "generate_content", "text_completion":
		return true
	}
	return false
}

// OTelTraceSample makes one trace's spans, in any order, a Sample. Each
// chat span (gen_ai.operation.name "chat", or "generate_content" or
// "text_completion") repeats the history so far, so the conversation is
// the last chat span's gen_ai.input.messages followed by its
// gen_ai.output.messages (ParseOTelMessages), after a System message of
// its gen_ai.system_instructions if it has them. The last chat span is the
// one that ended last, or when some span's end time is not known the last
// in spans. execute_tool spans add no calls of their own: one whose status
// is Error, or that has error.type, marks the Tool message answering its
// gen_ai.tool.call.id as an error, and when the last chat span's output
// ends with calls, a call's execute_tool span that has
// gen_ai.tool.call.result adds its result as a Tool message.
//
// The references are attributes of the trace's root span (the span whose
// parent is not in the trace): agentcheck.reference_tool_calls, a JSON
// string holding a ragas reference list ([{"name", "args"}]) or that list
// itself; agentcheck.reference, a string; and agentcheck.reference_topics,
// a JSON list string or a list of strings. These on another span are an
// error.
//
// An error is a *TraceError naming the trace, the span and the attribute.
func OTelTraceSample(spans []OTelSpan) (agentcheck.Sample, error) {
	if len(spans) == 0 {
		return agentcheck.Sample{}, &TraceError{Err: errors.New("no spans")}
	}
	trace := spans[0].TraceID
	fail := func(s *OTelSpan, attr string, err error) (agentcheck.Sample, error) {
		e := &TraceError{TraceID: trace, Line: spans[0].Line, Attribute: attr, Err: err}
		if s != nil {
			e.SpanID, e.Span, e.Line = s.SpanID, s.Name, s.Line
		}
		return agentcheck.Sample{}, e
	}
	ids := make(map[string]bool, len(spans))
	for i := range spans {
		if spans[i].TraceID != trace {
			return fail(&spans[i], "", fmt.Errorf("the span is of trace %s", spans[i].TraceID))
		}
		ids[spans[i].SpanID] = true
	}
	var s agentcheck.Sample
	var root *OTelSpan // the root span with references
	var last *OTelSpan
	timed := true
	for i := range spans {
		sp := &spans[i]
		for _, key := range [...]string{otelRefToolCalls, otelReference, otelRefTopics} {
			if _, ok := sp.attr(key); !ok {
				continue
			}
			if sp.ParentSpanID != "" && ids[sp.ParentSpanID] {
				return fail(sp, key, fmt.Errorf("references belong on the trace's root span, and this span's parent is %s", sp.ParentSpanID))
			}
			if root != nil && root != sp {
				return fail(sp, key, fmt.Errorf("span %s %q, another root, has references too", root.SpanID, root.Name))
			}
			root = sp
		}
		if sp.isModelSpan() {
			timed = timed && !sp.EndTime.IsZero()
			if last == nil || !timed || !sp.EndTime.Before(last.EndTime) {
				last = sp
			}
		}
	}
	if !timed { // the last chat span in spans
		for i := range spans {
			if spans[i].isModelSpan() {
				last = &spans[i]
			}
		}
	}
	if root != nil {
		if err := otelReferences(root, &s); err != nil {
			var te *TraceError
			errors.As(err, &te)
			return fail(root, te.Attribute, te.Err)
		}
	}
	if last == nil {
		return fail(nil, "", errors.New(`no chat span (a span with gen_ai.operation.name "chat")`))
	}
	if _, ok := last.attr(otelInput); !ok {
		return fail(last, otelInput, errors.New("the last chat span has no input messages (is the instrumentation recording message content?)"))
	}
	conv := agentcheck.Conversation{}
	if sys, ok := last.attr(otelSystem); ok {
		v, err := otelJSON(sys)
		var text string
		if err == nil {
			text, err = otelSystemInstructions(v)
		}
		if err != nil {
			return fail(last, otelSystem, err)
		}
		conv = append(conv, agentcheck.Message{Role: agentcheck.System, Content: text})
	}
	for _, key := range [...]string{otelInput, otelOutput} {
		attr, ok := last.attr(key)
		if !ok {
			continue // a call that failed has no output
		}
		v, err := otelJSON(attr)
		var msgs agentcheck.Conversation
		if err == nil {
			msgs, err = otelMessages(v)
		}
		if err != nil {
			return fail(last, key, err)
		}
		conv = append(conv, msgs...)
	}
	conv = otelToolSpans(conv, spans)
	if err := conv.Validate(); err != nil {
		return fail(last, "", err)
	}
	if err := pairResults(conv); err != nil {
		return fail(last, "", err)
	}
	s.Conversation = conv
	return s, nil
}

// otelToolSpans applies the execute_tool spans to conv: their errors, and
// the results of the last message's calls.
func otelToolSpans(conv agentcheck.Conversation, spans []OTelSpan) agentcheck.Conversation {
	tools := map[string]*OTelSpan{}
	for i := range spans {
		sp := &spans[i]
		op, _ := sp.attr(otelOperation)
		id, _ := sp.attr(otelToolCallID)
		if stringText(op) == "execute_tool" && stringText(id) != "" {
			tools[stringText(id)] = sp
		}
	}
	if len(tools) == 0 {
		return conv
	}
	failed := func(sp *OTelSpan) bool {
		_, typed := sp.attr(otelErrorType)
		return sp.Error || typed
	}
	for i := range conv {
		if sp := tools[conv[i].ToolCallID]; conv[i].Role == agentcheck.Tool && sp != nil && failed(sp) {
			conv[i].IsError = true
		}
	}
	if n := len(conv); n > 0 && conv[n-1].Role == agentcheck.AI {
		for _, tc := range conv[n-1].ToolCalls {
			sp := tools[tc.ID]
			if sp == nil || tc.ID == "" {
				continue
			}
			if res, ok := sp.attr(otelToolResult); ok {
				conv = append(conv, agentcheck.Message{Role: agentcheck.Tool, Content: otelText(res), ToolCallID: tc.ID, IsError: failed(sp)})
			}
		}
	}
	return conv
}

// otelJSON is the JSON an attribute holds: a string's text parsed, or a
// structured value as it is.
func otelJSON(v jsonvalue.Value) (jsonvalue.Value, error) {
	if v.Kind() != jsonvalue.StringKind {
		return v, nil
	}
	x, err := jsonvalue.Parse([]byte(v.Text()))
	if err != nil {
		return x, fmt.Errorf("not valid JSON: %w", err)
	}
	return x, nil
}

// otelReferences reads the references on the root span into s.
func otelReferences(root *OTelSpan, s *agentcheck.Sample) error {
	for _, key := range [...]string{otelRefToolCalls, otelReference, otelRefTopics} {
		attr, ok := root.attr(key)
		if !ok {
			continue
		}
		v := attr
		if key != otelReference {
			var err error
			if v, err = otelJSON(attr); err != nil {
				return &TraceError{Attribute: key, Err: err}
			}
		}
		// As ragas writes it, through the one sample decoder.
		field := strings.TrimPrefix(key, "agentcheck.")
		ref, err := agentcheck.ParseSample(`{"user_input":[],"` + field + `":` + v.String() + `}`)
		if err != nil {
			return &TraceError{Attribute: key, Err: err}
		}
		switch key {
		case otelRefToolCalls:
			s.ReferenceToolCalls = ref.ReferenceToolCalls
		case otelReference:
			s.Reference = ref.Reference
		case otelRefTopics:
			s.ReferenceTopics = ref.ReferenceTopics
		}
	}
	return nil
}

// OTelTraces groups spans by trace, in order of each trace's first span,
// and makes each trace a sample (OTelTraceSample). A trace that cannot be
// read yields its *TraceError and the others still read.
func OTelTraces(spans []OTelSpan) iter.Seq2[TraceSample, error] {
	return func(yield func(TraceSample, error) bool) {
		var order []string
		traces := map[string][]OTelSpan{}
		for _, sp := range spans {
			if _, seen := traces[sp.TraceID]; !seen {
				order = append(order, sp.TraceID)
			}
			traces[sp.TraceID] = append(traces[sp.TraceID], sp)
		}
		for _, id := range order {
			t := traces[id]
			s, err := OTelTraceSample(t)
			if err != nil {
				if !yield(TraceSample{}, err) {
					return
				}
				continue
			}
			if !yield(TraceSample{TraceID: id, Line: t[0].Line, Sample: s}, nil) {
				return
			}
		}
	}
}

// OTLP JSON.
