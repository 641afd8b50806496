package pyvalue

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/jsonvalue"
)

// TestSameSourceChangesNoAnswer: Equal and identical stop at two arrays or
// objects read from the same text; on every pair of generated values,
// NaN, duplicate keys and key orders among them, they answer as they do
// on the same values built in code, which have no source to compare.
func TestSameSourceChangesNoAnswer(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 11))
	shortcuts := 0
	for i := 0; i < 20000; i++ {
		ta := randomJSON(rng, 0)
		tb := ta
		switch rng.IntN(3) {
		case 0: // another value, as often the same text
			tb = randomJSON(rng, 0)
		case 1: // the same value in other spacing: another source
			tb = strings.ReplaceAll(ta, ",", " , ")
		}
		a, b := jsonvalue.MustParse(ta), jsonvalue.MustParse(tb)
		ca, cb := built(a), built(b)
		if a.Source() != "" && a.Source() == b.Source() {
			shortcuts++
		}
		if got, want := Equal(a, b), Equal(ca, cb); got != want {
			t.Fatalf("Equal(%s, %s) = %v read from text, %v built", ta, tb, got, want)
		}
		if got, want := identical(&a, &b), identical(&ca, &cb); got != want {
			t.Fatalf("identical(%s, %s) = %v read from text, %v built", ta, tb, got, want)
		}
	}
	if shortcuts < 5000 {
		t.Fatalf("only %d pairs had the same source: the shortcut is hardly tried", shortcuts)
	}
}

// built is v made again in code, its arrays and objects without a source.
func built(v jsonvalue.Value) jsonvalue.Value {
	switch v.Kind() {
	case jsonvalue.ArrayKind:
		items := make([]jsonvalue.Value, v.Len())
		for i := range items {
			items[i] = built(v.Index(i))
		}
		return jsonvalue.Array(items...)
	case jsonvalue.ObjectKind:
		ms := make([]jsonvalue.Member, 0, v.Len())
		for _, m := range v.Members() {
			ms = append(ms, jsonvalue.Member{Key: m.Key, Value: built(m.Value)})
		}
		return jsonvalue.Object(ms...)
	}
	return v
}

// randomJSON is a small JSON text: few keys and values, so that equal
// values come up often, NaN and duplicate keys among them.
func randomJSON(rng *rand.Rand, depth int) string {
	scalars := []string{`1`, `1.0`, `-0.0`, `0`, `true`, `null`, `NaN`, `Infinity`, `"a"`, `"1"`, `"é"`, `"\u00e9"`}
	if depth > 2 || rng.IntN(3) == 0 {
		return scalars[rng.IntN(len(scalars))]
	}
	n := rng.IntN(3)
	parts := make([]string, n)
	if rng.IntN(2) == 0 {
		for i := range parts {
			parts[i] = randomJSON(rng, depth+1)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	keys := []string{`"k"`, `"q"`, `"x"`}
	for i := range parts {
		parts[i] = keys[rng.IntN(len(keys))] + ": " + randomJSON(rng, depth+1)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
