package secrets

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// The credentials a request carries, learned so that they are removed
// wherever they reappear (Redactor.Learn).

// Learn returns a Redactor that also removes the credential values this
// request carries (its credential headers, query parameters, form and JSON
// fields, a token in its path, keys by their format) wherever they reappear,
// raw, URL-encoded or base64: in the request's URL and body, and in a
// server's answer that echoes them. x itself is unchanged.
func (x *Redactor) Learn(u *url.URL, h http.Header, body []byte) *Redactor {
	l, _ := x.learn(u, h, body)
	return l
}

// learnFixed is Learn for a body that nothing changes while the Redactor
// it returns is in use, which it then reads without a copy.
func (x *Redactor) learnFixed(u *url.URL, h http.Header, body []byte) (*Redactor, scanned) {
	var vals []learned
	sc := x.credentialsIn(u, h, body, true, func(v learned) { vals = append(vals, v) })
	return x.with(vals), sc
}

// scanned is what a Redactor's scan of a text found, for a caller that
// would scan the same text again with the same Redactor.
type scanned struct {
	by    *Redactor
	text  string
	spans []span
	keyed bool
	dirty bool
}

// learn is Learn, and whether the body may hold a secret.
func (x *Redactor) learn(u *url.URL, h http.Header, body []byte) (*Redactor, bool) {
	var vals []learned
	dirty := x.credentials(u, h, body, func(v learned) { vals = append(vals, v) })
	return x.with(vals), dirty
}

// with is x also removing vals, wherever they appear in any encoding.
func (x *Redactor) with(vals []learned) *Redactor {
	if len(vals) == 0 {
		return x
	}
	c := *x
	c.known = slices.Clip(c.known)
	for _, v := range vals {
		if !slices.ContainsFunc(c.known, func(k known) bool { return k.text == v.value }) {
			c.known = append(c.known, variants(v.value, v.from+" echoed")...)
		}
	}
	return &c
}

// learned is a credential value a request carried, and where.
type learned struct {
	value, from string
}

// credentials calls found with each credential value of a request long
// enough to be looked for elsewhere. dirty says whether the body may hold
// a secret (any, however short): a secret key, a form, a span of Text.
func (x *Redactor) credentials(u *url.URL, h http.Header, body []byte, found func(learned)) (dirty bool) {
	return x.credentialsIn(u, h, body, false, found).dirty
}

