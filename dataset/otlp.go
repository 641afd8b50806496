package dataset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/agentcheck/agentcheck/jsonvalue"
)

// ReadOTLPTraces reads OpenTelemetry traces written as OTLP JSON, as a
// collector's file exporter writes them: exports
// {"resourceSpans": [{"scopeSpans": [{"spans": [...]}]}]} one per line, or
// one document (or several, or a list of them) however printed. It yields
// one sample per trace, in order of the trace's first span in the input,
// each made by OTelTraceSample; TraceSample.TraceID names it. A trace's
// spans may be spread over several exports, so the whole input is read
// before the first trace is yielded; of the spans' attributes only gen_ai.*,
// agentcheck.* and error.type are kept, copied out of the export.
//
// A trace that cannot be read yields its own *TraceError, naming the file,
// the line of the span at fault (where its "spanId" is), the trace, the
// span and the attribute, and the others still read; so does an export that
// cannot be read (malformed JSON, say), in its place among the traces. A
// line that is not valid JSON loses only its own spans when the input is
// one export per line (its first line is a whole JSON value).
//
// What it holds is bounded: an export over 64 MiB is an error in its
// place, its bytes skipped and its spans lost; a trace whose kept
// attributes pass 64 MiB is an error of its own, its spans no longer held;
// and an input whose traces hold more than 1 GiB at once is an error at
// the export that passed it, the input read no further and none of its
// traces yielded (any of them may lack spans that came later).
func ReadOTLPTraces(r io.Reader, file string) iter.Seq2[TraceSample, error] {
	return readOTLPTraces(r, file, otlpBounds{exportBytes: maxSample, traceBytes: maxSample, heldBytes: maxOTLPHeld})
}

// maxOTLPHeld is the most bytes of kept attributes ReadOTLPTraces holds.
const maxOTLPHeld = 1 << 30

// otlpBounds are what an OTLP reading may hold: the bytes of one export
// (exportBytes, named by bytesName, what sets it) and the JSON values in
// it (exportValues, named by valuesName; none when 0), the bytes of one
// trace's kept attributes (traceBytes, bytesName too) and of all traces'
// (heldBytes, named by heldName).
type otlpBounds struct {
	exportBytes, exportValues, traceBytes, heldBytes int
	bytesName, valuesName, heldName                  string
}

// spanOverhead is what a span held costs beside its attributes' text: its
// IDs, name and times, and its attribute map's entries.
const spanOverhead = 256

func readOTLPTraces(r io.Reader, file string, b otlpBounds) iter.Seq2[TraceSample, error] {
	return func(yield func(TraceSample, error) bool) {
		rd := otlpReader{bounds: b}
		rd.read(r, file)
		for k, id := range rd.order {
			if !rd.yieldErrors(k, yield) {
				return
			}
			if err := rd.traceErr[id]; err != nil {
				if !yield(TraceSample{}, err) {
					return
				}
				continue
			}
			spans := rd.traces[id]
			s, err := OTelTraceSample(spans)
			if err != nil {
				if te, ok := err.(*TraceError); ok {
					te.File = file
				}
				if !yield(TraceSample{}, err) {
					return
				}
				continue
			}
			if !yield(TraceSample{TraceID: id, File: file, Line: spans[0].Line, Sample: s}, nil) {
				return
			}
		}
		rd.yieldErrors(len(rd.order), yield)
	}
}

// named is " (name)", or "" for no name.
func named(name string) string {
	if name == "" {
		return ""
	}
	return " (" + name + ")"
}

// otlpReader gathers the spans of an OTLP JSON input by trace.
type otlpReader struct {
	file     string
	bounds   otlpBounds
	order    []string // trace IDs, in order of their first span
	traces   map[string][]OTelSpan
	traceErr map[string]error // the first problem with a trace's spans
	// held is the bytes each trace's spans hold (spanOverhead and their
	// attributes' text), heldAll all traces'; overHeld is set once heldAll
	// passed bounds.heldBytes.
	held     map[string]int
	heldAll  int
	overHeld bool
	values   jsonvalue.Decoder
	// errs are the problems not of one trace, each with the number of
	// traces seen before it.
	errs []otlpError
}

type otlpError struct {
	before int
	err    error
}

func (rd *otlpReader) yieldErrors(k int, yield func(TraceSample, error) bool) bool {
	for len(rd.errs) > 0 && rd.errs[0].before <= k {
		err := rd.errs[0].err
		rd.errs = rd.errs[1:]
		if !yield(TraceSample{}, err) {
			return false
		}
	}
	return true
}

