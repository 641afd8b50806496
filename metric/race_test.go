//go:build race

package metric

// raceEnabled: the race detector makes sync.Pool drop items at random, so
// that code reusing memory through a pool allocates now and then.
const raceEnabled = true
