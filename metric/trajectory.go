package metric

import (
	"context"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/trajectory"
)

// TrajectoryMatch is the trajectory engine, trajectory.Match, as a metric
// ("trajectory_match"): it scores 1 when the calls made line up with the
// expected calls in its Mode, their arguments compared in its Args mode,
// and 0 otherwise, or as its Scoring says. Its fields are trajectory.Match's
// (Mode, Args, ToolArgs, Ignore, Comparators, Values, TurnAware, Scoring,
// Threshold), so a Match converts to a TrajectoryMatch and back. The zero
// value is strict order with exact arguments.
type TrajectoryMatch trajectory.Match

// Name is "trajectory_match".
func (m TrajectoryMatch) Name() string { return "trajectory_match" }

// Evaluate scores the calls of the sample's conversation against its
// reference tool calls; a sample without reference tool calls expects
// none. The sample is one turn for ScorePerTurn. With TurnAware and
// trajectory.Strict, the calls each AI message makes may come in any order
// among themselves: the reference calls are cut into turns of the sizes of
// the messages' and compared turn by turn.
func (m TrajectoryMatch) Evaluate(_ context.Context, s agentcheck.Sample) (Result, error) {
	made := s.Conversation.ToolCalls()
	if !m.TurnAware || m.Mode != trajectory.Strict || m.Scoring != trajectory.ScoreAll || len(made) != len(s.ReferenceToolCalls) {
		m.TurnAware = false
		return m.Compare(made, s.ReferenceToolCalls), nil
	}
	turns := turnsOf(s.Conversation)
	exp := make([][]agentcheck.ToolCall, len(turns))
	at := 0
	for i, t := range turns {
		exp[i], at = s.ReferenceToolCalls[at:at+len(t)], at+len(t)
	}
	return m.CompareTurns(turns, exp), nil
}

// turnsOf is the calls of each AI message of c that makes calls.
func turnsOf(c agentcheck.Conversation) [][]agentcheck.ToolCall {
	var turns [][]agentcheck.ToolCall
	for _, msg := range c {
		if msg.Role == agentcheck.AI && len(msg.ToolCalls) > 0 {
			turns = append(turns, msg.ToolCalls)
		}
	}
	return turns
}

// Compare scores the calls made against the expected calls
// (trajectory.Match.Compare).
func (m TrajectoryMatch) Compare(made, expected []agentcheck.ToolCall) Result {
	return m.result(trajectory.Match(m).Compare(made, expected), len(made), len(expected))
}

// CompareTurns scores turns of calls made against turns of expected calls
// (trajectory.Match.CompareTurns).
func (m TrajectoryMatch) CompareTurns(made, expected [][]agentcheck.ToolCall) Result {
	return m.result(trajectory.Match(m).CompareTurns(made, expected), countCalls(made), countCalls(expected))
}

func (m TrajectoryMatch) result(r trajectory.Result, made, expected int) Result {
	res := Result{Metric: m.Name(), Score: r.Score, Reason: r.Reason(), Pairs: callPairs(r.Pairs)}
	// With ScoreF1 a side without calls carries ragas's warnings, as
	// ToolCallF1 does.
	if m.Scoring == trajectory.ScoreF1 {
		switch {
		case made == 0 && expected > 0:
			res.Warnings = []string{warnNoPredictions}
		case expected == 0 && made > 0:
			res.Warnings = []string{warnEmptyReference}
		}
	}
	return res
}

// callPairs is the engine's pairs as CallPairs.
func callPairs(pairs []trajectory.Pair) []CallPair {
	if pairs == nil {
		return nil
	}
	out := make([]CallPair, len(pairs))
	for k, p := range pairs {
		out[k] = CallPair{Reference: p.Expected, Predicted: p.Made, Score: p.Credit, Matched: p.Match}
	}
	return out
}

func countCalls(turns [][]agentcheck.ToolCall) int {
	n := 0
	for _, t := range turns {
		n += len(t)
	}
	return n
}
