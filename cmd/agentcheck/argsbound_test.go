package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// argsSamples are samples whose call writes its arguments as a JSON
// string holding a list of zeros, in OpenAI's chat messages and as
// Responses API items, with the "id" last, and the JSON values each holds
// besides the zeros (the sample's own and its arguments').
var argsSamples = []struct {
	name, where string // where the error says the call is
	text        func(id, args string) string
	fixed       int
}{
	{"openai", `openai messages: message 1 (ai), tool call 0 \"f\": `, func(id, args string) string {
		return `{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": ` +
			args + `}}]}], "reference_tool_calls": [{"name": "f", "args": {"x": [0]}}], "id": "` + id + `"}`
	}, 24},
	{"responses", `responses messages: message 1 (ai), tool call 0 \"f\": `, func(id, args string) string {
		return `{"messages": [{"role": "user", "content": "hi"}, {"type": "function_call", "call_id": "c1", "name": "f", "arguments": ` +
			args + `}], "reference_tool_calls": [{"name": "f", "args": {"x": [0]}}], "id": "` + id + `"}`
	}, 19},
}

// zerosArgs is a call's arguments {"x": [0, …]} written as a JSON string.
func zerosArgs(zeros int) string {
	b, _ := json.Marshal(`{"x": [` + strings.TrimSuffix(strings.Repeat("0,", zeros), ",") + `]}`)
	return string(b)
}

// --max-sample-values counts the values inside a call's arguments string
// with the sample's own: a sample of OpenAI messages or Responses items
// holding as many as the bound in all is scored as without it, one of a
// value more is the bound's error naming its file, line, sample, message,
// call and "id", and every other sample's line is the one a run without
// the bound gives, in JSON Lines and arrays alike, with 1 and 2 workers.
func TestEvalMaxSampleValuesCountsArguments(t *testing.T) {
	const bound = 3000
	lines := synthLines(30, 66)
	overAt := map[int]int{} // the line of each sample over the bound: its argsSamples
	for k, s := range argsSamples {
		at := s.text(s.name+"-at", zerosArgs(bound-s.fixed))
		over := s.text(s.name+"-over", zerosArgs(bound-s.fixed+1))
		if n := countValues(t, at); n != bound {
			t.Fatalf("%s: the sample at the bound holds %d values, not %d", s.name, n, bound)
		}
		i, j := 5+10*k, 10+10*k
		lines = append(lines[:i], append([]string{at}, lines[i:]...)...)
		lines = append(lines[:j], append([]string{over}, lines[j:]...)...)
		overAt[j] = k
	}
	for _, tc := range []struct {
		name, text string
		firstLine  int
	}{
		{"data.jsonl", strings.Join(lines, "\n") + "\n", 1},
		{"data.json", "[\n" + strings.Join(lines, ",\n") + "\n]\n", 2},
	} {
		file := writeFile(t, tc.name, tc.text)
		free, stderr, code := runAgentcheck(t, "", "eval", "--format", "jsonl", file)
		if code != exitOK {
			t.Fatalf("%s: exit %d without the bound: %s", tc.name, code, stderr)
		}
		want := strings.Split(strings.TrimSuffix(free, "\n"), "\n")
		if len(want) != len(lines) || strings.Contains(free, `"error"`) {
			t.Fatalf("%s: without the bound:\n%s", tc.name, free)
		}
		for _, workers := range []string{"1", "2"} {
			out, stderr, code := runAgentcheck(t, "", "eval", "--max-sample-values", fmt.Sprint(bound), "--workers", workers, "--format", "jsonl", file)
			got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if len(got) != len(lines) {
				t.Fatalf("%s --workers %s: %d lines for %d samples:\n%s", tc.name, workers, len(got), len(lines), out)
			}
			for i := range lines {
				if k, ok := overAt[i]; ok {
					s := argsSamples[k]
					msg := fmt.Sprintf(`{"id":"%s-over","error":"%s:%d: sample %d: %sthe sample holds more than %d JSON values, the most one sample may hold (--max-sample-values)"}`,
						s.name, file, i+tc.firstLine, i, s.where, bound)
					if got[i] != msg {
						t.Errorf("%s --workers %s, the %s sample of %d values:\n got %s\nwant %s", tc.name, workers, s.name, bound+1, got[i], msg)
					}
				} else if got[i] != want[i] {
					t.Errorf("%s --workers %s, sample %d: %s, without the bound %s", tc.name, workers, i, got[i], want[i])
				}
			}
			if wantErr := fmt.Sprintf("agentcheck eval: %d of %d samples could not be scored\n", len(overAt), len(lines)); stderr != wantErr || code != exitFailed {
				t.Errorf("%s --workers %s: exit %d, stderr %q; want %d, %q", tc.name, workers, code, stderr, exitFailed, wantErr)
			}
		}
	}
}

// countValues is the JSON values of a sample and of its calls' arguments
// strings, counted as the bound counts them (not the keys), through
// encoding/json.
func countValues(t *testing.T, text string) int {
	t.Helper()
	var x any
	if err := json.Unmarshal([]byte(text), &x); err != nil {
		t.Fatal(err)
	}
	var count func(x any, key string) int
	count = func(x any, key string) int {
		n := 1
		switch x := x.(type) {
		case []any:
			for _, e := range x {
				n += count(e, "")
			}
		case map[string]any:
			for k, e := range x {
				n += count(e, k)
			}
		case string:
			if key == "arguments" {
				var args any
				if err := json.Unmarshal([]byte(x), &args); err != nil {
					t.Fatal(err)
				}
				n += count(args, "")
			}
		}
		return n
	}
	return count(x, "")
}

// BenchmarkEvalArgumentsValues is eval of one sample whose call's
// arguments string holds 2,000,000 zeros (4 MB), in OpenAI's messages and
// as Responses items: over the default --max-sample-values, its error.
func BenchmarkEvalArgumentsValues(b *testing.B) {
	for _, s := range argsSamples {
		b.Run(s.name, func(b *testing.B) {
			file := filepath.Join(b.TempDir(), "big.jsonl")
			if err := os.WriteFile(file, []byte(s.text("big", zerosArgs(2_000_000))+"\n"), 0o644); err != nil {
				b.Fatal(err)
			}
			args := []string{"eval", "--workers", "1", "--metrics", "tool_call_accuracy", "--format", "jsonl", file}
			b.ReportAllocs()
			for b.Loop() {
				run(args, strings.NewReader(""), io.Discard, io.Discard)
			}
		})
	}
}
