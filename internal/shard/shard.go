// Package shard is the one rule by which a sharded run picks its slice of a
// dataset or a suite, shared by agentcheck eval --shard K/N and evalsuite's
// AGENTCHECK_SHARD=K/N. A case with an id belongs to shard
// 1 + FNV-1a-64(id) mod N, so that it stays in its shard however the input
// is reordered or grows (a record that is not valid JSON has the id it
// holds before it breaks, if any); a case without one (a record with no
// "id", an input that could not be read) belongs to shard 1 + (its
// position in the input, counting from 0) mod N, round robin, so that a
// sorted input still
// spreads over the shards. Neither depends on the machine, the number of
// workers or the other cases' ids, so the N slices are disjoint and their
// union is the input.
package shard

import (
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Env is the environment variable a suite reads its shard from.
const Env = "AGENTCHECK_SHARD"

// MaxN bounds N: more shards than that is a typing mistake, not a matrix.
const MaxN = 10000

// Spec is shard K of N. The zero Spec is no sharding: the whole input.
type Spec struct {
	K, N int
}

// Parse reads "K/N", K from 1 to N; "" is the zero Spec. Its errors say
// what is wrong, not where the text came from.
func Parse(s string) (Spec, error) {
	if s == "" {
		return Spec{}, nil
	}
	k, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return Spec{}, errors.New("want K/N, shard K of N, such as 1/4")
	}
	ki, kerr := strconv.Atoi(strings.TrimSpace(k))
	ni, nerr := strconv.Atoi(strings.TrimSpace(n))
	switch {
	case kerr != nil || nerr != nil:
		return Spec{}, errors.New("want K/N, two whole numbers, such as 1/4")
	case ni < 1 || ni > MaxN:
		return Spec{}, fmt.Errorf("N must be from 1 to %d, got %d", MaxN, ni)
	case ki < 1 || ki > ni:
		return Spec{}, fmt.Errorf("K counts from 1 to N (%d), got %d", ni, ki)
	}
	return Spec{K: ki, N: ni}, nil
}

// FromEnv reads Env; its error names the variable.
func FromEnv(getenv func(string) string) (Spec, error) {
	v := getenv(Env)
	s, err := Parse(v)
	if err != nil {
		return Spec{}, fmt.Errorf("%s=%q: %w", Env, v, err)
	}
	return s, nil
}

// Sharded tells a Spec that slices from the zero Spec.
func (s Spec) Sharded() bool { return s.N > 0 }

// String is "K/N", "" for the zero Spec.
func (s Spec) String() string {
	if !s.Sharded() {
		return ""
	}
	return strconv.Itoa(s.K) + "/" + strconv.Itoa(s.N)
}

// Of is the shard, from 1 to n, of a case with the id given ("" for none)
// at position ordinal of the input (from 0).
func Of(id string, ordinal, n int) int {
	if n <= 1 {
		return 1
	}
	if id != "" {
		h := fnv.New64a()
		h.Write([]byte(id))
		return 1 + int(h.Sum64()%uint64(n))
	}
	return 1 + ordinal%n
}

// Has says whether the case with the id given at position ordinal of the
// input is in the slice s. The zero Spec has every case.
func (s Spec) Has(id string, ordinal int) bool {
	return !s.Sharded() || Of(id, ordinal, s.N) == s.K
}
