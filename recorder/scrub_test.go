package recorder

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/secrets"
)

// fake is a key-shaped fake made at run time, so that no secret scanner of
// this repository's source takes the test for a leak: prefix, then n
// characters mixing letters and digits, different for each seed.
func fake(prefix string, n, seed int) string {
	const alphabet = "aB3xK9mQ7pZ2wR5tY8cD4vF6"
	var b strings.Builder
	b.WriteString(prefix)
	for i := range n {
		b.WriteByte(alphabet[(i*7+seed*5+i*i*seed)%len(alphabet)])
	}
	return b.String()
}

// encodings are the forms in which a secret must not appear in a cassette.
func encodings(s string) map[string]string {
	return map[string]string{
		"raw":            s,
		"URL-encoded":    url.QueryEscape(s),
		"path-escaped":   url.PathEscape(s),
		"base64":         base64.StdEncoding.EncodeToString([]byte(s)),
		"base64 (URL)":   base64.RawURLEncoding.EncodeToString([]byte(s)),
		"base64 (inner)": base64.RawStdEncoding.EncodeToString([]byte("user:" + s))[8:],
	}
}

// placement is one way a secret can reach a recording: the request that
// carries it and the server's answer to it.
type placement struct {
	name    string
	secrets []string
	req     func(base string) *http.Request
	// answer writes the server's answer; nil answers {"ok":true}.
	answer func(w http.ResponseWriter, r *http.Request)
}

func newReq(method, rawURL, ctype, body string, header ...string) *http.Request {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, rawURL, rd)
	if err != nil {
		panic(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return req
}

func jsonAnswer(body string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}
}

// echo answers with the request's credential, encoded by enc, in a JSON
// body.
func echo(value func(r *http.Request) string, enc func(string) string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		b, _ := json.Marshal(map[string]string{"note": "you sent " + enc(value(r)), "status": "ok"})
		w.Write(b)
	}
}

func gzipped(s string) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(s))
	zw.Close()
	return buf.Bytes()
}

func deflated(s string) []byte {
	var buf bytes.Buffer
	zw := zlib.NewWriter(&buf)
	zw.Write([]byte(s))
	zw.Close()
	return buf.Bytes()
}

// cardNumbers is a Rules.Func: 16-digit numbers that pass the Luhn check.
func cardNumbers(text string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`\b[0-9]{16}\b`).FindAllString(text, -1) {
		sum := 0
		for i := range m {
			d := int(m[len(m)-1-i] - '0')
			if i%2 == 1 {
				if d *= 2; d > 9 {
					d -= 9
				}
			}
			sum += d
		}
		if sum%10 == 0 {
			out = append(out, m)
		}
	}
	return out
}

const envSecretName = "AGENTCHECK_TEST_SCRUB_ENV_SECRET"

