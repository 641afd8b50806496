package recorder

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentcheck/agentcheck/internal/vcr"
	"go.yaml.in/yaml/v3"
)

// A cassette file is go-vcr's version 2 format. The recorder writes it in
// one fixed layout (below) and reads that layout with a small parser of its
// own; any other file, such as one go-vcr wrote or a hand-edited one, is
// read with go.yaml.in/yaml/v3 into go-vcr's own types.
//
// Why a parser of our own: go.yaml.in/yaml/v3 takes 66 ms to decode a
// cassette of 1,000 judge interactions (3.3 MB), and the release candidate
// go-vcr uses, go.yaml.in/yaml/v4, as long; github.com/goccy/go-yaml takes
// 137 ms (measured 2026-11-24 on the project's 2-core machine). The parser
// below reads, and the recorder indexes, the same file in 8 ms
// (BenchmarkOpenCassette), which is what lets a CLI run that replays one
// sample from a large cassette cost hardly more than from a small one.
//
// The layout: block mappings indented by four spaces as go-vcr writes them,
// every string scalar quoted (single quotes when the text is printable on one
// line, double quotes with escapes otherwise), bytes that are not UTF-8 (a
// PNG, an audio upload) as YAML's !!binary in base64, as go-vcr writes them
// itself, integers plain, empty maps "{}", every field of an interaction
// present, in one order. YAML parsers, go-vcr's included, read it as they
// read any YAML, binary bodies byte for byte.

// encodeCassette writes interactions in the recorder's layout.
func encodeCassette(its []*vcr.Interaction) []byte {
	var b bytes.Buffer
	b.WriteString("---\nversion: 2\ninteractions:\n")
	if len(its) == 0 {
		// An empty sequence must still be one.
		b.Truncate(b.Len() - 1)
		b.WriteString(" []\n")
	}
	return appendInteractions(b.Bytes(), its, 0)
}

// appendInteractions appends interactions to a cassette in the recorder's
// layout, numbered from first.
func appendInteractions(dst []byte, its []*vcr.Interaction, first int) []byte {
	b := bytes.NewBuffer(dst)
	for i, it := range its {
		fmt.Fprintf(b, "    - id: %d\n      request:\n", first+i)
		q := &it.Request
		writeScalar(b, 8, "proto", q.Proto)
		writeInt(b, 8, "proto_major", int64(q.ProtoMajor))
		writeInt(b, 8, "proto_minor", int64(q.ProtoMinor))
		writeInt(b, 8, "content_length", q.ContentLength)
		writeScalar(b, 8, "host", q.Host)
		if q.Body != "" {
			writeScalar(b, 8, "body", q.Body)
		}
		if len(q.Form) > 0 {
			writeHeaders(b, 8, "form", http.Header(q.Form))
		}
		if len(q.Headers) > 0 {
			writeHeaders(b, 8, "headers", q.Headers)
		}
		writeScalar(b, 8, "url", q.URL)
		writeScalar(b, 8, "method", q.Method)
		b.WriteString("      response:\n")
		p := &it.Response
		writeScalar(b, 8, "proto", p.Proto)
		writeInt(b, 8, "proto_major", int64(p.ProtoMajor))
		writeInt(b, 8, "proto_minor", int64(p.ProtoMinor))
		writeInt(b, 8, "content_length", p.ContentLength)
		writeScalar(b, 8, "body", p.Body)
		writeHeaders(b, 8, "headers", p.Headers)
		writeScalar(b, 8, "status", p.Status)
		writeInt(b, 8, "code", int64(p.Code))
		writeScalar(b, 8, "duration", p.Duration.String())
	}
	return b.Bytes()
}

func writeInt(b *bytes.Buffer, indent int, key string, n int64) {
	b.WriteString(strings.Repeat(" ", indent))
	b.WriteString(key)
	b.WriteString(": ")
	b.WriteString(strconv.FormatInt(n, 10))
	b.WriteByte('\n')
}

func writeScalar(b *bytes.Buffer, indent int, key, s string) {
	b.WriteString(strings.Repeat(" ", indent))
	writeQuoted(b, key)
	if chomp, ok := blockStyle(s); ok {
		b.WriteString(": |" + chomp + "\n")
		pad := strings.Repeat(" ", indent+4)
		for line := range strings.SplitSeq(strings.TrimRight(s, "\n"), "\n") {
			if line != "" {
				b.WriteString(pad)
				b.WriteString(line)
			}
			b.WriteByte('\n')
		}
		for range strings.Count(s, "\n") - strings.Count(strings.TrimRight(s, "\n"), "\n") - 1 {
			b.WriteByte('\n')
		}
		return
	}
	b.WriteString(": ")
	writeQuoted(b, s)
	b.WriteByte('\n')
}

