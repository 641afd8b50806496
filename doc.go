// Package agentcheck is the vocabulary of agentcheck, on the standard
// library alone: a Conversation of Messages with their ToolCalls, whose
// arguments are jsonvalue.Values (JSON that keeps its key order and tells
// 1 from 1.0, as ragas's Python does), and a Sample, a conversation with
// what it should have done, as ragas writes one in JSON (ParseSample).
// Transcripts in an SDK's own types reach it through adapter packages
// (adapters/...), datasets of samples through package dataset; package
// metric scores samples, and agenttest and matchers turn the scores into
// test assertions.
package agentcheck
