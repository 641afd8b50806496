package secrets

import (
	"slices"
	"strings"
)

// This file reads the credentials that commands take, in text an agent
// ran or was shown: a literal piped to a command that reads a secret on
// stdin, httpie's header, query and data arguments, Redis's AUTH, SQL's
// IDENTIFIED BY and PASSWORD, and a literal given to a login call. The
// password flags are in code.go (passwordFlag).

// commandSegment is the command line that holds s[i], from its start
// (after a line break, ";", "|", "&", a backtick or the quote it is
// written in: bash -c "mysql -p…") up to i, blanks trimmed, without a
// shell's prompt ("$ ", "# ") or sudo. Its own quoted arguments (-D
// "cn=admin") are part of it.
func commandSegment(s string, i int) (seg string, at int) {
	seg = s[:i]
	if d := strings.LastIndexAny(seg, "\n;|&`"); d >= 0 {
		seg, at = seg[d+1:], d+1
	}
	open := -1 // the quote open at i
	if o := openQuote(seg, len(seg)); o >= 0 {
		open = o
	}
	seg, at = seg[open+1:], at+open+1
	for len(seg) > 0 && (blank(seg[0]) || seg[0] == '\r') {
		seg, at = seg[1:], at+1
	}
	for _, p := range []string{"$ ", "# ", "sudo "} {
		if strings.HasPrefix(seg, p) {
			seg, at = seg[len(p):], at+len(p)
		}
	}
	return strings.TrimRight(seg, " \t\r"), at
}

// startsCommand is where one of commands is a word of seg, which then
// runs it, -1 when none is
// (prose names a command before its flags too: "use mysql -p…", and so
// does a parameter's value: note=mysql -p…).
func startsCommand(seg string, commands []string) int {
	for _, c := range commands {
		if at := wordAt(seg, c); at >= 0 {
			return at
		}
	}
	return -1
}

// wordAt is where w last is in s as a word of a command line: at its
// start or after a blank, "=", "(", a tag's ">" or a quote (a string's
// own, in a JSON body as it is written), and before a blank or its end; -1
// when it is not.
func wordAt(s, w string) int {
	for at := len(s); at > 0; {
		i := strings.LastIndex(s[:at], w)
		if i < 0 {
			return -1
		}
		e := i + len(w)
		if (i == 0 || strings.IndexByte(" \t=(>\"'", s[i-1]) >= 0) && (e == len(s) || blank(s[e])) {
			return i
		}
		at = i + len(w) - 1
	}
	return -1
}

// stdinReaders, in a command line, read a secret on stdin: the registry
// logins' --password-stdin (docker, podman, buildah, skopeo, nerdctl,
// helm registry, oras, crane), regctl's --pass-stdin, gh auth login
// --with-token, sudo -S, passwd --stdin, chpasswd (user:password), and
// the commands that store a secret read from stdin (wrangler secret put,
// gh secret set, docker secret create).
var stdinReaders = []string{
	"--password-stdin", "--pass-stdin", "--with-token", "--token-stdin", "sudo -S ", "sudo --stdin", "passwd --stdin",
	"chpasswd", "secret put ", "secret set ", "secret create ",
}

// stdinSecrets finds the literals piped, or given as a here-string, to a
// stdinReader: echo 'S3cr3t' | docker login -u me --password-stdin,
// printf '%s' "…" | helm registry login …, gh auth login --with-token <<<
// "ghp_…". A variable's expansion ("$PW", $(cat pw)) is none.
func stdinSecrets(s string) (out []assignment) {
	if strings.IndexByte(s, '|') < 0 && !strings.Contains(s, "<<<") {
		return nil
	}
	for _, w := range commandWords.stdin {
		for i := w.next(s, 0); i >= 0; i = w.next(s, i+1) {
			if a, ok := stdinSecret(s, i, w.w); ok {
				out = append(out, a)
			}
		}
	}
	return out
}

