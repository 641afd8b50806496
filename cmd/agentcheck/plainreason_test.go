package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/report"
)

// The tool-call metrics' reasons on calls whose names plainNames takes are
// written through report's plain entry points (plainreason) byte for byte
// as Case.SetResult and Writer.WriteCase write them: on 6,000 random calls of
// every size (up to past the reasons' bound and ToolCallF1's remembered
// counts), names drawn mostly from plain text and sometimes with a space,
// a quote, '#', a backslash, a line break or a non-ASCII letter, arguments
// equal or not, for every tool-call metric eval builds, in jsonl and json.
// A reason template with such a character, or a name check that lets one
// through, fails it.
func TestToolCallReasonsOnPlainNamesArePlain(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	r := rand.New(rand.NewPCG(7, 8))
	plain := "abcxyz_-.:/()[]{}0123456789ABZ!$%&'*+,;<=>?@^`|~"
	odd := []string{" ", `"`, "#", "##[", `\`, "\n", "\t", "é", "\x7f", "\x00", "…"}
	name := func() string {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			if r.IntN(40) == 0 {
				b.WriteString(odd[r.IntN(len(odd))])
			} else {
				b.WriteByte(plain[r.IntN(len(plain))])
			}
		}
		return b.String()
	}
	names := []string{name(), name(), name()}
	calls := func() []agentcheck.ToolCall {
		n := r.IntN(6)
		if r.IntN(10) == 0 {
			n = 5 + r.IntN(60) // past smallF1, and a reason past maxReason
		}
		cs := make([]agentcheck.ToolCall, n)
		for i := range cs {
			nm := names[r.IntN(len(names))]
			if r.IntN(4) == 0 {
				nm = name()
			}
			cs[i] = agentcheck.ToolCall{Name: nm, Args: jsonvalue.Object(jsonvalue.Member{Key: "q", Value: jsonvalue.Int(int64(r.IntN(3)))})}
		}
		return cs
	}
	var metrics []toolCallMetric
	for _, any := range []bool{false, true} {
		for s := metric.ExactText; s <= metric.JaroWinkler; s++ {
			metrics = append(metrics, metric.ToolCallAccuracy{AnyOrder: any, ArgSimilarity: s})
		}
	}
	metrics = append(metrics, metric.ToolCallF1{}, metric.ToolCallF1{NamesOnly: true})
	run := &report.Run{Metrics: []report.MetricSummary{{Name: "m"}}}
	tried := 0
	for range 6000 {
		predicted, reference := calls(), calls()
		if r.IntN(3) == 0 {
			predicted = reference
		}
		if !plainNames(predicted) || !plainNames(reference) {
			continue
		}
		tried++
		m := metrics[r.IntN(len(metrics))]
		res := metric.Result{Metric: m.Name()}
		var b []byte
		res.Score, b = m.AppendReason(nil, predicted, reference)
		res.Reason = string(b)
		for _, f := range []report.Format{report.JSONL, report.JSON} {
			var want, got bytes.Buffer
			var c report.Case
			c.SetResult(0, &res)
			w := report.NewWriter(&want, f, run)
			w.WriteCase(&c)
			w.Close()
			var pc report.Case
			ok := setPlainResult(&pc, 0, &res)
			if ok != (len(res.Reason) <= 500) {
				t.Fatalf("Expected setPlainResult of a reason of %d bytes to say %v", len(res.Reason), !ok)
			}
			w = report.NewWriter(&got, f, run)
			var mask uint64
			if ok {
				mask = 1
			}
			writeCase(w, &pc, mask)
			w.Close()
			if got.String() != want.String() {
				t.Fatalf("Expected %T%+v on %s vs %s, reason %q, to be written in %v as\n%s\nbut it is\n%s",
					m, m, callNames(predicted), callNames(reference), res.Reason, f, want.String(), got.String())
			}
		}
	}
	if tried < 1500 {
		t.Fatalf("only %d of the generated cases had plain names", tried)
	}
}

// Names with anything but plain JSON text other than a space are not
// plain; every other name is.
func TestPlainNames(t *testing.T) {
	for c := 0; c < 256; c++ {
		want := c > ' ' && c < 0x7f && c != '"' && c != '#' && c != '\\'
		for _, n := range []string{string(rune(c)), "ab" + string([]byte{byte(c)}) + "cd"} {
			if got := plainNames([]agentcheck.ToolCall{{Name: "ok"}, {Name: n}}); got != want {
				t.Fatalf("Expected plainNames of %q to be %v", n, want)
			}
		}
	}
	if !plainNames(nil) || !plainNames([]agentcheck.ToolCall{{Name: ""}}) {
		t.Fatal("Expected no calls and an empty name to be plain")
	}
}

func callNames(calls []agentcheck.ToolCall) string {
	var ns []string
	for _, c := range calls {
		ns = append(ns, fmt.Sprintf("%q", c.Name))
	}
	return "[" + strings.Join(ns, ", ") + "]"
}

// eval writes each sample's tool-call reasons as the metrics word them,
// whether or not its calls' names are plain, whatever the sample before
// it had: samples with plain names and with a quote, a backslash, '#' or
// a non-ASCII letter in one, in random order, mostly with names that do
// not line up (so that the reasons list them), read back from jsonl and
// json with one worker and two, each reason equal to Compare's. A plain
// path kept for a sample whose names are not plain writes a reason
// unescaped, which is not valid JSON or not the metric's reason.
func TestEvalWritesEachSamplesReasonsWhateverTheSampleBefore(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(13, 14))
	odd := []string{`"`, `\`, "#", "##[", "é"}
	name := func(plain bool) string {
		n := []string{"search", "book", "pay"}[r.IntN(3)]
		if !plain {
			n += odd[r.IntN(len(odd))] + "x"
		}
		return n
	}
	call := func(plain bool) string {
		nm, _ := json.Marshal(name(plain))
		return fmt.Sprintf(`{"name": %s, "args": {"n": %d}}`, nm, r.IntN(2))
	}
	var in strings.Builder
	var samples []agentcheck.Sample
	for k := range 400 {
		// A sample with plain names first, then one with a quote in a
		// name, both with names that do not line up.
		plain := k == 0 || k > 1 && r.IntN(2) == 0
		var pred, ref []string
		for range 1 + r.IntN(3) {
			pred = append(pred, call(plain))
		}
		for range 1 + r.IntN(3) {
			ref = append(ref, call(plain || r.IntN(2) == 0))
		}
		if k < 2 {
			pred, ref = []string{call(plain)}, []string{`{"name": "other", "args": {}}`}
		}
		line := fmt.Sprintf(`{"user_input": [{"type": "human", "content": "q"}, {"type": "ai", "content": "", "tool_calls": [%s]}], "reference_tool_calls": [%s]}`,
			strings.Join(pred, ", "), strings.Join(ref, ", "))
		s, err := agentcheck.ParseSample(line)
		if err != nil {
			t.Fatal(err)
		}
		samples = append(samples, s)
		in.WriteString(line + "\n")
	}
	file := filepath.Join(t.TempDir(), "names.jsonl")
	if err := os.WriteFile(file, []byte(in.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	metrics := []toolCallMetric{metric.ToolCallAccuracy{}, metric.ToolCallF1{}}
	for _, workers := range []string{"1", "2"} {
		for _, format := range []string{"jsonl", "json"} {
			var out, errOut bytes.Buffer
			if code := run([]string{"eval", "--workers", workers, "--metrics", "tool_call_accuracy,tool_call_f1", "--format", format, file}, nil, &out, &errOut); code != exitOK && code != exitFailed {
				t.Fatalf("exit %d; stderr:\n%s", code, errOut.String())
			}
			type line struct {
				Reasons map[string]string `json:"reasons"`
			}
			var lines []line
			if format == "json" {
				var doc struct {
					Samples []line `json:"samples"`
				}
				if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
					t.Fatalf("--format json --workers %s: %v", workers, err)
				}
				lines = doc.Samples
			} else {
				for i, text := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
					var l line
					if err := json.Unmarshal([]byte(text), &l); err != nil {
						t.Fatalf("--format jsonl --workers %s, sample %d: %v in %s", workers, i, err, text)
					}
					lines = append(lines, l)
				}
			}
			if len(lines) != len(samples) {
				t.Fatalf("%d samples written, want %d", len(lines), len(samples))
			}
			for i, s := range samples {
				for _, m := range metrics {
					want := ""
					if res := m.(interface {
						Compare(predicted, reference []agentcheck.ToolCall) metric.Result
					}).Compare(s.Conversation.ToolCalls(), s.ReferenceToolCalls); res.Score < 1 {
						want = res.Reason
					}
					if got := lines[i].Reasons[m.Name()]; got != want {
						t.Fatalf("--format %s --workers %s, sample %d: Expected the %s reason %q, but it is %q", format, workers, i, m.Name(), want, got)
					}
				}
			}
		}
	}
}
