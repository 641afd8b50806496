package secrets

import "testing"

// The review of 3da39b2 and 1d45ae5 (helper-62) found secrets kept: a
// T-SQL literal whose closing quote another quote follows with no later
// quote on the line (1d45ae5's doubled-quote reading dropped the
// assignment), passphrases and common words under @cred, @token,
// @secret, @credential, @pass… (3da39b2's object's-name exemption),
// PowerShell's -Key given a password shaped as a configuration's key
// (3da39b2's -Key exemption), and a password's marked value naming a
// credential numbered by one or two digits (3da39b2's marked-name
// exemption). Each table below is one of them.

// review49DoubledQuote: a doubled quote that no later quote on the line
// follows leaves the first quote to end the literal.
func review49DoubledQuote() []reviewSecret {
	return []reviewSecret{
		{"tsql-trailing-doubled-key", "DECLARE @pw varchar(64) = 'Zq7xZ8mR3pY9wB7t''", "Zq7xZ8mR3pY9wB7t"},
		{"tsql-trailing-doubled-password", "DECLARE @pw varchar(64) = 'Winter2024!''", "Winter2024"},
		{"tsql-trailing-doubled-bash", "bash -c 'DECLARE @pw varchar(64) = 'Zq7xZ8mR3pY9wB7t''", "Zq7xZ8mR3pY9wB7t"},
		{"tsql-trailing-doubled-later", "DECLARE @id INT = 1, @pw varchar(64) = 'Zq7xZ8mR3pY9wB7t''", "Zq7xZ8mR3pY9wB7t"},
		{"tsql-trailing-doubled-dict", "{'sql':'DECLARE @id INT = 1, @token varchar(64) = 'Zq7xZ8mR3pY9wB7t''}", "Zq7xZ8mR3pY9wB7t"},
		{"tsql-trailing-doubled-pwsh", "powershell -Command \"{'query':'DECLARE\\n\\t@id INT = 1,\\n\\t@cred2 NVARCHAR(64) = N'Zq7xK9mQ7pZ2wR5t''}\"", "Zq7xK9mQ7pZ2wR5t"},
		{"tsql-doubled-inside", "DECLARE @pw varchar(64) = 'Win''ter2024!';", "Win|ter2024"},
	}
}

// review49TSQLNames: only a variable declared sysname keeps an object's
// name; under another type or set, words in CamelCase or joined by "_"
// may be a passphrase, and a word a password.
func review49TSQLNames() []reviewSecret {
	cases := []reviewSecret{
		{"tsql-token-passphrase", "SELECT @token = N'PurpleMonkeyDishwasher';", "PurpleMonkeyDishwasher"},
		{"tsql-token-snake-name", "DECLARE @token NVARCHAR(50) = N'access_token';", "access_token"},
		{"tsql-select-token-name", "SELECT @token = N'AccessToken';", "AccessToken"},
		{"tsql-secret-camel-name", "DECLARE @secret varchar(50) = 'KeyVaultSecretName';", "KeyVaultSecretName"},
		{"tsql-pass-word", "DECLARE @pass varchar(10) = 'passed';", "passed"},
		{"tsql-sysname-password", "DECLARE @sa_pwd sysname = N'Summer2024#';", "Summer2024"},
	}
	names := []string{"cred", "token", "secret", "credential", "pass", "admin_pass"}
	for i, v := range []string{"CorrectHorseBatteryStaple", "PurpleMonkeyDishwasher", "correct_horse_battery_staple", "BlueSky", "MonkeyBusiness", "HappyDays"} {
		// each passphrase under two of the names, declared and set
		declared, set := names[i], names[(i+3)%len(names)]
		cases = append(cases,
			reviewSecret{"tsql-declare-" + declared + "-" + v, "DECLARE @" + declared + " NVARCHAR(64) = N'" + v + "';", v},
			reviewSecret{"tsql-set-" + set + "-" + v, "SET @" + set + " = '" + v + "';", v})
	}
	for _, v := range []string{"sunshine", "dragon", "iloveyou", "monkey", "football", "princess", "welcome", "Sunshine", "Dragon"} {
		cases = append(cases, reviewSecret{"tsql-pass-" + v, "DECLARE @pass varchar(50) = '" + v + "';", v})
	}
	return cases
}

// review49KeyValues: -Key keeps only a configuration's path of three
// parts or more; two parts, digits alone in a part, a credential's or a
// common password's word, or words with digits go.
func review49KeyValues() []reviewSecret {
	cases := []reviewSecret{
		{"ps-key-property-name", "Get-PnPPropertyBagValue -Key 'SiteVersion2'", "SiteVersion2"},
		{"ps-key-cache-key", "Get-CacheItem -Key 'user:42'", "user:42"},
	}
	for _, v := range []string{"MySecretKey2", "MyPassword1", "HelloWorld99", "BlueSky42", "Winter:2024", "Summer:2023", "Admin:2024",
		"Password:123", "root:1234", "abc:123", "Summer:Spring:2023", "Dragon:Slayer:42", "Company:Secret:9"} {
		cases = append(cases, reviewSecret{"ps-key-" + v, "Set-Thing -Key '" + v + "'", v})
	}
	return cases
}

// review49MarkedNames: a password's marked value that names a
// credential, numbered, is judged as any other: it goes.
func review49MarkedNames() []reviewSecret {
	cases := []reviewSecret{
		{"marked-credential-name-digit", "{\"password\": \"@db_password_1\"}", "db_password_1"},
		{"marked-pw-name-digit", "\"password\": \"@vault_pw1\"", "vault_pw1"},
		{"marked-amp-pw-ref", "password = \"&pw_ref1\"", "pw_ref1"},
	}
	forms := []func(v string) string{
		func(v string) string { return `password = "` + v + `"` },
		func(v string) string { return `{"password": "` + v + `"}` },
		func(v string) string { return `DB_PASSWORD='` + v + `'` },
		func(v string) string { return `password: '` + v + `'` },
	}
	for i, v := range []string{"@password1", "@pass1", "@passwd1", "@token1", "@pw1", "@secret_1", "@mysecret_99", "@admin_pass1",
		"@pass_99", "@token_12", "@api_key_7", "@root_pw_12", "@pwd_01", "&password1"} {
		// each value in one of the four forms, each form in turn
		cases = append(cases, reviewSecret{"marked-" + v, forms[i%len(forms)](v), v[1:]})
	}
	return cases
}

// review49Benign are names the narrowed exemptions still keep: an
// object's name declared sysname, and a configuration's path of three
// parts or more.
func review49Benign() []reviewText {
	return []reviewText{
		{"tsql-sysname-snake", "DECLARE @token sysname = N'access_token';"},
		{"tsql-sysname-as", "DECLARE @secret AS sysname = N'KeyVaultSecretName';"},
		{"ps-key-config-lower", "Get-Config -Key 'app:settings:version2'"},
		{"ps-key-config-four", "Set-AzAppConfigurationKeyValue -Key 'TestApp:Settings:Logging:Level'"},
	}
}

func TestReview49DoubledQuoteRemoved(t *testing.T) { checkGoes(t, review49DoubledQuote()) }

func TestReview49TSQLNamesRemoved(t *testing.T) { checkGoes(t, review49TSQLNames()) }

func TestReview49KeyValuesRemoved(t *testing.T) { checkGoes(t, review49KeyValues()) }

func TestReview49MarkedNamesRemoved(t *testing.T) { checkGoes(t, review49MarkedNames()) }

func TestReview49BenignStay(t *testing.T) { checkStays(t, review49Benign()) }
