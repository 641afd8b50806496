package pyvalue_test

// Fuzz targets for Python's str() and repr() of values. Each checks
// invariants, not only the absence of panics. Seeds live in
// testdata/fuzz/<target>; run one with, for example,
//
//	go test -run '^$' -fuzz '^FuzzPythonString$' -fuzztime 60s ./internal/pyvalue

import (
	"errors"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/agentcheck/agentcheck/internal/pyvalue"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// FuzzPythonFloat: str() of a float is Python's repr: the shortest text
// that reads back as the same float, with a point or an exponent, in
// exponent form exactly when the decimal exponent is outside [-4, 16); and
// the float survives JSON.
func FuzzPythonFloat(f *testing.F) {
	f.Fuzz(func(t *testing.T, bits uint64) {
		x := math.Float64frombits(bits)
		v := jsonvalue.Float(x)
		s := pyvalue.Str(v)
		if r := pyvalue.Repr(v); r != s {
			t.Fatalf("repr(%v) = %q, str = %q", x, r, s)
		}
		switch {
		case math.IsNaN(x):
			if s != "nan" {
				t.Fatalf("str(NaN) = %q", s)
			}
		case math.IsInf(x, 0):
			if want := map[bool]string{true: "inf", false: "-inf"}[x > 0]; s != want {
				t.Fatalf("str(%v) = %q, want %q", x, s, want)
			}
		default:
			checkFiniteRepr(t, x, s)
		}
		out, err := v.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		back, err := jsonvalue.Parse(out)
		same := back.Float() == x && math.Signbit(back.Float()) == math.Signbit(x) || math.IsNaN(back.Float()) && math.IsNaN(x)
		if err != nil || back.Kind() != jsonvalue.FloatKind || !same {
			t.Fatalf("%v as JSON is %s, which reads back as %v (%v)", x, out, back, err)
		}
	})
}

func checkFiniteRepr(t *testing.T, x float64, s string) {
	t.Helper()
	back, err := strconv.ParseFloat(s, 64)
	if err != nil || math.Float64bits(back) != math.Float64bits(x) {
		t.Fatalf("str(%b) = %q reads back as %b (%v)", x, s, back, err)
	}
	if !strings.ContainsAny(s, ".e") {
		t.Fatalf("str(%v) = %q has neither a point nor an exponent", x, s)
	}
	// Go's shortest 'e' form has Python's digits and, in exponent form,
	// Python's layout ("1e-05", "1.5e+16").
	e := strconv.FormatFloat(x, 'e', -1, 64)
	mant, exp, _ := strings.Cut(e, "e")
	n, _ := strconv.Atoi(exp)
	expForm := strings.Contains(s, "e")
	if expForm != (n < -4 || n >= 16) {
		t.Fatalf("str(%v) = %q, but the decimal exponent is %d", x, s, n)
	}
	if expForm {
		if s != e {
			t.Fatalf("str(%v) = %q, want %q", x, s, e)
		}
		return
	}
	// Fixed form: digits, one point, digits; the same significant digits.
	intPart, frac, ok := strings.Cut(strings.TrimPrefix(s, "-"), ".")
	if !ok || intPart == "" || frac == "" || strings.Trim(intPart+frac, "0123456789") != "" || (len(intPart) > 1 && intPart[0] == '0') {
		t.Fatalf("str(%v) = %q is not of the form d+.d+", x, s)
	}
	sig := func(d string) string { return strings.TrimRight(strings.TrimLeft(d, "0"), "0") }
	if got, want := sig(intPart+frac), sig(strings.Replace(strings.TrimPrefix(mant, "-"), ".", "", 1)); got != want {
		t.Fatalf("str(%v) = %q has digits %q, the shortest round trip has %q", x, s, got, want)
	}
	if strings.HasPrefix(s, "-") != math.Signbit(x) {
		t.Fatalf("str(%v) = %q has the wrong sign", x, s)
	}
}

// FuzzPythonString: repr() of a str is a Python string literal: quoted
// with ' unless the text has a ' and no ", every quote and backslash inside
// escaped, no raw control or unprintable character, and, evaluated, the
// text itself. str() is the text. When the input is also a JSON document,
// its repr is a Python literal of the same value.
func FuzzPythonString(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		v := jsonvalue.String(s)
		if pyvalue.Str(v) != s {
			t.Fatalf("str(%q) = %q", s, pyvalue.Str(v))
		}
		r := pyvalue.Repr(v)
		lit, rest, err := readPyStr(r)
		if err != nil || rest != "" {
			t.Fatalf("repr(%q) = %q is not one Python string literal: %v (rest %q)", s, r, err, rest)
		}
		want := byte('\'')
		if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
			want = '"'
		}
		if r[0] != want {
			t.Fatalf("repr(%q) = %q, want it quoted with %c", s, r, want)
		}
		if cps := pyCodePoints(s); !slices.Equal(lit, cps) {
			t.Fatalf("repr(%q) = %q evaluates to %U, want %U", s, r, lit, cps)
		}
		if _, ok := wtf8CodePoints(s); ok {
			// A str is text: its JSON reads back as itself.
			out, _ := v.MarshalJSON()
			if back, err := jsonvalue.Parse(out); err != nil || !jsonvalue.Equal(back, v) {
				t.Fatalf("%q as JSON is %s, which reads back as %v (%v)", s, out, back, err)
			}
		}
		if doc, err := jsonvalue.Parse([]byte(s)); err == nil {
			r := pyvalue.Repr(doc)
			got, rest, err := readPyLiteral(r)
			if err != nil || strings.TrimSpace(rest) != "" {
				t.Fatalf("repr of %s is %q, not a Python literal: %v (rest %q)", s, r, err, rest)
			}
			if msg := samePy(got, doc); msg != "" {
				t.Fatalf("repr of %s is %q: %s", s, r, msg)
			}
			if doc.Kind() != jsonvalue.StringKind && pyvalue.Str(doc) != r {
				t.Fatalf("str of %s is %q, repr %q: they differ only for strings", s, pyvalue.Str(doc), r)
			}
		}
	})
}

