package agenttest

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Kind is the JSON type of a Value, with numbers split the way Python's json
// module splits them: a literal with a fraction or an exponent is a Float,
// anything else an Int. ragas compares arguments through Python's str(), so
// 1 and 1.0 are different arguments and the split must survive loading.
type Kind uint8

// The kinds of a Value.
const (
	Null Kind = iota
	Bool
	Int
	Float
	String
	Array
	Object
)

var (
	nan = math.NaN()
	inf = math.Inf(1)
)

var kindNames = [...]string{"null", "bool", "int", "float", "string", "array", "object"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is a JSON value as a tool call's arguments carry it: objects keep
// their key order and numbers keep the int/float distinction. The zero Value
// is JSON null.
type Value struct {
	kind Kind
	// s holds a String's text, an Int's canonical decimal digits, or a Bool
	// ("True"/"False"), so that Python's str() of a scalar costs nothing.
	s     string
	f     float64
	elems []Member // Array elements (empty keys) or Object members in order.
}

// Member is one key and value of a JSON object, in the order it was written.
type Member struct {
	Key   string
	Value Value
}

// Kind reports the JSON type of v.
func (v Value) Kind() Kind { return v.kind }

// Len is the number of elements of an Array or members of an Object, else 0.
func (v Value) Len() int { return len(v.elems) }

// Members returns the members of an Object in key order as written.
// The slice is shared; do not modify it.
func (v Value) Members() []Member {
	if v.kind != Object {
		return nil
	}
	return v.elems
}

// Index returns element i of an Array.
func (v Value) Index(i int) Value { return v.elems[i].Value }

// Get returns the value of key in an Object and whether it is present.
// A duplicate key in the source keeps its first position and its last value,
// as a Python dict does.
func (v Value) Get(key string) (Value, bool) {
	if v.kind != Object {
		return Value{}, false
	}
	for i := range v.elems {
		if v.elems[i].Key == key {
			return v.elems[i].Value, true
		}
	}
	return Value{}, false
}

// Keys returns the keys of an Object in order.
func (v Value) Keys() []string {
	if v.kind != Object {
		return nil
	}
	keys := make([]string, len(v.elems))
	for i, m := range v.elems {
		keys[i] = m.Key
	}
	return keys
}

// Float returns the numeric value of an Int, Float or Bool as float64.
func (v Value) Float() float64 { return v.f }

// Text returns a String's text (and "" for other kinds).
func (v Value) Text() string {
	if v.kind == String {
		return v.s
	}
	return ""
}

// BoolValue returns the value of a Bool.
func (v Value) BoolValue() bool { return v.kind == Bool && v.f != 0 }

// String returns Python's str() of the value: a string as it is, anything
// else as Python prints it (None, True, 1.0, 1e-05, {'k': [1, 'a']}).
// This is the text ragas compares arguments by.
func (v Value) String() string {
	switch v.kind {
	case Null:
		return "None"
	case String, Int, Bool:
		return v.s
	case Float:
		return pyFloat(v.f)
	}
	return string(v.appendRepr(nil))
}

// Repr returns Python's repr() of the value: as String, but strings quoted.
func (v Value) Repr() string { return string(v.appendRepr(nil)) }

// MarshalJSON writes v as JSON, keeping key order and number kinds.
func (v Value) MarshalJSON() ([]byte, error) { return v.appendJSON(nil), nil }

// Interface converts v to plain Go values for matchers: nil, bool, int64
// (or *big.Int when it does not fit), float64, string, []any and
// map[string]any.
func (v Value) Interface() any {
	switch v.kind {
	case Bool:
		return v.f != 0
	case Int:
		if n, err := strconv.ParseInt(v.s, 10, 64); err == nil {
			return n
		}
		n, _ := new(big.Int).SetString(v.s, 10)
		return n
	case Float:
		return v.f
	case String:
		return v.s
	case Array:
		out := make([]any, len(v.elems))
		for i := range v.elems {
			out[i] = v.elems[i].Value.Interface()
		}
		return out
	case Object:
		out := make(map[string]any, len(v.elems))
		for _, m := range v.elems {
			out[m.Key] = m.Value.Interface()
		}
		return out
	}
	return nil
}

// Values built from Go.

// NullValue, BoolOf, IntOf, FloatOf and StringOf build scalar values.
func NullValue() Value             { return Value{} }
func StringOf(s string) Value      { return Value{kind: String, s: s} }
func IntOf(n int64) Value          { return Value{kind: Int, s: strconv.FormatInt(n, 10), f: float64(n)} }
func FloatOf(f float64) Value      { return Value{kind: Float, f: f} }
func ArrayOf(items ...Value) Value { return arrayOf(items) }
func BoolOf(b bool) Value {
	if b {
		return Value{kind: Bool, s: "True", f: 1}
	}
	return Value{kind: Bool, s: "False"}
}

func arrayOf(items []Value) Value {
	elems := make([]Member, len(items))
	for i, it := range items {
		elems[i].Value = it
	}
	return Value{kind: Array, elems: elems}
}

// ObjectOf builds an Object from members in the given order.
func ObjectOf(members ...Member) Value {
	return Value{kind: Object, elems: append([]Member{}, members...)}
}

// ParseValue parses one JSON document into a Value. Like Python's json
// module it accepts NaN, Infinity and -Infinity.
func ParseValue(data []byte) (Value, error) {
	p := parser{src: string(data)}
	p.skipSpace()
	v, err := p.value(0)
	if err != nil {
		return Value{}, err
	}
	p.skipSpace()
	if p.pos != len(p.src) {
		return Value{}, p.errorf("unexpected %s after the JSON value", p.describe())
	}
	return v, nil
}

// MustParseValue is ParseValue for literals in tests; it panics on error.
func MustParseValue(s string) Value {
	v, err := ParseValue([]byte(s))
	if err != nil {
		panic(err)
	}
	return v
}

// ValueOf converts a Go value to a Value: nil, bool, all integer and float
// types, string, json.Number, json.RawMessage, Value, slices, arrays, and
// maps with string keys (whose keys are sorted, Go maps having no order).
// Structs go through encoding/json.
func ValueOf(x any) (Value, error) {
	switch t := x.(type) {
	case nil:
		return Value{}, nil
	case Value:
		return t, nil
	case bool:
		return BoolOf(t), nil
	case string:
		return StringOf(t), nil
	case int:
		return IntOf(int64(t)), nil
	case int64:
		return IntOf(t), nil
	case int32:
		return IntOf(int64(t)), nil
	case float64:
		return FloatOf(t), nil
	case float32:
		return FloatOf(float64(t)), nil
	case json.Number:
		return ParseValue([]byte(t))
	case json.RawMessage:
		return ParseValue(t)
	case *big.Int:
		return Value{kind: Int, s: t.String(), f: bigToFloat(t)}, nil
	case []any:
		items := make([]Value, len(t))
		for i, e := range t {
			v, err := ValueOf(e)
			if err != nil {
				return Value{}, fmt.Errorf("[%d]: %w", i, err)
			}
			items[i] = v
		}
		return arrayOf(items), nil
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		elems := make([]Member, len(keys))
		for i, k := range keys {
			v, err := ValueOf(t[k])
			if err != nil {
				return Value{}, fmt.Errorf("%s: %w", k, err)
			}
			elems[i] = Member{k, v}
		}
		return Value{kind: Object, elems: elems}, nil
	}
	rv := reflect.ValueOf(x)
	switch rv.Kind() {
	case reflect.Int8, reflect.Int16:
		return IntOf(rv.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return Value{kind: Int, s: strconv.FormatUint(rv.Uint(), 10), f: float64(rv.Uint())}, nil
	case reflect.Slice, reflect.Array:
		items := make([]any, rv.Len())
		for i := range items {
			items[i] = rv.Index(i).Interface()
		}
		return ValueOf(items)
	case reflect.Map:
		if rv.Type().Key().Kind() == reflect.String {
			m := make(map[string]any, rv.Len())
			for it := rv.MapRange(); it.Next(); {
				m[it.Key().String()] = it.Value().Interface()
			}
			return ValueOf(m)
		}
	}
	data, err := json.Marshal(x)
	if err != nil {
		return Value{}, fmt.Errorf("agenttest: cannot convert %T to a JSON value: %w", x, err)
	}
	return ParseValue(data)
}

func bigToFloat(n *big.Int) float64 {
	f, _ := new(big.Float).SetInt(n).Float64()
	return f
}

// Python's str() and repr().

// pyFloat formats f as Python's repr(float) does: the shortest digits that
// round-trip, in fixed notation with ".0" for integral values while the
// decimal exponent is in [-4, 16), else in exponent notation.
func pyFloat(f float64) string {
	return string(appendPyFloat(nil, f))
}

func appendPyFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "nan"...)
	case math.IsInf(f, 1):
		return append(b, "inf"...)
	case math.IsInf(f, -1):
		return append(b, "-inf"...)
	}
	// Go's shortest 'e' formatting is Python's exponent form exactly:
	// "1e-05", "1.5e-07", "1e+16". The fixed form is laid out from the same
	// digits, so that the number is converted once.
	var tmp [32]byte
	e := strconv.AppendFloat(tmp[:0], f, 'e', -1, 64)
	ep := len(e) - 4 // the exponent has a sign and 2 or 3 digits
	if e[ep] != 'e' {
		ep--
	}
	exp := 0
	for _, c := range e[ep+2:] {
		exp = exp*10 + int(c-'0')
	}
	if e[ep+1] == '-' {
		exp = -exp
	}
	if exp < -4 || exp >= 16 {
		return append(b, e...)
	}
	mant := e[:ep]
	if mant[0] == '-' {
		b = append(b, '-')
		mant = mant[1:]
	}
	// The significant digits: "d" or "d.ddd" without the point.
	lead, rest := mant[0], mant[min(2, len(mant)):]
	if exp < 0 {
		b = append(b, '0', '.')
		b = append(b, "0000"[:-exp-1]...)
		b = append(b, lead)
		return append(b, rest...)
	}
	b = append(b, lead)
	if len(rest) <= exp {
		b = append(b, rest...)
		b = append(b, "000000000000000"[:exp-len(rest)]...)
		return append(b, '.', '0')
	}
	b = append(b, rest[:exp]...)
	b = append(b, '.')
	return append(b, rest[exp:]...)
}

