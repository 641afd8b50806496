package secrets

import (
	"slices"
	"strings"
)

// This file judges PowerShell's cmdlets, which shell.go reads as it reads
// any command: a parameter named as a password (Invoke-Sqlcmd -Password
// …, New-LocalUser -Password …) and the plain text that
// ConvertTo-SecureString makes a secure string of.

// powerShellVerbs are the approved verbs that the cmdlets taking a
// password start with.
var powerShellVerbs = []string{"add", "connect", "convertto", "enable", "enter", "install", "invoke", "new", "register",
	"reset", "set", "start", "update"}

// powerShellCmdlet: name reads as a cmdlet's, Verb-Noun, the verb an
// approved one (docker-compose and redis-cli are no cmdlets).
func powerShellCmdlet(name string) bool {
	verb, noun, ok := strings.Cut(name, "-")
	if !ok || len(noun) < 2 || !asciiLetter(noun[0]) {
		return false
	}
	return slices.Contains(powerShellVerbs, strings.ToLower(verb)) &&
		!strings.ContainsFunc(noun, func(r rune) bool { return !(r < 128 && asciiLetter(byte(r))) })
}

// cmdletPasswords are the passwords a cmdlet's words give: the value of
// a parameter whose name is a password's (-Password pw, -Password:pw,
// -SqlPassword 'pw'; parameters have no case), and ConvertTo-SecureString's
// text (its first argument or -String's) when -AsPlainText says it is
// plain. A variable ($pw, $env:PW) or a call ((Get-Content pw.txt)) is
// none (commandValue).
func cmdletPasswords(s string, words []shellWord) []assignment {
	var out []assignment
	add := func(w shellWord, name string) {
		if commandValue(s[w.in:w.out]) {
			out = append(out, assignment{name: name, kind: passwordName, start: w.in, end: w.out, form: formFlag})
		}
	}
	convert := strings.EqualFold(words[0].text(s), "ConvertTo-SecureString") || strings.HasSuffix(strings.ToLower(words[0].text(s)), `\convertto-securestring`)
	plain := false
	var text *shellWord
	for i := 1; i < len(words); i++ {
		t := s[words[i].start:words[i].end]
		if len(t) < 2 || t[0] != '-' {
			if convert && text == nil && (i == 1 || s[words[i-1].start] != '-') {
				text = &words[i] // the first positional argument
			}
			continue
		}
		param, glued, colon := strings.Cut(t[1:], ":")
		switch {
		case strings.EqualFold(param, "AsPlainText"):
			plain = true
		case convert && strings.EqualFold(param, "String") && !colon && i+1 < len(words):
			text = &words[i+1]
			i++
		case fieldKind(param) == passwordName:
			if colon && glued != "" {
				w := words[i]
				w.in += 1 + len(param) + 1
				if q, qe, quoted, ok := quotedAt(s, w.in); quoted && ok && qe+1 == w.end {
					w.in, w.out = q, qe
				} else {
					w.out = w.end
				}
				add(w, "-"+param)
			} else if !colon && i+1 < len(words) && s[words[i+1].start] != '-' {
				add(words[i+1], "-"+param)
				i++
			}
		}
	}
	if convert && plain && text != nil {
		add(*text, "ConvertTo-SecureString -AsPlainText")
	}
	return out
}
