package secrets

import (
	"slices"
	"strings"
	"sync"
	"unicode"
)

// This file says which names are credentials: headers, query and form
// parameters, JSON fields, XML elements and assignments in text. The
// Redactor removes what they name and Check reports it, from the same
// tables, so that what the recorder stores always passes the check.
//
// A name is read as words ("X-Api-Key", "api_key", "apiKey", "APIKey" and
// "api.key" are all api, key) and judged by its last word, so that whole
// families are covered: *_token, *_secret, *_key, *_password, *_signature,
// *_credentials. Each family has an allow-list of look-alikes (sort_key,
// page_token, public_key, max_tokens), and a name that asks a question
// about a credential (has_password, is_secret) or describes one
// (password_min_length, api_key_id, secret_name) names none.

// credentialHeaders never reach a cassette file, whatever the rules and
// whatever their value.
var credentialHeaders = []string{
	"Authorization", "Proxy-Authorization", "Api-Key", "X-Api-Key",
	"OpenAI-Organization", "OpenAI-Project", "Cookie", "Set-Cookie",
	"Ocp-Apim-Subscription-Key", "X-RapidAPI-Key", "X-Goog-Api-Key", "X-Honeycomb-Team",
}

// notCredentialHeaders say "key" or "token" without holding a credential:
// one-time nonces.
var notCredentialHeaders = []string{"Idempotency-Key", "Sec-Websocket-Key", "Sec-Websocket-Accept"}

// headerWords are the words of a header name that make it a credential
// header: X-Auth-Token, X-Session-Id, X-Amz-Signature, X-Api-Cred.
// "tokens" is not among them: rate-limit headers count tokens.
var headerWords = []string{
	"key", "apikey", "token", "secret", "auth", "authorization", "signature", "session", "sessionid",
	"password", "passwd", "pwd", "credential", "credentials", "cred", "creds", "cookie", "jwt", "dsn",
	"authentication", "passphrase", "sign",
}

// headerWordSuffixes make a compound word a credential word: Authtoken,
// Apikey, Clientsecret.
var headerWordSuffixes = []string{"apikey", "accesskey", "authkey", "token", "secret", "password", "signature"}

// metaWords end a name that describes a credential rather than holding
// one: X-Signature-Algorithm, X-Auth-Status, X-Token-Expires,
// password_min_length, api_key_id.
var metaWords = []string{
	"algorithm", "alg", "algo", "type", "types", "method", "methods", "version", "scheme", "schemes", "status",
	"state", "expires", "expiry", "expiration", "expiresat", "ttl", "length", "len", "count", "remaining",
	"limit", "reset", "policy", "format", "name", "names", "required", "present", "enabled", "mode", "realm",
	"header", "headers", "used", "id", "ids", "env", "budget", "hint", "prefix", "suffix", "field", "fields",
	"param", "params", "kind", "label", "url", "uri", "endpoint", "path", "file", "location", "provider",
	"source", "strength", "rotation", "created", "updated", "at", "lifetime", "age", "scope", "scopes", "set",
	"valid", "invalid", "error", "errors", "description", "desc", "help", "placeholder", "example", "usage",
}

// credentialHeaderName tells a header that carries a credential by its
// name's words. X-Ratelimit-Remaining-Tokens, Www-Authenticate and
// X-Signature-Algorithm do not.
func credentialHeaderName(name string) bool {
	if !mayBeSecretName(name) {
		return false
	}
	if slices.ContainsFunc(notCredentialHeaders, func(h string) bool { return strings.EqualFold(h, name) }) {
		return false
	}
	lower := strings.ToLower(name)
	if strings.Contains(lower, "ratelimit") || strings.Contains(lower, "rate-limit") {
		return false
	}
	words := strings.FieldsFunc(lower, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	if len(words) == 0 || slices.Contains(metaWords, words[len(words)-1]) && words[len(words)-1] != "id" {
		return false
	}
	for _, w := range words {
		if slices.Contains(headerWords, w) {
			return true
		}
		for _, s := range headerWordSuffixes {
			if strings.HasSuffix(w, s) {
				return true
			}
		}
	}
	return false
}

// normalizeName lower-cases a parameter or field name and drops "_", "-"
// and ".": Api-Key, api_key and apiKey are all "apikey".
func normalizeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == '.' {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

// nameWords splits a name into its lower-cased words: at "_", "-", ".",
// spaces, and where camel case changes (apiKey, APIKey, AccountKey).
func nameWords(s string) []string {
	var words []string
	rs := []rune(s)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			words = append(words, strings.ToLower(string(rs[start:end])))
		}
		start = -1
	}
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := rs[i-1]
		switch {
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush(i) // apiKey
			start = i
		case unicode.IsUpper(prev) && unicode.IsUpper(r) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
			flush(i) // APIKey
			start = i
		}
	}
	flush(len(rs))
	return words
}

