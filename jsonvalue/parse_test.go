package jsonvalue

import (
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentcheck/agentcheck/internal/pytext"
	"github.com/agentcheck/agentcheck/internal/wordscan"
)

func TestParseErrors(t *testing.T) {
	tests := []struct{ in, err string }{
		{``, `line 1, column 1: unexpected end of input, want a value`},
		{`   `, `line 1, column 4: unexpected end of input, want a value`},
		{`{"a" 1}`, `line 1, column 6: unexpected '1' after object key, want ':'`},
		{`{"a": 1,}`, `line 1, column 9: unexpected '}', want an object key`},
		{`{"a": 1 "b": 2}`, `line 1, column 9: unexpected '"' in object, want ',' or '}'`},
		{`{1: 2}`, `line 1, column 2: unexpected '1', want an object key`},
		{`[1,]`, `line 1, column 4: unexpected ']', want a value`},
		{`[1 2]`, `line 1, column 4: unexpected '2' in array, want ',' or ']'`},
		{`[1`, `line 1, column 3: unexpected end of input in array`},
		{`{"a": 1`, `line 1, column 8: unexpected end of input in object`},
		{`01`, `line 1, column 1: number with a leading zero`},
		{`-01`, `line 1, column 2: number with a leading zero`},
		{`-`, `line 1, column 2: unexpected end of input in number, want a digit`},
		{`-a`, `line 1, column 2: unexpected 'a' in number, want a digit`},
		{`1.`, `line 1, column 3: unexpected end of input after decimal point, want a digit`},
		{`1.e5`, `line 1, column 3: unexpected 'e' after decimal point, want a digit`},
		{`1e`, `line 1, column 3: unexpected end of input in exponent, want a digit`},
		{`1e+`, `line 1, column 4: unexpected end of input in exponent, want a digit`},
		{`+1`, `line 1, column 1: unexpected '+', want a value`},
		{`.5`, `line 1, column 1: unexpected '.', want a value`},
		{`tru`, `line 1, column 1: unexpected 't', want a value`},
		{`nan`, `line 1, column 1: unexpected 'n', want a value`},
		{`1 2`, `line 1, column 3: unexpected '2' after the JSON value`},
		{`"abc`, `line 1, column 1: unterminated string`},
		{"\"a\x01b\"", `line 1, column 3: invalid control character '\x01' in string`},
		{"\"a\nb\"", `line 1, column 3: invalid control character '\n' in string`},
		{`"\q"`, `line 1, column 2: invalid escape \q`},
		{`"\u12"`, `line 1, column 2: invalid \u escape`},
		{`"\u12g4"`, `line 1, column 2: invalid \u escape`},
		{"\"\xff\"", `line 1, column 1: string is not valid UTF-8`},
		{"\"\\n\xc3\"", `line 1, column 1: string is not valid UTF-8`},
		{"{\n  \"a\": [1,\n   x]}", `line 3, column 4: unexpected 'x', want a value`},
		{"[\r\n1,\r\n}", `line 3, column 1: unexpected '}', want a value`},
		{`"é" x`, `line 1, column 6: unexpected 'x' after the JSON value`},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.in))
		if err == nil || err.Error() != tt.err {
			t.Errorf("Parse(%q):\n got %v\nwant %s", tt.in, err, tt.err)
			continue
		}
		var se *SyntaxError
		if !errors.As(err, &se) || se.Line < 1 || se.Column < 1 || se.Offset < 0 || se.Offset > len(tt.in) {
			t.Errorf("Parse(%q): %#v is not a located *SyntaxError", tt.in, err)
		}
	}
}

// TestParseLimits: what Python's json module refuses (nesting past
// its recursion limit, ints past 4300 digits) is refused too.
func TestParseLimits(t *testing.T) {
	nest := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	if _, err := Parse([]byte(nest(maxDepth))); err != nil {
		t.Errorf("%d levels: %v", maxDepth, err)
	}
	if _, err := Parse([]byte(nest(maxDepth + 1))); err == nil || !strings.Contains(err.Error(), "nesting deeper than 990 levels") {
		t.Errorf("%d levels: %v", maxDepth+1, err)
	}
	deepObj := strings.Repeat(`{"a":`, maxDepth+1) + "1" + strings.Repeat("}", maxDepth+1)
	if _, err := Parse([]byte(deepObj)); err == nil || !strings.Contains(err.Error(), "nesting deeper") {
		t.Errorf("deep objects: %v", err)
	}
	digits := strings.Repeat("7", maxIntDigits)
	if v, err := Parse([]byte(digits)); err != nil || v.String() != digits {
		t.Errorf("%d digits: %v", maxIntDigits, err)
	}
	if _, err := Parse([]byte("[" + digits + "7]")); err == nil || err.Error() != "line 1, column 2: integer literal of 4301 digits exceeds Python's limit of 4300" {
		t.Errorf("%d digits: %v", maxIntDigits+1, err)
	}
}

