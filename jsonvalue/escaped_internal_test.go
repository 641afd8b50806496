package jsonvalue

import "testing"

// StringValue refused deep in an object leaves the Decoder's stack as it
// found it: what the members read so far pushed goes.
func TestStringValueRefusedLeavesTheStack(t *testing.T) {
	var d Decoder
	d.Reset(`"{\"a\": [1, {\"b\": [2, 3]}, 4], \"c\": NaN}"`)
	if _, ok := d.StringValue(); ok {
		t.Fatal("StringValue took NaN")
	}
	if n := len(d.p.stack); n != 0 || d.Offset() != 0 {
		t.Errorf("after StringValue refused, the stack holds %d members and the reading is at %d", n, d.Offset())
	}
}
