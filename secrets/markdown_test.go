package secrets

import (
	"strconv"
	"testing"
)

// TestMarkdownLabelledSecretsRemoved: a credential written out as a
// model's answer formats it, its name in emphasis or code, in a list or a
// quote, or a table's row.
func TestMarkdownLabelledSecretsRemoved(t *testing.T) {
	var cases []reviewSecret
	for i, c := range []string{
		"**Password:** <K>", "**Password**: <K>", "- **Password:** <K>", "* **API key:** <K>", "**api_key**: <K>", "`api_key`: <K>",
		"- `password`: `<K>`", "Password: `<K>`", "**Username:** admin\n**Password:** <K>", "> **Password:** <K>", "1. **Password:** <K>",
		"**Client Secret:** <K>", "**Secret:** <K>", "**Token:** <K>", "**Access token:** <K>", "__Password:__ <K>", "*Password:* <K>",
		"| Password | <K> |", "| api_key | `<K>` |", "| **Client secret** | <K> |", "| Field | Value |\n|---|---|\n| Username | admin |\n| Password | <K> |",
		"Here are the credentials:\n\n- **Username:** admin\n- **Password:** `<K>`\n", "  - **DB password**: <K>",
		// what review 70 found f6ad0d7 kept: words after the key, a
		// task list's box, a letter's item, other bullets
		"**Password:** <K> (change it on first login)", "**API key:** <K> — keep it safe", "**Token:** <K> (expires in 1h)",
		"- [ ] **Password:** <K>", "- [x] **Password:** <K>", "a. **Password:** <K>", "• **Password:** <K>", "→ **Password:** <K>",
	} {
		cases = append(cases, reviewSecret{name: strconv.Itoa(i), text: c})
	}
	checkGoes(t, cases)
}

// TestMarkdownLabelsBenignStay: the same labels before what is no
// credential (rules, placeholders, counts, words, types), emphasis that
// labels nothing, and tables that describe parameters.
func TestMarkdownLabelsBenignStay(t *testing.T) {
	checkStays(t, []reviewText{
		{"rules", "**Password:** must be at least 8 characters\n- **Password:** see the vault\n**API key:** `YOUR_API_KEY`\n**API key:** your-api-key-here\n**Password:** `********`"},
		{"counts", "**Tokens:** 4096\n**Token:** 1,234 used\n**Secret:** the answer is 42\n**Key:** Enter\n**Token count:** 512"},
		{"emphasis", "**Note:** the password is in the vault\n*Important*: rotate keys monthly\n`--password`: the flag that sets it\n**Step 2:** run the tests"},
		{"tables", "| Name | Type | Description |\n|---|---|---|\n| api_key | string | The API key |\n| password | `str` | Required |\n| token | count | 12 |\n| Secret | Yes |"},
		// what review 70 found f6ad0d7 redacted: types and code as values,
		// a schema's columns, a code span that prose goes on after
		{"types", "| Parameter | Type | Description |\n|---|---|---|\n| `api_key` | `Optional[str]` | Your API key |\n| access_token | `Option<String>` | The token |\n" +
			"| client_secret | Uint8Array2024abc | Raw bytes |\n| password | VARCHAR(255) | Hashed |"},
		{"defaults", "| Setting | Default | Description |\n|---|---|---|\n| secret_key | secrets_token_hex_32 | Signs sessions |\n| api_key | OPENAI_API_KEY_2 | Read at start |"},
		{"code", "- **API key:** `os.environ[\"OPENAI_API_KEY\"]`\n- **Secret key:** `secrets.token_urlsafe(32)`\n- **Password:** `keyring.get_password(\"app\", \"user\")`\n" +
			"| secret_key | `crypto.randomBytes(32).toString('hex')` |\n- `api_key`: `Optional[str]` — your key\n**Secret:** `*string`"},
		{"span-then-prose", "**Password:** `P@ssw0rd2024` is an example of a weak password.\n**Token:** `Zq7xZ8mR3pY9wB7tQ` is what the docs show; use your own."},
	})
}
