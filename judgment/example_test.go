package judgment_test

import (
	"fmt"

	"github.com/agentcheck/agentcheck/judgment"
)

// A panel of three judges scored a sample 1, 1 and 0: the mean is 2/3, a
// majority passes it, a unanimous panel does not, and a consensus within
// 0.5 finds the panel disagreeing.
func ExampleAggregate() {
	scores := []float64{1, 1, 0}
	for _, m := range []judgment.AggregationMethod{judgment.Mean, judgment.Majority, judgment.Unanimous, judgment.Consensus} {
		score, disagreement, err := judgment.Aggregate(judgment.Aggregation{Method: m, Tolerance: 0.5}, scores)
		fmt.Printf("%s: %.3g %q %v\n", m, score, disagreement, err)
	}
	// Output:
	// mean: 0.667 "" <nil>
	// majority: 1 "" <nil>
	// unanimous: 0 "" <nil>
	// consensus: 0 "judges disagree: scores [1, 1, 0] spread 1, more than the tolerance 0.5, so the panel scores 0 (their mean is 0.6667)" <nil>
}