// blockStyle says whether s, text of several lines, is written as a literal
// block ("|" with one final line break, "|-" with none, "|+" with more),
// and with which chomping indicator: every character printable, tabs
// allowed, no carriage return, the first line not starting with a space
// or a tab (YAML reads neither as the block's first character), and valid
// UTF-8 as a whole, not only once the line breaks are taken out.
func blockStyle(s string) (chomp string, ok bool) {
	if !strings.Contains(s, "\n") || s[0] == ' ' || s[0] == '\t' || s[0] == '\n' || strings.Contains(s, "\r") || !utf8.ValidString(s) ||
		!singleQuotable(strings.NewReplacer("\n", "", "\t", "").Replace(s)) {
		return "", false
	}
	body := strings.TrimRight(s, "\n")
	switch len(s) - len(body) {
	case 0:
		return "-", true
	case 1:
		return "", true
	}
	return "+", true
}

// writeHeaders writes a header (or form) map, names sorted.
func writeHeaders(b *bytes.Buffer, indent int, key string, h http.Header) {
	b.WriteString(strings.Repeat(" ", indent))
	b.WriteString(key)
	if len(h) == 0 {
		b.WriteString(": {}\n")
		return
	}
	b.WriteString(":\n")
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		b.WriteString(strings.Repeat(" ", indent+4))
		writeQuoted(b, name)
		if len(h[name]) == 0 {
			b.WriteString(": []\n")
			continue
		}
		b.WriteString(":\n")
		for _, v := range h[name] {
			b.WriteString(strings.Repeat(" ", indent+8))
			b.WriteString("- ")
			writeQuoted(b, v)
			b.WriteByte('\n')
		}
	}
}

// writeQuoted writes s as a YAML flow scalar: a plain key when it is a
// simple word, single-quoted when every character is printable, !!binary
// when s is not UTF-8, double-quoted with Go's escapes (all of which YAML
// shares for text) otherwise.
func writeQuoted(b *bytes.Buffer, s string) {
	if isWord(s) {
		b.WriteString(s)
		return
	}
	if singleQuotable(s) {
		b.WriteByte('\'')
		b.WriteString(strings.ReplaceAll(s, "'", "''"))
		b.WriteByte('\'')
		return
	}
	if !utf8.ValidString(s) {
		b.WriteString(binaryTag)
		b.WriteString(base64.StdEncoding.EncodeToString([]byte(s)))
		return
	}
	b.WriteString(strconv.QuoteToGraphic(s))
}

// binaryTag starts a scalar that is not UTF-8 text (a PNG, an audio upload,
// a header of raw bytes): YAML's !!binary type, the bytes in standard base64
// on one line. It is what go-vcr itself writes for such a string (through
// its YAML library), and YAML parsers, go-vcr's included, read it back into
// a string byte for byte.
const binaryTag = "!!binary "

// isWord reports whether s can stay plain: letters, digits, "_" and "-",
// starting with a letter, and not a word YAML reads as a boolean or null.
func isWord(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	switch strings.ToLower(s) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null":
		return false
	}
	return true
}

// singleQuotable reports whether s reads back unchanged from a single-quoted
// scalar on one line: valid UTF-8 whose characters YAML counts printable,
// no line breaks or tabs.
func singleQuotable(s string) bool {
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			return false // invalid UTF-8, or U+FFFD itself: let Go escape it
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f, r == 0x2028, r == 0x2029, r == 0xfeff,
			r >= 0xd800 && r <= 0xdfff, r == 0xfffe, r == 0xffff:
			return false
		}
	}
	return true
}

// errLayout says a file is not in the recorder's own layout; it is then
// read with the YAML library.
var errLayout = errors.New("not the recorder's layout")

