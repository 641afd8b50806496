package secrets

import (
	"io"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/agentcheck/agentcheck/internal/vcr"
	"go.yaml.in/yaml/v3"
)

// The recorder writes every cassette in one fixed layout (see package
// recorder): block mappings indented by four spaces, scalars plain words,
// single-quoted, double-quoted or literal blocks, !!binary for bytes that
// are not text. Parsed with the YAML library, a cassette of 50,000
// interactions costs seconds and gigabytes; read line by line, one
// interaction at a time, it costs a fraction of both. layoutScan reads
// exactly that layout and gives up (ok false) at the first line it does
// not expect: a comment, a key go-vcr does not define, a flow collection,
// an anchor, a second document, an escape whose meaning YAML and Go do not
// share. Check then reads the file with the YAML library instead, so that
// what this reader does not know is still read whole.

// layoutReader reads the recorder's layout line by line from a stream,
// holding one line at a time.
type layoutReader struct{ *vcr.LineReader }

// layoutScan calls visit with each interaction of a cassette in the
// recorder's layout, as YAML nodes with their lines; ok is false when the
// file is not in that layout.
func layoutScan(r io.Reader, visit func(id int, it *yaml.Node)) (ok bool, err error) {
	p := layoutReader{vcr.NewLineReader(r)}
	ok = p.scan(visit)
	return ok && p.Err() == nil, p.Err()
}

func (p layoutReader) scan(visit func(id int, it *yaml.Node)) bool {
	for _, want := range []string{"---", "version: 2"} {
		if indent, text, ok := p.Peek(); !ok || indent != 0 || text != want {
			return false
		}
		p.Advance()
	}
	indent, text, ok := p.Peek()
	if !ok || indent != 0 {
		return false
	}
	p.Advance()
	switch text {
	case "interactions: []":
		_, _, more := p.Peek()
		return !more
	case "interactions:":
	default:
		return false
	}
	for i := 0; ; i++ {
		indent, text, ok := p.Peek()
		if !ok {
			return true
		}
		idText, isItem := strings.CutPrefix(text, "- id: ")
		id, err := strconv.Atoi(idText)
		if indent != 4 || !isItem || err != nil {
			return false
		}
		it := &yaml.Node{Kind: yaml.MappingNode, Line: p.Line()}
		it.Content = append(it.Content, scalarNode("id", p.Line()), scalarNode(idText, p.Line()))
		p.Advance()
		for _, part := range []string{"request:", "response:"} {
			indent, text, ok := p.Peek()
			if !ok || indent != 6 || text != part {
				return false
			}
			m := &yaml.Node{Kind: yaml.MappingNode, Line: p.Line()}
			it.Content = append(it.Content, scalarNode(strings.TrimSuffix(part, ":"), p.Line()), m)
			p.Advance()
			if !p.fields(m, part == "request:") {
				return false
			}
		}
		visit(id, it)
	}
}

func scalarNode(v string, line int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v, Line: line}
}

// keyNodes are the keys of the fields go-vcr defines, shared by every
// interaction the layout reader makes (nothing reads a key's line, or
// changes a node).
var keyNodes = sync.OnceValue(func() map[string]*yaml.Node {
	m := map[string]*yaml.Node{}
	for _, fields := range layoutFields {
		for k := range fields {
			m[k] = scalarNode(k, 0)
		}
	}
	return m
})

// intFields are numbers, checked as such and not kept: no secret is one.
var intFields = map[string]bool{"proto_major": true, "proto_minor": true, "content_length": true, "code": true}

// layoutFields are the fields go-vcr defines for a request and a response,
// and whether each is a map of lists (headers) rather than a scalar.
var layoutFields = [2]map[string]bool{
	{"proto": false, "proto_major": false, "proto_minor": false, "content_length": false, "host": false,
		"remote_addr": false, "request_uri": false, "body": false, "form": true, "headers": true, "trailer": true,
		"url": false, "method": false},
	{"proto": false, "proto_major": false, "proto_minor": false, "content_length": false, "uncompressed": false,
		"body": false, "headers": true, "trailer": true, "status": false, "code": false, "duration": false},
}

