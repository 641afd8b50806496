// Package shown writes text from the input (a sample's id, a file's name,
// a message, an error about them) so that it reaches a terminal or a CI log
// only escaped: a control character could move the cursor or recolour the
// terminal, a line break could start a line of its own, and a line that
// starts with "::" (or holds "##[") is a command to GitHub Actions' runner
// (::error::, ::add-mask::, ::stop-commands::). JSON and XML escape by their
// own rules; the table, the reports and the messages use these.
package shown

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agentcheck/agentcheck/internal/shell"
)

// Name is a name from the input (a sample's id, a file's name) as it
// prints: as it is when it shows as itself and cannot be taken for
// anything else (a colon at either end could make "::" with the text
// around it), else quoted as Go quotes a string (strconv.Quote), which
// writes every such character as an escape.
func Name(s string) string {
	if s == "" || !shell.Printable(s) || s[0] == '"' || strings.TrimSpace(s) != s ||
		strings.Contains(s, "::") || s[0] == ':' || s[len(s)-1] == ':' || strings.Contains(s, "##[") {
		return strings.ReplaceAll(strconv.Quote(s), "##[", `#\x23[`)
	}
	return s
}

// Names is Name of each of names, joined with ", ".
func Names(names []string) string {
	shown := make([]string, len(names))
	for i, n := range names {
		shown[i] = Name(n)
	}
	return strings.Join(shown, ", ")
}

// Text is text from the input, or an error about it, as it prints on
// one line: the characters a terminal would not show as themselves, line
// breaks included, written as Go escapes them (\n, \x1b, \u202e), and
// "##[" written "#\x23[", so that the text stays on its line and says
// nothing to the runner.
func Text(s string) string {
	if shell.Printable(s) && !strings.Contains(s, "##[") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x` + strconv.FormatUint(uint64(s[i]), 16))
		case strconv.IsPrint(r):
			b.WriteString(s[i : i+n])
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += n
	}
	return strings.ReplaceAll(b.String(), "##[", `#\x23[`)
}

// Lines is Text for a message of several lines, such as an error
// that says how to record a cassette: its own line breaks stay, and a line
// that would read as a runner command is quoted.
func Lines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l = Text(l); runnerCommand(l) {
			l = strconv.Quote(l)
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}

// AppendJSON appends p, a JSON string, with the characters a terminal
// would not show as themselves written \uXXXX and "##[" as "#\u0023[": the
// same string to a JSON reader, and nothing for a terminal or the runner to
// act on.
func AppendJSON(b, p []byte) []byte {
	if shell.Printable(string(p)) && !bytes.Contains(p, []byte("##[")) {
		return append(b, p...)
	}
	start := len(b)
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRune(p[i:])
		if r != utf8.RuneError && strconv.IsPrint(r) {
			b = append(b, p[i:i+n]...)
		} else {
			if r == utf8.RuneError && n == 1 {
				r = utf8.RuneError // a JSON reader reads an invalid byte so
			}
			for _, u := range utf16.AppendRune(nil, r) {
				b = fmt.Appendf(b, `\u%04x`, u)
			}
		}
		i += n
	}
	return append(b[:start], bytes.ReplaceAll(b[start:], []byte("##["), []byte(`#\u0023[`))...)
}

// runnerCommand reports whether the line l reads as a command to GitHub
// Actions' runner, which trims the spaces before it.
func runnerCommand(l string) bool {
	return strings.HasPrefix(strings.TrimLeft(l, " \t"), "::") || strings.Contains(l, "##[")
}
