package secrets

import (
	"testing"
)

// review46Secrets are the sixth review's (session 29) secrets that the
// fifth round's rules kept, each with other shapes of its kind. <K> is a
// generated password; secret, when set, is what the text must lose, its
// parts separated by "|".
func review46Secrets() []struct{ name, text, secret string } {
	return []struct{ name, text, secret string }{
		// A generated value with a dot in it, on an indented line, a
		// diff's, or at a JSON string's start: no code's dotted name.
		{"indented-env-dotted", "    DB_PASSWORD=Zq7xK9.mQ7pZ2wR5t", "Zq7xK9|mQ7pZ2wR5t"},
		{"shell-if-dotted", "if true; then\n    DB_PASSWORD=Tr0ub4dor.3x\nfi", "Tr0ub4dor"},
		{"ini-section-indented-dotted", "[db]\n    password = Zq7xK9.mQ7pZ2wR5t", "Zq7xK9|mQ7pZ2wR5t"},
		{"indented-dotted-tail", "  api_key = Zq7xK9mQ7pZ2wR5t.x7Pq", "Zq7xK9mQ7pZ2wR5t"},
		{"diff-dotted", "@@ -1 +1 @@\n+    password = Zq7xK9.mQ7pZ2wR5t", "Zq7xK9|mQ7pZ2wR5t"},
		{"json-string-dotted", `{"content":"  client_secret = Zq7xK9.mQ7pZ2wR5t"}`, "Zq7xK9|mQ7pZ2wR5t"},
		{"tab-env-dotted", "\tSECRET_KEY=Hq3Rt8.pLm4Zx9W", "Hq3Rt8|pLm4Zx9W"},
		{"indented-dotted-words", "    password = Sunshine.Moonlight", "Sunshine.Moonlight"},
		// A word and a mark or two round it: a password so decorated, no
		// mask (a mask is mask words) and no reference.
		{"json-star-after", `{"password": "Sunshine*"}`, "Sunshine"},
		{"json-hash-after", `{"password": "Dragonfly#"}`, "Dragonfly"},
		{"json-star-before", `{"password": "*MonkeyBusiness"}`, "MonkeyBusiness"},
		{"json-hash-both", `{"password": "#Dragonfly#"}`, "Dragonfly"},
		{"json-stars-phrase", `{"password": "**correct horse battery staple**"}`, "horse battery staple"},
		{"json-bullets", `{"password": "•Sunshine•"}`, "Sunshine"},
		{"yaml-stars-both", "password: '*Starlight*'", "Starlight"},
		{"mysql-star", "mysql -uroot -p'Sunshine*' shop", "Sunshine"},
		{"mysql-bullets", "mysql -uroot -p'•Sunshine•' shop", "Sunshine"},
		{"sql-star", "CREATE USER app IDENTIFIED BY 'Sunshine*';", "Sunshine"},
		{"json-parens-word", `{"password": "(Sunshine)"}`, "Sunshine"},
		{"json-brackets-word", `{"password": "[Dragonfly]"}`, "Dragonfly"},
		{"json-parens-dashed", `{"password": "(correct-horse-battery)"}`, "correct-horse-battery"},
		{"env-parens-word", "DB_PASSWORD=(Sunshine)", "Sunshine"},
		{"ini-brackets-word", "password = [Moonlight]", "Moonlight"},
		{"json-entity-capitalized", `{"password": "&Sunshine;"}`, "Sunshine"},
		{"json-entity-digits", `{"password": "&Welcome1;"}`, "Welcome1"},
		{"json-bang-mixed", `{"password": "!MyPass!"}`, "MyPass"},
		{"json-percent-mixed", `{"db_password": "%MyPass%"}`, "MyPass"},
		// A T-SQL variable needs a statement: a .env line has none.
		{"env-at-after-prose-with", "Run it with this file:\nDB_PASSWORD=@Winter2024", "Winter2024"},
		{"env-at-after-create-with", "Create a .env file with these lines:\nDB_PASSWORD=@Winter2024", "Winter2024"},
		{"env-at-after-open-with", "Open the file with your editor and set:\nDB_PASSWORD=@Winter2024", "Winter2024"},
		{"env-at-after-comment-create", "# create it with: cp .env.example .env\nDB_PASSWORD=@Summer2024", "Summer2024"},
		{"json-env-at-after-open-with", `{"content":"Open settings with care\nPASSWORD=@Winter2024"}`, "Winter2024"},
		{"env-at-after-alter-prose", "alter the config with care;\nAPI_SECRET=@Autumn2025", "Autumn2025"},
		{"env-at-after-sql-line", "CREATE LOGIN app WITH PASSWORD = 'x';\nDB_PASSWORD=@Winter2024", "Winter2024"},
		{"env-at-inside-sql-looking-prose", "CREATE the file WITH\nDB_PASSWORD=@Winter2024", "Winter2024"},
		{"indented-at-after-sentence-with", "Log in with\n  password = @Winter2024", "Winter2024"},
		{"indented-at-after-run-with", "Run with\n  password = @Winter2024", "Winter2024"},
		{"indented-at-after-with-care", "open it with care\n  password = @Winter2024", "Winter2024"},
		// An env-style line is a setting, indented or not: code assigns
		// with blanks or to lower-case names, and Summer2024 names nothing.
		{"json-indented-env-lower-dotted", `{"content":"  DB_PASSWORD=xkqz.mzpr"}`, "xkqz.mzpr"},
		{"json-indented-env-human-dotted", `{"content":"  DB_PASSWORD=Summer2024.Winter"}`, "Summer2024"},
		{"json-second-indented-env-dotted", `{"a":"x","b":" DB_PASSWORD=prod2024.key9"}`, "prod2024.key9"},
		{"indented-env-lower-dotted", "    API_SECRET=abcd.efgh", "abcd.efgh"},
		{"indented-human-dotted", "    password = Welcome1.admin", "Welcome1"},
		{"indented-dotted-human-tail", "    password = spring.Summer2024", "Summer2024"},
		{"indented-generated-dot-password", "    password = Zq7xK9.Password", "Zq7xK9"},
		{"indented-human-dot-password", "    password = Welcome1.Password", "Welcome1"},
		// Words picked at random, some of which could describe a password.
		{"yaml-phrase-salt", "db_password: salt pepper lemon tree", "salt pepper lemon tree"},
		{"ini-phrase-long", "password = purple elephant long river", "purple elephant long river"},
		{"yaml-phrase-old", "password: old mountain sunset cabin", "old mountain sunset cabin"},
		{"yaml-phrase-random", "password: random orange falcon dance", "random orange falcon dance"},
		{"ini-phrase-strong-title", "PASSWORD = Strong Tiger River Moon", "Strong Tiger River Moon"},
		{"yaml-phrase-key", "password: silver key garden frost", "silver key garden frost"},
		{"ini-phrase-new", "db_password = new york pizza night", "new york pizza night"},
		{"yaml-phrase-hash", "password: hash brown morning coffee", "hash brown morning coffee"},
		{"json-phrase-admin", `{"content":"password = winter admin castle bridge"}`, "winter admin castle bridge"},
		{"yaml-phrase-user-mail", "password: user mail tiger lamp moon", "tiger lamp moon"},
		{"yaml-phrase-title-salt", "password: Salt Pepper Lemon Tree", "Salt Pepper Lemon Tree"},
		// Redis's commands and SQL Server's procedures in any case.
		{"redis-config-capitals", "CONFIG SET REQUIREPASS <K>", ""},
		{"redis-config-title", "Config Set RequirePass <K>", ""},
		{"redis-acl-camel", "ACL setUser app on ><K> ~* +@all", ""},
		{"redis-cli-masterauth-capitals", "redis-cli CONFIG SET MASTERAUTH <K>", ""},
		{"redis-prompt-masterauth-title", "127.0.0.1:6379> config set MasterAuth <K>", ""},
		{"sp-addlogin-mixed", "exec sP_addlogin 'app', '<K>'", ""},
		{"sp-password-title", "EXEC Sp_Password NULL, '<K>', 'app';", ""},
		// A call with more after its ")": a password that starts as a
		// call (codeCall reads the call, callRunsToEnd its end).
		{"json-call-then-key", `{"password": "f(x)Zq7xK9mQ7pZ2wR5t"}`, "Zq7xK9mQ7pZ2wR5t"},
		{"json-md5-then-key", `{"password": "md5(?)Zq7xK9mQ7pZ2wR5t"}`, "Zq7xK9mQ7pZ2wR5t"},
		{"json-call-then-word", `{"password": "hash(pw)!Winter2024"}`, "Winter2024"},
		{"ini-call-then-key", "password = sha2(pw)Hq3Rt8pLm4Zx9W", "Hq3Rt8pLm4Zx9W"},
		// WITH or BY in prose or a command, no T-SQL statement's verb
		// (tsqlVerbs) starting its line or its statement.
		{"prose-with-at", "with password = @Winter2024", "Winter2024"},
		{"prose-sign-in-with", "please sign in with password = @Summer2024", "Summer2024"},
		{"command-with", "docker login with password=@Winter2024 user=admin", "Winter2024"},
		{"caps-log-in-with", "LOG IN WITH PASSWORD = @Winter2024", "Winter2024"},
		{"connect-by", "connect by password = @Winter2024", "Winter2024"},
		{"run-with-next-line", "run with\n  password = @Winter2024", "Winter2024"},
		{"after-statement-with", "ALTER USER app WITH PASSWORD = 'x'; with password = @Winter2024", "Winter2024"},
		{"json-login-with", `{"content":"login with password=@Winter2024"}`, "Winter2024"},
		// Capitalized words ending in a credential's bare name: a
		// password, not a program's dotted name.
		{"indented-words-key", "    password = Sunshine.Key", "Sunshine.Key"},
		{"indented-words-token", "    password = Correct.Horse.Battery.Token", "Correct.Horse.Battery.Token"},
		{"indented-words-password", "\tpassword = Letmein.Password", "Letmein.Password"},
		{"indented-env-words-secret", "    DB_PASSWORD=Monkey.Dragon.Secret", "Monkey.Dragon.Secret"},
		{"json-words-secret", `{"content":"  password = Monkey.Dragon.Secret"}`, "Monkey.Dragon.Secret"},
	}
}

