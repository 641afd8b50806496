package jsonvalue

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/agentcheck/agentcheck/internal/pytext"
)

// Kind is the JSON type of a Value, with numbers split the way Python's json
// module splits them: a literal with a fraction or an exponent is a Float,
// anything else an Int. ragas compares arguments through Python's str(), so
// 1 and 1.0 are different arguments and the split must survive loading.
type Kind uint8

// The kinds of a Value.
const (
	NullKind Kind = iota
	BoolKind
	IntKind
	FloatKind
	StringKind
	ArrayKind
	ObjectKind
)

var (
	nan = math.NaN()
	inf = math.Inf(1)
)

var kindNames = [...]string{"null", "bool", "int", "float", "string", "array", "object"}

// String is the kind's name: null, bool, int, float, string, array or
// object.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is a JSON value as a tool call's arguments carry it: objects keep
// their key order and numbers keep the int/float distinction. The zero
// Value, Value{}, is JSON null.
type Value struct {
	kind Kind
	// s holds a String's text, an Int's canonical decimal digits, or a Bool
	// ("True"/"False"), so that Python's str() of a scalar costs nothing;
	// and an Array's or Object's JSON text when it was read from one
	// (Source).
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
	if v.kind != ObjectKind {
		return nil
	}
	return v.elems
}

// Elements returns the elements of an Array (with empty keys) or the
// members of an Object, in order, and nil for other kinds. The slice is
// shared; do not modify it.
func (v Value) Elements() []Member { return v.elems }

// Index returns element i of an Array.
func (v Value) Index(i int) Value { return v.elems[i].Value }

// Get returns the value of key in an Object and whether it is present.
// A duplicate key in the source keeps its first position and its last value,
// as a Python dict does.
func (v Value) Get(key string) (Value, bool) {
	if v.kind != ObjectKind {
		return Value{}, false
	}
	for i := range v.elems {
		if v.elems[i].Key == key {
			return v.elems[i].Value, true
		}
	}
	return Value{}, false
}

// Float returns the numeric value of an Int, Float or Bool as float64.
func (v Value) Float() float64 { return v.f }

// Text returns a String's text, an Int's decimal digits as written
// (canonical: no sign for zero, no leading zeros), and "" for other kinds.
func (v Value) Text() string {
	if v.kind == StringKind || v.kind == IntKind {
		return v.s
	}
	return ""
}

// Source returns the JSON text an Array or Object was read from, byte for
// byte, when Parse, UnmarshalJSON or a Decoder read it, and "" for one
// built in code and for the other kinds. Values with the same Source are
// the same value, with their members in the same order: comparing two
// tool calls' arguments can often stop there.
func (v Value) Source() string {
	if v.kind == ArrayKind || v.kind == ObjectKind {
		return v.s
	}
	return ""
}

// BoolValue returns the value of a Bool.
func (v Value) BoolValue() bool { return v.kind == BoolKind && v.f != 0 }

// String returns v as JSON, keeping key order and number kinds
// ({"city":"Paris","n":1.0}).
func (v Value) String() string { return string(v.appendJSON(nil, false)) }

// Canonical returns v as JSON in one canonical form: no insignificant
// space, object members in key order, strings escaped one way, ints as
// their digits and floats as their shortest round-trip text (1.5e3 is
// 1500.0). Two JSON texts that differ only in spacing, member order,
// string escapes and number spelling have the same Canonical form; texts
// that differ in a value, 1 and 1.0 included, do not. Recorded requests
// match by it.
func (v Value) Canonical() string { return string(v.appendJSON(nil, true)) }

// MarshalJSON writes v as JSON, keeping key order and number kinds (a
// Float is written with a fraction or an exponent, 1.0 rather than 1), so
// that UnmarshalJSON reads back the same Value. NaN and the infinities are
// written as Python writes them (NaN, Infinity), which Parse reads
// but encoding/json refuses: json.Marshal of a Value holding one fails.
func (v Value) MarshalJSON() ([]byte, error) { return v.appendJSON(nil, false), nil }

// UnmarshalJSON reads v from JSON as Parse does: objects keep their
// key order and numbers their kind, 1 an Int and 1.0 a Float.
func (v *Value) UnmarshalJSON(data []byte) error {
	x, err := Parse(data)
	if err != nil {
		return err
	}
	*v = x
	return nil
}

