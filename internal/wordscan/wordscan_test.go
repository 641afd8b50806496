package wordscan

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// words are random words of bytes drawn mostly from the edges the tests
// are about (0x00, 0x1f, 0x20, '"', '#', '\\', 0x7f, 0x80, 0xff), so that
// every mix of marked and unmarked bytes, borrows included, comes up.
func words(n int) []uint64 {
	edges := []byte{0x00, 0x01, 0x1f, 0x20, 0x21, '"', '#', '\\', 0x5b, 0x7e, 0x7f, 0x80, 0x81, 0xfe, 0xff}
	r := rand.New(rand.NewPCG(1, 2))
	out := make([]uint64, n)
	for i := range out {
		var w uint64
		for k := range 8 {
			c := byte(r.IntN(256))
			if r.IntN(3) > 0 {
				c = edges[r.IntN(len(edges))]
			}
			w |= uint64(c) << (8 * k)
		}
		out[i] = w
	}
	return out
}

// TestMarksAgreeWithBytes holds Equal, Below, High, First and Before to a
// byte-at-a-time reading of 50,000 words: the word is marked exactly
// when one of its bytes is, and the lowest mark is the first such byte.
func TestMarksAgreeWithBytes(t *testing.T) {
	tests := []struct {
		name string
		mark func(uint64) uint64
		is   func(byte) bool
	}{
		{`Equal '"'`, func(w uint64) uint64 { return Equal(w, '"') }, func(c byte) bool { return c == '"' }},
		{`Equal 0`, func(w uint64) uint64 { return Equal(w, 0) }, func(c byte) bool { return c == 0 }},
		{`EqualExact ' '`, func(w uint64) uint64 { return EqualExact(w, ' ') }, func(c byte) bool { return c == ' ' }},
		{`EqualExact 0xff`, func(w uint64) uint64 { return EqualExact(w, 0xff) }, func(c byte) bool { return c == 0xff }},
		{`Equal 0xff`, func(w uint64) uint64 { return Equal(w, 0xff) }, func(c byte) bool { return c == 0xff }},
		{`Below 0x20`, func(w uint64) uint64 { return Below(w, 0x20) }, func(c byte) bool { return c < 0x20 }},
		{`Below 0x80`, func(w uint64) uint64 { return Below(w, 0x80) }, func(c byte) bool { return c < 0x80 }},
		{`Below 1`, func(w uint64) uint64 { return Below(w, 1) }, func(c byte) bool { return c < 1 }},
		{`High`, High, func(c byte) bool { return c >= 0x80 }},
		{`AtLeast 0x7f`, func(w uint64) uint64 { return AtLeast(w, 0x7f) }, func(c byte) bool { return c >= 0x7f }},
		{`AtLeast 0x80`, func(w uint64) uint64 { return AtLeast(w, 0x80) }, func(c byte) bool { return c >= 0x80 }},
		{`AtLeast 1`, func(w uint64) uint64 { return AtLeast(w, 1) }, func(c byte) bool { return c >= 1 }},
		{`AtLeast 0x21`, func(w uint64) uint64 { return AtLeast(w, 0x21) }, func(c byte) bool { return c >= 0x21 }},
		{`EqualPair '"'`, func(w uint64) uint64 { return EqualPair(w, '"') }, func(c byte) bool { return c == '"' || c == '#' }},
		{`EqualPair 0`, func(w uint64) uint64 { return EqualPair(w, 0) }, func(c byte) bool { return c <= 1 }},
		{`EqualPair 0xfe`, func(w uint64) uint64 { return EqualPair(w, 0xfe) }, func(c byte) bool { return c >= 0xfe }},
		{`what a JSON writer escapes`, func(w uint64) uint64 {
			return Below(w, 0x20) | AtLeast(w, 0x7f) | EqualPair(w, '"') | Equal(w, '\\')
		}, func(c byte) bool { return c < 0x20 || c >= 0x7f || c == '"' || c == '#' || c == '\\' }},
		{`a JSON string's end`, func(w uint64) uint64 { return Equal(w, '"') | Equal(w, '\\') | Below(w, 0x20) },
			func(c byte) bool { return c == '"' || c == '\\' || c < 0x20 }},
	}
	ws := words(50_000)
	for _, tt := range tests {
		for _, w := range ws {
			first := -1
			for k := range 8 {
				if tt.is(byte(w >> (8 * k))) {
					first = k
					break
				}
			}
			m := tt.mark(w)
			if (m != 0) != (first >= 0) {
				t.Fatalf("%s of %#016x = %#016x, but its first such byte is %d", tt.name, w, m, first)
			}
			if first < 0 {
				if Before(m) != ^uint64(0) {
					t.Fatalf("Before(%#x) = %#x, want every byte", m, Before(m))
				}
				continue
			}
			if got := First(m); got != first {
				t.Fatalf("First(%s of %#016x) = %d, want %d", tt.name, w, got, first)
			}
			if want := uint64(1)<<(8*first) - 1; Before(m) != want {
				t.Fatalf("Before(%s of %#016x) = %#x, want %#x", tt.name, w, Before(m), want)
			}
		}
	}
}

