package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/cmd/agentcheck/internal/synth"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/google/go-cmp/cmp"
)

// runAgentcheck runs the command in-process.
func runAgentcheck(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), code
}

func writeFile(t *testing.T, name, data string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// synthLines returns n synthetic samples, one per line: the first n that
// synth.New(seed) makes.
//
// The samples of a seed are made once and shared (a fresh slice of them
// each time, which the caller may change): the tests ask for the same seed
// again (the same input for one worker and three, the rounds of the
// corruption tests), and under -race a sample costs about 0.1 ms to make.
func synthLines(n int, seed uint64) []string {
	synthMade.Lock()
	m := synthMade.bySeed[seed]
	if m == nil {
		m = &synthSeed{g: synth.New(seed)}
		synthMade.bySeed[seed] = m
	}
	synthMade.Unlock()
	m.Lock()
	defer m.Unlock()
	for len(m.lines) < n {
		m.buf = m.g.AppendSample(m.buf[:0])
		m.lines = append(m.lines, string(m.buf))
	}
	return slices.Clone(m.lines[:n:n])
}

// synthMade holds the samples synthLines made, by seed.
var synthMade = struct {
	sync.Mutex
	bySeed map[uint64]*synthSeed
}{bySeed: map[uint64]*synthSeed{}}

// synthSeed is one seed's samples, made in order, and its generator, for
// more.
type synthSeed struct {
	sync.Mutex
	g     *synth.Generator
	lines []string
	buf   []byte
}

// parseJSONL reads eval's JSON Lines output: one object per line, scores
// as numbers and errors as strings.
func parseJSONL(t *testing.T, out string) []map[string]any {
	t.Helper()
	var objs []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("output line %d is not a JSON object: %v\n%s", len(objs)+1, err, sc.Text())
		}
		objs = append(objs, m)
	}
	return objs
}

// scoresOf scores a sample with the library directly: what eval must print.
func scoresOf(t *testing.T, text string, metrics ...metric.Metric) map[string]any {
	t.Helper()
	s, err := agentcheck.ParseSample(text)
	if err != nil {
		t.Fatalf("sample %q: %v", text, err)
	}
	want := map[string]any{}
	for _, m := range metrics {
		r, err := m.Evaluate(context.Background(), s)
		if err != nil {
			t.Fatalf("sample %q: %s: %v", text, m.Name(), err)
		}
		want[m.Name()] = r.Score
	}
	return want
}

// TestEvalJSONLContract: one line per sample in input order, across more
// batches than workers; a bad sample gets an error line naming where it is,
// its neighbours' scores are unchanged, and the exit status is 1.
func TestEvalJSONLContract(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	lines := synthLines(3000, 7)
	bad := map[int]string{
		1200: `{"user_input": [{"type": "human", "content": "hi"}, {"type": "ai", "content": "x", "tool_calls": [{"name": "search"}]}], "reference_tool_calls": []}`,
		1201: `{"user_input": [{"type": "human", "content": "no reference calls"}]}`,
		2500: `{"user_input": [{"type": "human", "content": "broken`,
	}
	wantErr := map[int]string{
		1200: `data.jsonl:1201: sample 1200: message 1 (ai), tool call 0 "search": "args" is missing`,
		1201: `data.jsonl:1202: sample 1201: tool_call_accuracy needs reference_tool_calls`,
		2500: `data.jsonl:2501: sample 2500: column 46: unterminated string`,
	}
	for i, l := range bad {
		lines[i] = l
	}
	path := writeFile(t, "data.jsonl", strings.Join(lines, "\n")+"\n")
	// The library's scores of each good sample, worked out once for the
	// three runs.
	want := make([]map[string]any, len(lines))
	for i, l := range lines {
		if _, ok := wantErr[i]; !ok {
			want[i] = scoresOf(t, l, metric.ToolCallAccuracy{}, metric.ToolCallF1{})
		}
	}
	for _, workers := range []string{"1", "2", "5"} {
		t.Run("workers="+workers, func(t *testing.T) {
			out, stderr, code := runAgentcheck(t, "", "eval", "--format", "jsonl", "--workers", workers, path)
			out = onlyScores(t, out)
			if code != 1 {
				t.Errorf("exit status %d, want 1", code)
			}
			if !strings.Contains(stderr, "3 of 3000 samples could not be scored") {
				t.Errorf("stderr %q does not count the bad samples", stderr)
			}
			objs := parseJSONL(t, out)
			if len(objs) != len(lines) {
				t.Fatalf("%d output lines for %d samples", len(objs), len(lines))
			}
			for i, got := range objs {
				if want, ok := wantErr[i]; ok {
					msg, _ := got["error"].(string)
					if len(got) != 1 || !strings.HasPrefix(msg, filepath.Dir(path)+"/"+want) {
						t.Errorf("line %d: %v, want an error starting %q", i+1, got, want)
					}
					continue
				}
				// reflect.DeepEqual is cmp's equality here (no options;
				// floats by ==), at a fraction of its cost under -race:
				// cmp.Diff only shows a difference.
				if !reflect.DeepEqual(want[i], got) {
					t.Fatalf("line %d (-library +eval):\n%s", i+1, cmp.Diff(want[i], got))
				}
			}
		})
	}
}

