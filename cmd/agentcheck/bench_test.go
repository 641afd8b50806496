package main

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/agenttest"
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

func benchmarkEval(b *testing.B, array bool, format string) {
	data := benchInput(array)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if code := run([]string{"eval", "--format", format, "-"}, bytes.NewReader(data), io.Discard, io.Discard); code != 0 {
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

// BenchmarkRecordSample is the parsing alone, on one core.
func BenchmarkRecordSample(b *testing.B) {
	var recs []agenttest.Record
	for rec, err := range agenttest.ReadRecords(bytes.NewReader(benchInput(false)), "bench.jsonl") {
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
