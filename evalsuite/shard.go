package evalsuite

import (
	"fmt"
	"os"

	"github.com/agentcheck/agentcheck/internal/shard"
)

// ShardEnv is the environment variable that, set to K/N, makes a suite run
// only shard K of N of its cases, so that N CI jobs share a suite:
//
//	AGENTCHECK_SHARD=2/4 go test -run TestAgentSuite ./...
//
// A case with an ID is in shard 1 + FNV-1a-64(ID) mod N, one without in
// shard 1 + (its position, from 0) mod N: the same slice on every machine,
// the N slices disjoint and together every case, as agentcheck eval
// --shard slices a dataset. The cases of other shards do not run, as with
// go test -run: the gates and the baseline are over the cases that ran,
// and a baseline written keeps the other cases' scores.
const ShardEnv = shard.Env

// suiteShard reads ShardEnv.
func suiteShard() (shard.Spec, error) {
	s, err := shard.FromEnv(os.Getenv)
	if err != nil {
		return s, fmt.Errorf("evalsuite: %w", err)
	}
	return s, nil
}

// inShard says whether the i-th case given, c, is in the suite's shard.
func (r *Result) inShard(c Case, i int) bool { return r.shard.Has(c.ID, i) }

// logShard says, on a sharded run, how many of the cases ran.
func (r *Result) logShard(t any, given int) {
	l, ok := t.(interface{ Logf(string, ...any) })
	if !ok || !r.shard.Sharded() {
		return
	}
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper() // the line logged is the suite's Run in the user's test
	}
	l.Logf("%s=%s: ran %d of the %d cases; the other shards run the rest", ShardEnv, r.shard, len(r.Cases), given)
}
