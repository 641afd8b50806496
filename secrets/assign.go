package secrets

import (
	"encoding/json"
	"iter"
	"slices"
	"strings"
)

// assignment is a value assigned to a name in a text: `"api_key":
// "value"` (quotes possibly escaped, as in JSON inside a JSON string; the
// name possibly spelled with escapes, "\u0061pi_key", and spaces or tabs
// around ":"), `api_key=value`, `aws_secret_access_key = value` (INI),
// `HF_TOKEN="value"` (.env), `<SecretAccessKey>value</SecretAccessKey>`
// (XML), a weaker name after "?" or "&", as in a URL inside text:
// `?token=value`, `&sig=value`, a line `password: value` (YAML, a header
// block, a note; lineAssignment), or a command's flag `--password value`
// (flagAssignment).
type assignment struct {
	name       string
	kind       nameKind
	start, end int // the value's span
	form       assignForm
	// unquoted: an unquoted value after "=", read to its separator.
	unquoted bool
	// glued: a password glued to MySQL's -p, whose first mark makes no
	// reference (gluedPassword).
	glued bool
}

// assignForm is how an assignment is written, which its finding says.
type assignForm uint8

const (
	formEquals assignForm = iota // name=value, and XML's <Name>value</Name>
	formJSON                     // "name": "value"
	formLine                     // name: value
	formFlag                     // --name value
	formPair                     // {"name": "NAME", "value": "value"}
	formWord                     // a command's or a statement's word, then the value: AUTH value
)

func nameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}

func blank(c byte) bool { return c == ' ' || c == '\t' }

// assignments finds the assignments to secret names in s, in one pass over
// each of its "=", ":" and "</"; keyed says whether s has a JSON key with
// a secret name, whatever its value, or a name/value pair's name member
// naming a secret (pairAssignment).
func assignments(s string) (out []assignment, keyed bool) {
	eq, _ := equalsAssignments(s)
	out = append(out, eq...)
	for i := range indexes(s, ":") {
		a, key, ok := jsonAssignment(s, i)
		keyed = keyed || key
		switch {
		case key:
			if !ok { // "password": '…'
				a, ok = codeAssignment(s, i)
			}
		case a.name != "": // a JSON key that names no secret
			if pairNameKey(a.name) || pairValueKey(a.name) {
				a, key, ok = pairAssignment(s, i, a.name)
				keyed = keyed || key
			}
		default:
			a, ok = lineAssignment(s, i)
			if !ok {
				a, ok = markdownLabel(s, i)
			}
			if !ok {
				a, ok = yamlPair(s, i)
			}
			if !ok {
				a, ok = codeAssignment(s, i)
			}
		}
		if ok && a.end > a.start {
			out = append(out, a)
		}
	}
	for i := range indexes(s, "ENV ") {
		if a, ok := envInstruction(s, i); ok {
			out = append(out, a)
		}
	}
	for _, open := range []string{"(", "["} {
		for i := range indexes(s, open) {
			if a, ok := argumentPair(s, i); ok {
				out = append(out, a)
			}
		}
	}
	for i := range indexes(s, "--") {
		if a, ok := flagAssignment(s, i); ok {
			out = append(out, a)
		}
	}
	if strings.IndexByte(s, '|') >= 0 {
		out = append(out, tableRows(s)...)
	}
	out = append(out, shellAssignments(s)...)
	out = append(out, respAuth(s)...)
	out = append(out, sqlPasswords(s)...)
	out = append(out, sqlProcedurePasswords(s)...)
	for _, flag := range []string{"-H", "--header"} {
		for i := range indexes(s, flag) {
			if i == 0 || blank(s[i-1]) || strings.IndexByte("\n\"'", s[i-1]) >= 0 {
				if a, ok := headerFlag(s, i); ok {
					out = append(out, a)
				}
			}
		}
	}
	for i := range indexes(s, "</") {
		if a, ok := xmlAssignment(s, i); ok {
			out = append(out, a)
		}
	}
	return out, keyed
}

// indexes are the offsets of sep in s, each found by a vectorized search.
func indexes(s, sep string) iter.Seq[int] {
	return func(yield func(int) bool) {
		for at := 0; ; {
			i := strings.Index(s[at:], sep)
			if i < 0 || !yield(at+i) {
				return
			}
			at += i + len(sep)
		}
	}
}

