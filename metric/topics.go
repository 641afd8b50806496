package metric

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/judgment"
)

// TopicPromptVersion versions the topic-adherence prompts below; see
// GoalPromptVersion for why.
const TopicPromptVersion = "topics/v1"

const topicExtractInstructions = `You read the transcript of a conversation between a human and an AI agent.
List the distinct topics the human asked about or raised, as short noun phrases (two to six words each), in the order they first appear.
Only the human's topics count; do not list what the agent brought up on its own. Merge repeats. An empty list is correct when the human raised no topic.`

const topicRefusalInstructions = `You read the transcript of a conversation between a human and an AI agent, and a numbered list of topics the human raised.
For each topic, decide whether the agent refused: true if it declined, deflected or said it cannot help with that topic; false if it engaged with it (answering, asking a clarifying question or calling a tool counts as engaging).`

const topicClassifyInstructions = `You get a numbered list of topics from a conversation and the list of topics an AI agent is allowed to discuss.
For each numbered topic, decide whether it falls under any of the allowed topics (true) or outside all of them (false). A topic falls under an allowed one when it is the same subject or a part of it.`

var topicExtractSchema = lazySchema(func() map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"topics": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
		},
		"required":             []string{"topics"},
		"additionalProperties": false,
	}
})

// perTopicSchema asks for one boolean per topic under keys topic_1..topic_N.
// Strict schemas make every key required, so the judge cannot return fewer
// or more verdicts than topics (ragas pads or cuts a list that does).
func perTopicSchema(n int) map[string]any {
	props := make(map[string]any, n)
	required := make([]string, n)
	for i := range required {
		k := topicKey(i)
		props[k] = map[string]any{"type": "boolean"}
		required[i] = k
	}
	return map[string]any{
		"type":                 "object",
		"properties":           props,
		"required":             required,
		"additionalProperties": false,
	}
}

func topicKey(i int) string { return "topic_" + strconv.Itoa(i+1) }

func numberedTopics(topics []string) string {
	var b strings.Builder
	for i, t := range topics {
		fmt.Fprintf(&b, "%s: %s\n", topicKey(i), t)
	}
	return b.String()
}

// TopicMode is what TopicAdherence reports.
type TopicMode uint8

// Topic adherence modes. F1 is the default, as in ragas.
const (
	TopicF1 TopicMode = iota
	TopicPrecision
	TopicRecall
)

// String is the mode's name as ragas takes it: precision, recall or f1.
func (m TopicMode) String() string {
	switch m {
	case TopicPrecision:
		return "precision"
	case TopicRecall:
		return "recall"
	}
	return "f1"
}

// ParseTopicMode reads precision, recall or f1.
func ParseTopicMode(s string) (TopicMode, error) {
	for _, m := range []TopicMode{TopicF1, TopicPrecision, TopicRecall} {
		if m.String() == s {
			return m, nil
		}
	}
	return 0, fmt.Errorf("unknown topic mode %q (want precision, recall or f1)", s)
}

// TopicAdherence asks a judge whether the agent kept to its reference topics,
// with ragas's arithmetic: a topic the AI answered and that falls under a
// reference topic is a true positive, answered and off-topic a false
// positive, refused and on-topic a false negative (refused and off-topic is
// what should happen, and counts nowhere); precision = TP/(TP+FP+1e-10),
// recall = TP/(TP+FN+1e-10), F1 = 2PR/(P+R+1e-10).
//
// ragas makes N+2 sequential calls for N topics. This makes 3 in 2 rounds:
// extract the topics, then judge refusals and classify all topics at once,
// both concurrently. A conversation in which the judge finds no topic scores
// 1 with a warning saying so (ragas gives NaN).
type TopicAdherence struct {
	Judge judgment.Judge
	Mode  TopicMode
}

// Name is "topic_adherence".
func (m TopicAdherence) Name() string { return "topic_adherence" }

// Evaluate judges the sample against its ReferenceTopics.
func (m TopicAdherence) Evaluate(ctx context.Context, s agentcheck.Sample) (Result, error) {
	if len(s.ReferenceTopics) == 0 {
		return Result{Metric: m.Name()}, fmt.Errorf("%s needs reference_topics, and the sample has none", m.Name())
	}
	if len(s.Conversation) == 0 {
		return Result{Metric: m.Name()}, fmt.Errorf("%s: the conversation is empty", m.Name())
	}
	r, err := judgeWith(ctx, m.Name(), m.Judge, func(ctx context.Context, j judgment.Judge) Verdict {
		return m.judgeOne(ctx, j, s)
	})
	if err != nil {
		return r, err
	}
	for _, v := range r.Verdicts {
		if v.Err == nil && len(v.Topics) == 0 {
			r.Warnings = append(r.Warnings, fmt.Sprintf("judge %s found no topics in the conversation, so there was nothing to stray from: scored 1", v.Model))
		}
	}
	if len(r.Verdicts) == 1 && r.Verdicts[0].Err == nil {
		r.Reason = r.Verdicts[0].Reason
	} else {
		r.Reason = fmt.Sprintf("%s aggregated over %d judges", m.Mode, len(r.Verdicts))
	}
	return r, nil
}

