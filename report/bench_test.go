package report

import (
	"fmt"
	"io"
	"math/rand/v2"
	"testing"
	"time"
)

// benchRun is a run of n cases scored by four metrics, as agentcheck eval
// makes of a large dataset: one case in ten fails a --sample-threshold,
// with a reason per score under 1, a report and a short transcript; one in
// a hundred could not be scored. The same n gives the same run.
func benchRun(n int) *Run {
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	names := []string{"tool_call_accuracy", "tool_call_f1", "agent_goal_accuracy", "topic_adherence"}
	r := &Run{Title: "agentcheck eval", Inputs: []string{"runs.jsonl"}, Started: time.Date(2026, 11, 26, 5, 0, 0, 0, time.UTC),
		Judges: []string{"gpt-4o-mini"}, PromptVersions: []string{"goal/v1", "topics/v1"}, CassetteMode: "replay"}
	for _, name := range names {
		r.Metrics = append(r.Metrics, MetricSummary{Name: name, Threshold: 0.5})
	}
	r.Cases = make([]Case, n)
	for i := range r.Cases {
		c := &r.Cases[i]
		c.ID, c.File, c.Line, c.Index = fmt.Sprintf("case-%06d", i), "runs.jsonl", i+1, i
		c.Request = "Book a table for two at 7pm in Soho, somewhere Chinese"
		r.Samples++
		switch {
		case i%100 == 99:
			c.Status, c.Error = Error, fmt.Sprintf("runs.jsonl:%d: sample %d: user_input: want an array of messages, got a number", i+1, i)
			r.Errors++
			continue
		case i%10 == 3:
			c.Status = Fail
			r.Failed++
		default:
			c.Status = Pass
		}
		c.Scores = make([]float64, len(names))
		c.Reasons = make([]string, len(names))
		for j := range names {
			x := 1.0
			if c.Status == Fail || rng.IntN(4) == 0 {
				x = float64(rng.IntN(4)) / 3
			}
			c.Scores[j] = x
			r.Metrics[j].Add(x)
			if x < 1 {
				c.Reasons[j] = "1 of 3 calls made match the reference by name: book_table(time: \"20:00\") differs from the reference's 19:00"
			}
		}
		if c.Status == Fail {
			c.Failures = []string{"Expected tool_call_accuracy to be at least 0.5 (--sample-threshold), but it is 0.3333333333333333: 1 of 3 calls made match"}
			c.Report = "Expected the agent's tool calls to score tool_call_accuracy >= 0.5, but they score 0.3333\n    reference  predicted\n  ~ [0] book_table(time: \"19:00\")  [0] book_table(time: \"20:00\")"
			c.Transcript = []Message{{Role: "human", Content: c.Request}, {Role: "ai", Calls: []Call{{Name: "book_table", Args: `{"time":"20:00"}`}}}, {Role: "tool", Content: "booked"}}
		}
	}
	r.Gates = []Gate{{Name: "--fail-under tool_call_accuracy=0.9", Flag: "fail-under", Kind: gateMean, Metric: names[0], Threshold: 0.9, Value: r.Metrics[0].Mean, Detail: "Expected the mean tool_call_accuracy to be at least 0.9 (--fail-under), but it is lower"}}
	return r
}

// BenchmarkWriteJSONL100k renders a 100k-case run as JSON Lines.
func BenchmarkWriteJSONL100k(b *testing.B) {
	r := benchRun(100_000)
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(io.Discard, r, JSONL); err != nil {
			b.Fatal(err)
		}
	}
}
