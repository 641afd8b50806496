package secrets

import (
	"strings"
)

// This file finds the passwords that SQL statements give accounts, and
// judges the values that the command and statement rules find
// (commandValue): a placeholder of code or of documentation is none.

// sqlKeywords are the words a statement's password follows, each looked
// for by its end (fied, word), whose first letters prose has less often
// than an i, an a or a d, at which strings.Index would stop; the head
// before it is compared in any case (IDENTIFIED, identified, Identified).
var sqlKeywords = []struct{ tail, head string }{
	{"FIED", "identi"}, {"fied", "identi"}, {"WORD", "pass"}, {"word", "pass"},
}

// maxSQLHead is how far before its keyword a statement's head is looked
// for: CREATE USER 'name'@'host' IF NOT EXISTS … IDENTIFIED BY.
const maxSQLHead = 240

// sqlPasswords finds SQL's password literals, only inside a statement
// that gives an account its password, in any case and mid-line (after a
// prompt, a quote, a JSON \n): CREATE or ALTER USER, ROLE or LOGIN with
// IDENTIFIED [WITH plugin] BY '…' (a quoted or bare value) or [WITH]
// [ENCRYPTED] PASSWORD [=] [N]'…'; GRANT … IDENTIFIED BY '…'; SET
// PASSWORD [FOR user] = '…' or PASSWORD('…'). A hash (IDENTIFIED BY
// PASSWORD '*…', md5…, SCRAM-SHA-256$…) and a placeholder are none.
func sqlPasswords(s string) []assignment {
	out, _ := sqlScan(s)
	return out
}

// sqlScan is sqlPasswords, and its steps: the bytes each statement's head
// read back and each value's read, which the linear time test counts.
func sqlScan(s string) (out []assignment, steps int) {
	for _, k := range sqlKeywords {
		for at := len(k.head); ; {
			j := indexFrom(s, k.tail, at)
			if j < 0 {
				break
			}
			at = j + len(k.tail)
			i := j - len(k.head)
			if !strings.EqualFold(s[i:j], k.head) {
				continue
			}
			kw := s[i:at]
			if i > 0 && (nameByte(s[i-1]) && !jsonEscapeBefore(s, i) || s[i-1] == '$') || at < len(s) && nameByte(s[at]) {
				continue
			}
			// The value's form first, then the statement's head, which
			// reads back up to maxSQLHead bytes: prose full of "password"
			// has no value after it.
			var vs, ve int
			ok, set := false, false
			what := "PASSWORD"
			if kw[0] == 'I' || kw[0] == 'i' {
				what = "IDENTIFIED BY"
				vs, ve, ok = identifiedValue(s, at)
			} else if vs, ve, ok = passwordValue(s, at); !ok {
				vs, ve, ok = setPasswordValue(s, at)
				set = ok
			}
			if ok && quotedAtSign(s, vs) {
				vs++ // '@…': a string, its "@" no variable's
			}
			if !ok || sqlVariable(s, vs, ve) || !commandValue(s[vs:ve]) {
				continue
			}
			steps += ve - at
			h := sqlHeadBefore(s, i)
			steps += h.read
			switch {
			case what == "IDENTIFIED BY":
				ok = h.account || h.grant
			case h.set && !set:
				vs, ve, ok = setPasswordValue(s, at) // SET PASSWORD = '…'
				if ok && quotedAtSign(s, vs) {
					vs++
				}
				ok = ok && commandValue(s[vs:ve])
			case set:
				ok = h.set
			default:
				// MySQL's PASSWORD('…') hashes the literal it is called
				// with, wherever it is: UPDATE mysql.user SET
				// authentication_string = PASSWORD('…')
				ok = h.options && !h.by || at < len(s) && s[at] == '('
			}
			if ok {
				out = append(out, assignment{name: what, kind: passwordName, start: vs, end: ve, form: formWord})
			}
		}
	}
	return out, steps
}

// jsonEscapeBefore: s[:i] ends with JSON's \n, \r or \t, a blank to
// SQL (CREATE USER app\nIDENTIFIED BY …), not a word's last letter.
func jsonEscapeBefore(s string, i int) bool {
	return i >= 2 && s[i-2] == '\\' && strings.IndexByte("nrt", s[i-1]) >= 0 && (i == 2 || s[i-3] != '\\')
}

