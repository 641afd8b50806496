package fuzzy

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// levenshteinBits gives the distance the table gives, cell by cell, on
// 1,500 pairs of texts over alphabets of two, four and 26 letters and of
// code points past ASCII, of every length up to 300 (one, two, three and
// five words of bits, the last one full or not), the texts alike or not;
// and on texts that differ in length by far. (4,000 pairs took 2.9 s of
// CPU under -race; FuzzLevenshteinBitsIsTheTable searches on.)
func TestLevenshteinBitsIsTheTable(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 1_500 {
		a, b := levenshteinCase(r, i)
		if got, want := levenshteinBits(a, b), levenshteinTable(a, b); got != want {
			t.Fatalf("levenshtein(%q, %q): bit-vector %d, table %d", string(a), string(b), got, want)
		}
	}
}

// FuzzLevenshteinBitsIsTheTable: the bit-vector distance is the table's
// on any two texts, seeded with the test's pairs at the words' edges.
func FuzzLevenshteinBitsIsTheTable(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 400 {
		if a, b := levenshteinCase(r, i); i%7 == 0 && len(b) <= 129 {
			f.Add(string(a), string(b))
		}
	}
	f.Fuzz(func(t *testing.T, x, y string) {
		a, b := []rune(x), []rune(y)
		if len(a) < len(b) {
			a, b = b, a
		}
		if len(b) == 0 || len(a) > 2000 {
			t.Skip()
		}
		if got, want := levenshteinBits(a, b), levenshteinTable(a, b); got != want {
			t.Fatalf("levenshtein(%q, %q): bit-vector %d, table %d", string(a), string(b), got, want)
		}
	})
}

// levenshteinCase draws the i-th pair of TestLevenshteinBitsIsTheTable,
// the longer first.
func levenshteinCase(r *rand.Rand, i int) (a, b []rune) {
	alphabets := [][]rune{[]rune("ab"), []rune("acgt"), []rune("abcdefghijklmnopqrstuvwxyz"), []rune("aé€😀\u0000b")}
	text := func(n int, alpha []rune) []rune {
		s := make([]rune, n)
		for i := range s {
			s[i] = alpha[r.IntN(len(alpha))]
		}
		return s
	}
	alpha := alphabets[i%len(alphabets)]
	m := 1 + r.IntN(300)
	if i%7 == 0 {
		m = []int{63, 64, 65, 127, 128, 129, 192, 193}[r.IntN(8)]
	}
	b = text(m, alpha)

	switch i % 3 {
	case 0:
		a = text(m+r.IntN(300), alpha)
	case 1:
		// b edited here and there.
		a = append([]rune(nil), b...)
		for range r.IntN(10) {
			k := r.IntN(len(a) + 1)
			switch r.IntN(3) {
			case 0:
				a = append(a[:k], append([]rune{alpha[r.IntN(len(alpha))]}, a[k:]...)...)
			case 1:
				if k < len(a) {
					a = append(a[:k], a[k+1:]...)
				}
			default:
				if k < len(a) {
					a[k] = alpha[r.IntN(len(alpha))]
				}
			}
		}
	default:
		a = text(m+r.IntN(3), alpha)
	}
	if len(a) < len(b) {
		a, b = b, a
	}
	return a, b
}

// BenchmarkLevenshteinLong compares two texts of 20,000 code points that
// share no prefix or suffix.
func BenchmarkLevenshteinLong(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	x, y := make([]rune, 20_000), make([]rune, 20_000)
	for i := range x {
		x[i], y[i] = rune('0'+r.IntN(10)), rune('0'+r.IntN(10))
	}
	x[0], y[0], x[len(x)-1], y[len(y)-1] = 'a', 'b', 'a', 'b'
	for b.Loop() {
		levenshteinDistance(x, y)
	}
}

// matchQueued flags the characters matchScanned flags, and as many, on
// 4,000 pairs of texts of every length up to 400 over the same alphabets,
// with windows from none to wider than the texts.
func TestJaroMatchQueuedIsScanned(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	alphabets := [][]rune{[]rune("ab"), []rune("acgt"), []rune("abcdefghijklmnopqrstuvwxyz"), []rune("aé€😀\u0000b")}
	for i := range 4_000 {
		alpha := alphabets[i%len(alphabets)]
		p, q := make([]rune, r.IntN(400)), make([]rune, r.IntN(400))
		for k := range p {
			p[k] = alpha[r.IntN(len(alpha))]
		}
		for k := range q {
			q[k] = alpha[r.IntN(len(alpha))]
		}
		bound := r.IntN(max(len(p), len(q))/2 + 2)
		pf, qf := make([]bool, len(p)), make([]bool, len(q))
		pg, qg := make([]bool, len(p)), make([]bool, len(q))
		n, m := matchScanned(p, q, bound, pf, qf), matchQueued(p, q, bound, pg, qg)
		if n != m || !slices.Equal(pf, pg) || !slices.Equal(qf, qg) {
			t.Fatalf("%q, %q, window %d: queued matched %d, scanned %d", string(p), string(q), bound, m, n)
		}
	}
}
