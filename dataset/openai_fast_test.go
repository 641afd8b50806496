package dataset

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/samplereuse"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// fastVsGeneral reads text both ways, as a Parser of format f with rawText
// and maxValues would (the fast path, then, whatever it says, the general
// reading alone), and fails t when the fast path takes a record the
// general reading refuses, or gives another Sample. It reports whether
// the fast path took the record.
func fastVsGeneral(t *testing.T, text string, f Format, rawText bool, maxValues int) bool {
	t.Helper()
	newInto := samplereuse.NewInto.(func(bool, int, string) func(string, *agentcheck.Sample) error)
	fast := &openAIFast{rawText: rawText}
	var args argDecoders
	var got agentcheck.Sample
	if !fast.read(text, newInto(rawText, maxValues, "--b"), &args, maxValues, &got) {
		return false
	}
	var want agentcheck.Sample
	var dec jsonvalue.Decoder
	var args2 argDecoders
	r := Record{File: "f.jsonl", Line: 1, Text: text}
	if err := r.bounded(f, newInto(rawText, maxValues, "--b"), &dec, &args2, maxValues, "--b", &want); err != nil {
		t.Fatalf("the fast path reads\n%s\nwhich the general reading refuses: %v", text, err)
	}
	opts := cmp.Options{cmp.Comparer(func(a, b jsonvalue.Value) bool { return jsonvalue.Equal(a, b) && a.Kind() == b.Kind() })}
	if rawText {
		// A text that holds escapes is kept as written: read, it is the
		// general reading's.
		for i := range got.Conversation {
			if i < len(want.Conversation) && got.Conversation[i].Content != want.Conversation[i].Content {
				v, err := jsonvalue.Parse([]byte(`"` + got.Conversation[i].Content + `"`))
				if err != nil || v.Text() != want.Conversation[i].Content || !strings.Contains(got.Conversation[i].Content, `\`) {
					t.Fatalf("message %d's raw text %q is not %q written with escapes, in\n%s", i, got.Conversation[i].Content, want.Conversation[i].Content, text)
				}
				got.Conversation[i].Content = want.Conversation[i].Content
			}
		}
	}
	if diff := cmp.Diff(want, got, opts); diff != "" {
		t.Fatalf("the fast path reads\n%s\nas another sample than the general reading (-general +fast):\n%s", text, diff)
	}
	return true
}

// openAIRecord writes a random record of OpenAI Chat Completions messages:
// mostly the shapes SDKs write, now and then what only the general reading
// takes (content parts, custom tools, arguments as objects, keys given
// twice, other formats' keys) or refuses (bad roles, unanswered results,
// malformed JSON).
func openAIRecord(r *rand.Rand) string {
	pick := func(s ...string) string { return s[r.IntN(len(s))] }
	odd := func() bool { return r.IntN(25) == 0 }
	sp := func() string {
		if r.IntN(4) == 0 {
			return pick(" ", "\n", "\t", "  ", "\r\n ")
		}
		return ""
	}
	str := func() string {
		return strconv.Quote(pick("hi", "Weather in Paris?", "line\nbreak", `quote " and \ slash`, "é ü 😀", "", "\u00e9", "tab\there", `{"json": 1}`, `"user_input"`, `{"user_input": []}`))
	}
	args := func() string {
		switch r.IntN(12) {
		case 0:
			return strconv.Quote("")
		case 1:
			return strconv.Quote("null")
		case 2:
			return strconv.Quote(`{"city": "Par`) // not valid JSON
		case 3:
			return strconv.Quote(`[1, 2]`)
		case 4:
			if odd() {
				return `{"city": "Paris"}` // an object, as some servers send
			}
		}
		return strconv.Quote(pick(`{"city": "Paris"}`, `{"city":"Rome","days":2}`, `{"q": "a\"b", "n": 1.0, "deep": {"x": [1, {"y": null}]}}`, `{}`, ` {"a": 1} `))
	}
	var ids []string
	call := func() string {
		id := fmt.Sprintf("call_%d", r.IntN(4))
		ids = append(ids, id)
		members := []string{`"id":` + sp() + strconv.Quote(id), `"type":"function"`, `"function":{"name":` + strconv.Quote(pick("get_weather", "search", "book")) + `,"arguments":` + args() + `}`}
		switch {
		case odd():
			members[1] = `"type":"custom","custom":{"name":"run","input":"ls"}`
		case odd():
			members = append(members, `"index":0`)
		case odd():
			members[0] = `"id":7`
		case odd():
			members = members[1:]
		case odd():
			members[2] = `"function":{"name":"","arguments":"{}"}`
		case odd():
			members[2] = `"function":{"name":"f","arguments":"{}","extra":[1]}`
		case odd():
			members = append(members, `"id":"again"`)
		}
		r.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
		return "{" + strings.Join(members, ","+sp()) + "}"
	}
	message := func() string {
		role := pick("user", "assistant", "assistant", "tool", "system", "developer")
		if odd() {
			role = pick("model", "bot", "function")
		}
		members := []string{`"role":` + sp() + strconv.Quote(role)}
		switch r.IntN(8) {
		case 0:
			members = append(members, `"content":null`)
		case 1:
			if odd() {
				members = append(members, `"content":[{"type":"text","text":"hi"}]`)
			}
		default:
			members = append(members, `"content":`+str())
		}
		if role == "assistant" || odd() {
			switch r.IntN(5) {
			case 0:
				members = append(members, `"tool_calls":null`)
			case 1:
				members = append(members, `"tool_calls":[]`)
			case 2:
			default:
				calls := make([]string, 1+r.IntN(3))
				for i := range calls {
					calls[i] = call()
				}
				members = append(members, `"tool_calls":[`+strings.Join(calls, ","+sp())+`]`)
			}
		}
		if role == "tool" && len(ids) > 0 {
			id := ids[r.IntN(len(ids))]
			if odd() {
				id = "nobody"
			}
			members = append(members, `"tool_call_id":`+strconv.Quote(id))
		}
		switch {
		case odd():
			members = append(members, `"refusal":"I can't"`)
		case odd():
			members = append(members, `"name":"alice"`)
		case odd():
			members = append(members, `"role":"user"`)
		case odd():
			members = append(members, pick(`"parts":[{"text":"x"}]`, `"type":"message"`, `"function_call":{"name":"f","arguments":"{}"}`, `"refusal":null`))
		case r.IntN(4) == 0: // as openai's SDK dumps a message
			members = append(members, `"refusal":null`, `"audio":null`, `"annotations":[]`, `"function_call":null`)
		}
		r.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
		return "{" + sp() + strings.Join(members, ","+sp()) + sp() + "}"
	}
	msgs := make([]string, 1+r.IntN(6))
	for i := range msgs {
		msgs[i] = message()
	}
	members := []string{`"messages":` + sp() + "[" + strings.Join(msgs, ","+sp()) + "]"}
	if r.IntN(3) > 0 {
		members = append(members, `"reference_tool_calls":`+pick(`[{"name": "get_weather", "args": {"city": "Paris"}}]`, `[]`, `[{"name":"search","args":{"q":"a\"b"}}, {"name":"book","args":{}}]`, `null`, `[{"name": 1}]`))
	}
	if r.IntN(3) == 0 {
		members = append(members, `"id":`+pick(`"s1"`, `"s\u0032"`, `7`, `1.50`, `null`, `{"a":1}`, "\"\\n\xed\xa0\x80\xed\xb0\x80\"", `1e400`, `-0`, `123456789012345678901234567890`))
	}
	if r.IntN(4) == 0 {
		members = append(members, `"reference":`+str(), `"reference_topics":`+pick(`["weather"]`, `[]`, `"weather"`))
	}
	if odd() {
		members = append(members, pick(`"messages":[]`, `"id":"twice"`, `"tools":[{"type":"function"}]`, `"model":"gpt-4o"`, `"\u0075ser_input":[]`, `"reference\u005ftool_calls":[]`, `"meta":{"user_input":1}`))
	}
	r.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
	text := "{" + sp() + strings.Join(members, ","+sp()) + sp() + "}"
	if odd() {
		text = text[:r.IntN(len(text))] // cut short
	}
	return text
}

// TestOpenAIFastIsTheGeneralReading: on 6,000 random records, whatever the
// fast path takes the general reading takes too, and reads as the same
// Sample (with the messages' text as written under rawText), with a bound
// on values and without; and the fast path takes many of them.
func TestOpenAIFastIsTheGeneralReading(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 26))
	took := 0
	const n = 6000
	for i := range n {
		text := openAIRecord(r)
		bound := []int{0, 1 << 20, 64}[i%3]
		if fastVsGeneral(t, text, []Format{Auto, OpenAI}[i/2%2], i%2 == 0, bound) {
			took++
		}
	}
	// A third have a bound of 64 values, which only the general reading
	// reads; many of the rest are conversations that are no conversation
	// (a result before its call), which neither reads.
	if took < n/8 || took == n {
		t.Errorf("the fast path took %d of %d records: the random records are too one-sided", took, n)
	}
	t.Logf("the fast path took %d of %d records", took, n)
}

// FuzzOpenAIFastIsTheGeneralReading is TestOpenAIFastIsTheGeneralReading
// on the fuzzer's records.
func FuzzOpenAIFastIsTheGeneralReading(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		f.Add(openAIRecord(r), false)
	}
	f.Add(`{"messages":[{"role":"user","content":"a\u0062"},{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}}]},{"role":"tool","tool_call_id":"c","content":"ok"}],"reference_tool_calls":[{"name":"f","args":{"x":1}}]}`, true)
	// Surrogate halves, written raw, in the id and the reference: written
	// out again, two halves come back as one character.
	f.Add("{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"id\":\"\n\xed\xa0\x80\xed\xb0\x80\",\"reference\":\"\xed\xa0\x80\xed\xb0\x80\"}", false)
	f.Add("{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"id\":7,\"reference\":\"\\n\xed\xa0\x80\xed\xb0\x80\"}", false)
	f.Fuzz(func(t *testing.T, text string, rawText bool) {
		for _, format := range []Format{Auto, OpenAI} {
			for _, bound := range []int{0, len(text) + 1, 1 << 20} {
				fastVsGeneral(t, text, format, rawText, bound)
			}
		}
	})
}

