package report

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Writer renders a Run in a Format a case at a time: NewWriter with the
// run's header (Title, Inputs, Metrics' names, the judges), WriteCase for
// each case in order, then Close once the run's summary (Metrics, Gates,
// Baseline, counts, Pass) is filled in. The table, jsonl and json write each
// case as it comes; junit keeps the cases aside (in memory, then in a
// temporary file) until its counts are known; markdown keeps the first
// failing cases up to its size bound; html keeps every case, a passing one
// as its row of the page. A Writer is not safe for concurrent use.
type Writer struct {
	// out buffers the formats that write in pieces of their own (JUnit,
	// HTML); the others write b to dst as it fills.
	out *bufio.Writer
	dst io.Writer
	f   Format
	run *Run
	n   int // cases written
	// b holds what was written since the last flush (a json run's head,
	// cases), flushed once it holds more than flushAt bytes: a case is
	// written into it once, not copied again into out's buffer (a write
	// larger than a bufio.Writer's buffer passes through when the buffer
	// is empty, as it is but at Close).
	b       []byte
	flushAt int
	err     error

	floats *[floatSlots]floatText // formatted scores, a run's are mostly a few
	// keys[j] is metric j's key in a case's object, escaped once for the
	// run's cases rather than once in each (see appendKey).
	keys []metricKey
	// plain marks, while a case is written through plainreason.WriteCase,
	// the metrics whose reasons are plain JSON text (bit j, metric j).
	plain uint64
	junit *spool
	md    markdownCases
	table tableRows
	html  htmlCases
}

// NewWriter returns a Writer of r in format f to w. r is read again by
// Close, for its summary; it is not written to.
func NewWriter(w io.Writer, f Format, r *Run) *Writer {
	size := outBuffer(w)
	wr := &Writer{dst: w, flushAt: size, f: f, run: r}
	if f == JUnit || f == HTML {
		wr.out = bufio.NewWriterSize(w, size)
	} else if size > minBuffer {
		// b fills to a little over size before each write: its memory
		// at once, rather than in the eight steps of append's doubling.
		// Each page of fresh memory costs a fault the first time it is
		// touched, 15 µs on the machine of BENCHMARKS.md (CPU17).
		wr.b = make([]byte, 0, 2*size)
	}
	switch f {
	case Table:
		// The header waits for the first rows, which set the width of
		// the sample column.
	case JSON:
		wr.b = append(wr.b[:0], `{"samples":[`...)
	case JUnit:
		wr.junit = &spool{}
	case Markdown, JSONL, HTML:
	default:
		wr.err = fmt.Errorf("report: unknown format %v", f)
	}
	return wr
}

// outBuffer is the size of the Writer's buffer in front of w: 64 KiB, so
// that a run of many cases writes a file or pipe in few system calls, but
// for memory, which takes writes as they come. A bufio.Writer passes a
// write larger than its buffer straight through, so a small one costs
// nothing there, where 64 KiB was fresh memory for each Writer: a fifth of
// a test's time under the race detector that renders 24,000 cases, each
// with its own Writer.
func outBuffer(w io.Writer) int {
	switch w.(type) {
	case *bytes.Buffer, *strings.Builder:
		return minBuffer
	}
	return 1 << 16
}

// minBuffer is the Writer's buffer in front of memory.
const minBuffer = 512

// Write renders r, cases and summary, in format f to w.
func Write(w io.Writer, r *Run, f Format) error {
	wr := NewWriter(w, f, r)
	for i := range r.Cases {
		if err := wr.WriteCase(&r.Cases[i]); err != nil {
			wr.Close()
			return err
		}
	}
	return wr.Close()
}

// WriteCase writes a case. The Writer keeps none of c's memory: c may be
// reused for the next case.
func (w *Writer) WriteCase(c *Case) error {
	if w.err != nil {
		return w.err
	}
	b := w.b
	switch w.f {
	case Table:
		b = w.table.add(b, w, c)
	case JSONL:
		b = w.appendCaseJSON(b, c, false)
		b = append(b, '\n')
	case JSON:
		if w.n > 0 {
			b = append(b, ',')
		}
		b = append(b, '\n')
		b = w.appendCaseJSON(b, c, true)
	case JUnit:
		b = w.appendJUnitCase(b[:0], c)
		if _, err := w.junit.Write(b); err != nil {
			w.err = err
		}
		b = b[:0]
	case Markdown:
		w.md.add(w.run, c)
	case HTML:
		w.html.add(w.run, c)
	}
	w.n++
	w.b = b
	if len(b) > w.flushAt {
		w.flush()
	}
	return w.err
}

