// Package dataset reads agent runs written as JSON: datasets of samples to
// score, in ragas's MultiTurnSample format (a JSON array, objects one after
// another, or JSON Lines), streamed with bounded memory, every bad sample
// reported by file, line and index while the others load; and OpenAI Chat
// Completions messages (ParseOpenAIMessages), as an agent sends them or an
// adapter writes them. Each sample is parsed by agentcheck.ParseSample.
package dataset

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/samplereuse"
	"github.com/agentcheck/agentcheck/internal/shell"
	"github.com/agentcheck/agentcheck/internal/wordscan"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// LoadError is a sample that could not be loaded, located by file, line
// (1-based, where the sample starts or where the JSON broke) and the
// sample's index in the file (0-based); or, with Sample -1, the input's
// own framing, which no sample holds: an array of samples not closed,
// bytes after it or between its samples.
type LoadError struct {
	File   string
	Line   int
	Sample int
	Err    error
}

// Error is "file:line: sample n: " and the problem; a file name that a
// terminal would not show as itself is quoted (strconv.Quote). Where the
// JSON broke, Line is the file's line and the problem its column (from the
// sample's start on the sample's first line): "data.jsonl:4: sample 3:
// column 40: unterminated string", not the sample's own "line 1". An
// error of the framing is "file:line: " and the problem.
func (e *LoadError) Error() string {
	if e.Sample < 0 {
		return fmt.Sprintf("%s:%d: %v", shownFile(e.File), e.Line, e.Err)
	}
	if se, ok := e.Err.(*jsonvalue.SyntaxError); ok {
		return fmt.Sprintf("%s:%d: sample %d: column %d: %s", shownFile(e.File), e.Line, e.Sample, se.Column, se.Msg)
	}
	return fmt.Sprintf("%s:%d: sample %d: %v", shownFile(e.File), e.Line, e.Sample, e.Err)
}

// shownFile is a file's name as an error gives it: "<input>" for none,
// quoted when a terminal would not show it as itself.
func shownFile(file string) string {
	switch {
	case file == "":
		return "<input>"
	case !shell.Printable(file):
		return strconv.Quote(file)
	}
	return file
}

// Unwrap is the problem with the sample: a *jsonvalue.SyntaxError, a
// *agentcheck.MessageError, or another error of ParseSample.
func (e *LoadError) Unwrap() error { return e.Err }

// Record is one sample's JSON text as it stands in a dataset, with where it
// stands. ReadRecords yields them so that parsing can be spread over cores
// while the file is read once, in order.
type Record struct {
	File  string
	Line  int // line on which the sample starts, 1-based
	Index int // position of the sample in the file, 0-based
	Text  string
}

// Sample parses the record in the format it is written in (SampleAs with
// Auto): a ragas MultiTurnSample, or a sample whose "messages" are in a
// provider's shape. Errors are *LoadError naming the file, line, sample
// and, inside it, the message and tool call.
func (r Record) Sample() (agentcheck.Sample, error) { return r.SampleAs(Auto) }

// ReadRecords splits a dataset into samples without parsing them: JSON Lines
// (one sample per line; chosen for .jsonl and .ndjson files and for input
// that does not start with '['), a JSON array of samples, or JSON objects
// one after another (.json files). Lines end with LF, CRLF or CR alike, and
// a UTF-8 byte order mark is skipped at the start of the input, of a line
// and between samples. Input compressed with gzip (data.jsonl.gz) or
// written in UTF-16 is read as it is, decoded as it is read; another
// compression (zstd, xz, bzip2, zip) is an error that says so. A sample
// over 64 MiB is an error of its own (a *LoadError naming it, with a
// Record holding its first 4 KiB, trimmed), its other bytes skipped
// unread, and the samples after it are read on: memory stays bounded,
// whatever the file's size. A framing error (an unterminated array, say)
// is yielded once and ends the sequence.
func ReadRecords(r io.Reader, file string) iter.Seq2[Record, error] {
	return readRecords(r, file, false, maxSample, "", nil)
}

// maxSample is the most bytes a sample may hold as ReadRecords reads.
const maxSample = 64 << 20

// overHead is how much of a sample over the bound its error's Record holds:
// enough to name it by its "id", which mostly comes first.
const overHead = 4 << 10

