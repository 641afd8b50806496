package metric

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Judge answers one question with JSON that fits the question's schema.
// The judge package implements it with any OpenAI-compatible model, recorded
// to and replayed from cassettes; tests may implement it with a script.
type Judge interface {
	Ask(ctx context.Context, q Question) (Answer, error)
}

// Question is one request to a judge.
type Question struct {
	// Name identifies the question and names its output schema, e.g.
	// "agent_goal_infer". Letters, digits and underscores.
	Name string
	// PromptVersion is the version of the prompt texts, e.g. "goal/v1". It is
	// sent along so that a cassette recorded with another version misses, and
	// says why.
	PromptVersion string
	// Instructions is the system message; Input the user message.
	Instructions string
	Input        string
	// Schema is the JSON schema the answer must fit, strict in OpenAI's
	// sense: every property required, additionalProperties false.
	Schema map[string]any
	// SchemaJSON, when set, is Schema already written as JSON; the judge
	// then uses it as it is and need not marshal Schema for every request.
	// The metrics set both from the same constant.
	SchemaJSON json.RawMessage
}

// Answer is a judge's reply to a Question.
type Answer struct {
	// JSON is the answer, already checked against the question's schema.
	JSON     json.RawMessage
	Model    string
	Usage    Usage
	Duration time.Duration
	// Attempts counts the requests made, retries included.
	Attempts int
	// PromptVersion is the version of the prompt the question was asked
	// with (Question.PromptVersion).
	PromptVersion string
	// Source says where the answer came from: a cassette path, or "live".
	Source string
	// Rerecord is the command that records the answer anew, when it came
	// from a cassette.
	Rerecord string
}

// Usage is the tokens a judgment cost.
type Usage struct {
	PromptTokens     int
	CompletionTokens int
}

// Total is prompt plus completion tokens.
func (u Usage) Total() int { return u.PromptTokens + u.CompletionTokens }

// Add returns the sum of two usages.
func (u Usage) Add(v Usage) Usage {
	return Usage{u.PromptTokens + v.PromptTokens, u.CompletionTokens + v.CompletionTokens}
}

// Panel is a Judge made of several judges whose verdicts are aggregated.
// A judged metric given a Panel runs its whole judgment once per member,
// concurrently, and aggregates the members' scores; a member that fails is
// dropped with its cause kept in the result.
type Panel interface {
	Judge
	Members() []Judge
	Aggregation() Aggregation
}

// Aggregation says how a panel's scores become one.
type Aggregation struct {
	Method AggregationMethod
	// Tolerance is the largest spread of scores Consensus accepts.
	Tolerance float64
}

// AggregationMethod is the rule of an Aggregation.
type AggregationMethod string

// The aggregation methods. Mean is the default, as in spring-ai-ragas.
const (
	Mean      AggregationMethod = "mean"
	Majority  AggregationMethod = "majority"
	Min       AggregationMethod = "min"
	Unanimous AggregationMethod = "unanimous"
	Consensus AggregationMethod = "consensus"
)

// Verdict is one judge's judgment of a sample.
type Verdict struct {
	Model    string
	Score    float64
	Reason   string
	Usage    Usage
	Duration time.Duration
	// Source is where the judge's answers came from (cassette path or
	// "live"); Rerecord the command that records them anew.
	Source   string
	Rerecord string
	// PromptVersion is the version of the prompts the judgment used.
	PromptVersion string
	// Err is why this judge gave no verdict; it was left out of the score.
	Err error

	// Goal accuracy: the goal and end state the judge inferred.
	UserGoal string
	EndState string
	// Topic adherence: each topic with its flags, and the counts behind P/R/F1.
	Topics                     []TopicVerdict
	Precision, Recall, F1Score float64
}

