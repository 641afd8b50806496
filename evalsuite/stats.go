package evalsuite

import (
	"math"

	"github.com/agentcheck/agentcheck/report"
)

// PassAtKEstimate is the unbiased estimate of pass@k, the chance that at
// least one of k runs drawn without replacement from n runs with c passes
// passes: 1 − C(n−c, k)/C(n, k) (Chen et al., 2021). It is computed as a
// product of ratios, so it neither overflows nor loses precision for large
// n. It is NaN when the arguments make no sense: n < 1, c outside [0, n],
// or k outside [1, n].
func PassAtKEstimate(n, c, k int) float64 {
	if !validEstimate(n, c, k) {
		return math.NaN()
	}
	if n-c < k {
		return 1 // every draw of k runs holds a pass
	}
	// C(n−c, k)/C(n, k) = Π_{i<k} (n−c−i)/(n−i).
	q := 1.0
	for i := range k {
		q *= float64(n-c-i) / float64(n-i)
	}
	return 1 - q
}

// PassHatKEstimate is the unbiased estimate of pass^k (τ-bench's
// reliability), the chance that all k runs drawn without replacement from n
// runs with c passes pass: C(c, k)/C(n, k). It is NaN for the arguments
// PassAtKEstimate refuses.
func PassHatKEstimate(n, c, k int) float64 {
	if !validEstimate(n, c, k) {
		return math.NaN()
	}
	if c < k {
		return 0
	}
	p := 1.0
	for i := range k {
		p *= float64(c-i) / float64(n-i)
	}
	return p
}

func validEstimate(n, c, k int) bool {
	return n >= 1 && c >= 0 && c <= n && k >= 1 && k <= n
}

// Wilson95 is the 95% Wilson score interval of a pass rate measured as c
// passes in n runs. Unlike the normal approximation it stays inside [0, 1]
// and is not empty at 0 or n passes: 8 of 10 gives about [0.490, 0.943],
// 10 of 10 about [0.722, 1]. It is [0, 1] for n < 1, and NaN for c outside
// [0, n].
func Wilson95(c, n int) (lo, hi float64) {
	if n < 1 {
		return 0, 1
	}
	if c < 0 || c > n {
		return math.NaN(), math.NaN()
	}
	// package report's interval, which every report of a pass rate gives
	return report.MetricSummary{N: n, PassRate: float64(c) / float64(n)}.PassInterval()
}
