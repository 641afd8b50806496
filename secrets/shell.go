package secrets

import (
	"path"
	"slices"
	"strings"
)

// This file reads command lines as a shell splits them, once each, for
// the rules that need to know which command a word belongs to: a
// password flag (mysql -pS3cret, docker login -p …), a literal piped to a
// command that reads its password on stdin (echo … | docker login
// --password-stdin), Redis's AUTH and httpie's items (commands.go).
//
// A command starts a segment (a line, or what follows JSON's \n escape in
// text written as JSON), or follows "|", "||", "&&", "&", ";", "$(", a
// backtick, or the quote that opens a string ("cmd": "mysql …", a JSON
// string's escaped \" alike, bash -c "mysql …", bash -lc '…', ssh host
// '…'). A backslash before a line break (LF or CRLF, raw or as JSON
// writes them) continues the command on the next line; where a command
// starts is found forward, once (segments). Its first word is
// its name (a path's last element; sudo, env, time, nohup, exec and
// VAR=value before it skipped); a command word that prose mentions
// earlier in a segment names no later command ("docker login once and
// then docker run -p 8080:80" has one command, docker, whose -p is run's
// among five loose words: see looseBefore).

// shellWord is one word of a command: s[start:end] as written, and the
// text inside its quotes when it is quoted whole ('pw', "pw", \"pw\",
// $'pw'), else the same span.
type shellWord struct {
	start, end int
	in, out    int // inside the quotes: s[in:out]
	quoted     bool
}

// maxShellWords bounds the words kept of one command; later ones are
// counted, not kept.
const maxShellWords = 32

// shellCommand is a command being read.
type shellCommand struct {
	words    []shellWord // its name first
	n        int         // its words, kept or not
	broken   bool        // an unclosed quote: no command to judge
	tick     bool        // a backtick opened it (bash's `…`, Markdown's inline code)
	wrap     int         // sudo & co. read before the name: 1, 2 after sudo -u
	sudo     int8        // 1: sudo runs it; 2: sudo -S, which reads its password from what is piped in
	argv     bool        // a list of strings, not a command line (argv.go)
	execForm bool        // … that a process API or an exec form is given (CMD […], subprocess.run([…]))
	pipe     bool        // it reads what the command before it wrote ("|")
	piped    [2]int      // what that command wrote, when a literal: its span, else -1
}

// shellReader reads a text's commands forward, once: pos never goes back.
type shellReader struct {
	s     string
	pos   int
	cmd   shellCommand
	str   string // the quote that ends the string after -c the reader is in
	found []assignment
	next  [len(shellStops)]int // where each of shellStops is next, -1 nowhere, -2 not looked for
	steps int                  // the reader's steps and searches' bytes, for tests of linear time
}

// shellAssignments finds the secrets that commands take in s (see
// commands.go), reading only the segments that hold one of the words that
// the rules start from, each once.
func shellAssignments(s string) []assignment {
	found, _ := shellScan(s)
	return found
}

// shellScan is shellAssignments, and the work it did: the bytes its
// searches read and its reader's steps.
func shellScan(s string) ([]assignment, int) {
	var next [len(shellTriggers)]int // where each trigger is next at or after pos, -1 nowhere
	any := false
	for i := range shellTriggers {
		next[i] = shellTrigger(s, i, 0)
		any = any || next[i] >= 0
	}
	argv := argvAssignments(s)
	if !any {
		return commandValues(s, argv), 0
	}
	r := newShellReader(s)
	seg := newSegments(s)
	for {
		t := -1
		for i := range shellTriggers {
			if next[i] >= 0 && next[i] < r.pos {
				next[i] = shellTrigger(s, i, r.pos)
			}
			if next[i] >= 0 && (t < 0 || next[i] < t) {
				t = next[i]
			}
		}
		if t < 0 || r.pos >= len(s) {
			break
		}
		if st := seg.startOf(t); st > r.pos {
			r.end(false)
			r.pos = st
		}
		r.readThrough(t)
	}
	r.end(false)
	return commandValues(s, append(r.found, argv...)), r.steps + seg.steps
}

