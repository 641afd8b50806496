package agentcheck_test

// The peer conformance test: every case of testdata/peer-suites (675 tests
// of six other frameworks' own suites, with their verdicts, and 2518 more
// BFCL cases whose verdicts BFCL's own checker gave) runs through
// agentcheck's public API, the peer's mode mapped to agentcheck's options,
// and must get the peer's verdict, except for the deliberate differences
// listed below and in conformance_bfcl_test.go, each with its reason.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/trajectory"
)

type peerCall struct {
	Name     string          `json:"name"`
	Type     string          `json:"type"`
	Args     json.RawMessage `json:"args"`
	ArgsJSON *string         `json:"args_json"`
	Output   json.RawMessage `json:"output"`
}

type peerMessage struct {
	Role      string     `json:"role"`
	ToolCalls []peerCall `json:"tool_calls"`
}

type peerCase struct {
	ID                string         `json:"id"`
	Peer              string         `json:"peer"`
	Kind              string         `json:"kind"`
	Options           map[string]any `json:"options"`
	Actual            []peerCall     `json:"actual"`
	Expected          []peerCall     `json:"expected"`
	ActualMessages    []peerMessage  `json:"actual_messages"`
	ReferenceMessages []peerMessage  `json:"reference_messages"`
	Invocations       []struct{ Actual, Expected []peerCall }
	Functions         json.RawMessage               `json:"functions"`
	PossibleAnswer    json.RawMessage               `json:"possible_answer"`
	OtherSteps        []struct{ Type, Name string } `json:"other_steps"`
	RawOutput         json.RawMessage               `json:"raw_output"`
	Verdict           struct {
		Pass       *bool    `json:"pass"`
		Score      *float64 `json:"score"`
		ScoreClose *float64 `json:"score_close"`
		Digits     int      `json:"digits"`
	} `json:"peer_verdict"`
}

// deliberate are the cases where agentcheck decides otherwise on purpose:
// a test framework should be strict and clear. Each says why, and which
// option (if any) gives the peer's answer.
var deliberate = map[string]string{
	// deepeval matches identical repeated calls only once (its own bug).
	"deepeval/test_core/test_tool_correctness_metric.py::test_correct_ordering_reason[names]":                                      "deepeval counts a repeated call once: [A, B, A] against itself scores 0.667; agentcheck pairs calls one to one and scores 1",
	"deepeval/test_core/test_tool_correctness_metric.py::test_reordered_repeated_tool_reason_is_not_empty[names]":                  "deepeval counts a repeated call once: two WebSearch calls made against two expected score 0.667; agentcheck pairs them one to one and scores 1",
	"deepeval/probe::duplicate_identical_calls_issue_3141":                                                                         "deepeval counts a repeated call once (its issue 3141): two identical calls against two expected score 0.5; agentcheck scores 1",
	"deepeval/test_metrics/test_tool_correctness_metric_empty_expected.py::test_tool_correctness_empty_expected_nonempty_called#0": "with nothing expected, deepeval scores a call 0 although it does not penalise extra calls otherwise; agentcheck's recall of nothing expected is 1 (trajectory.Unordered fails the extra call)",
	// promptfoo drops arguments equal to a declared default, even asserted ones.
	"promptfoo/trajectory.test.ts::defaults > fails in partial mode when a key in both args and defaults is stripped to nothing": "promptfoo drops an argument equal to its declared default before comparing, so an argument both asserted and defaulted never matches; agentcheck matches it (a default only lets the argument be left out, agenttest.Optional)",
	// vitest-evals' fuzzy preset matches any case-insensitive substring.
	// promptfoo's command steps are spans of its own traces.
	"promptfoo/trajectory.test.ts::trajectory:step-count > counts steps by type":                                                            "promptfoo counts the shell-command spans of its own traces; agentcheck's transcripts have tool calls, text answers and reasoning (agenttest.CheckSteps), not commands",
	"vitest-evals/toolCallScorer.test.ts::ToolCallScorer > complex scenarios > fuzzyOptions should merge with defaults, not replace them#0": `vitest-evals' fuzzy preset accepts any substring ("weath" matches "weather"); agentcheck's case-insensitive comparison (trajectory.CaseInsensitive) does not`,
}

