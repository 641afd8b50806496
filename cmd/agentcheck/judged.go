package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/agentcheck/agentcheck/cassettes"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/metric"
	"github.com/agentcheck/agentcheck/recorder"
	"go.yaml.in/yaml/v4"
)

// demoCassette is the cassette, in package cassettes, that the bundled
// dataset's judgments replay from. cassettes/record records it.
const demoCassette = "demo.yaml"

// judgeSession is a run's judge and what must be closed after the run: the
// cassette, which saves what was recorded, and the judge's connections.
type judgeSession struct {
	judge     metric.Judge
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
	jf := cfg.judge
	tr := http.DefaultTransport.(*http.Transport).Clone()
	// Judged samples run concurrently against one host: keep their
	// connections rather than let all but two close after each answer.
	tr.MaxIdleConnsPerHost = 4 * jf.concurrency
	opts := []judge.Option{judge.WithTransport(tr)}
	models := jf.models
	record := recorder.RecordEnv + "=missing agentcheck eval " + shellJoin(args)

	var rec *recorder.Recorder
	var err error
	switch {
	case jf.cassette == "" && len(files) == 0:
		// The bundled dataset: replayed from the cassette built into the
		// binary, with the models and endpoint it was recorded with, so that
		// the environment's judge settings do not turn it into misses.
		data, err := fs.ReadFile(cassettes.FS(), demoCassette)
		if err != nil {
			return nil, fmt.Errorf("the bundled dataset's cassette: %w", err)
		}
		rec, err = recorder.Open("cassettes/"+demoCassette, recorder.WithData(data),
			recorder.WithRecordCommand(recorder.RecordEnv+"=missing agentcheck eval --cassette demo.cassette.yaml "+shellJoin(args)))
		if err != nil {
			return nil, fmt.Errorf("%w (to record the bundled dataset's judgments, give --cassette PATH)", err)
		}
		baseURL, recorded, err := recordedEndpoint(data)
		if err != nil {
			return nil, fmt.Errorf("the bundled dataset's cassette: %w", err)
		}
		opts = append(opts, judge.WithBaseURL(baseURL))
		if len(models) == 0 {
			models = recorded
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
	}
	opts = append(opts, judge.WithRecorder(rec))

	var members []metric.Judge
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
		fmt.Fprintf(stderr, "agentcheck eval: recording (%s=%s) the judgments of %v into %s\n", recorder.RecordEnv, rec.Mode(), s.judge, rec.Path())
	}
	return s, nil
}

// recordedEndpoint reads from a cassette the base URL its requests went to
// (the path is what replay matches; the host is not) and the judge models
// they asked, sorted.
func recordedEndpoint(data []byte) (baseURL string, models []string, err error) {
	var c struct {
		Interactions []struct {
			Request struct {
				URL  string `yaml:"url"`
				Body string `yaml:"body"`
			} `yaml:"request"`
		} `yaml:"interactions"`
	}
	if err := yaml.Unmarshal(data, &c); err != nil {
		return "", nil, err
	}
	for i, it := range c.Interactions {
		u, err := url.Parse(it.Request.URL)
		if err != nil {
			return "", nil, fmt.Errorf("interaction %d: %q is no chat completions URL: %v", i, it.Request.URL, err)
		}
		base, ok := strings.CutSuffix(u.Path, "/chat/completions")
		if !ok {
			return "", nil, fmt.Errorf("interaction %d: %q is no chat completions URL", i, it.Request.URL)
		}
		if baseURL == "" {
			baseURL = u.Scheme + "://" + u.Host + base
		}
		var body struct {
			Model string `json:"model"`
		}
		if err := json.Unmarshal([]byte(it.Request.Body), &body); err != nil || body.Model == "" {
			return "", nil, fmt.Errorf("interaction %d: the request names no model", i)
		}
		if !slices.Contains(models, body.Model) {
			models = append(models, body.Model)
		}
	}
	if baseURL == "" {
		return "", nil, errors.New("the cassette holds no interaction")
	}
	slices.Sort(models)
	return baseURL, models, nil
}

// shellJoin quotes args for a POSIX shell, so that a printed command can be
// pasted back.
func shellJoin(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = a
		if a == "" || strings.ContainsFunc(a, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=,:@+%", r))
		}) {
			quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(quoted, " ")
}
