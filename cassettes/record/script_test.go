package main

import (
	"os"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/dataset"
)

// TestScriptCoversTheDemo: every demo sample's conversation is recognised
// by exactly one judgment, whose topics are unique names, so that the
// scripted judge answers the demo as the table says.
func TestScriptCoversTheDemo(t *testing.T) {
	f, err := os.Open("../../cmd/agentcheck/example/demo.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for s, err := range dataset.ReadSamples(f, "demo.jsonl") {
		if err != nil {
			t.Fatal(err)
		}
		transcript := s.Conversation.String()
		var matched []string
		for _, j := range judgments {
			if strings.Contains(transcript, j.match) {
				matched = append(matched, j.match)
			}
		}
		if len(matched) != 1 {
			t.Errorf("demo sample %d is matched by %q, want exactly one judgment", n, matched)
		}
		if got, want := firstTurn("Conversation:\n"+transcript, "human"), s.Conversation[0].Content; got != want {
			t.Errorf("demo sample %d: first human turn read as %q, want %q", n, got, want)
		}
		n++
	}
	if n != 8 {
		t.Errorf("%d demo samples, the script covers 8", n)
	}
	seen := map[string]bool{}
	for _, j := range judgments {
		for _, topic := range j.topics {
			if seen[topic.name] {
				t.Errorf("topic %q is in two judgments: classification could not tell them apart", topic.name)
			}
			seen[topic.name] = true
		}
	}
}
