// Package wordscan reads text eight bytes at a time, for the scanners that
// look for a few kinds of byte in mostly plain text (a JSON string's end,
// what a JSON writer must escape): a word of eight bytes is tested in a
// few instructions where a byte at a time takes a few instructions a byte.
//
// The tests are the usual ones for a zero byte and for a byte below n: a
// borrow can mark a byte above a true one, never below it, so a word
// without such a byte is never marked, and the lowest marked byte of a
// word is the first such byte.
package wordscan

import (
	"math/bits"
	"strings"
	"unicode/utf8"
)

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// Load is the eight bytes of s at i, the first the lowest. s must hold
// them.
func Load(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// Equal marks the bytes of w equal to c.
func Equal(w uint64, c byte) uint64 {
	x := w ^ ones*uint64(c)
	return (x - ones) &^ x & highs
}

// EqualExact marks the bytes of w equal to c, and only those: no borrow
// crosses a byte, so that marks of neighbouring bytes can be compared
// (two spaces in a row), at a few more instructions than Equal.
func EqualExact(w uint64, c byte) uint64 {
	x := w ^ ones*uint64(c)
	const lows = 0x7f7f7f7f7f7f7f7f
	return ^((x&lows + lows) | x) & highs
}

// Below marks the bytes of w below c, which must be at most 0x80.
func Below(w uint64, c byte) uint64 {
	return (w - ones*uint64(c)) &^ w & highs
}

// AtLeast marks the bytes of w from c up; c must be from 1 to 0x80. A
// byte below 0x80 plus 0x80-c carries into its high bit exactly when it
// is c or more, and never out of its byte; a byte from 0x80 up has its high
// bit set already.
func AtLeast(w uint64, c byte) uint64 {
	return ((w &^ highs) + ones*uint64(0x80-c) | w) & highs
}

// EqualPair marks the bytes of w equal to c or c+1, for an even c: the two
// differ in their lowest bit only.
func EqualPair(w uint64, c byte) uint64 {
	return Below(w^ones*uint64(c), 2)
}

// High marks the bytes of w from 0x80 up.
func High(w uint64) uint64 { return w & highs }

// First is the index (0-7) of the lowest byte marked in m, which must mark
// one.
func First(m uint64) int { return bits.TrailingZeros64(m) >> 3 }

// Before is the mask of the bytes below the lowest byte marked in m, all
// of them if m marks none.
func Before(m uint64) uint64 { return (m&-m)>>7 - 1 }

// LastIndex is the index of the last c in s, -1 if there is none, found a
// word at a time from the end: strings.LastIndexByte reads a byte at a
// time (the standard library has no vector loop for it), which was 3% of
// the instructions of a run of long lines, whose reads end far from their
// last line end (BENCHMARKS.md).
func LastIndex(s string, c byte) int {
	i := len(s)
	for ; i >= 8; i -= 8 {
		// EqualExact: Equal's borrows may mark a byte above a true one,
		// which the highest mark would take.
		if m := EqualExact(Load(s, i-8), c); m != 0 {
			return i - 1 - bits.LeadingZeros64(m)>>3
		}
	}
	for i--; i >= 0 && s[i] != c; i-- {
	}
	return i
}

// StringEnd is where the plain run of a JSON string's text that starts at
// s[i] ends: the index of the first quote, backslash or control character
// at or after i (len(s) if there is none), and whether a byte before it is
// above 0x7f (so that the run must be checked for UTF-8).
func StringEnd(s string, i int) (end int, high bool) {
	var h uint64
	for ; i+8 <= len(s); i += 8 {
		w := Load(s, i)
		if m := Equal(w, '"') | Equal(w, '\\') | Below(w, 0x20); m != 0 {
			if High(h|w) == 0 {
				return i + First(m), false // ASCII: no need to mask the bytes after the end
			}
			return i + First(m), High(h|w&Before(m)) != 0
		}
		h |= w
	}
	for ; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' || c < 0x20 {
			break
		}
		h |= uint64(s[i])
	}
	return i, High(h) != 0
}

// PlainString reads the JSON string at s[i] when it holds no escape: its
// text, valid UTF-8, and the offset after it. ok is false for anything
// else, which a JSON decoder is to read.
func PlainString(s string, i int) (text string, next int, ok bool) {
	if i >= len(s) || s[i] != '"' {
		return "", i, false
	}
	end, high := StringEnd(s, i+1)
	return Plain(s, i, end, high)
}

