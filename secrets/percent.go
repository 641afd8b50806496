package secrets

import (
	"slices"
	"strings"
)

// Text carries URLs, and URLs carry URLs: a redirect's next=, a tool's
// callback, each level percent-encoded once more (token%253D…). Encoded,
// a key's shape and a name's "=" are hidden ("key%3Dsk-…" has no word
// boundary before sk-), so that each run of a URL's characters holding
// escapes is read decoded, as many times as it was encoded, and what is
// found there is replaced where it is written, encoded.

// percentSpans finds the secrets that percent-encoding hides in s. A URL
// written in JSON as it is sent may hold JSON's escapes of its bytes too
// (\/, \u0026 for "&" as Go writes it, \u0025 for "%"): they are part of
// the run, and decoded before its percent escapes.
func (x *Redactor) percentSpans(s string) []span {
	var out []span
	// where %, \u0025 and "+-" are next at or after at, -1 nowhere: "+-"
	// is a flag after a query's encoded blank (q=mysql+-uroot+-p…), which
	// needs no escape
	nextPct, nextEsc, nextFlag := -2, -2, -2
	for at := 0; at < len(s); {
		if nextPct != -1 && nextPct < at {
			nextPct = indexFrom(s, "%", at)
		}
		if nextEsc != -1 && nextEsc < at {
			nextEsc = indexFrom(s, `\u0025`, at)
		}
		if nextFlag != -1 && nextFlag < at {
			nextFlag = indexFrom(s, "+-", at)
		}
		j := nextPct
		if j < 0 || nextEsc >= 0 && nextEsc < j {
			j = nextEsc
		}
		if j < 0 || nextFlag >= 0 && nextFlag < j {
			j = nextFlag
		}
		if j < 0 {
			break
		}
		start, end := j, j
		for start > at && (urlRunByte(s[start-1]) || s[start-1] == '\\' && jsonURLEscape(s, start-1) > 0) {
			start--
		}
		for end < len(s) {
			if urlRunByte(s[end]) {
				end++
			} else if n := jsonURLEscape(s, end); n > 0 {
				end += n
			} else {
				break
			}
		}
		at = max(end, j+1)
		run := s[start:end]
		unesc, uoffs := jsonUnescapeRun(run)
		dec, poffs := percentDecode(unesc)
		if len(dec) == len(run) && !(strings.Contains(run, "+-") && strings.Contains(run, "=") && strings.ContainsAny(run, "?&")) {
			continue // no escape, nor a query's value with a flag after a "+"
		}
		offs := poffs
		if uoffs != nil {
			offs = make([]int, len(poffs))
			for i, o := range poffs {
				offs[i] = uoffs[o]
			}
		}
		texts := []string{dec}
		if len(dec) == len(run) {
			texts = texts[:0] // the run as it is, which the text's own scan reads
		}
		if strings.Contains(dec, "+") {
			// A query writes a blank as "+" (BEGIN+RSA+PRIVATE+KEY), where
			// base64 writes a "+": read both ways, byte for byte.
			texts = append(texts, strings.ReplaceAll(dec, "+", " "))
		}
		add := func(base int, sps []span) {
			for _, sp := range sps {
				sp.start, sp.end, sp.from = base+sp.start, base+sp.end, base+sp.from
				secret := sp.secret
				if secret == "" {
					secret = dec[sp.start:sp.end]
				}
				a, b := start+offs[sp.start], start+offs[sp.end]
				if sp.secret != "" && slices.ContainsFunc(x.known, func(k known) bool { return k.text == s[a:b] }) {
					continue // a known value's encoding, which its own span names
				}
				out = append(out, span{a, b, sp.what + " (URL-encoded)", secret, start + offs[sp.from]})
			}
		}
		for _, text := range texts {
			add(0, x.spans(text))
		}
		// A query's values, each read as a line of its own, as the check
		// reads a query: a command that a value holds starts at the value
		// (q=mysql+-uroot+-p…), where in the run it follows "q=". The
		// values with a blank (only such a value holds a command) are read
		// together, one a line, by one scan; a span that crosses from one
		// value into the next is no value's.
		q := texts[len(texts)-1]
		var lines strings.Builder
		var at, from []int // each value's offset in q, and in lines
		for k := strings.IndexAny(q, "?&"); k >= 0 && k < len(q); {
			end := len(q)
			if next := strings.IndexByte(q[k+1:], '&'); next >= 0 {
				end = k + 1 + next
			}
			if eq := strings.IndexByte(q[k+1:end], '='); eq >= 0 {
				vs := k + 1 + eq + 1
				if strings.ContainsAny(q[vs:end], " \n") {
					at, from = append(at, vs), append(from, lines.Len())
					lines.WriteString(q[vs:end])
					lines.WriteByte('\n')
				}
			}
			k = end
		}
		if len(at) > 0 {
			text := lines.String()
			for _, sp := range x.spans(text) {
				v, _ := slices.BinarySearch(from, sp.start+1)
				v-- // the value that holds the span's start
				if v < 0 || strings.IndexByte(text[sp.start:sp.end], '\n') >= 0 {
					continue
				}
				sp.from = max(sp.from, from[v])
				add(at[v]-from[v], []span{sp})
			}
		}
	}
	return out
}

// indexFrom is the index of sep in s at or after from, -1 when none.
func indexFrom(s, sep string, from int) int {
	if from > len(s) {
		return -1
	}
	i := strings.Index(s[from:], sep)
	if i < 0 {
		return -1
	}
	return from + i
}

