package secrets

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// FuzzLiteralStartFinders: the find of each format made by startsWith
// finds in a text exactly what its regexp finds, as
// regexp.FindAllStringSubmatchIndex gives it. The seeds are texts of the
// formats' literals, runs of their alphabets a little shorter and longer
// than they want, and what borders them (spaces, word characters,
// punctuation, non-ASCII and invalid UTF-8).
//
// Run it with go test -run '^$' -fuzz '^FuzzLiteralStartFinders$' ./secrets.
func FuzzLiteralStartFinders(f *testing.F) {
	var formats []*keyFormat
	var lits []string
	for i := range keyFormats {
		if k := &keyFormats[i]; k.find != nil && strings.HasPrefix(k.re.src, `\b(?:`) {
			formats = append(formats, k)
			lits = append(lits, k.hints...)
		}
	}
	if len(formats) < 50 {
		f.Fatalf("Expected the formats made by startsWith, over 50, but found %d", len(formats))
	}
	r := rand.New(rand.NewPCG(20, 26))
	const word = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
	borders := []string{" ", "\n", "_", "-", ".", "+", "/", ":", "=", `"`, "é", "\xff", "a", "Z", "7"}
	run := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
	for range 150 {
		var b strings.Builder
		for range 1 + r.IntN(6) {
			b.WriteString(borders[r.IntN(len(borders))])
			l := lits[r.IntN(len(lits))]
			b.WriteString(l)
			switch r.IntN(4) {
			case 0: // hex, as some keys are
				b.WriteString(run("0123456789abcdef", 10+r.IntN(40)))
			case 1: // upper case and digits
				b.WriteString(run("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", 10+r.IntN(30)))
			case 2: // a literal again, within the run
				b.WriteString(run(word, r.IntN(20)) + lits[r.IntN(len(lits))] + run(word, r.IntN(40)))
			default:
				b.WriteString(run(word+"-", 5+r.IntN(110)))
			}
		}
		b.WriteString(borders[r.IntN(len(borders))])
		f.Add(b.String())
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, k := range formats {
			want := k.re.get().FindAllStringSubmatchIndex(s, -1)
			if got := k.find(s); !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("Expected the %s finder to find %v in %q, as its regexp %s does, but it found %v", k.name, want, s, k.re.src, got)
			}
		}
	})
}
