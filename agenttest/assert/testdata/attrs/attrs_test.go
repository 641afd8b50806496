// Package attrs is run by the assert package's tests with go test -json
// -artifacts: real *testing.T values, whose Attr and ArtifactDir the
// assertions use.
package attrs

import (
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/agenttest/assert"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/trajectory"
)

// booked: the search as expected, the booking for 3 nights where 2 were
// wanted. ToolCallAccuracy scores it 0.75.
var booked = agentcheck.Sample{
	Conversation: agentcheck.Conversation{
		{Role: agentcheck.Human, Content: "Book hotel A in Paris for 2 nights"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{
			agentcheck.MustParseToolCall("search", `{"city":"Paris"}`),
			agentcheck.MustParseToolCall("book", `{"hotel":"A","nights":3}`),
		}},
		{Role: agentcheck.Tool, Content: "ok"},
		{Role: agentcheck.Tool, Content: "ok"},
		{Role: agentcheck.AI, Content: "Booked hotel A for 3 nights."},
	},
	ReferenceToolCalls: []agentcheck.ToolCall{
		agentcheck.MustParseToolCall("search", `{"city":"Paris"}`),
		agentcheck.MustParseToolCall("book", `{"hotel":"A","nights":2}`),
	},
}

func TestScorePasses(t *testing.T) {
	assert.Score(t, metric.ToolCallAccuracy{}, booked, 0.7)
}

func TestToolCallsFail(t *testing.T) {
	assert.ToolCalls(t, booked, trajectory.Strict, assert.Calls{
		agenttest.CallTo("search").With(agenttest.Args{"city": "Paris"}),
		agenttest.CallTo("book").With(agenttest.Args{"hotel": "A", "nights": 2}),
	}, "booking for %d nights", 2)
}
