package agentcheck

import (
	"unicode/utf8"

	"github.com/agentcheck/agentcheck/internal/samplereuse"
)

// refReader reads a sample's id and references, written as ragas writes
// them, where they stand in the text of a record of another format (OpenAI
// messages, say), with the fast path's steps: dataset's reader of such a
// record hands it each one as it meets it, rather than copying them into a
// ragas sample of their own for sampleParser.parseInto (the copy, and the
// skip that found their end, were a fifth of the CPU of reading OpenAI
// messages: BENCHMARKS.md, CPU16).
//
// It takes only what fastInto would take of the same fields in a sample of
// their own, and gives the same Sample: anything else (reference_topics,
// an escape in a key, a field of the wrong shape, malformed JSON) it
// leaves, and the caller reads the references as before.
type refReader struct {
	d    sampleDecoder
	text string
	f    sampleFields
}

func init() {
	samplereuse.NewRefs = func(rawText bool) samplereuse.RefReader {
		r := new(refReader)
		r.d.rawText = rawText
		return r
	}
}

// Start begins a record's references: text is the record's.
func (r *refReader) Start(text string) {
	r.d.begin(text)
	r.text = text
	r.f = sampleFields{refCalls: [2]int{-1, -1}, seenUI: true}
}

// Read reads the value of the field key ("id", "reference" or
// "reference_tool_calls") at offset i of the text, and returns the offset
// after it; ok is false when the fast path does not take it. calls, an
// *[]agentcheck.ToolCall or nil, are the record's calls read so far: a
// reference call's arguments written as one of theirs, but for the space
// between tokens, are its Value (sampleDecoder.sameArgs), and scoring
// then knows them the same without a look at their values.
func (r *refReader) Read(key string, i int, calls any) (end int, ok bool) {
	d, text, f := &r.d, r.text, &r.f
	switch key {
	case "reference_tool_calls":
		if i >= len(text) || text[i] != '[' {
			return i, false
		}
		if c, _ := calls.(*[]ToolCall); c != nil {
			d.others, d.nextOther = *c, 0
		}
		start := len(d.calls)
		i, ok = d.fastCalls(text, i, depthMessages+1)
		d.others = nil
		f.refCalls = [2]int{start, len(d.calls)}
	case "reference":
		f.s.Reference, i, ok = d.fastText(text, i)
		ok = ok && utf8.ValidString(f.s.Reference)
	case "id":
		p := &d.p
		p.Seek(i)
		v, err := p.Value(depthSample)
		f.s.ID, i, ok = idText(v), p.Offset(), err == nil
		ok = ok && utf8.ValidString(f.s.ID)
	}
	// A string that holds a surrogate half (WTF-8, not UTF-8) the caller
	// reads as before: written out again as ragas writes it, two halves
	// come back as one character.
	return i, ok && d.fastErr == nil
}

// Finish sets *s, an *agentcheck.Sample, to the references read, with an
// empty conversation, as parseInto sets it from a ragas sample with an
// empty "user_input" and the same fields; ok is false when parseInto
// would give an error.
func (r *refReader) Finish(s any) bool {
	return r.d.finishInto(&r.f, s.(*Sample)) == nil
}
