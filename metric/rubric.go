package metric

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/judgment"
)

// RubricPromptVersion versions the trajectory rubric prompts below; see
// GoalPromptVersion for why.
const RubricPromptVersion = "rubric/v1"

const rubricInstructions = `You grade the trajectory of an AI agent against a rubric its developer wrote.
The trajectory is the whole run: the human's messages, the agent's replies, every tool call the agent made with its arguments (lines starting with "->"), and every tool result (tool messages; a result starting with "ERROR:" is a call that failed).
Decide whether the trajectory satisfies the rubric. Rely only on what the trajectory shows: an action the agent announces but no tool call and result confirm did not happen. Order matters where the rubric asks for it, and where a call uses what an earlier result returned.
Answer with JSON:
- reason: one to three sentences naming the messages (by their [number]) and calls that decide the verdict.
- satisfied: true only if the trajectory meets every requirement of the rubric, false otherwise.`

const rubricCriteriaInstructions = `
The rubric's requirements are also listed as numbered criteria (criterion_1, criterion_2, ...). For each criterion answer met (true or false) and a reason of one sentence that points at the messages deciding it. satisfied must be true exactly when every criterion is met.`

const rubricReferenceInstructions = `
You also get a reference trajectory: the tool calls, in order, of a run known to be correct. The rubric may refer to it. Where it does not, treat it as one good way to do the task, not the only one: a run that takes other steps still satisfies the rubric if it meets the rubric's requirements.`

// rubricSchema is the answer without criteria; rubricCriteriaSchema(n) adds
// one verdict per criterion under keys criterion_1..criterion_n, all of
// them required, so that the judge can neither skip nor add one.
var rubricSchema = lazySchema(func() map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"reason":    map[string]any{"type": "string"},
			"satisfied": map[string]any{"type": "boolean"},
		},
		"required":             []string{"reason", "satisfied"},
		"additionalProperties": false,
	}
})

func rubricCriteriaSchema(n int) map[string]any {
	props := make(map[string]any, n)
	required := make([]string, n)
	for i := range required {
		k := criterionKey(i)
		props[k] = map[string]any{
			"type": "object",
			"properties": map[string]any{
				"reason": map[string]any{"type": "string"},
				"met":    map[string]any{"type": "boolean"},
			},
			"required":             []string{"reason", "met"},
			"additionalProperties": false,
		}
		required[i] = k
	}
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"criteria": map[string]any{
				"type":                 "object",
				"properties":           props,
				"required":             required,
				"additionalProperties": false,
			},
			"reason":    map[string]any{"type": "string"},
			"satisfied": map[string]any{"type": "boolean"},
		},
		"required":             []string{"criteria", "reason", "satisfied"},
		"additionalProperties": false,
	}
}

func criterionKey(i int) string { return "criterion_" + strconv.Itoa(i+1) }

// maxRubricCriteria bounds the criteria of one rubric: each is a required
// key of the answer's schema.
const maxRubricCriteria = 50

// TrajectoryRubric asks a judge whether the agent's trajectory (the
// conversation with its tool calls and their results) satisfies a rubric
// the test's author writes: 1 if it does, 0 if not, in one call per judge.
// A panel's members each judge the whole trajectory and their scores are
// aggregated, as for AgentGoalAccuracy.
//
// A rubric written as a list, with one criterion per line starting with
// "-", "*" or a number ("1." or "1)"), is judged criterion by criterion:
// the answer's schema requires a verdict and a reason for each, and the
// trajectory satisfies the rubric exactly when every criterion is met. An
// answer whose overall verdict contradicts its criteria is reported as that
// judge's error, not scored. Lines that are not list items (a heading such
// as "The agent must:") are context for the judge; an indented line
// continues the criterion above it.
type TrajectoryRubric struct {
	Judge judgment.Judge
	// Rubric says what a good trajectory does, in the author's words.
	Rubric string
	// Reference shows the judge the sample's ReferenceToolCalls as the
	// trajectory of a correct run; the sample must then have them.
	Reference bool
}

// Name is "trajectory_rubric".
func (m TrajectoryRubric) Name() string { return "trajectory_rubric" }

// CriterionVerdict is a judge's verdict on one criterion of a rubric.
type CriterionVerdict struct {
	Criterion string
	Met       bool
	Reason    string
}

