package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentcheck/agentcheck/dataset"
	"github.com/agentcheck/agentcheck/judge"
	"github.com/agentcheck/agentcheck/judge/judgetest"
	"github.com/agentcheck/agentcheck/recorder"
)

// The benchmarks run on 10,000 synthetic samples in memory (7.8 MB, 2.4
// tool calls a sample; see internal/synth). ragas takes 7.0 s for 100,000
// such samples, 70 µs a sample; the target, 20 times faster, is 3.5 µs a
// sample for the whole process. ns/sample is wall time over all cores.

const benchSamples = 10000

func benchInput(array bool) []byte {
	lines := synthLines(benchSamples, 1)
	if array {
		return []byte("[\n" + strings.Join(lines, ",\n") + "\n]\n")
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

func benchmarkEval(b *testing.B, array bool, format string, flags ...string) {
	data := benchInput(array)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	args := append([]string{"eval", "--format", format, "-"}, flags...)
	for b.Loop() {
		if code := run(args, bytes.NewReader(data), io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchSamples), "ns/sample")
}

// BenchmarkEval is eval --format jsonl over JSON Lines, all cores.
func BenchmarkEval(b *testing.B) { benchmarkEval(b, false, "jsonl") }

// BenchmarkEvalArray reads the same samples as a JSON array.
func BenchmarkEvalArray(b *testing.B) { benchmarkEval(b, true, "jsonl") }

// BenchmarkEvalTable writes the readable table.
func BenchmarkEvalTable(b *testing.B) { benchmarkEval(b, false, "table") }

// BenchmarkEvalGates adds a mean gate and a sample threshold that every
// sample passes.
func BenchmarkEvalGates(b *testing.B) {
	benchmarkEval(b, false, "jsonl", "--fail-under", "tool_call_f1=0", "--sample-threshold", "tool_call_accuracy=0")
}

// BenchmarkEvalJUnit writes JUnit XML, every sample named.
func BenchmarkEvalJUnit(b *testing.B) { benchmarkEval(b, false, "junit") }

// BenchmarkEvalSaveBaseline saves every sample's scores as a baseline.
func BenchmarkEvalSaveBaseline(b *testing.B) {
	benchmarkEval(b, false, "jsonl", "--save-baseline", filepath.Join(b.TempDir(), "baseline.json"))
}

// BenchmarkRecordSample is the parsing alone, on one core.
func BenchmarkRecordSample(b *testing.B) {
	var recs []dataset.Record
	for rec, err := range dataset.ReadRecords(bytes.NewReader(benchInput(false)), "bench.jsonl") {
		if err != nil {
			b.Fatal(err)
		}
		recs = append(recs, rec)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, rec := range recs {
			if _, err := rec.Sample(); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(recs)), "ns/sample")
}

// judgedBenchSamples are n samples for both judged metrics, each its own
// conversation.
func judgedBenchSamples(n int) []byte {
	var b strings.Builder
	for i := range n {
		c := foodCases[i%len(foodCases)]
		fmt.Fprintf(&b, `{"user_input": [{"type": "human", "content": "%s #%d"}, {"type": "ai", "content": "ok"}], "reference": "%s", "reference_topics": ["food delivery"]}`+"\n", c.word, i, c.goal)
	}
	return []byte(b.String())
}

// BenchmarkEvalJudgedLive judges 200 samples with both judged metrics
// against the scripted server answering each request after 50 ms, at
// --judge-concurrency 16, recording a cassette. A sample needs two rounds
// of requests (goal accuracy: infer, then compare; topic adherence:
// extract, then refusals and classification together; the two metrics side
// by side), so the ideal wall time is 200/16 × 2 × 50 ms = 1.25 s;
// x-ideal is the measured time over that.
func BenchmarkEvalJudgedLive(b *testing.B) {
	const n, concurrency, latency = 200, 16, 50 * time.Millisecond
	script := foodScript()
	srv := judgetest.NewServer(func(r judgetest.Request) judgetest.Reply { return script(r).After(latency) })
	defer srv.Close()
	path := filepath.Join(b.TempDir(), "live.jsonl")
	if err := os.WriteFile(path, judgedBenchSamples(n), 0o644); err != nil {
		b.Fatal(err)
	}
	b.Setenv(judge.EnvBaseURL, srv.URL)
	b.Setenv(judge.EnvAPIKey, testKey)
	b.Setenv(judge.EnvModel, "")
	b.Setenv(recorder.RecordEnv, "all")
	b.Setenv("CI", "")
	for b.Loop() {
		var stderr bytes.Buffer
		code := run([]string{"eval", "--format", "jsonl", "--metrics", "agent_goal_accuracy,topic_adherence",
			"--judge-concurrency", fmt.Sprint(concurrency), path}, nil, io.Discard, &stderr)
		if code != 0 {
			b.Fatalf("exit %d: %s", code, stderr.String())
		}
	}
	ideal := float64(n) / concurrency * 2 * float64(latency)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/ideal, "x-ideal")
}

// BenchmarkEvalJudgedReplay replays 200 samples' judgments (5 requests a
// sample) from a cassette: the cost of judged scoring in CI.
func BenchmarkEvalJudgedReplay(b *testing.B) {
	const n = 200
	srv := judgetest.NewServer(foodScript())
	path := filepath.Join(b.TempDir(), "replay.jsonl")
	if err := os.WriteFile(path, judgedBenchSamples(n), 0o644); err != nil {
		b.Fatal(err)
	}
	args := []string{"eval", "--format", "jsonl", "--metrics", "agent_goal_accuracy,topic_adherence", path}
	b.Setenv(judge.EnvBaseURL, srv.URL)
	b.Setenv(judge.EnvAPIKey, testKey)
	b.Setenv(judge.EnvModel, "")
	b.Setenv(recorder.RecordEnv, "all")
	b.Setenv("CI", "")
	if code := run(args, nil, io.Discard, io.Discard); code != 0 {
		b.Fatalf("recording: exit %d", code)
	}
	srv.Close()
	b.Setenv(judge.EnvBaseURL, offlineURL)
	b.Setenv(recorder.RecordEnv, "")
	b.ReportAllocs()
	for b.Loop() {
		if code := run(args, nil, io.Discard, io.Discard); code != 0 {
			b.Fatalf("replay: exit %d", code)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/sample")
}
