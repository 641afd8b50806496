package secrets

import (
	"slices"
	"strings"
	"sync"
)

// This file says which values name a value that something else fills in
// (a shell's, a template's, a language's or a tool's reference), and so
// are no secret, and which only look as if they did.

// shellReference: v starts with a shell's reference to a value, $(…),
// $VAR or ${…}, its "$" possibly escaped by backslashes, as a
// double-quoted string run by bash -c or ssh writes it (-p\$(cat pw)),
// and JSON again (-p\\$(cat pw)), or percent-encoded (%5C%24%28): the
// value is read when the command runs, no secret.
func shellReference(v string) bool {
	escaped := false
	for {
		switch {
		case strings.HasPrefix(v, `\`):
			v, escaped = v[1:], true
		case len(v) >= 3 && strings.EqualFold(v[:3], "%5C"):
			v, escaped = v[3:], true
		case len(v) >= 3 && strings.EqualFold(v[:3], "%24"):
			v = "$" + v[3:]
		default:
			if len(v) < 2 || v[0] != '$' {
				return false
			}
			c := v[1]
			if escaped && (c == '_' || asciiLetter(c)) {
				// \$VAR in a string another shell runs; where the name
				// is no variable's (-p\$Zq7xZ8…), the backslash kept a
				// password's own "$" from the shell.
				e := 1
				for e < len(v) && (asciiLetter(v[e]) || v[e] >= '0' && v[e] <= '9' || v[e] == '_') {
					e++
				}
				return variableName(v[1:e])
			}
			return c == '(' || c == '{' || c == '_' || asciiLetter(c) || c >= '0' && c <= '9' ||
				len(v) >= 4 && strings.EqualFold(v[1:4], "%28") || len(v) >= 4 && strings.EqualFold(v[1:4], "%7B")
		}
	}
}

// namedReference: v names a value that something else fills in, in one
// of the forms languages and tools write: a Ruby or Scala interpolation
// or a format's field cut at the quote of an index or a call inside it
// (#{ENV['PW']}, f-string {secrets['db']}, {os.getenv('PW')}), C#'s {1} and {0:x}, Oracle's
// substitution variables (&new_password, &&pw), Windows' variables
// (%PASSWORD%, %%PASS%% in a batch file), T-SQL's and MySQL's variables
// and a tool's file argument (@newpw, @@password, @password.txt), a
// format's verb (%s), and a secret store's path (vault:…, env:…, file:…).
func namedReference(v string) bool {
	if v == "" {
		return false
	}
	ident := func(w string, more string) bool {
		return w != "" && (asciiLetter(w[0]) || w[0] == '_') &&
			!strings.ContainsFunc(w, func(r rune) bool { return !(r < 128 && nameByte(byte(r)) || strings.ContainsRune(more, r)) }) &&
			variableName(w)
	}
	switch v[0] {
	case '#', '{':
		in := strings.TrimPrefix(v, "#")
		if in == "" || in[0] != '{' {
			return false
		}
		if e := len(in) - 1; e > 1 && (in[e] == '[' || in[e] == '(') && ident(in[1:e], "") {
			return true // cut at the quote of its index or call: #{ENV['PW']}
		}
		d := strings.TrimSuffix(in[1:], "}")
		if c := strings.IndexByte(d, ':'); c > 0 {
			d = d[:c]
		}
		return len(d) < len(in)-1 && d != "" && len(d) <= 2 && !strings.ContainsFunc(d, func(r rune) bool { return r < '0' || r > '9' })
	case '&':
		return ident(strings.TrimPrefix(v[1:], "&"), "") || entityLen(v, 0) == len(v) && entityName(v[1:len(v)-1])
	case '@':
		return ident(strings.TrimPrefix(v[1:], "@"), "/")
	case '%', '!':
		if len(v) <= 12 && formatVerb.get().MatchString(v) {
			return true
		}
		return batchVariableLen(v, 0) == len(v) && oneCaseName(strings.Trim(v, "%!"))
	}
	for _, p := range []string{"vault:", "env:", "file:"} {
		if len(v) > len(p) && strings.EqualFold(v[:len(p)], p) {
			return true
		}
	}
	return false
}

// variableName: w reads as a name that code or a person gave a variable
// or a file, not as a generated password: each of its parts (between
// "_", ".", "-" or "/") is letters, digits, or letters and one digit
// (newpw2, pw_2024, MYSQL_ROOT_PASSWORD, password.txt), where a password
// mixes them (Xk9mQ2vR7tL4, Summer2024x, Secret123) or is a capitalized
// word and digits, as people make passwords (Welcome1, Secret1: see
// humanPassword).
func variableName(w string) bool {
	if humanPassword(w) {
		return false
	}
	for _, part := range strings.FieldsFunc(w, func(r rune) bool { return strings.ContainsRune("_.-/", r) }) {
		d := strings.IndexFunc(part, func(r rune) bool { return r >= '0' && r <= '9' })
		switch {
		case d < 0: // letters
		case d == 0:
			if strings.ContainsFunc(part, func(r rune) bool { return r < '0' || r > '9' }) {
				return false
			}
		case len(part)-d > 1:
			return false
		}
	}
	return true
}

// oneCaseName: name, a cmd variable's as a value alone writes it (no
// set line round it, as in {"password": "!DB_PASS!"}), has parts in one
// case each (DB_PASS, env.DB_PASSWORD, pgpass:~0,8, ~1): a capitalized or
// mixed-case word between "!" or "%" (!MyPass!, %Dragonfly%) is a
// password so decorated. On a set line the reference is read whole as
// cmd writes it, whatever its case (referenceAt).
func oneCaseName(name string) bool {
	if c := strings.IndexByte(name, ':'); c >= 0 {
		name = name[:c]
	}
	for part := range strings.SplitSeq(name, ".") {
		if strings.ContainsFunc(part, func(r rune) bool { return r >= 'a' && r <= 'z' }) &&
			strings.ContainsFunc(part, func(r rune) bool { return r >= 'A' && r <= 'Z' }) {
			return false
		}
	}
	return true
}

// formatVerb is a format's verb: %s, %v, %-10s, %[1]s, %(pw)s.
var formatVerb = lazy(`^%(?:\([A-Za-z_][A-Za-z0-9_]*\))?[-+# 0]*[0-9]*(?:\[[0-9]+\])?[a-zA-Z]$`)

// humanPassword: w is a capitalized word of three letters or more, then
// digits: the password people make to meet a rule of "a capital and a
// digit" (Welcome1, Secret1, Winter2024). A variable's name has parts in
// one case (MYSQL_PWD, new_pw2) or starts lower-case (newPassword2), so
// that '@Secret1', '&Welcome1', '%Welcome1%' and '{Welcome1}' are
// passwords written where a variable could stand, not variables.
func humanPassword(w string) bool {
	if len(w) < 4 || w[0] < 'A' || w[0] > 'Z' {
		return false
	}
	k := 1
	for k < len(w) && w[k] >= 'a' && w[k] <= 'z' {
		k++
	}
	return k >= 3 && k < len(w) && digits(w[k:])
}

// batchVariableLen is the length of the reference to a variable of
// Windows' cmd that s[i:] starts with, 0 for none: a batch file's
// argument (%1, %*, %~1, %~dp0), a FOR loop's variable (%%i, %%~fi), a
// variable (%NAME%, or %%NAME%% as a batch file escapes it) with its
// substring or substitution (%NAME:~0,8%, %NAME:old=new%), delayed
// expansion (!NAME!, !NAME:~0,8!), and TeamCity's parameters, whose names
// are dotted (%env.DB_PASSWORD%). NAME reads as a variable's
// (variableName): %Welcome1% is a password between percent signs. A
// name of hexadecimal capitals reads as one too: %DEADBEEF% is kept, as
// cmd would expand it and a generated key of hexadecimal digits holds a
// digit but once in 2,500.
func batchVariableLen(s string, i int) int {
	if i+1 >= len(s) || s[i] != '%' && s[i] != '!' {
		return 0
	}
	c := s[i]
	n := 1
	if c == '%' {
		switch d := s[i+1]; {
		case d == '*' || d >= '0' && d <= '9':
			return 2
		case d == '~':
			k := i + 2
			for k < len(s) && k-i < 12 && asciiLetter(s[k]) {
				k++
			}
			if k < len(s) && s[k] >= '0' && s[k] <= '9' {
				return k + 1 - i
			}
			return 0
		case d == '%':
			n = 2
		}
	}
	open := s[i : i+n]
	k := i + n
	e := k
	for e < len(s) && e-k < 64 && (asciiLetter(s[e]) || s[e] >= '0' && s[e] <= '9' || s[e] == '_' || s[e] == '.' && e > k) {
		e++
	}
	name := s[k:e]
	if name == "" || !(asciiLetter(name[0]) || name[0] == '_') || !variableName(name) {
		if n == 2 && e == k && k < len(s) && s[k] == '~' {
			// %%~fi: a FOR variable with its modifiers
			for e = k + 1; e < len(s) && e-k < 12 && asciiLetter(s[e]); e++ {
			}
			if e > k+1 && (e == len(s) || !nameByte(s[e])) {
				return e - i
			}
		}
		return 0
	}
	if n == 2 && len(name) == 1 && (e == len(s) || !nameByte(s[e]) && s[e] != '%') {
		return e - i // %%i, a FOR loop's variable
	}
	if e < len(s) && s[e] == ':' {
		// :~start,length or :old=new, up to the closing sign
		m := e + 1
		for m < len(s) && m-e < 32 && s[m] != c && !tagSpace(s[m]) {
			m++
		}
		if m-e >= 32 || m >= len(s) || s[m] != c || m == e+1 {
			return 0
		}
		e = m
	}
	if e+n > len(s) || s[e:e+n] != open || strings.HasSuffix(name, ".") {
		return 0
	}
	return e + n - i
}

// entityLen is the length of the entity reference of XML or HTML that
// s[i:] starts with (&name;, &#38;, &#x26;), 0 for none: <password>&pw;</password>
// names a value that the document's DTD gives.
func entityLen(s string, i int) int {
	if i+2 >= len(s) || s[i] != '&' {
		return 0
	}
	k := i + 1
	if s[k] == '#' {
		k++
		if k < len(s) && (s[k] == 'x' || s[k] == 'X') {
			k++
		}
		e := k
		for e < len(s) && e-k < 8 && hexDigit(s[e]) {
			e++
		}
		if e > k && e < len(s) && s[e] == ';' {
			return e + 1 - i
		}
		return 0
	}
	e := k
	for e < len(s) && e-k < 64 && (asciiLetter(s[e]) || e > k && (s[e] >= '0' && s[e] <= '9' || s[e] == '_' || s[e] == '-' || s[e] == '.')) {
		e++
	}
	if e > k && e < len(s) && s[e] == ';' {
		return e + 1 - i
	}
	return 0
}

// entityName: name, between an entity reference's "&" and ";", is one
// that a document would declare or HTML defines: a character's number
// (#38, #x26), a name in lower case (password, db_pw, nbsp), or one of
// HTML's names with capitals (Eacute, Omega, AMP). &Sunshine; and &Welcome1; are
// a password between "&" and ";".
func entityName(name string) bool {
	if name == "" {
		return false
	}
	if name[0] == '#' || htmlCapitalEntities()[name] {
		return true
	}
	return name[0] >= 'a' && name[0] <= 'z' && !strings.ContainsFunc(name, func(r rune) bool { return r >= 'A' && r <= 'Z' })
}

// htmlCapitalEntities are HTML's entity names with capitals.
var htmlCapitalEntities = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, l := range []string{"A", "E", "I", "O", "U"} {
		for _, accent := range []string{"acute", "grave", "circ", "uml"} {
			m[l+accent] = true
		}
	}
	for _, n := range []string{"Atilde", "Aring", "AElig", "Ccedil", "ETH", "Ntilde", "Otilde", "Oslash", "THORN", "Yacute",
		"OElig", "Scaron", "Yuml", "Dagger", "Prime", "Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta", "Theta",
		"Iota", "Kappa", "Lambda", "Mu", "Nu", "Xi", "Omicron", "Pi", "Rho", "Sigma", "Tau", "Upsilon", "Phi", "Chi", "Psi", "Omega",
		"LT", "GT", "AMP", "QUOT"} { // HTML5's aliases in capitals of lt, gt, amp and quot
		m[n] = true
	}
	return m
})

// bracketedWords: v is mask words in brackets, as a tool or a person
// writes a value hidden or absent: (none), [hidden], {redacted}, (not
// set), <masked>, [your password]. Words of any other kind in brackets
// are a password with brackets round it ((Sunshine), [Dragonfly],
// (correct-horse-battery)).
func bracketedWords(v string) bool {
	if len(v) < 3 {
		return false
	}
	closing := closingBracket(v[0])
	if closing == 0 || v[len(v)-1] != closing {
		return false
	}
	return maskWords(v[1 : len(v)-1])
}

// closingBracket is the bracket that closes c: ")", "]", "}" or ">", or 0
// when c opens none.
func closingBracket(c byte) byte {
	switch c {
	case '(':
		return ')'
	case '[':
		return ']'
	case '{':
		return '}'
	case '<':
		return '>'
	}
	return 0
}

// maskWordList are the words that say a value is hidden or absent, each
// alone or one after another ("not set", "hidden value", "secret
// redacted"); a mask may also name the value it stands for after "your"
// ([your password], (your api key here)).
var maskWordList = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"hidden": true, "none": true, "redacted": true, "masked": true, "mask": true, "not": true, "set": true, "unset": true,
		"secret": true, "removed": true, "omitted": true, "filtered": true, "sensitive": true, "empty": true, "null": true,
		"nil": true, "n/a": true, "na": true, "hide": true, "value": true, "elided": true, "snip": true, "snipped": true,
		"censored": true, "obfuscated": true, "encrypted": true, "protected": true, "private": true, "confidential": true,
		"undisclosed": true, "withheld": true, "blank": true, "no": true, "password": true, "provided": true, "given": true,
		"shown": true, "configured": true, "here": true, "required": true,
	}
})