// wtf8CodePoints decodes UTF-8 extended with encoded lone surrogates, as
// agenttest keeps Python's strings; ok is false for anything else. A lead
// surrogate followed by a trail surrogate is not lone: WTF-8 writes that
// pair as the one code point it makes (4 bytes), and so does JSON, where
// "\ud800\udd40" reads back as U+10140, in Python as here.
func wtf8CodePoints(s string) (cps []rune, ok bool) {
	for i := 0; i < len(s); {
		if len(s)-i >= 3 && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2]&0xC0 == 0x80 {
			c := 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
			if c >= 0xDC00 && len(cps) > 0 && cps[len(cps)-1] >= 0xD800 && cps[len(cps)-1] < 0xDC00 {
				return nil, false
			}
			cps = append(cps, c)
			i += 3
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return nil, false
		}
		cps = append(cps, r)
		i += n
	}
	return cps, true
}

// readPyStr reads a Python string literal as repr() writes it (no prefix,
// one kind of quote, the escapes repr() uses) from the start of s, and
// returns its code points and the rest of s. Raw control and unprintable
// characters are errors: repr() escapes them.
func readPyStr(s string) (cps []rune, rest string, err error) {
	if s == "" || s[0] != '\'' && s[0] != '"' {
		return nil, s, errors.New("no opening quote")
	}
	q := s[0]
	for i := 1; i < len(s); {
		c := s[i]
		switch {
		case c == q:
			return cps, s[i+1:], nil
		case c == '\\':
			if i+1 >= len(s) {
				return nil, s, errors.New("backslash at the end")
			}
			i += 2
			switch e := s[i-1]; e {
			case '\\', '\'', '"':
				cps = append(cps, rune(e))
			case 'n':
				cps = append(cps, '\n')
			case 'r':
				cps = append(cps, '\r')
			case 't':
				cps = append(cps, '\t')
			case 'x', 'u', 'U':
				n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
				if i+n > len(s) {
					return nil, s, errors.New("short hex escape")
				}
				x, err := strconv.ParseUint(s[i:i+n], 16, 32)
				if err != nil || x > unicode.MaxRune {
					return nil, s, errors.New("bad hex escape " + s[i-2:i+n])
				}
				cps = append(cps, rune(x))
				i += n
			default:
				return nil, s, errors.New("unknown escape \\" + string(e))
			}
		case c < utf8.RuneSelf:
			if c < 0x20 || c == 0x7f {
				return nil, s, errors.New("raw control character " + strconv.Quote(string(c)))
			}
			cps = append(cps, rune(c))
			i++
		default:
			// An invalid byte can only come from a Go string that is not
			// UTF-8, which no Python str is; repr() keeps it as it is, so
			// that str() stays one-to-one, and it reads as U+FFFD.
			r, n := utf8.DecodeRuneInString(s[i:])
			if !unicode.IsPrint(r) && !(r == utf8.RuneError && n == 1) {
				return nil, s, errors.New("raw unprintable " + strconv.QuoteRune(r))
			}
			cps = append(cps, r)
			i += n
		}
	}
	return nil, s, errors.New("no closing quote")
}

// pyValue is a Python literal as read back from a repr.
type pyValue struct {
	kind  string // "None", "bool", "int", "float", "str", "list", "dict"
	text  string // a bool's or int's text
	f     float64
	str   []rune
	elems []pyValue // list elements, or dict keys and values alternating
}