// loadPeerCases is the cases of testdata/peer-suites, read once for the
// tests that use them (5 MB of JSON: half a second of CPU under -race).
// The cases are shared: a test reads them and never changes them.
func loadPeerCases(t *testing.T) []peerCase {
	t.Helper()
	cases, err := peerCases()
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

var peerCases = sync.OnceValues(func() ([]peerCase, error) {
	files, err := filepath.Glob(filepath.Join("testdata", "peer-suites", "*.jsonl"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no peer suites in testdata/peer-suites: %v", err)
	}
	var cases []peerCase
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<20)
		for line := 1; sc.Scan(); line++ {
			var c peerCase
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", f, line, err)
			}
			cases = append(cases, c)
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
	}
	return cases, nil
})

func TestPeerConformance(t *testing.T) {
	cases := loadPeerCases(t)
	if len(cases) != 3193 {
		t.Fatalf("%d peer cases, want 3193", len(cases))
	}
	agree := map[string]int{}
	total := map[string]int{}
	for _, c := range cases {
		total[c.Peer]++
		t.Run(c.Peer+"/"+c.ID, func(t *testing.T) {
			if why, ok := deliberate[c.ID]; ok {
				t.Skip("deliberate difference: " + why)
			}
			got, err := runPeerCase(c)
			if err != nil {
				t.Fatalf("cannot express: %v", err)
			}
			if c.Verdict.Pass != nil && got.pass != *c.Verdict.Pass {
				t.Fatalf("pass = %v, %s says %v (score %v)\n%s", got.pass, c.Peer, *c.Verdict.Pass, got.score, got.why)
			}
			if c.Verdict.Score != nil && got.scored && math.Abs(got.score-*c.Verdict.Score) > 1e-9 {
				t.Fatalf("score = %v, %s says %v\n%s", got.score, c.Peer, *c.Verdict.Score, got.why)
			}
			if sc := c.Verdict.ScoreClose; sc != nil && math.Abs(got.score-*sc) > 0.5*math.Pow(10, -float64(c.Verdict.Digits)) {
				t.Fatalf("score = %v, %s says %v to %d digits\n%s", got.score, c.Peer, *sc, c.Verdict.Digits, got.why)
			}
			if c.Verdict.Score != nil && !got.scored && (*c.Verdict.Score == 1) != got.pass {
				t.Fatalf("pass = %v, %s scores %v\n%s", got.pass, c.Peer, *c.Verdict.Score, got.why)
			}
			agree[c.Peer]++
		})
	}
	var b strings.Builder
	sum := 0
	for _, p := range slices.Sorted(maps.Keys(total)) {
		fmt.Fprintf(&b, " %s %d/%d", p, agree[p], total[p])
		sum += agree[p]
	}
	t.Logf("agreement:%s; %d/%d in all", b.String(), sum, len(cases))
	if sum < 3097 {
		t.Errorf("%d of %d peer cases agree, want at least 3097", sum, len(cases))
	}
}

// outcome is agentcheck's answer to a case: a verdict and, where the peer
// scores, a score.
type outcome struct {
	pass   bool
	score  float64
	scored bool
	why    string
}

func fromResult(r metric.Result, threshold float64) outcome {
	return outcome{pass: r.Score >= threshold, score: r.Score, scored: true, why: r.Reason}
}

func fromReport(r agenttest.Report, inverse bool) outcome {
	ok := r.OK()
	if inverse {
		ok = !ok && r.Err() == nil
	}
	return outcome{pass: ok, why: r.String()}
}

func toCall(p peerCall) (agentcheck.ToolCall, error) {
	tc := agentcheck.ToolCall{Name: p.Name}
	if strings.EqualFold(p.Type, "mcp") {
		tc.Kind = agentcheck.MCPTool
	}
	raw := p.Args
	if p.ArgsJSON != nil {
		raw = json.RawMessage(*p.ArgsJSON)
	}
	if len(raw) > 0 && string(raw) != "null" {
		v, err := jsonvalue.Parse(raw)
		if err != nil {
			return tc, fmt.Errorf("%s: %v", p.Name, err)
		}
		tc.Args = v
	}
	return tc, nil
}

