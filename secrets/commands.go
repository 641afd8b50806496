package secrets

import (
	"path"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// This file judges the commands that shell.go reads: the password a
// command takes by a short flag (passwordFlags), a literal piped to a
// command that reads its password on stdin, Redis's AUTH (a command of its
// own, redis-cli's, HELLO's, a RESP array's) and httpie's items; and SQL's
// passwords (IDENTIFIED BY '…', PASSWORD '…'), which need no command.

// passwordFlags are the short flags that take a password in commands that
// agents run: glued to it (mysql -pS3cret; a blank after -p asks for it
// instead), after a blank, or either; curl's -u takes user:password. A
// command of two words (docker login) is its name and its first argument.
var passwordFlags = []struct {
	commands []string
	flag     byte
	glued    bool // the password is glued to the flag
	spaced   bool // the password is the next word
	loose    int  // the loose words its usage has before the flag, beyond maxLoose
}{
	{mysqlClients, 'p', true, false, 0},
	{[]string{"sshpass"}, 'p', true, true, 0},
	{[]string{"docker login", "podman login", "buildah login", "skopeo login", "nerdctl login"}, 'p', true, true, 0},
	{[]string{"mongo", "mongosh"}, 'p', false, true, 0},
	{[]string{"redis-cli", "valkey-cli", "keydb-cli"}, 'a', false, true, 0},
	{[]string{"curl"}, 'u', true, true, 0},
	{[]string{"sqlcmd", "osql", "isql"}, 'P', true, true, 0},
	// bcp TABLE in|out|queryout FILE -S … -U … -P …
	{[]string{"bcp"}, 'P', true, true, 2},
}

// mysqlClients are MySQL's and MariaDB's client programs, which read
// every byte glued to -p, or after --password=, as the password (their
// option files' common client options; MariaDB names each also
// mariadb-…, and its backup tool mariabackup).
var mysqlClients = []string{
	"mysql", "mysqladmin", "mysqlbinlog", "mysqlcheck", "mysqldump", "mysqlimport", "mysqlpump",
	"mysqlshow", "mysqlslap", "mysqlsh", "mysql_upgrade", "mysql_secure_installation",
	"mariadb", "mariadb-admin", "mariadb-binlog", "mariadb-check", "mariadb-dump", "mariadb-import",
	"mariadb-show", "mariadb-slap", "mariadb-upgrade", "mariadb-secure-installation",
	"mariadb-backup", "mariabackup",
}

// maxLoose is how many loose words (neither flags nor their values) may
// stand between a command's name and its password flag: a database or a
// registry (mongo shop -u admin -p …, docker login ghcr.io -u bob -p …).
// Prose that names a command has more ("docker login once and then docker
// run -p 8080:80").
const maxLoose = 2

// judgedCommands are the names of the commands that the rules below
// judge, or that run one (docker exec, kubectl exec, ssh); others are
// passed over at once (mkdir -p, docker run -p).
var judgedCommands = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, pf := range passwordFlags {
		for _, c := range pf.commands {
			first, _, _ := strings.Cut(c, " ")
			m[first] = true
		}
	}
	for _, c := range []string{"hello", "http", "https", "httpie", "xh", "xhs", "docker", "podman", "nerdctl",
		"docker-compose", "kubectl", "oc", "ssh", "acl", "config"} {
		m[c] = true
	}
	for _, c := range toolSecretCommands() {
		m[c] = true
	}
	return m
})

// leadIn is where a command the rules judge starts in words when what
// comes before it only leads in to it: a runner's words up to its "--"
// (wsl -d Ubuntu --, runuser -u bob --, kubectl -n prod exec db --; twice
// maxLeadWords at most), or,
// when the first word is no command the rules judge, a sentence's first
// words or a log line's time and level (leadWord: "Step 2:", "Then run",
// "First,", "2024-05-01 10:00:00,123 [INFO]"), up to maxLeadWords of
// them, then sudo & co. (runnerWords); 0 when there is none.
func leadIn(s string, words []shellWord) int {
	judged := judgedCommands()
	if len(words) < 2 {
		return 0
	}
	for k := 0; k < len(words) && k <= 2*maxLeadWords; k++ {
		if words[k].text(s) == "--" {
			r := k + 1 + runnerWords(s, words[k+1:]) // -- sudo mysql …
			if r < len(words) && judged[commandName(s, words[r:])] {
				return r
			}
			break
		}
	}
	if judged[commandName(s, words)] {
		return 0
	}
	for k := 1; k < len(words) && k <= maxLeadWords; k++ {
		if !leadWord(words[k-1].text(s)) {
			return 0
		}
		r := k + runnerWords(s, words[k:])
		if r < len(words) && judged[commandName(s, words[r:])] {
			return r
		}
	}
	return 0
}

