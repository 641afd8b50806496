package dataset

import (
	"testing"

	"github.com/agentcheck/agentcheck"
)

// openAIArguments keeps any JSON value as the arguments (the readers'
// callers decide what kinds they take), no arguments as the empty object,
// and text that is not JSON as it is written.
func TestOpenAIArgumentsKeepsWhatIsNotAnObject(t *testing.T) {
	for _, tt := range []struct {
		text, args, invalid string
		kind                agentcheck.Kind
	}{
		{"", "{}", "", agentcheck.ObjectKind},
		{" \n\t", "{}", "", agentcheck.ObjectKind},
		{"null", "{}", "", agentcheck.ObjectKind},
		{`{"a": [1, 2.0]}`, `{"a":[1,2.0]}`, "", agentcheck.ObjectKind},
		{`[1, "x"]`, `[1,"x"]`, "", agentcheck.ArrayKind},
		{`"Paris"`, `"Paris"`, "", agentcheck.StringKind},
		{`3`, `3`, "", agentcheck.IntKind},
		{`true`, `true`, "", agentcheck.BoolKind},
		{`{"city": "Par`, "null", `{"city": "Par`, agentcheck.NullKind},
		{`{"a": 1} {"b": 2}`, "null", `{"a": 1} {"b": 2}`, agentcheck.NullKind},
		{`{'a': 1}`, "null", `{'a': 1}`, agentcheck.NullKind},
		{"city=Paris", "null", "city=Paris", agentcheck.NullKind},
	} {
		tc := openAIArguments("c1", "f", tt.text)
		if tc.ID != "c1" || tc.Name != "f" || tc.Args.Kind() != tt.kind || tc.Args.String() != tt.args || tc.InvalidArgs != tt.invalid {
			t.Errorf("Expected arguments %q to make f(%s) with InvalidArgs %q, but got %+v (args %s)", tt.text, tt.args, tt.invalid, tc, tc.Args)
		}
	}
}