func (rd *otlpReader) fail(line int, format string, args ...any) {
	err := &TraceError{File: rd.file, Line: line, Err: fmt.Errorf(format, args...)}
	rd.errs = append(rd.errs, otlpError{len(rd.order), err})
	rd.charge(line, errorOverhead+len(err.Err.Error()))
}

// charge adds n bytes to what the reader holds; past the bound on all
// traces', the input is read no further (overHeld).
func (rd *otlpReader) charge(line, n int) {
	rd.heldAll += n
	if b := rd.bounds.heldBytes; b > 0 && rd.heldAll > b && !rd.overHeld {
		rd.overHeld = true
		err := &TraceError{File: rd.file, Line: line, Err: fmt.Errorf("the input's traces hold over %d bytes, the most held at once to put each trace's spans together%s: it was read no further, and none of its traces was scored (any may lack spans that come later)", b, named(rd.bounds.heldName))}
		rd.errs = append(rd.errs, otlpError{len(rd.order), err})
	}
}

func (rd *otlpReader) read(r io.Reader, file string) {
	rd.file = file
	rd.traces = map[string][]OTelSpan{}
	rd.traceErr = map[string]error{}
	rd.held = map[string]int{}
	rd.values.Limit(rd.bounds.exportValues)
	// One export per line when the first line is one whole value;
	// otherwise values however printed.
	br, _, err := decodeInput(bufio.NewReaderSize(r, 1<<16))
	if err != nil {
		rd.fail(0, "%v", err)
		return
	}
	var head []byte
	var first []byte
	for len(first) == 0 {
		line, err := readLine(br)
		head = append(head, line...)
		first = bytes.TrimSpace(line)
		if err != nil {
			if err != io.EOF {
				rd.fail(0, "%v", err)
				return
			}
			break
		}
	}
	if len(first) == 0 {
		return
	}
	lines := json.Valid(first) || (first[0] == '{' && first[len(first)-1] == '}')
	in := bufio.NewReaderSize(io.MultiReader(bytes.NewReader(head), br), 1<<16)
	records := func(rec Record, err error) bool {
		if err != nil {
			var le *LoadError
			if errors.As(err, &le) {
				rd.fail(le.Line, "%v", le.Err)
			} else {
				rd.fail(0, "%v", err)
			}
			return true
		}
		rd.record(rec)
		return !rd.overHeld
	}
	bound := rd.bounds.exportBytes
	if bound <= 0 {
		bound = math.MaxInt
	}
	over := func(line, _ int) error {
		return &LoadError{File: file, Line: line, Sample: -1,
			Err: fmt.Errorf("the export is over %d bytes, the most one export may hold%s: it was skipped, its spans lost", bound, named(rd.bounds.bytesName))}
	}
	if lines {
		readLines(in, file, false, bound, over, nil, records)
	} else {
		readValues(in, file, first[0] == '[', bound, over, records)
	}
	rd.values = jsonvalue.Decoder{} // the last export's values, read
	if rd.overHeld {
		// Any trace may lack spans the input holds past the bound: none
		// is yielded, only the errors, the traces' among the input's in
		// the order they were met.
		var errs []otlpError
		for k, id := range rd.order {
			for len(rd.errs) > 0 && rd.errs[0].before <= k {
				errs = append(errs, otlpError{0, rd.errs[0].err})
				rd.errs = rd.errs[1:]
			}
			if err := rd.traceErr[id]; err != nil {
				errs = append(errs, otlpError{0, err})
			}
		}
		for _, e := range rd.errs {
			errs = append(errs, otlpError{0, e.err})
		}
		rd.errs = errs
		rd.order, rd.traces, rd.traceErr, rd.held = nil, nil, nil, nil
	}
}

