package jsonvalue

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/agentcheck/agentcheck/internal/textarena"
	"github.com/agentcheck/agentcheck/internal/wordscan"
)

// parser is a JSON reader that builds Values without losing key order or the
// literal form of numbers, and that reports errors by line and column. It
// works on a string so that strings without escapes are substrings of the
// input, not copies: loading a large dataset is mostly allocation-free.
type parser struct {
	src string
	pos int
	// stack holds the members of the objects and arrays still being read,
	// innermost last; a finished container's members are moved from it into
	// arena, so that each container costs no allocation of its own and a
	// whole document a few (see finish).
	stack []Member
	// stackp is where stack came from, stackPool, to give it back; nil
	// before the first push, and for a Decoder, which keeps its stack.
	stackp *[]Member
	own    bool // stack belongs to a Decoder
	arena  []Member
	// perChunk is how many members an arena chunk holds; 0 means an
	// estimate from the document's length, as for a document of Values only.
	perChunk int
	// recycle is set when the arena is reused from document to document
	// (Decoder.Recycle): finish grows it geometrically so that the reuse
	// settles on one chunk.
	recycle bool
	// scratch is strSlow's memory for a string's unescaped text, reused;
	// strs is a Decoder's instead, kept from document to document.
	scratch []byte
	strs    textarena.Arena
	// general turns flatObject off, for the tests that hold it to the
	// general reading of an object.
	general bool
	// values counts the values read so far (count); maxValues, when
	// above 0, is the most the document may hold (Decoder.Limit).
	values, maxValues int
}

// count counts a value that starts at p.pos, and is the *LimitError once
// the document holds more values than maxValues allows.
func (p *parser) count() error {
	p.values++
	if p.values > p.maxValues && p.maxValues > 0 {
		return &LimitError{Max: p.maxValues, Offset: p.pos}
	}
	return nil
}

// LimitError is a document that holds more values than a Decoder's Limit
// allows: the reading stops at the value past the limit, which starts at
// Offset in the text.
type LimitError struct {
	Max    int
	Offset int
}

// Error is "more than Max JSON values".
func (e *LimitError) Error() string { return fmt.Sprintf("more than %d JSON values", e.Max) }

// stackPool recycles parser stacks between documents.
var stackPool = sync.Pool{New: func() any { return new([]Member) }}

// release gives the parser's stack back for reuse. A parser that is not
// released just leaves its stack to the garbage collector.
func (p *parser) release() {
	if p.stackp == nil {
		return
	}
	// Drop references into the document: finish clears what it pops, so
	// only what an error left on the stack remains.
	clear(p.stack)
	*p.stackp = p.stack[:0]
	stackPool.Put(p.stackp)
	p.stack, p.stackp = nil, nil
}

func (p *parser) push(m Member) {
	if p.stackp == nil && !p.own {
		p.stackp = stackPool.Get().(*[]Member)
		p.stack = *p.stackp
	}
	if len(p.stack) == cap(p.stack) && len(p.stack) >= bigContainer {
		// Doubled, not by append's quarter: a list of a million values
		// grew the stack some thirty times, each time into fresh memory
		// and a copy, and the copies were most of its reading.
		p.stack = slices.Grow(p.stack, len(p.stack))
	}
	p.stack = append(p.stack, m)
}