// commandName is the lower-case name of the command that words start:
// its first word's last path element, without .exe (shellCommand.name).
func commandName(s string, words []shellWord) string {
	c := shellCommand{words: words}
	return strings.ToLower(c.name(s))
}

// maxLeadWords bounds the words before a command that leadIn passes.
const maxLeadWords = 6

// leadWord: w is one of the words that lead in to a command: a
// sentence's (letters, digits, ' # . ( / in any script, and , : ; . ! ? )
// after them: Step, 2:, 2.1:, 2/3:, i), Don't, Then, First,, Étape;
// Markdown's emphasis round them: **Step 2:**), a mark (-, —, →, •, >>>,
// a task list's [ ]), or a log line's date, time or level, bracketed or
// not (2024-05-01T10:00:00Z, 10:00:00,123, [INFO], [42]).
func leadWord(w string) bool {
	if t := strings.Trim(w, "[]"); len(t) >= 5 && len(t) <= 40 && t[0] >= '0' && t[0] <= '9' && strings.Trim(t, "0123456789-:.,TZ+") == "" {
		return true
	}
	switch w {
	case "-", "–", "—", "→", "•", "*", ">>>", "+", "++", "#", ":", "[", "]", "[x]", "[X]", "[ ]":
		return true
	}
	w = strings.Trim(w, "*_") // Markdown's **Step 2:**, _Then run_
	w = strings.TrimRight(w, ",:;.!?)*_")
	w = strings.TrimPrefix(strings.TrimSuffix(w, "]"), "[")
	if w == "" || utf8.RuneCountInString(w) > 16 {
		return false
	}
	for _, r := range w {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("'’#.(/", r)) {
			return false
		}
	}
	return true
}

// redisCLIs are Redis's command-line clients.
var redisCLIs = []string{"redis-cli", "valkey-cli", "keydb-cli"}

