package metric

import "strings"

// BFCLStrings is the string normaliser of BFCL's AST checker
// (standardize_string): the characters space , . / - _ * ^ removed, the
// rest lower-cased as Python's str.lower does (İ becomes i and a combining
// dot), and every ' made a ", so that 'a' and "a" compare equal.
func BFCLStrings(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', ',', '.', '/', '-', '_', '*', '^':
			return -1
		case '\'':
			return '"'
		}
		return r
	}, strings.ToLower(strings.ReplaceAll(s, "\u0130", "i\u0307")))
}
