package secrets

import (
	"net/http"
	"strings"
	"testing"
)

// review45Secrets are the fifth review's (session 29) secrets that the
// rules kept, each with a text or two of other shapes of its kind. <K> is
// a generated password; secret, when set, is the literal the text writes.
func review45Secrets() []struct{ name, text, secret string } {
	return []struct{ name, text, secret string }{
		// A password written where a variable could stand: quoted in SQL,
		// where no variable is; or a capitalized word and digits, which no
		// variable's name is (humanPassword).
		{"sql-quoted-at", "CREATE USER app IDENTIFIED BY '@Secret1';", "Secret1"},
		{"sql-quoted-amp", "ALTER USER app IDENTIFIED BY '&Welcome1';", "Welcome1"},
		{"sql-quoted-percent-pair", "CREATE LOGIN app WITH PASSWORD = '%Welcome1%';", "Welcome1"},
		{"sql-quoted-braces", "ALTER USER app IDENTIFIED BY '{Welcome1}';", "Welcome1"},
		{"sql-quoted-at-name", "CREATE USER app IDENTIFIED BY '@pw_2024_prod';", "pw_2024_prod"},
		{"mysql-at", "mysql -uroot -p@Secret1 shop", "Secret1"},
		{"json-at-capitalized", `{"db_password": "@Winter2024"}`, "Winter2024"},
		{"json-braces", `{"password": "{Welcome1}"}`, "Welcome1"},
		{"env-percent-pair", "DB_PASSWORD=%Welcome1%", "Welcome1"},
		// A statement's words on lines of their own; Postgres's dollar
		// quotes; SQL Server's procedures.
		{"sql-identified-newline-by", "CREATE USER app IDENTIFIED\nBY '<K>';", ""},
		{"sql-identified-lines", "CREATE USER app\n  IDENTIFIED\n  BY\n  '<K>';", ""},
		{"sql-identified-prompt", "mysql> CREATE USER app IDENTIFIED\n    -> BY '<K>';", ""},
		{"sql-password-newline", "ALTER ROLE app WITH PASSWORD\n'<K>';", ""},
		{"sql-password-crlf-equals", "ALTER LOGIN app WITH PASSWORD =\r\n  N'<K>';", ""},
		{"sql-dollar-quoted", "ALTER ROLE app WITH PASSWORD $$<K>$$;", ""},
		{"sql-dollar-tag", "CREATE ROLE app LOGIN PASSWORD $pw$<K>$pw$;", ""},
		{"sp-addlogin", "EXEC sp_addlogin 'app', '<K>';", ""},
		{"sp-addlogin-capitals-n", "exec SP_ADDLOGIN N'app', N'<K>', 'shop'", ""},
		{"sp-addlogin-named", "EXEC sp_addlogin @loginame = 'app', @passwd = N'<K>', @defdb = 'shop';", ""},
		{"sp-password", "EXEC sp_password NULL, '<K>', 'app';", ""},
		{"sp-addlogin-qualified", "EXEC master.dbo.sp_addlogin 'app', '<K>';", ""},
		{"sp-addlogin-bracketed", "EXEC [dbo].[sp_addlogin] 'app', '<K>';", ""},
		// Windows' command names have no case and may end in .exe; bcp's
		// usage has three words before its flags; PowerShell's parameters.
		{"sqlcmd-capitals", `SQLCMD -S db -U sa -P <K> -Q "select 1"`, ""},
		{"sqlcmd-exe", "sqlcmd.exe -S db -U sa -P <K>", ""},
		{"sqlcmd-windows-path", `"C:\Program Files\Microsoft SQL Server\Tools\Binn\SQLCMD.EXE" -S db -U sa -P<K>`, ""},
		{"bcp", "bcp dbo.orders out orders.dat -S db -U sa -P <K> -c", ""},
		{"bcp-queryout-glued", `bcp "SELECT * FROM t" queryout t.csv -c -S db -U sa -P<K>`, ""},
		{"invoke-sqlcmd", "Invoke-Sqlcmd -ServerInstance db -Username sa -Password <K> -Query 'select 1'", ""},
		{"invoke-sqlcmd-lower-quoted", "invoke-sqlcmd -ServerInstance db -Username sa -password '<K>'", ""},
		{"invoke-sqlcmd-colon", "Invoke-Sqlcmd -ServerInstance db -Password:<K> -Query 'select 1'", ""},
		{"convertto-securestring", "$pw = ConvertTo-SecureString '<K>' -AsPlainText -Force", ""},
		{"convertto-securestring-string", `$pw = ConvertTo-SecureString -String "<K>" -AsPlainText -Force`, ""},
		// Redis's quoted arguments and its commands written bare.
		{"redis-config-quoted", `redis-cli CONFIG SET "requirepass" "<K>"`, ""},
		{"redis-config-masterauth-single-quoted", "redis-cli config set 'masterauth' '<K>'", ""},
		{"redis-config-bare", "CONFIG SET requirepass <K>", ""},
		{"redis-acl-bare", "ACL SETUSER app on ><K> ~* +@all", ""},
		{"redis-acl-bare-lower", "acl setuser app on ><K> ~* +@all", ""},
		{"redis-acl-bare-mixed", "Acl SetUser app on ><K> ~app:* +@read", ""},
		// ssh's "--", and a variable that a command's prefix sets.
		{"ssh-dashes-sudo", "ssh db -- sudo mysql -uroot -p<K> shop", ""},
		{"ssh-sudo-env-variable", "ssh db sudo MYSQL_PWD=<K> mysql -uroot", ""},
		{"docker-exec-env-variable", "docker exec db env MYSQL_PWD=<K> mysql -uroot", ""},
		{"ssh-quoted-env-variable", "ssh cache 'REDIS_AUTH=<K> redis-cli ping'", ""},
		{"ssh-dashes-quoted", `ssh db -- "sudo mysql -uroot -p<K>"`, ""},
		{"isql", "isql -S db -U sa -P <K>", ""},
		{"json-string-tab-yaml", `{"content":"\tpassword: <K>"}`, ""},
		// A command in a query's value, its blanks encoded: the check read
		// the query's values, the scrub only the run they stand in.
		{"query-command-plus", "https://x/run?q=mysql+-uroot+-p<K>+shop", ""},
		{"query-command-between", "https://x/run?a=1&q=redis-cli+-a+<K>+ping&b=2", ""},
		{"query-command-percent", "https://x/run?q=mysql%20-uroot%20-p<K>%20shop", ""},
		{"query-command-at", "https://x/run?q=mysql+-uroot+-p%40Secret1+shop", "Secret1"},
		{"query-cmdlet", "https://x/run?cmd=Invoke-Sqlcmd+-Password+<K>", ""},
		{"query-acl", "https://x/run?q=ACL+SETUSER+app+on+%3E<K>+~%2A", ""},
		{"query-passphrase", "https://x/run?q=db_password+%3D+correct+horse+battery+staple", "horse battery staple"},
		// An INI line at a JSON string's start after escaped whitespace.
		{"json-string-tab-ini", `{"content":"\tpassword = <K>"}`, ""},
		{"json-string-tabs-ini", `{"content":"\t\tapi_key = <K>"}`, ""},
		{"json-string-blanks-ini", `{"content":"  db_password = <K>"}`, ""},
		{"json-array-crlf-ini", `["\r\npassword = <K>"]`, ""},
		// A passphrase: words with no function word, ending the line.
		{"ini-passphrase", "db_password = correct horse battery staple", "horse battery staple"},
		{"ini-passphrase-bare-name", "[db]\nhost = db\npassword = plum orbit velvet canyon ladder\nport = 5432", "orbit velvet canyon"},
		{"env-passphrase", "DB_PASSWORD=correct horse battery staple", "horse battery staple"},
		{"yaml-passphrase", "db_password: correct horse battery staple", "horse battery staple"},
		{"json-string-passphrase", `{"content":"passphrase = Correct Horse Battery Staple"}`, "Horse Battery Staple"},
		// Code's lines with a generated value, indented or in a diff.
		{"indented-generated", "def connect():\n    password = <K>\n    return db(password)", ""},
		{"diff-generated", "@@ -1 +1 @@\n-    password = <K>\n+    password = os.environ['PW']", ""},
		// A private key's body, however short its first line.
		{"private-key-short-body", "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n", "MIIEow"},
		{"private-key-blanks", "-----BEGIN PRIVATE KEY----- MIIEvQ<K><K> -----END PRIVATE KEY-----", ""},
	}
}

