package secrets

import (
	"path"
	"strings"
)

// argvCommands are the commands that s writes as lists of their words,
// as exec forms and process APIs take them (CMD ["mysql", "-uroot",
// "-p…"], subprocess.run(["sshpass", "-p", "…", "ssh", "db"]),
// exec.Command("mysqldump", "-p…", "shop")), whose first word names a
// command the rules judge: each is judged as that command written out
// (commandAssignments), its words the list's strings.
func argvAssignments(s string) []assignment {
	var out []assignment
	for at := 0; at < len(s); {
		i := strings.IndexAny(s[at:], "[(")
		if i < 0 {
			break
		}
		at += i + 1
		words := argvWords(s, at)
		if len(words) < 2 {
			continue
		}
		name := path.Base(strings.ReplaceAll(s[words[0].in:words[0].out], `\`, "/"))
		name = strings.TrimSuffix(strings.ToLower(name), ".exe")
		if !judgedCommands()[name] {
			continue
		}
		c := shellCommand{words: words, n: len(words), piped: [2]int{-1, -1}, argv: true}
		out = append(out, commandAssignments(s, &c)...)
		at = words[len(words)-1].end
	}
	return out
}

// argvWords reads the strings of a list from s[at] on: quoted alike with
// " or ', separated by commas and blanks, none holding a line break; at
// most maxShellWords of them.
func argvWords(s string, at int) []shellWord {
	var words []shellWord
	k := skipSpace(s, at)
	if k >= len(s) || s[k] != '"' && s[k] != '\'' {
		return nil
	}
	q := s[k]
	for len(words) < maxShellWords && k < len(s) && s[k] == q {
		end := k + 1
		for end < len(s) && s[end] != q && s[end] != '\n' {
			if s[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(s) || s[end] != q {
			break
		}
		words = append(words, shellWord{start: k, end: end + 1, in: k + 1, out: end, quoted: true})
		k = skipSpace(s, end+1)
		if k >= len(s) || s[k] != ',' {
			break
		}
		k = skipSpace(s, k+1)
	}
	return words
}

// skipSpace passes over blanks and line breaks from s[k] on: a list's
// items may stand a line each.
func skipSpace(s string, k int) int {
	for k < len(s) && (blank(s[k]) || s[k] == '\n' || s[k] == '\r') {
		k++
	}
	return k
}
