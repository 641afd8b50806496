package main

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/internal/samplereuse"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/report"
)

// demoData is the dataset scored when eval is given no file: a handful of
// agent runs that show how the metrics treat what agents get wrong.
//
//go:embed example/demo.jsonl
var demoData string

// input is one dataset to read, opened only when its turn comes.
type input struct {
	name string
	open func() (io.ReadCloser, error)
}

func inputs(files []string, stdin io.Reader) []input {
	if len(files) == 0 {
		return []input{{name: "demo.jsonl", open: func() (io.ReadCloser, error) {
			return io.NopCloser(strings.NewReader(demoData)), nil
		}}}
	}
	ins := make([]input, len(files))
	for i, f := range files {
		if f == "-" {
			ins[i] = input{name: "<stdin>", open: func() (io.ReadCloser, error) { return io.NopCloser(stdin), nil }}
			continue
		}
		ins[i] = input{name: f, open: func() (io.ReadCloser, error) { return os.Open(f) }}
	}
	return ins
}

// item is one sample's record, or an error that stands in its place in the
// output: of the sample (broken JSON), or of the input (a file that does
// not open, an array of samples not closed), which is no sample (unread).
type item struct {
	rec    dataset.Record
	sample *agentcheck.Sample // already read (an OTLP trace), else nil
	id     string             // the trace's ID for an OTLP trace
	err    error
	scored *report.Case // agentcheck merge: the case as its shard scored it
	// copyText: rec.Text is in the reader's memory, which it reuses, until
	// the batcher copies it into the batch's.
	copyText bool
}

// unread says that the item is an input, or the rest of one, that could
// not be read, rather than a sample: a file that does not open or fails
// midway, an array of samples not closed (a *dataset.LoadError of no
// sample), an OTLP file's part that no trace holds (a *dataset.TraceError
// of no trace). Its error stands in the output where it was met, counted
// apart from the samples (stats.unread); merge gives it back as a plain
// error.
func (it *item) unread() bool {
	if it.err == nil || it.sample != nil || it.scored != nil {
		return false
	}
	var le *dataset.LoadError
	var te *dataset.TraceError
	return !(errors.As(it.err, &le) && le.Sample >= 0) && !(errors.As(it.err, &te) && te.TraceID != "")
}

type batch struct {
	items []item
	text  []byte // the items' records' texts, one after another
	// reasons are the tool-call metrics' reasons of the items' cases, one
	// after another (scorer.fastResult).
	reasons []byte
	cases   []report.Case // the items' results, the first len(items)
	// plain marks, for each case, the metrics whose reasons are plain JSON
	// text (scorer.plain).
	plain []uint64
	warn  []byte // the items' warnings, a line each
	stats stats
	notes []note        // samples below a threshold, lower than, higher than or new to the baseline
	keyed []keyed       // with a baseline, each sample by name
	done  chan struct{} // a token when cases and stats are ready
}

// stats are counts and the metrics' summaries, per batch and for the
// whole run.
type stats struct {
	samples, errors int
	unread          int                    // input errors (item.unread)
	failed          int                    // samples below a threshold or their baseline
	metrics         []report.MetricSummary // per metric, over the samples that scored
	// scores are a batch's scores, per metric in the samples' order, which
	// add counts into the run's summaries one by one: the run's sums then
	// add every score in the input's order, whatever its batches (a
	// worker's batch ends where the reader's block does), as merge's do,
	// and so do its means to the last digit. Summed by batch and the
	// batches' sums added, they did not: a run with one worker and the
	// merge of its shards differed in the last digit of a mean.
	scores [][]float64
}

func (s *stats) reset(cfg *evalConfig) {
	s.samples, s.errors, s.unread, s.failed = 0, 0, 0, 0
	s.metrics = s.metrics[:0]
	for j, n := range cfg.names {
		s.metrics = append(s.metrics, report.MetricSummary{Name: n, Threshold: cfg.passScore(j)})
	}
	s.scores = slices.Grow(s.scores[:0], len(cfg.names))[:len(cfg.names)]
	for j := range s.scores {
		s.scores[j] = s.scores[j][:0]
	}
}

func (s *stats) add(t *stats) {
	s.samples += t.samples
	s.errors += t.errors
	s.unread += t.unread
	s.failed += t.failed
	for i, xs := range t.scores {
		s.metrics[i].AddAll(xs)
	}
}

