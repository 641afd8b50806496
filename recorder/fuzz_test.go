package recorder

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"math/rand/v2"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentcheck/agentcheck/jsonvalue"
)

// FuzzRequestKey holds the cassette's request key, what a replayed request
// is looked up by, to what makes it a key:
//   - it is a fixed point: the key of a request whose body is the key's
//     canonical body is the key itself;
//   - a valid JSON body keeps its meaning: its canonical form decodes to
//     what the body decodes to;
//   - two bodies that encoding/json decodes to the same value (numbers by
//     kind, int or float literal, and exact value) have the same key,
//     however they are spaced, ordered and escaped;
//   - a body that differs in a value has another key;
//   - a body that is not JSON is kept byte for byte;
//   - the order of query parameters does not matter, their values do.
//
// Run it with go test -run '^$' -fuzz '^FuzzRequestKey$' ./recorder.
func FuzzRequestKey(f *testing.F) {
	const target = "http://127.0.0.1:9/v1/chat/completions"
	const prefix = "POST /chat/completions\n\n"
	f.Fuzz(func(t *testing.T, body, query string, seed uint64) {
		key := requestKey("POST", target, []byte(body))
		if !strings.HasPrefix(key, prefix) {
			t.Fatalf("key %q does not start with the route and an empty query", key)
		}
		canon := key[len(prefix):]
		if again := requestKey("POST", target, []byte(canon)); again != key {
			t.Fatalf("the key of body %q is %q, but the key of its canonical body is %q", body, key, again)
		}
		if _, ok := appendCanonicalJSON(nil, []byte(body)); !ok && canon != body {
			t.Fatalf("body %q is not JSON but its key holds %q", body, canon)
		}
		r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		if json.Valid([]byte(body)) && readAlike(body) {
			checkJSONKey(t, r, target, body, key)
		}
		checkQueryKey(t, r, query)
	})
}

func checkJSONKey(t *testing.T, r *rand.Rand, target, body, key string) {
	t.Helper()
	want := decodeNumbers(t, body)
	canon := key[strings.Index(key, "\n\n")+2:]
	if !json.Valid([]byte(canon)) {
		t.Fatalf("body %q has the canonical form %q, which is not JSON", body, canon)
	}
	if got := decodeNumbers(t, canon); !sameMeaning(got, want) {
		t.Fatalf("body %q has the canonical form %q, which means %#v, not %#v", body, canon, got, want)
	}
	tree := readTree(t, body)
	variant := string(tree.format(nil, r))
	if got := decodeNumbers(t, variant); !sameMeaning(got, want) {
		t.Fatalf("test bug: variant %q of %q means something else", variant, body)
	}
	if vkey := requestKey("POST", target, []byte(variant)); vkey != key {
		t.Fatalf("the same JSON, two keys:\nbody    %q\nkey     %q\nvariant %q\nkey     %q", body, key, variant, vkey)
	}
	leaves := tree.leaves(nil)
	if len(leaves) == 0 {
		return
	}
	leaf := leaves[r.IntN(len(leaves))]
	old := *leaf
	leaf.change()
	changed := string(tree.format(nil, r))
	*leaf = old
	if sameMeaning(decodeNumbers(t, changed), want) {
		return // the changed value was under a repeated key, which the last one overrides
	}
	if ckey := requestKey("POST", target, []byte(changed)); ckey == key {
		t.Fatalf("bodies that differ in a value have the same key:\n%q\n%q\nkey %q", body, changed, key)
	}
}

// checkQueryKey: parameters in another order, each name's values in their
// order, give the same key; another value gives another key.
func checkQueryKey(t *testing.T, r *rand.Rand, query string) {
	t.Helper()
	q, err := url.ParseQuery(query)
	if err != nil || len(q) == 0 {
		return
	}
	keyOf := func(q string) string { return requestKey("GET", "https://api.example.com/v1/models?"+q, nil) }
	names := make([]string, 0, len(q))
	for name := range q {
		names = append(names, name)
	}
	slices.Sort(names)
	// A random interleaving of the names' lists of values.
	shuffle := func() string {
		next := map[string]int{}
		var left []string
		for _, name := range names {
			for range q[name] {
				left = append(left, name)
			}
		}
		r.Shuffle(len(left), func(i, j int) { left[i], left[j] = left[j], left[i] })
		parts := make([]string, len(left))
		for i, name := range left {
			parts[i] = url.QueryEscape(name) + "=" + url.QueryEscape(q[name][next[name]])
			next[name]++
		}
		return strings.Join(parts, "&")
	}
	a, b := shuffle(), shuffle()
	if ka, kb := keyOf(a), keyOf(b); ka != kb {
		t.Fatalf("the same query, two keys:\n%q: %q\n%q: %q", a, ka, b, kb)
	}
	name := names[r.IntN(len(names))]
	q[name][0] += "x"
	if c := shuffle(); keyOf(c) == keyOf(a) {
		t.Fatalf("queries that differ in a value have the same key: %q, %q", a, c)
	}
}

// readAlike reports whether jsonvalue.Parse, which the keys use, reads
// body as encoding/json, the oracle here, does: it does unless body holds
// what Python's json module keeps and encoding/json replaces (lone
// surrogates, invalid UTF-8) or a number too large for a float64, which
// Python reads as infinity.
func readAlike(body string) bool {
	v, err := jsonvalue.Parse([]byte(body))
	if err != nil {
		return false
	}
	var alike func(v jsonvalue.Value) bool
	alike = func(v jsonvalue.Value) bool {
		switch v.Kind() {
		case jsonvalue.StringKind:
			return utf8.ValidString(v.Text())
		case jsonvalue.FloatKind:
			return !math.IsInf(v.Float(), 0) && !math.IsNaN(v.Float())
		case jsonvalue.ArrayKind:
			for i := range v.Len() {
				if !alike(v.Index(i)) {
					return false
				}
			}
		case jsonvalue.ObjectKind:
			for _, m := range v.Members() {
				if !utf8.ValidString(m.Key) || !alike(m.Value) {
					return false
				}
			}
		}
		return true
	}
	return alike(v)
}

