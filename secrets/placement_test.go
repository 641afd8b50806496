package secrets

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
)

// fakeHex is n lower-case hexadecimal digits, made at run time.
func fakeHex(n int) string {
	const digits = "0123456789abcdef"
	var b strings.Builder
	for i := range n {
		b.WriteByte(digits[(i*7+3+i/5)%16])
	}
	return b.String()
}

// leak is one placement of a secret in an interaction: the check must find
// it, naming kind, and the Redactor, scrubbing the interaction as the
// recorder does, must remove it.
type leak struct {
	name   string
	secret string
	kind   string // a part of the finding's What
	edit   func(it *cassette.Interaction)
}

func inContent(text string) func(it *cassette.Interaction) {
	return func(it *cassette.Interaction) {
		b, _ := json.Marshal(map[string]any{"model": "m", "messages": []map[string]string{{"role": "user", "content": text}}})
		it.Request.Body = string(b)
	}
}

func inResponse(ctype, body string) func(it *cassette.Interaction) {
	return func(it *cassette.Interaction) {
		it.Response.Headers = http.Header{"Content-Type": {ctype}}
		it.Response.Body = body
	}
}

func inJSONField(name, v string) func(it *cassette.Interaction) {
	return func(it *cassette.Interaction) {
		b, _ := json.Marshal(map[string]any{"model": "m", "config": map[string]string{name: v}})
		it.Request.Body = string(b)
	}
}

func inQuery(name, v string) func(it *cassette.Interaction) {
	return func(it *cassette.Interaction) { it.Request.URL += "?q=1&" + name + "=" + url.QueryEscape(v) }
}

