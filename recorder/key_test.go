package recorder

import (
	"slices"
	"testing"
)

func TestCanonicalJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{` {"b" : 1, "a": {"d": [true, false, null], "c": -1.5e3}} `, `{"a":{"c":-1500.0,"d":[true,false,null]},"b":1}`},
		{`[]`, `[]`},
		{`{}`, `{}`},
		{`"a \"quoted\" string"`, `"a \"quoted\" string"`},
		{`{"b":"x\\", "a":"q\"r\\\"s"}`, `{"a":"q\"r\\\"s","b":"x\\"}`},
		// Strings by what they decode to: an escape matches its character.
		{`{"z":{},"y":[{}],"x":"\u00e9"}`, `{"x":"é","y":[{}],"z":{}}`},
		// Numbers by kind and value: an int stays an int, a float is its
		// shortest text.
		{`[2, 2.0, 2.00, 1e2, -0, 12345678901234567890123]`, `[2,2.0,2.0,100.0,0,12345678901234567890123]`},
	}
	for _, tt := range tests {
		got, ok := appendCanonicalJSON(nil, []byte(tt.in))
		if !ok || string(got) != tt.want {
			t.Errorf("canonical(%s) = %s, %v; want %s", tt.in, got, ok, tt.want)
		}
	}
	for _, bad := range []string{``, `{`, `{"a" 1}`, `[1,]`, `{"a":1}x`, `tru`, `"open`, `{"a":1,}`, `plain text`} {
		if got, ok := appendCanonicalJSON(nil, []byte(bad)); ok {
			t.Errorf("canonical(%q) = %s, want not JSON", bad, got)
		}
	}
}

// requestKey is a request's canonical key, for tests.
func requestKey(method, rawURL string, body []byte) string {
	return newRequest("", method, rawURL, string(body)).canonical()
}

// TestExactKeyFactorsRequestKey checks that requests with the same exact key
// have the same canonical key, which the replay's exact index relies on; that
// the keys ignore the scheme, the host, the base path of an OpenAI-compatible
// endpoint and Azure's api-version; and that they keep the rest.
func TestExactKeyFactorsRequestKey(t *testing.T) {
	body := []byte(`{"model": "m", "messages": [{"role": "user", "content": "hi"}]}`)
	urls := []string{
		"http://127.0.0.1:9/v1/chat/completions",
		"https://api.example.com/v1/chat/completions",
		"http://127.0.0.1:9/v1/chat/completions?b=2&a=1",
		"http://h/v1/chat/completions?b=2&a=1",
		"https://openrouter.ai/api/v1/chat/completions",
		"http://127.0.0.1:9/v1/chat%2Fcompletions",
		"/v1/chat/completions",
		"http://[::1/v1/chat/completions",
		"%zz",
		"https://x.openai.azure.com/openai/deployments/judge/chat/completions?api-version=2024-06-01",
		"http://localhost:11434/v1/chat/completions",
		"http://127.0.0.1:9/v1/orders/7",
		"http://127.0.0.1:9/v2/orders/7",
	}
	exact := func(u string, body []byte) exactKey { return exactKey(newRequest("", "POST", u, string(body))) }
	for _, a := range urls {
		for _, b := range urls {
			if exact(a, body) == exact(b, body) && requestKey("POST", a, body) != requestKey("POST", b, body) {
				t.Errorf("%q and %q: same exact key, request keys differ", a, b)
			}
		}
	}
	same := func(a, b string) bool { return exact(a, body) == exact(b, body) }
	for _, i := range []int{1, 4, 6, 9, 10} {
		if !same(urls[0], urls[i]) {
			t.Errorf("%q and %q are the same endpoint, but their keys differ", urls[0], urls[i])
		}
	}
	if !same(urls[2], urls[3]) {
		t.Errorf("the host changed the key of %q", urls[2])
	}
	for _, i := range []int{2, 5, 11} {
		if same(urls[0], urls[i]) {
			t.Errorf("%q and %q have the same key", urls[0], urls[i])
		}
	}
	if same(urls[11], urls[12]) {
		t.Errorf("paths outside the OpenAI-compatible endpoints must match whole")
	}
	if exact(urls[0], body) == exact(urls[0], append(slices.Clone(body), ' ')) {
		t.Errorf("exact key ignores the body's bytes")
	}
	if exactKey(newRequest("case 1", "POST", urls[0], string(body))) == exact(urls[0], body) {
		t.Errorf("the case is not part of the key")
	}
}