// evaluate scores every sample of the inputs and writes the results to w
// in cfg.format and, when summary is not nil, a Markdown step summary to
// it. Samples that cannot be scored are counted in the returned result and
// written as errors in their place; the error returned is about writing
// the output, or says that ctx ended the run early.
func evaluate(ctx context.Context, cfg evalConfig, ins []input, w io.Writer, summary *bytes.Buffer) (*runResult, error) {
	cfg.several = len(ins) > 1
	res := newRunResult(&cfg, ins)
	cfg.merge.facts(&res.run)
	wr := report.NewWriter(w, cfg.format, &res.run)
	var also []*report.Writer
	if summary != nil {
		also = append(also, report.NewWriter(summary, report.Markdown, &res.run))
	}
	var stop atomic.Bool // set when the output fails: reading stops
	// Interrupted (Ctrl-C), the run stops reading too: the samples read are
	// still written, those the judge did not get to as errors.
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	// Interrupted before it began, it reads nothing: AfterFunc's goroutine
	// may not have run before the reader reads the whole input (on one
	// CPU, it did not).
	if ctx.Err() != nil {
		stop.Store(true)
	}
	var werr error
	// write writes a scored batch's cases, warnings and counts.
	write := func(b *batch) {
		for i := range b.items {
			if werr == nil {
				if werr = writeCase(wr, &b.cases[i], b.plain[i]); werr != nil {
					stop.Store(true)
				}
			}
			for _, a := range also {
				a.WriteCase(&b.cases[i]) // its error comes from Close
			}
		}
		if len(b.warn) > 0 && cfg.warn != nil {
			cfg.warn.Write(b.warn)
		}
		res.collect(b)
	}
	read := func(bt *batcher) {
		defer bt.close()
		if cfg.merge != nil {
			cfg.merge.readBatches(bt, &stop)
			return
		}
		readBatches(cfg.shard.inputs(ins), &cfg, bt, cfg.shard.keep, &stop)
	}
	if cfg.workers == 1 {
		readScoreWrite(ctx, cfg, read, write)
	} else {
		pipeline(ctx, cfg, read, write)
	}
	res.run.Shard = cfg.shard.report(&cfg, stop.Load())
	res.finish()
	if cerr := wr.Close(); werr == nil {
		werr = cerr
	}
	for _, a := range also {
		if cerr := a.Close(); werr == nil {
			werr = cerr
		}
	}
	if werr == nil && ctx.Err() != nil {
		werr = fmt.Errorf("interrupted (%v) after reading %d samples; the rest of the input was not read", context.Cause(ctx), res.total.samples)
	}
	return res, werr
}

// scorer is one worker's state, reused from sample to sample.
type scorer struct {
	ctx     context.Context
	cfg     evalConfig
	scores  []float64
	results []metric.Result
	errs    []error
	// isJudged marks the judged metrics; judged counts them.
	isJudged []bool
	// toolCall is each metric scored on the calls gathered once
	// (evaluate's fast path): the tool-call metrics, as the interface
	// values they are in already (as structs again, each sample would box
	// them anew), asserted once here rather than each sample; the zero
	// value for the others.
	toolCall []fastMetric
	judged   int
	// parsers reuse their memory from sample to sample: score parses a
	// few samples ahead, each with its own parser (parseAhead), and scores
	// them before the next are parsed. ahead holds what they read.
	parsers [parseAhead]dataset.Parser
	ahead   [parseAhead]parsed
	// own parses for evaluate a record given alone (calibrate's), into
	// read: not a parser whose sample a turn may still hold.
	own  dataset.Parser
	read agentcheck.Sample
	// rawText: parser keeps the messages' text with escapes as written,
	// as nothing the run shows reads it but a failure's transcript and a
	// first request with escapes, for which full parses the sample again
	// (withText).
	rawText bool
	full    dataset.Parser
	calls   []agentcheck.ToolCall
	// text is the current batch's memory for the tool-call metrics'
	// reasons (batch.reasons).
	text *[]byte
	// gathered says that calls are the current sample's: explain then
	// explains a tool-call metric's score with Compare on them, which is
	// what Evaluate would do after gathering them again.
	gathered bool
	// fast marks the metrics that fastResult scored, plain those whose
	// reasons in the case are the tool-call metrics' on calls with plain
	// names (plainNames), plain JSON text on one line (plainreason): the
	// JSON formats copy them as they are. names is 0 until the sample's
	// names are looked at, then 1 if they are plain, 2 if not.
	fast, plain uint64
	names       uint8
}

