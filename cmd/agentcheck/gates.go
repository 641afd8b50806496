package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/recorder"
	"github.com/agentcheck/agentcheck/report"
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
	noteImproved                  // higher than in the baseline: index is the metric
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
// several files, "FILE line N"), as report.Run.Name names a case.
func sampleName(it *item, several bool) string {
	id := it.id
	if id == "" {
		id = recordID(it.rec.Text)
	}
	return caseName(&report.Case{ID: id, File: it.rec.File, Line: it.rec.Line}, several)
}

// caseName is report.Run.Name for a run of one input, or of several.
func caseName(c *report.Case, several bool) string {
	if several {
		return severalInputs.Name(c)
	}
	return oneInput.Name(c)
}

var oneInput, severalInputs = &report.Run{}, &report.Run{Inputs: []string{"", ""}}

// recordID is a sample's top-level "id", a string or an integer; "" when it
// has none. A record that is not valid JSON (cut short, broken, the start
// of one over --max-sample-bytes) gives the id it holds before it breaks,
// so that its error is named as the sample is. It is idBeforeBreak, which
// gives a valid record's id as a parse of it whole does (the last of a key
// given twice), and builds nothing of the other members: a record over
// --max-sample-values, whatever the bound, gives its id wherever it is,
// at the memory of its text (a 4 MB sample of 2,000,000 values with an id
// took 383 MB to name when the members were built).
func recordID(text string) string {
	if !hasIDKey(text) {
		return ""
	}
	return idBeforeBreak(text)
}

func idText(id jsonvalue.Value, ok bool) string {
	if !ok || (id.Kind() != jsonvalue.StringKind && id.Kind() != jsonvalue.IntKind) {
		return ""
	}
	return id.Text()
}

// idBeforeBreak is the top-level "id" of text, valid JSON or not, as far
// as its members read whole go (a string, or a value then ',' or '}':
// a number the text cuts short is not whole), the last one, as Parse keeps
// the last of a key given twice. The members are skipped (Decoder.Skip,
// which checks them as a parse does and builds and counts nothing), an
// "id" that may be one read (a string or a number). It is a copy: text
// may be the reader's memory, which the next read reuses (--shard reads
// ids there).
func idBeforeBreak(text string) string {
	var d jsonvalue.Decoder
	d.Reset(text)
	id := ""
	for key, more, err := d.NextKey(true); more && err == nil; key, more, err = d.NextKey(false) {
		var kind jsonvalue.Kind
		var v jsonvalue.Value
		if c := d.Peek(); key == "id" && (c == '"' || c == '-' || c >= '0' && c <= '9') {
			v, err = d.Value(1)
			kind = v.Kind()
		} else {
			kind, err = d.Skip(1)
		}
		if err != nil || (kind != jsonvalue.StringKind && d.Peek() != ',' && d.Peek() != '}') {
			break // a number the text cuts short may be longer
		}
		if key == "id" {
			id = idText(v, true)
		}
	}
	return strings.Clone(id)
}

// hasIDKey is strings.Contains(text, `"id"`), which every record without
// an id (most) is scanned for: anchored on the 'd', much rarer in JSON
// than the '"' that strings.Index stops at, it takes a third of the time
// on the spec's vectors and two thirds on the generated samples.
func hasIDKey(text string) bool {
	for i := 0; ; i++ {
		j := strings.IndexByte(text[i:], 'd')
		if j < 0 {
			return false
		}
		i += j
		if i >= 2 && i+1 < len(text) && text[i-2] == '"' && text[i-1] == 'i' && text[i+1] == '"' {
			return true
		}
	}
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
// comparison, the samples to save as a baseline. run is the report of it
// that every format renders, its summary filled in by finish.
type runResult struct {
	run                    report.Run
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
	improved   []listed
	nImproved  int
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
	r.total.reset(cfg)
	r.run = report.Run{Title: "agentcheck eval", Inputs: r.inputs, Started: time.Now(), Commit: commit(),
		Judges: judgeModels(cfg.metrics), Metrics: r.total.metrics}
	if cfg.judged() {
		r.run.PromptVersions = promptVersions(cfg.names)
		r.run.CassetteMode = cassetteMode()
	}
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
				g.samples = append(g.samples, listed{name: strings.Clone(n.name), metric: g.metric, score: n.score})
			}
		case noteRegressed:
			if r.base.nRegressed++; len(r.base.regressed) < maxListed {
				r.base.regressed = append(r.base.regressed, listed{name: strings.Clone(n.name), metric: n.index, score: n.score, old: n.old})
			}
		case noteImproved:
			if r.base.nImproved++; len(r.base.improved) < maxListed {
				r.base.improved = append(r.base.improved, listed{name: strings.Clone(n.name), metric: n.index, score: n.score, old: n.old})
			}
		case noteNew:
			if r.base.nFresh++; len(r.base.fresh) < maxListed {
				r.base.fresh = append(r.base.fresh, strings.Clone(n.name))
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
		// A name is in its batch's memory, which the next batch reuses:
		// what the run keeps past the batch is a copy.
		k.name = strings.Clone(k.name)
		r.seen[k.name] = k.at
		if r.saving && k.scores != nil {
			r.save = append(r.save, k)
		}
	}
}

