package secrets

import (
	"encoding/base64"
	"mime"
	"slices"
	"strings"
	"unicode"
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
// encode: shorter runs are keys and hashes, not files.
const minBase64Text = 40

// base64Texts finds, in s, runs of base64 that encode text holding a
// secret once decoded: a file as an API sends it (GitHub's and GitLab's
// contents, "encoding": "base64", its lines split by "\n", escaped or
// not), a .env a tool returned encoded. The run is the span, as in a data
// URL. A run that decodes to bytes that are not text (an image, a key, a
// hash) is not read further than its first bytes.
func (x *Redactor) base64Texts(s string) []span {
	var out []span
	inRun := func(i int) bool {
		c := s[i]
		return base64Byte(c) && c != '=' || c == '\n' || c == '\r' ||
			c == '\\' && i+1 < len(s) && (s[i+1] == 'n' || s[i+1] == 'r') ||
			(c == 'n' || c == 'r') && i > 0 && s[i-1] == '\\'
	}
	// A run of minBase64Text bytes or more holds one of the bytes at
	// minBase64Text-1, 2*minBase64Text-1, …: only those are looked at
	// first.
	const L = minBase64Text
	for p := L - 1; p < len(s); p += L {
		if !base64Byte(s[p]) || s[p] == '=' {
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
		for start < end && !base64Byte(s[start]) {
			start++ // a run starts at base64, not a line break
		}
		for end > start && !base64Byte(s[end-1]) {
			end--
		}
		for end < len(s) && s[end] == '=' {
			end++ // its padding
		}
		if end-start < L {
			continue
		}
		if text, ok := base64Text(s[start:end]); ok {
			if inner := x.spans(text); len(inner) > 0 {
				out = append(out, span{start, end, inner[0].what + " (in base64)", "", start})
			}
		}
	}
	return out
}

// base64Text is the text that run, base64 possibly split into lines,
// encodes: ok is false when it is not base64 of text (UTF-8, no control
// bytes but line breaks and tabs), which its first bytes tell for most.
func base64Text(run string) (string, bool) {
	clean := strings.NewReplacer(`\n`, "", `\r`, "", "\n", "", "\r", "").Replace(run)
	clean = strings.TrimRight(clean, "=")
	text := func(b []byte) bool {
		return utf8.Valid(b) && !slices.ContainsFunc(b, func(c byte) bool { return c < ' ' && c != '\n' && c != '\r' && c != '\t' || c == 0x7f })
	}
	head := clean[:min(len(clean), 64)]
	if b, err := base64.RawStdEncoding.DecodeString(head[:len(head)/4*4]); err != nil || !text(b[:max(0, len(b)-3)]) {
		return "", false
	}
	b, err := base64.RawStdEncoding.DecodeString(clean)
	if err != nil || !text(b) {
		return "", false
	}
	return string(b), true
}

// base64URLTexts finds runs of base64url (- and _ in place of + and /,
// without padding, as Gmail's API writes a message's body) that encode
// text holding a secret once decoded, as base64Texts does for base64's
// standard alphabet; the run is the span. A run must hold a - or a _ (one
// without is base64Texts'), and one next to a + or a / is standard
// base64's. Slugs and identifiers with dashes are runs too, and decode to
// no text.
func (x *Redactor) base64URLTexts(s string) []span {
	if strings.IndexByte(s, '-') < 0 && strings.IndexByte(s, '_') < 0 {
		return nil
	}
	var out []span
	const L = minBase64Text
	for p := L - 1; p < len(s); p += L {
		if !base64URLByte(s[p]) {
			continue
		}
		start, end := p, p
		for start > 0 && base64URLByte(s[start-1]) {
			start--
		}
		for end < len(s) && base64URLByte(s[end]) {
			end++
		}
		p = end + (L-1-end%L+L)%L - L // the next look is past the run
		if end-start < L || strings.IndexAny(s[start:end], "-_") < 0 ||
			start > 0 && (s[start-1] == '+' || s[start-1] == '/') || end < len(s) && strings.IndexByte("+/=", s[end]) >= 0 {
			continue
		}
		run := s[start:end]
		if len(run)%4 == 1 {
			run = run[:len(run)-1] // a lone character encodes no byte
		}
		head := run[:min(len(run), 64)&^3]
		if b, err := base64.RawURLEncoding.DecodeString(head); err != nil || !isText(b[:max(0, len(b)-3)]) {
			continue
		}
		b, err := base64.RawURLEncoding.DecodeString(run)
		if err != nil || !isText(b) {
			continue
		}
		if inner := x.spans(string(b)); len(inner) > 0 {
			out = append(out, span{start, end, inner[0].what + " (in base64url)", "", start})
		}
	}
	return out
}

// base64URLByte: c is of base64url's alphabet.
func base64URLByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

// isText: b is UTF-8 without control bytes but line breaks and tabs.
func isText(b []byte) bool {
	return utf8.Valid(b) && !slices.ContainsFunc(b, func(c byte) bool { return c < ' ' && c != '\n' && c != '\r' && c != '\t' || c == 0x7f })
}

// minShortBase64 is the shortest run of base64 that base64ShortTexts
// reads: 12 bytes of text (password=abc).
const minShortBase64 = 16

// base64ShortTexts finds runs of standard base64 shorter than
// minBase64Text that encode text holding a secret (password=… and the
// like, echoed in base64), the run being the span. Short runs are mostly
// identifiers, hashes and keys, so that a run is read only when it is
// written as base64 of text is, whole and padded: a token of its own
// (after a blank, a quote, "=", ":", "(" or ",", before a blank, a quote
// or punctuation), a multiple of four characters ending in "=" or "==",
// upper- and lower-case letters in it; and decoded, it must be text. The
// runs are found from their padding, each "=" read back at most
// minBase64Text characters.
func (x *Redactor) base64ShortTexts(s string) []span {
	var out []span
	for at := 0; ; {
		i := strings.IndexByte(s[at:], '=')
		if i < 0 {
			return out
		}
		i += at
		at = i + 1
		if i == 0 || !base64Byte(s[i-1]) || s[i-1] == '=' {
			continue
		}
		end := i + 1
		if end < len(s) && s[end] == '=' {
			end++
		}
		at = end
		start := i
		for start > 0 && i-start <= minBase64Text && base64Byte(s[start-1]) && s[start-1] != '=' {
			start--
		}
		run := s[start:end]
		if len(run) < minShortBase64 || len(run) >= minBase64Text || len(run)%4 != 0 ||
			start > 0 && strings.IndexByte(" \t\n\"'=:(,>", s[start-1]) < 0 ||
			end < len(s) && strings.IndexByte(" \t\r\n\"'.,;:)}]<\\", s[end]) < 0 ||
			!strings.ContainsFunc(run, unicode.IsUpper) || !strings.ContainsFunc(run, unicode.IsLower) {
			continue
		}
		b, err := base64.StdEncoding.DecodeString(run)
		if err != nil || !isText(b) {
			continue
		}
		if inner := x.spans(string(b)); len(inner) > 0 {
			out = append(out, span{start, end, inner[0].what + " (in base64)", "", start})
		}
	}
}
