package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// --format junit writes JUnit XML, as CI systems read test reports: one
// <testsuite> with a <testcase> per sample (named by sampleName, its
// classname the file), its scores as <properties>, a <failure> when it fell
// below a --sample-threshold or its baseline score, an <error> when it could
// not be scored; then a <testcase> per --fail-under gate. The suite's counts
// come first in the file and are known only at the end, so the sample's
// testcases are kept aside until then (in memory, or in a temporary file
// past spoolMemory).

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitProperties struct {
	Property []junitProperty `xml:"property"`
}

type junitCase struct {
	XMLName    xml.Name         `xml:"testcase"`
	Name       string           `xml:"name,attr"`
	Classname  string           `xml:"classname,attr"`
	Properties *junitProperties `xml:"properties"`
	Failure    *junitMessage    `xml:"failure,omitempty"`
	Error      *junitMessage    `xml:"error,omitempty"`
}

// newJUnitMessage is a failure or an error: its first line the message, the
// whole of it the text when there is more.
func newJUnitMessage(typ, text string) *junitMessage {
	m := &junitMessage{Type: typ, Message: text}
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		m.Message, m.Text = text[:i], text
	}
	return m
}

// appendJUnitCase writes a sample's testcase: its scores, and a failure for
// each of its notes (nil scores: err says why it was not scored).
func (sc *scorer) appendJUnitCase(b []byte, it *item, name string, notes []note, err error) []byte {
	c := junitCase{Name: shownText(name), Classname: shownText(it.rec.File)}
	if err != nil {
		c.Error = newJUnitMessage("not scored", shownLines(err.Error()))
	} else {
		c.Properties = &junitProperties{}
		for j, x := range sc.scores {
			c.Properties.Property = append(c.Properties.Property, junitProperty{Name: sc.cfg.names[j], Value: fullScore(x)})
		}
	}
	if len(notes) > 0 {
		var msgs []string
		for _, n := range notes {
			switch n.kind {
			case noteBelow:
				g := sc.cfg.sampleThresholds[n.index]
				msgs = append(msgs, fmt.Sprintf("Expected %s to be at least %s (%s), but it is %s", g.name, fullScore(g.threshold), g.flag, fullScore(n.score)))
			case noteRegressed:
				msgs = append(msgs, fmt.Sprintf("Expected %s to be no lower than in the baseline %s (tolerance %s), but it went from %s to %s",
					sc.cfg.names[n.index], sc.cfg.base.path, fullScore(sc.cfg.baselineTolerance), fullScore(n.old), fullScore(n.score)))
			}
		}
		if len(msgs) > 0 {
			c.Failure = newJUnitMessage("score", strings.Join(msgs, "\n"))
		}
	}
	return appendXML(b, c)
}

func appendXML(b []byte, v any) []byte {
	buf := bytes.NewBuffer(b)
	enc := xml.NewEncoder(buf)
	enc.Indent("    ", "  ")
	if err := enc.Encode(v); err != nil {
		panic(err) // the types above always encode
	}
	buf.WriteByte('\n')
	return buf.Bytes()
}

// writeJUnit writes the report: the suite with its counts, the samples'
// testcases from cases, then the gates'.
func writeJUnit(w io.Writer, r *runResult, cases *spool, failed int) error {
	var gates []junitCase
	for _, g := range r.failUnder {
		c := junitCase{Name: fmt.Sprintf("mean %s >= %s", g.name, fullScore(g.threshold)), Classname: "agentcheck.gates"}
		but := "no sample was scored"
		if r.total.samples > r.total.errors {
			c.Properties = &junitProperties{[]junitProperty{{Name: "mean", Value: fullScore(g.mean)}}}
			but = "it is " + fullScore(g.mean)
		}
		if !g.pass {
			failed++
			c.Failure = newJUnitMessage("gate", fmt.Sprintf("Expected the mean %s to be at least %s (%s), but %s", g.name, fullScore(g.threshold), g.flag, but))
		}
		gates = append(gates, c)
	}
	attrs := func(names ...string) []xml.Attr {
		values := map[string]string{
			"name":     "agentcheck eval",
			"tests":    strconv.Itoa(r.total.samples + len(gates)),
			"failures": strconv.Itoa(failed),
			"errors":   strconv.Itoa(r.total.errors),
			"skipped":  "0",
		}
		var a []xml.Attr
		for _, n := range names {
			a = append(a, xml.Attr{Name: xml.Name{Local: n}, Value: values[n]})
		}
		return a
	}
	var head bytes.Buffer
	head.WriteString(xml.Header)
	enc := xml.NewEncoder(&head)
	enc.EncodeToken(xml.StartElement{Name: xml.Name{Local: "testsuites"}, Attr: attrs("name", "tests", "failures", "errors")})
	enc.Flush()
	head.WriteString("\n  ")
	enc.EncodeToken(xml.StartElement{Name: xml.Name{Local: "testsuite"}, Attr: attrs("name", "tests", "failures", "errors", "skipped")})
	if err := enc.Flush(); err != nil {
		return err
	}
	head.WriteString("\n")
	if _, err := w.Write(head.Bytes()); err != nil {
		return err
	}
	if err := cases.writeTo(w); err != nil {
		return err
	}
	var tail []byte
	for _, c := range gates {
		tail = appendXML(tail, c)
	}
	tail = append(tail, "  </testsuite>\n</testsuites>\n"...)
	_, err := w.Write(tail)
	return err
}

// spoolMemory is how much of a JUnit report is kept in memory before the
// rest goes to a temporary file.
const spoolMemory = 64 << 20

// spool keeps bytes aside, in memory up to limit (0: spoolMemory), then
// in a temporary file.
type spool struct {
	limit int
	mem   bytes.Buffer
	f     *os.File
	err   error
}

func (s *spool) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	limit := s.limit
	if limit == 0 {
		limit = spoolMemory
	}
	if s.f == nil && s.mem.Len()+len(p) > limit {
		if s.f, s.err = os.CreateTemp("", "agentcheck-junit-*"); s.err != nil {
			s.err = fmt.Errorf("the JUnit report outgrew memory: %w", s.err)
			return 0, s.err
		}
		if _, s.err = s.mem.WriteTo(s.f); s.err != nil {
			return 0, s.err
		}
	}
	if s.f != nil {
		_, s.err = s.f.Write(p)
		return len(p), s.err
	}
	return s.mem.Write(p)
}

func (s *spool) writeTo(w io.Writer) error {
	if s.err != nil {
		return s.err
	}
	if s.f == nil {
		_, err := s.mem.WriteTo(w)
		return err
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err := io.Copy(w, s.f)
	return err
}

// close removes the temporary file, if any.
func (s *spool) close() error {
	if s.f == nil {
		return nil
	}
	return errors.Join(s.f.Close(), os.Remove(s.f.Name()))
}
