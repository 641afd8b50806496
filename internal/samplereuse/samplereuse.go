// Package samplereuse hands on the readers that reuse their memory from
// sample to sample, which are no part of the public API: the root
// package's sample parser, which dataset.Parser is the public face of, and
// dataset's record reader, which agentcheck eval reads with. They are
// typed any because this package, which the root and dataset import,
// cannot name their types.
package samplereuse

import "fmt"

// New is set by package agentcheck, which initializes before any package
// that imports it, to a func(rawText bool) func(text string)
// (agentcheck.Sample, error). Each call makes a parser that parses samples
// as agentcheck.ParseSample does, into memory that its next call reuses:
// the Sample it returns is valid only until then. With rawText, a
// message's text that holds escapes is its JSON text as written, its
// escapes checked but not read: for a caller that reads no message's text
// (agentcheck eval scoring tool calls only).
var New any

// NewInto is set by package agentcheck to a func(rawText bool, maxValues
// int, boundName string) func(text string, s *agentcheck.Sample) error:
// New's parser, the Sample set in *s rather than returned (a Sample is
// thirteen words, copied by each function that returns it), with a bound
// on the JSON values a sample may hold (none when maxValues is 0); a
// sample that holds more is an error, which names the bound by boundName
// when it is set (a flag that sets it).
var NewInto any

// NewRefs is set by package agentcheck to a func(rawText bool) RefReader:
// a reader of a sample's id and references where they stand in a record of
// another format, as NewInto's parser reads them in a ragas sample of their
// own. It bounds no values: its caller gives it only a record that cannot
// hold more than the bound.
var NewRefs any

// RefReader reads the id and references ("id", "reference",
// "reference_tool_calls") of one record at a time, each read as the
// record's reader meets it, and gives the Sample they make, the
// conversation empty. What it does not take (ok false), the caller reads
// as before, by NewInto's parser.
type RefReader interface {
	// Start begins a record; text is the record's.
	Start(text string)
	// Read reads the value of the field key at offset i of the text, and
	// returns the offset after it. calls, an *[]agentcheck.ToolCall or
	// nil, are the record's calls read so far, whose arguments a
	// reference call's may share.
	Read(key string, i int, calls any) (end int, ok bool)
	// Finish sets s, an *agentcheck.Sample, to what was read.
	Finish(s any) bool
}

// SampleInto is set by package dataset to a func(p *dataset.Parser, r
// dataset.Record, s *agentcheck.Sample) error: p.Sample(r), the Sample set
// in *s.
var SampleInto any

// BoundValues is set by package dataset to a func(p *dataset.Parser,
// maxValues int, boundName string) that makes the parser parse as
// NewInto does, and read a sample of another format with the same
// bound.
var BoundValues any

// KeepRawText is set by package dataset to a func(*dataset.Parser) that
// makes the parser parse as New(true) does.
var KeepRawText any

// ReadRecords is set by package dataset to a func(r io.Reader, file
// string, bound int, boundName string, blockEnd func())
// iter.Seq2[dataset.Record, error] that reads as dataset.ReadRecords does,
// but JSON Lines into one block of memory over and over, and with bound,
// not 64 MiB, the most bytes a sample may hold; its error names boundName,
// what sets it. A JSON Lines record's Text is valid until blockEnd, when
// it is not nil, is called (before the block is read into again), else
// only until the next record is read; other records' Texts are their own.
var ReadRecords any

// ReadOTLPTraces is set by package dataset to a func(r io.Reader, file
// string, maxBytes int, bytesName string, maxValues int, valuesName
// string, maxHeld int, heldName string) iter.Seq2[dataset.TraceSample,
// error] that reads as dataset.ReadOTLPTraces does, with maxBytes the
// most bytes one export and one trace's kept attributes may hold,
// maxValues the most JSON values one export may hold, and maxHeld the most
// bytes all traces may hold at once; each error at a bound names what
// sets it (bytesName, valuesName, heldName).
var ReadOTLPTraces any

// ValuesError words a *jsonvalue.LimitError, a sample's reading stopped at
// the bound on its values, as the sample's error, the same from the root's
// decoder and dataset's other formats: the sample holds more than the
// bound's JSON values, the most one sample may hold, and what sets the
// bound (boundName, a flag) when it is set.
func ValuesError(err error, boundName string) error {
	if boundName != "" {
		boundName = " (" + boundName + ")"
	}
	return fmt.Errorf("the sample holds %w, the most one sample may hold%s", err, boundName)
}
