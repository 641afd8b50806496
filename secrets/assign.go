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
}

// assignForm is how an assignment is written, which its finding says.
type assignForm uint8

const (
	formEquals assignForm = iota // name=value, and XML's <Name>value</Name>
	formJSON                     // "name": "value"
	formLine                     // name: value
	formFlag                     // --name value
	formPair                     // {"name": "NAME", "value": "value"}
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
	for i := range indexes(s, "=") {
		if a, ok := equalsAssignment(s, i); ok {
			out = append(out, a)
		} else if a, ok := attributePair(s, i); ok {
			out = append(out, a)
		} else if a, ok := codeAssignment(s, i); ok {
			out = append(out, a)
		}
	}
	for i := range indexes(s, ":") {
		a, key, ok := jsonAssignment(s, i)
		keyed = keyed || key
		switch {
		case key:
		case a.name != "": // a JSON key that names no secret
			if pairNameKey(a.name) || pairValueKey(a.name) {
				a, key, ok = pairAssignment(s, i, a.name)
				keyed = keyed || key
			}
		default:
			a, ok = lineAssignment(s, i)
			if !ok {
				a, ok = codeAssignment(s, i)
			}
		}
		if ok && a.end > a.start {
			out = append(out, a)
		}
	}
	for i := range indexes(s, "--") {
		if a, ok := flagAssignment(s, i); ok {
			out = append(out, a)
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

// equalsAssignment reads `name=value` around the "=" at i; "==", "!=",
// "<=" and ">=" compare, and an unquoted value with "(" or "[" in it is
// code (`api_key = os.environ["KEY"]`, `password = getpass()`), not a
// credential.
func equalsAssignment(s string, i int) (assignment, bool) {
	if i+1 < len(s) && s[i+1] == '=' || i > 0 && strings.IndexByte("=!<>", s[i-1]) >= 0 {
		return assignment{}, false
	}
	e := i
	for e > 0 && blank(s[e-1]) {
		e--
	}
	j := e
	for j > 0 && nameByte(s[j-1]) {
		j--
	}
	name := s[j:e]
	if name == "" || e < i && j > 0 && s[j-1] != '\n' && s[j-1] != ' ' && s[j-1] != '\t' {
		// Spaces around "=" only in INI and .env lines.
		return assignment{}, false
	}
	var after byte
	if j > 0 {
		after = s[j-1]
	}
	kind := fieldKind(name)
	switch {
	case after == '?' || after == '&' || after == ';':
		kind = paramKind(name)
	case kind == weakName && !(j == 0 || after == '\n' || strings.HasSuffix(s[:j], "export ")):
		// A weak name in prose ("the key=value") is no assignment.
		kind = notSecret
	}
	if kind == notSecret {
		return assignment{}, false
	}
	k := i + 1
	for k < len(s) && blank(s[k]) {
		k++
	}
	start := k
	if vs, ve, quoted, ok := quotedAt(s, k); quoted {
		return assignment{name: name, kind: kind, start: vs, end: ve}, ok
	}
	for k < len(s) && !strings.ContainsRune("&\"'<> \t\r\n\\#;,", rune(s[k])) {
		k++
	}
	if strings.ContainsAny(s[start:k], "([") {
		return assignment{}, false
	}
	return assignment{name: name, kind: kind, start: start, end: k}, k > start
}

// quotedAt reads the value that a quote (" or ') at s[k] opens: the span
// between it and its closing quote on the same line; quoted is false when
// s[k] is no quote, ok false when the value is empty or not closed.
func quotedAt(s string, k int) (start, end int, quoted, ok bool) {
	if k >= len(s) || s[k] != '"' && s[k] != '\'' {
		return k, k, false, false
	}
	start = k + 1
	n := strings.IndexByte(s[start:], s[k])
	if nl := strings.IndexByte(s[start:], '\n'); n < 0 || nl >= 0 && nl < n {
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
	j := i
	for j > 0 && nameByte(s[j-1]) {
		j--
	}
	if j == i || i+1 >= len(s) || !blank(s[i+1]) {
		return assignment{}, false
	}
	p := j
	for p > 0 && blank(s[p-1]) {
		p--
	}
	if p > 0 && s[p-1] == '-' && p < j { // "- name:", an item of a list
		for p--; p > 0 && blank(s[p-1]); p-- {
		}
	}
	if !(p == 0 || s[p-1] == '\n' || s[p-1] == '"' || s[p-1] == '\'' || p >= 2 && s[p-2] == '\\' && s[p-1] == 'n') {
		return assignment{}, false
	}
	name := s[j:i]
	if fieldKind(name) == notSecret {
		return assignment{}, false
	}
	start := i + 1
	for start < len(s) && blank(s[start]) {
		start++
	}
	if vs, ve, quoted, ok := quotedAt(s, start); quoted {
		return assignment{name: name, kind: weakName, start: vs, end: ve, form: formLine}, ok
	}
	end := start
	for end < len(s) && !strings.ContainsRune("\r\n\\\"", rune(s[end])) && !(s[end] == '#' && blank(s[end-1])) && !(s[end] == '\'' && p > 0 && s[p-1] == '\'') {
		end++
	}
	for end > start && blank(s[end-1]) {
		end--
	}
	return assignment{name: name, kind: weakName, start: start, end: end, form: formLine}, end > start
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
	if name == "" || j >= len(s) || !blank(s[j]) || fieldKind(name) == notSecret {
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
		return assignment{name: name, kind: weakName, start: vs, end: ve, form: formFlag}, ok
	}
	end := start
	for end < len(s) && !strings.ContainsRune(" \t\r\n\\\"'", rune(s[end])) {
		end++
	}
	return assignment{name: name, kind: weakName, start: start, end: end, form: formFlag}, end > start
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
	start, end = afterScheme(s, start, end)
	return assignment{name: name, kind: kind, start: start, end: end, form: formJSON}, true, true
}

// afterScheme is the span of the credential in the string value at
// [start, end), which stopped at a blank: the token after an
// authorization scheme ("Token …", "Bearer …", "Basic …"), or the value
// as it is.
func afterScheme(s string, start, end int) (int, int) {
	if end >= len(s) || s[end] != ' ' || !slices.ContainsFunc(authSchemes, func(a string) bool { return strings.EqualFold(a, s[start:end]) }) {
		return start, end
	}
	k := end + 1
	for k < len(s) && s[k] != '"' && s[k] != '\\' && s[k] != ' ' && s[k] != '\n' {
		k++
	}
	if k == end+1 {
		return start, end
	}
	return end + 1, k
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
// first backslash, blank or line break in it.
func jsonStringAfter(s string, i int) (start, end int, ok bool) {
	k := i + 1
	for k < len(s) && (blank(s[k]) || s[k] == '\r' || s[k] == '\n' || s[k] == '\\') {
		k++
	}
	if k >= len(s) || s[k] != '"' {
		return 0, 0, false
	}
	start = k + 1
	for k = start; k < len(s) && s[k] != '"' && s[k] != '\\' && s[k] != ' ' && s[k] != '\n'; k++ {
	}
	return start, k, true
}

// xmlAssignment reads `<Name>value</Name>` ending at the "</" at i.
func xmlAssignment(s string, i int) (assignment, bool) {
	gt := strings.IndexByte(s[i+2:], '>')
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
	open := strings.LastIndex(s[:i], "<"+name)
	if open < 0 {
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

// A name/value pair is an object that says what a value is in a member of
// its own: {"name": "OPENAI_API_KEY", "value": "…"} in Kubernetes' and
// ECS's env lists, {"name": "Authorization", "value": "Bearer …"} in HAR's
// headers, {"key": "apiKey", "value": "…"} in Postman's variables. The
// value member's key says nothing, so the name member's string is the
// value's name, when it is spelt as an identifier or a header (pairName):
// a name with blanks, "Reset password", is a label, not a setting.
var (
	pairNameKeys  = []string{"name", "Name", "NAME", "key", "Key", "KEY"}
	pairValueKeys = []string{"value", "Value", "VALUE"}
)

func pairNameKey(k string) bool  { return slices.Contains(pairNameKeys, k) }
func pairValueKey(k string) bool { return slices.Contains(pairValueKeys, k) }

// pairName: n can name a pair's value (identifier or header spelling, up
// to 128 bytes) and names a secret.
func pairName(n string) (nameKind, bool) {
	if n == "" || len(n) > 128 {
		return notSecret, false
	}
	for i := 0; i < len(n); i++ {
		if !nameByte(n[i]) {
			return notSecret, false
		}
	}
	k := fieldKind(n)
	return k, k != notSecret
}

// pairOf is the name under which a decoded JSON object's value member
// holds a secret, and that member's key, when the object is a name/value
// pair whose name member names one. The keys are looked up in a fixed
// order, so that an object with two spellings of one answers the same
// every time.
func pairOf(m map[string]any) (name, valueKey string, ok bool) {
	for _, nk := range pairNameKeys {
		n, isString := m[nk].(string)
		if !isString {
			continue
		}
		if _, secret := pairName(n); !secret {
			continue
		}
		for _, vk := range pairValueKeys {
			if _, has := m[vk]; has {
				return n, vk, true
			}
		}
		return "", "", false
	}
	return "", "", false
}

// pairAssignment reads a name/value pair written as text, its two members
// next to each other in either order, around the ":" after the key k at
// i: `"name": "NAME", "value": "value"` or `"value": "value", "name":
// "NAME"`, quotes possibly escaped. key says that a name member names a
// secret, wherever its value member is (the check then reads the JSON
// whole, pairOf); ok that the value was found next to it.
func pairAssignment(s string, i int, k string) (a assignment, key, ok bool) {
	start, end, found := jsonStringAfter(s, i)
	if !found {
		return a, false, false
	}
	if pairNameKey(k) {
		kind, secret := pairName(s[start:end])
		if !secret {
			return a, false, false
		}
		next, colon, found := nextMember(s, end)
		if !found || !pairValueKey(next) {
			return a, true, false
		}
		vs, ve, found := jsonStringAfter(s, colon)
		if !found {
			return a, true, false
		}
		vs, ve = afterScheme(s, vs, ve)
		return assignment{name: s[start:end], kind: kind, start: vs, end: ve, form: formPair}, true, true
	}
	next, colon, found := nextMember(s, end)
	if !found || !pairNameKey(next) {
		return a, false, false
	}
	ns, ne, found := jsonStringAfter(s, colon)
	if !found {
		return a, false, false
	}
	kind, secret := pairName(s[ns:ne])
	if !secret {
		return a, false, false
	}
	return assignment{name: s[ns:ne], kind: kind, start: start, end: end, form: formPair}, true, true
}

// nextMember reads the key of the member after a string value that ended
// at s[end] (its closing quote, possibly escaped): `, "key":`, and the
// offset of its ":". Keys with escapes are not read: a pair's keys have
// none.
func nextMember(s string, end int) (key string, colon int, ok bool) {
	k := end
	if k < len(s) && s[k] == '\\' {
		k++
	}
	if k >= len(s) || s[k] != '"' {
		return "", 0, false
	}
	k++
	skip := func() {
		for k < len(s) && (blank(s[k]) || s[k] == '\r' || s[k] == '\n') {
			k++
		}
	}
	skip()
	if k >= len(s) || s[k] != ',' {
		return "", 0, false
	}
	k++
	skip()
	if k < len(s) && s[k] == '\\' {
		k++
	}
	if k >= len(s) || s[k] != '"' {
		return "", 0, false
	}
	k++
	n := k
	for n < len(s) && (s[n] >= 'a' && s[n] <= 'z' || s[n] >= 'A' && s[n] <= 'Z') {
		n++
	}
	key = s[k:n]
	if n < len(s) && s[n] == '\\' {
		n++
	}
	if n >= len(s) || s[n] != '"' {
		return "", 0, false
	}
	k = n + 1
	skip()
	if k >= len(s) || s[k] != ':' {
		return "", 0, false
	}
	return key, k, true
}

// codeAssignment reads what code writes around the "=" or ":" at i: a
// name, bare or quoted (' or "), possibly as an index in brackets, then an
// operator (=, :=, ?=, =>, or :), then a quoted value: `$password =
// "…"`, `password := "…"`, `{'api_key': '…'}` (a Python dict), `'password'
// => '…'`, `{ apiKey: '…' }`, `os.environ["OPENAI_API_KEY"] = "…"`. The
// value must be quoted, and a bare name's value must look like a
// credential (weakName's test), as prose could write it so too; a quoted
// name is a key, judged as a JSON key is (fieldKind).
func codeAssignment(s string, i int) (assignment, bool) {
	opStart, opEnd := i, i+1
	if s[i] == '=' {
		if opEnd < len(s) && s[opEnd] == '>' {
			opEnd++ // =>
		} else if opEnd < len(s) && s[opEnd] == '=' {
			return assignment{}, false // ==
		}
		if i > 0 && (s[i-1] == ':' || s[i-1] == '?') {
			opStart-- // := ?=
		} else if i > 0 && strings.IndexByte("=!<>+-*/%&|^", s[i-1]) >= 0 {
			return assignment{}, false // a comparison or another operator
		}
	}
	e := opStart
	for e > 0 && blank(s[e-1]) {
		e--
	}
	bracket := e > 0 && s[e-1] == ']'
	if bracket {
		e--
	}
	var name string
	quotedName := e > 0 && (s[e-1] == '"' || s[e-1] == '\'')
	if quotedName {
		q := s[e-1]
		j := e - 1
		for j > 0 && nameByte(s[j-1]) {
			j--
		}
		if j == 0 || s[j-1] != q || j == e-1 {
			return assignment{}, false
		}
		name = s[j : e-1]
		if bracket && (j < 2 || s[j-2] != '[') {
			return assignment{}, false
		}
	} else {
		if bracket {
			return assignment{}, false
		}
		j := e
		for j > 0 && nameByte(s[j-1]) {
			j--
		}
		name = s[j:e]
	}
	if name == "" || len(name) > 128 {
		return assignment{}, false
	}
	kind := fieldKind(name)
	if kind == notSecret {
		return assignment{}, false
	}
	if !quotedName {
		kind = weakName
	}
	k := opEnd
	for k < len(s) && blank(s[k]) {
		k++
	}
	vs, ve, quoted, ok := quotedAt(s, k)
	if !quoted || !ok {
		return assignment{}, false
	}
	return assignment{name: name, kind: kind, start: vs, end: ve}, true
}

// attributePair reads a tag's value attribute at the "=" at i when the
// tag says what the value is in another attribute: `<input type="password"
// value="…">`, `<input name="api_key" value="…">`, `<add key="ApiKey"
// value="…" />` (a .NET config), a name/value pair written as attributes
// (pairName). Entities in the value are not decoded.
func attributePair(s string, i int) (assignment, bool) {
	if i < 6 || !strings.EqualFold(s[i-5:i], "value") || nameByte(s[i-6]) || !blank(s[i-6]) {
		return assignment{}, false
	}
	vs, ve, quoted, ok := quotedAt(s, i+1)
	if !quoted || !ok {
		return assignment{}, false
	}
	lt := strings.LastIndexByte(s[:i], '<')
	if lt < 0 || strings.IndexByte(s[lt:i], '>') >= 0 {
		return assignment{}, false
	}
	gt := strings.IndexByte(s[ve:], '>')
	if gt < 0 {
		return assignment{}, false
	}
	tag := s[lt : ve+gt]
	var name string
	var kind nameKind
	for a := range indexes(tag, "=") {
		j := a
		for j > 0 && nameByte(tag[j-1]) {
			j--
		}
		attr := tag[j:a]
		as, ae, quoted, ok := quotedAt(tag, a+1)
		if !quoted || !ok {
			continue
		}
		v := tag[as:ae]
		switch {
		case strings.EqualFold(attr, "type") && strings.EqualFold(v, "password"):
			return assignment{name: "password", kind: passwordName, start: vs, end: ve, form: formPair}, true
		case kind == notSecret && (strings.EqualFold(attr, "name") || strings.EqualFold(attr, "key") || strings.EqualFold(attr, "id")):
			if k, secret := pairName(v); secret {
				name, kind = v, k
			}
		}
	}
	if kind == notSecret {
		return assignment{}, false
	}
	return assignment{name: name, kind: kind, start: vs, end: ve, form: formPair}, true
}
