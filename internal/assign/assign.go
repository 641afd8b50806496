// Package assign solves the assignment problem: pairing rows with columns
// at least total cost, as tool-call matching needs it to pair duplicate and
// retried calls optimally rather than greedily.
package assign

import (
	"math"
	"slices"
)

// Solver holds the arrays of the assignment algorithm, reused from
// one group of calls to the next.
type Solver struct {
	v, d                     []int64
	rowOf, colOf, pred, cols []int32
}

// Solve solves the rectangular assignment problem: cost is n×m, row-major,
// n <= m; it returns the column given to each row so that the total cost is
// least. This is the Hungarian method in the shortest augmenting path form
// of Jonker and Volgenant (O(n²·m) at worst): column potentials v keep
// every reduced cost c[i][k]-v[k]-u[i] >= 0, where u[i] = c[i][j]-v[j] for
// the column j of row i, so that each row's column is its cheapest at the
// current potentials; each row that still has no column is then given one
// along a shortest path of reduced costs (Dijkstra), which keeps that so.
// Potentials only fall, and only on assigned columns, which proves the
// result optimal.
//
// Rows start on a free column of least cost (greedily), and the search
// takes a free column as soon as one is among the nearest, instead of first
// visiting assigned columns at the same distance: tool calls have many
// pairs that cost the same, and both save most of the work on them.
func (s *Solver) Solve(cost []int64, n, m int) []int32 {
	v := slices.Grow(s.v[:0], m)[:m]
	d := slices.Grow(s.d[:0], m)[:m]
	rowOf := slices.Grow(s.rowOf[:0], m)[:m] // row on column j, or -1
	colOf := slices.Grow(s.colOf[:0], n)[:n] // column of row i, or -1
	pred := slices.Grow(s.pred[:0], m)[:m]   // row before column j on the path
	cols := slices.Grow(s.cols[:0], m)[:m]
	s.v, s.d, s.rowOf, s.colOf, s.pred, s.cols = v, d, rowOf, colOf, pred, cols
	clear(v)
	for j := range rowOf {
		rowOf[j] = -1
	}
	for i := range n {
		row := cost[i*m : (i+1)*m]
		least := slices.Min(row)
		colOf[i] = -1
		for j, c := range row {
			if c == least && rowOf[j] < 0 {
				rowOf[j], colOf[i] = int32(i), int32(j)
				break
			}
		}
	}
	for f := range n {
		if colOf[f] >= 0 {
			continue
		}
		// d[j] is the shortest known distance from row f to column j.
		// cols is split in three: cols[:lo] are done (their distance is
		// final and below mu), cols[lo:hi] are at distance mu and still
		// to scan, cols[hi:] are farther or unknown.
		row := cost[f*m : (f+1)*m]
		for j := range m {
			d[j] = row[j] - v[j]
			pred[j] = int32(f)
			cols[j] = int32(j)
		}
		lo, hi, end := 0, 0, int32(-1)
		var mu int64
	search:
		for {
			if lo == hi {
				// The next distance: take every column at it, and stop
				// at once if one of them is free.
				mu = math.MaxInt64
				for _, j := range cols[hi:] {
					mu = min(mu, d[j])
				}
				for k := hi; k < m; k++ {
					if j := cols[k]; d[j] == mu {
						if rowOf[j] < 0 {
							end = j
							break search
						}
						cols[k], cols[hi] = cols[hi], j
						hi++
					}
				}
			}
			// Scan a column at distance mu: the paths through its row.
			j := cols[lo]
			lo++
			i := rowOf[j]
			ri := cost[int(i)*m : (int(i)+1)*m]
			h := ri[j] - v[j] - mu
			for k := hi; k < m; k++ {
				jk := cols[k]
				if dk := ri[jk] - v[jk] - h; dk < d[jk] {
					d[jk], pred[jk] = dk, i
					if dk == mu {
						if rowOf[jk] < 0 {
							end = jk
							break search
						}
						cols[k], cols[hi] = cols[hi], jk
						hi++
					}
				}
			}
		}
		for _, j := range cols[:lo] {
			v[j] += d[j] - mu
		}
		// Flip the path: each row on it takes the column after it.
		for {
			i := pred[end]
			rowOf[end] = i
			end, colOf[i] = colOf[i], end
			if int(i) == f {
				break
			}
		}
	}
	return colOf
}
