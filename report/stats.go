package report

import "math"

// wilson95 is the 95% Wilson score interval of a share p of n trials; NaNs
// for n = 0.
func wilson95(p float64, n int) (lo, hi float64) {
	if n == 0 || math.IsNaN(p) {
		return math.NaN(), math.NaN()
	}
	const z = 1.959963984540054
	nf := float64(n)
	d := 1 + z*z/nf
	c := (p + z*z/(2*nf)) / d
	h := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / d
	return max(0, c-h), min(1, c+h)
}

// tQuantile95 is the 0.975 quantile of Student's t with df degrees of
// freedom (the two-sided 95% critical value), from a table up to 30 and the
// normal quantile with a correction beyond.
func tQuantile95(df int) float64 {
	table := [...]float64{0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}
	if df < 1 {
		return math.NaN()
	}
	if df < len(table) {
		return table[df]
	}
	// Cornish-Fisher expansion to the second order: within 1e-3 past 30.
	const z = 1.959963984540054
	d := float64(df)
	return z + (z*z*z+z)/(4*d) + (5*z*z*z*z*z+16*z*z*z+3*z)/(96*d*d)
}

var nan = math.NaN()
