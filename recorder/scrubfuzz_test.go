package recorder

import (
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/agentcheck/agentcheck/internal/vcr"
	"github.com/agentcheck/agentcheck/secrets"
)

// fuzzTypes are the Content-Types a fuzzed body is sent and answered as.
var fuzzTypes = []string{
	"application/json", "text/plain", "application/x-www-form-urlencoded", "text/event-stream",
	"application/x-ndjson", "multipart/form-data; boundary=B0und", "", "text/xml",
}

// FuzzRecorderAndCheckAgree is the property that makes the recorder and
// the check one rule set: a body recorded through the real recorder (sent
// as a request, echoed as the answer) gives a cassette the check passes;
// and a body the check flags in a hand-written cassette is one the
// recorder would not have stored as it is.
func FuzzRecorderAndCheckAgree(f *testing.F) {
	key := fake("sk-proj-", 40, 7)
	for _, seed := range []string{
		`{"model":"m","messages":[{"role":"user","content":"hi"}]}`,
		`{"api_key":"` + fake("", 32, 1) + `"}`,
		`{"\u0061pi_key":"` + fake("", 32, 2) + `"}`,
		"{\"api_key\"\t:\"" + fake("", 32, 3) + "\"}",
		`{"credentials":"include","has_password":"yes","authorization":"approved","secret":"Rosebud"}`,
		"aws_secret_access_key = " + fake("", 40, 4) + "\n",
		"HF_TOKEN=" + fake("", 30, 5) + "\n",
		`<Credentials><SecretAccessKey>` + fake("", 40, 6) + `</SecretAccessKey></Credentials>`,
		"data: {\"delta\":\"" + key[:12] + "\"}\n\ndata: {\"delta\":\"" + key[12:] + "\"}\n\n",
		"--B0und\r\nContent-Disposition: form-data; name=\"api_key\"\r\n\r\n" + fake("", 32, 8) + "\r\n--B0und--\r\n",
		"oauth_token_secret=" + fake("", 32, 9) + "&q=1",
		"postgres://app:" + fake("Pw", 10, 10) + "@db:5432/x",
		"use " + fake("hf_", 34, 11) + " and " + fake("gsk_", 52, 12),
		`{"connection_string":"Server=x;Password=` + fake("", 12, 13) + `;","dsn":"https://abc@o1.ingest.sentry.io/1"}`,
		`{"note":"X-Signature-Algorithm: HMAC-SHA256, AKIA` + `IOSFODNN7EXAMPLE"}`,
		`{"a":"password=` + fake("", 10, 14) + `","b":"\"secret\": \"` + fake("", 20, 15) + `\""}`,
		"client = Client({'api_key': '" + fake("", 32, 20) + "'})\n$password = \"" + fake("", 16, 21) + "\";\nos.environ[\"HF_TOKEN\"] = '" + fake("", 30, 22) + "'",
		// Code, markup and pairs inside JSON strings, their quotes escaped;
		// pairs whose text and decoded object could name different things.
		`{"html":"<input type=\"password\" name=\"pw\" value=\"hunter2\">","code":"os.environ[\"OPENAI_API_KEY\"] = \"` + fake("", 32, 25) + `\"","c":"$password = \"` + fake("", 14, 26) + `\";"}`,
		`{"value":"abc","name":"DB_PASSWORD x"}`,
		`[{"name":"DB\u005fPASSWORD","value":"hunter2"},{"name":"DB_PASSWORD","Value":"abc","value":"x"},{"value":"abc","key":"DB_PASSWORD","name":"secret"}]`,
		`{"authorization":"Token abc123def456 for the staging server","b":"Bearer abc123\ndef"}`,
		`{"args":"{\"value\":\"Token ` + fake("", 32, 27) + `\",\"name\":\"Authorization\"}"}`,
		"env:\n  - name: DB_PASSWORD\n    value: " + fake("", 14, 28) + "\n",
		"env:\n  - name: DB_PASSWORD\n    value: |\n      " + fake("", 14, 29) + "\n- metadata:\n    name: API_KEY\n  value: abc123xyz9\n",
		"token=abc123def456&api%5Fkey=" + fake("", 32, 30),
		"cd /app && mysql -u root -p" + fake("", 14, 31) + " shop; docker login -u bob -p " + fake("", 20, 32) + " ghcr.io\ncurl -u admin:" + fake("", 14, 33) + " https://x",
		`{"a":{"name":"code","value":"print(1)"},"b":{"key":"session","value":"run-2024-11-26"},"items":[{"Name":"Token","Value":"abc123def456"}]}`,
		`<form><input type="password" value="` + fake("", 14, 23) + `"><add key="ApiKey" value="` + fake("", 32, 24) + `" /></form>`,
		`{"env":[{"name":"OPENAI_API_KEY","value":"` + fake("", 32, 16) + `"},{"value":"` + fake("", 12, 17) + `", "name":"DB_PASSWORD"}]}`,
		`{"values":[{"key":"apiKey","type":"secret","value":"` + fake("", 32, 18) + `"}],"args":"{\"Name\":\"X-Api-Key\",\"Value\":\"` + fake("", 32, 19) + `\"}"}`,
		// Arguments, escaped quotes, ENV, .netrc, base64 keys, forms
		// carrying JSON, and what names a credential and holds none.
		`{"code":"os.Setenv(\"OPENAI_API_KEY\", \"` + fake("", 32, 34) + `\")\nreq.Header.Set('X-Api-Key', '` + fake("", 32, 35) + `')","py":"connect(password=\"` + fake("", 12, 36) + `\")"}`,
		"FROM alpine\nENV API_KEY " + fake("", 32, 37) + "\nmachine api.example.com login bob password " + fake("", 12, 38) + "\n",
		"client-key-data: LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCk1JSUV2UThSMjJSODZRODlEMjlC\nclient-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t\n",
		"payload=%7B%22api_key%22%3A%22" + fake("", 32, 39) + "%22%7D&q=%7B%22a%22%3A1%7D",
		`{"token":"` + fake("", 40, 40) + `","logprobs":[{"token":"Python3"},{"token":"2024-11-26"}],"py":"login(password=b\"` + fake("", 12, 41) + `\")"}`,
		"github.com:\n    token: " + fake("", 32, 42) + "\n-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + fake("lQOYBF", 40, 43) + "\n-----END PGP PRIVATE KEY BLOCK-----\n",
		`{"file_data":"data:text/plain;base64,` + base64.StdEncoding.EncodeToString([]byte("HF_TOKEN="+fake("hf_", 34, 44)+"\n")) + `","image":"data:image/png;base64,iVBORw0KGgo="}`,
		`{"out":"HTTP/1.1 200 OK\nSet-Cookie: sid=` + fake("", 32, 45) + `; Path=/\nX: 1","cookies":[{"name":"sid","value":"` + fake("", 32, 46) + `","domain":"x","path":"/"},{"name":"theme","value":"dark","domain":"x","path":"/"}],"seed_phrase":"legal winner thank year wave sausage worth useful legal winner thank yellow","sign":"` + fake("", 32, 47) + `"}`,
		"Set-Cookie: theme=dark; Path=/\nCB-ACCESS-SIGN: " + fake("", 32, 48) + "\n{\"mnemonic\":\"mov\"}",
		`{"rules":"'password' => 'required|string|min:8'","tree":[{"role":"button","name":"Password","value":"Show"}],"api_key":"Show","k":"OPENAI_API_KEY=sk-..."}`,
	} {
		for i := range fuzzTypes {
			f.Add(seed, uint8(i))
		}
	}
	// The server echoes a request, or answers a clean one with the
	// answer stored under its X-Answer header: a response the request did
	// not carry, which the recorder cannot learn from the request.
	var answers sync.Map // X-Answer -> [2]string{body, content type}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		ct := r.Header.Get("Content-Type")
		if a, ok := answers.Load(r.Header.Get("X-Answer")); ok {
			b, ct = []byte(a.([2]string)[0]), a.([2]string)[1]
		}
		if ct != "" {
			w.Header().Set("Content-Type", ct)
		}
		w.Write(b)
	}))
	f.Cleanup(srv.Close)
	// The seeds run one after another: at once, under -race, they took a
	// third more CPU, and no less time.
	f.Fuzz(func(t *testing.T, body string, kind uint8) {
		if !utf8.ValidString(body) || body == "" || len(body) > 4096 {
			t.Skip()
		}
		ctype := fuzzTypes[int(kind)%len(fuzzTypes)]
		dir := t.TempDir()

		// The check on the body as a hand-written cassette holds it.
		h := http.Header{}
		if ctype != "" {
			h.Set("Content-Type", ctype)
		}
		hand := filepath.Join(dir, "hand.yaml")
		it := &vcr.Interaction{
			Request:  vcr.Request{Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Host: "x.test", Body: body, Headers: h, URL: "https://x.test/v1/echo", Method: http.MethodPost},
			Response: vcr.Response{Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Body: body, Headers: h, Status: "200 OK", Code: 200},
		}
		if err := os.WriteFile(hand, encodeCassette([]*vcr.Interaction{it}), 0o644); err != nil {
			t.Fatal(err)
		}
		flagged, err := secrets.Check(hand, secrets.Rules{})
		if err != nil {
			t.Fatalf("hand-written cassette: %v", err)
		}
		// The check reads the recorder's layout line by line, any other
		// file with the YAML library: a comment at the end sends the same
		// cassette down the other path, which must find the same.
		data, _ := os.ReadFile(hand)
		other := filepath.Join(dir, "other.yaml")
		if err := os.WriteFile(other, append(data, "# the end\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
		viaYAML, err := secrets.Check(other, secrets.Rules{})
		if err != nil {
			t.Fatalf("hand-written cassette read as YAML: %v", err)
		}
		if len(viaYAML) != len(flagged) {
			t.Fatalf("Expected the layout reader and the YAML library to find the same, but they found\n%v\nand\n%v\nin\n%s", flagged, viaYAML, data)
		}
		for i := range flagged {
			if a, b := flagged[i], viaYAML[i]; a.Line != b.Line || a.What != b.What || a.Where != b.Where {
				t.Fatalf("Expected the layout reader and the YAML library to find the same, but they found %v and %v in\n%s", a, b, data)
			}
		}

		// The recorder's cassette of the same exchange.
		path := filepath.Join(dir, "rec.yaml")
		rec, err := Open(path, WithMode(RecordMissing), env())
		if err != nil {
			t.Fatal(err)
		}
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, srv.URL+"/v1/echo", strings.NewReader(body))
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		resp, err := rec.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
		found, err := secrets.Check(path, secrets.Rules{})
		if err != nil {
			t.Fatalf("recorded cassette: %v", err)
		}
		data, _ = os.ReadFile(path)
		if len(found) > 0 {
			t.Fatalf("Expected the check to pass what the recorder stored, but it found %v in\n%s", found, data)
		}
		its, _, err := loadCassette(path)
		if err != nil || len(its) != 1 {
			t.Fatalf("recorded cassette: %d interactions, %v", len(its), err)
		}
		if len(flagged) > 0 && its[0].Request.Body == body && its[0].Response.Body == body {
			t.Fatalf("Expected the recorder to scrub what the check flags (%v), but it stored the body as it was:\n%s", flagged, data)
		}

		// The body as the answer to a clean request.
		id := filepath.Base(dir)
		answers.Store(id, [2]string{body, ctype})
		defer answers.Delete(id)
		path = filepath.Join(dir, "answer.yaml")
		rec, err = Open(path, WithMode(RecordMissing), env())
		if err != nil {
			t.Fatal(err)
		}
		req, _ = http.NewRequestWithContext(context.Background(), http.MethodPost, srv.URL+"/v1/answer", strings.NewReader(`{"q":"hi"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Answer", id)
		resp, err = rec.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
		if found, err = secrets.Check(path, secrets.Rules{}); err != nil || len(found) > 0 {
			data, _ = os.ReadFile(path)
			t.Fatalf("Expected the check to pass the answer the recorder stored, but it found %v (%v) in\n%s", found, err, data)
		}
	})
}
