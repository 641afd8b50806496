package recorder

import (
	"net/url"

	"github.com/agentcheck/agentcheck"
)

// exactKey is a request as it is stored: method, URL and body, unchanged,
// but for the URL's scheme and host, which requestKey ignores too, so that
// a cassette recorded against one server finds its requests byte for byte
// when replayed with another base URL. requestKey depends only on what
// exactKey keeps: method, escaped path, raw query and body (or the whole
// URL when it does not parse).
func exactKey(b []byte, method, storedURL string, body []byte) []byte {
	b = append(b, method...)
	b = append(b, ' ')
	if u, err := url.Parse(storedURL); err == nil {
		b = append(b, 'P')
		b = append(b, u.EscapedPath()...)
		b = append(b, '?')
		b = append(b, u.RawQuery...)
	} else {
		b = append(b, 'R')
		b = append(b, storedURL...)
	}
	b = append(b, '\n')
	return append(b, body...)
}

// requestKey is what a request matches by: method, path, sorted query and
// canonical body. Its first line is the route, "METHOD path".
func requestKey(method, rawURL string, body []byte) string {
	path, query := rawURL, ""
	if u, err := url.Parse(rawURL); err == nil {
		path = u.EscapedPath()
		if u.RawQuery != "" {
			if q, err := url.ParseQuery(u.RawQuery); err == nil {
				query = q.Encode()
			} else {
				query = u.RawQuery
			}
		}
	}
	b := make([]byte, 0, len(method)+len(path)+len(query)+len(body)+3)
	b = append(b, method...)
	b = append(b, ' ')
	b = append(b, path...)
	b = append(b, '\n')
	if query != "" {
		b = append(b, '?')
		b = append(b, query...)
	}
	b = append(b, '\n')
	if canon, ok := appendCanonicalJSON(b, body); ok {
		return string(canon)
	}
	return string(append(b, body...))
}

// appendCanonicalJSON appends b's canonical form, agentcheck's
// Value.Canonical: no insignificant whitespace, object members ordered by
// their key, strings escaped one way (so "\u00e9" and "é" match), ints as
// their digits and floats as their shortest text. ok is false when b is not
// one JSON value. It reads b with agentcheck.ParseValue, the project's one
// JSON parser; replay mostly skips it, finding a request by its exact bytes
// first.
func appendCanonicalJSON(dst, b []byte) (out []byte, ok bool) {
	v, err := agentcheck.ParseValue(b)
	if err != nil {
		return dst, false
	}
	return append(dst, v.Canonical()...), true
}
