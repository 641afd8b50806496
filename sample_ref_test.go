package agentcheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/internal/cutpoints"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// The decoder ParseSample had before it was merged into one pass, kept as
// the oracle that the tests hold ParseSample to: parse the whole sample
// into a Value, then convert it, in the order of ragas's own checks. It is
// plain and slow; ParseSample must accept exactly what it accepts and
// return the same Sample or the same error.

// referenceSample is ParseSample by way of a Value.
func referenceSample(text string) (Sample, error) {
	var d jsonvalue.Decoder
	d.Reset(text)
	v, err := d.Value(0)
	if err == nil {
		err = d.End("the sample")
	}
	if err != nil {
		return Sample{}, err
	}
	return sampleFromValue(v)
}

// sampleFromValue converts a parsed ragas sample object into a Sample and
// validates its conversation.
func sampleFromValue(v jsonvalue.Value) (Sample, error) {
	if v.Kind() != jsonvalue.ObjectKind {
		return Sample{}, fmt.Errorf("a sample must be a JSON object, got %s", v.Kind())
	}
	var s Sample
	if id, ok := v.Get("id"); ok && (id.Kind() == jsonvalue.StringKind || id.Kind() == jsonvalue.IntKind) {
		s.ID = id.Text()
	}
	ui, ok := v.Get("user_input")
	if !ok {
		return Sample{}, errors.New(`"user_input" is missing`)
	}
	if ui.Kind() != jsonvalue.ArrayKind {
		hint := ""
		if ui.Kind() == jsonvalue.StringKind {
			hint = `: it looks like a ragas SingleTurnSample; the metrics score a MultiTurnSample, whose "user_input" is a list of {"type", "content"} messages`
		}
		return Sample{}, fmt.Errorf(`"user_input" must be a list of messages, got %s%s`, ui.Kind(), hint)
	}
	s.Conversation = make(Conversation, ui.Len())
	for i := range s.Conversation {
		m, err := ragasMessage(ui.Index(i), i)
		if err != nil {
			return Sample{}, err
		}
		s.Conversation[i] = m
	}
	if err := s.Conversation.Validate(); err != nil {
		return Sample{}, err
	}
	if ref, ok := v.Get("reference"); ok && ref.Kind() != jsonvalue.NullKind {
		if ref.Kind() != jsonvalue.StringKind {
			return Sample{}, fmt.Errorf(`"reference" must be a string, got %s`, ref.Kind())
		}
		s.Reference = ref.Text()
	}
	if rtc, ok := v.Get("reference_tool_calls"); ok && rtc.Kind() != jsonvalue.NullKind {
		if rtc.Kind() != jsonvalue.ArrayKind {
			return Sample{}, fmt.Errorf(`"reference_tool_calls" must be a list, got %s`, rtc.Kind())
		}
		s.ReferenceToolCalls = make([]ToolCall, rtc.Len())
		for j := range s.ReferenceToolCalls {
			tc, err := ragasToolCall(rtc.Index(j))
			if err != nil {
				return Sample{}, fmt.Errorf("reference_tool_calls[%d]: %w", j, err)
			}
			s.ReferenceToolCalls[j] = tc
		}
	}
	if rt, ok := v.Get("reference_topics"); ok && rt.Kind() != jsonvalue.NullKind {
		if rt.Kind() != jsonvalue.ArrayKind {
			return Sample{}, fmt.Errorf(`"reference_topics" must be a list of strings, got %s`, rt.Kind())
		}
		for j := 0; j < rt.Len(); j++ {
			t := rt.Index(j)
			if t.Kind() != jsonvalue.StringKind {
				return Sample{}, fmt.Errorf("reference_topics[%d] must be a string, got %s", j, t.Kind())
			}
			s.ReferenceTopics = append(s.ReferenceTopics, t.Text())
		}
	}
	return s, nil
}

