package agenttest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"sync"

	openai "github.com/sashabaranov/go-openai"
)

// LoadError is a sample that could not be loaded, located by file, line
// (1-based, where the sample starts or where the JSON broke) and the
// sample's index in the file (0-based).
type LoadError struct {
	File   string
	Line   int
	Sample int
	Err    error
}

func (e *LoadError) Error() string {
	file := e.File
	if file == "" {
		file = "<input>"
	}
	return fmt.Sprintf("%s:%d: sample %d: %v", file, e.Line, e.Sample, e.Err)
}

func (e *LoadError) Unwrap() error { return e.Err }

// Record is one sample's JSON text as it stands in a dataset, with where it
// stands. ReadRecords yields them so that parsing can be spread over cores
// while the file is read once, in order.
type Record struct {
	File  string
	Line  int // line on which the sample starts, 1-based
	Index int // position of the sample in the file, 0-based
	Text  string
}

// Sample parses the record as a ragas MultiTurnSample. Errors are
// *LoadError naming the file, line, sample and, inside it, the message and
// tool call.
func (r Record) Sample() (Sample, error) {
	if s, ok := decodeSample(r.Text); ok {
		return s, nil
	}
	// The general path: parse, then convert, with errors that say where.
	p := parser{src: r.Text}
	defer p.release()
	p.skipSpace()
	v, err := p.value(0)
	if err == nil {
		p.skipSpace()
		if p.pos != len(p.src) {
			err = p.errorf("unexpected %s after the sample", p.describe())
		}
	}
	if err != nil {
		line := r.Line
		var se *SyntaxError
		if errors.As(err, &se) {
			line += se.Line - 1
		}
		return Sample{}, &LoadError{File: r.File, Line: line, Sample: r.Index, Err: err}
	}
	s, err := SampleFromValue(v)
	if err != nil {
		return Sample{}, &LoadError{File: r.File, Line: r.Line, Sample: r.Index, Err: err}
	}
	return s, nil
}

// ParseSample parses one ragas MultiTurnSample written as a JSON object:
//
//	{"user_input": [{"type": "human", "content": "..."},
//	                {"type": "ai", "content": "...", "tool_calls": [{"name": "...", "args": {...}}]},
//	                {"type": "tool", "content": "..."}],
//	 "reference": "...", "reference_tool_calls": [...], "reference_topics": ["..."]}
func ParseSample(data []byte) (Sample, error) {
	return Record{Line: 1, Text: string(data)}.Sample()
}

// SampleFromValue converts a parsed ragas sample object into a Sample and
// validates its conversation.
func SampleFromValue(v Value) (Sample, error) {
	if v.Kind() != Object {
		return Sample{}, fmt.Errorf("a sample must be a JSON object, got %s", v.Kind())
	}
	var s Sample
	ui, ok := v.Get("user_input")
	if !ok {
		return Sample{}, errors.New(`"user_input" is missing`)
	}
	if ui.Kind() != Array {
		return Sample{}, fmt.Errorf(`"user_input" must be a list of messages, got %s`, ui.Kind())
	}
	s.Conversation = make(Conversation, ui.Len())
	for i := range s.Conversation {
		m, err := ragasMessage(ui.Index(i), i)
		if err != nil {
			return Sample{}, err
		}
		s.Conversation[i] = m
	}
	if err := s.Conversation.Validate(); err != nil {
		return Sample{}, err
	}
	if ref, ok := v.Get("reference"); ok && ref.Kind() != Null {
		if ref.Kind() != String {
			return Sample{}, fmt.Errorf(`"reference" must be a string, got %s`, ref.Kind())
		}
		s.Reference = ref.Text()
	}
	if rtc, ok := v.Get("reference_tool_calls"); ok && rtc.Kind() != Null {
		if rtc.Kind() != Array {
			return Sample{}, fmt.Errorf(`"reference_tool_calls" must be a list, got %s`, rtc.Kind())
		}
		s.ReferenceToolCalls = make([]ToolCall, rtc.Len())
		for j := range s.ReferenceToolCalls {
			tc, err := ragasToolCall(rtc.Index(j))
			if err != nil {
				return Sample{}, fmt.Errorf("reference_tool_calls[%d]: %w", j, err)
			}
			s.ReferenceToolCalls[j] = tc
		}
	}
	if rt, ok := v.Get("reference_topics"); ok && rt.Kind() != Null {
		if rt.Kind() != Array {
			return Sample{}, fmt.Errorf(`"reference_topics" must be a list of strings, got %s`, rt.Kind())
		}
		for j := 0; j < rt.Len(); j++ {
			t := rt.Index(j)
			if t.Kind() != String {
				return Sample{}, fmt.Errorf("reference_topics[%d] must be a string, got %s", j, t.Kind())
			}
			s.ReferenceTopics = append(s.ReferenceTopics, t.Text())
		}
	}
	return s, nil
}