func toCalls(ps []peerCall) ([]agentcheck.ToolCall, error) {
	out := make([]agentcheck.ToolCall, 0, len(ps))
	for _, p := range ps {
		tc, err := toCall(p)
		if err != nil {
			return nil, err
		}
		out = append(out, tc)
	}
	return out, nil
}

// bothCalls is a case's actual and expected calls.
func bothCalls(c peerCase) (made, exp []agentcheck.ToolCall, err error) {
	if made, err = toCalls(c.Actual); err == nil {
		exp, err = toCalls(c.Expected)
	}
	return made, exp, err
}

func runPeerCase(c peerCase) (outcome, error) {
	switch c.Peer {
	case "agentevals":
		return runAgentevals(c)
	case "adk":
		return runADK(c)
	case "bfcl":
		return runBFCL(c)
	case "deepeval":
		return runDeepEval(c)
	case "promptfoo":
		return runPromptfoo(c)
	case "vitest-evals":
		return runVitest(c)
	}
	return outcome{}, fmt.Errorf("unknown peer %q", c.Peer)
}

// agentevals: trajectory_match_mode and tool_args_match_mode map one to
// one; strict compares assistant message by assistant message
// (TurnAware); overrides by tool name are an ArgsMode, a list of key
// paths compared alone, or a function (reproduced here as a comparator).
func runAgentevals(c peerCase) (outcome, error) {
	var m metric.TrajectoryMatch
	var err error
	if err = m.Mode.UnmarshalText([]byte(c.Options["trajectory_match_mode"].(string))); err != nil {
		return outcome{}, err
	}
	if err = m.Args.UnmarshalText([]byte(c.Options["tool_args_match_mode"].(string))); err != nil {
		return outcome{}, err
	}
	if ov, ok := c.Options["tool_args_match_overrides"].(map[string]any); ok {
		for tool, o := range ov {
			switch o := o.(type) {
			case string:
				var mode trajectory.ArgsMode
				if err := mode.UnmarshalText([]byte(o)); err != nil {
					return outcome{}, err
				}
				m.ToolArgs = map[string]trajectory.ArgsMode{tool: mode}
			case []any:
				paths := make([]string, len(o))
				for i, p := range o {
					paths[i] = p.(string)
				}
				m.Comparators = map[string]trajectory.ArgsComparator{tool: comparePaths(paths)}
			case map[string]any:
				cmp, err := agentevalsCallable(o)
				if err != nil {
					return outcome{}, err
				}
				m.Comparators = map[string]trajectory.ArgsComparator{tool: cmp}
			}
		}
	}
	turns := func(msgs []peerMessage) ([][]agentcheck.ToolCall, error) {
		var out [][]agentcheck.ToolCall
		for _, msg := range msgs {
			if msg.Role != "assistant" && msg.Role != "ai" {
				continue
			}
			calls, err := toCalls(msg.ToolCalls)
			if err != nil {
				return nil, err
			}
			out = append(out, calls)
		}
		return out, nil
	}
	made, err := turns(c.ActualMessages)
	if err != nil {
		return outcome{}, err
	}
	exp, err := turns(c.ReferenceMessages)
	if err != nil {
		return outcome{}, err
	}
	m.TurnAware = m.Mode == trajectory.Strict
	return fromResult(m.CompareTurns(made, exp), 1), nil
}

// comparePaths compares only the values at these dotted key paths.
func comparePaths(paths []string) trajectory.ArgsComparator {
	return func(made, expected jsonvalue.Value) bool {
		for _, p := range paths {
			a, aok := valueAt(made, p)
			e, eok := valueAt(expected, p)
			if aok != eok || aok && !jsonvalue.Equal(a, e) {
				return false
			}
		}
		return true
	}
}

