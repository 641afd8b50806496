package agenttest

import (
	"errors"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/google/go-cmp/cmp"
)

func TestConversationSummary(t *testing.T) {
	long := strings.Repeat("word ", 20)
	for _, c := range []struct {
		conv agentcheck.Conversation
		want string
	}{
		{nil, "(0 messages, no text)"},
		{agentcheck.Conversation{{Role: agentcheck.Human, Content: "Hi"}}, `"Hi" (1 message)`},
		{agentcheck.Conversation{
			{Role: agentcheck.System, Content: "You are a bot."},
			{Role: agentcheck.Human, Content: "Line one\n\tline two"},
			{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{agentcheck.MustParseToolCall("a", `{}`), agentcheck.MustParseToolCall("b", `{}`)}},
			{Role: agentcheck.Tool, Content: "ok"},
		}, `"Line one line two" … tool "ok" (4 messages, 2 tool calls)`},
		{agentcheck.Conversation{
			{Role: agentcheck.AI, Content: "Welcome!"},
			{Role: agentcheck.AI, Content: long},
		}, `ai "Welcome!" … "word word word word word word word word word word word word…" (2 messages)`},
	} {
		if got := summary(c.conv); got != c.want {
			t.Errorf("summary() = %s\nwant        %s", got, c.want)
		}
	}
}

func TestExplainJudgmentNamesTheCassetteAndHowToRerecord(t *testing.T) {
	for _, c := range []struct {
		source, rerecord, want string
	}{
		{"testdata/cassettes/TestBooking.yaml", "AGENTCHECK_RECORD=all go test ./x -run '^TestBooking$'", "cassette: testdata/cassettes/TestBooking.yaml\n    re-record: AGENTCHECK_RECORD=all go test ./x -run '^TestBooking$'\n"},
		{"cassettes/shared.yaml", "", "cassette: cassettes/shared.yaml\n"},
		{"live", "", "answers: live, from no cassette (judge.ForTest replays them)\n"},
		{"elsewhere", "", "answers from: elsewhere\n"},
	} {
		r := metric.Result{Metric: "agent_goal_accuracy", Verdicts: []metric.Verdict{{Model: "m", Score: 1, Source: c.source, Rerecord: c.rerecord}}}
		if got := explainJudgment(r) + "\n"; !strings.HasSuffix(got, c.want) {
			t.Errorf("source %s: explanation does not end with %q:\n%s", c.source, c.want, got)
		}
	}

	// A failed judge: its multi-line cause indented, its source ("live", as
	// for a replay miss) and the warning that repeats it left out.
	r := metric.Result{
		Metric: "agent_goal_accuracy",
		Score:  1,
		Verdicts: []metric.Verdict{
			{Model: "a", Score: 1, Reason: "fine", Usage: judgment.Usage{PromptTokens: 10, CompletionTokens: 2}, Source: "testdata/cassettes/TestX.yaml", Rerecord: "AGENTCHECK_RECORD=all go test ./agenttest -run '^TestX$'"},
			{Model: "b", Err: errors.New("replay miss\n  record it with: cmd"), Source: "live"},
		},
		Usage:    judgment.Usage{PromptTokens: 10, CompletionTokens: 2},
		Warnings: []string{"1 of 2 judges failed and were left out: b: replay miss", "something else"},
	}
	want := `judge a: achieved
    reason: fine
    tokens: 12 (10 prompt + 2 completion)
judge b: failed, left out of the score:
    replay miss
      record it with: cmd
warning: something else
tokens: 12 (10 prompt + 2 completion)
cassette: testdata/cassettes/TestX.yaml
    re-record: AGENTCHECK_RECORD=all go test ./agenttest -run '^TestX$'`
	if diff := cmp.Diff(want, explainJudgment(r)); diff != "" {
		t.Errorf("explanation (-want +got):\n%s", diff)
	}
}
