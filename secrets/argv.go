package secrets

import (
	"slices"
	"strings"
)

// argvAssignments are the secrets of the commands that s writes as lists
// of their words,
// as exec forms and process APIs take them (CMD ["mysql", "-uroot",
// "-p…"], subprocess.run(["sshpass", "-p", "…", "ssh", "db"]),
// exec.Command("mysqldump", "-p…", "shop")), whose first word names a
// command the rules judge: each is judged as that command written out
// (commandAssignments), its words the list's strings.
func argvAssignments(s string) []assignment {
	var out []assignment
	// The next "[" and "(" at or after at, each found by a vectorized
	// search (strings.IndexAny steps through the bytes: it took a third
	// of prose's scrubbing time).
	bracket, paren := strings.IndexByte(s, '['), strings.IndexByte(s, '(')
	for at := 0; at < len(s); {
		if bracket >= 0 && bracket < at {
			if bracket = strings.IndexByte(s[at:], '['); bracket >= 0 {
				bracket += at
			}
		}
		if paren >= 0 && paren < at {
			if paren = strings.IndexByte(s[at:], '('); paren >= 0 {
				paren += at
			}
		}
		i := bracket
		if i < 0 || paren >= 0 && paren < i {
			i = paren
		}
		if i < 0 {
			break
		}
		at = i + 1
		ef := execForm(s, i)
		words := argvWords(s, at, ef)
		if words == nil && s[i] == '(' && strings.HasSuffix(s[:i], "CommandContext") {
			// exec.CommandContext(ctx, "mysql", …): the words after the context
			if c := firstArgumentEnd(s, at); c > at {
				words = argvWords(s, c+1, ef)
			}
		}
		words = words[runnerWords(s, words):] // ["sudo", "-E", "mysql", …]: the command sudo runs
		if len(words) < 2 {
			continue
		}
		c := shellCommand{words: words, n: len(words), piped: [2]int{-1, -1}, argv: true, execForm: ef}
		if !judgedCommands()[commandName(s, c.words)] {
			continue
		}
		out = append(out, commandAssignments(s, &c)...)
		at = words[len(words)-1].end + 1
	}
	return out
}

// execForms end the text before a list that a process is started with:
// Dockerfile's exec forms and process APIs (Python's, Go's, Node's,
// Java's, Rust's). Only there does a tool's argument (rabbitmqctl
// add_user bob …) count; a list of data may name a tool first.
var execForms = []string{"CMD", "ENTRYPOINT", "RUN", "subprocess.run(", "subprocess.Popen(", "subprocess.call(",
	"subprocess.check_call(", "subprocess.check_output(", "Popen(", "check_output(", "check_call(", "os.execv(",
	"os.execvp(", "exec.Command", "exec.CommandContext", "execFile(", "execFileSync(", "spawn(", "spawnSync(",
	"ProcessBuilder(", "Command::new", "command:", "entrypoint:"}

// execForm: the list that opens at s[open] is one a process is started
// with (execForms).
func execForm(s string, open int) bool {
	before := strings.TrimRight(s[max(0, open-32):open], " \t\r\n")
	before = strings.TrimSuffix(before, "args=") // subprocess.run(args=[…])
	before = strings.TrimRight(before, " \t\r\n")
	return slices.ContainsFunc(execForms, func(f string) bool {
		// subprocess.run([ before its "[", exec.Command before its "("
		return strings.HasSuffix(before, f) || strings.HasSuffix(before, strings.TrimSuffix(f, "("))
	})
}

// argvQuotes are the quotes of a list's strings: Go's raw strings too.
const argvQuotes = "\"'`"

