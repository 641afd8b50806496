package matchers

import (
	"errors"

	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/tooldefs"
	"github.com/onsi/gomega/types"
)

// FitToolDefinitions succeeds when every tool call in the actual value
// names a tool of defs and its arguments validate against that tool's JSON
// Schema (tooldefs.CheckCalls). The failure lists each violation by call,
// tool, JSON pointer and keyword:
//
//	Expected the 3 tool calls made to fit their tool definitions, but 2 do not:
//	  [0] search: /limit: type: got string, want integer
//	  [2] book: required: missing property 'time'
//
// defs comes from tooldefs.Parse (OpenAI, Anthropic or MCP tool
// definitions), tooldefs.FromValue or tooldefs.New; a nil defs is an error.
func FitToolDefinitions(defs *tooldefs.Set) types.GomegaMatcher {
	return &reportMatcher{check: func(actual any) (agenttest.Report, error) {
		if defs == nil {
			return agenttest.Report{}, errors.New("FitToolDefinitions needs tool definitions, got a nil *tooldefs.Set")
		}
		return tooldefs.CheckCalls(actual, defs), nil
	}}
}
