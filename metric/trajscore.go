package metric

// Partial scores of TrajectoryMatch: ScoreRecall and ScorePartialArgs.

import (
	"math"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/assign"
)

// ArgsCredit is the share of arguments two calls agree on, DeepEval's
// partial credit: over the union of the top-level keys of two argument
// objects, a key both have earns 1 when the values are equal, its own
// ArgsCredit when both are objects, and 0 otherwise; a key only one has
// earns 0. Two empty objects agree fully; values that are not objects earn
// 1 when equal and 0 otherwise.
func ArgsCredit(made, expected agentcheck.Value) float64 {
	return argsCredit(made, expected, nil)
}

func argsCredit(made, expected agentcheck.Value, eq *Equivalence) float64 {
	obj := func(v agentcheck.Value) bool {
		return v.Kind() == agentcheck.ObjectKind || v.Kind() == agentcheck.NullKind
	}
	if !obj(made) || !obj(expected) {
		return b2f(eq.Equal(made, expected))
	}
	union := len(expected.Members())
	sum := 0.0
	for _, mb := range expected.Members() {
		mv, ok := made.Get(mb.Key)
		if !ok {
			continue
		}
		if mv.Kind() == agentcheck.ObjectKind && mb.Value.Kind() == agentcheck.ObjectKind {
			sum += argsCredit(mv, mb.Value, eq)
		} else if eq.Equal(mv, mb.Value) {
			sum++
		}
	}
	for _, mb := range made.Members() {
		if _, ok := expected.Get(mb.Key); !ok {
			union++
		}
	}
	if union == 0 {
		return 1
	}
	return sum / float64(union)
}

// credit is what made call i earns against expected call j: 0 for
// another tool, else 1 or 0 by matches, or with partial the share of
// arguments that agree.
func (tm *trajMatcher) credit(i, j int, partial bool) float64 {
	a, e := tm.made[i], tm.exp[j]
	if a.Name != e.Name || a.Kind != e.Kind {
		return 0
	}
	if !partial || tm.m.comparator(a.Name) != nil || tm.m.argsFor(a.Name) != ArgsExact {
		return b2f(tm.matches(i, j))
	}
	if a.InvalidArgs != "" || e.InvalidArgs != "" {
		return 0
	}
	aa, ea := a.Args, e.Args
	if ign := tm.m.ignoredFor(a.Name); len(ign) > 0 {
		aa, ea = prune(aa, ign), prune(ea, ign)
	}
	var eq *Equivalence
	if !tm.m.Values.zero() {
		eq = &tm.m.Values
	}
	return argsCredit(aa, ea, eq)
}

// partial scores by credit: the pairing that earns most (in order for
// TrajectoryStrict and TrajectoryInOrder), its total over the number of
// calls the mode answers for: the expected calls (superset, in order), the
// calls made (subset), or the larger of the two (strict, unordered).
func (tm *trajMatcher) partial(partial bool) ([]CallPair, float64) {
	nm, ne := len(tm.made), len(tm.exp)
	var denom int
	switch tm.m.Mode {
	case TrajectorySuperset, TrajectoryInOrder:
		denom = ne
	case TrajectorySubset:
		denom = nm
	default:
		denom = max(nm, ne)
	}
	var pairs []CallPair
	total := 0.0
	switch tm.m.Mode {
	case TrajectoryStrict:
		for k := range max(nm, ne) {
			switch {
			case k >= nm:
				pairs = append(pairs, CallPair{Reference: k, Predicted: -1})
			case k >= ne:
				pairs = append(pairs, CallPair{Reference: -1, Predicted: k})
			default:
				c := tm.credit(k, k, partial)
				total += c
				pairs = append(pairs, CallPair{Reference: k, Predicted: k, Score: c})
			}
		}
	case TrajectoryInOrder:
		pairs, total = tm.inOrderCredit(partial)
	default:
		pairs, total = tm.assignCredit(partial)
	}
	if denom == 0 {
		return pairs, 1
	}
	return pairs, total / float64(denom)
}

// inOrderCredit pairs calls in order for the most credit: a weighted
// longest common subsequence.
func (tm *trajMatcher) inOrderCredit(partial bool) ([]CallPair, float64) {
	nm, ne := len(tm.made), len(tm.exp)
	w := ne + 1
	dp := make([]float64, (nm+1)*w)
	c := make([]float64, nm*ne)
	for i := 1; i <= nm; i++ {
		for j := 1; j <= ne; j++ {
			c[(i-1)*ne+j-1] = tm.credit(i-1, j-1, partial)
			best := max(dp[(i-1)*w+j], dp[i*w+j-1])
			if x := c[(i-1)*ne+j-1]; x > 0 {
				best = max(best, dp[(i-1)*w+j-1]+x)
			}
			dp[i*w+j] = best
		}
	}
	var rev []CallPair
	i, j := nm, ne
	for i > 0 && j > 0 {
		x := c[(i-1)*ne+j-1]
		switch {
		case x > 0 && dp[i*w+j] == dp[(i-1)*w+j-1]+x:
			rev = append(rev, CallPair{Reference: j - 1, Predicted: i - 1, Score: x})
			i, j = i-1, j-1
		case dp[i*w+j] == dp[(i-1)*w+j]:
			rev = append(rev, CallPair{Reference: -1, Predicted: i - 1})
			i--
		default:
			rev = append(rev, CallPair{Reference: j - 1, Predicted: -1})
			j--
		}
	}
	for ; i > 0; i-- {
		rev = append(rev, CallPair{Reference: -1, Predicted: i - 1})
	}
	for ; j > 0; j-- {
		rev = append(rev, CallPair{Reference: j - 1, Predicted: -1})
	}
	pairs := make([]CallPair, len(rev))
	for k := range rev {
		pairs[k] = rev[len(rev)-1-k]
	}
	return pairs, dp[nm*w+ne]
}

// creditScale turns credits into the integer costs of the assignment.
const creditScale = 1 << 20

// assignCredit pairs calls regardless of order for the most credit: the
// assignment problem, solved by the same solver as ToolCallMatch's.
func (tm *trajMatcher) assignCredit(partial bool) ([]CallPair, float64) {
	nm, ne := len(tm.made), len(tm.exp)
	var pairs []CallPair
	total := 0.0
	used := make([]bool, nm)
	if ne > 0 {
		cols := nm + ne // a column of its own for each expected call left alone
		cost := make([]int64, ne*cols)
		credits := make([]float64, ne*nm)
		for j := range ne {
			row := cost[j*cols : (j+1)*cols]
			for i := range nm {
				x := tm.credit(i, j, partial)
				credits[j*nm+i] = x
				row[i] = creditScale - int64(math.Round(x*creditScale))
			}
			for i := nm; i < cols; i++ {
				row[i] = creditScale
			}
		}
		var s assign.Solver
		for j, i := range s.Solve(cost, ne, cols) {
			if i := int(i); i < nm && credits[j*nm+i] > 0 {
				used[i] = true
				total += credits[j*nm+i]
				pairs = append(pairs, CallPair{Reference: j, Predicted: i, Score: credits[j*nm+i]})
				continue
			}
			pairs = append(pairs, CallPair{Reference: j, Predicted: -1})
		}
	}
	for i := range nm {
		if !used[i] {
			pairs = append(pairs, CallPair{Reference: -1, Predicted: i})
		}
	}
	return pairs, total
}
