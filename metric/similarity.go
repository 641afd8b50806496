package metric

import (
	"fmt"
	"slices"

	"github.com/agentcheck/agentcheck/internal/fuzzy"
	"github.com/agentcheck/agentcheck/internal/pytext"
)

// StringSimilarity is how two argument values, as Python str() texts, are
// compared: exactly, or by 1 minus a normalized edit distance as ragas's
// NonLLMStringSimilarity computes it with rapidfuzz. Distances work on
// Unicode code points and are case-sensitive. The zero value is ExactText.
type StringSimilarity uint8

// The string similarities ragas offers.
const (
	ExactText StringSimilarity = iota
	Levenshtein
	Hamming
	Jaro
	JaroWinkler
)

var similarityNames = [...]string{"exact", "levenshtein", "hamming", "jaro", "jaro_winkler"}

// String is the similarity's name as the CLI and ragas take it: exact,
// levenshtein, hamming, jaro or jaro_winkler.
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
	if s == ExactText {
		return b2f(reference == response)
	}
	var ra, rb [64]rune
	return s.scoreRunes(pytext.AppendCodePoints(ra[:0], reference), pytext.AppendCodePoints(rb[:0], response))
}

// scoreRunes is Score on texts decoded into code points, as Python indexes
// a str.
func (s StringSimilarity) scoreRunes(a, b []rune) float64 {
	// ragas computes 1 - normalized_distance, and rapidfuzz's normalized
	// distance of the Jaro family is 1 - similarity: the two subtractions are
	// kept because they are not always exact in floating point.
	switch s {
	case ExactText:
		return b2f(slices.Equal(a, b))
	case Levenshtein:
		return 1 - fuzzy.LevenshteinNormalized(a, b)
	case Hamming:
		return 1 - fuzzy.HammingNormalized(a, b)
	case Jaro:
		return 1 - (1 - fuzzy.JaroSimilarity(a, b))
	case JaroWinkler:
		return 1 - (1 - fuzzy.JaroWinklerSimilarity(a, b))
	}
	panic(fmt.Sprintf("agenttest: unknown StringSimilarity %d", int(s)))
}