func (v Value) appendRepr(b []byte) []byte {
	switch v.kind {
	case Null:
		return append(b, "None"...)
	case Bool, Int:
		return append(b, v.s...)
	case Float:
		return appendPyFloat(b, v.f)
	case String:
		return appendPyRepr(b, v.s)
	case Array:
		b = append(b, '[')
		for i := range v.elems {
			if i > 0 {
				b = append(b, ',', ' ')
			}
			b = v.elems[i].Value.appendRepr(b)
		}
		return append(b, ']')
	case Object:
		b = append(b, '{')
		for i := range v.elems {
			if i > 0 {
				b = append(b, ',', ' ')
			}
			b = appendPyRepr(b, v.elems[i].Key)
			b = append(b, ':', ' ')
			b = v.elems[i].Value.appendRepr(b)
		}
		return append(b, '}')
	}
	return b
}

// appendPyRepr writes Python's repr() of a str: single quotes unless the
// text has a single quote and no double quote; backslash escapes for
// \\ \n \r \t and the quote; \xhh, \uhhhh, \Uhhhhhhhh for what Python does
// not consider printable; printable non-ASCII as it is.
func appendPyRepr(b []byte, s string) []byte {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	b = append(b, quote)
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			i++
			switch {
			case c == quote || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20 || c == 0x7f:
				b = append(b, '\\', 'x', hexDigit[c>>4], hexDigit[c&15])
			default:
				b = append(b, c)
			}
			continue
		}
		r, size := decodeWTF8(s[i:])
		if isPyPrintable(r) {
			b = append(b, s[i:i+size]...)
		} else {
			switch {
			case r < 0x100:
				b = append(b, '\\', 'x')
				b = appendHex(b, uint32(r), 2)
			case r < 0x10000:
				b = append(b, '\\', 'u')
				b = appendHex(b, uint32(r), 4)
			default:
				b = append(b, '\\', 'U')
				b = appendHex(b, uint32(r), 8)
			}
		}
		i += size
	}
	return append(b, quote)
}

