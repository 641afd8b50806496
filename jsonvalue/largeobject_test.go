package jsonvalue

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestObjectKeysGivenAgain: an object whose keys repeat keeps each key at
// its first place with its last value, as a Python dict does, at every size
// (the keys looked up one by one in small objects, in a map past
// largeObject), with scalar values (flatObject's reading), with a nested
// value among them (object's), through Parse and through a recycling
// Decoder; stated against a plain loop over the keys in order.
func TestObjectKeysGivenAgain(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 26))
	var d Decoder
	for _, n := range []int{0, 1, 2, 31, 63, 64, 65, 66, 127, 128, 129, 500, 5000, 20000} {
		for _, nested := range []bool{false, true} {
			distinct := max(1, n*2/3)
			var text strings.Builder
			var order []string
			last := map[string]string{} // each key's last value, as JSON
			text.WriteByte('{')
			for i := range n {
				key := fmt.Sprintf("k%d", r.IntN(distinct))
				if _, seen := last[key]; !seen {
					order = append(order, key)
				}
				if i > 0 {
					text.WriteString(", ")
				}
				last[key] = fmt.Sprint(i)
				if nested && i == n/2 {
					last[key] = fmt.Sprintf("[%d]", i)
				}
				fmt.Fprintf(&text, "%q: %s", key, last[key])
			}
			text.WriteByte('}')
			check := func(how string, v Value) {
				t.Helper()
				ms := v.Members()
				if len(ms) != len(order) {
					t.Fatalf("n=%d nested=%v %s: %d members, want %d", n, nested, how, len(ms), len(order))
				}
				for j, m := range ms {
					want, got := last[order[j]], m.Value.String()
					if m.Key != order[j] || got != want {
						t.Fatalf("n=%d nested=%v %s: member %d is %q: %s, want %q: %s", n, nested, how, j, m.Key, got, order[j], want)
					}
				}
			}
			v, err := Parse([]byte(text.String()))
			if err != nil {
				t.Fatalf("n=%d: %v", n, err)
			}
			check("Parse", v)
			d.Recycle(text.String())
			if v, err = d.Value(0); err != nil {
				t.Fatalf("n=%d: Decoder: %v", n, err)
			}
			check("a recycling Decoder", v)
		}
	}
}
