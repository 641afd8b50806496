package metric

// The pairings of ToolCallMatch: which call made goes with which expected
// call, once the calls are reduced to ids (see newMatchState).

import (
	"slices"

	"github.com/agentcheck/agentcheck/internal/assign"
)

// matchStrict pairs equal calls in any order. Equal calls are
// interchangeable, so pairing the k-th made call of each kind with the k-th
// expected one is a maximum matching: O(n).
func (st *matchState) matchStrict() {
	st.refMatch = make([]int32, len(st.ref))
	// next[r] is the next reference call of r's class; head[c] is the
	// first unmatched reference call of class c.
	next := make([]int32, len(st.ref))
	head := make([]int32, int(slices.Max(st.classR))+1)
	for i := range head {
		head[i] = -1
	}
	for r := len(st.ref) - 1; r >= 0; r-- {
		st.refMatch[r] = -1
		c := st.classR[r]
		next[r], head[c] = head[c], int32(r)
	}
	for p, c := range st.classP {
		if int(c) < len(head) && head[c] >= 0 {
			r := head[c]
			st.refMatch[r] = int32(p)
			head[c] = next[r]
		}
	}
}

// matchFlexible finds the best pairing in any order. Calls only match
// calls of the same name, and only through chains of pairs that reach the
// threshold, so the problem splits into the connected groups of the graph
// of such pairs within each name; each group is an assignment problem.
func (st *matchState) matchFlexible() {
	st.refMatch = make([]int32, len(st.ref))
	for i := range st.refMatch {
		st.refMatch[i] = -1
	}
	nNames := len(st.nameStart) - 1
	refsByName, refStart := groupBy(st.nameR, nNames)
	scratch := blockScratch{at: make([]int32, len(st.pred))}
	for n := range int32(nNames) {
		preds, refs := st.predsNamed(n), refsByName[refStart[n]:refStart[n+1]]
		switch {
		case len(preds) == 0 || len(refs) == 0:
		case len(preds) == 1 || len(refs) == 1:
			st.matchOne(preds, refs)
		default:
			st.matchBlock(preds, refs, &scratch)
		}
	}
}

// matchOne pairs the calls of a tool name called once on one side (the
// common case): the best pair, if any matches, the first of equals.
func (st *matchState) matchOne(preds, refs []int32) {
	var best int64
	bp, br := int32(-1), int32(-1)
	for _, r := range refs {
		for _, p := range preds {
			if _, w := st.pair(int(p), int(r)); w > best {
				best, bp, br = w, p, r
			}
		}
	}
	if br >= 0 {
		st.refMatch[br] = bp
	}
}

// blockScratch holds the arrays of matchBlock, reused from one tool name to
// the next.
type blockScratch struct {
	at            []int32 // index of each predicted call in its block
	weight, cost  []int64
	parent, roots []int32
	assign        assign.Solver
}

// matchBlock pairs the calls of one tool name.
func (st *matchState) matchBlock(preds, refs []int32, scratch *blockScratch) {
	np, nr := len(preds), len(refs)
	at := scratch.at
	for j, p := range preds {
		at[p] = int32(j)
	}
	// weight[i*np+j] is the weight of reference refs[i] with prediction
	// preds[j]; the union-find joins nodes 0..nr-1 (references) and
	// nr..nr+np-1 (predictions) along matching pairs.
	weight := slices.Grow(scratch.weight[:0], nr*np)[:nr*np]
	clear(weight)
	parent := slices.Grow(scratch.parent[:0], nr+np)[:nr+np]
	scratch.weight, scratch.parent = weight, parent
	for i := range parent {
		parent[i] = int32(i)
	}
	find := func(x int32) int32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	edges := 0
	for i, r := range refs {
		row := weight[i*np : (i+1)*np]
		st.weigh(int(r), row, at)
		for j, w := range row {
			if w > 0 {
				edges++
				a, b := find(int32(i)), find(int32(nr+j))
				if a != b {
					parent[a] = b
				}
			}
		}
	}
	if edges == 0 {
		return
	}
	// Nodes grouped by root, in order: references first, then predictions.
	roots := slices.Grow(scratch.roots[:0], nr+np)[:nr+np]
	scratch.roots = roots
	for x := range roots {
		roots[x] = find(int32(x))
	}
	group, start := groupBy(roots, nr+np)
	cost := scratch.cost
	defer func() { scratch.cost = cost }()
	for root := range nr + np {
		nodes := group[start[root]:start[root+1]]
		if len(nodes) < 2 {
			continue // a call with no partner
		}
		k := 0
		for k < len(nodes) && nodes[k] < int32(nr) {
			k++
		}
		rows, cols := nodes[:k], nodes[k:] // references, predictions (+nr)
		transpose := len(rows) > len(cols)
		n, m := len(rows), len(cols)
		if transpose {
			n, m = m, n
		}
		// The assignment minimizes cost, so a matching pair costs minus
		// its weight and any other pair 0 (assigned, but not matched).
		c := cost
		if len(nodes) == nr+np && !transpose {
			// One group of all calls, in the weights' own layout (the
			// usual case when many calls are alike): no copy.
			c = weight
			for x := range c {
				c[x] = -c[x]
			}
		} else {
			cost = slices.Grow(cost[:0], n*m)[:n*m]
			c = cost
			for a, ri := range rows {
				row := weight[int(ri)*np : (int(ri)+1)*np]
				for b, pj := range cols {
					w := row[int(pj)-nr]
					if transpose {
						c[b*m+a] = -w
					} else {
						c[a*m+b] = -w
					}
				}
			}
		}
		colOf := scratch.assign.Solve(c, n, m)
		for a, b := range colOf {
			ri, pj := a, int(b)
			if transpose {
				ri, pj = pj, ri
			}
			if c[a*m+int(b)] < 0 {
				st.refMatch[refs[rows[ri]]] = preds[int(cols[pj])-nr]
			}
		}
	}
}

