package secrets

import (
	"slices"
	"strings"
)

// This file tells T-SQL's variables from a password written where one
// could stand: after WITH or BY of a statement that takes a password as
// an option (ALTER LOGIN … WITH PASSWORD = @pw), "@" is the language's
// own; in prose, a .env line or a command it is none.

// tsqlVariable: v, unquoted after the "=" of the name at s[j], is a
// T-SQL variable (@Password1) where T-SQL gives one: among the options
// after WITH or BY of a statement that takes a password (tsqlVerbs: ALTER
// LOGIN … WITH PASSWORD = @v, CREATE MASTER KEY ENCRYPTION BY PASSWORD =
// @v) or as a procedure's named argument (@passwd = @v). There "@" is the language's own syntax, whatever the name reads
// as; elsewhere (mysql -p@Secret1, {"password": "@Secret1"}) a name that
// reads as a password is one (humanPassword).
func tsqlVariable(s string, j int, v string) bool {
	v = strings.TrimRight(v, ")") // the option list's close: WITH PRIVATE KEY (…, ENCRYPTION BY PASSWORD = @pw)
	if len(v) < 2 || v[0] != '@' || !(asciiLetter(v[1]) || v[1] == '_') ||
		strings.ContainsFunc(v[1:], func(r rune) bool { return !(r < 128 && (asciiLetter(byte(r)) || r >= '0' && r <= '9' || r == '_')) }) {
		return false
	}
	if j > 0 && s[j-1] == '@' {
		return true
	}
	// A NAME=value line (capitals and "_", no blanks round "="), as an
	// .env or INI file has, is never inside a SQL statement: whatever
	// prose stands before it, DB_PASSWORD=@Winter2024 goes.
	n := j
	for n < len(s) && (s[n] >= 'A' && s[n] <= 'Z' || s[n] >= '0' && s[n] <= '9' || s[n] == '_') {
		n++
	}
	if n > j && n < len(s) && s[n] == '=' && s[j] >= 'A' && s[j] <= 'Z' && (lineStart(s, j) || indentedLine(s, j) || jsonStringStart(s, j)) {
		return false
	}
	// The statement so far, back to its ";" and a few lines at most: its
	// last WITH (ALTER LOGIN app WITH NAME = app2, PASSWORD = @pw) or BY
	// (CREATE MASTER KEY ENCRYPTION BY PASSWORD = @pw), after which stand
	// only options (NAME = value, …) before the name; the line that WITH
	// or BY stands on, or the statement's first, starts with a word, the
	// statement's verb or a clause's keyword, at its start or after ";"
	// (RESTORE, BACKUP, ALTER), in capitals or in lower case; and no
	// prose's colon ("Create it with: …") stands in it.
	lo := max(0, j-maxTSQLStatement)
	if k := strings.LastIndexByte(s[lo:j], ';'); k >= 0 {
		lo += k + 1
	}
	w := -1
	for i := j - 2; i >= lo; i-- {
		if isWordByte(s[i]) && (i == 0 || !isWordByte(s[i-1])) && (i+2 <= j && strings.EqualFold(s[i:i+2], "by") && (i+2 == j || !isWordByte(s[i+2])) ||
			i+4 <= j && strings.EqualFold(s[i:i+4], "with") && (i+4 == j || !isWordByte(s[i+4]))) {
			w = i
			break
		}
	}
	if w < 0 || !tsqlOptionsOnly(s[w:j]) {
		return false
	}
	ls := w
	for ls > lo && !lineStart(s, ls) && !jsonStringStart(s, ls) {
		ls--
	}
	for i := ls; i < j; i++ {
		if s[i] == ':' && (i+1 == j || blank(s[i+1]) || s[i+1] == '\\' || s[i+1] == '\n') {
			return false
		}
	}
	for ls < w && (blank(s[ls]) || s[ls] == '\\' && ls+1 < w && s[ls+1] == 't') {
		if s[ls] == '\\' {
			ls++
		}
		ls++
	}
	if !asciiLetter(s[ls]) || ls > 0 && isWordByte(s[ls-1]) && !lineStart(s, ls) {
		return false
	}
	// The line's first word is a statement's verb that takes a password
	// as an option (tsqlVerbs), or, on a clause's line of its own (WITH,
	// ENCRYPTION BY), the statement's first word is; SQL writes it in
	// capitals or in lower case, and prose's "with", "log in with", "sign
	// in with" and "Log in with" start no such statement.
	if tsqlStatement(s, ls, j) {
		return true
	}
	// The statement's first word: the first that starts a line or a JSON
	// string, or the first after its ";".
	for st := lo; st < w; st++ {
		if !asciiLetter(s[st]) || st > 0 && isWordByte(s[st-1]) {
			continue
		}
		if lineStart(s, st) || jsonStringStart(s, st) || lo > 0 && strings.TrimSpace(s[lo:st]) == "" {
			return tsqlStatement(s, st, j)
		}
	}
	return false
}

