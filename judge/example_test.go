package judge_test

import (
	"context"
	"fmt"

	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/recorder"
)

// refundQuestion is what a judged metric asks, written out.
var refundQuestion = judgment.Question{
	Name:          "agent_goal_compare",
	PromptVersion: "goal/v1",
	Instructions:  "Decide whether the end state achieves the desired outcome.",
	Input:         "Desired: a refund of order 1042.\nEnd state: order 1042 was refunded.",
	Schema: map[string]any{
		"type":                 "object",
		"properties":           map[string]any{"reason": map[string]any{"type": "string"}, "achieved": map[string]any{"type": "boolean"}},
		"required":             []string{"reason", "achieved"},
		"additionalProperties": false,
	},
}

// A judge replays its answers from a committed cassette, with no network
// and no key. In a test, judge.ForTest(t) does this with the test's own
// cassette, testdata/cassettes/ and recorder.CassetteFile(t.Name()).
func ExampleWithRecorder() {
	rec, err := recorder.Open("testdata/cassettes/ExampleWithRecorder.yaml",
		recorder.WithMode(recorder.RecordNone), recorder.WithTestName("ExampleWithRecorder"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rec.Close()
	j := judge.New(judge.WithRecorder(rec), judge.WithModel("gpt-4o-mini"), judge.WithAPIKey(""),
		judge.WithBaseURL("https://api.openai.com/v1"))
	ans, err := j.Ask(context.Background(), refundQuestion)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(ans.JSON))
	fmt.Println(ans.Source)
	fmt.Println(ans.Rerecord)
	// Output:
	// {"reason":"Order 1042 was refunded, as desired.","achieved":true}
	// testdata/cassettes/ExampleWithRecorder.yaml
	// AGENTCHECK_RECORD=all AGENTCHECK_RECORD_TEST=ExampleWithRecorder go test ./judge -count=1 -run '^ExampleWithRecorder$'
}