// review45Benign are texts of the same shapes that stay byte-identical.
func review45Benign() []struct{ name, text string } {
	return []struct{ name, text string }{
		// Variables of cmd (Windows batch files) and TeamCity.
		{"batch-argument", "set PASSWORD=%1"},
		{"batch-argument-modifier", "mysql -uroot -p%~1 shop"},
		{"batch-argument-quoted", `set "DB_PASSWORD=%~2"`},
		{"batch-for-variable", "for %%i in (a b) do set PASSWORD=%%i"},
		{"batch-for-variable-modifier", "set PASSWORD=%%~fi"},
		{"batch-delayed", "set PASSWORD=!DB_PASS!"},
		{"batch-substring", "set PASSWORD=%DB_PASSWORD:~0,8%"},
		{"batch-substring-conn", `psql "password=%PGPASS:~0,8% host=db"`},
		{"teamcity-parameter", "password=%env.DB_PASSWORD%"},
		{"teamcity-parameter-yaml", "password: %env.DB_PASSWORD%"},
		{"batch-hex-name", "password=%DEADBEEF%"},
		// Variables and format fields that name a variable.
		{"tsql-variable-camel", "ALTER LOGIN app WITH PASSWORD = @newPassword2;"},
		{"tsql-variable-capitalized", "ALTER LOGIN app WITH PASSWORD = @Password1;\nEXEC sp_addlogin @loginame = 'app', @passwd = @Secret1;"},
		{"oracle-substitution-digit", "ALTER USER app IDENTIFIED BY &pw1;"},
		{"oracle-substitution-capitalized", "ALTER USER app IDENTIFIED BY &Welcome1;\nALTER USER ops IDENTIFIED BY &&Secret1;"},
		{"format-field", `cur.execute(f"ALTER USER app IDENTIFIED BY '{new_pw}'")`},
		// A call of a call; an entity; a mask.
		{"sql-nested-call", "UPDATE users SET password = encode(digest(pw, 'sha256'), 'hex') WHERE id = 1;"},
		{"ini-nested-call", "password = crypt(lower(pw), gen_salt('bf'))"},
		{"json-nested-call", `{"password": "hash(salt(pw))"}`},
		{"xml-entity", "<password>&password;</password>"},
		{"xml-entity-numeric", "<Password>&#38;</Password><Secret>&amp;</Secret>"},
		{"mask-parens", "password = (none)"},
		{"mask-brackets", "password: [hidden]"},
		{"mask-words", "PASSWORD=(not set)"},
		{"mask-angle", "api_key = <redacted>"},
		{"mask-stars", "password = ****"},
		{"json-masks", `{"password": "(none)", "api_key": "[hidden]", "token": "{redacted}"}`},
		{"json-mask-stars", `{"password": "***hidden***", "secret": "••• masked •••"}`},
		// SQL's lines, dollar quotes and procedures without a literal.
		{"sql-identified-lines-variable", "CREATE USER app\n  IDENTIFIED BY\n  :'app_pw';"},
		{"sql-dollar-function", "CREATE FUNCTION f() RETURNS text AS $$ SELECT 'x' $$ LANGUAGE sql;"},
		{"sql-password-parameter", "ALTER ROLE app WITH PASSWORD $1;"},
		{"sp-addlogin-variable", "EXEC sp_addlogin 'app', @pw;\nEXEC sp_addlogin @loginame = 'app', @passwd = @newPassword2;"},
		{"sp-addlogin-docs", "EXEC sp_addlogin 'app', 'password';"},
		{"sp-addlogin-prose", "The sp_addlogin procedure is deprecated; use CREATE LOGIN instead."},
		{"batch-set-prompt", "set /p PASSWORD=Enter password: \nset /P DB_PASSWORD=Password: "},
		{"xml-escaped-placeholder", "<password>&lt;your password&gt;</password>"},
		{"diff-json-escaped", `{"output":"@@ -1,2 +1,2 @@\n-    password = user.password\n+    password = user.new_password\n     api_key = settings.API_KEY"}`},
		{"batch-json-escaped", `{"cmd":"set PASSWORD=%1\r\nfor %%i in (*.txt) do set PASSWORD=%%i\r\necho %PASSWORD:~0,4%****"}`},
		{"diff-keyword-argument", "@@ -5 +5 @@\n-        api_key=os.environ['KEY'],\n+        api_key=settings.api_key,"},
		{"query-prose-flag", "https://x/search?q=how+to+use+the+mysql+-p+flag&page=2"},
		{"query-batch-argument", "https://x/run?q=set+PASSWORD%3D%251&page=2"},
		{"pem-elided-json", `{"pem":"-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----"}`},
		// Commands without a literal password.
		{"invoke-sqlcmd-variable", "Invoke-Sqlcmd -ServerInstance db -Username sa -Password $env:SQL_PW -Query 'select 1'"},
		{"invoke-sqlcmd-call", "Invoke-Sqlcmd -ServerInstance db -Password (Get-Content pw.txt)"},
		{"convertto-securestring-variable", "$pw = ConvertTo-SecureString $plain -AsPlainText -Force"},
		{"new-localuser-switch", "New-LocalUser -Name app -Password $pw -PasswordNeverExpires"},
		{"sqlcmd-exe-trusted", `SQLCMD.EXE -S db -E -Q "select 1"`},
		{"bcp-trusted", "bcp dbo.orders out orders.dat -S db -T -c"},
		{"docker-compose-project", "docker-compose -f a.yml up -d -p myproj"},
		{"redis-acl-bare-variable", "ACL SETUSER app on >${REDIS_PW} ~* +@all"},
		{"redis-config-quoted-empty", `redis-cli CONFIG SET "requirepass" ""`},
		{"ssh-dashes-other", "ssh db -- sudo systemctl restart mysql"},
		{"env-variable-references", "Set MYSQL_PWD=$(cat pw) and REDIS_AUTH=${PW} before running the MYSQL_PWD=... example."},
		// Prose and code at a JSON string's start after whitespace.
		{"json-string-tab-code", `{"content":"\tpassword = user.password"}`},
		{"json-string-tab-prose", `{"content":"\tpassword = the one you chose at signup"}`},
		// Sentences about a password, which a passphrase is not.
		{"ini-prose-stored", "password = stored in the vault"},
		{"ini-prose-never", "password = never share it with anyone"},
		{"ini-prose-short", "password = changed last week"},
		{"yaml-prose-see", "db_password: see the vault"},
		{"ini-words-then-sentence", "The db_password = correct horse battery staple line is an example."},
		// Code, indented or in a unified diff.
		{"indented-code", "def login(user):\n    password = user.password\n    return check(password)"},
		{"diff-code", "diff --git a/app.py b/app.py\n--- a/app.py\n+++ b/app.py\n@@ -1,3 +1,3 @@\n-password = request.form['password']\n+password = request.form.get('password')\n api_key = settings.API_KEY"},
		{"diff-indented-code", "@@ -10,4 +10,4 @@ def login():\n-    password = user.password\n+    password = user.new_password\n     token = make_token(user)"},
		{"diff-yaml", "diff --git a/c.yml b/c.yml\n@@ -1,2 +1,2 @@\n-  password: form.password\n+  password: config.db.password\n   user: app"},
		{"diff-hash-call", "@@ -1 +1 @@\n-    self.password = password\n+    self.password = hash_password(password)"},
		{"diff-workflow", "@@ -3,2 +3,2 @@\n-  DB_PASSWORD: ${{ secrets.DB_PASSWORD }}\n+  DB_PASSWORD: ${{ secrets.DB_PASS }}"},
		// Prose and code about a private key's armour, no key.
		{"pem-prose", "The file must start with -----BEGIN PRIVATE KEY----- and end with -----END PRIVATE KEY-----."},
		{"pem-prose-begin-only", "The key file must begin with -----BEGIN OPENSSH PRIVATE KEY-----"},
		{"pem-prose-lines", "Check that the header reads -----BEGIN EC PRIVATE KEY-----\nand the footer -----END EC PRIVATE KEY-----."},
		{"pem-code", `if !strings.HasPrefix(s, "-----BEGIN PRIVATE KEY-----") {`},
		{"pem-grep", "grep -q -- '-----BEGIN RSA PRIVATE KEY-----' key.pem"},
		{"pem-elided", "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----"},
		{"pem-placeholder", "-----BEGIN PRIVATE KEY-----\n<your key here>\n-----END PRIVATE KEY-----"},
	}
}

