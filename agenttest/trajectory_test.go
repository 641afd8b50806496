package agenttest_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/agentcheck/agentcheck/trajectory"
)

// The trajectory modes of the DSL: Unordered and Subset beside Strict,
// InOrder and Superset, each pairing calls one to one.
func TestOrdersUnorderedAndSubset(t *testing.T) {
	search := agenttest.CallTo("search").With(agenttest.Args{"city": "Paris"})
	book := agenttest.CallTo("book")
	sms := agenttest.CallTo("sms")
	tests := []struct {
		name     string
		actual   []agentcheck.ToolCall
		order    trajectory.Mode
		expected []agenttest.ExpectedCall
		ok       bool
	}{
		{"unordered, swapped", calls(`book {}`, `search {"city":"Paris"}`), trajectory.Unordered, []agenttest.ExpectedCall{search, book}, true},
		{"unordered, one extra", calls(`book {}`, `search {"city":"Paris"}`, `sms {}`), trajectory.Unordered, []agenttest.ExpectedCall{search, book}, false},
		{"unordered, one missing", calls(`book {}`), trajectory.Unordered, []agenttest.ExpectedCall{search, book}, false},
		{"unordered, a call repeated for two expected", calls(`book {}`), trajectory.Unordered, []agenttest.ExpectedCall{book, book}, false},
		{"subset, fewer", calls(`book {}`), trajectory.Subset, []agenttest.ExpectedCall{search, book, sms}, true},
		{"subset, none", nil, trajectory.Subset, []agenttest.ExpectedCall{search}, true},
		{"subset, an unexpected call", calls(`book {}`, `pay {}`), trajectory.Subset, []agenttest.ExpectedCall{search, book}, false},
		{"subset, twice but expected once", calls(`book {}`, `book {}`), trajectory.Subset, []agenttest.ExpectedCall{search, book}, false},
		// Greedy would give the first call to the first expectation, which
		// both fit, and leave the second without a partner.
		{"unordered, greedy would fail", calls(`f {"a":1,"b":2}`, `f {"a":1}`), trajectory.Unordered,
			[]agenttest.ExpectedCall{agenttest.CallTo("f").With(agenttest.Args{"a": 1}).AllowingExtraArgs(), agenttest.CallTo("f").With(agenttest.Args{"a": 1, "b": 2})}, true},
		{"subset, greedy would fail", calls(`f {"a":1,"b":2}`, `f {"a":1}`), trajectory.Subset,
			[]agenttest.ExpectedCall{agenttest.CallTo("f").With(agenttest.Args{"a": 1}).AllowingExtraArgs(), agenttest.CallTo("f").With(agenttest.Args{"a": 1, "b": 2}), agenttest.CallTo("g")}, true},
	}
	for _, tt := range tests {
		r := agenttest.CheckToolCalls(tt.actual, tt.order, tt.expected...)
		if r.OK() != tt.ok {
			t.Errorf("%s: OK() = %v, want %v:\n%s", tt.name, r.OK(), tt.ok, r)
		}
	}

	r := agenttest.CheckToolCalls(calls(`book {}`, `search {"city":"Rome"}`, `search {"city":"Paris"}`), trajectory.Unordered, search, book, sms)
	want := `Expected the 3 tool calls made to be these 3, in any order (1 missing, 1 unexpected; -want +got):
    want                       got
  = [0] search(city: "Paris")  [2] search(city: "Paris")
  = [1] book(...)              [0] book()
  - [2] sms(...)
  +                            [1] search(city: "Rome")

  want[2] sms not found: no call to sms was made`
	if r.OK() || r.String() != want {
		t.Errorf("Unordered report:\n%s\nwant:\n%s", r, want)
	}
	r = agenttest.CheckToolCalls(calls(`book {}`, `pay {}`), trajectory.Subset, search, book)
	want = `Expected the 2 tool calls made to be among these 2 (1 unexpected; -want +got):
    want           got
  = [1] book(...)  [0] book()
  +                [1] pay()`
	if r.OK() || r.String() != want {
		t.Errorf("Subset report:\n%s\nwant:\n%s", r, want)
	}
}

