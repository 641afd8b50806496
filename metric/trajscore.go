package metric

// Partial scores of TrajectoryMatch: ScoreRecall and ScorePartialArgs.

import (
	"math"
	"slices"

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
	mk, ek := &tm.mk[i], &tm.ek[j]
	if mk.name != ek.name {
		return 0
	}
	if !partial || mk.cmp != nil || mk.mode != ArgsExact || mk.invalid || ek.invalid {
		return b2f(tm.matches(i, j))
	}
	var eq *Equivalence
	if !tm.m.Values.zero() {
		eq = &tm.m.Values
	}
	if !mk.object || !ek.object || eq != nil && eq.Tolerance != 0 {
		a, e := &tm.made[i], &tm.exp[j]
		aa, ea := a.Args, e.Args
		if ign := tm.m.ignoredFor(a.Name); len(ign) > 0 {
			aa, ea = prune(aa, ign), prune(ea, ign)
		}
		return argsCredit(aa, ea, eq)
	}
	// Over the union of the members' keys, by their ids: equal values earn
	// 1, two objects their own credit.
	union, sum := len(mk.members)+len(ek.members), 0.0
	x := 0
	for _, em := range ek.members {
		for x < len(mk.members) && mk.members[x].key < em.key {
			x++
		}
		if x == len(mk.members) || mk.members[x].key != em.key {
			continue
		}
		union--
		am := &mk.members[x]
		switch {
		case am.value == em.value:
			sum++
		case am.v.Kind() == agentcheck.ObjectKind && em.v.Kind() == agentcheck.ObjectKind:
			sum += argsCredit(am.v, em.v, eq)
		}
	}
	if union == 0 {
		return 1
	}
	return sum / float64(union)
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
				pairs = append(pairs, CallPair{Reference: k, Predicted: k, Matched: c == 1, Score: c})
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
// longest common subsequence. A first (or last) made and expected call
// that earn full credit together are paired at once: some best pairing
// pairs them, as any pair either would take instead earns no more. Only
// what lies between goes through the dynamic program.
func (tm *trajMatcher) inOrderCredit(partial bool) ([]CallPair, float64) {
	nm, ne := len(tm.made), len(tm.exp)
	lo := 0
	for lo < nm && lo < ne && tm.credit(lo, lo, partial) == 1 {
		lo++
	}
	hm, he := nm, ne
	for hm > lo && he > lo && tm.credit(hm-1, he-1, partial) == 1 {
		hm, he = hm-1, he-1
	}
	pairs := make([]CallPair, 0, max(nm, ne))
	for k := range lo {
		pairs = append(pairs, CallPair{Reference: k, Predicted: k, Matched: true, Score: 1})
	}
	total := float64(lo + (nm - hm))

	// The calls between: made [lo, hm) against expected [lo, he).
	m, n := hm-lo, he-lo
	w := n + 1
	dp := make([]float64, (m+1)*w)
	for i := 1; i <= m; i++ {
		for j := 1; j <= n; j++ {
			best := max(dp[(i-1)*w+j], dp[i*w+j-1])
			if x := tm.credit(lo+i-1, lo+j-1, partial); x > 0 {
				best = max(best, dp[(i-1)*w+j-1]+x)
			}
			dp[i*w+j] = best
		}
	}
	total += dp[m*w+n]
	var rev []CallPair
	i, j := m, n
	for i > 0 && j > 0 {
		x := tm.credit(lo+i-1, lo+j-1, partial)
		switch {
		case x > 0 && dp[i*w+j] == dp[(i-1)*w+j-1]+x:
			rev = append(rev, CallPair{Reference: lo + j - 1, Predicted: lo + i - 1, Matched: x == 1, Score: x})
			i, j = i-1, j-1
		case dp[i*w+j] == dp[(i-1)*w+j]:
			rev = append(rev, CallPair{Reference: -1, Predicted: lo + i - 1})
			i--
		default:
			rev = append(rev, CallPair{Reference: lo + j - 1, Predicted: -1})
			j--
		}
	}
	for ; i > 0; i-- {
		rev = append(rev, CallPair{Reference: -1, Predicted: lo + i - 1})
	}
	for ; j > 0; j-- {
		rev = append(rev, CallPair{Reference: lo + j - 1, Predicted: -1})
	}
	for k := len(rev) - 1; k >= 0; k-- {
		pairs = append(pairs, rev[k])
	}
	for k := range nm - hm {
		pairs = append(pairs, CallPair{Reference: he + k, Predicted: hm + k, Matched: true, Score: 1})
	}
	return pairs, total
}

// creditScale turns credits into the integer costs of the assignment.
const creditScale = 1 << 20

// assignCredit pairs calls regardless of order for the most credit. With
// credits of 1 or 0 that is a maximum matching; with partial credit, the
// assignment problem (the same solver as ToolCallMatch's), solved tool by
// tool, since calls of different tools earn nothing together.
func (tm *trajMatcher) assignCredit(partial bool) ([]CallPair, float64) {
	nm, ne := len(tm.made), len(tm.exp)
	mate := make([]int, ne) // expected call -> made call, or -1
	credit := make([]float64, ne)
	if !partial {
		mate = tm.pairing(0, nm, 0, ne)
		for j, i := range mate {
			if i >= 0 {
				credit[j] = 1
			}
		}
	} else {
		for j := range mate {
			mate[j] = -1
		}
		madeOf := make(map[int32][]int, nm)
		for i := range nm {
			madeOf[tm.mk[i].name] = append(madeOf[tm.mk[i].name], i)
		}
		expOf := make(map[int32][]int, ne)
		var names []int32
		for j := range ne {
			n := tm.ek[j].name
			if len(expOf[n]) == 0 {
				names = append(names, n)
			}
			expOf[n] = append(expOf[n], j)
		}
		var s assign.Solver
		var cost []int64
		var credits []float64
		for _, n := range names {
			rows, made := expOf[n], madeOf[n]
			if len(made) == 0 {
				continue
			}
			cols := len(made) + len(rows) // a column of its own for each expected call left alone
			cost = slices.Grow(cost[:0], len(rows)*cols)[:len(rows)*cols]
			credits = slices.Grow(credits[:0], len(rows)*len(made))[:len(rows)*len(made)]
			for r, j := range rows {
				row := cost[r*cols : (r+1)*cols]
				for c, i := range made {
					x := tm.credit(i, j, true)
					credits[r*len(made)+c] = x
					row[c] = creditScale - int64(math.Round(x*creditScale))
				}
				for c := len(made); c < cols; c++ {
					row[c] = creditScale
				}
			}
			for r, c := range s.Solve(cost, len(rows), cols) {
				if c := int(c); c < len(made) && credits[r*len(made)+c] > 0 {
					mate[rows[r]], credit[rows[r]] = made[c], credits[r*len(made)+c]
				}
			}
		}
	}
	var pairs []CallPair
	total := 0.0
	used := make([]bool, nm)
	for j, i := range mate {
		if i >= 0 {
			used[i] = true
			total += credit[j]
			pairs = append(pairs, CallPair{Reference: j, Predicted: i, Matched: credit[j] == 1, Score: credit[j]})
			continue
		}
		pairs = append(pairs, CallPair{Reference: j, Predicted: -1})
	}
	for i := range nm {
		if !used[i] {
			pairs = append(pairs, CallPair{Reference: -1, Predicted: i})
		}
	}
	return pairs, total
}
