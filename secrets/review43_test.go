package secrets

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// review43Secrets are the third review's (session 28) secrets that the
// second round's rules let through: SQL statements written over lines,
// past a client's continuation prompt, with comments, for a second
// account, with Postgres's VALID UNTIL or IN ROLE, Oracle's GRANT
// CONNECT TO; a password that starts with "@", "&" or "%" as a variable
// would, in SQL, a command and a JSON field; sqlcmd's -P; Redis's CONFIG
// SET requirepass and ACL SETUSER; ssh HOST sudo CMD. <K> is a generated
// password.
func review43Secrets() []struct{ name, text string } {
	return []struct{ name, text string }{
		// A statement over lines.
		{"sql-newline", "CREATE USER 'bob'@'localhost'\n  IDENTIFIED BY '<K>';"},
		{"sql-crlf", "CREATE USER 'bob'@'localhost'\r\n  IDENTIFIED BY '<K>';"},
		{"sql-mysql-continuation", "mysql> CREATE USER 'bob'@'localhost'\n    -> IDENTIFIED BY '<K>';"},
		{"sql-psql-continuation", "postgres=# CREATE ROLE app\npostgres-# LOGIN PASSWORD '<K>';"},
		{"sql-python-triple-quoted", "cur.execute(\"\"\"\n    CREATE USER app\n    IDENTIFIED BY '<K>'\n\"\"\")"},
		{"sql-json-escaped-newline", `{"sql":"CREATE USER 'u'@'%'\nIDENTIFIED BY '<K>';"}`},
		{"sql-json-escaped-newline-bare-name", `{"sql":"CREATE USER app\nIDENTIFIED BY '<K>';"}`},
		{"sql-sqlplus-line-numbers", "SQL> CREATE USER app\n  2  IDENTIFIED BY \"<K>\";"},
		{"sql-lowercase-lines", "create user app\n\tidentified by '<K>';"},
		// Comments inside the statement.
		{"sql-block-comment", "CREATE USER bob /* service */ IDENTIFIED BY '<K>';"},
		{"sql-line-comment", "CREATE USER bob -- service account\nIDENTIFIED BY '<K>';"},
		{"sql-hash-comment", "CREATE USER bob\n# the service account\nIDENTIFIED BY '<K>';"},
		// A statement commented out is a secret still; a comment's ": "
		// is no prose's.
		{"sql-hash-commented-out", "#!/bin/sh\n# CREATE USER app IDENTIFIED BY '<K>';"},
		{"sql-dash-commented-out", "SELECT 1;\n-- CREATE USER app IDENTIFIED BY '<K>';"},
		{"sql-block-commented-out", "x\n/* CREATE USER app IDENTIFIED BY '<K>'; */"},
		{"sql-comment-colon", "CREATE USER app /* owner: ops */ IDENTIFIED BY '<K>';"},
		// A second account, Postgres's and Oracle's forms.
		{"sql-second-account", "CREATE USER 'a'@'%' IDENTIFIED BY 'Hq3nV8cT1yB6sJ2d', 'b'@'%' IDENTIFIED BY '<K>';"},
		{"sql-valid-until", "CREATE ROLE app WITH LOGIN CREATEDB VALID UNTIL 'infinity' PASSWORD '<K>';"},
		{"sql-in-role", "CREATE ROLE app WITH LOGIN IN ROLE readers, writers PASSWORD '<K>';"},
		{"sql-oracle-grant-connect", "GRANT CONNECT, RESOURCE TO app IDENTIFIED BY <K>;"},
		// A command's "--" before the statement, and more of SQL's forms.
		{"kubectl-exec-psql", `kubectl exec -it pg-0 -- psql -c "CREATE ROLE app LOGIN PASSWORD '<K>'"`},
		{"sql-postgres-escape-string", "CREATE USER app WITH ENCRYPTED PASSWORD E'<K>';"},
		{"sql-current-user", "ALTER USER CURRENT_USER() IDENTIFIED BY '<K>';"},
		{"sql-or-replace", "CREATE OR REPLACE USER app@localhost IDENTIFIED BY '<K>';"},
		{"sql-mariadb-via-using", "CREATE USER app@'%' IDENTIFIED VIA mysql_native_password USING PASSWORD('<K>');"},
		// 780deb4's structure reader lost these: a list of names, a
		// statement after a bullet's "-" (a word to it) or after "run",
		// Postgres's SYSID, MySQL's PASSWORD('…') in an UPDATE.
		{"sql-name-list", "CREATE USER 'a'@'h1', 'b'@'h2' IDENTIFIED BY '<K>';"},
		{"sql-name-list-three", "CREATE USER a, b, 'c'@'%' IDENTIFIED BY '<K>';"},
		{"sql-after-bullet", "- CREATE USER app IDENTIFIED BY '<K>';"},
		{"sql-after-step-dash", "Step 2 - CREATE USER app IDENTIFIED BY '<K>';"},
		{"sql-after-run", "then run CREATE USER app IDENTIFIED BY '<K>';"},
		{"sql-after-run-prose", "Run CREATE USER app IDENTIFIED BY '<K>' on the primary."},
		{"sql-sysid", "CREATE USER app SYSID 100 PASSWORD '<K>';"},
		{"sql-update-password-function", "UPDATE mysql.user SET authentication_string = PASSWORD('<K>') WHERE User = 'root';"},
		// Passwords that start as a variable would.
		{"sql-at", "CREATE USER 'app'@'%' IDENTIFIED BY '@<K>';"},
		{"sql-amp", "CREATE USER 'app'@'%' IDENTIFIED BY '&<K>';"},
		{"sql-percent-pair", "CREATE USER 'app'@'%' IDENTIFIED BY '%<K>%';"},
		{"sql-braces-digits", "ALTER USER app IDENTIFIED BY '{12345678}';"},
		{"mysql-at", "mysql -uroot -p@<K> db"},
		{"json-at", `{"password": "@<K>"}`},
		{"json-amp", `{"password": "&<K>"}`},
		{"json-percent-pair", `{"password": "%<K>%"}`},
		{"json-at-words-and-year", `{"db_password": "@Summer2024x"}`},
		{"env-at", "export DB_PASSWORD='@<K>'"},
		{"name-value-at", "password=@<K>"},
		// A password with a parenthesis, beside a query's call.
		{"password-parenthesis", "password=Xk9m(<K>"},
		{"password-parenthesis-quoted", `$password = "Xk9m(<K>";`},
		// Percent-encoded beside Windows' variables.
		{"batch-set-literal", "set PGPASSWORD=<K>\npsql -h db -U app"},
		{"query-utf8-encoded", "https://x/login?user=bob&password=%C3%A9<K>"},
		{"query-encoded-twice", "https://x/cb?next=%2Fapp%3Fpassword%253D<K>"},
		// A backslash before a password's own "$" (3b6cd29 read any \$NAME
		// as a variable another shell fills in).
		{"bash-c-escaped-dollar-literal", `bash -c "mysql -uroot -p\$<K> db"`},
		{"json-escaped-dollar-literal", `{"cmd": "mysql -uroot -p\\$<K>"}`},
		{"percent-escaped-dollar-literal", "mysql -uroot -p%5C%24<K>"},
		// Private keys, whose body reads to the next "-----" at most.
		{"pgp-key-comment-dash", "-----BEGIN PGP PRIVATE KEY BLOCK-----\nComment: GPGTools - https://gpgtools.org\n\nlQOYBF<K><K>\n=Zq7x\n-----END PGP PRIVATE KEY BLOCK-----\n"},
		{"rsa-key-encrypted", "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0123456789ABCDEF\n\nMIIEow<K><K>\n-----END RSA PRIVATE KEY-----\n"},
		{"key-after-begin-lines", strings.Repeat("-----BEGIN PRIVATE KEY-----\n", 3) + "MIIEvQ<K><K>\n-----END PRIVATE KEY-----\n"},
		// An INI line at a JSON string's start, as after its \n.
		{"json-string-ini-api-key", `{"content":"api_key = <K>"}`},
		{"json-string-ini-db-password", `{"content":"db_password = <K>"}`},
		{"json-in-json-string-ini", `{"args":"{\"note\":\"api_key = <K>\"}"}`},
		{"json-array-string-ini", `{"lines":["[db]", "password = <K>"]}`},
		{"password-then-prose", "The new password = <K> is set for the app."},
		// Commands.
		{"sqlcmd", `sqlcmd -S db -U sa -P <K> -Q "select 1"`},
		{"sqlcmd-glued", `sqlcmd -S db -U sa -P<K> -Q "select 1"`},
		{"osql", "osql -S db -U sa -P <K> -i setup.sql"},
		{"redis-cli-config-set", "redis-cli CONFIG SET requirepass <K>"},
		{"redis-prompt-config-set", "127.0.0.1:6379> CONFIG SET requirepass <K>"},
		{"redis-prompt-masterauth", "127.0.0.1:6379> config set masterauth <K>"},
		{"redis-prompt-acl-setuser", "127.0.0.1:6379> ACL SETUSER app on >Hq3nV8cT1yB6sJ2d ><K> ~* +@all"},
		{"redis-cli-acl-setuser", "redis-cli -h cache ACL SETUSER app on ><K> ~app:* +@read"},
		{"ssh-sudo", "ssh db sudo mysql -uroot -p<K> db"},
		{"ssh-sudo-user", "ssh db sudo -u mysql mysql -uroot -p<K> db"},
		{"docker-exec-env", "docker exec db env MYSQL_HOST=x mysql -uroot -p<K> db"},
	}
}