// nameKind is how strongly a name says that its value is a credential.
type nameKind int

const (
	// notSecret: the name holds no credential (sort_key, max_tokens).
	notSecret nameKind = iota
	// tokenWord: a bare "token", which also names a tokenizer's piece of
	// text (logprobs' {"token": "Hello"}): its value is a credential only
	// when it looks generated, letters and digits mixed, 16 characters or
	// more (a login's {"token": "…"}, a kubeconfig's token: …).
	tokenWord
	// sessionName: a session's id (session_id, sessionid, sid, session),
	// which is its bearer's credential when the server made it (a
	// generated value: 16 characters or more, letters and digits mixed,
	// one token) and an ordinary id when the client did (a UUID, a typed
	// id such as sess_… or conv-…; see sessionValue).
	sessionName
	// phraseName: a wallet's seed phrase (mnemonic, seed_phrase,
	// recoveryPhrase): its value is one when it is 12 to 24 words of a
	// seed's alphabet (seedPhrase); a disassembler's {"mnemonic": "mov"}
	// is none.
	phraseName
	// cookieName: a cookie (Cookie, Set-Cookie, session_cookie), whose
	// value, "sid=…; Path=/" or the cookie's own, is a credential when a
	// cookie's value in it looks like one (cookieValue).
	cookieName
	// weakName: a word that also means other things (secret, token, key,
	// authorization, credentials, code): its value is a credential only
	// when it looks like one (see credentialShaped).
	weakName
	// strongName: a credential's name (api_key, client_secret, hf_token,
	// AccountKey, dsn): its value is one unless it is a placeholder, a
	// yes/no word, an algorithm's name or a documented example.
	strongName
	// passwordName: a password (password, db_passwd, passphrase): any
	// value but a placeholder or a yes/no word.
	passwordName
)

// askWords start a name that asks about a credential: has_password,
// is_secret, require_token, show_api_key.
var askWords = []string{
	"has", "have", "is", "are", "was", "use", "uses", "using", "require", "requires", "required", "need",
	"needs", "show", "hide", "enable", "enabled", "disable", "allow", "allows", "no", "can", "should", "must",
	"did", "does", "supports", "support", "with", "without", "want", "skip", "include", "includes", "forgot",
	"valid", "invalid", "missing", "num", "number", "count", "max", "min", "total",
}

// tokenLookalikes qualify "token" without making it a credential: page
// and continuation tokens, a tokenizer's special tokens, token counts.
var tokenLookalikes = []string{
	"next", "page", "continuation", "pagination", "cursor", "sync", "stop", "eos", "bos", "pad", "unk", "sep",
	"cls", "mask", "special", "start", "end", "max", "min", "num", "total", "prompt", "completion", "input",
	"output", "cached", "reasoning", "image", "audio", "video", "text", "eot", "default", "placeholder",
	"added", "unknown", "padding", "separator", "decoder", "encoder", "first", "last", "resume", "marker",
	"offset", "vocab", "thinking", "tool", "system", "user", "assistant", "chat", "bad", "good", "delta",
}