func valueAt(v jsonvalue.Value, path string) (jsonvalue.Value, bool) {
	for _, k := range strings.Split(path, ".") {
		var ok bool
		if v, ok = v.Get(k); !ok {
			return v, false
		}
	}
	return v, true
}

// agentevalsCallable is the Go form of each function the peer's tests pass
// as an override, by its source.
func agentevalsCallable(o map[string]any) (trajectory.ArgsComparator, error) {
	text := func(v jsonvalue.Value, key string) string {
		x, _ := v.Get(key)
		return x.Text()
	}
	src, _ := o["source"].(string)
	switch {
	case strings.Contains(src, `x["city"] == "SF" or x["city"] == "San Francisco"`):
		return func(made, _ jsonvalue.Value) bool {
			c := text(made, "city")
			return c == "SF" || c == "San Francisco"
		}, nil
	case strings.Contains(src, `lambda x, y: x["city"] == "SF"`):
		return func(made, _ jsonvalue.Value) bool { return text(made, "city") == "SF" }, nil
	case strings.Contains(src, "upgrade"):
		return func(made, expected jsonvalue.Value) bool {
			if q := text(expected, "query"); q != "" && strings.Contains(q, "upgrade") {
				return strings.Contains(text(made, "query"), "upgrade")
			}
			return true
		}, nil
	}
	return nil, fmt.Errorf("no Go form of the callable %v", o["callable"])
}

// ADK: EXACT, IN_ORDER and ANY_ORDER are strict, in order and superset,
// each invocation scoring 1 or 0 and the score their mean (ScorePerTurn).
func runADK(c peerCase) (outcome, error) {
	m := metric.TrajectoryMatch{Scoring: trajectory.ScorePerTurn}
	switch c.Options["match_type"] {
	case "EXACT":
		m.Mode = trajectory.Strict
	case "IN_ORDER":
		m.Mode = trajectory.InOrder
	case "ANY_ORDER":
		m.Mode = trajectory.Superset
	default:
		return outcome{}, fmt.Errorf("match_type %v", c.Options["match_type"])
	}
	if c.Options["ignore_args"] == true {
		m.Args = trajectory.ArgsIgnore
	}
	var made, exp [][]agentcheck.ToolCall
	for _, inv := range c.Invocations {
		a, err := toCalls(inv.Actual)
		if err != nil {
			return outcome{}, err
		}
		e, err := toCalls(inv.Expected)
		if err != nil {
			return outcome{}, err
		}
		made, exp = append(made, a), append(exp, e)
	}
	threshold := 1.0
	if th, ok := c.Options["threshold"].(float64); ok {
		threshold = th
	}
	return fromResult(m.CompareTurns(made, exp), threshold), nil
}

// BFCL: the calls its possible answers expect, each checked against its
// function's declaration and its answer as BFCL's AST checker does
// (agenttest.BFCLCalls); parallel calls in any order, no more and no
// fewer (trajectory.Unordered).
func runBFCL(c peerCase) (outcome, error) {
	expected, err := agenttest.BFCLCalls(c.Functions, c.PossibleAnswer)
	if err != nil {
		return outcome{}, err
	}
	actual, err := toCalls(c.Actual)
	if err != nil {
		return outcome{}, err
	}
	return fromReport(agenttest.CheckToolCalls(actual, trajectory.Unordered, expected...), false), nil
}