// review46Benign are texts of the same kinds that stay byte-identical.
func review46Benign() []struct{ name, text string } {
	return []struct{ name, text string }{
		// Code's dotted names, each part an identifier.
		{"indented-dotted-code", "def f(user):\n    password = user.password\n    api_key = config.api_key\n    secret = secrets.token_hex(16)"},
		{"indented-lower-name", "def f(new_password):\n    password = new_password"},
		{"indented-env-dotted-code", "    DB_PASSWORD=settings.DB_PASSWORD"},
		{"indented-camel-code", "    password = request.form.getPassword()\n    token = self.httpClient.authToken"},
		{"json-string-dotted-code", `{"content":"  client_secret = app.config.CLIENT_SECRET"}`},
		// Masks: mask words between the same marks, or marks only.
		{"json-masks-words", `{"password": "(none)", "api_key": "[hidden]", "token": "{redacted}", "secret": "(not set)"}`},
		{"json-masks-stars", `{"password": "***hidden***", "secret": "••• masked •••", "token": "** REDACTED **", "api_key": "****"}`},
		{"json-masks-your", `{"password": "[your password here]", "api_key": "(your api key)"}`},
		{"env-mask-words", "DB_PASSWORD=(not set)\nAPI_KEY=[hidden]"},
		// Entities a document declares or HTML defines.
		{"xml-entity-lower", "<password>&db_pw;</password><secret>&secret;</secret>"},
		{"json-entity-lower", `{"password": "&password;"}`},
		// cmd's references: on a set line in any case, alone in one case.
		{"batch-delayed-mixed-set", "set PASSWORD=!MyPass!"},
		{"json-batch-capitals", `{"password": "!DB_PASS!", "secret": "%DB_SECRET%"}`},
		// T-SQL's variables wherever a statement's value stands.
		{"tsql-with-newline", "ALTER LOGIN app WITH\n  PASSWORD = @Password1,\n  CHECK_POLICY = OFF;"},
		{"tsql-with-blanks", "ALTER LOGIN app WITH  PASSWORD = @Password1"},
		{"tsql-second-option", "ALTER LOGIN app WITH NAME = app2, PASSWORD = @Password1"},
		{"tsql-master-key", "CREATE MASTER KEY ENCRYPTION BY PASSWORD = @Password1;"},
		{"tsql-old-password", "ALTER LOGIN app WITH PASSWORD = @New1 OLD_PASSWORD = @Old1;"},
		{"tsql-open-key", "OPEN MASTER KEY DECRYPTION BY PASSWORD = @Secret1;"},
		{"tsql-restore", "RESTORE DATABASE db FROM DISK = 'x' WITH PASSWORD = @Password1"},
		{"tsql-backup-cert", "BACKUP CERTIFICATE c TO FILE = 'f' WITH PRIVATE KEY (FILE = 'k', ENCRYPTION BY PASSWORD = @Password1)"},
		{"tsql-lower-after-statement", "select 1;\nalter login app with password = @Password1"},
		{"tsql-lower-options", "create login app with password = @pw, check_policy = off"},
		{"tsql-backup-lines", "BACKUP MASTER KEY TO FILE = 'k'\n  ENCRYPTION BY PASSWORD = @Password1;"},
		// cmd's set /p, quoted.
		{"batch-set-prompt-quoted", "set /p \"PASSWORD=Enter password: \"\nSET /P  \"DB_PASSWORD=Password? \""},
		// Words that describe a password, no passphrase.
		{"yaml-prose-minimum", "password: minimum eight characters required"},
		{"ini-prose-hashed", "password = hashed using bcrypt rounds"},
		{"yaml-label-title", "Password: Database Admin Password Field"},
		{"yaml-label-reset", "reset_password: Reset Password Email Subject"},
		{"yaml-prose-length", "db_password: at least twelve characters long"},
		{"ini-prose-signup", "password = the one you chose at signup"},
		{"yaml-prose-digit-characters", "password: minimum 12 characters required"},
		{"yaml-label-hint", "password_hint: Admin Password Reset Field"},
		// Code's dotted names whose last part is a credential's name, and
		// acronyms inside camel case.
		// (C#'s Settings.Default.Password, capitalized words ending in
		// the bare word, reads as a password: Sunshine.Key does.)
		{"indented-dotted-acronyms", "    password = config.DBPassword\n    password = settings.OpenAIKey\n    password = ctx.JWTSecret"},
		{"indented-dotted-digits", "    password = self.x509Cert\n    password = Auth0Config.ClientSecret\n    password = user.password_2fa"},
		{"indented-dotted-token", "    api_key = Settings.ApiKey\n    token = Context.AccessToken"},
		// HTML5's capital aliases of lt, gt, amp and quot.
		{"json-entity-capitals", `{"password": "&LT;", "secret": "&AMP;", "token": "&GT;", "api_key": "&QUOT;"}`},
		// Redis and SQL Server words that set nothing.
		{"redis-config-get", "CONFIG GET REQUIREPASS\nACL GETUSER app"},
		{"sp-prose", "Run Sp_Addlogin only on old servers; sp_who lists sessions."},
		// A call that closes at the value's end, or before a ";".
		{"sql-call-semicolon", "UPDATE users SET password = md5(?);"},
		{"sql-call-quoted-paren", "UPDATE users SET password = crypt($1, ')(') WHERE id = 2;"},
		// A T-SQL statement whose WITH stands on a line of its own.
		{"tsql-with-own-line", "ALTER LOGIN app\n  WITH PASSWORD = @Password1;"},
		{"tsql-after-semicolon", "select 1; CREATE LOGIN app WITH PASSWORD = @Password1"},
	}
}

func TestReview46SecretsRemoved(t *testing.T) {
	checkGoes(t, review46Secrets())
}

func TestReview46BenignStay(t *testing.T) {
	checkStays(t, review46Benign())
}
