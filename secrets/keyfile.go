package secrets

import (
	"slices"
	"strings"
)

// keyFile: v, the value of a key's name, names the file that holds a key
// or a certificate, not the key (SSL_KEY=server.key,
// TLS_CERT_KEY=/etc/ssl/private/app.key, ~/.ssh/id_ed25519.pub): it ends
// in a key's or a certificate's extension, and every part of its path is
// a plain name (plainPathPart). A part that is random or hexadecimal
// (Zq7xK9…/app.key, zq7xk9mq7pz2wr5t.json, 0123…cdef.key) is a key with
// a file's ending, whatever follows it.
func keyFile(v string) bool {
	if len(v) > 256 {
		return false
	}
	dot := strings.LastIndexByte(v, '.')
	if dot <= 0 || !slices.Contains(keyFileExtensions, v[dot+1:]) {
		return false
	}
	base := v[:dot]
	if strings.HasSuffix(base, "/") || base == "" {
		return false
	}
	for i, part := range strings.Split(base, "/") {
		switch {
		case part == "" && i == 0, part == "." || part == "..", part == "~" && i == 0:
		case !plainPathPart(strings.TrimPrefix(part, ".")):
			return false
		}
	}
	return true
}

// keyFileExtensions end the names of the files that hold keys and
// certificates.
var keyFileExtensions = []string{"key", "pem", "crt", "cer", "der", "p12", "pfx", "jks", "keystore", "pub", "ppk", "p8",
	"csr", "asc", "gpg", "json"}

// plainPathPart: p, a part of a path, is a plain lower-case name: words
// separated by "-", "_" or ".", each of letters with a vowel and no more
// than four consonants in a row, twelve at most, then at most five
// digits (app, server-key, tls-2024, id_ed25519, jwt_public); a random
// or hexadecimal part is none.
func plainPathPart(p string) bool {
	if p == "" || len(p) > 64 {
		return false
	}
	for w := range strings.FieldsFuncSeq(p, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		l := 0
		for l < len(w) && w[l] >= 'a' && w[l] <= 'z' {
			l++
		}
		d := w[l:]
		if len(d) > 5 || strings.Trim(d, "0123456789") != "" || l == 0 && d == "" || l > 12 {
			return false
		}
		if l > 0 && !plainWord(w[:l]) {
			return false
		}
	}
	return true
}

// plainWord: w, lower-case letters, reads as a word or an abbreviation
// might: a vowel (y counts) once it has more than three letters, and no
// run of more than four consonants.
func plainWord(w string) bool {
	vowels, run := 0, 0
	for i := 0; i < len(w); i++ {
		if strings.IndexByte("aeiouy", w[i]) >= 0 {
			vowels++
			run = 0
			continue
		}
		run++
		if run > 4 {
			return false
		}
	}
	return vowels > 0 || len(w) <= 3
}
