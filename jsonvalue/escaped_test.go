package jsonvalue_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/jsonvalue"
)

// same reports whether a and b are the same Value: kinds, members in
// order, and each scalar's text (1 and 1.0 apart, as Python's str() has
// them), however deep.
func same(a, b jsonvalue.Value) bool {
	if a.Kind() != b.Kind() || a.Len() != b.Len() {
		return false
	}
	switch a.Kind() {
	case jsonvalue.ObjectKind, jsonvalue.ArrayKind:
		am, bm := a.Members(), b.Members()
		for i := range am {
			if am[i].Key != bm[i].Key || !same(am[i].Value, bm[i].Value) {
				return false
			}
		}
		return true
	}
	return a.String() == b.String() && jsonvalue.Equal(a, b)
}

// checkStringValue reads text written as a JSON string, inside a document,
// with StringValue: what it takes must be what Parse makes of text, its
// Source text escaped as the string writes it; what it leaves must be left
// unread. It reports whether StringValue took it.
func checkStringValue(t *testing.T, text string) bool {
	t.Helper()
	quoted, err := json.Marshal(text)
	if err != nil {
		return false
	}
	doc := `{"arguments": ` + string(quoted) + `, "after": 1}`
	var d jsonvalue.Decoder
	d.Reset(doc)
	key, more, err := d.NextKey(true)
	if err != nil || !more || key != "arguments" {
		t.Fatalf("reading %s: %q %v %v", doc, key, more, err)
	}
	at := d.Offset()
	v, ok := d.StringValue()
	if !ok {
		if d.Offset() != at {
			t.Fatalf("StringValue left %s but read up to %d (from %d)", doc, d.Offset(), at)
		}
		return false
	}
	want, err := jsonvalue.Parse([]byte(text))
	if err != nil {
		t.Fatalf("StringValue read %s, which Parse refuses: %v", doc, err)
	}
	if !same(v, want) {
		t.Fatalf("StringValue read %s as %s, Parse %s", doc, v, want)
	}
	if src := strings.ReplaceAll(v.Source(), `\"`, `"`); src != text {
		t.Fatalf("StringValue's Source is %q, want the text %q escaped", v.Source(), text)
	}
	if key, more, err := d.NextKey(false); err != nil || !more || key != "after" {
		t.Fatalf("after StringValue, reading %s went on at %q %v %v", doc, key, more, err)
	}
	return true
}

// randomArguments writes a random text of arguments, mostly an object of
// scalars as OpenAI's models write them, sometimes anything else.
func randomArguments(r *rand.Rand) string {
	sp := func() string { return []string{"", "", " ", "  ", "\n", "\t"}[r.IntN(6)] }
	scalar := func() string {
		return []string{`1`, `-12`, `901.88`, `1.0`, `1e3`, `-0`, `true`, `false`, `null`, `NaN`, `-Infinity`,
			`"EUR"`, `"a b"`, `""`, `"é"`, `"a\"b"`, `"line\nbreak"`, `"\u00e9"`, `[1]`, `{}`, `{"x": 1}`, `01`, `1.`, `tru`}[r.IntN(24)]
	}
	var members []string
	for k := range r.IntN(6) {
		key := []string{"amount", "to", "from", "a b", "k", "amount", "é", `x\"y`}[(k+r.IntN(3))%8]
		members = append(members, sp()+`"`+key+`"`+sp()+":"+sp()+scalar()+sp())
	}
	text := "{" + strings.Join(members, ",") + "}"
	switch r.IntN(12) {
	case 0:
		text = sp() + text + sp()
	case 1:
		text = text[:r.IntN(len(text)+1)]
	case 2:
		text = "[" + text + "]"
	case 3:
		text = "null"
	}
	return text
}

// TestStringValueIsParse: on 5,000 random arguments texts, what StringValue
// takes Parse reads the same, and StringValue takes most of the objects of
// scalars without escapes.
func TestStringValueIsParse(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 7))
	took := 0
	for range 5000 {
		if checkStringValue(t, randomArguments(r)) {
			took++
		}
	}
	if took < 400 || took == 5000 {
		t.Errorf("StringValue took %d of 5,000 texts: the random texts are too one-sided", took)
	}
	members := func(n int) string {
		var ms []string
		for k := range n {
			ms = append(ms, fmt.Sprintf(`"k%d":%d`, k, k))
		}
		return "{" + strings.Join(ms, ",") + "}"
	}
	for _, text := range []string{`{}`, `{"amount": 901.88, "from": "EUR", "to": "GBP"}`, `{"q":"é","n":-1,"ok":true,"x":null}`, `{ "a" : 1 }`,
		`{"a":[1]}`, `{"items": [{"sku": "A1", "qty": 2}, {"sku": "B7", "qty": 1}], "address": {"city": "Paris", "zip": "75001"}, "tags": []}`,
		`{"a":{"b":{"c":[[],[1,[2,{}]]]}}}`, members(32), `{"a":[` + strings.Repeat(`1,`, 200) + `1]}`,
		`{"d":` + strings.Repeat(`[`, 31) + strings.Repeat(`]`, 31) + `}`} {
		if !checkStringValue(t, text) {
			t.Errorf("StringValue leaves %.80s", text)
		}
	}
	for _, text := range []string{`{"a":1,"a":2}`, `{"a":{"b":1,"b":2}}`, `{"a":"x\"y"}`, `{"a":["x\ny"]}`, `{"a":NaN}`, `{"a":[Infinity]}`, ` {"a":1}`, `{"a":1} `, `{"a":01}`, `{"a":1,}`, `{"a":[1,]}`, `[1]`, `null`, ``,
		members(33), `{"a":{` + members(33)[1:] + `}`, `{"d":` + strings.Repeat(`[`, 32) + strings.Repeat(`]`, 32) + `}`} {
		if checkStringValue(t, text) {
			t.Errorf("StringValue takes %.80s", text)
		}
	}
}

