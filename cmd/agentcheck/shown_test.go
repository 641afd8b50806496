package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostile are texts that would act on a terminal or a CI log if printed as
// they are: line breaks that start a line of their own, GitHub Actions
// workflow commands, escape sequences, a carriage return, a bidi override,
// a v1 runner command, a tab, quotes, invalid UTF-8.
var hostile = []string{
	"\n::error::pwned",
	"::add-mask::secret",
	"  ::warning::x",
	"\x1b[2J\x1b[31mred",
	"carriage\r::error::x",
	"bidi\u202eevil",
	"##[error]v1",
	"tab\there",
	`"quoted"`,
	"bad utf8 \xff",
}

// checkShown fails t if out holds what a terminal or GitHub Actions' runner
// would act on: a control character but the line feed, a character a
// terminal does not show, invalid UTF-8, a line that starts (after spaces)
// with "::", or "##[".
func checkShown(t *testing.T, what, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("%s is not valid UTF-8:\n%q", what, out)
	}
	for _, r := range out {
		if r != '\n' && !strconv.IsPrint(r) {
			t.Errorf("%s holds %U, which a terminal does not show as itself:\n%q", what, r, out)
			break
		}
	}
	for i, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") || strings.Contains(line, "##[") {
			t.Errorf("%s line %d reads as a runner command: %q", what, i+1, line)
		}
	}
}

// Sample ids, file names, message texts and errors from the input reach
// stdout, stderr and the step summary escaped, in every output format, with
// the gates' and the baseline's lists; a name escaped is quoted, so none is
// lost.
func TestEvalEscapesInputText(t *testing.T) {
	dir := t.TempDir()
	var lines []string
	for i, h := range hostile {
		id, _ := json.Marshal(h)
		content, _ := json.Marshal("ask " + h)
		// A wrong call: every sample scores under the threshold.
		lines = append(lines, `{"id": `+string(id)+`, "user_input": [{"type": "human", "content": `+string(content)+
			`}, {"type": "ai", "content": "", "tool_calls": [{"name": "g", "args": {}}]}], "reference_tool_calls": [{"name": "f", "args": {"n": `+strconv.Itoa(i)+`}}]}`)
	}
	lines = append(lines, `{"id": "broken", "user_input": [{"type": "bogus `+"\x1b[31m::error::x"+`"}]}`)
	data := strings.Join(lines, "\n") + "\n"
	files := []string{filepath.Join(dir, "runs\n::error::file.jsonl"), filepath.Join(dir, "second\x1b[31m.jsonl")}
	for _, f := range files {
		if err := os.WriteFile(f, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The baseline knows a sample this run lacks, and not those it has.
	base := filepath.Join(dir, "base::line.json")
	baseline := `{"metrics": ["tool_call_accuracy"], "samples": {"gone\n::error::y": {"tool_call_accuracy": 1}}}`
	if err := os.WriteFile(base, []byte(baseline), 0o644); err != nil {
		t.Fatal(err)
	}
	summary := filepath.Join(dir, "summary.md")
	t.Setenv(stepSummaryEnv, summary)
	for _, format := range []string{"table", "json", "jsonl", "junit"} {
		for _, args := range [][]string{
			{"--sample-threshold", "tool_call_accuracy=0.5", files[0]},
			{"--sample-threshold", "tool_call_accuracy=0.5", files[0], files[1]},
			{"--baseline", base, files[0]},
		} {
			var stdout, stderr bytes.Buffer
			argv := append([]string{"eval", "--format", format, "--metrics", "tool_call_accuracy"}, args...)
			code := run(argv, nil, &stdout, &stderr)
			if code == 0 {
				t.Errorf("%q: exit code 0, want the gates to fail", argv)
			}
			checkShown(t, format+" stdout", stdout.String())
			checkShown(t, format+" stderr", stderr.String())
			if args[0] == "--sample-threshold" {
				for _, h := range hostile {
					// As the sample's id reads (JSON has no invalid UTF-8),
					// quoted.
					var id string
					raw, _ := json.Marshal(h)
					json.Unmarshal(raw, &id)
					want := strings.ReplaceAll(strconv.Quote(id), "##[", `#\x23[`)
					if !strings.Contains(stderr.String(), "  "+want+": 0.0\n") {
						t.Errorf("%q: stderr does not list the sample %s:\n%s", argv, want, stderr.String())
					}
				}
			}
		}
	}
	md, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	checkShown(t, "the step summary", string(md))

	// cassettes check: a cassette under a directory whose name is hostile.
	cdir := filepath.Join(dir, "cass\n::error::dir")
	if err := os.MkdirAll(cdir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cdir, "x\x1b[31m.yaml"), []byte("interactions: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"cassettes", "check", cdir}, nil, &stdout, &stderr); code == 0 {
		t.Errorf("cassettes check of a broken cassette: exit code 0")
	}
	checkShown(t, "cassettes check stdout", stdout.String())
	checkShown(t, "cassettes check stderr", stderr.String())
}

// Whatever a name or a text holds, it prints on one line that nothing acts
// on, and a quoted name unquotes to itself.
func FuzzShown(f *testing.F) {
	for _, h := range hostile {
		f.Add(h)
	}
	f.Add("plain-id_1")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		name := shownName(s)
		checkShown(t, "shownName", "  "+name+": 0.5")
		if strings.Contains(name, "\n") {
			t.Fatalf("shownName(%q) = %q spans lines", s, name)
		}
		if name != s {
			if u, err := strconv.Unquote(name); err != nil || u != s {
				t.Fatalf("shownName(%q) = %s does not unquote to it", s, name)
			}
		}
		text := shownText(s)
		checkShown(t, "shownText", "agentcheck eval: "+text)
		if strings.Contains(text, "\n") {
			t.Fatalf("shownText(%q) = %q spans lines", s, text)
		}
		checkShown(t, "shownLines", "agentcheck eval: "+shownLines(s))
	})
}
