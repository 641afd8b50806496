package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// The HTML report's bounds: the failing, erring and flaky cases shown in
// full (the others are summarised, a table row each, as the passing cases
// are), the messages shown of a transcript, and the bytes shown of one text
// (a message, a reason, a report; cut with a note saying how much was left
// out). With them, a run of any size gives a page of a few MB.
const (
	htmlFullCases = 250
	htmlOpenCases = 10 // of them, opened as the page loads
	htmlRowWhy    = 200
)

//go:embed html.tmpl
var htmlText string

// htmlTemplate is parsed on first use: a run that writes no HTML does not
// pay for it when the program starts (1.3-2.3 ms of the CLI's start).
var htmlTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("html").Funcs(template.FuncMap{
		"score": formatScore,
		"delta": func(old, new float64) string {
			d := new - old
			if d > 0 {
				return "+" + formatScore(d)
			}
			return formatScore(d)
		},
		"clip": clip,
		"sub":  func(a, b int) int { return a - b },
		"role": func(role string) string {
			switch role {
			case "human":
				return "user"
			case "ai":
				return "assistant"
			}
			return role
		},
	}).Parse(htmlText))
})

// htmlPage is what the template shows of a Run.
type htmlPage struct {
	Run               *Run
	Title             string
	Started, Duration string
	Metrics           []htmlMetric
	// Failing counts the failing and erring cases, Flaky the flaky ones,
	// FailingSamples the failing and erring cases that are samples (not an
	// input error, Run.Unread); Show is the filter the page opens with.
	Failing, Flaky, FailingSamples int
	Show                           string
	// Full are the cases shown in full, failing first; Capped counts the
	// failing and flaky cases summarised because Full was full, capped are
	// those of them kept whole (flaky ones, past the failing ones).
	Full    []htmlCase
	capped  []*Case
	Capped  int
	MaxFull int
	// All counts the cases; Passing says whether any passed.
	All     int
	Passing bool
	// WhyColumn is the rows' column that says why a case failed, after
	// its name, status and scores.
	WhyColumn int
}

type htmlMetric struct {
	Name, Mean, SD, PassRate, Threshold string
	MeanLo, MeanHi, PassLo, PassHi      string
	N                                   int
	Counts                              string
	Bars                                []htmlBar
}

type htmlBar struct {
	X, Y, H     float64
	Fill, Label string
	Count       int
}

type htmlCase struct {
	Case   *Case
	Index  int
	Name   string
	Where  string
	Filter string // "fail" (failing or erring), "flaky" or "pass": the filters' classes
	Open   bool
	Scores []htmlScore
	Runs   []htmlCase
}

type htmlScore struct {
	Metric, Score, Reason string
	OK                    bool
}

// htmlCases renders the HTML report: one self-contained page with the
// run's facts, gates, metrics (mean and pass rate with 95% intervals, a
// histogram each), the baseline comparison, and its cases, failing first,
// filtered by failing, flaky or all with radio buttons and CSS (the page has
// no script). The Writer adds the cases as they come: a passing case is kept
// as its summarised row, written at once, the failing, erring and flaky ones
// whole (as keep makes them) up to htmlFullCases of each, the others as
// rows too, so that a run of any size takes bounded memory beyond its rows.
// The template escapes every text from the run; the rows, which a run of
// 100,000 cases has as many of, are written by appendRow through
// html/template's HTMLEscapeString, so that they cost no more than a jsonl
// line.
type htmlCases struct {
	n int
	// failing (and erring) and flaky are the first htmlFullCases cases of
	// each, kept whole; failingRows and flakyRows the others' rows, and
	// nFailing and nFlaky count them all.
	failing, flaky         []Case
	failingRows, flakyRows htmlRows
	nFailing, nFlaky       int
	rows                   htmlRows           // the passing cases' rows
	scores                 map[float64]string // formatted scores: a run's are mostly a few
	// full, when set, takes htmlFullCases's place: a test's smaller bound.
	full int
}

// fullCases is how many failing, and how many flaky, cases the page shows
// in full: htmlFullCases.
func (h *htmlCases) fullCases() int {
	if h.full > 0 {
		return h.full
	}
	return htmlFullCases
}

func (h *htmlCases) add(r *Run, c *Case) {
	h.n++
	switch c.Status {
	case Fail, Error:
		h.nFailing++
		if len(h.failing) < h.fullCases() {
			h.failing = append(h.failing, keep(c))
		} else {
			h.failingRows.add(h.appendRow(h.failingRows.tail(), r, c))
		}
	case Flaky:
		h.nFlaky++
		if len(h.flaky) < h.fullCases() {
			h.flaky = append(h.flaky, keep(c))
		} else {
			h.flakyRows.add(h.appendRow(h.flakyRows.tail(), r, c))
		}
	default:
		h.rows.add(h.appendRow(h.rows.tail(), r, c))
	}
}