// sqlHead is what a statement's words before a keyword say.
type sqlHead struct {
	account bool // CREATE or ALTER USER, ROLE or LOGIN [IF [NOT] EXISTS] name: IDENTIFIED follows
	options bool // the same, then WITH, ENCRYPTED or a role's options: PASSWORD follows
	grant   bool // GRANT … ON … TO name: IDENTIFIED follows
	set     bool // SET just before the keyword, first in its statement: SET PASSWORD
	by      bool // BY just before the keyword: IDENTIFIED BY PASSWORD '*hash'
	read    int  // the bytes read back
}

// sqlHeadBefore reads the words of the statement that holds s[i], back to
// its start (a ";", or prose's ". " or ": " before a letter) or
// maxSQLHead bytes, as SQL writes them: the statement starts its clause
// or its line (after a prompt, a quote or a parenthesis, or BEGIN, THEN,
// ELSE, DO, EXECUTE), and nothing but its own words stand between its
// start and the keyword, so that prose ("a login identified by '…'",
// "visitors identified by '…'") is none. A statement may run over lines
// (raw or JSON's \n), past a client's continuation prompt (mysql's "->",
// psql's "db-#") and comments (-- …, # …, /* … */).
func sqlHeadBefore(s string, i int) sqlHead {
	clause := s[max(0, i-maxSQLHead):i]
	read := len(clause)
	if k := strings.LastIndexByte(clause, ';'); k >= 0 {
		clause = clause[k+1:]
	}
	h := sqlHead{read: read}
	toks := sqlTokens(clause)
	for p := range toks {
		if !toks[p].is("create", "alter", "grant") || !sqlStarts(toks, p) {
			continue
		}
		if toks[p].is("grant") {
			h.grant = h.grant || sqlGrant(toks[p+1:])
			continue
		}
		acc, opts := sqlAccount(toks[p+1:])
		h.account = h.account || acc
		h.options = h.options || opts
	}
	// SET and BY stand on the keyword's line.
	last := clause
	if k := strings.LastIndexByte(last, '\n'); k >= 0 {
		last = last[k+1:]
	}
	if k := strings.LastIndex(last, `\n`); k >= 0 {
		last = last[k+2:]
	}
	last = strings.TrimRight(last, " \t")
	h.by = len(last) >= 2 && strings.EqualFold(last[len(last)-2:], "by") && (len(last) == 2 || !nameByte(last[len(last)-3]))
	if len(last) >= 3 && strings.EqualFold(last[len(last)-3:], "set") && (len(last) == 3 || !nameByte(last[len(last)-4])) && !h.account && !h.options && !h.grant {
		// SET PASSWORD: SET starts its statement, after a prompt, a
		// quote or a parenthesis at most (mysql> SET …, -e "SET …").
		before := strings.TrimRight(last[:len(last)-3], " \t")
		h.set = before == "" || strings.IndexByte("\"'`>(:", before[len(before)-1]) >= 0
	}
	return h
}

// sqlToken is a word (letters, digits, "_", "$", "#", "." and "-"), a
// quoted name ('…', "…", `…`, [ … ], JSON's \"…\"; on one line), or one
// other byte; line says it is its line's first.
type sqlToken struct {
	text   string
	quoted bool
	line   bool
}

func (t sqlToken) is(words ...string) bool {
	if t.quoted {
		return false
	}
	for _, w := range words {
		if strings.EqualFold(t.text, w) {
			return true
		}
	}
	return false
}

func (t sqlToken) word() bool {
	return !t.quoted && t.text != "" && (nameByte(t.text[0]) && t.text[0] != '-' && t.text[0] != '.' || t.text[0] == '$')
}

