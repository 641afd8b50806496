package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentcheck/agentcheck/internal/shown"
	"github.com/agentcheck/agentcheck/internal/wordscan"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// The table: where each case is (file when there are several inputs; its
// id, else its index; its line), a column per metric, and the start of its
// request so that rows can be told apart; a mean per metric last. The
// first tableLookahead rows are kept until the header is written, so that
// the sample column fits their ids (up to maxIDWidth); a longer id later
// pushes its row out of line.

const (
	sampleWidth    = 6
	lineWidth      = 6
	requestWidth   = 60 // runes of the request shown
	tableLookahead = 1000
	maxIDWidth     = 40
)

// tableRows are the rows kept until the header is written, and the sample
// column's width once it is.
type tableRows struct {
	started bool
	kept    []Case
	ids     bool // the sample column shows ids, left-aligned
	width   int
}

// add writes c's row to b, or keeps it until the header is written.
func (t *tableRows) add(b []byte, w *Writer, c *Case) []byte {
	if t.started {
		return w.appendTableRow(b, c)
	}
	if c.ID != "" {
		t.ids = true
		t.width = max(t.width, min(maxIDWidth, utf8.RuneCountInString(shown.Name(c.ID))))
	}
	t.kept = append(t.kept, tableCase(c))
	if len(t.kept) == tableLookahead {
		return t.start(b, w)
	}
	return b
}

// start writes the header and the rows kept, once.
func (t *tableRows) start(b []byte, w *Writer) []byte {
	if t.started {
		return b
	}
	t.started = true
	t.width = max(t.width, sampleWidth)
	b = w.appendTableHeader(b)
	for i := range t.kept {
		b = w.appendTableRow(b, &t.kept[i])
	}
	t.kept = nil
	return b
}

// tableCase is what a row needs of c, in memory of its own.
func tableCase(c *Case) Case {
	return Case{ID: strings.Clone(c.ID), File: strings.Clone(c.File), Line: c.Line, Index: c.Index,
		Error: strings.Clone(c.Error), Request: strings.Clone(c.Request), Scores: append([]float64(nil), c.Scores...)}
}

func columnWidth(metric string) int { return max(len(metric), len("0.6667")) }

// fileWidth is the width of the file column, 0 for one input.
func (w *Writer) fileWidth() int {
	if len(w.run.Inputs) < 2 {
		return 0
	}
	n := 0
	for _, in := range w.run.Inputs {
		n = max(n, utf8.RuneCountInString(shown.Name(in)))
	}
	return n
}

func (w *Writer) appendTableHeader(b []byte) []byte {
	b = w.appendRowStart(b, "file", "sample", "line")
	for _, m := range w.run.Metrics {
		b = appendCell(b, m.Name, columnWidth(m.Name))
	}
	return append(b, "  request\n"...)
}

func (w *Writer) appendTableRow(b []byte, c *Case) []byte {
	sample, line := strconv.Itoa(c.Index), strconv.Itoa(c.Line)
	if c.ID != "" {
		sample = shown.Name(c.ID)
	}
	if c.Index < 0 {
		sample, line = "-", "-"
	}
	b = w.appendRowStart(b, c.File, sample, line)
	if c.Error != "" {
		b = append(b, "  error: "...)
		b = append(b, shown.Text(strings.ReplaceAll(c.Error, "\n", " "))...)
		return append(b, '\n')
	}
	for j, m := range w.run.Metrics {
		start := len(b)
		b = append(b, "  "...)
		x := math.NaN()
		if j < len(c.Scores) {
			x = c.Scores[j]
		}
		b = w.appendShortScore(b, x)
		b = pad(b, start+2+columnWidth(m.Name))
	}
	b = append(b, "  "...)
	b = append(b, shown.Text(oneLine(c.Request, requestWidth))...)
	return append(b, '\n')
}