// After a record of many messages and calls, the fast path does not keep
// their memory for the small records that follow.
func TestOpenAIFastKeepsNoLargeMemory(t *testing.T) {
	newInto := samplereuse.NewInto.(func(bool, int, string) func(string, *agentcheck.Sample) error)
	var msgs []string
	for range 3 * maxKeptMessages {
		msgs = append(msgs, `{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"d","type":"function","function":{"name":"g","arguments":"{}"}}]}`)
	}
	big := `{"messages":[{"role":"user","content":"hi"},` + strings.Join(msgs, ",") + `]}`
	small := `{"messages":[{"role":"user","content":"hi"}]}`
	var f openAIFast
	var args argDecoders
	var s agentcheck.Sample
	for _, text := range []string{big, small} {
		if !f.read(text, newInto(false, 0, ""), &args, 0, &s) {
			t.Fatalf("the fast path refuses %.80s", text)
		}
	}
	if len(s.Conversation) != 1 || cap(f.conv) > maxKeptMessages || cap(f.calls) > maxKeptMessages || cap(f.counts) > maxKeptMessages {
		t.Errorf("after a record of %d messages and a small one, the fast path holds %d messages, %d calls, %d counts of memory",
			len(msgs)+1, cap(f.conv), cap(f.calls), cap(f.counts))
	}
	// Nor the texts and values of a record's messages past the next one's.
	two := `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"` + strings.Repeat("x", 1<<20) + `","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"a\": 1}"}}]}]}`
	for _, text := range []string{two, small} {
		if !f.read(text, newInto(false, 0, ""), &args, 0, &s) {
			t.Fatalf("the fast path refuses %.80s", text)
		}
	}
	if old := f.conv[:2][1]; old.Content != "" || old.ToolCalls != nil || f.calls[:1][0].Name != "" {
		t.Errorf("after a small record, the fast path still holds the last one's second message (%d bytes of text, %d calls)", len(old.Content), len(old.ToolCalls))
	}
}