// commandAssignments are the secrets that the command c takes.
func commandAssignments(s string, c *shellCommand) []assignment {
	if len(c.words) > 2 && c.n == len(c.words) && s[c.words[0].start] == '$' && c.words[1].text(s) == "=" {
		// PowerShell's $pw = ConvertTo-SecureString …: the command is
		// what the variable is given
		inner := *c
		inner.words = c.words[2:]
		inner.n = c.n - 2
		return commandAssignments(s, &inner)
	}
	if k := innerCommand(s, c.words); k > 0 && k < len(c.words) {
		// docker exec db mysql …: the command run is judged.
		k += runnerWords(s, c.words[k:]) // ssh db sudo -u mysql mysql …
		if k >= len(c.words) {
			return nil
		}
		inner := *c
		inner.words = c.words[k:]
		inner.n = c.n - k
		return commandAssignments(s, &inner)
	}
	if k := powerShellPrompt(s, c.words); k > 0 && k < len(c.words) {
		// PS C:\> Set-Secret …: the command after PowerShell's prompt
		inner := *c
		inner.words = c.words[k:]
		inner.n = c.n - k
		return commandAssignments(s, &inner)
	}
	if c.sudo == 2 && !judgedCommands()[commandName(s, c.words)] {
		// sudo -S <<< '…' apt update, sudo -S apt update <<<'…': what
		// sudo reads its password from, whatever the command it runs
		if out := sudoHereString(s, c.words); out != nil {
			return out
		}
	}
	if k := leadIn(s, c.words); k > 0 && k < len(c.words) {
		// Step 2: mysql …, Then run mysql …, wsl -d Ubuntu -- mysql …:
		// the command after a sentence's first words or a runner's "--"
		inner := *c
		inner.words = c.words[k:]
		inner.n = c.n - k
		return commandAssignments(s, &inner)
	}
	words := flagWords(s, c.words)
	prompt := redisPrompt(s[words[0].start:words[0].end])
	cmdlet := powerShellCmdlet(c.name(s))
	if !c.pipe && !judgedCommands()[commandName(s, c.words)] && !prompt && !cmdlet {
		return nil
	}
	if cmdlet {
		return cmdletPasswords(s, words)
	}
	if prompt {
		if len(words) < 2 {
			return nil
		}
		words = words[1:] // redis-cli's prompt: 127.0.0.1:6379> AUTH …
	}
	name := c.name(s)
	if prompt {
		name = s[words[0].start:words[0].end]
	}
	key := strings.ToLower(name) // Windows' names have no case: SQLCMD, Sqlcmd.exe
	var out []assignment
	for i := 1; i < len(words) && !prompt; i++ {
		text := s[words[i].start:words[i].end]
		if len(text) < 2 || text[0] != '-' && !(text[0] == '/' && len(text) == 2 && slashFlags(key)) {
			continue // a Windows flag is a word of its own: /Projects/a.sql is a path
		}
		if text == "--user" && name == "curl" && i+1 < len(words) {
			if a, ok := userPassword(s, words[i+1].in, words[i+1].out, "--user"); ok {
				out = append(out, a)
			}
			continue
		}
		if text[1] == '-' {
			if a, ok := mysqlLongPassword(s, words, i, key); ok {
				out = append(out, a)
			}
			continue
		}
		for _, pf := range passwordFlags {
			if text[1] != pf.flag {
				continue
			}
			sub, ok := commandOf(s, words, key, pf.commands)
			if !ok || looseBefore(s, words, 1+sub, i) > maxLoose+pf.loose {
				continue
			}
			if a, ok := flagPassword(s, words, i, pf.flag, pf.glued, pf.spaced); ok {
				out = append(out, a)
			}
		}
	}
	if !prompt {
		out = append(out, toolAssignments(s, words, key, c.argv, c.execForm)...)
	}
	whole := c.n == len(c.words)
	switch lower := strings.ToLower(name); {
	case c.pipe && c.piped[0] >= 0 && (slices.ContainsFunc(words[1:], func(w shellWord) bool {
		t := s[w.start:w.end]
		return t == "--password-stdin" || t == "--stdin" && name == "passwd"
	}) || name == "chpasswd" || c.sudo == 2):
		vs, ve := c.piped[0], c.piped[1]
		what := "piped to --password-stdin"
		if c.sudo == 2 {
			what = "piped to sudo -S"
		}
		if name == "chpasswd" { // user:password
			what = "piped to chpasswd"
			colon := strings.IndexByte(s[vs:ve], ':')
			if colon < 0 {
				break
			}
			vs += colon + 1
		}
		out = append(out, assignment{name: what, kind: passwordName, start: vs, end: ve, form: formWord})
	case hereString(s, words) >= 0 && c.sudo == 2:
		out = appendWord(out, s, words[hereString(s, words)], "<<< to sudo -S")
	case hereString(s, words) >= 0 && slices.ContainsFunc(words[1:], func(w shellWord) bool { return s[w.start:w.end] == "--password-stdin" }):
		out = appendWord(out, s, words[hereString(s, words)], "<<< to --password-stdin")
	case prompt && (lower == "auth") && (len(words) == 2 || len(words) == 3) && whole:
		out = appendWord(out, s, words[len(words)-1], "AUTH")
	case lower == "config" || lower == "acl":
		// at redis-cli's prompt, or bare as Redis's documentation writes
		// its commands: ACL SETUSER app on >…
		out = redisSetPassword(out, s, words, 0)
	case lower == "hello" && (name == "HELLO" || name == "hello" || prompt) && len(words) > 1 && (s[words[1].start:words[1].end] == "2" || s[words[1].start:words[1].end] == "3"):
		for i := 2; i+2 < len(words); i++ {
			if strings.EqualFold(s[words[i].start:words[i].end], "auth") {
				out = appendWord(out, s, words[i+2], "AUTH")
			}
		}
	case slices.Contains(redisCLIs, lower):
		for i := 1; i < len(words); i++ {
			t := s[words[i].start:words[i].end]
			switch {
			case t == "--pass" && i+1 < len(words):
				out = appendWord(out, s, words[i+1], "--pass")
			case strings.EqualFold(t, "auth") && (i+2 == len(words) || i+3 == len(words)) && len(words) == len(c.words) && whole:
				out = appendWord(out, s, words[len(words)-1], "AUTH")
			case strings.EqualFold(t, "config") || strings.EqualFold(t, "acl"):
				out = redisSetPassword(out, s, words, i)
			}
		}
	case name == "http" || name == "https" || name == "httpie" || name == "xh" || name == "xhs":
		out = append(out, httpieItems(s, words)...)
	}
	return out
}

