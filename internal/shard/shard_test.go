package shard

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
)

func TestParse(t *testing.T) {
	good := map[string]Spec{"": {}, "1/1": {1, 1}, "1/4": {1, 4}, "4/4": {4, 4}, " 2 / 3 ": {2, 3}, "10000/10000": {10000, 10000}}
	for in, want := range good {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	bad := map[string]string{
		"0/4":                    `K counts from 1 to N (4), got 0`,
		"5/4":                    `K counts from 1 to N (4), got 5`,
		"-1/4":                   `K counts from 1 to N (4), got -1`,
		"1/0":                    `N must be from 1 to 10000, got 0`,
		"1/10001":                `N must be from 1 to 10000, got 10001`,
		"a/b":                    `want K/N, two whole numbers, such as 1/4`,
		"1.5/4":                  `want K/N, two whole numbers, such as 1/4`,
		"2":                      `want K/N, shard K of N, such as 1/4`,
		"1/4/2":                  `want K/N, two whole numbers, such as 1/4`,
		"99999999999999999999/4": `want K/N, two whole numbers, such as 1/4`,
	}
	for in, want := range bad {
		_, err := Parse(in)
		if err == nil || err.Error() != want {
			t.Errorf("Parse(%q) error = %v; want %s", in, err, want)
		}
	}
}

func TestFromEnvNamesTheVariable(t *testing.T) {
	env := map[string]string{Env: "3/2"}
	_, err := FromEnv(func(k string) string { return env[k] })
	if want := `AGENTCHECK_SHARD="3/2": K counts from 1 to N (2), got 3`; err == nil || err.Error() != want {
		t.Fatalf("FromEnv error = %v; want %s", err, want)
	}
	env[Env] = "2/5"
	if s, err := FromEnv(func(k string) string { return env[k] }); err != nil || s != (Spec{2, 5}) || s.String() != "2/5" {
		t.Fatalf("FromEnv = %v, %v; want 2/5", s, err)
	}
	delete(env, Env)
	if s, err := FromEnv(func(k string) string { return env[k] }); err != nil || s.Sharded() || s.String() != "" {
		t.Fatalf("FromEnv without the variable = %v, %v; want no sharding", s, err)
	}
}

// The slices of shards 1..N of any input, ids or none, are disjoint and
// their union is the input.
func TestSlicesPartitionTheInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 500 {
		n := 1 + rng.IntN(12)
		size := rng.IntN(300)
		ids := make([]string, size)
		for i := range ids {
			switch rng.IntN(3) {
			case 0: // no id: by position
			case 1:
				ids[i] = strconv.Itoa(rng.IntN(1000))
			default:
				ids[i] = fmt.Sprintf("case-%x", rng.Uint64())
			}
		}
		owner := make([]int, size)
		for k := 1; k <= n; k++ {
			s := Spec{K: k, N: n}
			for i, id := range ids {
				if s.Has(id, i) {
					if owner[i] != 0 {
						t.Fatalf("trial %d: case %d (id %q) is in shards %d/%d and %d/%d", trial, i, id, owner[i], n, k, n)
					}
					owner[i] = k
				}
			}
		}
		for i, o := range owner {
			if o == 0 {
				t.Fatalf("trial %d: case %d (id %q) is in none of the %d shards", trial, i, ids[i], n)
			}
		}
		if (Spec{}).Has("x", 0) == false {
			t.Fatal("the zero Spec does not have every case")
		}
	}
}

// A case with an id is in the same shard wherever it stands; one without
// goes round robin; the slices of a large input are about even.
func TestShardOf(t *testing.T) {
	if a, b := Of("booking-7", 0, 4), Of("booking-7", 9123, 4); a != b {
		t.Errorf("the shard of id booking-7 moved with its position: %d, %d", a, b)
	}
	for i, want := range []int{1, 2, 3, 4, 1, 2} {
		if got := Of("", i, 4); got != want {
			t.Errorf("Of(no id, %d, 4) = %d, want %d", i, got, want)
		}
	}
	// FNV-1a-64 of "a" is 0xaf63dc4c8601ec8c: pinned so that a change of
	// hash, which would move every case of every saved shard, is seen.
	if got, want := Of("a", 0, 1000), 1+int(uint64(0xaf63dc4c8601ec8c)%1000); got != want {
		t.Errorf(`Of("a", 0, 1000) = %d, want %d`, got, want)
	}
	counts := make([]int, 5)
	for i := range 10000 {
		counts[Of("sample-"+strconv.Itoa(i), i, 4)]++
	}
	for k := 1; k <= 4; k++ {
		if counts[k] < 2300 || counts[k] > 2700 {
			t.Errorf("shard %d/4 of 10000 ids has %d of them; want about 2500 (%v)", k, counts[k], counts[1:])
		}
	}
}