// DeepEval's ToolCorrectness: names only, or with input_parameters
// partial argument credit (trajectory.ScorePartialArgs); extra calls are not
// penalised (superset), ordering makes it in order, exact match is strict
// and all or nothing. Tool kinds must agree.
func runDeepEval(c peerCase) (outcome, error) {
	params, _ := c.Options["evaluation_params"].([]any)
	withArgs := slices.Contains(params, any("input_parameters"))
	withOutput := slices.Contains(params, any("output"))
	// DeepEval tells an MCP call from a function call of the same name.
	m := metric.TrajectoryMatch{Mode: trajectory.Superset, Scoring: trajectory.ScoreRecall, Kinds: true}
	if withArgs {
		m.Scoring = trajectory.ScorePartialArgs
	} else {
		m.Args = trajectory.ArgsIgnore
	}
	if c.Options["should_consider_ordering"] == true {
		m.Mode = trajectory.InOrder
	}
	if c.Options["should_exact_match"] == true {
		m.Mode, m.Scoring = trajectory.Strict, trajectory.ScoreAll
	}
	made, exp, err := bothCalls(c)
	if err != nil {
		return outcome{}, err
	}
	if withOutput {
		// TrajectoryMatch compares calls, not what they returned (agenttest's
		// Returning asserts that): DeepEval's output, which must be equal for
		// a pair to earn anything, is folded into each call's identity here.
		for i := range made {
			made[i].Name += " -> " + string(c.Actual[i].Output)
		}
		for i := range exp {
			exp[i].Name += " -> " + string(c.Expected[i].Output)
		}
	}
	threshold := 0.5
	if th, ok := c.Options["threshold"].(float64); ok {
		threshold = th
	}
	return fromResult(m.Compare(made, exp), threshold), nil
}

// promptfoo: tool-call-f1 is the names-only F1; tool-used counts calls by
// name or glob; tool-sequence is in order (or exact); tool-args-match
// wants a call with these arguments (partial: AllowingExtraArgs), defaults
// being Optional, ignored keys globbed.
func runPromptfoo(c peerCase) (outcome, error) {
	actual, err := toCalls(c.Actual)
	if err != nil {
		return outcome{}, err
	}
	inverse := c.Options["inverse"] == true
	value := c.Options["value"]
	names := func(v any) []string {
		switch v := v.(type) {
		case string:
			var out []string
			for _, n := range strings.Split(v, ",") {
				out = append(out, strings.TrimSpace(n))
			}
			return out
		case []any:
			out := make([]string, len(v))
			for i, n := range v {
				out[i] = n.(string)
			}
			return out
		}
		return nil
	}
	switch strings.TrimPrefix(c.Kind, "not-") {
	case "tool-call-f1":
		actual = promptfooCalls(c.RawOutput)
		var ref []agentcheck.ToolCall
		for _, n := range names(value) {
			ref = append(ref, agentcheck.ToolCall{Name: n})
		}
		r := metric.ToolCallF1{NamesOnly: true}.Compare(actual, ref)
		threshold := 1.0
		if th, ok := c.Options["threshold"].(float64); ok {
			threshold = th
		}
		o := fromResult(r, threshold)
		if inverse {
			o.pass = !o.pass
		}
		return o, nil
	case "trajectory:tool-used":
		if obj, ok := value.(map[string]any); ok {
			call := agenttest.CallTo(str(obj["name"]))
			if p, ok := obj["pattern"].(string); ok {
				call = agenttest.CallToGlob(p)
			}
			return fromReport(agenttest.CheckCalled(actual, call, countOf(obj)), inverse), nil
		}
		// Every name used (or, inverted, none of them).
		pass := true
		var why []string
		for _, n := range names(value) {
			r := agenttest.CheckCalled(actual, agenttest.CallTo(n), agenttest.AtLeastOnce())
			if inverse {
				r = agenttest.CheckCalled(actual, agenttest.CallTo(n), agenttest.Never())
			}
			pass = pass && r.OK()
			why = append(why, r.String())
		}
		return outcome{pass: pass, why: strings.Join(why, "\n")}, nil
	case "trajectory:tool-sequence":
		order, steps := trajectory.InOrder, value
		if obj, ok := value.(map[string]any); ok {
			steps = obj["steps"]
			if obj["mode"] == "exact" {
				order = trajectory.Strict
			}
		}
		var expected []agenttest.ExpectedCall
		for _, n := range names(steps) {
			expected = append(expected, agenttest.CallTo(n))
		}
		return fromReport(agenttest.CheckToolCalls(actual, order, expected...), inverse), nil
	case "trajectory:tool-args-match":
		obj := value.(map[string]any)
		call := agenttest.CallTo(str(obj["name"]))
		if p, ok := obj["pattern"].(string); ok {
			call = agenttest.CallToGlob(p)
		}
		want := obj["args"]
		if want == nil {
			want = obj["arguments"]
		}
		switch w := want.(type) {
		case map[string]any:
			args := agenttest.Args{}
			for k, v := range w {
				args[k] = v
			}
			if defaults, ok := obj["defaults"].(map[string]any); ok && obj["mode"] == "exact" {
				for k, v := range defaults {
					if _, asserted := args[k]; !asserted {
						args[k] = agenttest.Optional(v)
					}
				}
			}
			call = call.With(args)
		default:
			call = call.WithValue(w)
		}
		switch ign := obj["ignore"].(type) {
		case string:
			call = call.Ignoring(ign)
		case []any:
			for _, k := range ign {
				call = call.Ignoring(k.(string))
			}
		}
		if obj["mode"] != "exact" {
			call = call.AllowingExtraArgs()
		}
		return fromReport(agenttest.CheckCalled(actual, call, agenttest.AtLeastOnce()), inverse), nil
	case "trajectory:step-count":
		obj := value.(map[string]any)
		switch {
		case obj["type"] == "tool":
			return fromReport(agenttest.CheckSteps(actual, agenttest.ToolCallStep, countOf(obj)), inverse), nil
		case obj["type"] == "reasoning" || obj["pattern"] == "reasoning*":
			// The trace's reasoning spans are the reasoning before the
			// AI messages of a transcript (Message.Reasoning).
			conv := agentcheck.Conversation{{Role: agentcheck.AI, ToolCalls: actual}}
			for _, st := range c.OtherSteps {
				if st.Type == "reasoning" {
					conv = append(conv, agentcheck.Message{Role: agentcheck.AI, Reasoning: st.Name})
				}
			}
			return fromReport(agenttest.CheckSteps(conv, agenttest.ReasoningStep, countOf(obj)), inverse), nil
		}
		return outcome{}, fmt.Errorf("steps of type %v: agentcheck's transcripts have tool calls, text answers and reasoning, not %v steps", obj["type"], obj["type"])
	}
	return outcome{}, fmt.Errorf("promptfoo kind %q", c.Kind)
}

