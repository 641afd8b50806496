package report

import (
	"fmt"
	"strings"

	"github.com/agentcheck/agentcheck/internal/shown"
)

// The Markdown step summary (GitHub's $GITHUB_STEP_SUMMARY): the verdict, a
// table of the metrics' means and gates, the scores that fell below the
// baseline, then the failing cases (in input order) with why they failed
// and the reasons for their scores, cut off with a note when the summary
// would pass MaxSummary (GitHub refuses a step summary over 1 MiB).

// MaxSummary bounds the Markdown summary's size in bytes.
const MaxSummary = 1000 << 10

const (
	// maxMarkdownCases bounds the failing cases kept for the summary.
	maxMarkdownCases = 1000
	// maxMarkdownText bounds each text of a case the summary shows.
	maxMarkdownText = 500
	// maxListed bounds the regressions the baseline's table shows.
	maxListed = 100
)

// markdownCases are the failing cases the summary shows, summarised.
type markdownCases struct {
	cases []mdCase
	more  int // failing cases past maxMarkdownCases
}

type mdCase struct {
	name   string
	status Status
	lines  []string // failures, error and reasons, one line each
}

func (m *markdownCases) add(r *Run, c *Case) {
	if c.Status == Pass || (c.Status == "" && c.Error == "" && len(c.Failures) == 0) {
		return
	}
	if len(m.cases) == maxMarkdownCases {
		m.more++
		return
	}
	mc := mdCase{name: oneLine(r.Name(c), maxMarkdownText), status: c.Status}
	if mc.status == "" {
		mc.status = Fail
		if c.Error != "" {
			mc.status = Error
		}
	}
	if c.Error != "" {
		mc.lines = append(mc.lines, mdText(oneLine(c.Error, maxMarkdownText)))
	}
	for _, f := range c.Failures {
		mc.lines = append(mc.lines, mdText(oneLine(f, maxMarkdownText)))
	}
	for j, reason := range c.Reasons {
		if reason != "" && j < len(r.Metrics) && !saidIn(c.Failures, reason) {
			mc.lines = append(mc.lines, fmt.Sprintf("%s = %s: %s", mdCode(r.Metrics[j].Name), fullScoreOrDash(math0(c.Scores, j)), mdText(oneLine(reason, maxMarkdownText))))
		}
	}
	// The case's strings may be in memory its writer reuses.
	mc.name, mc.status = strings.Clone(mc.name), Status(strings.Clone(string(mc.status)))
	for i, l := range mc.lines {
		mc.lines[i] = strings.Clone(l)
	}
	m.cases = append(m.cases, mc)
}

