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
// It takes the shape arguments mostly have: an object of scalars whose
// strings hold no escapes, so that the only escapes in the string are the
// quotes around its keys and strings. ok is false, and nothing read, for
// anything else (an escape in a key or a string, an object or array within,
// NaN or Infinity, a key given twice, more than maxEscapedMembers members,
// space before or after the object, malformed JSON): read the string then
// with ReadString, and its text as a document of its own.
//
// Unescaped into memory of its own and parsed from there, each call's
// arguments were written twice, the second time into memory the cache did
// not hold: a fifth of the CPU of reading OpenAI messages (BENCHMARKS.md,
// CPU16).
func (d *Decoder) StringValue() (v Value, ok bool) {
	if d.Peek() != '"' {
		return Value{}, false
	}
	return d.p.escapedObject()
}

// maxEscapedMembers is the most members escapedObject reads; it gathers
// them in an array on the stack before they go to the arena.
const maxEscapedMembers = 16

// escapedObject is StringValue's reading of the string at p.pos, as
// flatObject reads an object of scalars, with `\"` for '"'.
func (p *parser) escapedObject() (Value, bool) {
	src := p.src
	i := p.pos + 1 // after the string's opening quote
	if i >= len(src) || src[i] != '{' {
		return Value{}, false
	}
	start := i
	pos, values := p.pos, p.values
	var members [maxEscapedMembers]Member
	n := 0
	fail := func() (Value, bool) {
		p.pos, p.values = pos, values
		return Value{}, false
	}
	i = spacesEnd(src, i+1)
	if i < len(src) && src[i] == '}' {
		i++
	} else {
		for {
			// The key, between escaped quotes.
			key, next, ok := escapedString(src, i)
			if !ok {
				return fail()
			}
			if i = spacesEnd(src, next); i >= len(src) || src[i] != ':' {
				return fail()
			}
			if i = spacesEnd(src, i+1); i >= len(src) {
				return fail()
			}
			// The value, a scalar, counted as flatObject counts it.
			if p.values++; p.values > p.maxValues && p.maxValues > 0 {
				return fail()
			}
			var v Value
			switch c := src[i]; {
			case c == '\\':
				s, next, ok := escapedString(src, i)
				if !ok {
					return fail()
				}
				v, i = Value{kind: StringKind, s: s}, next
			case c >= '0' && c <= '9' || c == '-':
				p.pos = i
				var err error
				if v, err = p.number(); err != nil {
					return fail()
				}
				i = p.pos
			case c == 't' || c == 'f' || c == 'n':
				var ok bool
				if v, i, ok = literalAt(src, i); !ok {
					return fail()
				}
			default: // an object or array within, NaN, Infinity, or malformed
				return fail()
			}
			for j := range n {
				if members[j].Key == key {
					return fail() // a key given twice: Parse keeps the first place and the last value
				}
			}
			if n == len(members) {
				return fail()
			}
			members[n] = Member{key, v}
			n++
			if i = spacesEnd(src, i); i >= len(src) {
				return fail()
			}
			if src[i] == '}' {
				i++
				break
			}
			if src[i] != ',' {
				return fail()
			}
			i = spacesEnd(src, i+1)
		}
	}
	// The string ends with the object.
	if i >= len(src) || src[i] != '"' {
		return fail()
	}
	v := Value{kind: ObjectKind, s: src[start:i], elems: []Member{}}
	if n > 0 {
		v.elems = p.keep(members[:n])
	}
	p.pos = i + 1
	return v, true
}

// keep is members moved into the arena, as finish moves a container's
// members from the stack.
func (p *parser) keep(members []Member) []Member {
	if cap(p.arena)-len(p.arena) >= len(members) {
		at := len(p.arena)
		p.arena = append(p.arena, members...)
		return p.arena[at:len(p.arena):len(p.arena)]
	}
	mark := len(p.stack)
	for _, m := range members {
		p.push(m)
	}
	return p.finish(mark)
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
