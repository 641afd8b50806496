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

// percentSpans finds the secrets that percent-encoding hides in s. A URL
// written in a JSON string as it is sent may hold JSON's escapes of its
// bytes too (\u0026 for "&", as Go writes it; \u0025 for "%"): they are
// part of the run and decoded with it.
func (x *Redactor) percentSpans(s string) []span {
	var out []span
	for at := 0; at < len(s); {
		j := nextEscape(s, at)
		if j < 0 {
			break
		}
		start, end := j, j
		for start > at && (urlRunByte(s[start-1]) || s[start-1] == '\\' && jsonURLEscape(s, start-1)) {
			start--
		}
		for end < len(s) && (urlRunByte(s[end]) || s[end] == '\\' && jsonURLEscape(s, end)) {
			end++
		}
		at = max(end, j+1)
		run := s[start:end]
		// Each level decoded is read: the last may decode what was
		// written, not encoded ("%ed" in bob%25ed… encoded once more).
		for _, level := range percentDecode(run) {
			dec, offs := level.text, level.offs
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
	}
	return out
}

// nextEscape is where, from at, the next escape of a URL's byte is: a
// "%", or JSON's \u00XX of "%", "&", "=" or "?"; -1 when none is.
func nextEscape(s string, at int) int {
	p := strings.IndexByte(s[at:], '%')
	if p >= 0 {
		p += at
	}
	for k := at; k < len(s) && (p < 0 || k < p); {
		u := strings.Index(s[k:orLen(p, len(s))], `\u00`)
		if u < 0 {
			break
		}
		k += u
		if jsonURLEscape(s, k) && strings.IndexByte("%&=?", unhex(s[k+4])<<4|unhex(s[k+5])) >= 0 {
			return k
		}
		k += 4
	}
	return p
}

// orLen is p, or n when p is -1.
func orLen(p, n int) int {
	if p < 0 {
		return n
	}
	return p
}

// jsonURLEscape: s[k:] starts with JSON's escape of a byte a URL may
// hold, \u00XX (a quote, a bracket of markup or a backslash ends it).
func jsonURLEscape(s string, k int) bool {
	return k+6 <= len(s) && s[k+1] == 'u' && s[k+2] == '0' && s[k+3] == '0' && hexDigit(s[k+4]) && hexDigit(s[k+5]) &&
		urlRunByte(unhex(s[k+4])<<4|unhex(s[k+5]))
}

// urlRunByte: c may be part of a URL written in text, encoded: not a
// blank, a quote, a bracket of markup or a backslash (a JSON escape ends
// the run, unless it is one of a URL's bytes: jsonURLEscape).
func urlRunByte(c byte) bool {
	return c > ' ' && c < 0x7f && strings.IndexByte("\"'<>\\`", c) < 0
}

// decodedLevel is a text percentDecode made: offs[i] is where in what was
// decoded the byte text[i] was written, offs[len(text)] its length.
type decodedLevel struct {
	text string
	offs []int
}

// percentDecode decodes the escapes of s (%XX, and jsonURLEscape's) until
// none is left, up to three times, and returns each level. An escape that
// is not one stays as it is.
func percentDecode(s string) (levels []decodedLevel) {
	offs := make([]int, len(s)+1)
	for i := range offs {
		offs[i] = i
	}
	dec := s
	for range 3 {
		if !strings.Contains(dec, "%") && !strings.Contains(dec, `\u00`) {
			break
		}
		var b strings.Builder
		next := make([]int, 0, len(dec)+1)
		for i := 0; i < len(dec); i++ {
			switch {
			case dec[i] == '%' && i+2 < len(dec) && hexDigit(dec[i+1]) && hexDigit(dec[i+2]):
				b.WriteByte(unhex(dec[i+1])<<4 | unhex(dec[i+2]))
				next = append(next, offs[i])
				i += 2
			case dec[i] == '\\' && jsonURLEscape(dec, i):
				b.WriteByte(unhex(dec[i+4])<<4 | unhex(dec[i+5]))
				next = append(next, offs[i])
				i += 5
			default:
				b.WriteByte(dec[i])
				next = append(next, offs[i])
			}
		}
		if b.Len() == len(dec) {
			break
		}
		dec, offs = b.String(), append(next, len(s))
		levels = append(levels, decodedLevel{dec, offs})
	}
	return levels
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
