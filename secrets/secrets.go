// Package secrets says what in a recorded HTTP exchange is a secret and
// removes it, with one rule set for the recorder that stores cassettes and
// for the check that proves them: credential headers, the values of names
// that hold credentials (read as words and judged by family: *_token,
// *_secret, *_key, *_password, with allow-lists of look-alikes such as
// sort_key, page_token, has_password) in query strings, forms, multipart
// fields, JSON at any depth, XML, INI and .env text, `name: value` lines
// (YAML, header blocks), a command's `--name value` flags (the value
// credential-shaped), the password a command takes (mysql -p…, docker login
// -p …, a literal piped to --password-stdin, chpasswd or sudo -S, Redis's
// AUTH where it is Redis's, httpie's items, the secrets that secret stores,
// archivers and directory clients take in flags of their own: gh secret set
// --body, zip -P, openssl's pass:…, ldapsearch -w, sqlplus user/…, htpasswd
// -b, see commandflags.go; also of a command that docker exec, kubectl exec,
// ssh, sudo, bash -c or a runner's "--" runs, or that a prompt, a
// Dockerfile's RUN, a list's marker, a log line's time or a sentence's
// first words lead in to, or that a process API lists; each command read
// once: see shell.go),
// SQL's password literals inside a statement that sets one (sql.go) and
// name/value pairs ({"name": "OPENAI_API_KEY", "value": "…"}, as env lists
// and HAR headers write them), code's quoted assignments ({'api_key': '…'},
// $password = "…", quotes possibly escaped) and arguments
// (os.Setenv("OPENAI_API_KEY", "…")), Dockerfile ENV and .netrc entries, a
// tag's value attribute named by another (type="password", key="ApiKey"),
// keys of the model and developer platforms recognisable by their shape
// (sk-, hf_, gsk_, ghp_, glpat-, AKIA, ya29., JWTs, bearer tokens, private
// keys, also in base64 or base64url, connection-string passwords, webhook
// URLs), a key split across a stream's events, a request's credentials
// echoed by the server (raw, URL-encoded or base64), and a project's own
// Rules (headers, field names, JSON paths, patterns, environment variables,
// a function); values that are no credential (yes/no words, enums, algorithm
// names, documented example keys, a key's prefix and an ellipsis, validation
// rules, one ordinary word for a key) are left alone. A Redactor applies
// them to what a recorder stores and matches by, numbering the distinct
// secrets of a run's requests ("[REDACTED]", "[REDACTED-2]") so that
// redaction never merges two requests; Check scans a whole go-vcr cassette
// file (comments, unknown keys, every document, every content coding) for
// whatever redaction should have removed.
package secrets

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Redacted replaces the secret values the Redactor removes. In the
// requests of a recording, distinct secrets are numbered in the order they
// first appear: the first is Redacted, the second "[REDACTED-2]", the third
// "[REDACTED-3]" (see the package documentation); the Rules below say
// "[REDACTED]" for whichever of these a value gets.
const Redacted = "[REDACTED]"

// minKnownLen is the shortest environment value or learned credential that
// is scrubbed wherever it appears: a shorter one would match ordinary text.
const minKnownLen = 6

// Rules are a project's own redaction rules, on top of what is always
// removed (see the package documentation). The same rules configure the
// recorder (recorder.WithRedaction) and the check that a cassette obeys
// them ([Check]). A rules file is their JSON form (Func has none):
//
//	{"headers": ["X-Tenant-Token"], "names": ["tenant_pin"], "json_paths": ["user.email", "messages.*.name"],
//	 "patterns": ["acct-[0-9]+"], "env": ["MY_API_KEY"]}
type Rules struct {
	// Headers are more header names (case-insensitive) to drop.
	Headers []string `json:"headers,omitempty"`
	// Names are more parameter and field names whose values become
	// "[REDACTED]": in query strings, form bodies, and JSON bodies at any
	// depth. They compare without case, "_", "-" and ".", so "tenant_pin"
	// also names tenantPin and Tenant-Pin.
	Names []string `json:"names,omitempty"`
	// JSONPaths are dot-separated paths into JSON request and response
	// bodies whose values become "[REDACTED]" ("user", "metadata.session",
	// "messages.*.name"; "*" is every element or member, a number an
	// index).
	JSONPaths []string `json:"json_paths,omitempty"`
	// Patterns are regular expressions (Go syntax) whose matches in URLs,
	// header values and bodies become "[REDACTED]".
	Patterns []string `json:"patterns,omitempty"`
	// Env names environment variables whose values are secrets: read when
	// the Redactor is built, each value becomes "[REDACTED]" wherever it
	// appears, raw, URL-encoded or base64. An unset variable, or a value
	// shorter than six characters, is ignored.
	Env []string `json:"env,omitempty"`
	// Func finds secrets of the project's own in a text (a URL, a header
	// value, a body, a JSON string): each string it returns becomes
	// "[REDACTED]" wherever it appears in that text, and the check reports
	// it. It must be safe for concurrent use.
	Func func(text string) []string `json:"-"`
}

// Merge returns r with o's rules added; both Funcs apply.
func (r Rules) Merge(o Rules) Rules {
	out := Rules{
		Headers:   slices.Concat(r.Headers, o.Headers),
		Names:     slices.Concat(r.Names, o.Names),
		JSONPaths: slices.Concat(r.JSONPaths, o.JSONPaths),
		Patterns:  slices.Concat(r.Patterns, o.Patterns),
		Env:       slices.Concat(r.Env, o.Env),
		Func:      r.Func,
	}
	switch {
	case r.Func == nil:
		out.Func = o.Func
	case o.Func != nil:
		f, g := r.Func, o.Func
		out.Func = func(text string) []string { return append(f(text), g(text)...) }
	}
	return out
}

