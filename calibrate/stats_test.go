package calibrate

import (
	"math"
	"math/rand/v2"
	"testing"
)

const tol = 1e-12

func near(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= tol
}

// sklearnCases are scikit-learn 1.2.1's accuracy_score, cohen_kappa_score,
// matthews_corrcoef and precision_recall_fscore_support(labels=[1, 0],
// zero_division=0) on y_true, y_pred made from each confusion matrix (pass
// = 1), written here as it printed them. NaN is cohen_kappa_score's nan.
var sklearnCases = []struct {
	c               Confusion
	acc, kappa, mcc float64
	pass, fail      ClassScores
}{
	// 86.7% agreement, kappa 0.66: one answer dominates.
	{Confusion{TP: 10, FP: 1, FN: 1, TN: 3}, 0.8666666666666667, 0.6590909090909091, 0.6590909090909091,
		ClassScores{0.9090909090909091, 0.9090909090909091, 0.9090909090909091}, ClassScores{0.75, 0.75, 0.75}},
	{Confusion{TP: 9, FP: 1, FN: 1, TN: 4}, 0.8666666666666667, 0.7, 0.7, ClassScores{0.9, 0.9, 0.9}, ClassScores{0.8, 0.8, 0.8000000000000002}},
	{Confusion{TP: 6, FP: 1, FN: 1, TN: 4}, 0.8333333333333334, 0.6571428571428571, 0.6571428571428571,
		ClassScores{0.8571428571428571, 0.8571428571428571, 0.8571428571428571}, ClassScores{0.8, 0.8, 0.8000000000000002}},
	{Confusion{TP: 3, FP: 2, FN: 5, TN: 7}, 0.5882352941176471, 0.15602836879432636, 0.16735967034880075,
		ClassScores{0.6, 0.375, 0.4615384615384615}, ClassScores{0.5833333333333334, 0.7777777777777778, 0.6666666666666666}},
	{Confusion{TP: 40, FP: 7, FN: 3, TN: 12}, 0.8387096774193549, 0.5968790637191157, 0.6047934774735435,
		ClassScores{0.851063829787234, 0.9302325581395349, 0.888888888888889}, ClassScores{0.8, 0.631578947368421, 0.7058823529411765}},
	// n = 1, and one class only: kappa undefined, MCC 0.
	{Confusion{TP: 1}, 1, math.NaN(), 0, ClassScores{1, 1, 1}, ClassScores{}},
	{Confusion{TP: 5}, 1, math.NaN(), 0, ClassScores{1, 1, 1}, ClassScores{}},
	{Confusion{TN: 5}, 1, math.NaN(), 0, ClassScores{}, ClassScores{1, 1, 1}},
	// Perfect agreement on both classes.
	{Confusion{TP: 4, TN: 3}, 1, 1, 1, ClassScores{1, 1, 1}, ClassScores{1, 1, 1}},
	// Total disagreement.
	{Confusion{FP: 3, FN: 2}, 0, -0.9230769230769229, -1, ClassScores{}, ClassScores{}},
	// People pass everything; the judge passes some.
	{Confusion{TP: 2, FN: 3}, 0.4, 0, 0, ClassScores{1, 0.4, 0.5714285714285715}, ClassScores{}},
	{Confusion{FP: 1}, 0, 0, 0, ClassScores{}, ClassScores{}},
}

func TestConfusionMatchesScikitLearn(t *testing.T) {
	for _, tc := range sklearnCases {
		c := tc.c
		check := func(what string, got, want float64) {
			t.Helper()
			if !near(got, want) {
				t.Errorf("%+v: expected %s %v (scikit-learn), but got %v", c, what, want, got)
			}
		}
		check("accuracy", c.Accuracy(), tc.acc)
		check("kappa", c.Kappa(), tc.kappa)
		check("mcc", c.MCC(), tc.mcc)
		check("pass precision", c.Pass().Precision, tc.pass.Precision)
		check("pass recall", c.Pass().Recall, tc.pass.Recall)
		check("pass f1", c.Pass().F1, tc.pass.F1)
		check("fail precision", c.Fail().Precision, tc.fail.Precision)
		check("fail recall", c.Fail().Recall, tc.fail.Recall)
		check("fail f1", c.Fail().F1, tc.fail.F1)
		n := float64(c.N())
		check("base rate", c.BaseRate(), float64(c.TP+c.FN)/n)
		check("majority accuracy", c.MajorityAccuracy(), math.Max(float64(c.TP+c.FN), float64(c.FP+c.TN))/n)
	}
}