// maskWords: in, a mask's text without its delimiters, is mask words
// (maskWordList), blanks, "-" or "_" between them, in any case; or
// "your" and up to four words of letters.
func maskWords(in string) bool {
	in = strings.TrimSpace(in)
	if in == "" || len(in) > 32 {
		return false
	}
	words := strings.FieldsFunc(strings.ToLower(in), func(r rune) bool { return r == ' ' || r == '-' || r == '_' })
	if len(words) == 0 {
		return false
	}
	if words[0] == "your" && len(words) <= 5 {
		return !slices.ContainsFunc(words[1:], func(w string) bool {
			return strings.ContainsFunc(w, func(r rune) bool { return r < 'a' || r > 'z' })
		})
	}
	return !slices.ContainsFunc(words, func(w string) bool { return !maskWordList()[w] })
}

// starMask: v is a mask of stars or bullets round mask words, the same
// marks on both sides (***hidden***, ••• masked •••, ** REDACTED **);
// a word between them is a password so decorated (Sunshine*,
// **correct horse battery staple**, #Dragonfly#).
func starMask(v string) bool {
	const marks = "*•"
	in := strings.TrimLeft(v, marks)
	lead := v[:len(v)-len(in)]
	in = strings.TrimRight(in, marks)
	trail := v[len(lead)+len(in):]
	return lead != "" && lead == trail && maskWords(in)
}

