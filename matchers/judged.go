package matchers

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/agentcheck/agentcheck/agenttest"
)

// DefaultTopicThreshold is the score StayOnTopics wants unless AtLeast says
// otherwise. A perfect topic adherence is just under 1 (ragas adds 1e-10 to
// each denominator), so the threshold cannot be 1; 0.8 lets through one
// slip in five topics, as F1 (the default mode) counts them. Use
// AtLeast(0.99) to allow none.
const DefaultTopicThreshold = 0.8

// AchieveGoal succeeds when the judge j finds that the agent achieved the
// human's goal: agenttest.AgentGoalAccuracy scores 1, that is the judge, or
// every judge of a panel that gave a verdict, found the end state achieves
// the desired outcome (a Majority or Unanimous panel applies its own rule).
// The desired outcome is the sample's Reference, the reference given to
// Against, or, with none or after WithoutReference, the goal each judge
// infers. The actual value is an agenttest.Sample, *agenttest.Sample,
// agenttest.Conversation or []openai.ChatCompletionMessage.
//
// The failure message shows each judge's verdict and reason, the goal and
// end state it inferred, the judges that failed and why, the tokens used,
// and the cassette the answers came from with the command that re-records
// it. A judgment that cannot be made (every judge failed, a replay miss) is
// an error, as is a consensus panel whose judges disagree, so that neither
// To nor NotTo passes on it.
//
// The matcher remembers its judgments by what the judge is shown (the
// rendered conversation, the desired outcome), so Eventually polling an
// unchanged conversation asks the judge once; a changed one is judged again.
func AchieveGoal(j agenttest.Judge) *GoalMatcher {
	return &GoalMatcher{judge: j, memo: newMemo()}
}

// GoalMatcher is the matcher AchieveGoal returns. It is safe for concurrent
// use.
type GoalMatcher struct {
	judge            agenttest.Judge
	withoutReference bool
	reference        *string
	memo             *memo
}

// WithoutReference compares the end state with the goal each judge infers
// even when the sample has a Reference (ragas's
// AgentGoalAccuracyWithoutReference).
func (m *GoalMatcher) WithoutReference() *GoalMatcher {
	c := *m
	c.withoutReference, c.memo = true, newMemo()
	return &c
}

// Against compares the end state with reference, in place of the sample's
// Reference; it gives a Conversation, which has none, one.
func (m *GoalMatcher) Against(reference string) *GoalMatcher {
	c := *m
	c.reference, c.memo = &reference, newMemo()
	return &c
}

func (m *GoalMatcher) judged(actual any) (agenttest.Sample, judgment, error) {
	s, err := sampleOf(actual, "AchieveGoal")
	if err != nil {
		return s, judgment{}, err
	}
	if m.reference != nil {
		s.Reference = *m.reference
	}
	useReference := !m.withoutReference && s.Reference != ""
	ref := ""
	if useReference {
		ref = s.Reference
	}
	key := fingerprint("goal", s.Conversation.String(), strconv.FormatBool(useReference), ref)
	j := m.memo.get(key, func() judgment {
		metric := agenttest.AgentGoalAccuracy{Judge: m.judge, WithoutReference: m.withoutReference}
		r, err := metric.Evaluate(context.Background(), s)
		return judgment{r, err}
	})
	return s, j, nil
}

func (m *GoalMatcher) Match(actual any) (bool, error) {
	s, j, err := m.judged(actual)
	if err != nil {
		return false, err
	}
	conv := "the conversation " + s.Conversation.Summary()
	switch {
	case j.err != nil:
		return false, cannotJudge("whether "+conv+" achieves its goal", j.result, j.err)
	case j.result.Disagreement != "":
		return false, &judgedError{msg: fmt.Sprintf("The judges disagree whether %s achieves its goal, so there is no verdict either way (%s %s)\n%s\n%s",
			conv, j.result.Metric, score(j.result.Score), m.desiredOutcome(s), j.result.ExplainJudgment())}
	}
	return j.result.Score >= 1, nil
}

func (m *GoalMatcher) FailureMessage(actual any) string { return m.message(actual, false) }

func (m *GoalMatcher) NegatedFailureMessage(actual any) string { return m.message(actual, true) }

func (m *GoalMatcher) message(actual any, negated bool) string {
	s, j, err := m.judged(actual)
	if err == nil {
		err = j.err
	}
	if err != nil {
		return err.Error()
	}
	r := j.result
	conv := "the conversation " + s.Conversation.Summary()
	var head string
	if negated {
		head = fmt.Sprintf("Expected %s not to achieve its goal, but %s (%s %s)", conv, goalTally(r), r.Metric, score(r.Score))
	} else {
		head = fmt.Sprintf("Expected %s to achieve its goal, but %s (%s %s, want 1)", conv, goalTally(r), r.Metric, score(r.Score))
	}
	return head + "\n" + m.desiredOutcome(s) + "\n" + r.ExplainJudgment()
}

