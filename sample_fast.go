package agentcheck

import (
	"strings"
	"unicode/utf8"

	"github.com/agentcheck/agentcheck/internal/wordscan"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// fastInto reads the sample in d.p's text into *s in one pass, in the
// layout nearly every sample has: the structure (objects, lists, keys, the messages'
// types, contents and the calls' names) scanned here, with the text and
// the position in registers, and only the values it does not read itself
// (arguments, strings with escapes, fields it skips) read by d.p, which it
// moves to them with Seek. Reading the spec's vectors this way takes a
// third fewer instructions than through the Decoder's steps alone, and
// the generated samples (more arguments) a fifth fewer (callgrind of the
// CLI).
//
// read is false, and what fast read is to be dropped, when the text holds
// anything else: malformed JSON, a field of the wrong kind, a key with an
// escape or given twice, reference_topics, a message or call that ragas
// would refuse. The general decoder (sample) then reads the text from the
// start, so that what a sample is, and how a problem is worded, is decided
// there alone; a test holds the two to the same Sample on every text fast
// reads.
func (d *sampleDecoder) fastInto(text string, s *Sample) (read bool, err error) {
	p := &d.p
	i := 0
	var ok bool
	if i = skipSpace(text, i); i >= len(text) || text[i] != '{' {
		return false, nil
	}
	var f sampleFields
	f.refCalls = [2]int{-1, -1}
	var seen uint8 // the fields read, a bit each
	for i++; ; i++ {
		key := fieldOther
		switch i = skipSpace(text, i); {
		case len(text)-i >= len(keyUserInput) && text[i:i+len(keyUserInput)] == keyUserInput:
			key, i = 1, i+len(keyUserInput)
		case hasAt(text, i, `"reference_tool_calls"`):
			key, i = 2, i+len(`"reference_tool_calls"`)
		case len(text)-i >= len(keyReference) && text[i:i+len(keyReference)] == keyReference:
			key, i = 3, i+len(keyReference)
		case hasAt(text, i, `"reference_topics"`):
			return false, nil
		case hasAt(text, i, `"id"`):
			key, i = 4, i+len(`"id"`)
		}
		if i, ok = fastColon(text, i, key); !ok {
			return false, nil
		}
		bit := uint8(1<<key) >> 1 // key's bit in seen; none for fieldOther
		switch key {
		case 1:
			f.seenUI = true
			i, ok = d.fastMessages(text, i)
		case 2:
			if i >= len(text) || text[i] != '[' {
				return false, nil
			}
			start := len(d.calls)
			i, ok = d.fastCalls(text, i, depthMessages+1)
			f.refCalls = [2]int{start, len(d.calls)}
		case 3:
			f.s.Reference, i, ok = d.fastText(text, i)
		case 4:
			p.Seek(i)
			v, err := p.Value(depthSample)
			f.s.ID, i, ok = idText(v), p.Offset(), err == nil
		default:
			i, ok = d.fastSkip(text, i, depthSample)
		}
		if !ok || seen&bit != 0 {
			return false, nil
		}
		seen |= bit
		if i = skipSpace(text, i); i >= len(text) {
			return false, nil
		}
		if text[i] == '}' {
			break
		}
		if text[i] != ',' {
			return false, nil
		}
	}
	if skipSpace(text, i+1) != len(text) || !f.seenUI {
		return false, nil
	}
	p.Seek(len(text))
	return true, d.finishInto(&f, s)
}

// fastMessages reads the list of messages at text[i] onto d.msgs and
// d.spans, and returns the offset after it.
func (d *sampleDecoder) fastMessages(text string, i int) (int, bool) {
	d.msgs, d.spans = d.msgs[:0], d.spans[:0]
	if i >= len(text) || text[i] != '[' {
		return i, false
	}
	if i = skipSpace(text, i+1); i < len(text) && text[i] == ']' {
		return i + 1, true
	}
	for {
		var ok bool
		if i, ok = d.fastMessage(text, i); !ok {
			return i, false
		}
		if i = skipSpace(text, i); i >= len(text) {
			return i, false
		}
		switch text[i] {
		case ']':
			return i + 1, true
		case ',':
			i = skipSpace(text, i+1)
		default:
			return i, false
		}
	}
}

// fastMessage reads the message at text[i] onto d.msgs and d.spans.
func (d *sampleDecoder) fastMessage(text string, i int) (int, bool) {
	if i >= len(text) || text[i] != '{' {
		return i, false
	}
	var (
		m          Message
		typ        string
		seen       uint8
		span       = [2]int{-1, -1}
		ok, isText bool
	)
	for i++; ; i++ {
		key := fieldOther
		switch i = skipSpace(text, i); {
		case hasAt(text, i, `"type"`):
			key, i = 1, i+len(`"type"`)
		case len(text)-i >= len(keyContent) && text[i:i+len(keyContent)] == keyContent:
			key, i = 2, i+len(keyContent)
		case len(text)-i >= len(keyToolCalls) && text[i:i+len(keyToolCalls)] == keyToolCalls:
			key, i = 3, i+len(keyToolCalls)
		}
		if i, ok = fastColon(text, i, key); !ok {
			return i, false
		}
		bit := uint8(1<<key) >> 1 // key's bit in seen; none for fieldOther
		switch key {
		case 1:
			switch {
			case hasAt(text, i, `"ai"`):
				typ, i = "ai", i+4
			case hasAt(text, i, `"tool"`):
				typ, i = "tool", i+6
			case hasAt(text, i, `"human"`):
				typ, i = "human", i+7
			default:
				typ, i, ok = wordscan.PlainString(text, i)
			}
		case 2:
			m.Content, i, isText = d.fastContent(text, i)
			ok = isText
		case 3:
			if i >= len(text) || text[i] != '[' {
				return i, false
			}
			span[0] = len(d.calls)
			i, ok = d.fastCalls(text, i, depthCalls+1)
			span[1] = len(d.calls)
		default:
			i, ok = d.fastSkip(text, i, depthMessage)
		}
		if !ok || seen&bit != 0 {
			return i, false
		}
		seen |= bit
		if i = skipSpace(text, i); i >= len(text) {
			return i, false
		}
		if text[i] == '}' {
			break
		}
		if text[i] != ',' {
			return i, false
		}
	}
	var isRole bool
	if m.Role, isRole = roleOf(typ); !isRole {
		return i, false
	}
	if seen&2 == 0 || span[0] >= 0 && m.Role != AI {
		return i, false
	}
	d.msgs = append(d.msgs, m)
	d.spans = append(d.spans, span)
	return i + 1, true
}

// fastCalls reads the list of tool calls at text[i] onto d.calls, each
// call's arguments read by d.p at depth.
func (d *sampleDecoder) fastCalls(text string, i, depth int) (int, bool) {
	if i = skipSpace(text, i+1); i < len(text) && text[i] == ']' {
		return i + 1, true
	}
	for {
		var ok bool
		if i, ok = d.fastCall(text, i, depth); !ok {
			return i, false
		}
		if i = skipSpace(text, i); i >= len(text) {
			return i, false
		}
		switch text[i] {
		case ']':
			return i + 1, true
		case ',':
			i = skipSpace(text, i+1)
		default:
			return i, false
		}
	}
}

// fastCall reads the tool call at text[i] onto d.calls.
func (d *sampleDecoder) fastCall(text string, i, depth int) (int, bool) {
	if i >= len(text) || text[i] != '{' {
		return i, false
	}
	var (
		tc   ToolCall
		seen uint8
		ok   bool
	)
	for i++; ; i++ {
		key := fieldOther
		switch i = skipSpace(text, i); {
		case hasAt(text, i, `"name"`):
			key, i = 1, i+len(`"name"`)
		case hasAt(text, i, `"args"`):
			key, i = 2, i+len(`"args"`)
		}
		if i, ok = fastColon(text, i, key); !ok {
			return i, false
		}
		bit := uint8(1<<key) >> 1 // key's bit in seen; none for fieldOther
		switch key {
		case 1:
			tc.Name, i, ok = wordscan.PlainString(text, i)
		case 2:
			if ok = i < len(text) && text[i] == '{'; ok && depth == depthMessages+1 {
				// A reference call's arguments written as some call's
				// before them in the sample are that call's Value.
				if v, n := d.sameArgs(text, i, tc.Name); n > 0 {
					tc.Args, i = v, i+n
					break
				}
			}
			if ok {
				p := &d.p
				p.Seek(i)
				var err error
				tc.Args, err = p.Value(depth)
				if isSyntax(err) {
					d.fastErr = err
				}
				i, ok = p.Offset(), err == nil
			}
		default:
			i, ok = d.fastSkip(text, i, depth)
		}
		if !ok || seen&bit != 0 {
			return i, false
		}
		seen |= bit
		if i = skipSpace(text, i); i >= len(text) {
			return i, false
		}
		if text[i] == '}' {
			break
		}
		if text[i] != ',' {
			return i, false
		}
	}
	if seen != 3 {
		return i, false
	}
	d.calls = append(d.calls, tc)
	return i + 1, true
}

// sameArgs looks among the calls read so far in the sample for arguments
// written exactly as those at text[i], and returns their Value and the
// length of their text, or 0 when none are. A JSON object's text ends
// where its own content says, so text that starts with a whole object's
// text holds that object, read as it was; the reference's calls are at the
// shallowest depth arguments have (depthMessages+1), so every Value found
// was read at least as deep, within the nesting limit, and a text no
// longer than the bound (tryFast) holds fewer values than it. The Values
// share their members, which no one writes.
//
// Most samples of a passing run expect the arguments the agent gave:
// reading them once halves the parse of their arguments, on the
// generated samples about 45% of all arguments (BENCHMARKS.md, CPU12).
func (d *sampleDecoder) sameArgs(text string, i int, name string) (jsonvalue.Value, int) {
	rest := text[i:]
	for k := range d.calls {
		src := d.calls[k].Args.Source()
		if len(src) > 1 && len(src) <= len(rest) && rest[:len(src)] == src && d.calls[k].Args.Kind() == jsonvalue.ObjectKind {
			return d.calls[k].Args, len(src)
		}
	}
	// The others' calls, each compared space for space, from the one
	// after the last shared (references mostly list the calls in their
	// order), and only those of the reference call's name when it came
	// first (it mostly does).
	for n, k := 0, d.nextOther; n < len(d.others); n, k = n+1, k+1 {
		if k >= len(d.others) {
			k = 0
		}
		if name != "" && d.others[k].Name != name {
			continue
		}
		v := d.others[k].Args
		// The others' arguments were read as documents of their own
		// (depth 0): under maxOtherArgs bytes they nest too little to
		// meet the nesting limit from the reference's depth.
		if src := v.Source(); len(src) > 1 && len(src) < maxOtherArgs && v.Kind() == jsonvalue.ObjectKind {
			if n := spacedAs(src, rest); n > 0 {
				d.nextOther = k + 1
				return v, n
			}
		}
	}
	return jsonvalue.Value{}, 0
}

// maxOtherArgs bounds the arguments of another format's calls that
// sameArgs shares: a text under it nests fewer than 950 levels, and
// jsonvalue's limit is 990 from the reference's depth (3).
const maxOtherArgs = 1900

// spacedAs is the length of the JSON text at the start of rest that is src
// written with other space between its tokens, or 0 when there is none.
// Space is passed over only between tokens, where JSON allows it: never
// within a string, a number or a literal ("1 2" is not "12"), nor before
// the text. src is a whole object, read, so what matches it ends with its
// closing brace. It may be written escaped, as a string holds it
// (jsonvalue's StringValue: {\"a\": 1}, every quote escaped and no other
// escape), and is then matched as the text it holds.
//
// It compares a token at a time, each string, number or literal whole:
// byte by byte, with a test of each byte's place in a string and of the
// space allowed after it, it took 1,900 instructions a reference call on
// the OpenAI mix, 17% of all (callgrind).
func spacedAs(src, rest string) int {
	q := strings.IndexByte(src, '"')
	escaped := q > 0 && src[q-1] == '\\'
	i, j := 0, 0
	for {
		for i < len(src) && spaceByte[src[i]] {
			i++
		}
		if i == len(src) {
			return j
		}
		for j > 0 && j < len(rest) && spaceByte[rest[j]] {
			j++
		}
		if j == len(rest) {
			return 0
		}
		c := src[i]
		switch {
		case c == '\\':
			// An escaped string: `\"` opens it and the next backslash,
			// of `\"`, closes it (it holds no other escape).
			if !escaped || i+1 == len(src) || src[i+1] != '"' || rest[j] != '"' {
				return 0
			}
			end, _ := wordscan.StringEnd(src, i+2)
			if end+1 >= len(src) || src[end] != '\\' || src[end+1] != '"' {
				return 0
			}
			k := j + 1 + end - (i + 2) // rest's closing quote
			if k >= len(rest) || rest[k] != '"' || rest[j+1:k] != src[i+2:end] {
				return 0
			}
			i, j = end+2, k+1
		case c == '"':
			// A string, escapes and all, matched as written.
			if escaped {
				return 0
			}
			end := i + 1
			for {
				e, _ := wordscan.StringEnd(src, end)
				if e == len(src) {
					return 0
				}
				if src[e] == '"' {
					end = e + 1
					break
				}
				if end = e + 2; src[e] != '\\' || end > len(src) {
					return 0 // a control character, or the end
				}
			}
			n := end - i
			if n > len(rest)-j || rest[j:j+n] != src[i:end] {
				return 0
			}
			i, j = end, j+n
		case structuralByte[c]:
			if rest[j] != c {
				return 0
			}
			i, j = i+1, j+1
		default:
			// A number or a literal: its bytes up to the next token.
			end := i + 1
			for end < len(src) && !tokenEndByte[src[end]] {
				end++
			}
			n := end - i
			if n > len(rest)-j || rest[j:j+n] != src[i:end] {
				return 0
			}
			i, j = end, j+n
		}
	}
}

// spaceByte marks JSON's space, structuralByte its one-byte tokens, and
// tokenEndByte the bytes that end a number or a literal (spacedAs).
var spaceByte, structuralByte, tokenEndByte = func() (space, structural, end [256]bool) {
	for _, c := range []byte(" \t\n\r") {
		space[c], end[c] = true, true
	}
	for _, c := range []byte("{}[],:") {
		structural[c], end[c] = true, true
	}
	end['"'], end['\\'] = true, true
	for c := 0; c < ' '; c++ {
		end[c] = true
	}
	return
}()

// fastText reads the string at text[i]: a plain one here, one with
// escapes by d.p (readString).
func (d *sampleDecoder) fastText(text string, i int) (string, int, bool) {
	if s, next, ok := plainText(text, i); ok {
		return s, next, true
	}
	return d.readString(text, i)
}

// readString reads the string at text[i] with d.p.
func (d *sampleDecoder) readString(text string, i int) (string, int, bool) {
	if i >= len(text) || text[i] != '"' {
		return "", i, false
	}
	p := &d.p
	p.Seek(i)
	s, err := p.ReadString()
	return s, p.Offset(), err == nil
}

// fastContent reads a message's text at text[i] as fastText does or, when
// d keeps text as it is written (rawText), a string with escapes as it is
// written once wordscan.EscapedStringEnd has checked them: the escaped
// JSON of a tool's result was half the instructions of such samples, read
// and written out for scores that never look at it (BENCHMARKS.md, CPU7).
// A string it does not take is read by readString, for its text or error.
func (d *sampleDecoder) fastContent(text string, i int) (string, int, bool) {
	if i >= len(text) || text[i] != '"' {
		return "", i, false
	}
	end, high := wordscan.TextEnd(text, i+1)
	if s, next, ok := wordscan.Plain(text, i, end, high); ok {
		return s, next, true
	}
	if d.rawText && end < len(text) && text[end] == '\\' && (!high || utf8.ValidString(text[i+1:end])) {
		if end, ok := wordscan.EscapedStringEnd(text, end); ok {
			return text[i+1 : end], end + 1, true
		}
	}
	return d.readString(text, i)
}

// fastSkip reads the value at text[i], of a field the sample does not
// keep, with d.p.
func (d *sampleDecoder) fastSkip(text string, i, depth int) (int, bool) {
	p := &d.p
	p.Seek(i)
	_, err := p.Value(depth)
	if isSyntax(err) {
		d.fastErr = err
	}
	return p.Offset(), err == nil
}

// fieldOther is the key of a field fast does not keep; the keys it keeps
// are numbered from 1 in each kind of object, and key k is bit k-1 of the
// set of keys seen.
const fieldOther = 0

// fastColon reads, at text[i], the rest of an object's key and the ':'
// after it, and returns the offset of the value. key is which key the
// caller found at the start of the key; a key it did not know
// (fieldOther) is read here, a plain string.
func fastColon(text string, i, key int) (int, bool) {
	if key == fieldOther {
		var ok bool
		if _, i, ok = wordscan.PlainString(text, i); !ok {
			return i, false
		}
	}
	// ": " before a value, as JSON is mostly written, in one test: the
	// two bytes read as one word (the compiler's one load).
	if i+2 < len(text) && uint16(text[i])|uint16(text[i+1])<<8 == ':'|' '<<8 && text[i+2] > ' ' {
		return i + 2, true
	}
	if i = skipSpace(text, i); i >= len(text) || text[i] != ':' {
		return i, false
	}
	return skipSpace(text, i+1), true
}

// hasAt reports whether text holds s at offset i. Inlined, an s of at most
// eight bytes is a load and a compare; a longer one is a call to
// runtime.memequal, which the keys met in every message and call avoid
// (below), and the two met once a sample at most (reference_tool_calls,
// reference_topics) can afford.
func hasAt(text string, i int, s string) bool {
	return len(text)-i >= len(s) && text[i:i+len(s)] == s
}

// Keys of nine to sixteen bytes, which fast and fastMessage compare
// written out, as constants: through hasAt each would be a call to
// runtime.memequal (the compiler compares a constant of up to sixteen
// bytes in two loads, but hasAt's s is not one once inlined).
const (
	keyUserInput = `"user_input"`
	keyReference = `"reference"`
	keyContent   = `"content"`
	keyToolCalls = `"tool_calls"`
)

// plainText reads a string that may be long (a message's text) as
// wordscan.PlainString reads one, with wordscan.TextEnd.
func plainText(text string, i int) (string, int, bool) {
	if i >= len(text) || text[i] != '"' {
		return "", i, false
	}
	end, high := wordscan.TextEnd(text, i+1)
	return wordscan.Plain(text, i, end, high)
}

// skipSpace is the offset of the first byte at or after i that is not
// JSON's space. Most tokens follow one space or none: a byte above ' ' is
// one test.
func skipSpace(text string, i int) int {
	for i < len(text) && text[i] <= ' ' {
		if c := text[i]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			break
		}
		i++
	}
	return i
}
