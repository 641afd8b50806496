package main

import (
	"encoding/xml"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/google/go-cmp/cmp"
)

// onlyScores is jsonl output with only the scores (and errors) of each
// line, the id, reasons and failures beside them left out: what the tests
// of the metrics compare. The reasons are tested on their own.
func onlyScores(t *testing.T, out string) string {
	t.Helper()
	lines := strings.SplitAfter(out, "\n")
	for i, l := range lines {
		body := strings.TrimRight(l, ",\n")
		if !strings.HasPrefix(body, "{") || strings.HasPrefix(body, `{"samples"`) {
			continue
		}
		v, err := jsonvalue.Parse([]byte(body))
		if err != nil {
			continue // not a line of its own
		}
		var kept []jsonvalue.Member
		for _, m := range v.Members() {
			switch m.Key {
			case "id", "reasons", "failures":
				continue
			}
			kept = append(kept, m)
		}
		p, err := jsonvalue.Object(kept...).MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		lines[i] = string(p) + l[len(body):]
	}
	return strings.Join(lines, "")
}

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden")

// maskTimes hides what changes from run to run in --format json: when the
// run started and how long it took.
var maskTimes = regexp.MustCompile(`"(started|duration)":"[^"]*"`)

// TestEvalDemoGolden: the bundled demo dataset in every format, a sample
// under --sample-threshold failing with its reason, against golden files
// (go test -run TestEvalDemoGolden -update rewrites them).
func TestEvalDemoGolden(t *testing.T) {
	t.Setenv("GITHUB_SHA", "")
	t.Setenv(stepSummaryEnv, "")
	for _, f := range []string{"table", "jsonl", "json", "junit", "markdown"} {
		t.Run(f, func(t *testing.T) {
			out, stderr, code := runAgentcheck(t, "", "eval", "--format", f, "--sample-threshold", "tool_call_f1=0.5", "--fail-under", "agent_goal_accuracy=0.6")
			if code != exitFailed {
				t.Fatalf("exit %d, want 1 for the gates: %s", code, stderr)
			}
			out = maskTimes.ReplaceAllString(out, `"$1":"…"`)
			path := filepath.Join("testdata", "golden", "demo."+f)
			if *update {
				if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if want := readFile(t, path); out != want {
				t.Errorf("--format %s differs from %s (-want +got):\n%s", f, path, cmp.Diff(want, out))
			}
			// The failing samples say why, in every format but the table.
			if f != "table" && !strings.Contains(out, "0 of 1 distinct calls made were expected (precision 0), 0 of 1 distinct expected calls were made (recall 0)") {
				t.Errorf("--format %s does not give weather-paris's reason", f)
			}
		})
	}
}

// TestReportRendersASavedRun: agentcheck report renders a saved --format
// json run in each format exactly as eval wrote that format.
func TestReportRendersASavedRun(t *testing.T) {
	t.Setenv(stepSummaryEnv, "")
	args := []string{"--sample-threshold", "tool_call_f1=0.5", "--fail-under", "agent_goal_accuracy=0.6"}
	saved, _, _ := runAgentcheck(t, "", append([]string{"eval", "--format", "json"}, args...)...)
	path := writeFile(t, "run.json", saved)
	for _, f := range []string{"table", "jsonl", "json", "junit", "markdown"} {
		want, _, _ := runAgentcheck(t, "", append([]string{"eval", "--format", f}, args...)...)
		got, stderr, code := runAgentcheck(t, "", "report", "--format", f, path)
		if f == "json" {
			want = saved // the same run, to its start time
		}
		if code != exitOK || got != want {
			t.Errorf("report --format %s: exit %d, %s\n(-eval +report):\n%s", f, code, stderr, cmp.Diff(want, got))
		}
	}
	// Standard input, and the table by default.
	got, _, code := runAgentcheck(t, saved, "report", "-")
	if want, _, _ := runAgentcheck(t, "", append([]string{"eval"}, args...)...); code != exitOK || got != want {
		t.Errorf("report -: exit %d\n%s", code, cmp.Diff(want, got))
	}
}

// TestReportUsageErrors: what report refuses, naming the file, line and
// field.
func TestReportUsageErrors(t *testing.T) {
	bad := writeFile(t, "bad.json", "{\"samples\": [\n{\"tool_call_f1\": 1.0},\n{\"tool_call_f1\": \"high\"}\n], \"summary\": {}, \"run\": {\"metrics\": [{\"name\": \"tool_call_f1\"}]}}\n")
	notRun := writeFile(t, "scores.jsonl", `{"tool_call_f1": 1.0}`+"\n")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"report"}, "agentcheck report: want one RUN.json, got 0 files"},
		{[]string{"report", bad, bad}, "agentcheck report: want one RUN.json, got 2 files"},
		{[]string{"report", "--format", "pdf", bad}, `agentcheck report: invalid value "pdf" for flag -format: unknown format "pdf" (want table, jsonl, json, junit, markdown or html)`},
		{[]string{"report", filepath.Join(t.TempDir(), "none.json")}, "none.json: no such file or directory"},
		{[]string{"report", bad}, "agentcheck report: " + bad + `:3: samples[1]: tool_call_f1: want a number or null, got "high"`},
		{[]string{"report", notRun}, "agentcheck report: " + notRun + `: not a run written by --format json: it has no "summary" or no "run"`},
	} {
		out, stderr, code := runAgentcheck(t, "", tt.args...)
		if code != exitUsage || out != "" || !strings.Contains(stderr, tt.want) {
			t.Errorf("agentcheck %q: exit %d, stdout %q, stderr %q; want 2 and %q", tt.args, code, out, stderr, tt.want)
		}
	}
	if out, _, code := runAgentcheck(t, "", "help", "report"); code != exitOK || !strings.Contains(out, "Usage: agentcheck report [--format NAME] RUN.json") {
		t.Errorf("help report: exit %d\n%s", code, out)
	}
}