func stdinSecret(s string, i int, reader string) (assignment, bool) {
	ls := strings.LastIndexByte(s[:i], '\n') + 1
	le := strings.IndexByte(s[i:], '\n')
	if le < 0 {
		le = len(s)
	} else {
		le += i
	}
	vs, ve, ok := -1, -1, false
	told := 1 + i + len(reader) // after the value piped in
	if p := strings.LastIndexByte(s[ls:i], '|'); p >= 0 && !strings.ContainsAny(s[ls+p+1:i], ";&") && (ls+p == 0 || s[ls+p-1] != '|') {
		vs, ve, ok = echoed(s, ls, ls+p)
	}
	if h := strings.Index(s[i:le], "<<<"); !ok && h >= 0 && !strings.ContainsAny(s[i:i+h], ";&|") {
		told = 1 + i // before the here-string
		k := i + h + 3
		for k < le && blank(s[k]) {
			k++
		}
		vs, ve, ok = shellWord(s, k, le)
	}
	if !ok || strings.ContainsAny(s[vs:ve], "$`") {
		return assignment{}, false
	}
	if reader == "chpasswd" { // user:password
		c := strings.IndexByte(s[vs:ve], ':')
		if c < 0 {
			return assignment{}, false
		}
		vs += c + 1
	}
	return assignment{name: strings.TrimSpace(reader), kind: passwordName, start: vs, end: ve, form: formPair, told: told}, ve > vs
}

// echoed reads the one argument of an echo or printf command that ends
// at the "|" at p and starts after ls: echo -n 'pw', printf '%s\n' "pw".
func echoed(s string, ls, p int) (start, end int, ok bool) {
	seg := s[ls:p]
	e, f := wordAt(seg, "echo"), wordAt(seg, "printf")
	printf := f > e
	k := ls + max(e+len("echo"), f+len("printf"))
	if e < 0 && f < 0 {
		return 0, 0, false
	}
	for {
		for k < p && blank(s[k]) {
			k++
		}
		vs, ve, ok := shellWord(s, k, p)
		if !ok {
			return 0, 0, false
		}
		next := ve
		if next < p && (s[next] == '\'' || s[next] == '"') {
			next++
		}
		switch w := s[vs:ve]; {
		case !printf && len(w) <= 3 && strings.HasPrefix(w, "-") && strings.Trim(w[1:], "neE") == "":
			k = next // echo -n, -e, -ne
			continue
		case printf && strings.Contains(w, "%"):
			printf = false // the format: printf '%s' value
			k = next
			continue
		}
		if strings.TrimSpace(s[next:p]) != "" {
			return 0, 0, false // more than one argument
		}
		return vs, ve, true
	}
}

// shellWord reads the word at k, before end: quoted (' or ", its span
// inside the quotes) or bare, up to a blank.
func shellWord(s string, k, end int) (start, stop int, ok bool) {
	if k >= end {
		return 0, 0, false
	}
	if s[k] == '\'' || s[k] == '"' {
		n := strings.IndexByte(s[k+1:end], s[k])
		if n <= 0 {
			return 0, 0, false
		}
		return k + 1, k + 1 + n, true
	}
	stop = k
	for stop < end && !blank(s[stop]) && s[stop] != '\r' && s[stop] != '|' && s[stop] != ';' {
		stop++
	}
	return k, stop, stop > k
}

