// Package jsonkey gives an jsonvalue.Value a key under jsonvalue.Equal:
// two values get the same key exactly when Equal reports them equal, so
// that calls can be hashed by their arguments (the trajectory engine, the
// ragas metrics) and Python's == can be built on it (internal/pyvalue).
package jsonkey

import (
	"encoding/binary"
	"math"
	"math/big"
	"strconv"

	"github.com/agentcheck/agentcheck/internal/pytext"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// Append appends to b the key of v. nan is a counter the caller owns that
// gives each NaN a key of its own, as Equal has no NaN equal anything; with
// nan nil, every NaN gets the same key.
func Append(b []byte, v jsonvalue.Value, nan *int) []byte {
	switch v.Kind() {
	case jsonvalue.NullKind:
		return append(b, 'N')
	case jsonvalue.BoolKind:
		if v.BoolValue() {
			return append(b, 't')
		}
		return append(b, 'f')
	case jsonvalue.IntKind:
		b = append(b, 'n')
		return append(b, v.Text()...)
	case jsonvalue.FloatKind:
		f := v.Float()
		b = append(b, 'n')
		switch {
		case math.IsNaN(f):
			if nan == nil {
				return append(b, "nan"...)
			}
			*nan++
			b = append(b, "nan#"...)
			return strconv.AppendInt(b, int64(*nan), 10)
		case math.IsInf(f, 0):
			return pytext.AppendFloat(b, f)
		case f == math.Trunc(f):
			// An integral float equals the int of the same exact value.
			if math.Abs(f) < 1<<53 {
				return strconv.AppendInt(b, int64(f), 10)
			}
			n, _ := new(big.Float).SetFloat64(f).Int(nil)
			return n.Append(b, 10)
		}
		// A fractional float equals only itself: its bits are its key,
		// fixed-length, so the key needs no end marker.
		return binary.BigEndian.AppendUint64(append(b, 'x'), math.Float64bits(f))
	case jsonvalue.StringKind:
		s := v.Text()
		b = binary.AppendUvarint(append(b, 's'), uint64(len(s)))
		return append(b, s...)
	case jsonvalue.ArrayKind:
		b = append(b, '[')
		for _, e := range v.Elements() {
			b = Append(b, e.Value, nan)
			b = append(b, ',')
		}
		return append(b, ']')
	case jsonvalue.ObjectKind:
		// The member count up front keeps keys unambiguous: without it the
		// '}' that closes an object reads like the length (125) of a next
		// key.
		ms := v.Members()
		b = binary.AppendUvarint(append(b, '{'), uint64(len(ms)))
		var stack [8]int
		for _, i := range SortedMembers(ms, stack[:0]) {
			m := &ms[i]
			b = binary.AppendUvarint(b, uint64(len(m.Key)))
			b = append(b, m.Key...)
			b = Append(b, m.Value, nan)
			b = append(b, ',')
		}
		return append(b, '}')
	}
	return b
}

// SortedMembers appends to buf the indexes of ms sorted by key (byte order,
// which for UTF-8 is code point order, Python's string order) and returns
// it. Equal keys keep their order.
func SortedMembers(ms []jsonvalue.Member, buf []int) []int {
	idx := buf[:0]
	for i := range ms {
		idx = append(idx, i)
	}
	// Insertion sort: argument lists are short, and this keeps it
	// allocation-free and stable.
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && ms[idx[j]].Key < ms[idx[j-1]].Key; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
	return idx
}