func TestNoSamples(t *testing.T) {
	var c Confusion
	for name, x := range map[string]float64{"accuracy": c.Accuracy(), "kappa": c.Kappa(), "mcc": c.MCC(), "base rate": c.BaseRate(), "majority": c.MajorityAccuracy()} {
		if !math.IsNaN(x) {
			t.Errorf("Expected %s of no samples to be undefined (NaN), but it is %v", name, x)
		}
	}
	iv := bootstrap(nil)
	if !math.IsNaN(iv.Kappa.Low) || !math.IsNaN(iv.Accuracy.High) {
		t.Errorf("Expected no intervals for no samples, got %+v", iv)
	}
}

// Property: kappa and MCC are symmetric in which side is called people,
// lie in [-1, 1], and equal each other when the marginals are symmetric
// (FP = FN), as scikit-learn's results above show.
func TestKappaProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		c := Confusion{rng.IntN(20), rng.IntN(20), rng.IntN(20), rng.IntN(20)}
		swapped := Confusion{TP: c.TP, FP: c.FN, FN: c.FP, TN: c.TN}
		if k, ks := c.Kappa(), swapped.Kappa(); !near(k, ks) && !(math.IsNaN(k) && math.IsNaN(ks)) {
			t.Fatalf("%+v: kappa %v, swapped %v", c, k, ks)
		}
		if k := c.Kappa(); !math.IsNaN(k) && (k < -1-tol || k > 1+tol) {
			t.Fatalf("%+v: kappa %v outside [-1, 1]", c, k)
		}
		if m := c.MCC(); !math.IsNaN(m) && (m < -1-tol || m > 1+tol) {
			t.Fatalf("%+v: mcc %v outside [-1, 1]", c, m)
		}
		sym := Confusion{TP: c.TP, FP: c.FP, FN: c.FP, TN: c.TN}
		if k, m := sym.Kappa(), sym.MCC(); !math.IsNaN(k) && math.Abs(k-m) > 1e-9 {
			t.Fatalf("%+v: symmetric marginals, but kappa %v and mcc %v differ", sym, k, m)
		}
	}
}

// NumPy's percentile (linear interpolation) on the same values.
func TestPercentileMatchesNumPy(t *testing.T) {
	xs := []float64{0.1, 0.4, 0.4, 0.7, 0.9, 1.3, 2.0}
	for _, tc := range []struct{ p, want float64 }{{0, 0.1}, {2.5, 0.14500000000000002}, {50, 0.7}, {97.5, 1.8949999999999998}, {100, 2.0}} {
		if got := Percentile(xs, tc.p); !near(got, tc.want) {
			t.Errorf("Expected the %vth percentile %v (numpy), but got %v", tc.p, tc.want, got)
		}
	}
	if got := Percentile([]float64{3}, 97.5); got != 3 {
		t.Errorf("one value: %v", got)
	}
	if !math.IsNaN(Percentile(nil, 50)) {
		t.Errorf("no values should be NaN")
	}
}

func pairsOf(c Confusion) []pair {
	var ps []pair
	for range c.TP {
		ps = append(ps, pair{true, true})
	}
	for range c.FP {
		ps = append(ps, pair{false, true})
	}
	for range c.FN {
		ps = append(ps, pair{true, false})
	}
	for range c.TN {
		ps = append(ps, pair{false, false})
	}
	return ps
}

