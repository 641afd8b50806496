package secrets

import (
	"path"
	"slices"
	"strings"
)

// This file judges PowerShell's cmdlets, which shell.go reads as it reads
// any command: a parameter named as a password (Invoke-Sqlcmd -Password
// …, New-LocalUser -Password …, Set-Secret -Secret …, -Token, -ApiKey,
// -Key), over lines a backtick continues, and the plain text that
// ConvertTo-SecureString makes a secure string of.

// powerShellVerbs are PowerShell's approved verbs (Get-Verb), with
// which any cmdlet, a module's too, starts: a secret may be any's
// parameter (Unlock-SecretStore -Password, Publish-Module -NuGetApiKey).
var powerShellVerbs = strings.Fields(`add approve assert backup block build checkpoint clear close compare complete
	compress confirm connect convert convertfrom convertto copy debug deny deploy disable disconnect dismount edit
	enable enter exit expand export find format get grant group hide import initialize install invoke join limit lock
	measure merge mount move new open optimize out ping pop protect publish push read receive redo register remove
	rename repair request reset resize resolve restart restore resume revoke save search select send set show skip
	split start step stop submit suspend switch sync test trace unblock undo uninstall unlock unprotect unpublish
	unregister update use wait watch write`)

// cmdletSecretParams are the parameters, in lower case, that cmdlets
// take a secret by besides those named as a password (fieldKind):
// -Secret, -ClientSecret, -Token, -AccessToken, -ApiKey, -NuGetApiKey,
// -Key, -StorageAccountKey, -SecretKey (AWS's), -SasToken,
// -PersonalAccessToken. -KeyPath, -KeyLength and -Credential are none.
var cmdletSecretParams = []string{"password", "newpassword", "secret", "clientsecret", "token", "accesstoken", "apikey",
	"nugetapikey", "key", "storageaccountkey", "secretkey", "sastoken", "personalaccesstoken"}

// cmdletSecretParam: s starts with one of cmdletSecretParams (after its
// "-"), in any case, which a blank, a colon, a line break (raw or as
// JSON writes it) or the text's end follows; a few bytes are read at most. The shell's triggers start
// from it (shellTrigger).
func cmdletSecretParam(s string) bool {
	e := 0
	for e < len(s) && e < 20 && asciiLetter(s[e]) {
		e++
	}
	if e == len(s) || e < 20 && (blank(s[e]) || s[e] == ':' || s[e] == '\n' || s[e] == '\r' || s[e] == '\\') {
		return slices.ContainsFunc(cmdletSecretParams, func(p string) bool { return strings.EqualFold(p, s[:e]) })
	}
	return false
}

// cmdletSecretParamName: param, a cmdlet's parameter's name, takes a
// secret: one of cmdletSecretParams in any case, or one named as a
// password (-SqlPassword, -PlainPassword).
func cmdletSecretParamName(param string) bool {
	return fieldKind(param) == passwordName ||
		slices.ContainsFunc(cmdletSecretParams, func(p string) bool { return strings.EqualFold(p, param) })
}

// cmdletContinuation is the length of PowerShell's line continuation at
// s[p], a backtick, in the command c: the backtick follows a blank and
// ends the line (LF or CRLF, raw or as JSON writes them), c is a
// cmdlet that no backtick opened (Markdown's inline code, `Get-Service`,
// closes with one), and the next line goes on with a parameter
// ("-Password …"), not with a command of its own (Get-Service -Name x `,
// then sqlcmd … on the next line, are two commands). 0 for none. A few
// bytes are read at most.
func cmdletContinuation(s string, p int, c *shellCommand) int {
	if p == 0 || !blank(s[p-1]) || c.tick || len(c.words) == 0 || !powerShellCmdlet(c.name(s)) {
		return 0
	}
	n := 0
	for _, b := range []string{"`\n", "`\r\n", "`\\n", "`\\r\\n"} {
		if strings.HasPrefix(s[p:], b) {
			n = len(b)
			break
		}
	}
	if n == 0 {
		return 0
	}
	q := p + n
	for i := 0; i < 64 && q < len(s) && blank(s[q]); i++ {
		q++
	}
	if q+1 < len(s) && s[q] == '-' && asciiLetter(s[q+1]) {
		return n // -Password …, not a Markdown list's "- mysql …"
	}
	return 0
}

