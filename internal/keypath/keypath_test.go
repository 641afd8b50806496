package keypath

import (
	"reflect"
	"testing"
)

func TestStep(t *testing.T) {
	ps := Split([]string{"request_id", "time.start", "*_id", "meta.*.x"})
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
	} {
		drop, deeper := Step(ps, tt.key)
		if drop != tt.drop || !reflect.DeepEqual(deeper, tt.deeper) {
			t.Errorf("Step(%q) = %v, %v; want %v, %v", tt.key, drop, deeper, tt.drop, tt.deeper)
		}
	}
}
