//go:build ignore

// Command replicate writes the samples of a file of test vectors (JSON
// Lines whose objects hold the sample under "sample", as the shared spec's
// toolcall_vectors.jsonl does) as JSON Lines, over and over until n lines,
// for bench/run.sh to time the CLI on a mix of samples other than the
// generator's:
//
//	go run bench/replicate.go -n 100000 ../shared/spec/toolcall_vectors.jsonl >vectors-100k.jsonl
//
// Each sample is written as the vectors file writes it, byte for byte.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
)

func main() {
	n := flag.Int("n", 100000, "lines to write")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: replicate [-n N] VECTORS.jsonl")
		os.Exit(2)
	}
	data, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "replicate:", err)
		os.Exit(1)
	}
	var samples [][]byte
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var v struct {
			Sample json.RawMessage `json:"sample"`
		}
		if err := json.Unmarshal(line, &v); err != nil || len(v.Sample) == 0 {
			fmt.Fprintf(os.Stderr, "replicate: %s:%d: no \"sample\" object (%v)\n", flag.Arg(0), i+1, err)
			os.Exit(1)
		}
		samples = append(samples, v.Sample)
	}
	if len(samples) == 0 {
		fmt.Fprintln(os.Stderr, "replicate: no samples in", flag.Arg(0))
		os.Exit(1)
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	for i := range *n {
		w.Write(samples[i%len(samples)])
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "replicate:", err)
		os.Exit(1)
	}
}
