package recorder

import "os"

// The package's tests write thousands of cassettes, each flushed to the
// disk twice (the file, then its directory): on the machine that runs
// them, the flushes were 1.5 to 2 s of the tests' CPU under -race and
// several seconds of their time, for temporary files that no test reads
// after a power cut. Each recorder still calls its syncFile where it
// would flush (the tests that fail it, TestForTestReportsAFailedSave and
// TestRecorderFailedWriteKeepsTheOldCassette, prove a failure there keeps the old
// cassette), and the crash test's child flushes for real (realSync).
func init() { syncFile = func(*os.File) error { return nil } }

// realSync is the Option of a recorder that flushes its cassettes to the
// disk, as outside the tests.
func realSync(c *config) { c.syncFile = (*os.File).Sync }
