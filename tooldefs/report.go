package tooldefs

import (
	"errors"
	"strconv"
	"strings"

	"github.com/agentcheck/agentcheck/agenttest"
)

// CheckCalls checks the tool calls in actual (anything
// agenttest.ToolCallsOf takes: a Conversation, Sample, []Message,
// []ToolCall, an adapter's Transcript) against defs (Set.Check). The
// Report's message lists every violation, one a line:
//
//	Expected the 3 tool calls made to fit their tool definitions, but 2 do not:
//	  [0] search: /limit: type: got string, want integer
//	  [2] book: required: missing property 'time'
func CheckCalls(actual any, defs *Set) agenttest.Report {
	if defs == nil {
		return agenttest.NewReport(false, nil, nil, errors.New("tooldefs: no tool definitions (the *Set is nil)"))
	}
	calls, err := agenttest.ToolCallsOf(actual)
	if err != nil {
		return agenttest.NewReport(false, nil, nil, err)
	}
	vs := defs.Check(calls)
	n := len(calls)
	why := func() string {
		bad := 0
		for i, v := range vs {
			if i == 0 || v.Call != vs[i-1].Call {
				bad++
			}
		}
		var b strings.Builder
		b.WriteString("Expected ")
		b.WriteString(subject(n))
		b.WriteString(" to fit ")
		b.WriteString(their(n))
		b.WriteString(", but ")
		switch {
		case n == 1:
			b.WriteString("it does not:")
		case bad == 1:
			b.WriteString("1 does not:")
		default:
			b.WriteString(strconv.Itoa(bad) + " do not:")
		}
		for _, v := range vs {
			b.WriteString("\n  ")
			b.WriteString(v.String())
		}
		return b.String()
	}
	whyNot := func() string {
		does := "they do"
		if n == 1 {
			does = "it does"
		}
		return "Expected " + subject(n) + " not to fit " + their(n) + ", but " + does
	}
	return agenttest.NewReport(len(vs) == 0, why, whyNot, nil)
}

func subject(n int) string {
	if n == 1 {
		return "the 1 tool call made"
	}
	return "the " + strconv.Itoa(n) + " tool calls made"
}

func their(n int) string {
	if n == 1 {
		return "its tool definition"
	}
	return "their tool definitions"
}

// checkName names AssertFit's check in what agenttest.Record keeps.
const checkName = "tool_definitions"

// T is what AssertFit needs of a test: *testing.T, Ginkgo's GinkgoT() and
// testify's mocks all fit. When t also has Helper(), the failure is
// reported at the caller's line.
type T interface {
	Errorf(format string, args ...any)
}

// AssertFit checks the tool calls in actual against defs (CheckCalls),
// fails t with the violations if any call does not fit, and returns whether
// all fit. Like every assertion of agentcheck, it records its outcome with
// t (agenttest.Record, check "tool_definitions"): the attributes when t has
// Attr, the failure report and the transcript when it has ArtifactDir.
func AssertFit(t T, actual any, defs *Set) bool {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	r := CheckCalls(actual, defs)
	agenttest.Record(t, checkName, actual, r)
	if r.OK() {
		return true
	}
	t.Errorf("%s", r)
	return false
}
