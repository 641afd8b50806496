package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/agentcheck/agentcheck/jsonvalue"
)

// gate is a --fail-under or a --sample-threshold: a metric of --metrics and
// the least score that passes.
type gate struct {
	flag      string // "--fail-under" or "--sample-threshold"
	metric    int    // the metric's index in --metrics
	name      string // the metric
	threshold float64
}

func (g gate) String() string { return g.flag + " " + g.name + "=" + fullScore(g.threshold) }

// fullScore writes a score as the JSON output does, to the last bit.
func fullScore(x float64) string { return jsonvalue.Float(x).String() }

// shortScore writes a score as the table does: four decimals.
func shortScore(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }

// maxListed bounds the samples a failure names; the rest are counted.
const maxListed = 100

// The notes a worker takes of a scored sample, for the run's verdict.
type noteKind uint8

const (
	noteBelow     noteKind = iota // below a --sample-threshold: index is the gate
	noteRegressed                 // lower than in the baseline: index is the metric
	noteNew                       // not in the baseline
)

type note struct {
	kind       noteKind
	index      int
	name       string // the sample's name (sampleName)
	score, old float64
}

// keyed is a sample by name, when a baseline is compared or saved.
type keyed struct {
	name   string
	at     place
	scores []float64 // nil for a sample that was not scored or when not saving
}

// place is where a sample is: file and line (0 for a file that could not
// be read).
type place struct {
	file string
	line int
}

func (p place) String() string {
	if p.line == 0 {
		return shownName(p.file)
	}
	return shownName(p.file) + ":" + strconv.Itoa(p.line)
}

// sampleName names a sample in failures, reports and baselines: its "id"
// (a string or an integer; an OTLP trace's ID), else "line N" (with
// several files, "FILE line N").
func sampleName(it *item, several bool) string {
	if it.id != "" {
		return it.id
	}
	if id := recordID(it.rec.Text); id != "" {
		return id
	}
	if it.rec.Line == 0 {
		return it.rec.File // a file that could not be read
	}
	if several {
		return it.rec.File + " line " + strconv.Itoa(it.rec.Line)
	}
	return "line " + strconv.Itoa(it.rec.Line)
}

// recordID is a sample's top-level "id", a string or an integer; "" when it
// has none.
func recordID(text string) string {
	if !strings.Contains(text, `"id"`) {
		return ""
	}
	v, err := jsonvalue.Parse([]byte(text))
	if err != nil {
		return ""
	}
	id, ok := v.Get("id")
	if !ok || (id.Kind() != jsonvalue.StringKind && id.Kind() != jsonvalue.IntKind) {
		return ""
	}
	return id.Text()
}

// gateResult is how a gate fared over the run.
type gateResult struct {
	gate
	mean    float64  // --fail-under: the mean over the scored samples, NaN for none
	below   int      // --sample-threshold: how many samples scored under it
	samples []listed // the first maxListed of them
	pass    bool
}

// listed is a sample a failure or a note names.
type listed struct {
	name       string
	metric     int
	score, old float64
}

// runResult is what a run found beyond the scores: gates, the baseline's
// comparison, the samples to save as a baseline.
type runResult struct {
	names                  []string // the metrics
	inputs                 []string // the inputs' names
	total                  stats
	failUnder, sampleGates []gateResult
	base                   *baselineResult // nil without --baseline
	save                   []keyed         // with --save-baseline: every scored sample
	saving                 bool
	seen                   map[string]place // with a baseline: where each name is
	dups                   []string         // the first maxListed names given twice
	nDups                  int
	finished               bool
}

// baselineResult is the comparison with --baseline.
type baselineResult struct {
	*baseline
	tolerance  float64
	regressed  []listed
	nRegressed int
	fresh      []string
	nFresh     int
	missing    []string
	nMissing   int
	unknown    []string // metrics of the run the baseline has no score of
}

func newRunResult(cfg *evalConfig, ins []input) *runResult {
	r := &runResult{names: cfg.names, saving: cfg.saveBaseline != ""}
	for _, in := range ins {
		r.inputs = append(r.inputs, in.name)
	}
	r.total.reset(len(cfg.names))
	for _, g := range cfg.failUnder {
		r.failUnder = append(r.failUnder, gateResult{gate: g})
	}
	for _, g := range cfg.sampleThresholds {
		r.sampleGates = append(r.sampleGates, gateResult{gate: g})
	}
	if cfg.base != nil {
		r.base = &baselineResult{baseline: cfg.base, tolerance: cfg.baselineTolerance}
	}
	if cfg.base != nil || r.saving {
		r.seen = make(map[string]place)
	}
	return r
}

