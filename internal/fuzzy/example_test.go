package fuzzy_test

import (
	"fmt"

	"github.com/agentcheck/agentcheck/internal/fuzzy"
)

func Example() {
	a, b := []rune("kitten"), []rune("sitting")
	fmt.Println(fuzzy.LevenshteinNormalized(a, b), fuzzy.HammingNormalized(a, b))
	fmt.Println(fuzzy.JaroSimilarity([]rune("MARTHA"), []rune("MARHTA")), fuzzy.JaroWinklerSimilarity([]rune("MARTHA"), []rune("MARHTA")))
	// Output:
	// 0.42857142857142855 0.42857142857142855
	// 0.9444444444444445 0.9611111111111111
}