// sqlTokens reads s's tokens, each byte once: a line break (raw or JSON's
// \n) starts a line, whose continuation prompt is skipped; comments are
// skipped to their end (-- only after a statement's first word: before
// it, kubectl exec … -- psql -c "…" is a command's); prose's ". " or ": "
// before a letter, outside quotes and comments, ends a clause: the tokens
// start anew after it.
func sqlTokens(s string) []sqlToken {
	var out []sqlToken
	line, stmt := false, false // stmt: CREATE, ALTER or GRANT read, after which -- starts a comment
	add := func(t sqlToken) {
		t.line = line
		line = false
		stmt = stmt || t.is("create", "alter", "grant")
		out = append(out, t)
	}
	for k := 0; k < len(s); {
		c := s[k]
		if n := sqlBreak(s, k); n > 0 {
			k += n
			line = true
			k += sqlPrompt(s[k:])
			continue
		}
		switch {
		case blank(c) || c == '\r':
			k++
		case c == '\\' && k+1 < len(s) && (s[k+1] == 't' || s[k+1] == 'r'):
			k += 2 // JSON's \t, \r
		case c == '-' && stmt && strings.HasPrefix(s[k:], "--") || c == '#' && line && (k+1 == len(s) || blank(s[k+1])):
			e := k
			for e < len(s) && sqlBreak(s, e) == 0 {
				e++
			}
			if e < len(s) {
				k = e // a comment, to its line's end
				continue
			}
			// The keyword is inside the comment (-- CREATE USER … IDENTIFIED
			// BY '…' commented out, a secret still): its words are read.
			add(sqlToken{text: s[k : k+1]})
			k++
		case (c == '.' || c == ':') && k+2 < len(s) && s[k+1] == ' ' && asciiLetter(s[k+2]):
			out, line, stmt = out[:0], false, false // prose: "Grant: each applicant is …" starts anew
			k += 2
		case c == '/' && strings.HasPrefix(s[k:], "/*"):
			if n := strings.Index(s[k+2:], "*/"); n >= 0 {
				k += 2 + n + 2
				continue
			}
			add(sqlToken{text: s[k : k+1]}) // the keyword is inside the comment
			k++
		case nameByte(c) || c == '$' || c == '#':
			e := k
			for e < len(s) && (nameByte(s[e]) || s[e] == '$' || s[e] == '#') {
				e++
			}
			add(sqlToken{text: s[k:e]})
			k = e
		case c == '\'' || c == '"' || c == '`' || c == '[' || c == '\\' && k+1 < len(s) && s[k+1] == '"':
			open, closing := 1, string(c)
			if c == '[' {
				closing = "]"
			} else if c == '\\' {
				open, closing = 2, `\"`
			}
			rest := s[k+open:]
			if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
				rest = rest[:nl]
			}
			n := strings.Index(rest, closing)
			if n < 0 || strings.Contains(rest[:n], `\n`) {
				add(sqlToken{text: s[k : k+1]})
				k++
				continue
			}
			add(sqlToken{text: s[k+open : k+open+n], quoted: true})
			k += open + n + len(closing)
		default:
			add(sqlToken{text: s[k : k+1]})
			k++
		}
	}
	return out
}

// sqlBreak is the length of the line break at s[k]: a raw one, or JSON's
// \n escape; 0 for none.
func sqlBreak(s string, k int) int {
	switch {
	case s[k] == '\n':
		return 1
	case s[k] == '\\' && k+1 < len(s) && s[k+1] == 'n':
		return 2
	}
	return 0
}

// sqlPrompt is the length of the client's prompt that line starts with:
// mysql's continuation ("    -> ", "'> ", "\"> ", "`> "), mysql> and
// psql's (db=# , db-# , db(# , db'# , db=> ), and SQL*Plus's line number;
// 0 for none.
func sqlPrompt(line string) int {
	k := 0
	for k < len(line) && blank(line[k]) {
		k++
	}
	w := k
	for w < len(line) && (nameByte(line[w]) && line[w] != '-' && line[w] != '.') {
		w++
	}
	m := w
	if m < len(line) && strings.IndexByte("=-'\"(*`", line[m]) >= 0 {
		m++
	}
	if m < len(line) && (line[m] == '>' || line[m] == '#') && m > k && (m+1 == len(line) || blank(line[m+1])) {
		return m + 1
	}
	if w > k && w < len(line) && blank(line[w]) && strings.Trim(line[k:w], "0123456789") == "" {
		return w // SQL*Plus numbers a statement's lines: "  2  IDENTIFIED BY …"
	}
	return 0
}

// sqlStarts: toks[p] starts its statement: first, or after a byte that is
// no word, or after a word that runs statements.
func sqlStarts(toks []sqlToken, p int) bool {
	if p == 0 {
		return true
	}
	prev := toks[p-1]
	return toks[p].line || !prev.word() || prev.is("begin", "then", "else", "do", "execute", "exec", "immediate", "run", "ran", "issue", "type", "enter")
}

