package secrets

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"
	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
)

// Finding is a credential [Check] found in a cassette.
type Finding struct {
	File        string
	Line        int    // 1-based line of the value in File
	Interaction int    // the interaction's id
	Where       string // "request header", "response body", "request url", ...
	// What names the kind of secret with the value masked to its first
	// characters, e.g. `Authorization header "Bearer sk-p…"`; a Finding never
	// holds a whole secret.
	What string
}

// String is "file:line: interaction N: where: what".
func (f Finding) String() string {
	return fmt.Sprintf("%s:%d: interaction %d: %s: %s", f.File, f.Line, f.Interaction, f.Where, f.What)
}

// Check reads the go-vcr cassette at path and returns the
// credentials it holds, in file order:
//
//   - a value of a credential header: the ones the recorder always drops
//     (Authorization, Proxy-Authorization, Api-Key, X-Api-Key,
//     OpenAI-Organization, OpenAI-Project, Cookie, Set-Cookie), names such
//     as X-Auth-Token or X-Goog-Api-Key, and rules.Headers;
//   - key, api_key, token, access_token, signature and the like in a URL's
//     query or a form, and a password in a URL;
//   - keys in common formats anywhere in headers, URLs and bodies (OpenAI,
//     OpenRouter, Anthropic, AWS, GitHub, Google, Slack, bearer tokens, JWTs,
//     private keys) and JSON fields such as "api_key", "client_secret" or
//     "password" holding a string;
//   - any value at one of rules.JSONPaths other than "[REDACTED]", and any
//     match of one of rules.Patterns, which the recorder would have
//     replaced.
//
// "[REDACTED]" is never a secret, nor are token counts and the other
// vocabulary of chat completions (max_tokens, total_tokens, logprobs'
// "token"). The error is for a file that cannot be read, is not YAML, or is
// not a go-vcr cassette; it names the file and the line.
func Check(path string, rules Rules) ([]Finding, error) {
	c, err := rules.Redactor()
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, cassetteYAMLError(path, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, fmt.Errorf("%s: empty file, not a go-vcr cassette", path)
	}
	root := doc.Content[0]
	// go-vcr's own types check the shape (headers are lists of strings, ids
	// are numbers ...), so the walk below can trust it.
	var typed cassette.Cassette
	if err := root.Decode(&typed); err != nil {
		return nil, cassetteYAMLError(path, err)
	}
	interactions := mappingValue(root, "interactions")
	if root.Kind != yaml.MappingNode || interactions == nil && mappingValue(root, "version") == nil {
		return nil, fmt.Errorf("%s:%d: not a go-vcr cassette: no interactions", path, root.Line)
	}
	s := &secretScan{rules: c, file: path}
	if interactions != nil && interactions.Kind == yaml.SequenceNode {
		for i, it := range interactions.Content {
			id := i
			if n := mappingValue(it, "id"); n != nil {
				if v, err := strconv.Atoi(n.Value); err == nil {
					id = v
				}
			}
			for _, side := range [...]string{"request", "response"} {
				if m := mappingValue(it, side); m != nil {
					s.side(id, side, m)
				}
			}
		}
	}
	slices.SortStableFunc(s.findings, func(a, b Finding) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return strings.Compare(a.What, b.What)
	})
	return s.findings, nil
}

// cassetteYAMLError names the file and the line of a YAML error.
func cassetteYAMLError(path string, err error) error {
	var le *yaml.LoadError
	var les *yaml.LoadErrors
	switch {
	case errors.As(err, &les) && len(les.Errors) > 0:
		le = les.Errors[0]
		return fmt.Errorf("%s:%d: not a go-vcr cassette: %s", path, le.Mark.Line, le.Message)
	case errors.As(err, &le):
		msg := le.Message
		if le.ContextMsg != "" && le.ContextMark.Line > 0 {
			msg += fmt.Sprintf(" (%s started at line %d)", le.ContextMsg, le.ContextMark.Line)
		}
		return fmt.Errorf("%s:%d: corrupt cassette: %s", path, le.Mark.Line, msg)
	}
	return fmt.Errorf("%s: corrupt cassette: %w", path, err)
}

func mappingValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// keyFormats are credentials recognisable by their shape. Each token must
// also mix letters and digits (see random), which keeps words such as
// "sk-learn-pipeline-docs" out. A format's regexp runs only on text holding
// one of its hints (lower-cased text for fold), which makes a clean cassette
// quick to check.
var keyFormats = []struct {
	name  string
	hints []string
	fold  bool
	re    *regexp.Regexp // the secret is the last group, or the whole match
}{
	{"Anthropic API key", []string{"sk-ant-"}, false, regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,}`)},
	{"OpenRouter API key", []string{"sk-or-v1-"}, false, regexp.MustCompile(`\bsk-or-v1-[A-Za-z0-9]{20,}`)},
	{"OpenAI API key", []string{"sk-"}, false, regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{20,}`)},
	{"AWS access key ID", []string{"AKIA", "ASIA", "ABIA", "ACCA"}, false, regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b`)},
	{"GitHub token", []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, false, regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{20,})`)},
	{"Google API key", []string{"AIza"}, false, regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`)},
	{"Slack token", []string{"xox"}, false, regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`)},
	{"JWT", []string{"eyJ"}, false, regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*`)},
	{"bearer token", []string{"bearer"}, true, regexp.MustCompile(`(?i)\bbearer\s+([A-Za-z0-9._~+/-]{16,}=*)`)},
	{"private key", []string{"PRIVATE KEY"}, false, regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----`)},
}

// assignmentHints: text without one of them (lower-cased) holds no
// secretAssignment.
var assignmentHints = []string{"key", "token", "secret", "passw"}

func containsAny(s string, subs []string) bool {
	return slices.ContainsFunc(subs, func(sub string) bool { return strings.Contains(s, sub) })
}

// secretAssignment is `"api_key": "value"` (quotes possibly escaped, as in
// JSON inside a JSON string) or `api_key=value` in free text.
var secretAssignment = regexp.MustCompile(`(?i)\\?"([a-z0-9_-]*(?:api[_-]?key|api[_-]?token|api[_-]?secret|access[_-]?token|auth[_-]?token|refresh[_-]?token|client[_-]?secret|secret[_-]?key|private[_-]?key|password|passwd))\\?"\s*:\s*\\?"([^"\\\s]+)` +
	`|\b(api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret|password)=([^&\s"'<>]+)`)

// secretFieldSuffixes: a JSON field whose name, lower-cased without "_" and
// "-", ends with one of these holds a secret when it holds a string. "token"
// and "key" alone are not among them: chat completions use them for other
// things (logprobs' "token", a tool argument's "key").
var secretFieldSuffixes = []string{
	"apikey", "apitoken", "apisecret", "accesstoken", "authtoken", "refreshtoken", "idtoken",
	"sessiontoken", "bearertoken", "clientsecret", "secretkey", "privatekey", "password", "passwd",
}

// secretParams are query or form parameters, normalized the same way, that
// hold credentials.
var secretParams = []string{
	"key", "token", "auth", "authorization", "secret", "sig", "signature",
	"xamzsignature", "xamzcredential", "xamzsecuritytoken", "xgoogapikey",
}

func normalizeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

func secretField(name string) bool {
	n := normalizeName(name)
	if n == "authorization" || n == "secret" {
		return true
	}
	for _, s := range secretFieldSuffixes {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	return false
}

func secretParam(name string) bool {
	return slices.Contains(secretParams, normalizeName(name)) || secretField(name)
}

// credentialHeaderName tells header names that carry credentials by their
// words: X-Auth-Token, X-Goog-Api-Key, Private-Token, X-Amz-Security-Token.
// "tokens" is not among them: rate-limit headers count tokens.
func credentialHeaderName(name string) bool {
	words := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '-' || r == '_' })
	for i, w := range words {
		switch w {
		case "token", "secret", "password", "passwd", "apikey", "auth", "credential", "credentials":
			return true
		case "key":
			if i > 0 && (words[i-1] == "api" || words[i-1] == "access" || words[i-1] == "secret") {
				return true
			}
		}
	}
	return false
}

// authSchemes precede a credential in a header value; they are kept when
// masking and are no secret on their own.
var authSchemes = []string{"bearer", "basic", "token", "digest", "apikey", "key", "bot"}

// isRedacted: nothing of v is left once "[REDACTED]" and an authorization
// scheme are taken away.
func isRedacted(v string) bool {
	f := strings.Fields(strings.ReplaceAll(v, Redacted, ""))
	return len(f) == 0 || len(f) == 1 && slices.Contains(authSchemes, strings.ToLower(f[0]))
}

