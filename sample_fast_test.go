package agentcheck

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// fast is fastInto, the Sample returned.
func (d *sampleDecoder) fast(text string) (Sample, bool, error) {
	var s Sample
	read, err := d.fastInto(text, &s)
	return s, read, err
}

// The fast path reads the samples of the usual layout, which is the point
// of it: all of the spec's vectors that ragas
// can load and whose keys hold no escape, and none that it should leave to
// the general decoder (checkAgainstReference holds the two to the same
// result on every text either reads).
func TestFastReadsTheUsualLayout(t *testing.T) {
	var texts []string
	data, err := os.ReadFile("metric/testdata/toolcall_vectors.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec struct{ Sample json.RawMessage }
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Sample != nil {
			texts = append(texts, string(rec.Sample))
		}
	}
	read := 0
	for _, text := range texts {
		var d sampleDecoder
		d.p.Reset(text)
		_, ok, _ := d.fast(text)
		_, err := ParseSample(text)
		if ok {
			read++
		} else if err == nil && !strings.Contains(text, `"reference_topics"`) && !strings.Contains(text, `\`) && !strings.Contains(text, "null") {
			t.Errorf("the fast path leaves a sample of the usual layout to the general decoder: %s", text)
		}
	}
	if read < len(texts)*9/10 {
		t.Errorf("the fast path reads %d of %d samples, want at least 90%%", read, len(texts))
	}
}

// The fast path leaves to the general decoder what it does not read, so
// that the general decoder words the problem: each of these texts, some
// well formed and some not, is left to it.
func TestFastLeavesTheRest(t *testing.T) {
	for _, text := range []string{
		``,
		`[]`,
		`{}`,
		`{"user_input": []`,
		`{"user_input": [], "user_input": []}`,
		`{"user_inp\u0075t": []}`,
		`{"user_input": [{"type": "human", "content": null}]}`,
		`{"user_input": [{"type": "human", "type": "ai", "content": "x"}]}`,
		`{"user_input": [{"type": "robot", "content": "x"}]}`,
		`{"user_input": [{"type": "human", "content": "x", "tool_calls": []}]}`,
		`{"user_input": [{"type": "ai", "content": "x", "tool_calls": null}]}`,
		`{"user_input": [{"type": "ai", "content": "x", "tool_calls": [{"name": "f"}]}]}`,
		`{"user_input": [{"type": "ai", "content": "x", "tool_calls": [{"name": "f", "args": []}]}]}`,
		`{"user_input": [{"type": "ai", "content": "x", "tool_calls": [{"name": "f\n", "args": {}}]}]}`,
		`{"user_input": [], "reference_topics": ["a"]}`,
		`{"user_input": [], "reference": null}`,
		`{"user_input": [], "reference_tool_calls": null}`,
		`{"user_input": [{"type": "human", "content": "x"}]} x`,
		`{"user_input": [{"type": "human", "content": "x",}]}`,
		`{"user_input": [{"type": "human", "content": "\xff"}]}`,
	} {
		var d sampleDecoder
		d.p.Reset(text)
		if _, ok, _ := d.fast(text); ok {
			t.Errorf("the fast path read %q, which it should leave to the general decoder", text)
		}
		checkAgainstReference(t, text)
	}
}

// A reference call whose arguments are written as a call's before them in
// the sample gets that call's Value, read once (sameArgs), and the sample
// is the one the reference decoder reads: whatever the arguments hold,
// however nested, and wherever a text merely starts like them.
func TestFastReadsRepeatedArgumentsOnce(t *testing.T) {
	deep := strings.Repeat(`{"a": `, 980) + "1" + strings.Repeat("}", 980)
	for _, tc := range []struct {
		name, made, ref string
		shared          bool // the reference's Value is the made call's
	}{
		{"flat", `{"q": "python", "n": 3}`, `{"q": "python", "n": 3}`, true},
		{"empty", `{}`, `{}`, true},
		{"nested", `{"a": {"b": [1, 2, {"c": null}]}, "d": true}`, `{"a": {"b": [1, 2, {"c": null}]}, "d": true}`, true},
		{"keys given twice", `{"a": 1, "a": 2}`, `{"a": 1, "a": 2}`, true},
		{"escapes", `{"s": "a\"b\\u00e9"}`, `{"s": "a\"b\\u00e9"}`, true},
		{"deep", deep, deep, true},
		{"longer number", `{"a": 1}`, `{"a": 10}`, false},
		{"spaced otherwise", `{"a": 1}`, `{"a":1}`, false},
		{"more members", `{"a": 1}`, `{"a": 1, "b": 2}`, false},
		{"other value", `{"a": "x"}`, `{"a": "y"}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := `{"user_input": [{"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": ` + tc.made +
				`}]}], "reference_tool_calls": [{"name": "f", "args": ` + tc.ref + `}]}`
			checkAgainstReference(t, text)
			// The reference's calls first: nothing read before them to share.
			checkAgainstReference(t, `{"reference_tool_calls": [{"name": "f", "args": `+tc.ref+`}], "user_input": [{"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": `+tc.made+`}]}]}`)
			var d sampleDecoder
			d.p.Reset(text)
			s, ok, err := d.fast(text)
			if !ok || err != nil {
				t.Fatalf("the fast path did not read the sample (read %v, error %v)", ok, err)
			}
			made, ref := s.Conversation[0].ToolCalls[0].Args, s.ReferenceToolCalls[0].Args
			if got := ref.Source(); got != tc.ref {
				t.Errorf("the reference's arguments are %s, want %s", got, tc.ref)
			}
			if shared := ref.Len() > 0 && &ref.Members()[0] == &made.Members()[0]; shared != tc.shared && ref.Len() > 0 {
				t.Errorf("the reference's Value shares the made call's members: %v, want %v", shared, tc.shared)
			}
		})
	}
}