// write writes the page of r and the cases added: the first htmlFullCases
// failing and flaky cases in full, failing first, then the rest of them a
// row each, in the same order, then the passing cases' rows.
func (h *htmlCases) write(w io.Writer, r *Run) error {
	p := newHTMLPage(r, h)
	if err := htmlTemplate().ExecuteTemplate(w, "top", p); err != nil {
		return fmt.Errorf("report: html: %w", err)
	}
	for _, c := range p.capped {
		h.failingRows.add(h.appendRow(h.failingRows.tail(), r, c))
	}
	if err := h.failingRows.writeTo(w); err != nil {
		return err
	}
	if err := h.flakyRows.writeTo(w); err != nil {
		return err
	}
	if err := htmlTemplate().ExecuteTemplate(w, "middle", p); err != nil {
		return fmt.Errorf("report: html: %w", err)
	}
	if err := h.rows.writeTo(w); err != nil {
		return err
	}
	if err := htmlTemplate().ExecuteTemplate(w, "bottom", p); err != nil {
		return fmt.Errorf("report: html: %w", err)
	}
	return nil
}

func newHTMLPage(r *Run, h *htmlCases) *htmlPage {
	p := &htmlPage{Run: r, Title: r.Title, MaxFull: h.fullCases(), Started: "unknown", All: h.n}
	if p.Title == "" {
		p.Title = "agentcheck run"
	}
	if !r.Started.IsZero() {
		p.Started = r.Started.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	if r.Duration > 0 {
		p.Duration = r.Duration.Round(time.Millisecond).String()
	}
	for _, m := range r.Metrics {
		p.Metrics = append(p.Metrics, newHTMLMetric(m))
	}
	p.Failing, p.Flaky = h.nFailing, h.nFlaky
	p.FailingSamples = max(0, h.nFailing-r.Unread)
	switch {
	case p.Failing > 0:
		p.Show = "failing"
	case p.Flaky > 0:
		p.Show = "flaky"
	default:
		p.Show = "all"
	}
	// Failing and erring cases first, then the flaky ones, each in input
	// order; the first htmlFullCases of them in full, the flaky ones kept
	// whole past those (capped) a row each.
	for _, kept := range [][]Case{h.failing, h.flaky} {
		for i := range kept {
			c := &kept[i]
			if len(p.Full) == h.fullCases() {
				p.capped = append(p.capped, c)
				continue
			}
			hc := newHTMLCase(r, c, len(p.Full))
			hc.Open = len(p.Full) < htmlOpenCases
			p.Full = append(p.Full, hc)
		}
	}
	p.Capped = h.nFailing + h.nFlaky - len(p.Full)
	p.WhyColumn = len(r.Metrics) + 3
	p.Passing = h.rows.n > 0
	return p
}

func newHTMLMetric(m MetricSummary) htmlMetric {
	hm := htmlMetric{Name: m.Name, N: m.N, Mean: formatScore(m.Mean), SD: formatScore(m.SD),
		PassRate: formatScore(m.PassRate), Threshold: formatScore(m.Threshold)}
	// Scores lie in [0, 1], and so does their mean: the interval is shown
	// within them.
	lo, hi := m.MeanInterval()
	hm.MeanLo, hm.MeanHi = formatScore(max(0, lo)), formatScore(min(1, hi))
	lo, hi = m.PassInterval()
	hm.PassLo, hm.PassHi = formatScore(lo), formatScore(hi)
	most := 0
	for _, n := range m.Histogram {
		most = max(most, n)
	}
	var counts []string
	for i, n := range m.Histogram {
		label := fmt.Sprintf("%.1f–%.1f", float64(i)/10, float64(i+1)/10)
		counts = append(counts, fmt.Sprintf("%s: %d", label, n))
		h := 0.0
		if most > 0 && n > 0 {
			h = max(1, math.Round(70*float64(n)/float64(most)*10)/10)
		}
		fill := "#0969da"
		if i < 9 && float64(i+1)/10 <= m.Threshold+1e-9 {
			fill = "#cf222e" // every score in the bin is under the threshold
		}
		hm.Bars = append(hm.Bars, htmlBar{X: float64(i * 24), Y: 72 - h, H: h, Fill: fill, Label: label, Count: n})
	}
	hm.Counts = strings.Join(counts, ", ")
	return hm
}

func newHTMLCase(r *Run, c *Case, index int) htmlCase {
	hc := htmlCase{Case: c, Index: index, Name: r.Name(c), Filter: filterOf(c.Status)}
	switch {
	case c.File != "" && c.Line > 0:
		hc.Where = c.File + ":" + strconv.Itoa(c.Line)
	case c.Line > 0:
		hc.Where = "line " + strconv.Itoa(c.Line)
	}
	if hc.Where == hc.Name {
		hc.Where = ""
	}
	for i, s := range c.Scores {
		if i >= len(r.Metrics) {
			break
		}
		reason := ""
		if i < len(c.Reasons) {
			reason = c.Reasons[i]
		}
		if math.IsNaN(s) && reason == "" {
			continue
		}
		ok := !math.IsNaN(s) && r.Metrics[i].Passes(s)
		shown := formatScore(s)
		if v, _ := strconv.ParseFloat(shown, 64); !ok && r.Metrics[i].Passes(v) {
			shown = strconv.FormatFloat(s, 'f', -1, 64) // under the threshold, not rounded up to it
		}
		hc.Scores = append(hc.Scores, htmlScore{Metric: r.Metrics[i].Name, Score: shown, Reason: reason, OK: ok})
	}
	for i := range c.Runs {
		run := newHTMLCase(r, &c.Runs[i], i+1)
		hc.Runs = append(hc.Runs, run)
	}
	return hc
}

func filterOf(s Status) string {
	switch s {
	case Fail, Error:
		return "fail"
	case Flaky:
		return "flaky"
	}
	return "pass"
}

// htmlRows are rows of the page in chunks of about 64 kB, so that a run's
// many rows are never copied to grow one buffer.
type htmlRows struct {
	full [][]byte
	cur  []byte
	n    int // rows
}

// tail is the chunk to append the next row to.
func (rs *htmlRows) tail() []byte {
	if rs.cur == nil {
		rs.cur = make([]byte, 0, 64<<10)
	}
	return rs.cur
}

// add takes the chunk tail gave, with a row appended.
func (rs *htmlRows) add(b []byte) {
	rs.n++
	rs.cur = b
	if len(b) >= 60<<10 {
		rs.full, rs.cur = append(rs.full, b), nil
	}
}

func (rs *htmlRows) writeTo(w io.Writer) error {
	for _, b := range append(rs.full, rs.cur) {
		if _, err := w.Write(b); err != nil {
			return fmt.Errorf("report: html: %w", err)
		}
	}
	return nil
}

// appendRow appends c's summarised row: its name and scores and, for a
// failing one, its status and why.
func (h *htmlCases) appendRow(b []byte, r *Run, c *Case) []byte {
	passing := c.Status != Fail && c.Status != Error && c.Status != Flaky
	if passing { // in the passing cases' table
		b = append(b, "<tr><td>"...)
	} else {
		b = append(b, `<tr class=s-`...)
		b = append(b, filterOf(c.Status)...)
		b = append(b, "><td>"...)
	}
	b = appendClipped(b, r.Name(c), htmlRowWhy)
	if !passing {
		b = append(b, "<td>"...)
		b = append(b, template.HTMLEscapeString(string(c.Status))...)
	}
	for i := range r.Metrics {
		b = append(b, "<td>"...)
		if i < len(c.Scores) {
			b = h.appendScore(b, c.Scores[i])
		}
	}
	why := c.Error
	if why == "" && len(c.Failures) > 0 {
		why = c.Failures[0]
	}
	if why != "" {
		b = append(b, "<td>"...)
		b = appendClipped(b, why, htmlRowWhy)
	}
	return append(b, '\n')
}

// appendScore appends x as formatScore writes it, formatting each distinct
// score once (up to 4,096 of them): most are 1 or 0.
func (h *htmlCases) appendScore(b []byte, x float64) []byte {
	switch {
	case x == 1:
		return append(b, '1')
	case x == 0:
		return append(b, '0')
	case math.IsNaN(x):
		return append(b, "—"...)
	}
	s, ok := h.scores[x]
	if !ok {
		s = formatScore(x)
		if h.scores == nil {
			h.scores = make(map[float64]string)
		}
		if len(h.scores) < 4096 {
			h.scores[x] = s
		}
	}
	return append(b, s...)
}

// appendClipped appends s escaped as HTML text (by html/template's
// HTMLEscapeString), cut as clip cuts it, without allocating for a text
// that needs no escape.
func appendClipped(b []byte, s string, n int) []byte {
	cut := clipAt(s, n)
	if plainText(s[:cut]) {
		b = append(b, s[:cut]...)
	} else {
		b = append(b, template.HTMLEscapeString(s[:cut])...)
	}
	if cut < len(s) {
		b = append(b, "… ("...)
		b = strconv.AppendInt(b, int64(len(s)-cut), 10)
		b = append(b, " more bytes)"...)
	}
	return b
}

// plainText says whether s has none of the bytes HTMLEscapeString
// escapes, so that it is its own escape.
func plainText(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'', '"', '&', '<', '>', 0:
			return false
		}
	}
	return true
}

// formatScore writes a score with at most four decimals ("1", "0.8333"),
// "—" for NaN (no score).
func formatScore(f float64) string {
	if math.IsNaN(f) {
		return "—"
	}
	s := strconv.FormatFloat(f, 'f', 4, 64)
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	if s == "-0" {
		s = "0"
	}
	return s
}

// clip cuts s to at most n bytes, on a character boundary, saying how much
// it left out.
func clip(s string, n int) string {
	cut := clipAt(s, n)
	if cut == len(s) {
		return s
	}
	return s[:cut] + "… (" + strconv.Itoa(len(s)-cut) + " more bytes)"
}

// clipAt is where clip cuts s: at most n bytes, on a character boundary.
func clipAt(s string, n int) int {
	if len(s) <= n {
		return len(s)
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return cut
}
