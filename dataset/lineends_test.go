package dataset_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/agentcheck/agentcheck/dataset"
	"github.com/google/go-cmp/cmp"
)

// A dataset reads the same, sample by sample and line by line, whatever
// its line ends (LF, CRLF, CR) and with or without a byte order mark, in
// each of its forms: JSON Lines, a JSON array, objects one after another,
// a file of one sample, and standard input (no extension to go by).
func TestReadRecordsLineEndsAndBOM(t *testing.T) {
	// Pretty-printed samples: lines are the sample's own lines.
	pretty := func(content string) []string {
		return []string{`{"user_input": [`, `  {"type": "human", "content": "` + content + `"}`, `]}`}
	}
	type form struct {
		name, file string
		build      func(samples [][]string) []string // the file's lines
		first, gap int                               // the line of the first sample, lines between starts
	}
	jsonLines := func(blank bool) func([][]string) []string {
		return func(ss [][]string) (lines []string) {
			for _, s := range ss {
				if lines = append(lines, strings.Join(s, "")); blank {
					lines = append(lines, "")
				}
			}
			return lines
		}
	}
	array := func(ss [][]string) []string {
		lines := []string{"["}
		for i, s := range ss {
			s = append([]string(nil), s...)
			if i < len(ss)-1 {
				s[len(s)-1] += ","
			}
			lines = append(lines, s...)
		}
		return append(lines, "]")
	}
	objects := func(ss [][]string) (lines []string) {
		for _, s := range ss {
			lines = append(lines, s...)
		}
		return lines
	}
	forms := []form{
		{"jsonl", "runs.jsonl", jsonLines(true), 1, 2},
		{"json array", "runs.json", array, 2, 3},
		{"objects one after another", "runs.json", objects, 1, 3},
		{"stdin, JSON Lines", "<stdin>", jsonLines(false), 1, 1},
		{"stdin, JSON array", "<stdin>", array, 2, 3},
	}
	for _, f := range forms {
		for _, n := range []int{1, 3} {
			for _, eol := range []string{"\n", "\r\n", "\r"} {
				for _, withBOM := range []bool{false, true} {
					name := fmt.Sprintf("%s, %d samples, %q, BOM %v", f.name, n, eol, withBOM)
					t.Run(name, func(t *testing.T) {
						var samples [][]string
						var want []string
						for i := range n {
							samples = append(samples, pretty(fmt.Sprint("ask ", i)))
							want = append(want, fmt.Sprint("ask ", i))
						}
						text := strings.Join(f.build(samples), eol) + eol
						if withBOM {
							text = "\uFEFF" + text
						}
						// One byte a read, so that a CRLF is split between reads.
						var got []string
						var lines []int
						for rec, err := range dataset.ReadRecords(iotest.OneByteReader(strings.NewReader(text)), f.file) {
							if err != nil {
								t.Fatalf("ReadRecords: %v", err)
							}
							s, err := rec.Sample()
							if err != nil {
								t.Fatalf("sample %d on line %d: %v", rec.Index, rec.Line, err)
							}
							got = append(got, s.Conversation[0].Content)
							lines = append(lines, rec.Line)
						}
						if diff := cmp.Diff(want, got); diff != "" {
							t.Errorf("samples read (-want +got):\n%s", diff)
						}
						var starts []int
						for i := range n {
							starts = append(starts, f.first+i*f.gap)
						}
						if diff := cmp.Diff(starts, lines); diff != "" {
							t.Errorf("the lines the samples start on (-want +got):\n%s", diff)
						}
					})
				}
			}
		}
	}
}

// Errors name the line they are on whatever the line ends.
func TestReadRecordsErrorLinesWithEveryLineEnd(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		// The array is broken on line 5: '}' where ',' or ']' belongs.
		text := strings.Join([]string{"[", `{"user_input": [`, `{"type": "human", "content": "hi"}]}`, "", "}"}, eol)
		var le *dataset.LoadError
		for _, err := range dataset.ReadRecords(strings.NewReader("\uFEFF"+text), "runs.json") {
			if err != nil && !errors.As(err, &le) {
				t.Fatalf("%q: %v, want a *LoadError", eol, err)
			}
		}
		if le == nil || le.Line != 5 {
			t.Errorf("%q: the broken array is reported as %v, want line 5", eol, le)
		}
		// JSON Lines: the bad sample is the third line.
		text = strings.Join([]string{`{"user_input": [{"type": "human", "content": "a"}]}`, "", `{"user_input": [`, `{"user_input": []}`}, eol)
		var lines []int
		for rec, err := range dataset.ReadRecords(strings.NewReader(text), "runs.jsonl") {
			if err != nil {
				t.Fatal(err)
			}
			if _, err := rec.Sample(); err != nil {
				if !errors.As(err, &le) || !strings.HasPrefix(err.Error(), "runs.jsonl:3: sample 1: ") {
					t.Errorf("%q: the bad line's error is %v, want it on runs.jsonl:3", eol, err)
				}
			}
			lines = append(lines, rec.Line)
		}
		if diff := cmp.Diff([]int{1, 3, 4}, lines); diff != "" {
			t.Errorf("%q: the lines of the samples (-want +got):\n%s", eol, diff)
		}
	}
}

