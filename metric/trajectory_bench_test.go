package metric_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/trajectory"
)

// tjBenchExpected is a realistic expectation: n calls to ten tools, each
// with two to four arguments (strings, numbers, a nested object).
func tjBenchExpected(n int) []agentcheck.ToolCall {
	tools := []string{"search", "get_weather", "book_flight", "send_email", "lookup_user", "create_ticket", "list_files", "read_file", "translate", "calendar_add"}
	calls := make([]agentcheck.ToolCall, n)
	for i := range calls {
		args := fmt.Sprintf(`{"id":%d,"q":"request number %d"`, i, i)
		if i%3 != 0 {
			args += fmt.Sprintf(`,"limit":%d`, 5+i%7)
		}
		if i%2 == 0 {
			args += fmt.Sprintf(`,"opts":{"lang":"en","page":%d}`, i%4)
		}
		calls[i] = agentcheck.MustParseToolCall(tools[i%len(tools)], args+"}")
	}
	return calls
}

// tjBenchMade is what an agent that passes made: the expected calls, with
// an argument fewer (subset) or one more (superset), shuffled for the
// modes that allow any order.
func tjBenchMade(exp []agentcheck.ToolCall, mode trajectory.Mode, args trajectory.ArgsMode) []agentcheck.ToolCall {
	made := make([]agentcheck.ToolCall, len(exp))
	for i, c := range exp {
		ms := c.Args.Members()
		switch args {
		case trajectory.ArgsSubset:
			ms = ms[:len(ms)-1]
		case trajectory.ArgsSuperset:
			ms = append(append([]jsonvalue.Member(nil), ms...), jsonvalue.Member{Key: "trace", Value: jsonvalue.Int(int64(i))})
		}
		made[i] = agentcheck.ToolCall{Name: c.Name, Args: jsonvalue.Object(ms...)}
	}
	if mode == trajectory.Unordered || mode == trajectory.Subset || mode == trajectory.Superset {
		r := rand.New(rand.NewPCG(7, 7))
		r.Shuffle(len(made), func(i, j int) { made[i], made[j] = made[j], made[i] })
	}
	return made
}

// tjBenchOneTool is the worst case: n calls to one tool where half the
// calls on one side fit every call on the other, in the order that makes a
// first-fit pairing take the calls the specific ones need.
func tjBenchOneTool(n int, args trajectory.ArgsMode) (made, exp []agentcheck.ToolCall) {
	half := n / 2
	specific := func(k int) agentcheck.ToolCall {
		return agentcheck.MustParseToolCall("search", fmt.Sprintf(`{"k":%d,"q":"x"}`, k))
	}
	empty := agentcheck.MustParseToolCall("search", `{}`)
	other := agentcheck.MustParseToolCall("search", `{"z":1,"q":"x"}`)
	for i := range half {
		if args == trajectory.ArgsSubset { // made {} fits any expected call
			made = append(made, empty)
			exp = append(exp, specific(i))
		} else { // expected {} is in any call made
			made = append(made, specific(i))
			exp = append(exp, empty)
		}
	}
	for i := range n - half {
		if args == trajectory.ArgsSubset {
			made = append(made, specific(i))
			exp = append(exp, other)
		} else {
			made = append(made, other)
			exp = append(exp, specific(i))
		}
	}
	return made, exp
}

var tjSink metric.Result

var (
	tjModes    = []trajectory.Mode{trajectory.Strict, trajectory.Unordered, trajectory.Subset, trajectory.Superset, trajectory.InOrder}
	tjArgModes = []trajectory.ArgsMode{trajectory.ArgsExact, trajectory.ArgsIgnore, trajectory.ArgsSubset, trajectory.ArgsSuperset}
)

func tjBench(b *testing.B, m metric.TrajectoryMatch, made, exp []agentcheck.ToolCall, want float64) {
	b.Helper()
	if r := m.Compare(made, exp); r.Score != want {
		b.Fatalf("Expected the benchmark's comparison to score %v, but it scores %v: %.300s", want, r.Score, r.Reason)
	}
	b.ReportAllocs()
	for b.Loop() {
		tjSink = m.Compare(made, exp)
	}
}

// BenchmarkTrajectoryMatch compares 200 calls with 200 expected calls in
// every mode: a realistic trajectory that passes, and (one_tool) 200 calls
// to one tool whose arguments make first-fit pairing fail, so that the
// general matching runs.
func BenchmarkTrajectoryMatch(b *testing.B) {
	const n = 200
	exp := tjBenchExpected(n)
	for _, mode := range tjModes {
		for _, args := range tjArgModes {
			b.Run(fmt.Sprintf("%s/%s", mode, args), func(b *testing.B) {
				tjBench(b, metric.TrajectoryMatch{Mode: mode, Args: args}, tjBenchMade(exp, mode, args), exp, 1)
			})
		}
		for _, args := range []trajectory.ArgsMode{trajectory.ArgsSubset, trajectory.ArgsSuperset} {
			b.Run(fmt.Sprintf("%s/%s/one_tool", mode, args), func(b *testing.B) {
				made, exp := tjBenchOneTool(n, args)
				want := 1.0
				if mode == trajectory.Strict || mode == trajectory.InOrder {
					want = 0 // the calls that fit are not in place
				}
				tjBench(b, metric.TrajectoryMatch{Mode: mode, Args: args}, made, exp, want)
			})
		}
	}
}

// BenchmarkTrajectoryMatchScoring is the partial scores on the realistic
// 200-call trajectory: ScoreRecall and ScorePartialArgs solve an
// assignment (or, in order, a weighted longest common subsequence).
func BenchmarkTrajectoryMatchScoring(b *testing.B) {
	const n = 200
	exp := tjBenchExpected(n)
	for _, s := range []struct {
		name    string
		scoring trajectory.Scoring
	}{{"recall", trajectory.ScoreRecall}, {"partial_args", trajectory.ScorePartialArgs}} {
		for _, mode := range tjModes {
			b.Run(fmt.Sprintf("%s/%s", s.name, mode), func(b *testing.B) {
				tjBench(b, metric.TrajectoryMatch{Mode: mode, Scoring: s.scoring}, tjBenchMade(exp, mode, trajectory.ArgsExact), exp, 1)
			})
		}
	}
}