func newScorer(ctx context.Context, cfg evalConfig) *scorer {
	sc := &scorer{ctx: ctx, cfg: cfg, scores: make([]float64, len(cfg.metrics))}
	sc.rawText = cfg.readsNoText()
	bound := samplereuse.BoundValues.(func(*dataset.Parser, int, string))
	ready := func(p *dataset.Parser) {
		p.Format = cfg.input
		bound(p, cfg.maxValues, "--max-sample-values")
		if sc.rawText {
			samplereuse.KeepRawText.(func(*dataset.Parser))(p)
		}
	}
	for i := range sc.parsers {
		ready(&sc.parsers[i])
	}
	ready(&sc.own)
	if sc.rawText {
		sc.full.Format = cfg.input
		bound(&sc.full, cfg.maxValues, "--max-sample-values")
	}
	sc.results = make([]metric.Result, len(cfg.metrics))
	sc.errs = make([]error, len(cfg.metrics))
	for _, m := range cfg.metrics {
		var fm fastMetric
		switch m.(type) {
		case metric.ToolCallF1:
			fm.m = m.(toolCallMetric)
		case metric.ToolCallAccuracy:
			fm = fastMetric{m: m.(toolCallMetric), needsReference: true}
		}
		sc.toolCall = append(sc.toolCall, fm)
	}
	for _, n := range cfg.names {
		sc.isJudged = append(sc.isJudged, judgedMetrics[n])
		if judgedMetrics[n] {
			sc.judged++
		}
	}
	return sc
}

func (sc *scorer) score(b *batch) {
	b.reasons = b.reasons[:0]
	sc.text = &b.reasons
	b.warn = b.warn[:0]
	b.notes = b.notes[:0]
	b.keyed = b.keyed[:0]
	b.stats.reset(&sc.cfg)
	for len(b.cases) < len(b.items) {
		b.cases = append(b.cases, report.Case{})
	}
	b.plain = slices.Grow(b.plain[:0], len(b.items))[:len(b.items)]
	for k0, k1 := 0, 0; k0 < len(b.items); k0 = k1 {
		k1 = sc.parseAhead(b.items, k0)
		for i := k0; i < k1; i++ {
			sc.scoreItem(b, i, &sc.ahead[i-k0])
		}
	}
}

// The samples of a batch are parsed a few at a time (parseAhead), then
// scored, rather than each parsed then scored: the code that parses and
// the code that scores and fills the case (together more than the core's
// 32 KB instruction cache holds) then take turns in it once a few
// samples, not once a sample (BENCHMARKS.md, CPU10). Each sample parsed
// ahead is held by a parser of its own, which keeps the memory of the
// largest it parsed. A turn's samples come to aheadText of text together
// but for a first that is larger alone, so that the seven parsers past
// the first keep at most what aheadText of text parses to each: with
// arguments of many tiny values, about 150 bytes a byte, 5 MB, 34 MB for
// the seven in the worst case (the first, as the one parser did before,
// what a sample up to --max-sample-bytes parses to).
const parseAhead = 8

// aheadText bounds the records' text a turn parses ahead, but for its
// first record, which is parsed whatever its size.
const aheadText = 32 << 10

// parsed is a sample parsed ahead, or the error of its parse.
type parsed struct {
	s   agentcheck.Sample
	err error
}

// parseAhead parses the samples of items from k0 on into sc.ahead, up to
// parseAhead of them and, past the first, while their texts come to no
// more than aheadText in all; it returns the index past the last it took.
// Items that are no record to parse (an error, a sample read already, a
// shard's scored case) take a turn and are left to score.
func (sc *scorer) parseAhead(items []item, k0 int) int {
	k1, text := k0, 0
	for k1 < len(items) && k1-k0 < parseAhead {
		it := &items[k1]
		if k1 > k0 && text+len(it.rec.Text) > aheadText {
			break
		}
		text += len(it.rec.Text)
		a := &sc.ahead[k1-k0]
		if it.err == nil && it.sample == nil && it.scored == nil {
			a.err = parseRecord(&sc.parsers[k1-k0], it.rec, &a.s)
		}
		k1++
	}
	return k1
}