// tsqlStatement: s[i:end] starts as a statement that takes a password
// as an option: a verb of tsqlVerbs, then what it acts on
// (tsqlObjects), each in capitals or in lower case: ALTER LOGIN, create
// master key, RESTORE DATABASE; prose that starts with such a verb
// ("create the user with", "open the console with") is none.
func tsqlStatement(s string, i, end int) bool {
	if !tsqlVerb(leadingWord(s, i, end)) {
		return false
	}
	k := i + len(leadingWord(s, i, end))
	n := k
	for k < end {
		switch {
		case blank(s[k]) || s[k] == '\n' || s[k] == '\r':
			k++
		case k+1 < end && s[k] == '\\' && (s[k+1] == 'n' || s[k+1] == 'r' || s[k+1] == 't'):
			k += 2 // a line break or a tab as JSON writes it: ALTER\nLOGIN
		default:
			return k > n && tsqlWordIn(leadingWord(s, k, end), tsqlObjects)
		}
	}
	return false
}

// tsqlVerb: w is one of tsqlVerbs, in capitals or in lower case.
func tsqlVerb(w string) bool { return tsqlWordIn(w, tsqlVerbs) }

// tsqlWordIn: w is one of words, in capitals or in lower case.
func tsqlWordIn(w string, words []string) bool {
	return w != "" && (w == strings.ToUpper(w) || w == strings.ToLower(w)) &&
		slices.ContainsFunc(words, func(v string) bool { return strings.EqualFold(v, w) })
}

// tsqlObjects are what tsqlVerbs act on where a password is an option:
// LOGIN, USER, APPLICATION ROLE, MASTER KEY (also SERVICE MASTER KEY),
// CERTIFICATE, SYMMETRIC and ASYMMETRIC KEY, DATABASE (its ENCRYPTION
// KEY, a backup's), LOG, CREDENTIAL, SIGNATURE and COUNTER SIGNATURE,
// and RESTORE's reading of a backup (HEADERONLY, FILELISTONLY,
// VERIFYONLY, LABELONLY), which takes the backup's password too.
var tsqlObjects = []string{"LOGIN", "USER", "APPLICATION", "MASTER", "SERVICE", "CERTIFICATE", "SYMMETRIC", "ASYMMETRIC",
	"DATABASE", "LOG", "CREDENTIAL", "SIGNATURE", "COUNTER", "ROLE", "KEY",
	"HEADERONLY", "FILELISTONLY", "VERIFYONLY", "LABELONLY"}

// tsqlVerbs are the T-SQL statements that take a password as an option
// (WITH PASSWORD = @pw, ENCRYPTION BY PASSWORD = @pw): ALTER and CREATE
// LOGIN, USER, APPLICATION ROLE, MASTER KEY, CERTIFICATE and the keys;
// OPEN MASTER KEY; BACKUP and RESTORE of a database, a certificate or a
// master key; ADD SIGNATURE.
var tsqlVerbs = []string{"ALTER", "CREATE", "OPEN", "BACKUP", "RESTORE", "ADD"}

// leadingWord is the ASCII letters of s from i, no further than end.
func leadingWord(s string, i, end int) string {
	e := i
	for e < end && asciiLetter(s[e]) {
		e++
	}
	return s[i:e]
}

// tsqlOptionsOnly: t, a statement's text from its WITH or BY to a
// variable's name, holds that word, then options only (NAME = value,
// separated by "," or blanks) or nothing: "WITH NAME = app2, ", "BY ",
// not prose's "with care\n".
func tsqlOptionsOnly(t string) bool {
	i := 0
	for i < len(t) && isWordByte(t[i]) {
		i++ // WITH or BY
	}
	for {
		for i < len(t) && (blank(t[i]) || t[i] == '\n' || t[i] == '\r' || t[i] == ',' || t[i] == '\\' && i+1 < len(t) && strings.IndexByte("nrt", t[i+1]) >= 0) {
			if t[i] == '\\' {
				i++
			}
			i++
		}
		if i == len(t) {
			return true
		}
		k := i
		for k < len(t) && isWordByte(t[k]) {
			k++
		}
		if k == i {
			return false
		}
		for k < len(t) && blank(t[k]) {
			k++
		}
		if k == len(t) || t[k] != '=' {
			return false
		}
		k++
		for k < len(t) && blank(t[k]) {
			k++
		}
		for k < len(t) && !blank(t[k]) && t[k] != ',' && t[k] != '\n' && t[k] != '\\' {
			k++ // the option's value
		}
		if k == i {
			return false
		}
		i = k
	}
}