// promptfooCalls takes the tool calls out of a provider's raw output the
// way promptfoo reads them, for its tool-call-f1 cases: OpenAI tool_calls,
// Anthropic tool_use blocks, Gemini functionCall and Live toolCall, bare
// {name} objects, arrays of them, and any of these as JSON text, alone or
// after prose. (agentcheck's adapters and dataset readers do this for
// real transcripts.)
func promptfooCalls(raw json.RawMessage) []agentcheck.ToolCall {
	var calls []agentcheck.ToolCall
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			for rest := v; ; {
				at := strings.IndexAny(rest, "{[")
				if at < 0 {
					return
				}
				dec := json.NewDecoder(strings.NewReader(rest[at:]))
				var x any
				if err := dec.Decode(&x); err != nil {
					rest = rest[at+1:]
					continue
				}
				walk(x)
				rest = rest[at+int(dec.InputOffset()):]
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]any:
			switch {
			case v["tool_calls"] != nil:
				walk(v["tool_calls"])
			case v["functionCall"] != nil:
				walk(v["functionCall"])
			case v["toolCall"] != nil:
				tc, _ := v["toolCall"].(map[string]any)
				walk(tc["functionCalls"])
			case v["function"] != nil:
				walk(v["function"])
			case v["type"] == "text":
			case v["name"] != nil:
				calls = append(calls, agentcheck.ToolCall{Name: str(v["name"])})
			}
		}
	}
	var v any
	if json.Unmarshal(raw, &v) == nil {
		walk(v)
	}
	return calls
}

func str(v any) string { s, _ := v.(string); return s }

// countOf reads promptfoo's min and max.
func countOf(obj map[string]any) agenttest.Count {
	lo, hasLo := obj["min"].(float64)
	hi, hasHi := obj["max"].(float64)
	switch {
	case hasLo && hasHi:
		return agenttest.Between(int(lo), int(hi))
	case hasHi:
		return agenttest.AtMost(int(hi))
	case hasLo:
		return agenttest.AtLeast(int(lo))
	}
	return agenttest.AtLeastOnce()
}

