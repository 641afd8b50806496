package secrets

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// The reviews' tables (review42_test.go … review46_test.go) are texts a
// round's rules got wrong: a reviewText must stay byte-identical, a
// reviewSecret must lose its secret. In a reviewSecret's text, <K> stands
// for a generated password; its secret, when set, is what the text must
// lose, its parts separated by "|", else the password <K> stands for.
type (
	reviewText   = struct{ name, text string }
	reviewSecret = struct{ name, text, secret string }
)

// checkGoes fails t for each case whose secret Text or a JSON body keeps,
// or in which the check finds nothing.
func checkGoes(t *testing.T, cases []reviewSecret) {
	t.Helper()
	x, err := Rules{}.Redactor()
	if err != nil {
		t.Fatal(err)
	}
	k := "Zq7" + fakeKey("", 13)
	texts := make([]string, len(cases))
	for i, tc := range cases {
		texts[i] = strings.ReplaceAll(tc.text, "<K>", k)
	}
	finds := checkFindsEach(t, texts)
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			text := texts[i]
			secrets := strings.Split(tc.secret, "|")
			if tc.secret == "" {
				secrets = []string{k}
			}
			b, _ := json.Marshal(map[string]string{"content": text})
			_, body := x.Message(http.Header{"Content-Type": {"application/json"}}, b)
			got := x.Text(text)
			for _, secret := range secrets {
				if strings.Contains(got, secret) {
					t.Errorf("%q: kept %q: %q", text, secret, got)
				}
				if strings.Contains(string(body), secret) {
					t.Errorf("%q in a JSON body: kept %q: %s", text, secret, body)
				}
			}
			if !finds[i] {
				t.Errorf("%q: the check finds nothing", text)
			}
		})
	}
}

// checkStays fails t for each text that a mode of scrubbing changes
// (scrubbedModesEach).
func checkStays(t *testing.T, cases []reviewText) {
	t.Helper()
	x, err := Rules{}.Redactor()
	if err != nil {
		t.Fatal(err)
	}
	texts := make([]string, len(cases))
	for i, tc := range cases {
		texts[i] = tc.text
	}
	changes := scrubbedModesEach(t, x, texts)
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, change := range changes[i] {
				t.Errorf("%q: %s", tc.text, change)
			}
		})
	}
}
