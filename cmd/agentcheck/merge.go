package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/internal/shard"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/report"
)

// agentcheck merge puts the --format json runs of eval's shards back
// together and hands their cases, in input order, to eval's own pipeline in
// place of the input: the gates, the baseline, the formats and the exit
// status are eval's, so the merge writes what one unsharded eval would.

const mergeRunsUsageText = `Usage: agentcheck merge [flags] RUN.json...

Merges the runs of the shards of one eval (agentcheck eval --shard K/N
--format json, one file per shard, in any order) into the run of the whole
input, and writes it as the unsharded eval would: the same cases in the
input's order, the same table, json, jsonl, junit, markdown or html, the same
gates, baseline comparison, step summary and exit status.

Every shard 1/N to N/N must be given once. The shards must have read the same
input and scored it with the same options (--metrics, the judges, ...), at the
same commit: merge refuses, naming the files, shards that are missing, given
twice, of different inputs or of different options.

Flags: eval's output and gate flags, with eval's meaning (agentcheck help eval):
  --format NAME, --fail-under METRIC=X, --sample-threshold METRIC=X,
  --baseline FILE, --baseline-tolerance X, --save-baseline FILE,
  --calibration FILE, --require-calibration
A case that fails a --sample-threshold or its --baseline carries the report
and transcript its shard made from the sample, so --sample-threshold,
--baseline and --baseline-tolerance must be those the shards were given.

Exit status: as eval's; 2 for a usage error or shards that do not make one run.
`

// shardOnlyFlags are eval's flags that merge refuses: the shards' options
// (scoreFlags) and how the shards ran.
var shardOnlyFlags = append([]string{"shard", "workers", "judge-concurrency", "cassette"}, scoreFlags...)

// mergeRun is the shards' cases, in the input's order, that eval's pipeline
// takes instead of reading the input.
type mergeRun struct {
	first *report.Run // shard 1's run: the run's facts
	cases []report.Case
}

func runMergeRuns(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	usage := func(err error) int {
		fmt.Fprintf(stderr, "agentcheck merge: %s\n\nRun \"agentcheck merge -h\" for usage.\n", shownLines(err.Error()))
		return exitUsage
	}
	for _, a := range args {
		if a == "--" {
			break
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && slices.Contains(shardOnlyFlags, name) {
			return usage(fmt.Errorf("--%s is the shards' to give, not merge's: merge takes the output and gate flags", name))
		}
	}
	// eval's flags, parsed by eval: first to find the files, then once the
	// shards' metrics are known (the gates name them).
	_, files, err := parseEvalFlags(append([]string{"--metrics", strings.ReplaceAll(availableMetrics, " ", "")}, args...))
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, mergeRunsUsageText)
		return exitOK
	}
	if err != nil {
		return usage(err)
	}
	if len(files) == 0 {
		return usage(errors.New("give the shards' runs: agentcheck merge RUN.json..."))
	}
	m, err := readShards(files)
	if err != nil {
		fmt.Fprintf(stderr, "agentcheck merge: %s\n", shownLines(err.Error()))
		return exitUsage
	}
	// The shards' options, then merge's flags: the config of the shards' eval.
	var shardArgs []string
	var judges []string
	for _, o := range m.first.Shard.Options {
		name, v, _ := strings.Cut(o, "=")
		switch {
		case name+"=" == judgesKey:
			if v != "" {
				judges = strings.Split(v, ",")
			}
		case !slices.Contains(scoreFlags, name):
		case name == "judge-model":
			if v != "" {
				for _, model := range strings.Split(v, ",") {
					shardArgs = append(shardArgs, "--judge-model="+model)
				}
			}
		default:
			shardArgs = append(shardArgs, "--"+name+"="+v)
		}
	}
	cfg, _, err := parseEvalFlags(append(shardArgs, args...))
	if err != nil {
		return usage(err)
	}
	if cfg.baselinePath != "" {
		if cfg.base, err = loadBaseline(cfg.baselinePath, cfg.names); err != nil {
			return usage(fmt.Errorf("--baseline: %w", err))
		}
	}
	if err := m.sameVerdicts(&cfg); err != nil {
		return usage(err)
	}
	// The metrics, never asked to score: for the calibration check, with a
	// judge that stands for the shards'.
	var sess *judgeSession
	if len(judges) > 0 {
		sess = &judgeSession{judge: standInJudge(judges)}
	}
	if err := cfg.buildMetrics(sess); err != nil {
		return usage(err)
	}
	// The cases are scored already: one worker takes them in large batches.
	cfg.merge = m
	cfg.workers, cfg.batch = 1, batchSize
	ins := make([]input, len(m.first.Inputs))
	for i, name := range m.first.Inputs {
		ins[i] = input{name: name}
	}
	var evalFiles []string // what eval was given, for the calibration's default path
	if !slices.Contains(m.first.Shard.Options, bundledOption) {
		for _, in := range m.first.Inputs {
			if in == stdinName {
				in = "-"
			}
			evalFiles = append(evalFiles, in)
		}
	}
	cfg.warn = stderr
	return scoreRun(ctx, cfg, ins, evalFiles, func() error { return nil }, stdout, stderr)
}