// keyLookalikes qualify "key" without making it a credential: the keys of
// data structures, databases, caches and keyboards, public keys.
var keyLookalikes = []string{
	"sort", "cache", "partition", "primary", "foreign", "public", "publishable", "idempotency", "dedup",
	"dedupe", "deduplication", "lookup", "hash", "range", "row", "routing", "object", "group", "grouping",
	"message", "unique", "composite", "natural", "surrogate", "business", "shard", "index", "map", "dict",
	"translation", "i18n", "l10n", "file", "state", "event", "metric", "label", "tag", "attribute", "feature",
	"flag", "config", "setting", "property", "field", "entity", "resource", "cursor", "page", "search", "query",
	"match", "join", "order", "json", "mapping", "shortcut", "hot", "keyboard", "music", "musical", "table",
	"column", "schema", "locale", "lang", "language", "node", "item", "list", "record", "document", "doc",
	"dataset", "prompt", "task", "job", "step", "result", "output", "input", "context", "variable", "header",
	"parameter", "argument", "arg", "option", "rate", "limit", "lock", "trace", "span", "log", "legend",
	"chart", "series", "color", "theme", "react", "answer", "display", "dimension", "metadata", "name",
	"model", "tool", "data", "value", "redis", "kv", "bucket", "s3", "storage_object", "cluster", "version",
	"request", "response", "dedupe", "primarykey", "next", "previous", "prev", "start", "end", "min", "max",
	"protobuf", "proto", // a map's key in a struct tag: protobuf_key:"bytes,1,opt,name=key"
}

// strongNames are whole normalized names of credentials that no family
// covers: a connection string, a DSN, a webhook URL.
var strongNames = []string{
	"dsn", "connectionstring", "connstring", "connstr", "connectionuri", "webhookurl", "webhook", "slackwebhook",
	"sentrydsn", "databaseurl", "dburl", "redisurl", "mongouri", "mongodburi", "sas", "sastoken",
	"authcode", "authorizationcode", "oauthverifier", "bearer",
}

// compoundSuffixes make a one-word name (all lower case, no separator) a
// credential's: apikey, xapikey, accesstoken, clientsecret, accountkey.
var compoundSuffixes = []string{
	"apikey", "apitoken", "apisecret", "accesstoken", "accesskey", "authkey", "authtoken", "refreshtoken",
	"idtoken", "sessiontoken", "bearertoken", "clienttoken", "clientsecret", "secretkey", "privatekey",
	"subscriptionkey", "secretaccesskey", "webhooksecret", "signingsecret", "signingkey", "masterkey",
	"encryptionkey", "accountkey", "sharedsecret", "appsecret", "consumersecret", "bottoken", "privatetoken",
	"securitytoken", "sharedaccesskey", "licensekey", "servicekey", "adminkey", "secrettoken", "oauthtoken",
	"oauthsignature", "tokensecret", "csrftoken", "xsrftoken", "middlewaretoken", "verificationtoken",
}

// passOwners are what a "pass" is a password of (db_pass, SMTP_PASS,
// user_pass): "pass" also grades (first_pass, judge_pass).
var passOwners = []string{
	"db", "database", "sql", "mysql", "pg", "postgres", "mongo", "redis", "amqp", "rabbitmq", "ldap", "smtp", "imap",
	"pop", "mail", "email", "ftp", "sftp", "ssh", "vnc", "rdp", "wifi", "proxy", "user", "admin", "root", "login",
	"account", "basic", "auth", "api", "app", "service", "bind", "master",
}

// phraseOwners are what a "phrase" is the secret of: seed_phrase,
// recoveryPhrase.
var phraseOwners = []string{"seed", "recovery", "secret", "backup", "wallet", "mnemonic"}

// sessionWords are one-word names of a session's id.
var sessionWords = []string{"session", "sessionid", "sid", "sessid", "jsessionid", "phpsessid"}

// passwordWords end a password's name.
var passwordWords = []string{"password", "passwd", "passphrase", "passcode"}

