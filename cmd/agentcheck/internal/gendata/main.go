// Command gendata writes synthetic ragas-format agent samples (see package
// synth) for measuring agentcheck eval, deterministically for a given -seed:
//
//	go run ./cmd/agentcheck/internal/gendata -n 100000 > /tmp/100k.jsonl
//	go run ./cmd/agentcheck/internal/gendata -n 100000 -array > /tmp/100k.json
//	go run ./cmd/agentcheck/internal/gendata -n 20000 -mix results > /tmp/results.jsonl
//	go run ./cmd/agentcheck/internal/gendata -n 100000 -format openai > /tmp/openai.jsonl
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"

	"github.com/agentcheck/agentcheck/cmd/agentcheck/internal/synth"
)

func main() {
	n := flag.Int("n", 1000, "number of samples")
	seed := flag.Uint64("seed", 1, "random seed")
	array := flag.Bool("array", false, "write a JSON array instead of JSON Lines")
	mix := flag.String("mix", "", "the kind of sample: calls (the default), results (tools' JSON results in the tool messages) or chat (long messages)")
	format := flag.String("format", "ragas", "how the samples are written: ragas (the default) or openai (OpenAI chat messages, with the same references)")
	flag.Parse()
	if *format != "ragas" && *format != "openai" {
		fmt.Fprintf(os.Stderr, "gendata: -format %q: want ragas or openai\n", *format)
		os.Exit(2)
	}
	if *mix == "calls" {
		*mix = ""
	}
	if m := synth.Mix(*mix); m != synth.Calls && m != synth.Results && m != synth.Chat {
		fmt.Fprintf(os.Stderr, "gendata: -mix %q: want calls, results or chat\n", *mix)
		os.Exit(2)
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	g := synth.NewMix(*seed, synth.Mix(*mix))
	if *array {
		w.WriteString("[\n")
	}
	var buf, ragas []byte
	for i := 0; i < *n; i++ {
		if *format == "openai" {
			ragas = g.AppendSample(ragas[:0])
			var err error
			if buf, err = synth.AppendOpenAI(buf[:0], ragas); err != nil {
				fmt.Fprintln(os.Stderr, "gendata:", err)
				os.Exit(1)
			}
		} else {
			buf = g.AppendSample(buf[:0])
		}
		if *array && i < *n-1 {
			buf = append(buf, ',')
		}
		buf = append(buf, '\n')
		if _, err := w.Write(buf); err != nil {
			fmt.Fprintln(os.Stderr, "gendata:", err)
			os.Exit(1)
		}
	}
	if *array {
		w.WriteString("]\n")
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "gendata:", err)
		os.Exit(1)
	}
}
