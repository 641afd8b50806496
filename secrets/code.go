package secrets

import (
	"strings"
)

// codeAssignment reads what code writes around the "=" or ":" at i: a
// name, bare or quoted (' or "), possibly as an index in brackets, then an
// operator (=, :=, ?=, =>, or :), then a quoted value: `$password =
// "…"`, `password := "…"`, `{'api_key': '…'}` (a Python dict), `'password'
// => '…'`, `{ apiKey: '…' }`, `os.environ["OPENAI_API_KEY"] = "…"`. Code
// also labels and validates ('password' => 'required|min:8', {'password':
// 'This field is required.'}), so that the value must look like a
// credential whatever the name (weakName's test).
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
	if e > 0 && (s[e-1] == '"' || s[e-1] == '\'') {
		q := s[e-1]
		j := e - 1
		for j > 0 && nameByte(s[j-1]) {
			j--
		}
		if j == 0 || s[j-1] != q || j == e-1 || bracket && (j < 2 || s[j-2] != '[') {
			return assignment{}, false
		}
		name = s[j : e-1]
	} else {
		if bracket {
			return assignment{}, false
		}
		name = s[nameStart(s, e):e]
	}
	if name == "" || len(name) > 128 {
		return assignment{}, false
	}
	k := opEnd
	for k < len(s) && blank(s[k]) {
		k++
	}
	vs, ve, quoted, ok := quotedAt(s, k)
	if !quoted || !ok {
		return assignment{}, false
	}
	// The name's kind last: its cache's lock is the dearest step here,
	// and most "=" have no quoted value after them.
	kind := min(fieldKind(name), weakName)
	if kind == notSecret {
		return assignment{}, false
	}
	return assignment{name: name, kind: kind, start: vs, end: ve}, true
}

// attributePair reads a tag's value attribute at the "=" at i when the
// tag says what the value is in another attribute: `<input type="password"
// value="…">`, `<input name="api_key" value="…">`, `<add key="ApiKey"
// value="…" />` (a .NET config), a name/value pair written as attributes
// (pairName); a meta tag's content the same way (`<meta name="csrf-token"
// content="…">`). Attributes may be quoted or not and be on lines of their
// own; entities in the value are not decoded.
func attributePair(s string, i int) (assignment, bool) {
	if !(i >= 6 && strings.EqualFold(s[i-5:i], "value") && tagSpace(s[i-6]) ||
		i >= 8 && strings.EqualFold(s[i-7:i], "content") && tagSpace(s[i-8])) {
		return assignment{}, false
	}
	vs, ve, ok := attributeValue(s, i+1)
	if !ok {
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
		as, ae, ok := attributeValue(tag, a+1)
		if !ok {
			continue
		}
		v := tag[as:ae]
		switch {
		case strings.EqualFold(attr, "type") && strings.EqualFold(v, "password"):
			return assignment{name: "password", kind: passwordName, start: vs, end: ve, form: formPair}, true
		case kind == notSecret && (strings.EqualFold(attr, "name") || strings.EqualFold(attr, "key") || strings.EqualFold(attr, "id")):
			n, joined := attributeName(v)
			if k, secret := pairName(n); secret && (!joined || generatedKey(s[vs:ve])) {
				name, kind = v, k
			}
		}
	}
	if kind == notSecret {
		return assignment{}, false
	}
	return assignment{name: name, kind: kind, start: vs, end: ve, form: formPair}, true
}

// attributeName is the name a form's field gives its value: n, or for a
// bracketed name its last one when that names a credential alone
// (user[password], settings[api_key]), else the last two joined as a
// flat name would be (account[pass] is account_pass, page[token]
// page_token), joined saying so: a joined name's value must be a
// generated key, as the last name is a generic word there (meta[key] holds
// a custom field's name, game[secret] a word). A last name of several
// words is judged alone (user[has_password] names no credential).
func attributeName(n string) (name string, joined bool) {
	b, inner := bracketName(n, len(n))
	if b <= 0 {
		return n, false
	}
	if k, _ := pairName(inner); k >= strongName || len(nameWords(inner)) > 1 {
		return inner, false
	}
	owner := n[:b]
	if ob, o := bracketName(owner, len(owner)); ob > 0 {
		owner = o
	}
	return owner + "_" + inner, true
}

// tagSpace separates a tag's attributes.
func tagSpace(c byte) bool { return blank(c) || c == '\n' || c == '\r' }

// attributeValue reads the value of an attribute after its "=", at k:
// quoted (" or '), or unquoted up to a blank, a line break or the tag's
// end.
func attributeValue(s string, k int) (start, end int, ok bool) {
	if vs, ve, quoted, ok := quotedAt(s, k); quoted {
		return vs, ve, ok
	}
	end = k
	for end < len(s) && !tagSpace(s[end]) && s[end] != '>' && s[end] != '"' && s[end] != '\'' && !(s[end] == '/' && end+1 < len(s) && s[end+1] == '>') {
		end++
	}
	return k, end, end > k
}

// argumentPair reads a name and its value given as the first two
// arguments of a call, or items of a tuple or a list, after the "(" or "["
// at i: `os.Setenv("OPENAI_API_KEY", "…")`, `req.Header.Set("X-Api-Key",
// "…")`, `[("Authorization", "Token …")]`, `["X-Api-Key", "…"]`, quotes
// possibly escaped (code inside a JSON string). Lists also hold labels, so
// that the value must look like a credential whatever the name (weakName).
func argumentPair(s string, i int) (assignment, bool) {
	k := i + 1
	for k < len(s) && blank(s[k]) {
		k++
	}
	var quote string // the name's quote, escaped or not
	switch {
	case k < len(s) && (s[k] == '"' || s[k] == '\''):
		quote = s[k : k+1]
	case strings.HasPrefix(s[k:], `\"`):
		quote = `\"`
	default:
		return assignment{}, false
	}
	j := k + len(quote)
	e := j
	for e < len(s) && e-j <= 128 && nameByte(s[e]) {
		e++
	}
	if e == j || e-j > 128 || !strings.HasPrefix(s[e:], quote) {
		return assignment{}, false
	}
	c := e + len(quote)
	for c < len(s) && blank(s[c]) {
		c++
	}
	if c >= len(s) || s[c] != ',' {
		return assignment{}, false
	}
	for c++; c < len(s) && blank(s[c]); c++ {
	}
	name := s[j:e]
	kind := min(fieldKind(name), weakName)
	if !strings.HasPrefix(s[c:], quote) || kind == notSecret {
		return assignment{}, false
	}
	vs, ve, quoted, ok := quotedAt(s, c)
	if !quoted || !ok {
		return assignment{}, false
	}
	vs, ve = afterScheme(s, vs, ve)
	return assignment{name: name, kind: kind, start: vs, end: ve, form: formPair}, true
}
