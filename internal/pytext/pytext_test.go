package pytext

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestFloatRandom checks the one-pass float formatting against the plain
// two-pass definition (shortest digits in 'e' form, or in 'f' form with
// ".0" for integral values while the exponent is in [-4, 16)) on random
// doubles of every magnitude.
func TestFloatRandom(t *testing.T) {
	reference := func(f float64) string {
		e := strconv.FormatFloat(f, 'e', -1, 64)
		exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
		if exp < -4 || exp >= 16 {
			return e
		}
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	r := rand.New(rand.NewPCG(1, 2))
	check := func(f float64) {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return
		}
		if got, want := string(AppendFloat(nil, f)), reference(f); got != want {
			t.Fatalf("repr(%b) = %q, want %q", f, got, want)
		}
	}
	for range 200000 {
		check(math.Float64frombits(r.Uint64()))
		// Decimal-looking values around the fixed/exponent boundaries.
		check(float64(r.IntN(2000000)-1000000) * math.Pow10(r.IntN(30)-12))
	}
	for e := -330; e <= 310; e++ {
		check(math.Pow10(e))
		check(-math.Pow10(e))
		check(1.5 * math.Pow10(e))
	}
}

func TestRound(t *testing.T) {
	// Computed by python3: round(x, n).
	tests := []struct {
		x    float64
		n    int
		want float64
	}{
		{15.0, -1, 20.0},
		{25.0, -1, 20.0},
		{-35.0, -1, -40.0},
		{1e+300, -300, 1e+300},
		{5e-324, -1, 0.0},
		{0.5, 0, 0.0},
		{1.5, 0, 2.0},
		{2.5, 0, 2.0},
		{2.675, 2, 2.67},
		{-0.4, 0, math.Copysign(0, -1)},
		{-1e-05, 4, math.Copysign(0, -1)},
		{0.66666666, 4, 0.6667},
		{0.12345, 4, 0.1235},
		{5e-05, 4, 0.0001},
		{0.00015, 4, 0.0001},
		{123456.789, -3, 123000.0},
		{1e+22, -21, 1e+22},
		{0.1, 400, 0.1},
		{math.Inf(1), 2, math.Inf(1)},
		{7.0, 4, 7.0},
		{1.0000000000000002e+16, -1, 1e+16},
		{4500000000000000.0, -16, 0.0},
		{5000000000000000.0, -16, 0.0},
		{6000000000000000.0, -16, 1e+16},
		{-4.0, -1, math.Copysign(0, -1)},
		{0.0, -5, 0.0},
		{95.0, -1, 100.0},
		{-5.0, -1, math.Copysign(0, -1)},
		{1e+308, -308, 1e+308},
		{3e+307, -308, 0.0},
	}
	for _, tt := range tests {
		if got := Round(tt.x, tt.n); math.Float64bits(got) != math.Float64bits(tt.want) {
			t.Errorf("Round(%v, %d) = %v, Python gives %v", tt.x, tt.n, got, tt.want)
		}
	}
	if got := Round(math.NaN(), 4); !math.IsNaN(got) {
		t.Errorf("Round(NaN) = %v", got)
	}
	// Where Python overflows, Round gives infinity.
	if got := Round(1.7976931348623157e308, -308); !math.IsInf(got, 1) {
		t.Errorf("Round(max, -308) = %v, want +Inf", got)
	}
}

func TestWTF8(t *testing.T) {
	for _, r := range []rune{'a', 'é', 0x7ff, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xffff, 0x10000, 0x10ffff} {
		b := AppendWTF8(nil, r)
		if !ValidWTF8(b) {
			t.Errorf("AppendWTF8(%U) = % x is not valid WTF-8", r, b)
		}
		if got, n := DecodeWTF8(string(b)); got != r || n != len(b) {
			t.Errorf("DecodeWTF8(% x) = %U, %d; want %U, %d", b, got, n, r, len(b))
		}
		if got := AppendCodePointsBytes(nil, b); len(got) != 1 || got[0] != r {
			t.Errorf("AppendCodePointsBytes(% x) = %U", b, got)
		}
		if got := AppendCodePoints(nil, string(b)); len(got) != 1 || got[0] != r {
			t.Errorf("AppendCodePoints(% x) = %U", b, got)
		}
	}
	for _, bad := range []string{"\xff", "\xed\xa0", "\xc3", "a\x80"} {
		if ValidWTF8([]byte(bad)) {
			t.Errorf("ValidWTF8(%q) = true", bad)
		}
	}
	if got := string(AppendHex(nil, 0xd83d, 4)); got != "d83d" {
		t.Errorf("AppendHex = %q", got)
	}
}

func Example() {
	fmt.Println(string(AppendFloat(nil, 1e-05)), string(AppendFloat(nil, 1e16)), string(AppendFloat(nil, 75)))
	fmt.Println(string(AppendRepr(nil, "it's")), string(AppendRepr(nil, "a\tb\u00ad")))
	fmt.Println(Round(2.675, 2), Round(0.5, 0), Round(15, -1))
	// Output:
	// 1e-05 1e+16 75.0
	// "it's" 'a\tb\xad'
	// 2.67 0 20
}