func (m *markdownCases) appendMarkdown(b []byte, r *Run) []byte {
	start := len(b)
	scored := r.Samples - r.Errors
	verdict := "✅ passed"
	if !r.Pass {
		verdict = "❌ failed"
	}
	title := r.Title
	if title == "" {
		title = "agentcheck"
	}
	b = fmt.Appendf(b, "### %s %s: %s\n\n", mdText(title), mdCode(oneLine(strings.Join(r.Inputs, " "), maxMarkdownText)), verdict)
	b = fmt.Appendf(b, "%d %s, %d scored, %d could not be scored", r.Samples, inflect(r.Samples, "sample", "samples"), scored, r.Errors)
	b = append(appendUnread(b, r.Unread), ".\n\n"...)
	b = append(b, "| metric | mean | gates |\n|---|---:|---|\n"...)
	for _, mt := range r.Metrics {
		mean := "–"
		if scored > 0 && mt.Mean == mt.Mean {
			mean = shortScore(mt.Mean)
		}
		var gates []string
		for _, g := range r.Gates {
			if g.Metric != mt.Name {
				continue
			}
			mark := "✅"
			if !g.Pass {
				mark = "❌"
			}
			if g.Kind == gateSample {
				gates = append(gates, fmt.Sprintf("%s every sample ≥ %s (%d below)", mark, fullScore(g.Threshold), g.Below))
			} else {
				gates = append(gates, fmt.Sprintf("%s %s ≥ %s", mark, g.Kind, fullScore(g.Threshold)))
			}
		}
		b = fmt.Appendf(b, "| %s | %s | %s |\n", mdCode(mt.Name), mean, strings.Join(gates, "<br>"))
	}
	for _, g := range r.Gates {
		if g.Metric == "" {
			mark := "✅"
			if !g.Pass {
				mark = "❌"
			}
			b = fmt.Appendf(b, "\n%s %s ≥ %s: %s\n", mark, mdText(g.Name), fullScore(g.Threshold), fullScoreOrDash(g.Value))
		}
	}
	if base := r.Baseline; base != nil {
		b = fmt.Appendf(b, "\nBaseline %s (tolerance %s): %d %s lower, %d higher, %d new, %d missing.\n",
			mdCode(oneLine(base.File, maxMarkdownText)), fullScore(base.Tolerance), base.NewlyFailing, inflect(base.NewlyFailing, "score", "scores"), base.NewlyPassing, base.New, base.Missing)
		if base.NewlyFailing > 0 {
			b = append(b, "\n| sample | metric | baseline | now |\n|---|---|---:|---:|\n"...)
			shown := base.Regressions[:min(len(base.Regressions), maxListed)]
			for _, d := range shown {
				b = fmt.Appendf(b, "| %s | %s | %s | %s |\n", mdText(oneLine(d.Case, maxMarkdownText)), mdCode(d.Metric), fullScore(d.Old), fullScore(d.New))
			}
			if n := base.NewlyFailing - len(shown); n > 0 {
				b = fmt.Appendf(b, "| … and %d more | | | |\n", n)
			}
		}
	}
	total := len(m.cases) + m.more
	if total == 0 {
		return append(b, '\n')
	}
	heading := "Failing cases"
	if r.Unread > 0 {
		heading = "Failing cases and input errors"
	}
	b = fmt.Appendf(b, "\n#### %s (%d)\n\n", heading, total)
	// What is left for the cases, less room for the note.
	const noteRoom = 200
	for i, c := range m.cases {
		var entry []byte
		entry = fmt.Appendf(entry, "- **%s** (%s)\n", mdText(c.name), c.status)
		for _, l := range c.lines {
			entry = fmt.Appendf(entry, "  - %s\n", l)
		}
		if len(b)-start+len(entry)+noteRoom > MaxSummary {
			left := total - i
			return fmt.Appendf(b, "\n_… and %d more failing %s left out: the step summary is kept under %d KiB._\n\n", left, inflect(left, "case", "cases"), MaxSummary>>10)
		}
		b = append(b, entry...)
	}
	if m.more > 0 {
		b = fmt.Appendf(b, "\n_… and %d more failing %s left out._\n", m.more, inflect(m.more, "case", "cases"))
	}
	return append(b, '\n')
}

// saidIn reports whether a failure already ends with the reason.
func saidIn(failures []string, reason string) bool {
	for _, f := range failures {
		if strings.HasSuffix(f, ": "+reason) {
			return true
		}
	}
	return false
}

// appendUnread ends a run's counts with its input errors (Run.Unread),
// when there are any: ", 1 input error".
func appendUnread(b []byte, n int) []byte {
	if n == 0 {
		return b
	}
	return fmt.Appendf(b, ", %d %s", n, inflect(n, "input error", "input errors"))
}

func inflect(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// mdCode writes s as Markdown code, mdText as Markdown text in a table or
// a list: shown on one line, its characters that Markdown or HTML would
// read escaped.
func mdCode(s string) string {
	return "`" + strings.NewReplacer("`", "'", "|", `\|`).Replace(shown.Text(strings.ReplaceAll(strings.ReplaceAll(s, "\n", " "), "\r", " "))) + "`"
}

var mdEscaper = strings.NewReplacer(
	"|", `\|`, "\n", " ", "\r", " ",
	"<", "&lt;", ">", "&gt;", "&", "&amp;",
	`\`, `\\`, "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "`", "\\`",
)

func mdText(s string) string { return mdEscaper.Replace(shown.Text(s)) }
