package secrets

import (
	"slices"
	"strings"
	"sync"
)

// toolSecret is where a command of its own takes a secret, beyond the
// password flags that commands share (passwordFlags): a flag's value
// (the next word, or after "=" for a long flag), glued to a short flag,
// or an argument.
type toolSecret struct {
	commands  []string // names; two words for a command and its subcommand (gh secret)
	flags     []string // the flags whose value is the secret: -w, --body, -storepass
	glued     bool     // the value may also be glued to a one-letter flag: 7z -pS3cret, gh … -bS3cret
	onlyGlued bool     // the value is glued or absent: 7z -p alone asks for the password
	prefix    string   // the value is the secret only after this prefix: openssl's pass:…
	sep       byte     // the value is user<sep>secret: smbclient -U bob%…, lftp -u bob,…
	arg       int      // the secret is this argument after the command's name(s), flags not counted
	needs     string   // a word the command must hold as well: aws ssm put-parameter's SecureString
}

// toolSecrets are the commands that agents run which take a secret of
// their own: secret stores' values (gh secret set --body, aws
// secretsmanager --secret-string, az keyvault secret set --value, vault
// login's token), archives' and keys' passwords (zip -P, 7z -p,
// openssl -passout pass:, keytool -storepass, ssh-keygen -N), the
// directory, broker and database clients' (ldapsearch -w, smbclient -U
// user%…, mosquitto_pub -P, cqlsh -p, beeline -p, influx -password,
// sqlplus user/…@db) and users' passwords (rabbitmqctl add_user, net
// user, htpasswd -b).
var toolSecrets = []toolSecret{
	{commands: []string{"gh secret"}, flags: []string{"-b", "--body"}, glued: true},
	{commands: []string{"aws secretsmanager"}, flags: []string{"--secret-string"}},
	{commands: []string{"aws ssm"}, flags: []string{"--value"}, needs: "SecureString"},
	{commands: []string{"az keyvault"}, flags: []string{"--value"}},
	{commands: []string{"az login"}, flags: []string{"-p", "--password"}},
	{commands: []string{"influx"}, flags: []string{"-t", "--token"}},
	{commands: []string{"vault login"}, arg: 1},
	{commands: []string{"consul acl", "nomad acl"}, flags: []string{"-secret", "--secret"}},
	{commands: []string{"openssl"}, flags: []string{"-passout", "-passin", "-pass", "-password"}, prefix: "pass:"},
	{commands: []string{"openssl"}, flags: []string{"-k"}},
	{commands: []string{"zip", "unzip"}, flags: []string{"-P", "--password"}},
	{commands: []string{"7z", "7za", "7zz", "7zr"}, flags: []string{"-p"}, glued: true, onlyGlued: true},
	{commands: []string{"keytool", "jarsigner"}, flags: []string{"-storepass", "-keypass", "-srcstorepass", "-deststorepass", "-srckeypass", "-destkeypass", "-new"}},
	// getopt's and popt's tools take a short flag's value glued too
	// (ldapsearch -wS3cret, smbclient -Ubob%S3cret).
	{commands: []string{"ssh-keygen"}, flags: []string{"-N", "-P"}, glued: true},
	{commands: []string{"ldapsearch", "ldapadd", "ldapmodify", "ldapdelete", "ldapwhoami", "ldapcompare", "ldapmodrdn", "ldapexop", "ldappasswd"}, flags: []string{"-w"}, glued: true},
	{commands: []string{"ldappasswd"}, flags: []string{"-s", "-a"}, glued: true},
	{commands: []string{"smbclient", "rpcclient", "smbcacls", "smbget"}, flags: []string{"-U", "--user"}, sep: '%', glued: true},
	{commands: []string{"smbmap"}, flags: []string{"-p", "--password"}},
	{commands: []string{"lftp"}, flags: []string{"-u"}, sep: ','},
	{commands: []string{"mosquitto_pub", "mosquitto_sub", "mosquitto_rr"}, flags: []string{"-P", "--pw"}},
	{commands: []string{"cqlsh"}, flags: []string{"-p", "--password"}, glued: true},
	{commands: []string{"beeline", "ncftp", "ncftpget", "ncftpput", "ncftpls"}, flags: []string{"-p", "--password"}},
	{commands: []string{"influx"}, flags: []string{"-password"}},
	{commands: []string{"rabbitmqctl add_user", "rabbitmqctl change_password", "rabbitmqctl authenticate_user"}, arg: 2},
	{commands: []string{"net user"}, arg: 2},
	{commands: []string{"sqlplus", "expdp", "impdp", "sqlldr"}, arg: 1, sep: '/'},
}