func (m *GoalMatcher) desiredOutcome(s agenttest.Sample) string {
	switch {
	case s.Reference != "" && !m.withoutReference:
		return "desired outcome: the reference " + strconv.Quote(s.Reference)
	case s.Reference != "":
		return "desired outcome: the goal each judge inferred (the reference is ignored: WithoutReference)"
	}
	return "desired outcome: the goal each judge inferred (no reference given)"
}

// goalTally says how the judges that gave a verdict voted.
func goalTally(r agenttest.Result) string {
	achieved, judged := r.Votes()
	switch {
	case judged == 1 && achieved == 1:
		return "the judge found it did"
	case judged == 1:
		return "the judge found it did not"
	}
	return fmt.Sprintf("%d of %d judges found it did", achieved, judged)
}

// StayOnTopics succeeds when the judge j finds that the agent kept to the
// topics: agenttest.TopicAdherence, in F1 mode unless Mode says otherwise,
// scores at least DefaultTopicThreshold (0.8), or the threshold given to
// AtLeast. The topics given here replace the sample's ReferenceTopics (the
// assertion says what it checks); with none, the sample's are used, and an
// actual conversation, which has none, is an error. The actual value is as
// for AchieveGoal.
//
// The failure message shows the score against the threshold and the mode,
// then for each judge a table of the topics it found in the conversation,
// whether the agent answered each and whether it is on one of the topics,
// with precision, recall and F1; then tokens and cassette as AchieveGoal
// shows them. Errors, disagreements and Eventually are handled as
// AchieveGoal handles them.
func StayOnTopics(j agenttest.Judge, topics ...string) *TopicMatcher {
	return &TopicMatcher{judge: j, topics: append([]string(nil), topics...), min: DefaultTopicThreshold, memo: newMemo()}
}

// TopicMatcher is the matcher StayOnTopics returns. It is safe for
// concurrent use.
type TopicMatcher struct {
	judge  agenttest.Judge
	topics []string
	mode   agenttest.TopicMode
	min    float64
	memo   *memo
}

// Mode scores precision (no off-topic answers), recall (no refused
// on-topic questions) or F1 (both; the default).
func (m *TopicMatcher) Mode(mode agenttest.TopicMode) *TopicMatcher {
	c := *m
	c.mode, c.memo = mode, newMemo()
	return &c
}

// AtLeast sets the score the matcher wants. A perfect score is just under
// 1, so AtLeast(1) fails whenever the judge finds a topic; use 0.99.
func (m *TopicMatcher) AtLeast(threshold float64) *TopicMatcher {
	c := *m
	c.min = threshold // the judgment is the same: keep the memo
	return &c
}

func (m *TopicMatcher) judged(actual any) (agenttest.Sample, judgment, error) {
	s, err := sampleOf(actual, "StayOnTopics")
	if err != nil {
		return s, judgment{}, err
	}
	if len(m.topics) > 0 {
		s.ReferenceTopics = m.topics
	}
	if len(s.ReferenceTopics) == 0 {
		return s, judgment{}, fmt.Errorf("StayOnTopics needs topics: give them, StayOnTopics(judge, \"billing\", ...), or a Sample with reference_topics")
	}
	key := fingerprint(append([]string{"topics", s.Conversation.String(), m.mode.String()}, s.ReferenceTopics...)...)
	j := m.memo.get(key, func() judgment {
		r, err := agenttest.TopicAdherence{Judge: m.judge, Mode: m.mode}.Evaluate(context.Background(), s)
		return judgment{r, err}
	})
	return s, j, nil
}

func (m *TopicMatcher) Match(actual any) (bool, error) {
	s, j, err := m.judged(actual)
	if err != nil {
		return false, err
	}
	conv := "the conversation " + s.Conversation.Summary()
	topics := quoteTopics(s.ReferenceTopics)
	switch {
	case j.err != nil:
		return false, cannotJudge("whether "+conv+" stays on the topics "+topics, j.result, j.err)
	case j.result.Disagreement != "":
		return false, &judgedError{msg: fmt.Sprintf("The judges disagree on how well %s stays on the topics %s, so there is no verdict either way (%s (%s) %s)\n%s",
			conv, topics, j.result.Metric, m.mode, score(j.result.Score), j.result.ExplainJudgment())}
	}
	return j.result.Score >= m.min, nil
}

func (m *TopicMatcher) FailureMessage(actual any) string { return m.message(actual, false) }

func (m *TopicMatcher) NegatedFailureMessage(actual any) string { return m.message(actual, true) }

