package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/google/go-cmp/cmp"
)

// The command reads samples with dataset.Record.Sample, which decodes a
// record's text with agentcheck.ParseSample (the one sample decoder, held to
// a reference decoder in the root package's tests) and adds where the
// record came from. These tests hold the command's reading to ParseSample:
// the same Sample, or the same error in the same place, wrapped in a
// LoadError that names the file.

var valueEqual = cmp.Comparer(func(a, b jsonvalue.Value) bool {
	// The JSON text keeps key order and number kinds (1 is not 1.0) and
	// writes NaN as NaN, which Equal finds equal to nothing; Members tells
	// nil from empty.
	return a.Kind() == b.Kind() && a.String() == b.String() && (a.Members() == nil) == (b.Members() == nil)
})

func checkSameSample(t *testing.T, text string) {
	t.Helper()
	got, gotErr := dataset.Record{File: "f.jsonl", Line: 1, Text: text}.Sample()
	want, wantErr := agentcheck.ParseSample(text)
	if (gotErr == nil) != (wantErr == nil) {
		t.Fatalf("sample %q:\nRecord.Sample error: %v\nParseSample error: %v", text, gotErr, wantErr)
	}
	if gotErr != nil {
		var le *dataset.LoadError
		var gotSyn, wantSyn *jsonvalue.SyntaxError
		same := errors.As(gotErr, &le) && le.File == "f.jsonl"
		if errors.As(wantErr, &wantSyn) {
			// Where the JSON breaks; the wording after the sample differs.
			same = same && errors.As(gotErr, &gotSyn) && gotSyn.Offset == wantSyn.Offset
		} else {
			same = same && strings.HasSuffix(gotErr.Error(), ": "+wantErr.Error())
		}
		if !same {
			t.Fatalf("sample %q:\nRecord.Sample error: %v\nParseSample error: %v", text, gotErr, wantErr)
		}
		return
	}
	if diff := cmp.Diff(want, got, valueEqual); diff != "" {
		t.Fatalf("sample %q: Record.Sample differs from ParseSample (-ParseSample +Record.Sample):\n%s", text, diff)
	}
}

// checkTexts holds the texts of a sample to encoding/json's reading of it,
// a parser that shares no code with agentcheck's.
func checkTexts(t *testing.T, text string) {
	t.Helper()
	s, err := dataset.Record{Text: text}.Sample()
	if err != nil {
		return
	}
	var std struct {
		UserInput []struct {
			Content   string
			ToolCalls []struct{ Name string } `json:"tool_calls"`
		} `json:"user_input"`
		Reference          string
		ReferenceToolCalls []struct{ Name string } `json:"reference_tool_calls"`
		ReferenceTopics    []string                `json:"reference_topics"`
	}
	if err := json.Unmarshal([]byte(text), &std); err != nil {
		if strings.Contains(text, "NaN") || strings.Contains(text, "Infinity") {
			return // Python's extensions to JSON, which encoding/json rejects
		}
		t.Fatalf("sample %q: encoding/json: %v", text, err)
	}
	var want, got []string
	for i, m := range std.UserInput {
		want = append(want, m.Content)
		got = append(got, s.Conversation[i].Content)
		for j, tc := range m.ToolCalls {
			want = append(want, tc.Name)
			got = append(got, s.Conversation[i].ToolCalls[j].Name)
		}
	}
	want = append(want, std.Reference)
	got = append(got, s.Reference)
	for j, tc := range std.ReferenceToolCalls {
		want = append(want, tc.Name)
		got = append(got, s.ReferenceToolCalls[j].Name)
	}
	want = append(want, std.ReferenceTopics...)
	got = append(got, s.ReferenceTopics...)
	for i := range want {
		if strings.ContainsRune(want[i], utf8.RuneError) {
			// A lone surrogate: Python keeps it, and so does agentcheck, as
			// WTF-8; encoding/json replaces it.
			want[i], got[i] = "", ""
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sample %q: texts differ from encoding/json's (-encoding/json +agentcheck):\n%s", text, diff)
	}
}

// sampleSeeds are valid samples and near misses of every field's rules.
var sampleSeeds = []string{
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
	// Errors.
	`{"user_input": [{"type": "human", "content": "x"}], "user_input": []}`,
	`{"user_input": [{"type": "robot", "content": "x"}]}`,
	`{"user_input": [{"type": "human"}]}`,
	`{"user_input": [{"type": "human", "content": 3}]}`,
	`{"user_input": [{"type": "human", "content": "x", "tool_calls": [{"name": "f", "args": {}}]}]}`,
	`{"user_input": [{"type": "tool", "content": "x"}]}`,
	`{"user_input": [{"type": "ai", "content": "x", "tool_calls": [{"name": "", "args": {}}]}]}`,
	`{"user_input": [{"type": "ai", "content": "x", "tool_calls": [{"name": "f", "args": []}]}]}`,
	`{"user_input": [{"type": "ai", "content": "x", "tool_calls": [{"name": "f"}]}]}`,
	`{"user_input": [{"type": "ai", "content": "x", "tool_calls": {}}]}`,
	`{"user_input": [], "reference_tool_calls": [{"name": 1, "args": {}}]}`,
	`{"user_input": [], "reference": 1}`,
	`{"user_input": [], "reference_topics": ["a", 2]}`,
	`{"user_input": {}}`,
	`{"reference": "no user_input"}`,
	`[{"user_input": []}]`,
	`{"user_input": []} x`,
	`{"user_input": [{"type": "human", "content": "x"},]}`,
	`{"user_input": [{"type": "human", "content": "x"}]`,
	`{"user_input": [{"type": "human", "content": "\x01"}]}`,
	`{"user_input": [{"type": "human", "content": "x"}], "n": 01}`,
	`{"user_input": [{"type": "human", "content": "x"}], "n": nul}`,
	`{"user_input": [], "reference": nullx}`,
	`{"user_input": [{"type": "ai", "content": "x", "tool_calls": [{"name": "f", "args": {"a": NaN, "b": -Infinity}}]}]}`,
}

func TestRecordSampleMatchesParseSample(t *testing.T) {
	for _, s := range sampleSeeds {
		checkSameSample(t, s)
		checkTexts(t, s)
	}
	f, err := os.Open("../../metric/testdata/toolcall_vectors.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var c struct{ Sample json.RawMessage }
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		checkSameSample(t, string(c.Sample))
		checkTexts(t, string(c.Sample))
		n++
	}
	if n == 0 {
		t.Fatal("no vectors read")
	}
}

func FuzzRecordSample(f *testing.F) {
	for _, s := range sampleSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		checkSameSample(t, text)
	})
}

