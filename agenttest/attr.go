package agenttest

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// The verdicts Record gives in the attribute agentcheck.verdict.
const (
	verdictPass  = "pass"  // the check passed
	verdictFail  = "fail"  // the check failed
	verdictError = "error" // the check could not be made: Report.Err is not nil
)

// AttrPrefix starts the key of every attribute Record emits.
const AttrPrefix = "agentcheck."

// Record keeps the outcome of one assertion with its test t, for the tools
// that read a test run rather than its log. Every assertion of agentcheck
// calls it: those of the agenttest/assert and agenttest/require packages
// and tooldefs.AssertFit (check "tool_definitions"); other assertion front
// ends may call it too. Gomega's matchers do not: Gomega gives a matcher no
// test, so call Record after Expect where a run's outcome is wanted. It
// never fails the test itself. check is the check's name: the
// assertions of agenttest/assert name theirs tool_calls, called, score,
// goal, topics and rubric; any other word names one's own (runs of characters other than letters,
// digits, '.', '-' and '_' become one '_').
//
// What it records depends on the methods t has, and only on them: t is any
// value, so that testify's minimal TestingT and Ginkgo's GinkgoT() fit. A
// t with neither Attr nor ArtifactDir (a testify mock, a type of one's own)
// records nothing, by design; nothing else happens to it.
//
// When t has the method Attr(key, value string), as *testing.T has since Go
// 1.25, Record emits the attributes (go test -json reports them as "attr"
// actions):
//
//	agentcheck.check    the check: tool_calls, called, score, goal, topics, rubric or one's own
//	agentcheck.verdict  pass, fail, or error when the check could not be made
//	agentcheck.<metric> the score, for the checks that score: agentcheck.tool_call_accuracy = 0.75
//
// When the check did not pass and t has the method ArtifactDir() string, as
// *testing.T has since Go 1.26, Record writes two files into that directory
// (kept under go test's -outputdir when the test runs with -artifacts;
// without it, a *testing.T's directory goes with the test, and Record
// writes nothing there and names nothing): agentcheck-<check>.json, the
// conversation checked as a ragas sample (what agentcheck.ParseSample reads;
// system messages, call IDs and tool errors are kept too), and
// agentcheck-<check>.txt, the failure report with the judges' reasons. A
// second failure of the same check in one test writes
// agentcheck-<check>-2.json and so on. subject is what was checked:
// anything SampleOf takes; when it is none of those, the .json file is
// left out. A file that cannot be written is reported with t.Errorf (the
// test is failing already) when t has it, and the attribute
// agentcheck.artifacts gives the paths of the files written, separated by
// commas. (Ginkgo's GinkgoT() has both methods: its attributes are report
// entries, and its ArtifactDir a new temporary directory, which it leaves
// for the reader.)
func Record(t any, check string, subject any, r Report) {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	check = fileWord(check)
	if check == "" {
		check = "check"
	}
	verdict := verdictPass
	switch {
	case r.Err() != nil:
		verdict = verdictError
	case !r.OK():
		verdict = verdictFail
	}
	attr, hasAttr := t.(interface{ Attr(key, value string) })
	if hasAttr {
		attr.Attr(AttrPrefix+"check", check)
		attr.Attr(AttrPrefix+"verdict", verdict)
		if name, score, ok := r.Score(); ok && attrWord(name) != "" {
			attr.Attr(AttrPrefix+attrWord(name), formatFloat(score))
		}
	}
	if verdict == verdictPass {
		return
	}
	ad, ok := t.(interface{ ArtifactDir() string })
	if !ok || artifactsRemoved(t) {
		return
	}
	dir := ad.ArtifactDir()
	files, err := writeArtifacts(dir, check, subject, r)
	if err != nil {
		if e, ok := t.(interface{ Errorf(string, ...any) }); ok {
			e.Errorf("agentcheck: %v", err)
		}
	}
	if hasAttr && len(files) > 0 {
		for i, f := range files {
			files[i] = filepath.Join(dir, f)
		}
		attr.Attr(AttrPrefix+"artifacts", strings.Join(files, ","))
	}
}

// artifactsRemoved reports whether t's artifact directory goes with the
// test: t is the testing package's and go test runs without -artifacts,
// so that files written there, and an agentcheck.artifacts attribute
// naming them, would point at nothing once the test ends.
func artifactsRemoved(t any) bool {
	if _, ok := t.(testing.TB); !ok {
		return false
	}
	f := flag.Lookup("test.artifacts")
	return f != nil && f.Value.String() == "false"
}

// attrWord makes s fit an attribute's key or value: no space, no line
// break.
func attrWord(s string) string {
	return strings.Join(strings.Fields(s), "_")
}

