// Package jsonvalue is the JSON value a tool call's arguments carry: objects
// keep their key order and numbers keep Python's int/float split (1 is an
// Int, 1.0 a Float), as ragas, which compares arguments through Python's
// str(), needs. Parse reads JSON as Python's json module does (NaN and
// Infinity included, its nesting and integer limits too) and locates a
// malformed text by line and column in a *SyntaxError; Of converts Go
// values, and String, Int, Float, Bool, Array and Object build Values,
// whose zero is null. Equal is the one equality of JSON values agentcheck
// uses (10 == 10.0, objects in any key order). A Value reads and writes
// itself through encoding/json unchanged. A Decoder reads a document of a
// known shape step by step with the parser's own scanning and errors,
// building Values only for the parts wanted, in memory it can reuse from
// document to document.
package jsonvalue
