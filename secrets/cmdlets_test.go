package secrets

import "testing"

// cmdletSecrets are the secret parameters of PowerShell's cmdlets, of
// any approved verb, in any case, given a literal, on one line or over
// lines a backtick ends; secret is what the text must lose (reviewSecret).
func cmdletSecrets() []reviewSecret {
	return []reviewSecret{
		{"ps-unlock-store", "Unlock-SecretStore -Password 'Winter2024!' -PasswordTimeout 600", "Winter2024"},
		{"ps-new-password", "Set-LocalUserPass -Name bob -NewPassword Zq7xK9mQ7pZ2wR5t", "Zq7xK9mQ7pZ2wR5t"},
		{"ps-secret", "Set-Secret -Name db -Secret 'Zq7xK9mQ7pZ2wR5t'", "Zq7xK9mQ7pZ2wR5t"},
		{"ps-client-secret", `Connect-Tenant -TenantId t -ClientSecret "Zq7xK9mQ7pZ2wR5t"`, "Zq7xK9mQ7pZ2wR5t"},
		{"ps-token", "Connect-Service -Url https://x -Token <K>", ""},
		{"ps-access-token", "Connect-MgGraph -AccessToken <K> -NoWelcome", ""},
		{"ps-api-key", "Invoke-Scan -ApiKey '<K>' -Target x", ""},
		{"ps-nuget-key", "Publish-Module -Name MyMod -NuGetApiKey <K>", ""},
		{"ps-key", "Unprotect-Blob -Key <K> -Path x.bin", ""},
		{"ps-storage-key", "New-AzStorageContext -StorageAccountName acct -StorageAccountKey '<K>=='", ""},
		{"ps-lower-param", "invoke-sqlcmd -serverinstance db -username sa -password Winter2024!", "Winter2024"},
		{"ps-lower-secret", "set-secret -name db -secret Zq7xK9mQ7pZ2wR5t", "Zq7xK9mQ7pZ2wR5t"},
		{"ps-upper-cmdlet", "UNLOCK-SECRETSTORE -PASSWORD Winter2024!", "Winter2024"},
		{"ps-colon", "Set-Secret -Name db -Secret:'Zq7xK9mQ7pZ2wR5t'", "Zq7xK9mQ7pZ2wR5t"},
		{"ps-switch-before", "Connect-Db -Server db -Force -Password 'Zq7xK9mQ7pZ2wR5t'", "Zq7xK9mQ7pZ2wR5t"},
		{"ps-continued-password", "Connect-Db -Server db `\n  -Password 'Zq7xK9mQ7pZ2wR5t'", "Zq7xK9mQ7pZ2wR5t"},
		{"ps-continued-crlf", "Connect-Db -Server db `\r\n  -Password 'Zq7xK9mQ7pZ2wR5t'\r\n", "Zq7xK9mQ7pZ2wR5t"},
		{"ps-client-secret-continued", "Connect-Tenant -TenantId t `\n  -ClientId c `\n  -ClientSecret 'Zq7xK9mQ7pZ2wR5t'", "Zq7xK9mQ7pZ2wR5t"},
		{"ps-nuget-continued", "Publish-Module -Name MyMod `\r\n  -NuGetApiKey <K>", ""},
		{"ps-continued-json", `{"command":"Connect-Db -Server db ` + "`" + `\n  -Password \"Zq7xK9mQ7pZ2wR5t\""}`, "Zq7xK9mQ7pZ2wR5t"},
		{"ps-in-heredoc", "pwsh -Command - <<'EOF'\nUnlock-SecretStore `\n  -Password Winter2024!\nEOF", "Winter2024"},
		{"ps-after-pipe", "Get-Content x | Set-Secret -Name db -Secret Zq7xK9mQ7pZ2wR5t", "Zq7xK9mQ7pZ2wR5t"},
		{"ps-colon-double-quoted", `Unlock-SecretStore -Password:"Winter2024!"`, "Winter2024"},
		{"ps-key-not-chord", "Unprotect-Blob -Key 'Ctrl+Winter2024x' -Path x.bin", "Winter2024x"},
		{"ps-token-json-escaped", `{"content":"Connect-Service -Token \"Zq7xK9mQ7pZ2wR5t\" -Url https://x"}`, "Zq7xK9mQ7pZ2wR5t"},
		// The review's leaks: inline code's closing backtick before a
		// line break joins no lines, nor does a cmdlet's line whose next
		// line is another command.
		{"inline-code-then-sqlcmd", "Run `Get-Service`\nsqlcmd -S db -U sa -P Winter2024!", "Winter2024"},
		{"inline-code-spaced-then-sqlcmd", "Run `Get-Service -Name x `\nsqlcmd -S db -U sa -P Winter2024!", "Winter2024"},
		{"inline-code-then-mysql", "Try `Get-Date`\r\nmysql -u root -pWinter2024! shop", "Winter2024"},
		{"inline-code-then-redis", "See `Test-Connection`\nredis-cli -a Zq7xK9mQ7pZ2wR5t ping", "Zq7xK9mQ7pZ2wR5t"},
		{"inline-code-then-docker-json", `{"content":"Use ` + "`Get-Service`" + `\ndocker login -u bob -p Zq7xK9mQ7pZ2wR5t"}`, "Zq7xK9mQ7pZ2wR5t"},
		{"cmdlet-tick-then-command", "Get-Service -Name x `\nsqlcmd -S db -U sa -P Winter2024!", "Winter2024"},
		{"cmdlet-tick-then-quoted-command", "Set-Item -Path x `\n'sshpass' -p Winter2024! ssh db", "Winter2024"},
		{"cmdlet-tick-then-sshpass", "Get-Service -Name x `\nsshpass -p 'Winter2024!' ssh admin@db", "Winter2024"},
	}
}

