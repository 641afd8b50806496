package secrets

import (
	"encoding/base64"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file says, of a value with a credential's name, whether it looks
// like one: a password or a token rather than an enum word, an
// algorithm's name, a placeholder, a path or a documented example.

// authSchemes precede a credential in a header value; they are kept when
// masking and are no secret on their own.
var authSchemes = []string{"bearer", "basic", "token", "digest", "apikey", "key", "bot", "sharedaccesssignature", "ssws"}

// isRedacted: nothing of v is left once the placeholders ("[REDACTED]",
// "[REDACTED-2]", their URL-encoded forms) and an authorization scheme are
// taken away.
func isRedacted(v string) bool {
	v = stripRedacted(v)
	f := strings.Fields(v)
	return len(f) == 0 || len(f) == 1 && slices.Contains(authSchemes, strings.ToLower(f[0]))
}

// stripRedacted removes the placeholders a Redactor writes from v.
func stripRedacted(v string) string {
	if !strings.Contains(v, "REDACTED") && !strings.Contains(v, "redacted") {
		return v
	}
	var b strings.Builder
	for len(v) > 0 {
		n := placeholderAt(v)
		if n > 0 {
			v = v[n:]
			continue
		}
		b.WriteByte(v[0])
		v = v[1:]
	}
	return b.String()
}

// placeholderAt is the length of the placeholder that v starts with, 0
// for none: "[REDACTED]", "[REDACTED-12]", URL-encoded ("%5BREDACTED%5D")
// or in lower case.
func placeholderAt(v string) int {
	var open, close string
	switch {
	case strings.HasPrefix(v, "["):
		open, close = "[", "]"
	case len(v) >= 3 && strings.EqualFold(v[:3], "%5B"):
		open, close = v[:3], "%5D"
	default:
		return 0
	}
	rest := v[len(open):]
	if len(rest) < 8 || !strings.EqualFold(rest[:8], "REDACTED") {
		return 0
	}
	n := len(open) + 8
	rest = rest[8:]
	if strings.HasPrefix(rest, "-") {
		d := 1
		for d < len(rest) && rest[d] >= '0' && rest[d] <= '9' {
			d++
		}
		if d == 1 {
			return 0
		}
		n += d
		rest = rest[d:]
	}
	if len(rest) < len(close) || !strings.EqualFold(rest[:len(close)], close) {
		return 0
	}
	return n + len(close)
}

// placeholder values stand for a secret without being one: empty, null,
// booleans, numbers, "$OPENAI_API_KEY", "<your key>", "***", "[REDACTED]".
func placeholder(v string) bool {
	ok, _ := placeholderSteps(v, 0)
	return ok
}

// maxUnescapes bounds the decodings (JSON's, then XML's) that placeholder
// tries on a value: <password> written by encoding/json, by XML, or by XML
// twice (&amp;lt;) is a placeholder still; a value escaped more deeply
// is judged as it stands. Decoding once a level for each "&amp;" read the
// value again for each (&amp;amp;amp;…lt; of 256 KiB took 89 s).
const maxUnescapes = 3

// placeholderSteps is placeholder, at unescape depth depth, with the
// bytes it read in decodings and calls (codeCallSteps), for the linear
// time test.
func placeholderSteps(v string, depth int) (bool, int) {
	steps := 0
	switch strings.ToLower(v) {
	case "", "null", "none", "nil", "true", "false", "undefined", "string", "redacted":
		return true, steps
	}
	if depth < maxUnescapes && strings.Contains(v, `\u00`) {
		if u := jsonUnescaped(v); u != v {
			ok, n := placeholderSteps(u, depth+1) // \u003cpassword\u003e, as encoding/json writes <password>
			return ok, steps + len(v) + n
		}
	}
	if depth < maxUnescapes && strings.Contains(v, "&") && strings.Contains(v, ";") {
		if u := xmlUnescaped(v); u != v {
			ok, n := placeholderSteps(u, depth+1) // &lt;your password&gt;, as XML writes <your password>
			return ok, steps + len(v) + n
		}
	}
	call, n := codeCallSteps(v)
	steps += n + len(v)
	call = call && callRunsToEnd(v)
	if usageSyntax(v) || shellReference(v) || namedReference(v) || call {
		return true, steps
	}
	if strings.HasPrefix(v, "$") || strings.HasPrefix(v, "<") || strings.HasPrefix(v, "{{") || strings.HasPrefix(v, "%(") || isRedacted(v) {
		return true, steps
	}
	if strings.Trim(v, "*xX.•#-_ ") == "" || !strings.ContainsFunc(v, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
		return true, steps // masked, or punctuation: `?api_key=", "` read across a string's end
	}
	if bracketedWords(v) || starMask(v) {
		return true, steps // a mask: (none), [hidden], (not set), ***hidden***
	}
	if strings.ContainsAny(v, "${%") && !braced(v) && templateRef.get().MatchString(v) { // each of its forms starts with one
		return true, steps // a template: $VERSION, ${TOKEN}, f"{msg_id}.{ts}", %(key)s
	}
	// A key's prefix then an ellipsis, as documentation elides one:
	// sk-..., ghp_…
	if head := strings.TrimSuffix(strings.TrimSuffix(v, "..."), "…"); len(head) < len(v) && len(head) <= 12 {
		return true, steps
	}
	if validationRules(v) {
		return true, steps
	}
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		return true, steps // a number: a count, a code, an id
	}
	if len(v) >= 10 && v[4] == '-' && timestamp.get().MatchString(v) { // it starts with YYYY-
		return true, steps // a date or a time, as a number is
	}
	// An environment variable's name: OPENAI_API_KEY.
	return strings.IndexFunc(v, func(r rune) bool { return !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') }) < 0 &&
		strings.ContainsRune(v, '_'), steps
}

// codeCall: v is a call of code's or SQL's function with a parameter, a
// placeholder or a name as its first argument, as a query compares or sets
// a password (password = crypt($1, password), md5(?), sha2(:pw, 256),
// hash(pw)), or a call's result as that argument (encode(digest(pw,
// 'sha256'), 'hex')): the function's name reads as one (variableName),
// where a generated password with a parenthesis in it does not (Xk9m(Q2…).
func codeCall(v string) bool {
	ok, _ := codeCallSteps(v)
	return ok && callRunsToEnd(v)
}

// callRunsToEnd: the call v starts with goes on to v's end (v may be cut
// inside it, at a blank or a comma, by the value's reader), or closes
// there, but for blanks and a ";" or "," after it; a password that starts
// as a call goes on past its ")" (hash(pw)!Winter2024, f(x)Zq7x…). Quoted
// arguments are passed over whole, so that a parenthesis in one counts
// for nothing; one pass.
func callRunsToEnd(v string) bool {
	depth := 0
	for i := strings.IndexByte(v, '('); i >= 0 && i < len(v); i++ {
		switch c := v[i]; c {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return strings.TrimRight(v[i+1:], " \t;,") == ""
			}
		case '\'', '"':
			j := strings.IndexByte(v[i+1:], c)
			if j < 0 {
				return true // cut inside a quoted argument
			}
			i += j + 1
		}
	}
	return true // cut inside the call
}

// maxCallDepth bounds the calls within calls that codeCall reads: code
// nests a few (encode(digest(pw, …), …)); f(f(f(… is no code's value.
const maxCallDepth = 8

// codeCallSteps is codeCall with the bytes it read: each call's name
// once, and no more than maxCallDepth calls deep, so that the work is
// linear in v (a search for the first argument's end from each "(" of
// f(f(f(… read the rest of the value again for each: 256 KiB took 36 s).
func codeCallSteps(v string) (bool, int) {
	steps := 0
	for depth := 0; depth < maxCallDepth; depth++ {
		// The function's name: name bytes up to "(".
		open := 0
		for open < len(v) && nameByte(v[open]) {
			open++
		}
		steps += open + 1
		if open == 0 || open >= len(v) || v[open] != '(' || !asciiLetter(v[0]) && v[0] != '_' || !variableName(v[:open]) {
			return false, steps
		}
		arg := v[open+1:]
		switch {
		case arg == "" || strings.IndexByte("?'\")", arg[0]) >= 0:
			return true, steps
		case arg[0] == '$' || arg[0] == ':' || arg[0] == '@':
			return len(arg) > 1 && (asciiLetter(arg[1]) || arg[1] >= '0' && arg[1] <= '9' || arg[1] == '_'), steps
		}
		// The first argument: a name up to "," or ")", or a call.
		e := 0
		for e < len(arg) && nameByte(arg[e]) {
			e++
		}
		steps += e
		if e == 0 || e == len(arg) || !asciiLetter(arg[0]) && arg[0] != '_' {
			return false, steps
		}
		switch arg[e] {
		case ',', ')':
			return variableName(arg[:e]), steps
		case '(':
			v = arg // a call's result: encode(digest(pw, 'sha256'), 'hex')
			continue
		}
		return false, steps
	}
	return false, steps
}

// usageSyntax: v is a usage line's argument, capitals and brackets:
// USER[:PASS], [PASSWORD].
func usageSyntax(v string) bool {
	if !strings.ContainsAny(v, "[]") {
		return false
	}
	return !strings.ContainsFunc(v, func(r rune) bool {
		return !(r >= 'A' && r <= 'Z' || r == '_' || r == '-' || r == ':' || r == '[' || r == ']' || r == '=' || r == '.')
	})
}

// examplePasswords are the passwords that documentation and tutorials
// show, not anyone's secret.
var examplePasswords = []string{"password", "passw0rd", "p@ssw0rd", "p@ssword", "pass", "passwd", "secret", "changeme",
	"hunter2", "letmein", "admin", "root", "test", "123456", "12345678", "qwerty", "mypassword", "mypass", "yourpassword", "s3cret", "auth_string"}

// examplePassword: v is one of examplePasswords, in any case.
func examplePassword(v string) bool {
	return slices.ContainsFunc(examplePasswords, func(p string) bool { return strings.EqualFold(p, v) })
}

// templateRef is a reference that a template or a shell fills in.
var templateRef = lazy(`\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]{2,}|\{[A-Za-z_][A-Za-z0-9_.]*\}|%\([A-Za-z_][A-Za-z0-9_]*\)[sd]`)

// timestamp is an ISO 8601 date, possibly with its time.
var timestamp = lazy(`^[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]+)?)?(?:Z|[+-][0-9]{2}:?[0-9]{2})?)?$`)

// yesNoWords answer a question or pick a mode: "has_password": "yes",
// "credentials": "include", "authorization": "approved".
var yesNoWords = []string{
	"yes", "no", "y", "n", "on", "off", "true", "false", "enabled", "disabled", "enable", "disable", "required",
	"optional", "none", "include", "omit", "same-origin", "auto", "default", "manual", "unset", "set", "empty",
	"hidden", "masked", "present", "missing", "valid", "invalid", "approved", "denied", "granted", "pending",
	"revoked", "expired", "active", "inactive", "ok", "n/a", "na", "unknown", "always", "never", "inherit",
}

func yesNo(v string) bool { return slices.Contains(yesNoWords, strings.ToLower(strings.TrimSpace(v))) }

// algorithmPart is one part of an algorithm's name: HMAC-SHA256, RS256,
// AES-256-GCM, Ed25519, argon2id.
var algorithmPart = lazy(`(?i)^(?:hmac|sha[0-9]*|md[0-9]|hs[0-9]+|rs[0-9]+|es[0-9]+k?|ps[0-9]+|rsa|ecdsa|eddsa|ed[0-9]+|x[0-9]+|aes|gcm|cbc|ctr|ecb|oaep|pss|pkcs[0-9]*|v[0-9]+|blake[0-9]*[bs]?|crc[0-9]*|argon[0-9]*(?:i|d|id)?|bcrypt|scrypt|pbkdf[0-9]*|p[0-9]{3}|secp[0-9]+[kr][0-9]|chacha[0-9]*|poly[0-9]+|xchacha[0-9]*|sig|dsa|none|[0-9]+)$`)

// algorithmName: v names an algorithm (X-Signature-Algorithm: HMAC-SHA256).
func algorithmName(v string) bool {
	if len(v) > 40 || v == "" {
		return false
	}
	for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '_' || r == '/' || r == '+' }) {
		if !algorithmPart.get().MatchString(part) {
			return false
		}
	}
	return true
}