// collect takes in a batch's counts and notes, in input order.
func (r *runResult) collect(b *batch) {
	r.total.add(&b.stats)
	for _, n := range b.notes {
		switch n.kind {
		case noteBelow:
			g := &r.sampleGates[n.index]
			if g.below++; len(g.samples) < maxListed {
				g.samples = append(g.samples, listed{name: n.name, metric: g.metric, score: n.score})
			}
		case noteRegressed:
			if r.base.nRegressed++; len(r.base.regressed) < maxListed {
				r.base.regressed = append(r.base.regressed, listed{name: n.name, metric: n.index, score: n.score, old: n.old})
			}
		case noteNew:
			if r.base.nFresh++; len(r.base.fresh) < maxListed {
				r.base.fresh = append(r.base.fresh, n.name)
			}
		}
	}
	for _, k := range b.keyed {
		if first, dup := r.seen[k.name]; dup {
			if r.nDups++; len(r.dups) < maxListed {
				r.dups = append(r.dups, fmt.Sprintf("%q (%s and %s)", k.name, first, k.at))
			}
			continue
		}
		r.seen[k.name] = k.at
		if r.saving && k.scores != nil {
			r.save = append(r.save, k)
		}
	}
}

// finish works out the gates once every batch is in.
func (r *runResult) finish() {
	r.finished = true
	scored := r.total.samples - r.total.errors
	for i := range r.failUnder {
		g := &r.failUnder[i]
		g.mean = math.NaN()
		if scored > 0 {
			g.mean = r.total.sums[g.metric] / float64(scored)
		}
		g.pass = g.mean >= g.threshold
	}
	for i := range r.sampleGates {
		r.sampleGates[i].pass = r.sampleGates[i].below == 0
	}
	if b := r.base; b != nil {
		for _, name := range b.names {
			if _, ok := r.seen[name]; !ok {
				if b.nMissing++; len(b.missing) < maxListed {
					b.missing = append(b.missing, name)
				}
			}
		}
		for j, n := range r.names {
			if !b.has[j] {
				b.unknown = append(b.unknown, n)
			}
		}
	}
}

func (r *runResult) baselinePass() bool {
	return r.base == nil || (r.base.nRegressed == 0 && r.nDups == 0)
}

// pass says whether the run passes: every sample scored, every gate and the
// baseline passed.
func (r *runResult) pass() bool {
	if r.total.errors > 0 || !r.baselinePass() {
		return false
	}
	for _, g := range slices.Concat(r.failUnder, r.sampleGates) {
		if !g.pass {
			return false
		}
	}
	return true
}

