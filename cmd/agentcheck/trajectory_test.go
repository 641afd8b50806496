// Tests of `eval --metrics trajectory_match` (issue 10 item 11).

package main

import (
	"fmt"
	"strings"
	"testing"
)

// trajSample is a ragas sample whose AI messages make the calls of turns (a
// message each) against the reference calls ref, each call written
// name(JSON args).
func trajSample(ref []string, turns ...[]string) string {
	calls := func(cs []string) string {
		var parts []string
		for _, c := range cs {
			name, args, _ := strings.Cut(c, "(")
			parts = append(parts, fmt.Sprintf(`{"name": %q, "args": %s}`, name, strings.TrimSuffix(args, ")")))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	msgs := []string{`{"type": "human", "content": "do it"}`}
	for _, t := range turns {
		msgs = append(msgs, `{"type": "ai", "content": "", "tool_calls": `+calls(t)+`}`, `{"type": "tool", "content": "ok"}`)
	}
	return `{"user_input": [` + strings.Join(msgs, ", ") + `], "reference_tool_calls": ` + calls(ref) + `}`
}

func TestEvalTrajectoryMatch(t *testing.T) {
	search := `search({"city": "Paris"})`
	book := `book({"id": "r1", "party": 4})`
	sms := `sms({"to": "Ana"})`
	tests := []struct {
		name   string
		sample string
		flags  []string
		want   string // the output line
	}{
		{"strict, the same calls", trajSample([]string{search, book}, []string{search}, []string{book}), nil, `1.0`},
		{"strict, swapped", trajSample([]string{search, book}, []string{book}, []string{search}), nil, `0.0`},
		// Strict is not turn-aware: calls of one message keep their order.
		{"strict, swapped in one message", trajSample([]string{search, book}, []string{book, search}), nil, `0.0`},
		{"strict, one more", trajSample([]string{search}, []string{search}, []string{book}), nil, `0.0`},
		{"unordered, swapped", trajSample([]string{search, book}, []string{book}, []string{search}), []string{"--trajectory-mode", "unordered"}, `1.0`},
		{"unordered, a call repeated", trajSample([]string{search, book}, []string{search}, []string{search}, []string{book}), []string{"--trajectory-mode", "unordered"}, `0.0`},
		{"subset, fewer calls", trajSample([]string{search, book, sms}, []string{book}, []string{search}), []string{"--trajectory-mode", "subset"}, `1.0`},
		{"subset, an unexpected call", trajSample([]string{search, book}, []string{search}, []string{sms}), []string{"--trajectory-mode", "subset"}, `0.0`},
		{"subset, a call made twice but expected once", trajSample([]string{search, book}, []string{search}, []string{search}), []string{"--trajectory-mode", "subset"}, `0.0`},
		{"superset, more calls", trajSample([]string{search}, []string{sms}, []string{search}, []string{book}), []string{"--trajectory-mode", "superset"}, `1.0`},
		{"superset, a call missing", trajSample([]string{search, sms}, []string{search}, []string{book}), []string{"--trajectory-mode", "superset"}, `0.0`},
		{"args exact, 1 and 1.0", trajSample([]string{`f({"n": 1, "o": {"a": 1, "b": [true]}})`}, []string{`f({"o": {"b": [true], "a": 1.0}, "n": 1.0})`}), nil, `1.0`},
		{"args exact, true is not 1", trajSample([]string{`f({"n": 1})`}, []string{`f({"n": true})`}), nil, `0.0`},
		{"args exact, an extra argument", trajSample([]string{`f({"n": 1})`}, []string{`f({"n": 1, "m": 2})`}), nil, `0.0`},
		{"args ignore", trajSample([]string{`f({"n": 1})`}, []string{`f({"n": 2, "m": 2})`}), []string{"--args-mode", "ignore"}, `1.0`},
		{"args subset", trajSample([]string{`f({"n": 1, "m": 2})`}, []string{`f({"n": 1})`}), []string{"--args-mode", "subset"}, `1.0`},
		{"args subset, a value differs", trajSample([]string{`f({"n": 1, "m": 2})`}, []string{`f({"n": 2})`}), []string{"--args-mode", "subset"}, `0.0`},
		{"args subset, an extra argument", trajSample([]string{`f({"n": 1})`}, []string{`f({"n": 1, "m": 2})`}), []string{"--args-mode", "subset"}, `0.0`},
		{"args superset", trajSample([]string{`f({"n": 1})`}, []string{`f({"n": 1, "m": 2})`}), []string{"--args-mode", "superset"}, `1.0`},
		{"args superset, an argument missing", trajSample([]string{`f({"n": 1, "m": 2})`}, []string{`f({"n": 1})`}), []string{"--args-mode", "superset"}, `0.0`},
		// Greedy pairing would give the first actual call to the first
		// expected one, which both fit, and leave the second expected call
		// without a partner; optimal pairing finds the one that works.
		{"superset args, unordered: greedy would fail", trajSample([]string{`f({"a": 1})`, `f({"a": 1, "b": 2})`}, []string{`f({"a": 1, "b": 2})`, `f({"a": 1})`}),
			[]string{"--trajectory-mode", "unordered", "--args-mode", "superset"}, `1.0`},
		{"subset args, unordered: greedy would fail", trajSample([]string{`f({"a": 1, "b": 2})`, `f({"a": 1})`}, []string{`f({"a": 1})`, `f({"a": 1, "b": 2})`}),
			[]string{"--trajectory-mode", "unordered", "--args-mode", "subset"}, `1.0`},
		{"superset trajectory, superset args: greedy would fail", trajSample([]string{`f({"a": 1})`, `f({"a": 1, "b": 2})`}, []string{`f({"a": 1, "b": 2})`, `g({})`, `f({"a": 1})`}),
			[]string{"--trajectory-mode", "superset", "--args-mode", "superset"}, `1.0`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"eval", "--metrics", "trajectory_match", "--format", "jsonl", "-"}, tt.flags...)
			out, stderr, code := runAgentcheck(t, tt.sample, args...)
			out = onlyScores(t, out)
			if want := `{"trajectory_match":` + tt.want + "}\n"; code != 0 || out != want {
				t.Errorf("agentcheck %q: exit %d, output %q, want %q (stderr %q)\nsample: %s", args[1:], code, out, want, stderr, tt.sample)
			}
		})
	}

	// Beside the other metrics, over a file.
	path := writeFile(t, "t.jsonl", trajSample([]string{search, book}, []string{book}, []string{search})+"\n"+trajSample([]string{search}, []string{search})+"\n")
	out, stderr, code := runAgentcheck(t, "", "eval", path, "--metrics", "tool_call_f1,trajectory_match", "--format", "jsonl", "--trajectory-mode", "unordered")
	out = onlyScores(t, out)
	if want := "{\"tool_call_f1\":1.0,\"trajectory_match\":1.0}\n{\"tool_call_f1\":1.0,\"trajectory_match\":1.0}\n"; code != 0 || out != want {
		t.Errorf("exit %d, output %q, want %q (stderr %q)", code, out, want, stderr)
	}
	// A gate on it: the share of samples that match.
	_, stderr, code = runAgentcheck(t, "", "eval", path, "--metrics", "trajectory_match", "--fail-under", "trajectory_match=0.9")
	if code != 1 || !strings.Contains(stderr, "Expected the mean trajectory_match over 2 scored samples to be at least 0.9 (--fail-under), but it is 0.5") {
		t.Errorf("strict gate: exit %d, stderr %q", code, stderr)
	}
}