// commandValues keeps the assignments whose values look like passwords
// (commandValue): a command's placeholder, a documented example or a
// word is none.
func commandValues(s string, as []assignment) []assignment {
	out := as[:0]
	for _, a := range as {
		v := s[a.start:a.end]
		switch {
		case a.glued && gluedPassword(v) && !entityCut(s, a.start, a.end):
			out = append(out, a)
		case a.glued && v != "" && strings.IndexByte("@&%!", v[0]) >= 0 && !percentEscape(v):
			// A value that starts with a mark is judged by it alone: a
			// password (-p@pw_2024_prod) or a reference (%APPDATA%\pw.txt)
		case commandValue(v):
			out = append(out, a)
		}
	}
	return out
}

// percentEscape: v starts with a URL's escape (-p%40pw_2024_prod), no
// mark.
func percentEscape(v string) bool {
	return len(v) >= 3 && v[0] == '%' && hexDigit(v[1]) && hexDigit(v[2])
}

// entityCut: s[start:end] is an HTML entity whose ";" the shell took
// for the end of a command (--password=&quot;$MYSQL_PWD&quot; written
// into HTML), not a password.
func entityCut(s string, start, end int) bool {
	return end < len(s) && s[end] == ';' && entityLen(s[start:end+1], 0) == end+1-start
}

func newShellReader(s string) *shellReader {
	r := &shellReader{s: s}
	for i := range r.next {
		r.next[i] = -2
	}
	r.reset(0)
	return r
}

// shellTriggers are the words without which no command rule applies,
// each looked for by one search and then told by the bytes around it
// (shellTrigger): "-" for -p, -P, -a, -u and --pass after a blank, and for
// --password-stdin and --stdin ("-" is rarer than the blank or the s
// these start with, at each of which strings.Index would stop), "auth"
// and "AUTH" as words (AUTH …,
// --auth; auth looked for as "uth", whose first byte prose has far less
// often than an a, which strings.Index would stop at), "http" for http and
// https, "xh" for xh and xhs as commands, "passwd" for chpasswd (its p
// rarer than the c), Redis's "requirepass" (CONFIG SET; masterauth is
// found by its auth) and "setuser" (ACL SETUSER), these two in any case
// as Redis takes them (foldIndex), and "/P" for SQL Server's tools'
// password flag written as Windows writes flags (sqlcmd … /P …).
var shellTriggers = [...]string{"-", "AUTH", "uth", "http", "xh", "passwd", "requirepass", "setuser", "/P",
	"rabbitmqctl", "vault", "net user", "sqlplus", "expdp", "impdp", "setx", "config set", // from toolTriggers on: toolSecrets' commands that take their secret as an argument,
	"RABBITMQCTL", "SQLPLUS", "SETX", "sqlldr", "net.exe"} // in Windows' capitals too; net user and net.exe in any case

// toolTriggers is where shellTriggers' names of commands that take their
// secret as an argument begin.
const toolTriggers = 9

// foldPivots are the bytes that foldIndex looks for first in
// shellTriggers' words taken in any case: their rarest letter.
var foldPivots = map[string]int{"requirepass": 3, "setuser": 3, "net user": 4, "net.exe": 5} // q, u, u, x

// foldIndex is where w, lower-case ASCII, first stands in s in any case
// (REQUIREPASS, setUser), -1 nowhere: its pivot byte w[p] is looked for in
// either case, and the bytes round it compared.
func foldIndex(s, w string, p int) int {
	// Two vectorized searches, one a case, each resumed past its last
	// find (strings.IndexAny steps through the bytes one at a time).
	lo, up := w[p], w[p]-'a'+'A'
	nextLo, nextUp := -2, -2 // -2: not looked for yet; -1: none left
	for from := p; from < len(s); {
		if nextLo == -2 || nextLo >= 0 && nextLo < from {
			if nextLo = strings.IndexByte(s[from:], lo); nextLo >= 0 {
				nextLo += from
			}
		}
		if nextUp == -2 || nextUp >= 0 && nextUp < from {
			if nextUp = strings.IndexByte(s[from:], up); nextUp >= 0 {
				nextUp += from
			}
		}
		i := nextLo
		if i < 0 || nextUp >= 0 && nextUp < i {
			i = nextUp
		}
		if i < 0 {
			return -1
		}
		from = i + 1
		if st := i - p; st+len(w) <= len(s) && strings.EqualFold(s[st:st+len(w)], w) {
			return st
		}
	}
	return -1
}

