package jsonvalue

import (
	"unicode/utf8"

	"github.com/agentcheck/agentcheck/internal/wordscan"
)

// StringValue reads the next value, a string whose text is a JSON object
// (a tool call's arguments, as OpenAI's API writes them), as that object,
// without unescaping the string first: the object's keys and strings are
// the document's own text, and its Source is the object's text as the
// string writes it, escaped ({\"a\": 1}). Two Sources are the same text
// only when their objects are the same, escaped or not.
//
// It takes the shape arguments mostly have: an object whose strings hold
// no escapes, so that the only escapes in the string are the quotes around
// its keys and strings. ok is false, and nothing read, for anything else
// (an escape in a key or a string, NaN or Infinity, a key given twice, an
// object of more than maxEscapedMembers members, nesting deeper than
// maxEscapedDepth, space before or after the object, malformed JSON): read
// the string then with ReadString, and its text as a document of its own.
//
// Unescaped into memory of its own and parsed from there, each call's
// arguments were written twice, the second time into memory the cache did
// not hold: a fifth of the CPU of reading OpenAI messages (BENCHMARKS.md,
// CPU16).
func (d *Decoder) StringValue() (v Value, ok bool) {
	if d.Peek() != '"' {
		return Value{}, false
	}
	if v, ok := d.p.escapedFlat(); ok {
		return v, true
	}
	return d.p.escapedObject()
}

// escapedFlat is escapedObject's reading of the shape most arguments have,
// an object of scalars, with the offset in a register and the members
// written straight into the arena's chunk, as flatObject reads one; ok is
// false, and nothing read, for anything else, which escapedObject reads
// (an object or array within) or refuses.
//
// Through escapedValue, each member went onto the stack and was copied
// into the arena after: on the OpenAI mix, its push and finish were a
// tenth of the arguments' reading (callgrind).
func (p *parser) escapedFlat() (Value, bool) {
	src, arena := p.src, p.arena
	pos, values := p.pos, p.values
	start, n := len(arena), 0
	i := pos + 1 // the object's '{', after the string's opening quote
	var key string
	var v Value
	var ok bool
	if i >= len(src) || src[i] != '{' {
		goto fail
	}
	if p.values++; p.values > p.maxValues && p.maxValues > 0 {
		goto fail
	}
	if i = spacesEnd(src, i+1); i < len(src) && src[i] == '}' {
		i++
		goto end
	}
	for {
		if key, i, ok = escapedString(src, i); !ok {
			goto fail
		}
		if i = spacesEnd(src, i); i >= len(src) || src[i] != ':' {
			goto fail
		}
		if i = spacesEnd(src, i+1); i >= len(src) {
			goto fail
		}
		if p.values++; p.values > p.maxValues && p.maxValues > 0 {
			goto fail
		}
		switch c := src[i]; {
		case c == '\\':
			var s string
			if s, i, ok = escapedString(src, i); !ok {
				goto fail
			}
			v = Value{kind: StringKind, s: s}
		case c >= '0' && c <= '9' || c == '-' || c == 't' || c == 'f' || c == 'n':
			if v, i, ok = p.scalarAt(i); !ok {
				goto fail
			}
		default:
			goto fail // an object or array within, NaN, Infinity, or malformed
		}
		if n == maxEscapedMembers {
			goto fail
		}
		if start+n == cap(arena) {
			// The members read so far move to a new chunk, with room
			// for as many as escapedObject reads.
			chunk := p.newChunk(maxEscapedMembers)[:n]
			copy(chunk, arena[start:start+n])
			clear(arena[start : start+n]) // no references left behind
			arena, start = chunk, 0
		}
		for j := range arena[start : start+n] {
			if arena[start+j].Key == key {
				goto fail // a key given twice, which escapedObject refuses too
			}
		}
		arena = arena[:start+n+1]
		arena[start+n] = Member{key, v}
		n++
		if i = spacesEnd(src, i); i >= len(src) {
			goto fail
		}
		if src[i] == '}' {
			i++
			break
		}
		if src[i] != ',' {
			goto fail
		}
		i = spacesEnd(src, i+1)
	}
end:
	if i >= len(src) || src[i] != '"' {
		goto fail // the string holds more than the object
	}
	p.arena, p.pos = arena, i+1
	if n == 0 {
		return Value{kind: ObjectKind, s: src[pos+1 : i], elems: []Member{}}, true
	}
	return Value{kind: ObjectKind, s: src[pos+1 : i], elems: arena[start : start+n : start+n]}, true
fail:
	clear(arena[start : start+n])
	p.arena, p.pos, p.values = arena[:start], pos, values
	return Value{}, false
}