// redisAuth reads Redis's AUTH command at the "AUTH" or "auth" at i,
// `AUTH password` or `AUTH username password`: after a redis-cli prompt
// (redis> , 127.0.0.1:6379> ), among redis-cli's arguments, after HELLO
// 3, or as a RESP array (*2 $4 AUTH $n password); an upper-case AUTH
// starting a line (a session over nc, SMTP's AUTH PLAIN …) when its value
// looks like a credential. A SASL mechanism's name is no password.
func redisAuth(s string, i int) []assignment {
	k := i + 4
	if k >= len(s) || s[k] != ' ' && s[k] != '\r' {
		return nil
	}
	if s[k] == '\r' { // RESP: *2\r\n$4\r\nAUTH\r\n$n\r\npassword\r\n
		if i < 4 || s[i-4:i] != "$4\r\n" || !strings.HasPrefix(s[k:], "\r\n$") {
			return nil
		}
		args := 1
		if i >= 8 && s[i-8] == '*' && s[i-6:i-4] == "\r\n" && (s[i-7] == '2' || s[i-7] == '3') {
			args = int(s[i-7] - '1')
		}
		at := k + 2
		var vs, ve int
		for range args {
			if at >= len(s) || s[at] != '$' {
				return nil
			}
			n, m := 0, at+1
			for ; m < len(s) && s[m] >= '0' && s[m] <= '9' && n < 1<<16; m++ {
				n = n*10 + int(s[m]-'0')
			}
			if !strings.HasPrefix(s[m:], "\r\n") || m+2+n > len(s) {
				return nil
			}
			vs, ve = m+2, m+2+n
			if crlf := strings.Index(s[vs:ve], "\r\n"); crlf >= 0 {
				ve = vs + crlf // its length, no longer the value's once it is redacted
			}
			at = ve + 2
		}
		if ve <= vs {
			return nil
		}
		return []assignment{{name: "AUTH", kind: passwordName, start: vs, end: ve, form: formPair, told: 1 + strings.LastIndexByte(s[:i], '*') + 1}}
	}
	ls := strings.LastIndexByte(s[:i], '\n') + 1
	pre := strings.TrimRight(s[ls:i], " \t")
	kind := passwordName
	seg, at := commandSegment(s, i)
	told := 1 + ls
	switch {
	case strings.HasSuffix(pre, ">") && redisPrompt(pre[:len(pre)-1]):
	case startsCommand(seg, []string{"redis-cli", "valkey-cli", "keydb-cli"}) >= 0:
		told = 1 + at + startsCommand(seg, []string{"redis-cli", "valkey-cli", "keydb-cli"})
	case helloVersion(pre):
	case strings.TrimSpace(pre) == "" && s[i] == 'A':
		kind = weakName
	default:
		return nil
	}
	le := strings.IndexAny(s[k:], "\r\n")
	if le < 0 {
		le = len(s)
	} else {
		le += k
	}
	var words [][2]int
	for at := k; at < le && len(words) < 4; {
		for at < le && blank(s[at]) {
			at++
		}
		ws, we, ok := shellWord(s, at, le)
		if !ok {
			break
		}
		words = append(words, [2]int{ws, we})
		at = we
		if at < le && (s[at] == '\'' || s[at] == '"') {
			at++
		}
	}
	if len(words) > 0 && slices.Contains(saslMechanisms, strings.ToUpper(s[words[0][0]:words[0][1]])) {
		words = words[1:]
	}
	switch {
	case len(words) == 0:
		return nil
	case len(words) == 1:
		return []assignment{{name: "AUTH", kind: kind, start: words[0][0], end: words[0][1], form: formPair, told: told}}
	}
	// AUTH user password, or a password and what follows it: each of the
	// two words is one if it looks like a credential.
	return []assignment{
		{name: "AUTH", kind: weakName, start: words[0][0], end: words[0][1], form: formPair, told: told},
		{name: "AUTH", kind: weakName, start: words[1][0], end: words[1][1], form: formPair, told: told},
	}
}

// saslMechanisms name how AUTH authenticates, before the credential.
var saslMechanisms = []string{"PLAIN", "LOGIN", "XOAUTH2", "OAUTHBEARER", "CRAM-MD5", "DIGEST-MD5", "SCRAM-SHA-1", "SCRAM-SHA-256", "EXTERNAL", "GSSAPI", "NTLM"}

// redisPrompt: p, before a "> ", ends with redis-cli's prompt: redis,
// redis 127.0.0.1:6379, 127.0.0.1:6379, localhost:6379[2].
func redisPrompt(p string) bool {
	f := strings.Fields(p)
	if len(f) == 0 {
		return false
	}
	p = f[len(f)-1]
	if p == "redis" || p == "valkey" {
		return true
	}
	if b := strings.IndexByte(p, '['); b > 0 && strings.HasSuffix(p, "]") {
		p = p[:b]
	}
	c := strings.LastIndexByte(p, ':')
	return c > 0 && c+1 < len(p) && strings.Trim(p[c+1:], "0123456789") == "" && !strings.ContainsAny(p, " \t")
}

