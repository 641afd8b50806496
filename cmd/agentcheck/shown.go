package main

import (
	"strings"

	"github.com/agentcheck/agentcheck/internal/shown"
)

// What the input says reaches a terminal or a CI log only escaped (package
// internal/shown, which the reports share): these are its functions under
// the names this command has long used.

func shownName(s string) string        { return shown.Name(s) }
func shownNames(names []string) string { return shown.Names(names) }
func shownText(s string) string        { return shown.Text(s) }

// shownLines is an error's text as the command prints it after its own
// "agentcheck <command>: ": without the "agentcheck: " that the library's
// errors start with (the recorder's, the judge's), said once already.
func shownLines(s string) string { return shown.Lines(strings.TrimPrefix(s, "agentcheck: ")) }
func appendShownJSON(b, p []byte) []byte {
	return shown.AppendJSON(b, p)
}
