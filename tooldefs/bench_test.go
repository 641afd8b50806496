package tooldefs_test

import (
	"fmt"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/tooldefs"
)

// BenchmarkCheck checks 100 calls of three tools, one in ten of them not
// fitting.
func BenchmarkCheck(b *testing.B) {
	s := tooldefs.Must(tooldefs.New(
		tooldefs.Define("search", `{"type":"object","properties":{"q":{"type":"string","minLength":1},"limit":{"type":"integer","minimum":1,"maximum":50},"filters":{"type":"array","items":{"type":"object","properties":{"field":{"enum":["price","rating","distance"]},"op":{"enum":["<",">","="]},"value":{"type":"number"}},"required":["field","op","value"]}}},"required":["q"],"additionalProperties":false}`),
		tooldefs.Define("book", `{"type":"object","properties":{"id":{"type":"string","pattern":"^r_[0-9]+$"},"time":{"type":"string"},"party_size":{"type":"integer"}},"required":["id","time","party_size"]}`),
		tooldefs.Define("ping", `{}`),
	))
	calls := make([]agentcheck.ToolCall, 100)
	for i := range calls {
		switch {
		case i%10 == 9:
			calls[i] = agentcheck.MustParseToolCall("search", `{"q":"","limit":"5","x":1}`)
		case i%3 == 0:
			calls[i] = agentcheck.MustParseToolCall("search", fmt.Sprintf(`{"q":"pho %d","limit":%d,"filters":[{"field":"price","op":"<","value":20.5},{"field":"rating","op":">","value":4}]}`, i, i%50+1))
		case i%3 == 1:
			calls[i] = agentcheck.MustParseToolCall("book", fmt.Sprintf(`{"id":"r_%d","time":"20:00","party_size":4}`, i))
		default:
			calls[i] = agentcheck.MustParseToolCall("ping", `{}`)
		}
	}
	if n := len(s.Check(calls)); n != 30 {
		b.Fatalf("got %d violations, want 30", n)
	}
	b.ReportAllocs()
	for b.Loop() {
		s.Check(calls)
	}
}
