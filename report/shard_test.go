package report

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A shard's run reads back with its Shard, which merge needs; a run
// without one reads back without.
func TestJSONRoundTripShard(t *testing.T) {
	for seed := range uint64(50) {
		rng := rand.New(rand.NewPCG(seed, 11))
		want := genRun(rng)
		if seed%5 != 0 {
			want.Shard = &Shard{K: 1 + rng.IntN(4), N: 4, Records: 4 * len(want.Cases), Input: "sha256:" + oddText(rng), Options: []string{"metrics=" + oddText(rng)}}
			for i := range want.Cases {
				want.Shard.Ordinals = append(want.Shard.Ordinals, 4*i+want.Shard.K-1)
			}
		}
		var out bytes.Buffer
		if err := Write(&out, want, JSON); err != nil {
			t.Fatal(err)
		}
		got, err := ReadJSON(bytes.NewReader(out.Bytes()), "run.json")
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if d := cmp.Diff(want.Shard, got.Shard); d != "" {
			t.Fatalf("seed %d: the shard read back differs (-written +read):\n%s\n%s", seed, d, out.Bytes())
		}
	}
}