const hexDigit = "0123456789abcdef"

func appendHex(b []byte, n uint32, width int) []byte {
	for shift := (width - 1) * 4; shift >= 0; shift -= 4 {
		b = append(b, hexDigit[(n>>uint(shift))&15])
	}
	return b
}

// JSON output, keeping order and number kinds.

func (v Value) appendJSON(b []byte) []byte {
	switch v.kind {
	case Null:
		return append(b, "null"...)
	case Bool:
		if v.f != 0 {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case Int:
		return append(b, v.s...)
	case Float:
		switch {
		case math.IsNaN(v.f):
			return append(b, "NaN"...)
		case math.IsInf(v.f, 1):
			return append(b, "Infinity"...)
		case math.IsInf(v.f, -1):
			return append(b, "-Infinity"...)
		}
		return appendPyFloat(b, v.f)
	case String:
		return appendJSONString(b, v.s)
	case Array:
		b = append(b, '[')
		for i := range v.elems {
			if i > 0 {
				b = append(b, ',')
			}
			b = v.elems[i].Value.appendJSON(b)
		}
		return append(b, ']')
	case Object:
		b = append(b, '{')
		for i := range v.elems {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, v.elems[i].Key)
			b = append(b, ':')
			b = v.elems[i].Value.appendJSON(b)
		}
		return append(b, '}')
	}
	return b
}

