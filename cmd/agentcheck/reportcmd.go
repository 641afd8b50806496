package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/agentcheck/agentcheck/report"
)

const reportUsageText = `Usage: agentcheck report [--format NAME] RUN.json

Renders a run saved with "agentcheck eval --format json" (or written by
evalsuite) in another format, to standard output: table (default), jsonl,
json, junit, markdown (a GitHub step summary) or html (one self-contained
page). RUN.json "-" is standard input.

Exit status: 0 when the run was rendered, whatever its verdict; 1 when the
output could not be written; 2 for a usage error or a file that is not such
a run (the message names the file, line and field).
`

func runReport(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	var f report.Format
	fs.TextVar(&f, "format", report.Table, "")
	files, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, reportUsageText)
		return exitOK
	}
	if err == nil && len(files) != 1 {
		err = fmt.Errorf("want one RUN.json, got %d files", len(files))
	}
	if err != nil {
		fmt.Fprintf(stderr, "agentcheck report: %s\n\nRun \"agentcheck report -h\" for usage.\n", shownLines(err.Error()))
		return exitUsage
	}
	r, name := stdin, "<stdin>"
	if files[0] != "-" {
		file, err := os.Open(files[0])
		if err != nil {
			fmt.Fprintf(stderr, "agentcheck report: %s\n", shownLines(err.Error()))
			return exitUsage
		}
		defer file.Close()
		r, name = file, files[0]
	}
	run, err := report.ReadJSON(r, name)
	if err != nil {
		fmt.Fprintf(stderr, "agentcheck report: %s\n", shownLines(err.Error()))
		return exitUsage
	}
	if err := report.Write(stdout, run, f); err != nil {
		fmt.Fprintf(stderr, "agentcheck report: %s\n", shownLines(err.Error()))
		return exitFailed
	}
	return exitOK
}