// Interface converts v to plain Go values for matchers: nil, bool, int64
// (or *big.Int when it does not fit), float64, string, []any and
// map[string]any.
func (v Value) Interface() any {
	switch v.kind {
	case BoolKind:
		return v.f != 0
	case IntKind:
		if n, err := strconv.ParseInt(v.s, 10, 64); err == nil {
			return n
		}
		n, _ := new(big.Int).SetString(v.s, 10)
		return n
	case FloatKind:
		return v.f
	case StringKind:
		return v.s
	case ArrayKind:
		out := make([]any, len(v.elems))
		for i := range v.elems {
			out[i] = v.elems[i].Value.Interface()
		}
		return out
	case ObjectKind:
		out := make(map[string]any, len(v.elems))
		for _, m := range v.elems {
			out[m.Key] = m.Value.Interface()
		}
		return out
	}
	return nil
}

// Values built from Go. JSON null is the zero Value, Value{}.

// String returns the String s.
func String(s string) Value { return Value{kind: StringKind, s: s} }

// Int returns the Int n.
func Int(n int64) Value { return Value{kind: IntKind, s: strconv.FormatInt(n, 10), f: float64(n)} }

// Float returns the Float f, which keeps its kind even when integral:
// Float(1) is written 1.0.
func Float(f float64) Value { return Value{kind: FloatKind, f: f} }

// Array returns an Array of items, in order.
func Array(items ...Value) Value { return arrayOf(items) }

// Bool returns the Bool b.
func Bool(b bool) Value {
	if b {
		return Value{kind: BoolKind, s: "True", f: 1}
	}
	return Value{kind: BoolKind, s: "False"}
}

func arrayOf(items []Value) Value {
	elems := make([]Member, len(items))
	for i, it := range items {
		elems[i].Value = it
	}
	return Value{kind: ArrayKind, elems: elems}
}

// Object builds an Object from members in the given order.
func Object(members ...Member) Value {
	return Value{kind: ObjectKind, elems: append([]Member{}, members...)}
}