// record reads one export, or a list of them.
func (rd *otlpReader) record(rec Record) {
	rd.values.Reset(rec.Text)
	v, err := rd.values.Value(0)
	if err == nil {
		err = rd.values.End("export")
	}
	if err != nil {
		line := rec.Line
		var se *jsonvalue.SyntaxError
		var le *jsonvalue.LimitError
		if errors.As(err, &le) {
			rd.fail(line, "the export holds %v, the most one export may hold%s: its spans were lost", le, named(rd.bounds.valuesName))
			return
		}
		if errors.As(err, &se) {
			// The file's line, and the column on it, as a sample's
			// LoadError gives them.
			rd.fail(line+se.Line-1, "column %d: %s", se.Column, se.Msg)
			return
		}
		rd.fail(line, "%v", err)
		return
	}
	loc := otlpLocator{text: rec.Text, line: rec.Line}
	exports := []jsonvalue.Value{v}
	if v.Kind() == jsonvalue.ArrayKind {
		exports = exports[:0]
		for i := range v.Len() {
			exports = append(exports, v.Index(i))
		}
	}
	for _, x := range exports {
		rss, ok := otlpGet(x, "resourceSpans", "resource_spans")
		if x.Kind() != jsonvalue.ObjectKind || !ok {
			rd.fail(rec.Line, `not an OTLP trace export: want an object with "resourceSpans"`)
			continue
		}
		for i := range rss.Len() {
			sss, _ := otlpGet(rss.Index(i), "scopeSpans", "scope_spans")
			if sss.Kind() == jsonvalue.NullKind {
				sss, _ = otlpGet(rss.Index(i), "instrumentationLibrarySpans", "instrumentation_library_spans")
			}
			for j := range sss.Len() {
				spans, _ := sss.Index(j).Get("spans")
				for k := range spans.Len() {
					if rd.span(spans.Index(k), &loc); rd.overHeld {
						return
					}
				}
			}
		}
	}
}

func (rd *otlpReader) span(v jsonvalue.Value, loc *otlpLocator) {
	tid, _ := otlpGet(v, "traceId", "trace_id")
	sid, _ := otlpGet(v, "spanId", "span_id")
	name, _ := v.Get("name")
	sp := OTelSpan{TraceID: strings.Clone(stringText(tid)), SpanID: strings.Clone(stringText(sid)), Name: strings.Clone(stringText(name)), Attributes: map[string]jsonvalue.Value{}}
	sp.Line = loc.find(sp.SpanID)
	if sp.TraceID == "" {
		rd.fail(sp.Line, `span %s %q: "traceId" must be a non-empty string`, sp.SpanID, sp.Name)
		return
	}
	if _, seen := rd.traces[sp.TraceID]; !seen {
		rd.order = append(rd.order, sp.TraceID)
		rd.traces[sp.TraceID] = nil
		if rd.charge(sp.Line, traceOverhead+len(sp.TraceID)); rd.overHeld {
			return
		}
	}
	if rd.traceErr[sp.TraceID] != nil {
		return // the trace yields its error: its spans are not needed
	}
	if err := otlpSpan(v, &sp); err != nil {
		err.File, err.Line, err.TraceID, err.SpanID, err.Span = rd.file, sp.Line, sp.TraceID, sp.SpanID, sp.Name
		rd.drop(sp.TraceID, err)
		return
	}
	size := spanOverhead + len(sp.TraceID) + len(sp.SpanID) + len(sp.ParentSpanID) + len(sp.Name)
	for k, x := range sp.Attributes {
		size += len(k) + heldSize(x)
	}
	held := rd.held[sp.TraceID] + size
	if b := rd.bounds.traceBytes; b > 0 && held > b {
		rd.drop(sp.TraceID, &TraceError{File: rd.file, Line: sp.Line, TraceID: sp.TraceID, SpanID: sp.SpanID, Span: sp.Name,
			Err: fmt.Errorf("the trace's spans hold over %d bytes, the most one trace may hold%s: its spans were no longer held", b, named(rd.bounds.bytesName))})
		return
	}
	rd.held[sp.TraceID] = held
	if rd.charge(sp.Line, size); rd.overHeld {
		return
	}
	rd.traces[sp.TraceID] = append(rd.traces[sp.TraceID], sp)
}

// What the reader holds beside the attributes' text: a trace's entries in
// its maps and order, an error's message and location, and each value of
// a list or object attribute once parsed (a Value is 72 bytes, and its
// text two bytes a value at the least).
const (
	traceOverhead = 128
	errorOverhead = 128
	valueCost     = 72
)

// heldSize is what a kept attribute holds: its text, and valueCost for
// each value of a list or object.
func heldSize(x jsonvalue.Value) int {
	n := len(x.Text()) + len(x.Source()) // detached: Source is its own
	if k := x.Kind(); k == jsonvalue.ArrayKind || k == jsonvalue.ObjectKind {
		n += valueCost * countValues(x)
	}
	return n
}

// countValues is the values x holds, x among them.
func countValues(x jsonvalue.Value) int {
	n := 1
	for _, m := range x.Elements() {
		n += countValues(m.Value)
	}
	return n
}

