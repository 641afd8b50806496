// Package pytext writes and reads text as Python does where ragas's scores
// depend on it: repr() of floats and strings, round(), and strings holding
// lone surrogates (WTF-8), which Python allows and Go's UTF-8 functions reject.
package pytext

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// AppendFloat appends Python's repr() of f: the shortest digits that
// round-trip, in fixed notation with ".0" for integral values while the
// decimal exponent is in [-4, 16), else in exponent notation ("1e-05",
// "1e+16"); nan, inf and -inf for the rest.
func AppendFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "nan"...)
	case math.IsInf(f, 1):
		return append(b, "inf"...)
	case math.IsInf(f, -1):
		return append(b, "-inf"...)
	}
	// Go's shortest 'e' formatting is Python's exponent form exactly:
	// "1e-05", "1.5e-07", "1e+16". The fixed form is laid out from the same
	// digits, so that the number is converted once.
	var tmp [32]byte
	e := strconv.AppendFloat(tmp[:0], f, 'e', -1, 64)
	ep := len(e) - 4 // the exponent has a sign and 2 or 3 digits
	if e[ep] != 'e' {
		ep--
	}
	exp := 0
	for _, c := range e[ep+2:] {
		exp = exp*10 + int(c-'0')
	}
	if e[ep+1] == '-' {
		exp = -exp
	}
	if exp < -4 || exp >= 16 {
		return append(b, e...)
	}
	mant := e[:ep]
	if mant[0] == '-' {
		b = append(b, '-')
		mant = mant[1:]
	}
	// The significant digits: "d" or "d.ddd" without the point.
	lead, rest := mant[0], mant[min(2, len(mant)):]
	if exp < 0 {
		b = append(b, '0', '.')
		b = append(b, "0000"[:-exp-1]...)
		b = append(b, lead)
		return append(b, rest...)
	}
	b = append(b, lead)
	if len(rest) <= exp {
		b = append(b, rest...)
		b = append(b, "000000000000000"[:exp-len(rest)]...)
		return append(b, '.', '0')
	}
	b = append(b, rest[:exp]...)
	b = append(b, '.')
	return append(b, rest[exp:]...)
}

// AppendRepr writes Python's repr() of a str: single quotes unless the
// text has a single quote and no double quote; backslash escapes for
// \\ \n \r \t and the quote; \xhh, \uhhhh, \Uhhhhhhhh for what Python does
// not consider printable; printable non-ASCII as it is.
func AppendRepr(b []byte, s string) []byte {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	b = append(b, quote)
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			i++
			switch {
			case c == quote || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20 || c == 0x7f:
				b = append(b, '\\', 'x', hexDigit[c>>4], hexDigit[c&15])
			default:
				b = append(b, c)
			}
			continue
		}
		r, size := DecodeWTF8(s[i:])
		if isPrintable(r) {
			b = append(b, s[i:i+size]...)
		} else {
			switch {
			case r < 0x100:
				b = append(b, '\\', 'x')
				b = AppendHex(b, uint32(r), 2)
			case r < 0x10000:
				b = append(b, '\\', 'u')
				b = AppendHex(b, uint32(r), 4)
			default:
				b = append(b, '\\', 'U')
				b = AppendHex(b, uint32(r), 8)
			}
		}
		i += size
	}
	return append(b, quote)
}

const hexDigit = "0123456789abcdef"

// AppendHex appends the width lowest hex digits of n, in lower case.
func AppendHex(b []byte, n uint32, width int) []byte {
	for shift := (width - 1) * 4; shift >= 0; shift -= 4 {
		b = append(b, hexDigit[(n>>uint(shift))&15])
	}
	return b
}

// WTF-8: UTF-8 extended to encode lone surrogates, which Python strings may
// hold and Go's UTF-8 functions reject.

