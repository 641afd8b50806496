package textarena

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// Strings of every length, some past their room and some past a chunk,
// some of whose room is given up: each string kept reads as it was made
// after all the others are made, and the memory of a room given up is
// handed out again.
func TestKeptStringsStayAsMade(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var a Arena
	var kept []string
	var want [][]byte
	pattern := make([]byte, 2*chunkSize+251)
	for i := range pattern {
		pattern[i] = byte(i)
	}
	for i := range 5_000 {
		n := r.IntN(100)
		switch r.IntN(50) {
		case 0:
			n = chunkSize + r.IntN(chunkSize) // past any room
		case 1:
			n = minRoom + r.IntN(chunkSize) // past many rooms
		}
		room := a.Room(r.IntN(2) * n) // asked for its length, or not
		b := append(room, pattern[i%251:i%251+n]...)
		if r.IntN(10) == 0 {
			continue // given up: its memory is free again
		}
		kept = append(kept, a.Keep(b))
		want = append(want, bytes.Clone(b))
	}
	for i, s := range kept {
		if s != string(want[i]) {
			t.Fatalf("string %d of %d (%d bytes) changed after more were made", i, len(kept), len(s))
		}
	}
}

// A string that fits its room costs no allocation: a chunk's worth of
// them cost one between them.
func TestStringsShareAChunk(t *testing.T) {
	var a Arena
	text := bytes.Repeat([]byte("x"), 64)
	allocs := testing.AllocsPerRun(chunkSize/64*4, func() {
		a.Keep(append(a.Room(len(text)), text...))
	})
	if allocs > 0.02 {
		t.Errorf("Expected 64-byte strings to share %d-byte chunks, but each costs %v allocations", chunkSize, allocs)
	}
}

// Room asked for n bytes has room for them without a move.
func TestRoomHasTheRoomAskedFor(t *testing.T) {
	var a Arena
	for _, n := range []int{0, 1, minRoom, chunkSize - 1, chunkSize, 3 * chunkSize} {
		a.Keep(append(a.Room(10), "0123456789"...)) // a chunk partly used
		if room := a.Room(n); cap(room) < max(n, minRoom) {
			t.Errorf("Room(%d) has %d bytes of room, want at least %d", n, cap(room), max(n, minRoom))
		}
	}
}

// Strings made from an Arena and from a copy of it, in turn, stay as
// they were made: the copy hands out none of the memory the original
// has handed out, nor the original any of the copy's.
func TestACopySharesTheChunk(t *testing.T) {
	var a Arena
	a.Keep(append(a.Room(0), "first"...))
	b := a // as a reader that holds an Arena is copied
	var kept, want []string
	for i := range 200 {
		x := &a
		if i%2 == 1 {
			x = &b
		}
		w := fmt.Sprintf("string %d of the %s", i, [2]string{"original", "copy"}[i%2])
		kept = append(kept, x.Keep(append(x.Room(0), w...)))
		want = append(want, w)
	}
	for i := range kept {
		if kept[i] != want[i] {
			t.Fatalf("string %d reads %q, want %q", i, kept[i], want[i])
		}
	}
}
