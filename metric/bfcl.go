package metric

import "strings"

// BFCLStrings is the string normaliser of BFCL's AST checker: lower case,
// with spaces and the characters , . / - _ * ^ removed.
func BFCLStrings(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', ',', '.', '/', '-', '_', '*', '^':
			return -1
		}
		return r
	}, strings.ToLower(s))
}
