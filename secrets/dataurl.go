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