// RubricCriteria are the criteria TrajectoryRubric judges one by one: the
// rubric's list items, in order; none when the rubric is not a list.
func RubricCriteria(rubric string) []string {
	var out []string
	inItem := false
	for _, line := range strings.Split(rubric, "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" {
			inItem = false
			continue
		}
		if item, ok := listItem(trimmed); ok {
			out = append(out, item)
			inItem = true
			continue
		}
		if indented := line[0] == ' ' || line[0] == '\t'; inItem && indented {
			out[len(out)-1] += " " + trimmed
			continue
		}
		inItem = false
	}
	return out
}

// listItem is the text of a list item ("- x", "* x", "1. x", "1) x").
func listItem(line string) (string, bool) {
	if rest, ok := strings.CutPrefix(line, "- "); ok {
		return strings.TrimSpace(rest), strings.TrimSpace(rest) != ""
	}
	if rest, ok := strings.CutPrefix(line, "* "); ok {
		return strings.TrimSpace(rest), strings.TrimSpace(rest) != ""
	}
	digits := strings.IndexFunc(line, func(r rune) bool { return !unicode.IsDigit(r) })
	if digits <= 0 || digits > 3 || digits+1 >= len(line) {
		return "", false
	}
	if (line[digits] == '.' || line[digits] == ')') && line[digits+1] == ' ' {
		rest := strings.TrimSpace(line[digits+2:])
		return rest, rest != ""
	}
	return "", false
}

// Evaluate judges the sample's trajectory against the rubric.
func (m TrajectoryRubric) Evaluate(ctx context.Context, s agentcheck.Sample) (Result, error) {
	r, _, err := m.EvaluateCriteria(ctx, s)
	return r, err
}

// EvaluateCriteria is Evaluate with each judge's verdicts on the rubric's
// criteria: criteria[i] belongs to the result's Verdicts[i], and is nil for
// a judge that failed or a rubric that is not a list.
func (m TrajectoryRubric) EvaluateCriteria(ctx context.Context, s agentcheck.Sample) (r Result, criteria [][]CriterionVerdict, err error) {
	if strings.TrimSpace(m.Rubric) == "" {
		return Result{Metric: m.Name()}, nil, fmt.Errorf("%s needs a rubric: set TrajectoryRubric.Rubric to what a good trajectory does", m.Name())
	}
	if len(s.Conversation) == 0 {
		return Result{Metric: m.Name()}, nil, fmt.Errorf("%s: the conversation is empty", m.Name())
	}
	if m.Reference && s.ReferenceToolCalls == nil {
		return Result{Metric: m.Name()}, nil, fmt.Errorf("%s with Reference needs reference_tool_calls, and the sample has none", m.Name())
	}
	names := RubricCriteria(m.Rubric)
	if len(names) > maxRubricCriteria {
		return Result{Metric: m.Name()}, nil, fmt.Errorf("%s: the rubric lists %d criteria, more than %d; split it into several rubrics", m.Name(), len(names), maxRubricCriteria)
	}
	q := m.question(s, names)

	// judgeWith hands each member to the judgment alone; numbering the
	// members tells which verdict a judgment's criteria belong to.
	j := m.Judge
	var n int
	switch p, ok := j.(judgment.Panel); {
	case ok && len(p.Members()) > 0:
		members := p.Members()
		numbered := make([]judgment.Judge, len(members))
		for i, mb := range members {
			numbered[i] = numberedJudge{mb, i}
		}
		j, n = numberedPanel{p, numbered}, len(members)
	case j != nil:
		j, n = numberedJudge{j, 0}, 1
	}
	criteria = make([][]CriterionVerdict, n)
	r, err = judgeWith(ctx, m.Name(), j, func(ctx context.Context, j judgment.Judge) Verdict {
		nj := j.(numberedJudge)
		v, cs := judgeRubric(ctx, nj.Judge, q, names)
		criteria[nj.i] = cs
		return v
	})
	if err != nil {
		return r, criteria, err
	}
	satisfied, judged := r.Votes()
	r.Reason = fmt.Sprintf("%d of %d judges found the trajectory satisfies the rubric", satisfied, judged)
	if len(r.Verdicts) == 1 {
		r.Reason = r.Verdicts[0].Reason
	}
	return r, criteria, nil
}

type numberedJudge struct {
	judgment.Judge
	i int
}