// noSample is the sample of a case that has none: read, never written.
var noSample agentcheck.Sample

// parseRecord is p.Sample(rec), the Sample set in *s (sampleInto), with a
// panic of the parser the sample's error: it must not hide the other
// samples.
func parseRecord(p *dataset.Parser, rec dataset.Record, s *agentcheck.Sample) (err error) {
	defer func() {
		if p := recover(); p != nil {
			*s, err = agentcheck.Sample{}, internalError(rec, p)
		}
	}()
	return sampleInto(p, rec, s)
}

// sampleInto is p.Sample(rec), the Sample set in *s: a Sample returned is
// thirteen words copied by each function it passes through.
var sampleInto = samplereuse.SampleInto.(func(*dataset.Parser, dataset.Record, *agentcheck.Sample) error)

// scoreItem scores the batch's item i, parsed ahead into a, into its case
// and the batch's counts.
func (sc *scorer) scoreItem(b *batch, i int, a *parsed) {
	it := &b.items[i]
	c := resetCase(&b.cases[i], it)
	sc.plain, b.plain[i] = 0, 0 // set again once the sample is scored
	unread := it.unread()
	if unread {
		b.stats.unread++
	} else {
		b.stats.samples++
	}
	s := &noSample // the sample scored, where it was read (not a copy), once read
	err := it.err
	if it.scored != nil {
		err = sc.takeScored(it.scored, c)
	} else if err == nil && it.sample != nil {
		s, err = sc.evaluate(it.rec, it.sample, c)
	} else if err == nil {
		if err = a.err; err == nil {
			s, err = sc.evaluate(it.rec, &a.s, c)
		}
	}
	if c.ID == "" {
		// The sample's "id", which the parse read; a record that
		// could not be parsed is searched for one.
		if err != nil && it.scored == nil {
			c.ID = recordID(it.rec.Text)
		} else if err == nil && it.scored == nil {
			c.ID = s.ID
		}
	}
	if err != nil {
		if !unread {
			b.stats.errors++
		}
		c.Status, c.Error = report.Error, err.Error()
		c.Scores, c.Reasons, c.Verdicts = c.Scores[:0], c.Reasons[:0], c.Verdicts[:0]
		if !unread && (sc.cfg.base != nil || sc.cfg.saveBaseline != "") {
			b.keyed = append(b.keyed, keyed{name: sc.name(c), at: place{it.rec.File, it.rec.Line}})
		}
		return
	}
	for j, x := range sc.scores {
		b.stats.scores[j] = append(b.stats.scores[j], x)
	}
	notes := len(b.notes)
	sc.check(b, it, c)
	if sc.cfg.request {
		c.Request = firstRequest(s.Conversation)
		if sc.rawText && strings.IndexByte(c.Request, '\\') >= 0 {
			// Maybe kept as written, escapes and all.
			c.Request = firstRequest(sc.withText(it, *s).Conversation)
		}
	}
	for _, n := range b.notes[notes:] {
		if n.kind == noteBelow || n.kind == noteRegressed {
			b.stats.failed++
			sc.fail(c, b.notes[notes:], sc.withText(it, *s))
			break
		}
	}
	b.warn = sc.appendWarnings(b.warn, it)
	sc.keepScored(it, c)
	b.plain[i] = sc.plain
}

// withText is s, the item's sample, with its messages' text read in full
// when the scorer's parser keeps it as written (rawText).
func (sc *scorer) withText(it *item, s agentcheck.Sample) agentcheck.Sample {
	if !sc.rawText || it.sample != nil || it.scored != nil {
		return s
	}
	if full, err := sc.full.Sample(it.rec); err == nil {
		return full
	}
	return s
}

// resetCase readies c, a batch's case from an earlier sample, for the
// item's: where it is and its id when the reader knew it (an OTLP trace's,
// or --shard's), its memory kept; score gives it the id the parse reads.
func resetCase(c *report.Case, it *item) *report.Case {
	*c = report.Case{File: it.rec.File, Line: it.rec.Line, Index: it.rec.Index, Status: report.Pass,
		Scores: c.Scores[:0], Reasons: c.Reasons[:0], Verdicts: c.Verdicts[:0]}
	if it.unread() {
		c.Index = -1 // no sample: no index
	}
	c.ID = it.id
	return c
}

