package secrets

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestValuesThatNameNoCredential: values that the name/value rules took
// though they hold no credential stay, in text and in a JSON body: a
// password's name as its value, a usage line's USER[:PASS], one
// character, a password that documentation shows, a placeholder written
// with JSON's escapes, an AWS policy's "Sid" and an id that starts with
// its time; a password and a session's id beside them still go.
func TestValuesThatNameNoCredential(t *testing.T) {
	x, err := Rules{}.Redactor()
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{
		"-p PASSWORD, --password=PASSWORD",
		"  -a, --auth USER[:PASS]  Credentials for basic auth",
		"PASSWORD=N'",
		"WITH PASSWORD = 'P@ssw0rd' is an example in the SQL Server docs",
		"password=changeme and password=hunter2",
		`{"content":"ALTER LOGIN sa WITH PASSWORD = '\u003centerStrongPasswordHere\u003e';"}`,
		`{"Version":"2012-10-17","Statement":[{"Sid":"AllowS3ReadAccessForBucketX","Effect":"Allow"}]}`,
		"sid=20231127T053000Z0001 batch",
	} {
		if got := x.Text(text); got != text {
			t.Errorf("Text(%q) = %q, want it unchanged", text, got)
		}
		for _, ctype := range []string{"text/plain", "application/json"} {
			body := text
			if ctype == "application/json" {
				b, _ := json.Marshal(map[string]string{"content": text})
				body = string(b)
			}
			if _, got := x.Message(http.Header{"Content-Type": {ctype}}, []byte(body)); string(got) != body {
				t.Errorf("a %s body %q scrubbed to %q, want it unchanged", ctype, body, got)
			}
		}
	}
	k := "Zq7" + fakeKey("", 13)
	for _, text := range []string{
		"password=" + k, "--password=" + k, `{"password":"` + k + `\u0026x"}`, `{"sid":"` + k + `"}`, "sid=" + k + " batch",
	} {
		if got := x.Text(text); strings.Contains(got, k) {
			t.Errorf("Text(%q) = %q, the secret kept", text, got)
		}
	}
}
