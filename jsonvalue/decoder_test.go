package jsonvalue_test

import (
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/jsonvalue"
)

// walk reads the next value with the Decoder's steps, as a reader of a
// known shape does, down to depth 3, below which it takes Value whole;
// members given twice keep the first position and the last value, as
// Parse keeps them.
func walk(d *jsonvalue.Decoder, depth int) (jsonvalue.Value, error) {
	if depth >= 3 {
		return d.Value(depth)
	}
	switch d.Peek() {
	case '{':
		var ms []jsonvalue.Member
		for key, more, err := d.NextKey(true); more || err != nil; key, more, err = d.NextKey(false) {
			if err != nil {
				return jsonvalue.Value{}, err
			}
			v, err := walk(d, depth+1)
			if err != nil {
				return jsonvalue.Value{}, err
			}
			i := 0
			for i < len(ms) && ms[i].Key != key {
				i++
			}
			if i == len(ms) {
				ms = append(ms, jsonvalue.Member{Key: key})
			}
			ms[i].Value = v
		}
		return jsonvalue.Object(ms...), nil
	case '[':
		var items []jsonvalue.Value
		for more, err := d.NextElem(true); more || err != nil; more, err = d.NextElem(false) {
			if err != nil {
				return jsonvalue.Value{}, err
			}
			v, err := walk(d, depth+1)
			if err != nil {
				return jsonvalue.Value{}, err
			}
			items = append(items, v)
		}
		return jsonvalue.Array(items...), nil
	case '"':
		s, err := d.ReadString()
		return jsonvalue.String(s), err
	}
	return d.Value(depth)
}

// decode reads text whole with the Decoder's steps.
func decode(d *jsonvalue.Decoder, text string) (jsonvalue.Value, error) {
	d.Reset(text)
	v, err := walk(d, 0)
	if err == nil {
		err = d.End("the JSON value")
	}
	return v, err
}

var decoderCorpus = []string{
	`{"a": [1, 1.0, true, null, "x\u00e9\ud800"], "b": {"c": {"d": {"e": [[]]}}}}`,
	` [1e400, -0.0, NaN, -Infinity] `, `"\ud83d\ude00"`, `{"k": 1, "j": 3, "k": 2}`, `12345678901234567890`,
	`{}`, `[]`, `[{}, {"a": []}]`, "{\n\"a\" 1}", `{"a": 1,}`, `[1 2]`, `[1,]`, `{"a": "b\x01"}`, `{"a": 1} x`,
	`{"a": {"b": 1 "c": 2}}`, `[[[[[[1]]]]]`, `{"a": [true, fals]}`, `{"a" : "\q"}`, ``, `   `, `{`, `[`, `"abc`,
	"\"\xff\"", `{"a": 01}`, `[-]`, `[1.]`, `[1e]`,
}

// TestDecoderIsParse: reading a document step by step gives the Value
// Parse gives, or the same error at the same place.
func TestDecoderIsParse(t *testing.T) {
	var d jsonvalue.Decoder
	for _, text := range decoderCorpus {
		checkDecoder(t, &d, text)
	}
}

func checkDecoder(t *testing.T, d *jsonvalue.Decoder, text string) {
	t.Helper()
	want, wantErr := jsonvalue.Parse([]byte(text))
	got, err := decode(d, text)
	if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
		t.Fatalf("Expected the Decoder to read %q as Parse does, with error %v, but its error is %v", text, wantErr, err)
	}
	if err == nil && got.String() != want.String() {
		t.Fatalf("Expected the Decoder to read %q as Parse does, %s, but it reads %s", text, want, got)
	}
}

// FuzzDecoder: whatever the text, the Decoder's steps and Parse agree.
func FuzzDecoder(f *testing.F) {
	for _, s := range decoderCorpus {
		f.Add(s)
	}
	var d jsonvalue.Decoder
	f.Fuzz(func(t *testing.T, text string) { checkDecoder(t, &d, text) })
}

// TestDecoderSteps: the steps refuse what they are not at, naming it.
func TestDecoderSteps(t *testing.T) {
	var d jsonvalue.Decoder
	for _, tt := range []struct {
		text string
		step func() error
		want string
	}{
		{`[1]`, func() error { _, _, err := d.NextKey(true); return err }, `line 1, column 1: unexpected '[', want an object`},
		{` {}`, func() error { _, err := d.NextElem(true); return err }, `line 1, column 2: unexpected '{', want an array`},
		{"\n 12", func() error { _, err := d.ReadString(); return err }, `line 2, column 2: unexpected '1', want a string`},
		{``, func() error { _, err := d.ReadString(); return err }, `line 1, column 1: unexpected end of input, want a string`},
		{`[1] [`, func() error { d.Value(0); return d.End("the list") }, `line 1, column 5: unexpected '[' after the list`},
	} {
		d.Reset(tt.text)
		if err := tt.step(); err == nil || err.Error() != tt.want {
			t.Errorf("Expected reading %q to fail with %q, but the error is %v", tt.text, tt.want, err)
		}
	}
	d.Reset("\t ")
	if c := d.Peek(); c != 0 {
		t.Errorf("Expected Peek to give 0 at the end of the text, but it gives %q", c)
	}
}

