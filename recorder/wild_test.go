package recorder

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/secrets"
)

// wildPlacements are credentials as real services issue them and real
// clients, agents and tools place them, beyond the corpus of
// TestRecordedCorpusHoldsNoSecret: cloud keys and their pairs, connection
// strings, configuration files an agent reads, code it writes, markup it
// fills in, streams that split what they carry.
func wildPlacements() []placement {
	k := func(seed int) string { return fake("", 32, seed) }
	post := func(ctype, body string, h ...string) func(string) *http.Request {
		return func(base string) *http.Request {
			return newReq(http.MethodPost, base+"/v1/chat/completions", ctype, body, h...)
		}
	}
	get := func(pathQuery string, h ...string) func(string) *http.Request {
		return func(base string) *http.Request { return newReq(http.MethodGet, base+pathQuery, "", "", h...) }
	}
	chat := func(content string) func(string) *http.Request {
		b, _ := json.Marshal(map[string]any{"model": "m", "messages": []map[string]string{{"role": "user", "content": content}}})
		return post("application/json", string(b))
	}
	text := func(ctype, body string) func(http.ResponseWriter, *http.Request) {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ctype)
			io.WriteString(w, body)
		}
	}
	toolArgs := func(args string) func(string) *http.Request {
		b, _ := json.Marshal(map[string]any{"model": "m", "messages": []any{
			map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{"id": "call_1", "type": "function",
				"function": map[string]string{"name": "run", "arguments": args}}}},
		}})
		return post("application/json", string(b))
	}
	upper := func(s string) string { return strings.ToUpper(s) }
	pw := "Tr0ub4dor-" + fake("", 8, 300)
	pem := "-----BEGIN PRIVATE KEY-----\n" + fake("MIIEvQ", 58, 301) + "\n" + fake("", 64, 302) + "\n-----END PRIVATE KEY-----\n"
	pemBody := pem[28:90]
	awsID, awsSecret := "AKIA"+upper(fake("", 16, 303)), fake("", 40, 304)
	sa, _ := json.Marshal(map[string]string{"type": "service_account", "project_id": "shop-prod", "private_key_id": fakeHex40(305),
		"private_key": pem, "client_email": "bot@shop-prod.iam.gserviceaccount.com"})
	ps := []placement{
		// Cloud credentials.
		{name: "aws pair in prose", secrets: []string{awsID, awsSecret}, req: chat("id " + awsID + " secret " + awsSecret)},
		{name: "aws credentials csv", secrets: []string{awsID, fake("", 40, 380)}, req: get("/files/credentials.csv"),
			answer: text("text/csv", "User name,Password,Access key ID,Secret access key,Console login link\nbob,,"+awsID+","+fake("", 40, 380)+",https://123456789012.signin.aws.amazon.com/console\n")},
		{name: "aws sts json", secrets: []string{awsSecret, fake("IQoJb3JpZ2luX2Vj", 200, 306)}, req: get("/sts?Action=GetSessionToken"),
			answer: text("application/json", `{"Credentials":{"AccessKeyId":"ASIA`+upper(fake("", 16, 307))+`","SecretAccessKey":"`+awsSecret+`","SessionToken":"`+fake("IQoJb3JpZ2luX2Vj", 200, 306)+`","Expiration":"2026-11-27T00:00:00Z"}}`)},
		{name: "aws security token header", secrets: []string{fake("IQoJb3JpZ2luX2Vj", 200, 308)}, req: get("/s3/bucket/key", "X-Amz-Security-Token", fake("IQoJb3JpZ2luX2Vj", 200, 308))},
		{name: "aws presigned url", secrets: []string{fake("IQoJb3JpZ2luX2Vj", 120, 309), fakeHex40(310) + fakeHex40(311)[:24]},
			req: get("/bucket/obj?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=" + url.QueryEscape(awsID+"/20261126/us-east-1/s3/aws4_request") +
				"&X-Amz-Security-Token=" + url.QueryEscape(fake("IQoJb3JpZ2luX2Vj", 120, 309)) + "&X-Amz-Signature=" + fakeHex40(310) + fakeHex40(311)[:24])},
		{name: "gcp service account json in content", secrets: []string{pemBody}, req: chat("here is the key file:\n" + string(sa))},
		{name: "gcp service account json in tool arguments", secrets: []string{pemBody}, req: toolArgs(`{"path":"sa.json","content":` + strconv.Quote(string(sa)) + `}`)},
		{name: "gcp api key in query", secrets: []string{fake("AIza", 35, 312)}, req: get("/maps/api/geocode/json?address=Paris&key=" + fake("AIza", 35, 312))},
		{name: "azure service bus", secrets: []string{k(313) + "="}, req: chat("Endpoint=sb://shop.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=" + k(313) + "=")},
		{name: "azure sas url in content", secrets: []string{k(314)}, req: chat("upload to https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&ss=b&srt=o&sp=rw&se=2026-12-01T00:00:00Z&sig=" + url.QueryEscape(k(314)+"/+="))},
		{name: "azure sas query", secrets: []string{k(315)}, req: get("/c/f.txt?sv=2022-11-02&sp=r&sig=" + url.QueryEscape(k(315)+"+/="))},
		// Platform tokens.
		{name: "slack tokens", secrets: []string{"xoxp-" + fake("", 40, 316), "xapp-1-A0" + upper(fake("", 9, 317)) + "-" + fake("", 40, 318)},
			req: chat("xoxp-" + fake("", 40, 316) + " and xapp-1-A0" + upper(fake("", 9, 317)) + "-" + fake("", 40, 318))},
		{name: "stripe test and restricted keys", secrets: []string{"sk_test_" + fake("", 24, 319), "rk_live_" + fake("", 24, 320)},
			req: chat("sk_test_" + fake("", 24, 319) + " rk_live_" + fake("", 24, 320))},
		{name: "shopify tokens", secrets: []string{"shpat_" + fakeHex40(321)[:32], "shpss_" + fakeHex40(322)[:32]}, req: chat("shpat_" + fakeHex40(321)[:32] + " shpss_" + fakeHex40(322)[:32])},
		{name: "openai admin key", secrets: []string{fake("sk-admin-", 64, 323)}, req: chat("admin " + fake("sk-admin-", 64, 323))},
		{name: "new relic ingest key", secrets: []string{"NRII-" + fake("", 32, 324)}, req: chat("NRII-" + fake("", 32, 324))},
		{name: "square token", secrets: []string{"sq0atp-" + fake("", 22, 325)}, req: chat("sq0atp-" + fake("", 22, 325))},
		{name: "okta ssws in json header", secrets: []string{"00" + fake("", 40, 327)}, req: toolArgs(`{"url":"https://x.okta.com/api/v1/users","headers":{"Authorization":"SSWS 00` + fake("", 40, 327) + `"}}`)},
		// Connection strings and URLs.
		{name: "mongodb+srv", secrets: []string{pw}, req: chat("mongodb+srv://app:" + pw + "@cluster0.ab1cd.mongodb.net/shop?retryWrites=true")},
		{name: "https userinfo in content", secrets: []string{pw}, req: chat("git clone https://bob:" + pw + "@git.example.com/shop.git")},
		{name: "https userinfo in request url", secrets: []string{pw}, req: func(base string) *http.Request {
			u, _ := url.Parse(base + "/v1/data")
			u.User = url.UserPassword("bob", pw)
			return newReq(http.MethodGet, u.String(), "", "")
		}},
		{name: "jdbc password", secrets: []string{pw}, req: chat("jdbc:postgresql://db:5432/shop?user=app&password=" + pw + "&ssl=true")},
		{name: "odbc pwd", secrets: []string{pw}, req: chat("Driver={ODBC Driver 18};Server=db;Database=shop;Uid=app;Pwd=" + pw + ";")},
		{name: "password with percent-encoded at", secrets: []string{"Xy" + pw}, req: chat("postgres://app:" + url.QueryEscape("Xy"+pw+"@") + "@db/shop")},
		{name: "oauth implicit fragment", secrets: []string{k(328)}, req: get("/authorize?q=1"), answer: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Location", "https://app.example/cb#access_token="+k(328)+"&token_type=bearer&expires_in=3600")
			w.WriteHeader(http.StatusFound)
		}},
		// Headers.
		{name: "x-vault-token", secrets: []string{"hvs." + fake("", 90, 329)}, req: get("/v1/secret/data/x", "X-Vault-Token", "hvs."+fake("", 90, 329))},
		{name: "x-honeycomb-team", secrets: []string{k(330)}, req: get("/1/events/x", "X-Honeycomb-Team", k(330))},
		{name: "dd-api-key", secrets: []string{k(331), k(332)}, req: get("/api/v1/validate", "DD-API-KEY", k(331), "DD-APPLICATION-KEY", k(332))},
		{name: "x-shopify-access-token", secrets: []string{k(333)}, req: get("/admin/api/shop.json", "X-Shopify-Access-Token", k(333))},
		{name: "apikey header", secrets: []string{k(334)}, req: get("/rest/v1/items", "apikey", k(334))},
		// Query names.
		{name: "query names", secrets: []string{k(335), k(336), k(337), k(338), k(339)},
			req: get("/api?hapikey=" + k(335) + "&apiKey=" + k(336) + "&accessToken=" + k(337) + "&client_secret=" + k(338) + "&auth_token=" + k(339))},
		// Configuration files an agent reads.
		{name: "netrc", secrets: []string{pw}, req: get("/files/netrc"), answer: text("text/plain", "machine api.heroku.com\n  login bob@example.com\n  password "+pw+"\n")},
		{name: "netrc one line", secrets: []string{pw}, req: get("/files/netrc1"), answer: text("text/plain", "machine github.com login bob password "+pw+"\n")},
		{name: "npmrc authToken", secrets: []string{k(340)}, req: get("/files/npmrc"), answer: text("text/plain", "registry=https://npm.example.com/\n//npm.example.com/:_authToken="+k(340)+"\n")},
		{name: "docker config auth", secrets: []string{base64.StdEncoding.EncodeToString([]byte("bob:" + pw))}, req: get("/files/docker"),
			answer: text("application/json", `{"auths":{"https://index.docker.io/v1/":{"auth":"`+base64.StdEncoding.EncodeToString([]byte("bob:"+pw))+`"}}}`)},
		{name: "kubeconfig", secrets: []string{base64.StdEncoding.EncodeToString([]byte(pem))[40:100], "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW0ifQ." + fake("", 43, 341)}, req: get("/files/kubeconfig"),
			answer: text("application/yaml", "users:\n- name: admin\n  user:\n    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t\n    client-key-data: "+base64.StdEncoding.EncodeToString([]byte(pem))+"\n    token: eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW0ifQ."+fake("", 43, 341)+"\n")},
		{name: "spring properties", secrets: []string{pw}, req: get("/files/props"), answer: text("text/plain", "spring.datasource.url=jdbc:mysql://db/shop\nspring.datasource.password="+pw+"\n")},
		{name: "dockerfile env", secrets: []string{k(342)}, req: get("/files/Dockerfile"), answer: text("text/plain", "FROM alpine\nENV API_KEY "+k(342)+"\nRUN echo hi\n")},
		{name: "compose env", secrets: []string{pw}, req: get("/files/compose"), answer: text("application/yaml", "services:\n  db:\n    environment:\n      - POSTGRES_PASSWORD="+pw+"\n      MYSQL_ROOT_PASSWORD: "+pw+"\n")},
		{name: "otpauth secret", secrets: []string{"JBSWY3DPEHPK3PXP" + upper(fake("", 8, 343))}, req: chat("otpauth://totp/Shop:bob?secret=JBSWY3DPEHPK3PXP" + upper(fake("", 8, 343)) + "&issuer=Shop")},
		// Code an agent writes.
		{name: "go setenv", secrets: []string{k(344)}, req: toolArgs(`{"path":"main.go","content":"os.Setenv(\"OPENAI_API_KEY\", \"` + k(344) + `\")"}`)},
		{name: "go header set", secrets: []string{k(345)}, req: toolArgs(`{"path":"main.go","content":"req.Header.Set(\"X-Api-Key\", \"` + k(345) + `\")"}`)},
		{name: "python kwargs", secrets: []string{pw}, req: toolArgs(`{"code":"psycopg2.connect(host=\"db\", user=\"app\", password=\"` + pw + `\")"}`)},
		{name: "powershell env", secrets: []string{k(346)}, req: toolArgs(`{"cmd":"$env:DB_PASSWORD = \"` + k(346) + `\""}`)},
		{name: "headers tuple list", secrets: []string{k(347)}, req: toolArgs(`{"code":"headers = [(\"Authorization\", \"Token ` + k(347) + `\")]"}`)},
		{name: "curl header double quotes", secrets: []string{k(348)}, req: toolArgs(`{"cmd":"curl -H \"X-Api-Key: ` + k(348) + `\" https://api.example.com"}`)},
		{name: "graphql password", secrets: []string{pw}, req: post("application/json", `{"query":"mutation { login(email: \"a@b.c\", password: \"`+pw+`\") { token } }"}`)},
		{name: "soap wsse password", secrets: []string{pw}, req: post("text/xml", `<soap:Envelope><soap:Header><wsse:Security><wsse:UsernameToken><wsse:Username>bob</wsse:Username><wsse:Password Type="PasswordText">`+pw+`</wsse:Password></wsse:UsernameToken></wsse:Security></soap:Header></soap:Envelope>`)},
		{name: "xml password attribute", secrets: []string{pw}, req: post("text/xml", `<datasource user="app" password="`+pw+`"/>`)},
		{name: "nested tool arguments", secrets: []string{k(349)}, req: toolArgs(`{"method":"POST","body":"{\"api_key\":\"` + k(349) + `\",\"q\":1}"}`)},
		{name: "php escaped slashes", secrets: []string{k(350) + "/" + k(351)[:10]}, req: get("/cfg"), answer: text("application/json", `{"storage":"AccountKey=`+k(350)+`\/`+k(351)[:10]+`==;"}`)},
		{name: "mislabelled json", secrets: []string{k(352)}, req: post("text/plain", `{"model":"m","client_secret":"`+k(352)+`"}`)},
		{name: "form with json payload", secrets: []string{k(353)}, req: post("application/x-www-form-urlencoded", "payload="+url.QueryEscape(`{"type":"x","api_key":"`+k(353)+`"}`))},
		{name: "python bytes literal", secrets: []string{pw}, req: toolArgs(`{"code":"login(password=b\"` + pw + `\")"}`)},
		{name: "login answer token", secrets: []string{fakeHex40(360)}, req: post("application/json", `{"user":"bob","password":"`+pw+`"}`),
			answer: text("application/json", `{"token":"`+fakeHex40(360)+`","user":{"id":7,"name":"bob"}}`)},
		{name: "bare token line and export", secrets: []string{k(361), k(362)}, req: get("/files/hosts"),
			answer: text("text/plain", "github.com:\n    user: bob\n    token: "+k(361)+"\nexport TOKEN="+k(362)+"\n")},
		{name: "token flag", secrets: []string{k(363)}, req: toolArgs(`{"cmd":"gh auth login --token ` + k(363) + ` --hostname github.com"}`)},
		{name: "pgp private key block", secrets: []string{fake("lQOYBF", 60, 364)}, req: get("/files/key.asc"),
			answer: text("text/plain", "-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n"+fake("lQOYBF", 60, 364)+"\n=abcd\n-----END PGP PRIVATE KEY BLOCK-----\n")},
		{name: "zapier and teams webhooks", secrets: []string{"123456/" + fake("", 7, 365), fake("", 36, 366)},
			req: chat("post to https://hooks.zapier.com/hooks/catch/123456/" + fake("", 7, 365) + "/ and https://acme.webhook.office.com/webhookb2/" + fake("", 36, 366) + "@" + fake("", 36, 367) + "/IncomingWebhook/" + fakeHex40(368)[:32] + "/" + fake("", 36, 369))},
		// Sessions, exchange signatures and wallets.
		{name: "curl -i output with set-cookie", secrets: []string{k(374)}, req: toolArgs(`{"output":"HTTP/1.1 200 OK\nSet-Cookie: _app_session=` + k(374) + `; Path=/; HttpOnly; SameSite=Lax\nContent-Type: text/html\n"}`)},
		{name: "playwright storage state", secrets: []string{k(375), k(376)}, req: get("/state"), answer: text("application/json",
			`{"cookies":[{"name":"sessionid","value":"`+k(375)+`","domain":".shop.example","path":"/","expires":-1,"httpOnly":true,"secure":true,"sameSite":"Lax"},`+
				`{"name":"JSESSIONID","value":"`+k(376)+`","domain":"shop.example","path":"/"},{"name":"theme","value":"dark","domain":"shop.example","path":"/"}],"origins":[]}`)},
		{name: "exchange signatures", secrets: []string{fakeHex40(377), k(378)}, req: get("/api/v5/account/balance?sign="+fakeHex40(377)+"&timestamp=1700000000",
			"OK-ACCESS-SIGN", k(378), "CB-ACCESS-SIGN", k(378))},
		{name: "wallet seed phrase", secrets: []string{"legal winner thank year wave sausage worth useful legal winner thank yellow"},
			req: toolArgs(`{"wallet":{"mnemonic":"legal winner thank year wave sausage worth useful legal winner thank yellow","path":"m/44'/60'/0'/0/0"}}`)},
		{name: "rpc endpoint in the request path", secrets: []string{fake("", 32, 379)}, req: func(base string) *http.Request {
			return newReq(http.MethodPost, base+"/eth-mainnet.g.alchemy.com/v2/"+fake("", 32, 379), "application/json", `{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}`)
		}},
		// Encodings: compressed streams and requests, a file as a data URL.
		{name: "zstd stream split", secrets: []string{fake("sk-ant-api03-", 60, 370)}, req: get("/stream/z", "Accept-Encoding", "zstd"),
			answer: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				w.Header().Set("Content-Encoding", "zstd")
				key := fake("sk-ant-api03-", 60, 370)
				w.Write(encoded([]byte(`data: {"delta":{"text":"`+key[:20]+`"}}`+"\n\n"+`data: {"delta":{"text":"`+key[20:]+`"}}`+"\n\n"), "zstd"))
			}},
		{name: "br request form", secrets: []string{pw}, req: post("application/x-www-form-urlencoded", string(encoded([]byte("user=bob&password="+url.QueryEscape(pw)), "br")), "Content-Encoding", "br")},
		{name: "gzip then br answer", secrets: []string{k(371)}, req: get("/two", "Accept-Encoding", "gzip, br"),
			answer: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("Content-Encoding", "gzip, br")
				w.Write(encoded([]byte(`{"client_secret":"`+k(371)+`"}`), "gzip,br"))
			}},
		{name: "text file as a data URL", secrets: []string{fake("sk-proj-", 48, 372)}, req: post("application/json",
			`{"model":"m","input":[{"role":"user","content":[{"type":"input_file","filename":".env","file_data":"data:text/plain;base64,`+
				base64.StdEncoding.EncodeToString([]byte("OPENAI_API_KEY="+fake("sk-proj-", 48, 372)+"\nDEBUG=1\n"))+`"}]}]}`)},
		{name: "multipart text file", secrets: []string{k(373)}, req: post("multipart/form-data; boundary=QwE9",
			"--QwE9\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nassistants\r\n--QwE9\r\nContent-Disposition: form-data; name=\"file\"; filename=\"config.json\"\r\nContent-Type: application/json\r\n\r\n{\"api_key\":\""+k(373)+"\"}\r\n--QwE9--\r\n")},
		// Streams that split a secret.
		{name: "tool arguments split across events", secrets: []string{k(354)}, req: get("/stream/1"), answer: text("text/event-stream",
			`data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"api_"}}]}}]}`+"\n\n"+
				`data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"key\":\"`+k(354)[:10]+`"}}]}}]}`+"\n\n"+
				`data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"`+k(354)[10:]+`\"}"}}]}}]}`+"\n\ndata: [DONE]\n\n")},
		{name: "anthropic input_json_delta split", secrets: []string{pw}, req: get("/stream/2"), answer: text("text/event-stream",
			"event: content_block_delta\n"+`data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"user\":\"bob\",\"pass`+`word\":\"`+pw[:6]+`"}}`+"\n\n"+
				"event: content_block_delta\n"+`data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"`+pw[6:]+`\"}"}}`+"\n\n")},
		{name: "responses api delta split", secrets: []string{fake("sk-proj-", 48, 355)}, req: get("/stream/3"), answer: text("text/event-stream",
			"event: response.output_text.delta\n"+`data: {"type":"response.output_text.delta","delta":"key `+fake("sk-proj-", 48, 355)[:20]+`"}`+"\n\n"+
				"event: response.output_text.delta\n"+`data: {"type":"response.output_text.delta","delta":"`+fake("sk-proj-", 48, 355)[20:]+` ok"}`+"\n\n")},
		{name: "gemini stream split", secrets: []string{fake("AIza", 35, 356)}, req: get("/stream/4"), answer: text("text/event-stream",
			`data: {"candidates":[{"content":{"parts":[{"text":"use `+fake("AIza", 35, 356)[:12]+`"}]}}]}`+"\r\n\r\n"+
				`data: {"candidates":[{"content":{"parts":[{"text":"`+fake("AIza", 35, 356)[12:]+`"}]}}]}`+"\r\n\r\n")},
		{name: "multi-line data event", secrets: []string{k(357)}, req: get("/stream/5"), answer: text("text/event-stream",
			"data: {\"session\":\ndata: {\"refresh_token\":\""+k(357)+"\"}}\n\n")},
		{name: "ndjson split", secrets: []string{fake("ghp_", 36, 358)}, req: get("/stream/6"), answer: text("application/x-ndjson",
			`{"message":{"content":"token `+fake("ghp_", 36, 358)[:9]+`"},"done":false}`+"\n"+`{"message":{"content":"`+fake("ghp_", 36, 358)[9:]+`"},"done":false}`+"\n"+`{"done":true}`+"\n")},
	}
	return ps
}

