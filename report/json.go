package report

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agentcheck/agentcheck/internal/shown"
	"github.com/agentcheck/agentcheck/internal/wordscan"
)

// The JSON forms. A case is an object with its "id" (when it has one), each
// metric's score under the metric's name (every digit kept, as Python's
// repr writes a float; null for a metric that did not score it), the reason
// for each score under "reasons", why it failed under "failures", and
// {"error": ...} in place of scores when it could not be scored. --format
// json adds where the case is, its status, request, report, verdicts,
// transcript and runs, so that ReadJSON gets the Run back; its "summary" is
// the counts, means, gates, baseline and verdict, and "run" the run's
// facts and metrics. Every string is escaped so that it shows as itself on
// a terminal (internal/shown).

// The kinds of gate the renderings tell apart.
const (
	gateMean   = "mean"
	gateSample = "sample"
)

// appendCaseJSON writes a case's object; full adds what --format json
// carries beyond jsonl.
func (w *Writer) appendCaseJSON(b []byte, c *Case, full bool) []byte {
	b = append(b, '{')
	first := true
	// key writes a member's key, one of the constants below: plain
	// text, written as it is rather than through appendString's scan
	// (which cost 270 instructions for "reasons", on most lines of jsonl).
	key := func(k string) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(append(append(b, '"'), k...), '"', ':')
	}
	if c.ID != "" {
		key("id")
		b = appendString(b, c.ID)
	}
	if full {
		key("file")
		b = appendString(b, c.File)
		key("line")
		b = strconv.AppendInt(b, int64(c.Line), 10)
		key("index")
		b = strconv.AppendInt(b, int64(c.Index), 10)
		if c.Status != "" {
			key("status")
			b = appendString(b, string(c.Status))
		}
	}
	if c.Error != "" {
		key("error")
		b = appendString(b, c.Error)
	} else {
		for j := range w.run.Metrics {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = w.appendKey(b, j)
			x := math.NaN()
			if j < len(c.Scores) {
				x = c.Scores[j]
			}
			b = w.appendFloat(b, x)
		}
	}
	hasReason := false
	for _, r := range c.Reasons {
		hasReason = hasReason || r != ""
	}
	if hasReason {
		key("reasons")
		b = append(b, '{')
		n := 0
		for j, r := range c.Reasons {
			if r == "" || j >= len(w.run.Metrics) {
				continue
			}
			if n > 0 {
				b = append(b, ',')
			}
			n++
			b = w.appendKey(b, j)
			if j < 64 && w.plain&(1<<j) != 0 {
				b = append(append(append(b, '"'), r...), '"')
			} else {
				b = appendString(b, r)
			}
		}
		b = append(b, '}')
	}
	if len(c.Failures) > 0 {
		key("failures")
		b = appendStrings(b, c.Failures)
	}
	if !full {
		return append(b, '}')
	}
	if c.Request != "" {
		key("request")
		b = appendString(b, c.Request)
	}
	if c.Report != "" {
		key("report")
		b = appendString(b, c.Report)
	}
	if len(c.Verdicts) > 0 {
		key("verdicts")
		b = appendMarshal(b, c.Verdicts)
	}
	if len(c.Transcript) > 0 {
		key("transcript")
		b = appendMarshal(b, c.Transcript)
	}
	if len(c.Runs) > 0 {
		key("runs")
		b = append(b, '[')
		for i := range c.Runs {
			if i > 0 {
				b = append(b, ',')
			}
			b = w.appendCaseJSON(b, &c.Runs[i], true)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// floatSlots is the size of the cache of formatted scores: a score's text
// is kept in the slot its bits hash to, replacing any other's. A run's
// scores are mostly a few (0, 1, halves, thirds): a slot's test is a tenth
// of the map lookup it replaces, and no slot grows.
const floatSlots = 256

// floatText is a score's bits and its text.
type floatText struct {
	bits uint64
	text []byte
}

// appendFloat appends x as fullScore writes it, null for NaN and the
// infinities, from the cache of formatted scores.
func (w *Writer) appendFloat(b []byte, x float64) []byte {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return append(b, "null"...)
	}
	if w.floats == nil {
		w.floats = new([floatSlots]floatText)
	}
	bits := math.Float64bits(x)
	slot := &w.floats[(bits*0x9e3779b97f4a7c15)>>56]
	if slot.text == nil || slot.bits != bits {
		*slot = floatText{bits, []byte(fullScore(x))}
	}
	return append(b, slot.text...)
}

// appendNumber is appendFloat without the cache.
func appendNumber(b []byte, x float64) []byte {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return append(b, "null"...)
	}
	return append(b, fullScore(x)...)
}

