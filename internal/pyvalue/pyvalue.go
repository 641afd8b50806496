// Package pyvalue gives JSON values the semantics ragas's Python code gives
// them after json.loads: str() and repr() texts, which ToolCallAccuracy
// compares, and == with its hash keys, which ToolCallF1's sets use
// (1 == 1.0 == True; objects whatever their key order).
package pyvalue

import (
	"encoding/binary"
	"math"

	"github.com/agentcheck/agentcheck/internal/jsonkey"
	"github.com/agentcheck/agentcheck/internal/pytext"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// Str returns Python's str() of v: a string as it is, anything else as
// Python prints it (None, True, 1.0, 1e-05, {'k': [1, 'a']}).
func Str(v jsonvalue.Value) string { return string(AppendStr(nil, v)) }

// AppendStr appends Python's str() of v.
func AppendStr(b []byte, v jsonvalue.Value) []byte {
	switch v.Kind() {
	case jsonvalue.StringKind, jsonvalue.IntKind:
		return append(b, v.Text()...)
	case jsonvalue.BoolKind:
		return appendBool(b, v)
	case jsonvalue.NullKind:
		return append(b, "None"...)
	case jsonvalue.FloatKind:
		return pytext.AppendFloat(b, v.Float())
	}
	return appendRepr(b, v)
}

// Repr returns Python's repr() of v: as Str, but strings quoted.
func Repr(v jsonvalue.Value) string { return string(appendRepr(nil, v)) }

func appendRepr(b []byte, v jsonvalue.Value) []byte {
	switch v.Kind() {
	case jsonvalue.NullKind:
		return append(b, "None"...)
	case jsonvalue.BoolKind:
		return appendBool(b, v)
	case jsonvalue.IntKind:
		return append(b, v.Text()...)
	case jsonvalue.FloatKind:
		return pytext.AppendFloat(b, v.Float())
	case jsonvalue.StringKind:
		return pytext.AppendRepr(b, v.Text())
	case jsonvalue.ArrayKind:
		b = append(b, '[')
		for i := range v.Len() {
			if i > 0 {
				b = append(b, ',', ' ')
			}
			b = appendRepr(b, v.Index(i))
		}
		return append(b, ']')
	case jsonvalue.ObjectKind:
		b = append(b, '{')
		for i, m := range v.Members() {
			if i > 0 {
				b = append(b, ',', ' ')
			}
			b = pytext.AppendRepr(b, m.Key)
			b = append(b, ':', ' ')
			b = appendRepr(b, m.Value)
		}
		return append(b, '}')
	}
	return b
}

func appendBool(b []byte, v jsonvalue.Value) []byte { return append(b, boolStr(v)...) }

// boolStr is Python's str() of a bool.
func boolStr(v jsonvalue.Value) string {
	if v.BoolValue() {
		return "True"
	}
	return "False"
}

// SameStr reports whether str(a) == str(b), when it can tell without
// writing the texts (known). Python's str() is one-to-one within a kind,
// which makes identity (same kind, same key order) the answer for two values
// of the same kind, and texts of different kinds can only meet when one is a
// string: "1", "True", "None" or "[1, 2]" are the str() of non-strings too.
func SameStr(a, b jsonvalue.Value) (same, known bool) {
	if a.Kind() == b.Kind() {
		return identical(&a, &b), true
	}
	if a.Kind() == jsonvalue.StringKind {
		a, b = b, a
	}
	if b.Kind() != jsonvalue.StringKind {
		return false, true
	}
	switch a.Kind() {
	case jsonvalue.IntKind:
		return a.Text() == b.Text(), true
	case jsonvalue.BoolKind:
		return boolStr(a) == b.Text(), true
	case jsonvalue.NullKind:
		return b.Text() == "None", true
	}
	return false, false
}

// identical reports whether a and b are the same value with the same key
// order and number kinds: the identity str() sees.
func identical(a, b *jsonvalue.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case jsonvalue.FloatKind:
		x, y := a.Float(), b.Float()
		return x == y && math.Signbit(x) == math.Signbit(y) || (math.IsNaN(x) && math.IsNaN(y))
	case jsonvalue.BoolKind:
		return a.BoolValue() == b.BoolValue()
	case jsonvalue.ArrayKind, jsonvalue.ObjectKind:
		if sameSource(a, b) {
			return true
		}
		ae, be := a.Elements(), b.Elements()
		if len(ae) != len(be) {
			return false
		}
		for i := range ae {
			if ae[i].Key != be[i].Key || !identical(&ae[i].Value, &be[i].Value) {
				return false
			}
		}
		return true
	}
	return a.Text() == b.Text()
}

