package metric

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/agentcheck/agentcheck/judgment"
)

// Verdict is one judge's judgment of a sample.
type Verdict struct {
	Model    string
	Score    float64
	Reason   string
	Usage    judgment.Usage
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
func judgeWith(ctx context.Context, metric string, j judgment.Judge, judgeOne func(context.Context, judgment.Judge) Verdict) (Result, error) {
	r := Result{Metric: metric}
	if j == nil {
		return r, fmt.Errorf("%s needs a judge: set the metric's Judge (see package judge)", metric)
	}
	members, agg := []judgment.Judge{j}, judgment.Aggregation{Method: judgment.Mean}
	if p, ok := j.(judgment.Panel); ok && len(p.Members()) > 0 {
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
	score, disagreement, err := judgment.Aggregate(agg, scores)
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
func ask(ctx context.Context, j judgment.Judge, q judgment.Question, v *Verdict, out any) error {
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
func judgeName(j judgment.Judge) string {
	if n, ok := j.(interface{ Model() string }); ok {
		return n.Model()
	}
	return fmt.Sprintf("%T", j)
}