// finish works out the gates once every batch is in.
func (r *runResult) finish() {
	r.finished = true
	for i := range r.failUnder {
		g := &r.failUnder[i]
		g.mean = r.total.metrics[g.metric].Mean
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
	r.fillRun()
}

// fillRun writes the run's summary into its report: counts, metrics,
// gates with their verdicts and the words that explain them, the baseline
// comparison, the verdict.
func (r *runResult) fillRun() {
	run := &r.run
	run.Duration = time.Since(run.Started).Round(time.Millisecond)
	run.Samples, run.Errors, run.Unread, run.Failed = r.total.samples, r.total.errors, r.total.unread, r.total.failed
	run.Metrics = r.total.metrics
	for j := range run.Metrics {
		if m := &run.Metrics[j]; m.N == 0 {
			m.Mean, m.SD, m.PassRate = math.NaN(), math.NaN(), math.NaN() // no sample scored
		}
	}
	run.Gates = run.Gates[:0]
	for _, g := range slices.Concat(r.failUnder, r.sampleGates) {
		rg := report.Gate{Name: g.String(), Metric: g.name, Flag: strings.TrimPrefix(g.flag, "--"), Threshold: g.threshold, Pass: g.pass}
		if g.flag == "--fail-under" {
			rg.Kind, rg.Value = "mean", g.mean
		} else {
			rg.Kind, rg.Value, rg.Below = "sample", math.NaN(), g.below
			for _, s := range g.samples {
				rg.Cases = append(rg.Cases, s.name)
			}
		}
		if !g.pass {
			var b strings.Builder
			r.writeGate(&b, g)
			rg.Detail = strings.TrimSuffix(strings.TrimPrefix(b.String(), reportPrefix), "\n")
		}
		run.Gates = append(run.Gates, rg)
	}
	if b := r.base; b != nil {
		c := &report.Comparison{File: b.path, Tolerance: b.tolerance, NewlyFailing: b.nRegressed, NewlyPassing: b.nImproved,
			New: b.nFresh, Missing: b.nMissing, NewCases: b.fresh, MissingCases: b.missing, Unknown: b.unknown, Pass: r.baselinePass()}
		for _, s := range b.regressed {
			c.Regressions = append(c.Regressions, report.Delta{Case: s.name, Metric: r.names[s.metric], Old: s.old, New: s.score})
		}
		for _, s := range b.improved {
			c.Improvements = append(c.Improvements, report.Delta{Case: s.name, Metric: r.names[s.metric], Old: s.old, New: s.score})
		}
		run.Baseline = c
	}
	run.Problems = nil
	if r.nDups > 0 {
		var b strings.Builder
		r.writeDups(&b)
		run.Problems = append(run.Problems, strings.TrimPrefix(b.String(), reportPrefix))
	}
	run.Pass = r.pass()
}

func (r *runResult) baselinePass() bool {
	return r.base == nil || (r.base.nRegressed == 0 && r.nDups == 0)
}

// pass says whether the run passes: no input error, every sample scored,
// every gate and the baseline passed.
func (r *runResult) pass() bool {
	if r.total.errors > 0 || r.total.unread > 0 || !r.baselinePass() {
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
	const p = reportPrefix
	if r.total.errors > 0 {
		fmt.Fprintf(w, "%s%d of %d samples could not be scored\n", p, r.total.errors, r.total.samples)
	}
	if n := r.total.unread; n > 0 {
		fmt.Fprintf(w, "%s%d %s (the output says why, where %s met)\n", p, n, inflect(n, "input error", "input errors"), inflect(n, "it was", "each was"))
	}
	if r.total.samples == 0 && r.total.unread == 0 && len(r.sampleGates) > 0 && r.run.Shard == nil {
		// A gate over nothing passes; say so, as an empty input is more
		// likely a mistake (a wrong path, an empty export) than a run.
		fmt.Fprintf(w, "%swarning: the input holds no sample, so --sample-threshold had nothing to check\n", p)
	}
	for _, g := range slices.Concat(r.failUnder, r.sampleGates) {
		if !g.pass {
			r.writeGate(w, g)
		}
	}
	if r.nDups > 0 {
		r.writeDups(w)
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

// reportPrefix starts each line of the report.
const reportPrefix = "agentcheck eval: "

// writeGate says why a gate failed.
func (r *runResult) writeGate(w io.Writer, g gateResult) {
	const p = reportPrefix
	scored := r.total.samples - r.total.errors
	if g.flag == "--fail-under" {
		if scored == 0 {
			fmt.Fprintf(w, "%sExpected the mean %s to be at least %s (%s), but no sample was scored\n", p, g.name, fullScore(g.threshold), g.flag)
			return
		}
		fmt.Fprintf(w, "%sExpected the mean %s over %d scored samples to be at least %s (%s), but it is %s\n",
			p, g.name, scored, fullScore(g.threshold), g.flag, fullScore(g.mean))
		return
	}
	fmt.Fprintf(w, "%sExpected every sample to score %s at least %s (%s), but %d of %d scored samples %s not:\n",
		p, g.name, fullScore(g.threshold), g.flag, g.below, scored, doOrDoes(g.below))
	for _, s := range g.samples {
		fmt.Fprintf(w, "  %s: %s\n", shownName(s.name), fullScore(s.score))
	}
	writeMore(w, g.below-len(g.samples))
}

// writeDups says which names were given twice.
func (r *runResult) writeDups(w io.Writer) {
	what := "--save-baseline"
	if r.base != nil {
		what = "--baseline"
	}
	fmt.Fprintf(w, "%s%s: samples are told apart by name, but %d %s given twice; give each sample an \"id\" of its own:\n", reportPrefix, what, r.nDups, nameOrNames(r.nDups))
	for _, d := range r.dups {
		fmt.Fprintf(w, "  %s\n", d) // quoted with %q
	}
	writeMore(w, r.nDups-len(r.dups))
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

// commit is the revision agentcheck runs at, as far as it can tell: CI's
// ($GITHUB_SHA), else the one the binary was built from.
func commit() string {
	if sha := os.Getenv("GITHUB_SHA"); sha != "" {
		return sha
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" {
				return s.Value
			}
		}
	}
	return ""
}

// promptVersions are the versions of the prompts of the judged metrics
// among names.
func promptVersions(names []string) []string {
	var vs []string
	for _, n := range names {
		switch n {
		case "agent_goal_accuracy":
			vs = append(vs, metric.GoalPromptVersion)
		case "topic_adherence":
			vs = append(vs, metric.TopicPromptVersion)
		}
	}
	return vs
}

// cassetteMode says how judgments are got, as $AGENTCHECK_RECORD says.
func cassetteMode() string {
	m, err := recorder.ParseMode(os.Getenv(recorder.RecordEnv))
	if err != nil || m == recorder.RecordNone {
		return "replay"
	}
	return "record " + m.String()
}

// mdCode writes s as Markdown code, mdText as table text (calibrate's
// summary; eval's is package report's).
func mdCode(s string) string { return "`" + strings.ReplaceAll(mdText(s), "`", "'") + "`" }
func mdText(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ").Replace(shownText(s))
}

// judgeModels are the models of the judged metrics' judges (the members of
// a panel), as the flags, the environment or the cassette named them.
func judgeModels(metrics []metric.Metric) []string {
	var models []string
	add := func(j judgment.Judge) {
		judges := []judgment.Judge{j}
		if p, ok := j.(judgment.Panel); ok {
			judges = p.Members()
		}
		for _, m := range judges {
			if c, ok := m.(interface{ Model() string }); ok && !slices.Contains(models, c.Model()) {
				models = append(models, c.Model())
			}
		}
	}
	for _, m := range metrics {
		switch m := m.(type) {
		case metric.AgentGoalAccuracy:
			if m.Judge != nil {
				add(m.Judge)
			}
		case metric.TopicAdherence:
			if m.Judge != nil {
				add(m.Judge)
			}
		}
	}
	return models
}