// placeholder values stand for a secret without being one.
func placeholder(v string) bool {
	switch strings.ToLower(v) {
	case "", "null", "none", "nil", "true", "false", "undefined", "string":
		return true
	}
	if strings.HasPrefix(v, "$") || strings.HasPrefix(v, "<") || strings.HasPrefix(v, "{{") || strings.Contains(v, Redacted) {
		return true
	}
	if strings.Trim(v, "*xX.•") == "" {
		return true
	}
	// An environment variable's name: OPENAI_API_KEY.
	return strings.IndexFunc(v, func(r rune) bool { return !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') }) < 0 &&
		strings.ContainsRune(v, '_')
}

// random: a token mixes letters and digits, as generated keys do.
func random(s string) bool {
	return strings.ContainsFunc(s, unicode.IsDigit) && strings.ContainsFunc(s, unicode.IsLetter)
}

// mask shows the start of a secret: four characters, fewer for a short one,
// so that at most a third of it is ever printed. An authorization scheme
// ("Bearer") stays whole.
func mask(v string) string {
	v = strings.TrimSpace(v)
	if f := strings.Fields(v); len(f) > 1 && slices.Contains(authSchemes, strings.ToLower(f[0])) {
		return strconv.Quote(f[0] + " " + maskStart(strings.TrimSpace(v[len(f[0]):])))
	}
	return strconv.Quote(maskStart(v))
}

func maskStart(v string) string {
	keep := 4
	if n := utf8.RuneCountInString(v); n < 12 {
		keep = n / 3
	}
	for i := range v {
		if keep == 0 {
			return v[:i] + "…"
		}
		keep--
	}
	return v + "…"
}

// secretScan collects the findings of one file.
type secretScan struct {
	rules    *Redactor
	file     string
	findings []Finding
	// seen holds what was reported at each place, so that a key found by
	// two detectors (an Authorization header holding an sk- key) is one
	// finding.
	seen map[secretPlace][]string
}

type secretPlace struct {
	line, interaction int
	where             string
}

// scalar is one YAML value being scanned: findings get the line of the
// secret inside it.
type scalar struct {
	interaction int
	where       string
	node        *yaml.Node
}

func (c scalar) line(secret string) int {
	n := c.node
	if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0 {
		return n.Line
	}
	// A block scalar starts on the line after its indicator.
	off := max(strings.Index(n.Value, secret), 0)
	return n.Line + 1 + strings.Count(n.Value[:off], "\n")
}

func (s *secretScan) report(at scalar, secret, what string) {
	secret = strings.TrimSpace(secret)
	if secret == "" {
		return
	}
	place := secretPlace{at.line(secret), at.interaction, at.where}
	for _, prev := range s.seen[place] {
		if strings.Contains(prev, secret) || strings.Contains(secret, prev) {
			return
		}
	}
	if s.seen == nil {
		s.seen = make(map[secretPlace][]string)
	}
	s.seen[place] = append(s.seen[place], secret)
	s.findings = append(s.findings, Finding{File: s.file, Line: place.line, Interaction: at.interaction, Where: at.where, What: what})
}

func (s *secretScan) side(id int, side string, m *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		key, v := m.Content[i].Value, m.Content[i+1]
		switch key {
		case "headers", "trailer":
			s.headers(id, side, v)
		case "url", "request_uri":
			s.url(scalar{id, side + " url", v})
		case "form":
			s.params(id, side+" form", "form field", v)
		case "body":
			s.body(scalar{id, side + " body", v})
		default:
			if v.Kind == yaml.ScalarNode {
				s.text(scalar{id, side + " " + key, v}, v.Value, "")
			}
		}
	}
}

func (s *secretScan) headers(id int, side string, m *yaml.Node) {
	if m.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		name := m.Content[i].Value
		k := s.rules.header(name)
		guessed := k < 0 && credentialHeaderName(name)
		for _, v := range m.Content[i+1].Content {
			at := scalar{id, side + " header", v}
			// A listed header holds a secret whatever its value; one
			// guessed from its name only when the value looks generated
			// (X-Clerk-Auth-Status: signed-out is no credential).
			secret := k >= 0 || guessed && len(v.Value) >= 8 && random(v.Value)
			if secret && !isRedacted(v.Value) {
				what := name + " header " + mask(v.Value)
				if k >= s.rules.builtin {
					what += " (rule: header " + s.rules.headers[k] + ")"
				}
				s.report(at, v.Value, what)
			}
			s.text(at, v.Value, " in "+name+" header")
		}
	}
}