// A key or a string that is not UTF-8, written raw in the document, is
// not read: it is the document's error (ReadString's), or, a surrogate
// half, a string the text's own reading refuses.
func TestStringValueLeavesWhatIsNotUTF8(t *testing.T) {
	for i, doc := range []string{"\"{\\\"a\\\": \\\"\xff\\\"}\"", "\"{\\\"\xc3\\\": 1}\"", "\"{\\\"a\\\": \\\"\xed\xa0\x80\\\"}\""} {
		var d jsonvalue.Decoder
		d.Reset(doc)
		if v, ok := d.StringValue(); ok {
			t.Errorf("StringValue reads %q as %s", doc, v)
		}
		if _, err := d.ReadString(); err == nil && i < 2 {
			t.Errorf("ReadString reads %q", doc)
		}
	}
}

// Many arguments in one document, some read deep and then refused: their
// members go to the arena, chunk after chunk, and each Value taken stays
// as read. Objects of scalars (escapedFlat's), of one to nine members, fill
// a chunk in their middle too.
func TestStringValueKeepsEachValue(t *testing.T) {
	texts, want := make([]string, 3000), make([]string, 3000)
	for i := range texts {
		texts[i] = fmt.Sprintf(`{"i": %d, "s": "v%d", "b": true, "l": [%d, {"n": %d}]}`, i, i, i, i)
		want[i] = fmt.Sprintf(`{"i":%d,"s":"v%d","b":true,"l":[%d,{"n":%d}]}`, i, i, i, i)
		switch {
		case i%3 == 1:
			texts[i], want[i] = fmt.Sprintf(`{"i": %d`, i), fmt.Sprintf(`{"i":%d`, i)
			for k := range i % 9 {
				texts[i] += fmt.Sprintf(`, "k%d": "v%d"`, k, i)
				want[i] += fmt.Sprintf(`,"k%d":"v%d"`, k, i)
			}
			texts[i], want[i] = texts[i]+"}", want[i]+"}"
		case i%6 == 2:
			// Read deep, then refused at its end: the general reading's.
			texts[i], want[i] = fmt.Sprintf(`{"i": %d, "l": [1, {"n": [2, 3]}], "x": NaN}`, i), ""
		case i%3 == 2:
			// Read as an object of scalars, then refused at its end.
			texts[i], want[i] = fmt.Sprintf(`{"i": %d, "s": "v", "t": 1, "x": NaN}`, i), ""
		}
	}
	checkEachValue(t, texts, want)
}

// TestStringValueMovesMembersToANewChunk: objects of seven scalars, a
// document of them, fill the arena's chunks in their middle; the members
// read before a chunk filled move to the next with the object.
func TestStringValueMovesMembersToANewChunk(t *testing.T) {
	texts, want := make([]string, 4000), make([]string, 4000)
	for i := range texts {
		texts[i] = fmt.Sprintf(`{"a": %d, "b": "x%d", "c": true, "d": null, "e": -%d, "f": "y", "g": %d.5}`, i, i, i+1, i)
		want[i] = fmt.Sprintf(`{"a":%d,"b":"x%d","c":true,"d":null,"e":-%d,"f":"y","g":%d.5}`, i, i, i+1, i)
	}
	checkEachValue(t, texts, want)
}

// checkEachValue reads texts, each written as a JSON string in one
// document, with StringValue (ReadString where it is refused), all of them
// before looking at any: text i must read as want[i], or be refused where
// want[i] is empty.
func checkEachValue(t *testing.T, texts, want []string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("[")
	for i, text := range texts {
		if i > 0 {
			b.WriteString(",")
		}
		q, _ := json.Marshal(text)
		b.Write(q)
	}
	b.WriteString("]")
	var d jsonvalue.Decoder
	d.Recycle(b.String())
	var got []jsonvalue.Value
	for more, err := d.NextElem(true); more || err != nil; more, err = d.NextElem(false) {
		if err != nil {
			t.Fatalf("element %d: %v", len(got), err)
		}
		v, ok := d.StringValue()
		if ok != (want[len(got)] != "") {
			t.Fatalf("element %d: StringValue took it: %v", len(got), ok)
		}
		if !ok {
			if _, err := d.ReadString(); err != nil {
				t.Fatalf("element %d: %v", len(got), err)
			}
		}
		got = append(got, v)
	}
	for i, v := range got {
		if want[i] != "" && v.String() != want[i] {
			t.Fatalf("value %d of %d reads %s, want %s", i, len(got), v.String(), want[i])
		}
	}
}

// FuzzStringValue is TestStringValueIsParse on the fuzzer's texts.
func FuzzStringValue(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 12 {
		f.Add(randomArguments(r))
	}
	f.Fuzz(func(t *testing.T, text string) {
		checkStringValue(t, text)
	})
}
