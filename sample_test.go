package agentcheck_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/samplereuse"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// benchSample is a typical ragas sample: four messages, two tool calls,
// reference calls and topics.
const benchSample = `{"user_input": [{"type": "human", "content": "Find a flight from Berlin to Lisbon for two and a hotel for three nights"}, {"type": "ai", "content": "On it.", "tool_calls": [{"name": "search_flights", "args": {"origin": "Berlin", "destination": "Lisbon", "passengers": 2}}, {"name": "book_hotel", "args": {"city": "Lisbon", "nights": 3, "max_price": 120.0}}]}, {"type": "tool", "content": "TP 541 at 09:40, 2 seats; Hotel Avenida, 3 nights"}, {"type": "ai", "content": "Booked TP 541 and Hotel Avenida."}], "reference": "A flight and a hotel are booked", "reference_tool_calls": [{"name": "search_flights", "args": {"origin": "Berlin", "destination": "Lisbon", "passengers": 2}}, {"name": "book_hotel", "args": {"city": "Lisbon", "nights": 3, "max_price": 120.0}}], "reference_topics": ["travel"]}`

func BenchmarkParseSample(b *testing.B) {
	b.SetBytes(int64(len(benchSample)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := agentcheck.ParseSample(benchSample); err != nil {
			b.Fatal(err)
		}
	}
}

// TestParseSample reads a sample with every field, in an unusual order,
// with a field given twice.
func TestParseSample(t *testing.T) {
	text := `{"reference_topics": ["travel"], "reference_tool_calls": [{"name": "book", "args": {"id": 7}}],
	"user_input": [{"content": "Book it", "type": "human"},
		{"type": "ai", "content": "", "tool_calls": [{"args": {"id": 7, "seat": "12A"}, "name": "book", "id": "c1"}]},
		{"type": "tool", "content": "booked"}, {"type": "ai", "content": "Done."}],
	"reference": "ignored", "reference": "A seat is booked", "extra": {"x": [1, 2.0]}}`
	s, err := agentcheck.ParseSample(text)
	if err != nil {
		t.Fatal(err)
	}
	want := agentcheck.Sample{
		Conversation: agentcheck.Conversation{
			{Role: agentcheck.Human, Content: "Book it"},
			{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{call("book", `{"id": 7, "seat": "12A"}`)}},
			{Role: agentcheck.Tool, Content: "booked"},
			{Role: agentcheck.AI, Content: "Done."},
		},
		Reference:          "A seat is booked",
		ReferenceToolCalls: []agentcheck.ToolCall{call("book", `{"id": 7}`)},
		ReferenceTopics:    []string{"travel"},
	}
	if diff := cmp.Diff(want, s, sameValue); diff != "" {
		t.Errorf("sample (-want +got):\n%s", diff)
	}
	// Absent, null and empty lists stay apart.
	s, err = agentcheck.ParseSample(`{"user_input": [{"type": "ai", "content": "", "tool_calls": []}, {"type": "ai", "content": "", "tool_calls": null}], "reference_tool_calls": []}`)
	if err != nil || s.Conversation[0].ToolCalls == nil || s.Conversation[1].ToolCalls != nil || s.ReferenceToolCalls == nil || len(s.ReferenceToolCalls) != 0 || s.ReferenceTopics != nil {
		t.Errorf("empty and null lists: %#v, %v", s, err)
	}
}

// TestParseSampleErrors: ParseSample's errors say where, in the sample's
// own text, and are checked in ragas's order whatever the order of the
// fields; malformed JSON is reported before any other problem, wherever it
// is.
func TestParseSampleErrors(t *testing.T) {
	msgs := func(m string) string { return `{"user_input": [` + m + `]}` }
	tests := []struct{ text, err string }{
		{msgs(`{"type": "human", "content": "x"}, {"type": "ai", "content": "", "tool_calls": [{"name": "ok", "args": {}}, {"name": "f", "args": []}]}`),
			`message 1 (ai), tool call 1 "f": "args" must be an object, got array`},
		{msgs(`{"type": "human", "content": "x"}, {"type": "tool", "content": "y"}, {"type": "ai", "content": "", "tool_calls": [{"name": "search", "args": "q"}]}`),
			`message 2 (ai), tool call 0 "search": "args" must be an object, got string`},
		{msgs(`{"type": "tool", "content": "x"}`), `message 0 (tool): a tool message must follow an ai message with tool calls, but it is the first message`},
		{msgs(`{"type": "user", "content": "x"}`), `message 0: unknown "type" "user" (want "human", "ai" or "tool")`},
		{msgs(`{"content": 3}`), `message 0: "type" must be "human", "ai" or "tool"`},
		{msgs(`{"type": "human", "content": 3}`), `message 0 (human): "content" must be a string, got int`},
		{msgs(`{"type": "human"}`), `message 0 (human): "content" must be a string, got missing`},
		{msgs(`[]`), `message 0: a message must be an object, got array`},
		{msgs(`{"type": "ai", "content": "", "tool_calls": [{"args": {}}]}`), `message 0 (ai), tool call 0: "name" must be a string`},
		{msgs(`{"type": "ai", "content": "", "tool_calls": ["f"]}`), `message 0 (ai), tool call 0: a tool call must be an object, got string`},
		{msgs(`{"type": "ai", "content": "", "tool_calls": {}}`), `message 0 (ai): "tool_calls" must be a list, got object`},
		// The checks of a message go type, content, tool_calls, whatever
		// the order of its fields.
		{msgs(`{"tool_calls": [{"name": "f"}], "content": 1, "type": "human"}`), `message 0 (human): "content" must be a string, got int`},
		{msgs(`{"tool_calls": 1, "content": "x", "type": "human"}`), `message 0 (human): only ai messages have "tool_calls"`},
		{msgs(`{"tool_calls": [{"name": "f"}, 1], "content": "x", "type": "ai"}`), `message 0 (ai), tool call 0 "f": "args" is missing`},
		{`{"user_input": [], "reference_tool_calls": [{"name": "a", "args": {}}, {"name": "b"}]}`, `reference_tool_calls[1]: "args" is missing`},
		{`{"user_input": [], "reference_tool_calls": {}}`, `"reference_tool_calls" must be a list, got object`},
		{`{"user_input": [], "reference": 1}`, `"reference" must be a string, got int`},
		{`{"user_input": [], "reference_topics": ["a", 2]}`, `reference_topics[1] must be a string, got int`},
		{`{"user_input": [], "reference_topics": "a"}`, `"reference_topics" must be a list of strings, got string`},
		{`{"reference": "x"}`, `"user_input" is missing`},
		{`{"user_input": 1}`, `"user_input" must be a list of messages, got int`},
		// What the error says of shapes that are easily mistaken for it.
		{`{"user_input": "hi", "response": "hello"}`, `"user_input" must be a list of messages, got string: it looks like a ragas SingleTurnSample; the metrics score a MultiTurnSample, whose "user_input" is a list of {"type", "content"} messages`},
		{msgs(`{"role": "user", "content": "hi"}`), `message 0: "type" must be "human", "ai" or "tool" (it has a "role": ragas's messages name theirs by "type"; a provider's messages go under "messages")`},
		{msgs(`{"role": "user", "type": 1, "content": "hi"}`), `message 0: "type" must be "human", "ai" or "tool"`},
		{`[1]`, `a sample must be a JSON object, got array`},
		// ragas's order: user_input, its messages, the conversation, then
		// reference, reference_tool_calls, reference_topics.
		{`{"reference_topics": 1, "reference": 1, "user_input": [{"type": "tool", "content": ""}]}`, `message 0 (tool): a tool message must follow an ai message with tool calls, but it is the first message`},
		{`{"reference_topics": 1, "reference_tool_calls": 1, "reference": 1, "user_input": []}`, `"reference" must be a string, got int`},
		{`{"reference_topics": 1, "reference_tool_calls": 1, "user_input": []}`, `"reference_tool_calls" must be a list, got int`},
		{`{"user_input": [{"type": "x"}, {"type": "y"}], "reference": 1}`, `message 0: unknown "type" "x" (want "human", "ai" or "tool")`},
		// A field given twice counts with its last value, as in a Python
		// dict.
		{`{"user_input": [{"type": "x"}], "user_input": 2}`, `"user_input" must be a list of messages, got int`},
		{`{"user_input": 2, "user_input": [], "reference": 1, "reference": null}`, ``},
		{msgs(`{"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": 1}], "tool_calls": null, "type": "human"}`), ``},
		// Malformed JSON comes first, wherever it is.
		{`{"user_input": [{"type": "human", "content": "x"},]}`, `line 1, column 51: unexpected ']', want a value`},
		{`{"user_input": [{"type": "x"}], "reference": nul}`, `line 1, column 46: unexpected 'n', want a value`},
		{"{\"user_input\": 1,\n \"reference\": [1 2]}", `line 2, column 18: unexpected '2' in array, want ',' or ']'`},
		{`{"user_input": []} x`, `line 1, column 20: unexpected 'x' after the sample`},
		{`[1] x`, `line 1, column 5: unexpected 'x' after the sample`},
		{``, `line 1, column 1: unexpected end of input, want a value`},
	}
	for _, tt := range tests {
		_, err := agentcheck.ParseSample(tt.text)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.err {
			t.Errorf("ParseSample(%s):\n got %s\nwant %s", tt.text, got, tt.err)
		}
	}
	_, err := agentcheck.ParseSample(`{"user_input": [{"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": 1}]}]}`)
	var me *agentcheck.MessageError
	if !errors.As(err, &me) || me.Message != 0 || me.ToolCall != 0 || me.Name != "f" || me.Role != agentcheck.AI || me.Err.Error() != `"args" must be an object, got int` {
		t.Errorf("error %v (%T), want a *MessageError on message 0, call 0", err, err)
	}
	_, err = agentcheck.ParseSample("{\n\"user_input\": [}")
	var se *jsonvalue.SyntaxError
	if !errors.As(err, &se) || se.Line != 2 || se.Column != 16 || se.Offset != 17 {
		t.Errorf("syntax error %v, want line 2 column 16", err)
	}
}

// ExampleParseSample reads a ragas sample and lists the tool calls the
// agent made and the ones it should have made.
func ExampleParseSample() {
	s, err := agentcheck.ParseSample(`{
		"user_input": [
			{"type": "human", "content": "Weather in Paris and Rome?"},
			{"type": "ai", "content": "", "tool_calls": [
				{"name": "weather", "args": {"city": "Paris"}},
				{"name": "weather", "args": {"city": "Rome", "days": 2}}]},
			{"type": "tool", "content": "sunny; rainy"},
			{"type": "ai", "content": "Sunny in Paris, rain in Rome."}],
		"reference_tool_calls": [
			{"name": "weather", "args": {"city": "Paris"}},
			{"name": "weather", "args": {"city": "Rome"}}]}`)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, tc := range s.Conversation.ToolCalls() {
		fmt.Println("made:    ", tc)
	}
	for _, tc := range s.ReferenceToolCalls {
		fmt.Println("expected:", tc)
	}
	_, err = agentcheck.ParseSample(`{"user_input": [{"type": "ai", "content": "", "tool_calls": [{"name": "weather", "args": "Paris"}]}]}`)
	fmt.Println(err)
	// Output:
	// made:     weather({"city":"Paris"})
	// made:     weather({"city":"Rome","days":2})
	// expected: weather({"city":"Paris"})
	// expected: weather({"city":"Rome"})
	// message 0 (ai), tool call 0 "weather": "args" must be an object, got string
}

func BenchmarkSampleParser(b *testing.B) {
	b.SetBytes(int64(len(benchSample)))
	b.ReportAllocs()
	parse := newSampleParser()
	for b.Loop() {
		if _, err := parse(benchSample); err != nil {
			b.Fatal(err)
		}
	}
}

// newSampleParser makes the root's reusing sample parser, which
// dataset.Parser uses.
func newSampleParser() func(string) (agentcheck.Sample, error) {
	return samplereuse.New.(func(bool) func(string) (agentcheck.Sample, error))(false)
}

// TestRawTextIsTheFullReading: the parser that keeps a message's text as
// written (samplereuse.New(true)) gives, on 5,000 generated samples whose
// texts hold escapes (valid, invalid, \u escapes of surrogates), control
// characters, UTF-8, WTF-8 and invalid bytes, what the full parser gives:
// the same error, or the same Sample but for a message's text with
// escapes, which is its JSON text as written. The 5,000 cover the code of
// the root package and jsonvalue that the 20,000 it had covered (go test
// -coverprofile, the same blocks); FuzzRawTextIsTheFullReading draws more.
func TestRawTextIsTheFullReading(t *testing.T) {
	const samples = 5000
	if took := checkRawText(t, rand.New(rand.NewPCG(11, 12)), samples); took < samples/4 {
		t.Errorf("the raw-text parser kept %d texts as written, want %d or more", took, samples/4)
	}
}

// FuzzRawTextIsTheFullReading is TestRawTextIsTheFullReading on 50
// samples a seed draws.
func FuzzRawTextIsTheFullReading(f *testing.F) {
	f.Add(uint64(1))
	f.Add(uint64(2))
	f.Fuzz(func(t *testing.T, seed uint64) {
		checkRawText(t, rand.New(rand.NewPCG(seed, 12)), 50)
	})
}

// checkRawText fails t unless the raw-text parser reads each of samples
// samples r draws as the full parser does; took is how many texts it kept
// as written.
func checkRawText(t *testing.T, r *rand.Rand, samples int) (took int) {
	t.Helper()
	full := newSampleParser()
	raw := samplereuse.New.(func(bool) func(string) (agentcheck.Sample, error))(true)
	pieces := []string{`\"`, `\\`, `\/`, `\n`, `\t`, `\u00e9`, `\ud83d\ude00`, `\ud800`, `\udc00x`, `\u12`, `\x`, "\x01", "é", "\xed\xa0\x80", "\xff", `{\"k\": [1, 2.5, null]}`}
	abs := strings.Repeat("ab ", 29) // "ab " up to 29 times, cut from it
	var b strings.Builder
	text := func() {
		for range r.IntN(6) {
			if r.IntN(3) == 0 {
				b.WriteString(pieces[r.IntN(len(pieces))])
			} else {
				b.WriteString(abs[:3*r.IntN(30)])
			}
		}
	}
	for range samples {
		// Written piece by piece (fmt.Sprintf's cost was a tenth of the test).
		b.Reset()
		b.WriteString(`{"user_input": [{"type": "human", "content": "`)
		text()
		b.WriteString(`"}, {"type": "ai", "content": "`)
		text()
		b.WriteString(`", "tool_calls": [{"name": "f", "args": {"q": "`)
		text()
		b.WriteString(`"}}]}, {"type": "tool", "content": "`)
		text()
		b.WriteString(`"}], "reference_tool_calls": [{"name": "f", "args": {"q": 1}}], "reference": "`)
		text()
		b.WriteString(`"}`)
		sample := b.String()
		want, werr := full(sample)
		got, gerr := raw(sample)
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			t.Fatalf("%s\nfull: %v\nraw text: %v", sample, werr, gerr)
		}
		if werr != nil {
			continue
		}
		for i := range want.Conversation {
			w, g := want.Conversation[i].Content, got.Conversation[i].Content
			if w == g {
				continue
			}
			// The text as written: the JSON string that reads as w.
			v, err := jsonvalue.Parse([]byte(`"` + g + `"`))
			if err != nil || v.Kind() != jsonvalue.StringKind || v.Text() != w {
				t.Fatalf("%s\nmessage %d: the full text %q, kept as %q, which reads as %v (%v)", sample, i, w, g, v, err)
			}
			got.Conversation[i].Content = w
			took++
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("%s\nfull: %#v\nraw text: %#v", sample, want, got)
		}
	}
	return took
}

