package secrets

import (
	"strings"
	"testing"
)

// review42Benign are the review's texts (session 27) that the command,
// SQL and name=value rules changed and must not: a shell's reference
// escaped inside a string that another shell runs, prose shaped like SQL,
// an empty --password=, placeholders of templates and languages.
func review42Benign() []struct{ name, text string } {
	return []struct{ name, text string }{
		// A value that starts with \$( or \$VAR is read when the command runs.
		{"bash-c-mysql-escaped-subst", `bash -c "mysql -uroot -p\$(cat /run/secrets/pw) db"`},
		{"bash-c-redis-escaped-subst", `bash -c "redis-cli -a \$(cat /run/secrets/redis_pw) ping"`},
		{"sh-c-redis-escaped-subst", `sh -c "redis-cli -a \$(cat /run/secrets/redis) ping"`},
		{"bash-c-docker-login-escaped-subst", `bash -c "docker login -u me -p \$(cat token) ghcr.io"`},
		{"bash-c-sshpass-escaped-subst", `bash -c "sshpass -p \$(cat pw) ssh host"`},
		{"bash-c-curl-user-escaped-subst", `bash -c "curl -u admin:\$(cat pw) https://x"`},
		{"sh-c-curl-escaped-vars", `sh -c "curl -u \$USER:\$(cat pw) https://x"`},
		{"su-c-escaped-subst", `su -c "mysql -uroot -p\$(cat /root/.pw)" root`},
		{"ssh-escaped-subst", `ssh db "mysql -uroot -p\$(cat ~/.pw) -e 'select 1'"`},
		{"docker-exec-sh-c-escaped", `docker exec db sh -c "mysql -uroot -p\$(cat \$MYSQL_ROOT_PASSWORD_FILE) -e \"select 1\""`},
		{"kubectl-exec-bash-c-escaped", `kubectl exec mysql-0 -- bash -c "mysql -uroot -p\$(cat \$MYSQL_ROOT_PASSWORD_FILE)"`},
		{"bash-c-escaped-var", `bash -c "mysql -uroot -p\$MYSQL_PWD db"`},
		{"bash-c-escaped-brace", `bash -c "mysql -uroot -p\${MYSQL_PWD} db"`},
		{"json-command-escaped-subst", `{"command":"ssh db \"mysql -uroot -p\\$(cat ~/.pw) -e 'select 1'\""}`},
		{"json-content-escaped-subst", `{"content": "ssh db \"mysql -uroot -p\\$(cat ~/.pw)\"\n"}`},
		{"github-contents-base64", `{"name": "x.sh", "encoding": "base64", "content": "c3NoIGRiICJteXNxbCAtdXJvb3QgLXBcJChjYXQgfi8ucHcpIgo="}`},
		{"query-percent-escaped-subst", "q=ssh+db+%22mysql+-uroot+-p%5C%24%28cat+~%2F.pw%29%22%0A"},
		// An empty --password= is no value: the next word is not one.
		{"empty-password-flag", "mysql -uroot --password= -e 'select 1'"},
		{"empty-password-man-page", "If given, there must be no space between --password= or -p and the password following it."},
		{"empty-password-before-flag", "PASSWORD= --verbose-output-2024"},
		// Placeholders of languages and tools.
		{"ruby-interpolation-index", "class CreateUsers < ActiveRecord::Migration[7.1]\n  def change\n    execute \"ALTER ROLE app PASSWORD '#{ENV['APP_DB_PASSWORD']}'\"\n  end\nend"},
		{"fstring-index", `conn.execute(f"ALTER USER {user} IDENTIFIED BY '{secrets['db']}'")`},
		{"fstring-call", `conn.execute(f"ALTER USER {user} IDENTIFIED BY '{os.getenv('DB_PW')}'")`},
		{"oracle-substitution", "ALTER USER app IDENTIFIED BY &new_password;"},
		{"oracle-substitution-double", "ALTER USER app IDENTIFIED BY &&pw_2024;"},
		{"sqlplus-echo", "Enter value for new_password: \nold   1: ALTER USER app IDENTIFIED BY &new_password"},
		{"windows-var", "mysql -u root -p%PASSWORD% db"},
		{"windows-var-2", "mysql -u root -p%DB_PASS% db"},
		{"windows-batch-var", "mysql -uroot -p%%DB_PASS%% db"},
		{"windows-curl", "curl -u %USER%:%PASS% https://x"},
		{"windows-docker-login", "docker login -u %DOCKER_USER% -p %DOCKER_PASS%"},
		{"windows-redis", "redis-cli -a %REDIS_PASS% ping"},
		{"tsql-variable", "ALTER LOGIN sa WITH PASSWORD = @newpw;"},
		{"tsql-variable-options", "CREATE LOGIN app WITH PASSWORD = @pw, CHECK_POLICY = OFF;"},
		{"csharp-format", `string.Format("ALTER LOGIN [{0}] WITH PASSWORD = '{1}'", login, pw)`},
		{"printf-verb", `mysql --defaults-extra-file=<(printf '[client]\npassword=%s\n' "$PW") db`},
		{"vault-file-argument", "vault kv put secret/app password=@password.txt"},
		{"mysql-system-variable", "mysql --password=@@password db"},
		{"mysql-docs-auth-string", "SET PASSWORD = 'auth_string';"},
		{"vault-path", "CREATE USER app IDENTIFIED BY 'vault:secret/data/app#password';"},
		// Prose that names SQL's words is no statement.
		{"prose-grant-application", "The grant application is identified by 'NIH-R01-2024-123' and tracked separately."},
		{"prose-grant-access-to", "We grant access only to visitors identified by 'badge-2024-0042-x' at the front desk."},
		{"prose-grant-colon", "Grant: each applicant is identified by 'APP-2024-00042' in the portal."},
		{"prose-create-user-accounts", "To create user accounts in bulk, give each one a login identified by 'emp-2024-0042-nyc' in the HR export, then email them."},
		{"prose-create-user-colon", "Create user: the new account is identified by 'employee_number_42' in our directory."},
		{"prose-german", "Das Konto wird mit CREATE USER angelegt und ist identified by 'kennung-2024-07' im Verzeichnis."},
		{"prose-alter-role-then", "Then alter role names so each is identified by 'role-2024-0042-x' in the audit."},
	}
}