func ragasMessage(v jsonvalue.Value, i int) (Message, error) {
	fail := func(format string, args ...any) (Message, error) {
		return Message{}, &MessageError{Message: i, ToolCall: -1, Err: fmt.Errorf(format, args...)}
	}
	if v.Kind() != jsonvalue.ObjectKind {
		return fail("a message must be an object, got %s", v.Kind())
	}
	typ, ok := v.Get("type")
	if !ok || typ.Kind() != jsonvalue.StringKind {
		if _, role := v.Get("role"); role && !ok {
			return fail(`"type" must be "human", "ai" or "tool" (it has a "role": ragas's messages name theirs by "type"; a provider's messages go under "messages")`)
		}
		return fail(`"type" must be "human", "ai" or "tool"`)
	}
	var m Message
	switch typ.Text() {
	case "human":
		m.Role = Human
	case "ai":
		m.Role = AI
	case "tool":
		m.Role = Tool
	default:
		return fail(`unknown "type" %q (want "human", "ai" or "tool")`, typ.Text())
	}
	content, ok := v.Get("content")
	if !ok || content.Kind() != jsonvalue.StringKind {
		what := "missing"
		if ok {
			what = content.Kind().String()
		}
		return Message{}, &MessageError{Message: i, Role: m.Role, ToolCall: -1, Err: fmt.Errorf(`"content" must be a string, got %s`, what)}
	}
	m.Content = content.Text()
	if tcs, ok := v.Get("tool_calls"); ok && tcs.Kind() != jsonvalue.NullKind {
		if m.Role != AI {
			return Message{}, &MessageError{Message: i, Role: m.Role, ToolCall: -1, Err: errors.New(`only ai messages have "tool_calls"`)}
		}
		if tcs.Kind() != jsonvalue.ArrayKind {
			return Message{}, &MessageError{Message: i, Role: m.Role, ToolCall: -1, Err: fmt.Errorf(`"tool_calls" must be a list, got %s`, tcs.Kind())}
		}
		m.ToolCalls = make([]ToolCall, tcs.Len())
		for j := range m.ToolCalls {
			tc, err := ragasToolCall(tcs.Index(j))
			if err != nil {
				return Message{}, &MessageError{Message: i, Role: m.Role, ToolCall: j, Name: tc.Name, Err: err}
			}
			m.ToolCalls[j] = tc
		}
	}
	return m, nil
}

func ragasToolCall(v jsonvalue.Value) (ToolCall, error) {
	if v.Kind() != jsonvalue.ObjectKind {
		return ToolCall{}, fmt.Errorf("a tool call must be an object, got %s", v.Kind())
	}
	name, ok := v.Get("name")
	if !ok || name.Kind() != jsonvalue.StringKind {
		return ToolCall{}, errors.New(`"name" must be a string`)
	}
	tc := ToolCall{Name: name.Text()}
	args, ok := v.Get("args")
	if !ok {
		return tc, errors.New(`"args" is missing`)
	}
	if args.Kind() != jsonvalue.ObjectKind {
		return tc, fmt.Errorf(`"args" must be an object, got %s`, args.Kind())
	}
	tc.Args = args
	return tc, nil
}