func (m TopicAdherence) judgeOne(ctx context.Context, j judgment.Judge, s agentcheck.Sample) Verdict {
	v := Verdict{Model: judgeName(j)}
	transcript := "Conversation:\n" + s.Conversation.String()
	var extracted struct {
		Topics []string `json:"topics"`
	}
	if err := ask(ctx, j, judgment.Question{
		Name:          "topic_extract",
		PromptVersion: TopicPromptVersion,
		Instructions:  topicExtractInstructions,
		Input:         transcript,
		Schema:        topicExtractSchema().v,
		SchemaJSON:    topicExtractSchema().json,
	}, &v, &extracted); err != nil {
		v.Err = err
		return v
	}
	topics := extracted.Topics
	if len(topics) == 0 {
		v.Score, v.Precision, v.Recall, v.F1Score = 1, 1, 1, 1
		v.Reason = "the judge found no topics raised by the human"
		return v
	}
	refused := make(map[string]bool, len(topics))
	onTopic := make(map[string]bool, len(topics))
	var refusalErr, classifyErr error
	var rv, cv Verdict // each goroutine accounts into its own verdict
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		refusalErr = ask(ctx, j, judgment.Question{
			Name:          "topic_refusal",
			PromptVersion: TopicPromptVersion,
			Instructions:  topicRefusalInstructions,
			Input:         transcript + "\n\nTopics:\n" + numberedTopics(topics),
			Schema:        perTopicSchema(len(topics)),
		}, &rv, &refused)
	}()
	go func() {
		defer wg.Done()
		classifyErr = ask(ctx, j, judgment.Question{
			Name:          "topic_classify",
			PromptVersion: TopicPromptVersion,
			Instructions:  topicClassifyInstructions,
			Input:         "Topics:\n" + numberedTopics(topics) + "\nAllowed topics:\n- " + strings.Join(s.ReferenceTopics, "\n- "),
			Schema:        perTopicSchema(len(topics)),
		}, &cv, &onTopic)
	}()
	wg.Wait()
	for _, x := range []Verdict{rv, cv} {
		v.Usage = v.Usage.Add(x.Usage)
		v.Duration += x.Duration
		if x.Model != "" {
			v.Model = x.Model
		}
	}
	if refusalErr != nil || classifyErr != nil {
		v.Err = joinErrs(refusalErr, classifyErr)
		return v
	}
	answered := make([]bool, len(topics))
	classes := make([]bool, len(topics))
	v.Topics = make([]TopicVerdict, len(topics))
	for i, t := range topics {
		answered[i] = !refused[topicKey(i)]
		classes[i] = onTopic[topicKey(i)]
		v.Topics[i] = TopicVerdict{Topic: t, Answered: answered[i], OnTopic: classes[i]}
	}
	v.Precision, v.Recall, v.F1Score = topicScores(answered, classes)
	switch m.Mode {
	case TopicPrecision:
		v.Score = v.Precision
	case TopicRecall:
		v.Score = v.Recall
	default:
		v.Score = v.F1Score
	}
	v.Reason = topicReason(v.Topics)
	return v
}

func joinErrs(a, b error) error {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return fmt.Errorf("%v; %v", a, b)
}

func topicReason(ts []TopicVerdict) string {
	var off, refusedOn []string
	for _, t := range ts {
		if t.Answered && !t.OnTopic {
			off = append(off, strconv.Quote(t.Topic))
		}
		if !t.Answered && t.OnTopic {
			refusedOn = append(refusedOn, strconv.Quote(t.Topic))
		}
	}
	var parts []string
	if len(off) > 0 {
		parts = append(parts, "answered off-topic "+strings.Join(off, ", "))
	}
	if len(refusedOn) > 0 {
		parts = append(parts, "refused on-topic "+strings.Join(refusedOn, ", "))
	}
	if len(parts) == 0 {
		if len(ts) == 1 {
			return "the 1 topic handled as it should be"
		}
		return fmt.Sprintf("all %d topics handled as they should be", len(ts))
	}
	return strings.Join(parts, "; ")
}

// topicScores is ragas's topic adherence arithmetic on per-topic flags:
// answered (not refused) and on-topic (under a reference topic). If the
// lists differ in length, the shorter is padded with false, as ragas pads
// its classifications.
func topicScores(answered, onTopic []bool) (precision, recall, f1 float64) {
	const eps = 1e-10
	n := max(len(answered), len(onTopic))
	tp, fp, fn := 0, 0, 0
	for i := 0; i < n; i++ {
		a := i < len(answered) && answered[i]
		o := i < len(onTopic) && onTopic[i]
		switch {
		case a && o:
			tp++
		case a && !o:
			fp++
		case !a && o:
			fn++
		}
	}
	precision = float64(tp) / (float64(tp+fp) + eps)
	recall = float64(tp) / (float64(tp+fn) + eps)
	f1 = 2 * (precision * recall) / (precision + recall + eps)
	return precision, recall, f1
}
