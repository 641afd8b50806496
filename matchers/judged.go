package matchers

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strconv"
	"sync"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/metric"
)

// AchieveGoal succeeds when the judge j finds that the agent achieved the
// human's goal (agenttest.CheckGoal): agent_goal_accuracy is 1, that is the
// judge, or every judge of a panel that gave a verdict, found the end state
// achieves the desired outcome. The desired outcome is the sample's
// Reference, the reference given to Against, or, with none or after
// WithoutReference, the goal each judge infers.
//
// A judgment that cannot be made (every judge failed, a replay miss) is an
// error, as is a consensus panel whose judges disagree, so that neither To
// nor NotTo passes on it. The matcher asks the judge once per distinct
// actual and builds its failure message from that same judgment, so
// Eventually polling an unchanged conversation asks the judge once; a
// changed one is judged again. Gomega gives a matcher no context: the judge
// is asked within the one given to WithContext, such as t.Context(), else
// context.Background() (a judge.ForTest(t) client ends its questions with
// its test either way).
func AchieveGoal(j judgment.Judge) *GoalMatcher {
	return newGoalMatcher(metric.AgentGoalAccuracy{Judge: j}, nil, judged{})
}

// GoalMatcher is the matcher AchieveGoal returns. It is safe for concurrent
// use.
type GoalMatcher struct {
	reportMatcher
	metric    metric.AgentGoalAccuracy
	reference *string
	judged
}

func newGoalMatcher(m metric.AgentGoalAccuracy, reference *string, j judged) *GoalMatcher {
	g := &GoalMatcher{metric: m, reference: reference, judged: j.fresh()}
	g.check = g.run
	return g
}

// WithContext asks the judge within ctx, such as the test's t.Context(),
// in place of context.Background().
func (m *GoalMatcher) WithContext(ctx context.Context) *GoalMatcher {
	return newGoalMatcher(m.metric, m.reference, judged{ctx: ctx})
}

// WithoutReference compares the end state with the goal each judge infers
// even when the sample has a Reference (ragas's
// AgentGoalAccuracyWithoutReference).
func (m *GoalMatcher) WithoutReference() *GoalMatcher {
	c := m.metric
	c.WithoutReference = true
	return newGoalMatcher(c, m.reference, m.judged)
}

// Against compares the end state with reference, in place of the sample's
// Reference; it gives a Conversation, which has none, one.
func (m *GoalMatcher) Against(reference string) *GoalMatcher {
	return newGoalMatcher(m.metric, &reference, m.judged)
}

func (m *GoalMatcher) run(actual any) (agenttest.Report, error) {
	s, err := sampleOf(actual, "AchieveGoal")
	if err != nil {
		return agenttest.Report{}, err
	}
	if m.reference != nil {
		s.Reference = *m.reference
	}
	ref := ""
	if !m.metric.WithoutReference {
		ref = s.Reference
	}
	key := fingerprint("goal", s.Conversation.String(), ref)
	return m.once(key, func(ctx context.Context) agenttest.Report {
		return agenttest.CheckGoal(ctx, m.metric, s)
	}), nil
}

// StayOnTopics succeeds when the judge j finds that the agent kept to the
// topics (agenttest.CheckTopics): TopicAdherence, in F1 mode unless Mode
// says otherwise, scores at least agenttest.DefaultTopicThreshold (0.8), or
// the threshold given to AtLeast. The topics given here replace the
// sample's ReferenceTopics (the assertion says what it checks); with none,
// the sample's are used, and an actual conversation, which has none, is an
// error. Errors, disagreements, Eventually and the context are handled as
// AchieveGoal handles them.
func StayOnTopics(j judgment.Judge, topics ...string) *TopicMatcher {
	return newTopicMatcher(metric.TopicAdherence{Judge: j}, append([]string(nil), topics...), agenttest.DefaultTopicThreshold, judged{})
}

// TopicMatcher is the matcher StayOnTopics returns. It is safe for
// concurrent use.
type TopicMatcher struct {
	reportMatcher
	metric metric.TopicAdherence
	topics []string
	min    float64
	judged
}

func newTopicMatcher(m metric.TopicAdherence, topics []string, min float64, j judged) *TopicMatcher {
	t := &TopicMatcher{metric: m, topics: topics, min: min, judged: j.fresh()}
	t.check = t.run
	return t
}