func (j numberedJudge) Model() string { return judgeName(j.Judge) }

type numberedPanel struct {
	judgment.Panel
	members []judgment.Judge
}

func (p numberedPanel) Members() []judgment.Judge { return p.members }

// question is what every judge is asked about the sample.
func (m TrajectoryRubric) question(s agentcheck.Sample, criteria []string) judgment.Question {
	q := judgment.Question{
		Name:          "trajectory_rubric",
		PromptVersion: RubricPromptVersion,
		Instructions:  rubricInstructions,
		Schema:        rubricSchema().v,
		SchemaJSON:    rubricSchema().json,
	}
	var in strings.Builder
	in.WriteString("Rubric:\n" + strings.TrimSpace(m.Rubric) + "\n")
	if len(criteria) > 0 {
		q.Instructions += rubricCriteriaInstructions
		q.Schema, q.SchemaJSON = rubricCriteriaSchema(len(criteria)), nil
		in.WriteString("\nCriteria:\n")
		for i, c := range criteria {
			fmt.Fprintf(&in, "%s: %s\n", criterionKey(i), c)
		}
	}
	if m.Reference {
		q.Instructions += rubricReferenceInstructions
		in.WriteString("\nReference trajectory (tool calls of a correct run, in order):\n")
		if len(s.ReferenceToolCalls) == 0 {
			in.WriteString("(no tool calls: a correct run calls no tool)\n")
		}
		for i, tc := range s.ReferenceToolCalls {
			fmt.Fprintf(&in, "[%d] %s\n", i, tc)
		}
	}
	in.WriteString("\nTrajectory:\n" + trajectoryText(s.Conversation))
	q.Input = in.String()
	return q
}

// trajectoryText is the conversation as Conversation.String renders it,
// with the results of failed tool calls marked "ERROR:".
func trajectoryText(c agentcheck.Conversation) string {
	if !slices.ContainsFunc(c, func(m agentcheck.Message) bool { return m.IsError }) {
		return c.String()
	}
	marked := slices.Clone(c)
	for i := range marked {
		if marked[i].IsError {
			marked[i].Content = "ERROR: " + marked[i].Content
		}
	}
	return marked.String()
}

// judgeRubric asks one judge, and checks that its verdict on the whole
// agrees with its verdicts on the criteria.
func judgeRubric(ctx context.Context, j judgment.Judge, q judgment.Question, names []string) (Verdict, []CriterionVerdict) {
	v := Verdict{Model: judgeName(j)}
	var answer struct {
		Criteria  map[string]json.RawMessage `json:"criteria"`
		Reason    string                     `json:"reason"`
		Satisfied bool                       `json:"satisfied"`
	}
	if err := ask(ctx, j, q, &v, &answer); err != nil {
		v.Err = err
		return v, nil
	}
	var cs []CriterionVerdict
	allMet := true
	var unmet []string
	for i, name := range names {
		var c struct {
			Reason string `json:"reason"`
			Met    bool   `json:"met"`
		}
		raw, ok := answer.Criteria[criterionKey(i)]
		if !ok {
			v.Err = fmt.Errorf("%s: the answer has no verdict on %s (%q)", q.Name, criterionKey(i), name)
			return v, nil
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			v.Err = fmt.Errorf("%s: the verdict on %s does not decode: %w", q.Name, criterionKey(i), err)
			return v, nil
		}
		cs = append(cs, CriterionVerdict{Criterion: name, Met: c.Met, Reason: c.Reason})
		if !c.Met {
			allMet = false
			unmet = append(unmet, strconv.Itoa(i+1))
		}
	}
	if len(names) > 0 && answer.Satisfied != allMet {
		if answer.Satisfied {
			what := "criterion " + unmet[0] + " is"
			if len(unmet) > 1 {
				what = "criteria " + strings.Join(unmet, ", ") + " are"
			}
			v.Err = fmt.Errorf("%s: the answer contradicts itself: satisfied is true, but %s not met; reason: %q", q.Name, what, answer.Reason)
		} else {
			v.Err = fmt.Errorf("%s: the answer contradicts itself: satisfied is false, but every criterion is met; reason: %q", q.Name, answer.Reason)
		}
		return v, nil
	}
	v.Reason = answer.Reason
	if answer.Satisfied {
		v.Score = 1
	}
	return v, cs
}
