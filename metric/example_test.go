package metric_test

import (
	"context"
	"fmt"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/metric"
)

// Example scores a sample whose agent made the expected calls in the wrong
// order, one of them with an argument written 2.0 instead of 2.
func Example() {
	s, err := agentcheck.ParseSample(`{
		"user_input": [
			{"type": "human", "content": "Book a table for two in Paris, then tell Ana"},
			{"type": "ai", "content": "", "tool_calls": [
				{"name": "notify", "args": {"to": "ana@example.com"}},
				{"name": "book_table", "args": {"city": "Paris", "people": 2.0}}]},
			{"type": "tool", "content": "sent; booked"},
			{"type": "ai", "content": "Booked and told Ana."}],
		"reference_tool_calls": [
			{"name": "book_table", "args": {"city": "Paris", "people": 2}},
			{"name": "notify", "args": {"to": "ana@example.com"}}]}`)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range []metric.Metric{
		metric.ToolCallAccuracy{},               // ragas's default: in order, str() equality
		metric.ToolCallAccuracy{AnyOrder: true}, // 2.0 is not 2 to Python's str()
		metric.ToolCallF1{},                     // but it is to Python's ==
	} {
		r, err := m.Evaluate(context.Background(), s)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(r.Metric, r.Score)
	}
	// Output:
	// tool_call_accuracy 0
	// tool_call_accuracy 0.75
	// tool_call_f1 1
}