// AppendKey appends a key that is equal for two values exactly when
// Python's == (after ragas makes them hashable) says they are: the keys of
// jsonkey.Append, but with booleans as the numbers 1 and 0,
// which Python's == makes them. nan is as jsonkey.Append's: with nan nil,
// every NaN gets the same key, as Python's json module decodes every NaN to
// one shared float object and ragas's sets compare by identity before ==.
func AppendKey(b []byte, v jsonvalue.Value, nan *int) []byte {
	switch v.Kind() {
	case jsonvalue.BoolKind:
		if v.BoolValue() {
			return append(b, 'n', '1')
		}
		return append(b, 'n', '0')
	case jsonvalue.ArrayKind:
		b = append(b, '[')
		for i := range v.Len() {
			b = AppendKey(b, v.Index(i), nan)
			b = append(b, ',')
		}
		return append(b, ']')
	case jsonvalue.ObjectKind:
		ms := v.Members()
		b = append(b, '{')
		b = binary.AppendUvarint(b, uint64(len(ms)))
		var stack [8]int
		for _, i := range jsonkey.SortedMembers(ms, stack[:0]) {
			b = binary.AppendUvarint(b, uint64(len(ms[i].Key)))
			b = append(b, ms[i].Key...)
			b = AppendKey(b, ms[i].Value, nan)
			b = append(b, ',')
		}
		return append(b, '}')
	}
	return jsonkey.Append(b, v, nan)
}

// Equal reports whether AppendKey(nil, a, nil) and AppendKey(nil, b, nil)
// are equal, without writing them (but for a number against a number of
// another kind).
func Equal(a, b jsonvalue.Value) bool { return equal(&a, &b) }

// equal is Equal on values in place: ToolCallF1 compares every pair of a
// sample's calls with it, most of their arguments strings.
func equal(a, b *jsonvalue.Value) bool {
	ak, bk := a.Kind(), b.Kind()
	if ak == bk {
		switch ak {
		case jsonvalue.StringKind, jsonvalue.IntKind:
			return a.Text() == b.Text()
		case jsonvalue.NullKind:
			return true
		case jsonvalue.BoolKind:
			return a.BoolValue() == b.BoolValue()
		case jsonvalue.FloatKind:
			// Two floats have the same key exactly when they are the same
			// number (0.0 and -0.0 both being "0"), or both NaN.
			x, y := a.Float(), b.Float()
			return x == y || x != x && y != y
		case jsonvalue.ArrayKind:
			if sameSource(a, b) {
				return true
			}
			ae, be := a.Elements(), b.Elements()
			if len(ae) != len(be) {
				return false
			}
			for i := range ae {
				if !equal(&ae[i].Value, &be[i].Value) {
					return false
				}
			}
			return true
		case jsonvalue.ObjectKind:
			return sameSource(a, b) || equalMembers(a.Members(), b.Members())
		}
		return false
	}
	if !isNumber(ak) || !isNumber(bk) {
		return false
	}
	var abuf, bbuf [32]byte
	return string(AppendKey(abuf[:0], *a, nil)) == string(AppendKey(bbuf[:0], *b, nil))
}

// equalMembers compares two objects' members as Python's == compares
// dicts. The keys compare the members in key order; with the same keys in
// the same order both sides sort alike, so the members compare in place.
func equalMembers(am, bm []jsonvalue.Member) bool {
	if len(am) != len(bm) {
		return false
	}
	same := true
	for i := range am {
		if am[i].Key != bm[i].Key {
			same = false
			break
		}
	}
	if same {
		for i := range am {
			if !equal(&am[i].Value, &bm[i].Value) {
				return false
			}
		}
		return true
	}
	var as, bs [8]int
	ai, bi := jsonkey.SortedMembers(am, as[:0]), jsonkey.SortedMembers(bm, bs[:0])
	for k := range ai {
		m, n := &am[ai[k]], &bm[bi[k]]
		if m.Key != n.Key || !equal(&m.Value, &n.Value) {
			return false
		}
	}
	return true
}

// sameSource reports whether two arrays or objects were read from the same
// JSON text, which makes them identical, NaN against NaN included (Python's
// json module decodes every NaN to the one float object, and == and str()
// take it as equal to itself): most arguments a tool call is compared
// with are written exactly as the expected ones.
func sameSource(a, b *jsonvalue.Value) bool {
	s := a.Source()
	return s != "" && s == b.Source()
}

func isNumber(k jsonvalue.Kind) bool {
	return k == jsonvalue.BoolKind || k == jsonvalue.IntKind || k == jsonvalue.FloatKind
}
