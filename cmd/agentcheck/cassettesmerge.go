package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/agentcheck/agentcheck/recorder"
)

const mergeUsageText = `Usage: agentcheck cassettes merge [--max-bytes N] CASSETTE... > MERGED.yaml

Combines go-vcr cassettes recorded apart, by the shards of a test run or by
parallel processes, into one, written to standard output in the recorder's
layout. The output is the same bytes whatever order the cassettes are given
in: interactions ordered by case, then by request, the answers to one
request in the order they were recorded. An interaction several cassettes
hold identically is kept once. Two cassettes that give the same request of
the same case different answers (the n-th answer to it differs in any
byte) are a conflict: each is printed with both files and the interaction's
index in each, and nothing is written. Every byte of an interaction is kept
(bodies, binary ones included, headers, status, duration), only the ids are
renumbered; a cassette holding what the layout cannot keep (remote_addr or
trailer set, a key go-vcr does not know, a second YAML document) is refused.

Flags:
  --max-bytes N   the most the cassettes may hold together, in bytes
                  (default 536870912, 512 MiB): a merge holds them in memory

Exit status: 0 when merged, 1 for a conflict, 2 for a usage error or a
cassette that cannot be read or parsed, or the inputs over --max-bytes.
`

// defaultMergeBytes bounds what a merge reads, all cassettes together.
const defaultMergeBytes = 512 << 20

func runMerge(args []string, stdout, stderr io.Writer) int {
	usageErr := func(err error) int {
		fmt.Fprintf(stderr, "agentcheck cassettes merge: %s\n\nRun \"agentcheck cassettes merge -h\" for usage.\n", shownLines(err.Error()))
		return exitUsage
	}
	flags := flag.NewFlagSet("cassettes merge", flag.ContinueOnError)
	flags.SetOutput(new(bytes.Buffer))
	flags.Usage = func() {}
	maxBytes := flags.Int64("max-bytes", defaultMergeBytes, "")
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, mergeUsageText)
			return exitOK
		}
		return usageErr(err)
	}
	if *maxBytes <= 0 {
		return usageErr(fmt.Errorf("--max-bytes %d: the bound must be positive", *maxBytes))
	}
	if flags.NArg() == 0 {
		return usageErr(errors.New("no cassettes given"))
	}
	inputs := make(map[string][]byte, flags.NArg())
	var total int64
	for _, path := range flags.Args() {
		if _, dup := inputs[path]; dup {
			continue // the same file twice merges as once
		}
		data, err := readMergeInput(path, *maxBytes-total, *maxBytes)
		if err != nil {
			return usageErr(err)
		}
		total += int64(len(data))
		inputs[path] = data
	}
	merged, err := recorder.Merge(inputs)
	if errors.Is(err, recorder.ErrMergeConflict) {
		fmt.Fprintf(stderr, "agentcheck cassettes merge: %s\n", shownLines(err.Error()))
		fmt.Fprint(stderr, "Keep the answer you want in one of the files (or record the request again in one), then merge again.\n")
		return exitFailed
	}
	if err != nil {
		fmt.Fprintf(stderr, "agentcheck cassettes merge: %s\n", shownLines(err.Error()))
		return exitUsage
	}
	if _, err := stdout.Write(merged); err != nil {
		fmt.Fprintf(stderr, "agentcheck cassettes merge: writing the merged cassette: %s\n", err)
		return exitFailed
	}
	return exitOK
}

// readMergeInput reads the file at path, failing as soon as it passes left
// bytes (what is left of max), so that a huge input is never read whole.
func readMergeInput(path string, left, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.IsDir() {
		return nil, fmt.Errorf("%s is a directory; merge takes cassette files", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, left+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(data)) > left {
		return nil, fmt.Errorf("%s: the cassettes pass --max-bytes (%d bytes together) here; a merge holds them all in memory, so give a larger bound if they fit", path, max)
	}
	return data, nil
}