// decodeSample is the fast path of Record.Sample for a well-formed sample:
// it reads the ragas fields straight into a Sample, building Values only for
// the arguments, where the general path builds a Value for the whole sample
// and converts it. Anything out of the ordinary (malformed JSON, a field of
// the wrong type, a duplicate field, an invalid conversation) makes it give
// up, and the general path then finds the same Sample or the error and where
// it is. So that it can never disagree with the general path, it accepts
// exactly what SampleFromValue accepts and reads it the same way.
func decodeSample(src string) (Sample, bool) {
	d := sampleDecoderPool.Get().(*sampleDecoder)
	// Only arguments become Values: a tenth of a typical sample's JSON.
	d.p = parser{src: src, perChunk: min(len(src)/48+8, 1024)}
	s, ok := d.sample()
	d.p.release()
	d.reset()
	sampleDecoderPool.Put(d)
	return s, ok
}

// sampleDecoder is decodeSample's state. Messages and calls are gathered on
// scratch slices, reused from sample to sample, and copied out once into
// slices of exactly the right size.
type sampleDecoder struct {
	p     parser
	msgs  []Message
	calls []ToolCall
	// spans[i] is the range of msgs[i]'s calls in calls; start -1 for a
	// message without "tool_calls".
	spans [][2]int
}

var sampleDecoderPool = sync.Pool{New: func() any { return new(sampleDecoder) }}

func (d *sampleDecoder) reset() {
	clear(d.msgs)
	clear(d.calls)
	d.msgs, d.calls, d.spans = d.msgs[:0], d.calls[:0], d.spans[:0]
	d.p = parser{}
}

// The depths of the parts of a sample, counted as the general parser counts
// them, so that its nesting limit applies to arguments and ignored fields.
const (
	depthSample   = 1
	depthMessages = 2
	depthMessage  = 3
	depthCalls    = 4 // a message's tool_calls, and reference_tool_calls is 2
	depthCall     = 5
)

func (d *sampleDecoder) sample() (s Sample, ok bool) {
	p := &d.p
	p.skipSpace()
	var seenUI, seenRef, seenRefCalls, seenTopics bool
	refCalls := -1 // start of the reference calls in d.calls
	ok = d.object(func(key string) bool {
		switch key {
		case "user_input":
			if seenUI {
				return false
			}
			seenUI = true
			return d.messages()
		case "reference":
			if seenRef {
				return false
			}
			seenRef = true
			if p.literal("null") {
				return true
			}
			if !p.at('"') {
				return false
			}
			text, err := p.str()
			s.Reference = text
			return err == nil
		case "reference_tool_calls":
			if seenRefCalls {
				return false
			}
			seenRefCalls = true
			if p.literal("null") {
				return true
			}
			refCalls = len(d.calls)
			return d.toolCalls(depthMessages)
		case "reference_topics":
			if seenTopics {
				return false
			}
			seenTopics = true
			if p.literal("null") {
				return true
			}
			return d.array(func() bool {
				if !p.at('"') {
					return false
				}
				t, err := p.str()
				s.ReferenceTopics = append(s.ReferenceTopics, t)
				return err == nil
			})
		}
		_, err := p.value(depthSample)
		return err == nil
	})
	if !ok || !seenUI {
		return Sample{}, false
	}
	p.skipSpace()
	if p.pos != len(p.src) {
		return Sample{}, false
	}
	// Copy the messages and calls out of the scratch space.
	calls := make([]ToolCall, len(d.calls))
	copy(calls, d.calls)
	s.Conversation = make(Conversation, len(d.msgs))
	copy(s.Conversation, d.msgs)
	for i, sp := range d.spans {
		if sp[0] >= 0 {
			s.Conversation[i].ToolCalls = calls[sp[0]:sp[1]:sp[1]]
		}
	}
	if refCalls >= 0 {
		s.ReferenceToolCalls = calls[refCalls:len(calls):len(calls)]
	}
	if s.Conversation.Validate() != nil {
		return Sample{}, false
	}
	return s, true
}