// review43Benign are texts of the same shapes that must stay whole.
func review43Benign() []struct{ name, text string } {
	return []struct{ name, text string }{
		{"mysql-docs-continuation-example", "mysql> CREATE USER 'jeffrey'@'localhost'\n    -> IDENTIFIED BY 'password';"},
		{"psql-variable", "postgres=# CREATE ROLE app\npostgres-# LOGIN PASSWORD :'app_pw';"},
		{"sql-comment-shell-reference", "CREATE USER app\n/* rotated by the job */\nIDENTIFIED BY '${NEW_PW}';"},
		{"sql-random-password-lines", "mysql> CREATE USER 'app'@'%'\n    -> IDENTIFIED BY RANDOM PASSWORD;"},
		{"sql-example-lines", "-- Example 3\nCREATE USER app\n  IDENTIFIED BY 'new_password'\n  PASSWORD EXPIRE INTERVAL 90 DAY;"},
		{"markdown-heading-prose", "## CREATE USER\n\nCreates a user. The account is identified by 'user_name'@'host_name'."},
		{"prose-grant-lines", "# Grant roles\ngrant connect, resource to the new hires\nidentified by 'HR-2024-0042'"},
		{"quote-across-lines", "She said: \"don't\nCREATE USER 'bob' here\""},
		{"prose-alter-user-lines", "The ALTER USER statement\nidentified by 'clause-2024-x1' above is deprecated."},
		{"sql-table-lines", "CREATE TABLE users (\n  id serial primary key,\n  password text not null default 'Xk9mQ2vR7tL4pW8z_hash'\n);"},
		{"tsql-variable-digit", "DECLARE @pw1 NVARCHAR(50) = N'x';\nALTER LOGIN app WITH PASSWORD = @pw1;"},
		{"tsql-sp-addlogin", "EXEC sp_addlogin @loginame = 'app', @passwd = @newPassword2;"},
		{"mysql-file-argument", "mysql -uroot -p@db_root_pw.txt"},
		{"json-variables", `{"old_password": "&current", "new_password": "%NEW_PW%"}`},
		{"csharp-fields", "ALTER USER app IDENTIFIED BY '{0}'; ALTER USER ops IDENTIFIED BY '{12}';"},
		{"jinja", "CREATE USER app IDENTIFIED BY '{{ vault_db_pw }}';"},
		{"oracle-hash-values", "CREATE USER app IDENTIFIED BY VALUES 'S:Zq7xZ8mR3pY9wB7tZq7xZ8mR3pY9wB7t';"},
		{"mariadb-using-hash", "CREATE USER app@'%' IDENTIFIED VIA mysql_native_password USING '*6C8989366EAF75BB670AD8EA7A7FC1176A95CEF4';"},
		{"mariadb-docs-example", "CREATE USER app@'%' IDENTIFIED VIA ed25519 USING PASSWORD('secret');"},
		{"sql-comment-words-in-query", "SELECT id -- the user's id\nFROM users WHERE password = crypt($1, password);"},
		{"sql-update-crypt-param", "UPDATE users SET password = crypt($2, gen_salt('bf')) WHERE id = $1;"},
		{"sql-where-md5-param", "SELECT id FROM users WHERE password = md5($1)"},
		{"sql-where-sha2-question", "SELECT * FROM users WHERE password = sha2(?, 256)"},
		{"sql-where-named-param", "SELECT id FROM users WHERE password = crypt(:pw, password)"},
		{"prose-ran-create-user", "We ran the create user script identified by 'job-2024-0042' in CI."},
		{"prose-password-function-docs", "Run SELECT PASSWORD('mypass'); to see the hash, or PASSWORD(@pw) in a procedure."},
		{"bash-c-escaped-variable-digit", `bash -c "mysql -uroot -p\$DB_PW2 db"`},
		{"prose-create-user-colon-lines", "Create user:\nthe account identified by 'emp-2024-0042-nyc' is new."},
		{"prose-quoted-period", "The note 'Mr. Smith' is identified by 'note-2024-0042-x' in the CRM."},
		{"ini-prose-password-word", "password = the one you chose at signup"},
		{"json-string-prose-password-word", `{"content":"password = the one you chose at signup"}`},
		{"json-string-ini-code", `{"doc":"secret = os.environ[\"SECRET\"]", "q":"api_key = None", "code":"token = get_token()"}`},
		{"json-string-ini-masked", `{"content":"password = ********", "hint":"password = <your password>"}`},
		{"json-strings-key-value-words", `{"messages":["key = value pairs are read as strings", "token = a word of the text"]}`},
		{"sqlcmd-trusted", `sqlcmd -S localhost -E -Q "SELECT @@VERSION"`},
		{"redis-config-empty", `redis-cli CONFIG SET requirepass ""`},
		{"redis-config-variable", `127.0.0.1:6379> CONFIG SET requirepass "$REDIS_PASSWORD"`},
		{"redis-acl-docs-example", "127.0.0.1:6379> ACL SETUSER alice on >p1pp0 ~cached:* +get"},
		{"redis-acl-nopass", "127.0.0.1:6379> ACL SETUSER app on nopass ~* +@all"},
		{"redis-acl-variable", "redis-cli ACL SETUSER app on >${REDIS_APP_PW} ~app:* +@read"},
		{"redis-prose", "The requirepass directive sets the password; masterauth sets the replica's."},
		{"ssh-sudo-other", "ssh web sudo systemctl restart nginx && ssh web sudo -u deploy git pull"},
		{"batch-variable-hex-start", "set PGPASSWORD=%DB_PASSWORD%\npsql -h db -U app"},
		{"batch-variable-hex-start-2", "password=%ADMIN_PW%"},
		{"curl-form-batch-variable", "curl -d user=admin -d password=%DEPLOY_PASS% https://x/login"},
		{"ssh-sudo-variable", `ssh db sudo mysql -uroot -p"$MYSQL_ROOT_PASSWORD" -e 'show databases'`},
	}
}

