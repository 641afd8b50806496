package agentcheck

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/agentcheck/agentcheck/internal/samplereuse"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// ParseSample parses one ragas MultiTurnSample written as a JSON object:
//
//	{"user_input": [{"type": "human", "content": "..."},
//	                {"type": "ai", "content": "...", "tool_calls": [{"name": "...", "args": {...}}]},
//	                {"type": "tool", "content": "..."}],
//	 "reference": "...", "reference_tool_calls": [...], "reference_topics": ["..."]}
//
// Malformed JSON anywhere in text is a *SyntaxError with its line and
// column in text; a problem in a message is a *MessageError naming the
// message and tool call. A field given twice counts once, with its last
// value, as in a Python dict. The Sample's strings share text's memory.
func ParseSample(text string) (Sample, error) { return parseSample(text, 0, "") }

// parseSample is ParseSample with a bound on the JSON values the sample
// may hold, maxValues (none when 0; see tryFast), which boundName,
// when set, names in the error.
func parseSample(text string, maxValues int, boundName string) (Sample, error) {
	d := sampleDecoderPool.Get().(*sampleDecoder)
	d.bound(maxValues, boundName)
	d.p.Reset(text)
	d.fastErr = nil
	var s Sample
	read, err := d.tryFast(text, &s)
	if !read && d.fastErr != nil {
		err = d.fastErr
		d.fastErr = nil
		d.reset()
		sampleDecoderPool.Put(d)
		return Sample{}, err
	}
	if !read {
		d.msgs, d.calls, d.spans = d.msgs[:0], d.calls[:0], d.spans[:0]
		d.p.Reset(text)
		s, err = d.sample()
	}
	err = d.overValues(err)
	d.reset()
	sampleDecoderPool.Put(d)
	return s, err
}

// A sampleParser parses samples one after another as ParseSample does,
// reusing its memory from sample to sample: the Sample that parse returns,
// with its messages, tool calls and argument values, is valid only until
// the next call of parse (its strings stay valid: they share the text's
// memory). Scoring a large dataset sample by sample this way allocates
// nothing per sample once the parser has warmed up. It is not safe for
// concurrent use. dataset.Parser, through package samplereuse, is its
// public face.
type sampleParser struct {
	d sampleDecoder
}

func init() {
	samplereuse.New = func(rawText bool) func(text string) (Sample, error) {
		return newSampleParser(rawText, 0, "").parse
	}
	samplereuse.NewInto = func(rawText bool, maxValues int, boundName string) func(text string, s *Sample) error {
		return newSampleParser(rawText, maxValues, boundName).parseInto
	}
}

func newSampleParser(rawText bool, maxValues int, boundName string) *sampleParser {
	sp := new(sampleParser)
	sp.d.rawText = rawText
	sp.d.bound(maxValues, boundName)
	return sp
}

// parse parses one sample, as ParseSample does, into memory that the next
// call of parse reuses.
func (sp *sampleParser) parse(text string) (Sample, error) {
	var s Sample
	err := sp.parseInto(text, &s)
	return s, err
}

// parseInto is parse, the Sample set in *s (the zero Sample with an
// error): a Sample is thirteen words, which each function that returns it
// copies, and the CLI's reading of a sample went through six (BENCHMARKS.md,
// CPU12).
func (sp *sampleParser) parseInto(text string, s *Sample) error {
	d := &sp.d
	d.begin(text)
	if read, err := d.tryFast(text, s); read {
		return err
	} else if d.fastErr != nil {
		err, d.fastErr = d.fastErr, nil
		*s = Sample{}
		return err
	}
	d.msgs, d.calls, d.spans = d.msgs[:0], d.calls[:0], d.spans[:0]
	d.p.Recycle(text)
	var err error
	*s, err = d.sample()
	return d.overValues(err)
}

// bound sets the most JSON values a sample may hold, none when maxValues
// is 0, and the name of what sets it (a flag) for the error.
func (d *sampleDecoder) bound(maxValues int, boundName string) {
	d.maxValues, d.boundName = maxValues, boundName
	d.p.Limit(maxValues)
}

// tryFast is fast, on a text that cannot hold more values than the bound,
// one of no more bytes than it (each value starts with a byte of its own;
// well formed, b bytes hold at most (b+1)/2 values, but a text cut short,
// whose error fast would report as the general decoder's, does not close
// its lists: "[[[[" is four values): the fast path does not count the
// values it reads itself, and leaves a text that might hold more to the
// general decoder, whose Decoder counts every one. At the CLI's default
// bound that is a text over 1 MiB; a sample that holds more values than
// the bound then gets the same error, from the same reading, whatever its
// layout, as does malformed JSON past the value the bound stops at.
func (d *sampleDecoder) tryFast(text string, s *Sample) (bool, error) {
	if d.maxValues > 0 && len(text) > d.maxValues {
		return false, nil
	}
	return d.fastInto(text, s)
}