// helloVersion: pre is a Redis HELLO with its protocol version (HELLO 3),
// which AUTH username password may follow.
func helloVersion(pre string) bool {
	f := strings.Fields(pre)
	if len(f) < 2 || strings.Trim(f[len(f)-1], "0123456789") != "" {
		return false
	}
	h := f[len(f)-2]
	return len(h) >= 5 && strings.EqualFold(h[len(h)-5:], "HELLO") && (len(h) == 5 || !nameByte(h[len(h)-6]))
}

// redisConfig reads a Redis password set in its configuration, at the
// "requirepass" or "masterauth" at i: a redis.conf line `requirepass
// value` or `CONFIG SET requirepass value`.
func redisConfig(s string, i, n int) (assignment, bool) {
	ls := strings.LastIndexByte(s[:i], '\n') + 1
	pre := strings.TrimSpace(s[ls:i])
	if k := i + n; k >= len(s) || !blank(s[k]) || pre != "" && !strings.HasSuffix(strings.ToUpper(pre), "CONFIG SET") {
		return assignment{}, false
	}
	k := i + n
	for k < len(s) && blank(s[k]) {
		k++
	}
	le := strings.IndexAny(s[k:], "\r\n")
	if le < 0 {
		le = len(s)
	} else {
		le += k
	}
	vs, ve, ok := shellWord(s, k, le)
	return assignment{name: s[i : i+n], kind: passwordName, start: vs, end: ve, form: formPair}, ok
}

// sqlPassword reads a password SQL sets, at the "IDENTIFIED BY" (n its
// length) or "PASSWORD" at i, either case: CREATE USER 'app'@'%'
// IDENTIFIED BY 'pw' (Oracle's unquoted too), ALTER ROLE app WITH
// PASSWORD 'pw', CREATE LOGIN app WITH PASSWORD = 'pw', SET PASSWORD =
// PASSWORD('pw'). Prose says "password" too, so that after PASSWORD the
// value must be quoted and look like a credential.
func sqlPassword(s string, i, n int) (assignment, bool) {
	if i > 0 && nameByte(s[i-1]) {
		return assignment{}, false
	}
	identified := n > len("PASSWORD")
	k := i + n
	switch {
	case k < len(s) && s[k] == '(' && !identified:
		k++ // PASSWORD('pw')
	case k < len(s) && blank(s[k]):
		for k < len(s) && blank(s[k]) {
			k++
		}
		if k < len(s) && s[k] == '=' && !identified {
			for k++; k < len(s) && blank(s[k]); k++ {
			}
		}
	default:
		return assignment{}, false
	}
	if vs, ve, quoted, ok := quotedAt(s, k); quoted && s[vs-1] == '\'' { // a SQL string
		kind := passwordName
		if !identified {
			kind = weakName
		}
		return assignment{name: strings.TrimSpace(s[i : i+n]), kind: kind, start: vs, end: ve, form: formPair}, ok
	}
	if !identified {
		return assignment{}, false
	}
	end := k
	for end < len(s) && nameByte(s[end]) || end < len(s) && strings.IndexByte("!@#%^*+~", s[end]) >= 0 {
		end++
	}
	if end == k || end < len(s) && !strings.ContainsRune("; \t\r\n", rune(s[end])) {
		return assignment{}, false
	}
	if w := strings.ToUpper(s[k:end]); w == "VALUES" || w == "PASSWORD" || w == "RANDOM" {
		return assignment{}, false // a hash follows, or none
	}
	return assignment{name: "IDENTIFIED BY", kind: weakName, start: k, end: end, form: formPair}, true
}

