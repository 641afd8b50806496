package secrets

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
)

// TestCommandSecrets: a command's password (a flag's, a literal piped to
// --password-stdin, Redis's AUTH, httpie's items), SQL's password
// literals, a session id in prose and a Bedrock key without its prefix
// are replaced where they stand, the rest of the text kept.
func TestCommandSecrets(t *testing.T) {
	x, err := Rules{}.Redactor()
	if err != nil {
		t.Fatal(err)
	}
	key := "3f9a" + fakeKey("", 20)
	bedrock := base64.StdEncoding.EncodeToString([]byte("BedrockAPIKey-" + fakeKey("", 8) + "-at-123456789012:" + fakeKey("", 40)))
	short := bedrockURL64 + base64.StdEncoding.EncodeToString([]byte("&X-Amz-Credential="+fakeKey("", 20)))
	for _, tc := range []struct{ in, want string }{
		{`echo "<K>" | docker login -u me --password-stdin`, `echo "<R>" | docker login -u me --password-stdin`},
		{`echo $'<K>' | passwd --stdin bob`, `echo $'<R>' | passwd --stdin bob`},
		{`printf '%s' '<K>' | podman login --password-stdin quay.io`, `printf '%s' '<R>' | podman login --password-stdin quay.io`},
		{`printf '<K>\n' | sudo nerdctl login -u me --password-stdin`, `printf '<R>\n' | sudo nerdctl login -u me --password-stdin`},
		{`{"cmd":"echo \"<K>\" | docker login -u me --password-stdin"}`, `{"cmd":"echo \"<R>\" | docker login -u me --password-stdin"}`},
		{"127.0.0.1:6379> AUTH <K>\nOK", "127.0.0.1:6379> AUTH <R>\nOK"},
		{"HELLO 3 AUTH default <K>", "HELLO 3 AUTH default <R>"},
		{"redis-cli -h cache AUTH <K>", "redis-cli -h cache AUTH <R>"},
		{"redis-cli --pass <K> ping", "redis-cli --pass <R> ping"},
		{"*2\r\n$4\r\nAUTH\r\n$24\r\n<K>\r\n", "*2\r\n$4\r\nAUTH\r\n$24\r\n<R>\r\n"},
		{`*3\r\n$4\r\nAUTH\r\n$7\r\ndefault\r\n$24\r\n<K>\r\n`, `*3\r\n$4\r\nAUTH\r\n$7\r\ndefault\r\n$24\r\n<R>\r\n`},
		{`http POST :8080/login Authorization:"Bearer <K>"`, `http POST :8080/login Authorization:"<R>"`},
		{`http POST :8080/login Authorization:'Token <K>' name=alice`, `http POST :8080/login Authorization:'<R>' name=alice`},
		{`http -a user:<K> example.org`, `http -a user:<R> example.org`},
		{`https --auth=user:<K> example.org/x`, `https --auth=user:<R> example.org/x`},
		{`xh get example.org api_key==<K> X-Api-Key:<K>`, `xh get example.org api_key==<R> X-Api-Key:<R>`},
		{`http :8080/login secret_token:='"<K>"'`, `http :8080/login secret_token:='<R>'`},
		{`printf '%s\n' '<K>' | docker login --password-stdin`, `printf '%s\n' '<R>' | docker login --password-stdin`},
		{"CREATE USER 'bob'@'%' IDENTIFIED WITH mysql_native_password BY '<K>';", "CREATE USER 'bob'@'%' IDENTIFIED WITH mysql_native_password BY '<R>';"},
		{`ALTER USER bob IDENTIFIED BY "<K>"`, `ALTER USER bob IDENTIFIED BY "<R>"`},
		{"mysql> create user 'bob'@'%' identified by '<K>';", "mysql> create user 'bob'@'%' identified by '<R>';"},
		{"CREATE LOGIN bob WITH PASSWORD=N'<K>'", "CREATE LOGIN bob WITH PASSWORD=N'<R>'"},
		{"CREATE ROLE app LOGIN PASSWORD '<K>';", "CREATE ROLE app LOGIN PASSWORD '<R>';"},
		{"/usr/bin/mysql -uroot -p<K> shop", "/usr/bin/mysql -uroot -p<R> shop"},
		{"mysql -uroot \\\n  -p<K> shop", "mysql -uroot \\\n  -p<R> shop"},
		{`{"cmd":"docker login \\\n -u me \\\n -p <K> ghcr.io"}`, `{"cmd":"docker login \\\n -u me \\\n -p <R> ghcr.io"}`},
		{"docker login ghcr.io -u bob -p <K>", "docker login ghcr.io -u bob -p <R>"},
		{`line\nmkdir -p /data/db\nmongo shop -u admin -p <K>`, `line\nmkdir -p /data/db\nmongo shop -u admin -p <R>`},
		{`bash -c "cd /app && mysql -uroot -p<K> shop" && echo ok`, `bash -c "cd /app && mysql -uroot -p<R> shop" && echo ok`},
		{`su -c 'sshpass -p <K> ssh deploy@host' bob`, `su -c 'sshpass -p <R> ssh deploy@host' bob`},
		{"make build & docker login -u me -p <K> ghcr.io", "make build & docker login -u me -p <R> ghcr.io"},
		{"cd /app || mysql -uroot -p<K>", "cd /app || mysql -uroot -p<R>"},
		{"rows=$(mysql -uroot -p<K> -e 'select 1')", "rows=$(mysql -uroot -p<R> -e 'select 1')"},
		{"the server replied with sid=<K> and then", "the server replied with sid=<R> and then"},
		{"its sessionid: <K>. Then", "its sessionid: <R>. Then"},
		{"sessionid: <K> mid-sentence", "sessionid: <R> mid-sentence"},
		{"AWS_BEARER_TOKEN_BEDROCK=" + bedrock, "AWS_BEARER_TOKEN_BEDROCK=<R>"},
		// Short base64 of a text holding a secret (password=hunter2-Xy9,
		// api_key=…): under the 40 characters a base64 file is read from.
		{"the server echoed cGFzc3dvcmQ9aHVudGVyMi1YeTk= back", "the server echoed <R> back"},
		{`{"q":"YXBpX2tleT05ZksybVE4eFo0cEw3dg=="}`, `{"q":"<R>"}`},
		// Percent-encoded runs through JSON's escapes of a URL's bytes.
		{`sent {"url":"https:\/\/x.example\/cb?next=\u00252Fa\u00253Ftoken\u00253D<K>"} ok`, `sent {"url":"https:\/\/x.example\/cb?next=\u00252Fa\u00253Ftoken\u00253D<R>"} ok`},
		{`?state=1\u0026token%3D<K>`, `?state=1\u0026token%3D<R>`},
		{`go=%2Fcb%3Fkey\u00253Dsk-proj-<K><K>`, `go=%2Fcb%3Fkey\u00253D<R>`},
		{"export AWS_BEARER_TOKEN_BEDROCK=" + short + "\n", "export AWS_BEARER_TOKEN_BEDROCK=<R>\n"},
	} {
		in := strings.ReplaceAll(tc.in, "<K>", key)
		want := strings.ReplaceAll(strings.ReplaceAll(tc.want, "<K>", key), "<R>", Redacted)
		if got := x.Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

// gmailBody is a message's text as Gmail's API answers it: base64url
// without padding.
func gmailBody(text string) string {
	b, _ := json.Marshal(map[string]any{"id": "18c2f0a1b2c3d4e5", "payload": map[string]any{"mimeType": "text/plain",
		"body": map[string]any{"size": len(text), "data": base64.RawURLEncoding.EncodeToString([]byte(text))}}})
	return string(b)
}

// gmailText holds the password pw among "?>" and ">>>", which base64url
// writes with - and _ (Pz4-, Pj4-): no run of standard base64 in its
// encoding is long enough to be read as a text (40 characters).
func gmailText(pw string) string {
	return "?>?> login ?>?> password=" + pw[:6] + "?>?>" + pw[6:12] + "?>>>" + pw[12:] + "?>?>\n"
}

func gmailData(pw string) string { return base64.RawURLEncoding.EncodeToString([]byte(gmailText(pw))) }

// TestBase64URLTexts: a text in base64url that holds a secret is replaced
// whole, as one in standard base64 is; one that holds none, a slug and an
// identifier with dashes stay.
func TestBase64URLTexts(t *testing.T) {
	x, err := Rules{}.Redactor()
	if err != nil {
		t.Fatal(err)
	}
	secret := gmailText("3f9a" + fakeKey("", 20))
	enc := gmailData("3f9a" + fakeKey("", 20))
	for _, part := range strings.FieldsFunc(enc, func(r rune) bool { return r == '-' || r == '_' }) {
		if len(part) >= minBase64Text {
			t.Fatalf("the test's text %q has a run of standard base64 of %d characters in base64url: %s", secret, len(part), enc)
		}
	}
	if got := x.Text(gmailBody(secret)); strings.Contains(got, enc) || !strings.Contains(got, `"data":"`+Redacted+`"`) {
		t.Errorf("Text(%s) = %s, want the data replaced", gmailBody(secret), got)
	}
	for _, text := range []string{gmailBody("Meeting notes: nothing secret here, just text about the release plan >>> ok??"),
		"how-to-run-mongo-locally-with-docker-compose-and-volumes-v2", "ChatCompletionMessageToolCall_function_arguments_delta_index"} {
		if got := x.Text(text); got != text {
			t.Errorf("Text(%s) = %s, want it unchanged", text, got)
		}
	}
}

// benignReadme is a README that writes commands like those whose flags
// take passwords, and prose that names them.
const benignReadme = "# Setup\n\nTo run mongo locally, mkdir -p /data/db first.\n" +
	"docker login once and then docker run -p 8080:80 nginx\n" +
	"grep -P '\\d{3}' access.log | grep -w password\nrsync -P -avz src/ host:dst/\ntar -p -xzf backup.tgz\n" +
	"mysql -u root -p shop   # asks for the password\nsudo mkdir -p /var/lib/mongo && mongod --dbpath /var/lib/mongo\n"

// benignTexts are ordinary texts next to what the command, Redis, httpie,
// SQL and session rules look for; each must come back byte for byte.
func benignTexts() []string {
	var content strings.Builder
	b64 := base64.StdEncoding.EncodeToString([]byte(benignReadme))
	for len(b64) > 60 {
		content.WriteString(b64[:60] + "\n")
		b64 = b64[60:]
	}
	content.WriteString(b64 + "\n")
	contents, _ := json.Marshal(map[string]any{"name": "README.md", "path": "README.md", "sha": "3d21ec53a331a6f037a91c368710b99387d012c1",
		"size": len(benignReadme), "encoding": "base64", "content": content.String()})
	readmeJSON, _ := json.Marshal(map[string]string{"content": benignReadme})
	return append(strings.Split(benignReadme, "\n"), benignReadme, string(contents), string(readmeJSON),
		"To run mongo locally, mkdir -p /data/db first",
		"docker login once and then docker run -p 8080:80",
		`{"cmd":"docker login once and then docker run -p 8080:80"}`,
		"The owner is S-1-5-21-3623811015-3361044348-30300820-1013; sid=S-1-5-21-3623811015-3361044348-30300820-1013 here.",
		"whoami /user shows the SID: S-1-5-21-1004336348-1177238915-682003330-512",
		`{"Version":"2012-10-17","Statement":[{"Sid":"AllowRead","Effect":"Allow","Action":"s3:GetObject"},{"Sid":"Stmt1700000000000123","Effect":"Deny"}]}`,
		`In the policy, "Sid": "AllowRead" names the statement and "Sid":"Stmt1" another.`,
		"you need auth for this", "auth failed", "AUTH required", "auth token expired, run login again", "Auth is optional here",
		"ids: dGhlIHF1aWNrIGJyb3du YWJjZGVmZ2hpams= ChatCompletionMessageToolCall abcdEFGHijklMNOP 3q2+7w8AbCdEfGhIjKlMnOpQ==",
		"auth: basic", "See Token auth_tokens/42 in the docs", "session: the one you opened yesterday", "sid: S-1-5-18 is LocalSystem",
		"GET /v1/chat?sid=3f7c9e0a-2b4d-4e6f-8a1b-9c0d2e4f6a8b&session_id=sess_8Hk2mQ9xZ4pL7vR1",
		"sid=3f7c9e0a-2b4d-4e6f-8a1b-9c0d2e4f6a8b&sessionId=conv-8Hk2mQ9xZ4pL7vR1xx",
		"http is a protocol and https is its secure form",
		"http GET example.org Accept:application/json page==2 name=alice",
		"echo \"done\" | tee log.txt", "echo $GH_TOKEN | docker login ghcr.io -u me --password-stdin",
		"cat ~/pw.txt | docker login -u me --password-stdin", "echo \"$PW\" | passwd --stdin bob",
		"MKDIR(1)  User Commands\n\nNAME\n  mkdir - make directories\n\nOPTIONS\n  -p, --parents\n    no error if existing, make parent directories as needed\n",
		"In a shell tutorial: curl -u is how you pass a user, and docker login -p is discouraged; use --password-stdin.",
		"the user identified by 'alice' logs in; users are IDENTIFIED by their email",
		"SELECT password_hash FROM users WHERE id = 1; -- the PASSWORD column is hashed",
		"CREATE USER bob IDENTIFIED BY PASSWORD '*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19';",
		"redis-cli -h cache -p 6379 ping", "127.0.0.1:6379> AUTH\n(error) ERR wrong number of arguments",
		"mongod --port 27017 -p", "ssh -p 2222 deploy@host", "psql -p 5432 -U app shop", "kubectl port-forward svc/db 5432 -p",
		"gcc -pthread -o app main.c && ls -a /tmp", "git log -p -3", "python -u script.py | tee out.log",
		`bash -c "mkdir -p /data/db && docker run -p 8080:80 nginx"`, `echo "use mysql -p to be asked" | less`,
		`printf 'a\nmysql -p\n' | sort`, "cat <<EOF\nTo run mongo locally, mkdir -p /data/db\nEOF",
		"docker login & then docker run -p 8080:80", `sh -c 'AUTH is required here'`,
		`{"progress":"50%\/100%","q":"https:\/\/x.example\/search?q=a%20b\u0026page=2\u0026sort=asc"}`,
		`see https:\/\/x.example\/a%2Fb\u003fsession=3f7c9e0a-2b4d-4e6f-8a1b-9c0d2e4f6a8b`,
	)
}

// TestBenignTextsStayByteIdentical: the benign texts come back as they
// are from Text, and as a body: alone, and as a JSON string.
func TestBenignTextsStayByteIdentical(t *testing.T) {
	x, err := Rules{}.Redactor()
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range benignTexts() {
		if got := x.Text(text); got != text {
			t.Errorf("Text(%q) = %q, want it unchanged", text, got)
		}
		if got := x.Body([]byte(text)); string(got) != text {
			t.Errorf("Body(%q) = %q, want it unchanged", text, got)
		}
		b, _ := json.Marshal(map[string]string{"content": text})
		if got := x.Body(b); string(got) != string(b) {
			t.Errorf("Body(%s) = %s, want it unchanged", b, got)
		}
	}
}

// benchText is about 128 KiB of unit repeated.
func benchText(unit string) string { return strings.Repeat(unit, 128<<10/len(unit)+1)[:128<<10] }

// BenchmarkCommandRules scrubs 128 KiB of what each command rule reads
// (its words repeated on one line, and 4,000 mkdir -p lines with one
// mention of mongo, as text and as a JSON string), against as much
// ordinary prose; the time must grow linearly with the text.
func BenchmarkCommandRules(b *testing.B) {
	x, _ := Rules{}.Redactor()
	mkdir := "To run mongo locally:\n" + strings.Repeat("mkdir -p /data/db\n", 4000)
	for _, tc := range []struct{ name, text string }{
		{"prose", benchText("The agent booked a table for two at 7pm and confirmed by email. ")},
		{"mongo-p", benchText("mongo x -p ")},
		{"AUTH", benchText("AUTH x ")},
		{"http", benchText("http a=b ")},
		{"sid", benchText("sid= ")},
		// Inputs that are findings end to end, against one that was
		// before these rules (password=…): each finding's value is judged.
		{"findings-password", benchText("password=abcd1234efgh5678ijkl ")},
		{"findings-sid", benchText("sid=abcd1234efgh5678ijkl ")},
		{"findings-IDENTIFIED", benchText("CREATE USER u IDENTIFIED BY 'S3cretPw9x'; ")},
		{"findings-stdin", benchText("echo 'S3cretPw9x' | docker login --password-stdin\n")},
		{"findings-RESP", benchText("*2\r\n$4\r\nAUTH\r\n$9\r\nS3cretPw9\r\n")},
		{"findings-AUTH", benchText("127.0.0.1:6379> AUTH S3cretPw9\n")},
		{"stdin", benchText("echo x | docker login --password-stdin ")},
		{"quotes", benchText("mysql -p' \" ")},
		{"percent-escapes", benchText(`x\u00253D\/y%2F\u0026`)},
		{"percent-run", benchText(`x%253Dy%2Fz%26`)},
		{"base64url-data", base64.RawURLEncoding.EncodeToString([]byte(benchText("\x00\x01\xfe\xff\xfb\xef\x80?>~")))[:128<<10]},
		{"base64url-text", gmailBody(benchText("Meeting notes: nothing secret here, just the release plan ?>?> "))},
		{"base64-text", `{"content":"` + base64.StdEncoding.EncodeToString([]byte(benchText("Meeting notes: nothing secret here, just the release plan ?>?> "))) + `"}`},
		{"mkdir-lines", mkdir},
		{"mkdir-json", `{"content":"` + strings.ReplaceAll(mkdir, "\n", `\n`) + `"}`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.text)))
			for b.Loop() {
				x.Text(tc.text)
			}
		})
	}
}

