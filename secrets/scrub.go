package secrets

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/agentcheck/agentcheck/internal/contentcoding"
)

// span is a secret found in a text: text[start:end], and what it is (the
// kind of secret with the value masked).
type span struct {
	start, end int
	what       string
	secret     string // the secret itself, when the span is an encoding of it
	// from is where what tells the secret starts, at or before start: a
	// format's whole match ("Authorization: Basic …"), an assignment's
	// name; a stream whose events split there and the secret apart hides
	// it from each event's own scan (crossings).
	from int
}

// spans finds the secrets in a text: matches of the rules' patterns, keys
// by their format, assignments to secret names, known values in any of
// their encodings and what the rules' Func returns. They may overlap.
func (x *Redactor) spans(s string) []span {
	out, _ := x.scan(s)
	return out
}

// scan is spans, and whether s has a JSON key with a secret name.
func (x *Redactor) scan(s string) (out []span, keyed bool) {
	for _, p := range x.patterns {
		for _, m := range p.re.FindAllStringIndex(s, -1) {
			out = append(out, span{m[0], m[1], mask(s[m[0]:m[1]]) + " (rule: pattern " + p.text + ")", "", m[0]})
		}
	}
	if set := formatsIn(s); !set.empty() {
		for i := range set.all() {
			f := &keyFormats[i] // not a copy of each format for each text
			for _, m := range f.matches(s) {
				// The secret is the group that matched, when the format
				// has groups (of alternatives, one matches), else the match.
				start, end := m[0], m[1]
				for g := 2; g < len(m); g += 2 {
					if m[g] >= 0 {
						start, end = m[g], m[g+1]
					}
				}
				secret := s[start:end]
				if !f.plain && (!random(secret) || inBlob(s, start)) || isRedacted(secret) || placeholder(secret) || documentedExample(secret) ||
					f.valid != nil && !f.valid(secret) {
					continue
				}
				out = append(out, span{start, end, f.name + " " + mask(secret), "", m[0]})
			}
		}
	}
	out = append(out, x.dataURLs(s)...)
	as, keyed := assignments(s)
	for _, a := range as {
		v := s[a.start:a.end]
		plain := v
		if u, err := url.QueryUnescape(v); err == nil && a.form == formEquals {
			// api_key=%5BREDACTED%5D in a URL. A JSON, YAML or flag value
			// is read as it is written, as its decoded JSON has it ("+"
			// is no space there).
			plain = u
		}
		if isRedacted(plain) || !x.ruleName(a.name) && !(a.glued && gluedPassword(plain)) && !quotedMarkPassword(s, a, plain) && (!secretValueOf(a.kind, plain) || strings.EqualFold(plain, strings.TrimLeft(a.name, "-"))) {
			continue
		}
		what := a.name + "=" + mask(v)
		switch a.form {
		case formJSON:
			what = strconv.Quote(a.name) + " field " + mask(v)
		case formLine:
			what = a.name + ": " + mask(v)
		case formFlag:
			what = "--" + a.name + " " + mask(v)
			if strings.HasPrefix(a.name, "-") { // a short flag: -p
				what = a.name + " " + mask(v)
			}
		case formPair:
			what = strconv.Quote(a.name) + " value " + mask(v)
		case formWord:
			what = a.name + " " + mask(v)
		}
		from := a.start
		if a.form == formWord {
			// A command's or a statement's word, which the text may not
			// hold as the name says it ("piped to --password-stdin", "RESP
			// AUTH"): a search back for it would read the whole text
			// before the value, for each value.
		} else if n := strings.LastIndex(s[:a.start], a.name); n >= 0 {
			from = n
		}
		out = append(out, span{a.start, a.end, what, "", from})
	}
	out = append(out, x.percentSpans(s)...)
	for _, k := range x.known {
		for i := 0; ; {
			j := strings.Index(s[i:], k.text)
			if j < 0 {
				break
			}
			out = append(out, span{i + j, i + j + len(k.text), k.what + " " + mask(k.text), k.value, i + j})
			i += j + len(k.text)
		}
	}
	for _, f := range x.funcs {
		for _, secret := range f(s) {
			if len(secret) == 0 || isRedacted(secret) {
				continue
			}
			for i := 0; ; {
				j := strings.Index(s[i:], secret)
				if j < 0 {
					break
				}
				out = append(out, span{i + j, i + j + len(secret), mask(secret) + " (rule: func)", "", i + j})
				i += j + len(secret)
			}
		}
	}
	// Last, so that a known value's base64, found whole above, names the
	// finding.
	out = append(out, x.base64Texts(s)...)
	out = append(out, x.base64URLTexts(s)...)
	out = append(out, x.base64ShortTexts(s)...)
	return out, keyed
}