// Plain is PlainString of the string at s[i] whose plain run ends at end,
// with high as StringEnd or TextEnd reports it.
func Plain(s string, i, end int, high bool) (text string, next int, ok bool) {
	if end == len(s) || s[end] != '"' {
		return "", end, false
	}
	text = s[i+1 : end]
	if high && !utf8.ValidString(text) {
		return "", end, false
	}
	return text, end + 1, true
}

// TextEnd is StringEnd for a string that may be long (a message's text).
// Its first 64 bytes are read a word at a time, as StringEnd reads; a
// longer run is searched for its quote and backslash with
// strings.IndexByte, which the standard library does with vector
// instructions, and then for control characters and high bytes four words
// at a time. StringEnd alone took 40% of the instructions of a sample of
// long messages; TextEnd is not StringEnd itself because its calls cost
// StringEnd, a function without a frame, a frame (BENCHMARKS.md, CPU7).
func TextEnd(s string, i int) (end int, high bool) {
	var h uint64
	for k := 0; k < 8 && i+8 <= len(s); k++ {
		w := Load(s, i)
		if m := Equal(w, '"') | Equal(w, '\\') | Below(w, 0x20); m != 0 {
			if High(h|w) == 0 {
				return i + First(m), false // as in StringEnd
			}
			return i + First(m), High(h|w&Before(m)) != 0
		}
		h |= w
		i += 8
	}
	if i+8 > len(s) {
		end, high := StringEnd(s, i)
		return end, high || High(h) != 0
	}
	// A long run: it ends at the first quote or backslash, or before, at
	// a control character.
	run := s[i:]
	if q := strings.IndexByte(run, '"'); q >= 0 {
		run = run[:q]
	}
	if b := strings.IndexByte(run, '\\'); b >= 0 {
		run = run[:b]
	}
	j := 0
	// ASCII text (most is): four words at a time whose bytes are all from
	// 0x20 to 0x7f, that is, none is below 0x20 (whose subtraction sets
	// its high bit, and may set the bytes' above it: no false mark below a
	// true one) and none has its high bit set. One bounds check for the
	// four loads (q's length is known), the high bits taken once.
	for ; j+32 <= len(run); j += 32 {
		q := run[j : j+32]
		w0, w1, w2, w3 := Load(q, 0), Load(q, 8), Load(q, 16), Load(q, 24)
		const k = ones * 0x20
		if ((w0-k)|w0|(w1-k)|w1|(w2-k)|w2|(w3-k)|w3)&highs != 0 {
			break
		}
	}
	// Then text with high bytes (UTF-8), up to a control character: the
	// high bytes noted in h.
	for ; j+32 <= len(run); j += 32 {
		q := run[j : j+32]
		w0, w1, w2, w3 := Load(q, 0), Load(q, 8), Load(q, 16), Load(q, 24)
		const k = ones * 0x20
		if ((w0-k)&^w0|(w1-k)&^w1|(w2-k)&^w2|(w3-k)&^w3)&highs != 0 {
			break
		}
		h |= w0 | w1 | w2 | w3
	}
	end, high = StringEnd(run, j) // the rest, up to the run's end
	return i + end, high || High(h) != 0
}

// EscapedStringEnd is the index of the quote that closes a JSON string
// whose text starts at s[i], and true, when the text unescapes without an
// error: every escape valid (\" \\ \/ \b \f \n \r \t, and \u with four hex
// digits) and the text between escapes valid UTF-8 without a control
// character. Otherwise it is false (an invalid escape, a control
// character, invalid UTF-8, no closing quote), and the caller reads the
// string in full, for its error. It checks a string's escapes without
// writing what they stand for, for a reader that keeps a string's text as
// it is written (a message's text that nothing reads).
func EscapedStringEnd(s string, i int) (int, bool) {
	for {
		end, high := StringEnd(s, i) // TextEnd costs more a run, and escaped text has short runs
		if end >= len(s) || high && !utf8.ValidString(s[i:end]) {
			return end, false
		}
		switch s[end] {
		case '"':
			return end, true
		case '\\':
			if end+1 >= len(s) {
				return end, false
			}
			switch s[end+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i = end + 2
			case 'u':
				if end+6 > len(s) || !hex4(s[end+2:end+6]) {
					return end, false
				}
				i = end + 6
			default:
				return end, false
			}
		default:
			return end, false // a control character
		}
	}
}

// hex4 reports whether s is four hex digits.
func hex4(s string) bool {
	for i := range 4 {
		c := s[i] | 0x20 // lower case for letters
		if !('0' <= s[i] && s[i] <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
