package main

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck/dataset"
)

// A turn takes up to parseAhead samples whose texts come to aheadText in
// all, or a first sample larger than that alone, each parsed into its own
// slot; items that are no record to parse take their turn too.
func TestATurnParsesAheadWithinItsBound(t *testing.T) {
	sc := newScorer(context.Background(), evalConfig{})
	const k = 1 << 10
	for _, c := range []struct {
		sizes []int // each item's request, about its text's size; -1 for an item that holds an error
		want  []int // the index past each turn
	}{
		{[]int{k, k, k, k, k, k, k, k, k, k}, []int{8, 10}},
		{[]int{40 * k, k, k}, []int{1, 3}},
		{[]int{10 * k, 10 * k, 10 * k, 10 * k}, []int{3, 4}},
		{[]int{k, 40 * k, k}, []int{1, 2, 3}},
		{[]int{-1, k, -1, k}, []int{4}},
		{[]int{31 * k, 2 * k}, []int{1, 2}},
	} {
		items := make([]item, len(c.sizes))
		for i, n := range c.sizes {
			items[i] = item{rec: dataset.Record{File: "d.jsonl", Text: `{"user_input": [{"type": "human", "content": "` + strings.Repeat("x", max(n, 0)) + `"}], "reference_tool_calls": []}`}}
			if n < 0 {
				items[i].err = context.Canceled
			}
		}
		var got []int
		for k0 := 0; k0 < len(items); k0 = got[len(got)-1] {
			got = append(got, sc.parseAhead(items, k0))
			for i := k0; i < got[len(got)-1]; i++ {
				if a := sc.ahead[i-k0]; c.sizes[i] >= 0 && (a.err != nil || len(a.s.Conversation) != 1 || len(a.s.Conversation[0].Content) != c.sizes[i]) {
					t.Fatalf("sizes %v: item %d parsed ahead into slot %d as a request of %d bytes, error %v", c.sizes, i, i-k0, len(a.s.Conversation[0].Content), a.err)
				}
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("sizes %v: turns end at %v, want %v", c.sizes, got, c.want)
		}
	}
}