// placements are the corpus: every kind of secret placement, each with a
// secret of its own.
func placements() []placement {
	k := func(seed int) string { return fake("", 32, seed) }
	var (
		telegram = "7012345678:" + fake("AAH", 32, 40)
		pem      = "-----BEGIN RSA PRIVATE KEY-----\n" + fake("MIIEow", 58, 41) + "\n" + fake("", 64, 42) + "\n-----END RSA PRIVATE KEY-----\n"
		jwt      = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0." + fake("", 43, 43)
	)
	get := func(q string) func(string) *http.Request {
		return func(base string) *http.Request { return newReq(http.MethodGet, base+"/v1/data?"+q, "", "") }
	}
	header := func(name, value string) func(string) *http.Request {
		return func(base string) *http.Request {
			return newReq(http.MethodPost, base+"/v1/chat/completions", "application/json", `{"model":"m"}`, name, value)
		}
	}
	post := func(ctype, body string, h ...string) func(string) *http.Request {
		return func(base string) *http.Request {
			return newReq(http.MethodPost, base+"/v1/chat/completions", ctype, body, h...)
		}
	}
	chat := func(content string) string {
		b, _ := json.Marshal(map[string]any{"model": "m", "messages": []map[string]string{{"role": "user", "content": content}}})
		return string(b)
	}
	ps := []placement{
		// Request headers, listed and guessed from their names.
		{name: "authorization", secrets: []string{k(1)}, req: header("Authorization", "Bearer "+k(1))},
		{name: "ocp-apim", secrets: []string{k(2)}, req: header("Ocp-Apim-Subscription-Key", k(2))},
		{name: "rapidapi", secrets: []string{k(3)}, req: header("X-RapidAPI-Key", k(3))},
		{name: "goog-api-key", secrets: []string{k(4)}, req: header("X-Goog-Api-Key", k(4))},
		{name: "cookie", secrets: []string{k(5)}, req: header("Cookie", "theme=dark; sid="+k(5))},
		{name: "x-auth-token", secrets: []string{k(6)}, req: header("X-Auth-Token", k(6))},
		{name: "x-client-secret", secrets: []string{k(7)}, req: header("X-Client-Secret", k(7))},
		{name: "x-session-id", secrets: []string{k(8)}, req: header("X-Session-Id", k(8))},
		{name: "x-signature", secrets: []string{k(9)}, req: header("X-Hub-Signature-256", "sha256="+k(9))},
		{name: "x-password", secrets: []string{"hunter2-" + k(10)[:6]}, req: header("X-Password", "hunter2-"+k(10)[:6])},
		{name: "basic auth", secrets: []string{base64.StdEncoding.EncodeToString([]byte("bob:" + k(11))), k(11)},
			req: header("Proxy-Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte("bob:"+k(11))))},
		// Response headers.
		{name: "set-cookie", secrets: []string{k(12)}, req: get("q=1"), answer: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Set-Cookie", "session="+k(12)+"; Path=/; HttpOnly")
			io.WriteString(w, "ok")
		}},
		{name: "response token header", secrets: []string{k(13)}, req: get("q=2"), answer: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-Upload-Token", k(13))
			io.WriteString(w, "ok")
		}},
		{name: "location token", secrets: []string{k(14)}, req: get("q=3"), answer: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Location", "/callback?state=xyz&token="+k(14))
			w.WriteHeader(http.StatusFound)
		}},
	}
	// Query parameters.
	for i, name := range []string{"appid", "access_key", "subscription-key", "api_key", "apikey", "key", "token", "access_token", "sig", "signature", "code", "password"} {
		v := k(20 + i)
		ps = append(ps, placement{name: "query " + name, secrets: []string{v}, req: get("q=weather&" + name + "=" + v)})
	}
	ps = append(ps, []placement{
		// Form bodies.
		{name: "form oauth", secrets: []string{k(40), k(41)},
			req: post("application/x-www-form-urlencoded", "grant_type=refresh_token&refresh_token="+k(40)+"&client_secret="+k(41)+"&client_id=app-7")},
		{name: "form password", secrets: []string{"pa55-" + k(42)[:10]},
			req: post("application/x-www-form-urlencoded", "username=bob&password="+url.QueryEscape("pa55-"+k(42)[:10]))},
		// JSON fields at any depth.
		{name: "json api_key", secrets: []string{k(43)}, req: post("application/json", `{"model":"m","api_key":"`+k(43)+`"}`)},
		{name: "json nested auth_key", secrets: []string{k(44)}, req: post("application/json", `{"config":{"provider":{"auth_key":"`+k(44)+`"}}}`)},
		{name: "json access_token in array", secrets: []string{k(45)}, req: post("application/json", `{"accounts":[{"access_token":"`+k(45)+`"}]}`)},
		{name: "json private_key", secrets: []string{pem}, req: post("application/json", `{"private_key":`+strconv.Quote(pem)+`}`)},
		{name: "json secret and apikey", secrets: []string{k(46), k(47)}, req: post("application/json", `{"secret":"`+k(46)+`","apikey":"`+k(47)+`"}`)},
		{name: "json password in tool arguments", secrets: []string{"s3cret-" + k(48)[:8]},
			req: post("application/json", `{"messages":[{"role":"assistant","tool_calls":[{"function":{"name":"login","arguments":"{\"user\":\"bob\",\"password\":\"s3cret-`+k(48)[:8]+`\"}"}}]}]}`)},
		{name: "json client_secret in response", secrets: []string{k(49)}, req: get("q=4"),
			answer: jsonAnswer(`{"client_id":"app","client_secret":"` + k(49) + `","expires_in":3600}`)},
		// A token in the URL path.
		{name: "telegram path", secrets: []string{telegram}, req: func(base string) *http.Request {
			return newReq(http.MethodPost, base+"/bot"+telegram+"/sendMessage", "application/json", `{"chat_id":42,"text":"hi"}`)
		}},
		// Credentials the server echoes.
		{name: "echo raw", secrets: []string{k(50)}, req: header("X-Api-Key", k(50)),
			answer: echo(func(r *http.Request) string { return r.Header.Get("X-Api-Key") }, func(s string) string { return s })},
		{name: "echo URL-encoded", secrets: []string{"p/" + k(51) + "+="}, req: header("Api-Key", "p/"+k(51)+"+="),
			answer: echo(func(r *http.Request) string { return r.Header.Get("Api-Key") }, url.QueryEscape)},
		{name: "echo base64", secrets: []string{k(52)}, req: header("Authorization", "Bearer "+k(52)),
			answer: echo(func(r *http.Request) string { return r.Header.Get("Authorization") }, func(s string) string {
				return base64.StdEncoding.EncodeToString([]byte(s))
			})},
		{name: "echo in a header", secrets: []string{k(53)}, req: get("key=" + k(53)), answer: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-Debug-Request", "GET /v1/data key "+r.URL.Query().Get("key"))
			io.WriteString(w, "ok")
		}},
		{name: "echo Location URL-encoded", secrets: []string{"t/" + k(54)}, req: get("access_token=" + url.QueryEscape("t/"+k(54))),
			answer: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Location", "https://app.example/next?from="+url.QueryEscape("/v1/data?access_token="+r.URL.Query().Get("access_token")))
				w.WriteHeader(http.StatusSeeOther)
			}},
		{name: "echo body field base64", secrets: []string{"pw-" + k(55)}, req: post("application/json", `{"user":"bob","password":"pw-`+k(55)+`"}`),
			answer: func(w http.ResponseWriter, r *http.Request) {
				var in struct{ Password string }
				json.NewDecoder(r.Body).Decode(&in)
				w.Header().Set("Content-Type", "text/plain")
				io.WriteString(w, "debug: "+base64.StdEncoding.EncodeToString([]byte("bob:"+in.Password)))
			}},
		// Keys recognisable by their shape, anywhere.
		{name: "openai key in content", secrets: []string{fake("sk-proj-", 48, 60)}, req: post("application/json", chat("use "+fake("sk-proj-", 48, 60)))},
		{name: "anthropic key", secrets: []string{fake("sk-ant-api03-", 60, 61)}, req: post("application/json", chat(fake("sk-ant-api03-", 60, 61)))},
		{name: "openrouter key", secrets: []string{fake("sk-or-v1-", 64, 62)}, req: get("q=5"), answer: jsonAnswer(`{"note":"` + fake("sk-or-v1-", 64, 62) + `"}`)},
		{name: "google key", secrets: []string{fake("AIza", 35, 63)}, req: post("text/plain", "key is "+fake("AIza", 35, 63))},
		{name: "github tokens", secrets: []string{fake("ghp_", 36, 64), fake("gho_", 36, 65), fake("github_pat_", 60, 66)},
			req: post("application/json", chat(fake("ghp_", 36, 64)+" "+fake("gho_", 36, 65)+" "+fake("github_pat_", 60, 66)))},
		{name: "slack token", secrets: []string{fake("xoxb-", 40, 67)}, req: post("application/json", chat(fake("xoxb-", 40, 67)))},
		{name: "aws key", secrets: []string{"AKIA" + strings.ToUpper(fake("", 16, 68))}, req: post("application/json", chat("AKIA"+strings.ToUpper(fake("", 16, 68))))},
		{name: "jwt", secrets: []string{jwt}, req: get("q=6"), answer: jsonAnswer(`{"id_token_hint":"` + jwt + `"}`)},
		{name: "bearer in text", secrets: []string{k(69)}, req: post("text/plain", "curl -H 'Authorization: Bearer "+k(69)+"' https://x")},
		{name: "pem in response", secrets: []string{pem[32:90]}, req: get("q=7"), answer: func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "here:\n"+pem)
		}},
		// The rules: an environment variable, a field name, a Func.
		{name: "env value", secrets: []string{k(70)}, req: post("text/plain", "deploy with "+k(70)+" today")},
		{name: "rule name", secrets: []string{"839201"}, req: post("application/json", `{"tenant_pin":839201,"n":1}`)},
		{name: "rule func", secrets: []string{"4111111111111111"}, req: post("application/json", chat("card 4111111111111111 please"))},
		// Encoded bodies.
		{name: "gzip response", secrets: []string{k(71)}, req: func(base string) *http.Request {
			return newReq(http.MethodGet, base+"/v1/data?q=8", "", "", "Accept-Encoding", "gzip")
		}, answer: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(gzipped(`{"refresh_token":"` + k(71) + `","scope":"read"}`))
		}},
		{name: "deflate response", secrets: []string{k(72)}, req: func(base string) *http.Request {
			return newReq(http.MethodGet, base+"/v1/data?q=9", "", "", "Accept-Encoding", "deflate")
		}, answer: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Encoding", "deflate")
			w.Write(deflated(`{"api_key":"` + k(72) + `"}`))
		}},
		{name: "gzip request", secrets: []string{k(76)}, req: func(base string) *http.Request {
			return newReq(http.MethodPost, base+"/v1/chat/completions", "application/json",
				string(gzipped(`{"model":"m","client_secret":"`+k(76)+`"}`)), "Content-Encoding", "gzip")
		}},
		{name: "ndjson", secrets: []string{k(73)}, req: get("q=10"), answer: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/x-ndjson")
			io.WriteString(w, `{"event":"start"}`+"\n"+`{"session":{"access_token":"`+k(73)+`"}}`+"\n")
		}},
		{name: "server-sent events", secrets: []string{k(74)}, req: get("q=11"), answer: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "event: delta\ndata: {\"delta\":\"hi\"}\n\ndata: {\"auth\":{\"client_secret\":\""+k(74)+"\"}}\n\ndata: [DONE]\n\n")
		}},
		{name: "BOM JSON", secrets: []string{k(75)}, req: get("q=12"), answer: jsonAnswer("\ufeff" + `{"password":"` + k(75) + `"}`)},
	}...)
	return append(ps, issue17Placements(k, get, post, chat)...)
}

