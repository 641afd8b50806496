package secrets

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/agentcheck/agentcheck/internal/vcr"
	"go.yaml.in/yaml/v3"
)

// Finding is a credential [Check] found in a cassette.
type Finding struct {
	File        string
	Line        int    // 1-based line of the value in File
	Interaction int    // the interaction's id, -1 outside the interactions
	Where       string // "request header", "response body", "request url", ...
	// What names the kind of secret with the value masked to its first
	// characters, e.g. `Authorization header "Bearer sk-p…"`; a Finding never
	// holds a whole secret.
	What string
}

// String is "file:line: interaction N: where: what" ("file:line: where:
// what" outside the interactions).
func (f Finding) String() string {
	if f.Interaction < 0 {
		return fmt.Sprintf("%s:%d: %s: %s", f.File, f.Line, f.Where, f.What)
	}
	return fmt.Sprintf("%s:%d: interaction %d: %s: %s", f.File, f.Line, f.Interaction, f.Where, f.What)
}

// ErrNotCassette is wrapped by the error of [Check] for a YAML file that
// is not a go-vcr cassette (it has neither interactions nor a version).
var ErrNotCassette = errors.New("not a go-vcr cassette")

// maxExpandedNodes bounds the YAML nodes a cassette may hold once its
// aliases are expanded, against an alias bomb ("billion laughs").
const maxExpandedNodes = 4 << 20

// Check reads the go-vcr cassette at path and returns the credentials it
// holds, in file order: whatever a [Redactor] of the same rules would have
// removed (see the package documentation), with these differences. A header
// that is only guessed to hold a credential from its name (X-Session-Id)
// holds one when its value looks generated; the credentials of a request
// are looked for in the whole interaction, raw, URL-encoded and base64, so
// that an echo is found; compressed bodies are decoded, and a body in a
// Content-Encoding the check cannot read is itself a finding, never passed
// as clean. Anchors and aliases are followed, within a bound.
//
// The whole file is read: YAML comments, keys go-vcr does not know (at the
// top, in an interaction, a request or a response, at any depth), and every
// YAML document of the file, the cassette being the first.
//
// "[REDACTED]" (and its numbered forms, "[REDACTED-2]") is never a secret,
// nor are numbers, placeholders ("$OPENAI_API_KEY", "<key>"), yes/no
// words, algorithm names, documented example keys, token counts and the
// other vocabulary of chat completions (max_tokens, total_tokens,
// logprobs' "token"). The error is for a file that cannot be read, is not
// YAML, or is not a go-vcr cassette (wrapping [ErrNotCassette]); it names
// the file and the line.
func Check(path string, rules Rules, opts ...Option) ([]Finding, error) {
	x, err := rules.Redactor(opts...)
	if err != nil {
		return nil, err
	}
	s := &secretScan{rules: x, file: path}
	// A file in the recorder's own layout is read line by line, one
	// interaction at a time; any other with the YAML library, whole.
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	ok, err := s.layout(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if !ok {
		s.findings, s.seen = nil, nil // what the layout reader found before it gave up
		if s.data, err = os.ReadFile(path); err != nil {
			return nil, err
		}
		if err := s.scanFile(); err != nil {
			return nil, err
		}
	}
	slices.SortStableFunc(s.findings, func(a, b Finding) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return strings.Compare(a.What, b.What)
	})
	return s.findings, nil
}

// layout scans a file in the recorder's layout (see layoutScan), its
// interactions spread over the machine's cores, at most a few hundred
// held at a time; ok is false when the file is not in that layout.
func (s *secretScan) layout(r io.Reader) (ok bool, err error) {
	type item struct {
		id int
		it *yaml.Node
	}
	work := make(chan item, 256)
	workers := make([]*secretScan, max(1, min(runtime.GOMAXPROCS(0), 8)))
	var wg sync.WaitGroup
	for i := range workers {
		w := &secretScan{rules: s.rules, file: s.file}
		workers[i] = w
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range work {
				w.interaction(it.id, it.it)
			}
		}()
	}
	ok, err = layoutScan(r, func(id int, it *yaml.Node) { work <- item{id, it} })
	close(work)
	wg.Wait()
	for _, w := range workers {
		s.findings = append(s.findings, w.findings...)
	}
	return ok, err
}

