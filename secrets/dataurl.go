package secrets

import (
	"encoding/base64"
	"mime"
	"slices"
	"strings"
	"unicode/utf8"
)

// textualTypes are the media types, besides text/*, of a file that a data
// URL may carry as text: a .env, a config, a script sent to a model.
var textualTypes = []string{
	"application/json", "application/x-ndjson", "application/jsonl", "application/yaml", "application/x-yaml",
	"application/toml", "application/xml", "application/x-sh", "application/x-shellscript", "application/javascript",
	"application/x-python", "application/octet-stream",
}

// dataURLs finds, in s, the base64 payloads of data URLs of text
// (data:text/plain;base64,…, as a file is sent to a model) that hold a
// secret once decoded: each payload is a span, the secret the payload
// itself, since no part of base64 can be replaced alone. An image's
// payload is not decoded.
func (x *Redactor) dataURLs(s string) []span {
	var out []span
	for i := range indexes(s, ";base64,") {
		head := s[max(0, i-128):i]
		d := strings.LastIndex(head, "data:")
		if d < 0 {
			continue
		}
		mt, _, err := mime.ParseMediaType(head[d+len("data:"):])
		if err != nil || !strings.HasPrefix(mt, "text/") && !strings.HasSuffix(mt, "+json") && !strings.HasSuffix(mt, "+xml") && !slices.Contains(textualTypes, mt) {
			continue
		}
		start := i + len(";base64,")
		end := start
		for end < len(s) && base64Byte(s[end]) {
			end++
		}
		payload := strings.TrimRight(s[start:end], "=")
		text, err := base64.RawStdEncoding.DecodeString(payload)
		if err != nil || !utf8.Valid(text) {
			continue
		}
		if inner := x.spans(string(text)); len(inner) > 0 {
			out = append(out, span{start, end, inner[0].what + " (in a base64 data URL)", "", start})
		}
	}
	return out
}

// base64Byte: c is of base64's standard alphabet or its padding.
func base64Byte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '='
}

// minBase64Text is the shortest run of base64 read as a text it may
// encode: 12 bytes, as short as "password=" and a password. Shorter runs
// are words, and a run that decodes to no text (a key, a hash, an
// image) is not read past its first bytes.
const minBase64Text = 16

// base64Texts finds, in s, runs of base64 that encode text holding a
// secret once decoded: a file as an API sends it (GitHub's and GitLab's
// contents, "encoding": "base64", its lines split by "\n", escaped or
// not; Gmail's message bodies in base64url without padding), a .env a
// tool returned encoded, a short "password=…" in base64. The run is the
// span, as in a data URL; the decoded text must itself hold a secret.
func (x *Redactor) base64Texts(s string) []span {
	var out []span
	inRun := func(i int) bool {
		c := s[i]
		return base64Byte(c) && c != '=' || c == '-' || c == '_' || c == '\n' || c == '\r' ||
			c == '\\' && i+1 < len(s) && (s[i+1] == 'n' || s[i+1] == 'r') ||
			(c == 'n' || c == 'r') && i > 0 && s[i-1] == '\\'
	}
	// A run of minBase64Text bytes or more holds one of the bytes at
	// minBase64Text-1, 2*minBase64Text-1, …: only those are looked at
	// first.
	const L = minBase64Text
	for p := L - 1; p < len(s); p += L {
		if !base64Byte(s[p]) && s[p] != '-' && s[p] != '_' || s[p] == '=' {
			continue
		}
		start, end := p, p
		for start > 0 && inRun(start-1) {
			start--
		}
		for end < len(s) && inRun(end) {
			end++
		}
		p = end + (L-1-end%L+L)%L - L // the next look is past the run
		for start < end && !base64Byte(s[start]) && s[start] != '-' && s[start] != '_' {
			start++ // a run starts at base64, not a line break
		}
		for end > start && !base64Byte(s[end-1]) && s[end-1] != '-' && s[end-1] != '_' {
			end--
		}
		for end < len(s) && s[end] == '=' {
			end++ // its padding
		}
		if end-start < L || !strings.ContainsFunc(s[start:end], func(r rune) bool { return r >= 'A' && r <= 'Z' }) {
			// Too short, or no upper-case letter: a word, an identifier
			// (completion_tokens), hex; base64 of a text has them.
			continue
		}
		run := s[start:end]
		if strings.ContainsAny(run, "-_") {
			// base64url, when the run has none of the standard alphabet's
			// own bytes; else (or if it holds no secret so) the standard
			// runs between its "-" and "_" (a PEM's armor, words).
			if !strings.ContainsAny(run, "+/") {
				if sp, ok := x.base64Run(s, start, end, true); ok {
					out = append(out, sp)
					continue
				}
			}
			for a := start; a < end; {
				b := a
				for b < end && s[b] != '-' && s[b] != '_' {
					b++
				}
				if b-a >= L {
					if sp, ok := x.base64Run(s, a, b, false); ok {
						out = append(out, sp)
					}
				}
				a = b + 1
			}
			continue
		}
		if sp, ok := x.base64Run(s, start, end, false); ok {
			out = append(out, sp)
		}
	}
	return out
}

// base64Run is the span of the run s[start:end] when it is base64 (url:
// base64url) of a text holding a secret.
func (x *Redactor) base64Run(s string, start, end int, url bool) (span, bool) {
	if text, ok := base64Text(s[start:end], url); ok {
		if inner := x.spans(text); len(inner) > 0 {
			return span{start, end, inner[0].what + " (in base64)", "", start}, true
		}
	}
	return span{}, false
}

// base64Text is the text that run, base64 possibly split into lines,
// encodes: ok is false when it is not base64 of text (UTF-8, no control
// bytes but line breaks and tabs), which its first bytes tell for most.
func base64Text(run string, url bool) (string, bool) {
	clean := run
	if strings.ContainsAny(run, "\n\r\\") {
		clean = strings.NewReplacer(`\n`, "", `\r`, "", "\n", "", "\r", "").Replace(run)
	}
	clean = strings.TrimRight(clean, "=")
	enc := base64.RawStdEncoding
	if url {
		enc = base64.RawURLEncoding
	}
	text := func(b []byte) bool {
		return utf8.Valid(b) && !slices.ContainsFunc(b, func(c byte) bool { return c < ' ' && c != '\n' && c != '\r' && c != '\t' || c == 0x7f })
	}
	head := clean[:min(len(clean), 64)]
	if b, err := enc.DecodeString(head[:len(head)/4*4]); err != nil || !text(b[:max(0, len(b)-3)]) {
		return "", false
	}
	b, err := enc.DecodeString(clean)
	if err != nil || !text(b) {
		return "", false
	}
	return string(b), true
}
