// Package plainreason hands agentcheck eval two entry points of package
// report that are no part of its public API, for reasons known to be plain
// JSON text on one line (every byte printable ASCII but '"', '#' and
// '\\', no two spaces in a row), such as the tool-call metrics' reasons on
// calls whose names are so: report then neither looks in them for what to
// fold nor escapes them, two passes over every reason of every case that
// took a tenth of eval's instructions on the spec's vectors. They are typed
// any because this package, which report imports, cannot name report's
// types.
package plainreason

// SetResult is set by package report to a func(c *report.Case, j int, r
// *metric.Result) bool that puts r in c as Case.SetResult does, its reason
// taken to be plain and kept as it is; when it cannot be (a reason longer
// than a case keeps, judges' verdicts), it is Case.SetResult and reports
// false.
var SetResult any

// WriteCase is set by package report to a func(w *report.Writer, c
// *report.Case, plain uint64) error that is w.WriteCase(c) with the
// reasons of the metrics whose bits plain sets (bit j, metric j) taken to
// be plain JSON text, which the JSON formats copy as they are.
var WriteCase any