// fileWord makes s fit an attribute and a file name: letters, digits, '.',
// '-' and '_', other runs of characters made one '_'.
func fileWord(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_')
	}), "_")
}

// writeArtifacts writes the failure report and, when subject is a
// conversation, the transcript into dir, under names no earlier failure of
// the test took. It returns the names of the files written.
func writeArtifacts(dir, check string, subject any, r Report) ([]string, error) {
	if dir == "" {
		return nil, errors.New("the test's ArtifactDir is empty: the failure report and the transcript were not written")
	}
	var transcript []byte
	if s, err := SampleOf(subject); err == nil {
		js, err := sampleJSON(s)
		if err != nil {
			return nil, fmt.Errorf("the transcript of the %s check: %w", check, err)
		}
		transcript = js
	}
	report := r.String()
	if !strings.HasSuffix(report, "\n") {
		report += "\n"
	}
	for n := 1; ; n++ {
		base := "agentcheck-" + check
		if n > 1 {
			base += "-" + strconv.Itoa(n)
		}
		txt := filepath.Join(dir, base+".txt")
		f, err := os.OpenFile(txt, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("writing the failure report of the %s check: %w", check, err)
		}
		_, err = f.WriteString(report)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, fmt.Errorf("writing the failure report of the %s check to %s: %w", check, txt, err)
		}
		files := []string{base + ".txt"}
		if transcript == nil {
			return files, nil
		}
		js := filepath.Join(dir, base+".json")
		if err := os.WriteFile(js, transcript, 0o644); err != nil {
			return files, fmt.Errorf("writing the transcript of the %s check to %s: %w", check, js, err)
		}
		return append(files, base+".json"), nil
	}
}

// The transcript's JSON: a ragas sample, as agentcheck.ParseSample reads
// it, with what ragas has no field for (system messages, call IDs and
// kinds, tool errors) in fields ParseSample skips. Arguments are written as
// the calls carry them, on one line: with Python's NaN and Infinity, which
// ragas and ParseSample read and encoding/json would refuse, so each is a
// placeholder until the rest is encoded.
type (
	jsonSample struct {
		UserInput          []jsonMessage   `json:"user_input"`
		Reference          string          `json:"reference,omitempty"`
		ReferenceToolCalls *[]jsonToolCall `json:"reference_tool_calls,omitempty"`
		ReferenceTopics    []string        `json:"reference_topics,omitempty"`
	}
	jsonMessage struct {
		Type       agentcheck.Role `json:"type"`
		Content    string          `json:"content"`
		ToolCalls  *[]jsonToolCall `json:"tool_calls,omitempty"`
		ToolCallID string          `json:"tool_call_id,omitempty"`
		IsError    bool            `json:"is_error,omitempty"`
	}
	jsonToolCall struct {
		Name string              `json:"name"`
		Args string              `json:"args"` // a placeholder
		ID   string              `json:"id,omitempty"`
		Kind agentcheck.ToolKind `json:"kind,omitempty"`
	}
)

func sampleJSON(s agentcheck.Sample) ([]byte, error) {
	var args []string // the arguments' JSON, by placeholder number
	placeholder := func(i int) string { return "\x00agentcheck-args-" + strconv.Itoa(i) + "\x00" }
	// nil stays nil and an empty list stays empty: they mean different
	// things to ragas.
	calls := func(tcs []agentcheck.ToolCall) *[]jsonToolCall {
		if tcs == nil {
			return nil
		}
		out := make([]jsonToolCall, 0, len(tcs))
		for _, tc := range tcs {
			a := "{}"
			if tc.Args.Kind() != jsonvalue.NullKind {
				a = tc.Args.String()
			}
			out = append(out, jsonToolCall{Name: tc.Name, Args: placeholder(len(args)), ID: tc.ID, Kind: tc.Kind})
			args = append(args, a)
		}
		return &out
	}
	js := jsonSample{
		UserInput:          make([]jsonMessage, 0, len(s.Conversation)),
		Reference:          s.Reference,
		ReferenceToolCalls: calls(s.ReferenceToolCalls),
		ReferenceTopics:    s.ReferenceTopics,
	}
	for _, m := range s.Conversation {
		js.UserInput = append(js.UserInput, jsonMessage{Type: m.Role, Content: m.Content, ToolCalls: calls(m.ToolCalls), ToolCallID: m.ToolCallID, IsError: m.IsError})
	}
	out, err := json.MarshalIndent(js, "", "  ")
	if err != nil {
		return nil, err
	}
	pairs := make([]string, 0, 2*len(args))
	for i, a := range args {
		quoted, _ := json.Marshal(placeholder(i))
		pairs = append(pairs, string(quoted), a)
	}
	return append([]byte(strings.NewReplacer(pairs...).Replace(string(out))), '\n'), nil
}