// The fast path reads a record's id and references where they stand in
// its text (the root's refReader), not from a copy made for them; and one
// it leaves to the copy (reference_topics, which refReader does not take)
// still reads as the general reading does.
func TestOpenAIFastReadsReferencesWhereTheyStand(t *testing.T) {
	msgs := `"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"x\": 1}"}}]},{"role":"tool","tool_call_id":"c","content":"ok"}]`
	refs := `"id":"case-7","reference":"done","reference_tool_calls":[{"name":"f","args":{"x":1}}]`
	within := func(s, text string) bool {
		p, b := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(text)))
		return len(s) > 0 && p >= b && p+uintptr(len(s)) <= b+uintptr(len(text))
	}
	for _, text := range []string{`{` + msgs + `,` + refs + `}`, `{` + refs + `, ` + msgs + `}`} {
		var f openAIFast
		var s agentcheck.Sample
		if !f.read(text, samplereuse.NewInto.(func(bool, int, string) func(string, *agentcheck.Sample) error)(false, 0, ""), nil, 0, &s) {
			t.Fatalf("the fast path refuses %s", text)
		}
		if s.ID != "case-7" || s.Reference != "done" || len(s.ReferenceToolCalls) != 1 || s.ReferenceToolCalls[0].Name != "f" {
			t.Fatalf("read %+v from %s", s, text)
		}
		// The call's arguments too, escaped as the record writes them.
		if src := s.Conversation[1].ToolCalls[0].Args.Source(); src != `{\"x\": 1}` {
			t.Errorf("the call's arguments' Source is %q, want them as the record writes them", src)
		}
		for _, str := range []string{s.ID, s.Reference, s.ReferenceToolCalls[0].Name, s.Conversation[1].ToolCalls[0].Args.Source()} {
			if !within(str, text) {
				t.Errorf("%q is not read where it stands in the record's text %s", str, text)
			}
		}
		// After the messages, the reference call's arguments, written as
		// the call's but for space, are the call's Value.
		shared := s.ReferenceToolCalls[0].Args.Source() == s.Conversation[1].ToolCalls[0].Args.Source()
		if after := strings.Index(text, `"messages"`) < strings.Index(text, `"reference_tool_calls"`); shared != after {
			t.Errorf("the reference call shares the call's arguments: %v, want %v (%s)", shared, after, text)
		}
		fastVsGeneral(t, text, Auto, false, 0)
	}
	withTopics := `{` + msgs + `,` + refs + `,"reference_topics":["weather"]}`
	if !fastVsGeneral(t, withTopics, Auto, false, 0) {
		t.Errorf("the fast path refuses a record with reference_topics: %s", withTopics)
	}
}
