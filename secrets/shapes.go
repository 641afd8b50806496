package secrets

import (
	"encoding/base64"
	"iter"
	"math/bits"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// This file says which values are credentials by their shape: keys
// recognisable anywhere (a provider's prefix, a fixed length and alphabet),
// found by literal and then checked by their regexp. values.go judges a
// value that has a credential's name.

// keyFormat is a credential recognisable by its shape.
type keyFormat struct {
	name  string
	hints []string
	// fold is, for a format matched in any case, a word of lower-case
	// ASCII letters (none that Unicode folds with another: not k or s)
	// that every text it matches holds in some case, looked for so
	// (containsFold) in place of hints: an HTTP auth scheme is
	// case-insensitive, and "BeAreR" held neither of bearer's old hints.
	fold string
	re   *lazyRegexp // the secret is the last group, or the whole match
	// plain: the secret need not mix letters and digits (a private key's
	// armour, a connection string's password).
	plain bool
	// valid, when set, must hold for a match to be a secret.
	valid func(secret string) bool
	// find, when set, finds what re matches, faster: re then only
	// documents it (and FuzzFormatHints holds the hints to it).
	find func(s string) [][]int
}

// matches are the submatch indexes of f's matches in s, as
// regexp.FindAllStringSubmatchIndex gives them.
func (f *keyFormat) matches(s string) [][]int {
	if f.find != nil {
		return f.find(s)
	}
	return f.re.get().FindAllStringSubmatchIndex(s, -1)
}

// lazyRegexp is a regexp compiled on its first use, so that a program
// that never scrubs (agentcheck eval of a dataset) does not compile the
// key formats' sixty regexps when it starts: they were 4-9 ms of the
// CLI's 33 ms start (GODEBUG=inittrace=1).
type lazyRegexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

func lazy(src string) *lazyRegexp { return &lazyRegexp{src: src} }

// get is the compiled regexp.
func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

// prefixed is a key of a platform that marks its keys with a prefix:
// prefix, then at least n characters of the alphabet [A-Za-z0-9_-].
func prefixed(name string, n int, prefixes ...string) keyFormat {
	return startsWith(name, `[A-Za-z0-9_-]{`+strconv.Itoa(n)+`,}`, prefixes...)
}

// withValid is f with valid set.
func withValid(f keyFormat, valid func(secret string) bool) keyFormat {
	f.valid = valid
	return f
}

// generated: s reads as base64url drawn at random rather than words:
// upper- and lower-case letters and two digits or more, no run of eight
// lower-case letters (ProdDatabaseCluster, events-for-guild) and at most
// three "-" (Fix-Login-Redirect-When-…). About one random 43-character
// key in forty fails it and is kept (one 68-character Discord token in
// twenty, found under discord.com all the same).
func generated(s string) bool {
	upper, digits, run, longest := 0, 0, 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z':
			run++
			longest = max(longest, run)
			continue
		case 'A' <= c && c <= 'Z':
			upper++
		case '0' <= c && c <= '9':
			digits++
		}
		run = 0
	}
	return upper > 0 && digits >= 2 && longest < 8 && longest > 0 && strings.Count(s, "-") <= 3
}

// startsWith is a key that starts with one of lits, at a word boundary,
// then matches rest: its regexp is \b(?:lit|lit…)rest, and its hints are
// lits. Its find looks for the literals (a vectorized search) and runs the
// regexp, anchored, only where one is: the regexp alone, whose \b gives it
// no literal prefix to skip to, steps through every byte of the text (15
// ms for the 700 KB of a 512 KiB file in base64, for each such format
// whose hint it holds).
func startsWith(name, rest string, lits ...string) keyFormat {
	quoted := make([]string, len(lits))
	for i, l := range lits {
		quoted[i] = regexp.QuoteMeta(l)
	}
	alt := `(?:` + strings.Join(quoted, "|") + `)` + rest
	anchored := lazy(`^` + alt)
	return keyFormat{name: name, hints: lits, re: lazy(`\b` + alt), find: func(s string) [][]int {
		return literalMatches(s, lits, anchored.get())
	}}
}

