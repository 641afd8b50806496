// Package samplereuse hands package dataset the root package's sample
// parser that reuses its memory from sample to sample, which is no part of
// the root's API: dataset.Parser is its public face. It is typed any
// because this package, which the root imports, cannot name the root's
// Sample.
package samplereuse

// New is set by package agentcheck, which initializes before any package
// that imports it, to a func() func(text string) (agentcheck.Sample,
// error). Each call makes a parser that parses samples as
// agentcheck.ParseSample does, into memory that its next call reuses: the
// Sample it returns is valid only until then.
var New any
