package agenttest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Aggregate combines a panel's scores by the aggregation's method. The zero
// Aggregation is Mean. Majority counts scores of at least 0.5 as votes for
// 1 and gives 1 when more than half vote so (a tie gives 0: a panel that
// cannot agree has not passed). Unanimous gives 1 only when every score is
// 1. Consensus gives the mean when all scores lie within Tolerance of each
// other; otherwise the mean still, and a disagreement that says how far
// apart the scores are, which the matchers report as a failure.
func Aggregate(agg Aggregation, scores []float64) (score float64, disagreement string, err error) {
	if len(scores) == 0 {
		return 0, "", fmt.Errorf("no scores to aggregate")
	}
	mean := 0.0
	for _, s := range scores {
		mean += s
	}
	mean /= float64(len(scores))
	switch agg.Method {
	case Mean, "":
		return mean, "", nil
	case Min:
		return slices.Min(scores), "", nil
	case Majority:
		votes := 0
		for _, s := range scores {
			if s >= 0.5 {
				votes++
			}
		}
		if 2*votes > len(scores) {
			return 1, "", nil
		}
		return 0, "", nil
	case Unanimous:
		for _, s := range scores {
			if s != 1 {
				return 0, "", nil
			}
		}
		return 1, "", nil
	case Consensus:
		lo, hi := slices.Min(scores), slices.Max(scores)
		if hi-lo <= agg.Tolerance {
			return mean, "", nil
		}
		parts := make([]string, len(scores))
		for i, s := range scores {
			parts[i] = strconv.FormatFloat(s, 'g', 4, 64)
		}
		return mean, fmt.Sprintf("judges disagree: scores [%s] spread %.4g, more than the tolerance %.4g", strings.Join(parts, ", "), hi-lo, agg.Tolerance), nil
	}
	return 0, "", fmt.Errorf("unknown aggregation method %q (want mean, majority, min, unanimous or consensus)", agg.Method)
}
