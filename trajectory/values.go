package trajectory

import (
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/agentcheck/agentcheck/internal/keypath"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// Equivalence says when two argument values are equal. The zero value is
// JSON equality, jsonvalue.Equal: 1 equals 1.0, true is not 1, objects
// whatever their key order.
type Equivalence struct {
	// Strings, when set, rewrites both strings before they are compared:
	// CaseInsensitive, BFCLStrings or the test's own.
	Strings func(string) string
	// Tolerance is the largest difference between two numbers that are
	// still equal.
	Tolerance float64
}

// CaseInsensitive compares strings without regard to case, as
// strings.EqualFold does (Unicode simple folding): each letter becomes the
// least of the letters it folds with.
func CaseInsensitive(s string) string {
	return strings.Map(func(r rune) rune {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		return least
	}, s)
}

// BFCLStrings is the string normaliser of BFCL's AST checker
// (standardize_string): the characters space , . / - _ * ^ removed, the
// rest lower-cased as Python's str.lower does (İ becomes i and a combining
// dot), and every ' made a ", so that 'a' and "a" compare equal.
func BFCLStrings(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', ',', '.', '/', '-', '_', '*', '^':
			return -1
		case '\'':
			return '"'
		}
		return r
	}, strings.ToLower(strings.ReplaceAll(s, "\u0130", "i\u0307")))
}

func (e Equivalence) zero() bool { return e.Strings == nil && e.Tolerance == 0 }

// Equal reports whether a and b are equal under the equivalence; a nil
// equivalence is JSON equality, jsonvalue.Equal.
func (e *Equivalence) Equal(a, b jsonvalue.Value) bool {
	if e == nil || e.zero() {
		return jsonvalue.Equal(a, b)
	}
	return e.equal(a, b)
}

// equal compares two values under a non-zero equivalence.
func (e *Equivalence) equal(a, b jsonvalue.Value) bool {
	num := func(k jsonvalue.Kind) bool { return k == jsonvalue.IntKind || k == jsonvalue.FloatKind }
	switch {
	case num(a.Kind()) && num(b.Kind()):
		if jsonvalue.Equal(a, b) {
			return true
		}
		return math.Abs(a.Float()-b.Float()) <= e.Tolerance
	case a.Kind() != b.Kind():
		return false
	case a.Kind() == jsonvalue.StringKind:
		if e.Strings == nil {
			return a.Text() == b.Text()
		}
		return e.Strings(a.Text()) == e.Strings(b.Text())
	case a.Kind() == jsonvalue.ArrayKind:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !e.equal(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case a.Kind() == jsonvalue.ObjectKind:
		if len(a.Members()) != len(b.Members()) {
			return false
		}
		for _, mb := range a.Members() {
			bv, ok := b.Get(mb.Key)
			if !ok || !e.equal(mb.Value, bv) {
				return false
			}
		}
		return true
	}
	return jsonvalue.Equal(a, b)
}

// ArgsComparator decides whether the arguments of a call made match those
// of an expected call of the same tool, in place of the ArgsMode.
type ArgsComparator func(made, expected jsonvalue.Value) bool

// IgnorePaths returns v without the members that paths name: dotted key
// paths into nested objects whose segments are path.Match patterns
// ("request_id", "time.start", "*_id"). Values that are not objects are
// returned as they are.
func IgnorePaths(v jsonvalue.Value, paths ...string) jsonvalue.Value {
	return prune(v, keypath.Split(paths))
}

// prune removes from an object the members that ignore patterns name.
func prune(v jsonvalue.Value, patterns [][]string) jsonvalue.Value {
	if v.Kind() != jsonvalue.ObjectKind {
		return v
	}
	var kept []jsonvalue.Member
	for _, mb := range v.Members() {
		drop, deeper := keypath.Step(patterns, mb.Key)
		if drop {
			continue
		}
		if len(deeper) > 0 {
			mb.Value = prune(mb.Value, deeper)
		}
		kept = append(kept, mb)
	}
	return jsonvalue.Object(kept...)
}

// mapStrings applies f to every string in v, keys excepted.
func mapStrings(v jsonvalue.Value, f func(string) string) jsonvalue.Value {
	switch v.Kind() {
	case jsonvalue.StringKind:
		return jsonvalue.String(f(v.Text()))
	case jsonvalue.ArrayKind:
		items := make([]jsonvalue.Value, v.Len())
		for i := range items {
			items[i] = mapStrings(v.Index(i), f)
		}
		return jsonvalue.Array(items...)
	case jsonvalue.ObjectKind:
		ms := slices.Clone(v.Members())
		for i := range ms {
			ms[i].Value = mapStrings(ms[i].Value, f)
		}
		return jsonvalue.Object(ms...)
	}
	return v
}

// ArgsCredit is the share of arguments two calls agree on, DeepEval's
// partial credit: over the union of the top-level keys of two argument
// objects, a key both have earns 1 when the values are equal, its own
// ArgsCredit when both are objects, and 0 otherwise; a key only one has
// earns 0. Two empty objects agree fully; values that are not objects earn
// 1 when equal and 0 otherwise.
func ArgsCredit(made, expected jsonvalue.Value) float64 {
	return argsCredit(made, expected, nil)
}

func argsCredit(made, expected jsonvalue.Value, eq *Equivalence) float64 {
	obj := func(v jsonvalue.Value) bool {
		return v.Kind() == jsonvalue.ObjectKind || v.Kind() == jsonvalue.NullKind
	}
	if !obj(made) || !obj(expected) {
		return b2f(eq.Equal(made, expected))
	}
	union := len(expected.Members())
	sum := 0.0
	for _, mb := range expected.Members() {
		mv, ok := made.Get(mb.Key)
		if !ok {
			continue
		}
		if mv.Kind() == jsonvalue.ObjectKind && mb.Value.Kind() == jsonvalue.ObjectKind {
			sum += argsCredit(mv, mb.Value, eq)
		} else if eq.Equal(mv, mb.Value) {
			sum++
		}
	}
	for _, mb := range made.Members() {
		if _, ok := expected.Get(mb.Key); !ok {
			union++
		}
	}
	if union == 0 {
		return 1
	}
	return sum / float64(union)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
