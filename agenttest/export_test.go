package agenttest

import "github.com/agentcheck/agentcheck"

// What the tests of package agenttest_test reach inside: a check's parts,
// which the checks compose and the tests compare them with.
var (
	ConversationOf = conversationOf
	CountSteps     = countSteps
)

// Matches reports whether tc is a call c accepts; an expectation on the
// call's result does not hold for a call alone.
func (c ExpectedCall) Matches(tc agentcheck.ToolCall) bool { return c.compare(tc, nil).match() }

// Allows reports whether n matching calls satisfy the count.
func (c Count) Allows(n int) bool { return c.allows(n) }

// CountCalls is how many of the actual calls c accepts.
func CountCalls(actual []agentcheck.ToolCall, c ExpectedCall) int {
	n := 0
	for i := range actual {
		if c.Matches(actual[i]) {
			n++
		}
	}
	return n
}