// finish moves the members pushed since mark into the arena and returns
// them as an exactly sized slice; appending to it cannot write into its
// neighbours. Arena chunks are sized from the length of the document, so
// that a typical document needs one.
func (p *parser) finish(mark int) []Member {
	n := len(p.stack) - mark
	if n == 0 {
		return []Member{}
	}
	if n > bigContainer && mark <= n/8 {
		// The members are most of the stack: they stay where they are,
		// the container's own, and the stack starts again in fresh
		// memory with the few below them. Moved into the arena, they
		// would be written once more, into memory as large, and the
		// next chunk of a recycling arena twice as large: a list of
		// 2,000,000 zeros took five times its Members, and its reading
		// went mostly on touching that fresh memory.
		elems := p.stack[mark:len(p.stack):len(p.stack)]
		rest := make([]Member, mark, max(2*mark, 16))
		copy(rest, p.stack[:mark])
		clear(p.stack[:mark])
		p.stack = rest
		return elems
	}
	if cap(p.arena)-len(p.arena) < n {
		p.arena = p.newChunk(n)
	}
	start := len(p.arena)
	p.arena = append(p.arena, p.stack[mark:]...)
	clear(p.stack[mark:])
	p.stack = p.stack[:mark]
	return p.arena[start:len(p.arena):len(p.arena)]
}

// newChunk is a new chunk of the arena, for at least n members.
func (p *parser) newChunk(n int) []Member {
	size := p.perChunk
	if size == 0 {
		// A member takes 16 bytes of JSON or more; the cap keeps a
		// large document from reserving much more than it needs.
		size = min(len(p.src)/16+8, 1024)
	}
	size = max(n, size)
	if p.recycle {
		size = max(size, 2*cap(p.arena))
	}
	return make([]Member, 0, size)
}

// bigContainer is the most members of an object or array that finish
// always moves into the arena; a larger one may keep the stack's memory
// (finish), whose growth from there doubles it (push).
const bigContainer = 1 << 12

// maxDepth matches the nesting at which Python's json module gives up with
// a RecursionError, so that a sample ragas cannot load is an error here too.
const maxDepth = 990

// maxIntDigits is Python's default limit on int literal length
// (sys.get_int_max_str_digits); longer literals fail to load in ragas.
const maxIntDigits = 4300

// SyntaxError is malformed JSON, located by line and column (1-based).
type SyntaxError struct {
	Line, Column int
	Offset       int
	Msg          string
}

// Error is "line l, column c: " and the problem.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

func (p *parser) errorf(format string, args ...any) error {
	return p.errorAt(p.pos, format, args...)
}

func (p *parser) errorAt(pos int, format string, args ...any) error {
	// Lines end with LF, CRLF or CR, all of which JSON reads as spaces.
	before := p.src[:pos]
	line := 1 + strings.Count(before, "\n") + strings.Count(before, "\r") - strings.Count(before, "\r\n")
	col := pos - strings.LastIndexAny(before, "\r\n")
	return &SyntaxError{Line: line, Column: col, Offset: pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) describe() string {
	if p.pos >= len(p.src) {
		return "end of input"
	}
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return strconv.QuoteRune(r)
}

// at reports whether the next byte is c.
func (p *parser) at(c byte) bool { return p.pos < len(p.src) && p.src[p.pos] == c }

// literal consumes word if it comes next.
func (p *parser) literal(word string) bool {
	if strings.HasPrefix(p.src[p.pos:], word) {
		p.pos += len(word)
		return true
	}
	return false
}

func (p *parser) skipSpace() { p.pos = spaceEnd(p.src, p.pos) }

// isSpace marks the bytes JSON reads as space: one test a byte.
var isSpace = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

func (p *parser) value(depth int) (Value, error) {
	if p.pos >= len(p.src) {
		return Value{}, p.errorf("unexpected end of input, want a value")
	}
	if err := p.count(); err != nil {
		return Value{}, err
	}
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		s, err := p.str()
		return Value{kind: StringKind, s: s}, err
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case strings.HasPrefix(p.src[p.pos:], "true"):
		p.pos += 4
		return Bool(true), nil
	case strings.HasPrefix(p.src[p.pos:], "false"):
		p.pos += 5
		return Bool(false), nil
	case strings.HasPrefix(p.src[p.pos:], "null"):
		p.pos += 4
		return Value{}, nil
	case strings.HasPrefix(p.src[p.pos:], "NaN"):
		p.pos += 3
		return Float(nan), nil
	case strings.HasPrefix(p.src[p.pos:], "Infinity"):
		p.pos += 8
		return Float(inf), nil
	}
	return Value{}, p.errorf("unexpected %s, want a value", p.describe())
}