// fields reads a request's or a response's fields, indented by 8.
func (p layoutReader) fields(m *yaml.Node, request bool) bool {
	known := layoutFields[1]
	if request {
		known = layoutFields[0]
	}
	for {
		indent, text, ok := p.Peek()
		if !ok || indent < 8 {
			return true
		}
		if indent != 8 {
			return false
		}
		rawKey, value, found := strings.Cut(text, ":")
		key, kok := layoutScalar(rawKey)
		isMap, defined := known[key]
		if !found || !kok || !defined || value != "" && value[0] != ' ' {
			return false
		}
		value = strings.TrimPrefix(value, " ")
		line := p.Line()
		p.Advance()
		if intFields[key] {
			if _, err := strconv.ParseInt(value, 10, 64); err != nil {
				return false
			}
			continue
		}
		m.Content = append(m.Content, keyNodes()[key])
		if isMap {
			h, ok := p.headers(value, line)
			if !ok {
				return false
			}
			m.Content = append(m.Content, h)
			continue
		}
		var n *yaml.Node
		switch {
		case strings.HasPrefix(value, "|"):
			n, ok = p.block(value[1:], line)
		case strings.HasPrefix(value, "!!binary "):
			n, ok = scalarNode(strings.TrimPrefix(value, "!!binary "), line), true
			n.Tag = "!!binary"
		default:
			var v string
			v, ok = layoutScalar(value)
			n = scalarNode(v, line)
		}
		if !ok {
			return false
		}
		m.Content = append(m.Content, n)
	}
}

// block reads a literal block scalar (see vcr.LineReader.Block).
func (p layoutReader) block(chomp string, line int) (*yaml.Node, bool) {
	v, ok := p.Block(chomp)
	if !ok {
		return nil, false
	}
	n := scalarNode(v, line)
	n.Style = yaml.LiteralStyle
	return n, true
}

// headers reads a map of lists, names indented by 12, values by 16.
func (p layoutReader) headers(value string, line int) (*yaml.Node, bool) {
	m := &yaml.Node{Kind: yaml.MappingNode, Line: line}
	switch value {
	case "{}":
		return m, true
	case "":
	default:
		return nil, false
	}
	for {
		indent, text, ok := p.Peek()
		if !ok || indent < 12 {
			return m, true
		}
		if indent != 12 {
			return nil, false
		}
		rawName, empty := strings.CutSuffix(text, ": []")
		if !empty {
			var found bool
			if rawName, found = strings.CutSuffix(text, ":"); !found {
				return nil, false
			}
		}
		name, ok := layoutScalar(rawName)
		if !ok {
			return nil, false
		}
		seq := &yaml.Node{Kind: yaml.SequenceNode, Line: p.Line()}
		m.Content = append(m.Content, scalarNode(name, p.Line()), seq)
		p.Advance()
		for !empty {
			indent, text, ok := p.Peek()
			if !ok || indent != 16 || !strings.HasPrefix(text, "- ") {
				break
			}
			v, ok := layoutScalar(text[2:])
			if !ok {
				return nil, false
			}
			seq.Content = append(seq.Content, scalarNode(v, p.Line()))
			p.Advance()
		}
	}
}

// layoutScalar reads a scalar on one line: a plain word or number,
// single-quoted text, or double-quoted text whose escapes YAML and Go read
// alike.
func layoutScalar(s string) (string, bool) {
	switch {
	case s == "":
		return "", false
	case s[0] == '\'':
		if len(s) < 2 || s[len(s)-1] != '\'' {
			return "", false
		}
		inner := s[1 : len(s)-1]
		if strings.Contains(strings.ReplaceAll(inner, "''", ""), "'") {
			return "", false
		}
		return strings.ReplaceAll(inner, "''", "'"), true
	case s[0] == '"':
		if len(s) < 2 || s[len(s)-1] != '"' {
			return "", false
		}
		for i := 1; i < len(s)-1; i++ {
			if s[i] != '\\' {
				continue
			}
			i++
			// \x is a byte to Go and a character to YAML; octal and \' are
			// Go's alone.
			if i >= len(s)-1 || !strings.ContainsRune(`abtnvfr"\/uU`, rune(s[i])) {
				return "", false
			}
		}
		u, err := strconv.Unquote(strings.ReplaceAll(s, `\/`, `/`))
		if err != nil || !utf8.ValidString(u) {
			return "", false
		}
		return u, true
	}
	// A plain scalar: its text is its value. Only characters that cannot
	// start a YAML indicator, a comment or a mapping key.
	c := s[0]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') || s[len(s)-1] == ' ' {
		return "", false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(" _-./+=", c) >= 0) {
			return "", false
		}
	}
	return s, true
}
