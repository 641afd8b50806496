package jsonvalue

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// stepwise reads the next value with the Decoder's steps (NextKey,
// NextElem, ReadString) down to depth 2, Value below, as a reader of a
// known shape does.
func stepwise(d *Decoder, depth int) error {
	if depth >= 2 {
		_, err := d.Value(depth)
		return err
	}
	switch d.Peek() {
	case '{':
		for _, more, err := d.NextKey(true); more || err != nil; _, more, err = d.NextKey(false) {
			if err == nil {
				err = stepwise(d, depth+1)
			}
			if err != nil {
				return err
			}
		}
		return nil
	case '[':
		for more, err := d.NextElem(true); more || err != nil; more, err = d.NextElem(false) {
			if err == nil {
				err = stepwise(d, depth+1)
			}
			if err != nil {
				return err
			}
		}
		return nil
	case '"':
		_, err := d.ReadString()
		return err
	}
	_, err := d.Value(depth)
	return err
}

// limitDocs are documents of every kind of value, nested, with keys given
// twice (each value counts, the one replaced too), objects flatObject
// reads and ones it leaves, and malformed tails.
var limitDocs = []string{
	`0`, `"x"`, `[]`, `{}`, `[0,0,0]`, `{"a": 1, "b": [true, false, null], "a": {"c": "d"}}`,
	`{"a": "x\u00e9", "b": 1.5, "c": NaN, "d": -Infinity}`, ` [1e400, -0.0, {"k": [[], {}]}] `,
	`{"user_input": [{"type": "ai", "content": "", "tool_calls": [{"name": "f", "args": {"x": [0, 0, 0]}}]}]}`,
	`[1, 2, 3 4]`, `{"a": 1, "b": tru}`, `[[[[1]]], "\q"]`, `{"a": [1, 2], "b"}`,
}

// Limit(n) reads a document of n values as without it and stops one of
// n+1 at the value past n, with a *LimitError at its offset: read whole
// (Value), step by step, and with flatObject or the general reading of
// objects alike; a document malformed before that value is the syntax
// error it is without the bound.
func TestLimitCountsEveryValue(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	docs := append([]string(nil), limitDocs...)
	for range 300 {
		docs = append(docs, genDoc(r, 0))
	}
	for _, text := range docs {
		checkLimit(t, text)
	}
}

// FuzzLimit: whatever the text, the bound stops each way of reading at
// the same value, or none of them.
func FuzzLimit(f *testing.F) {
	for _, s := range limitDocs {
		f.Add(s)
	}
	f.Fuzz(checkLimit)
}

// checkLimit reads text with every bound up to one past its values.
func checkLimit(t *testing.T, text string) {
	free, freeErr := Parse([]byte(text))
	var starts []int
	if freeErr == nil {
		starts = valueStarts(text)
	}
	n := len(starts)
	for limit := 1; limit <= max(n+1, 12); limit++ {
		want := freeErr
		if freeErr == nil && limit < n {
			want = &LimitError{Max: limit, Offset: starts[limit]}
		}
		var d Decoder
		d.Limit(limit)
		d.Reset(text)
		v, err := d.Value(0)
		if err == nil {
			err = d.End("the JSON value")
		}
		var over *LimitError
		if errors.As(want, &over) || freeErr == nil {
			if !sameLimitErr(err, want) {
				t.Fatalf("%q, Limit(%d) of %d values: Value's error %v, want %v", text, limit, n, err, want)
			}
			if err == nil && !sameBits(v, free) {
				t.Fatalf("%q, Limit(%d): %s, without the bound %s", text, limit, v, free)
			}
		} else if err == nil || (!sameErrText(err, freeErr) && !errors.As(err, &over)) {
			// Malformed: its error, or the bound met before it.
			t.Fatalf("%q, Limit(%d): error %v, without the bound %v", text, limit, err, freeErr)
		}
		gotErr := err
		d.Recycle(text)
		err = stepwise(&d, 0)
		if err == nil {
			err = d.End("the JSON value")
		}
		if !sameLimitErr(err, gotErr) {
			t.Fatalf("%q, Limit(%d): step by step %v, whole %v", text, limit, err, gotErr)
		}
		for _, general := range []bool{false, true} {
			p := parser{src: text, general: general, maxValues: limit}
			p.skipSpace()
			_, err := p.value(0)
			if err == nil {
				p.skipSpace()
				if p.pos != len(p.src) {
					err = p.errorf("unexpected %s after the JSON value", p.describe())
				}
			}
			if !sameLimitErr(err, gotErr) {
				t.Fatalf("%q, Limit(%d), general %v: %v, Value's %v", text, limit, general, err, gotErr)
			}
		}
	}
}