func TestReview43SecretsRemoved(t *testing.T) {
	var cases []reviewSecret
	for _, tc := range review43Secrets() {
		secret := ""     // the password <K> stands for
		switch tc.name { // the literals the text writes
		case "sql-braces-digits":
			secret = "12345678"
		case "json-at-words-and-year":
			secret = "Summer2024x"
		}
		cases = append(cases, reviewSecret{tc.name, tc.text, secret})
	}
	checkGoes(t, cases)
}

func TestReview43BenignStay(t *testing.T) {
	checkStays(t, review43Benign())
}

// checkFinds: Check finds a secret in a cassette whose response body is
// text.
func checkFinds(t *testing.T, text string) bool {
	it := secretInteraction()
	inResponse("text/plain", text)(it)
	path, _ := writeCassette(t, it)
	found, err := Check(path, Rules{})
	if err != nil {
		t.Fatal(err)
	}
	return len(found) > 0
}

// TestWindowsVariablesDecodeInOnePass: a run of Windows variables is read
// pair by pair, each closing "%" no escape's start, so that no pass leaves
// one more escape for the next: the text is the same decoded, where
// taking %DB_PW% without its closing "%" left the last "%DB_PW" to decode,
// one a pass, each pass reading the whole text again (64 KiB took 11 s).
func TestWindowsVariablesDecodeInOnePass(t *testing.T) {
	for _, s := range []string{
		"password=" + strings.Repeat("%DB_PW", 4),
		"set PGPASSWORD=%DB_PASSWORD%DB_PASSWORD%",
		strings.Repeat("%ADMIN_PW%", 3),
	} {
		if dec, _ := percentDecode(s); dec != s {
			t.Errorf("%q decoded to %q", s, dec)
		}
	}
	if dec, _ := percentDecode("password=%DB_PW%DB_PW%DB_PW"); dec != "password=%DB_PW%DB_PW\xdb_PW" {
		t.Errorf("the unpaired last %%DB_PW: %q", dec)
	}
}

