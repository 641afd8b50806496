package secrets

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// leadInCommands are commands after what leads in to them: a sentence's
// first words, a log line's time, a runner's "--"; a here-string before
// sudo -S's command; net.exe; and process APIs that give the command's
// words after a context or through a builder's calls.
var leadInCommands = []string{
	"Step 2: mysql -uroot -p<K> shop", "Then run mysql -uroot -p<K> shop", "First, mysql -uroot -p<K> shop", "Next run: sshpass -p <K> ssh h",
	"2024-05-01T10:00:00Z mysql -uroot -p<K> shop", "2024-05-01 10:00:00 mysql -uroot -p<K> shop", "10:00:00.123 sshpass -p <K> ssh h",
	"wsl -d Ubuntu -- mysql -uroot -p<K> shop", "runuser -u bob -- mysql -uroot -p<K> shop", "npx -- mysql -uroot -p<K>",
	"sudo -S <<< '<K>' apt update", "net.exe user bob <K> /add", "NET.EXE user bob <K> /add",
	`exec.CommandContext(ctx, "sshpass", "-p", "<K>", "ssh", "h")`, `Command::new("mysql").arg("-uroot").arg("-p<K>")`,
	`Command::new("sshpass").args(&["-p", "<K>", "ssh", "h"])`, `Command::new("mysql").args(["-uroot", "-p<K>"]).status()`,
	// what review 68 found the first reading missed
	"Step 2 - mysql -uroot -p<K> shop", "Then run the following command: mysql -uroot -p<K> shop", "You can also just run mysql -uroot -p<K> shop",
	"Step 2) mysql -uroot -p<K> shop", "To connect to it, run: mysql -uroot -p<K> shop", "Step #2: mysql -uroot -p<K> shop", "Step 2.1: mysql -uroot -p<K> shop",
	"a. sshpass -p <K> ssh h", "i) sshpass -p <K> ssh h", "Then → sshpass -p <K> ssh h", "• sshpass -p <K> ssh h", "Étape 2 : sshpass -p <K> ssh h",
	"步骤2: sshpass -p <K> ssh h", "OK. Then run mysql -uroot -p<K> shop", "Done! Now run mysql -uroot -p<K> shop", "Sure — run mysql -uroot -p<K> shop", ">>> sshpass -p <K> ssh h",
	"Step 2: sudo -u mysql mysql -p<K>", "Then run sudo -u mysql mysql -p<K>", "Step 2: sudo -E mysql -uroot -p<K>", "2024-05-01T10:00:00Z sudo -u bob sshpass -p <K> ssh h",
	"[2024-05-01 10:00:00] mysql -uroot -p<K> shop", "2024-05-01 10:00:00,123 mysql -uroot -p<K> shop", "10:00:00 [INFO] mysql -uroot -p<K> shop",
	"Wed May  1 10:00:00 UTC 2024 mysql -uroot -p<K> shop", "2024-05-01 10:00:00.123 UTC [42] LOG: mysql -uroot -p<K> shop",
	"2024-05-01T10:00:00.123456789+05:30 sshpass -p <K> ssh h", "++ mysql -uroot -p<K> shop",
	"kubectl --context prod -n db exec -it mysql-0 -- mysql -uroot -p<K> shop", "kubectl -n prod exec -it mysql-0 -- mysql -uroot -p<K> shop",
	"podman exec -it db -- mysql -uroot -p<K>", "oc rsh db -- mysql -uroot -p<K>", "runuser -u bob -- /usr/bin/mysql -uroot -p<K>", "wsl -d Ubuntu -- /usr/bin/mysql -uroot -p<K>",
	"sudo -S <<<'<K>' apt update", "sudo -S <<<<K> apt update", "sudo -S apt update <<< '<K>'", "sudo -S -p '' <<< '<K>' apt update",
	"Net.exe user bob <K> /add", "net.EXE user bob <K> /add", "Net User bob <K> /add",
	"- [ ] Run mysql -uroot -p<K> shop", "**Step 2:** mysql -uroot -p<K> shop", "**Step 2**: mysql -uroot -p<K> shop", "_Then run_ mysql -uroot -p<K> shop",
	"On Linux/macOS: mysql -uroot -p<K> shop", "Step 2/3: mysql -uroot -p<K> shop", "Step [2/6]: mysql -uroot -p<K> shop",
	"wsl -d Ubuntu -- sudo mysql -uroot -p<K>", "npx -- env A=b mysql -uroot -p<K>", "podman exec db -- sudo -u mysql mysql -p<K>",
	`exec.CommandContext(context.Background(), "sshpass", "-p", "<K>", "ssh", "h")`, `exec.CommandContext(r.Context(), "sshpass", "-p", "<K>", "ssh", "h")`,
	"exec.CommandContext(\n\tctx,\n\t\"sshpass\", \"-p\", \"<K>\", \"ssh\", \"h\")", `Command::new("mysql").args(&vec!["-uroot", "-p<K>"])`,
	`Command::new("mysql").arg("-uroot").current_dir("/tmp").arg("-p<K>")`, `Command::new("mysql").env("A", "b").arg("-p<K>")`, `Command::new("mysql").stdin(Stdio::null()).arg("-p<K>")`,
}