// fakeHex40 is 40 lower-case hexadecimal digits, different for each seed.
func fakeHex40(seed int) string {
	const digits = "0123456789abcdef"
	var b strings.Builder
	for i := range 40 {
		b.WriteByte(digits[(i*7+seed*3+i*i)%16])
	}
	return b.String()
}

// wildCleanPlacements are exchanges that name credentials or look like
// them and hold none: stored as they were, no finding.
func wildCleanPlacements() []placement {
	post := func(body string) func(string) *http.Request {
		return func(base string) *http.Request {
			return newReq(http.MethodPost, base+"/v1/chat/completions", "application/json", body)
		}
	}
	chat := func(content string) func(string) *http.Request {
		b, _ := json.Marshal(map[string]any{"model": "claude-3-5-sonnet-20241022", "messages": []map[string]string{{"role": "user", "content": content}}})
		return post(string(b))
	}
	return []placement{
		{name: "laravel rules", req: chat("$request->validate([\n    'email' => 'required|email',\n    'password' => 'required|string|min:8|confirmed',\n    'api_key' => 'nullable|string|max:64',\n]);")},
		{name: "accessibility tree", req: post(`{"tree":[{"role":"textbox","name":"Password","value":""},{"role":"button","name":"Password","value":"Show"},{"role":"checkbox","name":"Remember password","value":"false"}]}`)},
		{name: "one-word values", req: post(`{"api_key":"Show","access_token":"refresh","client_secret":"Hidden","auth_token":"OK","secret":"hidden","token":"none"}`)},
		{name: "prose about passwords", req: chat("Reset your password from the settings page; the password must be 12 characters. Your API key is shown once. Rotate the secret key yearly.")},
		{name: "session ids that name things", req: post(`{"session_id":"3f7c9e0a-2b4d-4e6f-8a1b-9c0d2e4f6a8b","sessionId":"sess_8Hk2mQ9xZ4pL7vR1","sid":"SM` + fakeHex40(401)[:32] + `","session":"default","chat_session_id":"run-2024-11-26","session_token_count":12}`)},
		{name: "ids and hashes", req: post(`{"request_id":"3f7c9e0a-2b4d-4e6f-8a1b-9c0d2e4f6a8b","commit":"` + fakeHex40(400) + `","sha256":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08","trace_id":"4bf92f3577b34da6a3ce929d0e0e4736","model":"gpt-4o-2024-08-06"}`)},
		{name: "model names", req: chat("compare gpt-4o-mini-2024-07-18, claude-3-5-sonnet-20241022, gemini-1.5-pro-002, meta-llama/Llama-3.1-70B-Instruct and sk-learn-style pipelines")},
		{name: "placeholders", req: chat("export OPENAI_API_KEY=sk-...\nexport ANTHROPIC_API_KEY=<your key>\npassword: ${DB_PASSWORD}\napi_key = os.environ[\"API_KEY\"]")},
		{name: "docs urls", req: chat("see https://platform.openai.com/docs/api-reference/authentication and https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_access-keys.html")},
		{name: "form labels", req: post(`{"fields":[{"label":"Password","type":"password","required":true,"placeholder":"Enter your password"},{"label":"API key","hint":"Find it under Settings"}]}`)},
		{name: "logprobs tokens", req: post(`{"logprobs":{"content":[{"token":"Hello","logprob":-0.1},{"token":" world"},{"token":"Python3"},{"token":"getElementById"},{"token":"2024-11-26T10:00:00Z"},{"token":"________________"}]}}`)},
		{name: "token words in code", req: chat("tokens = tokenizer.encode(text)\ntoken = tokens[0]\nfor token in stream: print(token)\n--token-budget 1000 --max-tokens 512")},
		{name: "clean text file as a data URL", req: post(`{"file_data":"data:text/markdown;base64,` + base64.StdEncoding.EncodeToString([]byte("# Notes\nRotate the API key yearly; the password policy is in the wiki.\n")) + `"}`)},
		{name: "disassembly and harmless cookies", req: post(`{"insns":[{"mnemonic":"mov","op_str":"eax, 1"},{"mnemonic":"ret"}],"cookies":[{"name":"theme","value":"dark","domain":"x.example","path":"/"}],"notes":"Set-Cookie: theme=dark; Path=/","sign":"+","zodiac_sign":"Leo"}`)},
		{name: "templates and cookie attributes", req: chat("to_sign = f\"{msg_id}.{timestamp}.{payload}\"\ngpg --detach-sign app-$VERSION.tar.gz\nSet-Cookie: theme=dark; Path=/api/v1; Max-Age=3600\nIf the request is \"https://example.com/act?api_key=\", \"api_key\" is the name.")},
		{name: "token usage", req: post(`{"usage":{"input_tokens":1200,"output_tokens":88,"cache_read_input_tokens":0},"stop_reason":"end_turn","token_type":"Bearer","expires_in":3600}`)},
	}
}

