package secrets

import (
	"slices"
	"strings"
	"sync"
	"unicode"
)

// This file reads the name=value rule's assignments (INI and .env lines,
// a query's or a form's pairs in text, a command's NAME=value prefix) and
// tells a setting from what only looks like one: code (a call, a dotted
// name, an indented line, a unified diff's), prose ("password = the one
// you chose"), T-SQL's variables; and a passphrase from prose.

// equalsAssignments finds the assignments around each "=" of s; steps
// is the bytes read from each "=" to its value's end, which the linear
// time test holds to the text's length.
func equalsAssignments(s string) (out []assignment, steps int) {
	// read is where the last unquoted value after "=" that was read
	// ended: an "=" before it is inside that value (password=password=…,
	// a value with no separator runs to the text's end) and is not read
	// again, so that each byte is read as a value once.
	read := 0
	var memo nameMemo
	for i := range indexes(s, "=") {
		if i < read {
			continue
		}
		if a, ok := tsqlAssigned(s, i); ok {
			// DECLARE @pw NVARCHAR(50) = N'…'
			out = append(out, a)
			steps += a.end - i
			if strings.Contains(s[a.start:a.end], "''") {
				read = a.end // 'Win''ter…': its doubled quotes' "=" are the literal's
			}
			continue
		}
		a, ok := equalsAssignment(s, i, &memo)
		steps += max(a.end, i+1) - i
		if a.unquoted {
			read = a.end
		}
		if ok {
			out = append(out, a)
		} else if a, ok := attributePair(s, i); ok {
			out = append(out, a)
		} else if a, ok := codeAssignment(s, i); ok {
			out = append(out, a)
		}
	}
	return out, steps
}

// valueStops end an unquoted value after "=".
var valueStops = func() (t [256]bool) {
	for _, c := range []byte("&\"'<> \t\r\n\\#;,") {
		t[c] = true
	}
	return t
}()

// nameMemo remembers the kind of the last name a text's rule read, so
// that a text that repeats a name ("password = …" on every line) asks
// fieldKind, whose cache takes a lock, once for each run of it (under the
// race detector the lock was a third of such a text's time).
type nameMemo struct {
	name string
	k    nameKind
	ok   bool
}

func (m *nameMemo) kind(name string) nameKind {
	if !m.ok || m.name != name {
		m.name, m.k, m.ok = name, fieldKind(name), true
	}
	return m.k
}

// lineStart: s[j] starts a line, or follows an escaped line break (\n).
func lineStart(s string, j int) bool {
	return j == 0 || s[j-1] == '\n' || j >= 2 && s[j-2] == '\\' && s[j-1] == 'n'
}

// jsonStringStart: s[j] starts a JSON string value (after ":", "[" or
// ",", its quote escaped too in JSON inside JSON; blanks and escaped
// \t, \r or \n before it), whose text begins a line as a decoded string's
// would: {"content":"password = …"} is the
// INI line that {"content":"a\npassword = …"} holds after its \n.
func jsonStringStart(s string, j int) bool {
	// Past the string's leading whitespace, escaped or not
	// ("\tpassword = …", "  api_key = …"), a few bytes at most: the
	// rule reads each "=" once (equalsAssignments).
	for n := 0; j >= 2 && n < 8; n++ {
		switch {
		case blank(s[j-1]):
			j--
		case s[j-2] == '\\' && (s[j-1] == 't' || s[j-1] == 'r' || s[j-1] == 'n') && backslashesBefore(s, j-1)%2 == 1:
			j -= 2
		default:
			n = 8
		}
	}
	if j < 2 || s[j-1] != '"' {
		return false
	}
	k := j - 1
	if s[k-1] == '\\' {
		k--
	}
	for k > 0 && blank(s[k-1]) {
		k--
	}
	return k > 0 && strings.IndexByte(":[,", s[k-1]) >= 0
}