// keyChord: v names keys pressed together, as PSReadLine's -Key is
// given them (Ctrl+d, 'Shift+Tab', 'Ctrl+x,Ctrl+e'): each chord a
// modifier, then a key, which is one character, a word of letters (Tab,
// UpArrow) or a function key (F7); no key of a cipher.
func keyChord(v string) bool {
	if len(v) > 64 {
		return false
	}
	for chord := range strings.SplitSeq(v, ",") {
		parts := strings.Split(chord, "+")
		if len(parts) < 2 {
			return false
		}
		for i, part := range parts {
			mod := slices.ContainsFunc([]string{"ctrl", "alt", "shift", "meta", "cmd"}, func(m string) bool { return strings.EqualFold(m, part) })
			switch {
			case i < len(parts)-1 && !mod:
				return false
			case i == len(parts)-1 && !mod && len(part) > 1 && strings.ContainsFunc(part, func(r rune) bool { return !(r < 128 && asciiLetter(byte(r))) }) &&
				!(part[0] == 'F' && len(part) <= 3 && strings.Trim(part[1:], "0123456789") == ""):
				return false
			}
		}
	}
	return true
}

// keyLookup: v, given to -Key, names what a cmdlet looks up rather than
// a cipher's key: keys pressed together (keyChord), or a configuration's
// path of three parts or more joined by ":" (TestApp:Settings:Version2),
// each words in CamelCase or in lower case (configWords), digits only
// after the last part's words, and no word a credential's
// (password, secret, key, token, pass, pwd) or a common password's.
// Two parts (user:42, Winter:2024), a part of digits only
// (Summer:Spring:2023) or words with digits alone (SiteVersion2) may be
// a password, and go.
func keyLookup(v string) bool {
	if keyChord(v) {
		return true
	}
	if len(v) > 128 || strings.Count(v, ":") < 2 {
		return false
	}
	parts := strings.Split(v, ":")
	for i, part := range parts {
		if i == len(parts)-1 {
			part = strings.TrimRight(part, "0123456789")
		}
		if !configWords(part) {
			return false
		}
	}
	return true
}

// keyPasswordWords are words that a -Key's path may not hold: a
// credential's, and the words common passwords are made of.
var keyPasswordWords = []string{"password", "passwd", "secret", "key", "token", "pass", "pwd", "pw", "cred", "admin", "root",
	"summer", "winter", "spring", "autumn", "fall", "dragon", "monkey", "sunshine", "princess", "football", "welcome",
	"iloveyou", "letmein", "master", "shadow", "qwerty", "love", "hello", "company", "trustno", "baseball", "slayer"}

// configWords: p is words in CamelCase or one lower-case word, each a
// letter then lower-case letters, with a vowel (y counts), none of
// keyPasswordWords: Settings, TestApp, logging.
func configWords(p string) bool {
	if p == "" || len(p) > 32 {
		return false
	}
	for start := 0; start < len(p); {
		e := start + 1
		for e < len(p) && p[e] >= 'a' && p[e] <= 'z' {
			e++
		}
		w := strings.ToLower(p[start:e])
		if !asciiLetter(p[start]) || len(w) < 2 || !strings.ContainsAny(w, "aeiouy") || slices.Contains(keyPasswordWords, w) {
			return false
		}
		start = e
	}
	return true
}

// powerShellPrompt is how many of words, a command's, are PowerShell's
// prompt before a cmdlet: "PS>", or "PS" then a location that ends with
// ">" (PS C:\>, PS /home/me>); 0 for none.
func powerShellPrompt(s string, words []shellWord) int {
	k := 0
	switch first := s[words[0].start:words[0].end]; {
	case first == "PS>":
		k = 1
	case first == "PS" && len(words) > 2 && strings.HasSuffix(s[words[1].start:words[1].end], ">"):
		k = 2
	default:
		return 0
	}
	if k < len(words) && powerShellCmdlet(path.Base(words[k].text(s))) {
		return k
	}
	return 0
}

// tickBreak: the line break at b (raw, or JSON's \n escape when escaped)
// follows a backtick that follows a blank, as PowerShell continues a
// line: the segment goes on, and the reader decides whether the command
// does (cmdletContinuation).
func tickBreak(s string, b int, escaped bool) bool {
	e := b
	if escaped && e >= 2 && s[e-2:e] == `\r` {
		e -= 2
	} else if !escaped && e > 0 && s[e-1] == '\r' {
		e--
	}
	return e >= 2 && s[e-1] == '`' && blank(s[e-2])
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
	b := words[0].start
	for b > 0 && blank(s[b-1]) {
		b--
	}
	paren := b > 0 && s[b-1] == '('
	add := func(w shellWord, name string) {
		if paren && !w.quoted {
			// (Set-Secret -Secret pw): the ")" closes the cmdlet's call
			opened, closed := strings.Count(s[w.in:w.out], "("), strings.Count(s[w.in:w.out], ")")
			for w.out > w.in && s[w.out-1] == ')' && closed > opened {
				w.out--
				closed--
			}
		}
		if commandValue(s[w.in:w.out]) && !(strings.EqualFold(name, "-Key") && keyLookup(s[w.in:w.out])) {
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
		case cmdletSecretParamName(param):
			// -Password, -Secret, -Token, -ApiKey, -Key…; not -Credential,
			// which is given a user's name, nor -KeyPath
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
