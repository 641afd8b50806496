package secrets

import (
	"slices"
	"strconv"
	"strings"
)

// A stream (server-sent events, NDJSON) carries its text in pieces: each
// event holds a few characters of the answer at the same JSON path
// (choices.0.delta.content, delta.text), so a key may start in one event
// and end in the next. The pieces at each path are joined in order and
// scanned whole; a secret that crosses pieces is removed from each piece
// it touches.

// streamLine splits a line of a stream into its "data: " prefix (events
// only), its payload and its line ending.
func streamLine(l string, events bool) (prefix, payload, eol string) {
	content := strings.TrimRight(l, "\r\n")
	eol = l[len(content):]
	payload = content
	if events {
		if p, ok := strings.CutPrefix(content, "data:"); ok {
			prefix, payload = "data:", p
			if strings.HasPrefix(payload, " ") {
				prefix, payload = "data: ", payload[1:]
			}
		} else {
			return "", "", eol // event:, id:, comments
		}
	}
	return prefix, payload, eol
}

// leaf is a string of a decoded JSON value, with its path.
type leaf struct {
	path string
	text string
}

// leaves are the strings of v in a fixed order (object members sorted).
func leaves(v any, path string, out []leaf) []leaf {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(v) {
			out = leaves(v[k], path+"."+k, out)
		}
	case []any:
		for i, e := range v {
			out = leaves(e, path+"."+strconv.Itoa(i), out)
		}
	case string:
		out = append(out, leaf{path, v})
	}
	return out
}

// setLeaves replaces the strings of v, in the order leaves gives them,
// with what replace returns for the k-th.
func setLeaves(v any, k *int, replace func(k int, s string) string) any {
	switch t := v.(type) {
	case map[string]any:
		for _, key := range sortedKeys(t) {
			t[key] = setLeaves(t[key], k, replace)
		}
	case []any:
		for i, e := range t {
			t[i] = setLeaves(e, k, replace)
		}
	case string:
		s := replace(*k, t)
		*k++
		return s
	}
	return v
}

// piece is where a leaf's text sits in its path's joined text.
type piece struct {
	line, leaf int
	start, end int
}

// crossing is a secret that crosses pieces: its span in the joined text
// of a path, and the pieces it touches.
type crossing struct {
	span
	secret string
	pieces []piece
}

// crossings finds the secrets that cross the lines of a stream, ls (lines
// with their endings), in the text each JSON path carries.
func (x *Redactor) crossings(ls []string, events bool) []crossing {
	type joined struct {
		text   strings.Builder
		pieces []piece
	}
	byPath := map[string]*joined{}
	var order []string
	add := func(path string, p piece, text string) {
		j := byPath[path]
		if j == nil {
			j = &joined{}
			byPath[path] = j
			order = append(order, path)
		}
		p.start = j.text.Len()
		j.text.WriteString(text)
		p.end = j.text.Len()
		j.pieces = append(j.pieces, p)
	}
	for i, l := range ls {
		_, payload, _ := streamLine(l, events)
		if strings.TrimSpace(payload) == "" || payload == "[DONE]" {
			continue
		}
		if v, err := decodeJSON([]byte(payload)); err == nil {
			for k, lf := range leaves(v, "", nil) {
				add(lf.path, piece{line: i, leaf: k}, lf.text)
			}
			continue
		}
		add("", piece{line: i, leaf: -1}, payload)
	}
	var out []crossing
	for _, path := range order {
		j := byPath[path]
		if len(j.pieces) < 2 {
			continue
		}
		text := j.text.String()
		for _, sp := range x.spans(text) {
			told := slices.IndexFunc(j.pieces, func(p piece) bool { return p.end > min(sp.from, sp.start) })
			first := slices.IndexFunc(j.pieces, func(p piece) bool { return p.end > sp.start })
			last := slices.IndexFunc(j.pieces, func(p piece) bool { return p.end >= sp.end })
			if told < 0 || first < 0 || last < 0 || told == last {
				// Within one piece, what tells it too: the line's own
				// scrubbing sees it.
				continue
			}
			secret := sp.secret
			if secret == "" {
				secret = text[sp.start:sp.end]
			}
			var ps []piece
			for _, p := range j.pieces[first : last+1] {
				ps = append(ps, piece{line: p.line, leaf: p.leaf, start: max(sp.start, p.start) - p.start, end: min(sp.end, p.end) - p.start})
			}
			out = append(out, crossing{span: sp, secret: secret, pieces: ps})
		}
	}
	return out
}

// joinCrossings removes the secrets that cross lines from a stream's
// lines, ls, in place.
func (x *Redactor) joinCrossings(ls []string, events bool) bool {
	cs := x.crossings(ls, events)
	if len(cs) == 0 {
		return false
	}
	type cut struct {
		start, end  int
		placeholder string
	}
	cuts := map[[2]int][]cut{} // by line and leaf
	for _, c := range cs {
		p := x.replacement(c.secret)
		for _, pc := range c.pieces {
			key := [2]int{pc.line, pc.leaf}
			cuts[key] = append(cuts[key], cut{pc.start, pc.end, p})
		}
	}
	apply := func(s string, cs []cut) string {
		// Several rules find one secret (a format, a name, its encoding):
		// their cuts overlap, and are made once, as one.
		slices.SortFunc(cs, func(a, b cut) int { return a.start - b.start })
		var merged []cut
		for _, c := range cs {
			if c.start < 0 || c.end > len(s) || c.start > c.end {
				continue
			}
			if n := len(merged); n > 0 && c.start < merged[n-1].end {
				merged[n-1].end = max(merged[n-1].end, c.end)
				continue
			}
			merged = append(merged, c)
		}
		for i := len(merged) - 1; i >= 0; i-- {
			c := merged[i]
			s = s[:c.start] + c.placeholder + s[c.end:]
		}
		return s
	}
	lines := map[int]bool{}
	for key := range cuts {
		lines[key[0]] = true
	}
	for i := range lines {
		prefix, payload, eol := streamLine(ls[i], events)
		if v, err := decodeJSON([]byte(payload)); err == nil {
			k := 0
			v = setLeaves(v, &k, func(k int, s string) string {
				if c := cuts[[2]int{i, k}]; len(c) > 0 {
					return apply(s, c)
				}
				return s
			})
			ls[i] = prefix + string(encodeJSON(v)) + eol
			continue
		}
		ls[i] = prefix + apply(payload, cuts[[2]int{i, -1}]) + eol
	}
	return true
}