// detached is x in memory of its own: a Value read from an export shares
// its text, which a kept attribute must not keep alive. A string is
// copied, anything else read again from its JSON.
func detached(x jsonvalue.Value) jsonvalue.Value {
	switch x.Kind() {
	case jsonvalue.StringKind:
		return jsonvalue.String(strings.Clone(x.Text()))
	case jsonvalue.ArrayKind, jsonvalue.ObjectKind, jsonvalue.IntKind:
		if y, err := jsonvalue.Parse([]byte(x.String())); err == nil {
			return y
		}
	}
	return x // a float, a bool or null holds no text of the export's
}

// drop sets the trace's error, err, lets go of its spans and holds the
// error instead.
func (rd *otlpReader) drop(traceID string, err *TraceError) {
	rd.traceErr[traceID] = err
	rd.heldAll -= rd.held[traceID]
	delete(rd.held, traceID)
	rd.traces[traceID] = nil
	rd.charge(err.Line, errorOverhead+len(err.Error()))
}

// otlpSpan reads the span v's parent, end time, status and attributes
// into sp.
func otlpSpan(v jsonvalue.Value, sp *OTelSpan) *TraceError {
	if sp.SpanID == "" {
		return &TraceError{Err: errors.New(`"spanId" must be a non-empty string`)}
	}
	parent, _ := otlpGet(v, "parentSpanId", "parent_span_id")
	sp.ParentSpanID = strings.Clone(stringText(parent))
	end, _ := otlpGet(v, "endTimeUnixNano", "end_time_unix_nano")
	if n, err := otlpInt(end); err == nil && n > 0 {
		sp.EndTime = time.Unix(0, n)
	}
	status, _ := v.Get("status")
	switch code, _ := status.Get("code"); code.Kind() {
	case jsonvalue.IntKind:
		sp.Error = code.Float() == 2
	case jsonvalue.StringKind:
		sp.Error = code.Text() == "STATUS_CODE_ERROR"
	}
	attrs, _ := v.Get("attributes")
	if k := attrs.Kind(); k != jsonvalue.ArrayKind && k != jsonvalue.NullKind {
		return &TraceError{Err: fmt.Errorf(`"attributes" must be a list, got %s`, k)}
	}
	for i := range attrs.Len() {
		kv := attrs.Index(i)
		key, _ := kv.Get("key")
		if key.Kind() != jsonvalue.StringKind {
			return &TraceError{Err: fmt.Errorf(`attribute %d: "key" must be a string, got %s`, i, key.Kind())}
		}
		k := key.Text()
		if !strings.HasPrefix(k, "gen_ai.") && !strings.HasPrefix(k, "agentcheck.") && k != otelErrorType {
			continue
		}
		val, _ := kv.Get("value")
		x, err := otlpAnyValue(val)
		if err != nil {
			return &TraceError{Attribute: strings.Clone(k), Err: err}
		}
		sp.Attributes[strings.Clone(k)] = detached(x)
	}
	return nil
}

