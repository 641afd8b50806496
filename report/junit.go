package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/agentcheck/agentcheck/internal/shown"
)

// JUnit XML, as CI systems read test reports: one <testsuite> with a
// <testcase> per case (named by Run.Name, its classname the file), its
// scores as <properties>, a <failure> carrying the case's failures, reasons
// and report when it failed (exactly the cases the gates and the baseline
// fail, so that the report and the exit status agree), an <error> when it
// could not be scored, the reasons for its scores as <system-out>
// otherwise; then a <testcase> per gate over the run. The suite's counts
// come first in the file and are known only at the end, so the cases'
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
	SystemOut  string           `xml:"system-out,omitempty"`
}

// newJUnitMessage is a failure or an error: its first line the message,
// the whole of it the text when there is more.
func newJUnitMessage(typ, text string) *junitMessage {
	m := &junitMessage{Type: typ, Message: text}
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		m.Message, m.Text = text[:i], text
	}
	return m
}

func (w *Writer) appendJUnitCase(b []byte, c *Case) []byte {
	jc := junitCase{Name: shown.Text(w.run.Name(c)), Classname: shown.Text(c.File)}
	if c.Error != "" {
		// An input error (no sample: Index -1, where it was met) is told
		// apart from a sample that could not be scored.
		typ := "not scored"
		if c.Index < 0 {
			typ = "input error"
		}
		jc.Error = newJUnitMessage(typ, shown.Lines(c.Error))
	} else {
		jc.Properties = &junitProperties{}
		for j, m := range w.run.Metrics {
			x := math0(c.Scores, j)
			jc.Properties.Property = append(jc.Properties.Property, junitProperty{Name: m.Name, Value: string(appendNumber(nil, x))})
		}
	}
	reasons := w.reasons(c)
	if len(c.Failures) > 0 {
		text := strings.Join(c.Failures, "\n")
		if reasons != "" {
			text += "\n\n" + reasons
		}
		if c.Report != "" {
			text += "\n\n" + c.Report
		}
		jc.Failure = newJUnitMessage("score", shown.Lines(text))
	} else if reasons != "" && c.Error == "" {
		jc.SystemOut = shown.Lines(reasons)
	}
	return appendXML(b, jc)
}

// reasons are a case's reasons, "metric = score: reason" a line each.
func (w *Writer) reasons(c *Case) string {
	var lines []string
	for j, r := range c.Reasons {
		if r != "" && j < len(w.run.Metrics) {
			lines = append(lines, w.run.Metrics[j].Name+" = "+fullScoreOrDash(math0(c.Scores, j))+": "+r)
		}
	}
	return strings.Join(lines, "\n")
}

// math0 is xs[j], NaN past its end.
func math0(xs []float64, j int) float64 {
	if j < len(xs) {
		return xs[j]
	}
	return nan
}

func fullScoreOrDash(x float64) string {
	if x != x {
		return "-"
	}
	return fullScore(x)
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

// gateCaseName names a gate's testcase.
func gateCaseName(g Gate) string {
	if g.Kind == gateMean && g.Metric != "" {
		return fmt.Sprintf("mean %s >= %s", g.Metric, fullScore(g.Threshold))
	}
	return g.Name
}

// writeJUnit writes the report: the suite with its counts, the cases'
// testcases from the spool, then the gates'.
func (w *Writer) writeJUnit() error {
	r := w.run
	failed := r.Failed
	var gates []junitCase
	for _, g := range r.Gates {
		if g.Kind == gateSample {
			continue // its cases fail
		}
		c := junitCase{Name: shown.Text(gateCaseName(g)), Classname: "agentcheck.gates"}
		if g.Value == g.Value {
			c.Properties = &junitProperties{[]junitProperty{{Name: g.Kind, Value: fullScore(g.Value)}}}
		}
		if !g.Pass {
			failed++
			c.Failure = newJUnitMessage("gate", shown.Lines(g.Detail))
		}
		gates = append(gates, c)
	}
	title := r.Title
	if title == "" {
		title = "agentcheck"
	}
	attrs := func(names ...string) []xml.Attr {
		values := map[string]string{
			"name":     shown.Text(title),
			"tests":    strconv.Itoa(r.Samples + r.Unread + len(gates)),
			"failures": strconv.Itoa(failed),
			"errors":   strconv.Itoa(r.Errors + r.Unread),
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
	if _, err := w.out.Write(head.Bytes()); err != nil {
		return err
	}
	if err := w.junit.writeTo(w.out); err != nil {
		return err
	}
	var tail []byte
	for _, c := range gates {
		tail = appendXML(tail, c)
	}
	tail = append(tail, "  </testsuite>\n</testsuites>\n"...)
	_, err := w.out.Write(tail)
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
	f := s.f
	s.f = nil
	return errors.Join(f.Close(), os.Remove(f.Name()))
}