// vitest-evals' ToolCallScorer: ordered is in order (else superset), no
// extras makes it strict or unordered, requireAll false scores recall;
// params strict compare exactly, an expected call without arguments any,
// fuzzy compares case-insensitively with extra arguments and elements
// allowed and numbers within 1%, and a function is its Go form.
func runVitest(c peerCase) (outcome, error) {
	m := metric.TrajectoryMatch{Mode: trajectory.Superset}
	ordered := c.Options["ordered"] == true
	if ordered {
		m.Mode = trajectory.InOrder
	}
	if c.Options["allowExtras"] == false {
		m.Mode = trajectory.Unordered
		if ordered {
			m.Mode = trajectory.Strict
		}
	}
	// Each expected call earns its share of the score when a call matches
	// it; unless requireAll is false, a tool expected but not called (in
	// order, when ordered) scores 0.
	m.Scoring = trajectory.ScoreRecall
	requireAll := c.Options["requireAll"] != false
	switch p := c.Options["params"].(type) {
	case string:
		if p == "fuzzy" {
			m.Comparators = map[string]trajectory.ArgsComparator{"*": vitestFuzzy}
		}
	case map[string]any:
		m.Comparators = map[string]trajectory.ArgsComparator{"*": func(made, expected jsonvalue.Value) bool {
			a, aok := made.Get("location")
			e, eok := expected.Get("location")
			if aok && eok && a.Text() != "" && e.Text() != "" {
				return strings.EqualFold(a.Text(), e.Text())
			}
			return jsonvalue.Equal(made, expected)
		}}
	}
	made, exp, err := bothCalls(c)
	if err != nil {
		return outcome{}, err
	}
	for _, e := range c.Expected {
		if len(e.Args) == 0 {
			if m.ToolArgs == nil {
				m.ToolArgs = map[string]trajectory.ArgsMode{}
			}
			m.ToolArgs[e.Name] = trajectory.ArgsIgnore
			if m.Comparators != nil {
				// No expected arguments: any will do, whatever the preset.
				m.Comparators[e.Name] = func(_, _ jsonvalue.Value) bool { return true }
			}
		}
	}
	r := m.Compare(made, exp)
	if requireAll {
		names := metric.TrajectoryMatch{Mode: m.Mode, Args: trajectory.ArgsIgnore}
		if nr := names.Compare(made, exp); nr.Score != 1 {
			r = nr
		}
	}
	return outcome{pass: r.Score == 1, score: r.Score, scored: true, why: r.Reason}, nil
}

// vitestFuzzy is vitest-evals' fuzzy preset without its substring rule:
// strings equal ignoring case, numbers within 1% of the expected, arrays
// holding every expected element, objects holding every expected key.
func vitestFuzzy(made, expected jsonvalue.Value) bool {
	switch expected.Kind() {
	case jsonvalue.StringKind:
		return made.Kind() == jsonvalue.StringKind && strings.EqualFold(made.Text(), expected.Text())
	case jsonvalue.IntKind, jsonvalue.FloatKind:
		if made.Kind() != jsonvalue.IntKind && made.Kind() != jsonvalue.FloatKind {
			return false
		}
		return math.Abs(made.Float()-expected.Float()) <= 0.01*math.Abs(expected.Float())
	case jsonvalue.ArrayKind:
		if made.Kind() != jsonvalue.ArrayKind {
			return false
		}
		for _, e := range expected.Elements() {
			found := false
			for _, a := range made.Elements() {
				if vitestFuzzy(a.Value, e.Value) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	case jsonvalue.ObjectKind:
		if made.Kind() != jsonvalue.ObjectKind {
			return false
		}
		for _, mb := range expected.Members() {
			a, ok := made.Get(mb.Key)
			if !ok || !vitestFuzzy(a, mb.Value) {
				return false
			}
		}
		return true
	}
	return jsonvalue.Equal(made, expected)
}
