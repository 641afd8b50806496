package secrets

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file says which names and which shapes of value are credentials.
// The Redactor removes what they describe and Check reports it, from the
// same tables, so that what the recorder stores always passes the check.

// credentialHeaders never reach a cassette file, whatever the rules and
// whatever their value.
var credentialHeaders = []string{
	"Authorization", "Proxy-Authorization", "Api-Key", "X-Api-Key",
	"OpenAI-Organization", "OpenAI-Project", "Cookie", "Set-Cookie",
	"Ocp-Apim-Subscription-Key", "X-RapidAPI-Key", "X-Goog-Api-Key",
}

// notCredentialHeaders say "key" or "token" without holding a credential:
// one-time nonces and rate-limit counters.
var notCredentialHeaders = []string{"Idempotency-Key", "Sec-Websocket-Key", "Sec-Websocket-Accept"}

// headerWords are the words of a header name (split at "-" and "_") that
// make it a credential header: X-Auth-Token, X-Session-Id, X-Amz-Signature.
// "tokens" is not among them: rate-limit headers count tokens.
var headerWords = []string{
	"key", "apikey", "token", "secret", "auth", "authorization", "signature", "session", "sessionid",
	"password", "passwd", "credential", "credentials", "cookie",
}

// headerWordSuffixes make a compound word a credential word: Authtoken,
// Apikey, Clientsecret.
var headerWordSuffixes = []string{"apikey", "accesskey", "authkey", "token", "secret", "password", "signature"}

// credentialHeaderName tells a header that carries a credential by its
// name's words. X-Ratelimit-Remaining-Tokens and Www-Authenticate do not.
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
	for _, w := range strings.FieldsFunc(lower, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
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

// secretFieldSuffixes: a JSON field (or parameter) whose normalized name
// ends with one of these holds a secret when it holds a string. "token"
// and "key" alone are not among them: chat completions use them for other
// things (logprobs' "token", a tool argument's "key", "sort_key").
var secretFieldSuffixes = []string{
	"apikey", "apitoken", "apisecret", "accesstoken", "accesskey", "authkey", "authtoken", "refreshtoken",
	"idtoken", "sessiontoken", "bearertoken", "clienttoken", "clientsecret", "secretkey", "privatekey",
	"password", "passwd", "passphrase", "subscriptionkey", "secretaccesskey", "webhooksecret", "signingsecret",
}

// secretFieldNames are whole normalized names of secret fields.
var secretFieldNames = []string{"secret", "authorization", "pwd", "credentials", "credential"}

// secretParams are query or form parameters, normalized, that hold
// credentials on top of the secret fields: weaker names that a URL uses
// for keys (?key=, ?token=, ?sig=, OAuth's ?code=, OpenWeather's ?appid=).
var secretParams = []string{
	"key", "token", "auth", "sig", "signature", "code", "appid", "appkey", "session", "sessionid", "sid",
	"xamzsignature", "xamzcredential", "xamzsecuritytoken", "xgoogsignature", "xgoogcredential",
	"xgoogapikey", "pass",
}

// mayBeSecretName rejects most names without allocating: a secret field's
// or parameter's name, lower-cased, holds one of these three-letter
// fragments.
func mayBeSecretName(name string) bool {
	var w [3]byte
	for i := 0; i+3 <= len(name); i++ {
		for j := range 3 {
			c := name[i+j]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			w[j] = c
		}
		switch string(w[:]) {
		case "key", "tok", "sec", "pas", "pwd", "aut", "cre", "sig", "cod", "ses", "app", "sid", "coo":
			return true
		}
	}
	return false
}

func secretField(name string) bool {
	if !mayBeSecretName(name) {
		return false
	}
	n := normalizeName(name)
	if slices.Contains(secretFieldNames, n) {
		return true
	}
	for _, s := range secretFieldSuffixes {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	return false
}

func secretParam(name string) bool {
	if !mayBeSecretName(name) {
		return false
	}
	return slices.Contains(secretParams, normalizeName(name)) || secretField(name)
}

// keyFormat is a credential recognisable by its shape.
type keyFormat struct {
	name  string
	hints []string
	re    *regexp.Regexp // the secret is the last group, or the whole match
	// plain: the secret need not mix letters and digits (a private key's
	// armour).
	plain bool
}

// keyFormats are credentials recognisable by their shape. Each token must
// also mix letters and digits (see random), which keeps words such as
// "sk-learn-pipeline-docs" out. A format's regexp runs only on text holding
// one of its hints, which makes a clean body quick to scan.
var keyFormats = []keyFormat{
	{name: "private key", hints: []string{"PRIVATE KEY"}, plain: true,
		re: regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----(?:(?:[A-Za-z0-9+/=\s:,-]|\\[nr])*?-----END [A-Z ]*PRIVATE KEY-----|(?:[A-Za-z0-9+/=\r\n]|\\[nr])*)`)},
	{name: "Anthropic API key", hints: []string{"sk-ant-"}, re: regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,}`)},
	{name: "OpenRouter API key", hints: []string{"sk-or-"}, re: regexp.MustCompile(`\bsk-or-(?:v1-)?[A-Za-z0-9]{20,}`)},
	{name: "OpenAI API key", hints: []string{"sk-"}, re: regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{20,}`)},
	{name: "Stripe key", hints: []string{"sk_live_", "rk_live_", "sk_test_"}, re: regexp.MustCompile(`\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}`)},
	{name: "AWS access key ID", hints: []string{"AKIA", "ASIA", "ABIA", "ACCA"}, re: regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b`)},
	{name: "GitHub token", hints: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, re: regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{20,})`)},
	{name: "Google API key", hints: []string{"AIza"}, re: regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`)},
	{name: "Slack token", hints: []string{"xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-"}, re: regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`)},
	{name: "JWT", hints: []string{"eyJ"}, re: regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*`)},
	{name: "Telegram bot token", re: regexp.MustCompile(`bot([0-9]{6,12}:[A-Za-z0-9_-]{30,})`)},
	{name: "bearer token", re: regexp.MustCompile(`(?i)\bbearer\s+([A-Za-z0-9._~+/-]{16,}=*)`)},
}

