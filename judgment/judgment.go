// Package judgment is the protocol between agentcheck's judged metrics and
// the judges they ask: a Judge answers a Question with an Answer (JSON that
// fits the question's schema, with the tokens it cost and where it came
// from); a Panel is a Judge made of several whose scores Aggregate combines
// by an Aggregation (mean, min, majority, unanimous, consensus). Package
// metric's judged metrics ask it, package judge implements it over any
// OpenAI-compatible model, and a test may implement it with a script. It
// imports only the standard library.
package judgment

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
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

// consensusSlack absorbs the rounding of max-min, so that scores 0.8 and 0.6
// (a spread of 0.20000000000000007 in float64) are within a tolerance of 0.2.
const consensusSlack = 1e-9

// Aggregate combines a panel's scores, one per judge that gave a verdict, by
// the aggregation's method; the zero Aggregation is Mean.
//
//   - Mean: the arithmetic mean, summed in order.
//   - Min: the lowest score.
//   - Majority: a score of at least 0.5 is a vote to pass; 1 when more than
//     half the judges vote to pass, else 0. A tie gives 0: a panel that cannot
//     agree has not passed.
//   - Unanimous: 1 when every judge votes to pass (score at least 0.5), else 0.
//     On binary scores that is "1 only if all are 1"; on scores such as topic
//     adherence's F1, which is never exactly 1, it still means something.
//   - Consensus: the mean when the scores' spread (max - min) is at most
//     Tolerance; otherwise 0, as for a Majority tie (a panel that cannot
//     agree has not passed), and a disagreement that gives the scores, how
//     far apart they are and their mean. A disagreement is a result, not an
//     error, and a failure in every front end: a score of 0 fails every
//     threshold of the CLI and evalsuite, and the checks and matchers fail
//     it either way (To and NotTo) with the judges' verdicts and reasons.
//
// The error is for what cannot be aggregated: no scores, a NaN or infinite
// score, a negative tolerance, an unknown method. It never panics.
func Aggregate(agg Aggregation, scores []float64) (score float64, disagreement string, err error) {
	if len(scores) == 0 {
		return 0, "", fmt.Errorf("no scores to aggregate: every judge failed or none was asked")
	}
	for i, s := range scores {
		if math.IsNaN(s) || math.IsInf(s, 0) {
			return 0, "", fmt.Errorf("cannot aggregate score %d of %d: %v is not a number in [0, 1]", i+1, len(scores), s)
		}
	}
	votes := 0
	for _, s := range scores {
		if s >= 0.5 {
			votes++
		}
	}
	switch agg.Method {
	case Mean, "":
		return mean(scores), "", nil
	case Min:
		return slices.Min(scores), "", nil
	case Majority:
		if 2*votes > len(scores) {
			return 1, "", nil
		}
		return 0, "", nil
	case Unanimous:
		if votes == len(scores) {
			return 1, "", nil
		}
		return 0, "", nil
	case Consensus:
		if agg.Tolerance < 0 || math.IsNaN(agg.Tolerance) {
			return 0, "", fmt.Errorf("consensus tolerance %v: want a number >= 0", agg.Tolerance)
		}
		lo, hi := slices.Min(scores), slices.Max(scores)
		m := mean(scores)
		if hi-lo <= agg.Tolerance+consensusSlack {
			return m, "", nil
		}
		parts := make([]string, len(scores))
		for i, s := range scores {
			parts[i] = strconv.FormatFloat(s, 'g', 4, 64)
		}
		return 0, fmt.Sprintf("judges disagree: scores [%s] spread %.4g, more than the tolerance %.4g, so the panel scores 0 (their mean is %.4g)",
			strings.Join(parts, ", "), hi-lo, agg.Tolerance, m), nil
	}
	return 0, "", fmt.Errorf("unknown aggregation method %q (want mean, majority, min, unanimous or consensus)", agg.Method)
}

func mean(scores []float64) float64 {
	sum := 0.0
	for _, s := range scores {
		sum += s
	}
	return sum / float64(len(scores))
}