// Text replaces the secrets in s (see the package documentation: formats,
// assignments, known values, the rules' patterns and Func) with
// "[REDACTED]".
func (x *Redactor) Text(s string) string {
	out, _ := x.text(s)
	return out
}

func (x *Redactor) text(s string) (string, bool) {
	return x.replaceSpans(s, x.spans(s))
}

// replaceSpans replaces the spans found in s with their placeholders.
func (x *Redactor) replaceSpans(s string, sp []span) (string, bool) {
	if len(sp) == 0 {
		return s, false
	}
	slices.SortFunc(sp, func(a, b span) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	var b strings.Builder
	at := 0
	for i := 0; i < len(sp); {
		start, end := sp[i].start, sp[i].end
		secret, firstEnd := sp[i].secret, end
		for i++; i < len(sp) && sp[i].start < end; i++ {
			end = max(end, sp[i].end)
		}
		if start < at {
			start = at
		}
		if secret == "" || end != firstEnd {
			secret = s[start:end]
		}
		b.WriteString(s[at:start])
		b.WriteString(x.replacement(secret))
		at = end
	}
	b.WriteString(s[at:])
	return b.String(), true
}

// variants are a secret's encodings that a server may echo: raw,
// URL-encoded (with upper- or lower-case escapes), as a JSON string
// holds it (encoding/json's escapes, and "\/"), hex, and base64
// (standard and URL alphabets) at each of the three alignments it can
// have inside a longer base64 text.
func variants(v, what string) []known {
	out := []known{{v, what, v}}
	add := func(text, enc string) {
		if len(text) >= 8 && !slices.ContainsFunc(out, func(k known) bool { return k.text == text }) {
			out = append(out, known{text, what + " (" + enc + ")", v})
		}
	}
	for _, e := range []string{url.QueryEscape(v), url.PathEscape(v)} {
		add(e, "URL-encoded")
		add(lowerEscapes(e), "URL-encoded")
	}
	if b, err := json.Marshal(v); err == nil && len(b) >= 2 {
		add(string(b[1:len(b)-1]), "JSON-escaped")
		add(strings.ReplaceAll(string(b[1:len(b)-1]), "/", `\/`), "JSON-escaped")
	}
	add(hex.EncodeToString([]byte(v)), "hex")
	add(strings.ToUpper(hex.EncodeToString([]byte(v))), "hex")
	add(base64.StdEncoding.EncodeToString([]byte(v)), "base64")
	add(base64.URLEncoding.EncodeToString([]byte(v)), "base64")
	for shift := range 3 {
		b := append(make([]byte, shift), v...)
		for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
			s := enc.EncodeToString(b)
			// Keep the characters that only the secret's bits decide.
			from, to := (8*shift+5)/6, 8*len(b)/6
			if from < to {
				add(s[from:to], "base64")
			}
		}
	}
	return out
}

// lowerEscapes writes the hex digits of a URL-encoded text's escapes in
// lower case (%2f for %2F), as some encoders do.
func lowerEscapes(s string) string {
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			b[i+1], b[i+2] = lowerHex(b[i+1]), lowerHex(b[i+2])
			i += 2
		}
	}
	return string(b)
}

func lowerHex(c byte) byte {
	if 'A' <= c && c <= 'F' {
		return c + 'a' - 'A'
	}
	return c
}

// Request is a request's URL and body as stored and matched: [Redactor.URL]
// and [Redactor.StoredBody] of the Redactor that [Redactor.Learn] gives, in
// one pass over a clean body.
func (x *Redactor) Request(u *url.URL, h http.Header, body []byte) (storedURL string, storedBody []byte) {
	x = x.inMode(requestMode)
	l, dirty := x.learn(u, h, body)
	if dirty || l != x || h.Get("Content-Encoding") != "" || x.mustDecode() {
		return l.URL(u), l.StoredBody(h, body)
	}
	// Learn found nothing in the body to remove.
	return x.URL(u), body
}

// mustDecode: the rules must see a body decoded to know its secrets.
func (x *Redactor) mustDecode() bool {
	return len(x.funcs) > 0 || len(x.paths) > 0 || len(x.names) > 0
}