func (m *TopicMatcher) message(actual any, negated bool) string {
	s, j, err := m.judged(actual)
	if err == nil {
		err = j.err
	}
	if err != nil {
		return err.Error()
	}
	r := j.result
	conv := "the conversation " + s.Conversation.Summary()
	topics := quoteTopics(s.ReferenceTopics)
	var msg string
	if negated {
		msg = fmt.Sprintf("Expected %s not to stay on the topics %s, but %s (%s) is %s, at least %s",
			conv, topics, r.Metric, m.mode, score(r.Score), score(m.min))
	} else {
		msg = fmt.Sprintf("Expected %s to stay on the topics %s, but %s (%s) is %s, want at least %s",
			conv, topics, r.Metric, m.mode, score(r.Score), score(m.min))
		if m.min > 1-1e-9 {
			msg += fmt.Sprintf("\nnote: a threshold of %s cannot be met once the judge finds a topic: ragas adds 1e-10 to each denominator, so a perfect score is just under 1 (with two topics: precision and recall 0.99999999995, F1 0.9999999999); use AtLeast(0.99)", score(m.min))
		}
	}
	return msg + "\n" + r.ExplainJudgment()
}

func quoteTopics(topics []string) string {
	q := make([]string, len(topics))
	for i, t := range topics {
		q[i] = strconv.Quote(t)
	}
	return strings.Join(q, ", ")
}

func score(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// sampleOf takes the sample a judged matcher judges from actual.
func sampleOf(actual any, matcher string) (agenttest.Sample, error) {
	switch v := actual.(type) {
	case agenttest.Sample:
		return v, nil
	case *agenttest.Sample:
		if v == nil {
			return agenttest.Sample{}, fmt.Errorf("%s: the sample is a nil *agenttest.Sample", matcher)
		}
		return *v, nil
	}
	conv, err := agenttest.ConversationOf(actual)
	if err != nil {
		return agenttest.Sample{}, fmt.Errorf("%s: %w", matcher, err)
	}
	return agenttest.Sample{Conversation: conv}, nil
}

// judgment is a judged metric's evaluation, kept by a matcher's memo.
type judgment struct {
	result agenttest.Result
	err    error
}

// memo keeps a matcher's judgments by a fingerprint of what the judge was
// shown, so that Eventually, which calls Match on every poll and the failure
// message at the end, asks the judge once per distinct actual. Failed
// judgments are kept too: the client has already retried what can be
// retried, and a replay miss does not heal by asking again. Entries are
// never dropped; each cost a judgment, which bounds their number.
type memo struct {
	mu      sync.Mutex
	entries map[[sha256.Size]byte]*memoEntry
}

type memoEntry struct {
	done chan struct{} // closed when j is set
	j    judgment
}

func newMemo() *memo { return &memo{entries: map[[sha256.Size]byte]*memoEntry{}} }

// get returns the judgment for key, judging once: concurrent callers with
// the same key wait for the first.
func (m *memo) get(key [sha256.Size]byte, judge func() judgment) judgment {
	m.mu.Lock()
	e, ok := m.entries[key]
	if !ok {
		e = &memoEntry{done: make(chan struct{})}
		m.entries[key] = e
	}
	m.mu.Unlock()
	if ok {
		<-e.done
		return e.j
	}
	defer close(e.done)
	e.j = judge()
	return e.j
}

// fingerprint hashes the parts, each prefixed by its length so that no two
// lists of parts collide by concatenation.
func fingerprint(parts ...string) [sha256.Size]byte {
	h := sha256.New()
	var n [8]byte
	for _, p := range parts {
		binary.LittleEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write([]byte(p))
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])
	return key
}

// judgedError is a judged matcher's error: the whole explanation, which
// Gomega prints as it is, in Expect through Error and in Eventually through
// FormattedGomegaError (it would otherwise dump the struct).
type judgedError struct {
	msg string
	err error
}

func (e *judgedError) Error() string                { return e.msg }
func (e *judgedError) FormattedGomegaError() string { return e.msg }
func (e *judgedError) Unwrap() error                { return e.err }

// cannotJudge explains a judgment that gave no score. When every judge
// failed, their causes are listed judge by judge.
func cannotJudge(what string, r agenttest.Result, err error) error {
	allFailed := len(r.Verdicts) > 0
	for _, v := range r.Verdicts {
		if v.Err != nil {
			continue
		}
		allFailed = false
	}
	var msg string
	if allFailed {
		msg = fmt.Sprintf("Could not judge %s: every judge failed\n%s", what, r.ExplainJudgment())
	} else {
		msg = fmt.Sprintf("Could not judge %s: %v", what, err)
		if e := r.ExplainJudgment(); e != "" {
			msg += "\n" + e
		}
	}
	return &judgedError{msg: msg, err: err}
}
