package main

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestEvalNamesEachSampleByItsID: the id a case is named by is the
// record's top-level "id" (recordID), which the parse reads for every
// sample it scores and recordID finds for every record it cannot: on
// generated records with and without ids of every kind, repeated, nested
// in arguments only, in ragas and in provider message formats, and in
// records that cannot be scored.
func TestEvalNamesEachSampleByItsID(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 5))
	ids := []string{`"a-1"`, `7`, `-0`, `1.5`, `null`, `{"k": 1}`, `"\u0041"`, `12345678901234567890`, `true`}
	bodies := []string{
		`"user_input": [{"type": "ai", "content": "x", "tool_calls": [{"name": "f", "args": {"id": "inner"}}]}], "reference_tool_calls": [{"name": "f", "args": {"id": "inner"}}]`,
		`"user_input": [{"type": "human", "content": "hi"}], "reference_tool_calls": []`,
		`"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}], "reference_tool_calls": [{"name": "f", "args": {}}]`,
		`"user_input": 1`,                   // cannot be scored
		`"user_input": [{"type": "robot"}]`, // cannot be scored
	}
	var lines []string
	for range 300 {
		parts := []string{bodies[rng.IntN(len(bodies))]}
		for range rng.IntN(3) { // no id, one, or one given twice
			at := rng.IntN(len(parts) + 1)
			parts = append(parts[:at], append([]string{`"id": ` + ids[rng.IntN(len(ids))]}, parts[at:]...)...)
		}
		lines = append(lines, "{"+strings.Join(parts, ", ")+"}")
	}
	stdout, stderr, _ := runAgentcheck(t, strings.Join(lines, "\n")+"\n", "eval", "--metrics", "tool_call_accuracy", "--format", "json", "-")
	var run struct {
		Samples []struct {
			ID   string `json:"id"`
			Line int    `json:"line"`
		} `json:"samples"`
	}
	if err := json.Unmarshal([]byte(stdout), &run); err != nil {
		t.Fatalf("output is not JSON: %v\n%s\n%s", err, stdout, stderr)
	}
	if len(run.Samples) != len(lines) {
		t.Fatalf("got %d cases for %d records", len(run.Samples), len(lines))
	}
	named := 0
	for i, c := range run.Samples {
		want := recordID(lines[i])
		if c.ID != want {
			t.Errorf("line %d %s: named %q, want %q", c.Line, lines[i], c.ID, want)
		}
		if want != "" {
			named++
		}
	}
	if named < 100 {
		t.Fatalf("only %d of %d records have an id: the test hardly tries naming", named, len(lines))
	}
}