// messages reads the list of messages of "user_input".
func (d *sampleDecoder) messages() bool {
	p := &d.p
	return d.array(func() bool {
		var m Message
		var seenType, seenContent, seenCalls bool
		span := [2]int{-1, -1}
		ok := d.object(func(key string) bool {
			switch key {
			case "type":
				if seenType || !p.at('"') {
					return false
				}
				seenType = true
				typ, err := p.str()
				switch typ {
				case "human":
					m.Role = Human
				case "ai":
					m.Role = AI
				case "tool":
					m.Role = Tool
				default:
					return false
				}
				return err == nil
			case "content":
				if seenContent || !p.at('"') {
					return false
				}
				seenContent = true
				text, err := p.str()
				m.Content = text
				return err == nil
			case "tool_calls":
				if seenCalls {
					return false
				}
				seenCalls = true
				if p.literal("null") {
					return true
				}
				span[0] = len(d.calls)
				ok := d.toolCalls(depthCalls)
				span[1] = len(d.calls)
				return ok
			}
			_, err := p.value(depthMessage)
			return err == nil
		})
		// Only ai messages may have tool calls; SampleFromValue says so
		// after the message's "type" is known, whatever the field order.
		if !ok || !seenType || !seenContent || (span[0] >= 0 && m.Role != AI) {
			return false
		}
		d.msgs = append(d.msgs, m)
		d.spans = append(d.spans, span)
		return true
	})
}

// toolCalls reads a list of tool calls onto d.calls. depth is the list's.
func (d *sampleDecoder) toolCalls(depth int) bool {
	p := &d.p
	return d.array(func() bool {
		var tc ToolCall
		var seenName, seenArgs bool
		ok := d.object(func(key string) bool {
			switch key {
			case "name":
				if seenName || !p.at('"') {
					return false
				}
				seenName = true
				name, err := p.str()
				tc.Name = name
				return err == nil
			case "args":
				if seenArgs || !p.at('{') {
					return false
				}
				seenArgs = true
				args, err := p.value(depth + 1)
				tc.Args = args
				return err == nil
			}
			_, err := p.value(depth + 1)
			return err == nil
		})
		if !ok || !seenName || !seenArgs {
			return false
		}
		d.calls = append(d.calls, tc)
		return true
	})
}

// object reads a JSON object, calling member for each key with the parser
// at the value, which member must read.
func (d *sampleDecoder) object(member func(key string) bool) bool {
	p := &d.p
	if !p.at('{') {
		return false
	}
	p.pos++
	p.skipSpace()
	if p.at('}') {
		p.pos++
		return true
	}
	for {
		p.skipSpace()
		if !p.at('"') {
			return false
		}
		key, err := p.str()
		if err != nil {
			return false
		}
		p.skipSpace()
		if !p.at(':') {
			return false
		}
		p.pos++
		p.skipSpace()
		if !member(key) {
			return false
		}
		p.skipSpace()
		switch {
		case p.at(','):
			p.pos++
		case p.at('}'):
			p.pos++
			return true
		default:
			return false
		}
	}
}

// array reads a JSON array, calling elem with the parser at each element.
func (d *sampleDecoder) array(elem func() bool) bool {
	p := &d.p
	if !p.at('[') {
		return false
	}
	p.pos++
	p.skipSpace()
	if p.at(']') {
		p.pos++
		return true
	}
	for {
		p.skipSpace()
		if !elem() {
			return false
		}
		p.skipSpace()
		switch {
		case p.at(','):
			p.pos++
		case p.at(']'):
			p.pos++
			return true
		default:
			return false
		}
	}
}

