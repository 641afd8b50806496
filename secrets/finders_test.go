package secrets

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// FuzzFindersMatchTheirRegexps: the find of each format that has one
// (those made by startsWith, and the Telegram bot token's) finds in a text
// exactly what its regexp finds, as regexp.FindAllStringSubmatchIndex gives
// it; the Discord token's, which also decodes what it finds, is held to its
// regexp by TestDiscordTokensFindWhatTheRegexpMatches. The seeds are texts
// of the formats' literals, runs of their alphabets a little shorter and
// longer than they want, Telegram tokens with a few digits too many or too
// few, and what borders them (spaces, word characters, punctuation,
// non-ASCII and invalid UTF-8).
//
// Run it with go test -run '^$' -fuzz '^FuzzFindersMatchTheirRegexps$' ./secrets.
func FuzzFindersMatchTheirRegexps(f *testing.F) {
	var formats []*keyFormat
	var lits []string
	for i := range keyFormats {
		k := &keyFormats[i]
		switch {
		case k.find == nil || k.name == "Discord bot token":
		case strings.HasPrefix(k.re.src, `\b(?:`):
			lits = append(lits, k.hints...)
			fallthrough
		default:
			formats = append(formats, k)
		}
	}
	if len(formats) < 50 || len(lits) < 50 {
		f.Fatalf("Expected over 50 formats with a finder, and their literals, but found %d and %d", len(formats), len(lits))
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
			if r.IntN(4) == 0 { // a Telegram token, or nearly one
				if r.IntN(2) == 0 {
					b.WriteString(run("bot", 3) + "bot" + run("0123456789", 5+r.IntN(9)) + ":" + run(word+"-", 28+r.IntN(6)))
				} else {
					b.WriteString(run("0123456789", 7+r.IntN(5)) + ":AA" + run(word+"-", 31+r.IntN(5)))
				}
				continue
			}
			b.WriteString(lits[r.IntN(len(lits))])
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
	// Tokens whose runs end where the next one's ":" is.
	tail := strings.Repeat("aB3_-", 7)
	f.Add("bot123456789:" + tail + "bot1234567:" + tail)
	f.Add("bot123456789:" + tail + "12345678:AA" + tail + " ")
	f.Fuzz(func(t *testing.T, s string) {
		for _, k := range formats {
			want := k.re.get().FindAllStringSubmatchIndex(s, -1)
			if got := k.find(s); !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("Expected the %s finder to find %v in %q, as its regexp %s does, but it found %v", k.name, want, s, k.re.src, got)
			}
		}
	})
}
