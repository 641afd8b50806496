package metric

import (
	"context"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/trajectory"
)

// JavaMatch is spring-ai-ragas's ToolCallAccuracy, with its pairing fixed,
// as the tests configure it: TrajectoryMatch with trajectory.ScoreF1, any
// order unless Ordered, exact arguments unless Flexible, when a pair
// matches if the share of the expected arguments it has reaches Threshold
// (0 means the Java default, 0.8).
type JavaMatch struct {
	Flexible  bool
	Ordered   bool
	Threshold float64
}

// Metric is the TrajectoryMatch that scores as j says.
func (j JavaMatch) Metric() TrajectoryMatch {
	m := TrajectoryMatch{Mode: trajectory.Unordered, Scoring: trajectory.ScoreF1}
	if j.Ordered {
		m.Mode = trajectory.InOrder
	}
	if j.Flexible {
		m.Threshold = j.Threshold
		if m.Threshold <= 0 {
			m.Threshold = 0.8
		}
	}
	return m
}

func (j JavaMatch) Name() string { return j.Metric().Name() }

func (j JavaMatch) Compare(made, expected []agentcheck.ToolCall) Result {
	return j.Metric().Compare(made, expected)
}

func (j JavaMatch) Evaluate(ctx context.Context, s agentcheck.Sample) (Result, error) {
	return j.Metric().Evaluate(ctx, s)
}

// MatchResult is what the tests read of the F1 pairing: the engine's
// counts and pairs.
type MatchResult struct {
	Matched               int
	Precision, Recall, F1 float64
	Pairs                 []CallPair
}

// Match is the F1 pairing, for the tests.
func (j JavaMatch) Match(pred, ref []agentcheck.ToolCall) MatchResult {
	r := trajectory.Match(j.Metric()).Compare(pred, ref)
	return MatchResult{Matched: r.Matched, Precision: r.Precision, Recall: r.Recall, F1: r.Score, Pairs: callPairs(r.Pairs)}
}