// literalMatches is what \b(?:lit|lit…)rest matches in s, as
// regexp.FindAllStringSubmatchIndex gives it, when anchored is
// ^(?:lit|lit…)rest: a match starts where a literal does and \b holds, and
// there it is anchored's match (the alternatives tried in the same order,
// the text after the start the same); the leftmost such start first, the
// next from the end of the last match.
func literalMatches(s string, lits []string, anchored *regexp.Regexp) [][]int {
	var out [][]int
	next := make([]int, len(lits)) // where lits[i] is next at or after pos, -1 nowhere, -2 not looked for
	for i := range next {
		next[i] = -2
	}
	for pos := 0; ; {
		at := -1
		for i, l := range lits {
			if next[i] == -2 || next[i] >= 0 && next[i] < pos {
				next[i] = -1
				if j := strings.Index(s[pos:], l); j >= 0 {
					next[i] = pos + j
				}
			}
			if next[i] >= 0 && (at < 0 || next[i] < at) {
				at = next[i]
			}
		}
		if at < 0 {
			return out
		}
		if (at > 0 && isWordByte(s[at-1])) != isWordByte(s[at]) { // \b
			if m := anchored.FindStringSubmatchIndex(s[at:]); m != nil {
				for g := range m {
					if m[g] >= 0 {
						m[g] += at
					}
				}
				out = append(out, m)
				pos = max(m[1], at+1)
				continue
			}
		}
		pos = at + 1
	}
}