// Parse parses one JSON document into a Value. Like Python's json
// module it accepts NaN, Infinity and -Infinity.
func Parse(data []byte) (Value, error) {
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

// MustParse is Parse for literals in tests; it panics on error.
func MustParse(s string) Value {
	v, err := Parse([]byte(s))
	if err != nil {
		panic(err)
	}
	return v
}

// Of converts a Go value to a Value: nil, bool, all integer and float
// types, string, json.Number, json.RawMessage, Value, slices, arrays, and
// maps with string keys (whose keys are sorted, Go maps having no order).
// Structs go through encoding/json.
func Of(x any) (Value, error) {
	switch t := x.(type) {
	case nil:
		return Value{}, nil
	case Value:
		return t, nil
	case bool:
		return Bool(t), nil
	case string:
		return String(t), nil
	case int:
		return Int(int64(t)), nil
	case int64:
		return Int(t), nil
	case int32:
		return Int(int64(t)), nil
	case float64:
		return Float(t), nil
	case float32:
		return Float(float64(t)), nil
	case json.Number:
		return Parse([]byte(t))
	case json.RawMessage:
		return Parse(t)
	case *big.Int:
		return Value{kind: IntKind, s: t.String(), f: bigToFloat(t)}, nil
	case []any:
		items := make([]Value, len(t))
		for i, e := range t {
			v, err := Of(e)
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
			v, err := Of(t[k])
			if err != nil {
				return Value{}, fmt.Errorf("%s: %w", k, err)
			}
			elems[i] = Member{k, v}
		}
		return Value{kind: ObjectKind, elems: elems}, nil
	}
	rv := reflect.ValueOf(x)
	switch rv.Kind() {
	case reflect.Int8, reflect.Int16:
		return Int(rv.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return Value{kind: IntKind, s: strconv.FormatUint(rv.Uint(), 10), f: float64(rv.Uint())}, nil
	case reflect.Slice, reflect.Array:
		items := make([]any, rv.Len())
		for i := range items {
			items[i] = rv.Index(i).Interface()
		}
		return Of(items)
	case reflect.Map:
		if rv.Type().Key().Kind() == reflect.String {
			m := make(map[string]any, rv.Len())
			for it := rv.MapRange(); it.Next(); {
				m[it.Key().String()] = it.Value().Interface()
			}
			return Of(m)
		}
	}
	data, err := json.Marshal(x)
	if err != nil {
		return Value{}, fmt.Errorf("agentcheck: cannot convert %T to a JSON value: %w", x, err)
	}
	return Parse(data)
}

func bigToFloat(n *big.Int) float64 {
	f, _ := new(big.Float).SetInt(n).Float64()
	return f
}

// JSON output, keeping order and number kinds.

func (v Value) appendJSON(b []byte, sorted bool) []byte {
	switch v.kind {
	case NullKind:
		return append(b, "null"...)
	case BoolKind:
		if v.f != 0 {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case IntKind:
		return append(b, v.s...)
	case FloatKind:
		switch {
		case math.IsNaN(v.f):
			return append(b, "NaN"...)
		case math.IsInf(v.f, 1):
			return append(b, "Infinity"...)
		case math.IsInf(v.f, -1):
			return append(b, "-Infinity"...)
		}
		return pytext.AppendFloat(b, v.f)
	case StringKind:
		return appendJSONString(b, v.s)
	case ArrayKind:
		b = append(b, '[')
		for i := range v.elems {
			if i > 0 {
				b = append(b, ',')
			}
			b = v.elems[i].Value.appendJSON(b, sorted)
		}
		return append(b, ']')
	case ObjectKind:
		b = append(b, '{')
		var stack [8]int
		order := stack[:0]
		if sorted {
			order = byKey(v.elems, order)
		}
		for k := range v.elems {
			i := k
			if sorted {
				i = order[k]
			}
			if k > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, v.elems[i].Key)
			b = append(b, ':')
			b = v.elems[i].Value.appendJSON(b, sorted)
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
				b = pytext.AppendHex(append(b, '\\', 'u', '0', '0'), uint32(c), 2)
			default:
				b = append(b, c)
			}
			continue
		}
		r, size := pytext.DecodeWTF8(s[i:])
		if r >= 0xD800 && r <= 0xDFFF {
			b = append(b, '\\', 'u')
			b = pytext.AppendHex(b, uint32(r), 4)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// Equality of JSON values.

// Equal reports whether a and b are the same JSON value: numbers by exact
// value whatever their spelling (10 == 10.0 == 1e1), strings by their code
// points, arrays element by element, objects member by member whatever their
// key order. true is not 1, and NaN equals nothing, NaN included. It is the
// equality every expectation and every JSON comparison of agentcheck uses.
func Equal(a, b Value) bool {
	an, bn := a.kind == IntKind || a.kind == FloatKind, b.kind == IntKind || b.kind == FloatKind
	if an && bn {
		return equalNumbers(a, b)
	}
	if a.kind != b.kind || len(a.elems) != len(b.elems) {
		return false
	}
	switch a.kind {
	case BoolKind:
		return a.f == b.f
	case StringKind:
		return a.s == b.s
	case ArrayKind:
		for i := range a.elems {
			if !Equal(a.elems[i].Value, b.elems[i].Value) {
				return false
			}
		}
	case ObjectKind:
		// Member by member in key order; members with the same key (an
		// object built with Object may have them) in their order.
		var as, bs [8]int
		ai, bi := byKey(a.elems, as[:0]), byKey(b.elems, bs[:0])
		for k := range ai {
			am, bm := &a.elems[ai[k]], &b.elems[bi[k]]
			if am.Key != bm.Key || !Equal(am.Value, bm.Value) {
				return false
			}
		}
	}
	return true
}

// equalNumbers is Equal on two numbers: ints by their digits, an integral
// float by the digits of its exact value, a fractional or infinite float
// only with the same float.
func equalNumbers(a, b Value) bool {
	if a.kind == IntKind && b.kind == IntKind {
		return a.s == b.s
	}
	if a.kind == IntKind {
		a, b = b, a
	}
	if b.kind == FloatKind {
		return a.f == b.f // NaN is unequal to itself
	}
	// a is a float, b an int.
	if math.IsInf(a.f, 0) || a.f != math.Trunc(a.f) {
		return false
	}
	if math.Abs(a.f) < 1<<53 {
		return strconv.FormatInt(int64(a.f), 10) == b.s
	}
	n, _ := new(big.Float).SetFloat64(a.f).Int(nil)
	return n.String() == b.s
}

// byKey appends to buf the indexes of ms in key order (byte order, which for
// UTF-8 is code point order), members with the same key in their order.
func byKey(ms []Member, buf []int) []int {
	for i := range ms {
		buf = append(buf, i)
	}
	slices.SortStableFunc(buf, func(i, j int) int { return strings.Compare(ms[i].Key, ms[j].Key) })
	return buf
}
