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
	kind := min(fieldKind(name), weakName)
	if name == "" || len(name) > 128 || kind == notSecret {
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

// passwordFlags are the short flags that take a password in commands that
// agents run: glued to it (mysql -pS3cret; a blank after -p asks for it
// instead), after a blank, or either; curl's -u and httpie's -a take
// user:password, smbclient's -U user%password (sep: the password follows
// it, and there is none without it).
var passwordFlags = []struct {
	commands []string
	flag     byte
	glued    bool // the password is glued to the flag
	spaced   bool // the password is the next word
	sep      byte
}{
	{[]string{"mysql", "mysqldump", "mysqladmin", "mysqlsh", "mariadb", "mariadb-dump"}, 'p', true, false, 0},
	{[]string{"sshpass"}, 'p', true, true, 0},
	{[]string{"docker login", "podman login", "buildah login", "skopeo login", "nerdctl login", "helm registry login",
		"oras login", "mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport", "az login", "oc login",
		"cf login", "influx"}, 'p', false, true, 0},
	{[]string{"redis-cli", "valkey-cli", "keydb-cli"}, 'a', false, true, 0},
	{[]string{"ldapsearch", "ldapmodify", "ldapadd", "ldapdelete", "ldapwhoami", "ldappasswd", "ldapcompare", "ldapmodrdn"}, 'w', false, true, 0},
	{[]string{"sqlcmd", "bcp", "zip", "unzip", "osql", "isql"}, 'P', false, true, 0},
	{[]string{"7z", "7za", "7zr", "rar", "unrar"}, 'p', true, false, 0},
	{[]string{"curl"}, 'u', false, true, ':'},
	{[]string{"http", "https", "xh", "xhs"}, 'a', false, true, ':'},
	{[]string{"smbclient", "rpcclient", "smbmap"}, 'U', false, true, '%'},
}

// longPasswordFlags are the flags of more than one letter that take a
// password: redis-cli --pass, keytool's -storepass, openssl's -passin
// pass:… (prefix: what the password follows; openssl's env:, file: and
// stdin name where it is instead).
var longPasswordFlags = []struct {
	commands []string
	flags    []string
	prefix   string
}{
	{[]string{"redis-cli", "valkey-cli", "keydb-cli"}, []string{"--pass"}, ""},
	{[]string{"keytool", "jarsigner"}, []string{"-storepass", "-keypass", "-srcstorepass", "-deststorepass", "-srckeypass", "-destkeypass"}, ""},
	{[]string{"openssl"}, []string{"-passin", "-passout", "-pass", "-password", "-passwd"}, "pass:"},
}

// passwordFlag reads a password given to a command by a password flag, at
// the " -" at i: the flag is one of passwordFlags or longPasswordFlags and
// its command starts the same command line (commandSegment).
func passwordFlag(s string, i int) (assignment, bool) {
	k := i + 2
	if k >= len(s) {
		return assignment{}, false
	}
	seg, at := commandSegment(s, i)
	if a, ok := longPasswordFlag(s, i, seg, at); ok {
		return a, true
	}
	for _, pf := range passwordFlags {
		if s[k] != pf.flag {
			continue
		}
		c := startsCommand(seg, pf.commands)
		if c < 0 {
			continue
		}
		start := k + 1
		switch {
		case start < len(s) && pf.glued && !blank(s[start]):
		case start < len(s) && pf.spaced && blank(s[start]):
			for start < len(s) && blank(s[start]) {
				start++
			}
		default:
			return assignment{}, false
		}
		vs, ve, ok := flagValue(s, start)
		if pf.sep != 0 { // user:password
			at := strings.IndexByte(s[vs:ve], pf.sep)
			if at < 0 {
				return assignment{}, false
			}
			vs += at + 1
		}
		return assignment{name: "-" + string(pf.flag), kind: passwordName, start: vs, end: ve, form: formFlag, told: 1 + at + c}, ok && ve > vs
	}
	return assignment{}, false
}

// longPasswordFlag reads a longPasswordFlags' flag at the " -" at i, in
// the command line seg.
func longPasswordFlag(s string, i int, seg string, at int) (assignment, bool) {
	for _, lf := range longPasswordFlags {
		for _, f := range lf.flags {
			k := i + 1 + len(f)
			if !strings.HasPrefix(s[i+1:], f) || k >= len(s) || !blank(s[k]) && s[k] != '=' {
				continue
			}
			c := startsCommand(seg, lf.commands)
			if c < 0 {
				continue
			}
			for k++; k < len(s) && blank(s[k]); k++ {
			}
			vs, ve, ok := flagValue(s, k)
			if !ok || !strings.HasPrefix(s[vs:ve], lf.prefix) {
				return assignment{}, false
			}
			vs += len(lf.prefix)
			return assignment{name: f, kind: passwordName, start: vs, end: ve, form: formFlag, told: 1 + at + c}, ve > vs
		}
	}
	return assignment{}, false
}

// flagValue reads a flag's value at start: quoted, or up to a blank, a
// quote or a backslash.
func flagValue(s string, start int) (vs, ve int, ok bool) {
	vs, ve, quoted, ok := quotedAt(s, start)
	if !quoted {
		vs, ve = start, start
		for ve < len(s) && !strings.ContainsRune(" \t\r\n\\\"'", rune(s[ve])) {
			ve++
		}
		ok = ve > vs
	}
	return vs, ve, ok
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
