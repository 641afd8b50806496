package secrets

import (
	"testing"
)

// review47Secrets are the seventh review's (session 30) secrets that the
// sixth round's rules kept, each with other shapes of its kind; secret
// is what the text must lose, its parts separated by "|". (The round's
// rules for lower-case passwords after "@" or "&", three-word
// passphrases, PowerShell's other cmdlets and key files were taken back:
// its review found each let other secrets through.)
func review47Secrets() []struct{ name, text, secret string } {
	return []struct{ name, text, secret string }{
		// A password between a batch reference's marks, as the rules
		// before this round read it already.
		{"json-bang-lower-digits", `{"password": "!pass2024!"}`, "pass2024"},
		{"env-bang-quoted", `DB_PASSWORD="!pass2024!"`, "pass2024"},
		// Lower-case prose that starts with a T-SQL verb before WITH.
		{"prose-create-with", "create the user with\n  password = @Winter2024", "Winter2024"},
		{"prose-open-with", "open the console with\n  password = @Winter2024", "Winter2024"},
		{"prose-alter-with", "alter your settings with password = @Winter2024", "Winter2024"},
		{"prose-caps-create-with", "CREATE THE USER WITH\n  password = @Winter2024", "Winter2024"},
		// sqlcmd's /P, and T-SQL's string literals assigned to a variable.
		{"sqlcmd-slash-p", "sqlcmd -S db -U sa /P Winter2024!", "Winter2024"},
		{"sqlcmd-slash-p-exe", `SQLCMD.EXE /S db /U sa /P "Zq7xK9mQ7pZ2wR5t" /Q "select 1"`, "Zq7xK9mQ7pZ2wR5t"},
		{"osql-slash-p-json", `{"content":"osql /S db /U sa /P \"Winter2024!\" /Q \"select 1\""}`, "Winter2024"},
		{"tsql-declare-n", "DECLARE @pw NVARCHAR(50) = N'Winter2024!';", "Winter2024"},
		{"tsql-set-var", "SET @pw = 'Winter2024!';\nALTER LOGIN app WITH PASSWORD = @pw;", "Winter2024"},
		{"tsql-declare-password-var", "declare @password varchar(64) = 'Zq7xK9mQ7pZ2wR5t'", "Zq7xK9mQ7pZ2wR5t"},
		{"tsql-select-var-json", `{"content":"SELECT @newpw = 'Zq7xK9mQ7pZ2wR5t';"}`, "Zq7xK9mQ7pZ2wR5t"},
		{"tsql-declare-sysname", "DECLARE @sa_pwd sysname = N'Summer2024#';", "Summer2024"},
		// The review's leaks through the rules taken back: inline code
		// closed before a line break, four-word passphrases with a common
		// word, a key's value with a file's ending.
		{"inline-code-then-sqlcmd", "First run `Import-Module SqlServer`\nsqlcmd -S db -U sa -P Winter2024!", "Winter2024"},
		{"inline-code-then-sshpass", "Check with `Get-Service`\nsshpass -p 'Winter2024!' ssh admin@db", "Winter2024"},
		{"inline-code-then-curl-json", `{"content":"Check with ` + "`Get-Service`" + `\ncurl -u admin:Winter2024! https://x"}`, "Winter2024"},
		{"passphrase-with-never", "db_password = purple monkey never dishwasher", "purple monkey never dishwasher"},
		{"passphrase-with-pending", "password: tulip pending walrus expired", "tulip pending walrus expired"},
		{"token-with-key-ending", "GITHUB_TOKEN=Zq7xK9mQ7pZ2wR5tLm/app.key", "Zq7xK9mQ7pZ2wR5tLm"},
		{"hex-key-with-key-ending", "ENCRYPTION_KEY=0123456789abcdef0123456789abcdef.key", "0123456789abcdef0123456789abcdef"},
		// Session 31's review (helper-60): a password-like value with a
		// key file's ending, which a key-file exemption for every strong
		// name kept (0eb1bc3, taken back).
		{"jwt-secret-dotted-key", "JWT_SECRET=super.secret.key", "super.secret"},
		{"secret-key-dotted-key", "SECRET_KEY=this.is.my.secret.key", "this.is.my.secret"},
		{"app-secret-key-ending", "APP_SECRET=topsecret2024.key", "topsecret2024"},
		{"jwt-secret-pub-ending", "JWT_SECRET=letmein.pub", "letmein"},
		{"api-key-password-key-ending", "API_KEY=mypassword2024.key", "mypassword2024"},
		{"token-json-ending", "GITHUB_TOKEN=hunter2.json", "hunter2"},
		{"token-ghp-json-ending", "GITHUB_TOKEN=ghp_abcdefghijkl.json", "ghp_abcdefghijkl"},
		{"api-key-hex-key-ending", "API_KEY=deadbeefcafe.key", "deadbeefcafe"},
		{"api-key-digits-json-ending", "API_KEY=abc12345.json", "abc12345"},
		{"query-api-key-path-ending", "https://x.example/v1?api_key=correct/horse/battery/staple.key", "correct/horse/battery/staple"},
		{"json-client-secret-key-ending", `{"client_secret": "purple-monkey-dishwasher.key"}`, "purple-monkey-dishwasher"},
		{"json-jwt-secret-pem-ending", `{"jwt_secret": "my-secret-key.pem"}`, "my-secret-key"},
	}
}