// report writes to w, a line each (and the samples below, indented), why the
// run fails and what the baseline comparison noticed.
func (r *runResult) report(w io.Writer) {
	const p = "agentcheck eval: "
	scored := r.total.samples - r.total.errors
	if r.total.errors > 0 {
		fmt.Fprintf(w, "%s%d of %d samples could not be scored\n", p, r.total.errors, r.total.samples)
	}
	for _, g := range r.failUnder {
		if g.pass {
			continue
		}
		if scored == 0 {
			fmt.Fprintf(w, "%sExpected the mean %s to be at least %s (%s), but no sample was scored\n", p, g.name, fullScore(g.threshold), g.flag)
			continue
		}
		fmt.Fprintf(w, "%sExpected the mean %s over %d scored samples to be at least %s (%s), but it is %s\n",
			p, g.name, scored, fullScore(g.threshold), g.flag, fullScore(g.mean))
	}
	for _, g := range r.sampleGates {
		if g.pass {
			continue
		}
		fmt.Fprintf(w, "%sExpected every sample to score %s at least %s (%s), but %d of %d scored samples %s not:\n",
			p, g.name, fullScore(g.threshold), g.flag, g.below, scored, doOrDoes(g.below))
		for _, s := range g.samples {
			fmt.Fprintf(w, "  %s: %s\n", shownName(s.name), fullScore(s.score))
		}
		writeMore(w, g.below-len(g.samples))
	}
	if r.nDups > 0 {
		what := "--save-baseline"
		if r.base != nil {
			what = "--baseline"
		}
		fmt.Fprintf(w, "%s%s: samples are told apart by name, but %d %s given twice; give each sample an \"id\" of its own:\n", p, what, r.nDups, nameOrNames(r.nDups))
		for _, d := range r.dups {
			fmt.Fprintf(w, "  %s\n", d) // quoted with %q
		}
		writeMore(w, r.nDups-len(r.dups))
	}
	b := r.base
	if b == nil {
		return
	}
	if b.nRegressed > 0 {
		fmt.Fprintf(w, "%sExpected no sample to score lower than in the baseline %s (tolerance %s), but %d %s:\n",
			p, shownName(b.path), fullScore(b.tolerance), b.nRegressed, scoreOrScores(b.nRegressed))
		for _, s := range b.regressed {
			fmt.Fprintf(w, "  %s: %s %s → %s\n", shownName(s.name), r.names[s.metric], fullScore(s.old), fullScore(s.score))
		}
		writeMore(w, b.nRegressed-len(b.regressed))
	}
	if b.nFresh > 0 {
		fmt.Fprintf(w, "%snote: %d %s not in the baseline %s, so not compared: %s%s\n", p, b.nFresh, sampleIsOrAre(b.nFresh), shownName(b.path), shownNames(b.fresh), more(b.nFresh-len(b.fresh)))
	}
	if b.nMissing > 0 {
		fmt.Fprintf(w, "%snote: %d %s of the baseline %s %s not in this run: %s%s\n", p, b.nMissing, inflect(b.nMissing, "sample", "samples"), shownName(b.path),
			inflect(b.nMissing, "was", "were"), shownNames(b.missing), more(b.nMissing-len(b.missing)))
	}
	if len(b.unknown) > 0 {
		fmt.Fprintf(w, "%snote: the baseline %s has no %s scores, so they were not compared\n", p, shownName(b.path), shownNames(b.unknown))
	}
}

func writeMore(w io.Writer, n int) {
	if n > 0 {
		fmt.Fprintf(w, "  … and %d more\n", n)
	}
}

func more(n int) string {
	if n > 0 {
		return fmt.Sprintf(" … and %d more", n)
	}
	return ""
}

func doOrDoes(n int) string      { return inflect(n, "does", "do") }
func nameOrNames(n int) string   { return inflect(n, "name is", "names are") }
func scoreOrScores(n int) string { return inflect(n, "score does", "scores do") }
func sampleIsOrAre(n int) string { return inflect(n, "sample is", "samples are") }

