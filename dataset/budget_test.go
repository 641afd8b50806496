package dataset

import (
	"errors"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// budgetArgs are arguments texts of every kind: objects, lists and
// scalars, nested, null, none, and texts that are not JSON, some of them
// with many values before their fault.
var budgetArgs = []string{
	``, ` `, `null`, ` null `, `{}`, `[]`, `0`, `"x"`, `{"a": 1}`, `{"a": [1, 2, {"b": null}], "c": "d"}`,
	`[[], {}, [[]]]`, `{"a": 1, "a": [2, 3]}`, `NaN`, `{"x": "\u00e9"}`,
	`{"a": 1`, `{"a": 1} {"b": 2}`, `[0, 0, 0, 0, 0, 0, 0, 0, 0, x]`, `{'a': 1}`, `city=Paris`, `[1, 2,]`,
}

// A budget reads arguments as agentcheck.ParseArguments does while what
// is left of it holds their values (as Limit counts them: a key's value
// given twice, replaced, among them), and takes them off it; past it, the
// bound's error, the sample's bound in it; text that is not JSON, or none,
// takes nothing, whatever is left, and is kept as without the budget.
func TestBudgetArguments(t *testing.T) {
	for _, text := range budgetArgs {
		checkBudget(t, text)
	}
}

// FuzzBudgetArguments: whatever the text, a budget reads it as
// ParseArguments does or gives the bound's error, as its values tell.
func FuzzBudgetArguments(f *testing.F) {
	for _, s := range budgetArgs {
		f.Add(s)
	}
	f.Fuzz(checkBudget)
}

func checkBudget(t *testing.T, text string) {
	want, wantInvalid := agentcheck.ParseArguments(text)
	n := 0
	if wantInvalid == "" && strings.TrimSpace(text) != "" {
		// The values as a Decoder's Limit counts them, a key's value
		// given twice among them (jsonvalue's tests hold the count).
		var d jsonvalue.Decoder
		d.Reset(text)
		if _, err := d.Value(0); err != nil {
			t.Fatalf("%q: ParseArguments took it, a Decoder says %v", text, err)
		}
		n = d.Count()
	}
	for left := 0; left <= n+1; left++ {
		b := &valueBudget{max: 1000, left: left, name: "--max-sample-values"}
		args, invalid, err := b.arguments(text)
		if n > left {
			var over *jsonvalue.LimitError
			if !errors.As(err, &over) || over.Max != 1000 || err.Error() != "the sample holds more than 1000 JSON values, the most one sample may hold (--max-sample-values)" {
				t.Fatalf("%q, %d values, %d left: %v, %s, %q; want the bound's error", text, n, left, err, args, invalid)
			}
			continue
		}
		if err != nil || invalid != wantInvalid || args.Kind() != want.Kind() || args.String() != want.String() || b.left != left-n {
			t.Fatalf("%q, %d values, %d left: %s, %q, %v, %d left after; without the budget %s, %q", text, n, left, args, invalid, err, b.left, want, wantInvalid)
		}
	}
}