// Files joined with cat keep the byte order mark of each: it is skipped
// where a line or a sample starts.
func TestReadRecordsSkipsTheBOMOfJoinedFiles(t *testing.T) {
	one := `{"user_input": [{"type": "human", "content": "hi"}]}`
	for file, text := range map[string]string{
		"runs.jsonl": "\uFEFF" + one + "\n\uFEFF" + one + "\r\n",
		"runs.json":  "\uFEFF" + one + "\r\uFEFF" + one,
	} {
		var lines []int
		for rec, err := range dataset.ReadRecords(strings.NewReader(text), file) {
			if err == nil {
				_, err = rec.Sample()
			}
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			lines = append(lines, rec.Line)
		}
		if diff := cmp.Diff([]int{1, 2}, lines); diff != "" {
			t.Errorf("%s: the lines of the samples (-want +got):\n%s", file, diff)
		}
	}
}

// Whatever the input, its records are the same with its line ends written
// LF, CRLF or CR, and with a byte order mark before it: the same count,
// the same lines and indexes, the same texts but for the line ends.
func FuzzReadRecordsLineEnds(f *testing.F) {
	f.Add("[\n{\"a\": 1},\n\n{\"b\":\n[2]}\n]\n", true)
	f.Add("{\"a\": 1}\n\n{\"b\": \"x\"}\n", false)
	f.Add("{\"a\":\n1}\n{\"b\": 2} 3 \"s\"\n", true)
	f.Fuzz(func(t *testing.T, text string, array bool) {
		text = strings.ReplaceAll(text, "\r", "")
		file := "runs.jsonl"
		if array {
			file = "runs.json"
		}
		type rec struct {
			Line, Index int
			Text        string
			Err         string
		}
		read := func(text, eol string) (out []rec) {
			for r, err := range dataset.ReadRecords(strings.NewReader(text), file) {
				e := ""
				if err != nil {
					e = strings.ReplaceAll(err.Error(), eol, "\n")
				}
				out = append(out, rec{r.Line, r.Index, strings.ReplaceAll(r.Text, eol, "\n"), e})
			}
			return out
		}
		want := read(text, "\n")
		if strings.HasPrefix(strings.TrimLeft(text, " \t\n"), "\uFEFF") {
			return // a BOM of its own after the spaces
		}
		if strings.IndexByte(text[:min(len(text), 32)], 0) >= 0 ||
			strings.HasPrefix(text, "\xfe\xff") || strings.HasPrefix(text, "\xff\xfe") {
			// Zero bytes at the start may be UTF-16, and a UTF-16 byte
			// order mark is: read as such without a UTF-8 byte order mark
			// and as UTF-8 after one (encoding.go).
			return
		}
		for _, eol := range []string{"\r\n", "\r"} {
			for _, prefix := range []string{"", "\uFEFF"} {
				got := read(prefix+strings.ReplaceAll(text, "\n", eol), eol)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("with %q line ends and prefix %q (-LF +got):\n%s", eol, prefix, diff)
				}
			}
		}
	})
}

// A syntax error inside a sample of several lines is on its line,
// whatever the line ends.
func TestSampleSyntaxErrorLineWithEveryLineEnd(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		text := strings.Join([]string{"[", `{"user_input": [`, `{"type": "human", "content": "hi"},`, `{"type": oops}`, `]}`, "]"}, eol)
		var msgs []string
		for rec, err := range dataset.ReadRecords(strings.NewReader(text), "runs.json") {
			if err == nil {
				_, err = rec.Sample()
			}
			if err != nil {
				msgs = append(msgs, err.Error())
			}
		}
		if len(msgs) != 1 || !strings.HasPrefix(msgs[0], "runs.json:4: sample 0: column 10: ") {
			t.Errorf("%q: errors %q, want one on runs.json:4, column 10", eol, msgs)
		}
	}
}

// OTLP traces read the same with CRLF or CR line ends and a byte order
// mark: one export per line, or one pretty-printed document.
func TestReadOTLPTracesLineEndsAndBOM(t *testing.T) {
	for _, file := range []string{"weather.jsonl", "weather.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", "otel", file))
		if err != nil {
			t.Fatal(err)
		}
		want, errs := readTraces(t, string(data), file)
		if len(errs) > 0 || len(want) == 0 {
			t.Fatalf("%s: %d samples, errors %q", file, len(want), errs)
		}
		for _, eol := range []string{"\r\n", "\r"} {
			for _, prefix := range []string{"", "\uFEFF"} {
				got, errs := readTraces(t, prefix+strings.ReplaceAll(string(data), "\n", eol), file)
				if len(errs) > 0 {
					t.Errorf("%s with %q and prefix %q: errors %q", file, eol, prefix, errs)
				}
				if diff := cmp.Diff(want, got, sameValue); diff != "" {
					t.Errorf("%s with %q and prefix %q (-LF +got):\n%s", file, eol, prefix, diff)
				}
			}
		}
	}
}
