package secrets

import (
	"testing"
)

// review47Secrets are the seventh review's (session 30) secrets that the
// sixth round's rules kept, each with other shapes of its kind; secret
// is what the text must lose, its parts separated by "|".
func review47Secrets() []struct{ name, text, secret string } {
	return []struct{ name, text, secret string }{
		// A lower-case word with digits or "_" where a variable could
		// stand, quoted or after a command's -p: a password.
		{"mysql-at-lower-digits", "mysql -uroot -p@pw_2024_prod", "pw_2024_prod"},
		{"mysql-at-lower-digits-db", "mysql -h db -uroot -p@summer2024 shop", "summer2024"},
		{"pgpassword-amp-quoted", "PGPASSWORD='&welcome1' psql -h db -U app", "welcome1"},
		{"ini-percent-quoted", "password = '%hunter2%'", "hunter2"},
		{"json-at-lower-digits", `{"password": "@pw_2024_prod"}`, "pw_2024_prod"},
		{"json-amp-lower-digits", `{"db_password": "&welcome1"}`, "welcome1"},
		// A password between a batch reference's or an entity's marks.
		{"json-bang-lower-digits", `{"password": "!pass2024!"}`, "pass2024"},
		{"json-percent-lower-digits", `{"password": "%hunter2%"}`, "hunter2"},
		{"json-entity-lower-word", `{"password": "&letmein;"}`, "letmein"},
		{"yaml-entity-lower-word", "password: '&sunshine;'", "sunshine"},
		{"mysql-percent-lower-digits", "mysql -uroot -p'%hunter2%' shop", "hunter2"},
		{"env-bang-quoted", `DB_PASSWORD="!pass2024!"`, "pass2024"},
		// Three random words after a password's name.
		{"ini-three-words", "db_password = correct horse battery", "correct horse battery"},
		{"json-passphrase-three", `{"passphrase": "purple monkey dishwasher"}`, "purple monkey dishwasher"},
		{"yaml-three-words", "password: purple monkey dishwasher", "purple monkey dishwasher"},
		{"env-three-words-title", "password = Purple Monkey Dishwasher", "Purple Monkey Dishwasher"},
		// Lower-case prose that starts with a T-SQL verb before WITH.
		{"prose-create-with", "create the user with\n  password = @Winter2024", "Winter2024"},
		{"prose-open-with", "open the console with\n  password = @Winter2024", "Winter2024"},
		{"prose-alter-with", "alter your settings with password = @Winter2024", "Winter2024"},
		{"prose-caps-create-with", "CREATE THE USER WITH\n  password = @Winter2024", "Winter2024"},
		// sqlcmd's /P, and T-SQL's string literals assigned to a variable.
		{"sqlcmd-slash-p", "sqlcmd -S db -U sa /P Winter2024!", "Winter2024"},
		{"sqlcmd-slash-p-exe", `SQLCMD.EXE /S db /U sa /P "Zq7xK9mQ7pZ2wR5t" /Q "select 1"`, "Zq7xK9mQ7pZ2wR5t"},
		{"osql-slash-p-json", `{"content":"osql /S db /U sa /P \"Winter2024!\" /Q \"select 1\""}`, "Winter2024"},
		{"env-key-generated-dotted", "SSL_KEY=Zq7xK9mQ7pZ2wR5t.key", "Zq7xK9mQ7pZ2wR5t"},
		{"json-key-generated", `{"api_key": "Xk9mQ2vR7tL4pZ8w.pem"}`, "Xk9mQ2vR7tL4pZ8w"},
		{"tsql-declare-n", "DECLARE @pw NVARCHAR(50) = N'Winter2024!';", "Winter2024"},
		{"tsql-set-var", "SET @pw = 'Winter2024!';\nALTER LOGIN app WITH PASSWORD = @pw;", "Winter2024"},
		{"tsql-declare-password-var", "declare @password varchar(64) = 'Zq7xK9mQ7pZ2wR5t'", "Zq7xK9mQ7pZ2wR5t"},
		{"tsql-select-var-json", `{"content":"SELECT @newpw = 'Zq7xK9mQ7pZ2wR5t';"}`, "Zq7xK9mQ7pZ2wR5t"},
		{"tsql-declare-sysname", "DECLARE @sa_pwd sysname = N'Summer2024#';", "Summer2024"},
		// PowerShell: a password parameter of any cmdlet, after a switch,
		// and over backtick continuations.
		{"ps-new-localuser-continued", "New-LocalUser -Name x `\n  -Password (ConvertTo-SecureString 'Winter2024!' -AsPlainText -Force)", "Winter2024"},
		{"ps-plain-password", "Set-Thing -Name app -PlainPassword 'Zq7xK9mQ7pZ2wR5t'", "Zq7xK9mQ7pZ2wR5t"},
		{"ps-secret-param", "Set-Secret -Name db -Secret 'Zq7xK9mQ7pZ2wR5t'", "Zq7xK9mQ7pZ2wR5t"},
		{"ps-switch-before", "Connect-Db -Server db -Force -Password 'Zq7xK9mQ7pZ2wR5t'", "Zq7xK9mQ7pZ2wR5t"},
		{"ps-continued-password", "Connect-Db -Server db `\n  -Password 'Zq7xK9mQ7pZ2wR5t'", "Zq7xK9mQ7pZ2wR5t"},
		{"ps-unlock-store", "Unlock-SecretStore -Password 'Winter2024!' -PasswordTimeout 600", "Winter2024"},
		{"ps-nuget-key", "Publish-Module -Name MyMod `\r\n  -NuGetApiKey <K>", ""},
		{"ps-client-secret-continued", "Connect-Tenant -TenantId t `\n  -ClientId c `\n  -ClientSecret 'Zq7xK9mQ7pZ2wR5t'", "Zq7xK9mQ7pZ2wR5t"},
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
		// PowerShell's parameters given a variable, a user's name or nothing.
		{"ps-credential-user", "New-PSDrive -Name X -PSProvider FileSystem -Root \\\\srv\\share -Credential 'CORP\\svc_backup'"},
		{"ps-secret-variables", "Set-Secret -Name db -Secret $pw `\n  -Vault Local\nGet-Secret -Name db -AsPlainText"},
		{"bash-backtick-line", "echo `\ndate`\nmysql -u root -p shop"},
		// Indented env lines whose value is a file's name.
		{"indented-env-key-file", "    SSL_KEY=server.key"},
		{"indented-env-cert-key-path", "    TLS_CERT_KEY=/etc/ssl/private/app.key"},
		{"indented-env-key-file-relative", "  API_KEY_FILE=secrets/api.key"},
		{"json-indented-env-key-file", `{"content":"  SSL_KEY=server.key"}`},
		{"env-key-files", "SSL_KEY=server.key\nTLS_KEY=./certs/tls-2024.pem\nSSH_KEY=~/.ssh/id_ed25519.pub"},
		{"json-key-file", `{"ssl_key": "server.key", "private_key": "/etc/ssl/private/app.key"}`},
		// Prose values of a few common words.
		{"yaml-generated-boot", "password: generated during first boot"},
		{"yaml-set-installer", "password: set by the installer"},
		{"yaml-token-rotated", "token: rotated every 24 hours"},
		{"ini-three-describing", "password = hashed with bcrypt"},
		{"ini-three-prose", "db_password = see the vault"},
		{"yaml-three-rotated", "password: rotated every month\napi_password: managed by vault\npassword = read from env"},
		{"ini-three-changed-first", "password = changed on first login"},
		{"ini-three-state", "password = pending admin approval\napi_password: disabled until review"},
	}
}

func TestReview47SecretsRemoved(t *testing.T) {
	checkGoes(t, review47Secrets())
}

func TestReview47BenignStay(t *testing.T) {
	checkStays(t, review47Benign())
}