// exampleWords mark the example keys of documentation and the
// placeholders of templates: AWS's AKIAIOSFODNN7EXAMPLE and
// wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY, "your-api-key-here".
var exampleWords = []string{"example", "your", "placeholder", "changeme", "dummy", "xxxxxxxx", "insert", "replace"}

// documentedExample: v, one token, is an example key, not a credential.
func documentedExample(v string) bool {
	if strings.ContainsAny(v, " \t\n@") || strings.Contains(v, "://") {
		return false
	}
	// ASCII's letters lowered byte for byte, so that lower's offsets are
	// v's: strings.ToLower writes an invalid byte as U+FFFD, three bytes
	// (FuzzCommandRules: ConvertTo-SecureString '\xd4XXXXXXXX' sliced v
	// past its end).
	lb := []byte(v)
	for i, c := range lb {
		if c >= 'A' && c <= 'Z' {
			lb[i] = c + 'a' - 'A'
		}
	}
	lower := string(lb)
	for _, w := range exampleWords {
		for at := 0; ; {
			i := strings.Index(lower[at:], w)
			if i < 0 {
				break
			}
			at += i
			// Written as a word is, in one case or capitalized: a
			// generated key holds "yOUR" or "DuMMy" by chance (about once
			// in ten thousand keys), "your", "YOUR" or "Your" hardly ever.
			if seen := v[at : at+len(w)]; seen == w || seen == strings.ToUpper(w) || seen == strings.ToUpper(w[:1])+w[1:] {
				return true
			}
			at++
		}
	}
	return false
}