func TestParseScalars(t *testing.T) {
	tests := []struct {
		in   string
		kind Kind
		json string // String(): JSON as it is written back
		f    float64
	}{
		{`0`, IntKind, "0", 0},
		{`-0`, IntKind, "0", 0},
		{`-12`, IntKind, "-12", -12},
		{`123456789012345678901234567890`, IntKind, "123456789012345678901234567890", 1.2345678901234568e29},
		{`1.0`, FloatKind, "1.0", 1},
		{`1E2`, FloatKind, "100.0", 100},
		{`1e+2`, FloatKind, "100.0", 100},
		{`-0.0`, FloatKind, "-0.0", math.Copysign(0, -1)},
		{`1e400`, FloatKind, "Infinity", math.Inf(1)},
		{`-1e400`, FloatKind, "-Infinity", math.Inf(-1)},
		{`1e-400`, FloatKind, "0.0", 0},
		{`NaN`, FloatKind, "NaN", math.NaN()},
		{`Infinity`, FloatKind, "Infinity", math.Inf(1)},
		{`-Infinity`, FloatKind, "-Infinity", math.Inf(-1)},
		{`true`, BoolKind, "true", 1},
		{`false`, BoolKind, "false", 0},
		{`null`, NullKind, "null", 0},
		{` "a\/b\"\\\b\f\n\r\t" `, StringKind, `"a/b\"\\\u0008\u000c\n\r\t"`, 0},
		{`"\u00e9\u4E2D"`, StringKind, `"é中"`, 0},
		{`"\ud83d\ude00"`, StringKind, `"😀"`, 0},
		{`"\ud83d"`, StringKind, `"\ud83d"`, 0},
		{`"\ude00\ud83d"`, StringKind, `"\ude00\ud83d"`, 0},
		{`"\ud83dx\ude00"`, StringKind, `"\ud83dx\ude00"`, 0},
		{`"\ud83d\u0041"`, StringKind, `"\ud83dA"`, 0},
		{`"raw é 😀 \u2028"`, StringKind, "\"raw é 😀 \u2028\"", 0},
	}
	for _, tt := range tests {
		v, err := Parse([]byte(tt.in))
		if err != nil {
			t.Errorf("Parse(%s): %v", tt.in, err)
			continue
		}
		if v.Kind() != tt.kind || v.String() != tt.json {
			t.Errorf("Parse(%s) = %s %s, want %s %s", tt.in, v.Kind(), v.String(), tt.kind, tt.json)
		}
		if got := v.Float(); got != tt.f && !(math.IsNaN(got) && math.IsNaN(tt.f)) || math.Signbit(got) != math.Signbit(tt.f) {
			t.Errorf("Parse(%s).Float() = %v, want %v", tt.in, got, tt.f)
		}
	}
	// Strings keep their text, lone surrogates in WTF-8.
	texts := map[string]string{
		` "a\/b\"\\\b\f\n\r\t" `: "a/b\"\\\b\f\n\r\t",
		`"\ud83d"`:               "\xed\xa0\xbd",
		`"\ude00\ud83d"`:         "\xed\xb8\x80\xed\xa0\xbd",
		`"\ud83dx\ude00"`:        "\xed\xa0\xbdx\xed\xb8\x80",
		`"\ud83d\u0041"`:         "\xed\xa0\xbdA",
	}
	for in, want := range texts {
		if got := MustParse(in).Text(); got != want {
			t.Errorf("Parse(%s).Text() = %q, want %q", in, got, want)
		}
	}
}