// URL is u as stored: without user information, the values of secret query
// parameters "[REDACTED]", and the secrets of [Redactor.Text] replaced in
// the path and the query.
func (x *Redactor) URL(u *url.URL) string {
	c := *u
	c.User = nil
	if c.RawQuery != "" {
		c.RawQuery, _ = x.pairs(c.RawQuery, false, nil)
	}
	return x.Text(c.String())
}

// Headers returns a copy of h without the credential headers, the rules'
// ones and those whose name says they hold a credential (X-Auth-Token,
// X-Session-Id), secrets replaced in the values that are left (a token in a
// Location URL).
func (x *Redactor) Headers(h http.Header) http.Header {
	out := make(http.Header, len(h))
	for name, values := range h {
		if x.dropHeader(name) {
			continue
		}
		vs := make([]string, len(values))
		for i, v := range values {
			vs[i] = x.Text(v)
		}
		out[name] = vs
	}
	return out
}

// Message is a request's or a response's headers and body as stored: the
// body decoded when its Content-Encoding is gzip or deflate (the header
// then dropped and Content-Length set to the decoded length, so the stored
// exchange replays), its secrets removed as [Redactor.Body] does, read as
// its Content-Type says; the headers as [Redactor.Headers] leaves them.
func (x *Redactor) Message(h http.Header, body []byte) (http.Header, []byte) {
	x = x.inMode(responseMode)
	out := x.Headers(h)
	if d, ok := decodeBody(h.Get("Content-Encoding"), body); ok {
		body = d
		out.Del("Content-Encoding")
		if out.Get("Content-Length") != "" {
			out.Set("Content-Length", strconv.Itoa(len(body)))
		}
	}
	body = x.body(body, h.Get("Content-Type"))
	if out.Get("Content-Length") != "" {
		out.Set("Content-Length", strconv.Itoa(len(body)))
	}
	return out, body
}

// StoredBody is the body as [Redactor.Message] stores it, without the work
// on the headers: decoded by its Content-Encoding, its secrets removed as
// its Content-Type says.
func (x *Redactor) StoredBody(h http.Header, body []byte) []byte {
	if d, ok := decodeBody(h.Get("Content-Encoding"), body); ok {
		body = d
	}
	return x.body(body, h.Get("Content-Type"))
}

// Body removes the secrets of a body: in JSON, the string values of secret
// fields at any depth and the values at the rules' paths become
// "[REDACTED]" (then written compactly, object members sorted), the same
// line by line in NDJSON and server-sent events ("data: {...}"); in a form
// body, the values of secret fields; everywhere, the secrets of
// [Redactor.Text]. A body starting with a UTF-8 BOM is read without it. A
// body they do not change is returned as it is.
func (x *Redactor) Body(b []byte) []byte {
	return x.body(b, "")
}

var bom = []byte("\ufeff")

func (x *Redactor) body(b []byte, ctype string) []byte {
	if len(b) == 0 {
		return b
	}
	rest, hasBOM := bytes.CutPrefix(b, bom)
	if !x.mayHold(rest, ctype) {
		return b
	}
	out, changed := x.content(rest, ctype)
	if !changed {
		return b
	}
	if hasBOM {
		out = append(slices.Clip(bom), out...)
	}
	return out
}

// mayHold is false for a body that cannot hold a secret: no rule that
// must see it decoded, no secret in its raw text, no JSON key or form
// field with a secret name, no escape. It keeps scrubbing a clean body
// cheap.
func (x *Redactor) mayHold(b []byte, ctype string) bool {
	if len(x.funcs) > 0 || len(x.paths) > 0 || len(x.names) > 0 {
		return true
	}
	s := string(b)
	if sp, keyed := x.scan(s); len(sp) > 0 || keyed {
		return true // keyed: a JSON key with a secret name, however spelt
	}
	if strings.IndexByte(s, '\\') >= 0 {
		// Escapes can hide from the scan of the text what the JSON's
		// decoded strings show (\" around a quoted value, a name written
		// with \u), and the check reads such JSON decoded.
		return true
	}
	if formLike(ctype, b) {
		for _, kv := range strings.Split(s, "&") {
			k, v, _ := strings.Cut(kv, "=")
			if u, err := url.QueryUnescape(k); err == nil {
				k = u // api%5Fkey, as the check reads it
			}
			if secretParam(k) {
				return true
			}
			if u, err := url.QueryUnescape(v); err == nil {
				if _, ok := x.escapedText(v, u); ok {
					return true // what its escapes hide (pairs)
				}
			}
		}
	}
	if boundary := multipartBoundary(ctype, b); boundary != "" {
		for _, p := range multipartParts(b, boundary) {
			if secretParam(p.name) {
				return true
			}
		}
	}
	// A key split across a stream's events.
	if mt, _, _ := mime.ParseMediaType(ctype); mt == "text/event-stream" || isEventStream(b) {
		return len(x.crossings(strings.SplitAfter(s, "\n"), true)) > 0
	} else if mt == "application/x-ndjson" || mt == "application/jsonl" || isNDJSON(b) {
		return len(x.crossings(strings.SplitAfter(s, "\n"), false)) > 0
	}
	return false
}