// name is how the run names a case.
func (sc *scorer) name(c *report.Case) string {
	if c.ID != "" {
		return c.ID
	}
	return caseName(c, sc.cfg.several)
}

// fail writes in c why it failed, from its notes, with the report of each
// deterministic metric it fell below a threshold of (the call diff, as a
// matcher prints it) and its transcript.
func (sc *scorer) fail(c *report.Case, notes []note, s agentcheck.Sample) {
	c.Status = report.Fail
	if !sc.cfg.reasons {
		// The output shows no reasons (the table), but a failure says
		// why, as in every format.
		for j := range sc.results {
			if j < len(c.Reasons) && c.Reasons[j] == "" {
				sc.explain(sc.ctx, j, &s)
				if r := sc.results[j]; r.Reason != "" && r.Score == c.Scores[j] {
					r.Verdicts = nil // in c already
					c.SetResult(j, &r)
					sc.plain &^= bit(j)
				}
			}
		}
	}
	var reports []string
	for _, n := range notes {
		switch n.kind {
		case noteBelow:
			g := sc.cfg.sampleThresholds[n.index]
			f := fmt.Sprintf("Expected %s to be at least %s (%s), but it is %s", g.name, fullScore(g.threshold), g.flag, fullScore(n.score))
			if r := c.Reasons[g.metric]; r != "" {
				f += ": " + r
			}
			c.Failures = append(c.Failures, f)
			if !sc.isJudged[g.metric] {
				reports = append(reports, agenttest.CheckScore(sc.ctx, sc.cfg.metrics[g.metric], s, g.threshold).String())
			}
		case noteRegressed:
			c.Failures = append(c.Failures, fmt.Sprintf("Expected %s to be no lower than in the baseline %s (tolerance %s), but it went from %s to %s",
				sc.cfg.names[n.index], sc.cfg.base.path, fullScore(sc.cfg.baselineTolerance), fullScore(n.old), fullScore(n.score)))
		}
	}
	c.Report = strings.Join(reports, "\n\n")
	c.Transcript = report.Transcript(s.Conversation)
}

// check notes, in b, the gates a scored sample fails and how it fares
// against the baseline; with a baseline to compare or save, it keys the
// sample by name.
func (sc *scorer) check(b *batch, it *item, c *report.Case) {
	for gi, g := range sc.cfg.sampleThresholds {
		if x := sc.scores[g.metric]; !(x >= g.threshold) {
			b.notes = append(b.notes, note{kind: noteBelow, index: gi, name: sc.name(c), score: x})
		}
	}
	if sc.cfg.base != nil {
		sc.cfg.base.compare(b, sc.name(c), sc.scores, sc.cfg.baselineTolerance)
	}
	if sc.cfg.base != nil || sc.cfg.saveBaseline != "" {
		k := keyed{name: sc.name(c), at: place{it.rec.File, it.rec.Line}}
		if sc.cfg.saveBaseline != "" {
			k.scores = slices.Clone(sc.scores)
		}
		b.keyed = append(b.keyed, k)
	}
}

