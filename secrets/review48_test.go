package secrets

import (
	"strings"
	"testing"
)

// review48Benign are texts the review of session 31 found changed by
// that session's rules, and unchanged before them: T-SQL variables
// declared sysname that hold an object's name (a credential's, a
// proxy's) and PowerShell's -Key given a configuration's path. (Its
// cases under other types, -Key's two-part and numbered names, and
// marked values naming a credential went to review49_test.go as
// must-go: they were the shapes of passwords too.)
func review48Benign() []reviewText {
	return []reviewText{
		{"tsql-credential-name-backup", "DECLARE @cred sysname = N'AzureStorageCred';\nBACKUP DATABASE db TO URL = 'https://a.blob.core.windows.net/b/db.bak' WITH CREDENTIAL = @cred;"},
		{"tsql-proxy-name", "DECLARE @cred sysname = N'sql_agent_proxy';\nEXEC msdb.dbo.sp_add_proxy @proxy_name = N'p', @credential_name = @cred;"},
		{"tsql-credential-camel-name", "DECLARE @credential sysname = N'ProxyCredential';"},
		{"ps-key-config-path", "Set-AzAppConfigurationKeyValue -Endpoint $e -Key 'TestApp:Settings:Version2' -Value 1"},
		// PowerShell's prompt and -Command strings where no literal is given.
		{"ps-prompt-variable", "PS C:\\> Set-Secret -Name db -Secret $pw\nPS /home/me> Get-Secret -Name db -AsPlainText"},
		{"powershell-command-variable", "pwsh -NoProfile -Command \"Set-Secret -Name x -Secret $env:PW\"\npowershell -Command \"Get-Service -Name sql\""},
		{"tsql-mixed-case-other-names", "Declare @Name VarChar(50) = 'Alice', @Title VarChar(50) = 'Winter2024 Release';"},
		{"tsql-statement-ended", "DECLARE @sep char(1) = ';';\nSELECT @id = 1, @pw = 'x' + @sep;"},
		{"tsql-doubled-quote-word", "DECLARE @msg varchar(64) = 'It''s Winter2024!', @status varchar(10) = 'passed';"},
		{"ps-prompt-prose", "PS> is the prompt; type -Token then the name of the variable."},
	}
}

// review48Secrets are the secrets beside review48Benign's names that
// must still go: a generated key or a password under the same names, a
// -Key whose parts are no words, a credential's name with a year in it,
// and a cmdlet's value before the ")" that closes its call.
func review48Secrets() []reviewSecret {
	return []reviewSecret{
		{"tsql-cred-sysname-key", "DECLARE @cred sysname = N'<K>';", ""},
		{"tsql-secret-key", "DECLARE @secret varchar(64) = '<K>';", ""},
		{"tsql-token-select-key", "SELECT @token = N'<K>';", ""},
		{"tsql-pass-password", "DECLARE @pass varchar(10) = 'Passw0rd!';", "Passw0rd"},
		{"tsql-credential-password", "DECLARE @credential sysname = N'Summer2024#';", "Summer2024"},
		{"ps-key-with-colon", "Unprotect-Blob -Key '<K>:aB3dE5fG' -Path x.bin", ""},
		{"ps-key-glued", "Unprotect-Blob -Key:<K> -Path x.bin", ""},
		{"marked-name-with-year", `{"password": "@vault_pw_2024"}`, "vault_pw_2024"},
		{"marked-pass-year", `password = "&pass2024"`, "pass2024"},
		{"ps-paren-secret", "(Set-Secret -Name db -Secret <K>)", ""},
	}
}