// loginCall reads a literal password given to a login call, at the "("
// after .login, .auth or .authenticate at i: smtp.login(user,
// 'pw'), db.auth('admin', 'pw'), client.auth('pw'); the last of one or
// two arguments, quoted. Code also passes labels, so that it must look
// like a credential.
func loginCall(s string, i int) (assignment, bool) {
	end := strings.IndexAny(s[i:], ")\n")
	if end < 0 || s[i+end] != ')' {
		return assignment{}, false
	}
	end += i
	args := strings.Count(s[i+1:end], ",") + 1
	if args > 2 || args == 1 && !strings.HasSuffix(s[:i], ".auth") {
		return assignment{}, false
	}
	k := i + 1 + strings.LastIndexByte(s[i+1:end], ',') + 1
	for k < end && blank(s[k]) {
		k++
	}
	vs, ve, quoted, ok := quotedAt(s, k)
	if !quoted || !ok || strings.TrimSpace(strings.TrimLeft(s[ve:end], "\\\"'")) != "" {
		return assignment{}, false
	}
	return assignment{name: "login", kind: weakName, start: vs, end: ve, form: formPair, told: 1 + i}, true
}

// commandWords are the words this file's rules start at, each with its
// rarest byte (see rareWord).
var commandWords = struct {
	auth, authLower, requirepass, masterauth rareWord
	sql, login, httpie                       []rareWord
	stdin                                    []rareWord
}{
	auth: rare("AUTH"), authLower: rare("auth"), requirepass: rare("requirepass"), masterauth: rare("masterauth"),
	sql:    []rareWord{rare("IDENTIFIED BY"), rare("identified by"), rare("PASSWORD"), rare("password")},
	login:  []rareWord{rare(".login("), rare(".auth("), rare(".authenticate(")},
	httpie: []rareWord{rare("http"), rare("xh")},
	stdin: func() (out []rareWord) {
		for _, r := range stdinReaders {
			out = append(out, rare(r))
		}
		return out
	}(),
}

// commandAssignments are the assignments of this file's rules in s.
func commandAssignments(s string) (out []assignment) {
	out = append(out, stdinSecrets(s)...)
	for i := commandWords.auth.next(s, 0); i >= 0; i = commandWords.auth.next(s, i+1) {
		out = append(out, redisAuth(s, i)...)
	}
	if strings.IndexByte(s, '>') >= 0 || strings.Contains(s, "-cli ") {
		w := commandWords.authLower // after a prompt, or redis-cli's
		for i := w.next(s, 0); i >= 0; i = w.next(s, i+1) {
			out = append(out, redisAuth(s, i)...)
		}
	}
	for _, w := range []rareWord{commandWords.requirepass, commandWords.masterauth} {
		for i := w.next(s, 0); i >= 0; i = w.next(s, i+1) {
			if a, ok := redisConfig(s, i, len(w.w)); ok {
				out = append(out, a)
			}
		}
	}
	sql := commandWords.sql
	if strings.IndexByte(s, '\'') < 0 {
		sql = sql[:1] // no SQL string: only Oracle's IDENTIFIED BY pw
	}
	for _, w := range sql {
		for i := w.next(s, 0); i >= 0; i = w.next(s, i+1) {
			if a, ok := sqlPassword(s, i, len(w.w)); ok {
				out = append(out, a)
			}
		}
	}
	for _, w := range commandWords.login {
		if strings.IndexByte(s, '(') < 0 {
			break // each is a call
		}
		for i := w.next(s, 0); i >= 0; i = w.next(s, i+1) {
			if a, ok := loginCall(s, i+len(w.w)-1); ok {
				out = append(out, a)
			}
		}
	}
	for _, w := range commandWords.httpie { // http, https, xh, xhs
		for i := w.next(s, 0); i >= 0; i = w.next(s, i+1) {
			n := len(w.w)
			if i+n < len(s) && s[i+n] == 's' {
				n++
			}
			if i+n < len(s) && s[i+n] == ' ' {
				out = append(out, httpieArgs(s, i, n)...)
			}
		}
	}
	return out
}

// rareWord is a word these rules look for, found at its rarest byte in
// text (w[at], by rarity) by a vectorized search: the words start with
// letters that prose is full of.
type rareWord struct {
	w  string
	at int
}

func rare(w string) rareWord {
	at := 0
	for j := 1; j < len(w); j++ {
		if rarity(w[j]) < rarity(w[at]) {
			at = j
		}
	}
	return rareWord{w, at}
}

