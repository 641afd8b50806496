//go:build ignore

// Command rusage runs a command and writes its wall time and peak memory to
// a file, for bench/run.sh on machines without GNU time:
//
//	go build -o bench-out/rusage bench/rusage.go
//	bench-out/rusage -o stats.txt -- agentcheck eval big.jsonl >/dev/null
//
// The file holds "wall_seconds=S maxrss_kb=K cpu_seconds=C" (C is user
// plus system time); the command's standard
// streams are its own and its exit status is rusage's.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	out := flag.String("o", "", "file to write the figures to (default standard error)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: rusage [-o FILE] -- COMMAND [ARG...]")
		os.Exit(2)
	}
	cmd := exec.Command(flag.Arg(0), flag.Args()[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		fmt.Fprintln(os.Stderr, "rusage:", err)
		os.Exit(1)
	}
	// Maxrss is in kilobytes on Linux (bytes on macOS, where this
	// benchmark is not run).
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	var rss int64
	var cpu time.Duration
	if ru != nil {
		rss = int64(ru.Maxrss)
		cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	line := fmt.Sprintf("wall_seconds=%.3f maxrss_kb=%d cpu_seconds=%.3f\n", wall.Seconds(), rss, cpu.Seconds())
	if *out == "" {
		fmt.Fprint(os.Stderr, line)
	} else if err := os.WriteFile(*out, []byte(line), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "rusage:", err)
		os.Exit(1)
	}
	os.Exit(cmd.ProcessState.ExitCode())
}