func (p *parser) object(depth int) (Value, error) {
	if depth > maxDepth {
		return Value{}, p.errorf("nesting deeper than %d levels", maxDepth)
	}
	mark, start := len(p.stack), p.pos
	var (
		key   string
		more  bool
		err   error
		index map[string]int // addMember's, once the object is large
	)
	if !p.general {
		var v Value
		var ok bool
		if v, key, ok = p.flatObject(); ok {
			return v, nil
		}
		// Stopped at a member whose value is an object or an array, its
		// key read and the members before it on the stack, or at the start.
		more = p.pos != start
	}
	if !more {
		key, more, err = p.nextKey(true)
	}
	for ; more || err != nil; key, more, err = p.nextKey(false) {
		if err != nil {
			return Value{}, err
		}
		v, err := p.value(depth)
		if err != nil {
			return Value{}, err
		}
		p.addMember(mark, key, v, &index)
	}
	return Value{kind: ObjectKind, s: p.src[start:p.pos], elems: p.finish(mark)}, nil
}

// flatObject reads the object at p.pos as object does when its values are
// all scalars (a tool call's arguments mostly are), writing its members
// straight into the arena rather than onto the stack and then into the
// arena, and returns it with true. At a value that is an object or an
// array it stops, the members it read moved onto the stack and p.pos at
// the value, and returns that member's key and false, for object to go on
// from there. For anything else (a key or string with an escape, NaN or
// Infinity, no room left in the arena's chunk, malformed JSON, which
// object then reports) it returns false with nothing read. The loop keeps
// the offset in a register and reads keys and strings itself, a number
// or a literal alone a call (scalarAt): through nextKey and value, the
// arguments of a generated sample took a third more instructions
// (callgrind).
func (p *parser) flatObject() (Value, string, bool) {
	// The arena in a local, written back as the loop ends: kept in p, each
	// member reloaded and stored its header.
	src, arena := p.src, p.arena
	start, pos, values := len(arena), p.pos, p.values
	n := 0
	i := spaceEnd(src, pos+1) // after the '{'
	if i < len(src) && src[i] == '}' {
		p.pos = i + 1
		return Value{kind: ObjectKind, s: src[pos:p.pos], elems: []Member{}}, "", true
	}
	for {
		// The key.
		if i >= len(src) || src[i] != '"' {
			break
		}
		end, high := wordscan.StringEnd(src, i+1)
		if end == len(src) || src[end] != '"' {
			break // an escape, a control character or the end
		}
		key := src[i+1 : end]
		if high && !utf8.ValidString(key) {
			break
		}
		// The colon: ": " as JSON is mostly written, else any space.
		if i = end + 1; i+2 < len(src) && src[i] == ':' && src[i+1] == ' ' && src[i+2] > ' ' {
			i += 2
		} else {
			if i = spaceEnd(src, i); i >= len(src) || src[i] != ':' {
				break
			}
			if i = spaceEnd(src, i+1); i >= len(src) {
				break
			}
		}
		// The value: a scalar, counted here (a container is counted by
		// value, as object reads it); past the limit, object reads the
		// object again and reports it.
		var v Value
		if c := src[i]; c != '{' && c != '[' {
			if p.values++; p.values > p.maxValues && p.maxValues > 0 {
				goto fail
			}
		}
		switch c := src[i]; {
		case c == '"':
			end, high := wordscan.StringEnd(src, i+1)
			if end == len(src) || src[end] != '"' {
				goto fail
			}
			v = Value{kind: StringKind, s: src[i+1 : end]}
			if high && !utf8.ValidString(v.s) {
				goto fail
			}
			i = end + 1
		case c >= '0' && c <= '9' || c == '-' || c == 't' || c == 'f' || c == 'n':
			var ok bool
			if v, i, ok = p.scalarAt(i); !ok {
				goto fail
			}
		case c == '{' || c == '[':
			// The members read go onto the stack, as object reads them.
			for _, m := range arena[start : start+n] {
				p.push(m)
			}
			clear(arena[start : start+n])
			p.arena, p.pos = arena[:start], i
			return Value{}, key, false
		default:
			goto fail // NaN, Infinity, or malformed
		}
		{
			// A key given again keeps its first place and takes the last
			// value, as addMember does.
			members := arena[start : start+n]
			if n == largeObject {
				// A large object is read by object, whose
				// addMember finds a key given again in a map.
				goto fail
			}
			dup := false
			for j := range members {
				if members[j].Key == key {
					members[j].Value, dup = v, true
					break
				}
			}
			if !dup {
				if start+n == cap(arena) {
					goto fail
				}
				arena = arena[:start+n+1]
				arena[start+n] = Member{key, v}
				n++
			}
		}
		// What follows the value: ", " before the next key as JSON is
		// mostly written, else any space and ',' or '}'.
		if i+2 < len(src) && src[i] == ',' && src[i+1] == ' ' && src[i+2] == '"' {
			i += 2
			continue
		}
		if i = spaceEnd(src, i); i >= len(src) {
			break
		}
		if src[i] == '}' {
			p.arena, p.pos = arena, i+1
			if n == 0 {
				return Value{kind: ObjectKind, s: src[pos:p.pos], elems: []Member{}}, "", true
			}
			return Value{kind: ObjectKind, s: src[pos:p.pos], elems: arena[start : start+n : start+n]}, "", true
		}
		if src[i] != ',' {
			break
		}
		i = spaceEnd(src, i+1)
	}
fail:
	clear(arena[start : start+n])
	p.arena, p.pos, p.values = arena[:start], pos, values
	return Value{}, "", false
}