// anyOrderPairs lists the pairing: reference calls in order, then the
// unexpected calls.
func (st *matchState) anyOrderPairs() []CallPair {
	pairs := make([]CallPair, 0, len(st.pred)+len(st.ref))
	used := make([]bool, len(st.pred))
	for r, p := range st.refMatch {
		pair := CallPair{Reference: r, Predicted: int(p)}
		if p >= 0 {
			used[p] = true
			pair.Score, _ = st.pair(int(p), r)
			pair.Matched = true
		}
		pairs = append(pairs, pair)
	}
	for p, u := range used {
		if !u {
			pairs = append(pairs, CallPair{Reference: -1, Predicted: p})
		}
	}
	return pairs
}

// alignInOrder finds the order-keeping pairing with the most matches and
// then the highest total score: the longest common subsequence, weighted,
// by dynamic programming over prefixes in O(n·m) time. Only one row of
// totals is kept; the choices (n·m bytes) are kept to read the alignment.
func (st *matchState) alignInOrder() []CallPair {
	const (
		skipPred = 1 + iota // predicted call i is extra
		skipRef             // reference call j is missing
		match
	)
	np, nr := len(st.pred), len(st.ref)
	w := np + 1
	// Rows are reference calls, columns predicted calls: a row of
	// weights is what weigh gives for one reference call.
	choice := make([]uint8, (nr+1)*w)
	prev := make([]int64, w)
	cur := make([]int64, w)
	weights := make([]int64, np)
	for i := 1; i <= np; i++ {
		choice[i] = skipPred
	}
	for j := 1; j <= nr; j++ {
		clear(weights)
		st.weigh(j-1, weights, nil)
		cur[0] = 0
		choice[j*w] = skipRef
		for i := 1; i <= np; i++ {
			// Ties go to an extra call, which lists the missing call
			// before it in the alignment.
			best, c := cur[i-1], uint8(skipPred)
			if prev[i] > best {
				best, c = prev[i], skipRef
			}
			if wt := weights[i-1]; wt > 0 && prev[i-1]+wt > best {
				best, c = prev[i-1]+wt, match
			}
			cur[i] = best
			choice[j*w+i] = c
		}
		prev, cur = cur, prev
	}
	pairs := make([]CallPair, 0, np+nr)
	for i, j := np, nr; i > 0 || j > 0; {
		switch choice[j*w+i] {
		case match:
			score, _ := st.pair(i-1, j-1)
			pairs = append(pairs, CallPair{Reference: j - 1, Predicted: i - 1, Score: score, Matched: true})
			i, j = i-1, j-1
		case skipPred:
			pairs = append(pairs, CallPair{Reference: -1, Predicted: i - 1})
			i--
		default:
			pairs = append(pairs, CallPair{Reference: j - 1, Predicted: -1})
			j--
		}
	}
	slices.Reverse(pairs)
	return pairs
}