func inflect(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// appendSummaryJSON writes the run's summary as the "summary" object of
// --format json: counts, the mean of each metric (null when no sample
// scored), each gate with its verdict, the baseline comparison, and
// whether the run passes.
func (r *runResult) appendSummaryJSON(b []byte) []byte {
	scored := r.total.samples - r.total.errors
	b = fmt.Appendf(b, `{"samples":%d,"scored":%d,"errors":%d,"means":{`, r.total.samples, scored, r.total.errors)
	for j, n := range r.names {
		if j > 0 {
			b = append(b, ',')
		}
		b = append(appendJSONString(b, n), ':')
		if scored == 0 {
			b = append(b, "null"...)
		} else {
			b = append(b, fullScore(r.total.sums[j]/float64(scored))...)
		}
	}
	b = append(b, `},"gates":[`...)
	for i, g := range slices.Concat(r.failUnder, r.sampleGates) {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"flag":`...)
		b = appendJSONString(b, strings.TrimPrefix(g.flag, "--"))
		b = append(b, `,"metric":`...)
		b = appendJSONString(b, g.name)
		b = append(b, `,"threshold":`...)
		b = append(b, fullScore(g.threshold)...)
		if g.flag == "--fail-under" {
			b = append(b, `,"mean":`...)
			if math.IsNaN(g.mean) {
				b = append(b, "null"...)
			} else {
				b = append(b, fullScore(g.mean)...)
			}
		} else {
			b = fmt.Appendf(b, `,"below":%d,"samples_below":[`, g.below)
			for k, s := range g.samples {
				if k > 0 {
					b = append(b, ',')
				}
				b = appendJSONString(b, s.name)
			}
			b = append(b, ']')
		}
		b = fmt.Appendf(b, `,"pass":%t}`, g.pass)
	}
	b = append(b, ']')
	if base := r.base; base != nil {
		b = append(b, `,"baseline":{"file":`...)
		b = appendJSONString(b, base.path)
		b = fmt.Appendf(b, `,"tolerance":%s,"regressions":[`, fullScore(base.tolerance))
		for k, s := range base.regressed {
			if k > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"sample":`...)
			b = appendJSONString(b, s.name)
			b = append(b, `,"metric":`...)
			b = appendJSONString(b, r.names[s.metric])
			b = fmt.Appendf(b, `,"old":%s,"new":%s}`, fullScore(s.old), fullScore(s.score))
		}
		b = fmt.Appendf(b, `],"regressed":%d,"new":%d,"missing":%d,"pass":%t}`, base.nRegressed, base.nFresh, base.nMissing, r.baselinePass())
	}
	return fmt.Appendf(b, `,"pass":%t}`, r.pass())
}

// appendMarkdown writes the run's summary as a GitHub step summary: a
// table of the metrics' means and gates, then the samples that fell below a
// threshold or the baseline.
func (r *runResult) appendMarkdown(b []byte) []byte {
	scored := r.total.samples - r.total.errors
	verdict := "✅ passed"
	if !r.pass() {
		verdict = "❌ failed"
	}
	b = fmt.Appendf(b, "### agentcheck eval %s: %s\n\n", mdCode(strings.Join(r.inputs, " ")), verdict)
	b = fmt.Appendf(b, "%d samples, %d scored, %d could not be scored.\n\n", r.total.samples, scored, r.total.errors)
	b = append(b, "| metric | mean | gates |\n|---|---:|---|\n"...)
	for j, n := range r.names {
		mean := "–"
		if scored > 0 {
			mean = shortScore(r.total.sums[j] / float64(scored))
		}
		var gates []string
		for _, g := range slices.Concat(r.failUnder, r.sampleGates) {
			if g.metric != j {
				continue
			}
			mark := "✅"
			if !g.pass {
				mark = "❌"
			}
			if g.flag == "--fail-under" {
				gates = append(gates, fmt.Sprintf("%s mean ≥ %s", mark, fullScore(g.threshold)))
			} else {
				gates = append(gates, fmt.Sprintf("%s every sample ≥ %s (%d below)", mark, fullScore(g.threshold), g.below))
			}
		}
		b = fmt.Appendf(b, "| %s | %s | %s |\n", mdCode(n), mean, strings.Join(gates, "<br>"))
	}
	for _, g := range r.sampleGates {
		if g.pass {
			continue
		}
		b = fmt.Appendf(b, "\n**%s below %s** (%d):\n\n| sample | %s |\n|---|---:|\n", mdCode(g.name), fullScore(g.threshold), g.below, mdCode(g.name))
		for _, s := range g.samples {
			b = fmt.Appendf(b, "| %s | %s |\n", mdText(s.name), fullScore(s.score))
		}
		if n := g.below - len(g.samples); n > 0 {
			b = fmt.Appendf(b, "| … and %d more | |\n", n)
		}
	}
	if base := r.base; base != nil {
		b = fmt.Appendf(b, "\nBaseline %s (tolerance %s): %d %s lower, %d new, %d missing.\n",
			mdCode(base.path), fullScore(base.tolerance), base.nRegressed, inflect(base.nRegressed, "score", "scores"), base.nFresh, base.nMissing)
		if base.nRegressed > 0 {
			b = append(b, "\n| sample | metric | baseline | now |\n|---|---|---:|---:|\n"...)
			for _, s := range base.regressed {
				b = fmt.Appendf(b, "| %s | %s | %s | %s |\n", mdText(s.name), mdCode(r.names[s.metric]), fullScore(s.old), fullScore(s.score))
			}
			if n := base.nRegressed - len(base.regressed); n > 0 {
				b = fmt.Appendf(b, "| … and %d more | | | |\n", n)
			}
		}
	}
	return append(b, '\n')
}

// mdCode writes s as Markdown code, mdText as table text.
func mdCode(s string) string { return "`" + strings.ReplaceAll(mdText(s), "`", "'") + "`" }
func mdText(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ").Replace(shownText(s))
}