// TestEvalKeyOrder: the keys follow --metrics, and numbers are written as
// Python writes floats.
func TestEvalKeyOrder(t *testing.T) {
	sample := `{"user_input": [{"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": {"a": 1, "b": 2, "c": 3}}, {"name": "g", "args": {}}]}], "reference_tool_calls": [{"name": "f", "args": {"a": 1, "b": 2, "c": 4}}, {"name": "g", "args": {}}]}`
	for metrics, want := range map[string]string{
		"tool_call_accuracy,tool_call_f1": `{"tool_call_accuracy":0.8333333333333333,"tool_call_f1":0.5}`,
		"tool_call_f1,tool_call_accuracy": `{"tool_call_f1":0.5,"tool_call_accuracy":0.8333333333333333}`,
		" tool_call_f1 ":                  `{"tool_call_f1":0.5}`,
	} {
		out, stderr, code := runAgentcheck(t, sample, "eval", "--format", "jsonl", "--metrics", metrics, "-")
		out = onlyScores(t, out)
		if code != 0 || out != want+"\n" {
			t.Errorf("--metrics %q: exit %d, output %q, want %q (stderr %q)", metrics, code, out, want+"\n", stderr)
		}
	}
}

// TestEvalRagasVectors runs every case of ragas's tests through the command
// with the flags of each ragas variant and compares bits.
func TestEvalRagasVectors(t *testing.T) {
	data, err := os.ReadFile("../../metric/testdata/toolcall_vectors.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	type vector struct {
		Case     string
		Sample   json.RawMessage
		Expected map[string]float64
	}
	var vectors []vector
	var input strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var v vector
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatal(err)
		}
		vectors = append(vectors, v)
		input.Write(v.Sample)
		input.WriteByte('\n')
	}
	path := writeFile(t, "vectors.jsonl", input.String())
	variants := map[string][]string{
		"tool_call_accuracy":              {"--metrics", "tool_call_accuracy"},
		"tool_call_accuracy_any_order":    {"--metrics", "tool_call_accuracy", "--strict-order=false"},
		"tool_call_f1":                    {"--metrics", "tool_call_f1"},
		"tool_call_accuracy_levenshtein":  {"--metrics", "tool_call_accuracy", "--arg-similarity", "levenshtein"},
		"tool_call_accuracy_hamming":      {"--metrics", "tool_call_accuracy", "--arg-similarity", "hamming"},
		"tool_call_accuracy_jaro":         {"--metrics", "tool_call_accuracy", "--arg-similarity", "jaro"},
		"tool_call_accuracy_jaro_winkler": {"--metrics", "tool_call_accuracy", "--arg-similarity", "jaro_winkler"},
	}
	checked := 0
	for variant, flags := range variants {
		metric := flags[1]
		args := append(append([]string{"eval", "--format", "jsonl"}, flags...), path)
		out, stderr, code := runAgentcheck(t, "", args...)
		out = onlyScores(t, out)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", variant, code, stderr)
		}
		// Decode numbers exactly, not through encoding/json's float64
		// conversion alone: the text must round-trip to the same bits.
		for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			var obj map[string]json.Number
			if err := json.Unmarshal([]byte(line), &obj); err != nil {
				t.Fatalf("%s: line %d: %v: %s", variant, i+1, err, line)
			}
			want, ok := vectors[i].Expected[variant]
			if !ok {
				continue
			}
			got, err := obj[metric].Float64()
			if err != nil {
				t.Fatalf("%s: %s: %v", variant, vectors[i].Case, err)
			}
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("%s: %s: %s = %s, ragas gives %v", variant, vectors[i].Case, metric, obj[metric], want)
			}
			if !strings.Contains(string(obj[metric]), ".") && !strings.Contains(string(obj[metric]), "e") {
				t.Errorf("%s: %s: %s is not written as a Python float", variant, vectors[i].Case, obj[metric])
			}
			checked++
		}
	}
	if checked < 7*len(vectors)-10 {
		t.Fatalf("checked only %d scores of %d vectors", checked, len(vectors))
	}
}

