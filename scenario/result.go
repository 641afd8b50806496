package scenario

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/recorder"
)

// Result is what a run of a scenario did and how it was judged.
type Result struct {
	Name string
	// Passed reports whether the run passed: it ran to its end (or to a
	// Succeed step), no check, checkpoint or budget failed, and the judge
	// found every criterion met.
	Passed bool
	// Reason says how the run ended and why it passed or failed.
	Reason string
	// Err is what kept the run from its end: a *RunError (the turn, the
	// role, the error), or, before anything ran, what is wrong with the
	// scenario. A run with an error has not passed.
	Err error
	// End is how the run ended: "script" (its last step), "user" (the
	// user was done), "max_turns", "judge" (JudgeEachTurn decided),
	// "succeed", "fail", "check", "checkpoint", "budget" or "error".
	End string
	// Conversation is the transcript: the user's messages, the agent's
	// replies, its tool calls and their results.
	Conversation agentcheck.Conversation
	// Turns are the turns in order, each with its messages and its time.
	Turns []Turn
	// Judgments are the judge's, in order: checkpoints, JudgeEachTurn's,
	// and the final one.
	Judgments []Judgment
	// Usage is the tokens each role used; ToolCalls the agent's tool calls.
	Usage     Usage
	ToolCalls int
	Duration  time.Duration

	detail    string   // a failed check's report
	notes     []string // steps skipped
	cassettes []source
	maxTurns  int
	budget    Budget
}

// Turn is one turn of a run: the user's message and the agent's reply,
// Conversation[First:End], and the time it took. Turn 0, when there is
// one, is the agent speaking before the user's first message.
type Turn struct {
	Number     int
	First, End int
	Duration   time.Duration
}

// Usage is the tokens a run used, by role.
type Usage struct {
	Agent, User, Judge judgment.Usage
}

// Total is the tokens of every role together.
func (u Usage) Total() judgment.Usage { return u.Agent.Add(u.User).Add(u.Judge) }

// Sample is the run's transcript as a sample, for metrics and checks.
func (r *Result) Sample() agentcheck.Sample {
	return agentcheck.Sample{Conversation: r.Conversation}
}

// Report is the run as an agenttest check: it passes when the run passed,
// and its message is String. A run that could not reach its end has the
// Report's Err, whose message is String too.
func (r *Result) Report() agenttest.Report {
	var err error
	if r.Err != nil {
		err = &reportError{r, r.Err}
	}
	return agenttest.NewReport(r.Passed, r.String, r.negated, err)
}

type reportError struct {
	r   *Result
	err error
}

func (e *reportError) Error() string { return e.r.String() }
func (e *reportError) Unwrap() error { return e.err }

// String is the run's report: the verdict and why, the judgments with each
// criterion's verdict and reason, the transcript turn by turn with the tool
// calls' arguments and results, the budgets used, and the cassettes the
// answers came from with the command that records them anew.
func (r *Result) String() string {
	var head string
	switch re, isRun := r.Err.(*RunError); {
	case r.Err != nil && !isRun:
		why := r.Err.Error()
		if inv := (*invalidError)(nil); errors.As(r.Err, &inv) {
			why = inv.problems
		}
		return fmt.Sprintf("Expected the scenario %q to run, but it cannot: %s", r.Name, why)
	case r.Err != nil:
		who := re.Role
		if who == "" {
			who = "run"
		}
		head = fmt.Sprintf("Expected the scenario %q to run to its end, but at turn %d the %s failed:\n%s",
			r.Name, re.Turn, who, indent(re.Err.Error(), "    "))
	case r.Passed:
		head = fmt.Sprintf("The scenario %q passed: %s", r.Name, r.Reason)
	default:
		head = fmt.Sprintf("Expected the scenario %q to pass, but %s", r.Name, r.Reason)
	}
	return r.render(head)
}

func (r *Result) negated() string {
	return r.render(fmt.Sprintf("Expected the scenario %q not to pass, but it did: %s", r.Name, r.Reason))
}

