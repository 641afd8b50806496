package main

import (
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/jsonvalue"
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
