package secrets

import (
	"bytes"
	"mime"
	"strings"
	"unicode/utf8"
)

// part is a part of a multipart/form-data body: its field name, its own
// Content-Type, whether it is a file, and where its content sits in the
// body.
type part struct {
	name, ctype string
	file        bool
	start, end  int
}

// multipartBoundary is the boundary of a multipart body: from its
// Content-Type, or, without one, from a body that starts with "--" and a
// boundary line followed by a Content-Disposition header.
func multipartBoundary(ctype string, b []byte) string {
	if mt, params, err := mime.ParseMediaType(ctype); err == nil && strings.HasPrefix(mt, "multipart/") {
		return params["boundary"]
	}
	if ctype != "" && !strings.HasPrefix(strings.ToLower(ctype), "multipart/") || !bytes.HasPrefix(b, []byte("--")) {
		return ""
	}
	line, rest, ok := bytes.Cut(b, []byte("\n"))
	if !ok || !bytes.HasPrefix(bytes.TrimLeft(rest, " \t"), []byte("Content-Disposition")) &&
		!bytes.Contains(rest[:min(len(rest), 256)], []byte("Content-Disposition:")) {
		return ""
	}
	return string(bytes.TrimRight(line[2:], "\r"))
}

// multipartParts splits a multipart body at its boundary.
func multipartParts(b []byte, boundary string) []part {
	if boundary == "" {
		return nil
	}
	delim := []byte("--" + boundary)
	var out []part
	at := bytes.Index(b, delim)
	for at >= 0 {
		at += len(delim)
		if bytes.HasPrefix(b[at:], []byte("--")) {
			break // the closing delimiter
		}
		next := bytes.Index(b[at:], delim)
		end := len(b)
		if next >= 0 {
			end = at + next
		}
		p := b[at:end]
		head, sep := bytes.Index(p, []byte("\r\n\r\n")), 4
		if head < 0 {
			head, sep = bytes.Index(p, []byte("\n\n")), 2
		}
		if head >= 0 {
			pt := part{start: at + head + sep, end: end}
			// The line break before the next delimiter belongs to it.
			if bytes.HasSuffix(b[pt.start:pt.end], []byte("\r\n")) {
				pt.end -= 2
			} else if bytes.HasSuffix(b[pt.start:pt.end], []byte("\n")) {
				pt.end--
			}
			for _, line := range strings.Split(string(p[:head]), "\n") {
				name, value, ok := strings.Cut(strings.TrimSpace(line), ":")
				if !ok {
					continue
				}
				switch strings.ToLower(strings.TrimSpace(name)) {
				case "content-disposition":
					if _, params, err := mime.ParseMediaType(strings.TrimSpace(value)); err == nil {
						pt.name = params["name"]
						_, pt.file = params["filename"]
					}
				case "content-type":
					pt.ctype = strings.TrimSpace(value)
				}
			}
			if pt.end >= pt.start {
				out = append(out, pt)
			}
		}
		if next < 0 {
			break
		}
		at = end
	}
	return out
}

// textPart: a part's content is text to scan (not an image or audio).
func textPart(p part, content []byte) bool {
	mt, _, _ := mime.ParseMediaType(p.ctype)
	switch {
	case strings.HasPrefix(mt, "text/"), strings.HasSuffix(mt, "json"), strings.HasSuffix(mt, "xml"),
		mt == "application/x-www-form-urlencoded", mt == "application/x-ndjson":
		return true
	case mt != "":
		return false
	}
	return utf8.Valid(content)
}

// multipart scrubs a multipart/form-data body part by part: the value of
// a field whose name says it is a credential becomes its placeholder, a
// text part is scrubbed as its Content-Type says; files that are not text
// (images, audio) stay as they are, byte for byte.
func (x *Redactor) multipart(b []byte, parts []part) ([]byte, bool) {
	var out []byte
	at, changed := 0, false
	for _, p := range parts {
		content := b[p.start:p.end]
		if !textPart(p, content) {
			continue
		}
		var repl []byte
		if v := string(content); !p.file && x.secretValue(p.name, v, true) {
			repl = []byte(x.replacement(v))
		} else if c, ok := x.content(content, p.ctype); ok {
			repl = c
		} else {
			continue
		}
		out = append(append(out, b[at:p.start]...), repl...)
		at, changed = p.end, true
	}
	if !changed {
		return nil, false
	}
	return append(out, b[at:]...), true
}
