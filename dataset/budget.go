package dataset

import (
	"strings"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/internal/samplereuse"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// valueBudget is what is left of a sample's bound on the JSON values it
// may hold (a bounded Parser's, samplereuse.BoundValues) once its own text
// is read: the values of its calls' arguments written as JSON strings
// (OpenAI's and the Responses API's "arguments"), parsed after it, count
// toward the same bound. A nil *valueBudget bounds nothing: the public
// readers' way, and a Parser's without a bound.
type valueBudget struct {
	max, left int    // the bound, and what the values read so far left of it
	name      string // what sets the bound (a flag), for its error
	// decs, when not nil, are the Parser's Decoders for the arguments,
	// whose memory is reused from sample to sample.
	decs *argDecoders
}

// newBudget is the budget of a sample of used values under a bound of
// maxValues, which name sets: nil when maxValues is 0, no bound. The
// sample's arguments are read by decs's Decoders, when it is not nil.
func newBudget(maxValues, used int, name string, decs *argDecoders) *valueBudget {
	if maxValues <= 0 {
		return nil
	}
	decs.reset()
	return &valueBudget{max: maxValues, left: maxValues - used, name: name, decs: decs}
}

// argDecoders are a Parser's Decoders for a sample's arguments strings,
// one each, reused from sample to sample (the Sample the Parser gives is
// valid only until its next call): a Decoder of its own for each, made
// anew, took half the memory a provider's sample allocated. Past
// maxArgDecoders a sample's arguments each get a Decoder made for them,
// so that one sample of many calls does not keep their memory for all.
type argDecoders struct {
	ds []*jsonvalue.Decoder
	n  int // the Decoders the sample has taken
}

const maxArgDecoders = 64

func (a *argDecoders) reset() {
	if a != nil {
		a.n = 0
	}
}

// next is a Decoder for the sample's next arguments text, to be
// Recycled.
func (a *argDecoders) next() *jsonvalue.Decoder {
	if a == nil || a.n >= maxArgDecoders {
		return new(jsonvalue.Decoder)
	}
	if a.n == len(a.ds) {
		a.ds = append(a.ds, new(jsonvalue.Decoder))
	}
	a.n++
	return a.ds[a.n-1]
}

// arguments reads a call's arguments written as JSON text as
// agentcheck.ParseArguments does (args; invalid, the text, when it is not
// valid JSON), counting the values the text holds against what is left of
// the bound: past it, the error a sample over the bound gives
// (samplereuse.ValuesError, a *jsonvalue.LimitError within). A text that
// is not valid JSON holds no values, kept as written, wherever its fault
// is: one that meets the bound first is checked to its end without
// building anything (jsonvalue.Decoder.Skip).
func (b *valueBudget) arguments(text string) (args jsonvalue.Value, invalid string, err error) {
	if b == nil {
		args, invalid = agentcheck.ParseArguments(text)
		return args, invalid, nil
	}
	if strings.TrimSpace(text) == "" {
		return jsonvalue.Object(), "", nil
	}
	d := b.decs.next()
	d.Recycle(text)
	// The value past the bound: the first when nothing is left (Limit(0)
	// would bound nothing), found only then.
	var past *jsonvalue.LimitError
	over := b.left <= 0
	if over {
		past = &jsonvalue.LimitError{Offset: len(text) - len(strings.TrimLeft(text, " \t\r\n"))}
	} else {
		d.Limit(b.left)
		args, err = d.Value(0)
		if err == nil {
			err = d.End("the JSON value")
		}
		if le, ok := err.(*jsonvalue.LimitError); ok {
			past, over = le, true
		}
	}
	if over {
		d.Recycle(text)
		d.Limit(0)
		if _, err = d.Skip(0); err == nil {
			err = d.End("the JSON value")
		}
		if err != nil {
			return jsonvalue.Value{}, text, nil
		}
		// The sample's bound, not what was left of it; the offset is
		// the arguments text's.
		return jsonvalue.Value{}, "", samplereuse.ValuesError(&jsonvalue.LimitError{Max: b.max, Offset: past.Offset}, b.name)
	}
	if err != nil {
		return jsonvalue.Value{}, text, nil
	}
	b.left -= d.Count()
	if args.Kind() == jsonvalue.NullKind {
		return jsonvalue.Object(), "", nil
	}
	return args, "", nil
}