// leaks are the placements of issue 17 that the check missed and the
// recorder stored, and more of each family.
func leaks() []leak {
	k := func(prefix string, n int) string { return fakeKey(prefix, n) }
	var out []leak
	for _, shape := range []struct{ kind, key string }{
		{"Hugging Face token", k("hf_", 34)},
		{"Groq API key", k("gsk_", 52)},
		{"xAI API key", k("xai-", 80)},
		{"Perplexity API key", k("pplx-", 48)},
		{"Replicate API token", k("r8_", 37)},
		{"GitLab token", k("glpat-", 20)},
		{"SendGrid API key", "SG." + k("", 22) + "." + k("", 43)},
		{"npm token", k("npm_", 36)},
		{"Google OAuth token", k("ya29.", 60)},
		{"DigitalOcean token", "dop_v1_" + fakeHex(64)},
		{"Slack webhook URL", "services/T0" + k("", 8) + "/B0" + k("", 8) + "/" + k("", 24)},
		{"Pinecone API key", k("pcsk_", 60)},
		{"LangSmith API key", "lsv2_pt_" + fakeHex(32) + "_" + fakeHex(10)},
		{"Tavily API key", k("tvly-", 32)},
		{"Together AI API key", k("tgp_v1_", 43)},
		{"Voyage AI API key", k("pa-", 43)},
		{"Docker Hub token", k("dckr_pat_", 27)},
		{"Google OAuth client secret", k("GOCSPX-", 28)},
		{"Stripe key", k("whsec_", 32)},
		{"Twilio API key", "SK" + fakeHex(32)},
		{"Mailchimp API key", fakeHex(32) + "-us21"},
		{"Alibaba Cloud access key ID", k("LTAI", 20)},
		{"Bitbucket token", k("ATBB", 40)},
		{"Telegram bot token", "7123456789:AA" + k("", 33)},
		{"Meta access token", k("EAAG", 120)},
		{"Discord bot token", base64.RawURLEncoding.EncodeToString([]byte("1087654321098765432")) + ".Gx7yZ2." + k("", 38)},
		{"Firebase Cloud Messaging server key", k("AAAA", 7) + ":APA91b" + k("", 134)},
		{"Terraform Cloud token", k("", 14) + ".atlasv1." + k("", 67)},
	} {
		text := "my key is " + shape.key + " ok"
		if strings.HasPrefix(shape.key, "services/") {
			text = "post to https://hooks.slack.com/" + shape.key
		}
		out = append(out, leak{name: shape.kind, secret: shape.key, kind: shape.kind, edit: inContent(text)})
	}
	pw := "Pa55-" + k("", 10)
	bot := "7123456789:AA" + k("", 33)
	out = append(out,
		leak{"Telegram bot token in a Bot API path", bot, "Telegram bot token", func(it *cassette.Interaction) {
			it.Request.URL = "https://api.telegram.org/bot" + bot + "/sendMessage"
		}},
		leak{"CSRF meta tag", k("", 43), `"csrf-token" value`, inResponse("text/html", `<head><meta content="`+k("", 43)+`" name="csrf-token"></head>`)},
		leak{"Django's CSRF input", k("", 64), `"csrfmiddlewaretoken" value`, inResponse("text/html", `<input type="hidden" name="csrfmiddlewaretoken" value="`+k("", 64)+`">`)},
		leak{"a page in Go-encoded tool-call arguments", k("", 40), `"_csrf" value`, func(it *cassette.Interaction) {
			args, _ := json.Marshal(map[string]string{"html": `<form><input type="hidden" name="_csrf" value="` + k("", 40) + `"></form>`})
			body, _ := json.Marshal(map[string]any{"tool_calls": []any{map[string]any{"function": map[string]string{"name": "fill", "arguments": string(args)}}}})
			it.Request.Body = string(body) // both levels written with \u003c for "<", as Go's encoding/json writes them
		}},
		leak{"session id in a login answer", fakeHex(32), `"session_id" field`, inResponse("application/json", `{"user":"bob","session_id":"`+fakeHex(32)+`"}`)},
		leak{"sessionid in a YAML note", k("", 26), "sessionid: ", inContent("cookie jar:\n  sessionid: " + k("", 26) + "\n")},
		leak{"SigV4 Authorization in a log line", fakeHex(64), "request signature", inContent("DEBUG request headers: {Authorization: AWS4-HMAC-SHA256 Credential=AKIA" + "IOSFODNN7EXAMPLE/20261126/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=" + fakeHex(64) + "}")},
		leak{"presigned URL's session token in a JSON answer", k("IQoJb3JpZ2luX2Vj", 120), "AWS security token", inResponse("application/json",
			`{"url":"https://b.s3.amazonaws.com/k?X-Amz-Security-Token=`+k("IQoJb3JpZ2luX2Vj", 120)+`\u0026X-Amz-Signature=`+fakeHex(64)+`"}`)},
		leak{"a password's name and value in two events", "Xy" + k("", 12), "split across", inResponse("text/event-stream",
			`data: {"choices":[{"delta":{"content":"db:\n  password: "}}]}`+"\n\n"+`data: {"choices":[{"delta":{"content":"Xy`+k("", 12)+`\n"}}]}`+"\n\n")},
		leak{"a token encoded twice in a callback URL", k("", 32), "token=", inContent("redirecting to /login?next=%2Fcb%3Fstate%3D1%26token%253D" + k("", 32) + " now")},
		leak{"a key after an encoded equals sign", k("sk-proj-", 48), "OpenAI API key", inContent("GET /proxy?u=https%3A%2F%2Fapi.example%2Fv1%3Fkey%3D" + k("sk-proj-", 48))},
		leak{"a .env from a contents API, in base64", base64.StdEncoding.EncodeToString([]byte("DEBUG=1\nHF_TOKEN=" + k("", 34) + "\n"))[:40], "in base64",
			inResponse("application/json", `{"name":".env","encoding":"base64","content":"`+base64.StdEncoding.EncodeToString([]byte("DEBUG=1\nHF_TOKEN="+k("", 34)+"\n"))+`"}`)},
		leak{"Authorization header in a log line", k("", 40), "authorization value", inContent("2026/11/26 DEBUG > Authorization: Bot " + k("", 40) + " (discord)")},
		leak{"Basic credentials in prose", base64.StdEncoding.EncodeToString([]byte("bob:" + pw)), "authorization value", inContent("send authorization=Basic " + base64.StdEncoding.EncodeToString([]byte("bob:"+pw)) + ", then retry")},
		leak{"postgres connection string", pw, "password in a connection string", inContent("connect with postgres://app:" + pw + "@db.internal:5432/shop")},
		leak{"redis connection string", pw, "password in a connection string", inResponse("text/plain", "cache at redis://:"+pw+"@cache:6379/0")},
		leak{"azure AccountKey", k("", 86) + "==", "AccountKey=", inResponse("text/plain",
			"DefaultEndpointsProtocol=https;AccountName=acct7;AccountKey="+k("", 86)+"==;EndpointSuffix=core.windows.net")},
		leak{"sts SecretAccessKey", k("", 40), "SecretAccessKey", inResponse("text/xml",
			"<AssumeRoleResponse><Credentials><AccessKeyId>ASIA"+strings.ToUpper(fakeHex(16))+"</AccessKeyId><SecretAccessKey>"+k("", 40)+"</SecretAccessKey><SessionToken>"+k("FwoG", 200)+"</SessionToken></Credentials></AssumeRoleResponse>")},
		leak{"sts SessionToken", k("FwoG", 200), "SessionToken", inResponse("text/xml",
			"<Credentials><SessionToken>"+k("FwoG", 200)+"</SessionToken></Credentials>")},
		leak{"aws credentials file", k("", 40), "aws_secret_access_key", inResponse("text/plain",
			"[default]\naws_access_key_id = AKIA"+strings.ToUpper(fakeHex(16))+"\naws_secret_access_key = "+k("", 40)+"\nregion = eu-west-1\n")},
		leak{".env line", k("", 30), "HF_TOKEN", inResponse("text/plain", "# settings\nHF_TOKEN="+k("", 30)+"\nDEBUG=1\n")},
		leak{".env quoted", k("", 30), "OPENAI_API_KEY", inResponse("text/plain", "export OPENAI_API_KEY=\""+k("", 30)+"\"\n")},
		leak{"response header X-Api-Cred", k("", 32), "X-Api-Cred header", func(it *cassette.Interaction) { it.Response.Headers["X-Api-Cred"] = []string{k("", 32)} }},
		leak{"query private_token", k("", 20), "private_token", inQuery("private_token", k("", 20))},
		leak{"query hf_token", k("", 34), "hf_token", inQuery("hf_token", k("", 34))},
		leak{"query oauth_signature", "tnnArxj06cWHq44gCs1OSKk/jLY=", "oauth_signature", inQuery("oauth_signature", "tnnArxj06cWHq44gCs1OSKk/jLY=")},
		leak{"form oauth_token_secret", k("", 32), "oauth_token_secret", func(it *cassette.Interaction) {
			it.Request.Headers["Content-Type"] = []string{"application/x-www-form-urlencoded"}
			it.Request.Body = "oauth_token=abc&oauth_token_secret=" + k("", 32)
		}},
		leak{"multipart api_key", k("", 32), "api_key multipart field", func(it *cassette.Interaction) {
			it.Request.Headers["Content-Type"] = []string{"multipart/form-data; boundary=XyZ42"}
			it.Request.Body = "--XyZ42\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\nwhisper-1\r\n--XyZ42\r\nContent-Disposition: form-data; name=\"api_key\"\r\n\r\n" + k("", 32) + "\r\n--XyZ42--\r\n"
		}},
		leak{"key split across two events", k("sk-proj-", 40), "split across", inResponse("text/event-stream",
			`data: {"choices":[{"delta":{"content":"your key: `+k("sk-proj-", 40)[:14]+`"}}]}`+"\n\n"+
				`data: {"choices":[{"delta":{"content":"`+k("sk-proj-", 40)[14:]+` done"}}]}`+"\n\ndata: [DONE]\n\n")},
		leak{"key quoted in a 400 body", k("gsk_", 52), "Groq API key", func(it *cassette.Interaction) {
			it.Response.Code, it.Response.Status = 400, "400 Bad Request"
			it.Response.Body = `{"error":{"message":"Invalid API Key: '` + k("gsk_", 52) + `'","type":"invalid_request_error"}}`
		}},
		leak{"escaped JSON key", k("", 32), "api_key", func(it *cassette.Interaction) { it.Request.Body = `{"\u0061pi_key":"` + k("", 32) + `"}` }},
		leak{"JSON key with a tab", k("", 32), "api_key", func(it *cassette.Interaction) { it.Request.Body = "{\"api_key\"\t:\"" + k("", 32) + "\"}" }},
	)
	pem := "-----BEGIN PRIVATE KEY-----\n" + k("MIIEvQ", 58) + "\n-----END PRIVATE KEY-----\n"
	b64pem := base64.StdEncoding.EncodeToString([]byte(pem))
	sa, _ := json.Marshal(map[string]string{"type": "service_account", "private_key": pem})
	args, _ := json.Marshal(map[string]string{"path": "sa.json", "content": string(sa)})
	out = append(out,
		leak{"private key escaped twice", pem[28:60], "private key", inContent("write " + string(args))},
		leak{"private key in base64", b64pem[20:60], "private key in base64", inResponse("application/yaml", "users:\n- user:\n    client-key-data: "+b64pem+"\n")},
		leak{"netrc", pw, ".netrc", inResponse("text/plain", "machine api.example.com\n  login bob\n  password "+pw+"\n")},
		leak{"Dockerfile ENV", k("", 32), "API_KEY=", inResponse("text/plain", "FROM alpine\nENV API_KEY "+k("", 32)+"\n")},
		leak{"Setenv argument", k("", 32), `"OPENAI_API_KEY" value`, inContent(`os.Setenv("OPENAI_API_KEY", "` + k("", 32) + `")`)},
		leak{"header tuple", k("", 32), `"Authorization" value`, inContent(`headers = [("Authorization", "Token ` + k("", 32) + `")]`)},
		leak{"escaped keyword argument", pw, "password=", inContent(`{"code":"connect(user=\"app\", password=\"` + pw + `\")"}`)},
		leak{"SSWS scheme", k("00", 40), `"Authorization" field`, inJSONField("Authorization", "SSWS "+k("00", 40))},
		leak{"Honeycomb header", k("", 32), "X-Honeycomb-Team header", func(it *cassette.Interaction) { it.Request.Headers["X-Honeycomb-Team"] = []string{k("", 32)} }},
		leak{"Python bytes literal", pw, "password=", inContent(`login(password=b"` + pw + `")`)},
		leak{"login token", fakeHex(40), `"token" field`, inResponse("application/json", `{"token":"`+fakeHex(40)+`","user":{"id":7}}`)},
		leak{"bare token line", k("", 32), "token: ", inResponse("text/plain", "github.com:\n    token: "+k("", 32)+"\n")},
		leak{"PGP private key", k("lQOYBF", 60), "private key", inResponse("text/plain", "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n"+k("lQOYBF", 60)+"\n-----END PGP PRIVATE KEY BLOCK-----\n")},
		leak{"AWS secret next to its key ID", k("", 40), "AWS secret access key", inContent("Access key ID,Secret access key\nAKIA" + strings.ToUpper(fakeHex(16)) + "," + k("", 40) + "\n")},
		leak{"RPC endpoint key", fakeHex(32), "RPC endpoint key", inContent("rpc: https://mainnet.infura.io/v3/" + fakeHex(32))},
		leak{"Zapier webhook", "123456/" + k("", 7), "Zapier webhook URL", inContent("https://hooks.zapier.com/hooks/catch/123456/" + k("", 7) + "/")},
		leak{"a .env as a data URL", k("sk-proj-", 40), "in a base64 data URL", inJSONField("file_data",
			"data:text/plain;base64,"+base64.StdEncoding.EncodeToString([]byte("OPENAI_API_KEY="+k("sk-proj-", 40)+"\n")))},
		leak{"Set-Cookie line", k("", 32), "Set-Cookie: ", inContent("HTTP/1.1 200 OK\nSet-Cookie: _app_session=" + k("", 32) + "; Path=/; HttpOnly\n")},
		leak{"a line after an escaped line break", k("", 32), "token: ", inContent(`{"output":"user: bob\ntoken: ` + k("", 32) + `\n"}`)},
		leak{"Set-Cookie in a JSON header map", k("", 32), `"Set-Cookie" field`, inResponse("application/json", `{"headers":{"Set-Cookie":"sid=`+k("", 32)+`; Path=/; HttpOnly"}}`)},
		leak{"cookie object", k("", 32), `"sessionid" value`, inResponse("application/json", `{"cookies":[{"name":"sessionid","value":"`+k("", 32)+`","domain":".x.example","path":"/"}]}`)},
		leak{"exchange signature header", k("", 32), "Cb-Access-Sign header", func(it *cassette.Interaction) { it.Request.Headers["Cb-Access-Sign"] = []string{k("", 32)} }},
		leak{"seed phrase", "legal winner thank year wave sausage worth useful legal winner thank yellow", `"mnemonic" field`,
			inJSONField("mnemonic", "legal winner thank year wave sausage worth useful legal winner thank yellow")},
		leak{"JSON in a form field", k("", 32), `"api_key" field`, func(it *cassette.Interaction) {
			it.Request.Headers["Content-Type"] = []string{"application/x-www-form-urlencoded"}
			it.Request.Body = "payload=" + url.QueryEscape(`{"api_key":"`+k("", 32)+`"}`)
		}},
	)
	for _, name := range []string{"bot_token", "hf_token", "private_token", "app_secret", "consumer_secret", "secret_token",
		"aws_secret", "master_key", "encryption_key", "shared_secret", "signing_key", "AccountKey",
		// The families beyond the examples.
		"slackBotToken", "license_key", "db_password", "SENTRY_AUTH_TOKEN", "webhook_secret", "x-admin-key",
		"clientKey", "apiSecretKey", "GITHUB_TOKEN", "ssh_key", "refreshToken", "secretAccessKey", "x-api-token"} {
		out = append(out, leak{"json " + name, k("", 32), strconv.Quote(name), inJSONField(name, k("", 32))})
	}
	for name, v := range map[string]string{
		"connection_string": "Server=tcp:db.example.net;Database=shop;User ID=app;Password=" + pw + ";",
		"webhook_url":       "https://hooks.example.net/in/" + k("", 32),
		"dsn":               "https://" + fakeHex(32) + "@o1.ingest.sentry.io/42",
	} {
		out = append(out, leak{"json " + name, v, strconv.Quote(name), inJSONField(name, v)})
	}
	return append(out, commandLeaks()...)
}