func TestEvalTrajectoryUsage(t *testing.T) {
	for _, tt := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--trajectory-mode", "loose"}, `-trajectory-mode: unknown trajectory mode "loose": want strict, in_order, unordered, subset or superset`},
		{[]string{"--args-mode", "fuzzy"}, `-args-mode: unknown args mode "fuzzy": want exact, ignore, subset or superset`},
		{[]string{"--turn-aware", "--trajectory-mode", "unordered"}, `--turn-aware applies to --trajectory-mode strict, not unordered`},
	} {
		out, stderr, code := runAgentcheck(t, "", append([]string{"eval", "--metrics", "trajectory_match", "-"}, tt.flags...)...)
		if code != exitUsage || out != "" || !strings.Contains(stderr, tt.want) {
			t.Errorf("%q: exit %d, stderr %q", tt.flags, code, stderr)
		}
	}
}

func TestEvalTrajectoryInOrder(t *testing.T) {
	search := `search({"city": "Paris"})`
	book := `book({"id": "r1"})`
	for _, tt := range []struct {
		sample, want string
	}{
		{trajSample([]string{search, book}, []string{search}, []string{`sms({})`}, []string{book}), `1.0`},
		{trajSample([]string{search, book}, []string{book}, []string{search}), `0.0`},
	} {
		out, stderr, code := runAgentcheck(t, tt.sample, "eval", "--metrics", "trajectory_match", "--trajectory-mode", "in_order", "--format", "jsonl", "-")
		out = onlyScores(t, out)
		if want := `{"trajectory_match":` + tt.want + "}\n"; code != 0 || out != want {
			t.Errorf("exit %d, output %q, want %q (stderr %q)", code, out, want, stderr)
		}
	}
}

// TestEvalTrajectoryTurnAware: with --turn-aware, strict mode lets the calls
// of one AI message (parallel calls) come in any order, and still wants the
// turns to line up.
func TestEvalTrajectoryTurnAware(t *testing.T) {
	search := `search({"city": "Paris"})`
	book := `book({"id": "r1"})`
	sms := `sms({"to": "Ana"})`
	for _, tt := range []struct {
		name, sample string
		want         string
	}{
		{"swapped in one message", trajSample([]string{search, book}, []string{book, search}), `1.0`},
		{"swapped across messages", trajSample([]string{search, book}, []string{book}, []string{search}), `0.0`},
		{"same order, two messages", trajSample([]string{search, book}, []string{search}, []string{book}), `1.0`},
		{"parallel then one", trajSample([]string{search, book, sms}, []string{book, search}, []string{sms}), `1.0`},
		// The reference has no turns: it is cut into turns of the sizes of
		// the messages' ([search, book], [sms]), so a call made a turn early
		// fails.
		{"a call made a turn early", trajSample([]string{search, book, sms}, []string{search, sms}, []string{book}), `0.0`},
		{"one call more", trajSample([]string{search, book}, []string{book, search, sms}), `0.0`},
	} {
		for _, aware := range []bool{false, true} {
			args := []string{"eval", "--metrics", "trajectory_match", "--format", "jsonl", "-"}
			want := tt.want
			if aware {
				args = append(args, "--turn-aware")
			} else if tt.name == "swapped in one message" || tt.name == "parallel then one" {
				want = `0.0` // position by position, the swap fails
			}
			out, stderr, code := runAgentcheck(t, tt.sample, args...)
			out = onlyScores(t, out)
			if w := `{"trajectory_match":` + want + "}\n"; code != 0 || out != w {
				t.Errorf("%s, turn-aware %v: exit %d, output %q, want %q (stderr %q)", tt.name, aware, code, out, w, stderr)
			}
		}
	}
}