// scanFile scans every document of the file with the YAML library.
func (s *secretScan) scanFile() error {
	path := s.file
	dec := yaml.NewDecoder(bytes.NewReader(s.data))
	for n := 0; ; n++ {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if err == io.EOF {
			if n == 0 {
				// An emptied cassette is broken, not some other YAML.
				return fmt.Errorf("%s: empty file, not a go-vcr cassette", path)
			}
			return nil
		}
		if err != nil {
			return cassetteYAMLError(path, err)
		}
		if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
			continue
		}
		root := deref(doc.Content[0])
		if _, ok := expandedSize(root, maxExpandedNodes, map[*yaml.Node]int{}); !ok {
			return fmt.Errorf("%s:%d: corrupt cassette: its aliases expand to more than %d nodes: an alias bomb?", path, root.Line, maxExpandedNodes)
		}
		s.comments(&doc, map[*yaml.Node]bool{})
		if n > 0 {
			s.generic(-1, fmt.Sprintf("YAML document %d", n+1), "", root, 0)
			continue
		}
		interactions := mappingValue(root, "interactions")
		if root.Kind != yaml.MappingNode || interactions == nil && mappingValue(root, "version") == nil {
			return fmt.Errorf("%s:%d: %w: no interactions", path, root.Line, ErrNotCassette)
		}
		// go-vcr's own types check the shape (headers are lists of strings,
		// ids are numbers ...), so the walk below can trust it. The YAML
		// library finds a repeated key by comparing each key of a mapping
		// with every other (100 KB of one header repeated took 13 s and
		// 3.8 GB), so repeated keys are refused first, in linear time.
		var bad *vcr.MappingError
		if err := vcr.CheckMappings(root); errors.As(err, &bad) {
			return fmt.Errorf("%s:%d: corrupt cassette: %s", path, bad.Line, bad.Reason)
		}
		var typed vcr.Cassette
		if err := root.Decode(&typed); err != nil {
			return cassetteYAMLError(path, err)
		}
		if interactions != nil && interactions.Kind == yaml.SequenceNode {
			for i, it := range interactions.Content {
				it = deref(it)
				id := i
				if n := mappingValue(it, "id"); n != nil {
					if v, err := strconv.Atoi(n.Value); err == nil {
						id = v
					}
				}
				s.interaction(id, it)
			}
		}
		// Then the keys go-vcr does not know: a value they share with an
		// interaction through an alias is reported once, as the
		// interaction's.
		for pk, pv := range pairs(root) {
			if k := pk.Value; k != "version" && k != "interactions" {
				s.generic(-1, "top-level key "+k, k, pv, 0)
			}
		}
	}
}

// comments scans the YAML comments of the nodes under n.
func (s *secretScan) comments(n *yaml.Node, seen map[*yaml.Node]bool) {
	if n == nil || seen[n] {
		return
	}
	seen[n] = true
	for _, c := range []string{n.HeadComment, n.LineComment, n.FootComment} {
		if c == "" {
			continue
		}
		for _, sp := range s.rules.spans(c) {
			secret := c[sp.start:sp.end]
			line := n.Line
			if i := bytes.Index(s.data, []byte(secret)); i >= 0 {
				line = 1 + bytes.Count(s.data[:i], []byte("\n"))
			}
			s.report(scalar{interaction: -1, where: "YAML comment", node: &yaml.Node{Line: line}}, secret, sp.what)
		}
	}
	for _, c := range n.Content {
		s.comments(c, seen)
	}
}

// maxGenericDepth bounds the walk of keys the check does not know.
const maxGenericDepth = 64