// braced: v is one name in braces that reads as no variable's, a
// password a format's field could not be ('{Welcome1}', {Zq7xZ8mR3p}):
// a format's or a template's field names a variable (variableName).
func braced(v string) bool {
	if len(v) < 3 || v[0] != '{' || v[len(v)-1] != '}' {
		return false
	}
	in := v[1 : len(v)-1]
	return strings.IndexFunc(in, func(r rune) bool { return !(r < 128 && (asciiLetter(byte(r)) || r >= '0' && r <= '9' || r == '_')) }) < 0 &&
		!digits(in) && !variableName(in)
}

// referenceAt is the length of what an unquoted value at s[k] reads as
// whole, though a comma or a blank inside it would end a value: cmd's
// variable (%PW:~0,8%, %1) or a mask in brackets ((not set), [hidden]);
// 0 for none, or when more of the value follows it.
func referenceAt(s string, k int) int {
	if k >= len(s) {
		return 0
	}
	n := 0
	switch s[k] {
	case '%', '!':
		n = batchVariableLen(s, k)
	case '(', '[', '{':
		closing := closingBracket(s[k])
		if e := strings.IndexByte(s[k:min(len(s), k+34)], closing); e > 0 && bracketedWords(s[k:k+e+1]) {
			n = e + 1
		}
	}
	if n == 0 || k+n < len(s) && !valueStops[s[k+n]] {
		return 0
	}
	return n
}

