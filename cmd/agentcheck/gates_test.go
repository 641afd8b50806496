package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/google/go-cmp/cmp"
)

// gateSample is a sample with one call f(a, b) against the reference
// f(a=1, b=2): args "a": 1, "b": 2 score 1 and 1; a wrong b scores
// tool_call_accuracy 0.5 and tool_call_f1 0; calling g scores 0 and 0.
func gateSample(id, args, name string) string {
	idField := ""
	if id != "" {
		idField = `"id": ` + id + `, `
	}
	return fmt.Sprintf(`{%s"user_input": [{"type": "human", "content": "go"}, {"type": "ai", "content": "", "tool_calls": [{"name": %q, "args": %s}]}], "reference_tool_calls": [{"name": "f", "args": {"a": 1, "b": 2}}]}`,
		idField, name, args)
}

// gateData: booking-1 scores 1 and 1, line 2 0.5 and 0, the sample with
// id 17 0 and 0; the means are 0.5 and 1/3.
var gateData = strings.Join([]string{
	gateSample(`"booking-1"`, `{"a": 1, "b": 2}`, "f"),
	gateSample("", `{"a": 1, "b": 3}`, "f"),
	gateSample("17", `{"a": 1, "b": 2}`, "g"),
}, "\n") + "\n"

const wantGateScores = `{"tool_call_accuracy":1.0,"tool_call_f1":1.0}
{"tool_call_accuracy":0.5,"tool_call_f1":0.0}
{"tool_call_accuracy":0.0,"tool_call_f1":0.0}
`

func TestEvalGates(t *testing.T) {
	path := writeFile(t, "gates.jsonl", gateData)
	tests := []struct {
		name   string
		gates  []string
		code   int
		stderr string
	}{
		{"no gates", nil, 0, ""},
		{"means pass", []string{"--fail-under", "tool_call_accuracy=0.5", "--fail-under", "tool_call_f1=0.3"}, 0, ""},
		{"a mean fails", []string{"--fail-under", "tool_call_accuracy=0.5", "--fail-under=tool_call_f1=0.34"}, 1,
			"agentcheck eval: Expected the mean tool_call_f1 over 3 scored samples to be at least 0.34 (--fail-under), but it is 0.3333333333333333\n"},
		{"samples below", []string{"--sample-threshold", "tool_call_accuracy=0.6"}, 1,
			"agentcheck eval: Expected every sample to score tool_call_accuracy at least 0.6 (--sample-threshold), but 2 of 3 scored samples do not:\n  line 2: 0.5\n  17: 0.0\n"},
		{"a score at the threshold passes", []string{"--sample-threshold", "tool_call_accuracy=0.5"}, 1,
			"agentcheck eval: Expected every sample to score tool_call_accuracy at least 0.5 (--sample-threshold), but 1 of 3 scored samples does not:\n  17: 0.0\n"},
		{"every sample passes", []string{"--sample-threshold", "tool_call_accuracy=0", "--sample-threshold", "tool_call_f1=0"}, 0, ""},
		{"both kinds fail", []string{"--sample-threshold", "tool_call_f1=1", "--fail-under", "tool_call_accuracy=1"}, 1,
			"agentcheck eval: Expected the mean tool_call_accuracy over 3 scored samples to be at least 1.0 (--fail-under), but it is 0.5\n" +
				"agentcheck eval: Expected every sample to score tool_call_f1 at least 1.0 (--sample-threshold), but 2 of 3 scored samples do not:\n  line 2: 0.0\n  17: 0.0\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Gates change neither the output nor where the flags go.
			args := append(append([]string{"eval", path}, tt.gates...), "--format", "jsonl")
			out, stderr, code := runAgentcheck(t, "", args...)
			out = onlyScores(t, out)
			if code != tt.code || stderr != tt.stderr || out != wantGateScores {
				t.Errorf("exit %d (want %d)\nstderr:\n%s\nwant:\n%s\nstdout:\n%s", code, tt.code, stderr, tt.stderr, out)
			}
		})
	}
}