// content scrubs a body without its BOM, by its kind, and then, but for a
// multipart body, as text whole: the check reads every body as text too,
// where a rule can read across what the kind's own scrub sees apart (a
// JSON string's end, "…Password=", "…"; a YAML env list's lines sent as
// NDJSON; a JSON fragment whose string runs past a form's "&").
func (x *Redactor) content(b []byte, ctype string) ([]byte, bool) {
	mt, _, _ := mime.ParseMediaType(ctype)
	if boundary := multipartBoundary(ctype, b); boundary != "" && mt != "text/event-stream" && !isEventStream(b) {
		if parts := multipartParts(b, boundary); len(parts) > 0 {
			return x.multipart(b, parts)
		}
	}
	var out []byte
	changed := false
	if v, err := decodeJSON(b); err == nil && mt != "text/event-stream" && !isEventStream(b) {
		out, changed = x.jsonBody(v)
	} else {
		switch {
		case mt == "text/event-stream" || isEventStream(b):
			out, changed = x.lines(b, true)
		case isNDJSON(b):
			out, changed = x.lines(b, false)
		case formLike(ctype, b):
			// A form by its look only is written as the text scan would
			// write it ("[REDACTED]", not URL-encoded), as it was stored
			// before forms were read by their look.
			var f string
			f, changed = x.pairs(string(b), isForm(ctype, b), x.text)
			out = []byte(f)
			if changed {
				// JSON sent as a form that was no JSON until a secret in
				// it was replaced (a control character in a string was):
				// the check reads it as JSON, so it is scrubbed as JSON too
				// (plainText's rule).
				if v, err := decodeJSON(out); err == nil {
					if j, ok := x.jsonBody(v); ok {
						out = j
					}
				}
			}
		case mt == "application/x-ndjson" || mt == "application/jsonl" || mt == "application/json-seq":
			out, changed = x.lines(b, false)
		default:
			return x.plainText(b)
		}
	}
	if !changed {
		out = b
	}
	if t, ok := x.text(string(out)); ok {
		return []byte(t), true
	}
	return out, changed
}

// plainText scrubs a body of no other kind as text.
func (x *Redactor) plainText(b []byte) ([]byte, bool) {
	s, changed := x.text(string(b))
	if changed {
		// Text that was not JSON may be once a secret in it is replaced
		// (a control character in a string was): the check then reads it
		// as JSON, so it is scrubbed as JSON too.
		if v, err := decodeJSON([]byte(s)); err == nil {
			if out, ok := x.jsonBody(v); ok {
				return out, true
			}
		}
	}
	return []byte(s), changed
}

func (x *Redactor) jsonBody(v any) ([]byte, bool) {
	changed := false
	for _, p := range x.paths {
		v = x.redactPath(v, p.segs, &changed)
	}
	v = x.json(v, "", &changed)
	if !changed {
		return nil, false
	}
	return encodeJSON(v), true
}

// json replaces secret fields' strings and scrubs every string.
func (x *Redactor) json(v any, key string, changed *bool) any {
	switch v := v.(type) {
	case map[string]any:
		names := pairNames(v)
		for _, k := range sortedKeys(v) {
			if names != nil && pairValueKey(k) {
				if str, ok := v[k].(string); ok {
					if slices.ContainsFunc(names, func(n string) bool { return x.pairValue(n, str) }) {
						*changed = true
						v[k] = x.replacement(str)
					} else {
						v[k] = x.json(str, "", changed)
					}
					continue
				}
				for _, n := range names {
					v[k] = x.json(v[k], n, changed)
				}
				continue
			}
			v[k] = x.json(v[k], k, changed)
		}
	case []any:
		for i, e := range v {
			v[i] = x.json(e, key, changed)
		}
	case json.Number:
		if key != "" && x.ruleName(key) {
			*changed = true
			return x.replacement(v.String())
		}
	case string:
		if key != "" && x.secretValue(key, v, false) {
			*changed = true
			return x.replacement(v)
		}
		// JSON in a string (tool-call arguments) is read decoded, as the
		// check reads it: its escapes (\u003c, \u0026, \") hide nothing
		// then.
		sp, keyed := x.scan(v)
		if s, ok := x.valueText(v, sp, keyed); ok {
			*changed = true
			return s
		}
	}
	return v
}

