package agenttest_test

// Fuzz targets for the parts of agenttest that read untrusted input or that
// promise properties a score must keep. Each target checks invariants, not
// only the absence of panics. Seeds live in testdata/fuzz/<target>; run one
// with, for example,
//
//	go test -run '^$' -fuzz '^FuzzParseSample$' -fuzztime 60s ./agenttest
//
// FuzzParseValue (parse_test.go) already holds the JSON parser to its
// round trip, and cmd/agentcheck's FuzzRecordSample the loader's fast path
// to its general path; these targets do not repeat them.

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck/agenttest"
)

var valueEqual = cmp.Comparer(agenttest.Equal)

// lineCount is the number of lines of text as an editor numbers them.
func lineCount(text string) int { return strings.Count(text, "\n") + 1 }

// FuzzParseSample: a ragas sample either loads into a valid conversation,
// and then survives being written back out and read again unchanged, or
// fails with a *LoadError on a line of the record, in its file, as its
// sample.
func FuzzParseSample(f *testing.F) {
	f.Fuzz(func(t *testing.T, text string, first uint16) {
		start := int(first)%5000 + 1
		rec := agenttest.Record{File: "data.jsonl", Line: start, Index: 7, Text: text}
		checkReadSamples(t, text)
		s, err := rec.Sample()
		if err != nil {
			var le *agenttest.LoadError
			if !errors.As(err, &le) {
				t.Fatalf("error %v (%T) is not a *LoadError", err, err)
			}
			if le.File != "data.jsonl" || le.Sample != 7 || le.Err == nil {
				t.Fatalf("error %v names file %q, sample %d; want data.jsonl, 7", err, le.File, le.Sample)
			}
			if le.Line < start || le.Line >= start+lineCount(text) {
				t.Fatalf("error %v names line %d, outside the record's lines %d..%d", err, le.Line, start, start+lineCount(text)-1)
			}
			// ParseSample numbers the lines of data from 1.
			_, err2 := agenttest.ParseSample([]byte(text))
			var le2 *agenttest.LoadError
			if !errors.As(err2, &le2) || le2.Line != le.Line-start+1 {
				t.Fatalf("ParseSample error %v, want a *LoadError on line %d like %v", err2, le.Line-start+1, err)
			}
			return
		}
		if err := s.Conversation.Validate(); err != nil {
			t.Fatalf("loaded an invalid conversation: %v", err)
		}
		data := marshalSample(s)
		back, err := agenttest.ParseSample(data)
		if err != nil {
			t.Fatalf("the sample written back does not load: %v\n%s", err, data)
		}
		if diff := cmp.Diff(s, back, valueEqual); diff != "" {
			t.Fatalf("the sample written back loads differently (-loaded +reloaded):\n%s\nwritten: %s", diff, data)
		}
	})
}

// checkReadSamples reads text as a dataset file, as JSON Lines and as
// JSON: every sample it yields is valid, every error is a *LoadError on a
// line of the file, and errors name samples in order.
func checkReadSamples(t *testing.T, text string) {
	t.Helper()
	for _, file := range []string{"data.jsonl", "data.json"} {
		last := -1
		for s, err := range agenttest.ReadSamples(strings.NewReader(text), file) {
			if err != nil {
				var le *agenttest.LoadError
				if !errors.As(err, &le) {
					t.Fatalf("%s: error %v (%T) is not a *LoadError", file, err, err)
				}
				if le.File != file || le.Line < 1 || le.Line > lineCount(text) || le.Sample <= last {
					t.Fatalf("%s: error %v names line %d of %d, sample %d after sample %d", file, err, le.Line, lineCount(text), le.Sample, last)
				}
				last = le.Sample
				continue
			}
			if err := s.Conversation.Validate(); err != nil {
				t.Fatalf("%s: loaded an invalid conversation: %v", file, err)
			}
		}
	}
}