// wantLines is how ReadRecords splits JSON Lines: every line counts, blank
// ones yield nothing, and space around a record is trimmed.
func wantLines(data string) []dataset.Record {
	var recs []dataset.Record
	lines := strings.SplitAfter(data, "\n")
	for i, l := range lines {
		if t := strings.TrimSpace(l); t != "" {
			recs = append(recs, dataset.Record{File: "x.jsonl", Line: i + 1, Index: len(recs), Text: t})
		}
	}
	return recs
}

func TestReadRecordsLines(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	long := `{"user_input": [{"type": "human", "content": "` + strings.Repeat("é", 70000) + `"}]}`
	inputs := map[string]string{
		"empty":           "",
		"blank":           "\n \n\t\n",
		"one":             `{"a": 1}`,
		"newline at end":  "{\"a\": 1}\n{\"b\": 2}\n",
		"no newline":      "{\"a\": 1}\n{\"b\": 2}",
		"crlf and blanks": "\r\n{\"a\": 1}\r\n\r\n  {\"b\": 2}  \r\n\n",
		"long lines":      long + "\n{\"a\": 1}\n" + long + "\n" + long,
	}
	readers := map[string]func(string) io.Reader{
		"whole":    func(s string) io.Reader { return strings.NewReader(s) },
		"one byte": func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) },
		"halves":   func(s string) io.Reader { return iotest.HalfReader(strings.NewReader(s)) },
	}
	for name, data := range inputs {
		for rname, reader := range readers {
			var got []dataset.Record
			for rec, err := range dataset.ReadRecords(reader(data), "x.jsonl") {
				if err != nil {
					t.Fatalf("%s, %s reader: %v", name, rname, err)
				}
				got = append(got, rec)
			}
			if diff := cmp.Diff(wantLines(data), got); diff != "" {
				t.Errorf("%s, %s reader: records differ (-want +got):\n%s", name, rname, diff)
			}
		}
	}
}

func TestReadRecordsLinesReadError(t *testing.T) {
	r := io.MultiReader(strings.NewReader("{\"a\": 1}\n{\"b\""), iotest.ErrReader(errors.New("disk on fire")))
	var got []string
	var gotErr error
	for rec, err := range dataset.ReadRecords(r, "x.jsonl") {
		if err != nil {
			gotErr = err
			continue
		}
		got = append(got, rec.Text)
	}
	// The line the error cut short is no sample (it would fail to parse,
	// for want of the bytes the error kept): the error says where reading
	// stopped.
	if diff := cmp.Diff([]string{`{"a": 1}`}, got); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	if gotErr == nil || gotErr.Error() != "x.jsonl:2: disk on fire" {
		t.Errorf("error = %v, want x.jsonl:2: disk on fire", gotErr)
	}
}