// isWordByte is whether c is a character \b counts as a word's: an ASCII
// letter, digit or "_" (a byte of a multi-byte character, or an invalid
// one, is none, as the rune it is part of is none).
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// keyFormats are credentials recognisable by their shape: the keys of the
// model platforms (OpenAI, Anthropic, OpenRouter, Google, Hugging Face,
// Groq, xAI, Perplexity, Replicate, Fireworks, Cerebras, Nvidia, Jina,
// Tavily, Pinecone, LangSmith, ...), of developer platforms (GitHub,
// GitLab, npm, PyPI, Docker Hub, DigitalOcean, Vault, Databricks, Sentry,
// Grafana, Doppler, ...), of SaaS (Stripe, Slack, SendGrid, Shopify,
// Atlassian, Linear, Notion, Postman, Mailgun, Brevo, Telegram, Meta,
// ...), webhook URLs
// that carry their own secret (Slack, Discord), cloud keys (AWS key IDs,
// Google OAuth access tokens and client secrets, Azure AD client secrets),
// JWTs, bearer tokens, private keys and the password of a connection
// string (postgres://user:PASSWORD@host). Each token but the plain ones
// must also mix letters and digits (see random), which keeps words such as
// "sk-learn-pipeline-docs" out, and none may be a documented example
// (AKIAIOSFODNN7EXAMPLE). A format's regexp runs only on text holding one
// of its hints, which makes a clean body quick to scan.
var keyFormats = []keyFormat{
	{name: "private key", hints: []string{"PRIVATE KEY"}, plain: true, valid: keyBody,
		// The body's "-" only before a letter, a digit or a blank (DEK-Info:
		// AES-128-CBC, Comment: GPGTools - https…), so that
		// it ends at the next "-----": from a BEGIN with no END the search
		// read every line after it, each BEGIN again (256 KiB of BEGIN
		// lines took 54 s). A key has a body (keyBody): prose about the
		// armour ("the file must start with -----BEGIN PRIVATE
		// KEY-----") has none.
		re: lazy(`-----BEGIN [A-Z ]*PRIVATE KEY(?: BLOCK)?-----(?:(?:[A-Za-z0-9+/=\s:,.()]|-[A-Za-z0-9 ]|\\+[nr])*?-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----|(?:[A-Za-z0-9+/=\r\n]|\\+[nr])*)`)},
	// A private key in base64, as Kubernetes writes its files
	// (client-key-data, a Secret's tls.key): "-----BEGIN" encoded, up to
	// the end of the run, when what it decodes to is a private key.
	{name: "private key in base64", hints: []string{"LS0tLS1CRUdJTi"}, plain: true, valid: base64PrivateKey,
		re: lazy(`LS0tLS1CRUdJTi[A-Za-z0-9+/]*={0,2}`)},
	{name: "Age secret key", hints: []string{"AGE-SECRET-KEY-1"}, re: lazy(`AGE-SECRET-KEY-1[A-Z0-9]{50,}`)},
	startsWith("Anthropic API key", `[A-Za-z0-9_-]{20,}`, "sk-ant-"),
	startsWith("OpenRouter API key", `(?:v1-)?[A-Za-z0-9]{20,}`, "sk-or-"),
	startsWith("OpenAI API key", `[A-Za-z0-9_-]{20,}`, "sk-"),
	{name: "Stripe key", hints: []string{"sk_live_", "rk_live_", "sk_test_", "rk_test_", "whsec_"},
		re: lazy(`\b(?:[sr]k_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9+/=]{24,})`)},
	startsWith("ElevenLabs API key", `[a-f0-9]{40,}\b`, "sk_"),
	startsWith("AWS access key ID", `[0-9A-Z]{16}\b`, "AKIA", "ASIA", "ABIA", "ACCA"),
	// An AWS secret access key next to its key ID, with no name between
	// (the console's credentials CSV, "id AKIA… secret …" in prose): forty
	// characters of base64 within 80 of the ID, on its line; in XML or
	// JSON a name says what it is.
	{name: "AWS secret access key", hints: []string{"AKIA", "ASIA"},
		re: lazy(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b[^\n<>"]{0,80}?(?:^|[^A-Za-z0-9/+])([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)`)},
	{name: "GitHub token", hints: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, re: lazy(`\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{20,})`)},
	{name: "GitLab token", hints: []string{"glpat-", "gldt-", "glptt-", "glrt-", "glsoat-", "glcbt-", "glimt-", "gloas-", "glffct-", "glagent-", "GR1348941"},
		re: lazy(`\b(?:gl(?:pat|dt|ptt|rt|soat|cbt|imt|oas|ffct|agent)-|GR1348941)[A-Za-z0-9_-]{20,}`)},
	{name: "Google API key", hints: []string{"AIza"}, re: lazy(`\bAIza[0-9A-Za-z_-]{35}`)},
	{name: "Google OAuth token", hints: []string{"ya29."}, re: lazy(`\bya29\.[A-Za-z0-9_-]{20,}`)},
	{name: "Google OAuth client secret", hints: []string{"GOCSPX-"}, re: lazy(`\bGOCSPX-[A-Za-z0-9_-]{24,}`)},
	{name: "Azure AD client secret", hints: []string{"Q~"}, re: lazy(`\b[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}`)},
	{name: "Slack token", hints: []string{"xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-", "xoxe-", "xapp-"}, re: lazy(`\b(?:xox[abposre](?:\.xox[abposre])?|xapp)-[A-Za-z0-9-]{10,}`)},
	{name: "Slack webhook URL", hints: []string{"hooks.slack.com/"}, re: lazy(`hooks\.slack\.com/((?:services|workflows|triggers)/[A-Za-z0-9_/-]{20,})`)},
	// plain: the path before the secret reads as a run of base64 (inBlob).
	{name: "Zapier webhook URL", hints: []string{"hooks.zapier.com/"}, plain: true, re: lazy(`hooks\.zapier\.com/hooks/catch/([0-9]+/[A-Za-z0-9]{5,})`)},
	{name: "Microsoft Teams webhook URL", hints: []string{"webhook.office.com/", "outlook.office.com/webhook"},
		re: lazy(`(?:webhook\.office\.com/webhookb2|outlook\.office\.com/webhook)/([A-Za-z0-9@/_-]{40,})`)},
	// A blockchain RPC endpoint whose path is the project's key.
	{name: "RPC endpoint key", hints: []string{"alchemy.com/v2/", "infura.io/v3/", "quiknode.pro/"},
		re: lazy(`(?:alchemy\.com/v2|infura\.io/v3|quiknode\.pro)/([A-Za-z0-9_-]{20,})`)},
	{name: "Discord webhook URL", hints: []string{"/api/webhooks/"}, re: lazy(`discord(?:app)?\.com/api/webhooks/([0-9]{5,}/[A-Za-z0-9_-]{20,})`)},
	// The same webhooks' paths on any host, where the path alone is
	// theirs: a test's stand-in server for Slack or Discord gets them
	// (http://127.0.0.1:8080/services/T…/B…/…). Slack's team and bot ids
	// and 24-character secret; Discord's 17 to 20 digit id and secret
	// (plain, as Zapier's: the path before it reads as base64).
	{name: "Slack webhook path", hints: []string{"/services/T"}, re: lazy(`/services/(T[A-Z0-9]{8,12}/B[A-Z0-9]{8,12}/[A-Za-z0-9]{24})\b`)},
	{name: "Discord webhook path", hints: []string{"/api/webhooks/"}, plain: true, valid: generated,
		re: lazy(`/api/webhooks/([0-9]{17,20}/[A-Za-z0-9_-]{60,})`)},
	// A SAML assertion or response in base64 (<saml:… is PHNhbWw6…,
	// <samlp:… PHNhbWxwO…), as an
	// assertion grant (RFC 7522) or a browser's POST sends it: its
	// bearer's credential.
	{name: "SAML assertion in base64", hints: []string{"PHNhbWw", "PHNhbWx"}, plain: true, re: lazy(`PHNhbW[wx][A-Za-z0-9+/%]{40,}={0,2}`)},
	{name: "SendGrid API key", hints: []string{"SG."}, re: lazy(`\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`)},
	{name: "Mapbox secret token", hints: []string{"sk.eyJ"}, re: lazy(`\bsk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{10,}`)},
	{name: "DigitalOcean token", hints: []string{"dop_v1_", "doo_v1_", "dor_v1_"}, re: lazy(`\bdo[opr]_v1_[a-f0-9]{64}\b`)},
	{name: "HashiCorp Vault token", hints: []string{"hvs.", "hvb."}, re: lazy(`\bhv[sb]\.[A-Za-z0-9_-]{24,}`)},
	{name: "Doppler token", hints: []string{"dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim.", "dp.audit."}, re: lazy(`\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{30,}`)},
	{name: "Databricks token", hints: []string{"dapi"}, re: lazy(`\bdapi[a-f0-9]{32}(?:-[0-9])?\b`)},
	{name: "Mailgun API key", hints: []string{"key-"}, re: lazy(`\bkey-[a-f0-9]{32}\b`)},
	{name: "Shopify token", hints: []string{"shpat_", "shpss_", "shpca_", "shppa_"}, re: lazy(`\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}`)},
	{name: "Notion token", hints: []string{"secret_", "ntn_"}, re: lazy(`\b(?:secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{40,})\b`)},
	prefixed("Hugging Face token", 30, "hf_", "api_org_"),
	prefixed("Groq API key", 30, "gsk_"),
	prefixed("xAI API key", 30, "xai-"),
	prefixed("Perplexity API key", 30, "pplx-"),
	prefixed("Replicate API token", 30, "r8_"),
	prefixed("npm token", 30, "npm_"),
	prefixed("PyPI token", 50, "pypi-AgE"),
	prefixed("Docker Hub token", 20, "dckr_pat_", "dckr_oat_"),
	prefixed("Fireworks API key", 20, "fw_"),
	prefixed("Cerebras API key", 30, "csk-"),
	prefixed("Nvidia API key", 30, "nvapi-"),
	prefixed("Jina API key", 30, "jina_"),
	prefixed("Tavily API key", 20, "tvly-"),
	prefixed("Together AI API key", 30, "tgp_v1_"),
	// Voyage AI's "pa-" and 43 characters of base64url, generated: a
	// URL's slug (pa-state-budget-2024-…), a branch's or an issue's
	// Title-Case words stay.
	withValid(startsWith("Voyage AI API key", `[A-Za-z0-9_-]{43}\b`, "pa-"), generated),
	prefixed("Firecrawl API key", 30, "fc-"),
	prefixed("Pinecone API key", 30, "pcsk_"),
	prefixed("LangSmith API key", 30, "lsv2_pt_", "lsv2_sk_"),
	prefixed("Anyscale API key", 20, "esecret_"),
	prefixed("E2B API key", 30, "e2b_"),
	prefixed("Browserbase API key", 20, "bb_live_"),
	prefixed("Linear API key", 30, "lin_api_", "lin_oauth_"),
	prefixed("Atlassian API token", 40, "ATATT", "ATCTT"),
	prefixed("Postman API key", 40, "PMAK-"),
	prefixed("Brevo API key", 40, "xkeysib-", "xsmtpsib-"),
	prefixed("Sentry token", 30, "sntrys_", "sntryu_", "sntrya_"),
	prefixed("Grafana token", 30, "glc_", "glsa_"),
	prefixed("Supabase key", 30, "sbp_", "sb_secret_"),
	prefixed("Figma token", 30, "figd_", "figu_"),
	prefixed("Netlify token", 30, "nfp_"),
	prefixed("Fly.io token", 30, "fo1_", "fm1r_", "fm2_"),
	prefixed("Heroku API key", 30, "HRKU-"),
	prefixed("New Relic key", 27, "NRAK-", "NRII-"),
	prefixed("Resend API key", 20, "re_"),
	prefixed("Square token", 20, "sq0atp-", "sq0csp-", "EAAAE"),
	prefixed("Twitch or Frame.io token", 30, "fio-u-"),
	prefixed("Clojars or RubyGems token", 30, "CLOJARS_", "rubygems_"),
	prefixed("Adafruit IO key", 28, "aio_"),
	prefixed("Scalingo or Infracost token", 30, "tk-us-", "ico-"),
	prefixed("PlanetScale token", 30, "pscale_tkn_", "pscale_pw_", "pscale_oauth_"),
	prefixed("Prefect or Readme key", 30, "pnu_", "rdme_"),
	prefixed("Typeform token", 30, "tfp_"),
	prefixed("OpenAI session key", 32, "sess-"),
	// Amazon Bedrock API keys: the long-term one is "ABSK" and
	// "BedrockAPIKey-…" in base64, the short-term one "bedrock-api-key-"
	// and a presigned URL in base64 ("bedrock.amazonaws.com/?Action=
	// CallWithBearerToken&…", as AWS's token generators write it). Either
	// is known without its prefix too (AWS_BEARER_TOKEN_BEDROCK=QmVk…),
	// its base64 being no other text's.
	{name: "Amazon Bedrock API key", hints: []string{"QmVkcm9ja0FQSUtleS", "bedrock-api-key-", bedrockURL64},
		re: lazy(`\b(?:ABSKQmVkcm9ja0FQSUtleS|QmVkcm9ja0FQSUtleS|bedrock-api-key-|` + bedrockURL64 + `)[A-Za-z0-9+/]{20,}={0,2}`)},
	{name: "Firebase Cloud Messaging server key", hints: []string{":APA91b"}, re: lazy(`\b[A-Za-z0-9_-]{7,11}:APA91b[A-Za-z0-9_-]{100,}`)},
	{name: "Google OAuth refresh token", hints: []string{"1//0"}, re: lazy(`\b1//0[A-Za-z0-9_-]{40,}`)},
	{name: "Terraform Cloud token", hints: []string{".atlasv1."}, re: lazy(`\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}`)},
	// A PuTTY key file's private lines (base64, one line or several).
	{name: "PuTTY private key", hints: []string{"Private-Lines:"}, plain: true,
		re: lazy(`Private-Lines: *[0-9]+(?:\r?\n|\\+[nr])((?:[A-Za-z0-9+/=]|\r?\n|\\+[nr])+?)(?:\r?\n|\\+[nr])?Private-MAC`)},
	startsWith("Twilio API key", `[0-9a-f]{32}\b`, "SK"),
	startsWith("Meta access token", `[A-Za-z0-9]{60,}`, "EAA"),
	{name: "Mailchimp API key", hints: []string{"-us0", "-us1", "-us2", "-us3", "-us4", "-us5", "-us6", "-us7", "-us8", "-us9"}, re: lazy(`\b[0-9a-f]{32}-us[0-9]{1,2}\b`)},
	startsWith("Alibaba Cloud access key ID", `[A-Za-z0-9]{12,20}\b`, "LTAI"),
	startsWith("Tencent Cloud secret ID", `[A-Za-z0-9]{32}\b`, "AKID"),
	startsWith("Dropbox token", `[A-Za-z0-9_-]{100,}`, "sl."),
	prefixed("Bitbucket token", 30, "ATBB", "ATCTT3"),
	startsWith("JWT", `[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*`, "eyJ"),
	// In the Bot API's paths (bot<token>/sendMessage), or on its own, where
	// its secret part starts with "AA".
	{name: "Telegram bot token", hints: []string{"bot", ":AA"}, find: telegramTokens,
		re: lazy(`bot([0-9]{6,12}:[A-Za-z0-9_-]{30,})|\b([0-9]{8,10}:AA[A-Za-z0-9_-]{33})(?:[^A-Za-z0-9_-]|$)`)},
	{name: "bearer token", fold: "bearer", valid: notPath, re: lazy(`(?i)\bbearer\s+([A-Za-z0-9._~+/-]{16,}=*)`)},
	// The value of an Authorization header written as text, anywhere (a
	// log line, a curl command, prose), after its scheme if it has one
	// (Bot, Token, Basic, SSWS): an algorithm's name is a scheme too
	// (AWS4-HMAC-SHA256, whose signature is a format of its own), and the
	// token must mix letters and digits, as "required" does not.
	{name: "authorization value", fold: "authorization", valid: func(v string) bool { return notAlgorithm(v) && notPath(v) },
		re: lazy(`(?i)\bauthorization\\?["']?[ \t]*[:=][ \t]*\\?["']?(?:(?:bot|token|basic|bearer|apikey|key|ssws|sharedaccesssignature|digest)[ \t]+)?([A-Za-z0-9._~+/-]{8,}=*)`)},
	// An AWS Signature Version 4 (or Google's V4, which is longer) as an
	// Authorization header's Signature= or a presigned URL's
	// X-Amz-Signature=, and a presigned URL's session token, wherever
	// the text holds them (a logged header, a URL in a JSON string).
	{name: "request signature", hints: []string{"Signature=", "signature="}, re: lazy(`(?i)\bsignature=([0-9a-f]{64,})\b`)},
	{name: "AWS security token", hints: []string{"Security-Token=", "security-token="}, plain: true,
		re: lazy(`(?i)\bx-amz-security-token=([A-Za-z0-9%+/=_-]{40,})`)},
	// A Discord bot token: three base64url parts joined by dots, the first
	// the bot's numeric id in base64 (which find checks).
	{name: "Discord bot token", hints: []string{"."}, find: discordTokens,
		re: lazy(`(?:^|[^A-Za-z0-9_-])([MNO][A-Za-z0-9_-]{22,26}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38})(?:$|[^A-Za-z0-9_-])`)},
	// A .netrc entry (curl, git, ftp read it): machine HOST [login USER]
	// password PASSWORD, on one line or several.
	{name: "password in a .netrc entry", hints: []string{"machine"}, plain: true,
		re: lazy(`\bmachine[ \t\r\n]+\S+(?:[ \t\r\n]+(?:login|account|port)[ \t\r\n]+\S+)*[ \t\r\n]+password[ \t]+([^\s"'\\]+)`)},
	{name: "password in a connection string", hints: []string{"@"}, plain: true,
		re: lazy(`\b[A-Za-z][A-Za-z0-9+.-]{1,30}://[^\s:/@"'<>\\]*:([^\s/@"'<>\\]+)@[A-Za-z0-9\[]`)},
}

// anchors are the bytes that formatsIn stops at: most hints hold one and
// they are rare in prose and JSON, so that one pass over a clean body
// costs about a nanosecond a byte. A hint without one is looked for
// whole.
const anchors = "-_PAJ~.@"

type formatHint struct {
	text   string
	offset int // of the anchor byte in text
	format int
}

var (
	// hintsNear indexes the formats' hints by their first anchor byte and
	// the byte next to it: the byte before when the anchor is not the
	// hint's first, the byte after otherwise, so that each anchor byte of
	// a text is compared with the few hints that can start there.
	// A hint of one byte is its anchor alone.
	hintsNear [len(anchors)]struct {
		alone         []formatHint
		before, after [256][]formatHint
	}
	// anchorIndex is a byte's index in anchors, plus one (0: none).
	anchorIndex [256]uint8
	// wholeHints are the hints without an anchor byte.
	wholeHints []formatHint
	// foldFormats are the formats looked for by their fold word.
	foldFormats []int
)

// buildHints fills hintsNear, anchorIndex and wholeHints, on first use:
// most runs of agentcheck eval scrub nothing, and the tables are pages of
// memory whose first touch costs (BENCHMARKS.md).
var buildHints = sync.OnceFunc(func() {
	if len(keyFormats) > 64*len(formatSet{}) {
		panic("secrets: more key formats than a formatSet holds")
	}
	for i := range len(anchors) {
		anchorIndex[anchors[i]] = uint8(i + 1)
	}
	for i, f := range keyFormats {
		if f.fold != "" {
			foldFormats = append(foldFormats, i)
		}
		for _, h := range f.hints {
			a := strings.IndexAny(h, anchors)
			switch {
			case a < 0:
				wholeHints = append(wholeHints, formatHint{h, 0, i})
			case len(h) == 1:
				near := &hintsNear[anchorIndex[h[a]]-1].alone
				*near = append(*near, formatHint{h, a, i})
			case a > 0:
				near := &hintsNear[anchorIndex[h[a]]-1].before[h[a-1]]
				*near = append(*near, formatHint{h, a, i})
			default:
				near := &hintsNear[anchorIndex[h[a]]-1].after[h[a+1]]
				*near = append(*near, formatHint{h, a, i})
			}
		}
	}
})

// formatSet is a set of keyFormats' indexes.
type formatSet [2]uint64

func (s *formatSet) add(i int)     { s[i/64] |= 1 << (i % 64) }
func (s formatSet) has(i int) bool { return s[i/64]&(1<<(i%64)) != 0 }
func (s formatSet) empty() bool    { return s == formatSet{} }

// all are the indexes in s, in order, read off its set bits.
func (s formatSet) all() iter.Seq[int] {
	return func(yield func(int) bool) {
		for w, bs := range s {
			for ; bs != 0; bs &= bs - 1 {
				if !yield(w*64 + bits.TrailingZeros64(bs)) {
					return
				}
			}
		}
	}
}
func (s formatSet) union(o formatSet) formatSet {
	return formatSet{s[0] | o[0], s[1] | o[1]}
}

// formatsIn is the set of keyFormats whose hints s holds: those with an
// anchor byte found by a vectorized search for each anchor, the others
// whole.
func formatsIn(s string) formatSet {
	buildHints()
	var set formatSet
	for a := 0; a < len(anchors); a++ {
		c := anchors[a]
		near := &hintsNear[a]
		i := strings.IndexByte(s, c)
		if i >= 0 {
			for _, h := range near.alone {
				set.add(h.format)
			}
		}
		for i >= 0 {
			if i > 0 {
				for _, h := range near.before[s[i-1]] {
					if i >= h.offset && strings.HasPrefix(s[i-h.offset:], h.text) {
						set.add(h.format)
					}
				}
			}
			if i+1 < len(s) {
				for _, h := range near.after[s[i+1]] {
					if strings.HasPrefix(s[i:], h.text) {
						set.add(h.format)
					}
				}
			}
			next := strings.IndexByte(s[i+1:], c)
			if next < 0 {
				break
			}
			i += 1 + next
		}
	}
	for _, h := range wholeHints {
		if !set.has(h.format) && strings.Contains(s, h.text) {
			set.add(h.format)
		}
	}
	for _, i := range foldFormats {
		if !set.has(i) && containsFold(s, keyFormats[i].fold) {
			set.add(i)
		}
	}
	return set
}

// containsFold reports whether s holds word, lower-case ASCII letters
// (keyFormat.fold), in any case: at each of its rarest letter in English
// text (the z of authorization, the b of bearer), lower or upper case,
// found by a vectorized search, the rest compared.
func containsFold(s, word string) bool {
	at := 0
	for _, c := range []byte(letterRarity) {
		if k := strings.IndexByte(word, c); k >= 0 {
			at = k
			break
		}
	}
	for _, c := range [2]byte{word[at], word[at] - 'a' + 'A'} {
		for i := 0; ; i++ {
			j := strings.IndexByte(s[i:], c)
			if j < 0 {
				break
			}
			i += j
			if start := i - at; start >= 0 && len(s)-start >= len(word) && strings.EqualFold(s[start:start+len(word)], word) {
				return true
			}
		}
	}
	return false
}

// letterRarity are the letters from the rarest in English text to the
// commonest.
const letterRarity = "zqxjkvbpgwyfmculdhrsnioate"

// bedrockURL64 is "bedrock.amazonaws.com/?Action=CallWithBearerToken" in
// base64, which a short-term Bedrock API key starts with after its prefix.
const bedrockURL64 = "YmVkcm9jay5hbWF6b25hd3MuY29tLz9BY3Rpb249Q2FsbFdpdGhCZWFyZXJUb2tlbi"

// inBlob: the token at start sits inside a run of base64 (an image, audio
// sent as text), where a key's shape turns up by chance: at least 16
// base64 characters run up to it. A real key follows a quote, a space, an
// "=" or a few characters of a name.
func inBlob(s string, start int) bool {
	n := 0
	for i := start - 1; i >= 0 && n < 16; i-- {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '_' || c == '-') {
			break
		}
		n++
	}
	return n >= 16
}

// telegramBot and telegramBare are the Telegram format's two alternatives,
// anchored.
var (
	telegramBot  = lazy(`^bot([0-9]{6,12}:[A-Za-z0-9_-]{30,})`)
	telegramBare = lazy(`^([0-9]{8,10}:AA[A-Za-z0-9_-]{33})(?:[^A-Za-z0-9_-]|$)`)
)

// telegramTokens is what the Telegram format's regexp matches in s, as
// FindAllStringSubmatchIndex gives it, found at each ":" of s: a match
// runs digits up to its first ":", after "bot" (6 to 12) or from its start
// (8 to 10, where \b holds), so it starts 8 to 15 bytes before a ":" and
// after the ":" before that. At each such start, in order, the regexp's
// alternatives are tried, anchored, in its order. The regexp alone has
// no literal to skip to and steps through every byte of a long text (23
// ms for 700 KB of base64 that holds "bot" by chance).
func telegramTokens(s string) [][]int {
	var out [][]int
	pos, prev := 0, -1 // where the next match may start; the ":" before
	for c := range indexes(s, ":") {
		for p := max(pos, prev+1, c-15); p <= c-8; p++ {
			var m []int
			if strings.HasPrefix(s[p:], "bot") {
				if b := telegramBot.get().FindStringSubmatchIndex(s[p:]); b != nil {
					m = []int{b[0], b[1], b[2], b[3], -1, -1}
				}
			}
			if m == nil && s[p] >= '0' && s[p] <= '9' && (p == 0 || !isWordByte(s[p-1])) && strings.HasPrefix(s[c:], ":AA") {
				if b := telegramBare.get().FindStringSubmatchIndex(s[p:]); b != nil {
					m = []int{b[0], b[1], -1, -1, b[2], b[3]}
				}
			}
			if m != nil {
				for g := range m {
					if m[g] >= 0 {
						m[g] += p
					}
				}
				out = append(out, m)
				pos = m[1]
				break
			}
		}
		prev = c
	}
	return out
}

// discordTokens finds Discord bot tokens at each "." of s: a part of 23 to
// 27 base64url characters that decodes to a numeric id of 17 digits or
// more, "." and 6 characters, "." and 27 to 38 characters, each part a
// whole run of base64url.
func discordTokens(s string) [][]int {
	var out [][]int
	for i := range indexes(s, ".") {
		if i+8 > len(s) || s[i+7] != '.' {
			continue
		}
		mid := true
		for j := i + 1; j < i+7; j++ {
			mid = mid && tokenByte(s[j])
		}
		if !mid {
			continue
		}
		start := i
		for start > 0 && i-start <= 27 && tokenByte(s[start-1]) {
			start--
		}
		end := i + 8
		for end < len(s) && end-i-8 <= 38 && tokenByte(s[end]) {
			end++
		}
		if n := i - start; n < 23 || n > 27 || start > 0 && tokenByte(s[start-1]) || strings.IndexByte("MNO", s[start]) < 0 {
			continue
		}
		if n := end - i - 8; n < 27 || n > 38 || end < len(s) && tokenByte(s[end]) {
			continue
		}
		id, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s[start:i], "="))
		if err != nil || len(id) < 17 || strings.IndexFunc(string(id), func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
			continue
		}
		out = append(out, []int{start, end})
	}
	return out
}

