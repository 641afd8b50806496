package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// junitMessage is a JUnit failure or error.
type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// junitReport is JUnit XML as a CI system reads it.
type junitReport struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Errors   int    `xml:"errors,attr"`
		Cases    []struct {
			Name       string `xml:"name,attr"`
			Classname  string `xml:"classname,attr"`
			Properties []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
			Failure *junitMessage `xml:"failure"`
			Error   *junitMessage `xml:"error"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func TestEvalJUnit(t *testing.T) {
	path := writeFile(t, "gates.jsonl", gateData+`{"user_input": 3}`+"\n")
	base := writeFile(t, "base.json", `{"samples": {"line 2": {"tool_call_accuracy": 0.75}, "17": {"tool_call_f1": 0.5}}}`)
	out, stderr, code := runAgentcheck(t, "", "eval", path, "--format", "junit", "--baseline", base,
		"--sample-threshold", "tool_call_accuracy=0.6", "--fail-under", "tool_call_f1=0.3", "--fail-under", "tool_call_accuracy=0.9")
	if code != 1 || !strings.HasPrefix(out, xml.Header) {
		t.Fatalf("exit %d, stderr %q\n%s", code, stderr, out)
	}
	var r junitReport
	if err := xml.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JUnit XML: %v\n%s", err, out)
	}
	if r.Tests != 6 || r.Failures != 3 || r.Errors != 1 || len(r.Suites) != 1 ||
		r.Suites[0].Tests != 6 || r.Suites[0].Failures != 3 || r.Suites[0].Errors != 1 || len(r.Suites[0].Cases) != 6 {
		t.Fatalf("counts: %+v", r)
	}
	type row struct{ name, class, props, failure, error string }
	var got []row
	texts := map[string]string{} // each failure's text, by testcase
	for _, c := range r.Suites[0].Cases {
		var props []string
		for _, p := range c.Properties {
			props = append(props, p.Name+"="+p.Value)
		}
		rw := row{name: c.Name, class: c.Classname, props: strings.Join(props, " ")}
		if c.Failure != nil {
			rw.failure = c.Failure.Type + ": " + c.Failure.Message
			texts[c.Name] = c.Failure.Text
		}
		if c.Error != nil {
			rw.error = c.Error.Type + ": " + c.Error.Message
		}
		got = append(got, rw)
	}
	file := path
	want := []row{
		{name: "booking-1", class: file, props: "tool_call_accuracy=1.0 tool_call_f1=1.0"},
		{name: "line 2", class: file, props: "tool_call_accuracy=0.5 tool_call_f1=0.0", failure: "score: " +
			"Expected tool_call_accuracy to be at least 0.6 (--sample-threshold), but it is 0.5: 1 call aligned by name; mean argument score 0.5"},
		{name: "17", class: file, props: "tool_call_accuracy=0.0 tool_call_f1=0.0", failure: "score: " +
			"Expected tool_call_accuracy to be at least 0.6 (--sample-threshold), but it is 0.0: the called tools [g] do not match the reference [f] in order, so the score is 0"},
		{name: "line 4", class: file, error: `not scored: ` + file + `:4: sample 3: "user_input" must be a list of messages, got int`},
		{name: "mean tool_call_f1 >= 0.3", class: "agentcheck.gates", props: "mean=0.3333333333333333"},
		{name: "mean tool_call_accuracy >= 0.9", class: "agentcheck.gates", props: "mean=0.5", failure: "gate: " +
			"Expected the mean tool_call_accuracy over 3 scored samples to be at least 0.9 (--fail-under), but it is 0.5"},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(row{})); diff != "" {
		t.Errorf("testcases (-want +got):\n%s", diff)
	}
	// A failure's text is the case's report: every gate it failed, the
	// reason for each score, and the call diff the matchers print.
	for name, parts := range map[string][]string{
		"line 2": {
			"Expected tool_call_accuracy to be at least 0.6 (--sample-threshold), but it is 0.5: 1 call aligned by name; mean argument score 0.5\n" +
				"Expected tool_call_accuracy to be no lower than in the baseline " + base + " (tolerance 0.0), but it went from 0.75 to 0.5\n\n",
			"tool_call_f1 = 0.0: 0 of 1 distinct calls made were expected (precision 0), 0 of 1 distinct expected calls were made (recall 0)\n",
			"  ~ [0] f(a: 1, b: 2)  [0] f(a: 1, b: 3)\n",
			"      - b: 2\n      + b: 3",
		},
		"17": {
			"Expected tool_call_f1 to be no lower than in the baseline " + base + " (tolerance 0.0), but it went from 0.5 to 0.0\n",
			"  ~ [0] f(a: 1, b: 2)  [0] g(a: 1, b: 2)\n",
		},
	} {
		for _, p := range parts {
			if !strings.Contains(texts[name], p) {
				t.Errorf("%s: the failure's text does not hold %q:\n%s", name, p, texts[name])
			}
		}
	}

	// An input error (a file that does not open) is an error of its own
	// type, apart from a sample that could not be scored.
	missing := filepath.Join(t.TempDir(), "missing.jsonl")
	out, _, code = runAgentcheck(t, "", "eval", "--format", "junit", missing)
	r = junitReport{}
	if err := xml.Unmarshal([]byte(out), &r); err != nil || code != 1 || len(r.Suites) != 1 || len(r.Suites[0].Cases) != 1 {
		t.Fatalf("a missing file: exit %d, %v\n%s", code, err, out)
	}
	if e := r.Suites[0].Cases[0].Error; e == nil || e.Type != "input error" || !strings.Contains(e.Message, "missing.jsonl") {
		t.Errorf("a missing file: Expected an error of type \"input error\" naming the file, but got %+v", e)
	}

	// Without gates, every scored sample passes; the JUnit of no samples is
	// an empty suite.
	out, _, code = runAgentcheck(t, "", "eval", "--format", "junit", "-")
	r = junitReport{}
	if code != 0 || xml.Unmarshal([]byte(out), &r) != nil || r.Tests != 0 || len(r.Suites) != 1 || len(r.Suites[0].Cases) != 0 {
		t.Errorf("no samples: exit %d\n%s", code, out)
	}
}

// TestEvalStepSummary: with GITHUB_STEP_SUMMARY set, a Markdown summary is
// appended to that file, in every format.
func TestEvalStepSummary(t *testing.T) {
	path := writeFile(t, "gates.jsonl", gateData)
	summary := filepath.Join(t.TempDir(), "summary.md")
	os.WriteFile(summary, []byte("earlier step\n"), 0o644)
	t.Setenv(stepSummaryEnv, summary)
	out, _, code := runAgentcheck(t, "", "eval", path, "--format", "jsonl", "--sample-threshold", "tool_call_accuracy=0.6", "--fail-under", "tool_call_f1=0.3")
	out = onlyScores(t, out)
	if code != 1 || out != wantGateScores {
		t.Fatalf("exit %d\n%s", code, out)
	}
	want := "earlier step\n" +
		"### agentcheck eval `" + path + "`: ❌ failed\n\n" +
		"3 samples, 3 scored, 0 could not be scored.\n\n" +
		"| metric | mean | gates |\n|---|---:|---|\n" +
		"| `tool_call_accuracy` | 0.5000 | ❌ every sample ≥ 0.6 (2 below) |\n" +
		"| `tool_call_f1` | 0.3333 | ✅ mean ≥ 0.3 |\n" +
		"\n#### Failing cases (2)\n\n" +
		"- **line 2** (fail)\n" +
		"  - Expected tool\\_call\\_accuracy to be at least 0.6 (--sample-threshold), but it is 0.5: 1 call aligned by name; mean argument score 0.5\n" +
		"  - `tool_call_f1` = 0.0: 0 of 1 distinct calls made were expected (precision 0), 0 of 1 distinct expected calls were made (recall 0)\n" +
		"- **17** (fail)\n" +
		"  - Expected tool\\_call\\_accuracy to be at least 0.6 (--sample-threshold), but it is 0.0: the called tools \\[g\\] do not match the reference \\[f\\] in order, so the score is 0\n" +
		"  - `tool_call_f1` = 0.0: 0 of 1 distinct calls made were expected (precision 0), 0 of 1 distinct expected calls were made (recall 0)\n\n"
	if got := readFile(t, summary); got != want {
		t.Errorf("step summary (-want +got):\n%s", cmp.Diff(want, got))
	}

	// A passing run with a baseline says so; the file is appended to again.
	base := writeFile(t, "base.json", `{"samples": {"17": {"tool_call_f1": 0.0}}}`)
	os.WriteFile(summary, nil, 0o644)
	if _, stderr, code := runAgentcheck(t, "", "eval", path, "--baseline", base); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := readFile(t, summary)
	if !strings.Contains(got, "`: ✅ passed\n") || !strings.Contains(got, "\nBaseline `"+base+"` (tolerance 0.0): 0 scores lower, 0 higher, 2 new, 0 missing.\n") {
		t.Errorf("step summary:\n%s", got)
	}

	// A summary that cannot be written fails the run.
	t.Setenv(stepSummaryEnv, t.TempDir())
	if _, stderr, code := runAgentcheck(t, "", "eval", path); code != 1 || !strings.Contains(stderr, "agentcheck eval: GITHUB_STEP_SUMMARY: ") {
		t.Errorf("unwritable summary: exit %d, stderr %q", code, stderr)
	}
}