// TestCheckFindsAndRedactorRemovesEveryPlacement: each placement of a
// secret is a finding of its kind in a hand-written cassette, and scrubbed
// as the recorder scrubs (the request's URL and body, its headers, the
// response) nothing of it is left.
func TestCheckFindsAndRedactorRemovesEveryPlacement(t *testing.T) {
	for _, l := range leaks() {
		t.Run(l.name, func(t *testing.T) {
			it := secretInteraction()
			l.edit(it)
			path, text := writeCassette(t, it)
			found, err := Check(path, Rules{})
			if err != nil {
				t.Fatal(err)
			}
			var whats []string
			ok := false
			for _, f := range found {
				whats = append(whats, f.String())
				ok = ok || strings.Contains(f.What, l.kind)
				if strings.Contains(f.String(), l.secret) {
					t.Errorf("Expected a finding never to print the secret, but %s does", f)
				}
			}
			if !ok {
				t.Errorf("Expected a finding of %q, but the check found:\n%s\nin\n%s", l.kind, strings.Join(whats, "\n"), text)
			}

			x, _ := Rules{}.Redactor()
			u, _ := url.Parse(it.Request.URL)
			storedURL, storedBody := x.Request(u, it.Request.Headers, []byte(it.Request.Body))
			l2 := x.Learn(u, it.Request.Headers, []byte(it.Request.Body))
			h, body := l2.Message(it.Response.Headers, []byte(it.Response.Body))
			stored := fmt.Sprint(storedURL, "\n", string(storedBody), "\n", l2.Headers(it.Request.Headers), "\n", h, "\n", string(body))
			for _, form := range []string{l.secret, url.QueryEscape(l.secret), base64.StdEncoding.EncodeToString([]byte(l.secret))} {
				if strings.Contains(stored, form) {
					t.Errorf("Expected the scrubbed interaction to hold no trace of the secret, but it holds %q:\n%s", form, stored)
				}
			}
		})
	}
}

