package vcr

import (
	"bufio"
	"bytes"
	"io"
	"strings"
)

// The recorder writes every cassette in one fixed layout (package recorder
// says which); the recorder reads it back, and the secret check reads it,
// line by line, with a LineReader: one line held at a time, so that reading
// costs time and memory in proportion to an interaction, not to the file.
// Each reader gives up on a line it does not expect and reads the file with
// the YAML library instead.

// LineReader reads a cassette line by line from a stream.
type LineReader struct {
	r    *bufio.Reader
	buf  []byte
	cur  string // the line read and not yet consumed
	has  bool
	done bool
	line int // the 1-based number of the line in cur
	err  error
}

// NewLineReader returns a LineReader reading r, through a buffer of 64 KiB,
// or of r's length when it has one that is smaller (a cassette read into
// memory): the recorder reads each of its cassettes so, and a buffer
// allocated and cleared in full for a file of a few KiB was most of the
// cost of reading it.
func NewLineReader(r io.Reader) *LineReader {
	size := 64 << 10
	if l, ok := r.(interface{ Len() int }); ok && l.Len() < size {
		size = l.Len() + 1 // bufio makes it at least 16
	}
	return &LineReader{r: bufio.NewReaderSize(r, size)}
}

func (p *LineReader) fill() {
	if p.has || p.done {
		return
	}
	p.buf = p.buf[:0]
	for {
		chunk, err := p.r.ReadSlice('\n')
		p.buf = append(p.buf, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && err != io.EOF {
			p.err, p.done = err, true
			return
		}
		if err == io.EOF && len(p.buf) == 0 {
			p.done = true
			return
		}
		break
	}
	p.cur, p.has = string(bytes.TrimSuffix(p.buf, []byte("\n"))), true
	p.line++
}

// Peek returns the next line's indentation (in spaces), its text after
// the indentation, and whether there is a line; it does not consume it.
func (p *LineReader) Peek() (indent int, text string, ok bool) {
	p.fill()
	if !p.has {
		return 0, "", false
	}
	for indent < len(p.cur) && p.cur[indent] == ' ' {
		indent++
	}
	return indent, p.cur[indent:], true
}

// Advance consumes the next line.
func (p *LineReader) Advance() {
	p.fill()
	p.has = false
}

// Line is the 1-based number of the line Peek returns.
func (p *LineReader) Line() int { return p.line }

// Err is the error that stopped reading the stream, other than its end.
func (p *LineReader) Err() error { return p.err }

// BlockIndent is the indentation of the lines of a literal block scalar
// (a body) in the recorder's layout.
const BlockIndent = 12

// Block reads the lines of a literal block scalar indented by BlockIndent,
// after its header "|" + chomp, as YAML reads them: chomp "" keeps one
// final line break, "-" none, "+" all. ok is false for a chomping indicator
// of another kind and for a block YAML would read otherwise: a first line
// that is blank, indented otherwise or starting with a tab, or a line
// holding a character YAML takes for a line break (NEL, LS, PS), which the
// recorder never writes in a block.
func (p *LineReader) Block(chomp string) (s string, ok bool) {
	if chomp != "" && chomp != "-" && chomp != "+" {
		return "", false
	}
	var b strings.Builder
	first := true
	for {
		indent, text, ok := p.Peek()
		if !ok || text != "" && indent < BlockIndent {
			break
		}
		if first && (indent != BlockIndent || text == "" || text[0] == '\t') || yamlBreak(text) {
			return "", false
		}
		first = false
		p.Advance()
		if indent > BlockIndent {
			b.WriteString(strings.Repeat(" ", indent-BlockIndent))
		}
		b.WriteString(text)
		b.WriteByte('\n')
	}
	s = b.String()
	switch chomp {
	case "":
		s = strings.TrimRight(s, "\n") + "\n"
	case "-":
		s = strings.TrimRight(s, "\n")
	}
	return s, true
}

// yamlBreak reports whether text holds U+0085, U+2028 or U+2029, which
// YAML reads as line breaks. It looks only at their lead bytes' places.
func yamlBreak(text string) bool {
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case 0xc2:
			if strings.HasPrefix(text[i:], "\u0085") {
				return true
			}
		case 0xe2:
			if strings.HasPrefix(text[i:], "\u2028") || strings.HasPrefix(text[i:], "\u2029") {
				return true
			}
		}
	}
	return false
}