// TestParseContainers checks that containers keep their members apart
// (the parser builds them in shared storage) and objects their key order,
// with a duplicate key in its first position holding its last value.
func TestParseContainers(t *testing.T) {
	v := MustParse(`{"z": [1, [2, 3], {"y": [], "x": {}}], "a": {"k": 1, "j": 2, "k": [4]}, "m": "s", "z": [5, {"q": null}]}`)
	const want = `{"z":[5,{"q":null}],"a":{"k":[4],"j":2},"m":"s"}`
	if got := v.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// Appending to a parsed container must not write into its neighbours.
	a, _ := v.Get("a")
	k, _ := a.Get("k")
	grown := append(k.elems, Member{Value: Int(9)})
	_ = grown
	if got := v.String(); got != want {
		t.Errorf("after appending to a member's elements: %s", got)
	}
	for _, in := range []string{`[]`, `{}`, `[[]]`, `[{}, {}]`, `{"a": {}, "b": []}`} {
		if got := MustParse(in).String(); got != strings.ReplaceAll(in, " ", "") {
			t.Errorf("Parse(%s).String() = %s", in, got)
		}
	}
	// Many documents parsed one after another stay intact.
	var vals []Value
	for i := range 200 {
		vals = append(vals, MustParse(`{"i": [`+strings.Repeat(`{"n": 1}, `, i%7)+`2]}`))
	}
	for i, v := range vals {
		want := `{"i":[` + strings.Repeat(`{"n":1},`, i%7) + `2]}`
		if got := v.String(); got != want {
			t.Fatalf("document %d: %s, want %s", i, got, want)
		}
	}
}

func TestMustParsePanics(t *testing.T) {
	defer func() {
		if _, ok := recover().(*SyntaxError); !ok {
			t.Error("MustParse of bad JSON did not panic with its *SyntaxError")
		}
	}()
	MustParse(`{`)
}

// FuzzParse: the parser never panics, and what it accepts survives a
// round trip through MarshalJSON unchanged: the same JSON text, key order
// and number kinds included, and a value Equal to it (but for NaN, which
// equals nothing).
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a": [1, 1.0, true, null, "x\u00e9\ud800"]}`, `[1e400, -0.0, NaN]`, `"\ud83d\ude00"`, `{"k": 1, "k": 2}`, `12345678901234567890`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := Parse([]byte(s))
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SyntaxError", err)
			}
			return
		}
		out, _ := v.MarshalJSON()
		back, err := Parse(out)
		if err != nil {
			t.Fatalf("re-parsing %s: %v", out, err)
		}
		if v.String() != back.String() || !Equal(v, back) && !hasNaN(v) {
			t.Fatalf("round trip changed %s: %s", s, out)
		}
	})
}

func hasNaN(v Value) bool {
	switch v.kind {
	case FloatKind:
		return math.IsNaN(v.f)
	case ArrayKind, ObjectKind:
		for _, m := range v.elems {
			if hasNaN(m.Value) {
				return true
			}
		}
	}
	return false
}

// TestStrIsStrScan holds str, which reads eight bytes at a time, to
// strScan, which reads a byte at a time, on 30,000 generated strings:
// lengths around the word size, quotes, backslashes, control characters
// and bytes above 0x7f (valid UTF-8 or not) at every position, and texts
// that end inside or right after the string (the position matters only
// without an error, which ends the reading).
func TestStrIsStrScan(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"a", "Z", " ", "\"", "\\", "\\n", "\\u00e9", "\x00", "\x1f", "\x7f", "é", "€", "\xff", "\xc3", "#", "}"}
	for range 30_000 {
		var b strings.Builder
		b.WriteString(strings.Repeat(" ", r.IntN(3)))
		b.WriteByte('"')
		for range r.IntN(24) {
			if r.IntN(4) == 0 {
				b.WriteString(pieces[r.IntN(len(pieces))])
			} else {
				b.WriteByte(byte('a' + r.IntN(26)))
			}
		}
		if r.IntN(8) > 0 {
			b.WriteByte('"')
		}
		b.WriteString(strings.Repeat("x", r.IntN(10)))
		text := b.String()
		start := strings.IndexByte(text, '"')
		fast, slow := parser{src: text, pos: start}, parser{src: text, pos: start}
		s1, err1 := fast.str()
		s2, err2 := slow.strScan()
		if s1 != s2 || !sameErrText(err1, err2) || err1 == nil && fast.pos != slow.pos {
			t.Fatalf("text %q: str = %q, %v at %d; strScan = %q, %v at %d", text, s1, err1, fast.pos, s2, err2, slow.pos)
		}
	}
}