// TestEvalGatesNameSamples: with several files a sample without an id is
// named by file and line; a sample that could not be scored is left out of
// the means and fails the run on its own.
func TestEvalGatesNameSamples(t *testing.T) {
	a := writeFile(t, "a.jsonl", gateData)
	b := writeFile(t, "b.jsonl", gateSample("", `{"a": 1, "b": 3}`, "f")+"\n"+`{"user_input": 3}`+"\n")
	_, stderr, code := runAgentcheck(t, "", "eval", a, b, "--sample-threshold", "tool_call_accuracy=0.6", "--fail-under", "tool_call_f1=0.25")
	want := "agentcheck eval: 1 of 5 samples could not be scored\n" +
		"agentcheck eval: Expected every sample to score tool_call_accuracy at least 0.6 (--sample-threshold), but 3 of 4 scored samples do not:\n" +
		"  " + a + " line 2: 0.5\n  17: 0.0\n  " + b + " line 1: 0.5\n"
	if code != 1 || stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant:\n%s", code, stderr, want)
	}

	// No sample scored: a mean gate fails saying so.
	_, stderr, code = runAgentcheck(t, "", "eval", "--fail-under", "tool_call_f1=0.5", "-")
	if want := "agentcheck eval: Expected the mean tool_call_f1 to be at least 0.5 (--fail-under), but no sample was scored\n"; code != 1 || stderr != want {
		t.Errorf("no samples: exit %d, stderr %q, want %q", code, stderr, want)
	}
}

// TestEvalGatesListIsBounded: a failure names the first 100 samples below
// and counts the rest.
func TestEvalGatesListIsBounded(t *testing.T) {
	var lines []string
	for i := range 250 {
		lines = append(lines, gateSample(fmt.Sprint(i), `{"a": 1, "b": 3}`, "f"))
	}
	_, stderr, code := runAgentcheck(t, strings.Join(lines, "\n"), "eval", "--sample-threshold", "tool_call_f1=0.5", "-")
	got := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if code != 1 || len(got) != 1+maxListed+1 || got[1] != "  0: 0.0" || got[maxListed] != "  99: 0.0" || got[maxListed+1] != "  … and 150 more" {
		t.Errorf("exit %d, stderr has %d lines:\n%.500s…%s", code, len(got), stderr, stderr[max(0, len(stderr)-200):])
	}
}

func TestEvalGateUsage(t *testing.T) {
	path := writeFile(t, "gates.jsonl", gateData)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--fail-under", "tool_call_accuracy"}, `--fail-under "tool_call_accuracy": want METRIC=X, such as tool_call_accuracy=0.8`},
		{[]string{"--fail-under", "=0.5"}, `want METRIC=X`},
		{[]string{"--sample-threshold", "agent_goal_accuracy=1"}, `--sample-threshold "agent_goal_accuracy=1": agent_goal_accuracy is not among --metrics (tool_call_accuracy,tool_call_f1)`},
		{[]string{"--metrics", "tool_call_f1", "--fail-under", "tool_call_accuracy=1"}, `tool_call_accuracy is not among --metrics (tool_call_f1)`},
		{[]string{"--fail-under", "tool_call_f1=high"}, `--fail-under "tool_call_f1=high": "high" is not a number`},
		{[]string{"--fail-under", "tool_call_f1=NaN"}, `"NaN" is not a number`},
		{[]string{"--fail-under", "tool_call_f1=0.5", "--fail-under", "tool_call_f1=0.6"}, `--fail-under: tool_call_f1 is given twice`},
		{[]string{"--baseline-tolerance", "-0.1"}, `--baseline-tolerance must be a number at least 0, got -0.1`},
		{[]string{"--baseline", filepath.Join(t.TempDir(), "none.json")}, `--baseline: open `},
	} {
		out, stderr, code := runAgentcheck(t, "", append([]string{"eval", path}, tt.args...)...)
		if code != exitUsage || out != "" || !strings.Contains(stderr, tt.want) {
			t.Errorf("agentcheck eval %q: exit %d, stdout %q, stderr %q; want %d and %q", tt.args, code, out, stderr, exitUsage, tt.want)
		}
	}
}