func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			i++
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hexDigit[c>>4], hexDigit[c&15])
			default:
				b = append(b, c)
			}
			continue
		}
		r, size := decodeWTF8(s[i:])
		if r >= 0xD800 && r <= 0xDFFF {
			b = append(b, '\\', 'u')
			b = appendHex(b, uint32(r), 4)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// Python equality, for ToolCallF1's sets.

// appendCanonical writes a key that is equal for two values exactly when
// Python's == (after ragas makes them hashable) says they are: objects
// regardless of key order, lists in order, and numbers by exact value, so
// that 1 == 1.0 == True. NaN is never equal to anything, so with a counter
// (nan, which the caller owns) each NaN gets a key no other value can have.
// With nan nil, every NaN gets the same key: Python's json module decodes
// every NaN to one shared float object, and ragas's sets compare by
// identity before ==, so in ragas a NaN argument equals a NaN argument.
func (v Value) appendCanonical(b []byte, nan *int) []byte {
	switch v.kind {
	case Null:
		return append(b, 'N')
	case Bool:
		if v.f != 0 {
			return append(b, 'n', '1')
		}
		return append(b, 'n', '0')
	case Int:
		b = append(b, 'n')
		return append(b, v.s...)
	case Float:
		b = append(b, 'n')
		switch {
		case math.IsNaN(v.f):
			if nan == nil {
				return append(b, "nan"...)
			}
			*nan++
			b = append(b, "nan#"...)
			return strconv.AppendInt(b, int64(*nan), 10)
		case math.IsInf(v.f, 0):
			return appendPyFloat(b, v.f)
		case v.f == math.Trunc(v.f):
			// An integral float equals the int of the same exact value.
			if math.Abs(v.f) < 1<<53 {
				return strconv.AppendInt(b, int64(v.f), 10)
			}
			n, _ := new(big.Float).SetFloat64(v.f).Int(nil)
			return n.Append(b, 10)
		}
		// A fractional float equals only itself: its bits are its key,
		// fixed-length, so the key needs no end marker.
		return binary.BigEndian.AppendUint64(append(b, 'x'), math.Float64bits(v.f))
	case String:
		b = binary.AppendUvarint(append(b, 's'), uint64(len(v.s)))
		return append(b, v.s...)
	case Array:
		b = append(b, '[')
		for i := range v.elems {
			b = v.elems[i].Value.appendCanonical(b, nan)
			b = append(b, ',')
		}
		return append(b, ']')
	case Object:
		// The member count up front keeps keys unambiguous: without it the
		// '}' that closes an object reads like the length (125) of a next
		// key.
		b = binary.AppendUvarint(append(b, '{'), uint64(len(v.elems)))
		var stack [8]int
		order := sortedMemberIndex(v.elems, stack[:0])
		for _, i := range order {
			m := &v.elems[i]
			b = binary.AppendUvarint(b, uint64(len(m.Key)))
			b = append(b, m.Key...)
			b = m.Value.appendCanonical(b, nan)
			b = append(b, ',')
		}
		return append(b, '}')
	}
	return b
}

// sortedMemberIndex returns the indexes of members sorted by key (byte
// order, which for UTF-8 is code point order, Python's string order).
func sortedMemberIndex(ms []Member, buf []int) []int {
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

// Equal reports whether a and b are the same JSON value with the same key
// order and number kinds: the identity ragas's str() comparison sees.
func Equal(a, b Value) bool {
	if a.kind != b.kind || len(a.elems) != len(b.elems) {
		return false
	}
	switch a.kind {
	case Float:
		return a.f == b.f && math.Signbit(a.f) == math.Signbit(b.f) || (math.IsNaN(a.f) && math.IsNaN(b.f))
	case Array, Object:
		for i := range a.elems {
			if a.elems[i].Key != b.elems[i].Key || !Equal(a.elems[i].Value, b.elems[i].Value) {
				return false
			}
		}
		return true
	}
	return a.s == b.s
}
