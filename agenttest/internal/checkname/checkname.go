// Package checkname holds the names agenttest's assertions give their
// checks when they record them (the check argument of agenttest.Record,
// which Record writes in the attribute agentcheck.check and in the names of
// the artifacts): one name per check, shared by package assert and the
// tests.
package checkname

// The names of the checks.
const (
	ToolCalls = "tool_calls" // agenttest.CheckToolCalls
	Called    = "called"     // agenttest.CheckCalled
	Score     = "score"      // agenttest.CheckScore
	Goal      = "goal"       // agenttest.CheckGoal
	Topics    = "topics"     // agenttest.CheckTopics
	Rubric    = "rubric"     // agenttest.CheckRubric
)
