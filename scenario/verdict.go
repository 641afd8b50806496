package scenario

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/judgment"
)

// judgePromptVersion versions the judge's prompt; see userPromptVersion.
const judgePromptVersion = "scenario-judge/v1"

const judgeInstructions = `You judge a conversation between a user and an AI agent under test against criteria the agent's developer wrote, one verdict per criterion.
The conversation shows each message with its [number] and role: the user's messages, the agent's replies ("ai"), every tool call the agent made with its arguments (lines starting with "->"), and every tool result ("tool"; a result starting with "ERROR:" is a call that failed). It is the conversation so far: it may go on after this judgment.
Give each criterion one verdict:
- met: the conversation shows that the criterion holds.
- not_met: the conversation shows that it does not hold: the agent did what the criterion rules out, or the moment to do what it asks has passed without the agent doing it.
- inconclusive: the conversation does not show it either way yet.
Rely only on what the conversation shows: an action the agent announces, with no tool call and result to back it, did not happen. Judge each criterion by its own words, and nothing else.
Answer with JSON: criteria, a list with one entry for each criterion, in the order given, each with criterion (its text, exactly as given), verdict (met, not_met or inconclusive) and reason (one sentence naming the messages, by their [number], that decide it).`

// verdictSchema is the answer for these criteria: exactly one entry each,
// naming only these criteria, so that an answer that skips one or invents
// one does not fit and the judge client asks again.
func verdictSchema(criteria []string) map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"criteria": map[string]any{
				"type":     "array",
				"minItems": len(criteria),
				"maxItems": len(criteria),
				"items": map[string]any{
					"type": "object",
					"properties": map[string]any{
						"criterion": map[string]any{"type": "string", "enum": criteria},
						"verdict":   map[string]any{"type": "string", "enum": []string{"met", "not_met", "inconclusive"}},
						"reason":    map[string]any{"type": "string"},
					},
					"required":             []string{"criterion", "verdict", "reason"},
					"additionalProperties": false,
				},
			},
		},
		"required":             []string{"criteria"},
		"additionalProperties": false,
	}
}

// Judgment is the judge's decision on criteria at one point of a run.
type Judgment struct {
	// Turn is the turn after which the judgment was made.
	Turn int
	// When is "checkpoint" (a Checkpoint step), "turn" (JudgeEachTurn) or
	// "end" (the Criteria, when the run ended).
	When     string
	Criteria []string
	// Judges are the verdicts of the judge, or of each member of a panel.
	Judges []JudgeVerdict
	// Passed reports whether every criterion was met: by the one judge, or
	// by the panel's aggregation of its members (a member passes when it
	// found every criterion met) with no disagreement.
	Passed bool
	// Disagreement is the panel's, when its aggregation reports one.
	Disagreement string
}

// JudgeVerdict is one judge's verdicts on a judgment's criteria.
type JudgeVerdict struct {
	Model    string
	Criteria []CriterionVerdict
	// Err is why this judge gave no verdict (a panel leaves it out).
	Err              error
	Usage            judgment.Usage
	Source, Rerecord string
}

// CriterionVerdict is a judge's verdict on one criterion.
type CriterionVerdict struct {
	Criterion string
	// Verdict is "met", "not_met" or "inconclusive".
	Verdict string
	Reason  string
}

// allMet reports whether the judge found every criterion met.
func (v JudgeVerdict) allMet() bool {
	return v.Err == nil && !slices.ContainsFunc(v.Criteria, func(c CriterionVerdict) bool { return c.Verdict != "met" })
}

// anyNotMet reports whether the judge found some criterion not met.
func (v JudgeVerdict) anyNotMet() bool {
	return v.Err == nil && slices.ContainsFunc(v.Criteria, func(c CriterionVerdict) bool { return c.Verdict == "not_met" })
}