func (w *Writer) appendTableSummary(b []byte) []byte {
	r := w.run
	scored := r.Samples - r.Errors
	b = w.appendRowStart(b, "", "", "mean")
	for _, m := range r.Metrics {
		cell := "-"
		if scored > 0 && !math.IsNaN(m.Mean) {
			cell = shortScore(m.Mean)
		}
		b = appendCell(b, cell, columnWidth(m.Name))
	}
	b = fmt.Appendf(b, "  %d %s, %d scored, %d could not be scored", r.Samples, inflect(r.Samples, "sample", "samples"), scored, r.Errors)
	return append(appendUnread(b, r.Unread), '\n')
}

// appendShortScore writes a score rounded to four decimals, "-" for NaN.
func (w *Writer) appendShortScore(b []byte, x float64) []byte {
	if math.IsNaN(x) {
		return append(b, '-')
	}
	return strconv.AppendFloat(b, x, 'f', 4, 64)
}

// shortScore writes a score as the table does: four decimals.
func shortScore(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }

// fullScore writes a score to the last bit, as Python's repr writes a
// float (1.0, 0.6666666666666666).
func fullScore(x float64) string { return jsonvalue.Float(x).String() }

func appendCell(b []byte, text string, width int) []byte {
	start := len(b)
	b = append(b, "  "...)
	b = append(b, text...)
	return pad(b, start+2+width)
}

// pad appends spaces up to length n.
func pad(b []byte, n int) []byte {
	for len(b) < n {
		b = append(b, ' ')
	}
	return b
}

// appendRowStart writes the columns that say where a row's case is.
func (w *Writer) appendRowStart(b []byte, file, sample, line string) []byte {
	if fileWidth := w.fileWidth(); fileWidth > 0 {
		if file != "" {
			file = shown.Name(file)
		}
		b = appendLeft(b, file, fileWidth+2)
	}
	if w.table.ids {
		b = appendLeft(b, sample, w.table.width)
	} else {
		b = appendRight(b, sample, w.table.width)
	}
	b = append(b, "  "...)
	return appendRight(b, line, lineWidth)
}

func appendLeft(b []byte, s string, width int) []byte {
	b = append(b, s...)
	for n := utf8.RuneCountInString(s); n < width; n++ {
		b = append(b, ' ')
	}
	return b
}

func appendRight(b []byte, s string, width int) []byte {
	for n := utf8.RuneCountInString(s); n < width; n++ {
		b = append(b, ' ')
	}
	return append(b, s...)
}

// oneLine is s on one line, its runs of white space one space each, cut
// to n runes with "…".
func oneLine(s string, n int) string {
	if needsFolding(s) {
		s = strings.Join(strings.Fields(s), " ")
	}
	// A string of at most n bytes has at most n runes: most reasons are
	// not counted.
	if len(s) > n && utf8.RuneCountInString(s) > n {
		runes := []rune(s)
		s = string(runes[:n-1]) + "…"
	}
	return s
}

// needsFolding reports whether s has a line break, tab, vertical tab or
// form feed, or two spaces in a row, for oneLine to fold (oneLine runs on
// every reason of every case): eight bytes at a time, up to a word with a
// control character, then byte by byte. (strings.Contains(s, "  ") stops
// at every space: a reason's words made it most of the cost.)
func needsFolding(s string) bool {
	i := 0
	space := false // the byte before i is a space
	for ; i+8 <= len(s); i += 8 {
		w := wordscan.Load(s, i)
		if wordscan.Below(w, 0x20) != 0 {
			break
		}
		sp := wordscan.EqualExact(w, ' ')
		if sp&(sp>>8) != 0 || space && sp&0x80 != 0 {
			return true
		}
		space = sp>>63 != 0
	}
	for ; i < len(s); i++ {
		switch s[i] {
		case '\n', '\r', '\t', '\v', '\f':
			return true
		case ' ':
			if space {
				return true
			}
			space = true
		default:
			space = false
		}
	}
	return false
}
