// Package keypath matches argument paths to ignore: dotted key paths into
// nested objects whose segments are path.Match patterns ("request_id",
// "time.start", "*_id"), as metric.TrajectoryMatch and agenttest's
// ExpectedCall.Ignoring take them.
package keypath

import (
	"path"
	"strings"
)

// Split splits each path at its dots.
func Split(paths []string) [][]string {
	out := make([][]string, len(paths))
	for i, p := range paths {
		out[i] = strings.Split(p, ".")
	}
	return out
}

// Step says what split patterns mean for an object's member key: drop the
// member, or keep it and apply deeper (the patterns' rest) to its value. A
// pattern that is the key itself, letter for letter, drops it, so that a
// key holding dots or glob characters can be named too.
func Step(patterns [][]string, key string) (drop bool, deeper [][]string) {
	for _, p := range patterns {
		if len(p) > 1 && strings.Join(p, ".") == key {
			return true, nil
		}
		if ok, _ := path.Match(p[0], key); !ok && p[0] != key {
			continue
		}
		if len(p) == 1 {
			return true, nil
		}
		deeper = append(deeper, p[1:])
	}
	return false, deeper
}