func init() {
	samplereuse.ReadRecords = func(r io.Reader, file string, bound int, boundName string, blockEnd func()) iter.Seq2[Record, error] {
		return readRecords(r, file, true, bound, boundName, blockEnd)
	}
	samplereuse.KeepRawText = func(p *Parser) { p.rawText, p.into, p.fast = true, nil, nil }
	samplereuse.BoundValues = func(p *Parser, maxValues int, boundName string) {
		p.maxValues, p.boundName, p.into, p.fast = maxValues, boundName, nil, nil
	}
	samplereuse.SampleInto = (*Parser).sampleInto
	samplereuse.ReadOTLPTraces = func(r io.Reader, file string, maxBytes int, bytesName string, maxValues int, valuesName string, maxHeld int, heldName string) iter.Seq2[TraceSample, error] {
		return readOTLPTraces(r, file, otlpBounds{exportBytes: maxBytes, exportValues: maxValues, traceBytes: maxBytes, heldBytes: maxHeld,
			bytesName: bytesName, valuesName: valuesName, heldName: heldName})
	}
}

// readRecords is ReadRecords; with reuse set, JSON Lines are read into
// one block of memory over and over, so that a record's Text is valid only
// until the next record is read. A sample over bound bytes is an error,
// which names the bound by boundName when it is set (a flag that sets it).
func readRecords(r io.Reader, file string, reuse bool, bound int, boundName string, blockEnd func()) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		over := overBound(file, bound, boundName)
		br, gz, err := decodeInput(bufio.NewReaderSize(r, 1<<16))
		if err != nil {
			yield(Record{}, fmt.Errorf("%s: %w", file, err))
			return
		}
		name := strings.ToLower(file)
		if gz {
			name = strings.TrimSuffix(name, ".gz")
		}
		ext := filepath.Ext(name)
		first, err := peekNonSpace(br)
		if err != nil {
			if err != io.EOF {
				yield(Record{}, fmt.Errorf("%s: %w", file, err))
			}
			return
		}
		switch {
		case ext == ".jsonl" || ext == ".ndjson":
			readLines(br, file, reuse, bound, over, blockEnd, yield)
		case first == '[' || ext == ".json":
			readValues(br, file, first == '[', bound, over, yield)
		default:
			readLines(br, file, reuse, bound, over, blockEnd, yield)
		}
	}
}

// overBound is the error in place of a sample of file over bound bytes, at
// its line and index; boundName is what sets the bound, if anything does.
func overBound(file string, bound int, boundName string) func(line, index int) error {
	return func(line, index int) error {
		return &LoadError{File: file, Line: line, Sample: index,
			Err: fmt.Errorf("the sample is over %d bytes, the most one sample may hold%s: it was skipped", bound, named(boundName))}
	}
}

// readBlock is how much of the input readLines reads into each block: as
// much as ReadRecords's bufio.Reader holds, so that its reads go straight
// into the block. reuseBlock is the one block of reuse, larger (bufio's
// Read reads straight into any block at least its size): a read costs a
// system call's fixed price, and reading 418 MB in 64 KiB reads took 97 ms
// of CPU, in 256 KiB reads 79 ms (BENCHMARKS.md); a block of its own for
// each read (without reuse) stays small, as its records may keep it.
const (
	readBlock  = 1 << 16
	reuseBlock = 1 << 18
)

// bom is the UTF-8 byte order mark some editors write at the start of a
// file.
const bom = "\uFEFF"

// skipBOM discards a byte order mark at the reader's position.
func skipBOM(br *bufio.Reader) {
	if p, _ := br.Peek(len(bom)); string(p) == bom {
		br.Discard(len(bom))
	}
}

// peekNonSpace is the input's first byte that is not a space, as far as
// the first 64 KiB go (a space past them): what tells an array of samples
// from JSON Lines.
func peekNonSpace(br *bufio.Reader) (byte, error) {
	for i := 1; i <= 1<<16; i++ {
		b, err := br.Peek(i)
		if len(b) < i {
			return 0, err
		}
		if c := b[i-1]; c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return c, nil
		}
	}
	return ' ', nil // 64 KiB of space: not an array, whatever follows
}