// generic scans a part of the file that go-vcr does not define: its
// scalars as text, and the value of each key whose name says it holds a
// credential.
func (s *secretScan) generic(id int, where, key string, n *yaml.Node, depth int) {
	n = deref(n)
	if n == nil || depth > maxGenericDepth {
		return
	}
	switch n.Kind {
	case yaml.ScalarNode:
		at := scalar{id, where, n}
		if key != "" && s.rules.secretValue(key, n.Value, true) {
			s.report(at, n.Value, strconv.Quote(key)+" key "+mask(n.Value))
		}
		s.text(at, n.Value, "")
	case yaml.MappingNode:
		for pk, pv := range pairs(n) {
			s.text(scalar{id, where, pk}, pk.Value, "")
			s.generic(id, where, pk.Value, pv, depth+1)
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			s.generic(id, where, key, c, depth+1)
		}
	}
}

// secretScan collects the findings of one file.
type secretScan struct {
	rules    *Redactor
	file     string
	data     []byte
	findings []Finding
	// memo is the scan of the current request's body, when the
	// interaction's Redactor made it.
	memo scanned
	// seen holds what was reported at each place, so that a key found by
	// two detectors (an Authorization header holding an sk- key) is one
	// finding.
	seen map[int][]reported
}

// reported is a secret reported on a line, and where.
type reported struct {
	secret, where string
}

// scalar is one YAML value being scanned: findings get the line of the
// secret inside it.
type scalar struct {
	interaction int
	where       string
	node        *yaml.Node
}

func (c scalar) line(secret string) int {
	n := c.node
	if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0 {
		return n.Line
	}
	// A block scalar starts on the line after its indicator.
	off := max(strings.Index(n.Value, secret), 0)
	return n.Line + 1 + strings.Count(n.Value[:off], "\n")
}

// report adds a finding unless the secret, or one of its other forms
// (decoded), was reported at the same place: the same line and part of an
// interaction, or, for a part of the file outside the interactions (a key
// go-vcr does not know, a comment), the same line.
func (s *secretScan) report(at scalar, secret, what string, forms ...string) {
	secret = strings.TrimSpace(secret)
	if secret == "" {
		return
	}
	line := at.line(secret)
	for _, prev := range s.seen[line] {
		if at.interaction >= 0 && prev.where != at.where {
			continue
		}
		for _, f := range append(forms, secret) {
			if strings.Contains(prev.secret, f) || strings.Contains(f, prev.secret) {
				return
			}
		}
	}
	if s.seen == nil {
		s.seen = make(map[int][]reported)
	}
	s.seen[line] = append(s.seen[line], reported{secret, at.where})
	s.findings = append(s.findings, Finding{File: s.file, Line: line, Interaction: at.interaction, Where: at.where, What: what})
}

// interaction scans one interaction, looking for its request's credentials
// everywhere in it.
func (s *secretScan) interaction(id int, it *yaml.Node) {
	req := mappingValue(it, "request")
	outer := s.rules
	learned, sc := outer.learnFixed(s.requestOf(req))
	s.rules = learned
	if learned == outer {
		// Nothing learned: the scan of the request's body stands.
		s.memo = sc
	}
	defer func() { s.rules, s.memo = outer, scanned{} }()
	for pk, pv := range pairs(it) {
		switch k := pk.Value; k {
		case "id":
		case "request", "response":
			if pv.Kind == yaml.MappingNode {
				s.side(id, k, pv)
			} else {
				s.generic(id, k, "", pv, 0)
			}
		default:
			s.generic(id, "interaction key "+k, k, pv, 0)
		}
	}
}