// TestSampleParserReusesMemory: a sample parsed by the reusing parser is
// valid until its next call, which reuses its memory rather than
// allocating.
func TestSampleParserReusesMemory(t *testing.T) {
	parse := newSampleParser()
	first, err := parse(benchSample)
	if err != nil {
		t.Fatal(err)
	}
	if got := first.Conversation[1].ToolCalls[1].Args.String(); got != `{"city":"Lisbon","nights":3,"max_price":120.0}` {
		t.Fatalf("first sample's arguments: %s", got)
	}
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := parse(benchSample); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("a warm reusing parser allocates %v times per sample, want 0", allocs)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = agentcheck.ParseSample(benchSample) }); n == 0 {
		t.Errorf("ParseSample allocates nothing: the Sample it returns would share memory")
	}
}

// TestSampleParserKeepsEmptyListsApart: with its memory reused, an empty
// list is still not an absent one (ragas scores them differently).
func TestSampleParserKeepsEmptyListsApart(t *testing.T) {
	parse := newSampleParser()
	for range 2 {
		s, err := parse(`{"user_input": [{"type": "ai", "content": "", "tool_calls": []}, {"type": "ai", "content": "", "tool_calls": null}], "reference_tool_calls": []}`)
		if err != nil || s.Conversation[0].ToolCalls == nil || s.Conversation[1].ToolCalls != nil || s.ReferenceToolCalls == nil || len(s.ReferenceToolCalls) != 0 || s.ReferenceTopics != nil {
			t.Errorf("empty and null lists: %#v, %v", s, err)
		}
	}
}
