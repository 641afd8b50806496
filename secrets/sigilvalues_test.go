package secrets

import "testing"

// sigilSecrets are quoted passwords after a password's name that start
// with a mark that elsewhere makes a reference: "&", "%", "@", "!".
func sigilSecrets() []reviewSecret {
	return []reviewSecret{
		{"ini-amp", "password = '&welcome1'", "welcome1"},
		{"json-percent", `{"password": "%hunter2%"}`, "hunter2"},
		{"env-at", "DB_PASSWORD='@pw_2024_prod'", "pw_2024_prod"},
		{"xml-entity-word", "<password>&letmein;</password>", "letmein"},
		{"json-entity-word", `{"password": "&monkey;"}`, "monkey"},
		{"json-at-words", `{"password": "@passion_fruit"}`, "passion_fruit"},
		{"yaml-amp", "db_password: '&welcome1'", "welcome1"},
		{"yaml-double-percent", `password: "%pw_2024_prod%"`, "pw_2024_prod"},
		{"env-double-at", `export MYSQL_PASSWORD="@summer2024"`, "summer2024"},
		{"pgpassword-amp", "PGPASSWORD='&welcome1' psql -h db -U app", "welcome1"},
		{"json-at-digits", `{"password": "@pw_2024_prod"}`, "pw_2024_prod"},
		{"json-amp-digits", `{"db_password": "&welcome1"}`, "welcome1"},
		{"yaml-entity-quoted", "password: '&sunshine;'", "sunshine"},
		{"ini-double-quoted-amp", `password = "&welcome1"`, "welcome1"},
		{"xml-entity-digits", "<Password>&hunter2;</Password>", "hunter2"},
		{"toml-at", `db_password = "@pw_2024_prod"`, "pw_2024_prod"},
		// Escaped inside a JSON string, URL-encoded in a form, in a heredoc.
		{"json-in-json", `{"content":"{\"password\": \"&welcome1\"}"}`, "welcome1"},
		{"form-url-encoded-amp", "user=bob&password=%26welcome1&remember=1", "welcome1"},
		{"form-url-encoded-at", "grant_type=password&username=bob&password=%40pw_2024_prod", "pw_2024_prod"},
		{"heredoc-env", "cat > .env <<'EOF'\nAPP_USER=bob\nAPP_PASSWORD='%hunter2%'\nEOF", "hunter2"},
		// The mark as encoding/json escapes it.
		{"json-unicode-escaped-amp", `{"password": "\u0026welcome1"}`, "welcome1"},
		{"json-unicode-escaped-at", `{"db_password":"\u0040pw_2024_prod"}`, "pw_2024_prod"},
		{"json-unicode-escaped-percents", `{"password": "\u0025hunter2\u0025"}`, "hunter2"},
		// Code's arrow, and name/value pairs (XML's and JSON's).
		{"perl-arrow", "my %db = (user => 'app', password => '&welcome1');", "welcome1"},
		{"php-arrow-quoted-name", `$cfg = ['password' => "@pw_2024_prod"];`, "pw_2024_prod"},
		{"xml-add-key-amp-escaped", `<add key="password" value="&amp;welcome1" />`, "welcome1"},
		{"xml-add-key-at", `<add key="DbPassword" value="@pw_2024_prod"/>`, "pw_2024_prod"},
		{"json-name-value-percent", `{"name": "DB_PASSWORD", "value": "%hunter2%"}`, "hunter2"},
		// Review 64's: a pair's value, an element's and a double-quoted
		// string's as encoding/json and XML escape the mark.
		{"json-name-value-escaped", `{"env":[{"name":"MYSQL_ROOT_PASSWORD","value":"\u0026welcome1"}]}`, "welcome1"},
		{"json-value-name-escaped", `{"value":"\u0026welcome1","name":"DB_PASSWORD"}`, "welcome1"},
		{"json-key-value-escaped", `{"key":"password","value":"\u0026letmein;"}`, "letmein"},
		{"xml-element-amp-escaped", "<password>&amp;welcome1</password>", "welcome1"},
		{"yaml-double-quoted-escaped", `password: "\u0026welcome1"`, "welcome1"},
		{"code-double-quoted-escaped", `const password = "\u0026welcome1";`, "welcome1"},
		// Review 64's: settings files' unquoted values (an "&" begins no
		// reference there, T-SQL writes no dotted name), a quoted
		// NAME=value whole, and an owned pwd.
		{"ini-bare-amp", "[client]\nuser=root\npassword=&welcome1", "welcome1"},
		{"properties-bare-at", "spring.datasource.password=@pw_2024_prod", "pw_2024_prod"},
		{"compose-list-amp", "environment:\n  - MYSQL_ROOT_PASSWORD=&welcome1", "welcome1"},
		{"env-array-amp", `[{"Config":{"Env":["MYSQL_ROOT_PASSWORD=&welcome1"]}}]`, "welcome1"},
		{"batch-set-quoted-amp", `set "DB_PASSWORD=&welcome1"`, "welcome1"},
		{"mysql-pwd-quoted-amp", "MYSQL_PWD='&welcome1' mysql -u root shop", "welcome1"},
		// A password whose "!" no name, entity or variable holds, as
		// encoding/json escapes its mark.
		{"json-escaped-amp-punctuation", `{"password": "\u0026Welcome1!"}`, "Welcome1!"},
		{"json-escaped-at-punctuation", `{"db_password": "\u0040Pw_2024!"}`, "Pw_2024!"},
	}
}

