package jsonvalue

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// skipDocs are limitDocs and what a skip must tell apart from a value
// whole: texts cut short, nesting at the limit and past it, escapes,
// invalid UTF-8, a number past Python's digits.
func skipDocs() []string {
	docs := append([]string(nil), limitDocs...)
	docs = append(docs,
		strings.Repeat("[", maxDepth)+strings.Repeat("]", maxDepth),
		strings.Repeat("[", maxDepth+1)+strings.Repeat("]", maxDepth+1),
		`{"a":`+strings.Repeat(`{"b":`, maxDepth-1)+"1"+strings.Repeat("}", maxDepth),
		`{"a":`+strings.Repeat(`{"b":`, maxDepth)+"1"+strings.Repeat("}", maxDepth+1),
		`["a\"b\\c\u00e9\ud83d\ude00", "\ud800", {"k\n": "v"}]`, "[\"\xff\"]", `["x`+"\x01"+`"]`,
		`[`+strings.Repeat("9", 5000)+`]`,
		// Strings checked where they are, not unescaped: raw surrogates
		// (not UTF-8, but WTF-8 as a string with escapes is read),
		// bytes that are neither, escapes cut short or unknown, control
		// characters before and after an escape, a backslash last.
		"[\"\xed\xa0\x80\"]", "[\"\xed\xa0\x80\\n\"]", "[\"\\n\xed\xb0\x80x\"]", "[\"a\\u00e9\xff\"]", "[\"\xff\\u00e9\"]",
		"[\"\xe2\x82\\n\"]", "[\"\\n\x82\"]", `["\ud800\udc00", "\ud800\u0041", "\udc00\ud800"]`, `["\ud800\uzz00"]`, `["\u12"]`, `["\u12`,
		`["\x"]`, "[\"a\x01\\n\"]", "[\"a\\n\x1f\"]", `["abc\`, `["abc\"`, `["abc`, `"\`, `"`, `{"a" 1}`, `{"a": 1,}`, `[1,]`, ` `, ``, `{"a": [1, {"b": "c"}]} x`,
	)
	r := rand.New(rand.NewPCG(5, 6))
	for range 300 {
		doc := genDoc(r, 0)
		docs = append(docs, doc, doc[:r.IntN(len(doc)+1)])
	}
	return docs
}

// Skip reads what Value reads: the same kind, to the same offset, the same
// error where Value has one (End's too), whatever the Decoder's Limit,
// which it neither meets nor counts toward (Count stays 0, and the value
// read after it is counted from where the count was before it); Count
// after Value is the values it read.
func TestSkipReadsAsValue(t *testing.T) {
	for _, text := range skipDocs() {
		checkSkip(t, text)
	}
}

// FuzzSkip: whatever the text, Skip and Value agree.
func FuzzSkip(f *testing.F) {
	for _, s := range skipDocs() {
		f.Add(s)
	}
	f.Fuzz(checkSkip)
}

func checkSkip(t *testing.T, text string) {
	var d Decoder
	d.Reset(text)
	v, err := d.Value(0)
	end, count := d.Offset(), d.Count()
	if err == nil {
		err = d.End("the JSON value")
	}
	if err == nil && count != len(valueStarts(text)) {
		t.Fatalf("%q: Count is %d after Value, which read %d values", text, count, len(valueStarts(text)))
	}
	for _, limit := range []int{0, 1} {
		d.Limit(limit)
		d.Reset(text)
		kind, serr := d.Skip(0)
		if serr == nil && d.Offset() != end {
			t.Fatalf("%q, Limit(%d): Skip read to %d, Value to %d", text, limit, d.Offset(), end)
		}
		if serr == nil {
			serr = d.End("the JSON value")
		}
		if !sameErrText(serr, err) {
			t.Fatalf("%q, Limit(%d): Skip's error %v, Value's %v", text, limit, serr, err)
		}
		if err == nil && kind != v.Kind() {
			t.Fatalf("%q: Skip gives %s, Value %s", text, kind, v.Kind())
		}
		if d.Count() != 0 {
			t.Fatalf("%q: Count is %d after Skip", text, d.Count())
		}
	}
	// In a list after the text's value, a value that meets the bound
	// exactly: none of the skipped values counted.
	if err != nil {
		return
	}
	var d2 Decoder
	d2.Limit(4) // the list and [0, 0]
	d2.Reset("[" + text + ", [0, 0]]")
	_, err = d2.NextElem(true)
	if err == nil {
		_, err = d2.Skip(1)
	}
	if err == nil {
		_, err = d2.NextElem(false)
	}
	if err == nil {
		_, err = d2.Value(1)
	}
	if err != nil && !strings.Contains(err.Error(), "nesting deeper") { // the list is a level more
		t.Fatalf("%q skipped in a list, then [0, 0] under Limit(4): %v", text, err)
	}
}

// Skip builds nothing: a list of a million zeros, one of 100,000 objects,
// one of 100,000 strings with escapes and a string of 4 MB with escapes
// allocate nothing skipped; Value builds 72 bytes a value, and copies a
// string with escapes.
func TestSkipBuildsNothing(t *testing.T) {
	for _, tc := range []struct {
		text string
		most uint64 // bytes
	}{
		{"[" + strings.Repeat("0,", 1<<20) + "0]", 0},
		{"[" + strings.Repeat(`{"a": [1, 2], "b": {"c": null}},`, 100_000) + "{}]", 0},
		{"[" + strings.Repeat(`"\u00e9\n",`, 100_000) + `""]`, 0},
		{`[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "` + strings.Repeat(`{\"x\": [0, 0]}`, 300_000) + `"]`, 0},
	} {
		var d Decoder
		d.Limit(10)
		d.Reset(tc.text)
		d.Skip(0) // the scratch memory, which is kept
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		d.Reset(tc.text)
		_, err := d.Skip(0)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > tc.most+1024 {
			t.Errorf("%.40s…: Skip allocates %d bytes, want at most %d", tc.text, got, tc.most+1024)
		}
		d.Reset(tc.text)
		var over *LimitError
		if _, err := d.Value(0); !errors.As(err, &over) {
			t.Errorf("%.40s…: Value under Limit(10) gives %v, want the bound's error", tc.text, err)
		}
	}
}
