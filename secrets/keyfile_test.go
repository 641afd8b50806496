package secrets

import "testing"

// keyFileBenign are a key's or a certificate's file named where the key
// would stand: a path whose every part is a plain lower-case name.
func keyFileBenign() []reviewText {
	return []reviewText{
		{"env-key-file", "SSL_KEY=server.key"},
		{"env-cert-key-path", "TLS_CERT_KEY=/etc/ssl/private/app.key"},
		{"json-key-file", `{"ssl_key": "server.key"}`},
		{"env-key-files", "SSL_KEY=server.key\nTLS_KEY=./certs/tls-2024.pem\nSSH_KEY=~/.ssh/id_ed25519.pub"},
		{"json-key-paths", `{"ssl_key": "server.key", "private_key": "/etc/ssl/private/app.key"}`},
		{"indented-env-key-file", "    SSL_KEY=server.key"},
		{"json-string-env-key-file", `{"content":"SSL_KEY=server.key\nTLS_CERT_KEY=/etc/ssl/private/app.key"}`},
		{"yaml-key-file", "tls:\n  private_key: certs/server-key.pem\n  signing_key: /run/secrets/signing.key"},
		{"json-credentials-file", `{"service_account_key": "credentials.json", "gpg_key": "~/.gnupg/release-2024.asc"}`},
		{"toml-relative-key", `tls_key = "../certs/localhost.key"` + "\n" + `ssh_key = "./deploy/id_rsa.pub"`},
		{"compose-key-file", "environment:\n  - SSL_KEY=/certs/nginx.key\n  - JWT_PUBLIC_KEY=keys/jwt_public.pem"},
	}
}

// keyFileSecrets are keys that end in a file's extension or stand in a
// path: a random or hexadecimal part is a key, whatever follows it.
func keyFileSecrets() []reviewSecret {
	return []reviewSecret{
		{"token-with-key-ending", "GITHUB_TOKEN=Zq7xK9mQ7pZ2wR5tLm3N/app.key", "Zq7xK9mQ7pZ2wR5tLm3N"},
		{"query-lower-random-json", "https://api.example.com/v1?api_key=zq7xk9mq7pz2wr5tlm3n.json&q=x", "zq7xk9mq7pz2wr5tlm3n"},
		{"form-secret-with-path", "grant_type=client_credentials&client_secret=Zq7xK9mQ7pZ2wR5tLm3N/app.key", "Zq7xK9mQ7pZ2wR5tLm3N"},
		{"hex-key-with-key-ending", "ENCRYPTION_KEY=0123456789abcdef0123456789abcdef.key", "0123456789abcdef0123456789abcdef"},
		{"env-key-generated-dotted", "SSL_KEY=Zq7xK9mQ7pZ2wR5t.key", "Zq7xK9mQ7pZ2wR5t"},
		{"json-key-generated", `{"api_key": "Xk9mQ2vR7tL4pZ8w.pem"}`, "Xk9mQ2vR7tL4pZ8w"},
		{"lower-random-segment", "SSL_KEY=/etc/ssl/zq7xk9mq7pz2wr5t/app.key", "zq7xk9mq7pz2wr5t"},
		{"lower-random-letters", "PRIVATE_KEY=qxzkvbnmwrtplkjh.pem", "qxzkvbnmwrtplkjh"},
		{"json-escaped-path", `{"content":"{\"api_key\": \"Zq7xK9mQ7pZ2wR5tLm3N/app.key\"}"}`, "Zq7xK9mQ7pZ2wR5tLm3N"},
		{"url-encoded-path", "https://x.example/cb?api_key=Zq7xK9mQ7pZ2wR5tLm3N%2Fapp.key", "Zq7xK9mQ7pZ2wR5tLm3N"},
		{"heredoc-hex", "cat > .env <<'EOF'\nENCRYPTION_KEY=deadbeefcafebabe0123456789abcdef.key\nEOF", "deadbeefcafebabe0123456789abcdef"},
	}
}

func TestKeyFileBenignStay(t *testing.T) {
	checkStays(t, keyFileBenign())
}

func TestKeyFileSecretsRemoved(t *testing.T) {
	checkGoes(t, keyFileSecrets())
}
