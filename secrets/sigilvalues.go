package secrets

import (
	"slices"
	"strings"
	"sync"
)

// This file reads a password's quoted value that starts with a mark
// that elsewhere makes a reference ("&", "%", "@", "!": password =
// '&welcome1', "password": "%hunter2%", DB_PASSWORD='@pw_2024_prod',
// <password>&letmein;</password>) as the password it is, from the whole
// value: HTML's entities, cmd's variables, a variable's or a credential's
// name and placeholders stay references (refs.go), and an unquoted value
// (SQL*Plus's BY &pw_2024, T-SQL's = @pw_2024) is the language's own.

// quotedMarkPassword: the value s[a.start:a.end] (plain, as the scrubber
// reads it) of a password's name, in an assignment (also code's
// password => '…'), a JSON field, a line, an XML element or a name/value
// pair (<add key="password" value="…"/>, {"name": "DB_PASSWORD", "value":
// "…"}), enclosed in quotes (also \"…\" as JSON writes them) or in the
// element's tags, or URL-encoded in a form (%26, %40, %25, %21), starts
// with a mark and is a password (markPassword). A JSON value's escaped
// mark (\u0026welcome1) and XML's &amp; are read decoded.
func quotedMarkPassword(s string, a assignment, plain string) bool {
	switch {
	case strings.HasPrefix(plain, `\u00`) && (a.form == formJSON || a.form == formPair || a.start > 0 && s[a.start-1] == '"'):
		// \u0026welcome1, as encoding/json writes &welcome1, in a
		// field, a name/value pair or a double-quoted string (YAML's,
		// code's)
		plain = jsonUnescaped(plain)
	case strings.HasPrefix(plain, "&amp;") && (a.form == formPair || a.form == formEquals && a.start > 0 && s[a.start-1] == '>'):
		plain = xmlUnescaped(plain) // value="&amp;welcome1", <password>&amp;welcome1</password>, as XML writes &welcome1
	}
	// A name a line, an arrow or a pair gives is weak (prose labels so,
	// and pairs name any setting): a quoted mark-password under a
	// password's name is one all the same.
	if len(plain) < 4 || strings.IndexByte("@&%!", plain[0]) < 0 ||
		a.kind != passwordName && fieldKind(a.name) != passwordName && !ownedPwd(a.name) {
		return false
	}
	switch a.form {
	case formEquals, formJSON, formLine, formPair:
	default:
		return false
	}
	v := s[a.start:a.end]
	encoded := a.form == formEquals && v != plain && len(v) > 3 && v[0] == '%'
	if !encoded && !enclosedValue(s, a.start, a.end) && !quotedSetting(s, a) && !bareSetting(s, a, plain) {
		return false
	}
	return markPassword(plain)
}

// ownedPwd: name is a password's "pwd" with what it is one of
// (MYSQL_PWD, db_pwd); a bare pwd also names a working directory.
func ownedPwd(name string) bool {
	w := nameWords(name)
	return len(w) > 1 && w[len(w)-1] == "pwd"
}

// quotedSetting: a's NAME=value is a quoted string whole, as an
// environment list writes it ("MYSQL_ROOT_PASSWORD=&welcome1" in docker
// inspect's Env).
func quotedSetting(s string, a assignment) bool {
	n := a.start - 1 - len(a.name)
	return a.form == formEquals && n >= 1 && s[a.start-1] == '=' && s[n:a.start-1] == a.name &&
		(s[n-1] == '"' || s[n-1] == '\'') && a.end < len(s) && s[a.end] == s[n-1]
}

// bareSetting: plain, unquoted after a password's "=" with no blank
// round it, is a settings file's value, whole: an INI's or .env's
// password=&welcome1, a compose list's MYSQL_ROOT_PASSWORD=&welcome1,
// a properties file's spring.datasource.password=@pw_2024_prod. An "&"
// there begins no reference and T-SQL writes no dotted name; a query
// string's password=&next=1 is an empty value before another's.
func bareSetting(s string, a assignment, plain string) bool {
	n := a.start - 1 - len(a.name)
	if a.form != formEquals || n < 0 || s[a.start-1] != '=' || s[n:a.start-1] != a.name || strings.ContainsAny(plain, "=&?") && plain[0] != '&' ||
		strings.Count(plain, "&") > 1 || strings.ContainsRune(plain, '=') || n > 0 && (s[n-1] == '&' || s[n-1] == '?') {
		return false
	}
	switch plain[0] {
	case '&':
		return entityLen(plain, 0) == 0
	case '@':
		return strings.Contains(a.name, ".")
	}
	return false
}

// enclosedValue: s[start:end] stands between quotes of one kind ('…',
// "…", \"…\") or between an element's tags (>…<).
func enclosedValue(s string, start, end int) bool {
	if start == 0 || end >= len(s) {
		return false
	}
	switch o := s[start-1]; {
	case o == '>':
		return s[end] == '<'
	case o == '"' && start >= 2 && s[start-2] == '\\':
		return strings.HasPrefix(s[end:], `\"`)
	case o == '"' || o == '\'':
		return s[end] == o
	}
	return false
}

