package secrets

import (
	"strings"
	"testing"
)

// The fourth review's finding on 37026f6: an INI-looking line at a JSON
// string's start is read as a setting, but code there (an agent's
// str_replace, a model's answer) is no setting: a dotted name or a call,
// or one lower-case name, stays in every mode; a generated value there
// goes, as it went on a line of its own.
func TestReview44CodeAtAJSONStringsStartStays(t *testing.T) {
	x, err := Rules{}.Redactor()
	if err != nil {
		t.Fatal(err)
	}
	benign := []string{
		`{"old_str":"password = user.password"}`,
		`{"content":[{"type":"text","text":"password = request.password"}]}`,
		`{"choices":[{"message":{"content":"api_key = config.api_key"}}]}`,
		`{"content":"password = new_password"}`,
		`{"content":"password = input.value"}`,
		`{"content":"secret_key = settings.SECRET_KEY"}`,
		`{"content":"api_key = args.api_key"}`,
		`{"content":"auth_token = ctx.auth_token"}`,
		`{"content":"secret = secrets.token_hex(16)"}`,
		`{"content":"password = bcrypt.hashpw"}`,
		`{"content":"password = getpass"}`,
		`{"content":"password = pw;"}`,
		`{"lines":["password = form.password.data"]}`,
	}
	for i, changes := range scrubbedModesEach(t, x, benign) {
		for _, change := range changes {
			t.Errorf("%q: %s", benign[i], change)
		}
	}
	k := "Zq7" + fakeKey("", 13)
	secrets := []string{
		`{"content":"api_key = <K>"}`,
		`{"content":"db_password = <K>"}`,
		`["password = <K>"]`,
		`{"content":"password = Summer2024x"}`,
	}
	for i := range secrets {
		secrets[i] = strings.ReplaceAll(secrets[i], "<K>", k)
	}
	finds := checkFindsEach(t, secrets)
	for i, text := range secrets {
		secret := k
		if strings.Contains(text, "Summer") {
			secret = "Summer2024x"
		}
		if got := x.Text(text); strings.Contains(got, secret) {
			t.Errorf("%q: kept: %q", text, got)
		}
		if !finds[i] {
			t.Errorf("%q: the check finds nothing", text)
		}
	}
}
