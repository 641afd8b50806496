package metric

import "github.com/agentcheck/agentcheck"

// MatchResult is what the tests read of ToolCallMatch's pairing: the
// engine's counts and pairs.
type MatchResult struct {
	Matched               int
	Precision, Recall, F1 float64
	Pairs                 []CallPair
}

// Match is ToolCallMatch's pairing, for the tests.
func (m ToolCallMatch) Match(pred, ref []agentcheck.ToolCall) MatchResult {
	r := m.engine().Compare(pred, ref)
	return MatchResult{Matched: r.Matched, Precision: r.Precision, Recall: r.Recall, F1: r.Score, Pairs: callPairs(r.Pairs)}
}