// nameStart is where the name that ends at s[e] starts: back over its
// bytes, but not over the letter of an escape before it, so that a name
// after a line break in JSON-escaped text (`\nAPI_KEY=…`) is API_KEY.
func nameStart(s string, e int) int {
	j := e
	for j > 0 && nameByte(s[j-1]) {
		j--
	}
	if j < e && j > 0 && s[j-1] == '\\' && strings.IndexByte("nrt", s[j]) >= 0 {
		j++
	}
	return j
}

// quotedAt reads the value that a quote (", ' or an escaped \") at s[k]
// opens: the span between it and its closing quote on the same line;
// quoted is false when s[k] is no quote, ok false when the value is empty
// or not closed.
func quotedAt(s string, k int) (start, end int, quoted, ok bool) {
	if k+1 < len(s) && strings.IndexByte("bBrRuUfF", s[k]) >= 0 {
		// Python's string prefixes: b"…", r'…', rb"…", f"…".
		q := k + 1
		if strings.IndexByte("bBrRfF", s[q]) >= 0 && s[q]|0x20 != s[k]|0x20 && q+1 < len(s) {
			q++
		}
		if s[q] == '"' || s[q] == '\'' || s[q] == '\\' && q+1 < len(s) && s[q+1] == '"' {
			k = q
		}
	}
	if k+1 < len(s) && s[k] == '\\' && s[k+1] == '"' {
		// An escaped quote, as code inside a JSON string writes one
		// (password=\"…\"): the value runs to the next one.
		start = k + 2
		n := strings.Index(s[start:], `\"`)
		if n < 0 || strings.IndexByte(s[start:start+n], '\n') >= 0 {
			return start, start, true, false
		}
		return start, start + n, true, n > 0
	}
	if k >= len(s) || s[k] != '"' && s[k] != '\'' {
		return k, k, false, false
	}
	start = k + 1
	// The line break is looked for up to the closing quote only, not to
	// the text's end: on a long line of quotes each look would read the
	// rest of the line.
	n := strings.IndexByte(s[start:], s[k])
	if n < 0 || strings.IndexByte(s[start:start+n], '\n') >= 0 {
		return start, start, true, false
	}
	return start, start + n, true, n > 0
}