// markPassword: v, a value alone that starts with "@", "&", "%" or "!",
// is a password, not a reference: after "@" or "&", a lower-case name
// with a digit (@pw_2024_prod, &welcome1; not a placeholder's p1 or
// param_1), or words joined by "_" none of which names a credential
// (@passion_fruit; not @new_password, &db_pw); between "&" and ";", one
// that is neither HTML's entity nor a credential's name (&letmein;,
// &monkey;; not &amp;, &hellip;, &db_password;); between "%" or "!"
// marks, a lower-case name with a digit (%hunter2%; not %DB_PASS%,
// %pgpass:~0,8%, %dbpass%). One lower-case word with no digit
// (&current, @newpw) is a variable's name.
func markPassword(v string) bool {
	rest := v[1:]
	switch v[0] {
	case '&', '@':
		if name, ok := strings.CutSuffix(rest, ";"); ok && v[0] == '&' {
			return lowerName(name) && !htmlLowerEntities()[name] && !credentialName(name)
		}
		if strings.ContainsAny(rest, "!#^*+?~") && strings.ContainsFunc(rest, func(r rune) bool { return isDigit(r) || r >= 'A' && r <= 'Z' }) &&
			!strings.ContainsAny(rest, " {}()[]<>/\\:;,'\"`$%=&") {
			return true // &Welcome1!, @Pw_2024!: no name, entity or variable holds "!" (nor a form's next field, &remember_me=1)
		}
		if !lowerName(rest) || placeholderName(rest) {
			return false
		}
		return strings.ContainsFunc(rest, isDigit) || strings.Contains(rest, "_") && !credentialName(rest)
	}
	name, ok := strings.CutSuffix(rest, v[:1])
	return ok && lowerName(name) && strings.ContainsFunc(name, isDigit)
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// lowerName: n is a lower-case name, a letter then letters, digits and
// "_", of 64 bytes at most.
func lowerName(n string) bool {
	return n != "" && len(n) <= 64 && n[0] >= 'a' && n[0] <= 'z' &&
		!strings.ContainsFunc(n, func(r rune) bool { return !(r >= 'a' && r <= 'z' || isDigit(r) || r == '_') })
}

// placeholderName: n numbers a query's parameters: p1, param_1, arg0,
// v2.
func placeholderName(n string) bool {
	base := strings.TrimRight(n, "0123456789")
	if base == n {
		return false
	}
	return slices.Contains([]string{"p", "param", "param_", "parameter", "parameter_", "arg", "arg_", "var", "var_", "v", "p_"}, base)
}

// credentialName: one of n's parts between "_" is a credential's word
// (pw, pass, password, secret, key, token, cred, auth…), whole or after
// one of a few prefixes (dbpass, newpw, oldpassword, apikey): a whole
// word, so that passion_fruit and monkey name none.
func credentialName(n string) bool {
	for part := range strings.SplitSeq(n, "_") {
		for _, w := range credentialNameWords {
			if part == w {
				return true
			}
			if p, ok := strings.CutSuffix(part, w); ok && slices.Contains(credentialPrefixes, p) {
				return true
			}
		}
	}
	return false
}

var credentialNameWords = []string{"pw", "pwd", "pass", "passwd", "password", "passphrase", "secret", "key", "token", "cred",
	"creds", "credential", "credentials", "auth"}

var credentialPrefixes = []string{"db", "new", "old", "cur", "my", "sa", "api", "app", "root", "admin", "user", "tmp", "temp"}

// htmlLowerEntities are HTML's common entity names in lower case:
// markup's, typography's, currency's, arrows, Greek letters, accented
// letters.
var htmlLowerEntities = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, l := range strings.Fields("a e i o u y c n") {
		for _, accent := range strings.Fields("acute grave circ uml tilde cedil ring") {
			m[l+accent] = true
		}
	}
	for _, n := range strings.Fields(`amp lt gt quot apos nbsp ensp emsp thinsp zwnj zwj lrm rlm shy copy reg trade
		hellip mdash ndash lsquo rsquo sbquo ldquo rdquo bdquo laquo raquo lsaquo rsaquo bull middot prime dagger
		times divide deg plusmn para sect cent pound yen euro curren iexcl iquest macr acute cedil ordf ordm
		frac14 frac12 frac34 sup1 sup2 sup3 micro not brvbar frasl oline permil larr rarr uarr darr harr crarr
		forall part exist empty nabla isin notin ni prod sum minus lowast radic prop infin ang and or cap cup int
		there4 sim cong asymp ne equiv le ge sub sup nsub sube supe oplus otimes perp sdot lceil rceil lfloor
		rfloor lang rang loz spades clubs hearts diams aelig eth oslash thorn yacute szlig oelig scaron fnof circ
		tilde alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigmaf
		sigma tau upsilon phi chi psi omega thetasym upsih piv tab newline excl num dollar percnt lpar rpar ast
		plus comma period sol colon semi equals quest commat lsqb bsol rsqb lowbar grave lcub verbar rcub check
		cross star`) {
		m[n] = true
	}
	return m
})
