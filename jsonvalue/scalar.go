package jsonvalue

import (
	"encoding/binary"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentcheck/agentcheck/internal/pytext"
	"github.com/agentcheck/agentcheck/internal/wordscan"
)

// The parser's scalars: numbers, kept in their literal form beside their
// value, and strings, substrings of the input unless they hold escapes.

func (p *parser) number() (Value, error) {
	start := p.pos
	if p.src[p.pos] == '-' {
		p.pos++
		if strings.HasPrefix(p.src[p.pos:], "Infinity") {
			p.pos += 8
			return Float(-inf), nil
		}
	}
	// The digits are read into mant as they are scanned, for the common
	// number that needs no strconv (see below). The scan keeps the text
	// and its position in locals, p.pos written back where the scan ends
	// (and before an error, which reads it): through p, every digit was a
	// load and a store.
	var mant uint64
	nd := 0 // digits in mant
	src, i := p.src, p.pos
	digits := func() int {
		n := i
		for i < len(src) && src[i] >= '0' && src[i] <= '9' {
			if nd < 19 {
				mant = mant*10 + uint64(src[i]-'0')
				nd++
			}
			i++
		}
		return i - n
	}
	intStart := i
	intDigits := digits()
	if intDigits == 0 {
		p.pos = i
		return Value{}, p.errorf("unexpected %s in number, want a digit", p.describe())
	} else if intDigits > 1 && src[intStart] == '0' {
		p.pos = i
		return Value{}, p.errorAt(intStart, "number with a leading zero")
	}
	isFloat, exact := false, true
	fracDigits := 0
	if i < len(src) && src[i] == '.' {
		i++
		isFloat = true
		if fracDigits = digits(); fracDigits == 0 {
			p.pos = i
			return Value{}, p.errorf("unexpected %s after decimal point, want a digit", p.describe())
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		i++
		isFloat, exact = true, false
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		if digits() == 0 {
			p.pos = i
			return Value{}, p.errorf("unexpected %s in exponent, want a digit", p.describe())
		}
	}
	p.pos = i
	lit := p.src[start:p.pos]
	neg := lit[0] == '-'
	if isFloat {
		// A decimal of at most 15 digits without an exponent is m/10^k
		// with m and 10^k exact in a float64: one division, correctly
		// rounded, is what ParseFloat gives (its own fast path), without
		// reading the text again.
		if exact && intDigits+fracDigits <= 15 && fracDigits < len(pow10) {
			f := float64(mant) / pow10[fracDigits]
			if neg {
				f = -f
			}
			return Float(f), nil
		}
		// Out-of-range literals become ±Inf or 0 as in Python; ignore ErrRange.
		f, _ := strconv.ParseFloat(lit, 64)
		return Float(f), nil
	}
	if len(lit) > maxIntDigits {
		return Value{}, p.errorAt(start, "integer literal of %d digits exceeds Python's limit of %d", len(lit), maxIntDigits)
	}
	if lit == "-0" {
		lit = "0"
	}
	if intDigits <= 15 {
		// Exact in a float64, so no need for ParseFloat's rounding (an
		// integer, so -0 is 0).
		n := int64(mant)
		if neg {
			n = -n
		}
		f := float64(n)
		return Value{kind: IntKind, s: lit, f: f}, nil
	}
	f, _ := strconv.ParseFloat(lit, 64)
	return Value{kind: IntKind, s: lit, f: f}, nil
}

// pow10 are the powers of ten exact in a float64.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// str reads a JSON string. Escaped lone surrogates, which Python keeps in its
// str, are kept as WTF-8 so that repr() and the similarity functions see the
// same code points Python does.
func (p *parser) str() (string, error) {
	// The common string, without escapes, is a substring of the input,
	// found eight bytes at a time (wordscan.StringEnd). Most strings are
	// short (7 bytes on average in the generated samples), so what counts
	// is the cost a string: about half that of one table lookup a byte
	// (callgrind). Escapes and errors are left to strScan.
	start := p.pos
	end, high := wordscan.StringEnd(p.src, start+1)
	if end == len(p.src) || p.src[end] != '"' {
		return p.strScan()
	}
	s := p.src[start+1 : end]
	if high && !utf8.ValidString(s) {
		return "", p.errorAt(start, "string is not valid UTF-8")
	}
	p.pos = end + 1
	return s, nil
}

// strScan is str byte by byte, for strings with escapes and for errors.
func (p *parser) strScan() (string, error) {
	start := p.pos
	p.pos++ // opening quote
	i := p.pos
	for i < len(p.src) {
		c := p.src[i]
		if c == '"' {
			s := p.src[p.pos:i]
			if !utf8.ValidString(s) {
				return "", p.errorAt(start, "string is not valid UTF-8")
			}
			p.pos = i + 1
			return s, nil
		}
		if c == '\\' {
			return p.strSlow(start)
		}
		if c < 0x20 {
			return "", p.errorAt(i, "invalid control character %q in string", c)
		}
		i++
	}
	return "", p.errorAt(start, "unterminated string")
}

// strSlow reads a string with escapes: a Decoder's into its arena, where
// the string stays without a copy, and Parse's into the parser's scratch
// memory, reused, from which the string is made once.
func (p *parser) strSlow(start int) (string, error) {
	if p.own {
		b, err := p.unescape(start, p.strs.Room(0))
		if err != nil {
			return "", err
		}
		return p.strs.Keep(b), nil
	}
	b, err := p.unescape(start, p.scratch[:0])
	p.scratch = b[:0]
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// unescape is strSlow's reading, into b, which it returns grown. The
// plain text between escapes is copied eight bytes at a time: each word
// is written to b whole and b cut back to the bytes before the first
// quote, backslash or control character in it. The escaped JSON of a
// tool's result has a plain run of about seven bytes between escapes; a
// byte at a time, into memory grown as it went, such text took a sixth of
// a run's CPU, and found by wordscan.StringEnd and appended, a third of
// the instructions of a sample (BENCHMARKS.md, CPU7).
func (p *parser) unescape(start int, b []byte) ([]byte, error) {
	src := p.src
	var high uint64 // the plain bytes' high bits: b must be checked for UTF-8
	i := start + 1
	for {
		for i+8 <= len(src) {
			w := wordscan.Load(src, i)
			m := wordscan.Equal(w, '"') | wordscan.Equal(w, '\\') | wordscan.Below(w, 0x20)
			if cap(b)-len(b) < 8 {
				b = slices.Grow(b, 64)
			}
			n := len(b)
			b = binary.LittleEndian.AppendUint64(b, w)
			if m == 0 {
				high |= w
				i += 8
				continue
			}
			k := wordscan.First(m)
			b = b[:n+k]
			high |= w & wordscan.Before(m)
			i += k
			break
		}
		for i < len(src) {
			if c := src[i]; c == '"' || c == '\\' || c < 0x20 {
				break
			}
			b = append(b, src[i])
			high |= uint64(src[i])
			i++
			if i+8 <= len(src) {
				break // eight bytes at a time again
			}
		}
		if i >= len(src) {
			break
		}
		c := src[i]
		if c != '"' && c != '\\' && c >= 0x20 {
			continue // a plain byte left for the word loop
		}
		switch {
		case c == '"':
			p.pos = i + 1
			if wordscan.High(high) != 0 && !utf8.Valid(b) && !pytext.ValidWTF8(b) {
				return b, p.errorAt(start, "string is not valid UTF-8")
			}
			return b, nil
		case c < 0x20:
			return b, p.errorAt(i, "invalid control character %q in string", c)
		}
		if i+1 >= len(src) {
			break
		}
		esc := src[i+1]
		i += 2
		switch esc {
		case '"', '\\', '/':
			b = append(b, esc)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := hex4(src, i)
			if !ok {
				return b, p.errorAt(i-2, "invalid \\u escape")
			}
			i += 4
			if r >= 0xD800 && r < 0xDC00 && i+6 <= len(src) && src[i] == '\\' && src[i+1] == 'u' {
				if lo, ok := hex4(src, i+2); ok && lo >= 0xDC00 && lo < 0xE000 {
					r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
					i += 6
				}
			}
			b = pytext.AppendWTF8(b, r)
			if r >= utf8.RuneSelf {
				high |= 0x80
			}
		default:
			return b, p.errorAt(i-2, "invalid escape \\%c", esc)
		}
	}
	return b, p.errorAt(start, "unterminated string")
}

func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[i : i+4]) {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}