// AppendWTF8 appends the UTF-8 encoding of r, or, for a surrogate, its
// WTF-8 encoding (the three bytes UTF-8 would give it, were it allowed).
func AppendWTF8(b []byte, r rune) []byte {
	if r >= 0xD800 && r <= 0xDFFF {
		return append(b, 0xED, byte(0x80|(r>>6)&0x3F), byte(0x80|r&0x3F))
	}
	return utf8.AppendRune(b, r)
}

// DecodeWTF8 decodes one code point, including an encoded lone surrogate.
func DecodeWTF8(s string) (rune, int) {
	if len(s) >= 3 && s[0] == 0xED && s[1] >= 0xA0 && s[1] <= 0xBF && s[2]&0xC0 == 0x80 {
		return rune(0xD000) | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F), 3
	}
	return utf8.DecodeRuneInString(s)
}

// ValidWTF8 reports whether b is UTF-8 but for encoded lone surrogates.
func ValidWTF8(b []byte) bool {
	s := string(b)
	for i := 0; i < len(s); {
		r, n := DecodeWTF8(s[i:])
		if r == utf8.RuneError && n <= 1 {
			return false
		}
		i += n
	}
	return true
}

// AppendCodePoints decodes s into code points as Python indexes a str.
func AppendCodePoints(dst []rune, s string) []rune {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			dst = append(dst, rune(c))
			i++
			continue
		}
		r, n := DecodeWTF8(s[i:])
		dst = append(dst, r)
		i += n
	}
	return dst
}

// isPrintable is Python's str.isprintable for one code point: everything
// but the categories Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs (space excepted).
func isPrintable(r rune) bool {
	if r >= 0xD800 && r <= 0xDFFF {
		return false
	}
	return unicode.IsPrint(r)
}

// AppendCodePointsBytes is AppendCodePoints for a text in a byte buffer,
// lone surrogates (WTF-8) included.
func AppendCodePointsBytes(dst []rune, b []byte) []rune {
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c < utf8.RuneSelf:
			dst = append(dst, rune(c))
			i++
		case c == 0xED && len(b)-i >= 3 && b[i+1] >= 0xA0 && b[i+1] <= 0xBF && b[i+2]&0xC0 == 0x80:
			dst = append(dst, 0xD000|rune(b[i+1]&0x3F)<<6|rune(b[i+2]&0x3F))
			i += 3
		default:
			r, n := utf8.DecodeRune(b[i:])
			dst = append(dst, r)
			i += n
		}
	}
	return dst
}

// Round rounds x to n decimals as Python's round(x, n) does: correctly, on
// the exact binary value, ties to even; n may be negative (round(15.0, -1)
// is 20.0). Where Python raises OverflowError, Round gives ±Inf.
func Round(x float64, n int) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
		return x
	}
	if n < 0 {
		return roundTens(x, -n)
	}
	if x == math.Trunc(x) {
		return x // also spares F1 scores of 0 and 1 the formatting
	}
	var buf [32]byte
	f, _ := strconv.ParseFloat(string(strconv.AppendFloat(buf[:0], x, 'f', n, 64)), 64)
	return f
}

// roundTens rounds x to a multiple of 10^k, exactly, ties to even, keeping
// the sign of x as Python does (round(-4.0, -1) is -0.0).
func roundTens(x float64, k int) float64 {
	if k > 400 {
		return math.Copysign(0, x)
	}
	exact := new(big.Rat).SetFloat64(math.Abs(x))
	unit := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil))
	q := new(big.Rat).Quo(exact, unit)
	// q = whole + frac with 0 <= frac < 1; go up past one half, or at one
	// half to an even whole.
	whole := new(big.Int).Quo(q.Num(), q.Denom())
	frac := new(big.Rat).Sub(q, new(big.Rat).SetInt(whole))
	if c := frac.Cmp(big.NewRat(1, 2)); c > 0 || c == 0 && whole.Bit(0) == 1 {
		whole.Add(whole, big.NewInt(1))
	}
	f, _ := new(big.Float).SetInt(whole.Mul(whole, unit.Num())).Float64()
	return math.Copysign(f, x)
}