// lookalikes are values that look like secrets to a naive scanner and are
// none: the check finds nothing and the Redactor changes nothing.
func lookalikes() []leak {
	return append(nearMisses(), []leak{
		{name: "fetch credentials include", edit: inJSONField("credentials", "include")},
		{name: "fetch credentials omit", edit: inJSONField("credentials", "omit")},
		{name: "has_password yes", edit: inJSONField("has_password", "yes")},
		{name: "authorization approved", edit: inJSONField("authorization", "approved")},
		{name: "trivia secret", edit: func(it *cassette.Interaction) {
			it.Response.Body = `{"question":"What is the secret of the sauce?","secret":"Fresh basil and patience","answer_key":"B"}`
		}},
		{name: "trivia secret word", edit: inJSONField("secret", "Rosebud")},
		{name: "signature algorithm header", edit: func(it *cassette.Interaction) {
			it.Response.Headers["X-Signature-Algorithm"] = []string{"HMAC-SHA256"}
			it.Request.Headers["X-Signature-Algorithm"] = []string{"HMAC-SHA256"}
		}},
		{name: "AWS documentation key", edit: inContent("Use AKIA" + "IOSFODNN7EXAMPLE with wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY as in the docs.")},
		{name: "algorithm and token type", edit: inJSONField("token_type", "Bearer")},
		{name: "jwt alg", edit: func(it *cassette.Interaction) {
			it.Request.Body = `{"alg":"RS256","signing_key_id":"k-7","encryption_key_type":"aes-256-gcm"}`
		}},
		{name: "pagination and tokenizer", edit: func(it *cassette.Interaction) {
			it.Request.Body = `{"next_page_token":"CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA0","eos_token":"</s>","pad_token":"[PAD]","sort_key":"created_at","cache_key":"v1:user:42","public_key":"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGx7"}`
		}},
		{name: "validation rules", edit: inContent("$request->validate(['password' => 'required|string|min:8|confirmed', 'api_key' => 'nullable|string|max:64']);")},
		{name: "accessibility tree", edit: func(it *cassette.Interaction) {
			it.Response.Body = `{"tree":[{"role":"textbox","name":"Password","value":""},{"role":"button","name":"Password","value":"Show"}]}`
		}},
		{name: "one ordinary word for a key", edit: func(it *cassette.Interaction) {
			it.Request.Body = `{"api_key":"Show","access_token":"refresh","client_secret":"Hidden","auth_token":"OK"}`
		}},
		{name: "key prefix and ellipsis", edit: inContent("export OPENAI_API_KEY=sk-...\nexport GITHUB_TOKEN=ghp_…\napi_key: sk-proj-...")},
		{name: "netrc words and prose", edit: inContent("machine learning models; a password manager; the ENV variables API_KEY")},
		{name: "certificate in base64", edit: func(it *cassette.Interaction) {
			it.Response.Body = "client-certificate-data: " + base64.StdEncoding.EncodeToString([]byte("-----BEGIN CERTIFICATE-----\nMIIC"+fakeHex(60)+"\n-----END CERTIFICATE-----\n")) + "\n"
		}},
		{name: "logprobs tokens", edit: func(it *cassette.Interaction) {
			it.Response.Body = `{"logprobs":{"content":[{"token":"Hello"},{"token":"Python3"},{"token":"getElementById"},{"token":"2024-11-26T10:00:00Z"}]}}`
		}},
		{name: "a clean file as a data URL", edit: inJSONField("file_data", "data:text/plain;base64,"+base64.StdEncoding.EncodeToString([]byte("DEBUG=1\nREGION=eu-west-1\n# set OPENAI_API_KEY in the vault\n")))},
		{name: "disassembly and harmless cookies", edit: func(it *cassette.Interaction) {
			it.Response.Body = `{"insns":[{"mnemonic":"mov","op_str":"eax, 1"}],"cookies":[{"name":"theme","value":"dark","domain":"x.example","path":"/"}],"notes":"Set-Cookie: theme=dark; Path=/","zodiac_sign":"Leo"}`
		}},
		{name: "templates and punctuation", edit: inContent("to_sign = f\"{msg_id}.{timestamp}.{payload}\"\ngpg --detach-sign opentelemetry-go-$VERSION.tar.gz\n" +
			`If the request is \"https://example.com/act?api_key=\", \"api_key\" is the name.` + "\nSet-Cookie: theme=dark; Path=/api/v1; Max-Age=3600\n" + `{"Set-Cookie":"lang=en; Domain=.x.example"}`)},
		{name: "labels as arguments", edit: inContent(`form.add("password", "Enter your password"); t("api_key", "API key"); headers.get("Authorization", "")`)},
		{name: "session ids that name things", edit: inResponse("application/json", `{"session_id":"3f7c9e0a-2b4d-4e6f-8a1b-9c0d2e4f6a8b","sessionId":"sess_8Hk2mQ9xZ4pL7vR1","sid":"SM`+fakeHex(32)+`","session":"default","session_id_2":"abc123"}`)},
		{name: "Go code assigning to secret names", edit: inContent("e := &eventPort{\n\tcookies: make(map[*fileObjCookie]struct{}),\n\tcreds:   &AwsSecurityCredentials{AccessKeyID: id},\n" +
			"\tPrivateKey: []byte(pemData),\n\tAuth: anthropic.F(anthropic.AuthParam{\n\tToken: oauth2.StaticTokenSource(tok2),\n\tsecret: Config{Name: n1},\n\tapiKey: os.Getenv(\"OPENAI_API_KEY\"),\n\tsid: SpanID([8]byte{42}),\n\tUserOAuth: &config.UserOAuth{},\n}\n" +
			"type Entry struct {\n\tLabels map[string]string `protobuf:\"bytes,3,rep,name=labels,proto3\" protobuf_key:\"bytes,1,opt,name=key,proto3\" protobuf_val:\"bytes,2,opt,name=value,proto3\"`\n}\n")},
		{name: "page metadata", edit: inResponse("text/html", `<meta name="csrf-param" content="authenticity_token"><meta name="description" content="Reset your password with a token"><input type="hidden" name="_csrf" value="enabled"><meta name="csrf-token" content="">`)},
		{name: "authorization prose", edit: inContent("Authorization: required. Set the Authorization: Bearer header; authorization=approved, Authorization: AWS4-HMAC-SHA256 names the algorithm.")},
		{name: "slugs after a key's prefix", edit: inContent("https://news.example.com/pa-state-budget-2024-vote-results-and-analysis-of-the-senate and tgp_v1_notes")},
		{name: "password policy words", edit: func(it *cassette.Interaction) {
			it.Request.Body = `{"password_min_length":12,"password_required":true,"is_secret":false,"secret_name":"prod-db","api_key_id":"key_123"}`
		}},
	}...)
}