// readLines yields the non-blank lines, ended by LF, CRLF or CR. The input
// is read straight into blocks of memory (64 KiB, or a line if longer)
// that are never written again once their complete lines are read: the
// records are substrings of them, so that a record costs no allocation or
// copy of its own. What follows a block's last line end starts the next
// block. A record kept after reading keeps its block alive. With reuse
// set, the next block is the same memory, its records valid only until the
// next is read. A line over bound bytes is over(line, index) in its place,
// its bytes skipped as they are read.
func readLines(br *bufio.Reader, file string, reuse bool, bound int, over func(line, index int) error, blockEnd func(), yield func(Record, error) bool) {
	line, index := 0, 0
	buf := make([]byte, 0, readBlock)
	if reuse {
		buf = make([]byte, 0, reuseBlock)
	}
	// afterCR: the last block ended with CR, so an LF that starts the next
	// one ends no line of its own.
	afterCR := false
	for {
		if len(buf) == cap(buf) {
			// A line longer than the buffer: the buffer doubles, up to
			// a byte past the bound, where the line is known to be over
			// it. append grows a large slice by a quarter at a time, each
			// step fresh memory and a copy: a 64 MiB line touched about
			// five times its size.
			grow := max(len(buf), readBlock)
			if room := bound + 1 - len(buf); room > 0 {
				grow = min(grow, room)
			}
			buf = slices.Grow(buf, grow)
		}
		n, err := br.Read(buf[len(buf):cap(buf)])
		// What was left from the last read has no line end.
		end := 0
		read := buf[len(buf) : len(buf)+n]
		// The last line end: the last LF, or a CR after it. Each is looked
		// for forward first, with vector instructions: LastIndexByte reads
		// a byte at a time, wordscan.LastIndex a word, and most inputs have
		// no CR, and a long line no LF in a read.
		i := -1
		if bytes.IndexByte(read, '\n') >= 0 {
			i = wordscan.LastIndex(unsafe.String(unsafe.SliceData(read), len(read)), '\n')
		}
		if tail := read[i+1:]; bytes.IndexByte(tail, '\r') >= 0 {
			i += 1 + bytes.LastIndexByte(tail, '\r')
		}
		if i >= 0 {
			end = len(buf) + i + 1
		}
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			end = len(buf) // the last line may have no line end
		} // else a line the reader's error cut short is not a sample
		if end == 0 && err == nil {
			if len(buf) > bound {
				// A line over the bound, its end not read yet: skip to it.
				var cr bool
				if cr, err = skipLine(br); err != nil && err != io.EOF {
					yield(Record{}, fmt.Errorf("%s:%d: %w", file, line+1, err))
					return
				}
				line++
				head := lineHead(string(buf[:min(overHead, bound)]))
				if !yield(Record{File: file, Line: line, Index: index, Text: head}, over(line, index)) || err != nil {
					return
				}
				index++
				buf, afterCR = buf[:0], cr
			}
			continue
		}
		// buf[:end] is not written again (unless reuse is set): the next
		// block is new memory.
		block := unsafe.String(unsafe.SliceData(buf), end)
		if afterCR && len(block) > 0 && block[0] == '\n' {
			block = block[1:]
		}
		afterCR = end > 0 && buf[end-1] == '\r'
		// Most input has no CR: then one byte ends a line.
		hasCR := strings.IndexByte(block, '\r') >= 0
		for len(block) > 0 {
			text := block
			i := strings.IndexByte(block, '\n')
			if hasCR {
				i = strings.IndexAny(block, "\r\n")
			}
			if i >= 0 {
				next := i + 1
				if block[i] == '\r' && next < len(block) && block[next] == '\n' {
					next++
				}
				text, block = block[:i], block[next:]
			} else {
				block = ""
			}
			line++
			long := len(text) > bound // the line, spaces and all
			if long {
				// A copy: a block can be the whole long line.
				text = strings.Clone(lineHead(text[:min(overHead, bound)]))
			} else if len(text) < 2 || text[0] != '{' || text[len(text)-1] != '}' {
				// Not a sample object end to end (most lines are): trim
				// the space and byte order mark around it.
				text = lineHead(text)
			}
			// A line over the bound is a sample's error, blank or not, as
			// it is when its end is not read yet (the skip above).
			if text != "" || long {
				rec, err := Record{File: file, Line: line, Index: index, Text: text}, error(nil)
				if long {
					err = over(line, index)
				}
				if !yield(rec, err) {
					return
				}
				index++
			}
		}
		if blockEnd != nil && reuse {
			blockEnd() // the block's records are done with
		}
		rest := buf[end:]
		if reuse {
			buf = buf[:copy(buf[:cap(buf)], rest)]
		} else {
			buf = make([]byte, len(rest), len(rest)+readBlock)
			copy(buf, rest)
		}
		if err != nil {
			if err != io.EOF {
				yield(Record{}, fmt.Errorf("%s:%d: %w", file, line+1, err))
			}
			return
		}
	}
}

