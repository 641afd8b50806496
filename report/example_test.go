package report_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/report"
)

// A tool of one's own renders its scores as agentcheck eval does: each
// sample a Case with the metric's Result set, the metric's summary fed each
// score, then any Format.
func ExampleWrite() {
	reference := []agentcheck.ToolCall{agentcheck.MustParseToolCall("get_weather", `{"city": "Paris", "unit": "celsius"}`)}
	runs := map[string]string{
		"celsius": `{"city": "Paris", "unit": "celsius"}`,
		"default": `{"city": "Paris"}`,
	}
	run := &report.Run{Title: "weather agent", Metrics: []report.MetricSummary{{Name: "tool_call_accuracy", Threshold: 1}}}
	for _, id := range []string{"celsius", "default"} {
		sample := agentcheck.Sample{
			Conversation: agentcheck.Conversation{
				{Role: agentcheck.Human, Content: "Weather in Paris, in Celsius?"},
				{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{agentcheck.MustParseToolCall("get_weather", runs[id])}},
			},
			ReferenceToolCalls: reference,
		}
		r, err := metric.ToolCallAccuracy{}.Evaluate(context.Background(), sample)
		if err != nil {
			fmt.Println(err)
			return
		}
		c := report.Case{ID: id, Line: run.Samples + 1, Status: report.Pass, Request: sample.Conversation[0].Content}
		c.SetResult(0, &r)
		run.Metrics[0].Add(r.Score)
		run.Cases = append(run.Cases, c)
		run.Samples++
	}
	run.Pass = true
	if err := report.Write(os.Stdout, run, report.Table); err != nil {
		fmt.Println(err)
	}
	// Output:
	// sample     line  tool_call_accuracy  request
	// celsius       1  1.0000              Weather in Paris, in Celsius?
	// default       2  0.5000              Weather in Paris, in Celsius?
	//            mean  0.7500              2 samples, 2 scored, 0 could not be scored
}

// A saved run (agentcheck eval --format json > run.json) reads back with
// ReadJSON, for a tool that picks out what it needs: here, each failing
// case with where it was read and why it failed.
func ExampleReadJSON() {
	saved := `{"samples": [
{"id": "weather-paris", "file": "runs.jsonl", "line": 2, "index": 1, "status": "fail", "tool_call_accuracy": 0.5,
 "reasons": {"tool_call_accuracy": "1 call aligned by name; mean argument score 0.5"},
 "failures": ["Expected tool_call_accuracy to be at least 0.8 (--sample-threshold), but it is 0.5"]},
{"id": "dinner-soho", "file": "runs.jsonl", "line": 1, "index": 0, "status": "pass", "tool_call_accuracy": 1.0}
],
"summary": {"samples": 2, "scored": 2, "errors": 0, "failed": 1, "means": {"tool_call_accuracy": 0.75}, "pass": false},
"run": {"title": "agentcheck eval", "inputs": ["runs.jsonl"],
 "metrics": [{"name": "tool_call_accuracy", "n": 2, "mean": 0.75, "sd": 0.3535533905932738, "threshold": 0.8, "pass_rate": 0.5, "histogram": [0,0,0,0,0,1,0,0,0,1]}]}}`
	run, err := report.ReadJSON(strings.NewReader(saved), "run.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s over %v: pass %v\n", run.Title, run.Inputs, run.Pass)
	for _, c := range run.Cases {
		if c.Status == report.Fail {
			fmt.Printf("%s (%s line %d): %s\n", c.ID, c.File, c.Line, strings.Join(c.Failures, "; "))
		}
	}
	// Output:
	// agentcheck eval over [runs.jsonl]: pass false
	// weather-paris (runs.jsonl line 2): Expected tool_call_accuracy to be at least 0.8 (--sample-threshold), but it is 0.5
}