// shellTrigger is where shellTriggers[k] next stands as a trigger, at or
// after from; -1 when it does not.
func shellTrigger(s string, k, from int) int {
	w := shellTriggers[k]
	for from < len(s) {
		var i int
		if p, ok := foldPivots[w]; ok {
			i = foldIndex(s[from:], w, p)
		} else {
			i = strings.Index(s[from:], w)
		}
		if i < 0 {
			return -1
		}
		i += from
		from = i + 1
		e := i + len(w)
		if w == "uth" {
			if i == 0 || s[i-1] != 'a' && s[i-1] != 'A' {
				continue
			}
			i-- // auth
		}
		var after byte
		if e < len(s) {
			after = s[e]
		}
		word := i == 0 || !isWordByte(s[i-1])
		switch w {
		case "-":
			switch {
			case i > 0 && (blank(s[i-1]) || s[i-1] == '"' || s[i-1] == '\'') && (after == 'p' || after == 'a' || after == 'u' || after == 'P' || after == 'A' || strings.HasPrefix(s[e:], "-pass") || strings.HasPrefix(s[e:], "-user") || cmdletSecretParam(s[e:]) || toolFlagTrigger(s[e:])):
				return i - 1
			case strings.HasPrefix(s[e:], "stdin"):
				return i
			}
		case "AUTH", "uth":
			master := i >= 6 && strings.EqualFold(s[i-6:i], "master") // MASTERAUTH, masterauth
			if (word || master) && (after == ' ' || after == '\t' || after == '=' || master && (after == '"' || after == '\'')) {
				return i
			}
		case "/P": // sqlcmd's, osql's and bcp's password after Windows' "/"
			if i > 0 && blank(s[i-1]) {
				return i - 1
			}
		case "requirepass", "setuser": // Redis's CONFIG SET requirepass, ACL SETUSER, in any case
			if word && (blank(after) || after == '"' || after == '\'') {
				return i
			}
		case "passwd": // chpasswd, looked for from its rarer p
			if i >= 2 && s[i-2:i] == "ch" && (i == 2 || !isWordByte(s[i-3])) && (e == len(s) || !isWordByte(after)) {
				return i - 2
			}
		default:
			if k >= toolTriggers && word && (after == ' ' || after == '\t' || after == '.') { // sqlplus.exe, rabbitmqctl.bat
				return i
			}
		case "http", "xh":
			if after == 's' && e+1 < len(s) {
				after = s[e+1]
			}
			if word && (after == ' ' || after == '\t') {
				return i
			}
		}
	}
	return -1
}

// segments finds where the segment holding a position starts, reading
// the text forward once: at is how far it has read, start where the
// segment holding s[at] starts (after a line break or JSON's \n escape
// that no backslash continues). The positions asked for never go back
// (shellAssignments asks for each next trigger), so each byte is read
// once, however many lines a backslash continues: searching back from each
// trigger over the continued lines read them again for each
// (quadratic: 1 MiB of backslash-ended lines took minutes).
type segments struct {
	s         string
	at, start int
	nl, esc   int // the next "\n" and `\n` at or after at, -1 none, -2 not looked for
	steps     int // the bytes searched, for tests of linear time
}

func newSegments(s string) *segments { return &segments{s: s, nl: -2, esc: -2} }

// startOf is where the segment holding s[t] starts; t never goes back.
func (g *segments) startOf(t int) int {
	s := g.s
	for g.at < t {
		if g.nl == -2 || g.nl >= 0 && g.nl < g.at {
			g.nl = indexFrom(s, "\n", min(g.at, len(s)))
			g.steps += searched(s, g.at, g.nl)
		}
		if g.esc == -2 || g.esc >= 0 && g.esc < g.at {
			g.esc = indexFrom(s, `\n`, min(g.at, len(s)))
			g.steps += searched(s, g.at, g.esc)
		}
		b, raw := g.nl, true
		if g.esc >= 0 && (b < 0 || g.esc < b) {
			b, raw = g.esc, false
		}
		if b < 0 || b >= t {
			g.at = t
			break
		}
		if raw {
			g.at = b + 1
			if !rawContinued(s, b) && !tickBreak(s, b, false) {
				g.start = b + 1
			}
			continue
		}
		g.at = b + 2
		if escapedBreak(s, b) && !tickBreak(s, b, true) {
			g.start = b + 2
		}
	}
	return g.start
}

// searched is how many bytes a search from from read to find at (-1:
// none, to the end).
func searched(s string, from, at int) int {
	if at < 0 {
		return len(s) - from
	}
	return at - from + 1
}