// TestPercentDecodeEveryLevelAtOnce: a text encoded many times is decoded
// whole by one call, each escape's byte placed where its "%" was written,
// so that the rules do not read the text again for each level of encoding
// (%252525…41, 32 KiB of it, took 74 s to scrub when each call decoded
// three levels and the decoded text was scanned again for the rest).
func TestPercentDecodeEveryLevelAtOnce(t *testing.T) {
	deep := "x %" + strings.Repeat("25", 5000) + "41 y"
	dec, offs := percentDecode(deep)
	if dec != "x A y" {
		t.Fatalf("%d bytes encoded 5,001 times: decoded to %d bytes %.40q…", len(deep), len(dec), dec)
	}
	if want := []int{0, 1, 2, len(deep) - 2, len(deep) - 1, len(deep)}; !slices.Equal(offs, want) {
		t.Errorf("offsets %v, want %v", offs, want)
	}
	for in, want := range map[string]string{
		"token%253Dabc": "token=abc", "%%2541": "%A", "%2%41": "*", "100%": "100%", "%zz%41": "%zzA",
	} {
		if dec, _ := percentDecode(in); dec != want {
			t.Errorf("%q decoded to %q, want %q", in, dec, want)
		}
	}
}

// levelDecode decodes s a level at a time, every escape of a pass at once,
// until a pass changes nothing: what percentDecode did, three levels a call.
func levelDecode(s string) string {
	for {
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			if s[i] == '%' && i+2 < len(s) && hexDigit(s[i+1]) && hexDigit(s[i+2]) {
				b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
				i += 2
				continue
			}
			b.WriteByte(s[i])
		}
		if b.String() == s {
			return s
		}
		s = b.String()
	}
}