// commandLeaks are the command, Redis, httpie, SQL, session and Bedrock
// placements, each as a message's content: the check reports each as the
// scrubber finds it (TestCheckFindsAndRedactorRemovesEveryPlacement).
func commandLeaks() []leak {
	k := "7Qw" + fakeKey("", 21)
	bedrock := base64.StdEncoding.EncodeToString([]byte("BedrockAPIKey-" + fakeKey("", 8) + "-at-123456789012:" + fakeKey("", 40)))
	return []leak{
		{"echo piped to --password-stdin", k, "piped to --password-stdin", inContent(`echo "` + k + `" | docker login -u me --password-stdin`)},
		{"passwd --stdin", k, "piped to --password-stdin", inContent(`echo $'` + k + `' | passwd --stdin bob`)},
		{"Redis AUTH", k, "AUTH ", inContent("127.0.0.1:6379> AUTH default " + k)},
		{"Redis HELLO AUTH", k, "AUTH ", inContent("HELLO 3 AUTH default " + k)},
		{"RESP AUTH", k, "RESP AUTH", inContent("*2\r\n$4\r\nAUTH\r\n$24\r\n" + k + "\r\n")},
		{"httpie auth", k, "--auth", inContent("http -a user:" + k + " example.org")},
		{"httpie header", k, "X-Api-Key: ", inContent("xh get example.org X-Api-Key:" + k)},
		{"MySQL IDENTIFIED WITH … BY", k, "IDENTIFIED BY", inContent("CREATE USER 'bob'@'%' IDENTIFIED WITH mysql_native_password BY '" + k + "';")},
		{"SQL Server PASSWORD=N''", k, "PASSWORD", inContent("CREATE LOGIN bob WITH PASSWORD=N'" + k + "'")},
		{"mysql by its path", k, "-p ", inContent("/usr/bin/mysql -uroot -p" + k + " shop")},
		{"a continued docker login", k, "-p ", inContent("docker login \\\n  -u me \\\n  -p " + k + " ghcr.io")},
		{"sid in prose", k, "sid=", inContent("the server replied with sid=" + k + " and then")},
		{"sessionid mid-sentence", k, "sessionid: ", inContent("its sessionid: " + k + ". Then")},
		{"a percent run through JSON escapes", k, "token=", inContent(`sent {"url":"https:\/\/x.example\/cb?next=\u00252Fa\u00253Ftoken\u00253D` + k + `"} ok`)},
		{"a Gmail body in base64url", gmailData(k), "(in base64url)", inResponse("application/json", gmailBody(gmailText(k)))},
		{"short base64 of a password", base64.StdEncoding.EncodeToString([]byte("password=" + k[:13])), "(in base64)",
			inResponse("text/plain", "the server echoed "+base64.StdEncoding.EncodeToString([]byte("password="+k[:13]))+" back")},
		{"Bedrock key without ABSK", bedrock, "Amazon Bedrock API key", inContent("AWS_BEARER_TOKEN_BEDROCK=" + bedrock)},
	}
}

// benignLeaks are benignTexts as a message's content, and the README's
// GitHub contents answer as a response: no finding, nothing changed
// (TestLookalikesAreNoSecrets).
func benignLeaks() []leak {
	var out []leak
	texts := benignTexts()
	for i, text := range texts {
		out = append(out, leak{name: "benign text " + strings.Fields(text + " x")[0] + " " + string(rune('a'+i%26)), edit: inContent(text)})
	}
	return append(out, leak{name: "GitHub contents answer", edit: inResponse("application/json", texts[len(strings.Split(benignReadme, "\n"))+1])})
}
