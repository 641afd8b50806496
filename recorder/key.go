package recorder

import (
	"context"
	"net/url"
	"strings"

	"github.com/agentcheck/agentcheck/jsonvalue"
)

// CaseHeader names, in a stored request, the case that sent it (see
// [WithCase]). It is written to the cassette only, never sent upstream.
const CaseHeader = "X-Agentcheck-Case"

type caseKey struct{}

// WithCase returns a context whose requests belong to the case id: a
// sample, a repeat of it, a subtest. Identical requests of different cases
// then replay each its own case's answers, whatever order concurrent cases
// run in, so a replay reports what the recording run reported for every
// case. Without it, the n-th identical request of a run gets the n-th
// answer recorded for it, which is deterministic only when identical
// requests are sent one after another.
func WithCase(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, caseKey{}, id)
}

func caseOf(ctx context.Context) string {
	id, _ := ctx.Value(caseKey{}).(string)
	return id
}

// endpoints are the API paths that OpenAI-compatible servers (and
// Anthropic's) put under a base URL of their choosing: /v1 at OpenAI and
// Ollama, /api/v1 at OpenRouter, a deployment path at Azure. A request to
// one of them matches by the endpoint alone, so that a cassette recorded
// against one server replays against another, or with no server set.
var endpoints = []string{"/chat/completions", "/completions", "/embeddings", "/responses", "/moderations", "/v1/messages"}

// volatileQuery are query parameters that say how a server was reached, not
// what was asked: Azure's api-version.
var volatileQuery = map[string]bool{"api-version": true}

// request is a request as the recorder matches it: its case, method, the
// path's route (the endpoint alone for the endpoints above), the query
// without volatile parameters, and the body as stored.
type request struct {
	label, method, route, query, body string
}

// exactKey is a request byte for byte as stored: most replayed requests are
// found by it, without canonicalizing their bodies.
type exactKey request

func newRequest(label, method, storedURL, body string) request {
	q := request{label: label, method: method, body: body}
	u, err := url.Parse(storedURL)
	if err != nil {
		q.route = storedURL
		return q
	}
	q.route = u.EscapedPath()
	for _, e := range endpoints {
		if strings.HasSuffix(q.route, e) {
			q.route = e
			break
		}
	}
	q.query = u.RawQuery
	if q.query != "" {
		if v, err := url.ParseQuery(q.query); err == nil {
			for name := range volatileQuery {
				v.Del(name)
			}
			q.query = v.Encode() // sorted
		}
	}
	return q
}

// canonical is what a request matches by when its bytes differ from every
// stored request's: method, route, sorted query and canonical body. Its
// first line is "METHOD route".
func (q request) canonical() string {
	b := make([]byte, 0, len(q.method)+len(q.route)+len(q.query)+len(q.body)+3)
	b = append(b, q.method...)
	b = append(b, ' ')
	b = append(b, q.route...)
	b = append(b, '\n')
	if q.query != "" {
		b = append(b, '?')
		b = append(b, q.query...)
	}
	b = append(b, '\n')
	if canon, ok := appendCanonicalJSON(b, []byte(q.body)); ok {
		return string(canon)
	}
	if boundary, ok := multipartBoundary(q.body); ok {
		// Clients draw a new boundary for every request (Go's
		// mime/multipart does): the parts match, whatever separates them.
		return string(append(b, strings.ReplaceAll(q.body, "--"+boundary, "--"+canonicalBoundary)...))
	}
	return string(append(b, q.body...))
}

// canonicalBoundary stands for the boundary of a multipart body in its
// canonical form.
const canonicalBoundary = "agentcheck-boundary"

// multipartBoundary is the boundary of a multipart body (RFC 2046): one
// that starts with "--boundary" and a line break, and ends with
// "--boundary--" and at most a line break.
func multipartBoundary(body string) (string, bool) {
	first, _, ok := strings.Cut(body, "\r\n")
	boundary, isDelimiter := strings.CutPrefix(first, "--")
	if !ok || !isDelimiter || len(boundary) == 0 || len(boundary) > 70 || strings.HasSuffix(boundary, " ") {
		return "", false
	}
	for _, c := range []byte(boundary) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || strings.IndexByte("'()+_,-./:=? ", c) >= 0) {
			return "", false
		}
	}
	end := strings.TrimSuffix(body, "\r\n")
	return boundary, strings.HasSuffix(end, "\r\n--"+boundary+"--")
}

// appendCanonicalJSON appends b's canonical form, agentcheck's
// Value.Canonical: no insignificant whitespace, object members ordered by
// their key, strings escaped one way (so "\u00e9" and "é" match), ints as
// their digits and floats as their shortest text. ok is false when b is not
// one JSON value. It reads b with jsonvalue.Parse, the project's one
// JSON parser; replay mostly skips it, finding a request by its exact bytes
// first.
func appendCanonicalJSON(dst, b []byte) (out []byte, ok bool) {
	v, err := jsonvalue.Parse(b)
	if err != nil {
		return dst, false
	}
	return append(dst, v.Canonical()...), true
}
