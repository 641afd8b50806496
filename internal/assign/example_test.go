package assign_test

import (
	"fmt"

	"github.com/agentcheck/agentcheck/internal/assign"
)

// Example gives two rows their columns at least total cost: row 0's
// cheapest column is 0, but giving it to row 1 saves more.
func Example() {
	cost := []int64{
		1, 2, 9,
		1, 8, 9,
	}
	var s assign.Solver
	fmt.Println(s.Solve(cost, 2, 3))
	// Output:
	// [1 0]
}
