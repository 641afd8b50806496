package secrets

import "testing"

// oauthSecrets are the credentials of OAuth's token requests that no
// family of names covered: a client's signed assertion, an assertion
// grant's SAML (by its shape), PKCE's code_verifier, a device grant's
// device_code.
func oauthSecrets() []reviewSecret {
	return []reviewSecret{
		{"form-client-assertion", "grant_type=client_credentials&client_id=app&client_assertion=Zk68q8R2mL4xV7nP1tK9wS3", "Zk68q8R2mL4xV7nP1tK9wS3"},
		{"form-saml-assertion-grant", "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Asaml2-bearer&assertion=PHNhbWxwOlJlc3BvbnNlIHhtbG5zOnNhbWxwPSJ1cm46b2FzaXM6bmFtZXM6dGM6U0FNTDoyLjA6cHJvdG9jb2wiIElEPSJfOGU4ZGM1ZjY5YTk4Y2M0YzFmZjM0MjdlNWNlMzQ2MDZmZDY3MmY5MWU2IiBWZXJzaW9uPSIyLjAiPg%3D%3D", "IHhtbG5zOnNhbWxwPSJ1"},
		{"saml-response-json", `{"SAMLResponse": "PHNhbWxwOlJlc3BvbnNlIHhtbG5zOnNhbWxwPSJ1cm46b2FzaXM6bmFtZXM6dGM6U0FNTDoyLjA6cHJvdG9jb2wiIElEPSJfOGU4ZGM1ZjY5YTk4Y2M0YzFmZjM0MjdlNWNlMzQ2MDZmZDY3MmY5MWU2IiBWZXJzaW9uPSIyLjAiPg=="}`, "IHhtbG5zOnNhbWxwPSJ1"},
		{"json-client-assertion", `{"client_id": "app", "client_assertion": "Zk68q8R2mL4xV7nP1tK9wS3"}`, "Zk68q8R2mL4xV7nP1tK9wS3"},
		{"form-code-verifier", "grant_type=authorization_code&code_verifier=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", "dBjftJeZ4CVP"},
		{"json-device-code", `{"grant_type": "urn:ietf:params:oauth:grant-type:device_code", "device_code": "GmRhmhcxhwAzkoEqiMEg_DnyEysNkuNhszIySk9eS"}`, "GmRhmhcxhwAzkoEqiMEg"},
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
		{"json-pass-models", `{"test": "t1", "pass": "claude-3-5-sonnet-20241022", "fail": "gpt-3.5-turbo-0125"}` + "\n" + `{"pass": "e3b0c44298fc1c149afbf4c8996fb924"}` + "\n" + `{"pass": "checkpoint_step_12000_v2"}`},
		{"form-assertion-names", "type=assertion&assertion=is-valid-openai-tools-call-v2\nassertion=llm-rubric-v2-grader-2024&x=1\nassertion=response_contains_keyword_abc123XYZ"},
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