// argvWords reads the strings of a list from s[at] on, each quoted with
// one of argvQuotes and holding no line break, separated by commas and
// blanks; after the first, a nested list's (spawn('zip', ['-P', …])), and
// in an exec form a builder's (Command::new(…).arg(…), chainedArg); at
// most maxShellWords of them.
func argvWords(s string, at int, execForm bool) []shellWord {
	var words []shellWord
	k := skipSpace(s, at)
	if k >= len(s) || strings.IndexByte(argvQuotes, s[k]) < 0 {
		return nil
	}
	nested := false
	for len(words) < maxShellWords && k < len(s) && strings.IndexByte(argvQuotes, s[k]) >= 0 {
		q := s[k]
		end := k + 1
		for end < len(s) && s[end] != q && s[end] != '\n' {
			if s[end] == '\\' && q != '`' {
				end++
			}
			end++
		}
		if end >= len(s) || s[end] != q {
			break
		}
		// Each word is its text inside the quotes, as the command gets
		// it: the rules read ["docker", "run", …] as docker run ….
		words = append(words, shellWord{start: k + 1, end: end, in: k + 1, out: end, quoted: true})
		k = skipSpace(s, end+1)
		if next := chainedArg(s, k); execForm && next > k {
			// Command::new("mysql").arg("-uroot").args(["-p…"]): a
			// builder's calls that add arguments, each a string or a list
			k = next
			continue
		}
		if k >= len(s) || s[k] != ',' {
			break
		}
		k = skipSpace(s, k+1)
		if k < len(s) && s[k] == '[' && len(words) == 1 && !nested {
			// spawn('zip', ['-P', …]), execFile("zip", [...]): the
			// command's name, then its arguments' list
			nested = true
			k = skipSpace(s, k+1)
		}
	}
	return words
}

// chainedArg is where the next string starts when s[k:] closes a call
// and goes on calling a builder's methods up to one that adds arguments
// (Rust's Command::new(…).arg(…).args([…]), args(&[…]), with
// .current_dir(…), .env(…) or .stdin(…) between), else k.
func chainedArg(s string, k int) int {
	if k >= len(s) || s[k] != ')' && s[k] != ']' {
		return k
	}
	j := k + 1
	if s[k] == ']' && j < len(s) && s[j] == ')' {
		j++ // .args([…]) closed
	}
	for calls := 0; calls < 8; calls++ {
		j = skipSpace(s, j)
		if j >= len(s) || s[j] != '.' {
			return k
		}
		for _, m := range []string{".arg(", ".args(&[", ".args([", ".args(vec![", ".args(&vec![", ".args(&"} {
			if strings.HasPrefix(s[j:], m) {
				if n := skipSpace(s, j+len(m)); n < len(s) && strings.IndexByte(argvQuotes, s[n]) >= 0 {
					return n
				}
				return k
			}
		}
		// Another method (.current_dir("/tmp"), .env("A", "b")): past
		// its name and its parentheses.
		m := j + 1
		for m < len(s) && nameByte(s[m]) {
			m++
		}
		if m == j+1 || m >= len(s) || s[m] != '(' {
			return k
		}
		if j = closingParen(s, m); j < 0 {
			return k
		}
		j++
	}
	return k
}

// closingParen is the index of the ")" that closes the "(" at s[open],
// within a line's length and past quoted strings; -1 when none.
func closingParen(s string, open int) int {
	depth := 0
	for k := open; k < len(s) && k < open+256; k++ {
		switch s[k] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return k
			}
		case '"', '\'':
			q := strings.IndexByte(s[k+1:], s[k])
			if q < 0 {
				return -1
			}
			k += q + 1
		case '\n':
			return -1
		}
	}
	return -1
}

// firstArgumentEnd is the index of the "," that ends a call's first
// argument, which starts at s[at]: code, not a string (ctx,
// context.Background(), r.Context()), possibly on a line of its own; 0
// when there is none within 80 bytes.
func firstArgumentEnd(s string, at int) int {
	depth := 0
	for k := at; k < len(s) && k < at+80; k++ {
		switch c := s[k]; {
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			if depth--; depth < 0 {
				return 0
			}
		case c == ',' && depth == 0:
			return k
		case strings.IndexByte(argvQuotes, c) >= 0:
			return 0
		}
	}
	return 0
}

// skipSpace passes over blanks and line breaks from s[k] on: a list's
// items may stand a line each.
func skipSpace(s string, k int) int {
	for k < len(s) && (blank(s[k]) || s[k] == '\n' || s[k] == '\r') {
		k++
	}
	return k
}