// requestOf is a stored request's URL, headers and body, for Learn.
func (s *secretScan) requestOf(m *yaml.Node) (*url.URL, http.Header, []byte) {
	h := make(http.Header)
	var u *url.URL
	var body []byte
	for pk, pv := range pairs(m) {
		switch pk.Value {
		case "url":
			u, _ = url.Parse(pv.Value)
		case "body":
			body = s.bodyBytes(pv)
		case "headers":
			for hk, hv := range pairs(pv) {
				for _, v := range deref(hv).Content {
					h.Add(hk.Value, deref(v).Value)
				}
			}
		case "form":
			for fk, fv := range pairs(pv) {
				for _, v := range deref(fv).Content {
					if u == nil {
						u = &url.URL{}
					}
					q := u.Query()
					q.Add(fk.Value, deref(v).Value)
					u.RawQuery = q.Encode()
				}
			}
		}
	}
	return u, h, body
}

// bodyBytes is a body as stored. YAML reads the escapes of binary bytes
// ("\x8b") that the recorder writes as the code points U+0080 to U+00FF,
// so such a body is read again from its source, with Go's unquoting, which
// the recorder's quoting follows; a !!binary body is base64.
func (s *secretScan) bodyBytes(n *yaml.Node) []byte {
	if n.Tag == "!!binary" {
		if b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(n.Value), "")); err == nil {
			return b
		}
	}
	if n.Style&yaml.DoubleQuotedStyle != 0 && strings.ContainsFunc(n.Value, func(r rune) bool { return r >= 0x80 && r <= 0xff }) {
		lines := bytes.SplitN(s.data, []byte("\n"), n.Line+1)
		if n.Line >= 1 && n.Line <= len(lines) && n.Column >= 1 && n.Column <= len(lines[n.Line-1]) {
			if q, err := strconv.QuotedPrefix(string(lines[n.Line-1][n.Column-1:])); err == nil {
				if b, err := strconv.Unquote(q); err == nil {
					return []byte(b)
				}
			}
		}
	}
	return readOnly(n.Value)
}

// readOnly is s's bytes without a copy: the check reads a body several
// ways (as JSON, as text, as a form) and a large cassette's bodies would
// otherwise be copied for each. Nothing may change them.
func readOnly(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// textOf is b as a string without a copy, for bytes nothing changes
// afterwards.
func textOf(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

func (s *secretScan) side(id int, side string, m *yaml.Node) {
	var encoding, ctype string
	for pk, pv := range pairs(mappingValue(m, "headers")) {
		var values []string
		for _, v := range deref(pv).Content {
			values = append(values, deref(v).Value)
		}
		switch {
		case strings.EqualFold(pk.Value, "Content-Encoding"):
			encoding = strings.Join(values, ", ")
		case strings.EqualFold(pk.Value, "Content-Type") && len(values) > 0:
			ctype = values[0]
		}
	}
	for pk, pv := range pairs(m) {
		key, v := pk.Value, pv
		switch key {
		case "headers", "trailer":
			s.headers(id, side, v)
		case "url", "request_uri":
			s.url(scalar{id, side + " url", v})
		case "form":
			s.params(id, side+" form", "form field", v)
		case "body":
			s.body(scalar{id, side + " body", v}, encoding, ctype)
		default:
			s.generic(id, side+" "+key, key, v, 0)
		}
	}
}

func (s *secretScan) headers(id int, side string, m *yaml.Node) {
	for pk, pv := range pairs(m) {
		name := pk.Value
		k := s.rules.header(name)
		guessed := k < 0 && credentialHeaderName(name)
		for _, v := range pv.Content {
			v = deref(v)
			at := scalar{id, side + " header", v}
			// A listed header holds a secret whatever its value; one
			// guessed from its name only when the value looks generated
			// (X-Clerk-Auth-Status: signed-out is no credential).
			secret := k >= 0 && !isRedacted(v.Value) || guessed && credentialLike(v.Value)
			if secret {
				what := name + " header " + mask(v.Value)
				if k >= s.rules.builtin {
					what += " (rule: header " + s.rules.headers[k] + ")"
				}
				s.report(at, v.Value, what)
			}
			s.text(at, v.Value, " in "+name+" header")
		}
	}
}

func (s *secretScan) url(at scalar) {
	raw := at.node.Value
	if u, err := url.Parse(raw); err == nil {
		if p, ok := u.User.Password(); ok && !isRedacted(p) {
			s.report(at, p, "password in URL "+mask(p))
		}
		s.query(at, u.RawQuery, "query parameter")
	}
	s.text(at, raw, "")
}

// query reports the secret parameters of a query string or form body.
func (s *secretScan) query(at scalar, raw, kind string) {
	q, _ := url.ParseQuery(raw) // a bad pair does not hide the others
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range q {
			if !yield(k) {
				return
			}
		}
	}) {
		for _, v := range q[name] {
			if s.rules.secretValue(name, v, true) {
				s.report(at, v, name+" "+kind+" "+mask(v))
			}
			s.value(at, v)
		}
	}
}

