package main

import (
	"context"
	"errors"
	"io"
	"iter"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/internal/samplereuse"
)

// The inputs are read, scored and written in batches (readScoreWrite,
// pipeline). batchSize is the batch of the deterministic metrics; judged runs take
// one sample at a time, so that a slow judgment holds up no other. Each
// batch's memory is touched once, the first time round, and on a virtual
// machine a page's first touch is dear (14 µs on the 2-core machine of
// BENCHMARKS.md): 64 samples a batch instead of 256 take 1,710 page faults
// of a 100,000-sample run down to 980, and no more instructions
// (callgrind) for the hand-offs.
const batchSize = 64

// batchText is how many bytes of records' text a batch takes before it is
// handed out, fewer than batchSize records if need be: a batch's memory
// stays under batchText and one sample (--max-sample-bytes), however large
// the samples.
const batchText = 8 << 20

// defaultMaxSample is --max-sample-bytes's default.
const defaultMaxSample = 64 << 20

// defaultMaxOTel is --max-otel-bytes's default.
const defaultMaxOTel = 1 << 30

// defaultMaxValues is --max-sample-values's default. A value parsed takes
// 72 bytes (a jsonvalue.Member) however short its text, "0," two: a
// sample's memory is bounded by its values more than by its bytes, and a
// million values, some 200 MB of RSS while read (README, eval), is far
// more than the tool calls of a conversation hold (a 1,536-float
// embedding is 1,537).
const defaultMaxValues = 1 << 20

// textRoom is the room a batch makes for a record's text at the outset: a
// sample of the spec's vectors takes 290 bytes, a generated one 790.
const textRoom = 1 << 10

// newBatch is an empty batch with room for the records' texts at the
// outset, rather than memory doubled and dropped as a first batch grows,
// each page of which is first touched at a cost (batchSize).
func newBatch(size int) *batch {
	return &batch{items: make([]item, 0, size), text: make([]byte, 0, size*textRoom), done: make(chan struct{}, 1)}
}

// readScoreWrite is the run with one worker: each batch is scored and
// written where it is read, by one goroutine. Handing batches between a
// reader, a worker and a writer would cost their hand-offs for nothing,
// and each hand-off wakes an idle processor that spins looking for work.
func readScoreWrite(ctx context.Context, cfg evalConfig, read func(*batcher), write func(*batch)) {
	sc := newScorer(ctx, cfg)
	b := newBatch(cfg.batch)
	bt := newBatcher(cfg.batch, b, func(b *batch) *batch {
		sc.score(b)
		write(b)
		return b
	}, func() {})
	// A batch is scored and written before the reader reads on into the
	// block that holds its records' texts (blockEnd): they need no copy.
	bt.held = true
	read(bt)
}

// pipeline is the run with several workers: one goroutine splits the
// inputs into batches, the workers score them, and the caller writes
// them back in input order. Batches are recycled, so memory stays bounded
// by 2 batches per worker whatever the input's size.
func pipeline(ctx context.Context, cfg evalConfig, read func(*batcher), write func(*batch)) {
	depth := 2*cfg.workers + 2
	free := make(chan *batch, depth)
	for range depth {
		free <- newBatch(cfg.batch)
	}
	work := make(chan *batch, depth)
	order := make(chan *batch, depth)
	var wg sync.WaitGroup
	wg.Go(func() {
		read(newBatcher(cfg.batch, <-free, func(b *batch) *batch {
			order <- b
			work <- b
			return <-free
		}, func() {
			close(work)
			close(order)
		}))
	})
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
	for b := range order {
		<-b.done
		write(b)
		free <- b
	}
}

// batcher fills batches batchSize items at a time and hands each full
// one out (handOut, which gives back the next to fill); close hands out
// the last and ends the run (end).
type batcher struct {
	b       *batch
	size    int
	handOut func(*batch) *batch
	end     func()
	// held: the batch is handed out at the end of each block the reader
	// reads JSON Lines into (blockEnd), so that a JSON Lines record's text,
	// which the block holds till then, is not copied into the batch.
	held bool
}

