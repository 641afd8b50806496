package secrets

import "testing"

// TestNumberedAndRepeatedNamesRemoved: a numbered name is its family's
// (Django's password1 and password2, api_key2, token_2), a password's
// confirmation holds the password again, and a command's --pass and --pw
// take one.
func TestNumberedAndRepeatedNamesRemoved(t *testing.T) {
	checkGoes(t, []reviewSecret{
		{"django-signup", "username=bob&password1=S3cr3tPass99&password2=S3cr3tPass99", "S3cr3tPass99"},
		{"json-password1", `{"password1": "S3cr3tPass99"}`, "S3cr3tPass99"},
		{"json-new-password2", `{"new_password2": "S3cr3tPass98"}`, "S3cr3tPass98"},
		{"flag-password1", "mysql -u root --password1=S3cr3tPass99 shop", "S3cr3tPass99"},
		{"json-api-key2", `{"api_key2": "Zk42q8R2mL4xV7nP1tK9wS3"}`, "Zk42q8R2mL4xV7nP1tK9wS3"},
		{"json-token-2", `{"token_2": "Zk42q8R2mL4xV7nP1tK9wS3"}`, "Zk42q8R2mL4xV7nP1tK9wS3"},
		{"json-secret2", `{"secret2": "Zk42q8R2mL4xV7nP1tK9wS3"}`, "Zk42q8R2mL4xV7nP1tK9wS3"},
		{"json-password-confirmation", `{"password": "S3cr3tPass99", "password_confirmation": "S3cr3tPass99"}`, "S3cr3tPass99"},
		{"flag-pass", "tool --pass=S3cr3tPass99\ntool --pass S3cr3tPass97\ntool --pw S3cr3tPass96", "S3cr3tPass99|S3cr3tPass97|S3cr3tPass96"},
		// A form's bracketed names, as Rails logs its parameters.
		{"bracket-password", "Parameters: user[password]=S3cr3tPass99&commit=Sign+up", "S3cr3tPass99"},
		{"bracket-api-key", "data[api_key]=Zk42q8R2mL4xV7nP1tK9wS3", "Zk42q8R2mL4xV7nP1tK9wS3"},
	})
}

// TestNumberedNamesBenignStay: numbered names outside the families, a
// grader's numbered passes, a confirmation's settings.
func TestNumberedNamesBenignStay(t *testing.T) {
	checkStays(t, []reviewText{
		{"passes", `{"pass1": "first", "pass2": "second", "judge_pass2": "strict"}`},
		{"settings", `{"password_confirmation_required": true, "confirmation": "yes", "password2_enabled": false}`},
		{"keys", `{"key1": "value1", "sort_key2": "created_at", "page_token_2": "CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA0"}`},
		{"brackets", "arr[key]=value\nitems[0]=first\nuser[password_confirmation_required]=true\nopts[page_token]=next"},
		{"ffmpeg", "ffmpeg -i in.mp4 -pass 1 -f null /dev/null && ffmpeg -i in.mp4 -pass 2 out.mp4"},
	})
}
