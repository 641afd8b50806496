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

// TestExactKeyFactorsRequestKey checks that requests with the same exact key
// have the same request key, which the replay's exact index relies on, and
// that the exact key ignores only the scheme and host.
func TestExactKeyFactorsRequestKey(t *testing.T) {
	body := []byte(`{"model": "m", "messages": [{"role": "user", "content": "hi"}]}`)
	urls := []string{
		"http://127.0.0.1:9/v1/chat/completions",
		"https://api.example.com/v1/chat/completions",
		"http://127.0.0.1:9/v1/chat/completions?b=2&a=1",
		"http://h/v1/chat/completions?b=2&a=1",
		"http://127.0.0.1:9/v2/chat/completions",
		"http://127.0.0.1:9/v1/chat%2Fcompletions",
		"/v1/chat/completions",
		"http://[::1/v1/chat/completions",
		"%zz",
	}
	for _, a := range urls {
		for _, b := range urls {
			ea, eb := string(exactKey(nil, "POST", a, body)), string(exactKey(nil, "POST", b, body))
			ka, kb := requestKey("POST", a, body), requestKey("POST", b, body)
			if ea == eb && ka != kb {
				t.Errorf("%q and %q: same exact key, request keys differ:\n%s\n%s", a, b, ka, kb)
			}
		}
	}
	same := func(a, b string) bool {
		return string(exactKey(nil, "POST", a, body)) == string(exactKey(nil, "POST", b, body))
	}
	if !same(urls[0], urls[1]) {
		t.Errorf("the host changed the exact key of %q", urls[0])
	}
	if same(urls[0], urls[4]) || same(urls[0], urls[2]) || same(urls[0], urls[5]) {
		t.Errorf("exact key ignores more than the scheme and host")
	}
	if string(exactKey(nil, "POST", urls[0], body)) == string(exactKey(nil, "POST", urls[0], append(slices.Clone(body), ' '))) {
		t.Errorf("exact key ignores the body's bytes")
	}
}