// review48Leaks are secrets the review of session 31 found kept:
// PowerShell's cmdlets after a prompt, in a -Command string and with
// parameters of the same kind (-SecretKey, -SasToken,
// -PersonalAccessToken); T-SQL's later variables after a literal with a
// ";", after a comment, in mixed case, and a literal with a doubled
// quote.
func review48Leaks() []reviewSecret {
	return []reviewSecret{
		{"ps-prompt-windows", "PS C:\\> Set-Secret -Name db -Secret Zq7xK9mQ7pZ2wR5t", "Zq7xK9mQ7pZ2wR5t"},
		{"ps-prompt-unix", "PS /home/me> Connect-Thing -Token Zq7xK9mQ7pZ2wR5t", "Zq7xK9mQ7pZ2wR5t"},
		{"ps-prompt-drive", "PS C:\\Users\\me> New-LocalUser -Name bob -Password <K>", ""},
		{"powershell-command", "powershell -Command \"Unlock-SecretStore -Password 'Winter2024!'\"", "Winter2024"},
		{"pwsh-command", "pwsh -NoProfile -Command \"Set-Secret -Name x -Secret Zq7xK9mQ7pZ2wR5t\"", "Zq7xK9mQ7pZ2wR5t"},
		{"powershell-exe-c", "powershell.exe -NoProfile -c 'Connect-Thing -Token <K>'", ""},
		{"ps-secret-key", "Set-AWSCredential -AccessKey AKIAIOSFODNN7EXAMPLE -SecretKey Zq7xK9mQ7pZ2wR5t -StoreAs default", "Zq7xK9mQ7pZ2wR5t"},
		{"ps-sas-token", "New-AzStorageContext -StorageAccountName a -SasToken 'Zq7xK9mQ7pZ2wR5t'", "Zq7xK9mQ7pZ2wR5t"},
		{"ps-personal-access-token", "Connect-AzureDevOps -PersonalAccessToken Zq7xK9mQ7pZ2wR5t", "Zq7xK9mQ7pZ2wR5t"},
		{"tsql-semicolon-literal-before", "DECLARE @sep char(1) = ';', @pw varchar(64) = 'Zq7xK9mQ7pZ2wR5t';", "Zq7xK9mQ7pZ2wR5t"},
		{"tsql-comment-between", "DECLARE @id INT = 1, -- id\n  @pw varchar(64) = 'Zq7xK9mQ7pZ2wR5t';", "Zq7xK9mQ7pZ2wR5t"},
		{"tsql-mixed-case", "Declare @Id Int = 1, @Pw VarChar(64) = 'Winter2024!'", "Winter2024"},
		{"tsql-doubled-quote", "DECLARE @pass varchar(64) = 'Win''ter2024!';", "ter2024"},
		{"tsql-comment-after-literal", "DECLARE @login sysname = N'app', -- the app's login\n\t@password NVARCHAR(64) = N'<K>';", ""},
		{"tsql-comment-json", `{"query":"DECLARE @id INT = 1, -- id\n  @secret NVARCHAR(64) = N'<K>';"}`, ""},
		{"tsql-doubled-quote-first", "SET @pw = '''Zq7xK9mQ7pZ2wR5t';", "Zq7xK9mQ7pZ2wR5t"},
	}
}

func TestReview48LeaksRemoved(t *testing.T) {
	checkGoes(t, review48Leaks())
}

func TestReview48SecretsRemoved(t *testing.T) {
	checkGoes(t, review48Secrets())
}

func TestReview48BenignStay(t *testing.T) {
	checkStays(t, review48Benign())
}

// TestCmdletValueEndsAtParen: a cmdlet run in "(…)" ends its last
// value before the ")" that closes it; the value goes, the ")" stays.
func TestCmdletValueEndsAtParen(t *testing.T) {
	x, err := Rules{}.Redactor()
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{
		"(Set-Secret -Name db -Secret Zq7xK9mQ7pZ2wR5t)",
		"(New-LocalUser -Name bob -Password Zq7xK9mQ7pZ2wR5t)",
		"$u = (New-LocalUser -Name bob -Password Zq7xK9mQ7pZ2wR5t); $u",
	} {
		got := x.Text(text)
		if strings.Contains(got, "Zq7xK9mQ7pZ2wR5t") {
			t.Errorf("%q: kept the secret: %q", text, got)
		}
		if strings.Count(got, ")") != strings.Count(text, ")") {
			t.Errorf("%q: lost its \")\": %q", text, got)
		}
	}
}
