package secrets

import (
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
