package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"slices"
	"strconv"

	"github.com/agentcheck/agentcheck/cassettes"
	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/internal/shell"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judgment"
	"github.com/agentcheck/agentcheck/recorder"
)

// demoCassette is the cassette, in package cassettes, that the bundled
// dataset's judgments replay from. cassettes/record records it.
const demoCassette = "demo.yaml"

// judgeSession is a run's judge and what must be closed after the run: the
// cassette, which saves what was recorded, and the judge's connections.
type judgeSession struct {
	judge     judgment.Judge
	rec       *recorder.Recorder
	transport *http.Transport
}

func (s *judgeSession) close() error {
	if s == nil {
		return nil
	}
	s.transport.CloseIdleConnections()
	return s.rec.Close()
}

// openJudge sets up the judge of a run: its cassette, replayed or recorded
// as AGENTCHECK_RECORD says, and one client per judge model, a panel when
// there are several. args are eval's arguments, for the command that
// records a replay miss; stderr says when judgments are being recorded.
func openJudge(cfg *evalConfig, args, files []string, stderr io.Writer) (*judgeSession, error) {
	return openJudgeFor("eval", cfg, args, files, stderr)
}

// openJudgeFor is openJudge for the command cmd ("eval", "calibrate"),
// which the messages and the record command name.
func openJudgeFor(cmd string, cfg *evalConfig, args, files []string, stderr io.Writer) (*judgeSession, error) {
	jf := cfg.judge
	tr := http.DefaultTransport.(*http.Transport).Clone()
	// Judged samples run concurrently against one host: keep their
	// connections rather than let all but two close after each answer.
	tr.MaxIdleConnsPerHost = 4 * jf.concurrency
	opts := []judge.Option{judge.WithTransport(tr)}
	models := jf.models
	record := recorder.RecordEnv + "=missing agentcheck " + cmd + " " + shell.Join(args)

	var rec *recorder.Recorder
	var err error
	switch {
	case jf.cassette == "" && len(files) == 0:
		// The bundled dataset: replayed from the cassette built into the
		// binary, with the models it was recorded with, so that the
		// environment's judge settings do not turn it into misses (the
		// endpoint does not matter to a replay).
		data, err := fs.ReadFile(cassettes.FS(), demoCassette)
		if err != nil {
			return nil, fmt.Errorf("the bundled dataset's cassette: %w", err)
		}
		rec, err = recorder.Open("cassettes/"+demoCassette, recorder.WithData(data),
			recorder.WithRecordCommand(recorder.RecordEnv+"=missing agentcheck "+cmd+" --cassette demo.cassette.yaml "+shell.Join(args)))
		if err != nil {
			return nil, fmt.Errorf("%w (to record the bundled dataset's judgments, give --cassette PATH)", err)
		}
		if len(models) == 0 {
			models = rec.Models()
		}
	default:
		path := jf.cassette
		if path == "" {
			if len(files) > 1 || files[0] == "-" {
				return nil, errors.New("judged metrics on several files or on standard input need --cassette PATH, the cassette to replay their judgments from")
			}
			path = files[0] + ".cassette.yaml"
		}
		rec, err = recorder.Open(path, recorder.WithRecordCommand(record))
		if err != nil {
			return nil, err
		}
		if len(models) == 0 && rec.Mode() == recorder.RecordNone && os.Getenv(judge.EnvModel) == "" {
			// Named nowhere: replay with the models the cassette was
			// recorded with, a panel if it holds several.
			models = rec.Models()
		}
	}
	opts = append(opts, judge.WithRecorder(rec))

	var members []judgment.Judge
	if len(models) == 0 {
		members = append(members, judge.New(opts...))
	}
	for _, m := range models {
		members = append(members, judge.New(append(slices.Clip(opts), judge.WithModel(m))...))
	}
	s := &judgeSession{judge: members[0], rec: rec, transport: tr}
	if len(members) > 1 {
		s.judge = judge.NewPanel(members, jf.agg)
	}
	if rec.Mode() != recorder.RecordNone {
		fmt.Fprintf(stderr, "agentcheck %s: recording (%s=%s) the judgments of %v into %s\n", cmd, recorder.RecordEnv, rec.Mode(), s.judge, shownName(rec.Path()))
	}
	return s, nil
}

// caseContext makes a sample's judge requests a case of their own in the
// cassette (recorder.WithCase): identical questions of different samples
// then replay each its own sample's answers, at any --judge-concurrency.
// The case is the sample's position and a hash of its text, so that the
// same dataset replays case by case whatever its file is called; a sample
// that moved or changed is a case the cassette does not know, whose
// questions replay by their content alone.
func caseContext(ctx context.Context, rec dataset.Record) context.Context {
	sum := sha256.Sum256([]byte(rec.Text))
	id := "sample " + strconv.Itoa(rec.Index+1) + " " + hex.EncodeToString(sum[:6])
	if run := runOf(ctx); run > 1 {
		id += "#run" + strconv.Itoa(run) // calibrate --repeats: each run a case of its own
	}
	return recorder.WithCase(ctx, id)
}
