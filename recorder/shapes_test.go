package recorder

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

const (
	upperDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0234567"
	alnum       = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	hexDigits   = "0123456789abcdef"
)

// randomOf is n characters of alphabet drawn from r, holding a digit and
// a letter when the alphabet has both, as a generated key does.
func randomOf(r *rand.Rand, alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	digits := strings.Map(func(c rune) rune { return keepIf(c >= '0' && c <= '9', c) }, alphabet)
	letters := strings.Map(func(c rune) rune { return keepIf(c|0x20 >= 'a' && c|0x20 <= 'z', c) }, alphabet)
	if n >= 4 && digits != "" && letters != "" {
		b[n/3] = digits[r.IntN(len(digits))]
		b[2*n/3] = letters[r.IntN(len(letters))]
	}
	return string(b)
}

// keepIf is c when ok, else -1 (strings.Map drops it).
func keepIf(ok bool, c rune) rune {
	if ok {
		return c
	}
	return -1
}

// shapeMaker makes a fresh credential of one format: the text placed, and
// the secret in it that must not reach a cassette.
type shapeMaker struct {
	name string
	make func(r *rand.Rand) (text, secret string)
}

func shapeMakers() []shapeMaker {
	prefixed := func(name, prefix, alphabet string, n int) shapeMaker {
		return shapeMaker{name, func(r *rand.Rand) (string, string) {
			s := prefix + randomOf(r, alphabet, n)
			return s, s
		}}
	}
	return []shapeMaker{
		prefixed("OpenAI project key", "sk-proj-", alnum+"_-", 64),
		prefixed("Anthropic key", "sk-ant-api03-", alnum+"_-", 80),
		prefixed("Google API key", "AIza", alnum+"_-", 35),
		prefixed("GitHub token", "ghp_", alnum, 36),
		prefixed("GitHub fine-grained token", "github_pat_", alnum+"_", 82),
		prefixed("GitLab token", "glpat-", alnum+"_-", 20),
		prefixed("Stripe live key", "sk_live_", alnum, 24),
		prefixed("Stripe restricted key", "rk_live_", alnum, 24),
		prefixed("Hugging Face token", "hf_", alnum, 34),
		prefixed("npm token", "npm_", alnum, 36),
		prefixed("Groq key", "gsk_", alnum, 52),
		prefixed("AWS access key ID", "AKIA", upperDigits, 16),
		prefixed("Mailgun key", "key-", hexDigits, 32),
		prefixed("DigitalOcean token", "dop_v1_", hexDigits, 64),
		prefixed("Twilio API key", "SK", hexDigits, 32),
		prefixed("Shopify token", "shpat_", hexDigits, 32),
		{"SendGrid key", func(r *rand.Rand) (string, string) {
			s := "SG." + randomOf(r, alnum+"_-", 22) + "." + randomOf(r, alnum+"_-", 43)
			return s, s
		}},
		{"Slack bot token", func(r *rand.Rand) (string, string) {
			s := "xoxb-" + randomOf(r, "0123456789", 12) + "-" + randomOf(r, "0123456789", 13) + "-" + randomOf(r, alnum, 24)
			return s, s
		}},
		{"Slack webhook URL", func(r *rand.Rand) (string, string) {
			path := "T" + randomOf(r, upperDigits, 8) + "/B" + randomOf(r, upperDigits, 10) + "/" + randomOf(r, alnum, 24)
			return "https://hooks.slack.com/services/" + path, path
		}},
		{"Telegram bot token", func(r *rand.Rand) (string, string) {
			s := "7" + randomOf(r, "0123456789", 9) + ":AA" + randomOf(r, alnum+"_-", 33)
			return s, s
		}},
		{"JWT", func(r *rand.Rand) (string, string) {
			claims := base64.RawURLEncoding.EncodeToString([]byte(`{"sub":"` + randomOf(r, alnum, 12) + `","iat":1732600000}`))
			s := "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + claims + "." + randomOf(r, alnum+"_-", 43)
			return s, s
		}},
		{"private key", func(r *rand.Rand) (string, string) {
			body := randomOf(r, alnum+"+/", 64)
			return "-----BEGIN RSA PRIVATE KEY-----\n" + body + "\n" + randomOf(r, alnum+"+/", 64) + "\n-----END RSA PRIVATE KEY-----", body
		}},
		{"Discord bot token", func(r *rand.Rand) (string, string) {
			id := randomOf(r, "123456789", 1) + randomOf(r, "0123456789", 16+r.IntN(4))
			s := base64.RawURLEncoding.EncodeToString([]byte(id)) + "." + randomOf(r, alnum+"_-", 6) + "." + randomOf(r, alnum+"_-", 27+r.IntN(12))
			return s, s
		}},
		{"Authorization header as text", func(r *rand.Rand) (string, string) {
			s := randomOf(r, alnum+"._~+/-", 8+r.IntN(56))
			scheme := []string{"Bot ", "Token ", "Basic ", "SSWS ", ""}[r.IntN(5)]
			return []string{"authorization: ", "Authorization=", `"Authorization": "`}[r.IntN(3)] + scheme + s, s
		}},
		prefixed("OpenAI session key", "sess-", alnum, 40),
		{"Amazon Bedrock API key", func(r *rand.Rand) (string, string) {
			// Long-term: "ABSK" and "BedrockAPIKey-…" in base64; short-term:
			// "bedrock-api-key-" and a presigned URL in base64; either may
			// be given without its prefix.
			if r.IntN(2) == 0 {
				s := []string{"ABSK", ""}[r.IntN(2)] + base64.StdEncoding.EncodeToString([]byte("BedrockAPIKey-"+randomOf(r, alnum, 4)+"-at-"+randomOf(r, "0123456789", 12)+":"+randomOf(r, alnum+"+/", 40)))
				return s, s
			}
			url := "bedrock.amazonaws.com/?Action=CallWithBearerToken&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=ASIA" + randomOf(r, upperDigits, 16) +
				"%2F20261127%2Fus-east-1%2Fbedrock%2Faws4_request&X-Amz-Date=20261127T010000Z&X-Amz-Expires=43200&X-Amz-Security-Token=IQoJb3JpZ2luX2Vj" +
				url.QueryEscape(randomOf(r, alnum+"+/", 120)) + "&X-Amz-Signature=" + randomOf(r, hexDigits, 64) + "&X-Amz-SignedHeaders=host&Version=1"
			s := base64.StdEncoding.EncodeToString([]byte(url))
			return []string{"bedrock-api-key-", ""}[r.IntN(2)] + s, s
		}},
		{"credential in short base64", func(r *rand.Rand) (string, string) {
			// Under 40 characters: a password=… or a token=… encoded.
			plain := []string{"password=", "api_key=", "password: ", "HF_TOKEN="}[r.IntN(4)] + randomOf(r, alnum, 6+r.IntN(14))
			enc := []*base64.Encoding{base64.StdEncoding, base64.RawURLEncoding}[r.IntN(2)]
			s := enc.EncodeToString([]byte(plain))
			return "cfg " + s + " end", s
		}},
		{"Firebase Cloud Messaging server key", func(r *rand.Rand) (string, string) {
			s := randomOf(r, alnum+"_-", 11) + ":APA91b" + randomOf(r, alnum+"_-", 134)
			return s, s
		}},
		prefixed("Google OAuth refresh token", "1//0", alnum+"_-", 100),
		{"Terraform Cloud token", func(r *rand.Rand) (string, string) {
			s := randomOf(r, alnum, 14) + ".atlasv1." + randomOf(r, alnum+"_-", 67)
			return s, s
		}},
		{"PuTTY private key", func(r *rand.Rand) (string, string) {
			lines := randomOf(r, alnum+"+/", 64)
			return "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPublic-Lines: 1\nAAAAC3NzaC1lZDI1NTE5\nPrivate-Lines: 1\n" + lines + "\nPrivate-MAC: " + randomOf(r, hexDigits, 64), lines
		}},
		{"anti-forgery token in a page", func(r *rand.Rand) (string, string) {
			s := randomOf(r, alnum+"+/_-", 20+r.IntN(70))
			name := []string{"csrf-token", "_csrf", "csrfmiddlewaretoken", "authenticity_token", "__RequestVerificationToken", "XSRF-TOKEN", "csrf_token"}[r.IntN(7)]
			attr := []string{"content", "value"}[r.IntN(2)]
			tag := []string{"meta", "input type=\"hidden\""}[r.IntN(2)]
			if r.IntN(2) == 0 {
				return "<html><" + tag + " name=\"" + name + "\" " + attr + "=\"" + s + "\"></html>", s
			}
			return "<form>\n<" + tag + " " + attr + "='" + s + "'\n  name='" + name + "' /></form>", s
		}},
		{"session id", func(r *rand.Rand) (string, string) {
			s := randomOf(r, []string{"abcdefghijklmnopqrstuvwxyz0123456789", "0123456789ABCDEF", alnum}[r.IntN(3)], 16+r.IntN(48))
			name := []string{"session_id", "sessionId", "SESSION_ID", "sessionid", "sid", "session", "PHPSESSID"}[r.IntN(7)]
			// Where a name says what the value is anywhere in a text: a JSON
			// member, a URL's query, a cookie-like list, prose.
			return []string{`{"` + name + `": "` + s + `"}`, "https://app.example/cb?lang=en&" + name + "=" + s,
				"lang=en; " + name + "=" + s + "; theme=dark", "logged in as bob (" + name + "=" + s + ") at 10:02",
				"the server answered " + name + ": " + s + ", then a redirect"}[r.IntN(5)], s
		}},
		{"AWS SigV4 Authorization as text", func(r *rand.Rand) (string, string) {
			sig := randomOf(r, hexDigits, 64)
			return "Authorization: AWS4-HMAC-SHA256 Credential=AKIA" + "IOSFODNN7EXAMPLE/20261126/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=" + sig, sig
		}},
		{"presigned URL signature", func(r *rand.Rand) (string, string) {
			sig := randomOf(r, hexDigits, 64)
			return "https://b.s3.amazonaws.com/k.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20261126T000000Z&X-Amz-Expires=900&X-Amz-SignedHeaders=host&X-Amz-Signature=" + sig, sig
		}},
		{"presigned URL session token", func(r *rand.Rand) (string, string) {
			tok := "IQoJb3JpZ2luX2Vj" + randomOf(r, alnum+"+/", 100+r.IntN(300))
			return "https://b.s3.amazonaws.com/k.pdf?X-Amz-Security-Token=" + url.QueryEscape(tok) + "&X-Amz-Signature=" + randomOf(r, hexDigits, 64), tok
		}},
		{"credential given to a command", func(r *rand.Rand) (string, string) {
			tok := randomOf(r, alnum, 1) + randomOf(r, alnum+"_-", 19+r.IntN(40)) // no flag's "-" first
			header, s := []string{"X-Api-Key", "Authorization", "X-Auth-Token", "Private-Token", "api-key"}[r.IntN(5)], tok
			if header == "Authorization" {
				s = []string{"Bearer ", "Token ", "Bot "}[r.IntN(3)] + tok // a header's value
			}
			return []string{
				`curl -s -H "` + header + `:` + s + `" https://api.example/v1/items`,
				`wget --header=` + strings.ReplaceAll(header+`:`+s, " ", "") + ` https://api.example/v1/items`,
				`curl --header '` + header + `: ` + s + `' https://api.example/v1/items`,
				`wget "--header=` + header + `: ` + s + `" -O - https://api.example/v1/items`,
				`tool run --api-key=` + tok + ` --verbose`,
				`gh auth login --token ` + tok,
				"* Connected\n> GET /v1/items HTTP/1.1\n> " + header + ": " + s + "\n> Accept: */*\n",
			}[r.IntN(7)], tok
		}},
		{"password piped to a command", func(r *rand.Rand) (string, string) {
			pw := randomOf(r, alnum+"!@_-.", 10+r.IntN(30))
			src := []string{"echo '" + pw + "'", `echo -n "` + pw + `"`, "printf '%s' '" + pw + "'", `printf "` + pw + `"`, "echo " + pw}[r.IntN(5)]
			login := []string{"docker login -u ci", "podman login quay.io -u ci", "helm registry login registry.example -u ci", "buildah login -u ci reg.example",
				"skopeo login --username ci reg.example", "nerdctl login -u ci reg.example", "oras login reg.example -u ci", "crane auth login reg.example -u ci"}[r.IntN(8)]
			prompt := []string{"", "$ ", "+ "}[r.IntN(3)]
			switch r.IntN(6) {
			case 0:
				return prompt + login + " --password-stdin <<< '" + pw + "'", pw
			case 1:
				return prompt + src + " | gh auth login --with-token", pw
			case 2:
				return prompt + src + " | sudo -S apt-get install -y jq", pw
			case 3:
				return prompt + "echo 'deploy:" + pw + "' | sudo chpasswd", pw
			case 4:
				return prompt + src + " | npx wrangler secret put API_KEY", pw
			}
			return prompt + src + " | " + login + " --password-stdin", pw
		}},
		{"password given to a command by a flag", func(r *rand.Rand) (string, string) {
			pw := randomOf(r, alnum+"!@_-.", 10+r.IntN(30))
			return []string{
				`ldapsearch -x -H ldap://ldap.example -D "cn=admin,dc=example,dc=org" -w ` + pw + ` -b dc=example,dc=org`,
				`sqlcmd -S db.example -U sa -P ` + pw + ` -Q "SELECT 1"`,
				"openssl pkcs12 -export -in c.pem -out c.p12 -passout pass:" + pw,
				"keytool -importcert -keystore ks.jks -storepass " + pw + " -file ca.pem",
				"redis-cli -h cache.example --pass " + pw + " PING",
				"smbclient //fs.example/share -U bob%" + pw,
				"http -a bob:" + pw + " GET api.example.com/me",
				"zip -P " + pw + " out.zip notes.txt",
				"7z a -p" + pw + " out.7z notes",
				"az login -u bob@example.com -p " + pw,
				"mongosh --host db.example -u admin -p " + pw,
			}[r.IntN(11)], pw
		}},
		{"Redis AUTH", func(r *rand.Rand) (string, string) {
			pw := randomOf(r, alnum+"!@_-.", 10+r.IntN(30))
			user := []string{"", "default ", "app "}[r.IntN(3)]
			switch r.IntN(7) {
			case 0:
				return "127.0.0.1:6379> AUTH " + user + pw + "\nOK\n127.0.0.1:6379> GET k", pw
			case 1:
				return "redis cache.example:6379> auth " + user + pw, pw
			case 2:
				return "redis-cli -h cache.example -p 6379 AUTH " + user + pw, pw
			case 3:
				if user == "" {
					return "*2\r\n$4\r\nAUTH\r\n$" + strconv.Itoa(len(pw)) + "\r\n" + pw + "\r\n", pw
				}
				return "*3\r\n$4\r\nAUTH\r\n$7\r\ndefault\r\n$" + strconv.Itoa(len(pw)) + "\r\n" + pw + "\r\n", pw
			case 4:
				return "HELLO 3 AUTH default " + pw + " SETNAME worker", pw
			case 5:
				return "CONFIG SET requirepass " + pw, pw
			}
			return "# redis.conf\nbind 0.0.0.0\n" + []string{"requirepass ", "masterauth "}[r.IntN(2)] + pw + "\n", pw
		}},
		{"password set in SQL or given to a login call", func(r *rand.Rand) (string, string) {
			pw := randomOf(r, alnum+"!@_-.", 10+r.IntN(30))
			return []string{
				"CREATE USER 'app'@'%' IDENTIFIED BY '" + pw + "';",
				"ALTER USER app IDENTIFIED BY " + pw + ";",
				"CREATE ROLE app WITH LOGIN PASSWORD '" + pw + "';",
				"create user app with password '" + pw + "';",
				"ALTER LOGIN app WITH PASSWORD = '" + pw + "';",
				"SET PASSWORD FOR 'app'@'localhost' = PASSWORD('" + pw + "');",
				"db.auth('admin', '" + pw + "')",
				`smtp.login("bob@example.com", "` + pw + `")`,
			}[r.IntN(8)], pw
		}},
		{"httpie request item", func(r *rand.Rand) (string, string) {
			tok := randomOf(r, alnum+"_-", 20+r.IntN(40))
			cmd := []string{"http", "https", "xh", "http --verbose", "$ http"}[r.IntN(5)] + " " + []string{"", "GET ", "POST ", "get "}[r.IntN(4)] + "api.example.com/v1/items "
			return cmd + []string{
				`Authorization:"Bearer ` + tok + `"`,
				"'Authorization: Token " + tok + "'",
				"X-API-Key:" + tok + " Accept:application/json",
				"'Private-Token:" + tok + "'",
				"q==shoes api_key==" + tok,
				"token==" + tok + " page==2",
				"name=widget access_token=" + tok,
				`password:='"` + tok + `"'`,
				"\\\n  X-Auth-Token:" + tok,
			}[r.IntN(9)], tok
		}},
		{"URL with JSON escapes in text", func(r *rand.Rand) (string, string) {
			// A JSON string as it is written, in text (a log line, a
			// tool's output): Go writes "&" as \u0026, and a "%" may be
			// escaped too.
			tok := randomOf(r, alnum, 20+r.IntN(30))
			name := []string{"token", "api_key", "access_token", "sig", "key"}[r.IntN(5)]
			return []string{
				`{"next":"https://app.example/cb?state=1\u0026` + name + `=` + tok + `"}`,
				`{"next":"https://app.example/login?next=%2Fcb%3Fstate%3D1%26` + name + `\u0025253D` + tok + `"}`,
				`{"next":"https://app.example/login?next=%2Fcb%3F` + name + `\u00253D` + tok + `\u0026x=1"}`,
			}[r.IntN(3)], tok
		}},
		{"connection string password", func(r *rand.Rand) (string, string) {
			pw := randomOf(r, alnum, 14) + "!"
			return "postgres://app:" + pw + "@db.internal:5432/shop", pw
		}},
	}
}

