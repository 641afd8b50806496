package jsonvalue

// A Decoder reads one JSON document at a time step by step, for a reader
// that knows the document's shape: it walks the objects and arrays it
// knows with NextKey and NextElem, reads the strings it wants with
// ReadString, and builds Values only for the parts it keeps (or skips)
// with Value. The scanning and the errors are Parse's: malformed JSON is a
// *SyntaxError located by line and column in the text, and nesting counts
// against the same limit. A loop over an object's members goes
//
//	for key, more, err := d.NextKey(true); more || err != nil; key, more, err = d.NextKey(false) {
//		if err != nil {
//			return err
//		}
//		// read the member's value: Value, ReadString, or NextKey/NextElem
//	}
//
// and one over an array's elements likewise with NextElem. Strings and
// Values share the text's memory where they can, as Parse's do.
//
// The zero Decoder is ready for Reset or Recycle; a Decoder is not safe for
// concurrent use.
type Decoder struct {
	p parser
}

// perChunk is the size of a Decoder's arena chunk: a reader of a known
// shape builds Values for a part of the text only (the arguments of a
// sample's tool calls are a tenth of a typical sample's JSON).
func perChunk(text string) int { return min(len(text)/48+8, 1024) }

// Reset starts reading text. The Values read from earlier texts stay valid;
// only the Decoder's stack is reused. Strings with escapes are
// unescaped into memory shared by many of them (a textarena.Arena's),
// never written again: made one by one, each call's arguments in OpenAI
// messages (escaped JSON) was half of what a reader of them allocated.
func (d *Decoder) Reset(text string) {
	clear(d.p.stack) // what an error left there
	d.p = parser{src: text, perChunk: perChunk(text), stack: keptStack(d.p.stack), strs: d.p.strs, own: true, maxValues: d.p.maxValues}
}

// Recycle starts reading text as Reset does, but also reuses the memory
// of the Values read since the last Reset: they are valid only until the
// next call of Recycle or Reset (their strings stay valid: they share the
// text's memory, or strings unescaped once). A program that is done with each document before it
// reads the next allocates nothing per document this way once the
// Decoder has warmed up.
func (d *Decoder) Recycle(text string) {
	var arena []Member
	if d.p.recycle && cap(d.p.arena) <= maxKept {
		arena = d.p.arena[:0]
	}
	clear(d.p.stack)
	d.p = parser{src: text, perChunk: perChunk(text), stack: keptStack(d.p.stack), strs: d.p.strs, own: true, arena: arena, recycle: true, maxValues: d.p.maxValues}
}

// maxKept is the most members of a stack or a recycled arena that a
// Decoder keeps from one document for the next: one with a list of a
// million values must not hold on to 70 MB of Members for the small ones
// that follow (as each of the CLI's parsers would).
const maxKept = 1 << 16

// keptStack is stack emptied, for the next document, or nil when it grew
// past maxKept.
func keptStack(stack []Member) []Member {
	if cap(stack) > maxKept {
		return nil
	}
	return stack[:0]
}

// Limit bounds the values a document may hold, every value counted once
// (an object or array, and each value in it, however deep; not the keys):
// reading the value past n, the Decoder stops there with a *LimitError,
// and a Decoder that reads a document whole (Value) never holds more than
// n Values of it. n of 0, the zero Decoder's, sets no bound. The bound
// holds until Limit is called again, across Reset and Recycle, each of
// which starts the count again.
//
// Each value starts with a byte of its own, so a text of no more than n
// bytes never meets the bound; a well-formed document of b bytes holds at
// most (b+1)/2 values (each value takes a byte of its own, a container its
// closing bracket, and each value inside a container one more before it:
// '[', ',' or ':'), but a text cut short may be a value a byte: "[[[[".
func (d *Decoder) Limit(n int) { d.p.maxValues = max(n, 0) }

// Count is how many values the Decoder has read of the document since
// Reset or Recycle, as Limit counts them (Skip's not among them): for a
// reader that bounds several documents together, the values one took.
// After a *LimitError it is one past the bound: the value that met it.
func (d *Decoder) Count() int { return d.p.values }

// Peek skips space and returns the next byte, which tells what comes next
// ('{' an object, '[' an array, '"' a string), or 0 at the end of the text.
func (d *Decoder) Peek() byte {
	p := &d.p
	if p.pos < len(p.src) && p.src[p.pos] > ' ' {
		return p.src[p.pos]
	}
	p.skipSpace()
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

// NextKey reads up to the value of an object's next member: the '{' when
// first is set, else the ',' after the last member's value, then the key
// and the ':' after it. more is false, and the '}' read, when the object
// ends instead. A key given twice comes twice: what to keep is the
// reader's choice (Parse keeps the first position and the last value, as
// a Python dict does).
func (d *Decoder) NextKey(first bool) (key string, more bool, err error) {
	if first {
		if d.Peek() != '{' {
			return "", false, d.p.unexpected(", want an object")
		}
		if err := d.p.count(); err != nil {
			return "", false, err
		}
	}
	return d.p.nextKey(first)
}

// NextElem reads up to an array's next element: the '[' when first is
// set, else the ',' after the last element. more is false, and the ']'
// read, when the array ends instead.
func (d *Decoder) NextElem(first bool) (more bool, err error) {
	if first {
		if d.Peek() != '[' {
			return false, d.p.unexpected(", want an array")
		}
		if err := d.p.count(); err != nil {
			return false, err
		}
	}
	return d.p.nextElem(first)
}

// Value reads the next value whole, as Parse reads a document. depth is
// the number of objects and arrays around it, which count against the
// nesting limit as Parse counts them: 0 for the document itself, 1 for a
// member of the outermost object, and so on.
func (d *Decoder) Value(depth int) (Value, error) {
	if d.Peek() == '{' {
		// As value does: a tool call's arguments, mostly.
		if err := d.p.count(); err != nil {
			return Value{}, err
		}
		return d.p.object(depth + 1)
	}
	return d.p.value(depth)
}

// ReadString reads the next value, which must be a string.
func (d *Decoder) ReadString() (string, error) {
	if d.Peek() != '"' {
		return "", d.p.unexpected(", want a string")
	}
	if err := d.p.count(); err != nil {
		return "", err
	}
	return d.p.str()
}

// Offset is where the reading is: the offset in the text of the byte
// after what was read last.
func (d *Decoder) Offset() int { return d.p.pos }

// Seek moves the reading to offset i of the text (0 to its length), for a
// reader that scanned a stretch of the text itself and reads on from there
// with the Decoder.
func (d *Decoder) Seek(i int) { d.p.pos = min(max(i, 0), len(d.p.src)) }

// End checks that nothing but space is left of the text; what follows is
// a *SyntaxError, "unexpected 'x' after " and what the reader read (Parse
// says "the JSON value").
func (d *Decoder) End(what string) error {
	p := &d.p
	p.skipSpace()
	if p.pos != len(p.src) {
		return p.errorf("unexpected %s after %s", p.describe(), what)
	}
	return nil
}