// decodeCassette reads a cassette file: the recorder's layout with its own
// parser, anything else with go.yaml.in/yaml/v3 into go-vcr's types.
func decodeCassette(data []byte) ([]*vcr.Interaction, error) {
	if its, err := parseLayout(data); err == nil {
		return its, nil
	}
	// Parsed into nodes first, which costs time and memory in proportion to
	// the file, and checked: yaml.v3 reports a repeated key by comparing
	// every key of a mapping with every other (54 KB of one key repeated
	// took 9.7 s and 3.2 GB), so a repeated key is refused here, at once,
	// and so is a mapping larger than any a cassette holds.
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if err := vcr.CheckMappings(&doc); err != nil {
		return nil, err
	}
	if err := checkLastResponse(&doc); err != nil {
		return nil, err
	}
	var c vcr.Cassette
	if err := doc.Decode(&c); err != nil {
		return nil, err
	}
	if c.Version != vcr.FormatVersion {
		return nil, fmt.Errorf("cassette format version %d, want %d", c.Version, vcr.FormatVersion)
	}
	return c.Interactions, nil
}

// checkLastResponse refuses a cassette whose last response was written by
// go-vcr or the recorder (it has their "proto" field) and has its status
// code but lacks the field they write last, "duration": the file was cut
// after the code. (Without its code, loadCassetteData refuses it.)
func checkLastResponse(doc *yaml.Node) error {
	field := func(m *yaml.Node, key string) *yaml.Node {
		if m == nil || m.Kind != yaml.MappingNode {
			return nil
		}
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == key {
				return m.Content[i+1]
			}
		}
		return nil
	}
	if len(doc.Content) == 0 {
		return nil
	}
	its := field(doc.Content[0], "interactions")
	if its == nil || its.Kind != yaml.SequenceNode || len(its.Content) == 0 {
		return nil
	}
	last := its.Content[len(its.Content)-1]
	resp := field(last, "response")
	if field(resp, "proto") != nil && field(resp, "code") != nil && field(resp, "duration") == nil {
		return fmt.Errorf("line %d: interaction %d of %d has no response duration (the field written last): the file was cut short or edited",
			resp.Line, len(its.Content)-1, len(its.Content))
	}
	return nil
}

func parseLayout(data []byte) ([]*vcr.Interaction, error) {
	p := vcr.NewLineReader(bytes.NewReader(data))
	for _, want := range []string{"---", "version: 2"} {
		if _, text, ok := p.Peek(); !ok || text != want {
			return nil, errLayout
		}
		p.Advance()
	}
	_, text, ok := p.Peek()
	if !ok {
		return nil, errLayout
	}
	p.Advance()
	switch text {
	case "interactions: []":
		if _, _, more := p.Peek(); more {
			return nil, errLayout
		}
		return nil, nil
	case "interactions:":
	default:
		return nil, errLayout
	}
	var its []*vcr.Interaction
	for {
		indent, text, ok := p.Peek()
		if !ok {
			return its, nil
		}
		id, isItem := strings.CutPrefix(text, "- id: ")
		if _, err := strconv.Atoi(id); indent != 4 || !isItem || err != nil {
			return nil, errLayout
		}
		p.Advance()
		it := &vcr.Interaction{ID: len(its)}
		for _, part := range []string{"request:", "response:"} {
			if indent, text, ok := p.Peek(); !ok || indent != 6 || text != part {
				return nil, errLayout
			}
			p.Advance()
			if err := fields(p, it, part == "request:"); err != nil {
				return nil, err
			}
		}
		its = append(its, it)
	}
}

// layoutRequest and layoutResponse are the fields of a request and a
// response in the order appendInteractions writes them; a "?" marks one it
// may leave out. The parser takes nothing else, in no other order, so that
// a file cut short (or edited) is never read as a complete one with fields
// missing: it goes to the YAML library, and loadCassetteData then refuses
// what lost a field that matters.
var (
	layoutRequest  = []string{"proto", "proto_major", "proto_minor", "content_length", "host", "body?", "form?", "headers?", "url", "method"}
	layoutResponse = []string{"proto", "proto_major", "proto_minor", "content_length", "body", "headers", "status", "code", "duration"}
)