// issue17Placements are the placements issue 17 found stored: key shapes
// of the model and developer platforms, connection strings, cloud
// credentials in XML, INI and .env text, more names in headers, queries,
// forms, multipart bodies and JSON, a key split across two stream events,
// a key quoted in an error, JSON keys spelt with escapes or a tab.
func issue17Placements(k func(int) string, get func(string) func(string) *http.Request,
	post func(ctype, body string, h ...string) func(string) *http.Request, chat func(string) string) []placement {
	var ps []placement
	for i, key := range []string{
		fake("hf_", 34, 100), fake("gsk_", 52, 101), fake("xai-", 80, 102), fake("pplx-", 48, 103), fake("r8_", 37, 104),
		fake("glpat-", 20, 105), "SG." + fake("", 22, 106) + "." + fake("", 43, 107), fake("npm_", 36, 108),
		fake("ya29.", 60, 109), "dop_v1_" + strings.Repeat("3fa9c07b", 8), fake("pcsk_", 60, 110), fake("tvly-", 32, 111),
	} {
		ps = append(ps, placement{name: "shape " + key[:4], secrets: []string{key}, req: post("application/json", chat("try "+key+" now")),
			answer: jsonAnswer(`{"echo":"key ` + strconv.Itoa(i) + ` ok"}`)})
	}
	webhook := "T0" + fake("", 9, 112) + "/B0" + fake("", 9, 113) + "/" + fake("", 24, 114)
	pw := "Pa55-" + fake("", 10, 115)
	ps = append(ps, []placement{
		{name: "slack webhook", secrets: []string{webhook}, req: post("application/json", chat("post to https://hooks.slack.com/services/"+webhook))},
		{name: "postgres url", secrets: []string{pw}, req: post("application/json", chat("use postgres://app:"+pw+"@db.internal:5432/shop"))},
		{name: "azure AccountKey", secrets: []string{k(116)}, req: get("q=20"), answer: func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "DefaultEndpointsProtocol=https;AccountName=acct7;AccountKey="+k(116)+"==;EndpointSuffix=core.windows.net")
		}},
		{name: "sts xml", secrets: []string{k(117), fake("FwoG", 120, 118)}, req: get("Action=AssumeRole"), answer: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/xml")
			io.WriteString(w, "<AssumeRoleResponse><AssumeRoleResult><Credentials><AccessKeyId>ASIAQ7ZP9KD3WM5RT8YB</AccessKeyId><SecretAccessKey>"+
				k(117)+"</SecretAccessKey><SessionToken>"+fake("FwoG", 120, 118)+"</SessionToken></Credentials></AssumeRoleResult></AssumeRoleResponse>")
		}},
		{name: "credentials file", secrets: []string{k(119)}, req: get("q=21"), answer: func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "[default]\naws_access_key_id = ASIAQ7ZP9KD3WM5RT8YB\naws_secret_access_key = "+k(119)+"\nregion = eu-west-1\n")
		}},
		{name: ".env", secrets: []string{k(120), k(121)}, req: get("q=22"), answer: func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "HF_TOKEN="+k(120)+"\nexport OPENAI_API_KEY=\""+k(121)+"\"\nDEBUG=1\n")
		}},
		{name: "x-api-cred", secrets: []string{k(122)}, req: get("q=23"), answer: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-Api-Cred", k(122))
			io.WriteString(w, "ok")
		}},
		{name: "query tokens", secrets: []string{k(123), k(124), "tnnArxj06cWHq44gCs1OSKk/jLY="},
			req: get("private_token=" + k(123) + "&hf_token=" + k(124) + "&oauth_signature=" + url.QueryEscape("tnnArxj06cWHq44gCs1OSKk/jLY="))},
		{name: "form oauth_token_secret", secrets: []string{k(125)}, req: post("application/x-www-form-urlencoded", "oauth_token=t1&oauth_token_secret="+k(125))},
		{name: "multipart api_key", secrets: []string{k(126)}, req: post("multipart/form-data; boundary=XyZ42",
			"--XyZ42\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\nwhisper-1\r\n--XyZ42\r\nContent-Disposition: form-data; name=\"api_key\"\r\n\r\n"+k(126)+"\r\n--XyZ42--\r\n")},
		{name: "split across events", secrets: []string{fake("sk-proj-", 40, 127)}, req: get("q=24"), answer: func(w http.ResponseWriter, r *http.Request) {
			key := fake("sk-proj-", 40, 127)
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, `data: {"choices":[{"delta":{"content":"key: `+key[:15]+`"}}]}`+"\n\n"+`data: {"choices":[{"delta":{"content":"`+key[15:]+`."}}]}`+"\n\ndata: [DONE]\n\n")
		}},
		{name: "400 quoting a key", secrets: []string{fake("gsk_", 52, 128)}, req: get("q=25"), answer: func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error":{"message":"Invalid API Key: '`+fake("gsk_", 52, 128)+`'"}}`)
		}},
		{name: "escaped json key", secrets: []string{k(129)}, req: post("application/json", `{"model":"m","\u0061pi_key":"`+k(129)+`"}`)},
		{name: "json key and a tab", secrets: []string{k(130)}, req: post("application/json", "{\"model\":\"m\",\"api_key\"\t:\""+k(130)+"\"}")},
	}...)
	for i, name := range []string{"bot_token", "hf_token", "private_token", "app_secret", "consumer_secret", "secret_token", "aws_secret",
		"master_key", "encryption_key", "shared_secret", "signing_key", "AccountKey", "connection_string", "webhook_url", "dsn"} {
		v := k(140 + i)
		ps = append(ps, placement{name: "json " + name, secrets: []string{v}, req: post("application/json", `{"model":"m","settings":{"`+name+`":"`+v+`"}}`)})
	}
	return ps
}