// shapePlacement puts a text in an exchange: the request that carries it
// and the server's answer.
type shapePlacement struct {
	name  string
	place func(text string) placement
}

func shapePlacements() []shapePlacement {
	post := func(ctype, body string, h ...string) func(string) *http.Request {
		return func(base string) *http.Request {
			return newReq(http.MethodPost, base+"/v1/chat/completions", ctype, body, h...)
		}
	}
	jsonOf := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	chat := func(content string) string {
		return jsonOf(map[string]any{"model": "m", "messages": []map[string]string{{"role": "user", "content": content}}})
	}
	tool := func(args string) string {
		return jsonOf(map[string]any{"model": "m", "messages": []any{map[string]any{"role": "assistant", "tool_calls": []any{
			map[string]any{"id": "c1", "type": "function", "function": map[string]string{"name": "run", "arguments": args}}}}}})
	}
	answer := func(ctype string, body []byte, h ...string) func(http.ResponseWriter, *http.Request) {
		return func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", ctype)
			for i := 0; i+1 < len(h); i += 2 {
				w.Header().Set(h[i], h[i+1])
			}
			w.Write(body)
		}
	}
	get := func(base string) *http.Request { return newReq(http.MethodGet, base+"/v1/data?q=1", "", "") }
	return []shapePlacement{
		{"chat content", func(s string) placement { return placement{req: post("application/json", chat("use "+s+" please"))} }},
		{"tool-call arguments", func(s string) placement {
			return placement{req: post("application/json", tool(jsonOf(map[string]string{"note": s})))}
		}},
		{"JSON inside tool-call arguments", func(s string) placement {
			return placement{req: post("application/json", tool(jsonOf(map[string]string{"body": jsonOf(map[string]string{"note": s})})))}
		}},
		{"event stream split", func(s string) placement {
			half := len(s) / 2
			ev := func(c string) string {
				return "data: " + jsonOf(map[string]any{"choices": []any{map[string]any{"delta": map[string]string{"content": c}}}}) + "\n\n"
			}
			return placement{req: get, answer: answer("text/event-stream", []byte(ev("key: "+s[:half])+ev(s[half:]+" ok")+"data: [DONE]\n\n"))}
		}},
		{"NDJSON answer", func(s string) placement {
			return placement{req: get, answer: answer("application/x-ndjson", []byte(jsonOf(map[string]any{"message": map[string]string{"content": s}})+"\n"+`{"done":true}`+"\n"))}
		}},
		{"URL-encoded twice in a URL in chat", func(s string) placement {
			inner := "https://api.example/cb?state=1&note=" + url.QueryEscape(s)
			return placement{req: post("application/json", chat("open https://app.example/login?next="+url.QueryEscape(inner)+" now"))}
		}},
		{"form field", func(s string) placement {
			return placement{req: post("application/x-www-form-urlencoded", "user=bob&note="+url.QueryEscape(s))}
		}},
		{"JSON in a form field", func(s string) placement {
			return placement{req: post("application/x-www-form-urlencoded", "payload="+url.QueryEscape(jsonOf(map[string]string{"note": s})))}
		}},
		{"query value", func(s string) placement {
			return placement{req: func(base string) *http.Request {
				return newReq(http.MethodGet, base+"/v1/search?q="+url.QueryEscape(s), "", "")
			}}
		}},
		{"multipart field", func(s string) placement {
			return placement{req: post("multipart/form-data; boundary=Zx81", "--Zx81\r\nContent-Disposition: form-data; name=\"prompt\"\r\n\r\n"+s+"\r\n--Zx81--\r\n")}
		}},
		{"XML answer", func(s string) placement {
			return placement{req: get, answer: answer("application/xml", []byte("<result><note>"+s+"</note></result>"))}
		}},
		{"plain text answer", func(s string) placement {
			return placement{req: get, answer: answer("text/plain", []byte("result:\n"+s+"\n"))}
		}},
		{"gzip JSON answer", func(s string) placement {
			return placement{req: get, answer: answer("application/json", gzipped(jsonOf(map[string]string{"note": s})), "Content-Encoding", "gzip")}
		}},
		{"text file as a data URL", func(s string) placement {
			return placement{req: post("application/json", jsonOf(map[string]string{"file_data": "data:text/plain;base64," + base64.StdEncoding.EncodeToString([]byte("NOTE="+s+"\n"))}))}
		}},
		{"file in base64 in a JSON answer", func(s string) placement {
			// As GitHub's contents API sends a file: base64 in lines of 60.
			enc := base64.StdEncoding.EncodeToString([]byte("# settings\nDEBUG=1\nNOTE=" + s + "\n"))
			var lines []string
			for len(enc) > 60 {
				lines, enc = append(lines, enc[:60]), enc[60:]
			}
			lines = append(lines, enc)
			return placement{req: get, answer: answer("application/json", []byte(jsonOf(map[string]string{"name": ".env", "encoding": "base64", "content": strings.Join(lines, "\n") + "\n"})))}
		}},
		{"file in base64url in a JSON answer", func(s string) placement {
			// As Gmail's API sends a message's body: base64url, no padding.
			enc := base64.RawURLEncoding.EncodeToString([]byte("Subject: keys\r\n\r\n??>NOTE=" + s + "\n"))
			return placement{req: get, answer: answer("application/json", []byte(jsonOf(map[string]any{"payload": map[string]any{"mimeType": "text/plain", "body": map[string]any{"size": len(s), "data": enc}}})))}
		}},
		{"response header", func(s string) placement {
			if strings.Contains(s, "\n") {
				return placement{} // a header holds one line
			}
			return placement{req: get, answer: answer("application/json", []byte(`{"ok":true}`), "X-Debug-Echo", s)}
		}},
	}
}

