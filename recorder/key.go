package recorder

import (
	"bytes"
	"net/url"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// exactKey is a request as it is stored: method, URL and body, unchanged,
// but for the URL's scheme and host, which requestKey ignores too, so that
// a cassette recorded against one server finds its requests byte for byte
// when replayed with another base URL. requestKey depends only on what
// exactKey keeps: method, escaped path, raw query and body (or the whole
// URL when it does not parse).
func exactKey(b []byte, method, storedURL string, body []byte) []byte {
	b = append(b, method...)
	b = append(b, ' ')
	if u, err := url.Parse(storedURL); err == nil {
		b = append(b, 'P')
		b = append(b, u.EscapedPath()...)
		b = append(b, '?')
		b = append(b, u.RawQuery...)
	} else {
		b = append(b, 'R')
		b = append(b, storedURL...)
	}
	b = append(b, '\n')
	return append(b, body...)
}

// requestKey is what a request matches by: method, path, sorted query and
// canonical body. Its first line is the route, "METHOD path".
func requestKey(method, rawURL string, body []byte) string {
	path, query := rawURL, ""
	if u, err := url.Parse(rawURL); err == nil {
		path = u.EscapedPath()
		if u.RawQuery != "" {
			if q, err := url.ParseQuery(u.RawQuery); err == nil {
				query = q.Encode()
			} else {
				query = u.RawQuery
			}
		}
	}
	b := make([]byte, 0, len(method)+len(path)+len(query)+len(body)+3)
	b = append(b, method...)
	b = append(b, ' ')
	b = append(b, path...)
	b = append(b, '\n')
	if query != "" {
		b = append(b, '?')
		b = append(b, query...)
	}
	b = append(b, '\n')
	if canon, ok := appendCanonicalJSON(b, body); ok {
		return string(canon)
	}
	return string(append(b, body...))
}

// appendCanonicalJSON appends b's canonical form: no insignificant
// whitespace, object members ordered by their key, strings written as
// encoding/json writes the string they decode to (so "\u00e9" and "é"
// match), numbers as their literal text. ok is false when b is not one JSON
// value. It is a hand scanner because matching runs on every replayed
// request.
func appendCanonicalJSON(dst, b []byte) (out []byte, ok bool) {
	p := canonScanner{b: b}
	p.skipSpace()
	if p.i == len(b) {
		return dst, false
	}
	dst, ok = p.value(dst, 0)
	p.skipSpace()
	return dst, ok && p.i == len(b)
}

type canonScanner struct {
	b []byte
	i int
	// members is a stack shared by nested objects, to spare an allocation
	// per object.
	members []canonMember
}

func (p *canonScanner) skipSpace() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *canonScanner) value(dst []byte, depth int) ([]byte, bool) {
	if p.i >= len(p.b) || depth > 1000 {
		return dst, false
	}
	switch c := p.b[p.i]; {
	case c == '{':
		return p.object(dst, depth)
	case c == '[':
		p.i++
		dst = append(dst, '[')
		p.skipSpace()
		if p.i < len(p.b) && p.b[p.i] == ']' {
			p.i++
			return append(dst, ']'), true
		}
		for {
			var ok bool
			p.skipSpace()
			if dst, ok = p.value(dst, depth+1); !ok {
				return dst, false
			}
			p.skipSpace()
			if p.i >= len(p.b) {
				return dst, false
			}
			switch p.b[p.i] {
			case ',':
				p.i++
				dst = append(dst, ',')
			case ']':
				p.i++
				return append(dst, ']'), true
			default:
				return dst, false
			}
		}
	case c == '"':
		s, ok := p.str()
		if !ok {
			return dst, false
		}
		return appendCanonicalString(dst, s)
	case c == '-' || c >= '0' && c <= '9':
		start := p.i
		for p.i < len(p.b) && strings.IndexByte("+-.eE0123456789", p.b[p.i]) >= 0 {
			p.i++
		}
		return append(dst, p.b[start:p.i]...), true
	default:
		for _, lit := range [...]string{"true", "false", "null"} {
			if bytes.HasPrefix(p.b[p.i:], []byte(lit)) {
				p.i += len(lit)
				return append(dst, lit...), true
			}
		}
		return dst, false
	}
}

