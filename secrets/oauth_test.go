package secrets

import "testing"

// oauthSecrets are the credentials of OAuth's token requests that no
// family of names covered: a client's signed assertion, an assertion
// grant's, PKCE's code_verifier, a device grant's device_code; and a
// generated password under a bare "pass".
func oauthSecrets() []reviewSecret {
	return []reviewSecret{
		{"form-client-assertion", "grant_type=client_credentials&client_id=app&client_assertion=Zk68q8R2mL4xV7nP1tK9wS3", "Zk68q8R2mL4xV7nP1tK9wS3"},
		{"form-assertion-grant", "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Asaml2-bearer&assertion=PHNhbWxwOlJlc3BvbnNlIHhtbG5zOnNhbWxwPQ", "PHNhbWxwOlJlc3BvbnNl"},
		{"json-client-assertion", `{"client_id": "app", "client_assertion": "Zk68q8R2mL4xV7nP1tK9wS3"}`, "Zk68q8R2mL4xV7nP1tK9wS3"},
		{"form-code-verifier", "grant_type=authorization_code&code_verifier=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", "dBjftJeZ4CVP"},
		{"json-device-code", `{"grant_type": "urn:ietf:params:oauth:grant-type:device_code", "device_code": "GmRhmhcxhwAzkoEqiMEg_DnyEysNkuNhszIySk9eS"}`, "GmRhmhcxhwAzkoEqiMEg"},
		{"json-pass-generated", `{"user": "bob", "pass": "Zk95q8R2mL4xV7nP1tK9wS3"}`, "Zk95q8R2mL4xV7nP1tK9wS3"},
	}
}

// oauthBenign are the same names where they hold no credential: a test's
// assertion, a grader's pass, a device grant's interval and the code its
// user types, an assertion's type.
func oauthBenign() []reviewText {
	return []reviewText{
		{"json-assertion-test", `{"assertion": "equals", "value": "Paris"}`},
		{"json-assertion-js", `{"assertion": "javascript:output.length>10"}`},
		{"form-assertion-test", "assertion=equals&value=Paris"},
		{"json-pass-grader", `{"pass": "judge_v2", "model": "gpt-4o-mini"}`},
		{"json-pass-model", `{"pass": "gpt-4o-mini"}`},
		{"json-pass-run", `{"pass": "eval-run-2024", "ok": true}`},
		{"json-assertion-type", `{"client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"}`},
		{"json-device-poll", `{"user_code": "WDJB-MJHT", "verification_uri": "https://example.com/device", "interval": 5}`},
	}
}

func TestOAuthSecretsRemoved(t *testing.T) {
	checkGoes(t, oauthSecrets())
}

func TestOAuthBenignStay(t *testing.T) {
	checkStays(t, oauthBenign())
}