func ragasMessage(v Value, i int) (Message, error) {
	fail := func(format string, args ...any) (Message, error) {
		return Message{}, &MessageError{Message: i, ToolCall: -1, Err: fmt.Errorf(format, args...)}
	}
	if v.Kind() != Object {
		return fail("a message must be an object, got %s", v.Kind())
	}
	typ, ok := v.Get("type")
	if !ok || typ.Kind() != String {
		return fail(`"type" must be "human", "ai" or "tool"`)
	}
	var m Message
	switch typ.Text() {
	case "human":
		m.Role = Human
	case "ai":
		m.Role = AI
	case "tool":
		m.Role = Tool
	default:
		return fail(`unknown "type" %q (want "human", "ai" or "tool")`, typ.Text())
	}
	content, ok := v.Get("content")
	if !ok || content.Kind() != String {
		what := "missing"
		if ok {
			what = content.Kind().String()
		}
		return Message{}, &MessageError{Message: i, Role: m.Role, ToolCall: -1, Err: fmt.Errorf(`"content" must be a string, got %s`, what)}
	}
	m.Content = content.Text()
	if tcs, ok := v.Get("tool_calls"); ok && tcs.Kind() != Null {
		if m.Role != AI {
			return Message{}, &MessageError{Message: i, Role: m.Role, ToolCall: -1, Err: errors.New(`only ai messages have "tool_calls"`)}
		}
		if tcs.Kind() != Array {
			return Message{}, &MessageError{Message: i, Role: m.Role, ToolCall: -1, Err: fmt.Errorf(`"tool_calls" must be a list, got %s`, tcs.Kind())}
		}
		m.ToolCalls = make([]ToolCall, tcs.Len())
		for j := range m.ToolCalls {
			tc, err := ragasToolCall(tcs.Index(j))
			if err != nil {
				return Message{}, &MessageError{Message: i, Role: m.Role, ToolCall: j, Name: tc.Name, Err: err}
			}
			m.ToolCalls[j] = tc
		}
	}
	return m, nil
}

func ragasToolCall(v Value) (ToolCall, error) {
	if v.Kind() != Object {
		return ToolCall{}, fmt.Errorf("a tool call must be an object, got %s", v.Kind())
	}
	name, ok := v.Get("name")
	if !ok || name.Kind() != String {
		return ToolCall{}, errors.New(`"name" must be a string`)
	}
	tc := ToolCall{Name: name.Text()}
	args, ok := v.Get("args")
	if !ok {
		return tc, errors.New(`"args" is missing`)
	}
	if args.Kind() != Object {
		return tc, fmt.Errorf(`"args" must be an object, got %s`, args.Kind())
	}
	tc.Args = args
	return tc, nil
}

// ReadRecords splits a dataset into samples without parsing them: JSON Lines
// (one sample per line; chosen for .jsonl and .ndjson files and for input
// that does not start with '['), a JSON array of samples, or JSON objects
// one after another (.json files). Memory stays bounded by the largest
// sample, whatever the file's size. A framing error (an unterminated array,
// say) is yielded once and ends the sequence.
func ReadRecords(r io.Reader, file string) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		br := bufio.NewReaderSize(r, 1<<16)
		ext := strings.ToLower(filepath.Ext(file))
		first, err := peekNonSpace(br)
		if err != nil {
			if err != io.EOF {
				yield(Record{}, fmt.Errorf("%s: %w", file, err))
			}
			return
		}
		switch {
		case ext == ".jsonl" || ext == ".ndjson":
			readLines(br, file, yield)
		case first == '[' || ext == ".json":
			readValues(br, file, first == '[', yield)
		default:
			readLines(br, file, yield)
		}
	}
}

func peekNonSpace(br *bufio.Reader) (byte, error) {
	for i := 1; i <= 1<<16; i++ {
		b, err := br.Peek(i)
		if len(b) < i {
			return 0, err
		}
		if c := b[i-1]; c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return c, nil
		}
	}
	return 0, errors.New("no JSON in the first 64 KiB")
}