// backslashesBefore counts the backslashes that end s[:i].
func backslashesBefore(s string, i int) int {
	n := 0
	for i-n > 0 && s[i-n-1] == '\\' {
		n++
	}
	return n
}

// rawContinued: the line break at b follows a backslash that is not
// itself escaped, or one and a carriage return (a CRLF line's
// continuation): the command goes on on the next line.
func rawContinued(s string, b int) bool {
	e := b
	if e > 0 && s[e-1] == '\r' {
		e--
	}
	return backslashesBefore(s, e)%2 == 1
}

// escapedBreak: JSON's \n escape at b (its backslash) ends a segment. It
// does not when its backslash is escaped (\\n: a backslash, then the
// letter n), when an escaped backslash comes before it (\\\n, or
// \\\r\n: a continued line as JSON writes it), or when a quote follows
// it ('pw\n': printf's or echo -e's line end inside the quotes, see
// segmentEndBefore).
func escapedBreak(s string, b int) bool {
	n := backslashesBefore(s, b)
	if n%2 == 1 {
		return false // \\n: the letter n
	}
	if n >= 2 {
		return false // \\\n: continued
	}
	if b >= 4 && s[b-2:b] == `\r` && backslashesBefore(s, b-2) >= 2 && backslashesBefore(s, b-2)%2 == 0 {
		return false // \\\r\n: continued
	}
	q := s[b+2:]
	return !(q != "" && (q[0] == '\'' || q[0] == '"' || strings.HasPrefix(q, `\"`)))
}

// reset starts a new command at p.
func (r *shellReader) reset(p int) {
	r.cmd = shellCommand{words: r.cmd.words[:0], piped: [2]int{-1, -1}}
	r.pos = p
}

// end ends the command read so far: the rules judge it; pipe says a "|"
// ends it, so that the next one reads what it writes.
func (r *shellReader) end(pipe bool) {
	c := &r.cmd
	var piped [2]int = [2]int{-1, -1}
	if !c.broken && len(c.words) > 0 {
		r.found = append(r.found, commandAssignments(r.s, c)...)
		if pipe {
			piped = pipedLiteral(r.s, c)
		}
	}
	words := c.words[:0]
	r.cmd = shellCommand{words: words, pipe: pipe, piped: piped}
}

// readThrough reads commands from pos up to the end of the segment that
// holds s[t].
func (r *shellReader) readThrough(t int) {
	s := r.s
	for r.pos < len(s) {
		r.steps++
		p := r.pos
		c := s[p]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			r.pos++
		case c == '\n':
			r.pos++
			if rawContinued(s, p) {
				continue // read as the word's end below; the command goes on
			}
			r.end(false)
			r.str = ""
			if p >= t {
				return
			}
		case c == '\\' && strings.HasPrefix(s[p:], `\n`):
			r.pos += 2
			r.end(false)
			r.str = ""
			if p >= t {
				return
			}
		case c == '\\' && continuation(s[p:]) > 0:
			r.pos += continuation(s[p:]) // a continued line
		case c == '|':
			r.pos++
			if strings.HasPrefix(s[r.pos:], "|") {
				r.pos++
				r.end(false)
			} else {
				r.end(true)
			}
		case c == '`' && cmdletContinuation(s, p, &r.cmd) > 0:
			r.pos += cmdletContinuation(s, p, &r.cmd) // PowerShell's continued line
		case c == '`':
			r.pos++
			r.end(false)
			r.cmd.tick = true // Markdown's inline code too: no cmdlet's line
		case c == ';' || c == '(' || c == ')':
			r.pos++
			r.end(false)
		case c == '$' && strings.HasPrefix(s[p:], "$("):
			r.pos += 2
			r.end(false)
		case c == '&': // a command sent to the background, or &&
			r.pos++
			if strings.HasPrefix(s[r.pos:], "&") {
				r.pos++
			}
			r.end(false)
		case r.stringQuote(p) > 0:
			n := r.stringQuote(p)
			switch q := s[p : p+n]; {
			case r.str != "" && q == r.str:
				r.str = ""
			case r.commandString(p):
				r.str = q
			}
			r.pos += n
			r.end(false)
		default:
			r.word()
		}
	}
}

