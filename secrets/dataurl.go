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