func TestBootstrapIsDeterministicAndBracketsTheEstimate(t *testing.T) {
	c := Confusion{TP: 40, FP: 7, FN: 3, TN: 12}
	a, b := bootstrap(pairsOf(c)), bootstrap(pairsOf(c))
	if a != b {
		t.Fatalf("Expected the same intervals from the same seed, got %+v and %+v", a, b)
	}
	for name, tc := range map[string]struct {
		iv Bounds
		x  float64
	}{"accuracy": {a.Accuracy, c.Accuracy()}, "kappa": {a.Kappa, c.Kappa()}, "mcc": {a.MCC, c.MCC()}} {
		if !(tc.iv.Low < tc.x && tc.x < tc.iv.High) {
			t.Errorf("Expected the %s interval %+v to contain the estimate %v", name, tc.iv, tc.x)
		}
		if tc.iv.High-tc.iv.Low > 0.6 {
			t.Errorf("%s interval %+v is implausibly wide for 62 samples", name, tc.iv)
		}
	}
	// Pinned at BootstrapSeed: a change of generator or method shows here.
	if !near(a.Accuracy.Low, 0.7419354838709677) || !near(a.Accuracy.High, 0.9193548387096774) {
		t.Errorf("accuracy interval at seed %d moved: %+v", BootstrapSeed, a.Accuracy)
	}
	// Perfect agreement resamples to perfect agreement (or, for a resample
	// of one class, no kappa): every interval is [1, 1].
	p := bootstrap(pairsOf(Confusion{TP: 6, TN: 5}))
	if p.Accuracy != (Bounds{1, 1}) || p.Kappa != (Bounds{1, 1}) || p.MCC.High != 1 {
		t.Errorf("perfect agreement: %+v", p)
	}
	// One class only: kappa undefined on every resample.
	one := bootstrap(pairsOf(Confusion{TP: 6}))
	if !math.IsNaN(one.Kappa.Low) || one.Accuracy != (Bounds{1, 1}) {
		t.Errorf("one class: %+v", one)
	}
}

// krippendorff2011 is the reliability data of Krippendorff's "Computing
// Krippendorff's Alpha-Reliability" (2011), section C: 4 observers, 12
// units, values 1 to 5, some missing. Published: nominal 0.743, ordinal
// 0.815, interval 0.849. The exact values below are NLTK 3.8's
// AnnotationTask.alpha (nominal, interval) and the paper's formula in
// exact fractions (113/152, 108577/133160, 951/1120).
var krippendorff2011 = func() [][]float64 {
	n := math.NaN()
	obs := [][]float64{
		{1, 2, 3, 3, 2, 1, 4, 1, 2, n, n, n},
		{1, 2, 3, 3, 2, 2, 4, 1, 2, 5, n, 3},
		{n, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, n},
		{1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, n},
	}
	units := make([][]float64, 12)
	for u := range units {
		for _, o := range obs {
			units[u] = append(units[u], o[u])
		}
	}
	return units
}()

func TestAlphaMatchesPublishedExample(t *testing.T) {
	for _, tc := range []struct {
		level Level
		want  float64
	}{{Nominal, 0.743421052631579}, {Ordinal, 0.8153875037548813}, {Interval, 0.8491071428571428}} {
		if got := Alpha(krippendorff2011, tc.level); !near(got, tc.want) {
			t.Errorf("Expected alpha (level %d) %v, but got %v", tc.level, tc.want, got)
		}
	}
}

func TestAlphaDegenerate(t *testing.T) {
	n := math.NaN()
	// Perfect agreement with variation: 1.
	if got := Alpha([][]float64{{1, 1}, {0, 0}, {1, 1, n}}, Nominal); got != 1 {
		t.Errorf("perfect agreement: alpha %v, want 1", got)
	}
	// One value throughout: no disagreement expected, undefined.
	if got := Alpha([][]float64{{1, 1}, {1, 1}}, Nominal); !math.IsNaN(got) {
		t.Errorf("one value only: alpha %v, want NaN", got)
	}
	// No pairable values (each unit coded once): undefined.
	if got := Alpha([][]float64{{1, n}, {n, 0}}, Nominal); !math.IsNaN(got) {
		t.Errorf("no pairable values: alpha %v, want NaN", got)
	}
	if got := Alpha(nil, Ordinal); !math.IsNaN(got) {
		t.Errorf("no units: alpha %v", got)
	}
	// Two coders, binary: alpha is computed on pairs of the same units,
	// unchanged by the order of coders or units.
	a := Alpha([][]float64{{1, 1}, {1, 0}, {0, 0}, {0, 0}, {1, 1}}, Nominal)
	b := Alpha([][]float64{{0, 0}, {1, 1}, {0, 1}, {1, 1}, {0, 0}}, Nominal)
	if !near(a, b) {
		t.Errorf("alpha depends on order: %v vs %v", a, b)
	}
}

