//go:build unix

package scenario_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used (user and system, every
// thread): on a machine shared with other work, it tells a benchmark's cost
// better than the wall clock does.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