// flush writes w.b out.
func (w *Writer) flush() {
	if w.err == nil && len(w.b) > 0 {
		if w.out != nil {
			_, w.err = w.out.Write(w.b)
		} else {
			_, w.err = w.dst.Write(w.b)
		}
	}
	w.b = w.b[:0]
}

// Close writes the run's summary and flushes the output. It reports the
// first error writing met.
func (w *Writer) Close() error {
	if w.junit != nil {
		defer w.junit.close()
	}
	if w.flush(); w.err != nil {
		return w.err
	}
	b := w.b[:0]
	switch w.f {
	case Table:
		b = w.table.start(b, w)
		b = w.appendTableSummary(b)
	case JSON:
		if w.n > 0 {
			b = append(b, '\n')
		}
		b = append(b, `],"summary":`...)
		b = w.appendSummaryJSON(b)
		b = append(b, `,"run":`...)
		b = appendRunJSON(b, w.run)
		b = append(b, "}\n"...)
	case JUnit:
		w.err = w.writeJUnit()
	case Markdown:
		b = w.md.appendMarkdown(b, w.run)
	case HTML:
		w.err = w.html.write(w.out, w.run)
	}
	w.b = b
	w.flush()
	if w.err == nil && w.out != nil {
		w.err = w.out.Flush()
	}
	if w.err == nil {
		w.err = errClosed
		return nil
	}
	return w.err
}

var errClosed = errors.New("report: the Writer is closed")

// Name is how messages and reports name a case: its ID, else "line N"
// ("FILE line N" when the run read several inputs), else its file (one
// that could not be read).
func (r *Run) Name(c *Case) string {
	if c.ID != "" {
		return c.ID
	}
	if c.Line == 0 {
		return c.File
	}
	if len(r.Inputs) > 1 {
		return c.File + " line " + strconv.Itoa(c.Line)
	}
	return "line " + strconv.Itoa(c.Line)
}

// keep is c as the html Writer keeps it: a passing case summarised, and
// every string copied, so that the Writer holds none of the caller's
// memory (see WriteCase).
func keep(c *Case) Case {
	k := *c
	k.ID, k.File, k.Status = strings.Clone(c.ID), strings.Clone(c.File), Status(strings.Clone(string(c.Status)))
	k.Error, k.Request, k.Report = strings.Clone(c.Error), strings.Clone(c.Request), strings.Clone(c.Report)
	k.Scores = append([]float64(nil), c.Scores...)
	k.Reasons = cloneStrings(c.Reasons)
	k.Failures = cloneStrings(c.Failures)
	k.Runs = nil
	for i := range c.Runs {
		k.Runs = append(k.Runs, keep(&c.Runs[i]))
	}
	if c.Status == Pass {
		k.Report, k.Verdicts, k.Transcript = "", nil, nil
		return k
	}
	k.Verdicts = nil
	for _, v := range c.Verdicts {
		kv := Verdict{Metric: strings.Clone(v.Metric), Judge: strings.Clone(v.Judge), Score: v.Score,
			Reason: strings.Clone(v.Reason), Error: strings.Clone(v.Error), Source: strings.Clone(v.Source)}
		for _, cr := range v.Criteria {
			kv.Criteria = append(kv.Criteria, Criterion{Name: strings.Clone(cr.Name), Met: cr.Met, Reason: strings.Clone(cr.Reason)})
		}
		k.Verdicts = append(k.Verdicts, kv)
	}
	k.Transcript = nil
	for _, m := range c.Transcript {
		km := Message{Role: strings.Clone(m.Role), Content: strings.Clone(m.Content), Reasoning: strings.Clone(m.Reasoning)}
		for _, call := range m.Calls {
			km.Calls = append(km.Calls, Call{Name: strings.Clone(call.Name), Args: strings.Clone(call.Args)})
		}
		k.Transcript = append(k.Transcript, km)
	}
	return k
}

func cloneStrings(ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.Clone(s)
	}
	return out
}