// otlpAnyValue reads an OTLP AnyValue as JSON.
func otlpAnyValue(v jsonvalue.Value) (jsonvalue.Value, error) {
	if v.Kind() == jsonvalue.NullKind {
		return v, nil
	}
	if v.Kind() != jsonvalue.ObjectKind {
		return v, fmt.Errorf("a value must be an object, got %s", v.Kind())
	}
	ms := v.Members()
	if len(ms) == 0 {
		return jsonvalue.Value{}, nil
	}
	x := ms[0].Value
	want := func(kind string) (jsonvalue.Value, error) {
		return jsonvalue.Value{}, fmt.Errorf("%q must be %s, got %s", ms[0].Key, kind, x.Kind())
	}
	switch ms[0].Key {
	case "stringValue", "string_value", "bytesValue", "bytes_value":
		if x.Kind() != jsonvalue.StringKind {
			return want("a string")
		}
		return x, nil
	case "boolValue", "bool_value":
		if x.Kind() != jsonvalue.BoolKind {
			return want("a boolean")
		}
		return x, nil
	case "intValue", "int_value":
		n, err := otlpInt(x)
		if err != nil {
			return want("an integer")
		}
		return jsonvalue.Int(n), nil
	case "doubleValue", "double_value":
		switch x.Kind() {
		case jsonvalue.IntKind, jsonvalue.FloatKind:
			return jsonvalue.Float(x.Float()), nil
		case jsonvalue.StringKind:
			switch x.Text() {
			case "NaN":
				return jsonvalue.Float(math.NaN()), nil
			case "Infinity":
				return jsonvalue.Float(math.Inf(1)), nil
			case "-Infinity":
				return jsonvalue.Float(math.Inf(-1)), nil
			}
		}
		return want("a number")
	case "arrayValue", "array_value":
		vals, _ := x.Get("values")
		if k := vals.Kind(); x.Kind() != jsonvalue.ObjectKind || (k != jsonvalue.ArrayKind && k != jsonvalue.NullKind) {
			return want(`an object with a list of "values"`)
		}
		items := make([]jsonvalue.Value, vals.Len())
		for i := range items {
			var err error
			if items[i], err = otlpAnyValue(vals.Index(i)); err != nil {
				return jsonvalue.Value{}, fmt.Errorf("[%d]: %w", i, err)
			}
		}
		return jsonvalue.Array(items...), nil
	case "kvlistValue", "kvlist_value":
		vals, _ := x.Get("values")
		if k := vals.Kind(); x.Kind() != jsonvalue.ObjectKind || (k != jsonvalue.ArrayKind && k != jsonvalue.NullKind) {
			return want(`an object with a list of "values"`)
		}
		members := make([]jsonvalue.Member, vals.Len())
		for i := range members {
			key, _ := vals.Index(i).Get("key")
			if key.Kind() != jsonvalue.StringKind {
				return jsonvalue.Value{}, fmt.Errorf(`kvlistValue [%d]: "key" must be a string, got %s`, i, key.Kind())
			}
			val, _ := vals.Index(i).Get("value")
			y, err := otlpAnyValue(val)
			if err != nil {
				return jsonvalue.Value{}, fmt.Errorf("%s: %w", key.Text(), err)
			}
			members[i] = jsonvalue.Member{Key: key.Text(), Value: y}
		}
		return jsonvalue.Object(members...), nil
	}
	return jsonvalue.Value{}, fmt.Errorf("unknown value type %q", ms[0].Key)
}

// otlpInt reads a 64-bit integer, which OTLP JSON writes as a decimal
// string (or a number).
func otlpInt(v jsonvalue.Value) (int64, error) {
	switch v.Kind() {
	case jsonvalue.StringKind:
		if n, err := strconv.ParseInt(v.Text(), 10, 64); err == nil {
			return n, nil
		}
		n, err := strconv.ParseUint(v.Text(), 10, 64)
		return int64(n), err
	case jsonvalue.IntKind:
		return strconv.ParseInt(v.String(), 10, 64)
	}
	return 0, fmt.Errorf("want an integer, got %s", v.Kind())
}

// otlpGet is the member spelled in lowerCamelCase, as OTLP JSON writes it,
// or in snake_case.
func otlpGet(v jsonvalue.Value, camel, snake string) (jsonvalue.Value, bool) {
	if x, ok := v.Get(camel); ok {
		return x, ok
	}
	return v.Get(snake)
}

// otlpLocator finds the lines of an export's spans in its text: each span
// is where its "spanId" is, searched from the last span found on.
type otlpLocator struct {
	text string
	line int // the line of text[pos]
	pos  int
}

func (l *otlpLocator) find(spanID string) int {
	if spanID == "" {
		return l.line
	}
	quoted := strconv.Quote(spanID)
	for from := l.pos; ; {
		i := strings.Index(l.text[from:], quoted)
		if i < 0 {
			return l.line
		}
		i += from
		before := strings.TrimRight(l.text[l.pos:i], " \t\r\n")
		if strings.HasSuffix(before, ":") {
			before = strings.TrimRight(before[:len(before)-1], " \t\r\n")
			if strings.HasSuffix(before, `"spanId"`) || strings.HasSuffix(before, `"span_id"`) {
				l.line += countLineEnds(l.text[l.pos:i])
				l.pos = i
				return l.line
			}
		}
		from = i + len(quoted)
	}
}

// readLine reads up to and with the first line end, LF or CR (a CRLF's LF
// then starts a blank line).
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		if br.Buffered() == 0 {
			if _, err := br.Peek(1); err != nil {
				return line, err
			}
		}
		buf, _ := br.Peek(br.Buffered())
		if i := bytes.IndexAny(buf, "\r\n"); i >= 0 {
			line = append(line, buf[:i+1]...)
			br.Discard(i + 1)
			return line, nil
		}
		line = append(line, buf...)
		br.Discard(len(buf))
	}
}

// countLineEnds counts the line ends of s: LF, CRLF and CR.
func countLineEnds(s string) int {
	return strings.Count(s, "\n") + strings.Count(s, "\r") - strings.Count(s, "\r\n")
}
