package agentcheck

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/jsonvalue"
)

// checkSpacedAs fails t when spacedAs says rest starts with src written
// with other space, and the text it names is not the same value as src,
// written the same but for space (its canonical form, number spellings
// and all).
func checkSpacedAs(t *testing.T, src, rest string) int {
	t.Helper()
	n := spacedAs(src, rest)
	if n == 0 {
		return 0
	}
	if q := strings.IndexByte(src, '"'); q > 0 && src[q-1] == '\\' {
		src = strings.ReplaceAll(src, `\"`, `"`) // written escaped, as a string holds it
	}
	a, err := jsonvalue.Parse([]byte(src))
	if err != nil || a.Kind() != jsonvalue.ObjectKind {
		return n // spacedAs is asked only of objects read
	}
	b, err := jsonvalue.Parse([]byte(rest[:n]))
	if err != nil {
		t.Fatalf("spacedAs(%q, %q) = %d, but %q is no JSON: %v", src, rest, n, rest[:n], err)
	}
	if a.Canonical() != b.Canonical() || strings.Join(strings.Fields(tokens(src)), "") != strings.Join(strings.Fields(tokens(rest[:n])), "") {
		t.Fatalf("spacedAs(%q, %q) = %d, but %q is another value", src, rest, n, rest[:n])
	}
	return n
}

// tokens is text with the space outside strings taken out.
func tokens(text string) string {
	var b strings.Builder
	in := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case in && c == '\\' && i+1 < len(text):
			b.WriteByte(c)
			i++
			c = text[i]
		case c == '"':
			in = !in
		case !in && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// randomArgs writes a random object of arguments, with random space
// where JSON allows it.
func randomArgs(r *rand.Rand, depth int) string {
	sp := func() string { return []string{"", "", " ", "\n  ", "\t"}[r.IntN(5)] }
	var value func(d int) string
	value = func(d int) string {
		switch k := r.IntN(9); {
		case k == 0 && d < 3:
			var items []string
			for range r.IntN(3) {
				items = append(items, sp()+value(d+1)+sp())
			}
			return "[" + strings.Join(items, ",") + "]"
		case k == 1 && d < 3:
			return obj(r, d+1, value, sp)
		case k == 2:
			return []string{"1", "12", "1.0", "1e3", "-0", "NaN", "901.88"}[r.IntN(7)]
		case k == 3:
			return []string{"true", "false", "null"}[r.IntN(3)]
		default:
			return `"` + []string{"EUR", "a b", `a\"b`, `\u00e9`, "", " x ", `\\`}[r.IntN(7)] + `"`
		}
	}
	return obj(r, depth, value, sp)
}

func obj(r *rand.Rand, d int, value func(int) string, sp func() string) string {
	var members []string
	for k := range r.IntN(4) + 1 {
		members = append(members, sp()+`"`+[]string{"amount", "to", "a b", "k"}[k%4]+`"`+sp()+":"+sp()+value(d)+sp())
	}
	return "{" + strings.Join(members, ",") + "}"
}

// spacedAs finds an object written with other space between its tokens,
// and nothing else: a byte changed, or space put within a number, a
// literal or a string, and it finds no match, or one that is the same
// value.
func TestSpacedAs(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 27))
	found, escaped := 0, 0
	for range 3000 {
		src := randomArgs(r, 0)
		if _, err := jsonvalue.Parse([]byte(src)); err != nil {
			continue
		}
		// The same tokens, spaced anew.
		respaced := respace(r, src)
		tail := []string{"", "}", ", {\"name\": 1}", "]"}[r.IntN(4)]
		if n := checkSpacedAs(t, src, respaced+tail); n < len(strings.TrimRight(respaced, " \t\n")) {
			t.Fatalf("spacedAs(%q, %q) = %d, want the whole of %q", src, respaced+tail, n, respaced)
		} else {
			found++
		}
		// A byte changed or put in anywhere.
		b := []byte(respaced)
		i := r.IntN(len(b))
		switch r.IntN(3) {
		case 0:
			const bytes = "0123456789 ,:{}[]\"ab\\eE.-"
			b[i] = bytes[r.IntN(len(bytes))]
		case 1:
			b = append(b[:i], append([]byte{" \t1\"}"[r.IntN(5)]}, b[i:]...)...)
		default:
			b = append(b[:i], b[i+1:]...)
		}
		checkSpacedAs(t, src, string(b)+tail)
		// The same object written escaped, as a string holds it.
		if !strings.Contains(src, `\`) {
			esc := strings.ReplaceAll(src, `"`, `\"`)
			if n := checkSpacedAs(t, esc, respaced+tail); n < len(strings.TrimRight(respaced, " \t\n")) {
				t.Fatalf("spacedAs(%q, %q) = %d, want the whole of %q", esc, respaced+tail, n, respaced)
			}
			checkSpacedAs(t, esc, string(b)+tail)
			escaped++
		}
	}
	if escaped < 300 {
		t.Errorf("only %d objects of 3000 were tried escaped", escaped)
	}
	if found < 1000 {
		t.Errorf("only %d objects of 3000 were found respaced", found)
	}
	for _, c := range []struct{ src, rest string }{
		{`{"a":12}`, `{"a":1 2}`},
		{`{"a":true}`, `{"a":tr ue}`},
		{`{"a":"x y"}`, `{"a":"x  y"}`},
		{`{"a":"x"}`, `{"a":" x"}`},
		{`{"a":1.0}`, `{"a":1}`},
		{`{"a":[1,2]}`, `{"a":[1,2,3]}`},
		{`{"a":"\""}`, `{"a":"\\"}`},
		{`{\"a\":12}`, `{"a":1 2}`},
		{`{\"a\":\"x\"}`, `{"a":"x\""}`},
		{`{\"a\":\"x\"}`, `{\"a\":\"x\"}`},
		{`{"a":1}`, ` {"a":1}`}, // the text starts where rest does
		{`{\"a\":1}`, `	{"a":1}`},
		{`{"a":"x\"y"}`, `{"a":"x\"y }`},
	} {
		if n := spacedAs(c.src, c.rest); n != 0 {
			t.Errorf("spacedAs(%q, %q) = %d, want none", c.src, c.rest, n)
		}
	}
	for _, src := range []string{`{"amount": 901.88, "to": "GBP"}`, `{\"amount\": 901.88, \"to\": \"GBP\"}`} {
		if n := spacedAs(src, `{"amount":901.88,"to":"GBP"}]}`); n != len(`{"amount":901.88,"to":"GBP"}`) {
			t.Errorf("spacedAs of the OpenAI spacing %s against ragas's = %d", src, n)
		}
	}
}

