package secrets

import (
	"slices"
	"strings"
)

// Text carries URLs, and URLs carry URLs: a redirect's next=, a tool's
// callback, each level percent-encoded once more (token%253D…). Encoded,
// a key's shape and a name's "=" are hidden ("key%3Dsk-…" has no word
// boundary before sk-), so that each run of a URL's characters holding
// escapes is read decoded, as many times as it was encoded, and what is
// found there is replaced where it is written, encoded.

// percentSpans finds the secrets that percent-encoding hides in s.
func (x *Redactor) percentSpans(s string) []span {
	var out []span
	for at := 0; at < len(s); {
		j := strings.IndexByte(s[at:], '%')
		if j < 0 {
			break
		}
		j += at
		start, end := j, j
		for start > at && urlRunByte(s[start-1]) {
			start--
		}
		for end < len(s) && urlRunByte(s[end]) {
			end++
		}
		at = max(end, j+1)
		run := s[start:end]
		dec, offs := percentDecode(run)
		if len(dec) == len(run) {
			continue // no escape
		}
		texts := []string{dec}
		if strings.Contains(dec, "+") {
			// A query writes a blank as "+" (BEGIN+RSA+PRIVATE+KEY), where
			// base64 writes a "+": read both ways, byte for byte.
			texts = append(texts, strings.ReplaceAll(dec, "+", " "))
		}
		for _, text := range texts {
			for _, sp := range x.spans(text) {
				secret := sp.secret
				if secret == "" {
					secret = dec[sp.start:sp.end]
				}
				a, b := start+offs[sp.start], start+offs[sp.end]
				if sp.secret != "" && slices.ContainsFunc(x.known, func(k known) bool { return k.text == s[a:b] }) {
					continue // a known value's encoding, which its own span names
				}
				out = append(out, span{a, b, sp.what + " (URL-encoded)", secret, start + offs[sp.from]})
			}
		}
	}
	return out
}

// urlRunByte: c may be part of a URL written in text, encoded: not a
// blank, a quote, a bracket of markup or a backslash (a JSON escape ends
// the run).
func urlRunByte(c byte) bool {
	return c > ' ' && c < 0x7f && strings.IndexByte("\"'<>\\`", c) < 0
}

// percentDecode decodes the escapes of s (%XX) until none is left, up to
// three times; offs[i] is where in s the byte dec[i] was written, and
// offs[len(dec)] is len(s). An escape that is not one stays as it is.
func percentDecode(s string) (dec string, offs []int) {
	offs = make([]int, len(s)+1)
	for i := range offs {
		offs[i] = i
	}
	dec = s
	for range 3 {
		if !strings.Contains(dec, "%") {
			break
		}
		var b strings.Builder
		next := make([]int, 0, len(dec)+1)
		for i := 0; i < len(dec); i++ {
			if dec[i] == '%' && i+2 < len(dec) && hexDigit(dec[i+1]) && hexDigit(dec[i+2]) {
				b.WriteByte(unhex(dec[i+1])<<4 | unhex(dec[i+2]))
				next = append(next, offs[i])
				i += 2
				continue
			}
			b.WriteByte(dec[i])
			next = append(next, offs[i])
		}
		if b.Len() == len(dec) {
			break
		}
		dec, offs = b.String(), append(next, len(s))
	}
	return dec, offs
}

func hexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f'
}

func unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c | 0x20 - 'a' + 10
}