// lineAssignment reads `name: value` around the ":" at i, as YAML, a
// header block or a note writes it: the name starts a line (after
// indentation or a list's "- "), or the text of a string (after its
// quote, " or ', as in curl -H 'X-Api-Key: …', or an escaped line break),
// and a blank follows the ":"; the value
// is the rest of the line. Prose labels things so too ("Password: see the
// vault"), so that the value must look like a credential whatever the
// name: the assignment's kind is weakName (credentialShaped).
func lineAssignment(s string, i int) (assignment, bool) {
	j := nameStart(s, i)
	if j == i || i+1 >= len(s) || !blank(s[i+1]) {
		return assignment{}, false
	}
	p := j
	for p > 0 && (blank(s[p-1]) || p >= 2 && s[p-2] == '\\' && s[p-1] == 't' && backslashesBefore(s, p-1)%2 == 1) {
		p-- // indentation, raw or JSON's \t ({"content":"\tpassword: …"})
		if s[p] == 't' {
			p--
		}
	}
	if p > 0 && s[p-1] == '-' && p < j { // "- name:", an item of a list
		for p--; p > 0 && blank(s[p-1]); p-- {
		}
	}
	if p > 0 && p < j && (s[p-1] == '>' || s[p-1] == '<') && lineStart(s, p-1) {
		p-- // "> X-Auth-Token: …", a header curl -v shows sent ("<" received)
	}
	name := s[j:i]
	if !(lineStart(s, p) || s[p-1] == '"' || s[p-1] == '\'') {
		// Mid-line, only a session's id, its name told by one of its words
		// before the names' reading, which prose's "Note: " would cost.
		if blank(s[j-1]) && (hasFold(name, "sid") || hasFold(name, "sess")) && fieldKind(name) == sessionName {
			return midLineSession(s, name, i)
		}
		if blank(s[j-1]) || strings.IndexByte("([{|,", s[j-1]) >= 0 {
			// "… send x-api-key: 9fK2… with each call": a credential's
			// name, strong or weak (token, key, secret), and one word
			// that is a generated key; the name may be a phrase ("the
			// API key: …", "Your password is: …") or open a bracket
			// ("(password: …)").
			if n, kind := labelPhrase(s, j, name); kind == tokenWord || kind >= weakName {
				return midLineKey(s, n, max(kind, strongName), i)
			}
		}
		return assignment{}, false
	}
	kind := fieldKind(name)
	if kind == notSecret {
		return assignment{}, false
	}
	stops := `\"` // the end of a JSON string, or of a quoted header
	if p > 0 && s[p-1] == '\'' {
		stops += `'`
	}
	start, end, ok := lineValue(s, i, stops)
	if ok && (start == 0 || s[start-1] != '"' && s[start-1] != '\'') && codeValue(s[start:end]) {
		return assignment{}, false // cookies: make(map[…]struct{}), in a Go literal
	}
	if ok && kind == sessionName && strings.ContainsAny(s[start:end], " \t") {
		// "sessionid: 8f3a… expired": a session's id is one word, the
		// rest of the line prose about it.
		return midLineSession(s, name, i)
	}
	if ok && kind == passwordName && passphraseEnd(s, start) == end {
		return assignment{name: name, kind: kind, start: start, end: end, form: formLine}, true // db_password: correct horse battery staple
	}
	if ok && (kind == strongName || kind == passwordName) && strings.ContainsAny(s[start:end], " \t") && !credentialShaped(s[start:end]) {
		// "x-api-key: 9fK2… with each call": a key, then words about it
		// (a value that goes whole, "password: 9fK2… Tr0ub4dor&3", goes
		// whole)
		if a, key := midLineKey(s, name, kind, i); key {
			return a, true
		}
	}
	return assignment{name: name, kind: min(kind, weakName), start: start, end: end, form: formLine}, ok
}

// hasFold: name holds w, lower-case ASCII letters, in any case.
func hasFold(name, w string) bool {
	for k := 0; k+len(w) <= len(name); k++ {
		if strings.EqualFold(name[k:k+len(w)], w) {
			return true
		}
	}
	return false
}

// labelPhrase is the name a sentence gives the label that ends at the
// word name, which starts at s[j], and its kind: the word's own when it
// is a credential's strong name, else that of the phrase of up to two
// words before it joined to it when that is (API key is API_key, Client
// Secret Client_Secret), else the word's; past a verb that ends the
// phrase (Your password is: …, The API key was: …).
func labelPhrase(s string, j int, name string) (string, nameKind) {
	if k := fieldKind(name); k >= strongName {
		return name, k
	}
	var words []string // the words before name, nearest first
	for p := j; len(words) < 3; {
		e := p - 1 // the blank before the word
		if e <= 0 || !blank(s[e]) {
			break
		}
		b := e
		for b > 0 && asciiLetter(s[b-1]) {
			b--
		}
		if b == e {
			break
		}
		words = append(words, s[b:e])
		p = b
	}
	switch strings.ToLower(name) {
	case "is", "was", "are":
		if len(words) == 0 {
			return name, notSecret
		}
		name, words = words[0], words[1:]
	}
	for n, k := 0, name; n < len(words) && n < 2; n++ {
		k = words[n] + "_" + k
		if kind := fieldKind(k); kind == strongName || kind == passwordName {
			return k, kind
		}
	}
	return name, fieldKind(name)
}

// midLineKey reads a credential labelled by its own name in a sentence
// ("… send x-api-key: 9fK2… with each call", "the admin password:
// Zq7xZ8mR3pY9wB7t"): the one word after the ":" at i, without the
// punctuation that ends a sentence, when it is a generated key
// (generatedKey). A sentence labels other things so, and code annotates
// a parameter's type so ("the password: see the vault", "private_key:
// Ed25519PrivateKey", "api_key: cfg.apiKey", "model: gpt-4o-2024-08-06"),
// which stay.
func midLineKey(s, name string, kind nameKind, i int) (assignment, bool) {
	a, _ := midLineSession(s, name, i)
	a.kind = kind
	return a, generatedKey(s[a.start:a.end])
}