// Option configures how [Rules.Redactor] and [Check] build a Redactor.
type Option func(*options)

type options struct {
	getenv func(string) string
}

// WithGetenv replaces os.Getenv for reading the variables of Rules.Env, so
// that a test can set them without touching the process environment.
func WithGetenv(getenv func(name string) string) Option {
	return func(o *options) { o.getenv = getenv }
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
		return Rules{}, fmt.Errorf("rules file %s: %v (want {\"headers\": [...], \"names\": [...], \"json_paths\": [...], \"patterns\": [...], \"env\": [...]})", path, err)
	}
	if _, err := d.Token(); err == nil {
		return Rules{}, fmt.Errorf("rules file %s: data after the JSON object", path)
	}
	if _, err := r.Redactor(WithGetenv(func(string) string { return "" })); err != nil {
		return Rules{}, fmt.Errorf("rules file %s: %v", path, err)
	}
	return r, nil
}

// Redactor applies Rules, and what is always removed, to what a recorder
// stores and matches by. It is safe for concurrent use.
type Redactor struct {
	headers  []string // the credential headers, then the rules'
	builtin  int      // headers[:builtin] are the credential headers
	names    []string // the rules' names, normalized
	paths    []rulePath
	patterns []rulePattern
	known    []known // environment values and learned credentials, each encoding
	funcs    []func(string) []string
	num      *numbering // the placeholders given, shared by the Redactors Learn makes
	mode     scrubMode
}

type rulePath struct {
	text string
	segs []string
}

type rulePattern struct {
	text string
	re   *regexp.Regexp
}

// known is a secret value in one of its encodings, and what to call it.
type known struct {
	text, what string
	value      string // the secret itself, text decoded
}

// Redactor compiles the rules. The error names a rule that cannot work: an
// empty header name, field name or path segment, a pattern that does not
// compile, matches the empty string or matches "[REDACTED]" (whose
// replacement would then never stop matching), an environment variable
// name that is not one.
func (r Rules) Redactor(opts ...Option) (*Redactor, error) {
	o := options{getenv: os.Getenv}
	for _, opt := range opts {
		opt(&o)
	}
	x := &Redactor{headers: slices.Clone(credentialHeaders), builtin: len(credentialHeaders), num: &numbering{}}
	for _, h := range r.Headers {
		if strings.TrimSpace(h) == "" || strings.ContainsAny(h, " \t\r\n:") {
			return nil, fmt.Errorf("header rule %q is not a header name", h)
		}
		x.headers = append(x.headers, h)
	}
	for _, n := range r.Names {
		if normalizeName(n) == "" {
			return nil, fmt.Errorf("name rule %q names no field (want a parameter or JSON field name, e.g. tenant_pin)", n)
		}
		x.names = append(x.names, normalizeName(n))
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
		case re.MatchString(Redacted) || re.MatchString("[REDACTED-2]"):
			// The recorder would replace its own replacement on every save.
			return nil, fmt.Errorf("pattern rule %q matches in %q, its own replacement", p, Redacted)
		}
		x.patterns = append(x.patterns, rulePattern{text: p, re: re})
	}
	for _, name := range r.Env {
		if name == "" || strings.ContainsAny(name, "= \t\r\n$") {
			return nil, fmt.Errorf("env rule %q is not an environment variable name (want e.g. MY_API_KEY, without $)", name)
		}
		if v := strings.TrimSpace(o.getenv(name)); len(v) >= minKnownLen {
			x.known = append(x.known, variants(v, "value of $"+name)...)
		}
	}
	if r.Func != nil {
		x.funcs = append(x.funcs, r.Func)
	}
	return x, nil
}

// dropHeader says whether a header never reaches a cassette: a credential
// header, a rules' header, or one whose name says it holds a credential.
func (x *Redactor) dropHeader(name string) bool {
	return x.header(name) >= 0 || credentialHeaderName(name)
}

// header is the index of name among the headers always dropped and the
// rules' ones, -1 when it is not one of them.
func (x *Redactor) header(name string) int {
	return slices.IndexFunc(x.headers, func(h string) bool { return strings.EqualFold(h, name) })
}

// secretValue says whether v, the value of a JSON field (param false) or
// of a query or form parameter (param true) called name, is a secret to
// remove: see nameKind and secretValueOf. Numbers and placeholders are
// not, unless a rule names the field.
func (x *Redactor) secretValue(name, v string, param bool) bool {
	if v == "" || isRedacted(v) {
		return false
	}
	if x.ruleName(name) {
		return true
	}
	if param {
		return secretValueOf(paramKind(name), v)
	}
	return secretValueOf(fieldKind(name), v)
}

// ruleName: a rule names this field or parameter.
func (x *Redactor) ruleName(name string) bool {
	return len(x.names) > 0 && slices.Contains(x.names, normalizeName(name))
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

func (x *Redactor) redactPath(v any, path []string, changed *bool) any {
	if len(path) == 0 {
		text, ok := v.(string)
		if !ok {
			text = string(encodeJSON(v))
		}
		if ok && isRedacted(text) {
			return v
		}
		*changed = true
		return x.replacement(text)
	}
	switch v := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(v) {
			if path[0] == "*" || path[0] == k {
				v[k] = x.redactPath(v[k], path[1:], changed)
			}
		}
	case []any:
		for i, e := range v {
			if path[0] == "*" || path[0] == strconv.Itoa(i) {
				v[i] = x.redactPath(e, path[1:], changed)
			}
		}
	}
	return v
}

// sortedKeys are an object's keys in order, so that the secrets of a body
// are numbered the same in every run.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