// readShards reads the shards' runs and puts their cases in input order,
// or says why the files are not the shards of one run.
func readShards(files []string) (*mergeRun, error) {
	runs := make([]*report.Run, len(files))
	for i, f := range files {
		r, err := readRunFile(f)
		if err != nil {
			return nil, err
		}
		if r.Shard == nil {
			return nil, fmt.Errorf("%s: not a shard's run: its \"run\" has no \"shard\" (agentcheck eval --shard K/N --format json writes one)", shownName(f))
		}
		s := r.Shard
		if s.Partial {
			return nil, fmt.Errorf("%s: shard %d/%d stopped before the end of its input (interrupted, or its output failed): score it again", shownName(f), s.K, s.N)
		}
		if s.N < 1 || s.K < 1 || s.K > s.N {
			return nil, fmt.Errorf("%s: shard %d/%d: K counts from 1 to N", shownName(f), s.K, s.N)
		}
		if len(s.Ordinals) != len(r.Cases) {
			return nil, fmt.Errorf("%s: %d cases, but its shard places %d of them in the input", shownName(f), len(r.Cases), len(s.Ordinals))
		}
		runs[i] = r
	}
	byK := make(map[int]int) // shard K: the index of its file
	for i, r := range runs {
		a, b := runs[0], r
		if err := sameRun(shownName(files[0]), a, shownName(files[i]), b); err != nil {
			return nil, err
		}
		if j, dup := byK[b.Shard.K]; dup {
			return nil, fmt.Errorf("shard %d/%d is given twice: %s and %s", b.Shard.K, b.Shard.N, shownName(files[j]), shownName(files[i]))
		}
		byK[b.Shard.K] = i
	}
	n := runs[0].Shard.N
	var missing []string
	for k := 1; k <= n; k++ {
		if _, ok := byK[k]; !ok {
			missing = append(missing, strconv.Itoa(k)+"/"+strconv.Itoa(n))
		}
	}
	if len(missing) > 0 {
		var given []string
		for k := 1; k <= n; k++ {
			if i, ok := byK[k]; ok {
				given = append(given, fmt.Sprintf("%d/%d %s", k, n, shownName(files[i])))
			}
		}
		return nil, fmt.Errorf("%s missing: given %s", inflect(len(missing), "shard "+missing[0]+" is", "shards "+strings.Join(missing, ", ")+" are"), strings.Join(given, ", "))
	}
	records := runs[0].Shard.Records
	at := make([]int32, records) // the file (plus 1) that holds each record
	cases := make([]report.Case, records)
	for i, r := range runs {
		s := r.Shard
		for ci, o := range s.Ordinals {
			c := &r.Cases[ci]
			switch {
			case o < 0 || o >= records:
				return nil, fmt.Errorf("%s: case %d is at position %d of an input of %d records", shownName(files[i]), ci+1, o, records)
			case at[o] != 0:
				return nil, fmt.Errorf("%s and %s both hold the input's record %d", shownName(files[at[o]-1]), shownName(files[i]), o+1)
			case shard.Of(c.ID, o, s.N) != s.K:
				return nil, fmt.Errorf("%s: %s is not in shard %d/%d's slice of the input", shownName(files[i]), shownName(r.Name(c)), s.K, s.N)
			}
			at[o] = int32(i + 1)
			cases[o] = *c
		}
	}
	for o, f := range at {
		if f == 0 {
			return nil, fmt.Errorf("no shard holds the input's record %d of %d: the shards were not written whole", o+1, records)
		}
	}
	return &mergeRun{first: runs[byK[1]], cases: cases}, nil
}