// credentialsIn is credentials; fixed says nothing changes body afterwards,
// so that its text is read without a copy. It returns whether the body may
// hold a secret, and its scan.
func (x *Redactor) credentialsIn(u *url.URL, h http.Header, body []byte, fixed bool, found func(learned)) (sc scanned) {
	var dirty bool
	add := func(v, from string) {
		v = strings.TrimSpace(v)
		// A value holding a placeholder was scrubbed already: what is left
		// of it is no secret of this request.
		if len(v) >= minKnownLen && !placeholder(v) && stripRedacted(v) == v {
			found(learned{v, from})
		}
	}
	for name, values := range h {
		if !x.dropHeader(name) {
			continue
		}
		for _, v := range values {
			for _, part := range headerCredentials(name, v) {
				add(part, name+" header")
			}
		}
	}
	if u != nil {
		if p, ok := u.User.Password(); ok {
			add(p, "URL password")
		}
		for _, sp := range x.spans(u.EscapedPath()) {
			add(u.EscapedPath()[sp.start:sp.end], "URL path token")
		}
		for _, kv := range strings.Split(u.RawQuery, "&") {
			k, v, _ := strings.Cut(kv, "=")
			k, kerr := url.QueryUnescape(k)
			v, verr := url.QueryUnescape(v)
			if kerr == nil && verr == nil && x.secretValue(k, v, true) {
				add(v, k+" query parameter")
			}
		}
	}
	if len(body) == 0 {
		return sc
	}
	ctype := h.Get("Content-Type")
	if d, ok := decodeBody(h.Get("Content-Encoding"), body); ok {
		body = d
	}
	body = bytes.TrimPrefix(body, bom)
	var text string
	if fixed {
		text = textOf(body)
	} else {
		text = string(body)
	}
	sp, keyed := x.scan(text)
	sc = scanned{by: x, text: text, spans: sp, keyed: keyed}
	// Escapes can hide from the scan of the text what the JSON's decoded
	// strings show (mayHold).
	if len(x.names) > 0 || keyed || bytes.IndexByte(body, '\\') >= 0 {
		if v, err := decodeJSON(body); err == nil {
			dirty = dirty || len(x.names) > 0 || keyed || x.jsonCredentials(v, "", add)
		} else if len(x.names) > 0 || keyed {
			dirty = true
		}
	}
	if formLike(ctype, body) {
		dirty = true
		q, _ := url.ParseQuery(string(body))
		for k, vs := range q {
			for _, v := range vs {
				if x.secretValue(k, v, true) {
					add(v, k+" form field")
				}
			}
		}
	}
	if boundary := multipartBoundary(ctype, body); boundary != "" {
		for _, p := range multipartParts(body, boundary) {
			if v := string(body[p.start:p.end]); !p.file && x.secretValue(p.name, v, true) {
				dirty = true
				add(v, p.name+" multipart field")
			}
		}
	}
	for _, sp := range sp {
		dirty = true
		add(text[sp.start:sp.end], "request body secret")
	}
	if events := isEventStream(body); !dirty && (events || isNDJSON(body)) {
		// A key split across the lines of a streamed request.
		dirty = len(x.crossings(strings.SplitAfter(text, "\n"), events)) > 0
	}
	sc.dirty = dirty
	return sc
}

// jsonCredentials adds the credentials in decoded JSON: the values of
// secret fields and of name/value pairs, and what the scan of each string
// finds; found says whether there was any.
func (x *Redactor) jsonCredentials(v any, key string, add func(v, from string)) (found bool) {
	switch v := v.(type) {
	case map[string]any:
		names := pairNames(v)
		for k, e := range v {
			if names != nil && pairValueKey(k) {
				if str, ok := e.(string); ok {
					if i := slices.IndexFunc(names, func(n string) bool { return x.pairValue(n, str) }); i >= 0 {
						add(str, strconv.Quote(names[i])+" value")
						found = true
					} else {
						found = x.jsonCredentials(str, "", add) || found
					}
					continue
				}
				for _, n := range names {
					found = x.jsonCredentials(e, n, add) || found
				}
				continue
			}
			found = x.jsonCredentials(e, k, add) || found
		}
	case []any:
		for _, e := range v {
			found = x.jsonCredentials(e, key, add) || found
		}
	case string:
		if key != "" && x.secretValue(key, v, false) {
			add(v, strconv.Quote(key)+" field")
			return true
		}
		sp, keyed := x.scan(v)
		if inner, ok := x.nestedJSON(v, keyed); ok {
			found = x.jsonCredentials(inner, "", add) || found
		}
		for _, sp := range sp {
			add(v[sp.start:sp.end], "request body secret")
			found = true
		}
	}
	return found
}

// headerCredentials are the secrets in a credential header's value: the
// value, the token after an authorization scheme, the password of Basic
// credentials, a cookie's values.
func headerCredentials(name, v string) []string {
	out := []string{v}
	if f := strings.Fields(v); len(f) == 2 {
		out = append(out, f[1])
		if strings.EqualFold(f[0], "basic") {
			if d, err := base64.StdEncoding.DecodeString(f[1]); err == nil {
				out = append(out, string(d))
				if _, p, ok := strings.Cut(string(d), ":"); ok {
					out = append(out, p)
				}
			}
		}
	}
	if strings.Contains(strings.ToLower(name), "cookie") {
		for _, c := range strings.Split(v, ";") {
			if _, val, ok := strings.Cut(c, "="); ok {
				out = append(out, val)
			}
		}
	}
	return out
}