// respace writes src's tokens with random space between them.
func respace(r *rand.Rand, src string) string {
	var b strings.Builder
	in := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		if !in && (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			continue
		}
		if in && c == '\\' {
			b.WriteByte(c)
			i++
			b.WriteByte(src[i])
			continue
		}
		if c == '"' {
			in = !in
		}
		b.WriteByte(c)
		if !in && strings.IndexByte("{[,:}]\"", c) >= 0 && r.IntN(3) == 0 {
			b.WriteString([]string{" ", "\n", "\t ", "  "}[r.IntN(4)])
		}
	}
	return b.String()
}

// FuzzSpacedAs: whatever spacedAs matches is src's value, written the
// same but for space.
func FuzzSpacedAs(f *testing.F) {
	f.Add(`{"amount": 901.88, "to": "GBP"}`, `{"amount":901.88,"to":"GBP"}`)
	f.Add(`{"a":12}`, `{"a":1 2}`)
	f.Add(`{"a":"\"x"}`, `{ "a" : "\"x" }`)
	f.Fuzz(func(t *testing.T, src, rest string) {
		if v, err := jsonvalue.Parse([]byte(src)); err != nil || v.Kind() != jsonvalue.ObjectKind || v.Source() != strings.Trim(src, " \t\r\n") {
			return
		}
		src = strings.Trim(src, " \t\r\n")
		checkSpacedAs(t, src, rest)
		if !strings.Contains(src, `\`) {
			checkSpacedAs(t, strings.ReplaceAll(src, `"`, `\"`), rest)
		}
	})
}
