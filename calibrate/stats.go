package calibrate

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Confusion counts a judge's pass/fail verdicts against people's labels,
// pass being the positive class: TP the samples both pass, FP those the
// judge passes and people fail, FN those people pass and the judge fails,
// TN those both fail.
type Confusion struct {
	TP int `json:"tp"`
	FP int `json:"fp"`
	FN int `json:"fn"`
	TN int `json:"tn"`
}

// Add counts one sample: human is the people's verdict, judged the judge's.
func (c *Confusion) Add(human, judged bool) {
	switch {
	case human && judged:
		c.TP++
	case !human && judged:
		c.FP++
	case human && !judged:
		c.FN++
	default:
		c.TN++
	}
}

// N is the number of samples counted.
func (c Confusion) N() int { return c.TP + c.FP + c.FN + c.TN }

// ClassScores are precision, recall and F1 of one class. A ratio whose
// denominator is 0 is 0, as scikit-learn's zero_division default gives.
type ClassScores struct {
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
}

func classScores(hit, falseAlarm, miss int) ClassScores {
	return ClassScores{
		Precision: ratio(hit, hit+falseAlarm),
		Recall:    ratio(hit, hit+miss),
		F1:        ratio(2*hit, 2*hit+falseAlarm+miss),
	}
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Pass is precision, recall and F1 of the pass class.
func (c Confusion) Pass() ClassScores { return classScores(c.TP, c.FP, c.FN) }

// Fail is precision, recall and F1 of the fail class.
func (c Confusion) Fail() ClassScores { return classScores(c.TN, c.FN, c.FP) }

// BaseRate is the share of samples people pass; NaN for none.
func (c Confusion) BaseRate() float64 { return nanRatio(c.TP+c.FN, c.N()) }

// Accuracy is the share of samples on which judge and people agree; NaN for
// none.
func (c Confusion) Accuracy() float64 { return nanRatio(c.TP+c.TN, c.N()) }

// MajorityAccuracy is the accuracy of always answering the label people give
// most often: what a judge must beat to tell anything. NaN for no samples.
func (c Confusion) MajorityAccuracy() float64 {
	return nanRatio(max(c.TP+c.FN, c.FP+c.TN), c.N())
}

func nanRatio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

// Kappa is Cohen's kappa, (po - pe) / (1 - pe) with po the observed
// agreement and pe the agreement expected by chance from each side's base
// rate, as scikit-learn's cohen_kappa_score computes it. It is NaN when it
// is undefined: no samples, or both sides giving one and the same class to
// every sample (pe = 1).
func (c Confusion) Kappa() float64 {
	n := float64(c.N())
	if n == 0 {
		return math.NaN()
	}
	// scikit-learn's form: 1 - sum(w*observed) / sum(w*expected), w the
	// disagreement weights, which is exact for two classes.
	humanPass, humanFail := float64(c.TP+c.FN), float64(c.FP+c.TN)
	judgePass, judgeFail := float64(c.TP+c.FP), float64(c.FN+c.TN)
	expected := (humanPass*judgeFail + humanFail*judgePass) / n
	if expected == 0 {
		return math.NaN()
	}
	return 1 - float64(c.FP+c.FN)/expected
}

// MCC is Matthews' correlation coefficient; 0 when a margin is empty (one
// side gives one class only), as scikit-learn's matthews_corrcoef does, and
// NaN for no samples.
func (c Confusion) MCC() float64 {
	if c.N() == 0 {
		return math.NaN()
	}
	tp, fp, fn, tn := float64(c.TP), float64(c.FP), float64(c.FN), float64(c.TN)
	d := (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
	if d == 0 {
		return 0
	}
	return (tp*tn - fp*fn) / math.Sqrt(d)
}

// Bounds is a confidence interval; both ends NaN when no resample gave
// the statistic a value.
type Bounds struct {
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// Bootstrap settings: the intervals are percentile intervals over
// BootstrapResamples resamples of the samples, drawn with replacement by a
// PCG generator seeded with BootstrapSeed, so that the same data always
// gives the same intervals.
const (
	BootstrapResamples = 2000
	BootstrapSeed      = 20260101
)

// Intervals are 95% bootstrap intervals of accuracy, kappa and MCC.
type Intervals struct {
	Accuracy Bounds `json:"accuracy"`
	Kappa    Bounds `json:"kappa"`
	MCC      Bounds `json:"mcc"`
}

// pair is one sample's human and judge verdicts.
type pair struct{ human, judged bool }

// bootstrap resamples pairs (BootstrapResamples times, seed BootstrapSeed)
// and gives the 2.5th and 97.5th percentiles of each statistic. A resample
// on which kappa is undefined is left out of kappa's interval.
func bootstrap(pairs []pair) Intervals {
	nan := Bounds{math.NaN(), math.NaN()}
	if len(pairs) == 0 {
		return Intervals{nan, nan, nan}
	}
	rng := rand.New(rand.NewPCG(BootstrapSeed, BootstrapSeed))
	acc := make([]float64, 0, BootstrapResamples)
	kappa := make([]float64, 0, BootstrapResamples)
	mcc := make([]float64, 0, BootstrapResamples)
	for range BootstrapResamples {
		var c Confusion
		for range pairs {
			p := pairs[rng.IntN(len(pairs))]
			c.Add(p.human, p.judged)
		}
		acc = append(acc, c.Accuracy())
		if k := c.Kappa(); !math.IsNaN(k) {
			kappa = append(kappa, k)
		}
		mcc = append(mcc, c.MCC())
	}
	return Intervals{percentiles(acc), percentiles(kappa), percentiles(mcc)}
}

func percentiles(xs []float64) Bounds {
	if len(xs) == 0 {
		return Bounds{math.NaN(), math.NaN()}
	}
	slices.Sort(xs)
	return Bounds{Percentile(xs, 2.5), Percentile(xs, 97.5)}
}

// Percentile is the p-th percentile (0 to 100) of sorted values, linearly
// interpolated between the closest ranks as NumPy's default does; NaN for
// no values.
func Percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	pos := p / 100 * float64(len(sorted)-1)
	lo := int(math.Floor(pos))
	if lo >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	frac := pos - float64(lo)
	return sorted[lo] + frac*(sorted[lo+1]-sorted[lo])
}

// Level is how Krippendorff's alpha measures the distance between two
// values.
type Level uint8

// The levels of measurement: Nominal for verdicts (values equal or not),
// Ordinal for ranked scores (the distance counts the values between them),
// Interval for scores whose differences mean something.
const (
	Nominal Level = iota
	Ordinal
	Interval
)

// Alpha is Krippendorff's alpha of units coded by several coders: units[u]
// holds the values the coders gave unit u, NaN where a coder gave none.
// Units with fewer than two values are left out, as the method says. It is
// NaN when fewer than two values remain or every value is the same (no
// disagreement is expected).
func Alpha(units [][]float64, level Level) float64 {
	// The coincidence matrix over the distinct values.
	var values []float64
	for _, u := range units {
		for _, v := range u {
			if !math.IsNaN(v) {
				values = append(values, v)
			}
		}
	}
	slices.Sort(values)
	values = slices.Compact(values)
	index := make(map[float64]int, len(values))
	for i, v := range values {
		index[v] = i
	}
	k := len(values)
	o := make([]float64, k*k)
	for _, u := range units {
		var present []int
		for _, v := range u {
			if !math.IsNaN(v) {
				present = append(present, index[v])
			}
		}
		m := len(present)
		if m < 2 {
			continue
		}
		for i, a := range present {
			for j, b := range present {
				if i != j {
					o[a*k+b] += 1 / float64(m-1)
				}
			}
		}
	}
	nc := make([]float64, k)
	n := 0.0
	for c := range k {
		for d := range k {
			nc[c] += o[c*k+d]
		}
		n += nc[c]
	}
	if n < 2 {
		return math.NaN()
	}
	delta := func(c, d int) float64 {
		switch level {
		case Nominal:
			if c == d {
				return 0
			}
			return 1
		case Ordinal:
			lo, hi := min(c, d), max(c, d)
			s := 0.0
			for g := lo; g <= hi; g++ {
				s += nc[g]
			}
			s -= (nc[c] + nc[d]) / 2
			return s * s
		}
		x := values[c] - values[d]
		return x * x
	}
	observed, expected := 0.0, 0.0
	for c := range k {
		for d := range k {
			if c == d {
				continue
			}
			w := delta(c, d)
			observed += o[c*k+d] * w
			expected += nc[c] * nc[d] * w
		}
	}
	if expected == 0 {
		return math.NaN()
	}
	return 1 - (n-1)*observed/expected
}

// FleissKappa is Fleiss' kappa of subjects each rated by the same number of
// raters: counts[i][j] is how many raters put subject i in category j. It
// is NaN when it is undefined: no subjects, fewer than two raters, rows of
// different totals, or every rating in one category.
func FleissKappa(counts [][]int) float64 {
	if len(counts) == 0 {
		return math.NaN()
	}
	raters := 0
	for _, c := range counts[0] {
		raters += c
	}
	if raters < 2 {
		return math.NaN()
	}
	cats := len(counts[0])
	p := make([]float64, cats)
	sumP := 0.0
	for _, row := range counts {
		if len(row) != cats {
			return math.NaN()
		}
		total, agree := 0, 0
		for j, c := range row {
			total += c
			agree += c * (c - 1)
			p[j] += float64(c)
		}
		if total != raters {
			return math.NaN()
		}
		sumP += float64(agree) / float64(raters*(raters-1))
	}
	nSub := float64(len(counts))
	pBar := sumP / nSub
	pe := 0.0
	for j := range p {
		pj := p[j] / (nSub * float64(raters))
		pe += pj * pj
	}
	if pe == 1 {
		return math.NaN()
	}
	return (pBar - pe) / (1 - pe)
}