func (r *Result) render(head string) string {
	var b strings.Builder
	b.WriteString(head + "\n")
	if r.detail != "" {
		b.WriteString(indent(r.detail, "    ") + "\n")
	}
	for i, jd := range r.Judgments {
		if slices.ContainsFunc(jd.Judges, func(v JudgeVerdict) bool { return v.Err == nil }) {
			writeJudgment(&b, jd, i == len(r.Judgments)-1)
		} // else every judge failed: the error above says how
	}
	for _, n := range r.notes {
		b.WriteString("note: " + n + "\n")
	}
	b.WriteString("transcript:\n")
	r.writeTranscript(&b)
	r.writeBudgets(&b)
	for _, s := range r.cassettes {
		b.WriteString("cassette: " + s.path + "\n")
		if s.rerecord != "" {
			b.WriteString("    re-record: " + s.rerecord + "\n")
		}
	}
	if re, ok := r.Err.(*RunError); ok && re.Role == "judge" {
		if miss := (*recorder.ReplayMissError)(nil); errors.As(re.Err, &miss) {
			b.WriteString("hint: if only the criteria changed, the command above (AGENTCHECK_RECORD=missing) records the judge's new questions alone: the agent's and the user's requests replay from the cassette\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// writeJudgment writes a judgment: in full when it is the last (the one
// that decided), else on one line.
func writeJudgment(b *strings.Builder, jd Judgment, full bool) {
	where := "at the end"
	switch jd.When {
	case "checkpoint":
		where = "at the checkpoint"
	case "turn":
		where = "after the turn"
	}
	verdict := "every criterion met"
	if !jd.Passed {
		verdict = tally(jd)
		verdict = strings.TrimPrefix(verdict, "the judge found ")
	}
	models := make([]string, 0, len(jd.Judges))
	for _, v := range jd.Judges {
		models = append(models, v.Model)
	}
	fmt.Fprintf(b, "judge %s %s (turn %d): %s\n", strings.Join(models, ", "), where, jd.Turn, verdict)
	if !full {
		return
	}
	panel := len(jd.Judges) > 1
	for _, v := range jd.Judges {
		pad := "    "
		if panel {
			if v.Err != nil {
				fmt.Fprintf(b, "    judge %s: failed, left out:\n%s\n", v.Model, indent(v.Err.Error(), "        "))
				continue
			}
			fmt.Fprintf(b, "    judge %s:\n", v.Model)
			pad = "        "
		}
		if v.Err != nil {
			b.WriteString(indent(v.Err.Error(), pad) + "\n")
			continue
		}
		for k, c := range v.Criteria {
			fmt.Fprintf(b, "%s%d. %s: %s\n", pad, k+1, c.Criterion, strings.ReplaceAll(c.Verdict, "_", " "))
			if c.Reason != "" {
				b.WriteString(indent(c.Reason, pad+"     ") + "\n")
			}
		}
	}
	if jd.Disagreement != "" {
		b.WriteString("    disagreement: " + jd.Disagreement + "\n")
	}
}

// writeTranscript writes the conversation turn by turn.
func (r *Result) writeTranscript(b *strings.Builder) {
	if len(r.Conversation) == 0 {
		b.WriteString("    (no messages)\n")
		return
	}
	names := map[string]string{} // call ID -> tool name
	for _, m := range r.Conversation {
		for _, tc := range m.ToolCalls {
			if tc.ID != "" {
				names[tc.ID] = tc.Name
			}
		}
	}
	timed := r.budget.TurnTimeout > 0
	for _, t := range r.Turns {
		label := "turn " + strconv.Itoa(t.Number)
		if t.Number == 0 {
			label = "turn 0 (the agent first)"
		}
		if timed {
			label += ", " + t.Duration.Round(time.Millisecond).String()
		}
		b.WriteString("  " + label + ":\n")
		for i := t.First; i < t.End && i < len(r.Conversation); i++ {
			writeMessage(b, i, r.Conversation[i], names)
		}
	}
}

func writeMessage(b *strings.Builder, i int, m agentcheck.Message, names map[string]string) {
	prefix := "    [" + strconv.Itoa(i) + "] "
	var who string
	content := m.Content
	switch m.Role {
	case agentcheck.Human:
		who = "user"
	case agentcheck.AI:
		who = "agent"
	case agentcheck.Tool:
		who = "tool"
		if n := names[m.ToolCallID]; n != "" {
			who += " " + n
		}
		if m.IsError {
			content = "ERROR: " + content
		}
		content = clip(content, 2000)
	default:
		who = string(m.Role)
	}
	b.WriteString(prefix + who + ":")
	if content != "" {
		b.WriteString(" " + strings.ReplaceAll(content, "\n", "\n        ") + "\n")
	} else {
		b.WriteString("\n")
	}
	for _, tc := range m.ToolCalls {
		b.WriteString("        -> " + tc.String() + "\n")
	}
}

// writeBudgets writes what the run used, against the budgets set.
func (r *Result) writeBudgets(b *strings.Builder) {
	turns := 0
	for _, t := range r.Turns {
		turns = max(turns, t.Number)
	}
	of := func(n int) string {
		if n == 0 {
			return ""
		}
		return " of " + strconv.Itoa(n)
	}
	fmt.Fprintf(b, "turns: %d of MaxTurns %d\n", turns, r.maxTurns)
	fmt.Fprintf(b, "tool calls: %d%s\n", r.ToolCalls, of(r.budget.ToolCalls))
	u := r.Usage
	fmt.Fprintf(b, "tokens: %d%s (agent %d%s, user %d%s, judge %d%s)\n",
		u.Total().Total(), of(r.budget.Tokens),
		u.Agent.Total(), of(r.budget.AgentTokens),
		u.User.Total(), of(r.budget.UserTokens),
		u.Judge.Total(), of(r.budget.JudgeTokens))
	if d := r.budget.TurnTimeout; d > 0 {
		slowest := Turn{}
		for _, t := range r.Turns {
			if t.Duration > slowest.Duration {
				slowest = t
			}
		}
		fmt.Fprintf(b, "slowest turn: %d, %v of %v\n", slowest.Number, slowest.Duration.Round(time.Millisecond), d)
	}
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+prefix)
}