// sigilBenign are the same marks where they make a reference or a name:
// HTML's entities, cmd's variables, SQL*Plus's and T-SQL's unquoted
// variables, names of a credential, words without digits, placeholders.
func sigilBenign() []reviewText {
	return []reviewText{
		{"json-entities", `{"password": "&amp;", "secret": "&nbsp;", "token": "&hellip;"}`},
		{"bare-settings-references", "https://x/login?user=bob&password=&next=1\npassword=&amp;\npassword=&lt;password&gt;\npassword: &pw_anchor1\npwd='&welcome1'\nDB_PASSWORD=&\npassword=&db_password\nPASSWORD=@pw_2024\nALTER LOGIN app WITH PASSWORD=@pw_2024;"},
		{"escaped-entities", `{"name":"DB_PASSWORD","value":"\u0026amp;"}` + "\n<password>&amp;</password>\n<title>&amp;welcome1</title>\n" + `password: "\u0026lt;password\u0026gt;"` + "\n" + `{"name":"greeting","value":"\u0026welcome1"}`},
		{"xml-entities", "<password>&lt;password&gt;</password>\n<password>&db_password;</password>"},
		{"batch-variables", `{"password": "%DB_PASS%", "db_password": "%pgpass:~0,8%"}` + "\nset PASSWORD=%DB_PASS%"},
		{"sqlplus-unquoted", "ALTER USER app IDENTIFIED BY &pw_2024;\nCONNECT app/&pw_2024@db"},
		{"tsql-unquoted", "ALTER LOGIN app WITH PASSWORD = @pw_2024;"},
		{"names-of-credentials", `{"password": "@new_password", "old_password": "&current", "pw": "&db_pw"}`},
		{"sql-placeholders-quoted", `{"password": "@p1", "db_password": "@param_1"}`},
		{"yaml-anchors", "base: &pw_anchor1\n  host: db\nprod:\n  <<: *pw_anchor1"},
		{"format-verbs", `password = '%s'` + "\n" + `{"password": "%(password)s"}`},
		{"at-file", `{"password_file": "@pw_2024.txt"}` + "\nDB_PASSWORD='@secrets/db.pass'"},
		{"lower-variable-no-digit", `{"password": "%dbpass%", "secret": "!dbsecret!"}`},
		{"prose-ampersand", "The password & the token are rotated; use '&' to join, and \"@team\" to ping."},
		{"email-quoted", `{"password_reset_email": "@example.com", "contact": "@support_team"}`},
		{"sqlplus-positional", "DEFINE pw = '&&pw_2024'\nDEFINE password = '&&pw_2024'"},
		{"razor-template", `{"password": "@Model.Password", "secret": "@{secret}", "token": "@@identity"}`},
		{"entities-joined", "<password>&amp;&lt;</password>"},
		{"cmd-delayed-capitals", "PASSWORD=\"!PASSWORD!\""},
		{"default-names", `password: "&default_pw"` + "\n" + `db_password: "&default"`},
		{"markdown-mention", `Ask "@security_team" about the "password" field, or "&" for both.`},
		{"php-reference", "$password = &$this->password;\n$opts = ['password' => &$pw];"},
		{"json-unicode-escaped-entities", `{"password": "\u0026lt;your password\u0026gt;", "secret": "\u0026amp;"}`},
		{"json-unicode-escaped-name", `{"password": "\u0026current", "pw": "\u0040new_password"}`},
		{"arrow-and-pair-references", "password => '@new_password'\n" + `<add key="password" value="&amp;" />` + "\n" +
			`<add key="password" value="&lt;password&gt;" />` + "\n" + `{"name": "DB_PASSWORD", "value": "%DB_PASS%"}` + "\n" +
			`<add key="Theme" value="@dark_mode2" />`},
		{"json-unicode-escaped-variables", `{"password": "\u0025DB_PASS\u0025", "db_password": "\u0021DB_PASS\u0021", "pw": "\u0026 more"}`},
	}
}

func TestSigilSecretsRemoved(t *testing.T) {
	checkGoes(t, sigilSecrets())
}

func TestSigilBenignStay(t *testing.T) {
	checkStays(t, sigilBenign())
}