// marshalSample writes s as a ragas MultiTurnSample. A nil list is left
// out and an empty one written, since the two mean different things.
func marshalSample(s agenttest.Sample) []byte {
	b := []byte(`{"user_input": [`)
	for i, m := range s.Conversation {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, `{"type": `...)
		b = appendJSON(b, agenttest.StringOf(string(m.Role)))
		b = append(b, `, "content": `...)
		b = appendJSON(b, agenttest.StringOf(m.Content))
		if m.ToolCalls != nil {
			b = append(b, `, "tool_calls": `...)
			b = appendRagasCalls(b, m.ToolCalls)
		}
		b = append(b, '}')
	}
	b = append(b, ']')
	if s.Reference != "" {
		b = append(b, `, "reference": `...)
		b = appendJSON(b, agenttest.StringOf(s.Reference))
	}
	if s.ReferenceToolCalls != nil {
		b = append(b, `, "reference_tool_calls": `...)
		b = appendRagasCalls(b, s.ReferenceToolCalls)
	}
	if s.ReferenceTopics != nil {
		b = append(b, `, "reference_topics": [`...)
		for i, topic := range s.ReferenceTopics {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendJSON(b, agenttest.StringOf(topic))
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func appendRagasCalls(b []byte, calls []agenttest.ToolCall) []byte {
	b = append(b, '[')
	for i, tc := range calls {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, `{"name": `...)
		b = appendJSON(b, agenttest.StringOf(tc.Name))
		b = append(b, `, "args": `...)
		args := tc.Args
		if args.Kind() == agenttest.Null {
			args = agenttest.ObjectOf()
		}
		b = appendJSON(b, args)
		b = append(b, '}')
	}
	return append(b, ']')
}

func appendJSON(b []byte, v agenttest.Value) []byte {
	out, err := v.MarshalJSON()
	if err != nil {
		panic(err)
	}
	return append(b, out...)
}

// FuzzParseOpenAIMessages: OpenAI messages either load into a valid
// conversation with one message per input message, which survives being
// written back out, or fail with an error that says where: a *MessageError
// on a message (and tool call) that exists, a *SyntaxError where the JSON
// breaks, or, only when the document is not a list of messages at all, an
// error about the document.
func FuzzParseOpenAIMessages(f *testing.F) {
	f.Fuzz(func(t *testing.T, text string) {
		conv, err := agenttest.ParseOpenAIMessages([]byte(text))
		doc, docErr := agenttest.ParseValue([]byte(text))
		msgs := doc
		if doc.Kind() == agenttest.Object {
			msgs, _ = doc.Get("messages")
		}
		if err != nil {
			var me *agenttest.MessageError
			var se *agenttest.SyntaxError
			switch {
			case errors.As(err, &me):
				if docErr != nil || msgs.Kind() != agenttest.Array || me.Message < 0 || me.Message >= msgs.Len() {
					t.Fatalf("error %v names message %d of %d", err, me.Message, msgs.Len())
				}
				calls, _ := msgs.Index(me.Message).Get("tool_calls")
				if me.ToolCall < -1 || me.ToolCall >= calls.Len() {
					t.Fatalf("error %v names tool call %d of %d", err, me.ToolCall, calls.Len())
				}
			case errors.As(err, &se):
				var want *agenttest.SyntaxError
				if !errors.As(docErr, &want) || *se != *want {
					t.Fatalf("error %v, but the document's own syntax error is %v", err, docErr)
				}
				if se.Line < 1 || se.Line > lineCount(text) || se.Column < 1 {
					t.Fatalf("error %v names line %d, column %d of %d lines", err, se.Line, se.Column, lineCount(text))
				}
			default:
				if docErr != nil || msgs.Kind() == agenttest.Array {
					t.Fatalf("error %v (%T) names no message, but the document is a list of messages", err, err)
				}
			}
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if docErr != nil || msgs.Kind() != agenttest.Array || len(conv) != msgs.Len() {
			t.Fatalf("loaded %d messages from a document with %d (parse error %v)", len(conv), msgs.Len(), docErr)
		}
		if err := conv.Validate(); err != nil {
			t.Fatalf("loaded an invalid conversation: %v", err)
		}
		data := marshalOpenAI(conv)
		back, err := agenttest.ParseOpenAIMessages(data)
		if err != nil {
			t.Fatalf("the messages written back do not load: %v\n%s", err, data)
		}
		if diff := cmp.Diff(conv, back, valueEqual); diff != "" {
			t.Fatalf("the messages written back load differently (-loaded +reloaded):\n%s\nwritten: %s", diff, data)
		}
	})
}

var openAIRoles = map[agenttest.Role]string{
	agenttest.Human: "user", agenttest.AI: "assistant", agenttest.Tool: "tool", agenttest.System: "system",
}

// marshalOpenAI writes conv as Chat Completions messages, arguments as JSON
// strings as the API sends them.
func marshalOpenAI(conv agenttest.Conversation) []byte {
	b := []byte{'['}
	for i, m := range conv {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"role":`...)
		b = appendJSON(b, agenttest.StringOf(openAIRoles[m.Role]))
		b = append(b, `,"content":`...)
		b = appendJSON(b, agenttest.StringOf(m.Content))
		if m.ToolCallID != "" {
			b = append(b, `,"tool_call_id":`...)
			b = appendJSON(b, agenttest.StringOf(m.ToolCallID))
		}
		if m.ToolCalls != nil {
			b = append(b, `,"tool_calls":[`...)
			for j, tc := range m.ToolCalls {
				if j > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"id":`...)
				b = appendJSON(b, agenttest.StringOf(tc.ID))
				b = append(b, `,"type":"function","function":{"name":`...)
				b = appendJSON(b, agenttest.StringOf(tc.Name))
				b = append(b, `,"arguments":`...)
				args := tc.Args
				if args.Kind() == agenttest.Null {
					args = agenttest.ObjectOf()
				}
				b = appendJSON(b, agenttest.StringOf(string(appendJSON(nil, args))))
				b = append(b, "}}"...)
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// FuzzPythonFloat: str() of a float is Python's repr: the shortest text
// that reads back as the same float, with a point or an exponent, in
// exponent form exactly when the decimal exponent is outside [-4, 16); and
// the float survives JSON.
func FuzzPythonFloat(f *testing.F) {
	f.Fuzz(func(t *testing.T, bits uint64) {
		x := math.Float64frombits(bits)
		v := agenttest.FloatOf(x)
		s := v.String()
		if r := v.Repr(); r != s {
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
		back, err := agenttest.ParseValue(out)
		if err != nil || back.Kind() != agenttest.Float || !agenttest.Equal(back, v) {
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
		v := agenttest.StringOf(s)
		if v.String() != s {
			t.Fatalf("str(%q) = %q", s, v.String())
		}
		r := v.Repr()
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
			if back, err := agenttest.ParseValue(out); err != nil || !agenttest.Equal(back, v) {
				t.Fatalf("%q as JSON is %s, which reads back as %v (%v)", s, out, back, err)
			}
		}
		if doc, err := agenttest.ParseValue([]byte(s)); err == nil {
			r := doc.Repr()
			got, rest, err := readPyLiteral(r)
			if err != nil || strings.TrimSpace(rest) != "" {
				t.Fatalf("repr of %s is %q, not a Python literal: %v (rest %q)", s, r, err, rest)
			}
			if msg := samePy(got, doc); msg != "" {
				t.Fatalf("repr of %s is %q: %s", s, r, msg)
			}
			if doc.Kind() != agenttest.String && doc.String() != r {
				t.Fatalf("str of %s is %q, repr %q: they differ only for strings", s, doc.String(), r)
			}
		}
	})
}

// wtf8CodePoints decodes UTF-8 extended with encoded lone surrogates, as
// agenttest keeps Python's strings; ok is false for anything else.
func wtf8CodePoints(s string) (cps []rune, ok bool) {
	for i := 0; i < len(s); {
		if len(s)-i >= 3 && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2]&0xC0 == 0x80 {
			cps = append(cps, 0xD000|rune(s[i+1]&0x3F)<<6|rune(s[i+2]&0x3F))
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
func samePy(p pyValue, v agenttest.Value) string {
	kinds := map[agenttest.Kind]string{
		agenttest.Null: "None", agenttest.Bool: "bool", agenttest.Int: "int", agenttest.Float: "float",
		agenttest.String: "str", agenttest.Array: "list", agenttest.Object: "dict",
	}
	if p.kind != kinds[v.Kind()] {
		return "a " + v.Kind().String() + " reads back as a " + p.kind
	}
	switch v.Kind() {
	case agenttest.Bool, agenttest.Int:
		if p.text != v.String() {
			return strconv.Quote(v.String()) + " reads back as " + strconv.Quote(p.text)
		}
	case agenttest.Float:
		if math.Float64bits(p.f) != math.Float64bits(v.Float()) && !(math.IsNaN(p.f) && math.IsNaN(v.Float())) {
			return "float " + v.String() + " reads back as " + strconv.FormatFloat(p.f, 'g', -1, 64)
		}
	case agenttest.String:
		if cps, _ := wtf8CodePoints(v.Text()); !slices.Equal(cps, p.str) {
			return strconv.Quote(v.Text()) + " reads back as " + strconv.Quote(string(p.str))
		}
	case agenttest.Array:
		if len(p.elems) != v.Len() {
			return "a list of " + strconv.Itoa(v.Len()) + " reads back with " + strconv.Itoa(len(p.elems))
		}
		for i := range p.elems {
			if msg := samePy(p.elems[i], v.Index(i)); msg != "" {
				return "[" + strconv.Itoa(i) + "]: " + msg
			}
		}
	case agenttest.Object:
		ms := v.Members()
		if len(p.elems) != 2*len(ms) {
			return "a dict of " + strconv.Itoa(len(ms)) + " reads back with " + strconv.Itoa(len(p.elems)/2)
		}
		for i, m := range ms {
			if msg := samePy(p.elems[2*i], agenttest.StringOf(m.Key)); msg != "" {
				return "key " + strconv.Itoa(i) + ": " + msg
			}
			if msg := samePy(p.elems[2*i+1], m.Value); msg != "" {
				return m.Key + ": " + msg
			}
		}
	}
	return ""
}

var similarities = []agenttest.StringSimilarity{agenttest.Exact, agenttest.Levenshtein, agenttest.Hamming, agenttest.Jaro, agenttest.JaroWinkler}

// FuzzStringSimilarity: every similarity scores in [0, 1], a text against
// itself exactly 1; Exact is 1 exactly for equal texts, and Levenshtein,
// Hamming and Jaro exactly for equal code points; Levenshtein, Hamming,
// Jaro and Jaro-Winkler are symmetric; and Levenshtein, Hamming and Jaro
// agree with plain textbook implementations, with none of the shortcuts.
func FuzzStringSimilarity(f *testing.F) {
	f.Fuzz(func(t *testing.T, a, b string) {
		ca, cb := pyCodePoints(a), pyCodePoints(b)
		for _, sim := range similarities {
			x := sim.Score(a, b)
			if !(x >= 0 && x <= 1) {
				t.Fatalf("%s(%q, %q) = %v, outside [0, 1]", sim, a, b, x)
			}
			if sim.Score(a, a) != 1 || sim.Score(b, b) != 1 {
				t.Fatalf("%s of %q or %q against itself is not 1", sim, a, b)
			}
			if sim != agenttest.Exact {
				if y := sim.Score(b, a); y != x {
					t.Fatalf("%s(%q, %q) = %v but %s(%q, %q) = %v", sim, a, b, x, sim, b, a, y)
				}
			}
			equal := slices.Equal(ca, cb)
			var want float64
			switch sim {
			case agenttest.Exact:
				equal = a == b
				want = map[bool]float64{true: 1, false: 0}[equal]
			case agenttest.Levenshtein:
				if longest := max(len(ca), len(cb)); longest > 0 {
					want = 1 - float64(plainLevenshtein(ca, cb))/float64(longest)
				} else {
					want = 1
				}
			case agenttest.Hamming:
				want = plainHamming(ca, cb)
			case agenttest.Jaro:
				want = 1 - (1 - plainJaro(ca, cb))
			case agenttest.JaroWinkler:
				want = x
				if x == 1 && !equal {
					// Possible for very long texts only: the prefix bonus
					// cannot round up to 1 below that.
					if min(len(ca), len(cb)) < 1000 {
						t.Fatalf("%s(%q, %q) = 1 for different texts", sim, a, b)
					}
				}
				equal = x == 1
			}
			if x != want {
				t.Fatalf("%s(%q, %q) = %v, the plain implementation gives %v", sim, a, b, x, want)
			}
			if (x == 1) != equal {
				t.Fatalf("%s(%q, %q) = %v, but the texts are equal: %v", sim, a, b, x, equal)
			}
		}
	})
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

func plainLevenshtein(a, b []rune) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
		}
	}
	return d[len(a)][len(b)]
}

// plainHamming is 1 - rapidfuzz's normalized padded Hamming distance.
func plainHamming(a, b []rune) float64 {
	longest := max(len(a), len(b))
	if longest == 0 {
		return 1
	}
	dist := 0
	for i := range longest {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			dist++
		}
	}
	return 1 - float64(dist)/float64(longest)
}

// plainJaro is the Jaro similarity as rapidfuzz defines it: characters
// match within max(len)/2 - 1 positions, each reference character taken by
// the first unmatched one in the window, transpositions halved.
func plainJaro(p, t []rune) float64 {
	if len(p) == 0 && len(t) == 0 {
		return 1
	}
	if len(p) == 0 || len(t) == 0 {
		return 0
	}
	if len(p) == 1 && len(t) == 1 {
		return map[bool]float64{true: 1, false: 0}[p[0] == t[0]]
	}
	bound := max(len(p), len(t))/2 - 1
	pm, tm := make([]bool, len(p)), make([]bool, len(t))
	m := 0
	for j := range t {
		for i := max(0, j-bound); i < min(len(p), j+bound+1); i++ {
			if !pm[i] && p[i] == t[j] {
				pm[i], tm[j] = true, true
				m++
				break
			}
		}
	}
	if m == 0 {
		return 0
	}
	var ps, ts []rune
	for i := range p {
		if pm[i] {
			ps = append(ps, p[i])
		}
	}
	for j := range t {
		if tm[j] {
			ts = append(ts, t[j])
		}
	}
	trans := 0
	for i := range ps {
		if ps[i] != ts[i] {
			trans++
		}
	}
	mf := float64(m)
	return (mf/float64(len(p)) + mf/float64(len(t)) + (mf-float64(trans/2))/mf) / 3.0
}

// byteSource turns fuzz bytes into choices; past the end every choice is 0.
type byteSource []byte

func (s *byteSource) intn(n int) int {
	if len(*s) == 0 {
		return 0
	}
	c := (*s)[0]
	*s = (*s)[1:]
	return int(c) % n
}

// metricValues are argument values that collide in the ways the metrics
// care about: 1, 1.0, true and "1" under str() and ==, NaN, big numbers.
var metricValues = []string{
	`1`, `1.0`, `true`, `"1"`, `"one"`, `null`, `[1]`, `[1.0]`, `{"k": 1}`, `{"k": 1.0, "j": "x"}`,
	`2`, `0.5`, `"True"`, `NaN`, `-0.0`, `0`, `false`, `"None"`, `1e16`, `12345678901234567890`,
	`"é"`, `"\ud800"`, `"on"`, `""`, `[]`, `{}`,
}

// genCalls reads up to max calls of a few tools with a few arguments from
// s; the small alphabets make equal and nearly equal calls common.
func genCalls(s *byteSource, most int) []agenttest.ToolCall {
	n := s.intn(most + 1)
	calls := make([]agenttest.ToolCall, n)
	for i := range calls {
		tc := agenttest.ToolCall{Name: []string{"search", "book", "a", "b"}[s.intn(4)]}
		if nargs := s.intn(5); nargs > 0 {
			var members []string
			used := map[string]bool{}
			for range nargs - 1 {
				key := []string{"x", "y", "z", "é", ""}[s.intn(5)]
				if used[key] {
					continue
				}
				used[key] = true
				members = append(members, strconv.Quote(key)+": "+metricValues[s.intn(len(metricValues))])
			}
			tc.Args = agenttest.MustParseValue("{" + strings.Join(members, ", ") + "}")
		}
		calls[i] = tc
	}
	return calls
}

func permuted[T any](r *rand.Rand, xs []T) []T {
	out := make([]T, len(xs))
	for i, j := range r.Perm(len(xs)) {
		out[i] = xs[j]
	}
	return out
}

func hasNaN(v agenttest.Value) bool {
	switch v.Kind() {
	case agenttest.Float:
		return math.IsNaN(v.Float())
	case agenttest.Array:
		for i := range v.Len() {
			if hasNaN(v.Index(i)) {
				return true
			}
		}
	case agenttest.Object:
		for _, m := range v.Members() {
			if hasNaN(m.Value) {
				return true
			}
		}
	}
	return false
}

func callsHaveNaN(calls []agenttest.ToolCall) bool {
	return slices.ContainsFunc(calls, func(tc agenttest.ToolCall) bool { return hasNaN(tc.Args) })
}

// checkResult holds a metric's result to what every result promises: a
// score in [0, 1], every call in Pairs exactly once, an explanation.
func checkResult(t *testing.T, what string, r agenttest.Result, pred, ref []agenttest.ToolCall) {
	t.Helper()
	if !(r.Score >= 0 && r.Score <= 1) {
		t.Fatalf("%s = %v, outside [0, 1]", what, r.Score)
	}
	seenP, seenR := make([]int, len(pred)), make([]int, len(ref))
	for _, p := range r.Pairs {
		if p.Predicted < -1 || p.Predicted >= len(pred) || p.Reference < -1 || p.Reference >= len(ref) || p.Predicted < 0 && p.Reference < 0 {
			t.Fatalf("%s: pair %+v out of range (%d predicted, %d reference)", what, p, len(pred), len(ref))
		}
		if p.Predicted >= 0 {
			seenP[p.Predicted]++
		}
		if p.Reference >= 0 {
			seenR[p.Reference]++
		}
		if !(p.Score >= 0 && p.Score <= 1) {
			t.Fatalf("%s: pair %+v scores outside [0, 1]", what, p)
		}
	}
	if slices.ContainsFunc(seenP, func(n int) bool { return n != 1 }) || slices.ContainsFunc(seenR, func(n int) bool { return n != 1 }) {
		t.Fatalf("%s: pairs %+v do not hold each call once (predicted %v, reference %v)", what, r.Pairs, seenP, seenR)
	}
	if r.Score < 1 && r.Explain(pred, ref) == "" {
		t.Fatalf("%s = %v with no explanation", what, r.Score)
	}
}

// FuzzToolCallMetrics: ToolCallAccuracy, ToolCallF1 and ToolCallMatch
// score in [0, 1] with well-formed pairs; the any-order scores do not
// depend on the order of either list; a list against itself scores 1
// (ToolCallF1: unless empty, then 0).
func FuzzToolCallMetrics(f *testing.F) {
	f.Fuzz(func(t *testing.T, spec []byte, seed uint64) {
		src := byteSource(spec)
		pred, ref := genCalls(&src, 6), genCalls(&src, 6)
		threshold := float64(src.intn(11)) / 10
		r := rand.New(rand.NewPCG(seed, seed>>32))
		pred2, ref2 := permuted(r, pred), permuted(r, ref)

		for _, sim := range similarities {
			for _, anyOrder := range []bool{false, true} {
				m := agenttest.ToolCallAccuracy{AnyOrder: anyOrder, ArgSimilarity: sim}
				what := m.Name() + "(" + sim.String() + ", any order " + strconv.FormatBool(anyOrder) + ")"
				res := m.Compare(pred, ref)
				checkResult(t, what, res, pred, ref)
				if self := m.Compare(pred, pred); self.Score != 1 {
					t.Fatalf("%s of %v against itself = %v", what, pred, self.Score)
				}
				if !anyOrder {
					continue
				}
				// Summing argument scores in another order may change the
				// last bit; exact comparison sums whole numbers.
				res2 := m.Compare(pred2, ref2)
				if d := math.Abs(res2.Score - res.Score); d > 1e-12 || sim == agenttest.Exact && d != 0 {
					t.Fatalf("%s = %v for %v against %v, but %v after permuting them to %v against %v", what, res.Score, pred, ref, res2.Score, pred2, ref2)
				}
			}
		}

		f1 := agenttest.ToolCallF1{}
		res := f1.Compare(pred, ref)
		checkResult(t, "tool_call_f1", res, pred, ref)
		if res2 := f1.Compare(pred2, ref2); res2.Score != res.Score {
			t.Fatalf("tool_call_f1 = %v for %v against %v, but %v for %v against %v", res.Score, pred, ref, res2.Score, pred2, ref2)
		}
		if self, want := f1.Compare(pred, pred).Score, float64(min(len(pred), 1)); self != want {
			t.Fatalf("tool_call_f1 of %v against itself = %v, want %v", pred, self, want)
		}

		for _, mode := range []agenttest.MatchMode{agenttest.StrictMatch, agenttest.FlexibleMatch} {
			for _, inOrder := range []bool{false, true} {
				m := agenttest.ToolCallMatch{Mode: mode, InOrder: inOrder, ArgumentMatchThreshold: threshold}
				what := m.Name() + "(" + mode.String() + ", in order " + strconv.FormatBool(inOrder) + ")"
				res := m.Compare(pred, ref)
				checkResult(t, what, res, pred, ref)
				mr := m.Match(pred, ref)
				if mr.F1 != res.Score || mr.Matched > min(len(pred), len(ref)) {
					t.Fatalf("%s: Match gives F1 %v with %d matched, Compare %v", what, mr.F1, mr.Matched, res.Score)
				}
				// NaN equals nothing, itself included.
				if !callsHaveNaN(pred) {
					if self := m.Compare(pred, pred); self.Score != 1 {
						t.Fatalf("%s of %v against itself = %v", what, pred, self.Score)
					}
				}
				if inOrder {
					continue
				}
				mr2 := m.Match(pred2, ref2)
				if mr2.Matched != mr.Matched || mr2.F1 != mr.F1 {
					t.Fatalf("%s matched %d (F1 %v) of %v against %v, but %d (F1 %v) after permuting them to %v against %v",
						what, mr.Matched, mr.F1, pred, ref, mr2.Matched, mr2.F1, pred2, ref2)
				}
			}
		}
	})
}

// genValue reads a JSON value from s: every kind, nested up to depth,
// numbers that are equal across kinds, big, negative zero, and strings
// with quotes, escapes and lone surrogates.
func genValue(s *byteSource, depth int) agenttest.Value {
	kinds := 9
	if depth <= 0 {
		kinds = 7
	}
	switch s.intn(kinds) {
	case 0:
		return agenttest.NullValue()
	case 1:
		return agenttest.BoolOf(s.intn(2) == 1)
	case 2:
		return agenttest.IntOf(int64(s.intn(256)) - 128)
	case 3:
		return agenttest.MustParseValue([]string{"1e400", "-0.0", "0.1", "2.0", "1e16", "-1e-05", "98765432109876543210", "-98765432109876543210", "3.5"}[s.intn(9)])
	case 4:
		return agenttest.FloatOf(float64(s.intn(256)-128) / 4)
	case 5, 6:
		return agenttest.StringOf([]string{"", "x", "Paris", "1", "True", "it's", `say "hi"`, "\\", "é\n", "\xed\xa0\x80", "a b", "null"}[s.intn(12)])
	case 7:
		items := make([]agenttest.Value, s.intn(4))
		for i := range items {
			items[i] = genValue(s, depth-1)
		}
		return agenttest.ArrayOf(items...)
	}
	return genObject(s, depth-1)
}

func genObject(s *byteSource, depth int) agenttest.Value {
	var members []agenttest.Member
	used := map[string]bool{}
	for range s.intn(5) {
		key := []string{"city", "date", "n", "x", "é", "", "a.b", "with space"}[s.intn(8)]
		if !used[key] {
			used[key] = true
			members = append(members, agenttest.Member{Key: key, Value: genValue(s, depth)})
		}
	}
	return agenttest.ObjectOf(members...)
}

// genActual reads calls with arguments of every shape, some without any.
func genActual(s *byteSource, most int) []agenttest.ToolCall {
	calls := make([]agenttest.ToolCall, s.intn(most+1))
	for i := range calls {
		calls[i] = genCall(s)
	}
	return calls
}

func genCall(s *byteSource) agenttest.ToolCall {
	tc := agenttest.ToolCall{Name: []string{"search", "book", "cancel"}[s.intn(3)]}
	if s.intn(5) > 0 {
		tc.Args = genObject(s, 2)
	}
	return tc
}

// expectFrom expects exactly tc: its own arguments as literal Go values.
func expectFrom(tc agenttest.ToolCall) agenttest.ExpectedCall {
	if tc.Args.Kind() == agenttest.Null {
		return agenttest.CallTo(tc.Name).WithNoArgs()
	}
	return agenttest.CallTo(tc.Name).With(agenttest.Args(tc.Args.Interface().(map[string]any)))
}

// loosen rewrites an expectation built from tc so that it still accepts
// tc: an argument becomes a matcher that accepts its value, is ignored, or
// is dropped with extra arguments allowed.
func loosen(s *byteSource, tc agenttest.ToolCall) agenttest.ExpectedCall {
	keys := tc.Args.Keys()
	if len(keys) == 0 {
		return agenttest.CallTo(tc.Name)
	}
	args := agenttest.Args(tc.Args.Interface().(map[string]any))
	key := keys[s.intn(len(keys))]
	v, _ := tc.Args.Get(key)
	e := agenttest.CallTo(tc.Name)
	switch s.intn(5) {
	case 0:
		args[key] = agenttest.Anything()
	case 1:
		args[key] = agenttest.OneOf("no such value", v.Interface())
	case 2:
		if k := v.Kind(); k == agenttest.Int || k == agenttest.Float {
			args[key] = agenttest.Approx(v.Float(), 0)
		}
	case 3:
		e = e.Ignoring(key)
		args[key] = "ignored anyway"
	default:
		delete(args, key)
		e = e.AllowingExtraArgs()
	}
	return e.With(args)
}

// genExpected reads expectations that may or may not be met by actual:
// exact copies of actual calls, loosened ones, ones with a changed
// argument, a changed tool or any arguments.
func genExpected(s *byteSource, actual []agenttest.ToolCall, most int) []agenttest.ExpectedCall {
	exp := make([]agenttest.ExpectedCall, s.intn(most+1))
	for i := range exp {
		var tc agenttest.ToolCall
		if len(actual) > 0 && s.intn(4) > 0 {
			tc = actual[s.intn(len(actual))]
		} else {
			tc = genCall(s)
		}
		switch s.intn(5) {
		case 0:
			exp[i] = loosen(s, tc)
		case 1:
			args := agenttest.Args{}
			if tc.Args.Kind() == agenttest.Object {
				args = agenttest.Args(tc.Args.Interface().(map[string]any))
			}
			args["n"] = s.intn(3)
			exp[i] = agenttest.CallTo(tc.Name).With(args)
		case 2:
			exp[i] = agenttest.CallTo([]string{"search", "book", "refund"}[s.intn(3)])
		default:
			exp[i] = expectFrom(tc)
		}
	}
	return exp
}

// checkReport: a report always says something; a failing one says what
// was expected and, when it has calls to list, lists them.
func checkReport(t *testing.T, what string, r agenttest.ToolCallsReport, listed int) {
	t.Helper()
	if r.String() == "" {
		t.Fatalf("%s: empty report", what)
	}
	if r.OK() {
		return
	}
	if !strings.HasPrefix(r.String(), "Expected") {
		t.Fatalf("%s: a failure that does not say what was expected: %s", what, r)
	}
	if listed > 0 && r.Diff() == "" {
		t.Fatalf("%s: failed with only a headline, %d calls unlisted: %s", what, listed, r)
	}
}

// FuzzCheckToolCalls: an expectation built from a call's own arguments,
// or loosened with matchers, matches the call in every order; the calls'
// own expectations match them exactly, a subsequence of them in order, a
// shuffle of them in any order; an AnyOrder verdict does not depend on the
// order of either list; Exactly implies InOrder implies AnyOrder; and a
// report always says something, with a diff when it fails.
func FuzzCheckToolCalls(f *testing.F) {
	f.Fuzz(func(t *testing.T, spec []byte, seed uint64) {
		src := byteSource(spec)
		actual := genActual(&src, 5)
		r := rand.New(rand.NewPCG(seed, seed>>32))
		orders := []agenttest.Order{agenttest.Exactly, agenttest.InOrder, agenttest.AnyOrder}

		// NaN is not equal to itself, so a call with a NaN argument is not
		// expected by a copy of itself; the generators make none.
		var own []agenttest.ExpectedCall
		for _, tc := range actual {
			for _, e := range []agenttest.ExpectedCall{expectFrom(tc), loosen(&src, tc)} {
				if !e.Matches(tc) {
					t.Fatalf("%s does not match the call %s it was built from:\n%s", e, tc, agenttest.CheckToolCalls([]agenttest.ToolCall{tc}, agenttest.Exactly, e))
				}
				for _, o := range orders {
					if rep := agenttest.CheckToolCalls([]agenttest.ToolCall{tc}, o, e); !rep.OK() {
						t.Fatalf("%s, %s: %s does not match the call %s it was built from:\n%s", o, e, e, tc, rep)
					}
				}
			}
			own = append(own, expectFrom(tc))
		}
		for _, o := range orders {
			if rep := agenttest.CheckToolCalls(actual, o, own...); !rep.OK() {
				t.Fatalf("%s: the calls' own expectations fail:\n%s", o, rep)
			}
		}
		var sub []agenttest.ExpectedCall
		for _, e := range own {
			if r.IntN(2) == 0 {
				sub = append(sub, e)
			}
		}
		if rep := agenttest.CheckToolCalls(actual, agenttest.InOrder, sub...); !rep.OK() {
			t.Fatalf("InOrder: a subsequence of the calls' own expectations fails:\n%s", rep)
		}
		if rep := agenttest.CheckToolCalls(actual, agenttest.AnyOrder, permuted(r, sub)...); !rep.OK() {
			t.Fatalf("AnyOrder: a shuffled subset of the calls' own expectations fails:\n%s", rep)
		}

		expected := genExpected(&src, actual, 5)
		var ok [3]bool
		for i, o := range orders {
			rep := agenttest.CheckToolCalls(actual, o, expected...)
			checkReport(t, o.String(), rep, len(actual)+len(expected))
			ok[i] = rep.OK()
		}
		if ok[0] && !ok[1] || ok[1] && !ok[2] {
			t.Fatalf("Exactly %v, InOrder %v, AnyOrder %v for %v against %v", ok[0], ok[1], ok[2], expected, actual)
		}
		actual2, expected2 := permuted(r, actual), permuted(r, expected)
		rep2 := agenttest.CheckToolCalls(actual2, agenttest.AnyOrder, expected2...)
		checkReport(t, "AnyOrder, permuted", rep2, len(actual)+len(expected))
		if rep2.OK() != ok[2] {
			t.Fatalf("AnyOrder is %v for %v against %v but %v after permuting them:\n%s", ok[2], expected, actual, rep2.OK(), rep2)
		}

		for _, e := range expected {
			n := agenttest.CountCalls(actual, e)
			for _, times := range []int{-1, 0, n, n + 1} {
				rep := agenttest.CheckCalled(actual, e, times)
				checkReport(t, "CheckCalled", rep, len(actual))
				want := times == n || times < 0 && n > 0
				if rep.OK() != want {
					t.Fatalf("CheckCalled(%s, %d) = %v with %d matching calls:\n%s", e, times, rep.OK(), n, rep)
				}
			}
		}
	})
}