// readRunFile reads a shard's run (report.ReadJSON bounds its size).
func readRunFile(path string) (*report.Run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return report.ReadJSON(f, shownName(path))
}

// sameRun says how the shards a and b (named as given) differ, when they
// are not shards of one run.
func sameRun(an string, a *report.Run, bn string, b *report.Run) error {
	sa, sb := a.Shard, b.Shard
	switch {
	case sa.N != sb.N:
		return fmt.Errorf("%s is shard %d/%d but %s is shard %d/%d: not the shards of one run", an, sa.K, sa.N, bn, sb.K, sb.N)
	case !slices.Equal(a.Inputs, b.Inputs):
		return fmt.Errorf("%s and %s are shards of different inputs: %s and %s", an, bn, shownNames(a.Inputs), shownNames(b.Inputs))
	case sa.Records != sb.Records || sa.Input != sb.Input:
		return fmt.Errorf("%s and %s read different inputs under the same name (%s): %d records, %s, and %d records, %s",
			an, bn, shownNames(a.Inputs), sa.Records, sa.Input, sb.Records, sb.Input)
	case a.Commit != b.Commit:
		return fmt.Errorf("%s and %s were made at different commits: %q and %q", an, bn, a.Commit, b.Commit)
	case !slices.Equal(a.Judges, b.Judges) || !slices.Equal(a.PromptVersions, b.PromptVersions) || a.CassetteMode != b.CassetteMode:
		return fmt.Errorf("%s and %s were judged differently: judges %v, prompts %v, %q and judges %v, prompts %v, %q",
			an, bn, a.Judges, a.PromptVersions, a.CassetteMode, b.Judges, b.PromptVersions, b.CassetteMode)
	}
	for i := range max(len(sa.Options), len(sb.Options)) {
		var oa, ob string
		if i < len(sa.Options) {
			oa = sa.Options[i]
		}
		if i < len(sb.Options) {
			ob = sb.Options[i]
		}
		if oa != ob {
			return fmt.Errorf("%s and %s were scored with different options: %s and %s", an, bn, shownText(optionOrNone(oa)), shownText(optionOrNone(ob)))
		}
	}
	return nil
}

func optionOrNone(o string) string {
	if o == "" {
		return "(none)"
	}
	return "--" + o
}

// sameVerdicts says which of merge's verdict flags differ from the shards'.
func (m *mergeRun) sameVerdicts(cfg *evalConfig) error {
	for _, want := range verdictOptions(cfg) {
		name, _, _ := strings.Cut(want, "=")
		got := ""
		for _, o := range m.first.Shard.Options {
			if strings.HasPrefix(o, name+"=") {
				got = o
			}
		}
		if got != want {
			_, gv, _ := strings.Cut(got, "=")
			_, wv, _ := strings.Cut(want, "=")
			return fmt.Errorf("--%s: the shards were given %s and merge %s, but a failing case's report and transcript are made by its shard: give merge the --sample-threshold, --baseline and --baseline-tolerance of the shards", name, valueOrNone(gv), valueOrNone(wv))
		}
	}
	return nil
}

func valueOrNone(v string) string {
	if v == "" {
		return "none"
	}
	return strconv.Quote(v)
}

// bundledOption marks a shard of the bundled dataset (eval without files).
const bundledOption = "bundled=true"

