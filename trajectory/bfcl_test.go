package trajectory_test

import (
	"testing"

	"github.com/agentcheck/agentcheck/trajectory"
)

// TestBFCLStrings: what BFCL's standardize_string gives (run with python3
// on BFCL @6ea5797) for each input.
func TestBFCLStrings(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"New York, N.Y./U-S_A*2^3", "newyorknyusa23"},
		{"O'Brien's", `o"brien"s`},
		{`He said "hi"`, `hesaid"hi"`},
		{"İstanbul", "i\u0307stanbul"},
		{"ÀÉÎ ß", "àéîß"},
		{"", ""},
		{" ,./-_*^", ""},
		{"Tab\there", "tab\there"},
		{"Ünïcode–Dash", "ünïcode–dash"},
		{"KELVIN \u212a", "kelvink"},
	} {
		if got := trajectory.BFCLStrings(tt.in); got != tt.want {
			t.Errorf("Expected BFCLStrings(%q) to be %q, as BFCL's standardize_string gives, but it is %q", tt.in, tt.want, got)
		}
	}
}