// TestRecordedWildPlacementsHoldNoSecret records each placement through a
// real recorder, on loopback, into a cassette of its own: the file holds
// no trace of the secret (raw, URL-encoded, base64) and the check passes
// on what was stored. A clean exchange is stored as it was and passes.
func TestRecordedWildPlacementsHoldNoSecret(t *testing.T) {
	var current placement // the subtests run one after another
	srv := placementServer(func(*http.Request) placement { return current })
	defer srv.Close()
	record := func(t *testing.T, p placement) (data []byte, sent string, path string) {
		t.Helper()
		current = p
		req := p.req(srv.URL)
		if req.Body != nil {
			b, _ := io.ReadAll(req.Body)
			sent = string(b)
			req.Body = io.NopCloser(strings.NewReader(sent))
		}
		data, path = recordAlone(t, req)
		return data, sent, path
	}
	for _, p := range wildPlacements() {
		t.Run(p.name, func(t *testing.T) {
			data, _, path := record(t, p)
			assertScrubbed(t, data, path, p.secrets...)
		})
	}
	for _, p := range wildCleanPlacements() {
		t.Run("clean "+p.name, func(t *testing.T) {
			data, sent, path := record(t, p)
			its, _, err := loadCassette(path)
			if err != nil || len(its) != 1 {
				t.Fatalf("Expected one interaction, but loading gave %d and %v", len(its), err)
			}
			if its[0].Request.Body != sent {
				t.Errorf("Expected the request stored as sent,\n%s\nbut it was stored as\n%s", sent, its[0].Request.Body)
			}
			if found, err := checkFile(path); err != nil || len(found) > 0 {
				t.Errorf("Expected no finding, but the check found:\n%v(error %v)\n%s", found, err, data)
			}
		})
	}
}

// recordAlone records req through a recorder into a cassette of its own:
// the file and its path.
func recordAlone(t *testing.T, req *http.Request) (data []byte, path string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "alone.yaml")
	rec, err := Open(path, WithMode(RecordMissing), env())
	if err != nil {
		t.Fatal(err)
	}
	resp, err := rec.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	data, err = os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data, path
}

// assertScrubbed: the cassette at path, data, holds no trace of the
// secrets (raw, URL-encoded, path-escaped, base64) and the check passes
// on it.
func assertScrubbed(t *testing.T, data []byte, path string, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		for enc, text := range encodings(s) {
			if i := bytes.Index(data, []byte(text)); i >= 0 {
				t.Errorf("Expected the cassette to hold no trace of %q, but it holds it %s at line %d:\n%s",
					s, enc, 1+bytes.Count(data[:i], []byte("\n")), lineAt(data, i))
			}
		}
	}
	if found, err := checkFile(path); err != nil || len(found) > 0 {
		t.Errorf("Expected the check to pass on what the recorder stored, but it found:\n%v(error %v)", found, err)
	}
}

// checkFile is the check with the default rules.
func checkFile(path string) ([]secrets.Finding, error) { return secrets.Check(path, secrets.Rules{}) }