// overValues words err, if it is the Decoder's *jsonvalue.LimitError, as
// a sample's: the sample holds more than the bound's JSON values, and
// what sets the bound.
func (d *sampleDecoder) overValues(err error) error {
	if _, ok := err.(*jsonvalue.LimitError); !ok {
		return err
	}
	return samplereuse.ValuesError(err, d.boundName)
}

// sampleDecoder reads a sample in one pass, straight into a Sample: it
// builds Values only for the arguments of tool calls (and for what it
// skips), with a jsonvalue.Decoder's steps, so that the JSON is scanned,
// and its errors worded, as jsonvalue.Parse does.
//
// A field of the wrong shape does not stop it: it notes the problem and
// reads on, so that malformed JSON later in the text is still reported, and
// reported first, and so that a field given again can replace it. Once the
// text is read, the problems are reported in the order of ragas's checks:
// user_input, then each message (type, content, tool_calls, each call),
// the conversation as a whole, reference, reference_tool_calls and
// reference_topics, whatever the order of the fields in the JSON.
//
// Messages and calls are gathered on scratch slices, reused from sample to
// sample, and copied out once into slices of exactly the right size.
type sampleDecoder struct {
	// fastErr is the malformed JSON the fast path met, if it met any:
	// the general decoder, which would read the text again from the
	// start, meets the same error at the same place first (it ends the
	// reading wherever it is), so the fast path's is the answer, and a
	// malformed sample is not parsed twice.
	fastErr error
	// rawText: a message's text with escapes is kept as it is written,
	// its escapes checked but not read (fastContent), for a caller that
	// reads no message's text (samplereuse.New).
	rawText bool
	p       jsonvalue.Decoder
	msgs    []Message
	calls   []ToolCall
	// spans[i] is the range of msgs[i]'s calls in calls; start -1 for a
	// message without "tool_calls".
	spans  [][2]int
	topics []string
	// reuse is set when the Sample may share the scratch slices (a
	// sampleParser.s), rather than get copies of them.
	reuse bool
	// others are the calls of a record of another format, read before its
	// references (refReader): a reference call's arguments written as one
	// of theirs, but for the space between tokens, are its Value.
	others []ToolCall
	// nextOther is where sameArgs looks among others first.
	nextOther int
	// maxValues bounds the JSON values a sample may hold (bound), none
	// when 0; boundName is what sets it, for the error.
	maxValues int
	boundName string
}

var sampleDecoderPool = sync.Pool{New: func() any { return new(sampleDecoder) }}

// begin starts reading text into a Sample that may share the scratch
// slices (parseInto's, refReader's).
func (d *sampleDecoder) begin(text string) {
	clear(d.calls) // the last sample's values, not kept alive
	d.msgs, d.calls, d.spans = d.msgs[:0], d.calls[:0], d.spans[:0]
	d.p.Recycle(text)
	d.reuse = true
	d.fastErr = nil
}

func (d *sampleDecoder) reset() {
	clear(d.msgs)
	clear(d.calls)
	clear(d.topics)
	d.msgs, d.calls, d.spans, d.topics = d.msgs[:0], d.calls[:0], d.spans[:0], d.topics[:0]
	d.p.Reset("") // drop the text and the Values, keep the scratch memory
}

// The depths of the parts of a sample, counted as jsonvalue.Parse counts them,
// so that its nesting limit applies to arguments and ignored fields alike:
// a part at depth n holds values read at depth n.
const (
	depthSample   = 1
	depthMessages = 2 // user_input, and reference_tool_calls and reference_topics
	depthMessage  = 3
	depthCalls    = 4 // a message's tool_calls
)

// text reads a value that ought to be a string: its text, and its kind,
// which for anything else is all that matters of it.
func (d *sampleDecoder) text(depth int) (string, jsonvalue.Kind, error) {
	p := &d.p
	if p.Peek() == '"' {
		s, err := p.ReadString()
		return s, jsonvalue.StringKind, err
	}
	v, err := p.Value(depth)
	return "", v.Kind(), err
}

// isSyntax reports whether err ends the reading, malformed JSON or a
// value past the bound (a *jsonvalue.LimitError), rather than being a
// problem with a field, which does not.
func isSyntax(err error) bool {
	switch err.(type) {
	case *jsonvalue.SyntaxError, *jsonvalue.LimitError:
		return true
	}
	return false
}