// jsonURLEscape is the length of the JSON escape at s[i] of a byte a URL
// run holds (\/, or \u00XX of a urlRunByte or "%"), 0 when there is none.
func jsonURLEscape(s string, i int) int {
	if i+1 >= len(s) || s[i] != '\\' {
		return 0
	}
	if s[i+1] == '/' {
		return 2
	}
	if i+6 > len(s) || s[i+1] != 'u' || s[i+2] != '0' || s[i+3] != '0' || !hexDigit(s[i+4]) || !hexDigit(s[i+5]) {
		return 0
	}
	if c := unhex(s[i+4])<<4 | unhex(s[i+5]); !urlRunByte(c) && c != '%' {
		return 0
	}
	return 6
}

// jsonUnescapeRun decodes the JSON escapes of a run (jsonURLEscape's);
// offs[i] is where in run the byte dec[i] was written, and offs[len(dec)]
// is len(run). offs is nil when the run has none.
func jsonUnescapeRun(run string) (dec string, offs []int) {
	if strings.IndexByte(run, '\\') < 0 {
		return run, nil
	}
	var b strings.Builder
	b.Grow(len(run))
	offs = make([]int, 0, len(run)+1)
	for i := 0; i < len(run); {
		n := jsonURLEscape(run, i)
		switch n {
		case 2:
			b.WriteByte('/')
		case 6:
			b.WriteByte(unhex(run[i+4])<<4 | unhex(run[i+5]))
		default:
			b.WriteByte(run[i])
			n = 1
		}
		offs = append(offs, i)
		i += n
	}
	return b.String(), append(offs, len(run))
}

// urlRunByte: c may be part of a URL written in text, encoded: not a
// blank, a quote, a bracket of markup or a backslash (a JSON escape ends
// the run).
func urlRunByte(c byte) bool { return urlRunBytes[c] }

var urlRunBytes = func() (t [256]bool) {
	for c := '!'; c < 0x7f; c++ {
		t[c] = strings.IndexRune("\"'<>\\`", c) < 0
	}
	return t
}()

// percentDecode decodes the escapes of s (%XX) until none is left, as
// many times as it was encoded (%2541, %252541 … are A); offs[i] is where
// in s the byte dec[i] was written (an escape's "%"), and offs[len(dec)]
// is len(s). An escape that is not one stays as it is. It reads s once,
// as a stack: each byte pushed, and an escape on the stack's top replaced
// by its byte, which may complete another below it (%25 then 41), so that
// a text encoded n times costs no n passes (%252525…41 cost a pass of the
// whole text, and of every rule, for each level).
func percentDecode(s string) (dec string, offs []int) {
	if !strings.Contains(s, "%") {
		offs = make([]int, len(s)+1)
		for i := range offs {
			offs[i] = i
		}
		return s, offs
	}
	out := make([]byte, 0, len(s))
	offs = make([]int, 0, len(s)+1)
	locked := 0 // out[:locked] is a Windows variable's, no escape's part
	for i := 0; i < len(s); i++ {
		if v := windowsVariableAt(s, i); v > 0 {
			// %DB_PASSWORD% whole, its closing "%" no escape's start
			for k := range v {
				out = append(out, s[i+k])
				offs = append(offs, i+k)
			}
			locked = len(out)
			i += v - 1
			continue
		}
		out = append(out, s[i])
		offs = append(offs, i)
		for n := len(out); n-3 >= locked && out[n-3] == '%' && hexDigit(out[n-2]) && hexDigit(out[n-1]); n = len(out) {
			out[n-3] = unhex(out[n-2])<<4 | unhex(out[n-1])
			out, offs = out[:n-2], offs[:n-2]
		}
	}
	return string(out), append(offs, len(s))
}

// windowsVariableAt is the length of the Windows variable that s[i:]
// starts with, when its name starts with an escape's hexadecimal letters
// (%DB_PASSWORD%, %ADMIN_PW%), which would decode to a byte of no
// character (0xDB, then "_"): set PGPASSWORD=%DB_PASSWORD% is no encoded
// text, nor is %DB_PASSWORD:~0,8%, a substring of one. 0 for none. The variable is taken whole, so that its closing "%"
// starts nothing (%DB_PW%DB_PW%… is variables, and is decoded in one pass,
// not one escape a pass).
func windowsVariableAt(s string, i int) int {
	if s[i] != '%' || i+3 >= len(s) || s[i+1] < 'A' || s[i+1] > 'F' && s[i+1] < 'a' || s[i+1] > 'f' || s[i+3] == '%' {
		return 0 // an escape of ASCII (%2F, %3D), or of UTF-8 followed by its next byte's (%C3%A9)
	}
	j := i + 1
	for j < len(s) && (asciiLetter(s[j]) || s[j] >= '0' && s[j] <= '9' || s[j] == '_') {
		j++
	}
	if j < len(s) && s[j] == ':' && j-i > 3 {
		// %DB_PASSWORD:~0,8%, %DB_PW:x=y%: a substring or a substitution
		m := j + 1
		for m < len(s) && m-j < 32 && s[m] != '%' && !tagSpace(s[m]) {
			m++
		}
		if m < len(s) && s[m] == '%' && m > j+1 {
			j = m
		}
	}
	if j < len(s) && s[j] == '%' && j-i > 3 {
		return j + 1 - i
	}
	return 0
}

func hexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f'
}

func unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c | 0x20 - 'a' + 10
}