// generatedKey: v, one word, is a key a machine generated rather than
// an id, a name, a path, a version, a type or words: 16 characters or
// more; upper- and lower-case letters and digits, interleaved (at least
// three runs of digits and three of letters, as in Zq7xZ8mR3pY9wB7t); not
// a typed id (req_…, order_…, ch_…, web-7d9f…: a lower-case prefix and
// a separator; keys with a typed prefix are known by their formats) nor
// a name that holds a credential's word (apiKeyV2ForUser3, password2024);
// none of the marks of a path, a URL, a file, code or markup (. : ~ [ <
// ( { $ @ & at its start or within, = but at the end), credential-shaped.
// Hexadecimal digests, UUIDs, ULIDs and base32, which ids are written in
// as often as keys, have one case only.
func generatedKey(v string) bool {
	if len(v) < 16 || strings.ContainsAny(v, ".:~[]<>(){}$@&\"'`") || v[0] == '/' || strings.Contains(strings.TrimRight(v, "="), "=") ||
		!credentialShaped(v) || typedPrefix(v) {
		return false
	}
	lower := strings.ToLower(v)
	for _, w := range []string{"key", "secret", "token", "pass", "pwd"} {
		if strings.Contains(lower, w) {
			return false
		}
	}
	digits, letters := 0, 0
	var last byte // 'd', 'l' or 0
	upper, low := false, false
	for k := 0; k < len(v); k++ {
		c := v[k]
		switch {
		case c >= '0' && c <= '9':
			if last != 'd' {
				digits++
			}
			last = 'd'
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			if last != 'l' {
				letters++
			}
			last = 'l'
			upper, low = upper || c <= 'Z', low || c >= 'a'
		default:
			last = 0
		}
	}
	return digits >= 3 && letters >= 3 && upper && low
}

// typedPrefix: v starts with a type's lower-case name and a separator,
// as typed ids do (req_8f3a…, ch_3OqR…, web-7d9f8b6c5-x2k4p).
func typedPrefix(v string) bool {
	k := 0
	for k < len(v) && k <= 12 && v[k] >= 'a' && v[k] <= 'z' {
		k++
	}
	return k >= 2 && k <= 12 && k < len(v) && (v[k] == '_' || v[k] == '-')
}

// midLineSession reads a session's id labelled in a sentence ("… its
// sessionid: 8f3a… expired"): the one word after the ":" at i, without
// the punctuation that ends a sentence or closes a bracket; its value
// must look generated (sessionValue).
func midLineSession(s, name string, i int) (assignment, bool) {
	start := skipBlanks(s, i+1)
	end := start
	for end < len(s) && !tagSpace(s[end]) && strings.IndexByte("\"'<>\\", s[end]) < 0 {
		end++
	}
	for end > start && strings.IndexByte(".,;:)]}|!?", s[end-1]) >= 0 {
		end--
	}
	return assignment{name: name, kind: sessionName, start: start, end: end, form: formLine}, end > start && proseSessionValue(s[start:end])
}

// envInstruction reads a Dockerfile's ENV instruction in its form
// without "=" at the "ENV " at i, which starts a line (after indentation,
// or an escaped line break): `ENV API_KEY value`, the value the rest of
// the line. ENV NAME=value is an equalsAssignment.
func envInstruction(s string, i int) (assignment, bool) {
	p := i
	for p > 0 && blank(s[p-1]) {
		p--
	}
	if !lineStart(s, p) {
		return assignment{}, false
	}
	j := i + len("ENV ")
	for j < len(s) && blank(s[j]) {
		j++
	}
	e := j
	for e < len(s) && nameByte(s[e]) {
		e++
	}
	if e == j || e >= len(s) || !blank(s[e]) {
		return assignment{}, false
	}
	name := s[j:e]
	kind := fieldKind(name)
	if kind == notSecret {
		return assignment{}, false
	}
	start, end, ok := lineValue(s, e, `\"`)
	return assignment{name: name, kind: kind, start: start, end: end}, ok
}

