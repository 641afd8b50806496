package agenttest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// The judge package's names, repeated here because agenttest cannot import
// it (judge imports agenttest): the variable that turns recording on, and
// where a test's cassettes live by default.
const (
	recordEnv   = "AGENTCHECK_RECORD"
	cassetteDir = "testdata/cassettes/"
)

// AssertGoalAchieved checks that the judge j finds that the sample's
// conversation achieved its goal: the sample's Reference when it has one,
// else the goal the judge infers (see AgentGoalAccuracy). It passes when
// agent_goal_accuracy is 1: the judge, or every judge of a panel that gave a
// verdict, found the goal achieved (a Majority or Unanimous panel applies
// its own rule). Otherwise it reports each judge's verdict and reason, the
// goal and end state it inferred, the tokens used and the cassette the
// answers came from. A judgment that could not be made (every judge failed,
// a replay miss) and a panel whose judges disagree are failures too, with
// their causes.
func AssertGoalAchieved(t TestingT, j Judge, s Sample) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	return assertGoal(t, j, s)
}

// RequireGoalAchieved is AssertGoalAchieved, then t.FailNow() on failure
// when t has it.
func RequireGoalAchieved(t TestingT, j Judge, s Sample) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	if assertGoal(t, j, s) {
		return true
	}
	failNow(t)
	return false
}

func assertGoal(t TestingT, j Judge, s Sample) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	m := AgentGoalAccuracy{Judge: j}
	r, err := m.Evaluate(context.Background(), s)
	conv := "the conversation " + s.Conversation.Summary()
	switch {
	case err != nil:
		t.Errorf("%s", cannotJudge("whether "+conv+" achieves its goal", r, err))
		return false
	case r.Disagreement != "":
		t.Errorf("%s: the judges disagree whether %s achieves its goal, so there is no verdict either way\n%s\n%s",
			r.Metric, conv, desiredOutcome(s, false), r.ExplainJudgment())
		return false
	case r.Score >= 1:
		return true
	}
	t.Errorf("%s is %s, want 1: %s\n%s\n%s",
		r.Metric, formatFloat(r.Score), goalTally(r, conv), desiredOutcome(s, false), r.ExplainJudgment())
	return false
}

// AssertOnTopics checks that the judge j finds that the sample's
// conversation stays on its ReferenceTopics: that TopicAdherence in mode
// scores at least min. A perfect score is just under 1 (ragas adds 1e-10 to
// each denominator: with two topics, precision and recall are 0.99999999995
// and F1 0.9999999999), so use a min such as 0.8, or 0.99 for "no slip at
// all", never 1. Otherwise it reports the
// score against min and, for each judge, the topics it found with their
// answered and on-topic flags, precision, recall and F1; failures to judge
// and disagreements are reported as AssertGoalAchieved does.
func AssertOnTopics(t TestingT, j Judge, s Sample, min float64, mode TopicMode) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	return assertTopics(t, j, s, min, mode)
}

// RequireOnTopics is AssertOnTopics, then t.FailNow() on failure when t has
// it.
func RequireOnTopics(t TestingT, j Judge, s Sample, min float64, mode TopicMode) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	if assertTopics(t, j, s, min, mode) {
		return true
	}
	failNow(t)
	return false
}

func assertTopics(t TestingT, j Judge, s Sample, min float64, mode TopicMode) bool {
	if h, ok := t.(tHelper); ok {
		h.Helper()
	}
	m := TopicAdherence{Judge: j, Mode: mode}
	r, err := m.Evaluate(context.Background(), s)
	conv := "the conversation " + s.Conversation.Summary()
	topics := quoteTopics(s.ReferenceTopics)
	switch {
	case err != nil:
		t.Errorf("%s", cannotJudge("whether "+conv+" stays on the topics "+topics, r, err))
		return false
	case r.Disagreement != "":
		t.Errorf("%s (%s): the judges disagree on how well %s stays on the topics %s, so there is no verdict either way\n%s",
			r.Metric, mode, conv, topics, r.ExplainJudgment())
		return false
	case r.Score >= min:
		return true
	}
	msg := fmt.Sprintf("%s (%s) is %s, want at least %s: %s strays from the topics %s",
		r.Metric, mode, formatFloat(r.Score), formatFloat(min), conv, topics)
	if note := topicThresholdNote(min); note != "" {
		msg += "\n" + note
	}
	t.Errorf("%s\n%s", msg, r.ExplainJudgment())
	return false
}

