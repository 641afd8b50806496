package dataset_test

import (
	"runtime/debug"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	// The tests allocate much, and under -race a collection costs several
	// times what it does without: at 400% (as cmd/agentcheck's tests) the
	// package's tests take less CPU. No test measures the heap without
	// collecting first (runtime.GC, then ReadMemStats), so none reads
	// differently; the code under test runs as it would.
	debug.SetGCPercent(400)
	goleak.VerifyTestMain(m) // m.Run, then no goroutine left behind
}
