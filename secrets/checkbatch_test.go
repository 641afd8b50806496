package secrets

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
)

// The review tests check hundreds of texts. A cassette of its own for
// each, written to a new temporary directory and read back, cost more
// than the scrubbing it tested (TestBenignTextsStay's 2 files a text
// were most of its 3.2 s under -race): the helpers below check all of a
// test's texts in one cassette, an interaction each, and hand each text
// what Check found in its own interaction.

// response is a response body and its content type.
type response struct{ ctype, body string }

// checkEach writes one cassette of a clean judge's request and each
// response (secretInteraction, inResponse), runs Check on it, and returns
// the findings of each response's interaction.
func checkEach(t testing.TB, rs []response) [][]Finding {
	t.Helper()
	its := make([]*cassette.Interaction, len(rs))
	for i, r := range rs {
		its[i] = secretInteraction()
		inResponse(r.ctype, r.body)(its[i])
	}
	path, _ := writeCassette(t, its...)
	found, err := Check(path, Rules{})
	if err != nil {
		t.Fatal(err)
	}
	out := make([][]Finding, len(rs))
	for _, f := range found {
		if f.Interaction < 0 || f.Interaction >= len(rs) {
			t.Fatalf("a finding outside the responses: %s", f)
		}
		out[f.Interaction] = append(out[f.Interaction], f)
	}
	return out
}

// checkFindsEach says, for each text, whether Check finds a secret in a
// response whose body it is (text/plain), as checkFinds does for one.
func checkFindsEach(t testing.TB, texts []string) []bool {
	rs := make([]response, len(texts))
	for i, text := range texts {
		rs[i] = response{"text/plain", text}
	}
	out := make([]bool, len(texts))
	for i, f := range checkEach(t, rs) {
		out[i] = len(f) > 0
	}
	return out
}

// scrubbedModesEach is scrubbedModes for each text: what scrubbing
// changed in each mode and what Check found in it as a JSON and as a
// plain-text response, the checks of all the texts in one cassette.
func scrubbedModesEach(t testing.TB, x *Redactor, texts []string) [][]string {
	out := make([][]string, len(texts))
	var rs []response
	for i, text := range texts {
		if got := x.Text(text); got != text {
			out[i] = append(out[i], fmt.Sprintf("Text: %q", got))
		}
		if _, got := x.Message(http.Header{"Content-Type": {"text/plain"}}, []byte(text)); string(got) != text {
			out[i] = append(out[i], fmt.Sprintf("text/plain body: %q", got))
		}
		b, _ := json.Marshal(map[string]string{"content": text})
		if _, got := x.Message(http.Header{"Content-Type": {"application/json"}}, b); string(got) != string(b) {
			out[i] = append(out[i], fmt.Sprintf("JSON body: %s", got))
		}
		if got := x.Text(string(b)); got != string(b) {
			out[i] = append(out[i], fmt.Sprintf("Text of JSON: %s", got))
		}
		rs = append(rs, response{"application/json", string(b)}, response{"text/plain", text})
	}
	for k, found := range checkEach(t, rs) {
		for _, f := range found {
			out[k/2] = append(out[k/2], fmt.Sprintf("check of a %s response: %s", rs[k].ctype, f.What))
		}
	}
	return out
}
