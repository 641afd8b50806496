package agenttest

import (
	"fmt"
	"slices"
	"unicode/utf8"
)

// StringSimilarity is how two argument values, as Python str() texts, are
// compared: exactly, or by 1 minus a normalized edit distance as ragas's
// NonLLMStringSimilarity computes it with rapidfuzz. Distances work on
// Unicode code points and are case-sensitive. The zero value is Exact.
type StringSimilarity uint8

// The string similarities ragas offers.
const (
	Exact StringSimilarity = iota
	Levenshtein
	Hamming
	Jaro
	JaroWinkler
)

var similarityNames = [...]string{"exact", "levenshtein", "hamming", "jaro", "jaro_winkler"}

func (s StringSimilarity) String() string {
	if int(s) < len(similarityNames) {
		return similarityNames[s]
	}
	return fmt.Sprintf("StringSimilarity(%d)", int(s))
}

// ParseStringSimilarity reads a name as the CLI takes it: exact,
// levenshtein, hamming, jaro or jaro_winkler.
func ParseStringSimilarity(name string) (StringSimilarity, error) {
	for i, n := range similarityNames {
		if n == name {
			return StringSimilarity(i), nil
		}
	}
	return 0, fmt.Errorf("unknown string similarity %q (want exact, levenshtein, hamming, jaro or jaro_winkler)", name)
}

// Score compares a reference text with a response text, in [0, 1].
func (s StringSimilarity) Score(reference, response string) float64 {
	if s == Exact {
		return b2f(reference == response)
	}
	var ra, rb [64]rune
	return s.scoreRunes(appendCodePoints(ra[:0], reference), appendCodePoints(rb[:0], response))
}

// scoreRunes is Score on texts decoded into code points, as Python indexes
// a str.
func (s StringSimilarity) scoreRunes(a, b []rune) float64 {
	// ragas computes 1 - normalized_distance, and rapidfuzz's normalized
	// distance of the Jaro family is 1 - similarity: the two subtractions are
	// kept because they are not always exact in floating point.
	switch s {
	case Exact:
		return b2f(slices.Equal(a, b))
	case Levenshtein:
		return 1 - levenshteinNormalized(a, b)
	case Hamming:
		return 1 - hammingNormalized(a, b)
	case Jaro:
		return 1 - (1 - jaroSimilarity(a, b))
	case JaroWinkler:
		return 1 - (1 - jaroWinklerSimilarity(a, b))
	}
	panic(fmt.Sprintf("agenttest: unknown StringSimilarity %d", int(s)))
}

// appendCodePointsBytes is appendCodePoints for a text in a byte buffer,
// lone surrogates (WTF-8) included.
func appendCodePointsBytes(dst []rune, b []byte) []rune {
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c < utf8.RuneSelf:
			dst = append(dst, rune(c))
			i++
		case c == 0xED && len(b)-i >= 3 && b[i+1] >= 0xA0 && b[i+1] <= 0xBF && b[i+2]&0xC0 == 0x80:
			dst = append(dst, 0xD000|rune(b[i+1]&0x3F)<<6|rune(b[i+2]&0x3F))
			i += 3
		default:
			r, n := utf8.DecodeRune(b[i:])
			dst = append(dst, r)
			i += n
		}
	}
	return dst
}

func levenshteinNormalized(a, b []rune) float64 {
	longest := max(len(a), len(b))
	if longest == 0 {
		return 0
	}
	return float64(levenshteinDistance(a, b)) / float64(longest)
}

func levenshteinDistance(a, b []rune) int {
	// A common prefix or suffix never changes the distance, and arguments
	// that differ mostly share both: what is left is often tiny.
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		a, b = a[1:], b[1:]
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(b) == 0 {
		return len(a)
	}
	var buf [65]int
	row := buf[:0]
	if len(b)+1 > len(buf) {
		row = make([]int, 0, len(b)+1)
	}
	for j := 0; j <= len(b); j++ {
		row = append(row, j)
	}
	for i := 1; i <= len(a); i++ {
		diag := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			up := row[j]
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			row[j] = min(up+1, row[j-1]+1, diag+cost)
			diag = up
		}
	}
	return row[len(b)]
}

// hammingNormalized is rapidfuzz's padded Hamming distance: positions past
// the shorter string count as different.
func hammingNormalized(a, b []rune) float64 {
	longest := max(len(a), len(b))
	if longest == 0 {
		return 0
	}
	dist := longest
	for i := 0; i < min(len(a), len(b)); i++ {
		if a[i] == b[i] {
			dist--
		}
	}
	return float64(dist) / float64(longest)
}

// jaroSimilarity follows rapidfuzz: a match window of max(len)/2 - 1 around
// each position, greedy left-to-right matching, half the transpositions
// (integer division), and the three ratios summed in rapidfuzz's order.
func jaroSimilarity(p, t []rune) float64 {
	pLen, tLen := len(p), len(t)
	if pLen == 0 && tLen == 0 {
		return 1
	}
	if pLen == 0 || tLen == 0 {
		return 0
	}
	if pLen == 1 && tLen == 1 {
		if p[0] == t[0] {
			return 1
		}
		return 0
	}
	bound := max(pLen, tLen)/2 - 1
	// Characters beyond shorter+bound in the longer string can never match.
	if tLen > pLen && tLen > pLen+bound {
		t = t[:pLen+bound]
	} else if pLen > tLen && pLen > tLen+bound {
		p = p[:tLen+bound]
	}
	var pf, tf [64]bool
	pFlag, tFlag := pf[:0], tf[:0]
	if len(p) > len(pf) || len(t) > len(tf) {
		pFlag, tFlag = make([]bool, len(p)), make([]bool, len(t))
	} else {
		pFlag, tFlag = pf[:len(p)], tf[:len(t)]
	}
	common := 0
	for j := range t {
		lo, hi := max(0, j-bound), min(len(p), j+bound+1)
		for i := lo; i < hi; i++ {
			if !pFlag[i] && p[i] == t[j] {
				pFlag[i], tFlag[j] = true, true
				common++
				break
			}
		}
	}
	if common == 0 {
		return 0
	}
	trans := 0
	i := 0
	for j := range t {
		if !tFlag[j] {
			continue
		}
		for !pFlag[i] {
			i++
		}
		if p[i] != t[j] {
			trans++
		}
		i++
	}
	trans /= 2
	m := float64(common)
	sim := m / float64(pLen)
	sim += m / float64(tLen)
	sim += (m - float64(trans)) / m
	return sim / 3.0
}

func jaroWinklerSimilarity(p, t []rune) float64 {
	prefix := 0
	for maxPrefix := min(len(p), len(t), 4); prefix < maxPrefix && p[prefix] == t[prefix]; prefix++ {
	}
	sim := jaroSimilarity(p, t)
	if sim > 0.7 {
		sim += float64(prefix) * 0.1 * (1.0 - sim)
		sim = min(sim, 1.0)
	}
	return sim
}
