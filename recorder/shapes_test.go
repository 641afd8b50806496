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
		prefixed("Amazon Bedrock API key", "ABSKQmVkcm9ja0FQSUtleS", alnum+"+/", 56),
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
			// member, a URL's query.
			return []string{`{"` + name + `": "` + s + `"}`, "https://app.example/cb?lang=en&" + name + "=" + s}[r.IntN(2)], s
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
			s := randomOf(r, alnum+"_-", 20+r.IntN(40))
			header := []string{"X-Api-Key", "Authorization", "X-Auth-Token", "Private-Token", "api-key"}[r.IntN(5)]
			if header == "Authorization" {
				s = []string{"Bearer ", "Token ", "Bot "}[r.IntN(3)] + s
			}
			return []string{
				`curl -s -H "` + header + `:` + s + `" https://api.example/v1/items`,
				`wget --header=` + strings.ReplaceAll(header+`:`+s, " ", "") + ` https://api.example/v1/items`,
				`curl --header '` + header + `: ` + s + `' https://api.example/v1/items`,
				`wget "--header=` + header + `: ` + s + `" -O - https://api.example/v1/items`,
				`tool run --api-key=` + s + ` --verbose`,
				`gh auth login --token ` + s,
				"* Connected\n> GET /v1/items HTTP/1.1\n> " + header + ": " + s + "\n> Accept: */*\n",
			}[r.IntN(7)], s[strings.LastIndexByte(s, ' ')+1:]
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
