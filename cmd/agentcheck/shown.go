package main

import "github.com/agentcheck/agentcheck/internal/shown"

// What the input says reaches a terminal or a CI log only escaped (package
// internal/shown, which the reports share): these are its functions under
// the names this command has long used.

func shownName(s string) string        { return shown.Name(s) }
func shownNames(names []string) string { return shown.Names(names) }
func shownText(s string) string        { return shown.Text(s) }
func shownLines(s string) string       { return shown.Lines(s) }
func appendShownJSON(b, p []byte) []byte {
	return shown.AppendJSON(b, p)
}