func TestReview45SecretsRemoved(t *testing.T) {
	checkGoes(t, review45Secrets())
}

func TestReview45BenignStay(t *testing.T) {
	checkStays(t, review45Benign())
}

// TestInvalidUTF8InAValue: a value with a byte of no UTF-8 character is
// judged, not a panic: documentedExample lowered it with strings.ToLower,
// which writes such a byte as three, and sliced the value by the lowered
// text's offsets (found by FuzzCommandRules; the recorder scrubs binary
// bodies read as text too).
func TestInvalidUTF8InAValue(t *testing.T) {
	x, err := Rules{}.Redactor()
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{
		"mysql -uroot -p'\xd4Zq7xK9mQ7pZ2yOUr' shop",
		"{\"api_key\": \"\xd4\xd4Zq7xK9mQ7pZ2wR5tyOUr\"}",
		"$pw = ConvertTo-SecureString '\xd4Zq7xK9mQ7pZ2dUMmy' -AsPlainText",
	} {
		got := x.Text(text)
		if strings.Contains(got, "Zq7xK9mQ7pZ2") {
			t.Errorf("%q: kept: %q", text, got)
		}
	}
}

// TestFormThatBecomesJSON: JSON sent as a form, not JSON until a secret
// in it is replaced (a control character in a string), is scrubbed as
// JSON once it is, as the check then reads it: its name/value pair's
// value goes too (found by the recorder's FuzzRecorderAndCheckAgree).
func TestFormThatBecomesJSON(t *testing.T) {
	x, err := Rules{}.Redactor()
	if err != nil {
		t.Fatal(err)
	}
	k := "Zq7" + fakeKey("", 29)
	body := `{"values":[{"key":"apiKey","type":"secret","value":"` + k + `"}],` +
		`"args":"{\"Name\":\"X-Api-Key\",\"Value\":\"6B86D99D68B62R92Q` + "\x18" + `8Q29R26B86D99D\"}"}`
	_, got := x.Message(http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}, []byte(body))
	if strings.Contains(string(got), k) || strings.Contains(string(got), "8Q29R26B86D99D") {
		t.Errorf("kept: %s", got)
	}
}