// demoScores are the bundled dataset's scores: the tool call metrics worked
// out by hand from ragas's definitions, the judged ones replayed from the
// cassette built into the command (cassettes/demo.yaml), whose judgments
// the comments give.
var demoScores = []string{
	// all right; the election question refused, off-topic: TP 2
	`{"tool_call_accuracy":1.0,"tool_call_f1":1.0,"agent_goal_accuracy":1.0,"topic_adherence":0.9999999999}`,
	// unit argument missing; the forecast came in Fahrenheit; TP 1
	`{"tool_call_accuracy":0.5,"tool_call_f1":0.0,"agent_goal_accuracy":0.0,"topic_adherence":0.99999999985}`,
	// calls in the wrong order; added without checking first; TP 1
	`{"tool_call_accuracy":0.0,"tool_call_f1":1.0,"agent_goal_accuracy":0.0,"topic_adherence":0.99999999985}`,
	// a retried search; booked; a restaurant tip refused, on-topic: TP 1, FN 1
	`{"tool_call_accuracy":0.0,"tool_call_f1":1.0,"agent_goal_accuracy":1.0,"topic_adherence":0.6666666665777777}`,
	// a typo in one of three arguments, so Ana got nothing; TP 1
	`{"tool_call_accuracy":0.6666666666666666,"tool_call_f1":0.0,"agent_goal_accuracy":0.0,"topic_adherence":0.99999999985}`,
	// 100 for 100.0; converted; bitcoin advice given, off-topic: TP 1, FP 1
	`{"tool_call_accuracy":0.6666666666666666,"tool_call_f1":1.0,"agent_goal_accuracy":1.0,"topic_adherence":0.6666666665777777}`,
	// no calls wanted, none made; a goodbye; no topics: 1 with a warning
	`{"tool_call_accuracy":1.0,"tool_call_f1":0.0,"agent_goal_accuracy":1.0,"topic_adherence":1.0}`,
	// a call missing: the details were never texted; TP 2
	`{"tool_call_accuracy":0.0,"tool_call_f1":0.8,"agent_goal_accuracy":0.0,"topic_adherence":0.9999999999}`,
}

var demoMetrics = []string{"tool_call_accuracy", "tool_call_f1", "agent_goal_accuracy", "topic_adherence"}