// anchors are the bytes that formatsIn stops at: each hint holds one
// (sk-, ghp_, AKIA, eyJ, PRIVATE KEY) and they are rare in prose and JSON,
// so that one pass over a clean body costs about a nanosecond a byte.
const anchors = "-_PAJ"

// hintsAt indexes the formats' hints by their first anchor byte.
var hintsAt = func() (t [256][]formatHint) {
	for i, f := range keyFormats {
		for _, h := range f.hints {
			if a := strings.IndexAny(h, anchors); a >= 0 {
				t[h[a]] = append(t[h[a]], formatHint{h, a, i})
			}
		}
	}
	return t
}()

type formatHint struct {
	text   string
	offset int // of the anchor byte in text
	format int
}

// formatsIn is the set of keyFormats (bit i for keyFormats[i]) whose hints
// s holds: those with an anchor byte, found by a vectorized search for
// each anchor, the bearer and bot tokens by their own tests.
func formatsIn(s string) uint64 {
	var set uint64
	for a := 0; a < len(anchors); a++ {
		c := anchors[a]
		for i := strings.IndexByte(s, c); i >= 0; {
			for _, h := range hintsAt[c] {
				if i >= h.offset && strings.HasPrefix(s[i-h.offset:], h.text) {
					set |= 1 << h.format
				}
			}
			next := strings.IndexByte(s[i+1:], c)
			if next < 0 {
				break
			}
			i += 1 + next
		}
	}
	if strings.Contains(s, "bot") {
		set |= 1 << telegramFormat
	}
	if strings.Contains(s, "earer") || strings.Contains(s, "EARER") {
		set |= 1 << bearerFormat
	}
	return set
}

func containsAny(s string, subs []string) bool {
	return slices.ContainsFunc(subs, func(sub string) bool { return strings.Contains(s, sub) })
}

// The formats that formatsIn tells by their own tests.
var (
	telegramFormat = slices.IndexFunc(keyFormats, func(f keyFormat) bool { return f.name == "Telegram bot token" })
	bearerFormat   = slices.IndexFunc(keyFormats, func(f keyFormat) bool { return f.name == "bearer token" })
)

// assignment is a value assigned to a secret name in a text: `"api_key":
// "value"` (quotes possibly escaped, as in JSON inside a JSON string),
// `api_key=value`, or a weaker name after "?" or "&", as in a URL inside
// text: `?token=value`, `&sig=value`.
type assignment struct {
	name       string
	start, end int // the value's span
}

func nameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}