// lineValue reads the value after the ":" at i on a line: quoted, or the
// rest of the line, up to a comment (" #") or one of the bytes in stops,
// its blanks trimmed.
func lineValue(s string, i int, stops string) (start, end int, ok bool) {
	start = i + 1
	for start < len(s) && blank(s[start]) {
		start++
	}
	if vs, ve, quoted, ok := quotedAt(s, start); quoted {
		return vs, ve, ok
	}
	end = start
	for end < len(s) && s[end] != '\r' && s[end] != '\n' && strings.IndexByte(stops, s[end]) < 0 && !(s[end] == '#' && blank(s[end-1])) {
		end++
	}
	for end > start && blank(s[end-1]) {
		end--
	}
	if blockIndicator(s[start:end]) {
		return blockValue(s, end, lineIndent(s, i))
	}
	return start, end, end > start
}

// blockIndicator: v opens a YAML block scalar (|, >, |-, >+, |2-).
func blockIndicator(v string) bool {
	if v == "" || v[0] != '|' && v[0] != '>' {
		return false
	}
	return strings.Trim(v[1:], "+-123456789") == "" && len(v) <= 3
}

// lineIndent is the indentation of the line that holds s[i].
func lineIndent(s string, i int) int {
	start := strings.LastIndexByte(s[:i], '\n') + 1
	n := 0
	for start+n < i && blank(s[start+n]) {
		n++
	}
	return n
}

// blockValue reads a YAML block scalar's lines after its indicator,
// which ends at end: the lines indented more than indent (blank ones
// among them), from the first one's text to the last one's end.
func blockValue(s string, end, indent int) (start, stop int, ok bool) {
	start, stop = -1, -1
	for at := end; at < len(s); {
		nl := strings.IndexByte(s[at:], '\n')
		if nl < 0 {
			break
		}
		line := at + nl + 1
		lineEnd := len(s)
		if e := strings.IndexByte(s[line:], '\n'); e >= 0 {
			lineEnd = line + e
		}
		text := strings.TrimRight(s[line:lineEnd], " \t\r")
		n := 0
		for n < len(text) && blank(text[n]) {
			n++
		}
		if n == len(text) { // a blank line inside the block
			at = lineEnd
			continue
		}
		if n <= indent {
			break
		}
		if start < 0 {
			start = line + n
		}
		stop, at = line+len(text), lineEnd
	}
	return start, stop, start >= 0
}

// flagAssignment reads a command line's `--name value` at the "--" at i
// (`--name=value` is equalsAssignment's): the flag starts a word, a blank
// follows its name, and the value is the next word, quoted or not, unless
// it is another flag. As in lineAssignment, the value must look like a
// credential whatever the name (weakName's test): `--token-budget 1000`
// and `--password-file ~/.pw` stay.
func flagAssignment(s string, i int) (assignment, bool) {
	if i > 0 && !blank(s[i-1]) && s[i-1] != '\n' && s[i-1] != '"' && s[i-1] != '\'' {
		return assignment{}, false
	}
	j := i + 2
	for j < len(s) && nameByte(s[j]) {
		j++
	}
	name := s[i+2 : j]
	kind := min(fieldKind(name), weakName)
	if name == "pass" || name == "pw" {
		kind = weakName // a command's --pass, --pw: its password when it looks like one
	}
	if name == "" || j >= len(s) || !blank(s[j]) || kind == notSecret {
		return assignment{}, false
	}
	start := j
	for start < len(s) && blank(s[start]) {
		start++
	}
	if start >= len(s) || s[start] == '-' {
		return assignment{}, false
	}
	if vs, ve, quoted, ok := quotedAt(s, start); quoted {
		return assignment{name: name, kind: kind, start: vs, end: ve, form: formFlag}, ok
	}
	end := start
	for end < len(s) && !strings.ContainsRune(" \t\r\n\\\"'", rune(s[end])) {
		end++
	}
	return assignment{name: name, kind: kind, start: start, end: end, form: formFlag}, end > start
}

// jsonAssignment reads `"name": "value"` around the ":" at i (quotes
// possibly escaped, the name possibly with escapes, blanks around ":"):
// key says the name is a secret one, ok that a string value follows. A
// key that names no secret comes back in a.name, key false.
func jsonAssignment(s string, i int) (a assignment, key, ok bool) {
	name, ok := jsonKey(s, i)
	if !ok {
		return a, false, false
	}
	kind := fieldKind(name)
	if kind == notSecret {
		return assignment{name: name}, false, false
	}
	start, end, ok := jsonStringAfter(s, i)
	if !ok {
		return a, true, false
	}
	if end == start && kind == passwordName {
		end = escapedMarkPassword(s, start)
	}
	start, end = afterScheme(s, start, end)
	return assignment{name: name, kind: kind, start: start, end: end, form: formJSON}, true, true
}