// readLines yields the non-blank lines. The complete lines of each read
// are copied into one string and records are substrings of it, so that a
// record costs no allocation of its own; a record kept after reading keeps
// its block (64 KiB, or its line if longer) alive.
func readLines(br *bufio.Reader, file string, yield func(Record, error) bool) {
	line, index := 0, 0
	buf := make([]byte, 0, 1<<16)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)] // a line longer than the buffer
		}
		n, err := br.Read(buf[len(buf):cap(buf)])
		// What was left from the last read has no newline.
		end := 0
		if i := bytes.LastIndexByte(buf[len(buf):len(buf)+n], '\n'); i >= 0 {
			end = len(buf) + i + 1
		}
		buf = buf[:len(buf)+n]
		if err != nil {
			end = len(buf) // the last line may have no newline
		}
		if end == 0 && err == nil {
			continue
		}
		block := string(buf[:end])
		for len(block) > 0 {
			text := block
			if i := strings.IndexByte(block, '\n'); i >= 0 {
				text, block = block[:i+1], block[i+1:]
			} else {
				block = ""
			}
			line++
			if text = strings.TrimSpace(text); text != "" {
				if !yield(Record{File: file, Line: line, Index: index, Text: text}, nil) {
					return
				}
				index++
			}
		}
		buf = buf[:copy(buf, buf[end:])]
		if err != nil {
			if err != io.EOF {
				yield(Record{}, fmt.Errorf("%s:%d: %w", file, line+1, err))
			}
			return
		}
	}
}

// readValues yields the elements of a top-level array, or top-level values
// one after another, by tracking nesting and strings without parsing.
func readValues(br *bufio.Reader, file string, inArray bool, yield func(Record, error) bool) {
	line := 1
	index := 0
	fail := func(format string, args ...any) {
		yield(Record{}, &LoadError{File: file, Line: line, Sample: index, Err: fmt.Errorf(format, args...)})
	}
	next := func() (byte, bool) {
		c, err := br.ReadByte()
		if err != nil {
			return 0, false
		}
		if c == '\n' {
			line++
		}
		return c, true
	}
	skip := func() (byte, bool) {
		for {
			c, ok := next()
			if !ok || (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
				return c, ok
			}
		}
	}
	if inArray {
		skip() // the '[' that was peeked, after any space
	}
	var buf []byte
	expectValue := true
	for {
		c, ok := skip()
		if !ok {
			if inArray {
				fail("unexpected end of input: the array of samples is not closed with ']'")
			}
			return
		}
		if inArray {
			if c == ']' {
				if c2, ok := skip(); ok {
					fail("unexpected %q after the array of samples", c2)
				}
				return
			}
			if c == ',' && !expectValue {
				expectValue = true
				continue
			}
			if !expectValue {
				fail("unexpected %q between samples, want ',' or ']'", c)
				return
			}
		}
		start := line
		buf = append(buf[:0], c)
		depth := 0
		if c == '{' || c == '[' {
			depth = 1
		}
		inString := c == '"'
		escaped := false
		// Scan what the reader holds in one go, not byte by byte.
		for depth > 0 || inString {
			chunk, err := br.Peek(max(br.Buffered(), 1))
			if err != nil {
				fail("unexpected end of input inside the sample that starts on line %d", start)
				return
			}
			i := 0
			for i < len(chunk) && (depth > 0 || inString) {
				// Skip the bytes that change nothing, one lookup each.
				if !escaped {
					stops := &framingStops[0]
					if inString {
						stops = &framingStops[1]
					}
					for i < len(chunk) && !stops[chunk[i]] {
						i++
					}
					if i == len(chunk) {
						break
					}
				}
				c := chunk[i]
				i++
				switch {
				case c == '\n':
					line++
					escaped = false
				case escaped:
					escaped = false
				case inString:
					if c == '\\' {
						escaped = true
					} else if c == '"' {
						inString = false
					}
				case c == '"':
					inString = true
				case c == '{' || c == '[':
					depth++
				case c == '}' || c == ']':
					depth--
				}
			}
			buf = append(buf, chunk[:i]...)
			br.Discard(i)
		}
		if c := buf[0]; c != '{' && c != '[' && c != '"' {
			// A bare scalar: read up to the next separator.
			for {
				p, err := br.Peek(1)
				if err != nil || bytes.IndexByte([]byte(",] \t\r\n"), p[0]) >= 0 {
					break
				}
				c, _ := next()
				buf = append(buf, c)
			}
		}
		if !yield(Record{File: file, Line: start, Index: index, Text: string(buf)}, nil) {
			return
		}
		index++
		expectValue = false
	}
}