// assignments finds the assignments to secret names in s, in one pass over
// its "=" and ":"; keyed says whether s has a JSON key with a secret name,
// whatever its value.
func assignments(s string) (out []assignment, keyed bool) {
	// Each of "=" and ":" is found by a vectorized search.
	for i := strings.IndexByte(s, '='); i >= 0; {
		j := i
		for j > 0 && nameByte(s[j-1]) {
			j--
		}
		k := i + 1
		for k < len(s) && !strings.ContainsRune("&\"'<> \t\r\n\\#;,", rune(s[k])) {
			k++
		}
		name := s[j:i]
		if name != "" && k > i+1 && (secretField(name) || j > 0 && (s[j-1] == '?' || s[j-1] == '&') && secretParam(name)) {
			out = append(out, assignment{name, i + 1, k})
		}
		next := strings.IndexByte(s[i+1:], '=')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	for i := strings.IndexByte(s, ':'); i >= 0; {
		if a, key, ok := jsonAssignment(s, i); ok {
			keyed = true
			if a.end > a.start {
				out = append(out, a)
			}
		} else if key {
			keyed = true
		}
		next := strings.IndexByte(s[i+1:], ':')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return out, keyed
}

// jsonAssignment reads `"name": "value"` around the ":" at i (quotes
// possibly escaped): key says the name is a secret one, ok that a string
// value follows.
func jsonAssignment(s string, i int) (a assignment, key, ok bool) {
	j := i
	for j > 0 && s[j-1] == ' ' {
		j--
	}
	if j < 2 || s[j-1] != '"' {
		return a, false, false
	}
	q := strings.LastIndexByte(s[:j-1], '"')
	if q < 0 {
		return a, false, false
	}
	name := strings.TrimRight(s[q+1:j-1], "\\")
	if !secretField(name) {
		return a, false, false
	}
	k := i + 1
	for k < len(s) && (s[k] == ' ' || s[k] == '\\') {
		k++
	}
	if k >= len(s) || s[k] != '"' {
		return a, true, false
	}
	start := k + 1
	for k = start; k < len(s) && s[k] != '"' && s[k] != '\\' && s[k] != ' ' && s[k] != '\n'; k++ {
	}
	return assignment{name, start, k}, true, true
}

// authSchemes precede a credential in a header value; they are kept when
// masking and are no secret on their own.
var authSchemes = []string{"bearer", "basic", "token", "digest", "apikey", "key", "bot", "sharedaccesssignature"}

// isRedacted: nothing of v is left once "[REDACTED]" (or its URL-encoded
// form) and an authorization scheme are taken away.
func isRedacted(v string) bool {
	if strings.Contains(v, "REDACTED") || strings.Contains(v, "redacted") {
		v = redactedForms.Replace(v)
	}
	f := strings.Fields(v)
	return len(f) == 0 || len(f) == 1 && slices.Contains(authSchemes, strings.ToLower(f[0]))
}

var redactedForms = strings.NewReplacer(Redacted, "", "%5BREDACTED%5D", "", "%5Bredacted%5D", "")

// placeholder values stand for a secret without being one: empty, null,
// booleans, numbers, "$OPENAI_API_KEY", "<your key>", "***".
func placeholder(v string) bool {
	switch strings.ToLower(v) {
	case "", "null", "none", "nil", "true", "false", "undefined", "string", "redacted":
		return true
	}
	if strings.HasPrefix(v, "$") || strings.HasPrefix(v, "<") || strings.HasPrefix(v, "{{") || strings.Contains(v, Redacted) {
		return true
	}
	if strings.Trim(v, "*xX.•") == "" {
		return true
	}
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		return true // a number: a count, a code, an id
	}
	// An environment variable's name: OPENAI_API_KEY.
	return strings.IndexFunc(v, func(r rune) bool { return !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') }) < 0 &&
		strings.ContainsRune(v, '_')
}

// random: a token mixes letters and digits, as generated keys do.
func random(s string) bool {
	return strings.ContainsFunc(s, unicode.IsDigit) && strings.ContainsFunc(s, unicode.IsLetter)
}

// credentialLike is a value in a header guessed from its name that looks
// generated: long enough, one token, letters and digits mixed or long.
// X-Clerk-Auth-Status: signed-out is no credential.
func credentialLike(v string) bool {
	v = strings.TrimSpace(v)
	if f := strings.Fields(v); len(f) == 2 && slices.Contains(authSchemes, strings.ToLower(f[0])) {
		v = f[1]
	}
	if len(v) < 8 || strings.ContainsAny(v, " \t") || placeholder(v) || isRedacted(v) {
		return false
	}
	return random(v) || len(v) >= 24
}

// mask shows the start of a secret: four characters, fewer for a short one,
// so that at most a third of it is ever printed. An authorization scheme
// ("Bearer") stays whole.
func mask(v string) string {
	v = strings.TrimSpace(v)
	if f := strings.Fields(v); len(f) > 1 && slices.Contains(authSchemes, strings.ToLower(f[0])) {
		return strconv.Quote(f[0] + " " + maskStart(strings.TrimSpace(v[len(f[0]):])))
	}
	return strconv.Quote(maskStart(v))
}

func maskStart(v string) string {
	keep := 4
	if n := utf8.RuneCountInString(v); n < 12 {
		keep = n / 3
	}
	for i := range v {
		if keep == 0 {
			return v[:i] + "…"
		}
		keep--
	}
	return v + "…"
}