// sameMeaning compares values decodeNumbers gave as the request key means
// them: numbers by kind (an int literal or a float one) and exact value, so
// that 1e2 and 100.0 are the same and 100 another; everything else as
// reflect.DeepEqual does.
func sameMeaning(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		xi, yi := isIntLiteral(string(x)), isIntLiteral(string(y))
		if xi != yi {
			return false
		}
		if xi {
			m, _ := new(big.Int).SetString(string(x), 10)
			n, _ := new(big.Int).SetString(string(y), 10)
			return m != nil && n != nil && m.Cmp(n) == 0
		}
		f, _ := strconv.ParseFloat(string(x), 64)
		g, _ := strconv.ParseFloat(string(y), 64)
		return f == g
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameMeaning(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !sameMeaning(v, w) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

func isIntLiteral(s string) bool { return !strings.ContainsAny(s, ".eE") }

// decodeNumbers decodes JSON as encoding/json does, numbers as their text.
func decodeNumbers(t *testing.T, s string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("decoding %q: %v", s, err)
	}
	return v
}

// jsonNode is a JSON value read with encoding/json's tokenizer: strings
// decoded, numbers as their text.
type jsonNode struct {
	kind    byte // '{', '[', 's' string, 'n' number, 'l' true, false or null
	text    string
	keys    []string
	members []*jsonNode // object values or array elements
}

func readTree(t *testing.T, s string) *jsonNode {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var read func() *jsonNode
	read = func() *jsonNode {
		tok, err := d.Token()
		if err != nil {
			t.Fatalf("reading %q: %v", s, err)
		}
		switch tok := tok.(type) {
		case json.Delim:
			n := &jsonNode{kind: byte(tok)}
			for d.More() {
				if n.kind == '{' {
					k, _ := d.Token()
					n.keys = append(n.keys, k.(string))
				}
				n.members = append(n.members, read())
			}
			d.Token() // the closing delimiter
			return n
		case string:
			return &jsonNode{kind: 's', text: tok}
		case json.Number:
			return &jsonNode{kind: 'n', text: string(tok)}
		case nil:
			return &jsonNode{kind: 'l', text: "null"}
		default:
			return &jsonNode{kind: 'l', text: fmt.Sprint(tok)}
		}
	}
	n := read()
	if _, err := d.Token(); err != io.EOF {
		t.Fatalf("test bug: %q has more than one value", s)
	}
	return n
}

// format writes n with random spacing, the members of objects without
// repeated keys in random order, and strings escaped in one of the ways
// JSON allows.
func (n *jsonNode) format(b []byte, r *rand.Rand) []byte {
	space := func() {
		b = append(b, []string{"", "", " ", "\n", "\t", "\r\n  "}[r.IntN(6)]...)
	}
	space()
	switch n.kind {
	case '{', '[':
		order := make([]int, len(n.members))
		for i := range order {
			order[i] = i
		}
		if n.kind == '{' && !hasRepeats(n.keys) {
			r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		b = append(b, n.kind)
		for i, k := range order {
			if i > 0 {
				space()
				b = append(b, ',')
			}
			if n.kind == '{' {
				space()
				b = appendVariantString(b, n.keys[k], r)
				space()
				b = append(b, ':')
			}
			b = n.members[k].format(b, r)
		}
		space()
		b = append(b, map[byte]byte{'{': '}', '[': ']'}[n.kind])
	case 's':
		b = appendVariantString(b, n.text, r)
	default:
		b = append(b, n.text...)
	}
	space()
	return b
}

func hasRepeats(keys []string) bool {
	seen := make(map[string]bool, len(keys))
	for _, k := range keys {
		if seen[k] {
			return true
		}
		seen[k] = true
	}
	return false
}

// appendVariantString writes s as encoding/json does, with or without
// HTML escapes, or with every character that may be escaped escaped.
func appendVariantString(b []byte, s string, r *rand.Rand) []byte {
	switch r.IntN(3) {
	case 0:
		out, _ := json.Marshal(s)
		return append(b, out...)
	case 1:
		var buf bytes.Buffer
		e := json.NewEncoder(&buf)
		e.SetEscapeHTML(false)
		e.Encode(s)
		return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
	}
	b = append(b, '"')
	for _, c := range s {
		switch {
		case c == '/' || c == '"' || c == '\\':
			b = append(b, '\\', byte(c))
		case c < 0x80 && c >= 0x20 && r.IntN(2) == 0:
			b = append(b, byte(c))
		case c > 0xFFFF:
			c -= 0x10000
			b = fmt.Appendf(b, `\u%04X\u%04x`, 0xD800+(c>>10), 0xDC00+(c&0x3FF))
		default:
			b = fmt.Appendf(b, `\u%04x`, c)
		}
	}
	return append(b, '"')
}

// leaves appends the strings, numbers and literals of n.
func (n *jsonNode) leaves(out []*jsonNode) []*jsonNode {
	if n.kind != '{' && n.kind != '[' {
		return append(out, n)
	}
	for _, m := range n.members {
		out = m.leaves(out)
	}
	return out
}

// change makes a leaf another value.
func (n *jsonNode) change() {
	switch n.kind {
	case 's':
		n.text += "x"
	case 'n':
		if strings.HasPrefix(n.text, "-") {
			n.text = n.text[1:]
		} else {
			n.text = "-" + n.text
		}
	default:
		n.kind, n.text = 'n', strconv.Itoa(len(n.text))
	}
}