// strSlowByteByByte is strSlow as it was written first, a byte at a time:
// the definition strSlow is held to.
func (p *parser) strSlowByteByByte(start int) (string, error) {
	var b []byte
	i := start + 1
	for i < len(p.src) {
		c := p.src[i]
		switch {
		case c == '"':
			p.pos = i + 1
			if !utf8.Valid(b) && !pytext.ValidWTF8(b) {
				return "", p.errorAt(start, "string is not valid UTF-8")
			}
			return string(b), nil
		case c < 0x20:
			return "", p.errorAt(i, "invalid control character %q in string", c)
		case c != '\\':
			b = append(b, c)
			i++
			continue
		}
		if i+1 >= len(p.src) {
			break
		}
		esc := p.src[i+1]
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
			r, ok := hex4(p.src, i)
			if !ok {
				return "", p.errorAt(i-2, "invalid \\u escape")
			}
			i += 4
			if r >= 0xD800 && r < 0xDC00 && i+6 <= len(p.src) && p.src[i] == '\\' && p.src[i+1] == 'u' {
				if lo, ok := hex4(p.src, i+2); ok && lo >= 0xDC00 && lo < 0xE000 {
					r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
					i += 6
				}
			}
			b = pytext.AppendWTF8(b, r)
		default:
			return "", p.errorAt(i-2, "invalid escape \\%c", esc)
		}
	}
	return "", p.errorAt(start, "unterminated string")
}

// TestStrSlowIsByteByByte holds strSlow, which copies the runs between
// escapes whole, to strSlowByteByByte on 40,000 generated strings with
// escapes: every escape, \\u escapes of surrogates alone and in pairs,
// invalid escapes, a backslash at the text's end, control characters,
// bytes above 0x7f (valid UTF-8, WTF-8 or not) and runs around the word
// size, terminated or not.
func TestStrSlowIsByteByByte(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	pieces := []string{"\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", "\\u00e9", "\\u20AC", "\\ud83d\\ude00",
		"\\ud800", "\\udc00", "\\ud800x", "\\u12", "\\uZZZZ", "\\x", "\\", "\x00", "\x1f", "é", "€", "\xed\xa0\x80", "\xff", "\xc3", "\""}
	escaped, missed := 0, 0
	for range 40_000 {
		var b strings.Builder
		b.WriteByte('"')
		for range 1 + r.IntN(12) {
			if r.IntN(3) == 0 {
				b.WriteString(pieces[r.IntN(len(pieces))])
			} else {
				b.WriteString(strings.Repeat(string(rune('a'+r.IntN(26))), r.IntN(20)))
			}
		}
		if r.IntN(6) > 0 {
			b.WriteByte('"')
		}
		b.WriteString(strings.Repeat("y", r.IntN(4)))
		text := b.String()
		fast, slow := parser{src: text}, parser{src: text}
		s1, err1 := fast.strSlow(0)
		s2, err2 := slow.strSlowByteByByte(0)
		if s1 != s2 || !sameErrText(err1, err2) || err1 == nil && fast.pos != slow.pos {
			t.Fatalf("text %q: strSlow = %q, %v at %d; byte by byte = %q, %v at %d", text, s1, err1, fast.pos, s2, err2, slow.pos)
		}
		// A string EscapedStringEnd takes as it is written must read
		// without an error, and end where it says.
		if end, ok := wordscan.EscapedStringEnd(text, 1); ok {
			escaped++
			if err1 != nil || fast.pos != end+1 {
				t.Fatalf("text %q: EscapedStringEnd = %d, true; strSlow = %v at %d", text, end, err1, fast.pos)
			}
		} else if err1 == nil && !strings.ContainsAny(s1, "\xed") {
			missed++
		}
	}
	// It takes most strings that read (not those of WTF-8 text, which it
	// leaves to the full reading), or it saves nothing.
	if escaped < 10_000 || missed > 0 {
		t.Errorf("EscapedStringEnd took %d strings that read and missed %d; want 10,000 or more, and none missed", escaped, missed)
	}
}

// flatObject, which reads an object of scalars straight into the arena,
// gives what the general reading gives (the same Value, the same error),
// on 8,000 generated documents: flat and nested objects, keys given again,
// empty objects, every scalar, malformed tails, and arenas that fill up
// mid-object; and FuzzFlatObject on what the fuzzer finds.
func TestFlatObjectIsTheGeneralReading(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(9, 10))
	// Mostly well-formed, so that whole objects are read by flatObject;
	// one pick in twelve from what is not.
	pick := func(good, bad []string) string {
		if r.IntN(12) == 0 {
			return bad[r.IntN(len(bad))]
		}
		return good[r.IntN(len(good))]
	}
	keyGood, keyBad := []string{`"a"`, `"b"`, `"a"`, `"k\u0061"`, `""`, `"é"`}, []string{"\"\xff\"", `a`, `"`}
	scalarGood := []string{`1`, `1.0`, `-0`, `"x"`, `"\u00e9"`, `true`, `false`, `null`, `NaN`, `-Infinity`, `1e400`, `-12.50`, `"é"`}
	scalarBad := []string{`"`, `tru`, `01`, `-`, `1.`, "\"\xff\"", "\"a\tb\"", `fals`, `nul`}
	var gen func(depth int) string
	gen = func(depth int) string {
		switch c := r.IntN(10); {
		case c < 6 || depth > 3:
			return pick(scalarGood, scalarBad)
		case c < 8:
			var b strings.Builder
			b.WriteString("{")
			for i := range r.IntN(6) {
				if i > 0 {
					b.WriteString(pick([]string{",", ", ", ", ", " ,", ",\n\t", ",  ", ", \n"}, []string{",,", ""}))
				}
				b.WriteString(pick(keyGood, keyBad) + pick([]string{":", ": ", ": ", " :", "\r\n:\t", ":  ", ": \t"}, []string{"", "::"}) + gen(depth+1))
			}
			b.WriteString(pick([]string{"}", " }", "\n}"}, []string{"", ",}"}))
			return b.String()
		default:
			return "[" + gen(depth+1) + ", " + gen(depth+1) + "]"
		}
	}
	for range 8_000 {
		checkFlatObject(t, gen(0))
	}
}