// next is the offset of the word in s at or after from, -1 when none is.
func (r rareWord) next(s string, from int) int {
	for k := from + r.at; k < len(s); k++ {
		i := strings.IndexByte(s[k:], r.w[r.at])
		if i < 0 {
			return -1
		}
		k += i
		if start := k - r.at; strings.HasPrefix(s[start:], r.w) {
			return start
		}
	}
	return -1
}

// rarity ranks a byte by how often text holds it, the rarest first:
// upper-case letters, then punctuation, then lower-case letters
// (letterRarity), then blanks, dots and commas.
func rarity(c byte) int {
	switch {
	case c >= 'A' && c <= 'Z':
		return strings.IndexByte(letterRarity, c-'A'+'a')
	case c >= 'a' && c <= 'z':
		return 60 + strings.IndexByte(letterRarity, c)
	case c == ' ' || c == '.' || c == ',':
		return 100
	}
	return 40
}

// httpMethods may come before httpie's URL.
var httpMethods = []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}

// httpieValueFlags are httpie's flags that take the next word.
var httpieValueFlags = []string{
	"-a", "--auth", "-A", "--auth-type", "-o", "--output", "--session", "--session-read-only", "--proxy", "--cert",
	"--cert-key", "--verify", "--timeout", "-s", "--style", "-p", "--print", "--pretty", "--format-options",
	"--default-scheme", "--response-charset", "--response-mime", "--boundary", "--max-redirects",
}

// httpieArgs reads the request items of an httpie (or xh) command whose
// command word is s[i:i+n]: headers Name:value, query parameters
// name==value, data fields name=value and raw JSON name:=value, each
// judged by its name as a header given to curl -H, a query parameter and
// a JSON field are (http GET api.example.com Authorization:"Bearer …"
// api_key==…). A command is one when its first argument, after flags, is
// a method or a URL: "over http the…" is prose.
func httpieArgs(s string, i, n int) (out []assignment) {
	if i > 0 && (nameByte(s[i-1]) || s[i-1] == '/' || s[i-1] == ':') {
		return nil
	}
	var quote byte // the quote the command is written in, which ends it
	nb := 0        // the backslashes before it
	if o := openQuote(s, i); o >= 0 {
		quote = s[o]
		for o-1-nb >= 0 && s[o-1-nb] == '\\' {
			nb++
		}
	}
	words := shellWords(s, i+n, quote, nb)
	method, url := false, false
	for wi := 0; wi < len(words); wi++ {
		t := words[wi].text
		if !url {
			switch {
			case strings.HasPrefix(t, "-"):
				if slices.Contains(httpieValueFlags, t) {
					wi++
				}
			case !method && slices.ContainsFunc(httpMethods, func(m string) bool { return strings.EqualFold(m, t) }):
				method = true
			case strings.ContainsAny(t, ".:/") || t == "localhost":
				url = true
			default:
				return out
			}
			continue
		}
		if a, ok := httpieItem(words[wi]); ok {
			a.told = 1 + i
			out = append(out, a)
		}
	}
	return out
}