func newBatcher(size int, b *batch, handOut func(*batch) *batch, end func()) *batcher {
	b.items, b.text = b.items[:0], b.text[:0]
	return &batcher{b: b, size: size, handOut: handOut, end: end}
}

// add adds it to the batch, its record's text copied into the batch's
// own memory: the reader reuses its block (samplereuse.ReadRecords), and a
// batch its memory, from batch to batch.
func (bt *batcher) add(it *item) {
	b := bt.b
	b.items = append(b.items, *it)
	if it.copyText {
		if need := len(b.text) + len(it.rec.Text); need > cap(b.text) {
			// Room for the whole batch at its records' size so far (up to
			// batchText), in one step: append's many steps of a quarter
			// more each touched each step's memory first, 300 page faults
			// for a batch of 4 KB records (textRoom).
			want := max(need, min(need/len(b.items)*bt.size, batchText))
			b.text = slices.Grow(b.text, want-len(b.text))
		}
		b.text = append(b.text, it.rec.Text...)
	}
	if len(b.items) == bt.size || len(b.text) >= batchText {
		bt.send()
	}
}

// send hands the batch out, its records' texts pointing into its memory,
// which is not written again until the batch comes back to be filled.
func (bt *batcher) send() {
	b := bt.b
	at := 0
	for i := range b.items {
		it := &b.items[i]
		if it.copyText {
			n := len(it.rec.Text)
			it.rec.Text = unsafe.String(unsafe.SliceData(b.text[at:]), n)
			at += n
		}
	}
	bt.b = bt.handOut(b)
	bt.b.items, bt.b.text = bt.b.items[:0], bt.b.text[:0]
}

// blockEnd hands out the batch, if it holds a record, before the reader
// reads into the block that holds the records' texts again.
func (bt *batcher) blockEnd() {
	if len(bt.b.items) > 0 {
		bt.send()
	}
}

func (bt *batcher) close() {
	if len(bt.b.items) > 0 {
		bt.send()
	}
	bt.end()
}

// readBatches splits the inputs into records and hands them out in
// batches of batchSize, those keep keeps.
func readBatches(ins []input, cfg *evalConfig, bt *batcher, keep func(*item) bool, stop *atomic.Bool) {
	// it is every record's item in turn, on the heap once: keep takes its
	// address.
	var it item
	add := func(x item) {
		it = x
		if keep(&it) {
			bt.add(&it)
		} // else another shard's (--shard)
	}
	readRecords := samplereuse.ReadRecords.(func(io.Reader, string, int, string, func()) iter.Seq2[dataset.Record, error])
	readTraces := samplereuse.ReadOTLPTraces.(func(io.Reader, string, int, string, int, string, int, string) iter.Seq2[dataset.TraceSample, error])
	var blockEnd func()
	if bt.held {
		blockEnd = bt.blockEnd
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
		if cfg.otel {
			// One sample per trace, read whole: a trace's spans may be
			// spread over the file.
			i := 0
			for ts, err := range readTraces(r, in.name, cfg.maxSample, "--max-sample-bytes", cfg.maxValues, "--max-sample-values", cfg.maxOTel, "--max-otel-bytes") {
				it := item{rec: dataset.Record{File: in.name, Line: ts.Line, Index: i}, id: ts.TraceID, err: err}
				if err == nil {
					it.sample = &ts.Sample
				}
				if !it.unread() {
					i++ // a trace's index
				}
				add(it)
				if stop.Load() {
					break
				}
			}
			r.Close()
			continue
		}
		for rec, err := range readRecords(r, in.name, cfg.maxSample, "--max-sample-bytes", blockEnd) {
			if err != nil {
				rec.File = in.name
				if le := (*dataset.LoadError)(nil); errors.As(err, &le) && rec.Line == 0 {
					rec.Line, rec.Index = le.Line, le.Sample // where it was met
				}
			}
			add(item{rec: rec, err: err, copyText: rec.Text != "" && !bt.held})
			if stop.Load() {
				break
			}
		}
		r.Close()
	}
}
