package trajectory_test

import (
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/trajectory"
)

// TestReasonAgreesWithTheCallsMade: the reason's verb agrees in number
// with the calls made, whether they match or not.
func TestReasonAgreesWithTheCallsMade(t *testing.T) {
	search := agentcheck.MustParseToolCall("search", `{"q":"x"}`)
	book := agentcheck.MustParseToolCall("book", `{"id":1}`)
	for _, c := range []struct {
		made, expected []agentcheck.ToolCall
		want           string
	}{
		{[]agentcheck.ToolCall{search}, []agentcheck.ToolCall{search}, "strict: the 1 call made matches the 1 expected"},
		{[]agentcheck.ToolCall{search}, []agentcheck.ToolCall{book}, "strict: the 1 call made does not match the 1 expected"},
		{[]agentcheck.ToolCall{search, book}, []agentcheck.ToolCall{search, book}, "strict: the 2 calls made match the 2 expected"},
		{[]agentcheck.ToolCall{search, book}, []agentcheck.ToolCall{book}, "strict: the 2 calls made do not match the 1 expected"},
		{nil, []agentcheck.ToolCall{book}, "strict: the 0 calls made do not match the 1 expected"},
	} {
		if got := (trajectory.Match{}).Compare(c.made, c.expected).Reason(); !strings.HasPrefix(got, c.want) {
			t.Errorf("Expected the reason to start %q, but it is %q", c.want, got)
		}
	}
}
