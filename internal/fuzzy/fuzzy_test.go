package fuzzy

import (
	"math/rand/v2"
	"testing"
)

// TestLevenshteinTrimming checks the distance, which skips a common prefix
// and suffix, against the plain dynamic programme on random texts over
// small alphabets, where prefixes, suffixes and repeats are common.
func TestLevenshteinTrimming(t *testing.T) {
	plain := func(a, b []rune) int {
		d := make([][]int, len(a)+1)
		for i := range d {
			d[i] = make([]int, len(b)+1)
			d[i][0] = i
		}
		for j := range d[0] {
			d[0][j] = j
		}
		for i := 1; i <= len(a); i++ {
			for j := 1; j <= len(b); j++ {
				cost := 1
				if a[i-1] == b[j-1] {
					cost = 0
				}
				d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			}
		}
		return d[len(a)][len(b)]
	}
	r := rand.New(rand.NewPCG(7, 8))
	text := func(alpha []rune) []rune {
		out := make([]rune, r.IntN(90))
		for i := range out {
			out[i] = alpha[r.IntN(len(alpha))]
		}
		return out
	}
	for range 3000 {
		alpha := []rune("ab")
		if r.IntN(2) == 0 {
			alpha = []rune("abcé😀")
		}
		a := text(alpha)
		b := append(append([]rune{}, a[:r.IntN(len(a)+1)]...), text(alpha)...)
		if r.IntN(2) == 0 {
			a, b = b, a
		}
		if got, want := levenshteinDistance(a, b), plain(a, b); got != want {
			t.Fatalf("levenshtein(%q, %q) = %d, want %d", string(a), string(b), got, want)
		}
	}
}
