package pyvalue

import (
	"testing"

	"github.com/agentcheck/agentcheck/jsonvalue"
)

// TestSameStr: str() is one-to-one within a kind, so that two values of a
// kind have the same str() exactly when they are identical: the same key
// order, the same number kinds; across kinds, only a string can have the
// str() of another kind.
func TestSameStr(t *testing.T) {
	tests := []struct {
		a, b  string
		equal bool
	}{
		{`{"a": 1, "b": 2}`, `{"a": 1, "b": 2}`, true},
		{`{"a": 1, "b": 2}`, `{"b": 2, "a": 1}`, false}, // str() differs
		{`1`, `1.0`, false},
		{`1.0`, `1.00`, true},
		{`0.0`, `-0.0`, false},
		{`NaN`, `NaN`, true},
		{`true`, `1`, false},
		{`[1, [2]]`, `[1, [2]]`, true},
		{`[1, [2]]`, `[1, [2, 3]]`, false},
		{`"a"`, `"a"`, true},
		{`null`, `null`, true},
		{`[]`, `{}`, false},
	}
	for _, tt := range tests {
		a, b := jsonvalue.MustParse(tt.a), jsonvalue.MustParse(tt.b)
		if got := identical(&a, &b); got != tt.equal {
			t.Errorf("identical(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.equal)
		}
		same, known := SameStr(a, b)
		if !known || same != tt.equal || same != (Str(a) == Str(b)) {
			t.Errorf("SameStr(%s, %s) = %v, %v; want %v (str %q, %q)", tt.a, tt.b, same, known, tt.equal, Str(a), Str(b))
		}
	}
}

// TestSameStrAcrossKinds: a string has the str() of an int, a bool or None
// that reads the same; SameStr does not know for containers and floats,
// whose texts it leaves to the caller to write.
func TestSameStrAcrossKinds(t *testing.T) {
	tests := []struct {
		a, b        string
		same, known bool
	}{
		{`1`, `"1"`, true, true},
		{`"1"`, `1`, true, true},
		{`1`, `"01"`, false, true},
		{`true`, `"True"`, true, true},
		{`true`, `"true"`, false, true},
		{`null`, `"None"`, true, true},
		{`null`, `""`, false, true},
		{`1`, `1.0`, false, true},
		{`1`, `true`, false, true},
		{`1.0`, `"1.0"`, false, false},
		{`[1]`, `"[1]"`, false, false},
	}
	for _, tt := range tests {
		a, b := jsonvalue.MustParse(tt.a), jsonvalue.MustParse(tt.b)
		same, known := SameStr(a, b)
		if same != tt.same || known != tt.known {
			t.Errorf("SameStr(%s, %s) = %v, %v; want %v, %v", tt.a, tt.b, same, known, tt.same, tt.known)
		}
		if known && same != (Str(a) == Str(b)) {
			t.Errorf("SameStr(%s, %s) = %v, but str() gives %q and %q", tt.a, tt.b, same, Str(a), Str(b))
		}
	}
}
