// Package metric scores agentcheck samples with ragas's agent metrics,
// bit for bit: ToolCallAccuracy and ToolCallF1 on the tool calls made
// against the reference ones (arguments compared as Python's str() and ==
// see them); TrajectoryMatch, the trajectory engine
// (package trajectory) as a metric, which pairs calls optimally, as JSON
// values, in each trajectory mode and scoring (with trajectory.ScoreF1,
// spring-ai-ragas's tool-call F1 with its pairing fixed); and the judged AgentGoalAccuracy,
// TopicAdherence and TrajectoryRubric, which ask a judgment.Judge (the judge
// package implements it over any OpenAI-compatible model, recorded for
// tests) or a judgment.Panel of judges. Every metric is a pure function of the sample and the
// judge's answers and gives a Result: the score, the reason in one
// sentence, ragas's warnings, and the pairing of calls or the judges'
// verdicts it came from, which agenttest and matchers render into failure
// messages.
package metric