// lineHead is a line's text, the space and byte order mark around it
// trimmed; for a line over the bound, of its first bytes, which its
// error's Record holds (the same bytes however the reads split the line).
func lineHead(raw string) string {
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(raw), bom))
}

// skipLine discards the input up to its next line end and the line end,
// and says whether that was a CR, which an LF may follow.
func skipLine(br *bufio.Reader) (cr bool, err error) {
	for {
		chunk, err := br.Peek(max(br.Buffered(), 1))
		if len(chunk) == 0 {
			return false, err
		}
		// Two IndexByte, each a vector loop, not IndexAny's byte loop.
		i := bytes.IndexByte(chunk, '\n')
		before := chunk
		if i >= 0 {
			before = chunk[:i]
		}
		if j := bytes.IndexByte(before, '\r'); j >= 0 {
			i = j
		}
		if i >= 0 {
			br.Discard(i + 1)
			return chunk[i] == '\r', nil
		}
		br.Discard(len(chunk))
	}
}

// readValues yields the elements of a top-level array, or top-level values
// one after another, by tracking nesting and strings without parsing. Lines
// end with LF, CRLF or CR; a byte order mark between values is skipped. A
// value over bound bytes is over(its line, index) in its place, its bytes
// skipped as they are read.
func readValues(br *bufio.Reader, file string, inArray bool, bound int, over func(line, index int) error, yield func(Record, error) bool) {
	line := 1
	index := 0
	// lastCR: the last byte read was a CR, so that an LF right after it
	// ends no line of its own.
	lastCR := false
	newline := func(c byte) {
		if c == '\r' || !lastCR {
			line++
		}
		lastCR = c == '\r'
	}
	// readErr is the reader's error, other than the input's end: when it is
	// set, it is what stopped the reading (inputFailed), not the framing.
	var readErr error
	inputFailed := func() { yield(Record{}, fmt.Errorf("%s:%d: %w", file, line, readErr)) }
	// fail ends the reading at an error of the framing around the samples,
	// which names no sample.
	fail := func(format string, args ...any) {
		yield(Record{}, &LoadError{File: file, Line: line, Sample: -1, Err: fmt.Errorf(format, args...)})
	}
	next := func() (byte, bool) {
		c, err := br.ReadByte()
		if err != nil {
			if err != io.EOF {
				readErr = err
			}
			return 0, false
		}
		if c == '\n' || c == '\r' {
			newline(c)
		} else {
			lastCR = false
		}
		return c, true
	}
	skip := func() (byte, bool) {
		for {
			if p, _ := br.Peek(len(bom)); string(p) == bom {
				br.Discard(len(bom))
				lastCR = false
				continue
			}
			c, ok := next()
			if !ok || (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
				return c, ok
			}
		}
	}
	if inArray {
		skip() // the '[' that was peeked, after any space
	}
	var buf []byte
	// head is the start of the value read, trimmed, as the Record of its
	// error holds it (a value over the bound, or one cut short).
	head := func() string { return strings.TrimSpace(string(buf[:min(len(buf), overHead)])) }
	expectValue := true
	for {
		c, ok := skip()
		if !ok {
			if readErr != nil {
				inputFailed()
			} else if inArray {
				fail("unexpected end of input: the array of samples is not closed with ']'")
			}
			return
		}
		if inArray {
			if c == ']' {
				if c2, ok := skip(); ok {
					fail("unexpected %q after the array of samples", c2)
				} else if readErr != nil {
					inputFailed()
				}
				return
			}
			if c == ',' && !expectValue {
				expectValue = true
				continue
			}
			if !expectValue {
				fail("unexpected %q between samples, want ',' or ']'", c)
				return
			}
		}
		start := line
		buf = append(buf[:0], c)
		size := 1 // the value's bytes, kept in buf up to the bound
		depth := 0
		if c == '{' || c == '[' {
			depth = 1
		}
		inString := c == '"'
		escaped := false
		// Scan what the reader holds in one go, not byte by byte.
		for depth > 0 || inString {
			chunk, err := br.Peek(max(br.Buffered(), 1))
			if err != nil {
				if err != io.EOF {
					readErr = err
				}
				if readErr != nil {
					inputFailed()
					return
				}
				// The sample cut short: its error, and its first bytes,
				// which may name it.
				yield(Record{File: file, Line: start, Index: index, Text: head()},
					&LoadError{File: file, Line: line, Sample: index, Err: fmt.Errorf("unexpected end of input inside the sample that starts on line %d", start)})
				return
			}
			i := 0
			for i < len(chunk) && (depth > 0 || inString) {
				// Skip the bytes that change nothing, one lookup each.
				if !escaped {
					stops := &framingStops[0]
					if inString {
						stops = &framingStops[1]
					}
					skipped := i
					for i < len(chunk) && !stops[chunk[i]] {
						i++
					}
					if i > skipped {
						lastCR = false
					}
					if i == len(chunk) {
						break
					}
				}
				c := chunk[i]
				i++
				if c != '\n' && c != '\r' {
					lastCR = false
				}
				switch {
				case c == '\n' || c == '\r':
					newline(c)
					escaped = false
				case escaped:
					escaped = false
				case inString:
					if c == '\\' {
						escaped = true
					} else if c == '"' {
						inString = false
					}
				case c == '"':
					inString = true
				case c == '{' || c == '[':
					depth++
				case c == '}' || c == ']':
					depth--
				}
			}
			// Up to the bound: the value's first bytes, however the reads
			// split it.
			buf = append(buf, chunk[:min(i, max(bound-len(buf), 0))]...)
			size += i
			br.Discard(i)
		}
		if c := buf[0]; c != '{' && c != '[' && c != '"' {
			// A bare scalar: read up to the next separator.
			for {
				p, err := br.Peek(1)
				if err != nil || bytes.IndexByte([]byte(",] \t\r\n"), p[0]) >= 0 {
					break
				}
				c, _ := next()
				if size++; len(buf) < bound {
					buf = append(buf, c)
				}
			}
		}
		rec, err := Record{File: file, Line: start, Index: index}, error(nil)
		if size > bound {
			rec.Text, err = head(), over(start, index)
		} else {
			rec.Text = string(buf)
		}
		if !yield(rec, err) {
			return
		}
		index++
		expectValue = false
	}
}

