// Package fuzzy computes the string distances ragas's NonLLMStringSimilarity
// takes from rapidfuzz, to the last bit: normalized Levenshtein and Hamming
// distances, Jaro and Jaro-Winkler similarities, on Unicode code points.
package fuzzy

// LevenshteinNormalized is the Levenshtein distance over the longer length (0 for two empty texts).
func LevenshteinNormalized(a, b []rune) float64 {
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
	if len(b) > 64 {
		return levenshteinBits(a, b)
	}
	return levenshteinTable(a, b)
}

// levenshteinTable is the distance of a and b, b the shorter and not
// empty, computed cell by cell: for short texts, without levenshteinBits's
// tables.
func levenshteinTable(a, b []rune) int {
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

// HammingNormalized is rapidfuzz's padded Hamming distance: positions past
// the shorter string count as different.
func HammingNormalized(a, b []rune) float64 {
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

// JaroSimilarity follows rapidfuzz: a match window of max(len)/2 - 1 around
// each position, greedy left-to-right matching, half the transpositions
// (integer division), and the three ratios summed in rapidfuzz's order.
func JaroSimilarity(p, t []rune) float64 {
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
	var common int
	if bound > 32 {
		common = matchQueued(p, t, bound, pFlag, tFlag)
	} else {
		common = matchScanned(p, t, bound, pFlag, tFlag)
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

// JaroWinklerSimilarity is rapidfuzz's Jaro-Winkler: prefix weight 0.1, up to 4 characters, applied above 0.7.
func JaroWinklerSimilarity(p, t []rune) float64 {
	prefix := 0
	for maxPrefix := min(len(p), len(t), 4); prefix < maxPrefix && p[prefix] == t[prefix]; prefix++ {
	}
	sim := JaroSimilarity(p, t)
	if sim > 0.7 {
		sim += float64(prefix) * 0.1 * (1.0 - sim)
		sim = min(sim, 1.0)
	}
	return sim
}
