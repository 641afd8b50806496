package metric

import (
	"context"
	"fmt"
	"strconv"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/trajectory"
)

// ToolCallMatch is spring-ai-ragas's ToolCallAccuracy with its pairing
// fixed: the score is the F1 of precision (matched calls / calls made) and
// recall (matched calls / calls expected), where calls are paired so that as
// many as possible match. The Java port pairs greedily (each call made takes
// the best unmatched expected call, in order), which loses matches with
// duplicate and retried calls and depends on the order of the calls; here
// the pairing is the trajectory engine's (trajectory.ScoreF1): a maximum
// matching, and among those one with the highest total argument score.
// Calls with different tool names never match, nor does a call whose
// arguments are not valid JSON (ToolCall.InvalidArgs); a call's kind does
// not count.
//
// The zero value is the Java default: StrictMatch, any order, threshold 0.8.
type ToolCallMatch struct {
	// Mode is how arguments are compared.
	Mode MatchMode
	// Ordered makes the matched calls keep their order on both sides: the
	// pairing is then the best common subsequence, as a diff aligns lines,
	// so a call made too early or too late counts as missing and extra.
	Ordered bool
	// ArgumentMatchThreshold is the FlexibleMatch score a pair needs to
	// match, in (0, 1]; zero (or less) means the default 0.8. A pair with
	// score 0 never matches, as in the Java port.
	ArgumentMatchThreshold float64
}

// MatchMode is how ToolCallMatch compares the arguments of two calls with
// the same name. Values compare as JSON: objects regardless of key order,
// arrays in order, numbers by value (1 equals 1.0), and booleans, strings
// and null only equal to themselves (true is not 1, "1" is not 1). A call
// without arguments has the empty object.
type MatchMode uint8

const (
	// StrictMatch matches calls with equal arguments and nothing else;
	// every match scores 1 (trajectory.ArgsExact).
	StrictMatch MatchMode = iota
	// FlexibleMatch scores a pair by the share of the expected call's
	// arguments that the call made has with equal values (extra arguments
	// are ignored; both without arguments scores 1; an expected call
	// without arguments against one with some scores 0.5) and matches it
	// when the score reaches the threshold (trajectory.Match.Threshold).
	// Unlike the Java port, an expected null is matched by a null that is
	// present.
	FlexibleMatch
)

const defaultArgumentMatchThreshold = 0.8

// Name is "tool_call_match".
func (m ToolCallMatch) Name() string { return "tool_call_match" }

// Evaluate scores the sample's tool calls against its reference calls. It
// fails when the sample has no reference tool calls at all (nil, as opposed
// to an empty list).
func (m ToolCallMatch) Evaluate(_ context.Context, s agentcheck.Sample) (Result, error) {
	if s.ReferenceToolCalls == nil {
		return Result{Metric: m.Name()}, fmt.Errorf("%s needs reference_tool_calls, and the sample has none", m.Name())
	}
	return m.Compare(s.Conversation.ToolCalls(), s.ReferenceToolCalls), nil
}

// engine is the trajectory.Match that scores as m does.
func (m ToolCallMatch) engine() trajectory.Match {
	e := trajectory.Match{Mode: trajectory.Unordered, Scoring: trajectory.ScoreF1}
	if m.Ordered {
		e.Mode = trajectory.InOrder
	}
	if m.Mode == FlexibleMatch {
		e.Threshold = m.threshold()
	}
	return e
}

// Compare scores the calls made against the expected calls: the Result's
// score is the F1, its reason gives precision and recall, and its pairs
// are the matched pairs with their argument scores and the calls left
// alone. In any order they come by expected index, then the unexpected
// calls; in order, in the order of the alignment. No calls expected and
// none made scores 1 (the Java port gives no score); calls on one side
// only score 0, with ragas's warning.
func (m ToolCallMatch) Compare(made, expected []agentcheck.ToolCall) Result {
	tr := m.engine().Compare(made, expected)
	r := Result{Metric: m.Name(), Score: tr.Score, Pairs: callPairs(tr.Pairs)}
	switch {
	case len(made) == 0 && len(expected) == 0:
		r.Reason = "no tool calls expected and none made"
	case len(made) == 0:
		r.Warnings = []string{warnNoPredictions}
		r.Reason = fmt.Sprintf("no tool calls made, %d expected", len(expected))
	case len(expected) == 0:
		r.Warnings = []string{warnEmptyReference}
		r.Reason = fmt.Sprintf("no tool calls expected, %d made", len(made))
	default:
		r.Reason = fmt.Sprintf("%d of %d calls made match an expected call (precision %s), %d of %d expected calls were made (recall %s); %s",
			tr.Matched, len(made), formatRatio(tr.Precision), tr.Matched, len(expected), formatRatio(tr.Recall), m.describe())
	}
	return r
}

func (m ToolCallMatch) describe() string {
	s := "strict arguments"
	if m.Mode == FlexibleMatch {
		s = "flexible arguments (threshold " + strconv.FormatFloat(m.threshold(), 'g', -1, 64) + ")"
	}
	if m.Ordered {
		return s + ", in order"
	}
	return s + ", any order"
}

func (m ToolCallMatch) threshold() float64 {
	if m.ArgumentMatchThreshold <= 0 {
		return defaultArgumentMatchThreshold
	}
	return m.ArgumentMatchThreshold
}
