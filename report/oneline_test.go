package report

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// needsFolding is the test oneLine made with strings.ContainsAny and
// strings.Contains, on every string of a small alphabet up to 4 bytes and
// on random longer ones.
func TestNeedsFoldingIsTheTwoSearches(t *testing.T) {
	alphabet := []string{"a", " ", "\n", "\r", "\t", "\v", "\f", "é", "\u00a0", "\x00"}
	want := func(s string) bool {
		return strings.ContainsAny(s, "\n\r\t\v\f") || strings.Contains(s, "  ")
	}
	check := func(s string) {
		if got := needsFolding(s); got != want(s) {
			t.Fatalf("Expected needsFolding(%q) to be %v, but it is %v", s, want(s), got)
		}
	}
	var all func(prefix string, n int)
	all = func(prefix string, n int) {
		check(prefix)
		if n == 0 {
			return
		}
		for _, a := range alphabet {
			all(prefix+a, n-1)
		}
	}
	all("", 4)
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var b strings.Builder
		for range r.IntN(200) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		check(b.String())
	}
}

// oneLine cuts at n runes whatever the bytes: a string of n runes in more
// than n bytes stays whole, one of n+1 is cut.
func TestOneLineCutsRunesNotBytes(t *testing.T) {
	s := strings.Repeat("é", 10)
	if got := oneLine(s, 10); got != s {
		t.Fatalf("Expected oneLine of 10 runes (20 bytes) cut at 10 to stay whole, but it is %q", got)
	}
	if got := oneLine(s+"x", 10); got != strings.Repeat("é", 9)+"…" {
		t.Fatalf("Expected oneLine of 11 runes cut at 10 to end in an ellipsis after 9, but it is %q", got)
	}
}

// Two spaces are found wherever they are, the eight-byte words of the
// scan included and the spaces split between two words, and so is each
// folded character at every position; one space alone is not.
func TestNeedsFoldingAtEveryPosition(t *testing.T) {
	for n := range 40 {
		for p := range n {
			for _, insert := range []string{"  ", "\n", "\t", "\r", "\v", "\f", " "} {
				s := strings.Repeat("a", p) + insert + strings.Repeat("b", n-p)
				if got, want := needsFolding(s), insert != " "; got != want {
					t.Fatalf("needsFolding(%q) = %v, want %v", s, got, want)
				}
			}
		}
	}
}