func TestLeadInCommandSecretsRemoved(t *testing.T) {
	var cases []reviewSecret
	for i, c := range leadInCommands {
		cases = append(cases, reviewSecret{name: strings.Fields(c)[0] + "/" + strconv.Itoa(i), text: c})
	}
	checkGoes(t, cases)
}

// TestLabelledKeysRemoved: a credential labelled by its own name in a
// sentence, and a form's bracketed name in an input's name attribute.
func TestLabelledKeysRemoved(t *testing.T) {
	checkGoes(t, []reviewSecret{
		{name: "x-api-key", text: "Send x-api-key: <K> with each call"},
		{name: "api-key", text: "set api-key: <K> on the request"},
		{name: "password", text: "the admin password: <K>."},
		{name: "client_secret", text: "(its client_secret: <K>)"},
		{name: "input", text: `<input name="user[password]" value="<K>">`},
		{name: "input-key", text: `<input name="settings[api_key]" value="<K>" />`},
		{name: "input-pass", text: `<input name="account[pass]" value="<K>">`},
		{name: "x-api-key-first", text: "x-api-key: <K> with each call"},
		{name: "api-key-first", text: "Api-Key: <K> was rejected"},
		{name: "password-first", text: "password: <K> (the admin's)"},
		{name: "password-dash", text: "Password: <K> - keep it safe"},
		// a label of several words, or a weak name, mid-sentence
		{name: "is", text: "Your password is: <K>"},
		{name: "new-is", text: "Your new password is: <K>"},
		{name: "api-key-is", text: "The API key is: <K>"},
		{name: "api-key-words", text: "the API key: <K>"},
		{name: "client-secret-words", text: "the Client Secret: <K>"},
		{name: "access-token-words", text: "the access token: <K>"},
		{name: "was", text: "your api key was: <K> (keep it)"},
		{name: "weak", text: "use token: <K> here"},
		{name: "paren", text: "(password: <K>)"},
		{name: "bracket", text: "[api_key: <K>]"},
		{name: "bar", text: "|api_key: <K>|"},
		{name: "comma", text: "user: bob,password: <K>"},
		// a value of two words at a line's start goes whole, as it did
		{name: "two-words", text: "password: <K> 9fK2aB3xK9mQ7pZ2", secret: "9fK2aB3xK9mQ7pZ2"},
		{name: "two-keys", text: "access_key: AKIA2E0A8F3B244C9986 wJa1rXUtnFEM2K7MDENGbPxRfiCY3zKq9LmPr", secret: "wJa1rXUtnFEM2K7MDENGbPxRfiCY3zKq9LmPr"},
	})
}