// Votes counts the judges that gave a verdict, and those of them that scored
// 1 (for goal accuracy: found the goal achieved). Failed judges count in
// neither.
func (r Result) Votes() (passed, judged int) {
	for _, v := range r.Verdicts {
		if v.Err == nil {
			judged++
			if v.Score == 1 {
				passed++
			}
		}
	}
	return passed, judged
}

// TopicVerdict is one topic the human raised, as the judge saw it.
type TopicVerdict struct {
	Topic    string
	Answered bool // the AI answered rather than refused
	OnTopic  bool // the topic falls under a reference topic
}

// judgeWith runs one judgment per judge: once with a single judge, once per
// member, concurrently, with a Panel. Members that fail are kept as verdicts
// with Err set and left out of the score; if every member fails, so does the
// evaluation.
func judgeWith(ctx context.Context, metric string, j Judge, judgeOne func(context.Context, Judge) Verdict) (Result, error) {
	r := Result{Metric: metric}
	if j == nil {
		return r, fmt.Errorf("%s needs a judge: set the metric's Judge (see package judge)", metric)
	}
	members, agg := []Judge{j}, Aggregation{Method: Mean}
	if p, ok := j.(Panel); ok && len(p.Members()) > 0 {
		members, agg = p.Members(), p.Aggregation()
	}
	r.Verdicts = make([]Verdict, len(members))
	if len(members) == 1 {
		r.Verdicts[0] = judgeOne(ctx, members[0])
	} else {
		var wg sync.WaitGroup
		for i, m := range members {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r.Verdicts[i] = judgeOne(ctx, m)
			}()
		}
		wg.Wait()
	}
	var scores []float64
	var failed []string
	// causes are the failed judges' models and errors, for an error that
	// wraps them all: errors.Is(err, context.Canceled) tells an interrupted
	// evaluation, errors.As a cassette's replay miss.
	var causes []any
	for _, v := range r.Verdicts {
		r.Usage = r.Usage.Add(v.Usage)
		if v.Err != nil {
			failed = append(failed, fmt.Sprintf("%s: %v", v.Model, v.Err))
			causes = append(causes, v.Model, v.Err)
			continue
		}
		scores = append(scores, v.Score)
	}
	if len(scores) == 0 {
		format := "%s: every judge failed: " + strings.Repeat("; %s: %w", len(failed))[2:]
		return r, fmt.Errorf(format, append([]any{metric}, causes...)...)
	}
	score, disagreement, err := Aggregate(agg, scores)
	if err != nil {
		return r, fmt.Errorf("%s: %w", metric, err)
	}
	r.Score, r.Disagreement = score, disagreement
	if len(failed) > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d of %d judges failed and were left out: %s", len(failed), len(members), strings.Join(failed, "; ")))
	}
	return r, nil
}

// ask poses a question and decodes the answer into out, adding what it cost
// to the verdict. A judge returns only answers that fit the schema; decoding
// can still fail if the schema and out disagree, which is a bug here.
func ask(ctx context.Context, j Judge, q Question, v *Verdict, out any) error {
	a, err := j.Ask(ctx, q)
	v.PromptVersion = q.PromptVersion
	if a.Model != "" {
		v.Model = a.Model
	}
	v.Usage = v.Usage.Add(a.Usage)
	v.Duration += a.Duration
	if a.Source != "" {
		v.Source, v.Rerecord = a.Source, a.Rerecord
	}
	if err != nil {
		return fmt.Errorf("%s: %w", q.Name, err)
	}
	if err := json.Unmarshal(a.JSON, out); err != nil {
		more := ""
		if utf8.RuneCount(a.JSON) > 200 {
			more = "..."
		}
		return fmt.Errorf("%s: the answer %.200q%s does not decode: %w", q.Name, a.JSON, more, err)
	}
	return nil
}

// judgeName is a judge's model for verdicts before it has answered.
func judgeName(j Judge) string {
	if n, ok := j.(interface{ Model() string }); ok {
		return n.Model()
	}
	return fmt.Sprintf("%T", j)
}
