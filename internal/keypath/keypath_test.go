package keypath

import (
	"reflect"
	"testing"
)

func TestStep(t *testing.T) {
	ps := Split([]string{"request_id", "time.start", "*_id", "meta.*.x", "a.b", "[x"})
	for _, tt := range []struct {
		key    string
		drop   bool
		deeper [][]string
	}{
		{"request_id", true, nil},
		{"trace_id", true, nil},
		{"time", false, [][]string{{"start"}}},
		{"meta", false, [][]string{{"*", "x"}}},
		{"query", false, nil},
		{"a.b", true, nil}, // a key with a dot, named letter for letter
		{"a", false, [][]string{{"b"}}},
		{"[x", true, nil}, // not a valid pattern, but the key itself
	} {
		drop, deeper := Step(ps, tt.key)
		if drop != tt.drop || !reflect.DeepEqual(deeper, tt.deeper) {
			t.Errorf("Step(%q) = %v, %v; want %v, %v", tt.key, drop, deeper, tt.drop, tt.deeper)
		}
	}
}