func TestCallsByPattern(t *testing.T) {
	actual := calls(`search_web {"q":"x"}`, `search_docs {"q":"y"}`, `book {}`)
	for _, tt := range []struct {
		call  agenttest.ExpectedCall
		count agenttest.Count
		ok    bool
		want  string
	}{
		{agenttest.CallToGlob("search_*"), agenttest.Times(2), true, "search_* was called 2 times:"},
		{agenttest.CallToGlob("search_*"), agenttest.AtMost(1), false, "Expected search_* to be called at most 1 time, but it was called 2 times:"},
		{agenttest.CallToGlob("sms*"), agenttest.Never(), true, "sms* was not called:"},
		{agenttest.CallToRegexp(regexp.MustCompile(`^(book|pay)$`)), agenttest.AtLeastOnce(), true, "/^(book|pay)$/ was called 1 time:"},
		{agenttest.CallToRegexp(regexp.MustCompile(`docs$`)).With(agenttest.Args{"q": "x"}), agenttest.AtLeastOnce(), false, `Expected a call to /docs$/(q: "x") among the 3 tool calls made, but none matches:`},
	} {
		r := agenttest.CheckCalled(actual, tt.call, tt.count)
		if r.OK() != tt.ok || !strings.HasPrefix(r.String(), tt.want) {
			t.Errorf("CheckCalled(%s, %v) = %v:\n%s\nwant it to start %q", tt.call, tt.count, r.OK(), r, tt.want)
		}
	}
	if r := agenttest.CheckCalled(actual, agenttest.CallTo("x"), agenttest.Between(3, 1)); r.Err() == nil || !strings.Contains(r.Err().Error(), "Between(3, 1) is not a count") {
		t.Errorf("Between(3, 1): %v", r.Err())
	}
}

func TestArgumentOptions(t *testing.T) {
	actual := calls(`lookup {"query":"Upgrade","time":{"start":"09:00","end":"10:00"},"request_id":"r-9","trace_id":"t"}`)
	tests := []struct {
		name string
		call agenttest.ExpectedCall
		ok   bool
	}{
		{"nested path ignored", agenttest.CallTo("lookup").With(agenttest.Args{"query": "Upgrade", "time": agenttest.Args{"end": "10:00"}, "request_id": "r-9", "trace_id": "t"}).Ignoring("time.start"), true},
		{"nested path not ignored", agenttest.CallTo("lookup").With(agenttest.Args{"query": "Upgrade", "time": agenttest.Args{"end": "10:00"}, "request_id": "r-9", "trace_id": "t"}), false},
		{"glob ignored", agenttest.CallTo("lookup").With(agenttest.Args{"query": "Upgrade", "time": agenttest.Args{"start": "09:00", "end": "10:00"}}).Ignoring("*_id"), true},
		{"case-insensitive", agenttest.CallTo("lookup").With(agenttest.Args{"query": "upgrade"}).AllowingExtraArgs().Comparing(trajectory.Equivalence{Strings: trajectory.CaseInsensitive}), true},
		{"case matters by default", agenttest.CallTo("lookup").With(agenttest.Args{"query": "upgrade"}).AllowingExtraArgs(), false},
		{"missing args allowed", agenttest.CallTo("lookup").With(agenttest.Args{"query": "Upgrade", "time": agenttest.Anything(), "request_id": "r-9", "trace_id": "t", "limit": 5}).AllowingMissingArgs(), true},
		{"missing args allowed, a value differs", agenttest.CallTo("lookup").With(agenttest.Args{"query": "Other", "time": agenttest.Anything(), "request_id": "r-9", "trace_id": "t"}).AllowingMissingArgs(), false},
		{"missing args allowed, an extra one is not", agenttest.CallTo("lookup").With(agenttest.Args{"query": "Upgrade", "time": agenttest.Anything(), "request_id": "r-9"}).AllowingMissingArgs(), false},
		{"optional absent", agenttest.CallTo("lookup").With(agenttest.Args{"limit": agenttest.Optional(5)}).AllowingExtraArgs(), true},
		{"optional present and wrong", agenttest.CallTo("lookup").With(agenttest.Args{"request_id": agenttest.Optional("r-1")}).AllowingExtraArgs(), false},
	}
	for _, tt := range tests {
		if got := tt.call.Matches(actual[0]); got != tt.ok {
			t.Errorf("%s: %s matches %s = %v, want %v", tt.name, tt.call, actual[0], got, tt.ok)
		}
	}

	// BFCL's string normaliser and a numeric tolerance.
	bfcl := trajectory.Equivalence{Strings: trajectory.BFCLStrings}
	if c := agenttest.CallTo("f").With(agenttest.Args{"city": agenttest.OneOf("san francisco", "SF")}).Comparing(bfcl); !c.Matches(calls(`f {"city":"San_Francisco."}`)[0]) {
		t.Errorf("BFCL normaliser: %s does not match", c)
	}
	if c := agenttest.CallTo("f").With(agenttest.Args{"x": 1.0}).Comparing(trajectory.Equivalence{Tolerance: 0.01}); !c.Matches(calls(`f {"x":1.005}`)[0]) || c.Matches(calls(`f {"x":1.02}`)[0]) {
		t.Errorf("tolerance 0.01: wrong verdicts for %s", c)
	}
	// Arguments that are not an object.
	arr := agentcheck.ToolCall{Name: "orders", Args: jsonvalue.MustParse(`[1,2,3]`)}
	if c := agenttest.CallTo("orders").WithValue([]any{1, 2, 3}); !c.Matches(arr) || c.String() != "orders([1,2,3])" {
		t.Errorf("WithValue: %s matches %v = %v", c, arr, c.Matches(arr))
	}
	r := agenttest.CheckToolCalls([]agentcheck.ToolCall{arr}, trajectory.Strict, agenttest.CallTo("orders").WithValue([]any{1, 2}))
	if r.OK() || !strings.Contains(r.String(), "+ (arguments)[2]: 3  (unexpected)") {
		t.Errorf("WithValue mismatch:\n%s", r)
	}
}

