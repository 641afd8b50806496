package require_test

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/agenttest/require"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/trajectory"
	"github.com/stretchr/testify/suite"
	"go.uber.org/goleak"
)

// The requires run on goroutines of their own, as tests do; none may be
// left when the tests end.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// stopT stops the goroutine on FailNow, as *testing.T does, and records
// what the assertions did.
type stopT struct {
	errors  []string
	failNow int
	attrs   map[string]string
}

func (s *stopT) Errorf(format string, args ...any) {
	s.errors = append(s.errors, fmt.Sprintf(format, args...))
}
func (s *stopT) FailNow()     { s.failNow++; runtime.Goexit() }
func (s *stopT) Name() string { return "TestBooking" }
func (s *stopT) Attr(key, value string) {
	if s.attrs == nil {
		s.attrs = map[string]string{}
	}
	s.attrs[key] = value
}

// run runs body as a test runs, on a goroutine of its own, and reports
// whether it got to its end.
func (s *stopT) run(body func()) (finished bool) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		body()
		finished = true
	}()
	wg.Wait()
	return finished
}

var travel = agentcheck.Sample{
	Conversation: agentcheck.Conversation{
		{Role: agentcheck.Human, Content: "Book me a hotel in Paris"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{
			agentcheck.MustParseToolCall("search", `{"city":"paris"}`),
			agentcheck.MustParseToolCall("book", `{"hotel":"A","nights":2}`),
		}},
	},
	ReferenceToolCalls: []agentcheck.ToolCall{
		agentcheck.MustParseToolCall("search", `{"city":"Paris"}`),
		agentcheck.MustParseToolCall("book", `{"hotel":"A","nights":2}`),
	},
}

func TestRequireStopsTheTest(t *testing.T) {
	search := agenttest.CallTo("search").With(agenttest.Args{"city": "Paris"})
	for name, assert := range map[string]func(require.TestingT){
		"ToolCalls": func(t require.TestingT) {
			require.ToolCalls(t, travel, trajectory.Strict, require.Calls{search}, "booking %d", 1)
		},
		"Called":    func(t require.TestingT) { require.Called(t, travel, search, agenttest.Times(1), "booking %d", 1) },
		"NotCalled": func(t require.TestingT) { require.NotCalled(t, travel, "book", "booking %d", 1) },
		"Score":     func(t require.TestingT) { require.Score(t, metric.ToolCallAccuracy{}, travel, 0.9, "booking %d", 1) },
		"Check": func(t require.TestingT) {
			require.Check(t, "custom", travel, agenttest.CheckCalled(travel, agenttest.CallTo("pay"), agenttest.AtLeastOnce()), "booking %d", 1)
		},
	} {
		t.Run(name, func(t *testing.T) {
			st := &stopT{}
			if st.run(func() { assert(st) }) {
				t.Error("the test went on after a failed require")
			}
			if st.failNow != 1 || len(st.errors) != 1 {
				t.Fatalf("FailNow called %d times, errors %q", st.failNow, st.errors)
			}
			for _, want := range []string{"\n\tError Trace:\t", "\n\tError:      \tExpected ", "\n\tTest:       \tTestBooking\n", "\n\tMessages:   \tbooking 1\n"} {
				if !strings.Contains(st.errors[0], want) {
					t.Errorf("failure lacks %q:\n%s", want, st.errors[0])
				}
			}
			if st.attrs["agentcheck.verdict"] != "fail" {
				t.Errorf("attributes: %v", st.attrs)
			}
		})
	}
}

func TestRequirePassesOn(t *testing.T) {
	st := &stopT{}
	finished := st.run(func() {
		require.ToolCalls(st, travel, trajectory.Superset, require.Calls{agenttest.CallTo("book")})
		require.Called(st, travel, agenttest.CallTo("search"), agenttest.AtLeastOnce())
		require.NotCalled(st, travel, "cancel")
		require.Score(st, metric.ToolCallAccuracy{}, travel, 0.5)
	})
	if !finished || st.failNow != 0 || len(st.errors) != 0 {
		t.Errorf("passing requires: finished %v, FailNow %d, errors %q", finished, st.failNow, st.errors)
	}
	if st.attrs["agentcheck.tool_call_accuracy"] != "0.5" || st.attrs["agentcheck.check"] != "score" {
		t.Errorf("attributes: %v", st.attrs)
	}
}

// BookingSuite is a testify suite whose tests require with agentcheck.
type BookingSuite struct {
	suite.Suite
	reached bool
}

func (s *BookingSuite) TestBooksTheHotel() {
	require.ToolCalls(s.T(), travel, trajectory.InOrder, require.Calls{agenttest.CallTo("search"), agenttest.CallTo("book")})
	require.Called(s.T(), travel, agenttest.CallTo("book").With(agenttest.Args{"hotel": "A", "nights": 2}), agenttest.Times(1))
	require.NotCalled(s.T(), travel, "cancel")
	require.Score(s.T(), metric.ToolCallAccuracy{}, travel, 0.5, "the search is for %q", "paris")
	s.reached = true
}

func TestInASuite(t *testing.T) {
	s := new(BookingSuite)
	suite.Run(t, s)
	if !s.reached {
		t.Error("passing requires stopped the suite's test")
	}
}
