// Package cutpoints picks where to cut a text when a test holds a reader
// to every cut of it (a cut text is refused, or read as the whole text's
// first part, never read changed): at every byte but those deep inside a
// run of ASCII letters or of one byte repeated, where each cut is the one
// beside it.
package cutpoints

import "strings"

// Matters reports whether the cut s[:i] is to be made: false only when
// s[i-2:i+2] is a run of letters or of one byte, none of it in a \u
// escape, so that the cuts at a run's ends and one byte inside them are
// made and those deeper in it are not. A test that cuts a deeply nested value at
// every byte parses to its depth at each: quadratic, where these cuts
// are linear in the runs.
func Matters(s string, i int) bool {
	if i < 2 || i+2 > len(s) || strings.Contains(s[max(0, i-7):i], `\`) {
		return true
	}
	run := s[i-2 : i+2]
	if strings.Count(run, run[:1]) == len(run) {
		return false
	}
	for _, c := range []byte(run) {
		if c|0x20 < 'a' || c|0x20 > 'z' {
			return true
		}
	}
	return false
}