// TestDecoderMemory: after Reset the Values read before stay as they
// were; Recycle reuses their memory, so that a warm Decoder allocates
// nothing per document.
func TestDecoderMemory(t *testing.T) {
	const doc1, doc2 = `{"city": "Paris", "days": [1, 2]}`, `{"town": "Rome", "nights": [3, 4, 5]}`
	var d jsonvalue.Decoder
	d.Recycle(doc2) // memory to recycle, which Reset must not hand on
	d.Reset(doc1)
	first, err := d.Value(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, next := range []func(string){d.Reset, d.Recycle} {
		next(doc2)
		if _, err := d.Value(0); err != nil {
			t.Fatal(err)
		}
		if got := first.String(); got != `{"city":"Paris","days":[1,2]}` {
			t.Fatalf("Expected a Value read before to stay valid, but it now reads %s", got)
		}
	}
	allocs := testing.AllocsPerRun(100, func() {
		d.Recycle(doc2)
		if _, err := d.Value(0); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Expected a warm Decoder to read a document without allocating, but it allocates %v times", allocs)
	}
}

// Strings with escapes cost a warm Decoder a fraction of an allocation
// each, whether the next document is read by Reset or Recycle: they are
// unescaped into memory shared by many (an OpenAI call's arguments are
// escaped JSON, read one document each). Each string read stays as it
// was while more are read into the same memory.
func TestDecoderSharesItsUnescapingMemory(t *testing.T) {
	const doc = `"{\"city\": \"Paris\", \"days\": [1, 2], \"note\": \"a \\\"quoted\\\" word\"}"`
	const want = `{"city": "Paris", "days": [1, 2], "note": "a \"quoted\" word"}`
	var d jsonvalue.Decoder
	var read []string
	for _, next := range []func(string){d.Reset, d.Recycle} {
		allocs := testing.AllocsPerRun(1000, func() {
			next(doc)
			s, err := d.ReadString()
			if err != nil {
				t.Fatal(err)
			}
			read = append(read, s)
		})
		// One chunk of 16 KiB holds about 250 of these 63-byte strings;
		// read's own growth is about 10 allocations in 1,000 runs.
		if allocs > 0.05 {
			t.Errorf("Expected a warm Decoder to read escaped strings in shared memory, but it makes %v allocations a string", allocs)
		}
	}
	for i, s := range read {
		if s != want {
			t.Fatalf("string %d of %d now reads %q, want %q", i, len(read), s, want)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	data := []byte(benchDocument)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := jsonvalue.Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// benchDocument is a typical ragas sample read as one JSON value.
const benchDocument = `{"user_input": [{"type": "human", "content": "Find a flight from Berlin to Lisbon for two and a hotel for three nights"}, {"type": "ai", "content": "On it.", "tool_calls": [{"name": "search_flights", "args": {"origin": "Berlin", "destination": "Lisbon", "passengers": 2}}, {"name": "book_hotel", "args": {"city": "Lisbon", "nights": 3, "max_price": 120.0}}]}, {"type": "tool", "content": "TP 541 at 09:40, 2 seats; Hotel Avenida, 3 nights"}, {"type": "ai", "content": "Booked TP 541 and Hotel Avenida."}], "reference": "A flight and a hotel are booked", "reference_tool_calls": [{"name": "search_flights", "args": {"origin": "Berlin", "destination": "Lisbon", "passengers": 2}}, {"name": "book_hotel", "args": {"city": "Lisbon", "nights": 3, "max_price": 120.0}}], "reference_topics": ["travel"]}`

// A reader that scans part of the text itself moves the Decoder there with
// Seek and reads on from Offset: the value at an offset, then what follows.
func TestDecoderSeekAndOffset(t *testing.T) {
	text := `{"skip": 1, "args": {"q": "x"}, "n": 2}`
	var d jsonvalue.Decoder
	d.Reset(text)
	at := strings.Index(text, `{"q"`)
	d.Seek(at)
	v, err := d.Value(1)
	if err != nil || v.String() != `{"q":"x"}` {
		t.Fatalf("Value after Seek(%d) = %s, %v", at, v, err)
	}
	if got, want := d.Offset(), at+len(`{"q": "x"}`); got != want {
		t.Fatalf("Offset after the value = %d, want %d", got, want)
	}
	if key, more, err := d.NextKey(false); key != "n" || !more || err != nil {
		t.Fatalf("NextKey after the value = %q, %v, %v", key, more, err)
	}
	d.Seek(len(text) + 5)
	if d.Offset() != len(text) || d.Peek() != 0 {
		t.Fatalf("Seek past the end: Offset %d, want %d", d.Offset(), len(text))
	}
}