// toolSecretCommands are the names of toolSecrets' commands, and those
// toolAssignments reads otherwise.
func toolSecretCommands() []string {
	out := []string{"htpasswd", "setx", "npm", "yarn", "pnpm"}
	for _, t := range toolSecrets {
		for _, c := range t.commands {
			first, _, _ := strings.Cut(c, " ")
			out = append(out, first)
		}
	}
	return out
}

// toolAssignments are the secrets that the command whose words are words,
// called key (lower-case), takes by toolSecrets and htpasswd's -b.
func toolAssignments(s string, words []shellWord, key string, argv, execForm bool) []assignment {
	var out []assignment
	for _, t := range toolSecrets {
		sub, ok := commandOf(s, words, key, t.commands)
		if !ok || t.needs != "" && !slices.ContainsFunc(words, func(w shellWord) bool {
			return strings.TrimPrefix(s[w.in:w.out], "--type=") == t.needs
		}) {
			continue
		}
		if t.arg > 0 {
			if argv && !execForm {
				continue // a list of words that names a command first need be none: ["exp", "runs/exp42"]
			}
			if w, ok := argument(s, words, 1+sub, t.arg); ok && wholeWord(w) {
				switch v := strings.ToLower(s[w.in:w.out]); {
				case strings.HasPrefix(v, "token=") && t.sep == 0:
					w.in += len("token=") // vault login token=…
				case strings.HasPrefix(v, "userid=") && t.sep == '/':
					w.in += len("userid=") // sqlldr userid=scott/…
				case strings.IndexByte(v, '=') >= 0:
					continue // vault login -method=userpass username=bob
				}
				out = appendSecret(out, s, t, w.in, w.out, key)
			}
			continue
		}
		for i := 1 + sub; i < len(words); i++ {
			w := words[i]
			text := s[w.start:w.end]
			for _, f := range t.flags {
				switch {
				case text == f && i+1 < len(words) && s[words[i+1].start] != '-' && !t.onlyGlued && wholeWord(words[i+1]):
					out = appendSecret(out, s, t, words[i+1].in, words[i+1].out, f)
				case strings.HasPrefix(text, f+"=") && (len(f) > 2 || t.glued) && len(text) > len(f)+1:
					vs, ve := unquoted(s, w.start+len(f)+1, w.end) // --body=…; --body= alone has none
					out = appendSecret(out, s, t, vs, ve, f)
				case t.glued && len(f) == 2 && len(text) > 2 && strings.HasPrefix(text, f) && text[2] != '=':
					vs, ve := unquoted(s, w.start+2, w.end) // -p…
					out = appendSecret(out, s, t, vs, ve, f)
				}
			}
		}
	}
	switch {
	case argv && !execForm:
	case key == "htpasswd":
		out = append(out, htpasswdSecret(s, words)...)
	case key == "setx":
		// Windows' setx NAME VALUE, judged by the name as NAME=VALUE is
		out = append(out, namedArgument(s, words, 1, 1, "")...)
	case key == "npm" || key == "yarn" || key == "pnpm":
		if sub, ok := commandOf(s, words, key, []string{key + " config"}); ok {
			// npm config set //registry.npmjs.org/:_authToken VALUE
			out = append(out, namedArgument(s, words, 1+sub, 2, ":")...)
		}
	}
	return out
}

// namedArgument is the secret that the argument after the name-th
// argument from words[from] on is, when that one names a credential (its
// part after the last cut, when cut is given).
func namedArgument(s string, words []shellWord, from, name int, cut string) []assignment {
	n, ok := argument(s, words, from, name)
	if !ok {
		return nil
	}
	v, ok := argument(s, words, from, name+1)
	if !ok {
		return nil
	}
	key := s[n.in:n.out]
	if cut != "" {
		key = key[strings.LastIndex(key, cut)+1:]
	}
	k := fieldKind(key)
	if k == notSecret || v.out <= v.in || !wholeWord(v) || !quotedValue(s, v.in, v.out) && !toolValue(s[v.in:v.out]) || !secretValueOf(k, s[v.in:v.out]) {
		return nil
	}
	return []assignment{{name: key, kind: k, start: v.in, end: v.out, form: formWord}}
}

