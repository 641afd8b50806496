// Package secrets says what in a recorded HTTP exchange is a secret: the
// credential headers that never reach a cassette, a project's own redaction
// Rules (more headers, JSON body paths, patterns), a Redactor that applies
// them to requests and responses before they are stored or matched, and
// Check, which scans a go-vcr cassette file for the credentials that
// redaction should have removed. The recorder (package recorder) and the
// agentcheck cassettes check command share it, so a rule written once is
// both applied and proved.
package secrets

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Redacted replaces the secret values that rules (JSON paths, patterns)
// remove.
const Redacted = "[REDACTED]"

// credentialHeaders never reach a cassette file, whatever the rules.
var credentialHeaders = []string{
	"Authorization", "Proxy-Authorization", "Api-Key", "X-Api-Key",
	"OpenAI-Organization", "OpenAI-Project", "Cookie", "Set-Cookie",
}

// Rules are a project's own redaction rules, on top of the credential
// headers that are always dropped (Authorization, Proxy-Authorization,
// Api-Key, X-Api-Key, OpenAI-Organization, OpenAI-Project, Cookie,
// Set-Cookie). The same rules configure the recorder (recorder.WithRedaction)
// and the check that a cassette obeys them ([Check]). A rules file is their
// JSON form:
//
//	{"headers": ["X-Tenant-Token"], "json_paths": ["user.email", "messages.*.name"], "patterns": ["acct-[0-9]+"]}
type Rules struct {
	// Headers are more header names (case-insensitive) to drop.
	Headers []string `json:"headers,omitempty"`
	// JSONPaths are dot-separated paths into JSON request and response
	// bodies whose values become "[REDACTED]" ("user", "metadata.session",
	// "messages.*.name"; "*" is every element or member, a number an
	// index).
	JSONPaths []string `json:"json_paths,omitempty"`
	// Patterns are regular expressions (Go syntax) whose matches in URLs,
	// header values and bodies become "[REDACTED]".
	Patterns []string `json:"patterns,omitempty"`
}

// Load reads a rules file, the JSON form of [Rules]. Unknown fields are
// errors, so that a misspelt rule cannot silently protect nothing.
func Load(path string) (Rules, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Rules{}, err
	}
	var r Rules
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(&r); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return Rules{}, fmt.Errorf("rules file %s:%d: %v", path, 1+bytes.Count(data[:se.Offset], []byte("\n")), err)
		}
		return Rules{}, fmt.Errorf("rules file %s: %v (want {\"headers\": [...], \"json_paths\": [...], \"patterns\": [...]})", path, err)
	}
	if _, err := d.Token(); err == nil {
		return Rules{}, fmt.Errorf("rules file %s: data after the JSON object", path)
	}
	if _, err := r.Redactor(); err != nil {
		return Rules{}, fmt.Errorf("rules file %s: %v", path, err)
	}
	return r, nil
}

// Redactor applies Rules, and drops the credential headers, to what a
// recorder stores and matches by. It is safe for concurrent use.
type Redactor struct {
	headers  []string // the credential headers, then the rules'
	builtin  int      // headers[:builtin] are the credential headers
	paths    []rulePath
	patterns []rulePattern
}

type rulePath struct {
	text string
	segs []string
}

type rulePattern struct {
	text string
	re   *regexp.Regexp
}

// Redactor compiles the rules. The error names a rule that cannot work: an
// empty header name or path segment, a pattern that does not compile,
// matches the empty string or matches "[REDACTED]" (whose replacement would
// then never stop matching).
func (r Rules) Redactor() (*Redactor, error) {
	x := &Redactor{headers: slices.Clone(credentialHeaders), builtin: len(credentialHeaders)}
	for _, h := range r.Headers {
		if strings.TrimSpace(h) == "" || strings.ContainsAny(h, " \t\r\n:") {
			return nil, fmt.Errorf("header rule %q is not a header name", h)
		}
		x.headers = append(x.headers, h)
	}
	for _, p := range r.JSONPaths {
		segs := strings.Split(p, ".")
		if slices.Contains(segs, "") {
			return nil, fmt.Errorf("json path rule %q has an empty segment (want dot-separated keys, indexes or *, e.g. messages.*.name)", p)
		}
		x.paths = append(x.paths, rulePath{text: p, segs: segs})
	}
	for _, p := range r.Patterns {
		re, err := regexp.Compile(p)
		switch {
		case err != nil:
			return nil, fmt.Errorf("pattern rule %q: %v", p, err)
		case re.MatchString(""):
			return nil, fmt.Errorf("pattern rule %q matches the empty string", p)
		case re.MatchString(Redacted):
			// The recorder would replace its own replacement on every save.
			return nil, fmt.Errorf("pattern rule %q matches in %q, its own replacement", p, Redacted)
		}
		x.patterns = append(x.patterns, rulePattern{text: p, re: re})
	}
	return x, nil
}

// header is the index of name among the headers dropped, -1 when it is
// not one of them.
func (x *Redactor) header(name string) int {
	return slices.IndexFunc(x.headers, func(h string) bool { return strings.EqualFold(h, name) })
}

// Text replaces the matches of the rules' patterns in s.
func (x *Redactor) Text(s string) string {
	for _, p := range x.patterns {
		s = p.re.ReplaceAllLiteralString(s, Redacted)
	}
	return s
}

// URL is u as stored: without user information, patterns replaced.
func (x *Redactor) URL(u *url.URL) string {
	if u.User != nil {
		c := *u
		c.User = nil
		u = &c
	}
	return x.Text(u.String())
}

// Headers returns a copy of h without the credential headers and the
// rules' ones, patterns replaced in the values that are left.
func (x *Redactor) Headers(h http.Header) http.Header {
	out := make(http.Header, len(h))
	for name, values := range h {
		if x.header(name) >= 0 {
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

// Body replaces the matches of the rules' patterns in b and, when b is
// JSON, the values at the rules' paths (then written compactly, object
// members sorted). A body they do not change is returned as it is.
func (x *Redactor) Body(b []byte) []byte {
	for _, p := range x.patterns {
		b = p.re.ReplaceAllLiteral(b, []byte(Redacted))
	}
	if len(x.paths) == 0 || len(b) == 0 {
		return b
	}
	v, err := decodeJSON(b)
	if err != nil {
		return b
	}
	changed := false
	for _, p := range x.paths {
		v = redactPath(v, p.segs, &changed)
	}
	if !changed {
		return b
	}
	return encodeJSON(v)
}

func redactPath(v any, path []string, changed *bool) any {
	if len(path) == 0 {
		*changed = true
		return Redacted
	}
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if path[0] == "*" || path[0] == k {
				v[k] = redactPath(e, path[1:], changed)
			}
		}
	case []any:
		for i, e := range v {
			if path[0] == "*" || path[0] == strconv.Itoa(i) {
				v[i] = redactPath(e, path[1:], changed)
			}
		}
	}
	return v
}

// decodeJSON decodes exactly one JSON value, numbers as their text.
func decodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("trailing data")
	}
	return v, nil
}

// encodeJSON writes a value decodeJSON made, compactly, without HTML
// escapes.
func encodeJSON(v any) []byte {
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false)
	e.Encode(v) // values come from decodeJSON: always encodable
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}