func (d *sampleDecoder) sample() (Sample, error) {
	p := &d.p
	if p.Peek() != '{' {
		v, err := p.Value(0)
		if err == nil {
			err = d.end()
		}
		if err != nil {
			return Sample{}, err
		}
		return Sample{}, fmt.Errorf("a sample must be a JSON object, got %s", v.Kind())
	}
	var f sampleFields
	f.refCalls = [2]int{-1, -1}
	for key, more, err := p.NextKey(true); more || err != nil; key, more, err = p.NextKey(false) {
		if err == nil {
			err = d.field(key, &f)
		}
		if err != nil {
			return Sample{}, err
		}
	}
	if err := d.end(); err != nil {
		return Sample{}, err
	}
	if !f.seenUI {
		return Sample{}, errors.New(`"user_input" is missing`)
	}
	if f.uiErr != nil {
		return Sample{}, f.uiErr
	}
	return d.finish(&f)
}

// finish makes the Sample of a text read whole, its messages and calls on
// the scratch slices, and reports the problems f noted after those of the
// conversation.
func (d *sampleDecoder) finish(f *sampleFields) (Sample, error) {
	var s Sample
	err := d.finishInto(f, &s)
	return s, err
}

// finishInto is finish, the Sample set in *s (the zero Sample with an
// error).
func (d *sampleDecoder) finishInto(f *sampleFields, s *Sample) error {
	// Copy the messages and calls out of the scratch space, unless the
	// Sample may share it.
	*s = f.s
	calls, msgs := d.calls, d.msgs
	if !d.reuse {
		calls = make([]ToolCall, len(d.calls))
		copy(calls, d.calls)
		msgs = make([]Message, len(d.msgs))
		copy(msgs, d.msgs)
	}
	if calls == nil {
		// An empty list is not an absent one: slices of it must not be nil.
		calls = []ToolCall{}
	}
	if msgs == nil {
		msgs = []Message{}
	}
	s.Conversation = Conversation(msgs[:len(msgs):len(msgs)])
	for i, sp := range d.spans {
		if sp[0] >= 0 {
			s.Conversation[i].ToolCalls = calls[sp[0]:sp[1]:sp[1]]
		}
	}
	if err := s.Conversation.Validate(); err != nil {
		*s = Sample{}
		return err
	}
	for _, err := range [...]error{f.refErr, f.refCallsErr, f.topicsErr} {
		if err != nil {
			*s = Sample{}
			return err
		}
	}
	if f.refCalls[0] >= 0 {
		s.ReferenceToolCalls = calls[f.refCalls[0]:f.refCalls[1]:f.refCalls[1]]
	}
	return nil
}

// sampleFields is what the fields of a sample held, each as its last
// occurrence left it: the Sample's strings, and the problem with each field.
type sampleFields struct {
	s                                     Sample
	seenUI                                bool
	uiErr, refErr, refCallsErr, topicsErr error
	refCalls                              [2]int // range of reference calls in d.calls; -1 for none
}

// field reads the value of the sample's field key into f. It returns only
// a *SyntaxError; a problem with the field is noted in f.
func (d *sampleDecoder) field(key string, f *sampleFields) error {
	p := &d.p
	switch key {
	case "user_input":
		f.seenUI = true
		f.uiErr = d.messages()
		if isSyntax(f.uiErr) {
			return f.uiErr
		}
	case "reference":
		var kind jsonvalue.Kind
		var err error
		if f.s.Reference, kind, err = d.text(depthSample); err != nil {
			return err
		}
		f.refErr = nil
		if kind != jsonvalue.StringKind && kind != jsonvalue.NullKind {
			f.refErr = fmt.Errorf(`"reference" must be a string, got %s`, kind)
		}
	case "reference_tool_calls":
		f.refCalls, f.refCallsErr = [2]int{-1, -1}, nil
		if p.Peek() != '[' {
			v, err := p.Value(depthSample)
			if err != nil {
				return err
			}
			if v.Kind() != jsonvalue.NullKind {
				f.refCallsErr = fmt.Errorf(`"reference_tool_calls" must be a list, got %s`, v.Kind())
			}
			return nil
		}
		start := len(d.calls)
		bad, _, err := d.toolCalls(depthMessages)
		if err != nil {
			if isSyntax(err) {
				return err
			}
			f.refCallsErr = fmt.Errorf("reference_tool_calls[%d]: %w", bad, err)
		}
		f.refCalls = [2]int{start, len(d.calls)}
	case "reference_topics":
		f.s.ReferenceTopics, f.topicsErr = nil, nil
		if p.Peek() != '[' {
			v, err := p.Value(depthSample)
			if err != nil {
				return err
			}
			if v.Kind() != jsonvalue.NullKind {
				f.topicsErr = fmt.Errorf(`"reference_topics" must be a list of strings, got %s`, v.Kind())
			}
			return nil
		}
		j := 0
		topics := d.topics[:0]
		for more, err := p.NextElem(true); more || err != nil; more, err = p.NextElem(false) {
			if err != nil {
				return err
			}
			topic, kind, err := d.text(depthMessages)
			if err != nil {
				return err
			}
			if kind != jsonvalue.StringKind && f.topicsErr == nil {
				f.topicsErr = fmt.Errorf("reference_topics[%d] must be a string, got %s", j, kind)
			}
			topics = append(topics, topic)
			j++
		}
		d.topics = topics
		if len(topics) > 0 {
			f.s.ReferenceTopics = topics[:len(topics):len(topics)]
			if !d.reuse {
				f.s.ReferenceTopics = slices.Clone(f.s.ReferenceTopics)
			}
		}
	case "id":
		v, err := p.Value(depthSample)
		if err != nil {
			return err
		}
		f.s.ID = idText(v) // a Python dict's last value, as for every key
	default:
		_, err := p.Value(depthSample)
		return err
	}
	return nil
}

