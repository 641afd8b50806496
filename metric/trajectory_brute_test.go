package metric_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/trajectory"
)

// TrajectoryMatch against a brute force: every assignment of made calls to
// expected ones tried, each pair judged by an oracle written apart from
// the engine.

// tjOracle is an independent statement of the semantics: does made match
// exp under args, and what does the pair earn.
func tjOracle(args trajectory.ArgsMode, made, exp agentcheck.ToolCall) (bool, float64) {
	if made.Name != exp.Name { // a call's kind does not count
		return false, 0
	}
	within := func(small, big jsonvalue.Value) bool {
		for _, mb := range small.Members() {
			v, ok := big.Get(mb.Key)
			if !ok || !jsonvalue.Equal(v, mb.Value) {
				return false
			}
		}
		return true
	}
	var ok bool
	switch {
	case args == trajectory.ArgsIgnore:
		return true, 1
	case made.InvalidArgs != "" || exp.InvalidArgs != "":
		return false, 0
	}
	switch args {
	case trajectory.ArgsExact:
		ok = jsonvalue.Equal(made.Args, exp.Args)
		return ok, trajectory.ArgsCredit(made.Args, exp.Args)
	case trajectory.ArgsSubset:
		ok = within(made.Args, exp.Args)
	default:
		ok = within(exp.Args, made.Args)
	}
	if ok {
		return true, 1
	}
	return false, 0
}

// tjBrute tries every one-to-one pairing of made with expected calls
// (every injection of a subset of the expected calls into the calls made),
// optionally only the order-preserving ones, and returns the most pairs
// that match and the most credit a pairing earns. Each pair is judged once,
// before the walk, which then only looks the judgments up.
func tjBrute(args trajectory.ArgsMode, made, exp []agentcheck.ToolCall, inOrder bool) (int, float64) {
	type judged struct {
		ok     bool
		credit float64
	}
	pair := make([][]judged, len(exp))
	for j := range exp {
		pair[j] = make([]judged, len(made))
		for i := range made {
			pair[j][i].ok, pair[j][i].credit = tjOracle(args, made[i], exp[j])
		}
	}
	used := make([]bool, len(made))
	bestN, bestC := 0, 0.0
	var walk func(j, last, n int, c float64)
	walk = func(j, last, n int, c float64) {
		if j == len(exp) {
			bestN, bestC = max(bestN, n), max(bestC, c)
			return
		}
		walk(j+1, last, n, c)
		for i := range made {
			if used[i] || inOrder && i <= last {
				continue
			}
			p := pair[j][i]
			if p.credit == 0 {
				continue
			}
			used[i] = true
			walk(j+1, i, n+int(tjOne(p.ok)), c+p.credit)
			used[i] = false
		}
	}
	walk(0, -1, 0, 0)
	return bestN, bestC
}

func tjOne(b bool) float64 { // 1 for true, 0 for false
	if b {
		return 1
	}
	return 0
}

func tjRandomCalls(r *rand.Rand, n int) []agentcheck.ToolCall {
	calls := make([]agentcheck.ToolCall, n)
	for i := range calls {
		var args []string
		for _, k := range []string{"a", "b"} {
			if r.IntN(3) > 0 {
				args = append(args, fmt.Sprintf("%q:%s", k, []string{"1", "2", "1", "2", `{"x":1}`, `{"x":2,"y":1}`, `{"x":1,"y":1}`}[r.IntN(7)]))
			}
		}
		calls[i] = agentcheck.MustParseToolCall([]string{"f", "g"}[r.IntN(2)], "{"+strings.Join(args, ",")+"}")
		switch r.IntN(16) {
		case 0:
			calls[i].Kind = agentcheck.MCPTool
		case 1:
			calls[i].Args, calls[i].InvalidArgs = jsonvalue.Value{}, `{"a":`
		}
	}
	return calls
}