// sampleSeeds are valid samples and near misses of every field's rules,
// in every order of the fields, given twice, and with malformed JSON after
// a problem with a field.
var sampleSeeds = []string{
	// A reference call's arguments written as a made call's (sameArgs).
	`{"user_input": [{"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": {"a": [1, {"b": "c"}]}}]}], "reference_tool_calls": [{"name": "g", "args": {"a": [1, {"b": "c"}]}}, {"name": "f", "args": {"a": [1, {"b": "c"}]}, "x": 1}]}`,
	`{"user_input": [{"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": {"a": 1}}]}], "reference_tool_calls": [{"name": "f", "args": {"a": 1}x}]}`,
	// Shapes mistaken for a sample: a SingleTurnSample, a provider's
	// messages under "user_input", a "role" beside a "type" not a string.
	`{"user_input": "hi", "response": "hello"}`,
	`{"user_input": [{"role": "user", "content": "hi"}]}`,
	`{"user_input": [{"content": "hi", "role": 1}, {"role": "x"}]}`,
	`{"user_input": [{"role": "user", "type": null, "content": "hi"}]}`,
	// Space after a colon other than the one space the fast path reads
	// in one test.
	"{\"user_input\":  [{\"type\": \"human\",  \"content\": \"x\"}, {\"type\":\t\"ai\", \"content\":\n\"y\", \"tool_calls\": [{\"name\":  \"f\", \"args\": \t{\"a\": 1}}]}], \"reference_tool_calls\": \n[{\"name\": \"f\", \"args\": {}}]}",
	`{"id": "case-7", "user_input": [{"type": "human", "content": "hi"}]}`,
	`{"user_input": [{"type": "human", "content": "hi"}], "id": 42}`,
	`{"id": -0, "user_input": []}`,
	`{"id": 1.5, "user_input": []}`,
	`{"id": "\u0041b", "user_input": []}`,
	`{"id": "a", "user_input": [], "id": {"k": 1}}`,
	`{"id": {"k": 1}, "user_input": [], "id": 12345678901234567890123}`,
	`{"id": null, "user_input": [{"type": "ai", "content": "x", "tool_calls": [{"name": "f", "args": {"id": "not the sample's"}}]}]}`,
	`{"user_input": [{"type": "human", "content": "hi"}, {"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": {"a": 1, "b": [1.0, {"c": null}]}}]}, {"type": "tool", "content": "ok"}], "reference_tool_calls": [{"name": "f", "args": {"a": 1}}], "reference": "r", "reference_topics": ["x", "y"]}`,
	`{"user_input": [], "reference_tool_calls": []}`,
	`{"user_input": [{"type": "ai", "content": "x", "tool_calls": []}, {"type": "tool", "content": "t"}]}`,
	`{"user_input": [{"type": "ai", "content": "x", "tool_calls": null}], "reference_tool_calls": null, "reference": null, "reference_topics": null}`,
	`{"reference_topics": [], "user_input": [{"content": "x", "type": "human", "extra": {"deep": [1, 2]}}], "other": 1}`,
	`{"user_input": [{"type": "human", "content": "a\nb \u00e9 \ud83d\ude00 \/ \\ \t"}], "reference": "\"q\" \u20ac€"}`,
	`{"user_input": [{"type": "human", "content": "日本語 ok"}], "reference_topics": ["caf\u00e9", "x\"y"]}`,
	` {"user_input": [{"type": "human", "content": "x"}]} `,
	`{"user_input": [{"type": "ai", "content": "x", "tool_calls": [{"name": "f", "args": {}, "id": "c1"}]}]}`,
	`{"user_input": [{"type": "ai", "content": "x", "tool_calls": [{"args": {"k": "v"}, "name": "f"}]}]}`,
	`{"user_input": [{"type": "ai", "content": "x", "tool_calls": [{"name": "f", "args": {"k": 1, "k": 2}}]}]}`,
	`{"reference_tool_calls": [{"name": "r", "args": {}}], "user_input": [{"type": "ai", "content": "", "tool_calls": [{"name": "m", "args": {}}]}, {"type": "tool", "content": "x"}]}`,
	`{"user_input": [{"tool_calls": [{"name": "f", "args": {}}], "content": "x", "type": "ai"}], "reference": "a", "reference": null}`,
	`{"user_input": [{"type": "ai", "content": "x", "tool_calls": [{"name": "f", "args": 1}], "tool_calls": [{"name": "g", "args": {}}]}]}`,
	`{"user_input": [{"type": "ai", "content": "x", "tool_calls": [{"name": "g", "args": {}}], "tool_calls": null}]}`,
	`{"user_input": 1, "user_input": [{"type": "human", "content": "x"}], "reference_topics": [1], "reference_topics": ["ok"]}`,
	`{"user_input": [{"type": "human", "content": "x"}], "reference_tool_calls": [{"name": "f"}], "reference_tool_calls": [{"name": "f", "args": {"a": 1}}]}`,
	`{"user_input": [{"type": 1, "type": "human", "content": 2, "content": "x", "name": "n"}]}`,
	`{"user\u005finput": [{"type": "human", "content": "x"}]}`,
	// Errors.
	`{"user_input": [{"type": "human", "content": "x"}], "user_input": []}`,
	`{"user_input": [{"type": "robot", "content": "x"}]}`,
	`{"user_input": [{"type": "human"}]}`,
	`{"user_input": [{"type": "human", "content": 3}]}`,
	`{"user_input": [{"type": "human", "content": "x", "tool_calls": [{"name": "f", "args": {}}]}]}`,
	`{"user_input": [{"type": "human", "content": "x", "tool_calls": 3}]}`,
	`{"user_input": [{"type": "ai", "content": 1, "tool_calls": 3}]}`,
	`{"user_input": [{"type": "tool", "content": "x"}]}`,
	`{"user_input": [{"type": "ai", "content": "x", "tool_calls": [{"name": "", "args": {}}]}]}`,
	`{"user_input": [{"type": "ai", "content": "x", "tool_calls": [{"name": "f", "args": []}]}]}`,
	`{"user_input": [{"type": "ai", "content": "x", "tool_calls": [{"name": "f"}]}]}`,
	`{"user_input": [{"type": "ai", "content": "x", "tool_calls": [{"name": "ok", "args": {}}, {"name": "search", "args": "q"}, {"name": 1}]}]}`,
	`{"user_input": [{"type": "ai", "content": "x", "tool_calls": [1, {"name": "f"}]}]}`,
	`{"user_input": [{"type": "ai", "content": "x", "tool_calls": {}}]}`,
	`{"user_input": [{"type": "human", "content": "x"}, 7, {"type": "robot"}]}`,
	`{"user_input": [], "reference_tool_calls": [{"name": 1, "args": {}}]}`,
	`{"user_input": [], "reference_tool_calls": [{"name": "a", "args": {}}, {"name": "b"}]}`,
	`{"user_input": [], "reference_tool_calls": "x"}`,
	`{"user_input": [], "reference": 1}`,
	`{"user_input": [], "reference_topics": ["a", 2]}`,
	`{"user_input": [], "reference_topics": {}}`,
	`{"reference_topics": 1, "reference_tool_calls": 1, "reference": 1, "user_input": [{"type": "tool", "content": ""}]}`,
	`{"reference_topics": 1, "reference_tool_calls": 1, "reference": 1, "user_input": [{"type": "human", "content": ""}]}`,
	`{"reference_topics": 1, "reference_tool_calls": 1, "user_input": []}`,
	`{"reference": 1, "user_input": [{"type": "x"}]}`,
	`{"user_input": {}}`,
	`{"reference": "no user_input"}`,
	`[{"user_input": []}]`,
	`"x"`,
	`{"user_input": []} x`,
	`[1] x`,
	`{"user_input": [{"type": "human", "content": "x"},]}`,
	`{"user_input": [{"type": "human", "content": "x"}]`,
	`{"user_input": [{"type": "human", "content": "\x01"}]}`,
	`{"user_input": [{"type": "human", "content": "x"}], "n": 01}`,
	`{"user_input": [{"type": "human", "content": "x"}], "n": nul}`,
	`{"user_input": [], "reference": nullx}`,
	`{"user_input": [{"type": "robot", "content": "x"}], "reference": nullx}`,
	`{"user_input": 1, "reference": [}`,
	`{"reference_topics": [1, }`,
	`{"user_input": [{"type": "ai", "content": "x", "tool_calls": [{"name": "f", "args": "q"}, {"name": "g", "args": {"a": [}}]}]}`,
	`{"user_input": [{"type": "ai", "content": "x", "tool_calls": [{"name": "f", "args": {"a": NaN, "b": -Infinity}}]}]}`,
	`{"user_input": [{"type": "human", "content": "x"}], "args": ` + strings.Repeat("[", maxDepth-1) + strings.Repeat("]", maxDepth-1) + `}`,
	`{"user_input": [{"type": "human", "content": "x"}], "args": ` + strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth) + `}`,
	`{"user_input": [{"type": "ai", "content": "x", "tool_calls": [{"name": "f", "args": {"a": ` + strings.Repeat("[", maxDepth-6) + strings.Repeat("]", maxDepth-6) + `}}]}]}`,
	`{"user_input": [{"type": "ai", "content": "x", "tool_calls": [{"name": "f", "args": {"a": ` + strings.Repeat("[", maxDepth-5) + strings.Repeat("]", maxDepth-5) + `}}]}]}`,
	`{"user_input": [], "reference_tool_calls": [{"name": "f", "args": {"a": ` + strings.Repeat("[", maxDepth-3) + strings.Repeat("]", maxDepth-3) + `}}]}`,
	"{\n\"user_input\": [}",
	``,
	`{`,
	`{"user_input"`,
	`{"user_input": [{"type": "human", "content": "x"}] "reference": ""}`,
}

