package secrets

import (
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
}

func TestLeadInCommandSecretsRemoved(t *testing.T) {
	var cases []reviewSecret
	for i, c := range leadInCommands {
		cases = append(cases, reviewSecret{name: strings.Fields(c)[0] + "/" + string(rune('a'+i)), text: c})
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
	})
}

// TestLeadInsBenignStay: the same lead-ins before commands that take no
// password or ask for it, or sentences that only name one; labels in
// sentences whose values are placeholders, code, words or short.
func TestLeadInsBenignStay(t *testing.T) {
	checkStays(t, []reviewText{
		{"sentences", "Step 2: mysql -u root -p shop\nThen run sshpass -p is insecure\nFirst, docker run -p 8080:80 nginx\nNote: mysql -h db -u root -p"},
		{"logs", "2024-05-01T10:00:00Z docker run -p 8080:80 nginx\n10:00:00 mysql -u root -p\n2024-05-01 started the server"},
		{"runners", "wsl -d Ubuntu -- ls -la\nnpm test -- -p 3000\ngit log -- src/\nkubectl exec db -- mysql -u root -p"},
		{"code", `exec.CommandContext(ctx, "mysql", "-u", user, "-p"+pw)` + "\n" + `Command::new("docker").args(["run", "-p", "8080:80", "nginx"])` + "\n" + `Command::new("ls").arg("-la")`},
		{"labels", "the api_key: YOUR_API_KEY_1234567890\nset api_key: os.environ['KEY'] first\nthe password: see the vault\nthe api_key: cfg.apiKey2024abcdefgh\ninvalid api_key: must be 32 characters\nthe password: correct horse battery staple"},
		{"inputs", `<input name="user[password]" value="">` + "\n" + `<input name="user[name]" value="bob2024abcdefghij">` + "\n" + `<input name="user[password]" value="{{ form.password }}">`},
	})
}