func TestReadRecordsArray(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	// Samples with brackets, braces, quotes and escapes inside strings, and
	// newlines between and inside samples.
	elems := []string{
		`{"user_input": [{"type": "human", "content": "a ] } [ { \" \\ \n"}]}`,
		"{\n  \"user_input\": [\n    {\"type\": \"human\", \"content\": \"x\"}\n  ]\n}",
		`{"user_input": [], "reference": "\\"}`,
		`{"user_input": [{"type": "human", "content": "` + strings.Repeat("日本", 40000) + `"}]}`,
	}
	data := "\n[\n  " + strings.Join(elems, ",\n  ") + "\n]\n"
	var want []dataset.Record
	off := 0
	for i, e := range elems {
		at := off + strings.Index(data[off:], e)
		want = append(want, dataset.Record{File: "x.json", Line: 1 + strings.Count(data[:at], "\n"), Index: i, Text: e})
		off = at + len(e)
	}
	for _, r := range []io.Reader{strings.NewReader(data), iotest.OneByteReader(strings.NewReader(data)), iotest.HalfReader(strings.NewReader(data))} {
		var got []dataset.Record
		for rec, err := range dataset.ReadRecords(r, "x.json") {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, rec)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("records differ (-want +got):\n%s", diff)
		}
	}
}

func TestReadRecordsArrayErrors(t *testing.T) {
	for data, want := range map[string]string{
		"[{\"user_input\": []},\n{\"user_input\": [\n": `x.json:3: sample 1: unexpected end of input inside the sample that starts on line 2`,
		"[{\"user_input\": []},\n{\"a\": \"b\\\"}\n]":  `x.json:3: sample 1: unexpected end of input inside the sample that starts on line 2`,
		"[{\"user_input\": []}\n":                      `x.json:2: unexpected end of input: the array of samples is not closed with ']'`,
		"[{\"user_input\": []} {\"user_input\": []}]":  `x.json:1: unexpected '{' between samples, want ',' or ']'`,
		"[{\"user_input\": []}]\n]":                    `x.json:2: unexpected ']' after the array of samples`,
	} {
		var errs []string
		for _, err := range dataset.ReadRecords(iotest.HalfReader(strings.NewReader(data)), "x.json") {
			if err != nil {
				errs = append(errs, err.Error())
			}
		}
		if diff := cmp.Diff([]string{want}, errs); diff != "" {
			t.Errorf("%q: errors (-want +got):\n%s", data, diff)
		}
	}
}

// TestStringScanning puts escapes, non-ASCII and invalid bytes at every
// offset of strings of every length around the parser's 8-byte steps, and
// compares the text with encoding/json's, or expects an error.
func TestStringScanning(t *testing.T) {
	specials := map[string]string{ // raw JSON inside the quotes: an error, or ""
		`\"`: "", `\\`: "", `\n`: "", `\u00e9`: "", "é": "", "日本": "", "😀": "", "~": "", " ": "",
		"\x01": "invalid control character", "\x1f": "invalid control character", "\xff": "not valid UTF-8", "\xe6\x97": "not valid UTF-8",
	}
	for special, wantErr := range specials {
		for before := 0; before < 20; before++ {
			for after := 0; after < 12; after++ {
				raw := strings.Repeat("a", before) + special + strings.Repeat("b", after)
				text := `{"user_input": [{"type": "human", "content": "` + raw + `"}]}`
				s, err := dataset.Record{Text: text}.Sample()
				if wantErr != "" {
					if err == nil || !strings.Contains(err.Error(), wantErr) {
						t.Errorf("%q: error %v, want %q", raw, err, wantErr)
					}
					continue
				}
				var want string
				if jerr := json.Unmarshal([]byte(`"`+raw+`"`), &want); jerr != nil {
					t.Fatal(jerr)
				}
				if err != nil || s.Conversation[0].Content != want {
					t.Errorf("%q: content %q, error %v; want %q", raw, s.Conversation[0].Content, err, want)
				}
			}
		}
	}
	// Unterminated at every length.
	for n := 0; n < 20; n++ {
		text := `{"user_input": [{"type": "human", "content": "` + strings.Repeat("a", n)
		if _, err := (dataset.Record{Text: text}).Sample(); err == nil || !strings.Contains(err.Error(), "unterminated string") {
			t.Errorf("%q: error %v, want unterminated string", text, err)
		}
	}
}