// fieldKind is how strongly a JSON field, an XML element or a name
// assigned in text names a credential.
func fieldKind(name string) nameKind {
	if !mayBeSecretName(name) {
		return notSecret
	}
	fieldKinds.RLock()
	k, ok := fieldKinds.m[name]
	fieldKinds.RUnlock()
	if ok {
		return k
	}
	k = nameKindOf(name)
	if len(name) <= 64 {
		fieldKinds.Lock()
		if len(fieldKinds.m) < 4096 {
			fieldKinds.m[strings.Clone(name)] = k
		}
		fieldKinds.Unlock()
	}
	return k
}

// fieldKinds remembers fieldKind for the names that pass mayBeSecretName,
// up to 4,096 names of up to 64 bytes: a chat completion's "content"
// passes it at every message, and its words need not be read again.
var fieldKinds = struct {
	sync.RWMutex
	m map[string]nameKind
}{m: map[string]nameKind{}}

// nameKindOf is fieldKind, for a name that passes mayBeSecretName.
func nameKindOf(name string) nameKind {
	words := nameWords(name)
	// A numbered name is its family's: Django's password1 and
	// password2, api_key2, token_2.
	all := len(words)
	for len(words) > 1 && strings.Trim(words[len(words)-1], "0123456789") == "" {
		words = words[:len(words)-1]
	}
	if len(words) == 0 {
		return notSecret
	}
	numbered := len(words) < all
	if t := strings.TrimRight(words[len(words)-1], "0123456789"); len(t) >= 2 && t != words[len(words)-1] {
		words = append(words[:len(words)-1:len(words)-1], t)
		numbered = true
	}
	if len(words) > 1 && slices.Contains(askWords, words[0]) {
		return notSecret
	}
	last := words[len(words)-1]
	qual := ""
	if len(words) > 1 {
		qual = words[len(words)-2]
	}
	n := strings.TrimRight(normalizeName(name), "0123456789")
	switch {
	case slices.Contains(passwordWords, qual) && slices.Contains([]string{"confirmation", "confirm", "again", "repeat", "retype"}, last):
		// password_confirmation holds the password again: judged as a
		// key is, since a form's labels and errors name it too ("doesn't
		// match Password")
		return strongName
	case slices.Contains(passwordWords, last) || slices.ContainsFunc(passwordWords, func(p string) bool { return len(words) == 1 && strings.HasSuffix(last, p) }):
		if numbered {
			return strongName // Django's password1 and password2, also its labels and errors
		}
		return passwordName
	case slices.Contains(strongNames, n):
		return strongName
	case last == "cookie" || last == "cookies":
		return cookieName // Cookie, Set-Cookie, session_cookie
	case last == "mnemonic" || last == "phrase" && slices.Contains(phraseOwners, qual):
		return phraseName
	case last == "url" || last == "uri":
		if slices.Contains(strongNames, normalizeName(strings.Join(words[:len(words)-1], ""))+"url") || qual == "webhook" {
			return strongName
		}
		return notSecret
	case name == "Sid":
		return notSecret // an AWS policy statement's id ("Sid": "AllowS3Read"), as IAM writes it
	case len(words) == 1 && slices.Contains(sessionWords, last) || last == "id" && qual == "session":
		return sessionName
	case slices.Contains(metaWords, last):
		return notSecret
	case last == "secret" || last == "secrets":
		if qual == "" {
			return weakName
		}
		return strongName
	case last == "token":
		switch {
		case qual == "":
			return tokenWord // logprobs' "token" too
		case slices.Contains(tokenLookalikes, qual):
			return notSecret
		}
		return strongName
	case last == "key":
		switch {
		case qual == "":
			return notSecret // a tool argument's "key"
		case slices.Contains(keyLookalikes, qual):
			return notSecret
		}
		return strongName
	case last == "sign":
		return weakName // CB-ACCESS-SIGN; to_sign, --detach-sign name what is signed
	case last == "signature" || last == "sig":
		if qual == "" {
			return weakName
		}
		return strongName
	case last == "credential" || last == "credentials" || last == "creds":
		if qual == "" {
			return weakName
		}
		return strongName
	case last == "csrf" || last == "xsrf":
		return weakName // a form's anti-forgery token: _csrf, X-XSRF
	case last == "authorization" || last == "auth" || last == "pwd" || last == "pass" && slices.Contains(passOwners, qual):
		return weakName // db_pass, SMTP_PASS; first_pass, judge_pass grade
	case last == "assertion" && (qual == "client" || qual == "saml" || qual == "jwt"):
		// OAuth's signed proof of a client (RFC 7521's client_assertion);
		// a bare "assertion" is a test's ({"assertion": "equals"}), and
		// an assertion grant's SAML is found by its shape
		return strongName
	case last == "verifier" && qual == "code" || last == "code" && qual == "device":
		// PKCE's code_verifier, the secret its code_challenge hashes;
		// a device grant's device_code, which the device trades for
		// its tokens (RFC 8628; the user_code is shown to its user)
		return strongName
	case len(words) == 1 && slices.ContainsFunc(compoundSuffixes, func(s string) bool { return strings.HasSuffix(last, s) }):
		return strongName
	case len(words) > 1 && slices.ContainsFunc(compoundSuffixes, func(s string) bool { return strings.HasSuffix(n, s) }) &&
		!slices.Contains(tokenLookalikes, qual) && !slices.Contains(keyLookalikes, qual):
		return strongName // x_apikey, openai_accesstoken
	}
	return notSecret
}

