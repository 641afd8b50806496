package secrets

import "testing"

// tsqlDeclareSecrets are string literals that T-SQL's DECLARE gives a
// password's variable: with AS, as a later variable of one DECLARE, over
// several lines, and under the names of the password vocabulary.
func tsqlDeclareSecrets() []reviewSecret {
	return []reviewSecret{
		{"declare-as", "DECLARE @pw AS NVARCHAR(50) = N'Winter2024!';", "Winter2024"},
		{"declare-as-lower", "declare @password as varchar(64) = 'Zq7xK9mQ7pZ2wR5t'", "Zq7xK9mQ7pZ2wR5t"},
		{"declare-second", "DECLARE @id INT = 1, @password NVARCHAR(64) = 'Zq7xK9mQ7pZ2wR5t';", "Zq7xK9mQ7pZ2wR5t"},
		{"declare-third", "DECLARE @id INT = 1, @name sysname = N'app', @pwd sysname = N'Summer2024#';", "Summer2024"},
		{"declare-lines", "DECLARE\n    @pw NVARCHAR(50) = N'Winter2024!';", "Winter2024"},
		{"declare-second-line", "DECLARE @id INT = 1,\n        @password NVARCHAR(64) = 'Zq7xK9mQ7pZ2wR5t';", "Zq7xK9mQ7pZ2wR5t"},
		{"declare-second-crlf", "DECLARE @login sysname = N'app',\r\n\t@secret NVARCHAR(128) = N'Zq7xK9mQ7pZ2wR5t'\r\n", "Zq7xK9mQ7pZ2wR5t"},
		{"declare-lines-json", `{"query":"DECLARE @id INT = 1,\n  @password NVARCHAR(64) = 'Zq7xK9mQ7pZ2wR5t';\nALTER LOGIN app WITH PASSWORD = @password;"}`, "Zq7xK9mQ7pZ2wR5t"},
		{"declare-pass", "DECLARE @pass varchar(50) = 'Winter2024!';", "Winter2024"},
		{"declare-passwd", "DECLARE @passwd varchar(50) = 'Winter2024!';", "Winter2024"},
		{"declare-cred", "DECLARE @cred nvarchar(100) = N'Zq7xK9mQ7pZ2wR5t';", "Zq7xK9mQ7pZ2wR5t"},
		{"declare-secret", "DECLARE @secret nvarchar(100) = N'Zq7xK9mQ7pZ2wR5t';", "Zq7xK9mQ7pZ2wR5t"},
		{"declare-api-key", "DECLARE @api_key varchar(64) = '<K>';", ""},
		{"declare-token", "DECLARE @token varchar(max) = '<K>';", ""},
		{"set-pass", "SET @pass = 'Winter2024!';", "Winter2024"},
		{"declare-heredoc", "sqlcmd -S db -U sa -i - <<'SQL'\nDECLARE @id INT = 1,\n  @passwd sysname = N'Winter2024!';\nSQL", "Winter2024"},
		{"declare-as-max-camel", "DECLARE @dbPass AS nvarchar(max) = N'Winter2024!', @SaToken AS varchar(64) = 'Zq7xK9mQ7pZ2wR5t';", "Winter2024|Zq7xK9mQ7pZ2wR5t"},
		{"declare-lines-tabs-json", `{"query":"DECLARE\n\t@id INT = 1,\n\t@cred2 NVARCHAR(64) = N'Zq7xK9mQ7pZ2wR5t'"}`, "Zq7xK9mQ7pZ2wR5t"},
		{"declare-json-escaped-quote", `{"sql":"DECLARE @id INT = 1, @token varchar(64) = '<K>'"}`, ""},
	}
}

// tsqlDeclareBenign are DECLAREs and SETs of other variables, of
// placeholders, and of names of a password's column.
func tsqlDeclareBenign() []reviewText {
	return []reviewText{
		{"declare-other-names", "DECLARE @name AS NVARCHAR(50) = N'Alice Smith', @msg varchar(200) = 'Winter2024 sale';"},
		{"declare-placeholders", "DECLARE @pw NVARCHAR(50) = '%s';\nSET @password = @p1;\nDECLARE @id INT = 1, @password NVARCHAR(64) = @p2;"},
		{"declare-column-name", "DECLARE @col sysname = 'password_hash', @tbl sysname = 'users';\nSET @column = N'password_hash';"},
		{"declare-lines-other", "DECLARE\n    @id INT = 1,\n    @title NVARCHAR(50) = N'Winter2024 Release';"},
		{"declare-question-placeholder", "DECLARE @id INT = 1, @secret NVARCHAR(64) = ?;"},
		{"prose-declare", "Declare the password in a variable, and set @password = the value you chose."},
		{"csharp-parameters", `cmd.Parameters.AddWithValue("@password", hash); // DECLARE @id INT = 1, @user sysname = 'app'`},
		{"declare-key-lookup", "DECLARE @key varchar(50) = 'customer_id', @cache_key nvarchar(100) = N'orders:2024';"},
		{"declare-describing-names", "DECLARE @token_count INT = 0, @token_type varchar(20) = 'Bearer', @secret_name sysname = N'db-password';"},
		{"declare-pass-words", "DECLARE @passenger nvarchar(50) = N'Alice', @pass_rate varchar(10) = 'high2024';\nDECLARE @bypass bit = 1;"},
		{"declare-hash-binary", "DECLARE @id INT = 1, @password_hash varbinary(64) = 0x5A3F, @salt varbinary(16) = 0x00;"},
		{"sql-comma-not-declare", "SELECT @id = 1, @password = password_hash FROM users;\nUPDATE t SET a = 1, b = 'x';"},
		{"markdown-declare", "Use `DECLARE @pw NVARCHAR(50) = N'<password>'` and never commit it."},
		{"declare-token-words", "DECLARE @token varchar(20) = 'refresh', @secret nvarchar(10) = N'none';"},
		{"declare-template", "DECLARE @id INT = 1, @password NVARCHAR(64) = '{{ password }}';\nDECLARE @token varchar(64) = '${TOKEN}';"},
	}
}

func TestTSQLDeclareSecretsRemoved(t *testing.T) {
	checkGoes(t, tsqlDeclareSecrets())
}

func TestTSQLDeclareBenignStay(t *testing.T) {
	checkStays(t, tsqlDeclareBenign())
}