// xmlUnescaped is v with XML's five entities decoded (&lt;, &gt;, &amp;,
// &quot;, &apos;), as a document writes <your password>.
func xmlUnescaped(v string) string {
	return xmlEntities.Replace(v)
}

var xmlEntities = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&", "&quot;", `"`, "&apos;", "'")

// gluedPassword: v, glued to MySQL's -p (mysql, mysqldump, mysqladmin,
// mariadb: -p@pw_2024_prod, -p%hunter2%, -p'&welcome1'), starts with a
// mark that elsewhere makes a reference ("@", "&", "%", "!"), and is the
// password whole: the client reads every byte after -p as it. It is
// none, and judged as any value, where the mark makes a reference
// there too: cmd's variable in capitals or with a substring (%DB_PASS%,
// !DB_PASS!, %pgpass:~0,8%, %env.PW%), one in lower case with no digit
// (%dbpass%), a batch argument (%1, %~1, %%P), a file's name (@pw.txt,
// @secrets/db.pass) or HTML's escape (&lt;password&gt;).
// batchVariables: v is one or more of cmd's variables, each whole
// (%RANDOM%%RANDOM%, !A!!B!).
func batchVariables(v string) bool {
	m := v[0]
	for v != "" {
		if v[0] != m {
			return false
		}
		e := strings.IndexByte(v[1:], m)
		if e <= 0 {
			return false
		}
		name := v[1 : e+1]
		if strings.ContainsFunc(name, func(r rune) bool { return !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') }) {
			return false
		}
		v = v[e+2:]
	}
	return true
}

// razorRoots begin the expressions that Razor (ASP.NET's templates)
// writes after "@": @Model.DbPassword is filled in, not a password.
var razorRoots = []string{"Model.", "ViewBag.", "ViewData[", "TempData[", "Html.", "Url.", "Configuration[", "Settings."}

func gluedPassword(v string) bool {
	if len(v) < 4 || len(v) > 256 || strings.IndexByte("@&%!", v[0]) < 0 ||
		strings.ContainsFunc(v, func(r rune) bool { return r <= ' ' || r == '\\' }) {
		return false
	}
	rest := v[1:]
	if rest[0] == '{' || v[0] == '%' && rest[0] == '(' || v[0] == '&' && rest[0] == '&' {
		return false // a template's @{password}, %{DB_PASSWORD}, %(password)s; SQL*Plus's &&pass
	}
	if (v[0] == '%' || v[0] == '!') && (strings.IndexByte(rest, '/') >= 0 || batchVariables(v)) {
		return false // systemd's %d/pw, cmd's %TEMP%/x, %RANDOM%%RANDOM%
	}
	switch v[0] {
	case '@':
		if slices.ContainsFunc(razorRoots, func(r string) bool { return strings.HasPrefix(rest, r) }) {
			return false // Razor's @Model.DbPassword
		}
		// A file's name ends in an extension of lower-case letters
		// (@pw.txt, @db.pass); @Summer.Fun is a password.
		dot := strings.LastIndexByte(rest, '.')
		file := dot > 0 && dot < len(rest)-1 && len(rest)-dot <= 6 &&
			!strings.ContainsFunc(rest[dot+1:], func(r rune) bool { return r < 'a' || r > 'z' })
		return !file && !strings.Contains(rest, "/")
	case '&':
		return entityLen(v, 0) == 0
	}
	// "%" or "!": a reference when v is one whole, its name in capitals,
	// with a substring, dotted or lower-case with no digit.
	if v[0] == '%' && (rest[0] == '~' || rest[0] == '*' || rest[0] == '%' || rest[0] >= '0' && rest[0] <= '9') {
		return false
	}
	name, ok := strings.CutSuffix(rest, v[:1])
	if !ok || strings.IndexByte(name, v[0]) >= 0 {
		return true // %pw2024, !pass%word: no reference's shape
	}
	return !strings.ContainsAny(name, ":.") && !strings.ContainsFunc(name, func(r rune) bool { return r >= 'A' && r <= 'Z' }) &&
		strings.ContainsFunc(name, func(r rune) bool { return r >= '0' && r <= '9' })
}
