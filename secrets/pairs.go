package secrets

import (
	"slices"
	"strings"
)

// A name/value pair is an object that says what a value is in a member of
// its own: {"name": "OPENAI_API_KEY", "value": "…"} in Kubernetes' and
// ECS's env lists, {"name": "Authorization", "value": "Bearer …"} in HAR's
// headers, {"key": "apiKey", "value": "…"} in Postman's variables. The
// value member's key says nothing, so the name member's string is the
// value's name, when it is spelt as an identifier or a header (pairName):
// a name with blanks, "Reset password", is a label, not a setting.
var (
	pairNameKeys  = []string{"name", "Name", "NAME", "key", "Key", "KEY"}
	pairValueKeys = []string{"value", "Value", "VALUE"}
)

func pairNameKey(k string) bool  { return slices.Contains(pairNameKeys, k) }
func pairValueKey(k string) bool { return slices.Contains(pairValueKeys, k) }

// pairName: n can name a pair's value (identifier or header spelling, up
// to 128 bytes) and names a secret, as a field does (fieldKind), but for a
// password's name of one word, which judges a pair's value as a key's
// does: such a name member also labels what a user sees ({"role":
// "button", "name": "Password", "value": "Show"} in an accessibility
// tree), so that one short ordinary word is no password there
// (ordinaryWord); DB_PASSWORD names a setting.
func pairName(n string) (nameKind, bool) {
	if n == "" || len(n) > 128 {
		return notSecret, false
	}
	for i := 0; i < len(n); i++ {
		if !nameByte(n[i]) {
			return notSecret, false
		}
	}
	k := fieldKind(n)
	if k == passwordName && len(nameWords(n)) == 1 {
		k = strongName
	}
	return k, k != notSecret
}

// pairValue says whether v, the value member of a decoded name/value pair
// whose name member is name (see pairNames), is a secret to remove.
func (x *Redactor) pairValue(name, v string) bool {
	if v == "" || isRedacted(v) {
		return false
	}
	if x.ruleName(name) {
		return true
	}
	k, _ := pairName(name)
	return secretValueOf(k, v)
}

// pairNames are the names under which a decoded JSON object's value
// members (pairValueKey) hold secrets: the strings of its name members
// (pairNameKey) that name a secret (pairName), in the fixed order of
// pairNameKeys. A text that writes the pair reads one name member next to
// one value member (pairAssignment); the decoded object judges each value
// member by every name, so that what the text finds, the object does.
func pairNames(m map[string]any) []string {
	var names []string
	for _, nk := range pairNameKeys {
		if n, ok := m[nk].(string); ok {
			if _, secret := pairName(n); secret {
				names = append(names, n)
			}
		}
	}
	if len(names) == 0 && cookieObject(m) {
		names = append(names, "cookie")
	}
	if len(names) == 0 {
		return nil
	}
	for _, vk := range pairValueKeys {
		if _, ok := m[vk]; ok {
			return names
		}
	}
	return nil
}

// cookieAttributes are the members of a cookie written as an object (a HAR
// entry's cookies, Playwright's storage state, DevTools' Network.getCookies),
// besides its name and value.
var cookieAttributes = []string{"domain", "path", "httpOnly", "secure", "sameSite", "expires"}

// cookieObject: m is a cookie, {"name": …, "value": …, "domain": …, "path":
// …}, whose value is a session's credential whatever its name (sessionid,
// JSESSIONID, _session): it is judged as a cookie's (theme=dark stays).
func cookieObject(m map[string]any) bool {
	if _, ok := m["name"].(string); !ok {
		return false
	}
	if _, ok := m["value"]; !ok {
		return false
	}
	n := 0
	for _, a := range cookieAttributes {
		if _, ok := m[a]; ok {
			n++
		}
	}
	return n >= 2
}