// end checks that nothing but space follows the sample.
func (d *sampleDecoder) end() error { return d.p.End("the sample") }

// messages reads the value of "user_input" onto d.msgs and d.spans. It
// returns a *SyntaxError at once, or, once the whole value is read, the
// first problem with it.
func (d *sampleDecoder) messages() error {
	p := &d.p
	d.msgs, d.spans = d.msgs[:0], d.spans[:0]
	if p.Peek() != '[' {
		v, err := p.Value(depthSample)
		if err != nil {
			return err
		}
		return fmt.Errorf(`"user_input" must be a list of messages, got %s%s`, v.Kind(), singleTurnHint(v.Kind()))
	}
	var first error
	i := 0
	for more, err := p.NextElem(true); more || err != nil; more, err = p.NextElem(false) {
		if err == nil {
			err = d.message(i)
		}
		if err != nil {
			if isSyntax(err) {
				return err
			}
			if first == nil {
				first = err
			}
		}
		i++
	}
	return first
}

// message reads message i of "user_input" onto d.msgs and d.spans, or
// returns a *SyntaxError, or, once the message is read, a *MessageError.
// The fields are checked in the order type, content, tool_calls, whatever
// their order in the JSON.
func (d *sampleDecoder) message(i int) error {
	p := &d.p
	if p.Peek() != '{' {
		v, err := p.Value(depthMessages)
		if err != nil {
			return err
		}
		return messageError(i, "", -1, "", fmt.Errorf("a message must be an object, got %s", v.Kind()))
	}
	var (
		m                  Message
		typ                string
		typKind, textKind  jsonvalue.Kind // the kinds of "type" and "content"
		seenType, seenText bool
		seenRole           bool                 // a "role", as a provider's messages have
		calls              = jsonvalue.NullKind // the kind of "tool_calls"
		span               = [2]int{-1, -1}
		bad                = -1 // the first call that could not be read
		badName            string
		badErr             error
	)
	for key, more, err := p.NextKey(true); more || err != nil; key, more, err = p.NextKey(false) {
		if err != nil {
			return err
		}
		switch key {
		case "type":
			seenType = true
			typ, typKind, err = d.text(depthMessage)
		case "content":
			seenText = true
			m.Content, textKind, err = d.text(depthMessage)
		case "tool_calls":
			span, bad, badErr = [2]int{-1, -1}, -1, nil
			if p.Peek() != '[' {
				var v jsonvalue.Value
				v, err = p.Value(depthMessage)
				calls = v.Kind()
				break
			}
			calls = jsonvalue.ArrayKind
			span[0] = len(d.calls)
			bad, badName, err = d.toolCalls(depthCalls)
			span[1] = len(d.calls)
			if err != nil && !isSyntax(err) {
				badErr, err = err, nil
			}
		default:
			seenRole = seenRole || key == "role"
			_, err = p.Value(depthMessage)
		}
		if err != nil {
			return err
		}
	}
	if !seenType || typKind != jsonvalue.StringKind {
		return messageError(i, "", -1, "", errors.New(`"type" must be "human", "ai" or "tool"`+roleHint(seenType, seenRole)))
	}
	var ok bool
	if m.Role, ok = roleOf(typ); !ok {
		return messageError(i, "", -1, "", fmt.Errorf(`unknown "type" %q (want "human", "ai" or "tool")`, typ))
	}
	if !seenText || textKind != jsonvalue.StringKind {
		what := "missing"
		if seenText {
			what = textKind.String()
		}
		return messageError(i, m.Role, -1, "", fmt.Errorf(`"content" must be a string, got %s`, what))
	}
	if calls != jsonvalue.NullKind {
		switch {
		case m.Role != AI:
			return messageError(i, m.Role, -1, "", errors.New(`only ai messages have "tool_calls"`))
		case calls != jsonvalue.ArrayKind:
			return messageError(i, m.Role, -1, "", fmt.Errorf(`"tool_calls" must be a list, got %s`, calls))
		case badErr != nil:
			return messageError(i, m.Role, bad, badName, badErr)
		}
	}
	d.msgs = append(d.msgs, m)
	d.spans = append(d.spans, span)
	return nil
}