// TestLeadInsBenignStay: the same lead-ins before commands that take no
// password or ask for it, or sentences that only name one; labels in
// sentences whose values are placeholders, code, words or short.
func TestLeadInsBenignStay(t *testing.T) {
	checkStays(t, []reviewText{
		{"sentences", "Step 2: mysql -u root -p shop\nThen run sshpass -p is insecure\nFirst, docker run -p 8080:80 nginx\nNote: mysql -h db -u root -p"},
		{"markdown", "**Step 2:** mysql -u root -p shop\n- [ ] Run docker run -p 8080:80 nginx\n_Then run_ zip -P the archive\nOn Linux/macOS: mysql -u root -p"},
		{"logs", "2024-05-01T10:00:00Z docker run -p 8080:80 nginx\n10:00:00 mysql -u root -p\n2024-05-01 started the server"},
		{"runners", "wsl -d Ubuntu -- ls -la\nnpm test -- -p 3000\ngit log -- src/\nkubectl exec db -- mysql -u root -p"},
		{"code", `exec.CommandContext(ctx, "mysql", "-u", user, "-p"+pw)` + "\n" + `Command::new("docker").args(["run", "-p", "8080:80", "nginx"])` + "\n" + `Command::new("ls").arg("-la")`},
		{"labels", "the api_key: YOUR_API_KEY_1234567890\nset api_key: os.environ['KEY'] first\nthe password: see the vault\nthe api_key: cfg.apiKey2024abcdefgh\ninvalid api_key: must be 32 characters\nthe password: correct horse battery staple"},
		{"inputs", `<input name="user[password]" value="">` + "\n" + `<input name="user[name]" value="bob2024abcdefghij">` + "\n" + `<input name="user[password]" value="{{ form.password }}">`},
		// what review 68 found the first reading redacted: a parameter's
		// type, a model's id, a file, a path from code, a URL, a
		// description, a key's id, a token of pagination, a call that
		// is no process's
		{"types", "def sign(message: bytes, private_key: Ed25519PrivateKey) -> bytes:\nfn sign(&self, msg: &[u8], secret_key: &secp256k1::SecretKey) -> Signature {\n" +
			"func sign(data: Data, privateKey: Curve25519.Signing.PrivateKey) throws -> Data {\n    def __init__(self, signing_key: ed25519.Ed25519PrivateKey, kid: str):"},
		{"ids", "The model api_key: gpt-4o-2024-08-06 answers\nRotated the api_key: key_2024_05_01_rotated is now the active one.\nSet the signing_key: kms-key-2024-prod in terraform.\n" +
			"See refresh_token: rfc6749-section-6 for details.\nThe authcode: auth-code-flow-v2 grant is described in RFC 6749.\nNote the password: Password123456789 is an example only."},
		{"files", "Set private_key: ~/.ssh/id_ed25519 in the inventory.\nThe deploy job reads private_key: /etc/ssl/private/server2.key at start.\n" +
			"2024-05-01 10:00:00 INFO loaded client_secret: client_secret_123456789-abc.apps.googleusercontent.com.json\nUpload the license_key: license-2024-05.txt to the server."},
		{"references", "const client = new OpenAI({ apiKey: this.config.openaiKey2 });\ncredentials: { secretAccessKey: c.env.R2_SECRET_ACCESS_KEY } });\nOur github_token: secrets.GITHUB_TOKEN2 is scoped to the repo."},
		{"urls", "Make sure DATABASE_URL: postgres://app@db:5432/shop2 points at the replica.\nConfigure the webhook_url: https://example.com/hooks/github2 in the repo settings.\nand the dsn: sqlite:///data/app2.db is local."},
		{"descriptions", "Error: invalid api_key: must_be_32_chars_long\nThe field api_key: at_least_16_characters, alphanumeric.\nHint for password: min_length_16_chars and one digit.\nValidation failed for password: password_too_short_8"},
		{"pagination", `<input name="page[token]" value="abc123def456ghi789">` + "\n" + `<input type="hidden" name="next[token]" value="CAUQAA2024abcdef">` + "\n" + `<input name="cursor[token]" value="hello123world456xyz">`},
		{"calls", `i18n.t("mysql").arg("-pZq7abc123def")` + "\n" + `QString("mysql").arg("-pZq7abc123def")`},
		// what review 69 found the second reading redacted: ids of every
		// kind after a credential's name in logs and prose, and a form's
		// custom fields under a generic last name
		{"log-ids", "2024-05-01T10:00:00Z INFO keys: created api_key: key_01HXZ3K8Q9M2N4P5R6S7T8 for project proj_8f3a2b1c\n" +
			"... revoked api_key: 7c9e6679-7425-40de-944b-e07fc1f90ae7 (owner bob)\n... [kms] master_key: mrk-1234abcd12ab34cd56ef1234567890ab enabled in us-east-1\n" +
			"INFO Using ssh_key: deploy-key-prod-2024-05-v2 from the agent\nLoaded private_key: id_ed25519_2024_05_01_laptop3 (fingerprint SHA256:abc)\n" +
			"The deploy_key: gh-deploy-7d9f8b6c5-x2k4p has read-only access.\nkubectl get secret -n prod -> secret_key: s3-backup-7d9f8b6c5-x2k4p"},
		{"prose-ids", "The commit that rotated the password: 3f2a9c1d4e5b6a7c8d9e0f1a2b3c4d5e6f7a8b9c is on main.\nYour license_key: trial-2024-05-01-30d-u42 expires on 2024-05-31.\n" +
			"| prod | api_key: key_8f3a2b1c9d4e5f6a | rotated |\nOrder #4471 paid; access_token: tok_1PQx2Y3z4A5b6C7d (card token) saved\n" +
			"ERROR Invalid api_key: req_8f3a2b1c9d4e5f6a7b8c9d0e (request id shown instead of key)\nThe pod for the api_key: web-7d9f8b6c5-x2k4p rotation job crashed.\n" +
			"the api_key: 01HXZ3K8Q9M2N4P5R6S7T8V9W0 and the secret_key: MFRGGZDFMZTWQ2LKNNWG23TPOBYXE43U and the password: 5YJSA1E26HF123456 here\n" +
			"the api_key: ch_3OqR2cL5vK8mN1pQ0aB4 and the api_key: apiKeyV2ForUser3Id4 and the password: password2024v1x3 here"},
		{"phrases", "the key is: Enter\nthe API key is: in the dashboard\nthe token is: 512\nThe API key is: 123e4567-e89b-12d3-a456-426614174000\n" +
			"the secret is: Ed25519PrivateKey2x9\nthe token: gpt-4o-2024-08-06\nthe key: HTTP401Unauthorized\nThe session key: web-7d9f8b6c5-x2k4p\n" +
			"login(user: name, password: pw)\nfunc sign(data: Data, key: Curve25519.Signing.PrivateKey)\n(token: 4096, key: Enter)"},
		{"custom-fields", `<input name="meta[1234][key]" value="_thumbnail_id">` + "\n" + `<input name="settings[key]" value="feature_flag_v2_2024">` + "\n" +
			`<input name="event[secret]" value="surprise-party-2024">` + "\n" + `<input name="user[has_password]" value="yes2024abc">` + "\n" + `<input name="order[token]" value="R123456789">`},
	})
}

// TestFoldIndexFindsFirstInAnyCase: foldIndex, two searches a case, finds
// where a word first stands in any case, as a plain reading of every
// position does, on random texts of the words' letters.
func TestFoldIndexFindsFirstInAnyCase(t *testing.T) {
	rng := rand.New(rand.NewPCG(68, 1))
	for w, p := range foldPivots {
		alphabet := w + strings.ToUpper(w) + " x"
		for n := 0; n < 2000; n++ {
			b := make([]byte, rng.IntN(40))
			for i := range b {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
			if rng.IntN(3) == 0 && len(b) >= len(w) {
				at := rng.IntN(len(b) - len(w) + 1)
				copy(b[at:], w)
			}
			s := string(b)
			want := -1
			for i := 0; i+len(w) <= len(s); i++ {
				if strings.EqualFold(s[i:i+len(w)], w) {
					want = i
					break
				}
			}
			if got := foldIndex(s, w, p); got != want {
				t.Fatalf("foldIndex(%q, %q) = %d, want %d", s, w, got, want)
			}
		}
	}
}
