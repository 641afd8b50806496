package vcr

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// FuzzBlock checks that LineReader.Block reads a literal block as the YAML
// library reads it, or gives up: never another value. A block of text the
// YAML library refuses (not UTF-8, control characters) is read as it is.
//
// Run it with go test -run '^$' -fuzz '^FuzzBlock$' ./internal/vcr.
func FuzzBlock(f *testing.F) {
	for _, s := range [][2]string{
		{"", "first\n            second\n"},
		{"-", "a\n\n            b\n\n"},
		{"+", "a\n               \n  \n"},
		{"", "a\n            \tb\n"},
		{"", "\tfirst tab\n"},
		{"-", "   more indented\n"},
		{"", "\n            after a blank\n"},
		{"+", "x\n        next: 1\n"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, chomp, lines string) {
		if strings.ContainsAny(chomp, "\n#") || strings.ContainsAny(lines, "\r\x00") {
			t.Skip()
		}
		doc := "        body: |" + chomp + "\n" + strings.Repeat(" ", BlockIndent) + lines + "        end: 1\n"
		p := NewLineReader(strings.NewReader(doc))
		p.Advance() // the key
		got, ok := p.Block(chomp)
		if !ok {
			return
		}
		if _, text, _ := p.Peek(); text != "end: 1" {
			return // the block did not end where YAML's would
		}
		var want struct{ Body string }
		if err := yaml.Unmarshal([]byte(doc), &want); err != nil {
			// Text that is not YAML's (bytes that are not UTF-8, control
			// characters) is read as it is: the recorder never writes it
			// in a block, and the check scans it rather than nothing.
			return
		}
		if got != want.Body {
			t.Fatalf("Expected Block to read %q as the YAML library does, but it read %q\n%s", want.Body, got, doc)
		}
	})
}

func TestBlockRefusesWhatYAMLReadsOtherwise(t *testing.T) {
	for _, lines := range []string{"\tfirst tab\n", "   more indented\n", "\n            after a blank\n", "a\u0085b\n", "x\n            a\u2028b\n", "a\u2029\n"} {
		p := NewLineReader(strings.NewReader("            " + lines))
		if s, ok := p.Block(""); ok {
			t.Errorf("Expected Block to refuse %q, but it read %q", lines, s)
		}
	}
}

func TestCheckMappings(t *testing.T) {
	many := func(n int) string {
		var b strings.Builder
		b.WriteString("top:\n  m:\n")
		for i := range n {
			fmt.Fprintf(&b, "    k%d: v\n", i)
		}
		return b.String()
	}
	for _, c := range []struct{ doc, want string }{
		{"a: 1\nb:\n  x: 1\n  y: 2\n  x: 3\n", `line 5: mapping key "x" already defined at line 3`},
		{"a: &a {x: 1}\nb: &b {y: 2}\nc:\n  <<: *a\n  <<: *b\n", `line 5: mapping key "<<" already defined at line 4`},
		{many(MaxMappingKeys + 1), fmt.Sprintf("line 3: a mapping of %d keys, more than the %d any cassette holds", MaxMappingKeys+1, MaxMappingKeys)},
		{many(MaxMappingKeys), ""},
		{"a: &a {x: 1}\nb: *a\nc: *a\n", ""},
	} {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(c.doc), &n); err != nil {
			t.Fatal(err)
		}
		err := CheckMappings(&n)
		var bad *MappingError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("Expected CheckMappings to pass %.40q..., but it refused it: %v", c.doc, err)
		case c.want != "" && (!errors.As(err, &bad) || err.Error() != c.want):
			t.Errorf("Expected CheckMappings to refuse %.40q... with %q, but it returned %v", c.doc, c.want, err)
		}
	}
}