func TestEvalDemo(t *testing.T) {
	// The judge's environment must not matter: the demo replays offline
	// with the model and endpoint its cassette was recorded with.
	judgeEnv(t, offlineURL, "", "")
	t.Setenv(judge.EnvModel, "some-other-model")
	out, stderr, code := runAgentcheck(t, "", "eval", "--format", "jsonl")
	out = onlyScores(t, out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if diff := cmp.Diff(strings.Join(demoScores, "\n")+"\n", out); diff != "" {
		t.Errorf("demo scores (-want +got):\n%s", diff)
	}
	if want := "agentcheck eval: demo.jsonl:7: sample 6: topic_adherence: warning: judge gpt-4o-mini found no topics in the conversation, so there was nothing to stray from: scored 1\n"; stderr != want {
		t.Errorf("stderr %q, want the no-topics warning %q", stderr, want)
	}

	// Without flags: the readable table, the samples by id.
	demoIDs := []string{"dinner-soho", "weather-paris", "dentist", "hotel-lisbon", "invoice-ana", "euros-dollars", "goodbye", "flight-oslo"}
	out, stderr, code = runAgentcheck(t, "", "eval")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(rows) != 1+len(demoScores)+1 {
		t.Fatalf("table has %d rows, want a header, %d samples and a summary:\n%s", len(rows), len(demoScores), out)
	}
	if f := strings.Fields(rows[0]); !cmp.Equal(f, append(append([]string{"sample", "line"}, demoMetrics...), "request")) {
		t.Errorf("header %q", rows[0])
	}
	for i, want := range demoScores {
		// The table rounds to four decimals; jsonl keeps every digit.
		var scores map[string]float64
		json.Unmarshal([]byte(want), &scores)
		wantFields := []string{demoIDs[i], fmt.Sprint(i + 1)}
		for _, m := range demoMetrics {
			wantFields = append(wantFields, fmt.Sprintf("%.4f", scores[m]))
		}
		f := strings.Fields(rows[1+i])
		if len(f) < 7 || !cmp.Equal(f[:6], wantFields) {
			t.Errorf("row %d = %q, want it to start with %q and the request", i, rows[1+i], wantFields)
		}
	}
	// Every score column starts where its header does.
	for _, m := range demoMetrics[1:] {
		col := strings.Index(rows[0], m)
		for _, r := range rows[1 : len(rows)-1] {
			if r[col-1] != ' ' || r[col] == ' ' {
				t.Errorf("row %q is not aligned with the header's %s", r, m)
			}
		}
	}
	// Means: (1+0.5+0+0+2/3+2/3+1+0)/8, (1+0+1+1+0+1+0+0.8)/8, 4/8 and the
	// topic scores' mean, 0.9166666665631945.
	if f := strings.Fields(rows[len(rows)-1]); !cmp.Equal(f[:5], []string{"mean", "0.4792", "0.6000", "0.5000", "0.9167"}) || !strings.Contains(rows[len(rows)-1], "8 samples, 8 scored, 0 could not be scored") {
		t.Errorf("summary %q", rows[len(rows)-1])
	}
	if !strings.Contains(out, "Find a Chinese restaurant in Soho") {
		t.Errorf("table does not show the requests:\n%s", out)
	}

	// The flags apply to the demo: in any order, the swapped calls score.
	out, _, _ = runAgentcheck(t, "", "eval", "--format", "jsonl", "--strict-order=false", "--metrics", "tool_call_accuracy")
	if got := strings.Split(out, "\n")[2]; got != `{"id":"dentist","tool_call_accuracy":1.0}` {
		t.Errorf("--strict-order=false: wrong-order sample scores %s, want 1.0", got)
	}
	// With Levenshtein the typo "exmple" costs 1/15 of the first of three
	// arguments (summed in the reference's key order, as ragas does);
	// Python's ((1 - 1/15) + 1 + 1) / 3.
	out, _, _ = runAgentcheck(t, "", "eval", "--format", "jsonl", "--arg-similarity", "levenshtein", "--metrics", "tool_call_accuracy")
	out = onlyScores(t, out)
	if got, want := strings.Split(out, "\n")[4], `{"tool_call_accuracy":0.9777777777777779}`; got != want {
		t.Errorf("--arg-similarity levenshtein: typo sample %s, want %s", got, want)
	}
	// --topic-mode picks another of the same judgments' scores: the refused
	// restaurant tip costs recall, the bitcoin advice precision.
	for mode, want := range map[string][2]string{
		"precision": {"0.9999999999", "0.499999999975"},
		"recall":    {"0.499999999975", "0.9999999999"},
	} {
		out, stderr, code := runAgentcheck(t, "", "eval", "--format", "jsonl", "--metrics", "topic_adherence", "--topic-mode", mode)
		out = onlyScores(t, out)
		lines := strings.Split(out, "\n")
		if code != 0 || len(lines) < 6 || lines[3] != `{"topic_adherence":`+want[0]+`}` || lines[5] != `{"topic_adherence":`+want[1]+`}` {
			t.Errorf("--topic-mode %s: exit %d, samples 3 and 5: %q, want %v (stderr %q)", mode, code, lines, want, stderr)
		}
	}
	// A judge model the cassette lacks misses, and says how to record it.
	out, _, code = runAgentcheck(t, "", "eval", "--format", "jsonl", "--metrics", "agent_goal_accuracy", "--judge-model", "gpt-4o")
	if code != 1 || !strings.Contains(out, "cassette: cassettes/demo.yaml") ||
		!strings.Contains(out, "record it with: AGENTCHECK_RECORD=missing agentcheck eval --cassette demo.cassette.yaml --format jsonl --metrics agent_goal_accuracy --judge-model gpt-4o") {
		t.Errorf("another judge model: exit %d, want miss lines naming the cassette and the command:\n%.2000s", code, out)
	}
}

// TestEvalArrayAndLines: a JSON array file, JSON Lines and standard input
// give the same results.
func TestEvalArrayAndLines(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	lines := synthLines(700, 3)
	jsonl := strings.Join(lines, "\n") + "\n"
	array := "[\n  " + strings.Join(lines, ",\n  ") + "\n]\n"
	want, _, code := runAgentcheck(t, "", "eval", "--format", "jsonl", writeFile(t, "a.jsonl", jsonl))
	if code != 0 || strings.Count(want, "\n") != len(lines) {
		t.Fatalf("exit %d, %d lines", code, strings.Count(want, "\n"))
	}
	for name, args := range map[string][]string{
		"array file":  {writeFile(t, "a.json", array)},
		"array stdin": {"-"},
	} {
		got, stderr, code := runAgentcheck(t, array, append([]string{"eval", "--format", "jsonl"}, args...)...)
		if code != 0 || got != want {
			t.Errorf("%s: exit %d, stderr %q, output differs from JSON Lines: %s", name, code, stderr, cmp.Diff(want, got))
		}
	}
	got, _, _ := runAgentcheck(t, jsonl, "eval", "--format", "jsonl", "-")
	if got != want {
		t.Errorf("JSON Lines on stdin differs from the file")
	}
}

func TestEvalFormatJSON(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	lines := synthLines(600, 5)
	lines[300] = `{"user_input": 1}`
	path := writeFile(t, "d.jsonl", strings.Join(lines, "\n"))
	jsonl, _, _ := runAgentcheck(t, "", "eval", "--format", "jsonl", path)
	out, _, code := runAgentcheck(t, "", "eval", "--format", "json", path)
	if code != 1 {
		t.Errorf("exit %d, want 1 for the bad sample", code)
	}
	var doc struct {
		Samples []map[string]any
		Summary map[string]any
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not a JSON object: %v\n%.300s", err, out)
	}
	// Each json sample has jsonl's fields, and says where it is.
	got := doc.Samples
	want := parseJSONL(t, jsonl)
	if len(got) != len(want) {
		t.Fatalf("%d json samples, %d jsonl lines", len(got), len(want))
	}
	for i := range want {
		for k, v := range want[i] {
			if !cmp.Equal(got[i][k], v) {
				t.Errorf("sample %d: %s is %v in json, %v in jsonl", i, k, got[i][k], v)
			}
		}
		if got[i]["line"] != float64(i+1) || got[i]["index"] != float64(i) || got[i]["file"] != path {
			t.Errorf("sample %d is at %v:%v (index %v)", i, got[i]["file"], got[i]["line"], got[i]["index"])
		}
	}
	if !strings.Contains(got[300]["error"].(string), `sample 300: "user_input" must be a list of messages, got int`) {
		t.Errorf("error object %v", got[300])
	}

	for format, want := range map[string]string{
		"json":  `{"samples":[],"summary":{"samples":0,"scored":0,"errors":0,"failed":0,"means":{"tool_call_accuracy":null,"tool_call_f1":null},"gates":[],"pass":true},"run":`,
		"jsonl": "",
	} {
		out, _, code := runAgentcheck(t, "", "eval", "--format", format, "-")
		if code != 0 || !strings.HasPrefix(out, want) || format == "jsonl" && out != "" {
			t.Errorf("--format %s of no samples: exit %d, %q, want %q", format, code, out, want)
		}
	}
}

func TestEvalTableErrors(t *testing.T) {
	data := `{"user_input": [{"type": "human", "content": "Find flights"}], "reference_tool_calls": []}
{"user_input": [{"type": "tool", "content": "orphan"}], "reference_tool_calls": []}
{"user_input": [{"type": "human", "content": "Thanks"}], "reference_tool_calls": []}
`
	out, _, code := runAgentcheck(t, "", "eval", writeFile(t, "t.jsonl", data))
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	rows := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(rows) != 5 {
		t.Fatalf("want header, 3 rows, summary:\n%s", out)
	}
	if !strings.Contains(rows[2], "error: ") || !strings.Contains(rows[2], "t.jsonl:2: sample 1: message 0 (tool): a tool message must follow") {
		t.Errorf("error row %q", rows[2])
	}
	// Means over the two samples that scored: accuracy 1 and 1, F1 0 and 0.
	if f := strings.Fields(rows[4]); !cmp.Equal(f[:3], []string{"mean", "1.0000", "0.0000"}) || !strings.Contains(rows[4], "3 samples, 2 scored, 1 could not be scored") {
		t.Errorf("summary %q", rows[4])
	}
}

// TestEvalTableFiles: with several files, a column says which one a row
// is from.
func TestEvalTableFiles(t *testing.T) {
	lines := synthLines(2, 4)
	a := writeFile(t, "a.jsonl", lines[0])
	b := writeFile(t, "bb.jsonl", lines[1])
	out, _, code := runAgentcheck(t, "", "eval", a, b)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	rows := strings.Split(out, "\n")
	for i, want := range []string{"file ", a + " ", b + " "} {
		if !strings.HasPrefix(rows[i], want) {
			t.Errorf("row %d = %q, want it to start with %q", i, rows[i], want)
		}
	}
	col := strings.Index(rows[0], "sample")
	if rows[1][col-1] != ' ' || strings.Index(rows[1], " 0 ") != strings.Index(rows[2], " 0 ") {
		t.Errorf("rows not aligned:\n%s", out)
	}
}

// TestEvalBrokenInput: a truncated array and a missing file are error lines
// in the output; what could be read is scored.
func TestEvalBrokenInput(t *testing.T) {
	good := synthLines(2, 9)
	truncated := writeFile(t, "cut.json", "[\n"+good[0]+",\n"+good[1][:100])
	missing := filepath.Join(t.TempDir(), "missing.jsonl")
	second := writeFile(t, "second.jsonl", good[1])
	out, stderr, code := runAgentcheck(t, "", "eval", "--format", "jsonl", truncated, missing, second)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	objs := parseJSONL(t, out)
	if len(objs) != 4 {
		t.Fatalf("want 4 lines (a sample, the framing error, the missing file, a sample):\n%s", out)
	}
	want := []map[string]any{scoresOf(t, good[0], metric.ToolCallAccuracy{}, metric.ToolCallF1{}), nil, nil, scoresOf(t, good[1], metric.ToolCallAccuracy{}, metric.ToolCallF1{})}
	for _, i := range []int{0, 3} {
		if diff := cmp.Diff(want[i], objs[i]); diff != "" {
			t.Errorf("line %d (-want +got):\n%s", i+1, diff)
		}
	}
	for i, substr := range map[int]string{1: "cut.json:3: sample 1: unexpected end of input inside the sample that starts on line 3", 2: "missing.jsonl: no such file"} {
		if msg, _ := objs[i]["error"].(string); !strings.Contains(msg, substr) {
			t.Errorf("line %d: %v, want an error with %q", i+1, objs[i], substr)
		}
	}
	// The sample cut short is a sample that could not be scored; the
	// missing file is no sample, but an input not read.
	wantErr := "agentcheck eval: 1 of 3 samples could not be scored\n" +
		"agentcheck eval: 1 input error (the output says why, where it was met)\n"
	if stderr != wantErr {
		t.Errorf("stderr (-want +got):\n%s", cmp.Diff(wantErr, stderr))
	}
}

func TestUsage(t *testing.T) {
	tests := []struct {
		args       []string
		code       int
		out, error string
	}{
		{args: nil, code: 2, error: "agentcheck eval [flags] [FILE...]"},
		{args: []string{"help"}, code: 0, out: "agentcheck eval [flags] [FILE...]"},
		{args: []string{"--help"}, code: 0, out: "agentcheck help [eval]"},
		{args: []string{"help", "eval"}, code: 0, out: "--arg-similarity NAME"},
		{args: []string{"eval", "-h"}, code: 0, out: "--strict-order BOOL"},
		{args: []string{"eval", "--help"}, code: 0, out: "--format NAME"},
		{args: []string{"grade"}, code: 2, error: `unknown command "grade"`},
		{args: []string{"eval", "--metrics", "tool_call_acuracy"}, code: 2, error: `unknown metric "tool_call_acuracy" (available: tool_call_accuracy, tool_call_f1, trajectory_match, agent_goal_accuracy, topic_adherence)`},
		{args: []string{"help", "eval"}, code: 0, out: "--judge-model MODEL"},
		{args: []string{"eval", "--topic-mode", "accuracy"}, code: 2, error: `--topic-mode: unknown topic mode "accuracy" (want precision, recall or f1)`},
		{args: []string{"eval", "--aggregation", "median"}, code: 2, error: `--aggregation: unknown method "median" (want mean, majority, min, unanimous or consensus)`},
		{args: []string{"eval", "--tolerance", "-0.1"}, code: 2, error: "--tolerance must be between 0 and 1, got -0.1"},
		{args: []string{"eval", "--judge-concurrency", "0"}, code: 2, error: "--judge-concurrency must be between 1 and 256, got 0"},
		{args: []string{"eval", "--judge-concurrency", "257"}, code: 2, error: "--judge-concurrency must be between 1 and 256, got 257"},
		{args: []string{"eval", "--judge-concurrency", "-3"}, code: 2, error: "--judge-concurrency must be between 1 and 256, got -3"},
		{args: []string{"eval", "--judge-model", "a", "--judge-model", "a"}, code: 2, error: "--judge-model: a is given twice"},
		{args: []string{"eval", "--judge-model", " "}, code: 2, error: "--judge-model: empty model name"},
		{args: []string{"eval", "--metrics", "tool_call_f1,tool_call_f1"}, code: 2, error: "tool_call_f1 is listed twice"},
		{args: []string{"eval", "--metrics", ","}, code: 2, error: "--metrics lists no metric"},
		{args: []string{"eval", "--arg-similarity", "cosine"}, code: 2, error: `unknown string similarity "cosine"`},
		{args: []string{"eval", "--format", "csv"}, code: 2, error: `unknown format "csv" (want table, jsonl, json, junit, markdown or html)`},
		{args: []string{"eval", "--strict-order=maybe"}, code: 2, error: "invalid boolean value"},
		{args: []string{"eval", "--workers", "0"}, code: 2, error: "--workers must be between 1 and 256, got 0"},
		{args: []string{"eval", "--workers", "257"}, code: 2, error: "--workers must be between 1 and 256, got 257"},
		{args: []string{"eval", "--verbose"}, code: 2, error: "flag provided but not defined: -verbose"},
	}
	for _, tt := range tests {
		out, stderr, code := runAgentcheck(t, "", tt.args...)
		out = onlyScores(t, out)
		if code != tt.code || !strings.Contains(out, tt.out) || !strings.Contains(stderr, tt.error) {
			t.Errorf("agentcheck %q: exit %d (want %d)\nstdout: %s\nstderr: %s\nwant stdout with %q, stderr with %q", tt.args, code, tt.code, out, stderr, tt.out, tt.error)
		}
		if tt.code == 2 && out != "" {
			t.Errorf("agentcheck %q: a usage error wrote to stdout: %q", tt.args, out)
		}
	}
}

// failingWriter fails after n bytes, as a closed pipe does.
type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		return w.n, errors.New("broken pipe")
	}
	w.n -= len(p)
	return len(p), nil
}

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// TestEvalOutputFails: a failing output stops the run with an error, the
// rest of the input unread, with one worker (read, scored and written by
// one goroutine) and with several (the pipeline), and every goroutine of
// the pipeline ends.
func TestEvalOutputFails(t *testing.T) {
	for _, workers := range []string{"1", "3"} {
		t.Run("workers="+workers, func(t *testing.T) { testEvalOutputFails(t, workers) })
	}
}

func testEvalOutputFails(t *testing.T, workers string) {
	before := runtime.NumGoroutine()
	input := strings.Join(synthLines(5000, 11), "\n")
	var stderr bytes.Buffer
	in := &countingReader{r: strings.NewReader(input)}
	code := run([]string{"eval", "--format", "jsonl", "--workers", workers, "-"}, in, &failingWriter{n: 100000}, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "broken pipe") {
		t.Errorf("exit %d, stderr %q; want 1 and the write error", code, stderr.String())
	}
	if in.n > len(input)/2 {
		t.Errorf("Expected the run to stop reading once its output failed, but it read %d of the input's %d bytes", in.n, len(input))
	}
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > before; {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines before, %d after", before, runtime.NumGoroutine())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