// TestTrajectoryMatchAgainstBruteForce: on random small trajectories, the
// verdicts and partial scores equal those of the best pairing found by
// trying them all, so the matching is optimal, not first-fit.
//
// The 300 cases are drawn first, then checked in four parallel parts;
// FuzzTrajectoryMatchAgainstBruteForce draws more. They cover the code of
// metric and trajectory that the 1,000 it had covered (go test
// -coverprofile -coverpkg ./metric,./trajectory: the same blocks), at
// under a third of their CPU under -race (3,000 took 4.9 s).
func TestTrajectoryMatchAgainstBruteForce(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	r := rand.New(rand.NewPCG(2026, 11))
	var cases [300][2][]agentcheck.ToolCall // made, expected
	for i := range cases {
		cases[i][0], cases[i][1] = tjRandomCase(r)
	}
	const parts = 4
	for p := range parts {
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			t.Parallel()
			for i := p; i < len(cases); i += parts {
				tjCheckAgainstBruteForce(t, cases[i][0], cases[i][1])
			}
		})
	}
}

// tjRandomCase draws the calls made and the calls expected of a case.
func tjRandomCase(r *rand.Rand) (made, exp []agentcheck.ToolCall) {
	made, exp = tjRandomCalls(r, r.IntN(6)), tjRandomCalls(r, r.IntN(6))
	if r.IntN(3) == 0 { // often a shuffle of the expected calls, so that verdicts pass too
		made = append([]agentcheck.ToolCall(nil), exp...)
		r.Shuffle(len(made), func(i, j int) { made[i], made[j] = made[j], made[i] })
	}
	return made, exp
}

// FuzzTrajectoryMatchAgainstBruteForce is TestTrajectoryMatchAgainstBruteForce
// on the cases its two seeds draw.
func FuzzTrajectoryMatchAgainstBruteForce(f *testing.F) {
	f.Add(uint64(2026), uint64(11))
	f.Add(uint64(1), uint64(2))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		r := rand.New(rand.NewPCG(a, b))
		for range 20 {
			made, exp := tjRandomCase(r)
			tjCheckAgainstBruteForce(t, made, exp)
		}
	})
}

// tjCheckAgainstBruteForce fails t unless TrajectoryMatch scores made
// against exp, in every mode, argument mode and scoring, as the best
// pairing found by trying them all does.
func tjCheckAgainstBruteForce(t *testing.T, made, exp []agentcheck.ToolCall) {
	t.Helper()
	modes := []trajectory.Mode{trajectory.Strict, trajectory.Unordered, trajectory.Subset, trajectory.Superset, trajectory.InOrder}
	argModes := []trajectory.ArgsMode{trajectory.ArgsExact, trajectory.ArgsIgnore, trajectory.ArgsSubset, trajectory.ArgsSuperset}
	nm, ne := len(made), len(exp)
	for _, args := range argModes {
		strictN, strictC := 0, 0.0
		for k := range min(nm, ne) {
			ok, c := tjOracle(args, made[k], exp[k])
			strictN += int(tjOne(ok))
			strictC += c
		}
		anyN, anyC := tjBrute(args, made, exp, false)
		ordN, ordC := tjBrute(args, made, exp, true)
		for _, mode := range modes {
			var pass bool
			var n, denom int
			var c float64
			switch mode {
			case trajectory.Strict:
				pass, n, c, denom = nm == ne && strictN == nm, strictN, strictC, max(nm, ne)
			case trajectory.Unordered:
				pass, n, c, denom = anyN == nm && anyN == ne, anyN, anyC, max(nm, ne)
			case trajectory.Subset:
				pass, n, c, denom = anyN == nm, anyN, anyC, nm
			case trajectory.Superset:
				pass, n, c, denom = anyN == ne, anyN, anyC, ne
			default:
				pass, n, c, denom = ordN == ne, ordN, ordC, ne
			}
			ratio := func(x float64) float64 {
				if denom == 0 {
					return 1
				}
				return x / float64(denom)
			}
			if args != trajectory.ArgsExact {
				c = float64(n) // credit is all or nothing
			}
			for scoring, want := range map[trajectory.Scoring]float64{trajectory.ScoreAll: tjOne(pass), trajectory.ScoreRecall: ratio(float64(n)), trajectory.ScorePartialArgs: ratio(c)} {
				m := metric.TrajectoryMatch{Mode: mode, Args: args, Scoring: scoring}
				res := m.Compare(made, exp)
				if math.Abs(res.Score-want) > 1e-9 {
					t.Fatalf("Expected %s/%s scoring %d of %v against %v to score %v as the best pairing does, but it scores %v: %s", mode, args, scoring, made, exp, want, res.Score, res.Reason)
				}
				tjCheckPairs(t, res, nm, ne)
			}
		}
	}
}
