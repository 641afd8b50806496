package cutpoints

import (
	"strings"
	"testing"
)

func TestMatters(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want string // the cuts made, as '|' before each byte they come before
	}{
		{"abcdefg", "|a|bcdef|g|"},
		{`{"k": "hello"}`, `|{|"|k|"|:| |"|h|ell|o|"|}|`},
		{"[[[[[[]]]]]]", "|[|[[[[|[|]|]]]]|]|"},
		{`"\u00abcdefg"`, `|"|\|u|0|0|a|b|c|def|g|"|`}, // d and e are past the escape,
		{"ab", "|a|b|"},
		{"", "|"},
	} {
		var b strings.Builder
		for i := 0; i <= len(tc.s); i++ {
			if Matters(tc.s, i) {
				b.WriteByte('|')
			}
			if i < len(tc.s) {
				b.WriteByte(tc.s[i])
			}
		}
		if got := b.String(); got != tc.want {
			t.Errorf("the cuts of %q: got %s, want %s", tc.s, got, tc.want)
		}
	}
}