// framingStops are the bytes readValues must look at: outside strings
// ([0]) and inside them ([1]).
var framingStops = func() (t [2][256]bool) {
	for _, c := range []byte("\"{}[]\n") {
		t[0][c] = true
	}
	for _, c := range []byte("\"\\\n") {
		t[1][c] = true
	}
	return t
}()

// ReadSamples reads and parses every sample of a dataset (see ReadRecords).
// A bad sample yields its *LoadError and reading goes on with the next.
func ReadSamples(r io.Reader, file string) iter.Seq2[Sample, error] {
	return func(yield func(Sample, error) bool) {
		for rec, err := range ReadRecords(r, file) {
			if err != nil {
				yield(Sample{}, err)
				return
			}
			s, err := rec.Sample()
			if !yield(s, err) {
				return
			}
		}
	}
}

// LoadSamples reads a dataset file. It returns every sample that loaded and,
// joined, an error for each one that did not.
func LoadSamples(path string) ([]Sample, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var samples []Sample
	var errs []error
	for s, err := range ReadSamples(f, path) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		samples = append(samples, s)
	}
	return samples, errors.Join(errs...)
}

// OpenAI Chat Completions messages.

// ParseOpenAIMessages reads OpenAI Chat Completions messages written as JSON:
// a list of messages, or an object with a "messages" list (a request body).
// Assistant tool calls carry their arguments as a JSON string, which is
// parsed; malformed arguments are an error naming the message and the call.
func ParseOpenAIMessages(data []byte) (Conversation, error) {
	v, err := ParseValue(data)
	if err != nil {
		return nil, err
	}
	if v.Kind() == Object {
		msgs, ok := v.Get("messages")
		if !ok {
			return nil, errors.New(`want a list of messages or an object with "messages"`)
		}
		v = msgs
	}
	if v.Kind() != Array {
		return nil, fmt.Errorf("want a list of messages, got %s", v.Kind())
	}
	conv := make(Conversation, v.Len())
	for i := range conv {
		m, err := openAIMessage(v.Index(i), i)
		if err != nil {
			return nil, err
		}
		conv[i] = m
	}
	return conv, conv.Validate()
}

func openAIRole(role string) (Role, bool) {
	switch role {
	case openai.ChatMessageRoleUser:
		return Human, true
	case openai.ChatMessageRoleAssistant:
		return AI, true
	case openai.ChatMessageRoleTool, openai.ChatMessageRoleFunction:
		return Tool, true
	case openai.ChatMessageRoleSystem, openai.ChatMessageRoleDeveloper:
		return System, true
	}
	return "", false
}