// Summary renders the conversation in one line for a failure message: the
// human's first message and the last message with text, quoted and cut to
// 60 characters, and how many messages and tool calls there are:
//
//	"Book a table for two at 8pm" … "Booked, confirmation #123." (4 messages, 1 tool call)
//
// A message other than the human's first or the AI's last is prefixed with
// its role.
func (c Conversation) Summary() string {
	counts := plural(len(c), "message")
	if n := len(c.ToolCalls()); n > 0 {
		counts += ", " + plural(n, "tool call")
	}
	hasText := func(m Message) bool { return m.Role != System && strings.TrimSpace(m.Content) != "" }
	first := -1
	for i, m := range c {
		if m.Role == Human && hasText(m) {
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
	quote := func(m Message, want Role) string {
		q := strconv.Quote(clipText(strings.Join(strings.Fields(m.Content), " "), 60))
		if m.Role != want {
			q = string(m.Role) + " " + q
		}
		return q
	}
	s := quote(c[first], Human)
	if last >= 0 {
		s += " … " + quote(c[last], AI)
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

// ExplainJudgment renders a judged metric's result for a failure message,
// as Explain does for the tool call metrics: for each judge, its verdict,
// reason and the tokens it used; for goal accuracy the goal and end state it
// inferred; for topic adherence precision, recall, F1 and a table of the
// topics it found with their answered and on-topic flags and what each
// counts as. Then the judges that failed, with their causes; the panel's
// disagreement, if any; the result's warnings; the tokens used in all; and
// the cassette the answers came from with the command that re-records it.
// Durations are left out, so that a replay explains itself as the recording
// did.
func (r Result) ExplainJudgment() string {
	var b strings.Builder
	goal := r.Metric == AgentGoalAccuracy{}.Name()
	topics := r.Metric == TopicAdherence{}.Name()
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
			writeField(&b, "re-record", rerecordCommand(src))
		default:
			b.WriteString("answers from: " + src + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
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

func usageText(u Usage) string {
	return fmt.Sprintf("%d (%d prompt + %d completion)", u.Total(), u.PromptTokens, u.CompletionTokens)
}

// writeTopicTable lists the topics with their flags and what each counts as
// in ragas's arithmetic.
func writeTopicTable(b *strings.Builder, ts []TopicVerdict) {
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

// rerecordCommand is the command that re-records the cassette at path. The
// test is read back from the path, which judge.Cassette made from t.Name():
// the part after testdata/cassettes/, else the part from the last directory
// or file named like a test function (t.TempDir's own name ends in digits).
func rerecordCommand(path string) string {
	cmd := recordEnv + "=all go test " + packageDir()
	test := ""
	p := filepath.ToSlash(strings.TrimSuffix(path, ".yaml"))
	if i := strings.LastIndex(p, cassetteDir); i >= 0 {
		test = p[i+len(cassetteDir):]
	} else {
		segs := strings.Split(p, "/")
		for i := len(segs) - 1; i >= 0; i-- {
			if testFunc.MatchString(segs[i]) {
				test = strings.Join(segs[i:], "/")
				break
			}
		}
	}
	if test == "" {
		return cmd
	}
	segs := strings.Split(test, "/")
	for i, s := range segs {
		segs[i] = "^" + regexp.QuoteMeta(s) + "$"
	}
	return cmd + " -run '" + strings.ReplaceAll(strings.Join(segs, "/"), "'", `'\''`) + "'"
}

var testFunc = regexp.MustCompile(`^(Test|Example|Benchmark|Fuzz)([^a-z].*)?$`)

// packageDir is the package go test runs in, relative to its module root
// ("./matchers"), as the judge package's replay misses name it.
func packageDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			rel, err := filepath.Rel(dir, wd)
			if err != nil || rel == "." {
				return "."
			}
			return "./" + filepath.ToSlash(rel)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "."
		}
		dir = parent
	}
}

// The pieces below word the lines around ExplainJudgment. Package matchers
// has its own, worded as Gomega's messages are.

// cannotJudge is the error message of a judged metric that gave no score:
// what could not be judged, then why. When every judge failed, the causes
// are listed judge by judge, as ExplainJudgment lists them.
func cannotJudge(what string, r Result, err error) string {
	allFailed := len(r.Verdicts) > 0
	for _, v := range r.Verdicts {
		if v.Err == nil {
			allFailed = false
		}
	}
	metric := r.Metric
	if metric == "" {
		metric = "judged metric"
	}
	if allFailed {
		return fmt.Sprintf("%s: could not judge %s: every judge failed\n%s", metric, what, r.ExplainJudgment())
	}
	msg := fmt.Sprintf("%s: could not judge %s: %v", metric, what, err)
	if e := r.ExplainJudgment(); e != "" {
		msg += "\n" + e
	}
	return msg
}

// desiredOutcome says what AgentGoalAccuracy compared the end state with
// for the sample: its Reference, or the goal each judge inferred.
func desiredOutcome(s Sample, withoutReference bool) string {
	switch {
	case s.Reference != "" && !withoutReference:
		return "desired outcome: the reference " + strconv.Quote(s.Reference)
	case s.Reference != "":
		return "desired outcome: the goal each judge inferred (the reference is ignored)"
	}
	return "desired outcome: the goal each judge inferred (no reference given)"
}

// goalTally says how the judges that gave a verdict voted on whether conv
// achieved its goal.
func goalTally(r Result, conv string) string {
	achieved, judged := r.Votes()
	switch {
	case judged == 1 && achieved == 1:
		return "the judge found that " + conv + " achieved its goal"
	case judged == 1:
		return "the judge found that " + conv + " did not achieve its goal"
	}
	return fmt.Sprintf("%d of %d judges found that %s achieved its goal", achieved, judged, conv)
}

// quoteTopics renders topics as a quoted, comma-separated list.
func quoteTopics(topics []string) string {
	q := make([]string, len(topics))
	for i, t := range topics {
		q[i] = strconv.Quote(t)
	}
	return strings.Join(q, ", ")
}

// topicThresholdNote explains a threshold topic adherence cannot reach, or
// returns "".
func topicThresholdNote(min float64) string {
	if min <= 1-1e-9 {
		return ""
	}
	return fmt.Sprintf("note: a threshold of %s cannot be met once the judge finds a topic: ragas adds 1e-10 to each denominator, so a perfect score is just under 1 (with two topics: precision and recall 0.99999999995, F1 0.9999999999); use 0.99", formatFloat(min))
}