// maxDepth is jsonvalue's nesting limit, Python's json module's.
const maxDepth = 990

// sameSample reports whether a and b are the same Sample: the same
// messages and calls, arguments with the same key order and number kinds,
// and nil and empty lists told apart.
func sameSample(a, b Sample) bool {
	sameCalls := func(x, y []ToolCall) bool {
		if len(x) != len(y) || (x == nil) != (y == nil) {
			return false
		}
		for i := range x {
			if x[i].ID != y[i].ID || x[i].Name != y[i].Name || x[i].Args.Kind() != y[i].Args.Kind() ||
				x[i].Args.String() != y[i].Args.String() {
				return false
			}
		}
		return true
	}
	// sameSample compares every field of a Sample and of a Message this
	// package's decoders fill (TestSameSampleKnowsEveryField).
	if a.ID != b.ID || len(a.Conversation) != len(b.Conversation) || (a.Conversation == nil) != (b.Conversation == nil) ||
		a.Reference != b.Reference || !sameCalls(a.ReferenceToolCalls, b.ReferenceToolCalls) ||
		!slices.Equal(a.ReferenceTopics, b.ReferenceTopics) || (a.ReferenceTopics == nil) != (b.ReferenceTopics == nil) {
		return false
	}
	for i, m := range a.Conversation {
		n := b.Conversation[i]
		if m.Role != n.Role || m.Content != n.Content || m.ToolCallID != n.ToolCallID || !sameCalls(m.ToolCalls, n.ToolCalls) {
			return false
		}
	}
	return true
}

