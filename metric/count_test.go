package metric

import (
	"strconv"
	"testing"
)

// appendCount writes every count as strconv does, the one-digit ones it
// writes itself and the rest.
func TestAppendCountIsItoa(t *testing.T) {
	for n := range 1000 {
		if got, want := string(appendCount([]byte("x"), n)), "x"+strconv.Itoa(n); got != want {
			t.Fatalf("appendCount(%d) wrote %q, want %q", n, got, want)
		}
	}
}
