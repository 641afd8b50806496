package assign

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAssign checks the assignment solver alone against every assignment,
// on small matrices with many equal costs.
func TestAssign(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var s Solver
	for iter := range 3000 {
		n := 1 + rng.IntN(5)
		m := n + rng.IntN(3)
		cost := make([]int64, n*m)
		for i := range cost {
			cost[i] = -int64(rng.IntN(4))
		}
		cols := s.Solve(cost, n, m)
		seen := make([]bool, m)
		var got int64
		for i, j := range cols {
			if seen[j] {
				t.Fatalf("case %d: column %d given twice: %v", iter, j, cols)
			}
			seen[j] = true
			got += cost[i*m+int(j)]
		}
		if want := bruteAssign(cost, n, m, 0, seen[:0:0]); got != want {
			t.Fatalf("case %d: %dx%d %v: cost %d, best %d", iter, n, m, cost, got, want)
		}
	}
}

func bruteAssign(cost []int64, n, m, i int, used []bool) int64 {
	if i == n {
		return 0
	}
	if len(used) == 0 {
		used = make([]bool, m)
	}
	best := int64(math.MaxInt64)
	for j := range m {
		if !used[j] {
			used[j] = true
			best = min(best, cost[i*m+j]+bruteAssign(cost, n, m, i+1, used))
			used[j] = false
		}
	}
	return best
}