// TestReadmeShowsTheOutput: the README's examples of eval's output are
// what eval writes: the bundled example's table, a jsonl line, a JUnit
// failure's text.
func TestReadmeShowsTheOutput(t *testing.T) {
	t.Setenv(stepSummaryEnv, "")
	readme := readFile(t, "../../README.md")
	table, _, _ := runAgentcheck(t, "", "eval")
	if !strings.Contains(readme, "```\n"+table+"```\n") {
		t.Errorf("README.md does not show the bundled example's table as eval writes it:\n%s", table)
	}
	jsonl, _, _ := runAgentcheck(t, "", "eval", "--metrics", "tool_call_accuracy,tool_call_f1", "--format", "jsonl")
	if line := strings.Split(jsonl, "\n")[1]; !strings.Contains(readme, "```json\n"+line+"\n```\n") {
		t.Errorf("README.md does not show the jsonl line as eval writes it:\n%s", line)
	}
	out, _, _ := runAgentcheck(t, "", "eval", "--format", "junit", "--sample-threshold", "tool_call_f1=0.5")
	var doc struct {
		Cases []struct {
			Name    string `xml:"name,attr"`
			Failure struct {
				Text string `xml:",chardata"`
			} `xml:"failure"`
		} `xml:"testsuite>testcase"`
	}
	if err := xml.Unmarshal([]byte(out), &doc); err != nil || len(doc.Cases) < 2 || doc.Cases[1].Name != "weather-paris" {
		t.Fatalf("junit: %v\n%s", err, out)
	}
	var indented []string
	for _, l := range strings.Split(doc.Cases[1].Failure.Text, "\n") {
		if l != "" {
			l = "  " + l
		}
		indented = append(indented, l)
	}
	if block := "  ```\n" + strings.Join(indented, "\n") + "\n  ```\n"; !strings.Contains(readme, block) {
		t.Errorf("README.md does not show weather-paris's JUnit failure as eval writes it:\n%s", block)
	}
}
