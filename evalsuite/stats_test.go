package evalsuite

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// The estimates against values worked out by hand from the binomials:
// n=10, c=3: C(10,1)=10, C(10,2)=45, C(10,5)=252, C(7,2)=21, C(7,5)=21,
// C(3,2)=3.
func TestPassAtKEstimateByHand(t *testing.T) {
	for _, tc := range []struct {
		n, c, k int
		want    float64
	}{
		{10, 3, 1, 3.0 / 10},
		{10, 3, 2, 1 - 21.0/45},
		{10, 3, 5, 1 - 21.0/252},
		{10, 8, 3, 1},        // 2 failures cannot fill 3 draws
		{10, 0, 5, 0},        // no pass to draw
		{5, 5, 5, 1},         // all pass
		{4, 1, 2, 1 - 3.0/6}, // C(3,2)/C(4,2)
	} {
		if got := PassAtKEstimate(tc.n, tc.c, tc.k); !near(got, tc.want) {
			t.Errorf("Expected pass@%d with %d of %d passing to be %v, but it is %v", tc.k, tc.c, tc.n, tc.want, got)
		}
	}
}

func TestPassHatKEstimateByHand(t *testing.T) {
	for _, tc := range []struct {
		n, c, k int
		want    float64
	}{
		{10, 3, 1, 3.0 / 10},
		{10, 3, 2, 3.0 / 45},
		{10, 3, 5, 0}, // C(3,5) = 0
		{10, 8, 3, 56.0 / 120},
		{5, 5, 5, 1},
		{4, 2, 2, 1.0 / 6},
	} {
		if got := PassHatKEstimate(tc.n, tc.c, tc.k); !near(got, tc.want) {
			t.Errorf("Expected pass^%d with %d of %d passing to be %v, but it is %v", tc.k, tc.c, tc.n, tc.want, got)
		}
	}
}

// pass@1 and pass^1 are both the plain pass rate, and pass^k never exceeds
// pass@k.
func TestEstimatesAgree(t *testing.T) {
	for n := 1; n <= 12; n++ {
		for c := 0; c <= n; c++ {
			rate := float64(c) / float64(n)
			if a, h := PassAtKEstimate(n, c, 1), PassHatKEstimate(n, c, 1); !near(a, rate) || !near(h, rate) {
				t.Errorf("Expected pass@1 and pass^1 of %d/%d to be %v, but they are %v and %v", c, n, rate, a, h)
			}
			for k := 1; k <= n; k++ {
				a, h := PassAtKEstimate(n, c, k), PassHatKEstimate(n, c, k)
				if h > a+1e-12 || a < 0 || a > 1 || h < 0 || h > 1 {
					t.Errorf("Expected 0 ≤ pass^%d ≤ pass@%d ≤ 1 for %d/%d, but they are %v and %v", k, k, c, n, h, a)
				}
			}
		}
	}
}

func TestEstimateRefusesNonsense(t *testing.T) {
	for _, a := range [][3]int{{0, 0, 1}, {5, 6, 1}, {5, -1, 1}, {5, 2, 0}, {5, 2, 6}} {
		if got := PassAtKEstimate(a[0], a[1], a[2]); !math.IsNaN(got) {
			t.Errorf("Expected pass@k(n=%d, c=%d, k=%d) to be NaN, but it is %v", a[0], a[1], a[2], got)
		}
		if got := PassHatKEstimate(a[0], a[1], a[2]); !math.IsNaN(got) {
			t.Errorf("Expected pass^k(n=%d, c=%d, k=%d) to be NaN, but it is %v", a[0], a[1], a[2], got)
		}
	}
}

// Wilson intervals against published values (Newcombe 1998, table I, and
// the usual textbook 8/10 example), to three decimals.
func TestWilson95KnownValues(t *testing.T) {
	for _, tc := range []struct {
		c, n   int
		lo, hi float64
	}{
		{8, 10, 0.490, 0.943},
		{81, 263, 0.2553, 0.3662},
		{15, 148, 0.0624, 0.1605},
		{0, 20, 0, 0.1611},
		{1, 29, 0.0061, 0.1718},
		{10, 10, 0.7225, 1},
	} {
		lo, hi := Wilson95(tc.c, tc.n)
		if math.Abs(lo-tc.lo) > 5e-4 || math.Abs(hi-tc.hi) > 5e-4 {
			t.Errorf("Expected the Wilson interval of %d/%d to be [%.4f, %.4f], but it is [%.4f, %.4f]", tc.c, tc.n, tc.lo, tc.hi, lo, hi)
		}
	}
	if lo, hi := Wilson95(0, 0); lo != 0 || hi != 1 {
		t.Errorf("Expected the Wilson interval of no runs to be [0, 1], but it is [%v, %v]", lo, hi)
	}
	if lo, _ := Wilson95(3, 2); !math.IsNaN(lo) {
		t.Errorf("Expected the Wilson interval of 3/2 to be NaN, but it starts at %v", lo)
	}
}
