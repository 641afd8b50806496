package main

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"flag"
	"hash"
	"io"
	"slices"
	"strings"

	"github.com/agentcheck/agentcheck/calibrate"
	"github.com/agentcheck/agentcheck/internal/shard"
	"github.com/agentcheck/agentcheck/report"
)

// eval --shard K/N scores a slice of the input (package internal/shard has
// the rule: by the sample's id, else round robin by its position in the
// whole input), and its --format json run carries what agentcheck merge
// needs to put the shards together (report.Shard).

// shardFlag is --shard's value.
type shardFlag struct{ spec shard.Spec }

func (f *shardFlag) String() string { return f.spec.String() }

func (f *shardFlag) Set(v string) error {
	spec, err := shard.Parse(v)
	if err == nil && !spec.Sharded() {
		err = errEmptyShard
	}
	f.spec = spec
	return err
}

var errEmptyShard = errors.New("want K/N, shard K of N, such as 1/4")

// scoreFlags are eval's flags that decide the scores: the shards of one
// run must agree on them, which merge checks. The others say how the run
// is carried out (--workers, --judge-concurrency, --cassette's path) or
// what is made of the scores (the output and gate flags, which merge takes
// itself); TestEveryEvalFlagIsClassified holds every flag to one list.
var scoreFlags = []string{
	"metrics", "strict-order", "arg-similarity", "trajectory-mode", "turn-aware", "args-mode",
	"topic-mode", "judge-model", "aggregation", "tolerance", "input-format", "max-sample-bytes",
	"max-sample-values", "max-otel-bytes",
}

// shardRun is a sharded eval's slice and what it learns of the whole input
// on its way: how many records it holds, their digest, and the position of
// each one kept. The reader fills it, then the run's report.
type shardRun struct {
	spec     shard.Spec
	options  []string
	records  int
	ordinals []int
	digest   hash.Hash
}

// newShardRun is the shardRun of --shard's value, nil without one. fs holds
// eval's parsed flags; names are the metrics --metrics resolved to (the
// bundled dataset's default differs from a file's); bundled is set when
// eval scores the bundled dataset (no files).
func newShardRun(f *shardFlag, fs *flag.FlagSet, names []string, bundled bool) *shardRun {
	if !f.spec.Sharded() {
		return nil
	}
	s := &shardRun{spec: f.spec, digest: sha256.New()}
	for _, name := range scoreFlags {
		v := fs.Lookup(name).Value.String()
		if name == "metrics" {
			v = strings.Join(names, ",")
		}
		s.options = append(s.options, name+"="+v)
	}
	if bundled {
		s.options = append(s.options, bundledOption)
	}
	return s
}

// inputs wraps each input so that the digest takes in its bytes, all of
// them, read or not: a digest of the whole input whatever the reader stops
// at.
func (s *shardRun) inputs(ins []input) []input {
	if s == nil {
		return ins
	}
	out := make([]input, len(ins))
	for i, in := range ins {
		out[i] = input{name: in.name, open: func() (io.ReadCloser, error) {
			r, err := in.open()
			if err != nil {
				s.mark(in.name, "unreadable")
				return nil, err
			}
			s.mark(in.name, "")
			return &digestReader{r: r, h: s.digest}, nil
		}}
	}
	return out
}

// mark starts an input in the digest: its name and, for one that could not
// be opened, why.
func (s *shardRun) mark(name, note string) {
	var n [8]byte
	for _, t := range []string{name, note} {
		binary.BigEndian.PutUint64(n[:], uint64(len(t)))
		s.digest.Write(n[:])
		s.digest.Write([]byte(t))
	}
}

type digestReader struct {
	r io.ReadCloser
	h hash.Hash
}

func (d *digestReader) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	d.h.Write(p[:n])
	return n, err
}

// Close takes in what was not read.
func (d *digestReader) Close() error {
	_, err := io.Copy(d.h, d.r)
	if cerr := d.r.Close(); err == nil {
		err = cerr
	}
	return err
}

// keep says whether the item, the next of the whole input, is in the
// slice, and counts it. The reader calls it for every item in input order.
// The item's id, read here, is kept in it, as the case's (resetCase).
func (s *shardRun) keep(it *item) bool {
	if s == nil {
		return true
	}
	ordinal := s.records
	s.records++
	if it.id == "" {
		it.id = recordID(it.rec.Text)
	}
	if !s.spec.Has(it.id, ordinal) {
		return false
	}
	s.ordinals = append(s.ordinals, ordinal)
	return true
}

// judgesOption names the models of the run's judge, as the calibration
// check sees them (the bundled dataset's come from its cassette, not a
// flag): merge holds the judged gates to the same calibration.
func judgesOption(cfg *evalConfig) string {
	for _, m := range cfg.metrics {
		if s, ok := calibrate.SetupOf(m); ok {
			return judgesKey + strings.Join(s.Judges, ",")
		}
	}
	return judgesKey
}

const judgesKey = "judges="

// report is what the run's report carries of the shard, once the whole
// input is read (partial when the reading stopped before its end): with the
// options that decide the scores, those that decide the verdicts
// (verdictOptions), which merge must be given too.
func (s *shardRun) report(cfg *evalConfig, partial bool) *report.Shard {
	if s == nil {
		return nil
	}
	return &report.Shard{
		K: s.spec.K, N: s.spec.N, Records: s.records,
		Input:   "sha256:" + hex.EncodeToString(s.digest.Sum(nil)),
		Options: slices.Concat(s.options, []string{judgesOption(cfg)}, verdictOptions(cfg)), Ordinals: s.ordinals,
		Partial: partial,
	}
}