func TestLookalikesAreNoSecrets(t *testing.T) {
	for _, l := range lookalikes() {
		t.Run(l.name, func(t *testing.T) {
			it := secretInteraction()
			l.edit(it)
			path, text := writeCassette(t, it)
			found, err := Check(path, Rules{})
			if err != nil {
				t.Fatal(err)
			}
			if len(found) > 0 {
				t.Errorf("Expected no finding, but the check found:\n%s\nin\n%s", findingLines(found), text)
			}
			x, _ := Rules{}.Redactor()
			u, _ := url.Parse(it.Request.URL)
			if storedURL, storedBody := x.Request(u, it.Request.Headers, []byte(it.Request.Body)); storedURL != it.Request.URL || string(storedBody) != it.Request.Body {
				t.Errorf("Expected the request stored as sent, but it was stored as %s %s", storedURL, storedBody)
			}
			if h, body := x.Message(it.Response.Headers, []byte(it.Response.Body)); string(body) != it.Response.Body || len(h) != len(it.Response.Headers) {
				t.Errorf("Expected the response stored as received, but it was stored as %v %s", h, body)
			}
			if h := x.Headers(it.Request.Headers); len(h) != len(it.Request.Headers) {
				t.Errorf("Expected the request headers kept, but %v became %v", it.Request.Headers, h)
			}
		})
	}
}

// TestBase64DataIsNoSecret: images and audio sent as base64 (512 KiB of
// random bytes, in both alphabets) hold no key shape by chance.
func TestBase64DataIsNoSecret(t *testing.T) {
	t.Parallel() // slow: it overlaps the package's other slow tests
	r := rand.New(rand.NewPCG(17, 42))
	data := make([]byte, 512<<10)
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	x, _ := Rules{}.Redactor()
	for name, enc := range map[string]*base64.Encoding{"std": base64.StdEncoding, "url": base64.URLEncoding} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			text := enc.EncodeToString(data)
			for _, sp := range x.spans(text) {
				t.Errorf("Expected no secret in random base64, but found %s at %d", sp.what, sp.start)
			}
		})
	}
}