// FuzzPercentDecodeMatchesLevels: the stack's one pass decodes a text as
// passes a level at a time would (a Windows variable aside, which the
// stack keeps whole), and places every byte.
func FuzzPercentDecodeMatchesLevels(f *testing.F) {
	for _, s := range []string{"%2541", "%%2541", "%2%41", "a%25%34%31b", "%252%35%341"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 64 {
			return
		}
		for i := range s {
			if windowsVariableAt(s, i) > 0 {
				return
			}
		}
		got, offs := percentDecode(s)
		if want := levelDecode(s); got != want {
			t.Errorf("%q: stack %q, levels %q", s, got, want)
		}
		if len(offs) != len(got)+1 || offs[len(got)] != len(s) {
			t.Errorf("%q: offs %v", s, offs)
		}
	})
}

// slowMarkup are texts that an XML element's reader read back to their
// start from each closing tag, or to their end from each "</", that
// percent-decoding read again for each level, and that the private key's
// regexp read to their end from each BEGIN: their time grew as the square
// of their length (256 KiB of "</password>" took 4.6 s to scrub, of BEGIN
// lines 54 s; 16 MiB would take hours).
func slowMarkup() []struct {
	name string
	make func(n int) string
} {
	return []struct {
		name string
		make func(n int) string
	}{
		{"closing-tags", func(n int) string { return strings.Repeat("</password>", n/11) }},
		{"opens-then-closes", func(n int) string {
			return strings.Repeat("<password>", n/20) + strings.Repeat("</password>", n/22)
		}},
		{"unclosed-close", func(n int) string { return strings.Repeat("</", n/2) }},
		{"percent-levels", func(n int) string { return "password=%" + strings.Repeat("25", n/2) + "41" }},
		{"windows-variables", func(n int) string { return "password=" + strings.Repeat("%DB_PASSWORD", n/12) }},
		{"private-key-begin-lines", func(n int) string { return strings.Repeat("-----BEGIN PRIVATE KEY-----\n", n/28) }},
	}
}

// BenchmarkSlowMarkup scrubs each at 1 MiB and 16 MiB (go test -run '^$'
// -bench SlowMarkup ./secrets/): the time must grow as the text does.
func BenchmarkSlowMarkup(b *testing.B) {
	x, _ := Rules{}.Redactor()
	for _, in := range slowMarkup() {
		for _, n := range []int{1 << 20, 16 << 20} {
			text := in.make(n)
			b.Run(fmt.Sprintf("%s/%dMiB", in.name, n>>20), func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					x.Text(text)
				}
			})
		}
	}
}

// TestXMLElementsAsBefore: the element reader that looks back only to the
// last "<" finds what it found: the text of an element named as a
// credential, not an element's elements, not a closing tag alone.
func TestXMLElementsAsBefore(t *testing.T) {
	for s, want := range map[string]string{
		"<r><Password>Zq7xZ8mR3pY9wB7t</Password></r>":      "Zq7xZ8mR3pY9wB7t",
		"<a:SecretKey>\n  Zq7xZ8mR3pY9wB7t\n</a:SecretKey>": "Zq7xZ8mR3pY9wB7t",
		`<Password type="x">Zq7xZ8mR3pY9wB7t</Password>`:    "Zq7xZ8mR3pY9wB7t",
		"<Password><b>Zq7x</b></Password>":                  "",
		"Zq7xZ8mR3pY9wB7t</Password>":                       "",
		"</Password></Password>":                            "",
	} {
		got := ""
		if a, ok := xmlAssignment(s, strings.Index(s, "</")); ok {
			got = s[a.start:a.end]
		}
		if got != want {
			t.Errorf("%q: %q, want %q", s, got, want)
		}
	}
}