// sqlName reads an account's name at toks[0]: a word or a quoted name,
// then possibly "@" and a host (a word, a quoted name or "%"); n is the
// tokens it takes, 0 for none.
func sqlName(toks []sqlToken) int {
	if len(toks) == 0 || !toks[0].quoted && !toks[0].word() {
		return 0
	}
	if len(toks) >= 3 && toks[0].is("current_user", "user") && toks[1].text == "(" && toks[2].text == ")" {
		return 3 // MySQL: ALTER USER CURRENT_USER() IDENTIFIED BY …
	}
	if len(toks) >= 3 && toks[1].text == "@" && !toks[1].quoted &&
		(toks[2].quoted || toks[2].word() || toks[2].text == "%") {
		return 3
	}
	return 1
}

// sqlAccount reads USER|ROLE|LOGIN [IF [NOT] EXISTS] name after CREATE or
// ALTER, to the end of toks (the keyword): identified when nothing
// follows the name, password when only WITH, ENCRYPTED and a role's
// options do (Postgres: WITH LOGIN ENCRYPTED PASSWORD).
func sqlAccount(toks []sqlToken) (identified, password bool) {
	if len(toks) >= 2 && toks[0].is("or") && toks[1].is("replace") {
		toks = toks[2:] // MariaDB: CREATE OR REPLACE USER
	}
	if len(toks) == 0 || !toks[0].is("user", "role", "login") {
		return false, false
	}
	toks = toks[1:]
	if len(toks) > 0 && toks[0].is("if") {
		toks = toks[1:]
		if len(toks) > 0 && toks[0].is("not") {
			toks = toks[1:]
		}
		if len(toks) == 0 || !toks[0].is("exists") {
			return false, false
		}
		toks = toks[1:]
	}
	n := sqlName(toks)
	if n == 0 {
		return false, false
	}
	toks = toks[n:]
	if len(toks) > 1 && toks[0].text == "," && !toks[0].quoted {
		// CREATE USER 'a'@'h1', 'b'@'h2' IDENTIFIED BY: the last name's
		for len(toks) > 1 && toks[0].text == "," && !toks[0].quoted {
			m := sqlName(toks[1:])
			if m == 0 {
				return false, false
			}
			toks = toks[1+m:]
		}
		return len(toks) == 0, false
	}
	if len(toks) > 0 && toks[0].is("identified") {
		// CREATE USER a IDENTIFIED BY '…', b IDENTIFIED BY '…': the
		// keyword follows the last account's name.
		for k := len(toks) - 1; k > 0; k-- {
			if toks[k].text == "," && !toks[k].quoted {
				return sqlName(toks[k+1:]) == len(toks)-k-1 && k+1 < len(toks), false
			}
		}
		return false, false
	}
	for k := 0; k < len(toks); k++ {
		switch {
		case toks[k].is("with", "encrypted", "unencrypted", "login", "nologin", "superuser", "nosuperuser", "createdb", "nocreatedb",
			"createrole", "nocreaterole", "createuser", "nocreateuser", "inherit", "noinherit", "replication", "noreplication", "bypassrls", "nobypassrls"):
		case toks[k].is("connection") && k+2 < len(toks) && toks[k+1].is("limit"):
			k += 2
		case toks[k].is("sysid") && k+1 < len(toks):
			k++
		case toks[k].is("valid") && k+2 < len(toks) && toks[k+1].is("until") && toks[k+2].quoted:
			k += 2 // VALID UNTIL 'infinity'
		case toks[k].is("in", "role", "admin", "user") && k+1 < len(toks) && (toks[k].is("in") && toks[k+1].is("role", "group") || !toks[k].is("in")):
			// IN ROLE a, b; ROLE a; ADMIN a
			if toks[k].is("in") {
				k++
			}
			for k+1 < len(toks) && sqlName(toks[k+1:]) == 1 {
				k++
				if k+1 < len(toks) && toks[k+1].text == "," {
					k++
					continue
				}
				break
			}
		default:
			return false, false
		}
	}
	return len(toks) == 0, true
}

// sqlGrant reads … ON … TO name after GRANT, the name last in toks, or
// Oracle's GRANT CONNECT[, RESOURCE…] TO name, whose privileges are
// roles and no object.
func sqlGrant(toks []sqlToken) bool {
	on := -1
	for k := range toks {
		if toks[k].is("on") {
			on = k
			break
		}
		if toks[k].is("to") && k > 0 {
			oracle := true
			for _, t := range toks[:k] {
				oracle = oracle && (t.text == "," && !t.quoted || t.is("connect", "resource", "dba", "create", "session"))
			}
			if oracle {
				n := sqlName(toks[k+1:])
				return n > 0 && k+1+n == len(toks)
			}
		}
	}
	if on < 0 {
		return false
	}
	for k := len(toks) - 1; k > on; k-- {
		if toks[k].is("to") {
			n := sqlName(toks[k+1:])
			return n > 0 && k+1+n == len(toks)
		}
	}
	return false
}

func asciiLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// identifiedValue reads the value after IDENTIFIED (at k): [WITH plugin]
// BY, then a quoted value or a bare word.
func identifiedValue(s string, k int) (vs, ve int, ok bool) {
	k = sqlSpace(s, k)
	if w := sqlWord(s, k); strings.EqualFold(w, "with") || strings.EqualFold(w, "via") {
		k = sqlSpace(s, k+len(w))
		plugin := sqlWord(s, k)
		if plugin == "" {
			if _, pe, quoted, ok := quotedAt(s, k); quoted && ok {
				plugin = s[k : pe+1]
			}
		}
		k = sqlSpace(s, k+len(plugin))
	}
	w := sqlWord(s, k)
	if strings.EqualFold(w, "using") || strings.EqualFold(w, "as") {
		// MariaDB: IDENTIFIED VIA plugin USING PASSWORD('…'); USING '…'
		// gives a hash
		k = sqlSpace(s, k+len(w))
		if p := sqlWord(s, k); strings.EqualFold(p, "password") {
			if k = skipBlanks(s, k+len(p)); k < len(s) && s[k] == '(' {
				return sqlQuoted(s, skipBlanks(s, k+1))
			}
		}
		return 0, 0, false
	}
	if !strings.EqualFold(w, "by") {
		return 0, 0, false
	}
	k = sqlSpace(s, k+2)
	if w := sqlWord(s, k); strings.EqualFold(w, "password") || strings.EqualFold(w, "random") {
		return 0, 0, false // a hash, or a password the server makes
	}
	return sqlValue(s, k)
}

// passwordValue reads the value after PASSWORD (at k) in an account's
// statement: [=] [N]'…', or PASSWORD('…').
func passwordValue(s string, k int) (vs, ve int, ok bool) {
	k = sqlSpace(s, k)
	if k < len(s) && s[k] == '(' {
		return sqlQuoted(s, skipBlanks(s, k+1))
	}
	if k < len(s) && s[k] == '=' {
		k = sqlSpace(s, k+1)
	}
	if k+1 < len(s) && strings.IndexByte("NEe", s[k]) >= 0 && s[k+1] == '\'' {
		k++ // T-SQL's N'…', Postgres's E'…'
	}
	return sqlQuoted(s, k)
}

// setPasswordValue reads the value of SET PASSWORD [FOR user] = '…' or
// = PASSWORD('…'), PASSWORD at k.
func setPasswordValue(s string, k int) (vs, ve int, ok bool) {
	if f := skipBlanks(s, k); f >= len(s) || s[f] != '=' && !strings.EqualFold(sqlWord(s, f), "for") {
		return 0, 0, false
	}
	end := min(len(s), k+maxSQLHead)
	eq := strings.IndexByte(s[k:end], '=')
	if eq < 0 || strings.ContainsAny(s[k:k+eq], ";\n") {
		return 0, 0, false
	}
	if f := skipBlanks(s, k); f < k+eq && !strings.EqualFold(sqlWord(s, f), "for") {
		return 0, 0, false
	}
	k = skipBlanks(s, k+eq+1)
	if w := sqlWord(s, k); strings.EqualFold(w, "password") {
		k = skipBlanks(s, k+len(w))
		if k >= len(s) || s[k] != '(' {
			return 0, 0, false
		}
		k = skipBlanks(s, k+1)
	}
	return sqlQuoted(s, k)
}

// sqlValue is a quoted value at k, or a bare word (to a blank, ";", ",",
// ")" or a quote).
func sqlValue(s string, k int) (vs, ve int, ok bool) {
	if vs, ve, ok := sqlQuoted(s, k); ok {
		return vs, ve, true
	}
	if k < len(s) && (s[k] == '\'' || s[k] == '"' || s[k] == '\\') {
		return 0, 0, false
	}
	e := k
	for e < len(s) && !blank(s[e]) && strings.IndexByte(";,)'\"\\\n\r", s[e]) < 0 {
		e++
	}
	return k, e, e > k
}

