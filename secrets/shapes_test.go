package secrets

import (
	"encoding/base64"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// FuzzFormatHints checks that formatsIn never leaves out a key format whose
// regexp matches the text: a format's hints must be in every text it
// matches, or scan would miss the key. A format whose regexp starts with \b
// then its hints as alternatives (55 of them, those startsWith makes among
// them) matches only a text that holds one: formatsIn must hold it for
// every text that does, which is checked instead of running its regexp
// (more strictly: a match implies a hint, not the other way round).
//
// Run it with go test -run '^$' -fuzz '^FuzzFormatHints$' ./secrets.
func FuzzFormatHints(f *testing.F) {
	hex := strings.Repeat("0123456789abcdef", 5)
	mixed := strings.Repeat("a1B2c3D4e5_-", 10)
	for _, k := range keyFormats {
		for _, h := range k.hints {
			f.Add("x " + h + mixed)
			f.Add(`{"k":"` + hex[:32] + h + "1" + hex + `"}`)
			f.Add("Authorization: Bearer " + h + hex + mixed)
		}
	}
	f.Add("postgres://user:p4ssw0rd@db.example")
	f.Add("https://discord.com/api/webhooks/123456789/" + mixed)
	f.Add("-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----")
	f.Add("bot123456789:" + mixed)
	f.Add("eyJhbGciOi.eyJzdWIiOi.sig")
	f.Add("MTA4NzY1NDMyMTA5ODc2NTQz.GxYz12." + mixed[:30])
	hintsFirst := make([]bool, len(keyFormats)) // the regexp starts with \b(?:hint|hint…)
	for i, k := range keyFormats {
		quoted := make([]string, len(k.hints))
		for j, h := range k.hints {
			quoted[j] = regexp.QuoteMeta(h)
		}
		hintsFirst[i] = len(k.hints) > 0 && strings.HasPrefix(k.re.src, `\b(?:`+strings.Join(quoted, "|")+`)`)
	}
	// The seeds run one after another: at once, under -race, they took
	// half as much CPU again, and no less time.
	f.Fuzz(func(t *testing.T, s string) {
		set := formatsIn(s)
		for i, k := range keyFormats {
			switch {
			case set.has(i):
			case hintsFirst[i]:
				for _, h := range k.hints {
					if strings.Contains(s, h) {
						t.Fatalf("Expected formatsIn to hold %s for %q, which holds its hint %q, but it does not", k.name, s, h)
					}
				}
			case k.re.get().MatchString(s):
				t.Fatalf("Expected formatsIn to hold %s for %q, which its regexp matches, but it does not", k.name, s)
			}
		}
	})
}

// containsFold is strings.Contains of the lower-cased text, on every
// string of a small alphabet up to 7 bytes and on random longer ones.
func TestContainsFold(t *testing.T) {
	alphabet := []string{"b", "B", "e", "E", "a", "A", "r", "R", " ", "é"}
	check := func(s string) {
		if got, want := containsFold(s, "bear"), strings.Contains(strings.ToLower(s), "bear"); got != want {
			t.Fatalf("Expected containsFold(%q, \"bear\") to be %v", s, want)
		}
	}
	var all func(prefix string, n int)
	all = func(prefix string, n int) {
		check(prefix)
		if n == 0 {
			return
		}
		for _, a := range alphabet {
			all(prefix+a, n-1)
		}
	}
	all("", 5)
	r := rand.New(rand.NewPCG(5, 6))
	for range 5000 {
		var b strings.Builder
		for range r.IntN(60) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		check(b.String())
	}
}

// TestDiscordTokensFindWhatTheRegexpMatches: the Discord format's finder
// finds, in generated texts, exactly the regexp's matches whose first part
// is a numeric id in base64, and no token whose id is not one.
func TestDiscordTokensFindWhatTheRegexpMatches(t *testing.T) {
	f := keyFormats[slices.IndexFunc(keyFormats, func(k keyFormat) bool { return k.name == "Discord bot token" })]
	r := rand.New(rand.NewPCG(3, 9))
	const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
	run := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
	found := 0
	for range 3000 {
		var id string
		switch r.IntN(3) {
		case 0: // a numeric id: a token
			id = base64.RawURLEncoding.EncodeToString([]byte(run("123456789", 1) + run("0123456789", 15+r.IntN(7))))
		case 1: // the same shape, no id
			id = run("MNO", 1) + run(b64, 21+r.IntN(7))
		default: // an id of letters
			id = base64.RawURLEncoding.EncodeToString([]byte(run("abcdefgh", 16+r.IntN(4))))
		}
		text := run(" ,;:\"'(x", r.IntN(3)) + id + "." + run(b64, 5+r.IntN(3)) + "." + run(b64, 25+r.IntN(16)) + run(" ,;\")'.", r.IntN(3))
		var want [][]int
		for _, m := range f.re.get().FindAllStringSubmatchIndex(text, -1) {
			m = m[2:]
			if d, err := base64.RawURLEncoding.DecodeString(text[m[0] : strings.IndexByte(text[m[0]:], '.')+m[0]]); err == nil &&
				len(d) >= 17 && strings.Trim(string(d), "0123456789") == "" {
				want = append(want, m)
			}
		}
		got := discordTokens(text)
		found += len(got)
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("Expected discordTokens(%q) to be %v, as the regexp says, but it is %v", text, want, got)
		}
	}
	if found < 100 {
		t.Fatalf("Expected at least 100 tokens among the generated texts, but %d were found", found)
	}
}

// TestExampleWordsByChanceInAKey: a generated key may hold an example
// word in mixed case by chance ("LyOURsiat"): it is still a key; written
// as a word is ("your", "EXAMPLE", "Dummy"), it marks an example.
func TestExampleWordsByChanceInAKey(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 1))
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	x, _ := Rules{}.Redactor()
	for range 500 {
		b := []byte("sk-proj-")
		for range 48 {
			b = append(b, alnum[r.IntN(len(alnum))])
		}
		b[len(b)-1] = '7' // a digit, as random wants
		w := []byte(exampleWords[r.IntN(len(exampleWords))])
		word := string(w)
		for i := range w {
			if i%2 == 1 {
				w[i] -= 'a' - 'A' // mixed case: yOuR
			}
		}
		at := 8 + r.IntN(40-len(w))
		mixed := string(b[:at]) + string(w) + string(b[at+len(w):])
		if len(x.spans(mixed)) == 0 {
			t.Fatalf("Expected %q, holding %q by chance, to be a key", mixed, w)
		}
		for _, as := range []string{word, strings.ToUpper(word), strings.ToUpper(word[:1]) + word[1:]} {
			if example := string(b[:at]) + as + string(b[at+len(as):]); len(x.spans(example)) > 0 {
				t.Fatalf("Expected %q, holding %q, to be a documented example", example, as)
			}
		}
	}
}