// str returns the string literal at p.i, quotes included.
func (p *canonScanner) str() ([]byte, bool) {
	start := p.i
	p.i++
	for {
		j := bytes.IndexByte(p.b[p.i:], '"')
		if j < 0 {
			return nil, false
		}
		p.i += j + 1
		// The quote ends the string unless an odd run of backslashes
		// escapes it.
		bs := 0
		for k := p.i - 2; k > start && p.b[k] == '\\'; k-- {
			bs++
		}
		if bs%2 == 0 {
			return p.b[start:p.i], true
		}
	}
}

// appendCanonicalString appends the string literal lit (quotes included)
// as encoding/json writes the string it decodes to: escapes in one form,
// invalid UTF-8 and lone surrogates as U+FFFD. ok is false for a literal
// JSON does not allow (a bad escape, a raw control character).
func appendCanonicalString(dst, lit []byte) ([]byte, bool) {
	body := lit[1 : len(lit)-1]
	plain := true
	for _, c := range body {
		if c < 0x20 || c >= utf8.RuneSelf || c == '\\' || c == '<' || c == '>' || c == '&' {
			plain = false
			break
		}
	}
	if plain {
		return append(dst, lit...), true
	}
	dst = append(dst, '"')
	for i := 0; i < len(body); {
		r, n := rune(body[i]), 1
		switch {
		case r == '\\':
			if i+1 >= len(body) {
				return dst, false
			}
			n = 2
			switch body[i+1] {
			case '"', '\\', '/':
				r = rune(body[i+1])
			case 'b':
				r = '\b'
			case 'f':
				r = '\f'
			case 'n':
				r = '\n'
			case 'r':
				r = '\r'
			case 't':
				r = '\t'
			case 'u':
				var ok bool
				if r, ok = hexRune(body[i+2:]); !ok {
					return dst, false
				}
				n = 6
				if utf16.IsSurrogate(r) {
					lo := rune(-1)
					if rest := body[i+6:]; len(rest) >= 2 && rest[0] == '\\' && rest[1] == 'u' {
						lo, _ = hexRune(rest[2:])
					}
					if r = utf16.DecodeRune(r, lo); r != utf8.RuneError {
						n = 12
					}
				}
			default:
				return dst, false
			}
		case r < 0x20:
			return dst, false
		case r >= utf8.RuneSelf:
			r, n = utf8.DecodeRune(body[i:])
		}
		i += n
		switch r {
		case '"', '\\':
			dst = append(dst, '\\', byte(r))
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '<', '>', '&', '\u2028', '\u2029':
			dst = appendUEscape(dst, r)
		default:
			if r < 0x20 {
				dst = appendUEscape(dst, r)
			} else {
				dst = utf8.AppendRune(dst, r)
			}
		}
	}
	return append(dst, '"'), true
}

func appendUEscape(dst []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(dst, '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
}

// hexRune reads the 4 hex digits of a \u escape.
func hexRune(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

type canonMember struct {
	start, keyEnd, end int // the member's canonical text in dst, and its key's
}

func (p *canonScanner) object(dst []byte, depth int) ([]byte, bool) {
	p.i++
	base := len(dst)
	dst = append(dst, '{')
	p.skipSpace()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return append(dst, '}'), true
	}
	first := len(p.members)
	defer func() { p.members = p.members[:first] }()
	for {
		p.skipSpace()
		if p.i >= len(p.b) || p.b[p.i] != '"' {
			return dst, false
		}
		key, ok := p.str()
		if !ok {
			return dst, false
		}
		p.skipSpace()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return dst, false
		}
		p.i++
		p.skipSpace()
		start := len(dst)
		if dst, ok = appendCanonicalString(dst, key); !ok {
			return dst, false
		}
		keyEnd := len(dst)
		dst = append(dst, ':')
		if dst, ok = p.value(dst, depth+1); !ok {
			return dst, false
		}
		p.members = append(p.members, canonMember{start: start, keyEnd: keyEnd, end: len(dst)})
		p.skipSpace()
		if p.i >= len(p.b) {
			return dst, false
		}
		if p.b[p.i] == '}' {
			p.i++
			break
		}
		if p.b[p.i] != ',' {
			return dst, false
		}
		p.i++
		dst = append(dst, ',')
	}
	members := p.members[first:]
	byKey := func(a, b canonMember) int { return bytes.Compare(dst[a.start:a.keyEnd], dst[b.start:b.keyEnd]) }
	if !slices.IsSortedFunc(members, byKey) {
		slices.SortStableFunc(members, byKey)
		text := slices.Clone(dst[base:])
		dst = append(dst[:base], '{')
		for i, m := range members {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, text[m.start-base:m.end-base]...)
		}
	}
	return append(dst, '}'), true
}
