package agenttest

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/metric"
)

// DefaultTopicThreshold is the topic adherence score CheckTopics and
// StayOnTopics want unless told otherwise. A perfect topic adherence is just
// under 1 (ragas adds 1e-10 to each denominator), so the threshold cannot be
// 1; 0.8 lets through one slip in five topics, as F1 (the default mode)
// counts them. Use 0.99 to allow none.
const DefaultTopicThreshold = 0.8

// CheckGoal asks m's judge whether the sample's conversation achieved its
// goal: the sample's Reference when it has one (and m is not
// WithoutReference), else the goal each judge infers. It passes when
// agent_goal_accuracy is 1: the judge, or every judge of a panel that gave a
// verdict, found the goal achieved (a Majority or Unanimous panel applies
// its own rule). The failure shows each judge's verdict and reason, the goal
// and end state it inferred, the tokens used, and the cassette the answers
// came from with the command that re-records it. A judgment that cannot be
// made (every judge failed, a replay miss) and a consensus panel whose
// judges disagree are the Report's Err.
func CheckGoal(ctx context.Context, m metric.AgentGoalAccuracy, s agentcheck.Sample) Report {
	r, err := m.Evaluate(ctx, s)
	conv := "the conversation " + summary(s.Conversation)
	switch {
	case err != nil:
		return failed(cannotJudge("whether "+conv+" achieves its goal", r, err))
	case r.Disagreement != "":
		return disagreed("whether "+conv+" achieves its goal", r, desiredOutcome(s, m.WithoutReference)+"\n"+explainJudgment(r))
	}
	tally := goalTally(r)
	detail := func() string { return desiredOutcome(s, m.WithoutReference) + "\n" + explainJudgment(r) }
	return Report{
		ok: r.Score >= 1, metric: r.Metric, score: r.Score, hasScore: true,
		why: func() string {
			return fmt.Sprintf("Expected %s to achieve its goal, but %s (%s %s, want 1)\n%s", conv, tally, r.Metric, formatFloat(r.Score), detail())
		},
		whyNot: func() string {
			return fmt.Sprintf("Expected %s not to achieve its goal, but %s (%s %s)\n%s", conv, tally, r.Metric, formatFloat(r.Score), detail())
		},
	}
}

// CheckTopics asks m's judge whether the sample's conversation stays on its
// ReferenceTopics: it passes when TopicAdherence in m's mode scores at least
// min. A perfect score is just under 1 (with two topics, precision and
// recall are 0.99999999995 and F1 0.9999999999), so use a min such as
// DefaultTopicThreshold, or 0.99 for "no slip at all", never 1. The failure
// shows the score against min and, for each judge, the topics it found with
// their answered and on-topic flags, precision, recall and F1; errors and
// disagreements are the Report's Err, as for CheckGoal.
func CheckTopics(ctx context.Context, m metric.TopicAdherence, s agentcheck.Sample, min float64) Report {
	conv := "the conversation " + summary(s.Conversation)
	if len(s.ReferenceTopics) == 0 {
		return failed(fmt.Errorf("cannot judge whether %s stays on its topics: the sample has no reference topics; give them (StayOnTopics(judge, \"billing\", ...)) or set Sample.ReferenceTopics", conv))
	}
	r, err := m.Evaluate(ctx, s)
	topics := quoteTopics(s.ReferenceTopics)
	switch {
	case err != nil:
		return failed(cannotJudge("whether "+conv+" stays on the topics "+topics, r, err))
	case r.Disagreement != "":
		return disagreed("on how well "+conv+" stays on the topics "+topics+" ("+m.Mode.String()+")", r, explainJudgment(r))
	}
	return Report{
		ok: r.Score >= min, metric: r.Metric, score: r.Score, hasScore: true,
		why: func() string {
			msg := fmt.Sprintf("Expected %s to stay on the topics %s, but %s (%s) is %s, want at least %s",
				conv, topics, r.Metric, m.Mode, formatFloat(r.Score), formatFloat(min))
			if min > 1-1e-9 {
				msg += fmt.Sprintf("\nnote: a threshold of %s cannot be met once the judge finds a topic: ragas adds 1e-10 to each denominator, so a perfect score is just under 1 (with two topics: precision and recall 0.99999999995, F1 0.9999999999); use 0.99", formatFloat(min))
			}
			return msg + "\n" + explainJudgment(r)
		},
		whyNot: func() string {
			return fmt.Sprintf("Expected %s not to stay on the topics %s, but %s (%s) is %s, at least %s\n%s",
				conv, topics, r.Metric, m.Mode, formatFloat(r.Score), formatFloat(min), explainJudgment(r))
		},
	}
}

