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
	name := strings.NewReplacer(" ", "_", "-", "_").Replace(label)
	if strings.Count(label, " ") > 3 {
		return assignment{}, false
	}
	kind := fieldKind(name)
	if kind == notSecret {
		return assignment{}, false
	}
	start, end, ok := markdownValue(s, i+1+after)
	return assignment{name: label, kind: min(kind, weakName), start: start, end: end, form: formLine}, ok
}

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
// indentation, a list's marker (- * +), a quote's > or a number (1. 1)).
func labelStart(s string, k int) bool {
	for k > 0 && blank(s[k-1]) {
		k--
	}
	if lineStart(s, k) || jsonStringStart(s, k) {
		return true
	}
	p := k
	if p > 0 && strings.IndexByte("-*+>", s[p-1]) >= 0 {
		p--
	} else {
		for p > 0 && (s[p-1] == '.' || s[p-1] == ')') && p >= 2 && s[p-2] >= '0' && s[p-2] <= '9' {
			p--
			for p > 0 && s[p-1] >= '0' && s[p-1] <= '9' {
				p--
			}
			break
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
// backtick opens, else the rest of the line.
func markdownValue(s string, k int) (start, end int, ok bool) {
	for k < len(s) && blank(s[k]) {
		k++
	}
	if k < len(s) && s[k] == '`' {
		n := strings.IndexByte(s[k+1:], '`')
		if n <= 0 || strings.IndexByte(s[k+1:k+1+n], '\n') >= 0 {
			return k, k, false
		}
		return k + 1, k + 1 + n, true
	}
	start, end, ok = lineValue(s, k-1, `\"`)
	return start, end, ok
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
		if label == "" || len(label) > 40 || strings.Count(label, " ") > 3 || strings.ContainsFunc(label, func(r rune) bool {
			return !(r == ' ' || r < 0x80 && nameByte(byte(r)))
		}) {
			continue
		}
		kind := fieldKind(strings.NewReplacer(" ", "_", "-", "_").Replace(label))
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
		if ve > vs {
			out = append(out, assignment{name: label, kind: min(kind, weakName), start: vs, end: ve, form: formLine})
		}
	}
	return out
}