// TestEvalSummaryJSON: --format json ends with a summary: counts, means,
// gates and whether the run passes.
func TestEvalSummaryJSON(t *testing.T) {
	path := writeFile(t, "gates.jsonl", gateData+`{"user_input": 3}`+"\n")
	out, _, code := runAgentcheck(t, "", "eval", path, "--format", "json",
		"--fail-under", "tool_call_accuracy=0.4", "--sample-threshold", "tool_call_f1=0.5")
	// The samples are jsonl's, and more (TestEvalFormatJSON).
	wantScores := `{"samples":[
{"tool_call_accuracy":1.0,"tool_call_f1":1.0},
{"tool_call_accuracy":0.5,"tool_call_f1":0.0},
{"tool_call_accuracy":0.0,"tool_call_f1":0.0},
{"error":"` + path + `:4: sample 3: \"user_input\" must be a list of messages, got int"}
]`
	var scores []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "{\"") && !strings.HasPrefix(l, `{"samples"`) {
			scores = append(scores, l)
		}
	}
	var objs []string
	for _, l := range strings.Split(onlyScores(t, strings.Join(scores, "\n")), "\n") {
		v := jsonvalue.MustParse(strings.TrimSuffix(l, ","))
		var kept []jsonvalue.Member
		for _, m := range v.Members() {
			switch m.Key {
			case "tool_call_accuracy", "tool_call_f1", "error":
				kept = append(kept, m)
			}
		}
		p, _ := jsonvalue.Object(kept...).MarshalJSON()
		objs = append(objs, string(p))
	}
	if got := "{\"samples\":[\n" + strings.Join(objs, ",\n") + "\n]"; got != wantScores {
		t.Errorf("samples:\n%s", cmp.Diff(wantScores, got))
	}
	// The summary keeps its fields and adds some: the gates' names, kinds,
	// values and details, the count of failed samples.
	want := `"summary":{"samples":4,"scored":3,"errors":1,"failed":2,"means":{"tool_call_accuracy":0.5,"tool_call_f1":0.3333333333333333},` +
		`"gates":[{"flag":"fail-under","name":"--fail-under tool_call_accuracy=0.4","kind":"mean","metric":"tool_call_accuracy","threshold":0.4,"mean":0.5,"pass":true},` +
		`{"flag":"sample-threshold","name":"--sample-threshold tool_call_f1=0.5","kind":"sample","metric":"tool_call_f1","threshold":0.5,"value":null,"below":2,"samples_below":["line 2","17"],` +
		`"detail":"Expected every sample to score tool_call_f1 at least 0.5 (--sample-threshold), but 2 of 3 scored samples do not:\n  line 2: 0.0\n  17: 0.0","pass":false}],"pass":false},"run":{"title":"agentcheck eval",`
	if code != 1 || !strings.Contains(out, "\n],"+want) {
		t.Errorf("exit %d\n%s", code, out)
	}
}

// A --sample-threshold over an input without samples passes, as a gate
// over nothing does, and says so on standard error; over samples, and
// without the gate, nothing is said.
func TestSampleThresholdOverNoSampleWarns(t *testing.T) {
	empty := writeFile(t, "empty.jsonl", "\n\n")
	one := writeFile(t, "one.jsonl", `{"user_input": [{"type": "ai", "content": "", "tool_calls": [{"name": "a", "args": {}}]}], "reference_tool_calls": [{"name": "a", "args": {}}]}`+"\n")
	const warning = "warning: the input holds no sample, so --sample-threshold had nothing to check"
	for _, tt := range []struct {
		args []string
		warn bool
	}{
		{[]string{"eval", "--sample-threshold", "tool_call_f1=0.8", empty}, true},
		{[]string{"eval", "--sample-threshold", "tool_call_f1=0.8", one}, false},
		{[]string{"eval", empty}, false},
	} {
		_, stderr, code := runAgentcheck(t, "", tt.args...)
		if code != exitOK || strings.Contains(stderr, warning) != tt.warn {
			t.Errorf("%v: exit %d, stderr %q; want exit 0 and the warning %v", tt.args, code, stderr, tt.warn)
		}
	}
}