// disagreed is the Report of a judgment a consensus panel disagreed on:
// one rule for every judged check (judgment.Aggregate scores it 0, so the
// CLI's and evalsuite's thresholds fail it too). It has no verdict either
// way, so that neither an assertion nor its negation (To, NotTo) passes on
// it, and its message says what was judged ("whether ...", "on ..."), then detail: each judge's
// verdict with its reason, and the disagreement (the judgment's trailer).
func disagreed(what string, r metric.Result, detail string) Report {
	return failed(&JudgmentError{msg: fmt.Sprintf("The judges disagree %s, so there is no verdict either way (%s %s)\n%s",
		what, r.Metric, formatFloat(r.Score), detail)})
}

// JudgmentError is a judged check that gave no verdict: every judge failed,
// the answers could not be replayed, or a consensus panel disagreed. Its
// message is the whole explanation; Unwrap gives the cause, if any.
type JudgmentError struct {
	msg string
	err error
}

func (e *JudgmentError) Error() string { return e.msg }

func (e *JudgmentError) Unwrap() error { return e.err }

// cannotJudge explains a judgment that gave no score. When every judge
// failed, their causes are listed judge by judge.
func cannotJudge(what string, r metric.Result, err error) error {
	allFailed := len(r.Verdicts) > 0
	for _, v := range r.Verdicts {
		if v.Err == nil {
			allFailed = false
		}
	}
	var msg string
	if allFailed {
		msg = fmt.Sprintf("Could not judge %s: every judge failed\n%s", what, explainJudgment(r))
	} else {
		msg = fmt.Sprintf("Could not judge %s: %v", what, err)
		if e := explainJudgment(r); e != "" {
			msg += "\n" + e
		}
	}
	return &JudgmentError{msg: msg, err: err}
}

// desiredOutcome says what AgentGoalAccuracy compared the end state with
// for the sample: its Reference, or the goal each judge inferred.
func desiredOutcome(s agentcheck.Sample, withoutReference bool) string {
	switch {
	case s.Reference != "" && !withoutReference:
		return "desired outcome: the reference " + strconv.Quote(s.Reference)
	case s.Reference != "":
		return "desired outcome: the goal each judge inferred (the reference is ignored: WithoutReference)"
	}
	return "desired outcome: the goal each judge inferred (no reference given)"
}

// goalTally says how the judges that gave a verdict voted.
func goalTally(r metric.Result) string {
	achieved, judged := r.Votes()
	switch {
	case judged == 1 && achieved == 1:
		return "the judge found it did"
	case judged == 1:
		return "the judge found it did not"
	}
	return fmt.Sprintf("%d of %d judges found it did", achieved, judged)
}

// quoteTopics renders topics as a quoted, comma-separated list.
func quoteTopics(topics []string) string {
	q := make([]string, len(topics))
	for i, t := range topics {
		q[i] = strconv.Quote(t)
	}
	return strings.Join(q, ", ")
}

// summary renders the conversation in one line for a failure message: the
// human's first message and the last message with text, quoted and cut to
// 60 characters, and how many messages and tool calls there are:
//
//	"Book a table for two at 8pm" … "Booked, confirmation #123." (4 messages, 1 tool call)
//
// A message other than the human's first or the AI's last is prefixed with
// its role.
func summary(c agentcheck.Conversation) string {
	counts := plural(len(c), "message")
	if n := len(c.ToolCalls()); n > 0 {
		counts += ", " + plural(n, "tool call")
	}
	hasText := func(m agentcheck.Message) bool {
		return m.Role != agentcheck.System && strings.TrimSpace(m.Content) != ""
	}
	first := -1
	for i, m := range c {
		if m.Role == agentcheck.Human && hasText(m) {
			first = i
			break
		}
	}
	if first < 0 {
		for i, m := range c {
			if hasText(m) {
				first = i
				break
			}
		}
	}
	if first < 0 {
		return "(" + counts + ", no text)"
	}
	last := -1
	for i := len(c) - 1; i > first; i-- {
		if hasText(c[i]) {
			last = i
			break
		}
	}
	quote := func(m agentcheck.Message, want agentcheck.Role) string {
		q := strconv.Quote(clipText(strings.Join(strings.Fields(m.Content), " "), 60))
		if m.Role != want {
			q = string(m.Role) + " " + q
		}
		return q
	}
	s := quote(c[first], agentcheck.Human)
	if last >= 0 {
		s += " … " + quote(c[last], agentcheck.AI)
	}
	return s + " (" + counts + ")"
}

// clipText cuts s to n runes, "…" included, at a space if one is near.
func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cutMidWord := r[n-1] != ' '
	r = r[:n-1]
	for i := len(r) - 1; cutMidWord && i >= n/2; i-- {
		if r[i] == ' ' {
			r = r[:i]
			break
		}
	}
	return string(r) + "…"
}

