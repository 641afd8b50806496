package jsonkey_test

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentcheck/agentcheck/internal/jsonkey"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// corpus holds values that are equal under jsonvalue.Equal in some
// pairs and differ in small ways in others: number spellings and kinds,
// large and fractional numbers, key order, duplicate keys, nesting.
var corpus = []string{
	`null`, `true`, `false`, `0`, `-0`, `0.0`, `-0.0`, `1`, `1.0`, `1e0`, `10`, `10.0`, `1e1`, `1.5`, `15e-1`, `-1.5`,
	`0.1`, `0.30000000000000004`, `9007199254740993`, `9007199254740992`, `9007199254740992.0`, `1e300`,
	`123456789012345678901234567890`, `1.2345678901234568e29`, `""`, `"a"`, `"A"`, `"1"`, `"true"`, `"null"`,
	`"é"`, `"e\u0301"`, `[]`, `{}`, `[1]`, `[1.0]`, `[1,2]`, `[2,1]`, `[[]]`, `[{}]`, `{"a":1}`, `{"a":1.0}`,
	`{"a":true}`, `{"b":1}`, `{"a":1,"b":2}`, `{"b":2,"a":1}`, `{"a":{"b":[1,{"c":null}]}}`,
	`{"a":{"b":[1.0,{"c":null}]}}`, `{"a":{"b":[1,{"c":false}]}}`, `{"":0}`, `{"}":1}`, `[true]`, `[1,true]`,
}

// Keys are equal exactly when Equal says the values are: every pair of the
// corpus, each value also as jsonvalue.Object builds it with a duplicate key.
func TestKeysAgreeWithEqual(t *testing.T) {
	var vals []jsonvalue.Value
	for _, s := range corpus {
		vals = append(vals, jsonvalue.MustParse(s))
	}
	dup := func(v jsonvalue.Value) jsonvalue.Value {
		return jsonvalue.Object(jsonvalue.Member{Key: "k", Value: v}, jsonvalue.Member{Key: "j", Value: jsonvalue.Value{}}, jsonvalue.Member{Key: "k", Value: jsonvalue.Int(1)})
	}
	for _, v := range vals[:len(corpus)] {
		vals = append(vals, dup(v), jsonvalue.Float(v.Float()))
	}
	for _, a := range vals {
		for _, b := range vals {
			ka, kb := string(jsonkey.Append(nil, a, nil)), string(jsonkey.Append(nil, b, nil))
			if eq := jsonvalue.Equal(a, b); (ka == kb) != eq {
				t.Errorf("Expected the keys of %s and %s to be equal exactly when Equal (%v) is, but they are %q and %q", a, b, eq, ka, kb)
			}
		}
	}
}

// FuzzKeysAgreeWithEqual: for any two JSON documents, keys are equal exactly
// when the values are (NaN aside, which no document spells).
func FuzzKeysAgreeWithEqual(f *testing.F) {
	for i, s := range corpus {
		f.Add(s, corpus[(i+1)%len(corpus)])
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, sa, sb string) {
		a, errA := jsonvalue.Parse([]byte(sa))
		b, errB := jsonvalue.Parse([]byte(sb))
		if errA != nil || errB != nil {
			return
		}
		ka, kb := string(jsonkey.Append(nil, a, nil)), string(jsonkey.Append(nil, b, nil))
		if eq := jsonvalue.Equal(a, b); (ka == kb) != eq && !strings.Contains(sa+sb, "NaN") {
			t.Errorf("Expected the keys of %s and %s to be equal exactly when Equal (%v) is, but they are %q and %q", sa, sb, eq, ka, kb)
		}
	})
}

// NaN equals nothing: with a counter each NaN gets a key of its own; without
// one they share it.
func TestNaNKeys(t *testing.T) {
	nan := jsonvalue.Array(jsonvalue.Float(math.NaN()))
	n := 0
	if a, b := string(jsonkey.Append(nil, nan, &n)), string(jsonkey.Append(nil, nan, &n)); a == b {
		t.Errorf("Expected two NaNs to get two keys with a counter, but both got %q", a)
	}
	if a, b := string(jsonkey.Append(nil, nan, nil)), string(jsonkey.Append(nil, nan, nil)); a != b {
		t.Errorf("Expected NaNs to share a key without a counter, but they got %q and %q", a, b)
	}
}

func TestSortedMembers(t *testing.T) {
	v := jsonvalue.MustParse(`{"b": 1, "é": 2, "a": 3, "": 4, "B": 5, "ab": 6}`)
	var keys []string
	ms := v.Members()
	for _, i := range jsonkey.SortedMembers(ms, nil) {
		keys = append(keys, ms[i].Key)
	}
	if diff := cmp.Diff([]string{"", "B", "a", "ab", "b", "é"}, keys); diff != "" {
		t.Errorf("SortedMembers (-want +got):\n%s", diff)
	}
}