// singleTurnHint says, of a "user_input" that is a string, what it looks
// like and what the metrics read instead.
func singleTurnHint(k jsonvalue.Kind) string {
	if k != jsonvalue.StringKind {
		return ""
	}
	return `: it looks like a ragas SingleTurnSample; the metrics score a MultiTurnSample, whose "user_input" is a list of {"type", "content"} messages`
}

// roleHint says, of a message with a "role" but no "type", that ragas's
// messages say "type" and that a provider's messages go under "messages".
func roleHint(seenType, seenRole bool) string {
	if seenType || !seenRole {
		return ""
	}
	return ` (it has a "role": ragas's messages name theirs by "type"; a provider's messages go under "messages")`
}

// roleOf is the Role of a message's "type".
func roleOf(typ string) (Role, bool) {
	switch typ {
	case "human":
		return Human, true
	case "ai":
		return AI, true
	case "tool":
		return Tool, true
	}
	return "", false
}

func messageError(i int, role Role, call int, name string, err error) error {
	return &MessageError{Message: i, Role: role, ToolCall: call, Name: name, Err: err}
}

// toolCalls reads a list of tool calls, the list at depth, onto d.calls.
// It returns a *SyntaxError at once, or, once the list is read, the problem
// with the first call that could not be read, with its index and, if it has
// a good one, its name.
func (d *sampleDecoder) toolCalls(depth int) (bad int, name string, err error) {
	p := &d.p
	bad = -1
	var first error
	j := 0
	for more, err := p.NextElem(true); more || err != nil; more, err = p.NextElem(false) {
		if err != nil {
			return -1, "", err
		}
		tc, err := d.toolCall(depth + 1)
		if err != nil {
			if isSyntax(err) {
				return -1, "", err
			}
			if first == nil {
				bad, name, first = j, tc.Name, err
			}
		} else {
			d.calls = append(d.calls, tc)
		}
		j++
	}
	return bad, name, first
}

// toolCall reads a tool call, an object at depth, or returns a
// *SyntaxError, or, once the call is read, the problem with it, with the
// call's name if that was good.
func (d *sampleDecoder) toolCall(depth int) (ToolCall, error) {
	p := &d.p
	if p.Peek() != '{' {
		v, err := p.Value(depth - 1)
		if err != nil {
			return ToolCall{}, err
		}
		return ToolCall{}, fmt.Errorf("a tool call must be an object, got %s", v.Kind())
	}
	var (
		tc                 ToolCall
		nameKind           jsonvalue.Kind
		seenName, seenArgs bool
	)
	for key, more, err := p.NextKey(true); more || err != nil; key, more, err = p.NextKey(false) {
		if err != nil {
			return ToolCall{}, err
		}
		switch key {
		case "name":
			seenName = true
			tc.Name, nameKind, err = d.text(depth)
		case "args":
			seenArgs = true
			tc.Args, err = p.Value(depth)
		default:
			_, err = p.Value(depth)
		}
		if err != nil {
			return ToolCall{}, err
		}
	}
	if !seenName || nameKind != jsonvalue.StringKind {
		return ToolCall{}, errors.New(`"name" must be a string`)
	}
	if !seenArgs {
		return ToolCall{Name: tc.Name}, errors.New(`"args" is missing`)
	}
	if tc.Args.Kind() != jsonvalue.ObjectKind {
		return ToolCall{Name: tc.Name}, fmt.Errorf(`"args" must be an object, got %s`, tc.Args.Kind())
	}
	return tc, nil
}

// idText is a sample's "id" as reports name it: a string's text or an
// integer's digits, else "".
func idText(v jsonvalue.Value) string {
	if k := v.Kind(); k == jsonvalue.StringKind || k == jsonvalue.IntKind {
		return v.Text()
	}
	return ""
}
