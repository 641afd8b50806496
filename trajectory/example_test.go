package trajectory_test

import (
	"fmt"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/trajectory"
)

func ExampleMatch_Compare() {
	made := []agentcheck.ToolCall{
		agentcheck.MustParseToolCall("search", `{"city":"Paris","page":1}`),
		agentcheck.MustParseToolCall("book", `{"id":"r17"}`),
	}
	expected := []agentcheck.ToolCall{
		agentcheck.MustParseToolCall("book", `{"id":"r17"}`),
		agentcheck.MustParseToolCall("search", `{"city":"Paris"}`),
	}
	for _, m := range []trajectory.Match{
		{Mode: trajectory.Unordered, Args: trajectory.ArgsSuperset},
		{Mode: trajectory.Strict},
		{Mode: trajectory.Unordered, Scoring: trajectory.ScorePartialArgs},
	} {
		r := m.Compare(made, expected)
		fmt.Printf("%v: %s\n", r.Score, r.Reason())
	}
	// Output:
	// 1: unordered: the 2 calls made match the 2 expected (arguments superset)
	// 0: strict: the 2 calls made do not match the 2 expected (arguments exact); made [0] search({"city":"Paris","page":1}) where [0] book({"id":"r17"}) was expected, [1] book({"id":"r17"}) where [1] search({"city":"Paris"}) was expected
	// 0.75: unordered: the 2 calls made do not match the 2 expected (arguments exact); made [0] search({"city":"Paris","page":1}) where [1] search({"city":"Paris"}) was expected
}

// names compares calls by tool name only; a call of the same tool is a
// near miss at distance 0.5.
type names struct{ made, expected []string }

func (n names) Compare(i, j int) trajectory.Comparison {
	same := n.made[i] == n.expected[j]
	return trajectory.Comparison{Match: same, SameTool: same}
}

func ExampleAlign() {
	c := names{made: []string{"log", "search", "book"}, expected: []string{"search", "book", "sms"}}
	for _, mode := range []trajectory.Mode{trajectory.InOrder, trajectory.Superset} {
		a := trajectory.Align(mode, len(c.made), len(c.expected), c)
		fmt.Println(mode, a.OK, a.Matched, a.Pairs)
	}
	// Output:
	// in_order false 2 [{0 -1 false 0} {1 0 true 1} {2 1 true 1} {-1 2 false 0}]
	// superset false 2 [{1 0 true 1} {2 1 true 1} {-1 2 false 0} {0 -1 false 0}]
}