// cmdletBenign are cmdlets' parameters given no literal, other
// parameters, and texts with backticks before line breaks.
func cmdletBenign() []reviewText {
	return []reviewText{
		{"ps-credential", "New-PSDrive -Name X -PSProvider FileSystem -Root \\\\srv\\share -Credential $cred"},
		{"ps-credential-user", "New-PSDrive -Name X -PSProvider FileSystem -Root \\\\srv\\share -Credential 'CORP\\svc_backup'"},
		{"ps-password-variable", "Invoke-Sqlcmd -ServerInstance db -Username sa -Password $pw\nSet-Secret -Name db -Secret $env:DB_SECRET"},
		{"ps-password-read-host", "Unlock-SecretStore -Password (Read-Host -AsSecureString)"},
		{"ps-key-path", "Import-Certificate -KeyPath C:\\certs\\app.key -KeyLength 2048\nNew-SelfSignedCertificate -KeyLength 4096 -KeyAlgorithm RSA"},
		{"ps-key-then-flag", "Set-Thing -Key -Force\nSet-Thing -Token -Verbose"},
		{"ps-psreadline-keys", "Set-PSReadLineKeyHandler -Key Ctrl+d -Function DeleteChar\nSet-PSReadLineKeyHandler -Key UpArrow -Function HistorySearchBackward\nSet-PSReadLineKeyHandler -Key 'Shift+Tab' -Function MenuComplete"},
		{"ps-secret-variables-continued", "Set-Secret -Name db -Secret $pw `\n  -Vault Local\nGet-Secret -Name db -AsPlainText"},
		{"ps-token-placeholder", "Connect-MgGraph -AccessToken <token>\nPublish-Module -Name x -NuGetApiKey $env:NUGET_KEY"},
		{"ps-get-commands", "Get-AzStorageAccountKey -ResourceGroupName rg -Name acct\nGet-Secret -Name db -Vault Local"},
		{"bash-backtick-line", "echo `\ndate`\nmysql -u root -p shop"},
		{"markdown-inline-code", "Run `Get-Service`\nthen `Set-Secret -Name db`\nand `-Password` is a parameter."},
		{"prose-password-param", "Pass -Password with a secure string; -Token and -Key are optional."},
		{"go-raw-string", "s := `Get-Service -Name x `\nfmt.Println(s)"},
		{"ps-psreadline-chords", "Set-PSReadLineKeyHandler -Chord 'Ctrl+x,Ctrl+e' -Function ViEditVisually\nSet-PSReadLineKeyHandler -Key Alt+F7 -Function X\nRemove-PSReadLineKeyHandler -Key 'Ctrl+Shift+z'"},
		{"python-password-flag", "parser.add_argument('-Password', help='the password')\nGet-Help Set-Secret -Parameter Secret"},
		{"ps-key-names", "Get-ItemProperty -Path HKLM:\\Software\\App -Name Key\nSort-Object -Property Key"},
		{"ps-continued-values", "New-Item -Path C:\\temp `\n  -ItemType Directory `\n  -Force"},
		{"ps-comment", "# Connect-Db -Server db -Password <password>\nConnect-Db -Server db -Password $secure"},
	}
}

func TestCmdletSecretsRemoved(t *testing.T) {
	checkGoes(t, cmdletSecrets())
}

func TestCmdletBenignStay(t *testing.T) {
	checkStays(t, cmdletBenign())
}