// review47Benign are texts of the same kinds that stay byte-identical.
func review47Benign() []struct{ name, text string } {
	return []struct{ name, text string }{
		// T-SQL's and SQL*Plus's variables, unquoted in their statements.
		{"tsql-lower-digits-var", "ALTER LOGIN app WITH PASSWORD = @pw_2024;"},
		{"sqlplus-lower-digits-var", "ALTER USER app IDENTIFIED BY &pw_2024;"},
		{"mysql-file-argument-digits", "mysql -uroot -p@pw_2024.txt"},
		{"json-lower-variable", `{"old_password": "&current", "new_password": "@newpw"}`},
		// cmd's references and HTML's entities.
		{"json-batch-forms", `{"a": "%1", "b": "%~1", "c": "%%i", "d": "!VAR!", "e": "%VAR:~0,8%", "f": "%env.X%"}`},
		{"json-batch-password-names", `{"password": "%PASSWORD%", "db_password": "%DB_PASS%", "secret": "!DB_SECRET!"}`},
		{"json-entities", `{"password": "&amp;", "secret": "&nbsp;", "token": "&Eacute;"}`},
		{"xml-entity-credential-name", "<password>&db_password;</password>"},
		// T-SQL statements in lower case, whose verb acts on a login, a
		// key, a database.
		{"tsql-lower-login-lines", "alter login app with\n  password = @pw1"},
		{"tsql-service-master-key", "BACKUP SERVICE MASTER KEY TO FILE = 'k' ENCRYPTION BY PASSWORD = @Password1;"},
		{"tsql-application-role", "create application role app with password = @Password1"},
		// The tsql statements themselves.
		{"tsql-declare-var", "DECLARE @pw NVARCHAR(50);\nSET @pw = @input;"},
		{"tsql-set-other-names", "SET @name = N'Alice Smith'; DECLARE @msg varchar(max) = 'Winter2024 sale';\nSET @pw = '%s';"},
		// Windows' /P of other commands, and sqlcmd's with no literal.
		{"dir-slash-p", "dir /P C:\\Users\nmore /P readme.txt"},
		{"sqlcmd-slash-p-variable", "sqlcmd /S db /U sa /P %DB_PASS% /Q \"select 1\"\nsqlcmd -S db -U sa /P"},
		// Paths that start with /P after SQL Server's tools.
		{"sqlcmd-input-path", `sqlcmd -S localhost -U sa -P "$SA_PASSWORD" -i /Projects/init/Schema2024.sql`},
		{"bcp-data-path", "bcp dbo.Orders in /Public/Orders2024.csv -S db -T -c"},
		{"osql-input-path", "osql -E -i /Path/Setup2024.sql"},
		// SQL placeholders after a password's column.
		{"sql-placeholders", `_, err := db.ExecContext(ctx, "UPDATE users SET password = @p1 WHERE id = @p2", hash, id)`},
		{"sql-param-placeholder", "UPDATE users SET password=@param_1 WHERE users.id = @param_2"},
		// T-SQL variables whose names start with pw but name no password.
		{"tsql-pw-prefixed-names", "SET @pwd_col = 'password_hash';\nDECLARE @pwm_mode varchar(10) = 'fast';\nSET @pwr_level = 'high';"},
		// RESTORE's other statements take a password as an option too.
		{"tsql-restore-headeronly", "RESTORE HEADERONLY FROM DISK = 'x.bak' WITH PASSWORD = @Password1;"},
		{"tsql-restore-filelistonly", "RESTORE FILELISTONLY FROM DISK = 'x.bak' WITH MEDIAPASSWORD = @Password1;"},
		{"tsql-verb-object-lines", "ALTER\nLOGIN app WITH PASSWORD = @Password1;"},
	}
}

func TestReview47SecretsRemoved(t *testing.T) {
	checkGoes(t, review47Secrets())
}

func TestReview47BenignStay(t *testing.T) {
	checkStays(t, review47Benign())
}
