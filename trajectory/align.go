package trajectory

import (
	"math"
	"slices"

	"github.com/agentcheck/agentcheck/internal/assign"
)

// Comparer compares the calls made with the expected calls, by index, for
// Align: it is how a front end with expectations of its own (agenttest's
// ExpectedCall, with Gomega matchers as argument values and patterns of
// tool names) plugs into the engine.
type Comparer interface {
	// Compare compares call made i with expected call j.
	Compare(made, expected int) Comparison
}

// Comparison is how one call made compares with one expected call.
type Comparison struct {
	// Match: the expected call accepts the call made.
	Match bool
	// SameTool: the call is of the expected tool, whether or not it
	// matches. Calls of other tools never pair, but in Strict mode.
	SameTool bool
	// Distance is how far a call of the same tool that does not match is
	// from the expected call, from 0 to 1 (the share of arguments that
	// differ): an expected call that matches nothing pairs, in a report,
	// with the closest call it can.
	Distance float64
}

// Pair is an expected call and the call made it pairs with; either index
// is -1 when that side has no partner.
type Pair struct {
	Made, Expected int
	// Match: the pair counts as a match. A pair that does not match stands
	// for an expected call and the call that comes closest to it.
	Match bool
	// Credit is what the pair earns: 1 or 0, or with ScorePartialArgs and
	// ScoreF1 the share of arguments that agree.
	Credit float64
}

// Alignment is how the calls made pair with the expected ones.
type Alignment struct {
	// Pairs has each call made and each expected call exactly once. In
	// Strict and InOrder modes they come in the order of the alignment, as
	// a diff lists lines; otherwise the expected calls come by index, then
	// the calls made that pair with none.
	Pairs []Pair
	// Matched is the number of pairs that match.
	Matched int
	// OK is the mode's verdict.
	OK bool
}

// Align pairs made calls with expected calls in mode for a report: as
// many pairs that match as there can be (the verdict), and the expected
// calls that match nothing each with the closest call of the same tool
// left (in order, for Strict and InOrder; in Strict, with a call of
// another tool rather than leave two gaps). The verdict is the one
// Match.Compare gives with ScoreAll for the same comparisons.
func Align(mode Mode, made, expected int, c Comparer) Alignment {
	cmp := make([]Comparison, made*expected)
	for j := range expected {
		for i := range made {
			cmp[j*made+i] = c.Compare(i, j)
		}
	}
	at := func(i, j int) *Comparison { return &cmp[j*made+i] }
	cost := func(x *Comparison) int64 {
		return costSameTool + int64(math.Round(400*min(max(x.Distance, 0), 1)))
	}
	var pairs []Pair
	switch mode {
	case Strict, InOrder:
		big := costOtherTool*int64(made+expected+1) + 1
		gapMade := -int64(costGap)
		if mode == InOrder {
			gapMade = 0
		}
		pairs = alignInOrder(made, expected, gapMade, -costGap, func(i, j int) (int64, bool) {
			x := at(i, j)
			switch {
			case x.Match:
				return big, true
			case x.SameTool:
				return -cost(x), true
			case mode == Strict:
				return -costOtherTool, true
			}
			return 0, false
		})
	default:
		span := int64(made + expected + 1)
		w := 2000*span*int64(expected) + 1
		mate := anyOrder(made, expected, nil, nil, 0, func(i, j int) int64 {
			x := at(i, j)
			tie := int64(abs(i - j))
			switch {
			case x.Match:
				return w + 1001*span - tie
			case x.SameTool:
				return (1001-cost(x))*span - tie
			}
			return 0
		}, nil)
		pairs = anyOrderPairs(made, mate)
	}
	a := Alignment{Pairs: pairs}
	for k := range a.Pairs {
		p := &a.Pairs[k]
		if p.Made >= 0 && p.Expected >= 0 && at(p.Made, p.Expected).Match {
			p.Match, p.Credit = true, 1
			a.Matched++
		}
	}
	a.OK = verdict(mode, a.Matched, made, expected)
	return a
}

// Costs of Align's report pairing, in the units of Comparison.Distance
// scaled to 400.
const (
	costGap       = 1000 // an expected call not found, or (Strict) an extra call
	costSameTool  = 500  // plus up to 400 by the distance
	costOtherTool = 1500 // Strict pairs calls of other tools rather than leave two gaps
)