func TestLoad(t *testing.T) {
	s := "\x01\x02\x03\x04\x05\x06\x07\x08\x09"
	if got, want := Load(s, 1), uint64(0x0908070605040302); got != want {
		t.Errorf("Load(s, 1) = %#x, want %#x", got, want)
	}
}

// EqualExact marks every byte equal to c and no other, so that its marks
// can be shifted and compared: held to the bytes of 50,000 words.
func TestEqualExactMarksEveryByte(t *testing.T) {
	for _, w := range words(50_000) {
		for _, c := range []byte{' ', 0, 0x7f, 0x80, 0xff} {
			m := EqualExact(w, c)
			for k := range 8 {
				if got, want := m>>(8*k+7)&1 == 1, byte(w>>(8*k)) == c; got != want {
					t.Fatalf("EqualExact(%#016x, %#x) = %#016x: byte %d marked %v, want %v", w, c, m, k, got, want)
				}
			}
			if m&^highs != 0 {
				t.Fatalf("EqualExact(%#016x, %#x) = %#016x marks more than high bits", w, c, m)
			}
		}
	}
}

// StringEnd and TextEnd stop where a byte-at-a-time reading stops, from
// every start, in 20,000 generated strings of the bytes that matter, and
// say whether a byte before it is above 0x7f: short strings, and long runs
// (up to 300 bytes, the bytes that matter one in 6, 60 or 600), which
// TextEnd reads with IndexByte and four words at a time.
func TestStringEndIsTheByteReading(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	alphabet := []byte{'a', ' ', '"', '\\', 0x00, 0x1f, 0x7f, 0x80, 0xc3, 0xa9, 0xff}
	for n := range 20_000 {
		size, every := 40, 6
		if n%2 == 1 {
			size, every = 300, []int{6, 60, 600}[r.IntN(3)]
		}
		b := make([]byte, r.IntN(size))
		for k := range b {
			b[k] = 'a'
			if r.IntN(every) == 0 {
				b[k] = alphabet[r.IntN(len(alphabet))]
			}
		}
		s := string(b)
		for i := range len(s) + 1 {
			want, high := i, false
			for ; want < len(s); want++ {
				if c := s[want]; c == '"' || c == '\\' || c < 0x20 {
					break
				}
				high = high || s[want] >= 0x80
			}
			if gotEnd, gotHigh := StringEnd(s, i); gotEnd != want || gotHigh != high {
				t.Fatalf("StringEnd(%q, %d) = %d, %v; want %d, %v", s, i, gotEnd, gotHigh, want, high)
			}
			if gotEnd, gotHigh := TextEnd(s, i); gotEnd != want || gotHigh != high {
				t.Fatalf("TextEnd(%q, %d) = %d, %v; want %d, %v", s, i, gotEnd, gotHigh, want, high)
			}
		}
	}
}

// LastIndex finds what strings.LastIndexByte finds, in 20,000 generated
// strings of up to 100 bytes, for bytes that are in them once, many times
// or not at all, and for bytes whose neighbours borrow (0x00, 0x0a next to
// 0x0b, 0xff).
func TestLastIndexIsLastIndexByte(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	alphabet := []byte{'a', '\n', '\r', 0x00, 0x01, 0x09, 0x0b, 0x80, 0xff}
	for range 20_000 {
		b := make([]byte, r.IntN(100))
		for k := range b {
			b[k] = alphabet[r.IntN(len(alphabet))]
			if r.IntN(4) > 0 {
				b[k] = 'a'
			}
		}
		s := string(b)
		for _, c := range alphabet {
			if got, want := LastIndex(s, c), strings.LastIndexByte(s, c); got != want {
				t.Fatalf("LastIndex(%q, %#x) = %d, want %d", s, c, got, want)
			}
		}
	}
}

// PlainString takes a JSON string without escapes, valid UTF-8, and
// nothing else: what it takes is the string's text, and the offset past it.
func TestPlainString(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		ok   bool
	}{
		{`"abc",`, "abc", true},
		{`"" `, "", true},
		{`"São Paulo"}`, "São Paulo", true},
		{`"a\"b"`, "", false},
		{`"a\nb"`, "", false},
		{"\"a\x01b\"", "", false},
		{"\"a\xffb\"", "", false},
		{`"abc`, "", false},
		{`abc"`, "", false},
		{``, "", false},
	} {
		got, next, ok := PlainString(tc.in, 0)
		if ok != tc.ok || got != tc.want || ok && next != len(tc.want)+2 {
			t.Errorf("PlainString(%q) = %q, %d, %v; want %q, %v", tc.in, got, next, ok, tc.want, tc.ok)
		}
	}
}
