package dataset

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// The readers take a dataset as its file holds it: gzip-compressed
// (data.jsonl.gz, as datasets are often kept), or UTF-16 text, with or
// without a byte order mark (what Windows PowerShell's > and Out-File
// write), decoded as they read; a UTF-8 byte order mark is skipped. JSON's
// text is UTF-8 (RFC 8259), so nothing else is guessed at: a file
// compressed otherwise is an error that says how to read it.

// compressed are the compressed formats told by their first bytes that
// the readers do not decompress, with the command that does.
var compressed = []struct{ magic, name, command string }{
	{"\x28\xb5\x2f\xfd", "zstd", "zstd -dc"},
	{"\xfd7zXZ\x00", "xz", "xz -dc"},
	{"BZh", "bzip2", "bzip2 -dc"},
	{"PK\x03\x04", "zip", "unzip -p"},
}

// decodeInput returns a reader of br's text in UTF-8, uncompressed, past a
// byte order mark, and whether it was gzip-compressed (the file's name then
// ends in .gz, which does not say its format). An error names what the
// input is that cannot be read.
func decodeInput(br *bufio.Reader) (*bufio.Reader, bool, error) {
	gz := false
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, true, fmt.Errorf("the input is gzip-compressed, but cannot be read as such: %w", err)
		}
		br, gz = bufio.NewReaderSize(gzipErrors{zr}, 1<<16), true
	}
	head, _ := br.Peek(6)
	for _, c := range compressed {
		if len(head) >= len(c.magic) && string(head[:len(c.magic)]) == c.magic {
			return nil, gz, fmt.Errorf("the input is %s-compressed: decompress it first (%s FILE); only gzip is read as it is", c.name, c.command)
		}
	}
	if order := utf16Order(head); order != nil {
		u := &utf16Reader{src: br, order: order, in: make([]byte, 16<<10)}
		if len(head) >= 2 && order.Uint16(head) == 0xFEFF {
			br.Discard(2) // its byte order mark
		}
		br = bufio.NewReaderSize(u, 1<<16)
	}
	skipBOM(br)
	return br, gz, nil
}

// utf16Order is the byte order of text in UTF-16 that starts with head,
// told by a byte order mark, else as RFC 4627 tells JSON's encoding from
// its first two characters, which are ASCII (a zero byte in each); nil for
// UTF-8.
func utf16Order(head []byte) binary.ByteOrder {
	switch {
	case len(head) >= 2 && head[0] == 0xff && head[1] == 0xfe && !(len(head) >= 4 && head[2] == 0 && head[3] == 0):
		return binary.LittleEndian // not UTF-32's FF FE 00 00
	case len(head) >= 2 && head[0] == 0xfe && head[1] == 0xff:
		return binary.BigEndian
	case len(head) >= 4 && head[0] != 0 && head[1] == 0 && head[2] != 0 && head[3] == 0:
		return binary.LittleEndian
	case len(head) >= 4 && head[0] == 0 && head[1] != 0 && head[2] == 0 && head[3] != 0:
		return binary.BigEndian
	}
	return nil
}

// utf16Reader reads UTF-16 text from src as UTF-8. A code unit cut short
// at the end, or a surrogate without its other half, reads as U+FFFD, as
// Go's own UTF-16 decoding has it.
type utf16Reader struct {
	src   io.Reader
	order binary.ByteOrder
	in    []byte // read from src: its first n bytes not yet decoded
	n     int
	out   []byte // decoded, not yet returned
	err   error
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	for len(u.out) == 0 {
		if u.err != nil {
			if u.n == 0 {
				return 0, u.err
			}
			u.out, u.n = utf8.AppendRune(u.out[:0], utf8.RuneError), 0
			break
		}
		m, err := u.src.Read(u.in[u.n:])
		u.err = err
		u.n += m
		u.out = u.decode(u.out[:0], err != nil)
	}
	k := copy(p, u.out)
	u.out = u.out[k:]
	return k, nil
}

// decode appends the UTF-8 of the whole code units in u.in[:u.n] to out,
// keeping back a trailing byte, or a high surrogate whose low one may yet
// come (unless at the end), for the next read.
func (u *utf16Reader) decode(out []byte, atEnd bool) []byte {
	in := u.in[:u.n]
	i := 0
	for ; i+1 < len(in); i += 2 {
		r := rune(u.order.Uint16(in[i:]))
		if utf16.IsSurrogate(r) && r < 0xdc00 {
			if i+3 >= len(in) && !atEnd {
				break // its low surrogate may be in the next read
			}
			if i+3 < len(in) {
				if r2 := rune(u.order.Uint16(in[i+2:])); r2 >= 0xdc00 && r2 < 0xe000 {
					out = utf8.AppendRune(out, utf16.DecodeRune(r, r2))
					i += 2
					continue
				}
			}
			r = utf8.RuneError
		} else if utf16.IsSurrogate(r) {
			r = utf8.RuneError
		}
		out = utf8.AppendRune(out, r)
	}
	u.n = copy(u.in, in[i:])
	return out
}

// gzipErrors says of gzip's errors, which name no format ("unexpected
// EOF"), that the compressed input is cut short or corrupt.
type gzipErrors struct{ r io.Reader }

func (g gzipErrors) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("the gzip-compressed input is cut short or corrupt: %w", err)
	}
	return n, err
}
