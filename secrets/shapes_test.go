package secrets

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// FuzzFormatHints checks that formatsIn never leaves out a key format whose
// regexp matches the text: a format's hints must be in every text it
// matches, or scan would miss the key.
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
	f.Fuzz(func(t *testing.T, s string) {
		t.Parallel() // the seeds at once; no effect when fuzzing
		set := formatsIn(s)
		for i, k := range keyFormats {
			if !set.has(i) && k.re.get().MatchString(s) {
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