// continuation is the length of the continued line's break that s
// starts with (a backslash and a line break, LF or CRLF, raw or as JSON
// writes them: \\\n, \\\r\n), 0 for none.
func continuation(s string) int {
	for _, c := range []string{"\\\n", "\\\r\n", `\\\n`, `\\\r\n`} {
		if strings.HasPrefix(s, c) {
			return len(c)
		}
	}
	return 0
}

// stringQuote is the length of the quote at p (", ' or \") when it opens
// or closes a string that holds a command rather than a word of one: after
// ":", ",", "[", "{" or "(" (a JSON or Python member, an argument), or
// before ",", ":", "}", "]" or ")"; else 0.
func (r *shellReader) stringQuote(p int) int {
	s := r.s
	n := 0
	switch {
	case s[p] == '"' || s[p] == '\'':
		n = 1
	case strings.HasPrefix(s[p:], `\"`):
		n = 2
	default:
		return 0
	}
	if r.str != "" && strings.HasPrefix(s[p:], r.str) {
		return n // the end of the string after -c
	}
	b := p
	for b > 0 && blank(s[b-1]) {
		b--
	}
	if b > 0 && strings.IndexByte(":,[{(", s[b-1]) >= 0 || r.commandString(p) {
		return n
	}
	a := p + n
	for a < len(s) && blank(s[a]) {
		a++
	}
	if a == len(s) || strings.IndexByte(",:}])", s[a]) >= 0 {
		return n
	}
	return 0
}

// commandString: the quote at p, after a blank, opens a string that
// holds a command the command being read runs: after -c or a cluster of
// short flags ending in c (bash -c, bash -lc, su -c), after PowerShell's
// -Command (powershell, pwsh), or after ssh's host (ssh host 'mysql …').
func (r *shellReader) commandString(p int) bool {
	s := r.s
	c := &r.cmd
	if p == 0 || !blank(s[p-1]) || len(c.words) == 0 || c.n != len(c.words) {
		return false
	}
	last := c.words[len(c.words)-1]
	if last.end > p || strings.TrimRight(s[last.end:p], " \t") != "" {
		return false
	}
	if shellFlagC(s[last.start:last.end]) {
		return true
	}
	if strings.EqualFold(s[last.start:last.end], "-Command") &&
		slices.ContainsFunc([]string{"powershell", "pwsh"}, func(n string) bool { return strings.EqualFold(n, c.name(s)) }) {
		return true // powershell -Command "Unlock-SecretStore -Password …"
	}
	if c.name(s) != "ssh" {
		return false
	}
	at := sshCommandAt(s, c.words)
	return at == len(c.words) || at == len(c.words)-1 && c.words[at].text(s) == "--" // ssh db -- "…"
}

