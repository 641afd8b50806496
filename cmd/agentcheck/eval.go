package main

import (
	"bufio"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/jsonvalue"
	"github.com/agentcheck/agentcheck/metric"
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

// The pipeline: one goroutine splits the inputs into records and hands
// them out in batches to workers that parse, score and format them; the
// caller writes the batches back in input order. Batches are recycled, so
// memory stays bounded by 2 batches per worker whatever the input's size.
// batchSize is the batch of the deterministic metrics; judged runs take
// one sample at a time, so that a slow judgment holds up no other.
const batchSize = 256

// item is one sample's record, or an error that stands in its place in the
// output (a file that does not open, a broken JSON array).
type item struct {
	rec    dataset.Record
	sample *agentcheck.Sample // already read (an OTLP trace), else nil
	id     string             // the trace's ID for an OTLP trace
	err    error
}

type batch struct {
	items []item
	out   []byte // the items' formatted output
	warn  []byte // the items' warnings, a line each
	stats stats
	notes []note        // samples below a threshold, lower than or new to the baseline
	keyed []keyed       // with a baseline, each sample by name
	done  chan struct{} // a token when out and stats are ready
}

// stats are counts and score sums, per batch and for the whole run.
type stats struct {
	samples, errors int
	failed          int       // samples below a threshold or their baseline
	sums            []float64 // per metric, over the samples that scored
}

func (s *stats) reset(metrics int) {
	s.samples, s.errors, s.failed = 0, 0, 0
	s.sums = append(s.sums[:0], make([]float64, metrics)...)
}

func (s *stats) add(t *stats) {
	s.samples += t.samples
	s.errors += t.errors
	s.failed += t.failed
	for i := range t.sums {
		s.sums[i] += t.sums[i]
	}
}

// evaluate scores every sample of the inputs and writes the results to w
// in cfg.format. Samples that cannot be scored are counted in the returned
// result and written as errors in their place; the error returned is about
// writing the output, or says that ctx ended the run early.
func evaluate(ctx context.Context, cfg evalConfig, ins []input, w io.Writer) (*runResult, error) {
	if len(ins) > 1 {
		// Several files: the table says which one each row is from.
		cfg.several = true
		for _, in := range ins {
			cfg.fileWidth = max(cfg.fileWidth, utf8.RuneCountInString(shownName(in.name)))
		}
	}
	cfg.named = cfg.base != nil || cfg.saveBaseline != "" || cfg.format == formatJUnit
	res := newRunResult(&cfg, ins)
	depth := 2*cfg.workers + 2
	free := make(chan *batch, depth)
	for range depth {
		free <- &batch{items: make([]item, 0, cfg.batch), done: make(chan struct{}, 1)}
	}
	work := make(chan *batch, depth)
	order := make(chan *batch, depth)
	var stop atomic.Bool // set when the output fails: reading stops
	// Interrupted (Ctrl-C), the run stops reading too: the samples read are
	// still written, those the judge did not get to as errors.
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	var wg sync.WaitGroup
	wg.Go(func() { readBatches(ins, cfg.otel, cfg.batch, free, work, order, &stop) })
	for range cfg.workers {
		wg.Go(func() {
			sc := newScorer(ctx, cfg)
			for b := range work {
				sc.score(b)
				b.done <- struct{}{}
			}
		})
	}
	defer wg.Wait()

	out := bufio.NewWriterSize(w, 1<<16)
	var werr error
	write := func(p []byte) {
		if werr == nil {
			_, werr = out.Write(p)
			if werr != nil {
				stop.Store(true)
			}
		}
	}
	// JUnit's counts come before its testcases: they wait in cases.
	var cases spool
	defer cases.close()
	switch cfg.format {
	case formatJSON:
		write([]byte(`{"samples":[`))
	case formatTable:
		write(tableHeader(cfg))
	}
	for b := range order {
		<-b.done
		p := b.out
		switch cfg.format {
		case formatJSON:
			if res.total.samples == 0 && len(p) > 0 {
				p = p[1:] // the first object needs no comma before it
			}
		case formatJUnit:
			if werr == nil {
				if _, werr = cases.Write(p); werr != nil {
					stop.Store(true)
				}
			}
			p = nil
		}
		write(p)
		if len(b.warn) > 0 && cfg.warn != nil {
			cfg.warn.Write(b.warn)
		}
		res.collect(b)
		free <- b
	}
	res.finish()
	switch cfg.format {
	case formatJSON:
		if res.total.samples > 0 {
			write([]byte("\n"))
		}
		write(res.appendSummaryJSON([]byte(`],"summary":`)))
		write([]byte("}\n"))
	case formatTable:
		write(tableSummary(cfg, &res.total))
	case formatJUnit:
		if werr == nil {
			werr = writeJUnit(out, res, &cases, res.total.failed)
		}
	}
	if werr == nil {
		werr = out.Flush()
	}
	if werr == nil && ctx.Err() != nil {
		werr = fmt.Errorf("interrupted (%v) after reading %d samples; the rest of the input was not read", context.Cause(ctx), res.total.samples)
	}
	return res, werr
}

// readBatches splits the inputs into records, batchSize to a batch, and
// sends each batch both to the workers and, to keep the order, to the
// writer.
func readBatches(ins []input, otel bool, batchSize int, free <-chan *batch, work, order chan<- *batch, stop *atomic.Bool) {
	defer close(order)
	defer close(work)
	b := <-free
	b.items = b.items[:0]
	add := func(it item) {
		b.items = append(b.items, it)
		if len(b.items) == batchSize {
			order <- b
			work <- b
			b = <-free
			b.items = b.items[:0]
		}
	}
	for _, in := range ins {
		if stop.Load() {
			break
		}
		r, err := in.open()
		if err != nil {
			add(item{rec: dataset.Record{File: in.name}, err: err})
			continue
		}
		if otel {
			// One sample per trace, read whole: a trace's spans may be
			// spread over the file.
			i := 0
			for ts, err := range dataset.ReadOTLPTraces(r, in.name) {
				it := item{rec: dataset.Record{File: in.name, Line: ts.Line, Index: i}, id: ts.TraceID, err: err}
				if err == nil {
					it.sample = &ts.Sample
				}
				add(it)
				i++
				if stop.Load() {
					break
				}
			}
			r.Close()
			continue
		}
		for rec, err := range dataset.ReadRecords(r, in.name) {
			if err != nil {
				rec.File = in.name
			}
			add(item{rec: rec, err: err})
			if stop.Load() {
				break
			}
		}
		r.Close()
	}
	if len(b.items) > 0 {
		order <- b
		work <- b
	}
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
	judged   int
	keys     [][]byte // the metric names as JSON object keys: "name":
	// floats caches formatted scores: a dataset's scores are mostly a few
	// fractions of small numbers, and formatting costs more than a lookup.
	floats map[float64][]byte
	// parser reuses its memory from sample to sample: a sample is scored
	// and written out before the next is parsed.
	parser dataset.Parser
	calls  []agentcheck.ToolCall
}

func newScorer(ctx context.Context, cfg evalConfig) *scorer {
	sc := &scorer{ctx: ctx, cfg: cfg, scores: make([]float64, len(cfg.metrics)), floats: make(map[float64][]byte)}
	sc.parser.Format = cfg.input
	sc.results = make([]metric.Result, len(cfg.metrics))
	sc.errs = make([]error, len(cfg.metrics))
	for _, n := range cfg.names {
		sc.isJudged = append(sc.isJudged, judgedMetrics[n])
		if judgedMetrics[n] {
			sc.judged++
		}
	}
	for _, n := range cfg.names {
		sc.keys = append(sc.keys, append(appendJSONString(nil, n), ':'))
	}
	return sc
}

// maxCachedFloats bounds the cache of formatted scores.
const maxCachedFloats = 1 << 12

// appendFloat writes a score as Python's repr writes it (1.0,
// 0.6666666666666666), the way ragas's results print; in JSON, NaN and the
// infinities as Python's json module writes them. The table rounds to four
// decimals (shortScore).
func (sc *scorer) appendFloat(b []byte, x float64) []byte {
	// NaN is no map key, and -0.0 would find 0.0: scores are neither.
	cacheable := x == x && !math.Signbit(x)
	if p, ok := sc.floats[x]; ok && cacheable {
		return append(b, p...)
	}
	v := jsonvalue.Float(x)
	var p []byte
	if sc.cfg.format == formatTable {
		p = []byte(shortScore(x))
	} else {
		p, _ = v.MarshalJSON()
	}
	if cacheable && len(sc.floats) < maxCachedFloats {
		sc.floats[x] = p
	}
	return append(b, p...)
}

func (sc *scorer) score(b *batch) {
	b.out = b.out[:0]
	b.warn = b.warn[:0]
	b.notes = b.notes[:0]
	b.keyed = b.keyed[:0]
	b.stats.reset(len(sc.cfg.metrics))
	for i := range b.items {
		it := &b.items[i]
		b.stats.samples++
		var s agentcheck.Sample
		err := it.err
		if err == nil {
			s, err = sc.evaluate(it.rec, it.sample)
		}
		var name string
		if sc.cfg.named {
			name = sampleName(it, sc.cfg.several)
		}
		if err != nil {
			b.stats.errors++
			if sc.cfg.base != nil || sc.cfg.saveBaseline != "" {
				b.keyed = append(b.keyed, keyed{name: name, at: place{it.rec.File, it.rec.Line}})
			}
			if sc.cfg.format == formatJUnit {
				b.out = sc.appendJUnitCase(b.out, it, name, nil, err)
			} else {
				b.out = sc.appendError(b.out, it, err)
			}
			continue
		}
		for j, x := range sc.scores {
			b.stats.sums[j] += x
		}
		notes := len(b.notes)
		sc.check(b, it, &name)
		for _, n := range b.notes[notes:] {
			if n.kind != noteNew {
				b.stats.failed++
				break
			}
		}
		if sc.cfg.format == formatJUnit {
			b.out = sc.appendJUnitCase(b.out, it, name, b.notes[notes:], nil)
		} else {
			b.out = sc.appendScores(b.out, it, s)
		}
		b.warn = sc.appendWarnings(b.warn, it)
	}
}

// check notes, in b, the gates a scored sample fails and how it fares
// against the baseline; with a baseline to compare or save, it keys the
// sample by name. name is the sample's name, worked out here if needed and
// not yet.
func (sc *scorer) check(b *batch, it *item, name *string) {
	for gi, g := range sc.cfg.sampleThresholds {
		if x := sc.scores[g.metric]; !(x >= g.threshold) {
			if *name == "" {
				*name = sampleName(it, sc.cfg.several)
			}
			b.notes = append(b.notes, note{kind: noteBelow, index: gi, name: *name, score: x})
		}
	}
	if sc.cfg.base != nil {
		sc.cfg.base.compare(b, *name, sc.scores, sc.cfg.baselineTolerance)
	}
	if sc.cfg.base != nil || sc.cfg.saveBaseline != "" {
		k := keyed{name: *name, at: place{it.rec.File, it.rec.Line}}
		if sc.cfg.saveBaseline != "" {
			k.scores = slices.Clone(sc.scores)
		}
		b.keyed = append(b.keyed, k)
	}
}

// evaluate parses a record and scores it with every metric into sc.scores
// and sc.results. Errors name the file, line and sample; with several failing
// metrics, the first in --metrics order.
func (sc *scorer) evaluate(rec dataset.Record, read *agentcheck.Sample) (s agentcheck.Sample, err error) {
	defer func() {
		// A metric that panics on one sample must not hide the others.
		if p := recover(); p != nil {
			err = internalError(rec, p)
		}
	}()
	if read != nil {
		s = *read
	} else if s, err = sc.parser.Sample(rec); err != nil {
		return s, err
	}
	ctx := sc.ctx
	if sc.judged > 0 {
		ctx = caseContext(ctx, rec)
	}
	if sc.judged >= 2 {
		sc.evaluateTogether(ctx, rec, s)
	} else {
		// The tool-call metrics score the conversation's calls: gathered
		// once here, into memory reused from sample to sample, rather than
		// once by each metric's Evaluate, which otherwise is just Compare.
		// Only their scores are written, so Score, which explains nothing,
		// stands for Compare.
		gathered := false
		for j, m := range sc.cfg.metrics {
			switch m := m.(type) {
			case metric.ToolCallF1:
				if !gathered {
					sc.calls, gathered = appendToolCalls(sc.calls[:0], s.Conversation), true
				}
				sc.results[j], sc.errs[j] = metric.Result{Metric: m.Name(), Score: m.Score(sc.calls, s.ReferenceToolCalls)}, nil
			case metric.ToolCallAccuracy:
				if s.ReferenceToolCalls == nil {
					sc.results[j], sc.errs[j] = m.Evaluate(ctx, s)
					break
				}
				if !gathered {
					sc.calls, gathered = appendToolCalls(sc.calls[:0], s.Conversation), true
				}
				sc.results[j], sc.errs[j] = metric.Result{Metric: m.Name(), Score: m.Score(sc.calls, s.ReferenceToolCalls)}, nil
			default:
				sc.results[j], sc.errs[j] = m.Evaluate(ctx, s)
			}
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

func (sc *scorer) appendScores(b []byte, it *item, s agentcheck.Sample) []byte {
	switch sc.cfg.format {
	case formatTable:
		b = appendRowStart(b, sc.cfg.fileWidth, it.rec.File, strconv.Itoa(it.rec.Index), strconv.Itoa(it.rec.Line))
		for j, x := range sc.scores {
			start := len(b)
			b = append(b, "  "...)
			b = sc.appendFloat(b, x)
			b = pad(b, start+2+columnWidth(sc.cfg.names[j]))
		}
		b = append(b, "  "...)
		b = appendRequest(b, s.Conversation)
		return append(b, '\n')
	case formatJSON:
		b = append(b, ",\n"...)
	}
	b = append(b, '{')
	for j, x := range sc.scores {
		if j > 0 {
			b = append(b, ',')
		}
		b = append(b, sc.keys[j]...)
		b = sc.appendFloat(b, x)
	}
	b = append(b, '}')
	if sc.cfg.format == formatJSONL {
		b = append(b, '\n')
	}
	return b
}

func (sc *scorer) appendError(b []byte, it *item, err error) []byte {
	switch sc.cfg.format {
	case formatTable:
		if it.err == nil {
			b = appendRowStart(b, sc.cfg.fileWidth, it.rec.File, strconv.Itoa(it.rec.Index), strconv.Itoa(it.rec.Line))
		} else {
			b = appendRowStart(b, sc.cfg.fileWidth, it.rec.File, "-", "-")
		}
		b = append(b, "  error: "...)
		b = append(b, shownText(strings.ReplaceAll(err.Error(), "\n", " "))...)
		return append(b, '\n')
	case formatJSON:
		b = append(b, ",\n"...)
	}
	b = append(b, `{"error":`...)
	b = appendJSONString(b, err.Error())
	b = append(b, '}')
	if sc.cfg.format == formatJSONL {
		b = append(b, '\n')
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

func appendJSONString(b []byte, s string) []byte {
	p, _ := jsonvalue.String(s).MarshalJSON()
	return appendShownJSON(b, p)
}

// The table: sample index and line, a column per metric, and the start of
// the conversation's first request so that rows can be told apart.

const (
	sampleWidth  = 6
	lineWidth    = 6
	requestWidth = 60 // runes of the first human message shown
)

func columnWidth(metric string) int { return max(len(metric), len("0.6667")) }

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

// appendRowStart writes the columns that say where a row's sample is.
func appendRowStart(b []byte, fileWidth int, file, sample, line string) []byte {
	if fileWidth > 0 {
		if file != "" {
			file = shownName(file)
		}
		b = append(b, file...)
		for n := utf8.RuneCountInString(file); n < fileWidth+2; n++ {
			b = append(b, ' ')
		}
	}
	b = appendRight(b, sample, sampleWidth)
	b = append(b, "  "...)
	return appendRight(b, line, lineWidth)
}

func appendRight(b []byte, s string, width int) []byte {
	for n := len(s); n < width; n++ {
		b = append(b, ' ')
	}
	return append(b, s...)
}

func tableHeader(cfg evalConfig) []byte {
	b := appendRowStart(nil, cfg.fileWidth, "file", "sample", "line")
	for _, n := range cfg.names {
		b = appendCell(b, n, columnWidth(n))
	}
	return append(b, "  request\n"...)
}

func tableSummary(cfg evalConfig, total *stats) []byte {
	scored := total.samples - total.errors
	b := appendRowStart(nil, cfg.fileWidth, "", "", "mean")
	for j, n := range cfg.names {
		cell := "-"
		if scored > 0 {
			cell = strconv.FormatFloat(total.sums[j]/float64(scored), 'f', 4, 64)
		}
		b = appendCell(b, cell, columnWidth(n))
	}
	return fmt.Appendf(b, "  %d samples, %d scored, %d could not be scored\n", total.samples, scored, total.errors)
}

// appendRequest writes the first human message on one line, cut short.
func appendRequest(b []byte, c agentcheck.Conversation) []byte {
	for _, m := range c {
		if m.Role != agentcheck.Human {
			continue
		}
		text := strings.Join(strings.Fields(m.Content), " ")
		if utf8.RuneCountInString(text) > requestWidth {
			runes := []rune(text)
			text = string(runes[:requestWidth-1]) + "…"
		}
		return append(b, shownText(text)...)
	}
	return b
}