// checkAgainstReference holds ParseSample to referenceSample on text: the
// same Sample, or the same error, of the same type, with the same text.
func checkAgainstReference(t *testing.T, text string) {
	t.Helper()
	checkAgainstReferenceReusing(t, &reusedParser, text)
}

// checkAgainstReferenceReusing is checkAgainstReference with reused as
// the reusing parser.
func checkAgainstReferenceReusing(t *testing.T, reused *sampleParser, text string) {
	t.Helper()
	got, gotErr := ParseSample(text)
	want, wantErr := referenceSample(text)
	if !sameError(gotErr, wantErr) {
		t.Fatalf("sample %q:\nParseSample error: %v (%T)\n  reference error: %v (%T)", text, gotErr, gotErr, wantErr, wantErr)
	}
	var gotSyn, wantSyn *jsonvalue.SyntaxError
	if errors.As(gotErr, &gotSyn) && (!errors.As(wantErr, &wantSyn) || *gotSyn != *wantSyn) {
		t.Fatalf("sample %q: syntax error %+v, reference %+v", text, gotSyn, wantSyn)
	}
	if gotErr == nil && !sameSample(got, want) {
		t.Fatalf("sample %q:\nParseSample: %#v\n  reference: %#v", text, got, want)
	}
	// Where the fast path reads the text, the general decoder alone, which
	// reads what the fast path leaves, gives the same Sample and the same
	// error: whichever path reads a text, the result is the same. (Where
	// the fast path leaves the text, ParseSample is the general decoder;
	// it leaves every text of malformed JSON.)
	if !isSyntax(gotErr) && fastReads(text) {
		var d sampleDecoder
		d.p.Reset(text)
		general, generalErr := d.sample()
		if !sameError(generalErr, gotErr) {
			t.Fatalf("sample %q: general decoder's error %v (%T), ParseSample's %v (%T)", text, generalErr, generalErr, gotErr, gotErr)
		}
		if gotErr == nil && !sameSample(general, want) {
			t.Fatalf("sample %q:\ngeneral decoder: %#v\n      reference: %#v", text, general, want)
		}
	}
	// A reusing parser (dataset.Parser's) that has parsed other samples before, into the memory
	// it reuses, gives the same Sample and the same error.
	again, againErr := reused.parse(text)
	if !sameError(againErr, gotErr) {
		t.Fatalf("sample %q: reusing parser error %v (%T), ParseSample's %v (%T)", text, againErr, againErr, gotErr, gotErr)
	}
	if gotErr == nil && !sameSample(again, want) {
		t.Fatalf("sample %q:\nreusing parser: %#v\n      reference: %#v", text, again, want)
	}
}