// verdict is the mode's verdict on matched pairs out of made and expected
// calls.
func verdict(mode Mode, matched, made, expected int) bool {
	switch mode {
	case Strict, Unordered:
		return matched == expected && made == expected
	case Subset:
		return matched == made
	}
	return matched == expected
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// anyOrderPairs lists a pairing, mate[j] the call made of expected call j
// or -1: the expected calls in order, then the calls made left alone.
func anyOrderPairs(made int, mate []int32) []Pair {
	pairs := make([]Pair, 0, made+len(mate))
	used := make([]bool, made)
	for j, i := range mate {
		if i >= 0 {
			used[i] = true
		}
		pairs = append(pairs, Pair{Made: int(i), Expected: j})
	}
	for i, u := range used {
		if !u {
			pairs = append(pairs, Pair{Made: i, Expected: -1})
		}
	}
	return pairs
}

// alignInOrder finds the order-keeping pairing of made calls with expected
// calls of the greatest total: each pair weight(i, j) adds its weight (a
// pair that is not ok is never made), each call made left alone adds
// gapMade and each expected call left alone gapExp. This is the longest
// common subsequence, weighted, by dynamic programming over prefixes in
// O(n·m) time; only one row of totals is kept, and the choices (n·m bytes)
// to read the alignment. On ties a call made is left alone first (so an
// expected call pairs with the earliest call that serves), then a pair is
// made.
func alignInOrder(made, expected int, gapMade, gapExp int64, weight func(i, j int) (int64, bool)) []Pair {
	return alignRows(made, expected, gapMade, gapExp, cells(weight))
}

// noPair in a row of weights marks a pair that is never made.
const noPair = math.MinInt64

// A row sets w[i], for every call made i, to its weight with expected call
// j, or noPair.
type row func(j int, w []int64)

// cells is the row of a weight function.
func cells(weight func(i, j int) (int64, bool)) row {
	return func(j int, w []int64) {
		for i := range w {
			if x, ok := weight(i, j); ok {
				w[i] = x
			} else {
				w[i] = noPair
			}
		}
	}
}

// alignRows is alignInOrder with the weights given a row at a time.
func alignRows(made, expected int, gapMade, gapExp int64, weights row) []Pair {
	const (
		skipMade = 1 + iota
		skipExp
		pair
	)
	w := made + 1
	choice := make([]uint8, (expected+1)*w)
	prev := make([]int64, w)
	cur := make([]int64, w)
	rw := make([]int64, made)
	for i := 1; i <= made; i++ {
		choice[i] = skipMade
		prev[i] = prev[i-1] + gapMade
	}
	for j := 1; j <= expected; j++ {
		cur[0] = prev[0] + gapExp
		choice[j*w] = skipExp
		weights(j-1, rw)
		for i := 1; i <= made; i++ {
			best, c := cur[i-1]+gapMade, uint8(skipMade)
			if wt := rw[i-1]; wt != noPair && prev[i-1]+wt > best {
				best, c = prev[i-1]+wt, pair
			}
			if prev[i]+gapExp > best {
				best, c = prev[i]+gapExp, skipExp
			}
			cur[i] = best
			choice[j*w+i] = c
		}
		prev, cur = cur, prev
	}
	pairs := make([]Pair, 0, made+expected)
	for i, j := made, expected; i > 0 || j > 0; {
		switch choice[j*w+i] {
		case pair:
			pairs = append(pairs, Pair{Made: i - 1, Expected: j - 1})
			i, j = i-1, j-1
		case skipMade:
			pairs = append(pairs, Pair{Made: i - 1, Expected: -1})
			i--
		default:
			pairs = append(pairs, Pair{Made: -1, Expected: j - 1})
			j--
		}
	}
	slices.Reverse(pairs)
	return pairs
}

// alignTrimmed is alignInOrder with no cost for gaps, after pairing a
// common prefix and suffix of pairs that earn top, the most any pair can:
// some best alignment pairs them, as any pair either call would take
// instead earns no more. Only what lies between goes through the dynamic
// program.
func alignTrimmed(made, expected int, top int64, weight func(i, j int) (int64, bool), weights row) []Pair {
	full := func(i, j int) bool {
		w, ok := weight(i, j)
		return ok && w == top
	}
	lo := 0
	for lo < made && lo < expected && full(lo, lo) {
		lo++
	}
	hm, he := made, expected
	for hm > lo && he > lo && full(hm-1, he-1) {
		hm, he = hm-1, he-1
	}
	pairs := make([]Pair, 0, max(made, expected))
	for k := range lo {
		pairs = append(pairs, Pair{Made: k, Expected: k})
	}
	var mid row
	if weights == nil {
		mid = cells(func(i, j int) (int64, bool) { return weight(lo+i, lo+j) })
	} else {
		full := make([]int64, made)
		mid = func(j int, w []int64) {
			weights(lo+j, full)
			copy(w, full[lo:])
		}
	}
	for _, p := range alignRows(hm-lo, he-lo, 0, 0, mid) {
		if p.Made >= 0 {
			p.Made += lo
		}
		if p.Expected >= 0 {
			p.Expected += lo
		}
		pairs = append(pairs, p)
	}
	for k := range made - hm {
		pairs = append(pairs, Pair{Made: hm + k, Expected: he + k})
	}
	return pairs
}

// anyOrder pairs made calls with expected calls regardless of order for
// the greatest total weight; weight(i, j) <= 0 never pairs. When tools are
// given (toolM[i], toolE[j] below nTools), only calls of the same tool
// pair. The problem splits into the connected groups of the graph of pairs
// of positive weight, each an assignment problem (internal/assign). It
// returns the call made of each expected call, or -1.
func anyOrder(made, expected int, toolM, toolE []int32, nTools int, weight func(i, j int) int64, weights row) []int32 {
	mate := make([]int32, expected)
	for j := range mate {
		mate[j] = -1
	}
	if made == 0 || expected == 0 {
		return mate
	}
	s := blockScratch{rows: weights}
	if weights != nil {
		s.full = make([]int64, made)
	}
	if toolM == nil {
		s.solve(identity(made), identity(expected), weight, mate)
		return mate
	}
	madeOf, madeStart := groupBy(toolM, nTools)
	expOf, expStart := groupBy(toolE, nTools)
	for t := range nTools {
		ms, es := madeOf[madeStart[t]:madeStart[t+1]], expOf[expStart[t]:expStart[t+1]]
		if len(ms) > 0 && len(es) > 0 {
			s.solve(ms, es, weight, mate)
		}
	}
	return mate
}

func identity(n int) []int32 {
	ids := make([]int32, n)
	for i := range ids {
		ids[i] = int32(i)
	}
	return ids
}

// groupBy sorts the indexes of keys (small ints below n) by key, stably:
// order[start[k]:start[k+1]] are the indexes with key k.
func groupBy(keys []int32, n int) (order, start []int32) {
	all := make([]int32, len(keys)+2*n+1)
	order, start, fill := all[:len(keys)], all[len(keys):len(keys)+n+1], all[len(keys)+n+1:]
	for _, k := range keys {
		start[k+1]++
	}
	for i := 1; i <= n; i++ {
		start[i] += start[i-1]
	}
	copy(fill, start)
	for i, k := range keys {
		order[fill[k]] = int32(i)
		fill[k]++
	}
	return order, start
}

// blockScratch holds the arrays of solve, reused from one tool to the next.
type blockScratch struct {
	rows          row     // when set, the weights a row at a time
	full          []int64 // a row of rows
	weight, cost  []int64
	parent, roots []int32
	assign        assign.Solver
}

// solve pairs the made calls ms with the expected calls es (one tool's)
// for the greatest total weight, into mate.
func (s *blockScratch) solve(ms, es []int32, weight func(i, j int) int64, mate []int32) {
	nm, ne := len(ms), len(es)
	if nm == 1 || ne == 1 {
		// The common case: a tool called once on one side. The best pair,
		// the first of equals.
		var best int64
		bm, be := int32(-1), int32(-1)
		for _, j := range es {
			if s.rows != nil {
				s.rows(int(j), s.full)
			}
			for _, i := range ms {
				var w int64
				if s.rows != nil {
					w = s.full[i]
				} else {
					w = weight(int(i), int(j))
				}
				if w > best {
					best, bm, be = w, i, j
				}
			}
		}
		if be >= 0 {
			mate[be] = bm
		}
		return
	}
	// wt[a*nm+b] is the weight of expected es[a] with made ms[b]; the
	// union-find joins nodes 0..ne-1 (expected) and ne..ne+nm-1 (made)
	// along pairs of positive weight.
	wt := slices.Grow(s.weight[:0], ne*nm)[:ne*nm]
	parent := slices.Grow(s.parent[:0], ne+nm)[:ne+nm]
	s.weight, s.parent = wt, parent
	for x := range parent {
		parent[x] = int32(x)
	}
	find := func(x int32) int32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	edges := 0
	for a, j := range es {
		if s.rows != nil {
			s.rows(int(j), s.full)
		}
		for b, i := range ms {
			var w int64
			if s.rows != nil {
				w = s.full[i]
			} else {
				w = weight(int(i), int(j))
			}
			if w < 0 {
				w = 0
			}
			wt[a*nm+b] = w
			if w > 0 {
				edges++
				if x, y := find(int32(a)), find(int32(ne+b)); x != y {
					parent[x] = y
				}
			}
		}
	}
	if edges == 0 {
		return
	}
	roots := slices.Grow(s.roots[:0], ne+nm)[:ne+nm]
	s.roots = roots
	for x := range roots {
		roots[x] = find(int32(x))
	}
	group, start := groupBy(roots, ne+nm)
	for root := range ne + nm {
		nodes := group[start[root]:start[root+1]]
		if len(nodes) < 2 {
			continue // a call with no partner
		}
		k := 0
		for k < len(nodes) && nodes[k] < int32(ne) {
			k++
		}
		rows, cols := nodes[:k], nodes[k:] // expected, made (+ne)
		transpose := len(rows) > len(cols)
		n, m := len(rows), len(cols)
		if transpose {
			n, m = m, n
		}
		// The assignment minimizes cost: a pair costs minus its weight,
		// and a pair of no weight 0 (assigned, but not paired).
		var c []int64
		if len(nodes) == ne+nm && !transpose {
			// One group of all calls, in the weights' own layout (the
			// usual case when many calls are alike): no copy.
			c = wt
			for x := range c {
				c[x] = -c[x]
			}
		} else {
			s.cost = slices.Grow(s.cost[:0], n*m)[:n*m]
			c = s.cost
			for a, ra := range rows {
				row := wt[int(ra)*nm : (int(ra)+1)*nm]
				for b, cb := range cols {
					w := row[int(cb)-ne]
					if transpose {
						c[b*m+a] = -w
					} else {
						c[a*m+b] = -w
					}
				}
			}
		}
		for a, b := range s.assign.Solve(c, n, m) {
			if c[a*m+int(b)] >= 0 {
				continue
			}
			ra, cb := a, int(b)
			if transpose {
				ra, cb = cb, ra
			}
			mate[es[rows[ra]]] = ms[int(cols[cb])-ne]
		}
	}
}

// classPairs pairs calls that match exactly when their classes are equal:
// equal calls are interchangeable, so pairing the k-th made call of each
// class with the k-th expected one is a maximum matching, in O(n).
func classPairs(classM, classE []int32) []int32 {
	mate := make([]int32, len(classE))
	n := 0
	for _, c := range classM {
		n = max(n, int(c)+1)
	}
	for _, c := range classE {
		n = max(n, int(c)+1)
	}
	// next[j] is the next expected call of j's class; head[c] the first
	// expected call of class c not yet paired.
	next := make([]int32, len(classE))
	head := make([]int32, n)
	for c := range head {
		head[c] = -1
	}
	for j := len(classE) - 1; j >= 0; j-- {
		mate[j] = -1
		c := classE[j]
		next[j], head[c] = head[c], int32(j)
	}
	for i, c := range classM {
		if j := head[c]; j >= 0 {
			mate[j] = int32(i)
			head[c] = next[j]
		}
	}
	return mate
}

// maxMatching finds a maximum matching of the bipartite graph of expected
// calls j with edges adj[j] to made calls 0..made-1, by Hopcroft and
// Karp's algorithm: a call that fits two expected calls does not take the
// one another call needs, as a first-fit pairing would. It returns the
// call made of each expected call, or -1.
func maxMatching(adj [][]int32, made int) []int32 {
	mateL := make([]int32, len(adj))
	mateR := make([]int32, made)
	for j := range mateL {
		mateL[j] = -1
	}
	for i := range mateR {
		mateR[i] = -1
	}
	// A greedy start: most pairs are found here.
	for j, es := range adj {
		for _, i := range es {
			if mateR[i] < 0 {
				mateL[j], mateR[i] = i, int32(j)
				break
			}
		}
	}
	const inf = math.MaxInt
	dist := make([]int, len(adj))
	queue := make([]int, 0, len(adj))
	bfs := func() bool {
		queue = queue[:0]
		for j := range adj {
			if mateL[j] < 0 {
				dist[j] = 0
				queue = append(queue, j)
			} else {
				dist[j] = inf
			}
		}
		found := false
		for q := 0; q < len(queue); q++ {
			j := queue[q]
			for _, i := range adj[j] {
				k := mateR[i]
				if k < 0 {
					found = true
				} else if dist[k] == inf {
					dist[k] = dist[j] + 1
					queue = append(queue, int(k))
				}
			}
		}
		return found
	}
	var dfs func(j int) bool
	dfs = func(j int) bool {
		for _, i := range adj[j] {
			k := mateR[i]
			if k < 0 || dist[k] == dist[j]+1 && dfs(int(k)) {
				mateL[j], mateR[i] = i, int32(j)
				return true
			}
		}
		dist[j] = inf
		return false
	}
	for bfs() {
		for j := range adj {
			if mateL[j] < 0 {
				dfs(j)
			}
		}
	}
	return mateL
}
