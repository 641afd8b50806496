package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/recorder"
)

// BenchmarkEvalReplayFromLargeCassette is one judged sample replayed from
// a cassette of its own 2 interactions and from one of 1,000 (500 samples'
// judgments, about 2.5 MB): what a large cassette adds to a run.
func BenchmarkEvalReplayFromLargeCassette(b *testing.B) {
	srv := judgetest.NewServer(foodScript())
	defer srv.Close()
	dir := b.TempDir()
	lines := make([]string, 500)
	for i := range lines {
		lines[i] = strings.Replace(judgedSamples[0], "5 Elm Street", fmt.Sprintf("%d Elm Street", i+5), 2)
	}
	one := filepath.Join(dir, "one.jsonl")
	all := filepath.Join(dir, "all.jsonl")
	os.WriteFile(one, []byte(lines[0]+"\n"), 0o644)
	os.WriteFile(all, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	env := func(base, record string) {
		b.Setenv(judge.EnvBaseURL, base)
		b.Setenv(judge.EnvAPIKey, testKey)
		b.Setenv(judge.EnvModel, "")
		b.Setenv(recorder.RecordEnv, record)
		b.Setenv("CI", "")
	}
	args := func(cassette, file string) []string {
		return []string{"eval", "--format", "jsonl", "--metrics", "agent_goal_accuracy", "--cassette", cassette, file}
	}
	small := filepath.Join(dir, "small.yaml")
	large := filepath.Join(dir, "large.yaml")
	env(srv.URL, "missing")
	for _, c := range [][2]string{{small, one}, {large, all}} {
		if code := run(args(c[0], c[1]), strings.NewReader(""), io.Discard, io.Discard); code != 0 {
			b.Fatalf("recording %s: exit %d", c[0], code)
		}
	}
	if fi, err := os.Stat(large); err == nil {
		b.Logf("large cassette: %d bytes", fi.Size())
	}
	env(offlineURL, "")
	for _, c := range []struct{ name, cassette string }{{"interactions=2", small}, {"interactions=1000", large}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if code := run(args(c.cassette, one), strings.NewReader(""), io.Discard, io.Discard); code != 0 {
					b.Fatalf("replay: exit %d", code)
				}
			}
		})
	}
}