// verdictOptions are the flags by which eval decides a case's verdict, and
// makes the report and transcript of a failing one: a shard's and its
// merge's must agree. The baseline is named by a digest of its contents.
func verdictOptions(cfg *evalConfig) []string {
	gates := slices.Clone(cfg.sampleThresholds)
	slices.SortFunc(gates, func(a, b gate) int { return a.metric - b.metric })
	var th []string
	for _, g := range gates {
		th = append(th, g.name+"="+fullScore(g.threshold))
	}
	digest := ""
	if cfg.baselinePath != "" {
		if data, err := os.ReadFile(cfg.baselinePath); err == nil {
			sum := sha256.Sum256(data)
			digest = "sha256:" + hex.EncodeToString(sum[:])
		} else {
			digest = "unreadable"
		}
	}
	tol := ""
	if cfg.baselinePath != "" {
		tol = fullScore(cfg.baselineTolerance)
	}
	return []string{"sample-threshold=" + strings.Join(th, ","), "baseline=" + digest, "baseline-tolerance=" + tol}
}

// facts sets the merged run's facts from the shards': when it began (the
// first shard's start), the judges, prompts and cassette mode.
func (m *mergeRun) facts(r *report.Run) {
	if m == nil {
		return
	}
	r.Commit, r.Judges, r.PromptVersions, r.CassetteMode = m.first.Commit, m.first.Judges, m.first.PromptVersions, m.first.CassetteMode
	if !m.first.Started.IsZero() {
		r.Started = m.first.Started
	}
}

// readBatches hands the cases to eval's pipeline as readBatches hands
// records: batchSize to a batch, in order.
func (m *mergeRun) readBatches(bt *batcher, stop *atomic.Bool) {
	for i := range m.cases {
		if stop.Load() {
			break
		}
		c := &m.cases[i]
		it := item{rec: dataset.Record{File: c.File, Line: c.Line, Index: c.Index}, id: c.ID, scored: c}
		if c.Error != "" && c.Index < 0 {
			// A record that could not be read, as the reader gives it.
			it.err, it.scored = errors.New(c.Error), nil
		}
		bt.add(&it)
	}
}

// takeScored puts the scores a shard gave a case, with their reasons, into
// sc.scores, sc.results and c, as evaluate puts a scored sample's; a case
// that could not be scored gives its error.
func (sc *scorer) takeScored(sh *report.Case, c *report.Case) error {
	if sh.Error != "" {
		return errors.New(sh.Error)
	}
	c.Scores, c.Reasons = c.Scores[:0], c.Reasons[:0]
	for j := range sc.scores {
		x, r := math.NaN(), ""
		if j < len(sh.Scores) {
			x = sh.Scores[j]
		}
		if j < len(sh.Reasons) {
			r = sh.Reasons[j]
		}
		sc.scores[j] = x
		sc.results[j] = metric.Result{Metric: sc.cfg.names[j], Score: x, Reason: r}
		c.Scores = append(c.Scores, x)
		c.Reasons = append(c.Reasons, r)
	}
	c.Verdicts = append(c.Verdicts[:0], sh.Verdicts...)
	return nil
}

// keepScored gives a case of a merge what only its shard could make, from
// the sample: the request it shows and, failing, its report and transcript.
func (sc *scorer) keepScored(it *item, c *report.Case) {
	if it.scored == nil {
		return
	}
	c.Request = ""
	if sc.cfg.request {
		c.Request = it.scored.Request
	}
	if c.Status == report.Fail {
		c.Report, c.Transcript = it.scored.Report, it.scored.Transcript
	}
}

// recordedJudge stands for a judge model of the shards: it names the model
// and is never asked.
type recordedJudge string

func (j recordedJudge) Model() string { return string(j) }

func (j recordedJudge) Ask(context.Context, judgment.Question) (judgment.Answer, error) {
	return judgment.Answer{}, errors.New("agentcheck merge asks no judge")
}

// recordedPanel stands for the shards' panel of judges.
type recordedPanel struct{ recordedJudge }

func (p recordedPanel) Members() []judgment.Judge {
	var ms []judgment.Judge
	for _, m := range strings.Split(string(p.recordedJudge), ",") {
		ms = append(ms, recordedJudge(m))
	}
	return ms
}

func (p recordedPanel) Aggregation() judgment.Aggregation { return judgment.Aggregation{} }

func standInJudge(models []string) judgment.Judge {
	if len(models) == 1 {
		return recordedJudge(models[0])
	}
	return recordedPanel{recordedJudge(strings.Join(models, ","))}
}

// stdinName is how eval names standard input ("-") among its inputs.
const stdinName = "<stdin>"
