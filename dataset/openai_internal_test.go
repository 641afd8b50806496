package dataset

import (
	"testing"

	"github.com/agentcheck/agentcheck/jsonvalue"
)

// openAIArguments keeps any JSON value as the arguments (the readers'
// callers decide what kinds they take), no arguments as the empty object,
// and text that is not JSON as it is written; alike counted toward a
// bound on the sample's values that it stays under.
func TestOpenAIArgumentsKeepsWhatIsNotAnObject(t *testing.T) {
	for _, tt := range []struct {
		text, args, invalid string
		kind                jsonvalue.Kind
	}{
		{"", "{}", "", jsonvalue.ObjectKind},
		{" \n\t", "{}", "", jsonvalue.ObjectKind},
		{"null", "{}", "", jsonvalue.ObjectKind},
		{`{"a": [1, 2.0]}`, `{"a":[1,2.0]}`, "", jsonvalue.ObjectKind},
		{`[1, "x"]`, `[1,"x"]`, "", jsonvalue.ArrayKind},
		{`"Paris"`, `"Paris"`, "", jsonvalue.StringKind},
		{`3`, `3`, "", jsonvalue.IntKind},
		{`true`, `true`, "", jsonvalue.BoolKind},
		{`{"city": "Par`, "null", `{"city": "Par`, jsonvalue.NullKind},
		{`{"a": 1} {"b": 2}`, "null", `{"a": 1} {"b": 2}`, jsonvalue.NullKind},
		{`{'a': 1}`, "null", `{'a': 1}`, jsonvalue.NullKind},
		{"city=Paris", "null", "city=Paris", jsonvalue.NullKind},
	} {
		for _, b := range []*valueBudget{nil, newBudget(100, 90, "--max-sample-values", nil)} {
			tc, err := openAIArguments("c1", "f", tt.text, b)
			if err != nil || tc.ID != "c1" || tc.Name != "f" || tc.Args.Kind() != tt.kind || tc.Args.String() != tt.args || tc.InvalidArgs != tt.invalid {
				t.Errorf("Expected arguments %q to make f(%s) with InvalidArgs %q, but got %+v (args %s), %v; budget %+v", tt.text, tt.args, tt.invalid, tc, tc.Args, err, b)
			}
		}
	}
}