// fleissWikipedia is the worked example of Fleiss' kappa on Wikipedia
// (after Fleiss 1971): 10 subjects, 14 raters, 5 categories; published
// 0.210, statsmodels 0.13.5's fleiss_kappa 0.20993070442195522.
var fleissWikipedia = [][]int{
	{0, 0, 0, 0, 14}, {0, 2, 6, 4, 2}, {0, 0, 3, 5, 6}, {0, 3, 9, 2, 0}, {2, 2, 8, 1, 1},
	{7, 7, 0, 0, 0}, {3, 2, 6, 3, 0}, {2, 5, 3, 2, 2}, {6, 5, 2, 1, 0}, {0, 2, 2, 3, 7},
}

func TestFleissKappaMatchesStatsmodels(t *testing.T) {
	for _, tc := range []struct {
		counts [][]int
		want   float64
	}{
		{fleissWikipedia, 0.20993070442195522},
		{[][]int{{2, 1}, {3, 0}, {0, 3}, {1, 2}}, 0.33333333333333326},
		{[][]int{{3, 0}, {0, 3}}, 1},
	} {
		if got := FleissKappa(tc.counts); !near(got, tc.want) {
			t.Errorf("Expected Fleiss' kappa %v (statsmodels), but got %v for %v", tc.want, got, tc.counts)
		}
	}
	for name, counts := range map[string][][]int{
		"no subjects":       nil,
		"one rater":         {{1, 0}, {0, 1}},
		"uneven raters":     {{2, 1}, {1, 1}},
		"one category":      {{3, 0}, {3, 0}},
		"uneven categories": {{3, 0}, {3}},
	} {
		if got := FleissKappa(counts); !math.IsNaN(got) {
			t.Errorf("%s: Fleiss' kappa %v, want undefined (NaN)", name, got)
		}
	}
}

// alphaByPairs is Krippendorff's alpha from its definition over pairs of
// values (1 - Do/De, Do over the pairs within units weighted 1/(m_u-1),
// De over all pairs of pairable values), written independently of Alpha's
// coincidence matrix.
func alphaByPairs(units [][]float64, level Level) float64 {
	var pairable [][]float64
	var all []float64
	for _, u := range units {
		var vs []float64
		for _, v := range u {
			if !math.IsNaN(v) {
				vs = append(vs, v)
			}
		}
		if len(vs) >= 2 {
			pairable = append(pairable, vs)
			all = append(all, vs...)
		}
	}
	n := float64(len(all))
	count := map[float64]float64{}
	for _, v := range all {
		count[v]++
	}
	delta := func(a, b float64) float64 {
		switch level {
		case Nominal:
			if a == b {
				return 0
			}
			return 1
		case Ordinal:
			lo, hi := math.Min(a, b), math.Max(a, b)
			s := 0.0
			for v, c := range count {
				if v >= lo && v <= hi {
					s += c
				}
			}
			s -= (count[a] + count[b]) / 2
			return s * s
		}
		return (a - b) * (a - b)
	}
	do := 0.0
	for _, u := range pairable {
		s := 0.0
		for i, a := range u {
			for j, b := range u {
				if i != j {
					s += delta(a, b)
				}
			}
		}
		do += s / float64(len(u)-1)
	}
	de := 0.0
	for i, a := range all {
		for j, b := range all {
			if i != j {
				de += delta(a, b)
			}
		}
	}
	if n < 2 || de == 0 {
		return math.NaN()
	}
	return 1 - (n-1)*do/de
}

// Property: Alpha agrees with its definition on random reliability data:
// 1 to 5 coders, missing values, values on a small scale.
func TestAlphaMatchesItsDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 500 {
		coders, nUnits := 1+rng.IntN(5), 1+rng.IntN(12)
		units := make([][]float64, nUnits)
		for u := range units {
			for range coders {
				v := float64(rng.IntN(5))
				if rng.IntN(4) == 0 {
					v = math.NaN()
				}
				units[u] = append(units[u], v)
			}
		}
		for _, level := range []Level{Nominal, Ordinal, Interval} {
			got, want := Alpha(units, level), alphaByPairs(units, level)
			if !(math.IsNaN(got) && math.IsNaN(want)) && math.Abs(got-want) > 1e-9 {
				t.Fatalf("level %d, units %v: Alpha %v, by definition %v", level, units, got, want)
			}
		}
	}
	if got := alphaByPairs(krippendorff2011, Ordinal); !near(got, 0.8153875037548813) {
		t.Errorf("the definition itself gives %v on the published example", got)
	}
}