// maxTSQLStatement bounds the bytes read back for a T-SQL statement's
// words before a variable: a constant for each "=", so that the rule stays
// linear.
const maxTSQLStatement = 256

// tsqlAssigned reads a T-SQL variable's declaration or assignment whose
// "=" is at i and whose value is a string literal, the variable's name a
// password's (tsqlSecretName): DECLARE @pw NVARCHAR(50) = N'…', SET @pw
// = '…', SELECT @password = '…', in capitals or in lower case. The
// literal is the password a later statement uses (ALTER LOGIN … WITH
// PASSWORD = @pw). A few bytes are read back from "=" at most.
func tsqlAssigned(s string, i int) (assignment, bool) {
	if i == 0 || i+1 >= len(s) || s[i+1] == '=' || strings.IndexByte("=!<>", s[i-1]) >= 0 {
		return assignment{}, false
	}
	e := i
	for e > 0 && i-e < 8 && blank(s[e-1]) {
		e--
	}
	typed, sysname := false, false
	if e > 0 && s[e-1] == ')' {
		// the type's length: (50), (max), (18, 2)
		o := strings.LastIndexByte(s[max(0, e-16):e], '(')
		if o < 0 {
			return assignment{}, false
		}
		e = max(0, e-16) + o
	}
	t := e
	for t > 0 && e-t < 24 && asciiLetter(s[t-1]) {
		t--
	}
	if t < e && t > 0 && blank(s[t-1]) {
		// a type's word (NVARCHAR, varchar, sysname) after the name, and
		// AS before it: DECLARE @pw AS NVARCHAR(50)
		typed = true
		sysname = strings.EqualFold(s[t:e], "sysname")
		e = t
		for e > 0 && t-e < 8 && blank(s[e-1]) {
			e--
		}
		if e >= 3 && tsqlWordIn(s[e-2:e], []string{"AS"}) && blank(s[e-3]) {
			e -= 2
			for a := e; e > 0 && a-e < 8 && blank(s[e-1]); {
				e--
			}
		}
	} else if e < i && s[e] == '(' {
		return assignment{}, false
	}
	n := e
	for n > 0 && e-n < 64 && (isWordByte(s[n-1]) || s[n-1] == '_') {
		n--
	}
	if n == e || n == 0 || s[n-1] != '@' || n >= 2 && s[n-2] == '@' {
		return assignment{}, false
	}
	name := s[n:e]
	if !tsqlSecretName(name) {
		return assignment{}, false
	}
	w := tsqlSpaceBack(s, n-1)
	if c := tsqlCommentBefore(s, w, n-1); typed && w > 0 && s[w-1] != ',' && c > 0 {
		w = tsqlSpaceBack(s, c) // DECLARE @id INT = 1, -- id\n  @pw …
	}
	if typed && w > 0 && s[w-1] == ',' {
		// a later variable of one DECLARE: DECLARE @id INT = 1, @pw …
		if !tsqlDeclareBefore(s, w-1) {
			return assignment{}, false
		}
		return tsqlLiteral(s, i, name, sysname)
	}
	if w == n-1 {
		return assignment{}, false
	}
	kw := w
	for kw > 0 && w-kw < 8 && asciiLetter(s[kw-1]) {
		kw--
	}
	if kw > 0 && isWordByte(s[kw-1]) {
		return assignment{}, false
	}
	verbs := []string{"SET", "SELECT"}
	if typed {
		verbs = []string{"DECLARE"}
	}
	if !tsqlWordIn(s[kw:w], verbs) && !(typed && s[kw:w] == "Declare") {
		return assignment{}, false
	}
	return tsqlLiteral(s, i, name, sysname)
}