func openAIMessage(v Value, i int) (Message, error) {
	fail := func(role Role, call int, name string, format string, args ...any) (Message, error) {
		return Message{}, &MessageError{Message: i, Role: role, ToolCall: call, Name: name, Err: fmt.Errorf(format, args...)}
	}
	if v.Kind() != Object {
		return fail("", -1, "", "a message must be an object, got %s", v.Kind())
	}
	r, _ := v.Get("role")
	role, ok := openAIRole(r.Text())
	if !ok {
		return fail("", -1, "", "unknown role %q", r.String())
	}
	m := Message{Role: role}
	if id, ok := v.Get("tool_call_id"); ok {
		m.ToolCallID = id.Text()
	}
	switch c, _ := v.Get("content"); c.Kind() {
	case Null:
	case String:
		m.Content = c.Text()
	case Array: // content parts: keep the text ones
		var parts []string
		for j := 0; j < c.Len(); j++ {
			if t, ok := c.Index(j).Get("text"); ok && t.Kind() == String {
				parts = append(parts, t.Text())
			}
		}
		m.Content = strings.Join(parts, "\n")
	default:
		return fail(role, -1, "", `"content" must be a string, a list of parts or null, got %s`, c.Kind())
	}
	tcs, ok := v.Get("tool_calls")
	if !ok || tcs.Kind() == Null {
		return m, nil
	}
	if role != AI {
		return fail(role, -1, "", `only assistant messages have "tool_calls"`)
	}
	if tcs.Kind() != Array {
		return fail(role, -1, "", `"tool_calls" must be a list, got %s`, tcs.Kind())
	}
	m.ToolCalls = make([]ToolCall, tcs.Len())
	for j := range m.ToolCalls {
		tcv := tcs.Index(j)
		fn, _ := tcv.Get("function")
		name, _ := fn.Get("name")
		args, _ := fn.Get("arguments")
		id, _ := tcv.Get("id")
		if name.Kind() != String || name.Text() == "" {
			return fail(role, j, "", `"function.name" must be a non-empty string`)
		}
		var argText string
		switch args.Kind() {
		case String:
			argText = args.Text()
		case Object: // some servers send the object itself
			m.ToolCalls[j] = ToolCall{ID: id.Text(), Name: name.Text(), Args: args}
			continue
		default:
			return fail(role, j, name.Text(), `"function.arguments" must be a JSON string, got %s`, args.Kind())
		}
		tc, err := openAIArguments(id.Text(), name.Text(), argText)
		if err != nil {
			return fail(role, j, name.Text(), "%v", err)
		}
		m.ToolCalls[j] = tc
	}
	return m, nil
}

func openAIArguments(id, name, text string) (ToolCall, error) {
	tc := ToolCall{ID: id, Name: name}
	if strings.TrimSpace(text) == "" {
		// An empty arguments string is how several servers say "no arguments".
		tc.Args = ObjectOf()
		return tc, nil
	}
	args, err := ParseValue([]byte(text))
	if err != nil {
		return tc, fmt.Errorf("arguments %s are not valid JSON: %w", truncate(text, 80), err)
	}
	if args.Kind() != Object {
		return tc, fmt.Errorf("arguments must be a JSON object, got %s", args.Kind())
	}
	tc.Args = args
	return tc, nil
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%q...", string(r[:n]))
}

// FromOpenAI converts go-openai messages into a Conversation.
func FromOpenAI(msgs []openai.ChatCompletionMessage) (Conversation, error) {
	conv := make(Conversation, len(msgs))
	for i, om := range msgs {
		role, ok := openAIRole(om.Role)
		if !ok {
			return nil, &MessageError{Message: i, ToolCall: -1, Err: fmt.Errorf("unknown role %q", om.Role)}
		}
		m := Message{Role: role, Content: om.Content, ToolCallID: om.ToolCallID}
		if m.Content == "" && len(om.MultiContent) > 0 {
			var parts []string
			for _, p := range om.MultiContent {
				if p.Type == openai.ChatMessagePartTypeText {
					parts = append(parts, p.Text)
				}
			}
			m.Content = strings.Join(parts, "\n")
		}
		if len(om.ToolCalls) > 0 {
			if role != AI {
				return nil, &MessageError{Message: i, Role: role, ToolCall: -1, Err: errors.New("only assistant messages make tool calls")}
			}
			m.ToolCalls = make([]ToolCall, len(om.ToolCalls))
			for j, tc := range om.ToolCalls {
				call, err := openAIArguments(tc.ID, tc.Function.Name, tc.Function.Arguments)
				if err == nil && tc.Function.Name == "" {
					err = errors.New("tool call has no function name")
				}
				if err != nil {
					return nil, &MessageError{Message: i, Role: role, ToolCall: j, Name: tc.Function.Name, Err: err}
				}
				m.ToolCalls[j] = call
			}
		}
		conv[i] = m
	}
	return conv, conv.Validate()
}
