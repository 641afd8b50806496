package secrets

import (
	"slices"
	"strings"
)

// This file judges PowerShell's cmdlets, which shell.go reads as it reads
// any command: a parameter named as a password (Invoke-Sqlcmd -Password
// …, New-LocalUser -Password …) and the plain text that
// ConvertTo-SecureString makes a secure string of.

// powerShellVerbs are PowerShell's approved verbs (Get-Verb), with
// which any cmdlet, a module's too, starts: a password may be any's
// parameter (Unlock-SecretStore -Password, Publish-Module -NuGetApiKey).
var powerShellVerbs = strings.Fields(`add approve assert backup block build checkpoint clear close compare complete
	compress confirm connect convert convertfrom convertto copy debug deny deploy disable disconnect dismount edit
	enable enter exit expand export find format get grant group hide import initialize install invoke join limit lock
	measure merge mount move new open optimize out ping pop protect publish push read receive redo register remove
	rename repair request reset resize resolve restart restore resume revoke save search select send set show skip
	split start step stop submit suspend switch sync test trace unblock undo uninstall unlock unprotect unpublish
	unregister update use wait watch write`)

// cmdletSecretParam: s starts with a parameter's name (after its "-")
// that names a secret other than a password, which the shell's triggers
// start from: -Secret, -ClientSecret, -NuGetApiKey, -AccessToken. A few
// bytes are read at most.
func cmdletSecretParam(s string) bool {
	e := 0
	for e < len(s) && e < 32 && asciiLetter(s[e]) {
		e++
	}
	if e < 3 || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	w := strings.ToLower(s[:e])
	return strings.Contains(w, "secret") || strings.Contains(w, "apikey") || strings.Contains(w, "token")
}

// backtickContinuation is the length of PowerShell's line continuation
// that s starts with: a backtick, then a line break (LF or CRLF, raw or
// as JSON writes it); 0 for none. New-LocalUser -Name x `
// -Password … is one command.
func backtickContinuation(s string) int {
	for _, c := range []string{"`\n", "`\r\n", "`\\n", "`\\r\\n"} {
		if strings.HasPrefix(s, c) {
			return len(c)
		}
	}
	return 0
}

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
		case fieldKind(param) == passwordName || fieldKind(param) == strongName ||
			fieldKind(param) == weakName && strings.Contains(strings.ToLower(param), "secret"):
			// -Password, -PlainPassword, -NuGetApiKey, -Secret, -ClientSecret;
			// not -Credential, which is given a user's name
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