// redisSetPassword reads the passwords that Redis's command at words[i]
// sets: CONFIG SET requirepass|masterauth PW, and ACL SETUSER name's
// rules >PW (a rule <PW takes one away, #hash is a hash).
func redisSetPassword(out []assignment, s string, words []shellWord, i int) []assignment {
	word := func(k int) string {
		if k >= len(words) {
			return ""
		}
		return s[words[k].start:words[k].end]
	}
	switch {
	case strings.EqualFold(word(i), "config") && strings.EqualFold(word(i+1), "set") && i+3 < len(words) &&
		(strings.EqualFold(words[i+2].text(s), "requirepass") || strings.EqualFold(words[i+2].text(s), "masterauth")):
		// CONFIG SET "requirepass" "…": quoted arguments are Redis's too
		out = appendWord(out, s, words[i+3], "CONFIG SET "+strings.ToLower(words[i+2].text(s)))
	case strings.EqualFold(word(i), "acl") && strings.EqualFold(word(i+1), "setuser"):
		for k := i + 3; k < len(words); k++ {
			if w := words[k]; w.out-w.in > 1 && s[w.in] == '>' {
				w.in++
				out = appendWord(out, s, w, "ACL SETUSER >")
			}
		}
	}
	return out
}

// redisPrompt: w is redis-cli's prompt, host:port> or host:port[db]>
// (127.0.0.1:6379>, cache:6379[2]>).
func redisPrompt(w string) bool {
	if !strings.HasSuffix(w, ">") {
		return false
	}
	w = w[:len(w)-1]
	if strings.HasSuffix(w, "]") {
		open := strings.LastIndexByte(w, '[')
		if open < 0 || !digits(w[open+1:len(w)-1]) {
			return false
		}
		w = w[:open]
	}
	colon := strings.LastIndexByte(w, ':')
	if colon <= 0 || !digits(w[colon+1:]) {
		return false
	}
	for _, c := range []byte(w[:colon]) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

func digits(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// sudoHereString is the password sudo -S reads from a here-string
// among words, the command's: the word after "<<<", or glued to it
// (<<<'…'); none when there is none.
func sudoHereString(s string, words []shellWord) []assignment {
	for i, w := range words {
		switch t := s[w.start:w.end]; {
		case t == "<<<" && i+1 < len(words):
			return appendWord(nil, s, words[i+1], "<<< to sudo -S")
		case len(t) > 3 && strings.HasPrefix(t, "<<<"):
			v := shellWord{start: w.start + 3, end: w.end, in: w.start + 3, out: w.end}
			if q := s[v.start]; (q == '\'' || q == '"') && v.end-v.start >= 2 && s[v.end-1] == q {
				v.in, v.out = v.start+1, v.end-1
			}
			return appendWord(nil, s, v, "<<< to sudo -S")
		}
	}
	return nil
}

// hereString is the index of the word after "<<<" in words, -1 when none:
// a here-string, what the command reads on stdin.
func hereString(s string, words []shellWord) int {
	for i := 1; i+1 < len(words); i++ {
		if s[words[i].start:words[i].end] == "<<<" {
			return i + 1
		}
	}
	return -1
}

// innerCommand is the index of the first word of the command that words
// run, when they are a command that runs another: docker exec [flags]
// CONTAINER CMD (podman, nerdctl, docker compose exec SERVICE CMD),
// kubectl exec … -- CMD, ssh [flags] HOST CMD; 0 for none.
func innerCommand(s string, words []shellWord) int {
	word := func(i int) string { return s[words[i].start:words[i].end] }
	if len(words) < 3 {
		return 0
	}
	switch name := path.Base(word(0)); name {
	case "docker", "podman", "nerdctl", "docker-compose":
		i := 1
		if word(1) == "compose" && name != "docker-compose" {
			i = 2
		}
		if i+1 < len(words) && word(i) == "container" && word(i+1) == "run" {
			i++ // docker container run
		}
		if i < len(words) && word(i) == "run" {
			return runCommand(s, words, i+1) // docker run [flags] image command
		}
		if i >= len(words) || word(i) != "exec" {
			return 0
		}
		for i++; i < len(words); i++ {
			t := word(i)
			if !strings.HasPrefix(t, "-") {
				return i + 1 // the container, then its command
			}
			if !strings.Contains(t, "=") && slices.Contains([]string{"-e", "--env", "-u", "--user", "-w", "--workdir", "--env-file", "--detach-keys", "--index"}, t) {
				i++
			}
		}
	case "kubectl", "oc":
		if word(1) != "exec" {
			return 0
		}
		for i := 2; i < len(words); i++ {
			if word(i) == "--" {
				return i + 1
			}
		}
	case "ssh":
		if k := sshCommandAt(s, words); k > 0 {
			if k < len(words) && word(k) == "--" {
				k++ // ssh db -- sudo …: the options' end
			}
			return k
		}
	}
	return 0
}

// runnerWords is how many of words run the command after them, as the
// shell reader skips them at a line's start (add): sudo [-u user] [flags],
// env [VAR=value…], time, nohup, exec, command.
func runnerWords(s string, words []shellWord) int {
	k, wrap := 0, 0
	for ; k < len(words); k++ {
		text := s[words[k].start:words[k].end]
		switch {
		case wrap == 2:
			wrap = 1
		case wrap > 0 && strings.HasPrefix(text, "-"):
			if text == "-u" || text == "-g" {
				wrap = 2
			}
		case slices.Contains([]string{"sudo", "env", "time", "nohup", "exec", "command"}, text):
			wrap = 1
		case wrap > 0 && strings.IndexByte(text, '=') > 0:
		default:
			return k
		}
	}
	return k
}

// commandOf says whether the command whose words are words, called name,
// is one of commands; sub is how many of its arguments make its name
// (docker login: 1).
func commandOf(s string, words []shellWord, name string, commands []string) (sub int, ok bool) {
	for _, c := range commands {
		first, second, two := strings.Cut(c, " ")
		if name != first {
			continue
		}
		if !two {
			return 0, true
		}
		if len(words) > 1 && strings.EqualFold(s[words[1].start:words[1].end], second) { // net user, NET USER
			return 1, true
		}
	}
	return 0, false
}

// slashFlags: the command called key (lower-case) is one of SQL
// Server's tools, which take Windows' flags after "/" as after "-"
// (sqlcmd -S db -U sa /P …).
func slashFlags(key string) bool {
	key = strings.TrimSuffix(key, ".exe")
	return key == "sqlcmd" || key == "osql" || key == "isql" || key == "bcp"
}

// looseBefore counts the words of words[from:to] that are neither flags
// nor a flag's value (the word after a flag alone: -u root, --host db).
func looseBefore(s string, words []shellWord, from, to int) int {
	loose := 0
	value := false
	for _, w := range words[from:min(to, len(words))] {
		t := s[w.start:w.end]
		switch {
		case len(t) > 1 && t[0] == '-', len(t) == 2 && t[0] == '/' && asciiLetter(t[1]):
			// -u, --host; Windows' /S, /U
			value = !strings.Contains(t, "=") && (len(t) == 2 || t[1] == '-')
		case value:
			value = false
		default:
			loose++
		}
	}
	return loose
}

// mysqlLongPassword reads the password of a MySQL client's
// --password=…, as it reads the one glued to -p: every byte, so that a
// mark that elsewhere makes a reference (--password=@pw_2024_prod) is the
// password's (gluedPassword).
func mysqlLongPassword(s string, words []shellWord, i int, key string) (assignment, bool) {
	const flag = "--password="
	w := words[i]
	if !strings.HasPrefix(s[w.start:w.end], flag) {
		return assignment{}, false
	}
	if sub, ok := commandOf(s, words, key, mysqlClients); !ok || looseBefore(s, words, 1+sub, i) > maxLoose {
		return assignment{}, false
	}
	k := w.start + len(flag)
	vs, ve, quoted, ok := quotedAt(s, k)
	if !quoted {
		vs, ve, ok = k, w.end, true
	}
	closing := 1
	if quoted && vs >= 2 && s[vs-2:vs] == `\"` {
		closing = 2 // --password=\"…\" as JSON writes a command
	}
	if !ok || ve <= vs || quoted && ve+closing != w.end || strings.HasPrefix(s[vs:ve], "@@") {
		return assignment{}, false // @@password: a system variable's name, as the general reading has it
	}
	if !quoted && s[vs] == '&' || !gluedPassword(s[vs:ve]) || entityCut(s, vs, ve) {
		// Only a password that starts with a mark is read here; any
		// other value, as the general reading has it. An unquoted "&"
		// ends a shell's command before it: mysql never sees it.
		return assignment{}, false
	}
	return assignment{name: "--password", kind: passwordName, start: vs, end: ve, form: formFlag, glued: true}, true
}

// flagPassword reads the password given by the flag words[i] (-p…):
// glued to it, or the next word, as the flag takes it; after the ":" of
// user:password for curl's -u.
func flagPassword(s string, words []shellWord, i int, flag byte, glued, spaced bool) (assignment, bool) {
	w := words[i]
	k := w.start + 2
	var vs, ve int
	if k < w.end && glued && spaced && s[k] == '=' {
		k++ // docker login -p=…
	}
	switch {
	case k < w.end && glued:
		var quoted, ok bool
		vs, ve, quoted, ok = quotedAt(s, k)
		if !quoted {
			vs, ve, ok = k, w.end, true
		}
		closing := 1
		if quoted && vs >= 2 && s[vs-2:vs] == `\"` {
			closing = 2 // -p\"…\" as JSON writes a command
		}
		if !ok || quoted && ve+closing != w.end {
			return assignment{}, false
		}
	case k == w.end && spaced && i+1 < len(words):
		next := words[i+1]
		if s[next.start] == '-' {
			return assignment{}, false
		}
		vs, ve = next.in, next.out
	default:
		return assignment{}, false
	}
	if flag == 'u' {
		return userPassword(s, vs, ve, "-u")
	}
	// Every byte is the password, a mark too (gluedPassword judges it):
	// glued to mysql's -p (mysql -p@pw_2024_prod; an unquoted "&" ends
	// the command before it, mysql -p&& echo done), or a word of its own
	// after the flag (sshpass -p @pw_2024_prod).
	whole := flag == 'p' && glued && !spaced && k < w.end && s[k] != '&' ||
		k == w.end && ve > vs && strings.IndexByte("@&%!", s[vs]) >= 0
	return assignment{name: "-" + string(flag), kind: passwordName, start: vs, end: ve, form: formFlag, glued: whole}, ve > vs
}

// userPassword reads the password of user:password in s[vs:ve], given by
// the flag name.
func userPassword(s string, vs, ve int, name string) (assignment, bool) {
	colon := strings.IndexByte(s[vs:ve], ':')
	if colon < 0 {
		return assignment{}, false
	}
	vs += colon + 1
	return assignment{name: name, kind: passwordName, start: vs, end: ve, form: formFlag}, ve > vs
}

// authStatus: v, the one word after "auth" or "AUTH" starting a line,
// says how authentication went or what it needs, as a log line or a note
// does ("auth failed", "AUTH required", "auth token"), rather than being a
// password.
func authStatus(v string) bool {
	w := strings.ToLower(strings.TrimRight(v, ".:!,"))
	return len(w) < len(v)-1 || yesNo(w) || algorithmName(w) || slices.Contains(authStatusWords, w) ||
		ordinaryWord(w) && (strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "ing") || strings.HasSuffix(w, "ion") || strings.HasSuffix(w, "ful"))
}

var authStatusWords = []string{
	"ok", "error", "errors", "fail", "failure", "success", "required", "needed", "denied", "invalid", "missing", "token",
	"tokens", "header", "headers", "flow", "code", "method", "type", "mode", "done", "timeout", "problem", "issue",
	"issues", "bug", "fix", "service", "server", "module", "config", "settings", "middleware", "check", "step", "only",
	"first", "again", "first.", "works", "ok.", "is", "was", "not", "none", "null", "nil", "true", "false",
}

// appendWord adds the password that the word w is, named name, unless it
// is empty or a variable.
func appendWord(out []assignment, s string, w shellWord, name string) []assignment {
	if !commandValue(s[w.in:w.out]) {
		return out
	}
	return append(out, assignment{name: name, kind: passwordName, start: w.in, end: w.out, form: formWord})
}

// pipedLiteral is the literal that c, echo or printf, writes into a pipe:
// echo's one argument (after -n, -e), printf's argument for its one %s or
// its format without one, quoted or not; [-1, -1] when it writes none or
// a variable.
func pipedLiteral(s string, c *shellCommand) [2]int {
	none := [2]int{-1, -1}
	if c.n != len(c.words) {
		return none
	}
	args := c.words[1:]
	var w shellWord
	switch c.name(s) {
	case "echo":
		for len(args) > 1 && slices.Contains([]string{"-n", "-e", "-E", "-ne", "-en"}, s[args[0].start:args[0].end]) {
			args = args[1:]
		}
		if len(args) != 1 {
			return none
		}
		w = args[0]
	case "cat": // cat <<< …
		if len(args) != 2 || s[args[0].start:args[0].end] != "<<<" {
			return none
		}
		w = args[1]
	case "printf":
		switch {
		case len(args) == 2 && strings.Count(args[0].text(s), "%") == 1 && strings.Contains(args[0].text(s), "%s"):
			w = args[1]
		case len(args) == 1 && !strings.Contains(args[0].text(s), "%"):
			w = args[0]
			for _, nl := range []string{`\n`, `\\n`} {
				if strings.HasSuffix(w.text(s), nl) {
					w.out -= len(nl)
				}
			}
		default:
			return none
		}
	default:
		return none
	}
	v := s[w.in:w.out]
	if v == "" || strings.Contains(v, "$") && !(w.quoted && s[w.in-1] == '\'') || isRedacted(v) || placeholder(v) {
		return none
	}
	return [2]int{w.in, w.out}
}

// httpieItems are the secrets of httpie's (and xh's) arguments: -a/--auth
// user:password, and request items: a credential header (Name:value), a
// secret field (name=value, name:=json) or query parameter (name==value).
func httpieItems(s string, words []shellWord) []assignment {
	var out []assignment
	for i := 1; i < len(words); i++ {
		w := words[i]
		t := s[w.start:w.end]
		if t == "-a" || t == "--auth" || strings.HasPrefix(t, "--auth=") {
			vs, ve := w.start+len("--auth="), w.end
			if !strings.HasPrefix(t, "--auth=") {
				if i+1 >= len(words) {
					continue
				}
				i++
				vs, ve = words[i].in, words[i].out
			} else if vq, veq, quoted, ok := quotedAt(s, vs); quoted && ok {
				vs, ve = vq, veq
			}
			if colon := strings.IndexByte(s[vs:ve], ':'); colon >= 0 && vs+colon+1 < ve && s[vs+colon+1] != '$' {
				out = append(out, assignment{name: "--auth", kind: passwordName, start: vs + colon + 1, end: ve, form: formFlag})
			}
			continue
		}
		if t == "" || t[0] == '-' {
			continue
		}
		e := 0
		for e < len(t) && nameByte(t[e]) && t[e] != '.' {
			e++
		}
		if e == 0 || e == len(t) {
			continue
		}
		name := t[:e]
		sep := t[e:]
		var kind nameKind
		var n int
		switch {
		case strings.HasPrefix(sep, "=="):
			kind, n = paramKind(name), 2
		case strings.HasPrefix(sep, ":="):
			kind, n = fieldKind(name), 2
		case strings.HasPrefix(sep, "="):
			kind, n = fieldKind(name), 1
		case strings.HasPrefix(sep, ":") && !strings.HasPrefix(sep, "://"):
			n = 1
			switch {
			case slices.ContainsFunc(credentialHeaders, func(h string) bool { return strings.EqualFold(h, name) }):
				kind = passwordName
			case credentialHeaderName(name):
				kind = weakName
			}
		}
		if kind == notSecret {
			continue
		}
		vs, ve := w.start+e+n, w.end
		if q, qe, quoted, ok := quotedAt(s, vs); quoted {
			if !ok || qe+1 != w.end {
				continue
			}
			vs, ve = q, qe
		}
		if sp := strings.IndexByte(s[vs:ve], ' '); sp > 0 && slices.ContainsFunc(authSchemes, func(a string) bool { return strings.EqualFold(a, s[vs:vs+sp]) }) {
			vs += sp + 1 // the token after its scheme
		}
		form := formEquals
		if sep[0] == ':' && n == 1 {
			form = formLine // a header
		}
		if vs < ve && s[vs] != '$' {
			out = append(out, assignment{name: name, kind: kind, start: vs, end: ve, form: form})
		}
	}
	return out
}

// respAuth finds the password of Redis's AUTH sent as a RESP array
// (*2\r\n$4\r\nAUTH\r\n$8\r\npassword\r\n, with a user *3 …), its line
// ends as bytes or as the escapes \r\n of JSON or a log.
func respAuth(s string) []assignment {
	out, _ := respScan(s)
	return out
}

// respScan is respAuth, and its steps: the bytes read after each AUTH.
func respScan(s string) (out []assignment, steps int) {
	if !strings.Contains(s, "$4") {
		return nil, 0
	}
	for _, nl := range []string{"\r\n", `\r\n`} {
		for _, auth := range []string{"AUTH", "auth"} {
			head := "$4" + nl + auth + nl
			for _, i := range eachIndex(s, head) {
				at := i + len(head)
				var args [][2]int
				for len(args) < 2 {
					vs, ve, ok := bulkString(s, at, nl)
					if !ok {
						break
					}
					args = append(args, [2]int{vs, ve})
					at = ve + len(nl)
				}
				steps += at - i
				user := 0 // *3: AUTH user password
				switch {
				case strings.HasSuffix(s[:i], "*2"+nl) && len(args) >= 1:
				case strings.HasSuffix(s[:i], "*3"+nl) && len(args) == 2:
					user = 1
				default:
					continue
				}
				v := args[user]
				if !commandValue(s[v[0]:v[1]]) {
					continue
				}
				out = append(out, assignment{name: "RESP AUTH", kind: passwordName, start: v[0], end: v[1], form: formWord})
			}
		}
	}
	return out, steps
}

// bulkString reads a RESP bulk string ($n, a line end, n bytes, a line
// end) at at.
func bulkString(s string, at int, nl string) (start, end int, ok bool) {
	if at >= len(s) || s[at] != '$' {
		return 0, 0, false
	}
	k := at + 1
	n := 0
	for k < len(s) && s[k] >= '0' && s[k] <= '9' && k-at < 6 {
		n = n*10 + int(s[k]-'0')
		k++
	}
	if k == at+1 || !strings.HasPrefix(s[k:], nl) {
		return 0, 0, false
	}
	start = k + len(nl)
	end = start + n
	if n == 0 || end > len(s) || !strings.HasPrefix(s[end:], nl) {
		return 0, 0, false
	}
	return start, end, true
}

// eachIndex is indexes without an iterator's closure, which escapes
// there: the offsets of sep in s, at most one search when there is none.
func eachIndex(s, sep string) []int {
	var out []int
	for at := 0; ; {
		i := strings.Index(s[at:], sep)
		if i < 0 {
			return out
		}
		out = append(out, at+i)
		at += i + len(sep)
	}
}

func skipBlanks(s string, k int) int {
	for k < len(s) && blank(s[k]) {
		k++
	}
	return k
}

// sqlWord is the word of letters, digits and "_" at k.
func sqlWord(s string, k int) string {
	e := k
	for e < len(s) && (nameByte(s[e]) && s[e] != '.' && s[e] != '-') {
		e++
	}
	return s[k:e]
}