// pairAssignment reads a name/value pair written as text, its two members
// next to each other in either order, around the ":" after the key k at
// i: `"name": "NAME", "value": "value"` or `"value": "value", "name":
// "NAME"`, quotes possibly escaped; each string must end at its closing
// quote. key says that a name member names a secret, wherever its value
// member is (the check then reads the JSON whole, pairNames); ok that the
// value was found next to it.
func pairAssignment(s string, i int, k string) (a assignment, key, ok bool) {
	start, end, found := jsonStringAfter(s, i)
	if found && end == start && pairValueKey(k) {
		end = escapedMarkPassword(s, start) // "value": "\u0026welcome1", "name": …
	}
	if !found || !closedAt(s, end) {
		return a, false, false
	}
	next, ns, ne, found := nextString(s, end)
	if pairNameKey(k) {
		kind, secret := pairName(s[start:end])
		if !secret {
			return a, false, false
		}
		if !found || !pairValueKey(next) {
			return a, true, false
		}
		ns, ne = afterScheme(s, ns, ne)
		return assignment{name: s[start:end], kind: kind, start: ns, end: ne, form: formPair}, true, true
	}
	if !found || !pairNameKey(next) {
		return a, false, false
	}
	kind, secret := pairName(s[ns:ne])
	if !secret {
		return a, false, false
	}
	start, end = afterScheme(s, start, end)
	return assignment{name: s[ns:ne], kind: kind, start: start, end: end, form: formPair}, true, true
}

// nextString reads the member after a string value that ended at s[end]
// when its value is a string closed by its quote: its key and the span of
// its value.
func nextString(s string, end int) (key string, start, stop int, ok bool) {
	key, colon, ok := nextMember(s, end)
	if !ok {
		return "", 0, 0, false
	}
	start, stop, ok = jsonStringAfter(s, colon)
	if ok && stop == start {
		stop = escapedMarkPassword(s, start) // "value": "\u0026welcome1"
	}
	return key, start, stop, ok && closedAt(s, stop)
}

// nextMember reads the key of the member after a string value that ended
// at s[end] (its closing quote, possibly escaped): `, "key":`, and the
// offset of its ":". Keys with escapes are not read: a pair's keys have
// none.
func nextMember(s string, end int) (key string, colon int, ok bool) {
	k := end
	if k < len(s) && s[k] == '\\' {
		k++
	}
	if k >= len(s) || s[k] != '"' {
		return "", 0, false
	}
	k++
	skip := func() {
		for k < len(s) && (blank(s[k]) || s[k] == '\r' || s[k] == '\n') {
			k++
		}
	}
	skip()
	if k >= len(s) || s[k] != ',' {
		return "", 0, false
	}
	k++
	skip()
	if k < len(s) && s[k] == '\\' {
		k++
	}
	if k >= len(s) || s[k] != '"' {
		return "", 0, false
	}
	k++
	n := k
	for n < len(s) && (s[n] >= 'a' && s[n] <= 'z' || s[n] >= 'A' && s[n] <= 'Z') {
		n++
	}
	key = s[k:n]
	if n < len(s) && s[n] == '\\' {
		n++
	}
	if n >= len(s) || s[n] != '"' {
		return "", 0, false
	}
	k = n + 1
	skip()
	if k >= len(s) || s[k] != ':' {
		return "", 0, false
	}
	return key, k, true
}

// yamlPair reads a name/value pair as YAML writes a Kubernetes env list,
// around the ":" at i after `value`: the line before it holds the name
// member, as an item of a list or not,
//
//   - name: DB_PASSWORD
//     value: "…"
//
// and the value is the rest of the line, quoted or not.
func yamlPair(s string, i int) (assignment, bool) {
	j := nameStart(s, i)
	if !pairValueKey(s[j:i]) || i+1 >= len(s) || !blank(s[i+1]) {
		return assignment{}, false
	}
	p := j
	for p > 0 && blank(s[p-1]) {
		p--
	}
	if p == 0 || s[p-1] != '\n' {
		return assignment{}, false
	}
	prev := strings.TrimSuffix(s[:p-1], "\r")
	prev = prev[strings.LastIndexByte(prev, '\n')+1:]
	// The name member is the value member's sibling: its key stands in
	// the same column, after a list's "- " or not.
	col := 0
	for col < len(prev) && blank(prev[col]) {
		col++
	}
	if strings.HasPrefix(prev[col:], "- ") {
		for col += 2; col < len(prev) && blank(prev[col]); col++ {
		}
	}
	if col != j-p {
		return assignment{}, false
	}
	k, n, found := strings.Cut(prev[col:], ":")
	if !found || !pairNameKey(k) {
		return assignment{}, false
	}
	n = strings.Trim(strings.TrimSpace(n), `"'`)
	kind, secret := pairName(n)
	if !secret {
		return assignment{}, false
	}
	start, end, ok := lineValue(s, i, "")
	return assignment{name: n, kind: kind, start: start, end: end, form: formPair}, ok
}