// unquoted is s[vs:ve], not empty, without the quotes round it when it
// is quoted whole: -p'…', --body="…".
func unquoted(s string, vs, ve int) (int, int) {
	if q := s[vs]; (q == '"' || q == '\'') && ve-vs >= 2 && s[ve-1] == q {
		return vs + 1, ve - 1
	}
	return vs, ve
}

// appendSecret adds the secret of t in s[vs:ve], given by the flag or
// command name: after t's prefix or separator when it has one.
func appendSecret(out []assignment, s string, t toolSecret, vs, ve int, name string) []assignment {
	if t.prefix != "" {
		if !strings.HasPrefix(s[vs:ve], t.prefix) {
			return out // openssl's env:VAR, file:path, stdin
		}
		vs += len(t.prefix)
	}
	if t.sep != 0 {
		k := strings.IndexByte(s[vs:ve], t.sep)
		if k <= 0 || t.sep == '/' && strings.IndexByte(s[vs:vs+k], '@') >= 0 {
			return out // sqlplus bob@//db:1521/x asks for the password; smbclient -U %USERNAME%
		}
		vs += k + 1
		if t.sep == '/' {
			if at := strings.IndexByte(s[vs:ve], '@'); at >= 0 {
				ve = vs + at // sqlplus user/…@db
			}
		}
		if strings.IndexByte(s[vs:ve], t.sep) >= 0 || t.sep == '/' && vs < ve && s[vs] == '&' {
			// -U DOMAIN\%USERNAME%, user%%PW%%: cmd's variables;
			// sqlplus scott/&pw: SQL*Plus's substitution variable
			return out
		}
	}
	if ve <= vs || !quotedValue(s, vs, ve) && !toolValue(s[vs:ve]) {
		return out
	}
	// The value is the secret whole, its mark too (zip -P @pw_2024_prod):
	// judged as a password glued to mysql's -p is.
	glued := strings.IndexByte("@&%!", s[vs]) >= 0
	return append(out, assignment{name: name, kind: passwordName, start: vs, end: ve, form: formFlag, glued: glued})
}

// wholeWord: w is unquoted, or quoted whole: not a word partly quoted
// (os.environ['PW']), which is code, not a literal.
func wholeWord(w shellWord) bool {
	return !w.quoted || w.in == w.start+1 && w.out == w.end-1 || w.in == w.start && w.out == w.end
}

// toolValue: v, given to a tool's secret flag or argument, can be a
// literal secret: not a path in the home directory (~/.pgpass), a glob
// or a default's mark (*default), code (os.environ['PW'], f(x)) or a
// path through cmd's variables (%APPDATA%\pw.txt).
func toolValue(v string) bool {
	return v != "" && !strings.HasPrefix(v, "~/") && v[0] != '*' && !strings.ContainsAny(v, "[]()") &&
		!(strings.Contains(v, "%") && strings.ContainsAny(v, `\/`))
}

// quotedValue: s[vs:ve] stands between quotes of one kind, a literal
// whatever it holds ('My(Secret)1', "*Star1Pw").
func quotedValue(s string, vs, ve int) bool {
	return vs > 0 && ve < len(s) && ve > vs && (s[vs-1] == '\'' || s[vs-1] == '"') && s[ve] == s[vs-1]
}

// argument is the n-th argument of words from words[from] on, flags
// and the values of flags of one letter not counted.
func argument(s string, words []shellWord, from, n int) (shellWord, bool) {
	for i := from; i < len(words); i++ {
		t := s[words[i].start:words[i].end]
		if len(t) > 1 && t[0] == '-' || len(t) > 1 && t[0] == '/' && !strings.ContainsRune(t[1:], '/') {
			continue // -x, --flag, Windows' /add
		}
		if n--; n == 0 {
			return words[i], true
		}
	}
	return shellWord{}, false
}