func (s *secretScan) url(at scalar) {
	raw := at.node.Value
	if u, err := url.Parse(raw); err == nil {
		if p, ok := u.User.Password(); ok && !isRedacted(p) {
			s.report(at, p, "password in URL "+mask(p))
		}
		q, _ := url.ParseQuery(u.RawQuery) // a bad pair does not hide the others
		for _, name := range slices.Sorted(func(yield func(string) bool) {
			for k := range q {
				if !yield(k) {
					return
				}
			}
		}) {
			for _, v := range q[name] {
				if secretParam(name) && !isRedacted(v) && !placeholder(v) {
					s.report(at, v, name+" query parameter "+mask(v))
				}
				s.text(at, v, "")
			}
		}
	}
	s.text(at, raw, "")
}

// params checks go-vcr's form: parameter names to lists of values.
func (s *secretScan) params(id int, where, kind string, m *yaml.Node) {
	if m.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		name := m.Content[i].Value
		for _, v := range m.Content[i+1].Content {
			at := scalar{id, where, v}
			if secretParam(name) && !isRedacted(v.Value) && !placeholder(v.Value) {
				s.report(at, v.Value, name+" "+kind+" "+mask(v.Value))
			}
			s.text(at, v.Value, "")
		}
	}
}

func (s *secretScan) body(at scalar) {
	raw := at.node.Value
	if v, err := decodeJSON([]byte(raw)); err == nil {
		// The rules' paths first: theirs is the finding that names the rule.
		for _, p := range s.rules.paths {
			walkPath(v, p.segs, nil, func(path []string, v any) {
				if v == Redacted {
					return
				}
				text, ok := v.(string)
				if !ok {
					text = string(encodeJSON(v))
				}
				s.report(at, text, strings.Join(path, ".")+" "+mask(text)+" (rule: json path "+p.text+")")
			})
		}
		s.json(at, v)
	}
	s.text(at, raw, "")
}

// json checks the fields and strings of a decoded JSON body.
func (s *secretScan) json(at scalar, v any) {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(func(yield func(string) bool) {
			for k := range v {
				if !yield(k) {
					return
				}
			}
		}) {
			if str, ok := v[k].(string); ok && secretField(k) && !isRedacted(str) && !placeholder(str) {
				s.report(at, str, strconv.Quote(k)+" field "+mask(str))
			}
			s.json(at, v[k])
		}
	case []any:
		for _, e := range v {
			s.json(at, e)
		}
	case string:
		// Decoded, a string shows what its escapes hid: JSON inside JSON,
		// a key right after "\n".
		s.text(at, v, "")
	}
}

// walkPath calls visit with each value at segs, as redactPath reaches them.
func walkPath(v any, segs, at []string, visit func(path []string, v any)) {
	if len(segs) == 0 {
		visit(at, v)
		return
	}
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			if segs[0] == "*" || segs[0] == k {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			walkPath(v[k], segs[1:], append(at[:len(at):len(at)], k), visit)
		}
	case []any:
		for i, e := range v {
			if segs[0] == "*" || segs[0] == strconv.Itoa(i) {
				walkPath(e, segs[1:], append(at[:len(at):len(at)], strconv.Itoa(i)), visit)
			}
		}
	}
}

// text looks for keys by their format, secret assignments and the rules'
// patterns in str; suffix says where in the scalar str is.
func (s *secretScan) text(at scalar, str, suffix string) {
	// Redactor refused patterns that match in "[REDACTED]", so every match
	// is something the rule should have replaced.
	for _, p := range s.rules.patterns {
		for _, secret := range p.re.FindAllString(str, -1) {
			s.report(at, secret, mask(secret)+suffix+" (rule: pattern "+p.text+")")
		}
	}
	lower := strings.ToLower(str)
	for _, f := range keyFormats {
		if f.fold && !containsAny(lower, f.hints) || !f.fold && !containsAny(str, f.hints) {
			continue
		}
		for _, m := range f.re.FindAllStringSubmatch(str, -1) {
			secret := m[len(m)-1]
			if f.name != "private key" && !random(secret) {
				continue
			}
			s.report(at, secret, f.name+" "+mask(secret)+suffix)
		}
	}
	if !containsAny(lower, assignmentHints) {
		return
	}
	for _, m := range secretAssignment.FindAllStringSubmatch(str, -1) {
		name, v, form := m[1], m[2], `"%s" field %s`
		if name == "" {
			name, v, form = m[3], m[4], "%s=%s"
		}
		plain := v
		if u, err := url.QueryUnescape(v); err == nil {
			plain = u // api_key=%5BREDACTED%5D in a URL
		}
		if isRedacted(plain) || placeholder(plain) {
			continue
		}
		// Reported as decoded, as the query parameter check reports it.
		s.report(at, plain, fmt.Sprintf(form, name, mask(v))+suffix)
	}
}