// evaluate parses a record and scores it with every metric into sc.scores,
// sc.results and c (when not nil). Errors name the file, line and sample; with several
// failing metrics, the first in --metrics order.
func (sc *scorer) evaluate(rec dataset.Record, read *agentcheck.Sample, c *report.Case) (s *agentcheck.Sample, err error) {
	defer func() {
		// A metric that panics on one sample must not hide the others.
		if p := recover(); p != nil {
			err = internalError(rec, p)
		}
	}()
	sc.gathered, sc.fast, sc.names = false, 0, 0
	if s = read; s == nil {
		// A record given alone (calibrate's): parsed into sc.read.
		if s, err = &sc.read, sampleInto(&sc.own, rec, &sc.read); err != nil {
			return s, err
		}
	}
	ctx := sc.ctx
	if sc.judged > 0 {
		ctx = caseContext(ctx, rec)
	}
	if sc.judged >= 2 {
		sc.evaluateTogether(ctx, rec, *s)
	} else {
		// The tool-call metrics score the conversation's calls: gathered
		// once here, into memory reused from sample to sample, rather than
		// once by each metric's Evaluate, which otherwise is just Compare.
		// Score stands for Compare, and AppendReason when the output shows
		// reasons (those of scores under 1), in the same pass.
		for j, m := range sc.cfg.metrics {
			// ToolCallAccuracy without reference calls is Evaluate's
			// (ragas refuses to score it).
			tc := sc.toolCall[j]
			if tc.m == nil || tc.needsReference && s.ReferenceToolCalls == nil {
				sc.results[j], sc.errs[j] = m.Evaluate(ctx, *s)
				continue
			}
			if !sc.gathered {
				sc.calls, sc.gathered = appendToolCalls(sc.calls[:0], s.Conversation), true
			}
			sc.fastResult(&sc.results[j], tc.m, s.ReferenceToolCalls)
			sc.errs[j], sc.fast = nil, sc.fast|bit(j)
		}
	}
	for j, err := range sc.errs {
		if err != nil {
			var le *dataset.LoadError
			if errors.As(err, &le) {
				return s, err
			}
			return s, &dataset.LoadError{File: rec.File, Line: rec.Line, Sample: rec.Index, Err: err}
		}
		sc.scores[j] = sc.results[j].Score
		if c == nil {
			continue
		}
		if sc.cfg.reasons && sc.results[j].Reason == "" && sc.scores[j] < 1 {
			sc.explain(ctx, j, s) // its test here too: most scores need no call
		}
		if sc.fast&bit(j) != 0 && (sc.results[j].Reason == "" || sc.plainNames(s)) && setPlainResult(c, j, &sc.results[j]) {
			sc.plain |= bit(j)
		} else {
			c.SetResult(j, &sc.results[j])
		}
	}
	return s, nil
}

// evaluateTogether scores a sample with several judged metrics side by
// side, as they wait on the judge rather than the CPU. It is a function of
// its own because its goroutines capture the sample: inside evaluate, that
// would move every sample to the heap, on the fast path too.
func (sc *scorer) evaluateTogether(ctx context.Context, rec dataset.Record, s agentcheck.Sample) {
	var wg sync.WaitGroup
	// A panic in a metric here still waits for the judgments in flight,
	// which write to sc.
	defer wg.Wait()
	for j, m := range sc.cfg.metrics {
		if !sc.isJudged[j] {
			sc.results[j], sc.errs[j] = m.Evaluate(ctx, s)
			continue
		}
		wg.Go(func() {
			defer func() {
				if p := recover(); p != nil {
					sc.errs[j] = internalError(rec, p)
				}
			}()
			sc.results[j], sc.errs[j] = m.Evaluate(ctx, s)
		})
	}
}

func internalError(rec dataset.Record, p any) error {
	return &dataset.LoadError{File: rec.File, Line: rec.Line, Sample: rec.Index, Err: fmt.Errorf("internal error, please report: %v", p)}
}

// appendWarnings writes the warnings of the sample's judged results (a judge
// that failed and was left out, no topics found) and a panel's
// disagreement, a line each, saying where the sample is. The deterministic
// metrics' warnings, ragas's, are left to the library: on a large dataset
// they would flood the terminal.
func (sc *scorer) appendWarnings(b []byte, it *item) []byte {
	for j := range sc.results {
		if !sc.isJudged[j] {
			continue
		}
		r := &sc.results[j]
		for _, w := range r.Warnings {
			b = fmt.Appendf(b, "agentcheck eval: %s:%d: sample %d: %s: warning: %s\n", shownName(it.rec.File), it.rec.Line, it.rec.Index, sc.cfg.names[j], shownText(w))
		}
		if r.Disagreement != "" {
			b = fmt.Appendf(b, "agentcheck eval: %s:%d: sample %d: %s: the judges disagree: %s\n", shownName(it.rec.File), it.rec.Line, it.rec.Index, sc.cfg.names[j], shownText(r.Disagreement))
		}
	}
	return b
}

// appendToolCalls appends to dst the calls Conversation.ToolCalls returns
// (those of the AI messages, in order), into memory reused from sample to
// sample.
func appendToolCalls(dst []agentcheck.ToolCall, c agentcheck.Conversation) []agentcheck.ToolCall {
	for _, m := range c {
		if m.Role == agentcheck.AI {
			dst = append(dst, m.ToolCalls...)
		}
	}
	return dst
}

// firstRequest is the conversation's first human message: what tells a
// table's rows apart.
func firstRequest(c agentcheck.Conversation) string {
	for _, m := range c {
		if m.Role == agentcheck.Human {
			return m.Content
		}
	}
	return ""
}