// TestEveryShapeInEveryPlacementIsScrubbed records each credential format,
// freshly generated, in each placement through the real recorder: the
// cassette holds no trace of the secret (raw, URL-encoded, base64) and the
// check passes on it.
func TestEveryShapeInEveryPlacementIsScrubbed(t *testing.T) {
	r := rand.New(rand.NewPCG(2026, 11))
	// Each case has its own path on one server, /case/N/…, so that the
	// cases run in parallel; the server answers as case N's placement says.
	var cases []placement
	srv := placementServer(func(req *http.Request) placement {
		n, _, _ := strings.Cut(strings.TrimPrefix(req.URL.Path, "/case/"), "/")
		i, err := strconv.Atoi(n)
		if err != nil || i >= len(cases) {
			return placement{}
		}
		return cases[i]
	})
	t.Cleanup(srv.Close) // after the parallel subtests
	type shapeCase struct {
		name, secret string
		i            int
	}
	var run []shapeCase
	for _, sp := range shapePlacements() {
		for _, sm := range shapeMakers() {
			text, secret := sm.make(r)
			p := sp.place(text)
			if p.req == nil {
				continue
			}
			run = append(run, shapeCase{sp.name + "/" + sm.name, secret, len(cases)})
			cases = append(cases, p)
		}
	}
	if want := len(shapeMakers()) * (len(shapePlacements()) - 1); len(run) < want {
		t.Errorf("Expected at least %d shape placements, but %d placements made %d", want, len(shapePlacements()), len(run))
	}
	for _, c := range run {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			data, path := recordAlone(t, cases[c.i].req(srv.URL+"/case/"+strconv.Itoa(c.i)))
			assertScrubbed(t, data, path, c.secret)
		})
	}
}