// scalarAt reads the number, true, false or null at p.src[i], as
// flatObject, escapedFlat and escapedValue read one, and returns the
// offset after it.
func (p *parser) scalarAt(i int) (Value, int, bool) {
	src := p.src
	if c := src[i]; c != 't' && c != 'f' && c != 'n' {
		p.pos = i
		v, err := p.number()
		return v, p.pos, err == nil
	}
	switch {
	case strings.HasPrefix(src[i:], "true"):
		return Value{kind: BoolKind, s: "True", f: 1}, i + 4, true
	case strings.HasPrefix(src[i:], "false"):
		return Value{kind: BoolKind, s: "False"}, i + 5, true
	case strings.HasPrefix(src[i:], "null"):
		return Value{}, i + 4, true
	}
	return Value{}, i, false
}

// spaceEnd is the offset of the first byte at or after i that is not
// JSON's space.
func spaceEnd(src string, i int) int {
	for i < len(src) && isSpace[src[i]] {
		i++
	}
	return i
}

// nextKey and nextElem are the steps of reading an object or an array,
// which object and array take, and which a Decoder takes to read the parts
// of a document it knows without building Values for them: the same
// scanning and the same errors either way. A loop over an
// object's members goes
//
//	for key, more, err := p.nextKey(true); more || err != nil; key, more, err = p.nextKey(false) {
//		if err != nil { ... }
//		// read the member's value
//	}