// params checks go-vcr's form: parameter names to lists of values.
func (s *secretScan) params(id int, where, kind string, m *yaml.Node) {
	for pk, pv := range pairs(m) {
		name := pk.Value
		for _, v := range pv.Content {
			v = deref(v)
			at := scalar{id, where, v}
			if s.rules.secretValue(name, v.Value, true) {
				s.report(at, v.Value, name+" "+kind+" "+mask(v.Value))
			}
			s.value(at, v.Value)
		}
	}
}

func (s *secretScan) body(at scalar, encoding, ctype string) {
	raw := s.bodyBytes(at.node)
	d, err := decodeContent(encoding, raw)
	if err != nil {
		// What the check cannot read may hide a secret: never clean.
		s.report(at, encoding, fmt.Sprintf("a body in Content-Encoding %q that the check cannot read (%v): store it decoded", encoding, err))
	} else {
		raw = d
	}
	s.content(at, bytes.TrimPrefix(raw, bom), ctype, 0)
}

// content scans a body's content as its Content-Type, or its look, says.
func (s *secretScan) content(at scalar, raw []byte, ctype string, depth int) {
	text := textOf(raw)
	if parts := multipartParts(raw, multipartBoundary(ctype, raw)); len(parts) > 0 && depth < 4 {
		for _, p := range parts {
			content := raw[p.start:p.end]
			if v := string(content); !p.file && s.rules.secretValue(p.name, v, true) {
				s.report(at, v, p.name+" multipart field "+mask(v))
			}
			if textPart(p, content) {
				s.content(at, content, p.ctype, depth+1)
			}
		}
		return
	}
	mt, _, _ := mime.ParseMediaType(ctype)
	var sp []span
	var keyed bool
	if m := s.memo; m.by == s.rules && len(m.text) == len(text) && unsafe.StringData(m.text) == unsafe.StringData(text) {
		sp, keyed = m.spans, m.keyed
	} else {
		sp, keyed = s.rules.scan(text)
	}
	if jsonText(raw) {
		// JSON without escapes and without a key of a secret name holds
		// nothing that the scan of its text below misses: its strings are
		// parts of that text. Decoding it would double the cost of a large
		// cassette for nothing.
		if keyed || bytes.IndexByte(raw, '\\') >= 0 || s.rules.mustDecode() {
			if v, err := decodeJSON(raw); err == nil {
				s.jsonBody(at, v)
			}
		}
	} else if events := mt == "text/event-stream" || isEventStream(raw); events || isNDJSON(raw) {
		ls := strings.SplitAfter(text, "\n")
		for _, l := range ls {
			l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "data:"))
			if v, err := decodeJSON([]byte(l)); err == nil && l != "" {
				s.jsonBody(at, v)
			}
		}
		for _, c := range s.rules.crossings(ls, events) {
			s.report(at, c.secret, c.what+" (split across the stream's events)")
		}
	} else if formLike(ctype, raw) {
		s.query(at, text, "form field")
	}
	s.reportSpans(at, text, sp, "")
}

