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

func TestReview49DoubledQuoteRemoved(t *testing.T) { checkGoes(t, review49DoubledQuote()) }