// escapedMarkPassword is the end of the JSON string value at s[start:]
// when it starts with one of quotedMarkPassword's marks ("&", "@", "%",
// "!") as encoding/json escapes them (\u0026welcome1) and is, decoded, a
// password by markPassword; else start, as jsonStringAfter reads a value
// up to its first escape. The value may hold no escape but \u00XX.
func escapedMarkPassword(s string, start int) int {
	if !strings.HasPrefix(s[start:], `\u00`) || start+6 > len(s) {
		return start
	}
	switch strings.ToLower(s[start+4 : start+6]) {
	case "26", "40", "25", "21":
	default:
		return start
	}
	e := start
	for e < len(s) && s[e] != '"' && s[e] != '\n' && e-start <= 256 {
		if s[e] == '\\' {
			if !strings.HasPrefix(s[e:], `\u00`) || e+6 > len(s) {
				return start
			}
			e += 6
			continue
		}
		e++
	}
	if e >= len(s) || s[e] != '"' {
		return start
	}
	if v := jsonUnescaped(s[start:e]); len(v) < 4 || !markPassword(v) {
		return start
	}
	return e
}

// closedAt: the string value that ends at s[e] ends at its closing quote,
// possibly escaped.
func closedAt(s string, e int) bool {
	return e < len(s) && (s[e] == '"' || s[e] == '\\' && e+1 < len(s) && s[e+1] == '"')
}

// afterScheme is the span of the credential in the string value at
// [start, end): the token after an authorization scheme when the value is
// a scheme and one token, closed by its quote ("Token …", "Bearer …",
// "Basic …"), or the value as it is.
func afterScheme(s string, start, end int) (int, int) {
	sp := strings.IndexByte(s[start:end], ' ')
	if sp <= 0 || !closedAt(s, end) || strings.IndexByte(s[start+sp+1:end], ' ') >= 0 || start+sp+1 == end ||
		!slices.ContainsFunc(authSchemes, func(a string) bool { return strings.EqualFold(a, s[start:start+sp]) }) {
		return start, end
	}
	return start + sp + 1, end
}