// keyBody: the private key's armour m holds a body: a line of base64
// after its BEGIN line (MIIEow…, as short as a key cut after its first
// bytes), or a run of it as long as a line's part (a key whose line
// breaks became blanks), and is no mention of the armour's lines in prose
// or code: "the file must start with -----BEGIN PRIVATE KEY-----", or
// "…" or "<your key here>" between it and its END.
func keyBody(m string) bool {
	if i := strings.Index(m, "BEGIN"); i >= 0 {
		if j := strings.Index(m[i:], "-----"); j >= 0 {
			m = m[i+j+5:]
		}
	}
	if k := strings.LastIndex(m, "-----END"); k >= 0 {
		m = m[:k]
	}
	line, run := 0, 0 // the base64 bytes of the line so far (-1: it has others), of the run
	for i := 0; i <= len(m); i++ {
		var c byte
		if i < len(m) {
			c = m[i]
		}
		switch {
		case i == len(m) || c == '\n' || c == '\r' || c == '\\' && i+1 < len(m) && (m[i+1] == 'n' || m[i+1] == 'r'):
			if line >= 4 {
				return true
			}
			line, run = 0, 0
			if c == '\\' {
				i++
			}
		case c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=':
			if run++; run >= 20 {
				return true
			}
			if line >= 0 {
				line++
			}
		case c == ' ' || c == '\t':
			run = 0
			if line > 0 {
				line = -1 // words: prose
			}
		default:
			line, run = -1, 0
		}
	}
	return false
}