// sqlQuoted is the value quoted at k: '…', "…", JSON's \"…\", or
// Postgres's dollar-quoted $$…$$ or $tag$…$tag$ (dollarQuoted).
func sqlQuoted(s string, k int) (vs, ve int, ok bool) {
	if vs, ve, quoted, ok := quotedAt(s, k); quoted && ok {
		return vs, ve, true
	}
	return dollarQuoted(s, k)
}

// sqlVariable: s[vs:ve], unquoted, is SQL*Plus's substitution variable
// or T-SQL's variable (IDENTIFIED BY &Welcome1, &&pw; PASSWORD = @pw1):
// the language's own syntax, whatever the name reads as. Quoted, the same
// text is a string ('@Secret1') or a reference whose name must read as a
// variable's ('&Welcome1' is a password: see humanPassword).
func sqlVariable(s string, vs, ve int) bool {
	if vs == 0 || vs >= ve || s[vs-1] == '\'' || s[vs-1] == '"' {
		return false
	}
	v := strings.TrimPrefix(strings.TrimPrefix(s[vs:ve], "&"), "&")
	if v == s[vs:ve] {
		v = strings.TrimPrefix(v, "@")
	}
	return v != s[vs:ve] && v != "" && (asciiLetter(v[0]) || v[0] == '_') &&
		!strings.ContainsFunc(v, func(r rune) bool { return !(r < 128 && (asciiLetter(byte(r)) || r >= '0' && r <= '9' || r == '_')) })
}

// quotedAtSign: the statement's value at vs is quoted and starts with
// one "@", which sqlScan leaves out of it. A quoted literal is a string
// whatever it starts with: T-SQL's and MySQL's variables are never
// quoted, so that '@pw_2024_prod' is a password, judged without its "@"
// ('&pw', '%PW%' and '{pw}' are references still, which SQL*Plus, cmd
// and a format fill in inside quotes too).
func quotedAtSign(s string, vs int) bool {
	return vs > 0 && vs+1 < len(s) && (s[vs-1] == '\'' || s[vs-1] == '"') && s[vs] == '@' && s[vs+1] != '@'
}

// commandValue: v, a value that a command's flag or word, or a statement,
// gives as a password, looks like one: credential-shaped (six characters
// or more, not words, a documented example or a placeholder), and not
// code's placeholder (%s, %(pw)s, ?, :pw, $1, ${PW}, {{pw}}, {pw},
// <password>, [password], a quote that closes a string for a
// concatenation: '" + pw + "') nor a hash (md5…, SCRAM-SHA-256$…, *…),
// also when written with JSON's escapes (\u003cpassword\u003e).
func commandValue(v string) bool {
	if len(v) < 6 || wordy(v) || prose(v) {
		return false // credentialShaped's cheapest tests first: prose is full of such values
	}
	v = jsonUnescaped(v)
	return !codePlaceholder(v) && !passwordHash(v) && credentialShaped(v)
}

// codePlaceholder: v stands for a value that code or a template fills in.
func codePlaceholder(v string) bool {
	v = strings.TrimSpace(v)
	if v == "" || shellReference(v) || namedReference(v) {
		return true
	}
	switch v[0] {
	case '?', ':', '<', '$':
		return true
	case '"', '\'', '`':
		return true // '" + pw + "': the quote ends a string, its value concatenated
	case '{':
		// {pw}, {0}; a number of more than two digits in braces is no
		// format's field: '{12345678}', nor a password: '{Welcome1}'
		// (braced)
		in := strings.TrimSuffix(v[1:], "}")
		return len(in) < len(v)-1 && (len(in) <= 2 || strings.ContainsFunc(in, func(r rune) bool { return r < '0' || r > '9' })) && !braced(v)
	case '[':
		return strings.HasSuffix(v, "]")
	case '%':
		return len(v) <= 12 && formatVerb.get().MatchString(v)
	}
	last := v[len(v)-1]
	return last == '"' || last == '\'' || last == '+' || strings.Contains(v, "${") || strings.Contains(v, "{{")
}

// passwordHash: v is a password's hash as a server stores it, no password.
func passwordHash(v string) bool {
	return len(v) == 35 && strings.HasPrefix(v, "md5") && hexDigits(v[3:]) ||
		len(v) == 41 && v[0] == '*' && hexDigits(v[1:]) ||
		strings.HasPrefix(v, "SCRAM-SHA-256$")
}