// valueStarts is the offsets of the values of a well-formed text, in the
// order they start: every value, a key's value given twice included.
func valueStarts(text string) []int {
	p := parser{src: text, general: true}
	var starts []int
	var read func()
	read = func() {
		p.skipSpace()
		starts = append(starts, p.pos)
		switch p.src[p.pos] {
		case '{':
			for _, more, _ := p.nextKey(true); more; _, more, _ = p.nextKey(false) {
				read()
			}
		case '[':
			for more, _ := p.nextElem(true); more; more, _ = p.nextElem(false) {
				read()
			}
		default:
			if _, err := p.value(0); err != nil {
				panic(err)
			}
		}
	}
	read()
	return starts
}

func sameLimitErr(a, b error) bool {
	var x, y *LimitError
	if errors.As(a, &x) || errors.As(b, &y) {
		return errors.As(a, &x) && errors.As(b, &y) && *x == *y
	}
	return sameErrText(a, b)
}

// genDoc is a random document of scalars, objects (keys given twice now
// and then) and arrays, mostly well formed.
func genDoc(r *rand.Rand, depth int) string {
	switch c := r.IntN(10); {
	case c < 5 || depth > 3:
		return []string{`1`, `-2.5`, `"s"`, `"\u00e9"`, `true`, `false`, `null`, `NaN`, `1e5`, `tru`}[r.IntN(10)]
	case c < 8:
		var b strings.Builder
		b.WriteString("{")
		for i := range r.IntN(5) {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, `"%c": %s`, 'a'+r.IntN(3), genDoc(r, depth+1))
		}
		b.WriteString("}")
		return b.String()
	default:
		var b strings.Builder
		b.WriteString("[")
		for i := range r.IntN(5) {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(genDoc(r, depth+1))
		}
		b.WriteString("]")
		return b.String()
	}
}

// Containers of more than bigContainer members keep the stack's memory
// (finish) and the stack goes on in fresh memory: their values, those
// around them and those read after them are the values read without it,
// from a Decoder that recycles its memory and one that does not.
func TestBigContainers(t *testing.T) {
	big := func(n int, elem string) string {
		return "[" + strings.Repeat(elem+",", n-1) + elem + "]"
	}
	obj := func(n int) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"k%d":[%d]`, i, i)
		}
		return b.String() + "}"
	}
	for _, text := range []string{
		big(bigContainer+1, "0"),
		`{"a":[1,2],"b":` + big(3*bigContainer, `"x"`) + `,"c":{"d":` + big(bigContainer+7, "[1]") + `},"e":[3]}`,
		`[` + obj(bigContainer+2) + `,` + big(bigContainer*2, `{"a":1}`) + `,7]`,
		`[[1,2,3],[` + big(bigContainer+1, "true") + `]]`,
	} {
		var d Decoder
		for _, recycle := range []bool{false, true, true} {
			if recycle {
				d.Recycle(text)
			} else {
				d.Reset(text)
			}
			v, err := d.Value(0)
			if err != nil {
				t.Fatal(err)
			}
			if got := v.String(); got != text {
				t.Fatalf("recycle %v: read back as %.200s…, want %.200s…", recycle, got, text)
			}
		}
	}
}

// A Decoder with a Limit reading a document of many more values
// allocates for the values up to the bound, not for the document's: a list
// of 64 times the bound's zeros takes no more memory than one of twice it.
func TestLimitBoundsMemory(t *testing.T) {
	const limit = 1 << 14
	allocated := func(zeros int) uint64 {
		text := `{"x":[` + strings.Repeat("0,", zeros-1) + "0]}"
		var d Decoder
		d.Limit(limit)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for range 4 {
			d.Recycle(text)
			var over *LimitError
			if _, err := d.Value(0); !errors.As(err, &over) {
				t.Fatalf("%d zeros under a bound of %d: %v", zeros, limit, err)
			}
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / 4
	}
	member := uint64(unsafe.Sizeof(Member{}))
	small, large := allocated(2*limit), allocated(64*limit)
	// The stack, doubled as it grows, and the list it holds: about four
	// Members a value up to the bound.
	if most := 6 * limit * member; small > most || large > most {
		t.Errorf("a list of %d zeros allocates %d bytes, one of %d %d, under a bound of %d values: want at most %d (%d bytes a Member)",
			2*limit, small, 64*limit, large, limit, most, member)
	}
}
