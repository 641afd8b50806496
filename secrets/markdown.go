package secrets

import "strings"

// Markdown's labels, as a model's answer writes a credential out: a
// name in emphasis or code before or round its ":" (**Password:** …,
// **API key**: …, `api_key`: …), at a line's start or after a list's
// marker, a quote's > or a number, and a table's row whose first cell
// names one (| Password | … |). The value is judged as a `name: value`
// line's is (lineAssignment): it must look like a credential, so that
// **Password:** must be 8 characters or more stays.

// markdownLabel reads `**Name:** value` and its spellings around the ":"
// at i.
func markdownLabel(s string, i int) (assignment, bool) {
	// The marks that close the label: after the ":" (**Name:**) or
	// before it (**Name**:, `name`:).
	after := markRun(s, i+1, 1)
	e := i
	before := 0
	if after == 0 {
		before = markRun(s, i-1, -1)
		e = i - before
	}
	closing := after + before
	if closing == 0 || closing > 2 {
		return assignment{}, false
	}
	var mark byte
	if after > 0 {
		mark = s[i+1]
	} else {
		mark = s[i-1] // before > 0: i > 0
	}
	// The label: words of a name, up to 40 bytes, opened by the same
	// marks.
	b := e
	for b > 0 && e-b < 40 && (nameByte(s[b-1]) || s[b-1] == ' ') {
		b--
	}
	for mark == '_' && b < e && s[b] == '_' {
		b++ // __Password:__: the name's bytes read its opening marks too
	}
	if b < closing || b == e || s[b] == ' ' || s[e-1] == ' ' || strings.Count(s[b-closing:b], string(mark)) != closing {
		return assignment{}, false
	}
	if !labelStart(s, b-closing) {
		return assignment{}, false
	}
	label := s[b:e]
	kind := labelKind(label)
	if kind == notSecret {
		return assignment{}, false
	}
	if rs, re, ok := lineValue(s, i+after, `\"`); ok && strings.ContainsAny(s[rs:re], " \t") && !credentialShaped(s[rs:re]) {
		// **Password:** 9fK2… (change it on first login): a key, then
		// words about it
		if a, key := midLineKey(s, label, max(kind, strongName), i+after); key {
			return a, true
		}
	}
	start, end, ok := markdownValue(s, i+1+after)
	return assignment{name: label, kind: min(kind, weakName), start: start, end: end, form: formLine}, ok
}

// labelKind is how strongly a label, a Markdown label's or a table's
// first cell, names a credential: its words read as one name (API key is
// API_key); notSecret for more than four words or 40 bytes, or bytes no
// name has.
func labelKind(label string) nameKind {
	if label == "" || len(label) > 40 || strings.Count(label, " ") > 3 || strings.ContainsFunc(label, func(r rune) bool {
		return !(r == ' ' || r < 0x80 && nameByte(byte(r)))
	}) {
		return notSecret
	}
	return fieldKind(labelName.Replace(label))
}

// labelName reads a label's words as one name.
var labelName = strings.NewReplacer(" ", "_", "-", "_")

// markRun counts Markdown's emphasis or code marks (* _ `), all one, from
// s[k] on in the direction dir (1 or -1), at most 2.
func markRun(s string, k, dir int) int {
	n := 0
	for k >= 0 && k < len(s) && n < 2 && strings.IndexByte("*_`", s[k]) >= 0 && (n == 0 || s[k] == s[k-dir]) {
		n++
		k += dir
	}
	return n
}

// labelStart: s[k] starts a line's label, or a JSON string's text, after
// indentation, a list's marker (- * + • – →, a task's [ ] or [x] after
// it), a quote's >, a letter (a.) or a number (1. 1)).
func labelStart(s string, k int) bool {
	for k > 0 && blank(s[k-1]) {
		k--
	}
	if lineStart(s, k) || jsonStringStart(s, k) {
		return true
	}
	p := k
	if p >= 3 && s[p-3] == '[' && s[p-1] == ']' && strings.IndexByte(" xX", s[p-2]) >= 0 {
		// a task's [ ] or [x], after its list's marker
		for p -= 3; p > 0 && blank(s[p-1]); p-- {
		}
	}
	for _, b := range []string{"•", "–", "→"} {
		if strings.HasSuffix(s[:p], b) {
			p -= len(b)
			break
		}
	}
	if p > 0 && strings.IndexByte("-*+>", s[p-1]) >= 0 {
		p--
	} else if p >= 2 && s[p-1] == '.' && asciiLetter(s[p-2]) && (p == 2 || !asciiLetter(s[p-3])) {
		p -= 2 // a.
	} else if p >= 2 && (s[p-1] == '.' || s[p-1] == ')') && s[p-2] >= '0' && s[p-2] <= '9' {
		for p--; p > 0 && s[p-1] >= '0' && s[p-1] <= '9'; p-- { // 1. 12)
		}
	}
	if p == k {
		return false
	}
	for p > 0 && blank(s[p-1]) {
		p--
	}
	return lineStart(s, p) || jsonStringStart(s, p)
}