// htpasswdSecret is the password htpasswd takes as its last argument
// with -b (htpasswd -b FILE USER PASSWORD, htpasswd -nb USER PASSWORD).
func htpasswdSecret(s string, words []shellWord) []assignment {
	batch := false
	var args []shellWord
	for _, w := range words[1:] {
		t := s[w.start:w.end]
		if len(t) > 1 && t[0] == '-' && t[1] != '-' {
			batch = batch || strings.IndexByte(t, 'b') > 0
			continue
		}
		args = append(args, w)
	}
	if !batch || len(args) < 2 {
		return nil
	}
	w := args[len(args)-1]
	if w.out <= w.in || !wholeWord(w) || !quotedValue(s, w.in, w.out) && !toolValue(s[w.in:w.out]) {
		return nil // htpasswd -nbB admin os.environ['PW'], ~/.pw, *default
	}
	return []assignment{{name: "htpasswd -b", kind: passwordName, start: w.in, end: w.out, form: formWord}}
}

// toolFlagTrigger: rest, what follows a "-" after a blank, may begin one
// of toolSecrets' flags (the shell reader reads a command only where a
// trigger says it may hold a secret).
func toolFlagTrigger(rest string) bool {
	for _, f := range toolFlags() {
		if strings.HasPrefix(rest, f) && (len(rest) == len(f) || !isWordByte(rest[len(f)]) || len(f) == 1) {
			return true
		}
	}
	return false
}

// toolFlags are toolSecrets' flags without their first "-", and
// htpasswd's -b and -nb.
var toolFlags = sync.OnceValue(func() []string {
	out := []string{"b", "n", "B", "c", "S"} // htpasswd's -b, -nb, -Bb, -cb; sudo -S
	for _, t := range toolSecrets {
		for _, f := range t.flags {
			if f := f[1:]; !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
})

// runFlagValues are docker run's (and podman's) flags that take a value
// as the next word; its other flags take none.
var runFlagValues = []string{"-e", "--env", "-u", "--user", "-w", "--workdir", "--env-file", "-v", "--volume",
	"-p", "--publish", "--name", "--network", "--net", "-l", "--label", "--mount", "--entrypoint", "--platform",
	"-m", "--memory", "--cpus", "-h", "--hostname", "--add-host", "--dns", "--cap-add", "--cap-drop", "--device",
	"--restart", "--log-driver", "--log-opt", "--pull", "--ulimit", "--shm-size", "--tmpfs", "--group-add",
	"--security-opt", "--ipc", "--pid", "--runtime", "--gpus", "--expose", "--link", "--volumes-from", "--cidfile",
	"--stop-timeout", "--stop-signal", "--ip", "--ip6", "--mac-address", "--memory-swap", "--memory-reservation",
	"-c", "--cpu-shares", "--cpuset-cpus", "--cpuset-mems", "--pids-limit", "--storage-opt", "--sysctl", "--userns",
	"--uts", "--volume-driver", "--network-alias", "--label-file", "-a", "--attach", "--cgroup-parent", "--dns-search",
	"--dns-option", "--domainname", "--health-cmd", "--health-interval", "--health-retries", "--health-timeout",
	"--health-start-period", "--isolation", "--oom-score-adj", "--blkio-weight", "--device-cgroup-rule"}

// runCommand is where the command that docker run starts in its
// container begins in words: after the flags from words[from] on and
// the image; 0 when there is none.
func runCommand(s string, words []shellWord, from int) int {
	for i := from; i < len(words); i++ {
		t := s[words[i].start:words[i].end]
		switch {
		case !strings.HasPrefix(t, "-"):
			if i+1 < len(words) {
				return i + 1 // the image, then its command
			}
			return 0
		case !strings.Contains(t, "=") && slices.Contains(runFlagValues, t):
			i++
		}
	}
	return 0
}

// flagWords are words with each flag written in quotes whole ("-p…",
// '--password=…') read as its text inside them, as the shell passes it.
func flagWords(s string, words []shellWord) []shellWord {
	var out []shellWord
	for i, w := range words {
		if w.quoted && w.in == w.start+1 && w.out == w.end-1 && w.out-w.in >= 2 && s[w.in] == '-' {
			if out == nil {
				out = slices.Clone(words)
			}
			out[i].start, out[i].end, out[i].quoted = w.in, w.out, false
		}
	}
	if out == nil {
		return words
	}
	return out
}