// tsqlLiteral is the string literal after the "=" at i that the
// variable name is given (N'…' or '…'); sysname: the variable is
// declared of type sysname, an object's name.
func tsqlLiteral(s string, i int, name string, sysname bool) (assignment, bool) {
	k := i + 1
	for k < len(s) && k-i < 8 && blank(s[k]) {
		k++
	}
	if k+1 < len(s) && (s[k] == 'N' || s[k] == 'n') && s[k+1] == '\'' {
		k++ // N'…', a Unicode literal
	}
	vs, ve, quoted, ok := quotedAt(s, k)
	if !quoted || !ok && !(s[k] == '\'' && ve+1 < len(s) && s[ve] == '\'' && s[ve+1] == '\'') {
		return assignment{}, false
	}
	first := ve
	for s[k] == '\'' && ve+1 < len(s) && s[ve+1] == '\'' && ve-vs < 256 {
		// 'Win''ter2024!': a doubled quote is one of the literal's
		// bytes; the literal runs to the quote that no other follows.
		// With no later quote on the line ('Zq7…'' ending a string that
		// quotes the statement), the first quote ends it.
		n := strings.IndexByte(s[ve+2:min(len(s), ve+2+256)], '\'')
		if n < 0 || strings.IndexByte(s[ve+2:ve+2+n], '\n') >= 0 {
			ve = first
			break
		}
		ve += 2 + n
	}
	if ve <= vs {
		return assignment{}, false
	}
	if sysname && !tsqlNamedBefore(name) && wordsName(s[vs:ve]) {
		// DECLARE @cred sysname = N'AzureStorageCred': an object's name.
		// Under another type, or set, words in CamelCase may be a
		// passphrase (N'PurpleMonkeyDishwasher'), and they go.
		return assignment{}, false
	}
	kind := passwordName
	if k := fieldKind(name); k != passwordName && k != strongName && tsqlSecretWord(name) {
		kind = strongName // @token = 'refresh', @secret = 'none': a word is no key
	}
	return assignment{name: "@" + name, kind: kind, start: vs, end: ve, form: formWord}, true
}

// tsqlSpaceBack is where the blanks and line breaks (raw, or as JSON
// writes them: \n, \r, \t) that end s[:e] start, 32 bytes back at most:
// DECLARE\n    @pw spans lines.
func tsqlSpaceBack(s string, e int) int {
	w := e
	for w > 0 && e-w < 32 {
		switch {
		case blank(s[w-1]) || s[w-1] == '\n' || s[w-1] == '\r':
			w--
		case w >= 2 && s[w-2] == '\\' && strings.IndexByte("nrt", s[w-1]) >= 0:
			w -= 2
		default:
			return w
		}
	}
	return w
}

// tsqlDeclareBefore: the "," at c ends a variable's declaration in a
// DECLARE that starts it, in capitals or in lower case, a word of its own
// before a variable (DECLARE @id INT = 1, …), no ";" between them, and
// maxTSQLStatement bytes back at most.
func tsqlDeclareBefore(s string, c int) bool {
	lo := max(0, c-maxTSQLStatement)
	for d := c - 7; d >= lo; d-- {
		if (s[d] == 'D' || s[d] == 'd') && (tsqlWordIn(s[d:d+7], []string{"DECLARE"}) || s[d:d+7] == "Declare") && (d == 0 || !isWordByte(s[d-1])) {
			at := d + 7
			if at < len(s) && blank(s[at]) || at+1 < len(s) && s[at] == '\\' {
				at = tsqlSpaceFwd(s, at)
			}
			return at > d+7 && at < c && s[at] == '@' && !tsqlStatementEnds(s, at, c)
		}
	}
	return false
}

// tsqlStatementEnds: a ";" ends the statement between from and to, outside
// the string literals ('…', a doubled quote inside) and comments ("--" to
// the line's end) that stand there: DECLARE @sep char(1) = ';', @pw …
// is one statement.
func tsqlStatementEnds(s string, from, to int) bool {
	quoted := false
	for i := from; i < to; i++ {
		switch c := s[i]; {
		case c == '\'':
			quoted = !quoted
		case quoted:
		case c == ';':
			return true
		case c == '-' && i+1 < to && s[i+1] == '-':
			for i < to && s[i] != '\n' && !(s[i] == '\\' && i+1 < to && s[i+1] == 'n') {
				i++
			}
		}
	}
	return false
}