func (s *secretScan) jsonBody(at scalar, v any) {
	// The rules' paths first: theirs is the finding that names the rule.
	for _, p := range s.rules.paths {
		walkPath(v, p.segs, nil, func(path []string, v any) {
			if s, ok := v.(string); ok && isRedacted(s) {
				return
			}
			text, ok := v.(string)
			if !ok {
				text = string(encodeJSON(v))
			}
			s.report(at, text, strings.Join(path, ".")+" "+mask(text)+" (rule: json path "+p.text+")")
		})
	}
	s.json(at, v)
}

// json checks the fields and strings of a decoded JSON body.
func (s *secretScan) json(at scalar, v any) {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(func(yield func(string) bool) {
			for k := range v {
				if !yield(k) {
					return
				}
			}
		}) {
			names, what := []string{k}, " field "
			if pairValueKey(k) {
				if pn := pairNames(v); pn != nil {
					names, what = pn, " value "
				}
			}
			for _, name := range names {
				if str, ok := v[k].(string); ok && (what == " field " && s.rules.secretValue(name, str, false) || what == " value " && s.rules.pairValue(name, str)) {
					s.report(at, str, strconv.Quote(name)+what+mask(str))
					break
				} else if n, ok := v[k].(json.Number); ok && s.rules.ruleName(name) {
					s.report(at, n.String(), strconv.Quote(name)+what+mask(n.String())+" (rule: name)")
					break
				}
			}
			s.json(at, v[k])
		}
	case []any:
		for _, e := range v {
			s.json(at, e)
		}
	case string:
		// Decoded, a string shows what its escapes hid: JSON inside JSON,
		// a key right after "\n".
		s.value(at, v)
	}
}

// value reports the secrets of a value that may be JSON (a JSON string, a
// form field, a query parameter): in its decoded strings, as the recorder
// reads them (Redactor.valueText), and in its text.
func (s *secretScan) value(at scalar, v string) {
	sp, keyed := s.rules.scan(v)
	if inner, ok := s.rules.nestedJSON(v, keyed); ok {
		s.json(at, inner)
	}
	s.reportSpans(at, v, sp, "")
}

// walkPath calls visit with each value at segs, as redactPath reaches them.
func walkPath(v any, segs, at []string, visit func(path []string, v any)) {
	if len(segs) == 0 {
		visit(at, v)
		return
	}
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			if segs[0] == "*" || segs[0] == k {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			walkPath(v[k], segs[1:], append(at[:len(at):len(at)], k), visit)
		}
	case []any:
		for i, e := range v {
			if segs[0] == "*" || segs[0] == strconv.Itoa(i) {
				walkPath(e, segs[1:], append(at[:len(at):len(at)], strconv.Itoa(i)), visit)
			}
		}
	}
}

// text reports the secrets of [Redactor.Text] in str; suffix says where in
// the scalar str is.
func (s *secretScan) text(at scalar, str, suffix string) {
	s.reportSpans(at, str, s.rules.spans(str), suffix)
}

// reportSpans reports the spans found in str.
func (s *secretScan) reportSpans(at scalar, str string, spans []span, suffix string) {
	for _, sp := range spans {
		secret := str[sp.start:sp.end]
		var forms []string
		if u, err := url.QueryUnescape(secret); err == nil && u != secret {
			forms = append(forms, u)
		}
		s.report(at, secret, sp.what+suffix, forms...)
	}
}

// jsonText: raw is JSON, or one line that only JSON can be here: "{...}"
// or "[...]" on one line is neither a stream nor a form, so that the
// validation of a large cassette's bodies is spared.
func jsonText(raw []byte) bool {
	t := bytes.TrimSpace(raw)
	if len(t) >= 2 && bytes.IndexByte(t, '\n') < 0 && (t[0] == '{' && t[len(t)-1] == '}' || t[0] == '[' && t[len(t)-1] == ']') {
		return true
	}
	return json.Valid(raw)
}