// appendKey appends metric j's name as a JSON string and a colon: a
// member's key, escaped once a run (a name is in every line of jsonl,
// twice with a reason), made again only if the name changes.
func (w *Writer) appendKey(b []byte, j int) []byte {
	name := w.run.Metrics[j].Name
	if j >= len(w.keys) {
		w.keys = append(w.keys, make([]metricKey, j+1-len(w.keys))...)
	}
	k := &w.keys[j]
	if k.key == "" || k.name != name {
		*k = metricKey{name: name, key: string(append(appendString(nil, name), ':'))}
	}
	return append(b, k.key...)
}

// metricKey is a metric's name and its key in a case's JSON object.
type metricKey struct{ name, key string }

// plainJSON marks the ASCII bytes appendString copies as they are: the
// printable ones but '"', '\\' and '#' (whose "##[" it escapes). One
// lookup a byte, where four comparisons were, for every string of every
// case.
var plainJSON = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\' && c != '#'
	}
	return t
}()

// appendString writes s as a JSON string, escaped to show as itself (as
// internal/shown.AppendJSON escapes): a quote, a backslash, every character
// a terminal would not show as itself (strconv.IsPrint) as an escape, a
// byte that is not UTF-8 as U+FFFD, and "##[" as "#\u0023[", which a CI
// runner would read as a command.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0 // of the run of bytes not yet appended
	for i := 0; i < len(s); {
		if i+8 <= len(s) {
			// Eight plain bytes at a time (most of a reason is), up to
			// the first that may need escaping.
			w := wordscan.Load(s, i)
			m := wordscan.Below(w, 0x20) | wordscan.AtLeast(w, 0x7f) | wordscan.EqualPair(w, '"') | wordscan.Equal(w, '\\')
			if m == 0 {
				i += 8
				continue
			}
			i += wordscan.First(m)
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if plainJSON[c] || c == '#' && !strings.HasPrefix(s[i:], "##[") {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\t':
				b = append(b, '\\', 't')
			case '\r':
				b = append(b, '\\', 'r')
			case '#':
				b = append(b, `#\u0023[`...)
				i += 2
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError && strconv.IsPrint(r) || r == utf8.RuneError && n == 3 {
			i += n
			continue
		}
		b = append(b, s[start:i]...)
		if r == utf8.RuneError {
			b = append(b, `\ufffd`...)
		} else {
			for _, u := range utf16.AppendRune(nil, r) {
				b = append(b, '\\', 'u', hex[u>>12], hex[u>>8&0xf], hex[u>>4&0xf], hex[u&0xf])
			}
		}
		i += n
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func appendStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

// appendMarshal writes v as encoding/json does, escaped to show as itself.
func appendMarshal(b []byte, v any) []byte {
	p, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("report: %T does not marshal: %v", v, err)) // the report's types always do
	}
	return shown.AppendJSON(b, p)
}

// appendSummaryJSON writes the run's summary: counts, the mean of each
// metric (null when no case scored), each gate with its verdict, the
// baseline comparison, the problems and whether the run passes.
func (w *Writer) appendSummaryJSON(b []byte) []byte {
	r := w.run
	scored := r.Samples - r.Errors
	b = fmt.Appendf(b, `{"samples":%d,"scored":%d,"errors":%d,"failed":%d,`, r.Samples, scored, r.Errors, r.Failed)
	if r.Unread > 0 {
		b = fmt.Appendf(b, `"unread":%d,`, r.Unread)
	}
	b = append(b, `"means":{`...)
	for j, m := range r.Metrics {
		if j > 0 {
			b = append(b, ',')
		}
		b = append(appendString(b, m.Name), ':')
		b = appendNumber(b, m.Mean)
	}
	b = append(b, `},"gates":[`...)
	for i, g := range r.Gates {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		if g.Flag != "" {
			b = append(b, `"flag":`...)
			b = appendString(b, g.Flag)
			b = append(b, ',')
		}
		b = append(b, `"name":`...)
		b = appendString(b, g.Name)
		b = append(b, `,"kind":`...)
		b = appendString(b, g.Kind)
		if g.Metric != "" {
			b = append(b, `,"metric":`...)
			b = appendString(b, g.Metric)
		}
		b = append(b, `,"threshold":`...)
		b = appendNumber(b, g.Threshold)
		switch g.Kind {
		case gateMean:
			b = append(b, `,"mean":`...)
		default:
			b = append(b, `,"value":`...)
		}
		b = appendNumber(b, g.Value)
		if g.Kind == gateSample {
			b = fmt.Appendf(b, `,"below":%d,"samples_below":`, g.Below)
			b = appendStrings(b, g.Cases)
		} else if len(g.Cases) > 0 || g.Below > 0 {
			b = fmt.Appendf(b, `,"below":%d,"cases":`, g.Below)
			b = appendStrings(b, g.Cases)
		}
		if g.Detail != "" {
			b = append(b, `,"detail":`...)
			b = appendString(b, g.Detail)
		}
		b = fmt.Appendf(b, `,"pass":%t}`, g.Pass)
	}
	b = append(b, ']')
	if c := r.Baseline; c != nil {
		b = append(b, `,"baseline":{"file":`...)
		b = appendString(b, c.File)
		b = append(b, `,"tolerance":`...)
		b = appendNumber(b, c.Tolerance)
		b = append(b, `,"regressions":`...)
		b = appendDeltas(b, c.Regressions)
		b = append(b, `,"improvements":`...)
		b = appendDeltas(b, c.Improvements)
		b = fmt.Appendf(b, `,"regressed":%d,"improved":%d,"new":%d,"missing":%d,"new_samples":`, c.NewlyFailing, c.NewlyPassing, c.New, c.Missing)
		b = appendStrings(b, c.NewCases)
		b = append(b, `,"missing_samples":`...)
		b = appendStrings(b, c.MissingCases)
		b = append(b, `,"unknown_metrics":`...)
		b = appendStrings(b, c.Unknown)
		b = fmt.Appendf(b, `,"pass":%t}`, c.Pass)
	}
	if len(r.Problems) > 0 {
		b = append(b, `,"problems":`...)
		b = appendStrings(b, r.Problems)
	}
	return fmt.Appendf(b, `,"pass":%t}`, r.Pass)
}

func appendDeltas(b []byte, ds []Delta) []byte {
	b = append(b, '[')
	for i, d := range ds {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"sample":`...)
		b = appendString(b, d.Case)
		b = append(b, `,"metric":`...)
		b = appendString(b, d.Metric)
		b = append(b, `,"old":`...)
		b = appendNumber(b, d.Old)
		b = append(b, `,"new":`...)
		b = appendNumber(b, d.New)
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendRunJSON writes the run's facts and its metrics' summaries.
func appendRunJSON(b []byte, r *Run) []byte {
	b = append(b, `{"title":`...)
	b = appendString(b, r.Title)
	b = append(b, `,"inputs":`...)
	b = appendStrings(b, r.Inputs)
	if !r.Started.IsZero() {
		b = append(b, `,"started":`...)
		b = appendString(b, r.Started.Format(time.RFC3339Nano))
	}
	if r.Duration != 0 || !r.Started.IsZero() {
		b = append(b, `,"duration":`...)
		b = appendString(b, r.Duration.String())
	}
	if r.Commit != "" {
		b = append(b, `,"commit":`...)
		b = appendString(b, r.Commit)
	}
	if len(r.Judges) > 0 {
		b = append(b, `,"judges":`...)
		b = appendStrings(b, r.Judges)
	}
	if len(r.PromptVersions) > 0 {
		b = append(b, `,"prompt_versions":`...)
		b = appendStrings(b, r.PromptVersions)
	}
	if r.CassetteMode != "" {
		b = append(b, `,"cassette_mode":`...)
		b = appendString(b, r.CassetteMode)
	}
	if r.Shard != nil {
		b = append(b, `,"shard":`...)
		b = appendMarshal(b, r.Shard)
	}
	b = append(b, `,"metrics":[`...)
	for j, m := range r.Metrics {
		if j > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":`...)
		b = appendString(b, m.Name)
		b = fmt.Appendf(b, `,"n":%d,"mean":`, m.N)
		b = appendNumber(b, m.Mean)
		b = append(b, `,"sd":`...)
		b = appendNumber(b, m.SD)
		b = append(b, `,"threshold":`...)
		b = appendNumber(b, m.Threshold)
		b = append(b, `,"pass_rate":`...)
		b = appendNumber(b, m.PassRate)
		b = append(b, `,"histogram":`...)
		b = appendMarshal(b, m.Histogram)
		b = append(b, '}')
	}
	return append(b, "]}"...)
}
