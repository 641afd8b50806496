package metric

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// appendCount writes every count as strconv does, the one-digit ones it
// writes itself and the rest.
func TestAppendCountIsItoa(t *testing.T) {
	for n := range 1000 {
		if got, want := string(appendCount([]byte("x"), n)), "x"+strconv.Itoa(n); got != want {
			t.Fatalf("appendCount(%d) wrote %q, want %q", n, got, want)
		}
	}
}

// appendScore4 writes every score as strconv's 'g' with 4 digits does,
// from its slots or not: 20,000 random scores and fractions, many more
// than the slots, so that slots are taken over again and again.
func TestAppendScore4IsFormatFloat(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(4, 4))
	for i := range 20000 {
		x := r.Float64()
		if i%2 == 0 {
			x = float64(r.IntN(50)) / float64(1+r.IntN(50))
		}
		if got, want := string(appendScore4([]byte("x"), x)), "x"+strconv.FormatFloat(x, 'g', 4, 64); got != want {
			t.Fatalf("appendScore4(%v) wrote %q, want %q", x, got, want)
		}
	}
}