// wordy: v is words (letters only, at most 24 of them in a single token),
// as an enum, a status or an answer is, not a generated credential.
//
// It reads v once and keeps nothing: the name=value rule asks it of each
// value of a text full of "password = the …" (FieldsFunc's slice of words
// was a fifth of such a text's time).
func wordy(v string) bool {
	if v == "" {
		return false
	}
	word := 0 // the bytes of the word being read
	for _, r := range v {
		switch {
		case r < utf8.RuneSelf && asciiLetter(byte(r)):
			if word++; word > 24 {
				return false
			}
		case unicode.IsDigit(r):
			return false
		case unicode.IsSpace(r) || strings.ContainsRune("-_.,;:!?'\"()/", r):
			word = 0
		case unicode.IsLetter(r):
			if word += utf8.RuneLen(r); word > 24 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// prose: v is text of several words (not "Bearer <token>").
func prose(v string) bool {
	f := strings.Fields(v)
	if len(f) < 2 || len(f) == 2 && slices.Contains(authSchemes, strings.ToLower(f[0])) {
		return false
	}
	return len(f) >= 3 || wordy(f[0]) || wordy(f[1])
}

// random: a token mixes letters and digits, as generated keys do.
func random(s string) bool {
	return strings.ContainsFunc(s, unicode.IsDigit) && strings.ContainsFunc(s, unicode.IsLetter)
}

// credentialShaped: v, the value of a name that may or may not hold a
// credential (secret, token, authorization), looks like one: not a
// placeholder, a yes/no word, an algorithm's name, a documented example,
// words or prose; at least six characters.
func credentialShaped(v string) bool {
	v = strings.TrimSpace(v)
	if f := strings.Fields(v); len(f) == 2 && slices.Contains(authSchemes, strings.ToLower(f[0])) {
		v = f[1]
	}
	return len(v) >= 6 && !placeholder(v) && !yesNo(v) && !algorithmName(v) && !documentedExample(v) && !wordy(v) && !prose(v) && notPath(v)
}

// secretValueOf says whether v, the value of a name of kind k, is a
// credential.
func secretValueOf(k nameKind, v string) bool {
	switch k {
	case passwordName:
		return !placeholder(v) && !yesNo(v) && !examplePassword(v) && len(strings.Trim(v, "'\"` ")) >= 2
	case strongName:
		// A key or a token has no blanks: "your api key" and "the token
		// from the login call" describe one (prose), "Bearer …" is none;
		// nor is it one ordinary word ("Show", "refresh").
		return !placeholder(v) && !yesNo(v) && !algorithmName(v) && !documentedExample(v) && !prose(v) && !ordinaryWord(v)
	case weakName:
		return credentialShaped(v)
	case sessionName:
		return sessionValue(v)
	case tokenWord:
		return len(strings.TrimSpace(v)) >= 16 && random(v) && credentialShaped(v)
	case phraseName:
		return seedPhrase(v)
	case cookieName:
		return cookieValue(v)
	}
	return false
}

// credentialLike is a value in a header guessed from its name that looks
// generated: long enough, one token, letters and digits mixed or long.
// X-Clerk-Auth-Status: signed-out is no credential.
func credentialLike(v string) bool {
	v = strings.TrimSpace(v)
	if f := strings.Fields(v); len(f) == 2 && slices.Contains(authSchemes, strings.ToLower(f[0])) {
		v = f[1]
	}
	if len(v) < 8 || strings.ContainsAny(v, " \t") || placeholder(v) || isRedacted(v) || documentedExample(v) || algorithmName(v) {
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

// base64PrivateKey: s, base64 starting with "-----BEGIN" encoded, decodes
// to a private key's armour (not a certificate's).
func base64PrivateKey(s string) bool {
	head := s[:min(len(s), 64)]
	head = head[:len(head)/4*4]
	d, err := base64.StdEncoding.DecodeString(head)
	return err == nil && strings.Contains(string(d), "PRIVATE KEY")
}

// validationRule is one rule of a validation list: a word, possibly with
// arguments after ":" (Laravel's required|string|min:8, max:64).
var validationRule = lazy(`^[a-z][a-z_]*(?::[A-Za-z0-9_.,-]*)?$`)

// validationRules: v is a list of validation rules joined by "|"
// ('password' => 'required|string|min:8|confirmed'), which describes a
// credential's field and holds none.
func validationRules(v string) bool {
	if !strings.Contains(v, "|") {
		return false
	}
	for _, r := range strings.Split(v, "|") {
		if !validationRule.get().MatchString(r) {
			return false
		}
	}
	return true
}

// ordinaryWord: v is one short word as prose writes it (lower case,
// capitalized or in capitals, up to ten letters: "Show", "refresh", "OK"),
// not the letters of a generated token, which change case within and run
// longer.
func ordinaryWord(v string) bool {
	if v == "" || len(v) > 10 || strings.ContainsFunc(v, func(r rune) bool { return !unicode.IsLetter(r) }) {
		return false
	}
	_, size := utf8.DecodeRuneInString(v)
	return !strings.ContainsFunc(v[size:], unicode.IsUpper) || !strings.ContainsFunc(v, unicode.IsLower)
}

// seedPhrase: v is a wallet's seed (BIP 39): 12, 15, 18, 21 or 24 words
// of three to eight lower-case letters.
func seedPhrase(v string) bool {
	words := strings.Fields(v)
	if len(words) < 12 || len(words) > 24 || len(words)%3 != 0 {
		return false
	}
	for _, w := range words {
		if len(w) < 3 || len(w) > 8 || strings.ContainsFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) {
			return false
		}
	}
	return true
}

// cookieAttributeNames are the attributes of a Set-Cookie line, no
// cookies.
var cookieAttributeNames = []string{"path", "domain", "expires", "max-age", "samesite", "priority", "version", "comment"}

// cookieValue: v, a cookie's value or a cookie line's (`a=1; sid=…`,
// `sid=…; Path=/; HttpOnly`), holds a cookie whose value looks like a
// credential, and is then one read whole (no prose, whatever its blanks):
// theme=dark; Path=/api/v1 is none.
func cookieValue(v string) bool {
	if !strings.Contains(v, "=") {
		return credentialShaped(v)
	}
	for c := range strings.SplitSeq(v, ";") {
		name, val, ok := strings.Cut(c, "=")
		if ok && !slices.Contains(cookieAttributeNames, strings.ToLower(strings.TrimSpace(name))) && credentialShaped(val) {
			return true
		}
	}
	return false
}

// notAlgorithm: v is no algorithm's name (AWS4-HMAC-SHA256 starts an
// Authorization header's value as a scheme does).
func notAlgorithm(v string) bool {
	return !algorithmName(v) && !strings.Contains(strings.ToUpper(v), "HMAC-SHA")
}

// notPath: v, the word after an authorization scheme, is no resource
// path: lower-case segments joined by "/", the first a word ("Token
// auth_tokens/42" in prose about a REST API, api/v1/tokens). A token in
// base64 has upper-case letters, and never both "/" and "_".
func notPath(v string) bool {
	i := strings.IndexByte(v, '/')
	if i < 2 || strings.ContainsFunc(v[:i], func(r rune) bool { return !(r >= 'a' && r <= 'z' || r == '_' || r == '-') }) {
		return true
	}
	return !strings.Contains(v, "_") && strings.ContainsFunc(v, func(r rune) bool { return r >= 'A' && r <= 'Z' })
}

// tokenByte is a byte of base64url, as tokens are written.
func tokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// typedID is an id that says what it identifies: a lower-case word of
// three to twelve letters and "_" or "-" (sess_…, conv-…, chatcmpl-…), or
// Twilio's two capitals and 32 hex digits (SM…, CA…). A generated token of
// base64url starts so by chance about once in 300.
var typedID = lazy(`^(?:[a-z]{3,12}[_-][A-Za-z0-9_-]{8,}|[A-Z]{2}[0-9a-f]{32})$`)

// uuid is a UUID in its usual spelling.
var uuid = lazy(`^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$`)

// sessionValue: v, a session's id, is its credential: generated by a
// server (16 characters or more, one token, letters and digits mixed,
// credentialShaped), not an ordinary id that a client made or an API
// names things by (a UUID, a typed id, a Windows SID, an AWS policy
// statement id).
func sessionValue(v string) bool {
	v = strings.TrimSpace(v)
	return len(v) >= 16 && random(v) && !strings.ContainsAny(v, " \t") && !uuid.get().MatchString(v) &&
		!typedID.get().MatchString(v) && !securityID.get().MatchString(v) && !timeID.get().MatchString(v) && credentialShaped(v)
}

// timeID is an id that starts with the time it was made (20231127T053000…),
// a batch's or a job's.
var timeID = lazy(`^(?:19|20)[0-9]{6}T[0-9]{4}`)

// proseSessionValue: v, a session's id named in a sentence or a log line
// (… sid=…), is one: a sessionValue that is not made of parts joined by
// "_" (dQw4w9WgXcQ_xYz12) nor hexadecimal under 32 digits, as a trace's,
// a span's or a process's id is (sid=1a2b3c4d5e6f7a8b).
func proseSessionValue(v string) bool {
	v = strings.TrimSpace(v)
	return sessionValue(v) && !strings.Contains(v, "_") && !(len(v) < 32 && hexDigits(v))
}

// securityID is what else "SID" names: a Windows security identifier
// (S-1-5-21-…) or an AWS policy statement's id (Stmt1700000000000, as the
// console writes one).
var securityID = lazy(`^(?:S-1-[0-9]+(?:-[0-9]+)+|Stmt[0-9]+)$`)

func hexDigits(s string) bool {
	for _, c := range []byte(s) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// jsonUnescaped is v with JSON's escapes decoded (\u003c, \", \\), as
// encoding/json writes <, >, & and quotes in a string; v itself when it
// has none or a broken one.
func jsonUnescaped(v string) string {
	if !strings.Contains(v, `\`) {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] != '\\' || i+1 >= len(v) {
			b.WriteByte(v[i])
			continue
		}
		switch c := v[i+1]; c {
		case '"', '\\', '/', '\'':
			b.WriteByte(c)
			i++
		case 'u':
			if i+6 <= len(v) {
				if n, err := strconv.ParseUint(v[i+2:i+6], 16, 16); err == nil {
					b.WriteRune(rune(n))
					i += 5
					continue
				}
			}
			b.WriteByte(v[i])
		default:
			b.WriteByte(v[i])
		}
	}
	return b.String()
}
