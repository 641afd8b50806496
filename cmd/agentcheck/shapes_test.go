package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck/cmd/agentcheck/internal/synth"
)

// TestEvalReadsEveryShape: the same run written as a ragas sample and as
// OpenAI Chat, Responses, Gemini and Anthropic messages
// (testdata/shapes.jsonl, a line each) scores the same, the shape detected
// line by line.
func TestEvalReadsEveryShape(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"eval", "--format", "jsonl", "--metrics", "tool_call_accuracy,tool_call_f1", "testdata/shapes.jsonl"}, nil, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out.String(), errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(onlyScores(t, out.String())), "\n")
	if len(lines) != 5 {
		t.Fatalf("want 5 lines, got %q", lines)
	}
	for i, l := range lines {
		// 2.0 against the reference's 2: str() differs, == does not.
		if l != `{"tool_call_accuracy":0.5,"tool_call_f1":1.0}` {
			t.Errorf("line %d: %s", i+1, l)
		}
	}

	// Forcing a shape reads every line in it: the ragas line is no OpenAI
	// sample, and says so on its own line; the OpenAI one still scores.
	out.Reset()
	errOut.Reset()
	code = run([]string{"eval", "--format", "jsonl", "--input-format", "openai", "testdata/shapes.jsonl"}, nil, &out, &errOut)
	lines = strings.Split(strings.TrimSpace(onlyScores(t, out.String())), "\n")
	if code != 1 || len(lines) != 5 || !strings.Contains(lines[0], `testdata/shapes.jsonl:1: sample 0: \"messages\" is missing`) ||
		lines[1] != `{"tool_call_accuracy":0.5,"tool_call_f1":1.0}` {
		t.Errorf("--input-format openai: exit %d\n%s%s", code, out.String(), errOut.String())
	}

	errOut.Reset()
	if code := run([]string{"eval", "--input-format", "yaml", "testdata/shapes.jsonl"}, nil, &out, &errOut); code != exitUsage ||
		!strings.Contains(errOut.String(), `--input-format: unknown input format "yaml"`) {
		t.Errorf("--input-format yaml: exit %d: %s", code, errOut.String())
	}
}

// TestEvalReadsOTLPTraces: --input-format otel scores one sample per
// trace, in order of first appearance; a trace without references gets its
// own error line and the others are scored.
func TestEvalReadsOTLPTraces(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"eval", "--format", "jsonl", "--input-format", "otel", "../../dataset/testdata/otel/weather.jsonl"}, nil, &out, &errOut)
	lines := strings.Split(strings.TrimSpace(onlyScores(t, out.String())), "\n")
	if code != 1 || len(lines) != 2 || lines[0] != `{"tool_call_accuracy":0.75,"tool_call_f1":0.5}` ||
		!strings.Contains(lines[1], `weather.jsonl:2: sample 1: tool_call_accuracy needs reference_tool_calls`) {
		t.Errorf("exit %d\n%s%s", code, out.String(), errOut.String())
	}
	// The same trace, pretty-printed in one document, scores the same.
	out.Reset()
	if code := run([]string{"eval", "--format", "jsonl", "--input-format", "otel", "../../dataset/testdata/otel/weather.json"}, nil, &out, &errOut); code != 0 ||
		strings.TrimSpace(onlyScores(t, out.String())) != lines[0] {
		t.Errorf("weather.json: exit %d: %s", code, out.String())
	}
}