// nestedJSON is the value of v, a string that holds a JSON object or array
// (tool-call arguments, a tool's JSON output), decoded, when its text may
// hide what the JSON shows: it has escapes, or a key of a secret name
// (keyed, see scan), or the rules must see JSON decoded. Other JSON holds
// nothing that the scan of its text misses, as for a body (mayHold).
func (x *Redactor) nestedJSON(v string, keyed bool) (any, bool) {
	if !keyed && strings.IndexByte(v, '\\') < 0 && !x.mustDecode() {
		return nil, false
	}
	t := strings.TrimSpace(v)
	if len(t) < 2 || !(t[0] == '{' && t[len(t)-1] == '}' || t[0] == '[' && t[len(t)-1] == ']') {
		return nil, false
	}
	inner, err := decodeJSON([]byte(t))
	return inner, err == nil
}

// lines scrubs NDJSON or server-sent events line by line: a JSON line (an
// event's data) as JSON, any other as text.
func (x *Redactor) lines(b []byte, events bool) ([]byte, bool) {
	ls := strings.SplitAfter(string(b), "\n")
	changed := false
	for i, l := range ls {
		content := strings.TrimRight(l, "\r\n")
		eol := l[len(content):]
		prefix, payload, _ := streamLine(l, events)
		if prefix == "" {
			payload = content
		}
		if v, err := decodeJSON([]byte(payload)); err == nil && strings.TrimSpace(payload) != "" {
			if out, ok := x.jsonBody(v); ok {
				ls[i], changed = prefix+string(out)+eol, true
			}
			continue
		}
		if s, ok := x.text(content); ok {
			ls[i], changed = s+eol, true
		}
	}
	if x.joinCrossings(ls, events) {
		changed = true
	}
	return []byte(strings.Join(ls, "")), changed
}

// isEventStream: a body of server-sent events, whose first field line is
// "data:", "event:", "id:" or a comment.
func isEventStream(b []byte) bool {
	for _, p := range []string{"data:", "event:", "id:", ": "} {
		if bytes.HasPrefix(b, []byte(p)) {
			return true
		}
	}
	return false
}

// isNDJSON: two lines or more, the first a JSON object or array.
func isNDJSON(b []byte) bool {
	first, rest, ok := bytes.Cut(bytes.TrimSpace(b), []byte("\n"))
	if !ok || len(bytes.TrimSpace(rest)) == 0 {
		return false
	}
	first = bytes.TrimSpace(first)
	if len(first) == 0 || first[0] != '{' && first[0] != '[' {
		return false
	}
	_, err := decodeJSON(first)
	return err == nil
}

// decodeBody undoes a body's Content-Encoding (gzip, deflate, br, zstd:
// see internal/contentcoding), also that of a gzip body that does not say
// so; ok is false when there is nothing to undo or the body does not
// decode.
func decodeBody(encoding string, b []byte) ([]byte, bool) {
	enc := strings.TrimSpace(encoding)
	if enc == "" && bytes.HasPrefix(b, []byte{0x1f, 0x8b, 8}) {
		enc = "gzip"
	}
	if enc == "" || strings.EqualFold(enc, "identity") {
		return nil, false
	}
	d, err := contentcoding.Decode(enc, b, maxDecoded)
	if err != nil {
		return nil, false
	}
	return d, true
}

// maxDecoded bounds a decompressed body, against a decompression bomb.
const maxDecoded = 256 << 20

// decodeContent undoes encoding, the value of a Content-Encoding header
// (codings joined by ",", undone from the last); without one, a body that
// starts as gzip does is decoded all the same. The error names a coding it
// cannot undo, a body that does not decode, or one that decodes to more
// than maxDecoded.
func decodeContent(encoding string, b []byte) ([]byte, error) {
	if strings.TrimSpace(encoding) == "" {
		if d, ok := decodeBody("", b); ok {
			return d, nil
		}
		return b, nil
	}
	return contentcoding.Decode(encoding, b, maxDecoded)
}
