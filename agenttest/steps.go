package agenttest

import (
	"fmt"
	"strconv"

	"github.com/agentcheck/agentcheck"
)

// StepKind is a kind of step of an agent's run that a transcript records.
type StepKind uint8

const (
	// ToolCallStep is a tool call.
	ToolCallStep StepKind = iota
	// TextStep is an AI message that says something (has content).
	TextStep
	// ReasoningStep is the reasoning before an AI message, where the
	// transcript has it (Message.Reasoning: Anthropic's thinking, OpenAI
	// Responses reasoning summaries).
	ReasoningStep
)

var stepNames = [...]string{"tool call", "text answer", "reasoning step"}

// String names one step of the kind: "tool call", "text answer",
// "reasoning step".
func (k StepKind) String() string {
	if int(k) < len(stepNames) {
		return stepNames[k]
	}
	return "StepKind(" + strconv.Itoa(int(k)) + ")"
}

// countSteps returns how many steps of the kind actual has; actual is
// anything conversationOf takes.
func countSteps(actual any, kind StepKind) (int, error) {
	conv, err := conversationOf(actual)
	if err != nil {
		return 0, err
	}
	if int(kind) >= len(stepNames) {
		return 0, fmt.Errorf("agenttest: unknown %s", kind)
	}
	n := 0
	for _, m := range conv {
		if m.Role != agentcheck.AI {
			continue
		}
		switch kind {
		case ToolCallStep:
			n += len(m.ToolCalls)
		case TextStep:
			if m.Content != "" {
				n++
			}
		case ReasoningStep:
			if m.Reasoning != "" {
				n++
			}
		}
	}
	return n, nil
}

// CheckSteps checks that the number of steps of the kind in actual
// satisfies count (Times(n), AtMost(n), Between(lo, hi)...): how many tool
// calls, text answers or reasoning steps the agent took.
func CheckSteps(actual any, kind StepKind, count Count) Report {
	n, err := countSteps(actual, kind)
	if err != nil {
		return failed(err)
	}
	if err := count.valid(); err != nil {
		return failed(fmt.Errorf("agenttest: CheckSteps(%s, %v): %w", kind, count, err))
	}
	want, has := countOf(count, kind.String()), plural(n, kind.String())
	return Report{ok: count.allows(n),
		why: func() string {
			return fmt.Sprintf("Expected the agent to take %s, but it took %s", want, has)
		},
		whyNot: func() string {
			return fmt.Sprintf("Expected the agent not to take %s, but it took %s", want, has)
		},
	}
}

// countOf says a count of a noun: "no tool calls", "exactly 2 tool calls",
// "at most 1 tool call", "between 1 and 3 tool calls".
func countOf(c Count, noun string) string {
	lo, hi := c.bounds()
	switch {
	case lo == hi && lo == 0:
		return "no " + noun + "s"
	case lo == hi:
		return "exactly " + plural(lo, noun)
	case hi < 0:
		return "at least " + plural(lo, noun)
	case lo == 0:
		return "at most " + plural(hi, noun)
	}
	return fmt.Sprintf("between %d and %d %ss", lo, hi, noun)
}