// nextKey reads up to the value of an object's next member: the '{' at
// p.pos when open is set, else the ',' after the last member's value, then
// the key and the ':' after it. more is false, and the '}' read, when the
// object ends instead.
func (p *parser) nextKey(open bool) (key string, more bool, err error) {
	if open {
		p.pos++ // {
		p.skipSpace()
		if p.at('}') {
			p.pos++
			return "", false, nil
		}
	} else if i := p.pos; i+2 < len(p.src) && p.src[i] == ',' && (p.src[i+1] == '"' || p.src[i+1] == ' ' && p.src[i+2] == '"') {
		// The usual layout: ',' and one space or none before the key.
		p.pos = i + 1
		if p.src[p.pos] == ' ' {
			p.pos++
		}
	} else {
		p.skipSpace()
		if p.pos >= len(p.src) {
			return "", false, p.errorf("unexpected end of input in object")
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
			p.skipSpace()
		case '}':
			p.pos++
			return "", false, nil
		default:
			return "", false, p.unexpected(" in object, want ',' or '}'")
		}
	}
	if !p.at('"') {
		return "", false, p.unexpected(", want an object key")
	}
	if key, err = p.str(); err != nil {
		return "", false, err
	}
	// The usual layout, ':' and one space or none before the value, in
	// a few tests; anything else the general way.
	if i := p.pos; i+2 < len(p.src) && p.src[i] == ':' {
		if p.src[i+1] > ' ' {
			p.pos = i + 1
			return key, true, nil
		}
		if p.src[i+1] == ' ' && p.src[i+2] > ' ' {
			p.pos = i + 2
			return key, true, nil
		}
	}
	p.skipSpace()
	if !p.at(':') {
		return "", false, p.unexpected(" after object key, want ':'")
	}
	p.pos++
	p.skipSpace()
	return key, true, nil
}

// nextElem reads up to an array's next element: the '[' at p.pos when
// open is set, else the ',' after the last element. more is false, and the
// ']' read, when the array ends instead.
func (p *parser) nextElem(open bool) (more bool, err error) {
	if open {
		p.pos++ // [
		p.skipSpace()
		if p.at(']') {
			p.pos++
			return false, nil
		}
		return true, nil
	}
	p.skipSpace()
	if p.pos >= len(p.src) {
		return false, p.errorf("unexpected end of input in array")
	}
	switch p.src[p.pos] {
	case ',':
		p.pos++
		p.skipSpace()
		return true, nil
	case ']':
		p.pos++
		return false, nil
	}
	return false, p.unexpected(" in array, want ',' or ']'")
}

// unexpected is the error for what comes next, which is not what was
// wanted: "unexpected 'x'" and then what.
func (p *parser) unexpected(what string) error {
	return p.errorf("unexpected %s%s", p.describe(), what)
}

// addMember appends a member to the object whose members start at mark,
// or, for a key already present, replaces its value in place: a Python dict
// keeps the first position and the last value. Past largeObject members
// the keys are looked up in *index, each key's position from mark, made
// then and kept by the caller for the object's next members: searched one
// by one, an object of 70,000 keys took 16 s to read.
func (p *parser) addMember(mark int, key string, v Value, index *map[string]int) {
	elems := p.stack[mark:]
	if *index == nil && len(elems) < largeObject {
		for i := range elems {
			if elems[i].Key == key {
				elems[i].Value = v
				return
			}
		}
		p.push(Member{key, v})
		return
	}
	if *index == nil {
		*index = make(map[string]int, 2*len(elems))
		for i := range elems {
			(*index)[elems[i].Key] = i // the keys are distinct so far
		}
	}
	if i, ok := (*index)[key]; ok {
		elems[i].Value = v
		return
	}
	(*index)[key] = len(elems)
	p.push(Member{key, v})
}

// largeObject is how many members an object holds before its keys are
// looked up in a map rather than one by one.
const largeObject = 64

func (p *parser) array(depth int) (Value, error) {
	if depth > maxDepth {
		return Value{}, p.errorf("nesting deeper than %d levels", maxDepth)
	}
	mark, start := len(p.stack), p.pos
	for more, err := p.nextElem(true); more || err != nil; more, err = p.nextElem(false) {
		if err != nil {
			return Value{}, err
		}
		v, err := p.value(depth)
		if err != nil {
			return Value{}, err
		}
		p.push(Member{Value: v})
	}
	return Value{kind: ArrayKind, s: p.src[start:p.pos], elems: p.finish(mark)}, nil
}