// readPyLiteral reads the literal at the start of s as repr() writes it.
func readPyLiteral(s string) (pyValue, string, error) {
	switch {
	case s == "":
		return pyValue{}, s, errors.New("unexpected end")
	case s[0] == '\'' || s[0] == '"':
		cps, rest, err := readPyStr(s)
		return pyValue{kind: "str", str: cps}, rest, err
	case s[0] == '[' || s[0] == '{':
		closer, kind := byte(']'), "list"
		if s[0] == '{' {
			closer, kind = '}', "dict"
		}
		v := pyValue{kind: kind}
		s = s[1:]
		if strings.HasPrefix(s, string(closer)) {
			return v, s[1:], nil
		}
		for {
			if kind == "dict" {
				key, rest, err := readPyStr(s)
				if err != nil {
					return v, s, err
				}
				if !strings.HasPrefix(rest, ": ") {
					return v, s, errors.New("no ': ' after a key")
				}
				v.elems = append(v.elems, pyValue{kind: "str", str: key})
				s = rest[2:]
			}
			e, rest, err := readPyLiteral(s)
			if err != nil {
				return v, s, err
			}
			v.elems = append(v.elems, e)
			switch {
			case strings.HasPrefix(rest, ", "):
				s = rest[2:]
			case strings.HasPrefix(rest, string(closer)):
				return v, rest[1:], nil
			default:
				return v, rest, errors.New("want ', ' or " + string(closer))
			}
		}
	}
	for _, word := range []string{"None", "True", "False", "nan", "-inf", "inf"} {
		if strings.HasPrefix(s, word) {
			switch word {
			case "None":
				return pyValue{kind: "None"}, s[len(word):], nil
			case "True", "False":
				return pyValue{kind: "bool", text: word}, s[len(word):], nil
			}
			x, _ := strconv.ParseFloat(word, 64)
			return pyValue{kind: "float", f: x}, s[len(word):], nil
		}
	}
	end := strings.IndexAny(s, ",]}")
	if end < 0 {
		end = len(s)
	}
	num := s[:end]
	if strings.ContainsAny(num, ".e") {
		x, err := strconv.ParseFloat(num, 64)
		return pyValue{kind: "float", f: x}, s[end:], err
	}
	if _, ok := new(big.Int).SetString(num, 10); !ok {
		return pyValue{}, s, errors.New("not a literal: " + strconv.Quote(num))
	}
	return pyValue{kind: "int", text: num}, s[end:], nil
}

// samePy says how the Python literal p differs from v, or "".
func samePy(p pyValue, v jsonvalue.Value) string {
	kinds := map[jsonvalue.Kind]string{
		jsonvalue.NullKind: "None", jsonvalue.BoolKind: "bool", jsonvalue.IntKind: "int", jsonvalue.FloatKind: "float",
		jsonvalue.StringKind: "str", jsonvalue.ArrayKind: "list", jsonvalue.ObjectKind: "dict",
	}
	if p.kind != kinds[v.Kind()] {
		return "a " + v.Kind().String() + " reads back as a " + p.kind
	}
	switch v.Kind() {
	case jsonvalue.BoolKind, jsonvalue.IntKind:
		if p.text != pyvalue.Str(v) {
			return strconv.Quote(pyvalue.Str(v)) + " reads back as " + strconv.Quote(p.text)
		}
	case jsonvalue.FloatKind:
		if math.Float64bits(p.f) != math.Float64bits(v.Float()) && !(math.IsNaN(p.f) && math.IsNaN(v.Float())) {
			return "float " + pyvalue.Str(v) + " reads back as " + strconv.FormatFloat(p.f, 'g', -1, 64)
		}
	case jsonvalue.StringKind:
		if cps, _ := wtf8CodePoints(v.Text()); !slices.Equal(cps, p.str) {
			return strconv.Quote(v.Text()) + " reads back as " + strconv.Quote(string(p.str))
		}
	case jsonvalue.ArrayKind:
		if len(p.elems) != v.Len() {
			return "a list of " + strconv.Itoa(v.Len()) + " reads back with " + strconv.Itoa(len(p.elems))
		}
		for i := range p.elems {
			if msg := samePy(p.elems[i], v.Index(i)); msg != "" {
				return "[" + strconv.Itoa(i) + "]: " + msg
			}
		}
	case jsonvalue.ObjectKind:
		ms := v.Members()
		if len(p.elems) != 2*len(ms) {
			return "a dict of " + strconv.Itoa(len(ms)) + " reads back with " + strconv.Itoa(len(p.elems)/2)
		}
		for i, m := range ms {
			if msg := samePy(p.elems[2*i], jsonvalue.String(m.Key)); msg != "" {
				return "key " + strconv.Itoa(i) + ": " + msg
			}
			if msg := samePy(p.elems[2*i+1], m.Value); msg != "" {
				return m.Key + ": " + msg
			}
		}
	}
	return ""
}

// pyCodePoints decodes s as Python indexes a str: code points, lone
// surrogates included; an invalid byte is U+FFFD, as Go decodes it.
func pyCodePoints(s string) []rune {
	var cps []rune
	for i := 0; i < len(s); {
		if len(s)-i >= 3 && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2]&0xC0 == 0x80 {
			cps = append(cps, 0xD000|rune(s[i+1]&0x3F)<<6|rune(s[i+2]&0x3F))
			i += 3
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		cps = append(cps, r)
		i += n
	}
	return cps
}