// fields reads the fields of a request or a response, indented by 8.
func fields(p *vcr.LineReader, it *vcr.Interaction, request bool) error {
	want := layoutResponse
	if request {
		want = layoutRequest
	}
	for {
		indent, text, ok := p.Peek()
		if !ok || indent != 8 {
			for _, f := range want {
				if !strings.HasSuffix(f, "?") {
					return errLayout // a field is missing
				}
			}
			return nil
		}
		key, value, found := strings.Cut(text, ":")
		if !found {
			return errLayout
		}
		for len(want) > 0 && strings.HasSuffix(want[0], "?") && want[0] != key+"?" {
			want = want[1:]
		}
		if len(want) == 0 || strings.TrimSuffix(want[0], "?") != key {
			return errLayout // a field out of order, repeated or unknown
		}
		want = want[1:]
		value = strings.TrimPrefix(value, " ")
		p.Advance()
		switch key {
		case "headers", "form":
			h, err := headers(p, value)
			if err != nil {
				return err
			}
			switch {
			case key == "form" && request:
				it.Request.Form = map[string][]string(h)
			case request:
				it.Request.Headers = h
			default:
				it.Response.Headers = h
			}
			continue
		case "proto_major", "proto_minor", "content_length", "code":
			n, err := strconv.ParseInt(value, 10, 64)
			if err != nil {
				return errLayout
			}
			switch {
			case key == "code" && !request:
				it.Response.Code = int(n)
			case key == "proto_major" && request:
				it.Request.ProtoMajor = int(n)
			case key == "proto_minor" && request:
				it.Request.ProtoMinor = int(n)
			case key == "content_length" && request:
				it.Request.ContentLength = n
			case key == "proto_major":
				it.Response.ProtoMajor = int(n)
			case key == "proto_minor":
				it.Response.ProtoMinor = int(n)
			case key == "content_length":
				it.Response.ContentLength = n
			default:
				return errLayout
			}
			continue
		}
		var s string
		var err error
		if strings.HasPrefix(value, "|") {
			var ok bool
			if s, ok = p.Block(value[1:]); !ok {
				err = errLayout
			}
		} else {
			s, err = unquote(value)
		}
		if err != nil {
			return err
		}
		switch {
		case key == "proto" && request:
			it.Request.Proto = s
		case key == "host" && request:
			it.Request.Host = s
		case key == "body" && request:
			it.Request.Body = s
		case key == "url" && request:
			it.Request.URL = s
		case key == "method" && request:
			it.Request.Method = s
		case key == "proto":
			it.Response.Proto = s
		case key == "body":
			it.Response.Body = s
		case key == "status":
			it.Response.Status = s
		case key == "duration":
			d, err := time.ParseDuration(s)
			if err != nil {
				return errLayout
			}
			it.Response.Duration = d
		default:
			return errLayout
		}
	}
}

// headers reads a header map indented by 12 (names) and 16 (values).
func headers(p *vcr.LineReader, value string) (http.Header, error) {
	switch value {
	case "{}":
		return http.Header{}, nil
	case "":
	default:
		return nil, errLayout
	}
	h := http.Header{}
	for {
		indent, text, ok := p.Peek()
		if !ok || indent < 12 {
			return h, nil
		}
		if indent != 12 || !strings.HasSuffix(text, ":") && !strings.HasSuffix(text, ": []") {
			return nil, errLayout
		}
		p.Advance()
		rawName, empty := strings.CutSuffix(text, ": []")
		if !empty {
			rawName = strings.TrimSuffix(text, ":")
		}
		name, err := unquote(rawName)
		if err != nil {
			return nil, err
		}
		values := []string{}
		for !empty {
			indent, text, ok := p.Peek()
			if !ok || indent != 16 || !strings.HasPrefix(text, "- ") {
				break
			}
			p.Advance()
			v, err := unquote(text[2:])
			if err != nil {
				return nil, err
			}
			values = append(values, v)
		}
		h[name] = values
	}
}

// unquote reads a scalar as writeQuoted writes it.
func unquote(s string) (string, error) {
	switch {
	case isWord(s):
		return s, nil
	case len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'':
		inner := s[1 : len(s)-1]
		if !strings.Contains(inner, "'") {
			return inner, nil
		}
		if strings.Contains(strings.ReplaceAll(inner, "''", ""), "'") {
			return "", errLayout // a quote not doubled
		}
		return strings.ReplaceAll(inner, "''", "'"), nil
	case len(s) >= 2 && s[0] == '"':
		// Go's escapes as strconv.QuoteToGraphic writes them. A \x escape
		// means a byte to Go and a character to YAML, the same for ASCII,
		// which is all that text in UTF-8 gives it to escape. Earlier
		// versions of the recorder wrote the bytes of a body that is not
		// UTF-8 so; read as Go wrote them, they are the bytes again.
		u, err := strconv.Unquote(s)
		if err != nil {
			return "", errLayout
		}
		return u, nil
	case strings.HasPrefix(s, binaryTag):
		b, err := base64.StdEncoding.DecodeString(s[len(binaryTag):])
		if err != nil {
			return "", errLayout
		}
		return string(b), nil
	}
	return "", errLayout
}
