package main

import (
	"bytes"
	"io"
	"os"
	"testing"
)

// BenchmarkEvalOneWorker is eval --workers 1 --format jsonl with the two
// tool-call metrics, the run whose CPU time issue 20 holds to 1.4× the
// fastjson parse floor. AGENTCHECK_BENCH_FILE names a file to read instead
// of the 10,000 synthetic samples (bench/run.sh's 100k files).
func BenchmarkEvalOneWorker(b *testing.B) {
	var data []byte
	if f := os.Getenv("AGENTCHECK_BENCH_FILE"); f != "" {
		var err error
		if data, err = os.ReadFile(f); err != nil {
			b.Fatal(err)
		}
	} else {
		data = benchInput(false)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	args := []string{"eval", "--workers", "1", "--metrics", "tool_call_accuracy,tool_call_f1", "--format", "jsonl", "-"}
	for b.Loop() {
		if code := run(args, bytes.NewReader(data), io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}
