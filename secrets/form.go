package secrets

import (
	"bytes"
	"mime"
	"net/url"
	"strings"
)

// This file reads form bodies and query strings: name=value pairs.

// pairs scrubs "name=value&..." (a query or a form) pair by pair, keeping
// their order and encoding: the value of a pair whose name says it is a
// credential becomes its placeholder (URL-encoded when escape is set, as in
// a form: a URL keeps "[REDACTED]" readable); other pairs go through rest,
// when given.
func (x *Redactor) pairs(s string, escape bool, rest func(string) (string, bool)) (string, bool) {
	pairs := strings.Split(s, "&")
	changed := false
	for i, kv := range pairs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			if rest != nil {
				if r, ok := rest(kv); ok {
					pairs[i], changed = r, true
				}
			}
			continue
		}
		name, err := url.QueryUnescape(k)
		if err != nil {
			name = k
		}
		plain, err := url.QueryUnescape(v)
		if err != nil {
			plain = v
		}
		if x.secretValue(name, plain, true) {
			p := x.replacement(plain)
			if escape {
				p = url.QueryEscape(p)
			}
			pairs[i], changed = k+"="+p, true
		} else if t, ok := x.escapedText(v, plain); ok {
			// What the escapes hid, as the check reads the value
			// unescaped: JSON sent as a form field (payload={"api_key": …}).
			pairs[i], changed = k+"="+url.QueryEscape(t), true
		} else if rest != nil {
			if r, ok := rest(kv); ok {
				pairs[i], changed = r, true
			}
		}
	}
	return strings.Join(pairs, "&"), changed
}

// escapedText is Text of plain, a parameter's value v unescaped, when
// the escapes changed it or it is JSON (else ok is false: the text of v is
// scanned as it is) and it holds a secret; JSON is read decoded, as the
// check reads it (valueText).
func (x *Redactor) escapedText(v, plain string) (string, bool) {
	sp, keyed := x.scan(plain)
	if plain == v {
		if _, ok := x.nestedJSON(plain, keyed); !ok {
			return "", false
		}
	}
	return x.valueText(plain, sp, keyed)
}

// valueText is Text of a value that may be JSON (a form field's, a query
// parameter's, a JSON string's), given its scan: its decoded strings
// scrubbed first, as a JSON body's are.
func (x *Redactor) valueText(v string, sp []span, keyed bool) (string, bool) {
	changed := false
	if inner, ok := x.nestedJSON(v, keyed); ok {
		if inner = x.json(inner, "", &changed); changed {
			v = string(encodeJSON(inner))
			sp = x.spans(v)
		}
	}
	if t, ok := x.replaceSpans(v, sp); ok {
		return t, true
	}
	return v, changed
}

// formLike: b is a form by its Content-Type or by its look, whatever the
// type says (a body sent as multipart that is "key=value"): the check and
// the recorder read it as one both ways.
func formLike(ctype string, b []byte) bool { return isForm(ctype, b) || ctype != "" && isForm("", b) }

// isForm: a form body by its Content-Type, or one that looks like one:
// name=value pairs joined by "&", no spaces.
func isForm(ctype string, b []byte) bool {
	if mt, _, _ := mime.ParseMediaType(ctype); mt == "application/x-www-form-urlencoded" {
		return true
	}
	if ctype != "" || len(b) == 0 || bytes.ContainsAny(b, " \t\r\n{}\"") {
		return false
	}
	for _, kv := range bytes.Split(b, []byte("&")) {
		k, _, ok := bytes.Cut(kv, []byte("="))
		if !ok || len(k) == 0 {
			return false
		}
	}
	return true
}
