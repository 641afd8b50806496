package secrets

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strings"

	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
)

// nearMisses are generated values that stand where a credential would,
// next to the rules that find one, and are none: ordinary ids under a
// session's name in a query, a form and JSON alike, REST paths after the
// word Token, and what each command-line, Redis and httpie rule must leave
// alone. They join lookalikes (TestLookalikesAreNoSecrets).
func nearMisses() []leak {
	r := rand.New(rand.NewPCG(11, 27))
	hex := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "0123456789abcdef"[r.IntN(16)]
		}
		return string(b)
	}
	alnum := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"[r.IntN(57)]
		}
		return string(b)
	}
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	var out []leak
	sessionNames := []string{"sid", "session", "session_id", "sessionId", "sessionid", "SESSION_ID", "PHPSESSID"}
	for i := range 6 {
		// An id the client made: a UUID (any case), or a typed id.
		var q, form []string
		doc := map[string]string{}
		for _, name := range sessionNames {
			id := hex(8) + "-" + hex(4) + "-4" + hex(3) + "-" + pick("8", "9", "a", "b") + hex(3) + "-" + hex(12)
			if r.IntN(3) == 0 {
				id = strings.ToUpper(id)
			}
			if r.IntN(4) == 0 {
				id = pick("sess_", "conv-", "thread_") + alnum(16+r.IntN(8))
			}
			q = append(q, name+"="+url.QueryEscape(id))
			form = append(form, name+"="+url.QueryEscape(id))
			doc[name] = id
		}
		body, _ := json.Marshal(doc)
		out = append(out, leak{name: fmt.Sprintf("session ids the client made %d", i), edit: func(it *cassette.Interaction) {
			it.Request.URL += "?" + strings.Join(q, "&")
			it.Request.Headers["Content-Type"] = []string{"application/x-www-form-urlencoded"}
			it.Request.Body = strings.Join(form, "&")
			it.Response.Body = string(body)
		}})
	}
	for i := range 6 {
		// A resource path after an authorization scheme: prose about a
		// REST API, a header line, a JSON member.
		path := pick("auth_tokens", "api_tokens", "tokens", "personal_access_tokens", "api-keys", "access_tokens") + "/" +
			pick(hex(8+r.IntN(12)), fmt.Sprint(r.IntN(1e9)), "revoke/"+hex(12), hex(10)+"/scopes")
		scheme := pick("Token", "Bearer", "token", "Basic")
		text := pick(
			"See "+scheme+" "+path+" in the API reference.",
			"Authorization: "+scheme+" "+path,
			`{"Authorization": "`+scheme+` `+path+`"}`,
			"DELETE /v2/"+path+" with Authorization="+scheme+" "+path,
		)
		out = append(out, leak{name: fmt.Sprintf("a REST path after %s %d", scheme, i), edit: inContent(text)})
	}
	return append(out, benignLeaks()...)
}
