package report

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// appendString's output reads back, as JSON, as the string it wrote, and
// never holds "##[" (a CI runner's command), for every string of ASCII
// bytes and a few others up to 3 long and random longer ones.
func TestAppendStringReadsBack(t *testing.T) {
	var alphabet []string
	for c := range 0x80 {
		alphabet = append(alphabet, string(rune(c)))
	}
	alphabet = append(alphabet, "é", "\u2028", "\U0001F600", "##[")
	check := func(s string) {
		out := appendString(nil, s)
		var back string
		if err := json.Unmarshal(out, &back); err != nil || back != s {
			t.Fatalf("Expected appendString(%q) to read back as itself, but it wrote %s (read %q, %v)", s, out, back, err)
		}
		if strings.Contains(string(out), "##[") {
			t.Fatalf("Expected appendString(%q) to escape \"##[\", but it wrote %s", s, out)
		}
	}
	for _, a := range alphabet {
		for _, b := range alphabet {
			check(a + b)
			check(a + "#" + b)
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	for range 3000 {
		var sb strings.Builder
		for range r.IntN(60) {
			sb.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		check(sb.String())
	}
}