// explainJudgment renders a judged metric's result for a failure message,
// as Explain does for the tool call metrics: for each judge, its verdict,
// reason and the tokens it used; for goal accuracy the goal and end state it
// inferred; for topic adherence precision, recall, F1 and a table of the
// topics it found with their answered and on-topic flags and what each
// counts as. Then the judges that failed, with their causes; the panel's
// disagreement, if any; the result's warnings; the tokens used in all; and
// the cassette the answers came from with the command that re-records it.
// Durations are left out, so that a replay explains itself as the recording
// did.
func explainJudgment(r metric.Result) string {
	var b strings.Builder
	goal := r.Metric == metric.AgentGoalAccuracy{}.Name()
	topics := r.Metric == metric.TopicAdherence{}.Name()
	panel := len(r.Verdicts) > 1
	for _, v := range r.Verdicts {
		name := v.Model
		if name == "" {
			name = "(unnamed)"
		}
		if v.Err != nil {
			fmt.Fprintf(&b, "judge %s: failed, left out of the score:\n", name)
			writeIndented(&b, v.Err.Error(), "    ")
			continue
		}
		switch {
		case goal:
			verdict := "not achieved"
			if v.Score == 1 {
				verdict = "achieved"
			}
			fmt.Fprintf(&b, "judge %s: %s\n", name, verdict)
			writeField(&b, "reason", v.Reason)
			writeField(&b, "inferred goal", v.UserGoal)
			writeField(&b, "end state", v.EndState)
		case topics:
			fmt.Fprintf(&b, "judge %s: precision %s, recall %s, f1 %s\n",
				name, formatFloat(v.Precision), formatFloat(v.Recall), formatFloat(v.F1Score))
			writeField(&b, "reason", v.Reason)
			writeTopicTable(&b, v.Topics)
		default:
			fmt.Fprintf(&b, "judge %s: score %s\n", name, formatFloat(v.Score))
			writeField(&b, "reason", v.Reason)
		}
		if panel {
			writeField(&b, "tokens", usageText(v.Usage))
		}
	}
	writeJudgmentTrailer(&b, r)
	return strings.TrimRight(b.String(), "\n")
}

// writeJudgmentTrailer writes what follows the judges' verdicts in a
// judgment's explanation: the disagreement, the warnings, the tokens and
// the cassettes the answers came from.
func writeJudgmentTrailer(b *strings.Builder, r metric.Result) {
	if r.Disagreement != "" {
		b.WriteString("disagreement: " + r.Disagreement + "\n")
	}
	for _, w := range r.Warnings {
		// The failed judges are listed above with their causes.
		if strings.Contains(w, "judges failed and were left out") {
			continue
		}
		b.WriteString("warning: " + w + "\n")
	}
	judged := false
	for _, v := range r.Verdicts {
		judged = judged || v.Err == nil
	}
	if judged || r.Usage.Total() > 0 {
		b.WriteString("tokens: " + usageText(r.Usage) + "\n")
	}
	seen := map[string]bool{}
	for _, v := range r.Verdicts {
		src := v.Source
		// A failed judge's source says nothing: a replay miss is "live".
		if v.Err != nil || src == "" || seen[src] {
			continue
		}
		seen[src] = true
		switch {
		case src == "live":
			b.WriteString("answers: live, from no cassette (judge.ForTest replays them)\n")
		case strings.HasSuffix(src, ".yaml"):
			b.WriteString("cassette: " + src + "\n")
			writeField(b, "re-record", v.Rerecord)
		default:
			b.WriteString("answers from: " + src + "\n")
		}
	}
}

func writeField(b *strings.Builder, name, value string) {
	if value == "" {
		return
	}
	writeIndented(b, name+": "+value, "    ")
}

// writeIndented writes s, every line of it indented.
func writeIndented(b *strings.Builder, s, indent string) {
	for _, line := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString(indent + line + "\n")
	}
}

func usageText(u judgment.Usage) string {
	return fmt.Sprintf("%d (%d prompt + %d completion)", u.Total(), u.PromptTokens, u.CompletionTokens)
}

// writeTopicTable lists the topics with their flags and what each counts as
// in ragas's arithmetic.
func writeTopicTable(b *strings.Builder, ts []metric.TopicVerdict) {
	if len(ts) == 0 {
		return
	}
	width := len("topic")
	for _, t := range ts {
		width = max(width, len([]rune(t.Topic)))
	}
	pad := func(s string) string { return s + strings.Repeat(" ", width-len([]rune(s))+2) }
	yes := func(v bool) string {
		if v {
			return "yes     "
		}
		return "no      "
	}
	b.WriteString("    " + pad("topic") + "answered  on-topic  counts as\n")
	for _, t := range ts {
		var counts string
		switch {
		case t.Answered && t.OnTopic:
			counts = "true positive"
		case t.Answered:
			counts = "false positive: answered off-topic"
		case t.OnTopic:
			counts = "false negative: refused on-topic"
		default:
			counts = "nothing: refused off-topic, as it should"
		}
		b.WriteString("    " + pad(t.Topic) + yes(t.Answered) + "  " + yes(t.OnTopic) + "  " + counts + "\n")
	}
}
