package cassettes_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"

	"github.com/agentcheck/agentcheck/cassettes"
	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/recorder"
)

// The demo's judgments replay from the cassette built into the package, as
// agentcheck eval replays them: no file, no key, no network.
func ExampleFS() {
	data, err := fs.ReadFile(cassettes.FS(), "demo.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	rec, err := recorder.Open("cassettes/demo.yaml", recorder.WithData(data), recorder.WithMode(recorder.RecordNone))
	if err != nil {
		fmt.Println(err)
		return
	}
	j := judge.New(judge.WithRecorder(rec), judge.WithModel("gpt-4o-mini"), judge.WithAPIKey(""), judge.WithBaseURL("http://127.0.0.1:9/v1"))

	f, err := os.Open("../cmd/agentcheck/example/demo.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	for s, err := range dataset.ReadSamples(f, "demo.jsonl") {
		if err != nil {
			fmt.Println(err)
			return
		}
		r, err := metric.AgentGoalAccuracy{Judge: j}.Evaluate(context.Background(), s)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(r.Score, r.Verdicts[0].Source, r.Verdicts[0].UserGoal)
		break // the first sample
	}
	// Output:
	// 1 cassettes/demo.yaml Book a table for two at 7pm at a Chinese restaurant in Soho.
}
