// Package textarena makes strings out of chunks of memory that are only
// ever appended to, so that many short strings made by a reader cost one
// allocation between them rather than one each.
//
// A reader of OpenAI messages unescapes each tool call's arguments (escaped
// JSON) and copies each record's references into a text of their own: a
// string each was 4.0 allocations a record on the OpenAI mix of
// bench/run.sh, and 0.6 from an Arena (BENCHMARKS.md, CPU15). A string
// from an Arena keeps its whole chunk alive, as a substring keeps the
// text it is cut from: chunks are 16 KiB, a quarter of the block a
// dataset reader's records are cut from.
package textarena

import "unsafe"

// chunkSize is the size of a new chunk.
const chunkSize = 16 << 10

// minRoom is the least free room Room hands out of the current chunk
// before it starts a new one: below it, most strings would not fit and
// would be copied out again as they grew.
const minRoom = 256

// An Arena hands out strings from append-only chunks of memory. The zero
// Arena is ready to use; an Arena is not safe for concurrent use. A copy
// of an Arena shares its chunk with the original, as a copy of the
// reader that holds it (a jsonvalue.Decoder, a dataset.Parser) would:
// neither hands out memory the other has.
type Arena struct {
	c *chunk
}

type chunk struct {
	// buf is the current chunk: buf[:len(buf)] holds strings handed out,
	// never written again; buf[len(buf):cap(buf)] is free.
	buf []byte
}

// Room returns empty memory to append a string's bytes to, with room for
// at least n bytes (and at least minRoom). The string is made by Keep
// from what was appended; appends past the room's capacity move it to
// memory of its own, which Keep takes as it is. Memory from Room that is
// never given to Keep is handed out again.
func (a *Arena) Room(n int) []byte {
	if a.c == nil {
		a.c = new(chunk)
	}
	c := a.c
	if free := cap(c.buf) - len(c.buf); free < max(n, minRoom) {
		c.buf = make([]byte, 0, max(n, chunkSize))
	}
	return c.buf[len(c.buf):len(c.buf)]
}

// Keep returns b as a string without a copy. b must be the last slice
// Room returned, with bytes appended; its memory is never written again.
func (a *Arena) Keep(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if c := a.c; c != nil {
		free := c.buf[len(c.buf):cap(c.buf)]
		if len(free) >= len(b) && unsafe.SliceData(free) == unsafe.SliceData(b) {
			c.buf = c.buf[:len(c.buf)+len(b)]
		}
	}
	// Otherwise b outgrew the room and was moved to memory of its own,
	// which nothing else refers to: the chunk stays as it was.
	return unsafe.String(unsafe.SliceData(b), len(b))
}