// --input-format otel is bounded: an export over --max-sample-bytes is an
// input error naming the flag, its spans lost; traces holding more than
// --max-otel-bytes at once make the input one error naming that flag, no
// trace scored; each bound under 1 is a usage error.
func TestEvalBoundsOTLPInput(t *testing.T) {
	const file = "../../dataset/testdata/otel/weather.jsonl"
	for _, tc := range []struct {
		flags []string
		want  []string // the output's lines
	}{
		{[]string{"--max-otel-bytes", "100"}, []string{
			`{"error":"` + file + `:1: the input's traces hold over 100 bytes, the most held at once to put each trace's spans together (--max-otel-bytes): it was read no further, and none of its traces was scored (any may lack spans that come later)"}`}},
		{[]string{"--max-sample-bytes", "1500"}, []string{
			`{"error":"` + file + `:1: the export is over 1500 bytes, the most one export may hold (--max-sample-bytes): it was skipped, its spans lost"}`,
			`{"error":"` + file + `:2: the export is over 1500 bytes, the most one export may hold (--max-sample-bytes): it was skipped, its spans lost"}`,
			`{"error":"` + file + `:3: the export is over 1500 bytes, the most one export may hold (--max-sample-bytes): it was skipped, its spans lost"}`}},
	} {
		out, errOut, code := runAgentcheck(t, "", append([]string{"eval", "--format", "jsonl", "--input-format", "otel", file}, tc.flags...)...)
		if got := strings.Split(strings.TrimSuffix(out, "\n"), "\n"); code != exitFailed || !cmp.Equal(got, tc.want) {
			t.Errorf("%v: exit %d\n%s\n%s", tc.flags, code, cmp.Diff(tc.want, got), errOut)
		}
	}
	// Within the bounds, the same input scores as without them.
	free, _, _ := runAgentcheck(t, "", "eval", "--format", "jsonl", "--input-format", "otel", file)
	if bounded, _, _ := runAgentcheck(t, "", "eval", "--format", "jsonl", "--input-format", "otel", "--max-otel-bytes", "20000", "--max-sample-bytes", "5000", "--max-sample-values", "500", file); bounded != free {
		t.Errorf("within the bounds:\n%s\nwithout them:\n%s", bounded, free)
	}
	if _, stderr, code := runAgentcheck(t, "", "eval", "--max-otel-bytes", "0"); code != exitUsage || !strings.Contains(stderr, "--max-otel-bytes must be at least 1, got 0") {
		t.Errorf("--max-otel-bytes 0: exit %d, %q", code, stderr)
	}
}

// The same runs written as ragas samples and as OpenAI chat messages
// (synth.AppendOpenAI: arguments as JSON strings, results answering their
// calls by id) score the same, line for line, read by Auto: 150
// generated samples of every mix (three batches of batchSize), with one
// worker and two. The 150 cover the code of the command, dataset, metric,
// trajectory, jsonvalue and the root package that the 400 it had covered
// (go test -coverprofile, the same blocks).
func TestOpenAIMessagesScoreAsRagasSamples(t *testing.T) {
	t.Parallel()
	for _, mix := range []synth.Mix{synth.Calls, synth.Results, synth.Chat} {
		g := synth.NewMix(7, mix)
		var ragas, openai bytes.Buffer
		var line []byte
		for range 150 {
			line = g.AppendSample(line[:0])
			ragas.Write(append(line, '\n'))
			o, err := synth.AppendOpenAI(nil, line)
			if err != nil {
				t.Fatal(err)
			}
			openai.Write(append(o, '\n'))
		}
		for _, workers := range []string{"1", "2"} {
			var outs [2]string
			for k, in := range []*bytes.Buffer{&ragas, &openai} {
				var out, errOut bytes.Buffer
				if code := run([]string{"eval", "--workers", workers, "--format", "jsonl", "-"}, bytes.NewReader(in.Bytes()), &out, &errOut); code != 0 {
					t.Fatalf("mix %q, %s workers: exit %d\n%s", mix, workers, code, errOut.String())
				}
				outs[k] = out.String()
			}
			if outs[0] != outs[1] {
				a, b := strings.Split(outs[0], "\n"), strings.Split(outs[1], "\n")
				for i := range min(len(a), len(b)) {
					if a[i] != b[i] {
						t.Fatalf("mix %q, %s workers: sample %d scores\n%s\nas ragas, and\n%s\nas OpenAI messages", mix, workers, i, a[i], b[i])
					}
				}
				t.Fatalf("mix %q, %s workers: %d lines as ragas, %d as OpenAI messages", mix, workers, len(a), len(b))
			}
		}
	}
}
