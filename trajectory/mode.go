package trajectory

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Mode says how the calls an agent made must line up with the expected
// calls. Every mode pairs calls one to one: an expected call pairs with at
// most one call made, and the pairing is the best there is, not the first
// that fits. The zero Mode is Strict. Its text form (MarshalText,
// UnmarshalText, the CLI's --trajectory-mode) is its name: strict,
// in_order, unordered, subset or superset.
type Mode uint8

const (
	// Strict: the same calls in the same order, position by position, and
	// nothing else (turn by turn with Match.TurnAware).
	Strict Mode = iota
	// InOrder: every expected call was made, in the expected order; other
	// calls may come before, between and after them (Google ADK's
	// IN_ORDER, promptfoo's tool-sequence).
	InOrder
	// Unordered: the same calls, as a multiset, in any order; nothing
	// extra, nothing missing.
	Unordered
	// Subset: every call made is one of the expected calls (made ⊆
	// expected); expected calls may be left out.
	Subset
	// Superset: every expected call was made (made ⊇ expected); other calls
	// may come too.
	Superset
)

var modeNames = [...]string{"strict", "in_order", "unordered", "subset", "superset"}

// String is the mode's name.
func (m Mode) String() string { return nameOf(modeNames[:], "Mode", int(m)) }

// MarshalText writes the mode's name.
func (m Mode) MarshalText() ([]byte, error) { return marshalName(modeNames[:], "Mode", int(m)) }

// UnmarshalText reads a mode's name: strict, in_order, unordered, subset or
// superset.
func (m *Mode) UnmarshalText(text []byte) error {
	i, err := parseName(modeNames[:], "trajectory mode", text)
	if err == nil {
		*m = Mode(i)
	}
	return err
}

// ArgsMode says how the arguments of a call made compare with those of the
// expected call it pairs with. Subset and superset apply to the top-level
// keys of the argument objects; the values under them compare as whole JSON
// values (1 equals 1.0, true is not 1, objects whatever their key order).
// Its text form (the CLI's --args-mode) is its name: exact, ignore, subset
// or superset.
type ArgsMode uint8

const (
	// ArgsExact: the same arguments, no more and no fewer.
	ArgsExact ArgsMode = iota
	// ArgsIgnore: any arguments; only the tool name counts.
	ArgsIgnore
	// ArgsSubset: the arguments made are a subset of the expected ones:
	// each is expected, with the expected value; expected ones may be left
	// out.
	ArgsSubset
	// ArgsSuperset: the arguments made include every expected one, with
	// its value; others may come too.
	ArgsSuperset
)

var argsModeNames = [...]string{"exact", "ignore", "subset", "superset"}

// String is the mode's name.
func (m ArgsMode) String() string { return nameOf(argsModeNames[:], "ArgsMode", int(m)) }

// MarshalText writes the mode's name.
func (m ArgsMode) MarshalText() ([]byte, error) {
	return marshalName(argsModeNames[:], "ArgsMode", int(m))
}

// UnmarshalText reads an argument mode's name: exact, ignore, subset or
// superset.
func (m *ArgsMode) UnmarshalText(text []byte) error {
	i, err := parseName(argsModeNames[:], "args mode", text)
	if err == nil {
		*m = ArgsMode(i)
	}
	return err
}

// Scoring says how a comparison becomes a score. The zero Scoring is
// ScoreAll.
type Scoring uint8

const (
	// ScoreAll: 1 when the whole trajectory matches in the Mode, else 0.
	ScoreAll Scoring = iota
	// ScorePerTurn: each turn (Match.CompareTurns) scores 1 or 0 on its
	// own and the score is their mean, as Google ADK's tool trajectory
	// score averages over invocations. With no turns there is nothing to
	// score: the score is 1.
	ScorePerTurn
	// ScoreRecall: the share of calls that pair up, one to one (in order
	// for Strict, position by position, and InOrder), out of the calls the
	// mode answers for: the expected calls (Superset, InOrder), the calls
	// made (Subset), or the larger of the two (Strict, Unordered); 1 when
	// there are none. With Superset it is the recall of the expected calls,
	// vitest-evals' ToolCallScorer with requireAll false.
	ScoreRecall
	// ScorePartialArgs: as ScoreRecall, but a pair earns the share of its
	// arguments that match (ArgsCredit) rather than all or nothing, and
	// the pairing is the one that earns most: DeepEval's ToolCorrectness
	// with input parameters.
	ScorePartialArgs
	// ScoreF1: the F1 of precision (matched pairs over the calls made) and
	// recall (matched pairs over the calls expected), over the pairing with
	// the most matches and, among those, the most credit: in order for
	// Strict and InOrder (the best common subsequence, as a diff aligns
	// lines), in any order otherwise. With Match.Threshold, a pair matches
	// when the share of the expected call's arguments the call made has
	// with equal values reaches it (spring-ai-ragas's flexible match).
	// Both lists empty score 1; one empty scores 0.
	ScoreF1
)

var scoringNames = [...]string{"all", "per_turn", "recall", "partial_args", "f1"}

// String is the scoring's name: all, per_turn, recall, partial_args or f1.
func (s Scoring) String() string { return nameOf(scoringNames[:], "Scoring", int(s)) }

func nameOf(names []string, typ string, i int) string {
	if i < len(names) {
		return names[i]
	}
	return typ + "(" + strconv.Itoa(i) + ")"
}

func marshalName(names []string, typ string, i int) ([]byte, error) {
	if i < len(names) {
		return []byte(names[i]), nil
	}
	return nil, fmt.Errorf("trajectory: %s(%d) has no name", typ, i)
}

func parseName(names []string, what string, text []byte) (int, error) {
	if i := slices.Index(names, string(text)); i >= 0 {
		return i, nil
	}
	return 0, fmt.Errorf("unknown %s %q: want %s or %s", what, text, strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}