// weakParams are query or form parameters, normalized, that hold
// credentials when their value looks like one, on top of the fields:
// weaker names that a URL uses for keys (?key=, ?token=, ?sig=, OAuth's
// ?code=, OpenWeather's ?appid=).
var weakParams = []string{
	"key", "token", "auth", "sig", "signature", "code", "appid", "appkey", "session", "sessionid", "sid",
	"xamzsignature", "xamzcredential", "xamzsecuritytoken", "xgoogsignature", "xgoogcredential",
	"xgoogapikey", "pass", "secret", "pwd", "apikey", "accesstoken", "jwt", "bearer", "sign",
}

// paramKind is fieldKind for a query or form parameter. A session's id
// is judged as in JSON (sessionValue: a UUID or a typed id is an ordinary
// id), whatever its name.
func paramKind(name string) nameKind {
	k := fieldKind(name)
	if k < sessionName && mayBeSecretName(name) && slices.Contains(weakParams, strings.TrimRight(normalizeName(name), "0123456789")) {
		return weakName // token, token_2, token2
	}
	return k
}

// mayBeSecretName rejects most names without allocating: a secret field's
// or parameter's name, lower-cased, holds one of these fragments.
func mayBeSecretName(name string) bool {
	for i := 0; i+3 <= len(name); i++ {
		if t, ok := trigramIndex(name[i : i+3]); ok && secretTrigrams()[t] {
			return true
		}
	}
	return false
}

// secretTrigrams are the fragments mayBeSecretName looks for, indexed by
// trigramIndex.
var secretTrigrams = sync.OnceValue(func() *[26 * 26 * 26]bool {
	var t [26 * 26 * 26]bool
	for _, f := range []string{"key", "tok", "sec", "pas", "pwd", "aut", "cre", "sig", "cod", "ses", "app", "sid",
		"coo", "dsn", "jwt", "url", "uri", "sas", "hoo", "ear", "str", "con", "ssw", "mne", "phr", "srf", "sse"} {
		i, _ := trigramIndex(f)
		t[i] = true
	}
	return &t
})

// trigramIndex numbers three ASCII letters, in either case.
func trigramIndex(w string) (int, bool) {
	n := 0
	for j := range 3 {
		c := w[j] | 0x20 // lower case, for a letter
		if c < 'a' || c > 'z' {
			return 0, false
		}
		n = n*26 + int(c-'a')
	}
	return n, true
}

// secretField says whether a JSON field of this name may hold a
// credential (see fieldKind).
func secretField(name string) bool { return fieldKind(name) != notSecret }

// secretParam says whether a query or form parameter of this name may
// hold a credential.
func secretParam(name string) bool { return paramKind(name) != notSecret }
