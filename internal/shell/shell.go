// Package shell quotes words for a POSIX shell, so that a command printed
// in a message (the one that records a cassette anew) can be pasted back
// and shows on a terminal as what it runs, whatever its words hold.
package shell

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Quote quotes s as one word: as it is when it needs no quotes, in single
// quotes when every character shows as itself, else in $'...' (bash, zsh,
// ksh, POSIX.1-2024 sh) with the bytes a terminal would not show as
// themselves written \xHH, so that no control character reaches the
// terminal.
func Quote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=,:@+%", r))
	}) < 0 {
		return s
	}
	if Printable(s) {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\\' || r == '\'':
			b.WriteString(`\` + string(r))
		case r != utf8.RuneError && strconv.IsPrint(r):
			b.WriteString(s[i : i+n])
		default:
			for _, c := range []byte(s[i : i+n]) {
				fmt.Fprintf(&b, `\x%02x`, c)
			}
		}
		i += n
	}
	b.WriteString("'")
	return b.String()
}

// Join quotes each of args with Quote and joins them with spaces.
func Join(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = Quote(a)
	}
	return strings.Join(quoted, " ")
}

// Printable reports whether s is valid UTF-8 that a terminal shows as
// itself: no control, format or other invisible character but the space.
func Printable(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || !strconv.IsPrint(r) {
			return false
		}
	}
	return true
}