// WithContext asks the judge within ctx, such as the test's t.Context(),
// in place of context.Background().
func (m *TopicMatcher) WithContext(ctx context.Context) *TopicMatcher {
	return newTopicMatcher(m.metric, m.topics, m.min, judged{ctx: ctx})
}

// Mode scores precision (no off-topic answers), recall (no refused
// on-topic questions) or F1 (both; the default).
func (m *TopicMatcher) Mode(mode metric.TopicMode) *TopicMatcher {
	c := m.metric
	c.Mode = mode
	return newTopicMatcher(c, m.topics, m.min, m.judged)
}

// AtLeast sets the score the matcher wants. A perfect score is just under
// 1, so AtLeast(1) fails whenever the judge finds a topic; use 0.99.
func (m *TopicMatcher) AtLeast(threshold float64) *TopicMatcher {
	return newTopicMatcher(m.metric, m.topics, threshold, m.judged)
}

func (m *TopicMatcher) run(actual any) (agenttest.Report, error) {
	s, err := sampleOf(actual, "StayOnTopics")
	if err != nil {
		return agenttest.Report{}, err
	}
	if len(m.topics) > 0 {
		s.ReferenceTopics = m.topics
	}
	if len(s.ReferenceTopics) == 0 {
		return agenttest.Report{}, fmt.Errorf("StayOnTopics needs topics: give them, StayOnTopics(judge, \"billing\", ...), or a Sample with reference_topics")
	}
	key := fingerprint(append([]string{"topics", s.Conversation.String(), m.metric.Mode.String(), strconv.FormatFloat(m.min, 'g', -1, 64)}, s.ReferenceTopics...)...)
	return m.once(key, func(ctx context.Context) agenttest.Report {
		return agenttest.CheckTopics(ctx, m.metric, s, m.min)
	}), nil
}

// judged is what the judged matchers share: the context the judge is
// asked within (nil for context.Background()) and the judgments made.
type judged struct {
	ctx  context.Context
	memo *memo
}

// fresh is j with the same context and a memo of its own: a matcher
// changed by a method judges anew.
func (j judged) fresh() judged { return judged{ctx: j.ctx, memo: newMemo()} }

// once returns the report for key, judging it once within the matcher's
// context: Match and the failure message read the same judgment.
func (j judged) once(key [sha256.Size]byte, judge func(context.Context) agenttest.Report) agenttest.Report {
	ctx := j.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	return j.memo.get(key, func() agenttest.Report { return judge(ctx) })
}

// WithContext asks a judged metric's judge within ctx, such as the test's
// t.Context(), in place of context.Background().
func (m *ScoreMatcher) WithContext(ctx context.Context) *ScoreMatcher {
	return newScoreMatcher(m.metric, m.expected, m.reference, m.against, judged{ctx: ctx})
}

// sampleKey fingerprints all of a sample, what every metric may read.
func sampleKey(kind string, s agentcheck.Sample) [sha256.Size]byte {
	return fingerprint(kind, fmt.Sprintf("%#v", s))
}

// memo keeps a matcher's reports by a fingerprint of what the judge was
// shown, so that Eventually, which calls Match on every poll, asks the judge
// once per distinct actual. Failed judgments are kept too: the client has
// already retried what can be retried, and a replay miss does not heal by
// asking again. Entries are never dropped; each cost a judgment, which
// bounds their number.
type memo struct {
	mu      sync.Mutex
	entries map[[sha256.Size]byte]*memoEntry
}

type memoEntry struct {
	done chan struct{} // closed when r is set
	r    agenttest.Report
}

func newMemo() *memo { return &memo{entries: map[[sha256.Size]byte]*memoEntry{}} }

// get returns the report for key, judging once: concurrent callers with
// the same key wait for the first.
func (m *memo) get(key [sha256.Size]byte, judge func() agenttest.Report) agenttest.Report {
	m.mu.Lock()
	e, ok := m.entries[key]
	if !ok {
		e = &memoEntry{done: make(chan struct{})}
		m.entries[key] = e
	}
	m.mu.Unlock()
	if ok {
		<-e.done
		return e.r
	}
	defer close(e.done)
	e.r = judge()
	return e.r
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