func TestResultsAndKinds(t *testing.T) {
	conv := agentcheck.Conversation{
		{Role: agentcheck.Human, Content: "book a table"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{{ID: "1", Name: "search", Kind: agentcheck.MCPTool}, {ID: "2", Name: "book"}}},
		{Role: agentcheck.Tool, ToolCallID: "2", Content: "no table", IsError: true},
		{Role: agentcheck.Tool, ToolCallID: "1", Content: "3 results"},
		// Calls without IDs are answered in order.
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{{Name: "sms"}, {Name: "mail"}}},
		{Role: agentcheck.Tool, Content: "sent"},
		{Role: agentcheck.Tool, Content: "bounced", IsError: true},
	}
	r := agenttest.CheckToolCalls(conv, trajectory.Strict,
		agenttest.CallTo("search").OfKind(agentcheck.MCPTool).Returning("3 results").Succeeding(),
		agenttest.CallTo("book").Failing(),
		agenttest.CallTo("sms").Returning("sent"),
		agenttest.CallTo("mail").Failing())
	if !r.OK() {
		t.Errorf("results and kinds:\n%s", r)
	}
	r = agenttest.CheckCalled(conv, agenttest.CallTo("search").OfKind(agentcheck.FunctionTool).Returning("4 results"), agenttest.Times(1))
	want := `Expected search(...).OfKind("function").Returning("4 results") to be called 1 time, but it was called 0 times:
  ~ [0] search()
      - (kind): function
      + (kind): mcp
      - (result): "4 results"
      + (result): "3 results"
    [1] book()
    [2] sms()
    [3] mail()`
	if r.OK() || r.String() != want {
		t.Errorf("report:\n%s\nwant:\n%s", r, want)
	}
	r = agenttest.CheckCalled(conv, agenttest.CallTo("book").Succeeding(), agenttest.Times(1))
	if r.OK() || !strings.Contains(r.String(), "- (result): success\n      + (result): error \"no table\"") {
		t.Errorf("Succeeding on a failed call:\n%s", r)
	}
	// A Gomega-style matcher on the result, and a call nothing answers.
	conv = append(conv[:2:2], agentcheck.Message{Role: agentcheck.Tool, ToolCallID: "1", Content: "3 results"})
	if r := agenttest.CheckCalled(conv, agenttest.CallTo("search").Returning(agenttest.OneOf("3 results", "4 results")), agenttest.Times(1)); !r.OK() {
		t.Errorf("Returning(OneOf): %s", r)
	}
	r = agenttest.CheckCalled(conv, agenttest.CallTo("book").Failing(), agenttest.Times(1))
	if r.OK() || !strings.Contains(r.String(), "the transcript has no tool message answering this call") {
		t.Errorf("unanswered call:\n%s", r)
	}
	// []ToolCall has no results at all.
	if r := agenttest.CheckCalled(conv.ToolCalls(), agenttest.CallTo("search").Returning("3 results"), agenttest.Times(1)); r.OK() {
		t.Errorf("results from bare calls: %s", r)
	}
}