// judge asks every judge (the panel's members concurrently) whether the
// criteria hold of conv, and decides. The error is for no verdict at all:
// every judge failed; it wraps their errors.
func judge(ctx context.Context, h *hooks, j judgment.Judge, criteria []string, conv agentcheck.Conversation) (Judgment, error) {
	jd := Judgment{Criteria: criteria}
	members, agg := []judgment.Judge{j}, judgment.Aggregation{Method: judgment.Mean}
	if p, ok := j.(judgment.Panel); ok && len(p.Members()) > 0 {
		members, agg = p.Members(), p.Aggregation()
	}
	q := judgment.Question{
		Name:          "scenario_verdict",
		PromptVersion: judgePromptVersion,
		Instructions:  judgeInstructions,
		Input:         judgeInput(criteria, conv),
		Schema:        verdictSchema(criteria),
	}
	jd.Judges = make([]JudgeVerdict, len(members))
	if len(members) == 1 {
		jd.Judges[0] = askVerdict(ctx, h, members[0], q, criteria)
	} else {
		var wg sync.WaitGroup
		for i, m := range members {
			wg.Go(func() { jd.Judges[i] = askVerdict(ctx, h, m, q, criteria) })
		}
		wg.Wait()
	}
	var scores []float64
	var errs []error
	for _, v := range jd.Judges {
		if v.Err != nil {
			errs = append(errs, fmt.Errorf("judge %s: %w", v.Model, v.Err))
			continue
		}
		score := 0.0
		if v.allMet() {
			score = 1
		}
		scores = append(scores, score)
	}
	if len(scores) == 0 {
		if len(errs) == 1 {
			return jd, errs[0]
		}
		return jd, fmt.Errorf("every judge of the panel failed: %w", errors.Join(errs...))
	}
	score, disagreement, err := judgment.Aggregate(agg, scores)
	if err != nil {
		return jd, err
	}
	jd.Disagreement = disagreement
	jd.Passed = score >= 1 && disagreement == ""
	return jd, nil
}

// askVerdict asks one judge and checks that its answer gives a verdict on
// each criterion, once.
func askVerdict(ctx context.Context, h *hooks, j judgment.Judge, q judgment.Question, criteria []string) JudgeVerdict {
	v := JudgeVerdict{Model: modelOf(j)}
	a, err := h.ask(ctx, j, q)
	if a.Model != "" {
		v.Model = a.Model
	}
	v.Usage, v.Source, v.Rerecord = a.Usage, a.Source, a.Rerecord
	if err != nil {
		v.Err = err
		return v
	}
	var ans struct {
		Criteria []CriterionVerdict `json:"criteria"`
	}
	if err := json.Unmarshal(a.JSON, &ans); err != nil {
		v.Err = fmt.Errorf("scenario_verdict: the answer %.200q does not decode: %w", a.JSON, err)
		return v
	}
	// The schema fixes the count and the names; a name given twice leaves
	// another out. The order asked is restored.
	byName := make(map[string]CriterionVerdict, len(ans.Criteria))
	for _, c := range ans.Criteria {
		if _, dup := byName[c.Criterion]; dup {
			v.Err = fmt.Errorf("scenario_verdict: the answer gives criterion %q twice: %s", c.Criterion, a.JSON)
			return v
		}
		byName[c.Criterion] = c
	}
	v.Criteria = make([]CriterionVerdict, len(criteria))
	for i, c := range criteria {
		cv, ok := byName[c]
		if !ok {
			v.Err = fmt.Errorf("scenario_verdict: the answer gives no verdict on criterion %d (%q): %s", i+1, c, a.JSON)
			v.Criteria = nil
			return v
		}
		v.Criteria[i] = cv
	}
	return v
}

// judgeInput is the question's user message: the criteria, numbered, and
// the conversation, tool calls and results included.
func judgeInput(criteria []string, conv agentcheck.Conversation) string {
	var b strings.Builder
	b.WriteString("Criteria:\n")
	for i, c := range criteria {
		b.WriteString(strconv.Itoa(i+1) + ". " + c + "\n")
	}
	b.WriteString("\nConversation:\n")
	if slices.ContainsFunc(conv, func(m agentcheck.Message) bool { return m.IsError }) {
		conv = slices.Clone(conv)
		for i := range conv {
			if conv[i].IsError {
				conv[i].Content = "ERROR: " + conv[i].Content
			}
		}
	}
	b.WriteString(conv.String())
	return b.String()
}