// cleanPlacements hold names and values that look like secrets to a naive
// scanner and are none: stored unchanged, no finding.
func cleanPlacements() []placement {
	sum := sha256.Sum256([]byte("agentcheck"))
	img := make([]byte, 0, 3072)
	for len(img) < 3072 {
		sum = sha256.Sum256(sum[:])
		img = append(img, sum[:]...)
	}
	image := base64.StdEncoding.EncodeToString(img)
	return []placement{
		{name: "clean chat", req: func(base string) *http.Request {
			return newReq(http.MethodPost, base+"/v1/chat/completions", "application/json",
				`{"model":"gpt-4o-mini","max_tokens":100,"max_completion_tokens":50,"messages":[{"role":"user","content":"sort by sort_key, then cache_key"}],"metadata":{"key_points":["a","b"],"tokenizer":"cl100k_base","key":"session-7","token":"Hello"}}`)
		}, answer: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("X-Ratelimit-Remaining-Tokens", "149984")
			w.Header().Set("Anthropic-Ratelimit-Tokens-Remaining", "9000")
			io.WriteString(w, `{"id":"chatcmpl-9xYz3","choices":[{"message":{"content":"ok"},"logprobs":{"content":[{"token":"ok","logprob":-0.1}]}}],"usage":{"prompt_tokens":181,"completion_tokens":17,"total_tokens":198,"prompt_tokens_details":{"cached_tokens":0}}}`)
		}},
		{name: "clean ids", req: func(base string) *http.Request {
			return newReq(http.MethodGet, base+"/v1/files/3f7c9e0a-2b4d-4e6f-8a1b-9c0d2e4f6a8b?page=2&limit=50&sort_key=created&code=200", "", "")
		}, answer: jsonAnswer(`{"id":"3f7c9e0a-2b4d-4e6f-8a1b-9c0d2e4f6a8b","sha256":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08","etag":"d41d8cd98f00b204e9800998ecf8427e","token_count":812,"api_key_id":12345,"password_min_length":8}`)},
		{name: "clean image", req: func(base string) *http.Request {
			return newReq(http.MethodPost, base+"/v1/chat/completions", "application/json",
				`{"model":"gpt-4o","messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,`+image+`"}}]}]}`)
		}, answer: jsonAnswer(`{"data":"` + image + `"}`)},
		{name: "fetch credentials", req: func(base string) *http.Request {
			return newReq(http.MethodPost, base+"/v1/fetch", "application/json", `{"credentials":"include","has_password":"yes","authorization":"approved"}`)
		}, answer: jsonAnswer(`{"question":"What is the secret of the sauce?","secret":"Fresh basil","credentials":"omit"}`)},
		{name: "signature algorithm", req: func(base string) *http.Request {
			return newReq(http.MethodPost, base+"/v1/chat/completions", "application/json",
				`{"model":"m","messages":[{"role":"user","content":"the docs use AKIA`+`IOSFODNN7EXAMPLE"}]}`, "X-Signature-Algorithm", "HMAC-SHA256")
		}, answer: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-Signature-Algorithm", "HMAC-SHA256")
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"ok":true}`)
		}},
		{name: "clean stream", req: func(base string) *http.Request {
			return newReq(http.MethodPost, base+"/v1/chat/completions", "application/json", `{"model":"m","stream":true,"max_tokens":5}`)
		}, answer: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: {\"choices\":[{\"delta\":{\"content\":\"tokens\"}}]}\n\ndata: {\"usage\":{\"prompt_tokens\":3,\"total_tokens\":9}}\n\ndata: [DONE]\n\n")
		}},
	}
}

// corpusRules are the project rules the corpus uses: an environment
// variable, a field name and a Func.
func corpusRules() secrets.Rules {
	return secrets.Rules{Env: []string{envSecretName}, Names: []string{"tenant_pin"}, Func: cardNumbers}
}

// TestRecordedCorpusHoldsNoSecret records every placement through a real
// recorder from a server that echoes credentials, then proves that no
// secret is in the file in any encoding, that the check finds nothing, that
// clean exchanges are stored as they were and that every exchange replays.
func TestRecordedCorpusHoldsNoSecret(t *testing.T) {
	t.Setenv(envSecretName, fake("", 32, 70))
	ps := placements()
	clean := cleanPlacements()
	if len(ps) < 40 {
		t.Fatalf("Expected the corpus to hold at least 40 placements, but it holds %d", len(ps))
	}
	all := append(append([]placement(nil), ps...), clean...)
	srv := placementServer(func(r *http.Request) placement {
		i, _ := strconv.Atoi(r.Header.Get("X-Case"))
		return all[i]
	})
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "corpus.yaml")
	send := func(rec *Recorder, i int) (*http.Response, []byte, error) {
		req := all[i].req(srv.URL)
		req.Header.Set("X-Case", strconv.Itoa(i))
		resp, err := rec.RoundTrip(req.WithContext(WithCase(context.Background(), "c"+strconv.Itoa(i))))
		if err != nil {
			return nil, nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp, b, err
	}

	rec, err := Open(path, WithMode(RecordMissing), env(), WithRedaction(corpusRules()))
	if err != nil {
		t.Fatal(err)
	}
	live := make([][]byte, len(all))
	for i := range all {
		_, b, err := send(rec, i)
		if err != nil {
			t.Fatalf("%s: %v", all[i].name, err)
		}
		live[i] = b
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		for _, s := range p.secrets {
			for enc, text := range encodings(s) {
				if i := bytes.Index(data, []byte(text)); i >= 0 {
					t.Errorf("%s: Expected the cassette to hold no trace of the secret, but it holds it %s at line %d:\n%s",
						p.name, enc, 1+bytes.Count(data[:i], []byte("\n")), lineAt(data, i))
				}
			}
		}
	}
	if found, err := secrets.Check(path, corpusRules()); err != nil || len(found) > 0 {
		t.Errorf("Expected the check to find nothing in the recorded corpus, but it found:\n%v(error %v)", found, err)
	}

	its, _, err := loadCassette(path)
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]int{} // case label to interaction
	for i, it := range its {
		stored[http.Header(it.Request.Headers).Get(CaseHeader)] = i
	}
	for j, p := range clean {
		i := len(ps) + j
		it := its[stored["c"+strconv.Itoa(i)]]
		sent, _ := io.ReadAll(orEmpty(p.req(srv.URL).Body))
		if it.Request.Body != string(sent) || it.Response.Body != string(live[i]) {
			t.Errorf("%s: Expected a clean exchange to be stored unchanged, but it was stored as\nrequest:  %s\nresponse: %s\nsent:     %s\nreceived: %s",
				p.name, it.Request.Body, it.Response.Body, sent, live[i])
		}
	}
	if it := its[stored["c"+strconv.Itoa(indexOf(all, "signature algorithm"))]]; http.Header(it.Request.Headers).Get("X-Signature-Algorithm") != "HMAC-SHA256" ||
		http.Header(it.Response.Headers).Get("X-Signature-Algorithm") != "HMAC-SHA256" {
		t.Errorf("signature algorithm: Expected X-Signature-Algorithm kept on both sides, but the headers are %v and %v", it.Request.Headers, it.Response.Headers)
	}
	for _, name := range []string{"gzip response", "deflate response"} {
		i := indexOf(all, name)
		it := its[stored["c"+strconv.Itoa(i)]]
		if ce := http.Header(it.Response.Headers).Get("Content-Encoding"); ce != "" || !json.Valid([]byte(it.Response.Body)) {
			t.Errorf("%s: Expected the body stored decoded, as JSON, without Content-Encoding, but Content-Encoding is %q and the body %q", name, ce, it.Response.Body)
		}
	}
	if it := its[stored["c"+strconv.Itoa(indexOf(all, "gzip request"))]]; http.Header(it.Request.Headers).Get("Content-Encoding") != "" || !json.Valid([]byte(it.Request.Body)) {
		t.Errorf("gzip request: Expected the request body stored decoded, as JSON, without Content-Encoding, but the headers are %v and the body %q", it.Request.Headers, it.Request.Body)
	}

	// Every request replays, offline, with its recorded answer.
	rec, err = Open(path, WithMode(RecordNone), env(), WithUpstream(offline(t)), WithRedaction(corpusRules()))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	for i := range all {
		resp, b, err := send(rec, i)
		if err != nil {
			t.Errorf("%s: Expected the recorded request to replay, but: %v", all[i].name, err)
			continue
		}
		it := its[stored["c"+strconv.Itoa(i)]]
		if resp.StatusCode != it.Response.Code || string(b) != it.Response.Body {
			t.Errorf("%s: Expected the replay to give the recorded answer %d %q, but it gave %d %q", all[i].name, it.Response.Code, it.Response.Body, resp.StatusCode, b)
		}
		if i >= len(ps) && string(b) != string(live[i]) {
			t.Errorf("%s: Expected a clean answer to replay as it was received, %q, but it replayed %q", all[i].name, live[i], b)
		}
	}
}

// placementServer answers each request as the placement that pick names
// for it does, {"ok":true} when that one has no answer of its own.
func placementServer(pick func(r *http.Request) placement) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := pick(r); p.answer != nil {
			p.answer(w, r)
			return
		}
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
	}))
}

func orEmpty(r io.Reader) io.Reader {
	if r == nil {
		return strings.NewReader("")
	}
	return r
}

func indexOf(ps []placement, name string) int {
	for i, p := range ps {
		if p.name == name {
			return i
		}
	}
	panic("no placement " + name)
}

func lineAt(data []byte, i int) string {
	start := bytes.LastIndexByte(data[:i], '\n') + 1
	end := bytes.IndexByte(data[i:], '\n')
	if end < 0 {
		end = len(data) - i
	}
	return string(data[start : i+end])
}

// TestRedactedValueNeverDecidesAMatch: a request recorded with one key
// replays with another, or with none, since its key is redacted before
// matching.
func TestRedactedValueNeverDecidesAMatch(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		io.WriteString(w, `{"answer":42}`)
	}))
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "match.yaml")
	do := func(rec *Recorder, key, password string) (string, error) {
		req := newReq(http.MethodPost, srv.URL+"/v1/ask?api_key="+key, "application/json", `{"q":"life","password":"`+password+`"}`)
		resp, err := rec.RoundTrip(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b), nil
	}
	rec, err := Open(path, WithMode(RecordMissing), env())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := do(rec, fake("", 32, 80), "pw-"+fake("", 10, 81)); err != nil {
		t.Fatal(err)
	}
	rec.Close()
	rec, err = Open(path, WithMode(RecordNone), env(), WithUpstream(offline(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	got, err := do(rec, "other-key-in-ci", "another-password")
	if err != nil || got != `{"answer":42}` {
		t.Errorf("Expected a request with other credentials to replay the recorded answer, but got %q, %v", got, err)
	}
}

// TestReplayMissPrintsNoSecret: a miss message, built from the scrubbed
// request, shows "[REDACTED]" where the query and the body held secrets.
func TestReplayMissPrintsNoSecret(t *testing.T) {
	path := filepath.Join(t.TempDir(), "miss.yaml")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		io.WriteString(w, `{}`)
	}))
	defer srv.Close()
	rec, err := Open(path, WithMode(RecordMissing), env())
	if err != nil {
		t.Fatal(err)
	}
	resp, err := rec.RoundTrip(newReq(http.MethodPost, srv.URL+"/v1/login?api_key="+fake("", 32, 90), "application/json", `{"user":"bob","password":"`+fake("pw-", 12, 91)+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	rec.Close()

	rec, err = Open(path, WithMode(RecordNone), env(), WithUpstream(offline(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	key, password := fake("", 32, 92), fake("pw-", 12, 93)
	_, err = rec.RoundTrip(newReq(http.MethodPost, srv.URL+"/v1/login?api_key="+key+"&region=eu", "application/json", `{"user":"alice","password":"`+password+`"}`))
	var miss *ReplayMissError
	if !errors.As(err, &miss) {
		t.Fatalf("Expected a replay miss, but got %v", err)
	}
	msg := miss.Error()
	for _, s := range []string{key, password, fake("", 32, 90), fake("pw-", 12, 91)} {
		if strings.Contains(msg, s) || strings.Contains(msg, url.QueryEscape(s)) {
			t.Errorf("Expected the miss message to hold no secret, but it prints %q:\n%s", s, msg)
		}
	}
	if !strings.Contains(msg, secrets.Redacted) || !strings.Contains(msg, "alice") {
		t.Errorf("Expected the miss message to diff the scrubbed requests (alice, %s), but it is:\n%s", secrets.Redacted, msg)
	}
}

// TestReplayMissPrintsNoPathToken: a token in the URL path (a Telegram bot
// token) is not in the miss message's request line either.
func TestReplayMissPrintsNoPathToken(t *testing.T) {
	path := filepath.Join(t.TempDir(), "miss-path.yaml")
	rec, err := Open(path, WithMode(RecordNone), env(), WithUpstream(offline(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	token := "123456789:" + fake("AA", 33, 94)
	_, err = rec.RoundTrip(newReq(http.MethodPost, "https://api.telegram.org/bot"+token+"/sendMessage", "application/json", `{"chat_id":1,"text":"hi"}`))
	var miss *ReplayMissError
	if !errors.As(err, &miss) {
		t.Fatalf("Expected a replay miss, but got %v", err)
	}
	if msg := miss.Error(); strings.Contains(msg, token) || strings.Contains(msg, token[10:]) || !strings.Contains(msg, "/sendMessage") {
		t.Errorf("Expected the miss message to name /sendMessage without the bot token, but it is:\n%s", msg)
	}
}

// TestEchoOfABodyWithoutGetBody: a credential in a request body that
// cannot be read again (no GetBody: a streamed body) is still removed where
// the server echoes it.
func TestEchoOfABodyWithoutGetBody(t *testing.T) {
	secret := fake("", 24, 95)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var in struct {
			Secret string `json:"client_secret"`
		}
		json.Unmarshal(b, &in)
		io.WriteString(w, `{"you_sent":"`+in.Secret+`"}`)
	}))
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "echo.yaml")
	rec, err := Open(path, WithMode(RecordMissing), env())
	if err != nil {
		t.Fatal(err)
	}
	req := newReq(http.MethodPost, srv.URL+"/token", "application/json", "")
	req.Body = io.NopCloser(io.MultiReader(strings.NewReader(`{"client_secret":"`+secret), strings.NewReader(`"}`)))
	req.GetBody, req.ContentLength = nil, -1
	resp, err := rec.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), secret) {
		t.Errorf("Expected the echoed client_secret to be scrubbed, but the cassette holds it:\n%s", data)
	}
}