// shellFlagC: w is -c, or short flags ending in c (-lc, -ic, -euc).
func shellFlagC(w string) bool {
	if len(w) < 2 || len(w) > 5 || w[0] != '-' || w[len(w)-1] != 'c' {
		return false
	}
	for _, c := range []byte(w[1:]) {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// sshCommandAt is the index in words (ssh's, its name first) of the
// remote command's first word, after ssh's flags and its host; -1 when
// there is no host.
func sshCommandAt(s string, words []shellWord) int {
	for i := 1; i < len(words); i++ {
		t := s[words[i].start:words[i].end]
		if strings.HasPrefix(t, "-") {
			if len(t) == 2 && strings.IndexByte("BbcDEeFIiJLlmOoPpQRSWw", t[1]) >= 0 {
				i++ // the flag's value
			}
			continue
		}
		return i + 1
	}
	return -1
}

// word reads one word at pos, quotes in it read whole.
func (r *shellReader) word() {
	s := r.s
	w := shellWord{start: r.pos}
	quotes := 0
	p := r.pos
	for p < len(s) {
		for p < len(s) && !shellSpecial[s[p]] {
			p++
		}
		if p == len(s) {
			break
		}
		c := s[p]
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '|' || c == ';' || c == '`' ||
			c == '&' && strings.HasPrefix(s[p:], "&&") || c == '$' && strings.HasPrefix(s[p:], "$(") {
			break
		}
		if c == '\\' {
			switch {
			case strings.HasPrefix(s[p:], `\n`) || continuation(s[p:]) > 0:
				goto done // a segment's end, or a continued line
			case strings.HasPrefix(s[p:], `\"`):
				if p > w.start && r.stringQuote(p) > 0 {
					goto done
				}
				close := r.nextIndex(`\"`, p+2)
				if close < 0 || r.segmentEndBefore(p+2, close) {
					r.unclosed(p)
					return
				}
				if p == w.start {
					w.in, w.out = p+2, close
				}
				quotes++
				p = close + 2
				continue
			}
			p += 2 // an escaped byte
			continue
		}
		if c == '"' || c == '\'' {
			if p > w.start && r.stringQuote(p) > 0 {
				break
			}
			close := r.nextIndex(s[p:p+1], p+1)
			if close < 0 || r.segmentEndBefore(p+1, close) {
				r.unclosed(p)
				return
			}
			if p == w.start || p == w.start+1 && s[w.start] == '$' && c == '\'' {
				w.in, w.out = p+1, close
			}
			quotes++
			p = close + 1
			continue
		}
		p++
	}
done:
	p = min(p, len(s))
	w.end = p
	w.quoted = quotes == 1 && w.out+1 == p || quotes == 1 && w.out+2 == p && s[w.out] == '\\'
	if !w.quoted {
		w.in, w.out = w.start, w.end
	}
	r.pos = max(p, r.pos+1)
	r.add(w)
}

// shellSpecial are the bytes that end a word or open a quote in it.
var shellSpecial = func() (t [256]bool) {
	for _, c := range []byte(" \t\r\n|;`&$\\\"'") {
		t[c] = true
	}
	return t
}()

// unclosed: a quote at p that its segment does not close leaves no
// command to judge there.
func (r *shellReader) unclosed(p int) {
	r.cmd.broken = true
	r.pos = p + 1
}

// shellStops are what a quote looks ahead for: its closing quote, and
// a segment's end before it.
var shellStops = [...]string{`'`, `"`, `\"`, "\n", `\n`}

// nextIndex is the index of q, one of shellStops, at or after from, -1
// when there is none, remembered so that the text is searched for each
// once: from never goes back.
func (r *shellReader) nextIndex(q string, from int) int {
	k := 0
	for shellStops[k] != q {
		k++
	}
	if at := r.next[k]; at == -1 || at >= from {
		return at
	}
	at := indexFrom(r.s, q, from)
	r.steps += searched(r.s, from, at)
	r.next[k] = at
	return at
}

// segmentEndBefore: a segment ends between from and to (a line break or
// JSON's \n escape), which a quote does not span.
//
// JSON's \n just before the closing quote is printf's or echo -e's line
// end inside the quotes ('%s\n', 'pw\n'), not a segment's.
func (r *shellReader) segmentEndBefore(from, to int) bool {
	nl, esc := r.nextIndex("\n", from), r.nextIndex(`\n`, from)
	return nl >= 0 && nl < to || esc >= 0 && esc < to && esc != to-2
}

// add adds a word to the command, skipping what runs it before its name.
func (r *shellReader) add(w shellWord) {
	c := &r.cmd
	text := r.s[w.start:w.end]
	if len(c.words) == 0 {
		switch {
		case c.wrap == 2:
			c.wrap = 1 // sudo -u's user
			return
		case c.wrap > 0 && strings.HasPrefix(text, "-"):
			if slices.Contains([]string{"-u", "-g", "-n", "-s", "-k", "-o", "-I", "--signal", "--kill-after"}, text) {
				c.wrap = 2 // sudo -u bob, nice -n 10, timeout -s KILL, strace -o f, xargs -I {}
			}
			if c.sudo > 0 && (text == "--stdin" || len(text) > 1 && text[1] != '-' && strings.IndexByte(text, 'S') > 0) {
				c.sudo = 2 // sudo -S, -kS
			}
			return
		case c.wrap > 0 && duration(text):
			return // timeout 10 …, timeout 5m …
		case slices.Contains([]string{"sudo", "env", "time", "nohup", "exec", "command", "$", "#",
			"timeout", "nice", "ionice", "doas", "xargs", "watch", "strace", "stdbuf", "wsl", "then", "do", "else", "{", "(", "!!", "%system"}, text):
			c.wrap = 1
			if text == "sudo" {
				c.sudo = 1
			}
			return
		case c.n == 0 && c.wrap == 0 && commandFraming(text):
			return // RUN …, 0 3 * * * …, - run: …, C:\> …
		case c.n == 0 && c.wrap == 0 && systemdExec(text) > 0:
			w.start += systemdExec(text) // ExecStart=/usr/bin/mysqldump …: the command
			w.in = max(w.in, w.start)
		case c.n == 0 && strings.IndexByte(text, '=') > 0 && !strings.HasPrefix(text, "-"):
			return // VAR=value before the command
		}
	}
	c.n++
	if len(c.words) < maxShellWords {
		c.words = append(c.words, w)
	}
}

// commandFraming: text, a word before any of a command's, frames the
// command rather than being it: a Dockerfile's RUN, a cron schedule's
// fields, a list's marker, a prompt (>, PS>, C:\>), a notebook's %sh,
// a YAML key that holds a command (run:, script:, entrypoint:).
func commandFraming(text string) bool {
	switch text {
	case "RUN", "CMD", "ENTRYPOINT", ">", "PS>", "-", "*", "+", "%sh", "%%sh", "%bash", "%%bash", "%%script",
		"@reboot", "@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly":
		return true
	}
	if t, ok := strings.CutSuffix(text, "."); ok && t != "" && strings.Trim(t, "0123456789") == "" {
		return true // a numbered list's 1.
	}
	if t, ok := strings.CutSuffix(text, ")"); ok && t != "" && strings.Trim(t, "0123456789") == "" {
		return true // 1)
	}
	if (strings.HasSuffix(text, "$") || strings.HasSuffix(text, "#")) && strings.ContainsAny(text, "@:") {
		return true // a prompt: bob@host:~$, root@db:/#
	}
	if text == "PS" {
		return true // PowerShell's PS C:\Users\bob>
	}
	if len(text) >= 3 && len(text) <= 16 && text[0] == '[' && text[len(text)-1] == ']' {
		return true // a log's [INFO], a step's [2/6]
	}
	if key, ok := strings.CutSuffix(text, ":"); ok {
		return slices.Contains([]string{"run", "script", "command", "cmd", "entrypoint", "exec", "shell",
			"before_script", "after_script", "pre", "post", "start", "test", "build", "deploy"}, strings.ToLower(key))
	}
	if len(text) >= 2 && len(text) <= 64 && text[len(text)-1] == '>' && (text[0] == '/' || text[0] == '~' || len(text) >= 3 && text[1] == ':' && text[2] == '\\') {
		return true // C:\>, C:\Users\bob>, PS /home/me>'s path
	}
	// A cron schedule's field: 0, */5, 1-5, 0,30.
	return text != "" && text[0] != '-' && !strings.ContainsFunc(text, func(r rune) bool { return !strings.ContainsRune("0123456789*/,-", r) })
}

// duration: text is a duration as timeout and watch take one: 10, 5m,
// 1.5s.
func duration(text string) bool {
	t := strings.TrimRight(text, "smhd")
	return t != "" && len(text)-len(t) <= 1 && strings.Trim(t, "0123456789.") == ""
}

// systemdExec is where the command starts in text, a systemd unit's
// ExecStart=/usr/bin/… (after the "=" and the prefixes -, @, +, !, :),
// or 0 when text is no such setting.
func systemdExec(text string) int {
	key, v, ok := strings.Cut(text, "=")
	if !ok || !strings.HasPrefix(key, "Exec") || v == "" {
		return 0
	}
	k := len(key) + 1
	for k < len(text) && strings.IndexByte("-@+!:", text[k]) >= 0 {
		k++
	}
	return k
}

// name is a command's name: its first word's last path element, a
// Windows path's too (C:\Tools\sqlcmd.exe), without ".exe".
func (c *shellCommand) name(s string) string {
	if len(c.words) == 0 {
		return ""
	}
	n := path.Base(strings.TrimLeft(c.words[0].text(s), "!")) // a notebook's !mysql …, !!mysql …
	if b := strings.LastIndexByte(n, '\\'); b >= 0 && b+1 < len(n) {
		n = n[b+1:]
	}
	if len(n) > 4 && (strings.EqualFold(n[len(n)-4:], ".exe") || strings.EqualFold(n[len(n)-4:], ".bat") || strings.EqualFold(n[len(n)-4:], ".cmd")) {
		n = n[:len(n)-4] // rabbitmqctl.bat, az.cmd
	}
	return n
}

// text is the word's text, quotes removed when quoted whole.
func (w shellWord) text(s string) string { return s[w.in:w.out] }
