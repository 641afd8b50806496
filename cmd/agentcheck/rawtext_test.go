package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/cmd/agentcheck/internal/synth"
)

// TestRawTextIsNotShown: scoring tool calls only, eval keeps the
// messages' text with escapes as written (readsNoText) and shows the same
// output, byte for byte, as when it parses the text in full: on the
// synthetic mixes (tools' escaped JSON results, long messages, the
// default), samples with escapes of every kind, invalid ones and
// non-ASCII text, in every format, with a gate that fails some samples
// (whose transcripts show their text) and with 1 and 2 workers.
func TestRawTextIsNotShown(t *testing.T) {
	t.Parallel() // 24 runs: it overlaps the package's other slow tests
	var lines []string
	for k, mix := range []synth.Mix{synth.Results, synth.Chat, synth.Calls} {
		g := synth.NewMix(uint64(20+k), mix)
		for range 50 {
			lines = append(lines, string(g.AppendSample(nil)))
		}
	}
	for i, content := range []string{`say \"hi\"\n\tthen \\ go`, `back\\slash`, `caf\u00e9 \ud83d\ude00`, `lone \ud800 surrogate`, `bad \x escape`, "raw \x01 control", "\xff bad byte", `Zürich: {\"a\": [1, 2]}`} {
		lines = append(lines, fmt.Sprintf(`{"id": "hand-%d", "user_input": [{"type": "human", "content": "%s"}, {"type": "ai", "content": "%s"}, {"type": "human", "content": "%s"}, {"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": {"q": 1}}]}, {"type": "tool", "content": "%s"}], "reference_tool_calls": [{"name": "f", "args": {"q": 2}}]}`, i, content, content, content, content))
	}
	path := writeFile(t, "mixed.jsonl", strings.Join(lines, "\n")+"\n")
	shown := 0
	for _, format := range []string{"jsonl", "json", "table", "markdown", "junit", "html"} {
		for _, workers := range []string{"1", "2"} {
			var outs [2]string
			for j, fullText := range []bool{false, true} {
				cfg, files, err := parseEvalFlags([]string{"--metrics", "tool_call_accuracy,tool_call_f1", "--sample-threshold", "tool_call_f1=0.9", "--workers", workers, "--format", format, path})
				if err != nil {
					t.Fatal(err)
				}
				if err := cfg.buildMetrics(nil); err != nil {
					t.Fatal(err)
				}
				if !cfg.readsNoText() {
					t.Fatal("Expected a run of the tool-call metrics to read no text")
				}
				cfg.fullText = fullText
				var out bytes.Buffer
				if _, err := evaluate(t.Context(), cfg, inputs(files, nil), &out, nil); err != nil {
					t.Fatal(err)
				}
				outs[j] = unclocked(out.String())
			}
			if outs[0] != outs[1] {
				a, b := outs[0], outs[1]
				i := 0
				for i < len(a) && i < len(b) && a[i] == b[i] {
					i++
				}
				t.Fatalf("--format %s --workers %s: the output with the text kept as written differs from the full reading's at byte %d:\n%q\nwant\n%q", format, workers, i, a[max(0, i-200):min(len(a), i+200)], b[max(0, i-200):min(len(b), i+200)])
			}
			if strings.Contains(outs[0], `then \ go`) || strings.Contains(outs[0], "then \\\\ go") {
				shown++
			}
		}
	}
	if shown == 0 {
		t.Error("Expected a failing sample's transcript, with its text, in some output")
	}
}