// sameError reports whether a and b are both nil, or errors of the same
// type with the same text. (It compares types with reflect, not by
// formatting them with %T: it runs on every cut of every seed.)
func sameError(a, b error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return reflect.TypeOf(a) == reflect.TypeOf(b) && a.Error() == b.Error()
}

// TestSameSampleKnowsEveryField: a field added to Sample is one more that
// sameSample must compare, or the decoders may disagree on it unseen.
func TestSameSampleKnowsEveryField(t *testing.T) {
	var names []string
	st := reflect.TypeFor[Sample]()
	for i := range st.NumField() {
		names = append(names, st.Field(i).Name)
	}
	if want := []string{"ID", "Conversation", "Reference", "ReferenceToolCalls", "ReferenceTopics"}; !slices.Equal(names, want) {
		t.Errorf("Sample's fields are %v; sameSample compares %v: make it compare the new ones", names, want)
	}
}

// fastReads reports whether the fast path reads text.
func fastReads(text string) bool {
	var d sampleDecoder
	d.p.Reset(text)
	_, read, _ := d.fast(text)
	return read
}

// reusedParser parses every sample checkAgainstReference checks, one after
// another, as the CLI's workers do (the tests that use it do not run in
// parallel).
var reusedParser sampleParser

// TestParseSampleMatchesReference checks every seed and every cut of it
// in four parallel parts (cut i in part i mod 4), each with a reusing
// parser of its own.
//
// A text is checked once in its part: the check is a function of the text
// alone (ParseSample and the reference are; the reusing parser must be, as
// the check holds it to them), and a cut of one seed is often a cut of
// another, the same bytes. A cut of length i falls in part i mod 4 whatever
// its seed, so every distinct cut is still checked. Most of the work is in
// the deep seeds, whose every cut parses some 1,000 brackets five times
// (ParseSample and the reusing parser each try the fast path first); the
// two pairs of them that differ by one bracket share their first ~1,000
// cuts, an eighth of the test's work.
func TestParseSampleMatchesReference(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	const parts = 4
	for p := range parts {
		t.Run(strconv.Itoa(p), func(t *testing.T) {
			t.Parallel()
			var reused sampleParser
			checked := make(map[string]bool)
			check := func(text string) {
				if !checked[text] {
					checked[text] = true
					checkAgainstReferenceReusing(t, &reused, text)
				}
			}
			for k, s := range sampleSeeds {
				if k%parts == p {
					check(s)
				}
				// Cut anywhere, a sample is malformed JSON, reported where the
				// reference reports it, even after a problem with a field.
				// Deep in a run of letters or of one byte, a cut is the one
				// beside it, and is not made (cutpoints): the deep arrays'
				// brackets made this test 4.7 s of CPU under -race, their
				// cuts quadratic.
				for i := p; i < len(s); i += parts {
					if cutpoints.Matters(s, i) {
						check(s[:i])
					}
				}
			}
		})
	}
}

// FuzzParseSampleReference: ParseSample, which reads a sample in one pass,
// accepts exactly what the reference (parse into a Value, then convert)
// accepts, and returns the same Sample or the same error.
func FuzzParseSampleReference(f *testing.F) {
	for _, s := range sampleSeeds {
		f.Add(s)
	}
	f.Fuzz(checkAgainstReference)
}

// TestParseSampleMatchesReferenceOnVectors holds ParseSample to the
// reference on the samples the metrics are tested on.
func TestParseSampleMatchesReferenceOnVectors(t *testing.T) {
	n := 0
	for _, file := range []string{"metric/testdata/pyvectors.jsonl", "metric/testdata/toolcall_vectors.jsonl"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			// pyvectors.jsonl has NaN and Infinity, which encoding/json
			// refuses: its samples are cut out of their lines.
			if end := strings.LastIndex(line, `,"kind":"sample"`); strings.HasPrefix(line, `{"sample":`) && end > 0 {
				checkAgainstReference(t, line[len(`{"sample":`):end])
				n++
				continue
			}
			var rec struct{ Sample json.RawMessage }
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if rec.Sample != nil {
				checkAgainstReference(t, string(rec.Sample))
				n++
			}
		}
	}
	if n < 1500 {
		t.Fatalf("only %d samples", n)
	}
}