// httpieItem reads one of httpie's request items (see httpieArgs).
func httpieItem(w shellWordText) (assignment, bool) {
	t := w.text
	sep := strings.IndexAny(t, ":=")
	if sep <= 0 || sep > 128 || strings.ContainsFunc(t[:sep], func(r rune) bool { return r > 0x7f || !nameByte(byte(r)) }) {
		return assignment{}, false
	}
	name, op := t[:sep], t[sep:]
	var kind nameKind
	form := formEquals
	vs := sep + 1
	switch {
	case strings.HasPrefix(op, "=@"), strings.HasPrefix(op, ":=@"), strings.HasPrefix(op, ":@"), strings.HasPrefix(op, "@"):
		return assignment{}, false // a file's content
	case strings.HasPrefix(op, "=="):
		kind, vs = paramKind(name), sep+2
	case strings.HasPrefix(op, ":="):
		kind, vs, form = fieldKind(name), sep+2, formJSON
	case op[0] == '=':
		kind, form = fieldKind(name), formJSON
	default: // a header
		kind, form = min(fieldKind(name), weakName), formLine
		if slices.ContainsFunc(credentialHeaders, func(h string) bool { return strings.EqualFold(h, name) }) {
			kind = weakName
		}
	}
	ve := len(t)
	if strings.HasPrefix(op, ":=") {
		if !strings.HasPrefix(strings.TrimLeft(t[vs:ve], "\\"), `"`) {
			return assignment{}, false // a number, a list, an object: raw JSON but a string
		}
		for vs < ve && (t[vs] == '"' || t[vs] == '\\') {
			vs++ // a JSON string given raw, its quotes possibly escaped
		}
		if q := strings.IndexAny(t[vs:ve], "\"'\\"); q >= 0 {
			ve = vs + q // a JSON string ends at its quote
		}
	}
	if sp := strings.IndexByte(t[vs:ve], ' '); form == formLine && sp > 0 &&
		slices.ContainsFunc(authSchemes, func(a string) bool { return strings.EqualFold(a, t[vs:vs+sp]) }) {
		vs += sp + 1 // the token after its scheme
	}
	if kind == notSecret || ve <= vs {
		return assignment{}, false
	}
	return assignment{name: name, kind: kind, start: w.offs[vs], end: w.offs[ve-1] + 1, form: form}, true
}

// shellWordText is a word of a command line with its quotes taken away:
// offs[j] is where in the text its byte text[j] is written.
type shellWordText struct {
	text string
	offs []int
}

// shellWords splits the command line that starts at from into words, as
// a shell reads them (quotes, backslashes), up to 64 of them: it ends at
// a line break not escaped by a backslash, an unquoted ";", "|" or "&",
// or the end of the string it is written in, when quote (its quote, after
// nb backslashes: JSON inside a JSON string escapes it) is not 0; a
// quote escaped more than that is one of the command's own quotes.
func shellWords(s string, from int, quote byte, nb int) (words []shellWordText) {
	var cur []byte
	var offs []int
	var in byte // the quote open
	opened := 0 // len(cur) when it opened
	flush := func() {
		if in != 0 {
			cur, offs, in = cur[:opened], offs[:opened], 0 // a quote never closed is none
		}
		if len(cur) > 0 {
			words = append(words, shellWordText{string(cur), offs})
		}
		cur, offs = nil, nil
	}
	for k := from; k < len(s) && len(words) < 64; k++ {
		c := s[k]
		if quote != 0 && (c == '\\' || c == quote) {
			r := 0
			for k+r < len(s) && s[k+r] == '\\' {
				r++
			}
			if k+r < len(s) && s[k+r] == quote {
				if r <= nb {
					flush() // the end of the string it is written in
					return words
				}
				c, k = quote, k+r // the command's own quote, escaped in the string
			}
		}
		switch {
		case in != 0 && c == in:
			in = 0
		case in != 0:
			cur, offs = append(cur, c), append(offs, k)
		case c == '\\' && k+1 < len(s) && (s[k+1] == '\n' || s[k+1] == '\r'):
			flush()
			k++ // a line continued
		case c == '\\' && k+1 < len(s):
			k++
			cur, offs = append(cur, s[k]), append(offs, k)
		case c == '\n' || c == ';' || c == '|' || c == '&':
			flush()
			return words
		case c == '"' || c == '\'':
			in, opened = c, len(cur)
		case blank(c) || c == '\r':
			flush()
		default:
			cur, offs = append(cur, c), append(offs, k)
		}
	}
	flush()
	return words
}

// openQuote is where the quote (" or ') open at s[i] on its line is, -1
// when none is: a command written in a string.
func openQuote(s string, i int) int {
	for j := strings.LastIndexByte(s[:i], '\n') + 1; j < i; j++ {
		if c := s[j]; c == '"' || c == '\'' {
			n := strings.IndexByte(s[j+1:i], c)
			if n < 0 {
				return j
			}
			j += n + 1
		}
	}
	return -1
}
