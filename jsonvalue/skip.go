package jsonvalue

import (
	"unicode/utf8"

	"github.com/agentcheck/agentcheck/internal/pytext"
	"github.com/agentcheck/agentcheck/internal/wordscan"
)

// Skip reads the next value as Value does, with the same errors (a
// malformed value, nesting past the limit), but builds nothing of it and
// counts none of its values against Limit, and returns its kind: for a
// reader that looks for one member of a document (a record's "id") past
// others of any size, in memory that grows with the nesting only (an
// object's key with escapes excepted, read as NextKey reads it). depth
// is Value's. After a value read, Offset is where Value leaves it; after
// an error it may be a byte short of Value's (a string's opening quote).
func (d *Decoder) Skip(depth int) (Kind, error) {
	d.Peek()
	p := &d.p
	values, maxValues := p.values, p.maxValues
	p.maxValues = 0
	defer func() { p.values, p.maxValues = values, maxValues }()
	return p.skip(depth)
}

// skip is value without the Value: a container's members are read with
// nextKey and nextElem and skipped in turn, a string checked where it is
// (skipStr), any other scalar read by value, which holds nothing. Skip
// turns the bound off around it and puts back the count, which value adds
// to.
func (p *parser) skip(depth int) (Kind, error) {
	if p.pos >= len(p.src) {
		return NullKind, p.errorf("unexpected end of input, want a value")
	}
	switch p.src[p.pos] {
	case '{':
		if depth+1 > maxDepth {
			return NullKind, p.errorf("nesting deeper than %d levels", maxDepth)
		}
		for _, more, err := p.nextKey(true); more || err != nil; _, more, err = p.nextKey(false) {
			if err != nil {
				return NullKind, err
			}
			if _, err := p.skip(depth + 1); err != nil {
				return NullKind, err
			}
		}
		return ObjectKind, nil
	case '[':
		if depth+1 > maxDepth {
			return NullKind, p.errorf("nesting deeper than %d levels", maxDepth)
		}
		for more, err := p.nextElem(true); more || err != nil; more, err = p.nextElem(false) {
			if err != nil {
				return NullKind, err
			}
			if _, err := p.skip(depth + 1); err != nil {
				return NullKind, err
			}
		}
		return ArrayKind, nil
	case '"':
		return StringKind, p.skipStr()
	}
	v, err := p.value(depth)
	return v.Kind(), err
}

// skipStr reads the string at p.pos as str does, with its errors at the
// same offsets, without unescaping it: each escape is checked in turn,
// and the plain runs between them for UTF-8 (a string without escapes)
// or for WTF-8 (one with escapes, whose text unescape checks whole: an
// escape's own bytes are whole code points, so that the text is WTF-8
// when every run is).
func (p *parser) skipStr() error {
	src, start := p.src, p.pos
	escaped, utf, wtf := false, true, true
	for i := start + 1; ; {
		end, high := wordscan.StringEnd(src, i)
		if high {
			run := src[i:end]
			utf = utf && utf8.ValidString(run)
			wtf = wtf && validWTF8(run)
		}
		if end >= len(src) {
			return p.errorAt(start, "unterminated string")
		}
		switch c := src[end]; {
		case c == '"':
			if escaped && !wtf || !escaped && !utf {
				return p.errorAt(start, "string is not valid UTF-8")
			}
			p.pos = end + 1
			return nil
		case c < 0x20:
			return p.errorAt(end, "invalid control character %q in string", c)
		}
		// A backslash.
		escaped = true
		if end+1 >= len(src) {
			return p.errorAt(start, "unterminated string")
		}
		i = end + 2
		switch esc := src[end+1]; esc {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		case 'u':
			if _, ok := hex4(src, i); !ok {
				return p.errorAt(end, "invalid \\u escape")
			}
			i += 4
		default:
			return p.errorAt(end, "invalid escape \\%c", esc)
		}
	}
}

// validWTF8 is pytext.ValidWTF8 of a string, which it does not copy.
func validWTF8(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := pytext.DecodeWTF8(s[i:])
		if r == utf8.RuneError && n <= 1 {
			return false
		}
		i += n
	}
	return true
}