// jsonKey reads the JSON key that ends before the ":" at i: `"name"`, its
// quotes possibly escaped, the name possibly spelled with escapes.
func jsonKey(s string, i int) (name string, ok bool) {
	j := i
	for j > 0 && (blank(s[j-1]) || s[j-1] == '\r' || s[j-1] == '\n') {
		j--
	}
	if j < 2 || s[j-1] != '"' {
		return "", false
	}
	end := j - 1 // the closing quote
	escaped := end > 0 && s[end-1] == '\\'
	q := strings.LastIndexByte(s[:end], '"')
	for q > 0 && !escaped && s[q-1] == '\\' && !(q > 1 && s[q-2] == '\\') {
		// An escaped quote inside the name: look further back.
		q = strings.LastIndexByte(s[:q-1], '"')
	}
	if q < 0 {
		return "", false
	}
	name = s[q+1 : end]
	if escaped {
		name = strings.TrimSuffix(name, "\\")
	}
	if strings.Contains(name, `\`) {
		var u string
		if json.Unmarshal([]byte(`"`+strings.ReplaceAll(name, `\\`, `\`)+`"`), &u) != nil && json.Unmarshal([]byte(`"`+name+`"`), &u) != nil {
			return "", false
		}
		name = u
	}
	return name, true
}

// jsonStringAfter reads the string value after the ":" at i, its opening
// quote possibly escaped: its span runs to its closing quote, or to the
// first backslash or line break in it. Blanks are part of it, so that a
// passphrase is read whole ("correct horse battery staple"), as its
// decoded JSON has it.
func jsonStringAfter(s string, i int) (start, end int, ok bool) {
	k := i + 1
	for k < len(s) && (blank(s[k]) || s[k] == '\r' || s[k] == '\n' || s[k] == '\\') {
		k++
	}
	if k >= len(s) || s[k] != '"' {
		return 0, 0, false
	}
	start = k + 1
	for k = start; k < len(s) && s[k] != '"' && s[k] != '\\' && s[k] != '\n'; k++ {
	}
	return start, k, true
}

// xmlAssignment reads `<Name>value</Name>` ending at the "</" at i.
func xmlAssignment(s string, i int) (assignment, bool) {
	gt := strings.IndexByte(s[i+2:min(len(s), i+2+65)], '>') // a name's length at most: "</</</…" is not read to its end from each
	if gt <= 0 || gt > 64 {
		return assignment{}, false
	}
	name := s[i+2 : i+2+gt]
	if strings.ContainsAny(name, " \t\n<\"'=/") {
		return assignment{}, false
	}
	kind := fieldKind(name[strings.IndexByte(name, ':')+1:]) // without a namespace prefix
	if kind == notSecret {
		return assignment{}, false
	}
	// The element's text holds no "<": its opening tag is the last "<"
	// before i, which a search back finds without passing the closing tag
	// before it (a search for "<"+name read "</password></password>…"
	// back to the start from each).
	open := strings.LastIndexByte(s[:i], '<')
	if open < 0 || !strings.HasPrefix(s[open:], "<"+name) {
		return assignment{}, false
	}
	gt2 := strings.IndexByte(s[open:i], '>')
	if gt2 < 0 {
		return assignment{}, false
	}
	start := open + gt2 + 1
	if strings.ContainsRune(s[start:i], '<') {
		return assignment{}, false // an element, not text
	}
	for start < i && strings.ContainsRune(" \t\r\n", rune(s[start])) {
		start++
	}
	end := i
	for end > start && strings.ContainsRune(" \t\r\n", rune(s[end-1])) {
		end--
	}
	return assignment{name: name, kind: kind, start: start, end: end}, end > start
}

// headerFlag reads a header given to a command by its flag, at i, where a
// word starts: curl's -H and --header, wget's --header=, with
// "Name: value" or "Name:value" after a blank or "=", quoted or not. The
// header is a credential's by its name (credentialHeaders, or a name
// whose words say so), and its value, after a scheme (Bearer, Token),
// must look like one (weakName's test).
func headerFlag(s string, i int) (assignment, bool) {
	var k int
	switch {
	case strings.HasPrefix(s[i:], "-H"):
		k = i + 2
	case strings.HasPrefix(s[i:], "--header"):
		k = i + len("--header")
	default:
		return assignment{}, false
	}
	if k < len(s) && s[k] == '=' {
		k++
	}
	for k < len(s) && blank(s[k]) {
		k++
	}
	quote := ""
	switch {
	case strings.HasPrefix(s[k:], `\"`):
		quote = `\"`
	case k < len(s) && (s[k] == '"' || s[k] == '\''):
		quote = s[k : k+1]
	}
	j := k + len(quote)
	e := j
	for e < len(s) && nameByte(s[e]) && e-j <= 64 {
		e++
	}
	if e == j || e >= len(s) || s[e] != ':' {
		return assignment{}, false
	}
	name := s[j:e]
	kind := min(fieldKind(name), weakName)
	if slices.ContainsFunc(credentialHeaders, func(h string) bool { return strings.EqualFold(h, name) }) {
		kind = weakName
	}
	if kind == notSecret {
		return assignment{}, false
	}
	start := e + 1
	for start < len(s) && blank(s[start]) {
		start++
	}
	end := start
	for end < len(s) && s[end] != '\n' && s[end] != '\r' && (quote != "" && !strings.HasPrefix(s[end:], quote) || quote == "" && !blank(s[end]) && s[end] != '\\') {
		end++
	}
	if quote != "" && !strings.HasPrefix(s[end:], quote) {
		return assignment{}, false
	}
	if sp := strings.IndexByte(s[start:end], ' '); sp > 0 && slices.ContainsFunc(authSchemes, func(a string) bool { return strings.EqualFold(a, s[start:start+sp]) }) {
		start += sp + 1 // the token after its scheme
	}
	return assignment{name: name, kind: kind, start: start, end: end, form: formLine}, end > start
}
