// Package agenttest is agentcheck's face in go test: an expectation DSL for
// the tool calls an agent should make (CallTo(name).With(Args{...}), with
// literals, OneOf, Approx, Absent, Anything or any Gomega matcher as
// argument values), checks that compare a transcript with it or score it with
// a metric and return a Report (CheckToolCalls, CheckCalled, CheckScore,
// CheckGoal, CheckTopics, CheckRubric), and Record, which puts an outcome
// in the test's attributes and artifacts. The Report's message is the one
// failure wording: the matchers package renders the same Reports for
// Gomega, and agenttest/assert and agenttest/require for testify, so a
// failure reads the same whichever way a test asserts.
package agenttest
