package metric

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// consensusSlack absorbs the rounding of max-min, so that scores 0.8 and 0.6
// (a spread of 0.20000000000000007 in float64) are within a tolerance of 0.2.
const consensusSlack = 1e-9

// Aggregate combines a panel's scores, one per judge that gave a verdict, by
// the aggregation's method; the zero Aggregation is Mean.
//
//   - Mean: the arithmetic mean, summed in order.
//   - Min: the lowest score.
//   - Majority: a score of at least 0.5 is a vote to pass; 1 when more than
//     half the judges vote to pass, else 0. A tie gives 0: a panel that cannot
//     agree has not passed.
//   - Unanimous: 1 when every judge votes to pass (score at least 0.5), else 0.
//     On binary scores that is "1 only if all are 1"; on scores such as topic
//     adherence's F1, which is never exactly 1, it still means something.
//   - Consensus: the mean when the scores' spread (max - min) is at most
//     Tolerance; otherwise 0, as for a Majority tie (a panel that cannot
//     agree has not passed), and a disagreement that gives the scores, how
//     far apart they are and their mean. A disagreement is a result, not an
//     error, and a failure in every front end: a score of 0 fails every
//     threshold of the CLI and evalsuite, and the checks and matchers fail
//     it either way (To and NotTo) with the judges' verdicts and reasons.
//
// The error is for what cannot be aggregated: no scores, a NaN or infinite
// score, a negative tolerance, an unknown method. It never panics.
func Aggregate(agg Aggregation, scores []float64) (score float64, disagreement string, err error) {
	if len(scores) == 0 {
		return 0, "", fmt.Errorf("no scores to aggregate: every judge failed or none was asked")
	}
	for i, s := range scores {
		if math.IsNaN(s) || math.IsInf(s, 0) {
			return 0, "", fmt.Errorf("cannot aggregate score %d of %d: %v is not a number in [0, 1]", i+1, len(scores), s)
		}
	}
	votes := 0
	for _, s := range scores {
		if s >= 0.5 {
			votes++
		}
	}
	switch agg.Method {
	case Mean, "":
		return mean(scores), "", nil
	case Min:
		return slices.Min(scores), "", nil
	case Majority:
		if 2*votes > len(scores) {
			return 1, "", nil
		}
		return 0, "", nil
	case Unanimous:
		if votes == len(scores) {
			return 1, "", nil
		}
		return 0, "", nil
	case Consensus:
		if agg.Tolerance < 0 || math.IsNaN(agg.Tolerance) {
			return 0, "", fmt.Errorf("consensus tolerance %v: want a number >= 0", agg.Tolerance)
		}
		lo, hi := slices.Min(scores), slices.Max(scores)
		m := mean(scores)
		if hi-lo <= agg.Tolerance+consensusSlack {
			return m, "", nil
		}
		parts := make([]string, len(scores))
		for i, s := range scores {
			parts[i] = strconv.FormatFloat(s, 'g', 4, 64)
		}
		return 0, fmt.Sprintf("judges disagree: scores [%s] spread %.4g, more than the tolerance %.4g, so the panel scores 0 (their mean is %.4g)",
			strings.Join(parts, ", "), hi-lo, agg.Tolerance, m), nil
	}
	return 0, "", fmt.Errorf("unknown aggregation method %q (want mean, majority, min, unanimous or consensus)", agg.Method)
}

func mean(scores []float64) float64 {
	sum := 0.0
	for _, s := range scores {
		sum += s
	}
	return sum / float64(len(scores))
}