// equalsAssignment reads `name=value` around the "=" at i; "==", "!=",
// "<=" and ">=" compare, and an unquoted value that is a call or an index
// is code (`api_key = os.environ["KEY"]`, `password = getpass()`), not a
// credential (codeExpression).
func equalsAssignment(s string, i int, memo *nameMemo) (assignment, bool) {
	if i+1 < len(s) && s[i+1] == '=' || i > 0 && strings.IndexByte("=!<>", s[i-1]) >= 0 {
		return assignment{}, false
	}
	e := i
	for e > 0 && blank(s[e-1]) {
		e--
	}
	j := nameStart(s, e)
	name := s[j:e]
	if b, inner := bracketName(s, e); name == "" && inner != "" {
		j, name = bracketStart(s, b), inner // a form's user[password]=…, items[0][password]=…, as Rails logs it
	}
	if name == "" || e < i && !lineStart(s, j) && !jsonStringStart(s, j) && s[j-1] != ' ' && s[j-1] != '\t' {
		// Spaces around "=" only in INI and .env lines.
		return assignment{}, false
	}
	var after byte
	if j > 0 {
		after = s[j-1]
	}
	if setPrompt(s, j) {
		// cmd's set /p PASSWORD=Enter password: asks for the value; what
		// follows "=" is the prompt
		return assignment{}, false
	}
	kind := memo.kind(name)
	prose := false
	switch {
	case after == '?' || after == '&' || after == ';':
		kind = paramKind(name)
	case kind == sessionName && j > 0 && blank(s[j-1]):
		// A session's id in prose ("… with sid=…"): its value must look
		// generated, as in JSON (sessionValue), judged here so that prose
		// full of "sid=" makes no assignments.
		prose = true
	case kind <= weakName && !(lineStart(s, j) || jsonStringStart(s, j) || strings.HasSuffix(s[:j], "export ")) && !(e == i && envName(name)):
		// A weak name in prose ("the key=value") is no assignment; an
		// environment variable's is, wherever a command sets it (sudo
		// MYSQL_PWD=… mysql, ssh db 'REDIS_AUTH=… redis-cli').
		kind = notSecret
	}
	if name == "--pass" || name == "--pw" {
		kind = weakName // a command's --pass=…, --pw=…: its password when it looks like one
	}
	if kind == notSecret {
		return assignment{}, false
	}
	k := i + 1
	for k < len(s) && blank(s[k]) {
		k++
	}
	if k > i+1 && (name[0] == '-' || k < len(s) && s[k] == '-') {
		// A blank after a flag's "=", or before another flag: the value
		// is empty (mysql --password= -e …, "between --password= or
		// -p", PASSWORD= --verbose).
		return assignment{}, false
	}
	start := k
	if vs, ve, quoted, ok := quotedAt(s, k); quoted {
		return assignment{name: name, kind: kind, start: vs, end: ve}, ok && !(prose && !proseSessionValue(s[vs:ve]))
	}
	if n := referenceAt(s, k); n > 0 {
		// cmd's %DB_PASSWORD:~0,8%, a mask's (not set): read whole, no value
		return assignment{start: start, end: k + n, unquoted: true}, false
	}
	amp := k < len(s) && s[k] == '&' && (kind == passwordName || ownedPwd(name)) && after != '?' && after != '&' && k == i+1
	if amp {
		k++ // a settings line's password=&welcome1 (bareSetting judges it)
	}
	for k < len(s) && !valueStops[s[k]] {
		k++
	}
	if amp && (k < len(s) && s[k] == '&' || strings.IndexByte(s[start:k], '=') >= 0 || !markPassword(s[start:k])) {
		// a form's empty password before its next field (password=&next=1,
		// password=&remember_me=1), SQL*Plus's &1: no value
		return assignment{}, false
	}
	if kind == passwordName && k < len(s) && blank(s[k]) && (lineStart(s, j) || jsonStringStart(s, j) || indentedLine(s, j)) {
		if pe := passphraseEnd(s, start); pe > 0 {
			// db_password = correct horse battery staple: the line's words
			return assignment{name: name, kind: kind, start: start, end: pe, unquoted: true}, true
		}
	}
	if codeExpression(s[start:k]) || credentialReference(s[start:k]) || prose && !proseSessionValue(s[start:k]) || e < i && wordy(s[start:k]) && wordAfter(s, k) ||
		tsqlVariable(s, j, s[start:k]) ||
		e == i && indentedLine(s, j) && codeName(s[start:k]) && strings.ContainsAny(s[start:k], ".(") && !(start == i+1 && settingValue(name, s[start:k])) ||
		e < i && !lineStart(s, j) && (jsonStringStart(s, j) || indentedLine(s, j)) && codeName(s[start:k]) {
		return assignment{start: start, end: k, unquoted: true}, false
	}
	return assignment{name: name, kind: kind, start: start, end: k, unquoted: true}, k > start
}

