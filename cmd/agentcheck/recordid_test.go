package main

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// hasIDKey is strings.Contains(text, `"id"`) on every string of the
// bytes that make up the key (and one other) up to 6 long, and on random
// longer ones.
func TestHasIDKeyIsContains(t *testing.T) {
	alphabet := "\"idx"
	check := func(s string) {
		if got, want := hasIDKey(s), strings.Contains(s, `"id"`); got != want {
			t.Fatalf("Expected hasIDKey(%q) to be %v, but it is %v", s, want, got)
		}
	}
	var all func(prefix string, n int)
	all = func(prefix string, n int) {
		check(prefix)
		if n == 0 {
			return
		}
		for i := range len(alphabet) {
			all(prefix+alphabet[i:i+1], n-1)
		}
	}
	all("", 6)
	r := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		b := make([]byte, r.IntN(100))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		check(string(b))
	}
}