// tsqlCommentBefore is where the comment ("--" to the line's end) starts
// that ends the line before a variable at e, when the blanks s[w:e] hold
// a line break (raw or as JSON writes it); -1 for none. 64 bytes back
// from w are read at most.
func tsqlCommentBefore(s string, w, e int) int {
	if !strings.Contains(s[w:e], "\n") && !strings.Contains(s[w:e], `\n`) {
		return -1
	}
	ls := w
	for ls > 0 && w-ls < 64 && s[ls-1] != '\n' && !(ls >= 2 && s[ls-2:ls] == `\n`) {
		ls--
	}
	if k := strings.Index(s[ls:w], "--"); k >= 0 && strings.Count(s[ls:ls+k], "'")%2 == 0 {
		return ls + k
	}
	return -1
}

// tsqlSpaceFwd is where the blanks and line breaks (raw or as JSON
// writes them) from s[i] end, 32 bytes on at most.
func tsqlSpaceFwd(s string, i int) int {
	k := i
	for k < len(s) && k-i < 32 {
		switch {
		case blank(s[k]) || s[k] == '\n' || s[k] == '\r':
			k++
		case k+1 < len(s) && s[k] == '\\' && strings.IndexByte("nrt", s[k+1]) >= 0:
			k += 2
		default:
			return k
		}
	}
	return k
}

// tsqlSecretName: name, a T-SQL variable's without its "@", names a
// password: a password's or a secret's name (password, newPassword,
// secret_key: fieldKind), or pw, pwd and names ending in them, digits
// aside (newpw, sa_pwd, pw2).
func tsqlSecretName(name string) bool {
	switch fieldKind(name) {
	case passwordName, strongName:
		return true
	}
	l := strings.ToLower(strings.TrimRight(name, "0123456789"))
	if strings.HasSuffix(l, "pw") || strings.HasSuffix(l, "pwd") { // not @pwd_col, @pwm_mode: what they name comes last
		return true
	}
	// The password's and the secret's words of a header's name
	// (headerWords) that end it: @pass, @db_pass, @passwd, @cred, @secret,
	// @token; not @key, whose lookups hold a column's or a cache's name.
	return slices.Contains([]string{"pass", "passwd", "pwd", "password", "passphrase"}, tsqlLastWord(name)) || tsqlSecretWord(name)
}

// tsqlSecretWord: name's last word names a secret other than a password
// (@secret, @token, @api_key, @cred), judged as a key is.
func tsqlSecretWord(name string) bool {
	return slices.Contains([]string{"cred", "creds", "credential", "credentials", "secret", "token", "apikey"}, tsqlLastWord(name))
}

// tsqlLastWord is name's last word (nameWords), digits after it dropped.
func tsqlLastWord(name string) string {
	words := nameWords(name)
	if len(words) == 0 {
		return ""
	}
	return strings.TrimRight(words[len(words)-1], "0123456789")
}

// tsqlNamedBefore: name is one the rule read before it took the
// vocabulary of headers' credentials (tsqlSecretName's last line): a
// password's or a secret's name, or pw and pwd ending it. Their literals
// are judged as they were.
func tsqlNamedBefore(name string) bool {
	switch fieldKind(name) {
	case passwordName, strongName:
		return true
	}
	l := strings.ToLower(strings.TrimRight(name, "0123456789"))
	return strings.HasSuffix(l, "pw") || strings.HasSuffix(l, "pwd")
}

// wordsName: v is an identifier made of two words or more, in CamelCase
// or joined by "_" (AccessToken, access_token, KeyVaultSecretName,
// sql_agent_proxy), as an object's name is: each word a letter then
// lower-case letters, with a vowel (y counts) unless it is a lower-case
// word of two or three letters (sql, db); no digits. A generated key mixes
// digits in (Zq7xK9mQ7pZ2wR5t), a password too (Winter2024!); letters of
// a generated key change case without words' vowels.
func wordsName(v string) bool {
	if len(v) > 64 {
		return false
	}
	words := 0
	for part := range strings.SplitSeq(v, "_") {
		if part == "" {
			return false
		}
		for start := 0; start < len(part); {
			e := start + 1
			for e < len(part) && part[e] >= 'a' && part[e] <= 'z' {
				e++
			}
			w := part[start:e]
			if !asciiLetter(w[0]) || len(w) < 2 {
				return false
			}
			snake := start == 0 && e == len(part) && w[0] >= 'a' && len(w) <= 3
			if !snake && !strings.ContainsAny(strings.ToLower(w), "aeiouy") {
				return false
			}
			words++
			start = e
		}
	}
	return words >= 2
}