// setPrompt: the name at s[j] is cmd's set /p's, quoted or not (set /p
// PASSWORD=…, set /p "PASSWORD=…", its quote escaped in JSON; blanks
// between its words).
func setPrompt(s string, j int) bool {
	k := j
	if k > 0 && s[k-1] == '"' {
		k--
		if k > 0 && s[k-1] == '\\' {
			k-- // its quote escaped, in JSON
		}
	}
	n := k
	for k > 0 && blank(s[k-1]) {
		k--
	}
	if k == n || k < 2 || !strings.EqualFold(s[k-2:k], "/p") {
		return false
	}
	k -= 2
	n = k
	for k > 0 && blank(s[k-1]) {
		k--
	}
	return k < n && k >= 3 && strings.EqualFold(s[k-3:k], "set") && (k == 3 || !isWordByte(s[k-4]) || lineStart(s, k-3))
}

// indentedLine: only blanks (raw, or JSON's \t escapes) stand before
// s[j] on its line, after a unified diff's "+" or "-" at most: code is
// indented ("    password = user.password" in a method, a diff's
// context line " api_key = settings.API_KEY", its "-    password =
// form.password"), an INI or .env file's settings are not, so that such a
// line's code (codeName) is no setting. A few bytes are read back at most.
func indentedLine(s string, j int) bool {
	k := j
	for n := 0; k > 0 && n < 64; n++ {
		switch {
		case blank(s[k-1]):
			k--
		case k >= 2 && s[k-2] == '\\' && s[k-1] == 't':
			k -= 2
		default:
			n = 64
		}
	}
	if k == j {
		return false
	}
	if k > 0 && (s[k-1] == '+' || s[k-1] == '-') {
		k--
	}
	return lineStart(s, k) || jsonStringStart(s, k) // {"content":"    DB_PASSWORD=settings.DB_PASSWORD"}
}

// sqlWordIn: word, lower-case, stands in s as a word in any case.
func sqlWordIn(s, word string) bool {
	for i := 0; i+len(word) <= len(s); i++ {
		if (i == 0 || !isWordByte(s[i-1])) && strings.EqualFold(s[i:i+len(word)], word) &&
			(i+len(word) == len(s) || !isWordByte(s[i+len(word)])) {
			return true
		}
	}
	return false
}

