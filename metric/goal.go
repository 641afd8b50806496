package metric

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/judgment"
)

// GoalPromptVersion versions the goal-accuracy prompts below. Change it
// whenever their text or schemas change: cassettes recorded with another
// version then miss, and say so, instead of replaying stale judgments.
const GoalPromptVersion = "goal/v1"

const goalInferInstructions = `You review the transcript of a conversation between a human and an AI agent that can call tools.
Work out two things and report them as JSON:
- user_goal: what the human wanted to have achieved by the end of the conversation, in one or two sentences. Combine goals stated over several turns; ignore small talk.
- end_state: what had actually been achieved when the conversation ended, in one or two sentences, based only on what the transcript shows (tool results and the agent's messages). Do not assume success the transcript does not show.`

const goalCompareInstructions = `You decide whether an AI agent achieved a desired outcome.
You get the desired outcome and the end state the conversation reached.
Answer achieved=true only if the end state delivers everything essential to the desired outcome; wording may differ, but a missing, wrong or unconfirmed essential detail means achieved=false.
Give the reason in one or two sentences that name what matched or what is missing.`

// The answer schemas are made on first use, with their JSON (written
// once: a judge would otherwise marshal them for every request): a program
// that asks no judge, such as eval of the tool-call metrics, builds none
// of their maps when it starts.
var goalInferSchema = lazySchema(func() map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"user_goal": map[string]any{"type": "string"},
			"end_state": map[string]any{"type": "string"},
		},
		"required":             []string{"user_goal", "end_state"},
		"additionalProperties": false,
	}
})

var goalCompareSchema = lazySchema(func() map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"reason":   map[string]any{"type": "string"},
			"achieved": map[string]any{"type": "boolean"},
		},
		"required":             []string{"reason", "achieved"},
		"additionalProperties": false,
	}
})

// schema is a judge's answer schema and its JSON.
type schema struct {
	v    map[string]any
	json json.RawMessage
}

// lazySchema is the schema build makes, made on first use.
func lazySchema(build func() map[string]any) func() *schema {
	return sync.OnceValue(func() *schema {
		v := build()
		return &schema{v: v, json: mustMarshal(v)}
	})
}

func mustMarshal(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// AgentGoalAccuracy asks a judge whether the agent achieved the human's goal:
// 1 if it did, 0 if not. It makes two calls, one after the other, as ragas
// does: the judge infers the user's goal and the end state from the
// conversation, then compares the end state with the desired outcome: the
// sample's Reference when it has one, else the inferred goal.
type AgentGoalAccuracy struct {
	Judge judgment.Judge
	// WithoutReference ignores the sample's Reference and compares with the
	// inferred goal (ragas's AgentGoalAccuracyWithoutReference). A sample
	// without a Reference is always judged this way.
	WithoutReference bool
}

// Name is "agent_goal_accuracy".
func (m AgentGoalAccuracy) Name() string { return "agent_goal_accuracy" }

// Evaluate judges the sample.
func (m AgentGoalAccuracy) Evaluate(ctx context.Context, s agentcheck.Sample) (Result, error) {
	if len(s.Conversation) == 0 {
		return Result{Metric: m.Name()}, fmt.Errorf("%s: the conversation is empty", m.Name())
	}
	useReference := !m.WithoutReference && s.Reference != ""
	r, err := judgeWith(ctx, m.Name(), m.Judge, func(ctx context.Context, j judgment.Judge) Verdict {
		return m.judgeOne(ctx, j, s, useReference)
	})
	if err != nil {
		return r, err
	}
	achieved, _ := r.Votes()
	against := "the inferred goal"
	if useReference {
		against = "the reference outcome"
	}
	r.Reason = fmt.Sprintf("%d of %d judges found the end state achieves %s", achieved, len(r.Verdicts), against)
	if len(r.Verdicts) == 1 && r.Verdicts[0].Err == nil {
		r.Reason = r.Verdicts[0].Reason
	}
	return r, nil
}

func (m AgentGoalAccuracy) judgeOne(ctx context.Context, j judgment.Judge, s agentcheck.Sample, useReference bool) Verdict {
	v := Verdict{Model: judgeName(j)}
	var inferred struct {
		UserGoal string `json:"user_goal"`
		EndState string `json:"end_state"`
	}
	err := ask(ctx, j, judgment.Question{
		Name:          "agent_goal_infer",
		PromptVersion: GoalPromptVersion,
		Instructions:  goalInferInstructions,
		Input:         "Conversation:\n" + s.Conversation.String(),
		Schema:        goalInferSchema().v,
		SchemaJSON:    goalInferSchema().json,
	}, &v, &inferred)
	if err != nil {
		v.Err = err
		return v
	}
	v.UserGoal, v.EndState = inferred.UserGoal, inferred.EndState
	desired := inferred.UserGoal
	if useReference {
		desired = s.Reference
	}
	var verdict struct {
		Reason   string `json:"reason"`
		Achieved bool   `json:"achieved"`
	}
	err = ask(ctx, j, judgment.Question{
		Name:          "agent_goal_compare",
		PromptVersion: GoalPromptVersion,
		Instructions:  goalCompareInstructions,
		Input:         "Desired outcome:\n" + desired + "\n\nEnd state:\n" + inferred.EndState,
		Schema:        goalCompareSchema().v,
		SchemaJSON:    goalCompareSchema().json,
	}, &v, &verdict)
	if err != nil {
		v.Err = err
		return v
	}
	v.Reason = verdict.Reason
	if verdict.Achieved {
		v.Score = 1
	}
	return v
}