func FuzzFlatObject(f *testing.F) {
	for _, s := range []string{`{"a": 1, "a": {"b": 2}, "c": [1]}`, `{}`, `{"a": "x", "b": 1.5e3, "a": null}`, `[{"k": 1}, {"k": 2, "k": 3}]`} {
		f.Add(s)
	}
	f.Fuzz(checkFlatObject)
}

// checkFlatObject parses text with flatObject and without it, with arenas
// of every small size, and fails if they differ.
func checkFlatObject(t *testing.T, text string) {
	want, wantErr := parseWith(text, true, 0)
	for chunk := range 6 {
		got, err := parseWith(text, false, chunk)
		if !sameErrText(err, wantErr) || wantErr == nil && !sameBits(got, want) {
			t.Fatalf("text %q (arena chunks of %d): flatObject gives %s, %v; the general reading %s, %v", text, chunk, got, err, want, wantErr)
		}
	}
}

func parseWith(text string, general bool, chunk int) (Value, error) {
	p := parser{src: text, general: general, perChunk: chunk}
	p.skipSpace()
	v, err := p.value(0)
	if err == nil {
		p.skipSpace()
		if p.pos != len(p.src) {
			err = p.errorf("unexpected %s after the JSON value", p.describe())
		}
	}
	return v, err
}

// sameBits reports whether a and b are the same Value to the bit: kinds,
// texts, float bits (NaN included), members and their order.
func sameBits(a, b Value) bool {
	if a.kind != b.kind || a.s != b.s || math.Float64bits(a.f) != math.Float64bits(b.f) || len(a.elems) != len(b.elems) || (a.elems == nil) != (b.elems == nil) {
		return false
	}
	for i := range a.elems {
		if a.elems[i].Key != b.elems[i].Key || !sameBits(a.elems[i].Value, b.elems[i].Value) {
			return false
		}
	}
	return true
}

// A number read without strconv (an integer of up to 15 digits, a decimal
// of up to 15 digits without an exponent) is the float64 strconv gives, to
// the bit, over 100,000 generated literals of every length around the
// bounds, and so is one read with it.
func TestNumberIsParseFloat(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(11, 12))
	digits := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + r.IntN(10))
		}
		return string(b)
	}
	for range 100_000 {
		lit := digits(1 + r.IntN(18))
		if len(lit) > 1 && lit[0] == '0' {
			lit = "0"
		}
		if r.IntN(2) == 0 {
			lit += "." + digits(1+r.IntN(18))
		}
		if r.IntN(8) == 0 {
			lit += "e" + []string{"", "-", "+"}[r.IntN(3)] + digits(1+r.IntN(3))
		}
		if r.IntN(2) == 0 {
			lit = "-" + lit
		}
		v, err := Parse([]byte(lit))
		if err != nil {
			t.Fatalf("Parse(%s): %v", lit, err)
		}
		want, _ := strconv.ParseFloat(lit, 64)
		if v.Kind() == IntKind && want == 0 {
			want = 0 // -0 is the integer 0
		}
		if math.Float64bits(v.Float()) != math.Float64bits(want) {
			t.Fatalf("Parse(%s).Float() = %v (%#x), strconv gives %v (%#x)", lit, v.Float(), math.Float64bits(v.Float()), want, math.Float64bits(want))
		}
	}
}

// sameErrText reports whether a and b are both nil, or both errors with
// the same text: what comparing fmt.Sprint of each reports (but for an
// error whose text is "<nil>"), without fmt, which the random tests ran on
// every case (a third of their time under -race).
func sameErrText(a, b error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Error() == b.Error()
}
