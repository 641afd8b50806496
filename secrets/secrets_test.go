package secrets

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRedactor(t *testing.T) {
	x, err := Rules{
		Headers:   []string{"x-session-token"},
		JSONPaths: []string{"user", "messages.*.name", "token"},
		Patterns:  []string{`acct-[0-9]+`},
	}.Redactor()
	if err != nil {
		t.Fatal(err)
	}
	h := http.Header{
		"Authorization":   {"Bearer sk-x"},
		"Set-Cookie":      {"a=b"},
		"X-Session-Token": {"tok-1"},
		"Content-Type":    {"application/json"},
		"X-Account":       {"acct-991"},
	}
	want := http.Header{"Content-Type": {"application/json"}, "X-Account": {Redacted}}
	if diff := cmp.Diff(want, x.Headers(h)); diff != "" {
		t.Errorf("headers (-want +got):\n%s", diff)
	}
	if h.Get("Authorization") == "" {
		t.Error("Headers changed the headers it was given")
	}
	u, _ := url.Parse("https://user:pass@api.example.com/v1/x?account=acct-991")
	if got, want := x.URL(u), "https://api.example.com/v1/x?account="+Redacted; got != want {
		t.Errorf("URL = %s, want %s", got, want)
	}
	if u.User == nil {
		t.Error("URL changed the URL it was given")
	}
	body := `{"user":"user-PII-1","messages":[{"role":"user","name":"Alice","content":"account acct-991 <ok>"}],"n":1.50}`
	if got, want := string(x.Body([]byte(body))), `{"messages":[{"content":"account [REDACTED] <ok>","name":"[REDACTED]","role":"user"}],"n":1.50,"user":"[REDACTED]"}`; got != want {
		t.Errorf("Body =\n%s\nwant\n%s", got, want)
	}
	for _, same := range []string{`{"other":1}`, `not json`, ``} {
		if got := string(x.Body([]byte(same))); got != same {
			t.Errorf("Body(%q) = %q, want it unchanged", same, got)
		}
	}
	none, _ := Rules{}.Redactor()
	if got := none.Text("acct-991"); got != "acct-991" {
		t.Errorf("no rules: Text = %q", got)
	}
	if got := none.Headers(http.Header{"Api-Key": {"k"}, "Accept": {"*/*"}}); len(got) != 1 || got.Get("Accept") != "*/*" {
		t.Errorf("no rules: Headers = %v, want the credential header dropped only", got)
	}
}

func ExampleRules_Redactor() {
	x, err := Rules{JSONPaths: []string{"user.email"}, Patterns: []string{`acct-[0-9]+`}}.Redactor()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(x.Body([]byte(`{"user":{"email":"alice@example.com","plan":"pro"},"note":"acct-123456"}`))))
	fmt.Println(x.Headers(http.Header{"Authorization": {"Bearer sk-..."}, "Accept": {"application/json"}}))
	_, err = Rules{Patterns: []string{`[A-Z]+`}}.Redactor()
	fmt.Println(err)
	// Output:
	// {"note":"[REDACTED]","user":{"email":"[REDACTED]","plan":"pro"}}
	// map[Accept:[application/json]]
	// pattern rule "[A-Z]+" matches in "[REDACTED]", its own replacement
}