// maxEscapedMembers is the most members of an object escapedValue reads
// (it looks for a key given twice among them, each against each), and
// maxEscapedDepth the deepest it nests: deeper is the general reading's.
const (
	maxEscapedMembers = 32
	maxEscapedDepth   = 32
)

// escapedObject is StringValue's reading of the string at p.pos: an
// object, as escapedValue reads it, that ends the string.
func (p *parser) escapedObject() (Value, bool) {
	pos, values, mark := p.pos, p.values, len(p.stack)
	v, i, ok := p.escapedValue(p.pos+1, 1)
	if !ok || v.kind != ObjectKind || i >= len(p.src) || p.src[i] != '"' {
		// What the members read so far left on the stack goes; what
		// they moved into the arena stays there unused, as an error
		// leaves it.
		clear(p.stack[mark:])
		p.stack = p.stack[:mark]
		p.pos, p.values = pos, values
		return Value{}, false
	}
	p.pos = i + 1
	return v, true
}

// escapedValue reads the value at src[i], in the text of a string, as
// value reads it with `\"` for '"', and returns the offset after it:
// objects and arrays as object and array read them (their members pushed,
// then moved into the arena by finish), strings without escapes, numbers,
// true, false and null. ok is false for anything else.
func (p *parser) escapedValue(i, depth int) (v Value, next int, ok bool) {
	src := p.src
	if i >= len(src) {
		return Value{}, i, false
	}
	if p.values++; p.values > p.maxValues && p.maxValues > 0 {
		return Value{}, i, false
	}
	switch c := src[i]; {
	case c == '{' || c == '[':
		if depth > maxEscapedDepth {
			return Value{}, i, false
		}
		kind, end := ObjectKind, byte('}')
		if c == '[' {
			kind, end = ArrayKind, ']'
		}
		start, mark := i, len(p.stack)
		if i = spacesEnd(src, i+1); i < len(src) && src[i] == end {
			return Value{kind: kind, s: src[start : i+1], elems: []Member{}}, i + 1, true
		}
		for {
			var key string
			if kind == ObjectKind {
				if key, i, ok = escapedString(src, i); !ok {
					return Value{}, i, false
				}
				if i = spacesEnd(src, i); i >= len(src) || src[i] != ':' {
					return Value{}, i, false
				}
				i = spacesEnd(src, i+1)
			}
			var m Value
			if m, i, ok = p.escapedValue(i, depth+1); !ok {
				return Value{}, i, false
			}
			if kind == ObjectKind {
				members := p.stack[mark:]
				if len(members) == maxEscapedMembers {
					return Value{}, i, false
				}
				for j := range members {
					if members[j].Key == key {
						return Value{}, i, false // a key given twice: Parse keeps the first place and the last value
					}
				}
			}
			p.push(Member{key, m})
			if i = spacesEnd(src, i); i >= len(src) {
				return Value{}, i, false
			}
			if src[i] == end {
				i++
				break
			}
			if src[i] != ',' {
				return Value{}, i, false
			}
			i = spacesEnd(src, i+1)
		}
		return Value{kind: kind, s: src[start:i], elems: p.finish(mark)}, i, true
	case c == '\\':
		s, next, ok := escapedString(src, i)
		return Value{kind: StringKind, s: s}, next, ok
	case c >= '0' && c <= '9' || c == '-' || c == 't' || c == 'f' || c == 'n':
		return p.scalarAt(i)
	}
	return Value{}, i, false // NaN, Infinity, or malformed
}

// escapedString reads the string that starts at src[i] with `\"` and ends
// at the next `\"`, holding no other escape, no control character and
// valid UTF-8; it returns its text and the offset after it.
func escapedString(src string, i int) (string, int, bool) {
	if i+1 >= len(src) || src[i] != '\\' || src[i+1] != '"' {
		return "", i, false
	}
	end, high := wordscan.StringEnd(src, i+2)
	if end+1 >= len(src) || src[end] != '\\' || src[end+1] != '"' {
		return "", i, false
	}
	s := src[i+2 : end]
	if high && !utf8.ValidString(s) {
		return "", i, false
	}
	return s, end + 2, true
}

// spacesEnd is the offset of the first byte at or after i that is not a
// blank: the only space the text of a string holds unescaped.
func spacesEnd(src string, i int) int {
	for i < len(src) && src[i] == ' ' {
		i++
	}
	return i
}