// framingStops are the bytes readValues must look at: outside strings
// ([0]) and inside them ([1]).
var framingStops = func() (t [2][256]bool) {
	for _, c := range []byte("\"{}[]\n\r") {
		t[0][c] = true
	}
	for _, c := range []byte("\"\\\n\r") {
		t[1][c] = true
	}
	return t
}()

// ReadSamples reads and parses every sample of a dataset (see ReadRecords).
// A bad sample yields its *LoadError and reading goes on with the next.
func ReadSamples(r io.Reader, file string) iter.Seq2[agentcheck.Sample, error] {
	return samplesOf(ReadRecords(r, file))
}

// samplesOf is ReadSamples of the records read.
func samplesOf(records iter.Seq2[Record, error]) iter.Seq2[agentcheck.Sample, error] {
	return func(yield func(agentcheck.Sample, error) bool) {
		for rec, err := range records {
			if err != nil {
				// A sample over the bound, or the input's error, which
				// ends ReadRecords's sequence itself.
				if !yield(agentcheck.Sample{}, err) {
					return
				}
				continue
			}
			s, err := rec.Sample()
			if !yield(s, err) {
				return
			}
		}
	}
}

// LoadSamples reads a dataset file. It returns every sample that loaded and,
// joined, an error for each one that did not.
func LoadSamples(path string) ([]agentcheck.Sample, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var samples []agentcheck.Sample
	var errs []error
	for s, err := range ReadSamples(f, path) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		samples = append(samples, s)
	}
	return samples, errors.Join(errs...)
}
