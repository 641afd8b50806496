// Package evalsuite runs a dataset of agent cases as a go test: every case
// a subtest named by its id, scored by metric checks with a threshold each
// (overridable per case), then suite gates (the mean of a metric, the pass
// rate, pass@k and pass^k over repeated runs) that fail the parent test with
// an aligned table of only the cases that pulled the gate down, flaky cases
// named. A case is a recorded sample or the user's agent, run Repeat times,
// each run under its own recorder case label (id#run1, id#run2, ...) so that
// recorded judges and agents replay every run from its own cassette
// entries. Scores can be saved as a diff-friendly baseline, the format of
// the agentcheck CLI's --save-baseline, and later runs compared with it: a
// drop beyond a tolerance fails and names the cases; AGENTCHECK_UPDATE_BASELINE=1
// (or Suite.UpdateBaseline) blesses a new baseline the way golden files are
// updated. Scores are also recorded as test attributes (t.Attr, Go 1.25)
// for tools such as gotestsum to pick up. A failing case's message carries
// each bad run's report (the call diff the matchers print, the judges'
// verdicts), also written to the subtest's go test -artifacts directory;
// the suite's run as package report models it (Result.Report) goes to the
// test's as JSON, and to the file AGENTCHECK_REPORT names (.html, .json or
// .md), for agentcheck report to render in any format.
package evalsuite
