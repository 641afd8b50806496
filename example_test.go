package agentcheck_test

import (
	"context"
	"fmt"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/adapters/goopenai"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/judge"
	. "github.com/agentcheck/agentcheck/matchers"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/agentcheck/agentcheck/trajectory"
	"github.com/onsi/gomega"
	openai "github.com/sashabaranov/go-openai"
)

// The agent's transcript, as go-openai messages (what a Go agent built on
// go-openai already has in hand after a run), read by the go-openai adapter.
var transcript = goopenai.Messages{
	{Role: openai.ChatMessageRoleUser, Content: "Find a Chinese restaurant in Paris and book it for 4 at 8pm"},
	{Role: openai.ChatMessageRoleAssistant, ToolCalls: []openai.ToolCall{
		{ID: "c1", Type: "function", Function: openai.FunctionCall{Name: "search_restaurants", Arguments: `{"city":"Paris","cuisine":"Chinese"}`}},
	}},
	{Role: openai.ChatMessageRoleTool, ToolCallID: "c1", Content: `[{"id":"r_17","name":"Golden Dragon"}]`},
	{Role: openai.ChatMessageRoleAssistant, ToolCalls: []openai.ToolCall{
		{ID: "c2", Type: "function", Function: openai.FunctionCall{Name: "book_table", Arguments: `{"restaurant_id":"r_17","party_size":4,"time":"21:00"}`}},
	}},
	{Role: openai.ChatMessageRoleTool, ToolCallID: "c2", Content: `{"confirmation":"GD-88"}`},
	{Role: openai.ChatMessageRoleAssistant, Content: "Booked Golden Dragon for 4 at 9pm, confirmation GD-88."},
}

// A failing assertion prints why: the expected calls against the actual
// ones, and the argument that differs. In a test, use gomega.NewWithT(t).
func Example_toolCalls() {
	g := gomega.NewGomega(func(message string, _ ...int) { fmt.Println(message) })

	g.Expect(transcript).To(HaveToolCalls(
		agenttest.CallTo("search_restaurants").With(agenttest.Args{"city": "Paris", "cuisine": "Chinese"}),
		agenttest.CallTo("book_table").With(agenttest.Args{
			"restaurant_id": gomega.HavePrefix("r_"),
			"party_size":    4,
			"time":          "20:00",
		}),
	))
	g.Expect(transcript).NotTo(HaveCalledTool("cancel_booking"))
	// Output:
	// Expected the 2 tool calls made to be exactly these 2, in this order (1 differs; -want +got):
	//     want                                                       got
	//   = [0] search_restaurants(city: "Paris", cuisine: "Chinese")  [0] search_restaurants(city: "Paris", cuisine: "Chinese")
	//   ~ [1] book_table(party_size: 4, restaurant_id: HavePrefix("r_"), time: "20:00")
	//                                                                [1] book_table(restaurant_id: "r_17", party_size: 4, time: "21:00")
	//
	//   want[1] book_table vs got[1] book_table:
	//       - time: "20:00"
	//       + time: "21:00"
}

// ragas's metrics, to the last bit, on a sample with reference calls.
func Example_ragasMetrics() {
	conv, err := transcript.Conversation()
	if err != nil {
		panic(err)
	}
	sample := agentcheck.Sample{
		Conversation: conv,
		ReferenceToolCalls: []agentcheck.ToolCall{
			agentcheck.MustParseToolCall("search_restaurants", `{"city":"Paris","cuisine":"Chinese"}`),
			agentcheck.MustParseToolCall("book_table", `{"restaurant_id":"r_17","party_size":4,"time":"20:00"}`),
		},
	}
	ctx := context.Background()
	for _, m := range []metric.Metric{
		metric.ToolCallAccuracy{},
		metric.ToolCallAccuracy{ArgSimilarity: metric.Levenshtein},
		metric.ToolCallF1{},
		metric.TrajectoryMatch{Mode: trajectory.Unordered, Scoring: trajectory.ScoreF1, Threshold: 0.6},
	} {
		r, err := m.Evaluate(ctx, sample)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: %v\n", r.Metric, r.Score)
	}
	// Output:
	// tool_call_accuracy: 0.8333333333333333
	// tool_call_accuracy: 0.9666666666666666
	// tool_call_f1: 0.5
	// trajectory_match: 1
}

// A judged assertion, replayed from cassettes/Example_judged.yaml: no network,
// no key. In a test, judge.ForTest(t) names the cassette after the test.
// Re-record with AGENTCHECK_RECORD=all (see cassettes/README.md).
func Example_judged() {
	rec, err := recorder.Open("cassettes/Example_judged.yaml", recorder.WithTestName("Example_judged"))
	if err != nil {
		panic(err)
	}
	defer rec.Close()
	j := judge.New(judge.WithRecorder(rec), judge.WithModel("gpt-4o-mini"))

	conv, err := transcript.Conversation()
	if err != nil {
		panic(err)
	}
	sample := agentcheck.Sample{
		Conversation:    conv,
		Reference:       "A table for 4 at a Chinese restaurant in Paris is booked for 8pm",
		ReferenceTopics: []string{"restaurants", "table bookings"},
	}
	g := gomega.NewGomega(func(message string, _ ...int) { fmt.Println(message) })
	g.Expect(sample).To(StayOnTopics(j))
	g.Expect(sample).To(AchieveGoal(j))
	// Output:
	// Expected the conversation "Find a Chinese restaurant in Paris and book it for 4 at 8pm" … "Booked Golden Dragon for 4 at 9pm, confirmation GD-88." (6 messages, 2 tool calls) to achieve its goal, but the judge found it did not (agent_goal_accuracy 0, want 1)
	// desired outcome: the reference "A table for 4 at a Chinese restaurant in Paris is booked for 8pm"
	// judge gpt-4o-mini: not achieved
	//     reason: The table is booked for 9pm, not for 8pm as desired.
	//     inferred goal: Book a table for 4 at a Chinese restaurant in Paris at 8pm.
	//     end state: Golden Dragon in Paris is booked for 4 at 9pm (21:00), confirmation GD-88.
	// tokens: 438 (376 prompt + 62 completion)
	// cassette: cassettes/Example_judged.yaml
	//     re-record: AGENTCHECK_RECORD=all AGENTCHECK_RECORD_TEST=Example_judged go test . -count=1 -run '^Example_judged$'
}
