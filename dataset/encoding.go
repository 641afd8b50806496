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
		zr.Multistream(false)
		br, gz = bufio.NewReaderSize(&gzipStream{src: br, zr: zr}, 1<<16), true
	}
	head, _ := br.Peek(32)
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
// told by a byte order mark, else, as RFC 4627 tells JSON's encoding from
// its first characters, which are ASCII, by a zero byte in each of the
// first 16 characters (or all there are): nil for UTF-8. Two characters,
// as RFC 4627 has it, would take a UTF-8 file whose first line is broken
// ("{\x00\"\x00") for UTF-16, and lose its other lines.
func utf16Order(head []byte) binary.ByteOrder {
	switch {
	case len(head) >= 2 && head[0] == 0xff && head[1] == 0xfe && !(len(head) >= 4 && head[2] == 0 && head[3] == 0):
		return binary.LittleEndian // not UTF-32's FF FE 00 00
	case len(head) >= 2 && head[0] == 0xfe && head[1] == 0xff:
		return binary.BigEndian
	case asciiUTF16(head, 1):
		return binary.LittleEndian
	case asciiUTF16(head, 0):
		return binary.BigEndian
	}
	return nil
}

// asciiUTF16 reports whether head's code units, at least two and up to
// 16, are ASCII characters other than NUL in UTF-16 whose zero byte is
// at offset zero in each (1 little-endian, 0 big-endian).
func asciiUTF16(head []byte, zero int) bool {
	n := min(len(head)/2, 16)
	if n < 2 {
		return false
	}
	for i := range n {
		u := head[2*i : 2*i+2]
		if u[zero] != 0 || u[1-zero] == 0 || u[1-zero] >= 0x80 {
			return false
		}
	}
	return true
}

// utf16Reader reads UTF-16 text from src as UTF-8. A code unit cut short
// at the end, or a surrogate without its other half, reads as U+FFFD, as
// Go's own UTF-16 decoding has it.
type utf16Reader struct {
	src   io.Reader
	order binary.ByteOrder
	in    []byte // read from src: its first n bytes not yet decoded
	n     int
	buf   []byte // decoded: the memory of out, reused from read to read
	out   []byte // decoded, not yet returned
	err   error
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	for len(u.out) == 0 {
		if u.err != nil {
			if u.n == 0 {
				return 0, u.err
			}
			u.buf, u.n = utf8.AppendRune(u.buf[:0], utf8.RuneError), 0
			u.out = u.buf
			break
		}
		m, err := u.src.Read(u.in[u.n:])
		u.err = err
		u.n += m
		u.buf = u.decode(u.buf[:0], err != nil)
		u.out = u.buf
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

// gzipStream reads the members of a gzip file one after another, as
// gzip(1) does, and, as it does, takes zero bytes after the last as the
// padding some tools write; other bytes after it are an error. Its errors
// say what gzip's own do not ("unexpected EOF"): that the input is cut
// short or corrupt.
type gzipStream struct {
	src  *bufio.Reader
	zr   *gzip.Reader
	done bool
}

func (g *gzipStream) Read(p []byte) (int, error) {
	for !g.done {
		n, err := g.zr.Read(p)
		switch {
		case err == io.EOF:
			if err = g.next(); err != nil || n > 0 {
				return n, err
			}
		case err != nil:
			return n, fmt.Errorf("the gzip-compressed input is cut short or corrupt: %w", err)
		default:
			return n, nil
		}
	}
	return 0, io.EOF
}

// next readies the member after the one just read, if another follows
// (past zero bytes, which also end the input).
func (g *gzipStream) next() error {
	for {
		if _, err := g.src.Peek(1); err != nil {
			g.done = true // zero bytes, if any, to the end
			return nil
		}
		b, _ := g.src.Peek(g.src.Buffered())
		k := 0
		for k < len(b) && b[k] == 0 {
			k++
		}
		g.src.Discard(k)
		if k < len(b) {
			break
		}
	}
	if err := g.zr.Reset(g.src); err != nil {
		return fmt.Errorf("the gzip-compressed input is followed by bytes that are not gzip: %w", err)
	}
	g.zr.Multistream(false)
	return nil
}
