package secrets

import (
	"strings"
	"testing"
)

// review48Benign are texts the review of session 31 found changed by
// that session's rules, and unchanged before them: T-SQL variables that
// hold an object's name (a credential's, a proxy's, a Key Vault
// secret's) or a word, PowerShell's -Key given a dictionary's or a
// cache's key, and a password's marked value that names a credential's
// variable.
func review48Benign() []reviewText {
	return []reviewText{
		{"tsql-credential-name-backup", "DECLARE @cred sysname = N'AzureStorageCred';\nBACKUP DATABASE db TO URL = 'https://a.blob.core.windows.net/b/db.bak' WITH CREDENTIAL = @cred;"},
		{"tsql-proxy-name", "DECLARE @cred sysname = N'sql_agent_proxy';\nEXEC msdb.dbo.sp_add_proxy @proxy_name = N'p', @credential_name = @cred;"},
		{"tsql-token-snake-name", "DECLARE @token NVARCHAR(50) = N'access_token';"},
		{"tsql-secret-camel-name", "DECLARE @secret varchar(50) = 'KeyVaultSecretName';"},
		{"tsql-select-token-name", "SELECT @token = N'AccessToken';"},
		{"tsql-credential-camel-name", "DECLARE @credential sysname = N'ProxyCredential';"},
		{"tsql-pass-word", "DECLARE @pass varchar(10) = 'passed';"},
		{"ps-key-config-path", "Set-AzAppConfigurationKeyValue -Endpoint $e -Key 'TestApp:Settings:Version2' -Value 1"},
		{"ps-key-property-name", "Get-PnPPropertyBagValue -Key 'SiteVersion2'"},
		{"ps-key-cache-key", "Get-CacheItem -Key 'user:42'"},
		{"marked-credential-name-digit", "{\"password\": \"@db_password_1\"}"},
		{"marked-pw-name-digit", "\"password\": \"@vault_pw1\""},
		{"marked-amp-pw-ref", "password = \"&pw_ref1\""},
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