// review42Secrets are literals in the same places, which stay secrets.
func review42Secrets() []struct{ name, text string } {
	return []struct{ name, text string }{
		{"bash-c-mysql-literal", `bash -c "mysql -uroot -p<K> db"`},
		{"bash-c-redis-literal", `bash -c "redis-cli -a <K> ping"`},
		{"bash-c-docker-login-literal", `bash -c "docker login -u me -p <K> ghcr.io"`},
		{"ssh-literal", `ssh db "mysql -uroot -p<K> -e 'select 1'"`},
		{"json-command-literal", `{"command":"ssh db \"mysql -uroot -p<K> -e 'select 1'\""}`},
		{"backslash-literal", `bash -c "mysql -uroot -p\<K> db"`},
		{"password-flag-eq", "mysql -uroot --password=<K> -e 'select 1'"},
		{"password-ini-spaces", "password = <K>"},
		{"password-env", "DB_PASSWORD=<K>"},
		{"sql-brace-literal", "CREATE USER app IDENTIFIED BY '{<K>';"},
		{"sql-percent-literal", "mysql -uroot -p%<K>"},
		{"sql-amp-literal", "ALTER USER app IDENTIFIED BY '&<K>!';"},
		{"sql-vaultish-literal", "CREATE USER app IDENTIFIED BY 'vault<K>';"},
		{"sql-if-not-exists", "CREATE USER IF NOT EXISTS 'u'@'%' IDENTIFIED BY '<K>';"},
		{"sql-role-options", "CREATE ROLE app WITH LOGIN NOSUPERUSER CONNECTION LIMIT 5 ENCRYPTED PASSWORD '<K>';"},
		{"sql-grant-host", "GRANT SELECT, INSERT ON shop.* TO app@localhost IDENTIFIED BY '<K>';"},
		{"sql-prompt", "postgres=# ALTER USER postgres WITH PASSWORD '<K>';"},
		{"sql-begin", "DO $$ BEGIN CREATE ROLE app LOGIN PASSWORD '<K>'; END $$;"},
		{"sql-bracket-login", "ALTER LOGIN [app] WITH PASSWORD = N'<K>';"},
		{"sql-after-prose-colon", "Run this: CREATE USER 'u'@'%' IDENTIFIED BY '<K>';"},
	}
}

func TestReview42BenignStay(t *testing.T) {
	checkStays(t, review42Benign())
}

func TestReview42SecretsRemoved(t *testing.T) {
	x, err := Rules{}.Redactor()
	if err != nil {
		t.Fatal(err)
	}
	k := "Zq7" + fakeKey("", 13)
	for _, tc := range review42Secrets() {
		t.Run(tc.name, func(t *testing.T) {
			text := strings.ReplaceAll(tc.text, "<K>", k)
			if got := x.Text(text); strings.Contains(got, k) {
				t.Errorf("%q: kept: %q", text, got)
			}
		})
	}
}