// envName: name is an environment variable's, as a command's prefix
// sets one: capitals and digits, words joined by "_" (MYSQL_PWD).
func envName(name string) bool {
	return len(name) > 2 && name[0] >= 'A' && name[0] <= 'Z' && strings.IndexByte(name, '_') > 0 &&
		strings.IndexFunc(name, func(r rune) bool { return !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') }) < 0
}

// codeName: v, the value of an INI-looking line at a JSON string's start
// or indented, reads as the code an agent's tool call or a model's answer
// holds there ({"old_str":"password = user.password"}), not as a setting:
// a dotted name whose every part reads as a name a person writes
// (form.password.data, settings.SECRET_KEY, secrets.token_hex(16):
// identifierPart), or one name of lower-case letters and underscores
// (new_password, getpass). A generated value mixes cases and digits
// within a part (Zq7xZ8mR3pY9wB7t, Zq7xK9.mQ7pZ2wR5t, Tr0ub4dor.3x), and a
// password of capitalized words joined by dots (Sunshine.Moonlight,
// Sunshine.Key) has no part a name writes otherwise: these go wherever
// they stand, as does any value on a line of its own (lineStart).
func codeName(v string) bool {
	if i := strings.IndexByte(v, '('); i > 0 {
		v = v[:i] // a call: what follows is its arguments
	}
	if v == "" {
		return false
	}
	if i := strings.LastIndexByte(v, '.'); i > 0 && credentialPart(v[i+1:]) &&
		!strings.ContainsFunc(v, func(r rune) bool { return !(r < 128 && (isWordByte(byte(r)) || r == '.')) }) {
		// A dotted name ending in a credential's name reads what a
		// program keeps (config.password, Auth0Config.ClientSecret,
		// self.API_KEY) when a part before the last starts in lower case
		// or the last is a compound; capitalized words ending in the bare
		// word read as a password (Sunshine.Key, Letmein.Password), and so,
		// this side of a list of class names, does C#'s
		// Settings.Default.Password.
		last := v[i+1:]
		names, lower := true, false
		for part := range strings.SplitSeq(v[:i], ".") {
			names = names && identifierPart(part) && !humanPassword(part)
			lower = lower || part != "" && part[0] >= 'a' && part[0] <= 'z'
		}
		bare := slices.ContainsFunc(credentialWords, func(w string) bool { return strings.EqualFold(last, w) })
		if names && identifierPart(last) && (lower || !bare) {
			return true
		}
	}
	parts, words := 0, 0
	for part := range strings.SplitSeq(v, ".") {
		if humanPassword(part) || !identifierPart(part) {
			return false // Summer2024, Welcome1: a person's password, no name
		}
		parts++
		if len(part) > 1 && part[0] >= 'A' && part[0] <= 'Z' && !strings.ContainsFunc(part[1:], func(r rune) bool { return r < 'a' || r > 'z' }) {
			words++
		}
	}
	if parts > 1 && words == parts {
		return false // capitalized words joined by dots, a password's (Sunshine.Moonlight)
	}
	return parts > 1 || strings.IndexFunc(v, func(r rune) bool { return !(r == '_' || r >= 'a' && r <= 'z') }) < 0
}

// credentialWords are the names of a credential that end a dotted name's
// last part in code (config.password, ClientSecret, api_key, authToken).
var credentialWords = []string{"password", "secret", "key", "token"}

// credentialPart: p, a dotted name's last part, names a credential:
// password, secret, key or token, alone in any case or ending a compound
// after "_" or as camel case's last hump (api_key, ClientSecret,
// DBPassword, OpenAIKey, JWTSecret).
func credentialPart(p string) bool {
	for _, w := range credentialWords {
		n := len(p) - len(w)
		if n < 0 || !strings.EqualFold(p[n:], w) {
			continue
		}
		if n == 0 || p[n-1] == '_' || p[n] >= 'A' && p[n] <= 'Z' && p[n+1:] == strings.ToLower(p[n+1:]) {
			return true
		}
	}
	return false
}

// settingValue: v, the value of NAME=value with the name in capitals
// and "_" and no blanks round "=", reads as an env or INI file's setting
// even on an indented line: no part of it marks an identifier (a capital,
// a "_" or a call), as settings.DB_PASSWORD's does; xkqz.mzpr and
// prod2024.key9 are values.
func settingValue(name, v string) bool {
	if name == "" || name[0] < 'A' || name[0] > 'Z' ||
		strings.ContainsFunc(name, func(r rune) bool { return !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') }) {
		return false
	}
	return !strings.ContainsFunc(v, func(r rune) bool { return r >= 'A' && r <= 'Z' || r == '_' || r == '(' })
}

// identifierPart: p, a part of a dotted name, reads as an identifier a
// person writes: words joined by "_", each lower-case, in capitals,
// capitalized or in camel case (user, token_hex, API_KEY, newPassword,
// HttpClient, DBPassword), digits at a word's end (v2, sha256) or before
// a capitalized hump (x509Cert, Auth0Config), or a later word's digits
// and lower-case letters (password_2fa); not letters and digits mixed as
// a generator mixes them (Zq7xK9, mQ7pZ2wR5t, x7Pq).
func identifierPart(p string) bool {
	if p == "" || p[0] >= '0' && p[0] <= '9' {
		return false
	}
	first := true
	for w := range strings.SplitSeq(p, "_") {
		d := len(w)
		for d > 0 && w[d-1] >= '0' && w[d-1] <= '9' {
			d--
		}
		w = w[:d]
		if !first && w != "" && w[0] >= '0' && w[0] <= '9' {
			k := 0
			for k < len(w) && w[k] >= '0' && w[k] <= '9' {
				k++
			}
			if !strings.ContainsFunc(w[k:], func(r rune) bool { return r < 'a' || r > 'z' }) {
				first = false
				continue // 2fa
			}
		}
		first = false
		for i, piece := 0, 0; ; piece++ {
			k := i
			for k < len(w) && !(w[k] >= '0' && w[k] <= '9') {
				k++
			}
			if !camelWord(w[i:k]) || piece > 0 && !(k-i >= 3 && w[i] >= 'A' && w[i] <= 'Z' && w[i+1] >= 'a' && w[i+1] <= 'z' && w[i+2] >= 'a' && w[i+2] <= 'z') {
				return false
			}
			if k == len(w) {
				break
			}
			for k < len(w) && w[k] >= '0' && w[k] <= '9' {
				k++
			}
			i = k
		}
	}
	return true
}

// camelWord: w is letters as a name writes them: empty, one case, or
// humps of a capital and lower-case letters after a first part in
// either case (newPassword, HttpClient, getURL), an acronym's capitals
// among them (DBPassword, OpenAIKey); not Zq…xK… where capitals fall one
// or two letters apart at random.
func camelWord(w string) bool {
	upper, lower := 0, 0
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case c >= 'A' && c <= 'Z':
			upper++
		case c >= 'a' && c <= 'z':
			lower++
		default:
			return false
		}
	}
	if upper == 0 || lower == 0 {
		return true
	}
	// Each hump after the first: a capital then two lower-case letters or
	// more, or a run of capitals ending the word (getURL) or ending where
	// its last capital starts such a hump (OpenAIKey).
	i := 1
	for i < len(w) && w[i] >= 'a' && w[i] <= 'z' {
		i++
	}
	for i < len(w) {
		j := i + 1
		for j < len(w) && w[j] >= 'a' && w[j] <= 'z' {
			j++
		}
		if j-i < 3 {
			k := i
			for k < len(w) && w[k] >= 'A' && w[k] <= 'Z' {
				k++
			}
			if k == len(w) {
				return true
			}
			if k-1 <= i {
				return false
			}
			j = k - 1
		}
		i = j
	}
	return true
}

// wordAfter: a word of letters follows s[:k] on its line, as in a
// sentence: "password = the one you chose at signup" is prose, not an
// INI line, when its value is a word too (a generated value followed by
// words is a password still).
func wordAfter(s string, k int) bool {
	for n := 0; k < len(s) && blank(s[k]) && n < 4; n++ {
		k++ // a few blanks at most: the rule reads each byte once (equalsAssignments)
	}
	e := k
	for e < len(s) && e-k < 32 && asciiLetter(s[e]) {
		e++
	}
	return e-k >= 2 && (e == len(s) || blank(s[e]) || strings.IndexByte(".,;:!?\"", s[e]) >= 0)
}

// maxPassphrase bounds the bytes a passphrase is read in.
const maxPassphrase = 128

// passphraseEnd is where the passphrase at s[k] ends, the value of a
// password's name on an INI, .env or YAML line: four to ten words of
// lower-case letters, one blank between each, that end the line (or the
// JSON string, or the text), none a function word (functionWords); or
// such words each capitalized (Correct Horse Battery Staple). 0 for
// none. A passphrase is words picked at random (correct horse battery
// staple); a sentence has articles, pronouns and prepositions ("password
// = the one you chose at signup", "password: see the vault", "stored in
// the vault"), and stays, as 37026f6 and 65ca522 decided; so does one
// at least half of whose words describe a password (describingWords).
func passphraseEnd(s string, k int) int {
	if k >= len(s) {
		return 0
	}
	title := s[k] >= 'A' && s[k] <= 'Z' // Correct Horse Battery Staple: each word so
	words, describing, e := 0, 0, k
	for at := k; ; {
		w := at
		if title && w < len(s) && s[w] >= 'A' && s[w] <= 'Z' {
			w++
		}
		for w < len(s) && w-k < maxPassphrase && s[w] >= 'a' && s[w] <= 'z' {
			w++
		}
		lw := strings.ToLower(s[at:w])
		if w-at < 2 || w-k >= maxPassphrase || title != (s[at] <= 'Z') || functionWord(lw) {
			return 0
		}
		if describingWords()[lw] {
			describing++
		}
		words, e = words+1, w
		if w+1 < len(s) && s[w] == ' ' && asciiLetter(s[w+1]) {
			at = w + 1
			continue
		}
		break
	}
	t := e
	for t < len(s) && blank(s[t]) {
		t++
	}
	end := t == len(s) || s[t] == '\n' || s[t] == '\r' || s[t] == '"' || s[t] == '\\' && t+1 < len(s) && strings.IndexByte("nr\"", s[t+1]) >= 0
	if words < 4 || words > 10 || !end || describing*2 >= words {
		// At least half its words describe a password: a label, a rule
		// or a note (Database Admin Password Field), not a passphrase,
		// whose random words are now and then such a word (salt pepper
		// lemon tree).
		return 0
	}
	return e
}

// functionWords are English's closed classes (articles, pronouns,
// prepositions, conjunctions, auxiliaries) and the words prose about a
// password has, which a passphrase's random words almost never are.
var functionWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the this that these those my your our their his her its it i you we they he she me us them
		of to in on at by for from with without into onto over under about as than then if or and but nor not no so is are was
		were be been being am do does did has have had will would can could shall should may might must one ones same any some
		all each every other another here there where when what which who whom whose how why see use set same via per
		chose choose chosen given sent stored kept found ask asked enter entered type typed please`) {
		m[w] = true
	}
	return m
})

func functionWord(w string) bool { return functionWords()[w] }

// describingWords name a password's properties, its field, its form or
// what is done with it, as a label, a rule or a note does ("minimum eight
// characters required", "hashed using bcrypt rounds", "Database Admin
// Password Field", "Reset Password Email Subject"): a passphrase's words,
// picked at random, are now and then one of these (salt pepper lemon
// tree), seldom half of them; a text at least half of whose words are
// these is no passphrase (passphraseEnd).
var describingWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`password passwords passphrase pass passwd pwd secret secrets key keys token tokens credential
		credentials field fields label input form email mail subject title text message prompt hint placeholder value
		minimum maximum min max least most length long short characters character chars letters letter digits digit
		numbers number symbols symbol uppercase lowercase alphanumeric special required optional mandatory must should
		contain contains containing hashed hash hashing hashes salted salt encrypted encryption encoded using used
		bcrypt scrypt argon pbkdf sha md rounds iterations cost database db admin administrator user username users
		account login reset forgot forgotten change changed confirm confirmation new old current default example sample
		policy rule rules strength strong weak expires expiry expired valid invalid validation generated random auto
		environment variable config configuration setting settings file stored storage vault manager`) {
		m[w] = true
	}
	return m
})

// codeValue: v, an unquoted value that runs to the end of its line
// (`name: value`), is code a program assigns, not a credential: a call,
// a conversion or a composite literal, possibly taken by address or left
// open for the next lines (`make(map[string]int),`, `&Config{`,
// `[]byte(pem),`, `anthropic.F(x)`, `map[string]any{`, `func() {`), as
// codeExpression says for one after "=". A password with brackets
// (Winter(2024)) is none.
func codeValue(v string) bool {
	v = strings.TrimRight(v, ",; \t")
	v = strings.TrimLeft(v, "&*")
	for _, p := range []string{"[]", "map[", "func(", "chan ", "struct{", "<-"} {
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	i := strings.IndexAny(v, "({")
	switch {
	case i <= 0 || strings.ContainsAny(v[:i], " \t"):
		return false
	case strings.HasSuffix(v, "(") || strings.HasSuffix(v, "{"):
		return codeExpression(v[:i] + "(") // opened here, closed on a later line
	case v[i] == '{' && strings.HasSuffix(v, "}") || v[i] == '(' && strings.HasSuffix(v, ")"):
		// Config{Token: t}, SpanID([8]byte{42}), &Config{}: a call or a
		// literal of something, no argument or a letter among them
		// (Winter(2024) has none).
		inner := v[i+1 : len(v)-1]
		return codeExpression(v[:i]+"(") && (inner == "" || strings.ContainsFunc(inner, unicode.IsLetter))
	}
	return codeExpression(v)
}

// codeExpression: v, an unquoted value, is a call or an index: a name
// (dotted, of letters, digits and "_") then "(" or "[", cut at it (os.environ[
// before a quote) or closed at the end around nothing, a name or a string.
// A password with brackets in it (p@ss(w0rd), abc(123)def, Winter(2024))
// is none.
func codeExpression(v string) bool {
	i := strings.IndexAny(v, "([")
	if i <= 0 || !(v[0] == '_' || v[0]|0x20 >= 'a' && v[0]|0x20 <= 'z') {
		return false
	}
	for j := range i {
		if c := v[j]; !(c == '_' || c == '.' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z') {
			return false
		}
	}
	if len(v) == i+1 {
		return true // cut at its bracket by a quote: os.environ["KEY"]
	}
	if last := v[len(v)-1]; (last == '(' || last == '[') && variableName(v[:i]) {
		return true // cut by a quote in its arguments: forms.CharField(label=_("Password"))
	}
	closing := closingBracket(v[i]) // v[i] is "(" or "["
	if v[len(v)-1] != closing {
		// Cut at a blank or a comma inside the brackets: code when the
		// function's name reads as a name and its first argument is a
		// call or a name (encode(digest(pw, …), …); hash(pw, salt)),
		// where a password with a bracket in it goes on in letters and
		// digits (Xk9m(Q2vR7t…, Secret(Zq7x…).
		arg := v[i+1:]
		if v[i] != '(' || !variableName(v[:i]) {
			return false
		}
		if p := strings.IndexAny(arg, "(["); p > 0 {
			return codeExpression(arg)
		}
		return arg != "" && (asciiLetter(arg[0]) || arg[0] == '_') && variableName(arg) && !strings.ContainsAny(arg, ")]")
	}
	// What the brackets hold: nothing, a name or a string is code
	// (getpass(), read_key(path), cfg[key]); digits are a password's
	// (Winter(2024), hunter[2]).
	inner := v[i+1 : len(v)-1]
	return inner == "" || inner[0] == '\'' || inner[0] == '"' || inner[0] == '_' || inner[0]|0x20 >= 'a' && inner[0]|0x20 <= 'z'
}

// bracketName reads the name in brackets that ends at s[e] after an
// owner's name (user[password], data[api_key]): the "[" before it and the
// name, or "" for none.
func bracketName(s string, e int) (int, string) {
	if e < 4 || s[e-1] != ']' {
		return 0, ""
	}
	b := openBracket(s, e)
	if b < 0 {
		return 0, ""
	}
	inner := s[b+1 : e-1]
	if inner == "" || b == 0 || !nameByte(s[b-1]) && s[b-1] != ']' || strings.ContainsFunc(inner, func(r rune) bool { return r > 0x7f || !nameByte(byte(r)) }) {
		return 0, ""
	}
	return b, inner
}

// bracketStart is where the owner of the bracketed name at s[b] starts:
// before its other brackets (order[user][password]).
func bracketStart(s string, b int) int {
	for b > 0 && s[b-1] == ']' {
		o := openBracket(s, b)
		if o < 0 {
			break
		}
		b = o
	}
	return nameStart(s, b)
}

// openBracket is where the "[" is of the brackets that end at s[e-1],
// a name's at most 64 bytes before: -1 for none.
func openBracket(s string, e int) int {
	lo := max(0, e-66)
	if b := strings.LastIndexByte(s[lo:e-1], '['); b >= 0 {
		return lo + b
	}
	return -1
}

// credentialReference: v, unquoted, is code that reads a credential
// rather than one: a name codeName reads as code, from one of codeRoots,
// dotted or indexed, one of whose names names a credential
// (form.password1.data, params[:password_confirmation],
// settings.DB_PASSWORD). codeName alone reads too much as code on a line
// of its own: a bare name is none (password123 is a weak password), nor
// a dotted passphrase (super.secret.key, this.is.my.secret.key).
func credentialReference(v string) bool {
	path, index := v, ""
	if i := strings.IndexByte(v, '['); i > 0 && strings.HasSuffix(v, "]") {
		path, index = v[:i], strings.Trim(v[i+1:len(v)-1], ":'\"")
	}
	root, _, dotted := strings.Cut(path, ".")
	if !slices.Contains(codeRoots, root) || index == "" && !dotted || !codeName(path) || index != "" && !identifierPart(index) {
		return false
	}
	return slices.ContainsFunc(append(strings.Split(path, "."), index), func(n string) bool { return n != "" && fieldKind(n) != notSecret })
}

// codeRoots are the objects code reads settings and inputs from.
var codeRoots = []string{"form", "params", "request", "req", "settings", "config", "cfg", "conf", "os", "process",
	"self", "args", "opts", "options", "env", "app", "ctx", "data", "body", "input", "props", "values"}