// markdownValue reads a label's value from s[k] on: the code span that a
// backtick opens when nothing but punctuation follows it on the line,
// else the rest of the line (`P@ssw0rd` is an example … is prose). A
// value written as code or a type (`Optional[str]`, `os.getenv("K")`,
// VARCHAR(255), map[string]string, *string) is none.
func markdownValue(s string, k int) (start, end int, ok bool) {
	for k < len(s) && blank(s[k]) {
		k++
	}
	start, end, ok = lineValue(s, k-1, `\"`)
	if k < len(s) && s[k] == '`' {
		n := strings.IndexByte(s[k+1:], '`')
		if n <= 0 || strings.IndexByte(s[k+1:k+1+n], '\n') >= 0 {
			return k, k, false
		}
		if rest := s[k+2+n : max(end, k+2+n)]; strings.TrimLeft(rest, " \t.,;:!)") == "" {
			start, end, ok = k+1, k+1+n, true
		}
	}
	return start, end, ok && !codeOrType(s[start:end])
}

// codeOrType: v, a Markdown label's or table cell's value, is code or a
// type's name rather than a value: a call, an index, a generic or a
// pointer (brackets, parentheses, angle brackets, braces, a leading * or
// &, an escaped quote), or what codeValue calls code.
func codeOrType(v string) bool {
	if strings.Contains(v, `\"`) {
		return true
	}
	v = jsonUnescaped(v) // Option\u003cString\u003e in a JSON body
	return strings.ContainsAny(v, "()[]{}<>") || v != "" && (v[0] == '*' || v[0] == '&') || codeValue(v)
}

// tableRows reads a Markdown table's rows whose first cell names a
// credential (| Password | … |, | **API key** | `…` |): the next cell is its
// value.
func tableRows(s string) []assignment {
	var out []assignment
	for i := range indexes(s, "|") {
		if !labelStart(s, i) {
			continue
		}
		bar := strings.IndexByte(s[i+1:], '|')
		if bar < 0 {
			continue
		}
		cell := s[i+1 : i+1+bar]
		if strings.IndexByte(cell, '\n') >= 0 {
			continue
		}
		label := strings.Trim(strings.TrimSpace(cell), "*_`")
		kind := labelKind(label)
		if kind == notSecret {
			continue
		}
		vs := i + 1 + bar + 1
		ve := strings.IndexByte(s[vs:], '|')
		if ve < 0 {
			continue
		}
		ve += vs
		if strings.IndexByte(s[vs:ve], '\n') >= 0 {
			continue
		}
		for vs < ve && blank(s[vs]) {
			vs++
		}
		for ve > vs && blank(s[ve-1]) {
			ve--
		}
		if ve-vs >= 2 && s[vs] == '`' && s[ve-1] == '`' {
			vs, ve = vs+1, ve-1
		}
		if ve > vs && !codeOrType(s[vs:ve]) && !schemaTable(s, i) {
			out = append(out, assignment{name: label, kind: min(kind, weakName), start: vs, end: ve, form: formLine})
		}
	}
	return out
}

// schemaTable: the table whose row starts at s[i] describes fields rather
// than giving their values: the header's second cell is Type, Default,
// Required, Format, Description, Example, In, Notes, Kind, Schema, Data
// type or Default value (| Parameter | Type | Description |), as an API's
// reference writes one.
func schemaTable(s string, i int) bool {
	// The header is the first of the table's lines: each line before this
	// one that starts with "|", lines ended by a line break or, in a JSON
	// body's text, its \n.
	h := i
	for n := 0; n < maxTableRows; n++ {
		p := prevLine(s, h)
		if p < 0 || s[p] != '|' {
			break
		}
		h = p
	}
	line := s[h:min(len(s), h+maxTableLine)]
	if n := strings.IndexByte(line, '\n'); n >= 0 {
		line = line[:n]
	}
	if n := strings.Index(line, `\n`); n >= 0 {
		line = line[:n]
	}
	cells := strings.Split(line, "|")
	if len(cells) < 3 {
		return false
	}
	head := strings.ToLower(strings.Trim(strings.TrimSpace(cells[2]), "*_`"))
	switch head {
	case "type", "default", "required", "format", "description", "example", "in", "notes", "kind", "schema", "data type", "default value":
		return true
	}
	return false
}

// maxTableRows bounds the rows schemaTable passes going up to a table's
// header, so that a table's rows cost linear time, not quadratic; a model's
// answer has tables of a few rows.
const maxTableRows = 64

// maxTableLine bounds the bytes of a table's line that prevLine reads
// back over.
const maxTableLine = 4096

// prevLine is where the line before the one that starts at s[h] starts,
// lines ended by a line break or JSON's escaped \n, the first after a
// JSON string's quote; -1 when there is none or it is empty.
func prevLine(s string, h int) int {
	var e int // where the line before ends
	switch {
	case h >= 1 && s[h-1] == '\n':
		e = h - 1
		if e > 0 && s[e-1] == '\r' {
			e--
		}
	case h >= 2 && s[h-2] == '\\' && s[h-1] == 'n':
		e = h - 2
	default:
		return -1
	}
	// Back over the line, at most maxTableLine bytes, to what ends the
	// line before it or opens a JSON string.
	p := e
	for ; p > 0 && e-p < maxTableLine; p-- {
		c := s[p-1]
		if c == '\n' || c == 'n' && p >= 2 && s[p-2] == '\\' || c == '"' && (p == 1 || s[p-2] != '\\') {
			break
		}
	}
	if p > 0 && e-p >= maxTableLine {
		return -1 // a line longer than a table's
	}
	if p >= e {
		return -1
	}
	return p
}
