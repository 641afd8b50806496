package agenttest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/agenttest"
	"github.com/agentcheck/agentcheck/trajectory"
)

// bookFunction is a BFCL declaration with every kind of parameter the
// checker reads: a required one whose answers allow "", an optional one, a
// list of dicts and a dict.
const bookFunction = `[{"name": "book", "parameters": {"type": "dict", "required": ["city", "guests"], "properties": {
	"city": {"type": "string"},
	"guests": {"type": "integer"},
	"note": {"type": "string"},
	"when": {"type": "string"},
	"rooms": {"type": "array", "items": {"type": "dict"}},
	"contact": {"type": "dict"},
	"tags": {"type": "array", "items": {"type": "string"}}
}}}]`

const bookAnswer = `[{"book": {
	"city": ["New York, NY", "NYC", ""],
	"guests": [2],
	"note": ["", "late arrival"],
	"rooms": [[{"kind": ["double"], "beds": [1, ""]}, {"kind": ["single"]}], ""],
	"contact": [{"name": ["Ana"], "phones": [["555-1234"]], "address": [{"zip": "10001"}]}, ""],
	"tags": [["quiet", "high floor"], ""],
	"ghost": [""]
}}]`

func TestBFCLCalls(t *testing.T) {
	expected, err := agenttest.BFCLCalls(bookFunction, []byte(bookAnswer))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, args string
		pass       bool
		says       string // in the failure message
	}{
		{"the first answers", `{"city": "New York, NY", "guests": 2}`, true, ""},
		{"strings as BFCL standardises them", `{"city": "new york ny", "guests": 2, "note": "Late-Arrival."}`, true, ""},
		{"an int as a float", `{"city": "NYC", "guests": 2.0}`, true, ""},
		{"a required parameter left out although its answers allow it", `{"guests": 2}`, false, "city"},
		{"an explicit empty string", `{"city": "NYC", "guests": 2, "note": ""}`, false, "note"},
		{"a parameter the answer does not list", `{"city": "NYC", "guests": 2, "when": "tonight"}`, false, "when"},
		{"a parameter the function does not declare", `{"city": "NYC", "guests": 2, "ghost": 1}`, false, "ghost: Absent()"},
		{"a wrong type", `{"city": "NYC", "guests": "2"}`, false, "the function declares it integer, not string"},
		{"a list of dicts in order", `{"city": "NYC", "guests": 2, "rooms": [{"kind": "Double", "beds": 1}, {"kind": "single"}]}`, true, ""},
		{"a list of dicts with a key left out that may be", `{"city": "NYC", "guests": 2, "rooms": [{"kind": "double"}, {"kind": "single"}]}`, true, ""},
		{"a list of dicts out of order", `{"city": "NYC", "guests": 2, "rooms": [{"kind": "single"}, {"kind": "double"}]}`, false, "rooms"},
		{"a list of dicts with a key too many", `{"city": "NYC", "guests": 2, "rooms": [{"kind": "double", "view": "sea"}, {"kind": "single"}]}`, false, `[0]: unexpected key "view"`},
		{"a dict with a nested dict and a list", `{"city": "NYC", "guests": 2, "contact": {"name": "ana", "phones": ["555 1234"], "address": {"zip": "10001"}}}`, true, ""},
		{"a dict whose nested dict differs", `{"city": "NYC", "guests": 2, "contact": {"name": "Ana", "phones": ["5551234"], "address": {"zip": "10002"}}}`, false, "address"},
		{"a dict without a key that must be given", `{"city": "NYC", "guests": 2, "contact": {"phones": ["5551234"], "address": {"zip": "10001"}}}`, false, `missing key "name"`},
		{"a list of strings in order", `{"city": "NYC", "guests": 2, "tags": ["Quiet", "high-floor"]}`, true, ""},
		{"a list of strings out of order", `{"city": "NYC", "guests": 2, "tags": ["high floor", "quiet"]}`, false, "tags"},
		{"a list of the wrong items", `{"city": "NYC", "guests": 2, "tags": [1, 2]}`, false, "not one of the acceptable lists"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			made := []agentcheck.ToolCall{agentcheck.MustParseToolCall("book", tt.args)}
			r := agenttest.CheckToolCalls(made, trajectory.Unordered, expected...)
			if r.Err() != nil {
				t.Fatal(r.Err())
			}
			if r.OK() != tt.pass {
				t.Fatalf("Expected book(%s) to pass=%v, but it is %v:\n%s", tt.args, tt.pass, r.OK(), r)
			}
			if !tt.pass && !strings.Contains(r.String(), tt.says) {
				t.Errorf("Expected the failure to mention %q, but it reads:\n%s", tt.says, r)
			}
		})
	}
}

// A parameter the answer lists but the function does not declare, and one
// the function requires but the answer does not list, fail whatever the
// call gives, as in BFCL.
func TestBFCLCallsAnswerAgainstDeclaration(t *testing.T) {
	functions := `[{"name": "f", "parameters": {"required": ["a", "b"], "properties": {"a": {"type": "integer"}, "b": {"type": "string"}, "l": {"type": "array", "items": {"type": "integer"}}}}}]`
	for _, tt := range []struct{ answer, args, says string }{
		{`[{"f": {"a": [1], "b": ["x"], "c": ["y"]}}]`, `{"a": 1, "b": "x", "c": "y"}`, `the function does not declare "c"`},
		{`[{"f": {"a": [1], "b": ["x"], "c": ["y"]}}]`, `{"a": 1, "b": "x"}`, `- c: Undeclared()`},
		{`[{"f": {"a": [1]}}]`, `{"a": 1, "b": "x"}`, `the function requires "b" but the possible answer lists no value for it`},
		{`[{"f": {"a": [1]}}]`, `{"a": 1}`, `- b: Unanswered()`},
		{`[{"f": {"a": [1], "b": ["x"], "l": [[1, 2]]}}]`, `{"a": 1, "b": "x", "l": ["1", "2"]}`, `the function declares a list of integer`},
		{`[{"f": {"a": [1], "b": ["x"]}}]`, `{"a": true, "b": "x"}`, `the function declares it integer, not bool`},
	} {
		expected, err := agenttest.BFCLCalls(functions, tt.answer)
		if err != nil {
			t.Fatal(err)
		}
		r := agenttest.CheckToolCalls([]agentcheck.ToolCall{agentcheck.MustParseToolCall("f", tt.args)}, trajectory.Unordered, expected...)
		if r.OK() || !strings.Contains(r.String(), tt.says) {
			t.Errorf("Expected f(%s) against %s to fail saying %q, but:\n%s", tt.args, tt.answer, tt.says, r)
		}
	}
}

func TestBFCLCallsErrors(t *testing.T) {
	for _, tt := range []struct{ functions, answer, want string }{
		{bookFunction, `[{"cancel": {"id": [1]}}]`, `BFCL possible answer[0]: the function "cancel" is not declared`},
		{bookFunction, `[{"book": {"city": ["NYC"]}}, {"book": {"city": "NYC"}}]`, `BFCL possible answer[1] book: parameter "city": want a list of acceptable values, got "NYC"`},
		{bookFunction, `[{"book": [1]}]`, `BFCL possible answer[0] book: want {parameter: [values]}, got array`},
		{bookFunction, `{"book": `, "BFCL possible answer: "},
		{`[{"parameters": {}}]`, `[]`, "BFCL functions[0]: no name"},
		{`"book"`, `[]`, "BFCL functions: want a list of function declarations, got string"},
	} {
		_, err := agenttest.BFCLCalls(tt.functions, tt.answer)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("Expected BFCLCalls(…, %s) to fail with %q, but it gives %v", tt.answer, tt.want, err)
		}
	}
}

// Parallel calls pair up with the possible answers one to one, in any
// order, and the best pairing is found, not the first that fits.
func TestBFCLCallsParallel(t *testing.T) {
	functions := `[{"name": "force", "parameters": {"required": ["q"], "properties": {"q": {"type": "integer"}, "medium": {"type": "string"}}}}]`
	answer := `[{"force": {"q": [5], "medium": ["vacuum", ""]}}, {"force": {"q": [5], "medium": ["vacuum"]}}]`
	expected, err := agenttest.BFCLCalls(functions, answer)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		made []string
		pass bool
	}{
		// BFCL's first fit gives the first answer the first call and then
		// finds none for the second.
		{[]string{`{"q": 5, "medium": "Vacuum"}`, `{"q": 5}`}, true},
		{[]string{`{"q": 5}`, `{"q": 5, "medium": "vacuum"}`}, true},
		{[]string{`{"q": 5}`, `{"q": 5}`}, false},
		{[]string{`{"q": 5, "medium": "vacuum"}`}, false},
	} {
		var made []agentcheck.ToolCall
		for _, a := range tt.made {
			made = append(made, agentcheck.MustParseToolCall("force", a))
		}
		if r := agenttest.CheckToolCalls(made, trajectory.Unordered, expected...); r.OK() != tt.pass {
			t.Errorf("Expected %v to pass=%v, but:\n%s", tt.made, tt.pass, r)
		}
	}
}

func ExampleBFCLCalls() {
	functions := `[{"name": "get_weather", "parameters": {"required": ["city"], "properties": {
		"city": {"type": "string"}, "unit": {"type": "string"}}}}]`
	answer := `[{"get_weather": {"city": ["San Francisco, CA", "SF"], "unit": ["celsius", ""]}}]`
	expected, err := agenttest.BFCLCalls(functions, answer)
	if err != nil {
		panic(err)
	}
	made := []agentcheck.ToolCall{agentcheck.MustParseToolCall("get_weather", `{"city": "san francisco ca", "unit": "kelvin"}`)}
	fmt.Println(agenttest.CheckToolCalls(made, trajectory.Unordered, expected...))
	// Output:
	// Expected the 1 tool call made to be exactly this call (1 differs; -want +got):
	//     want                                                          got
	//   ~ [0] get_weather(city: OneOf("San Francisco, CA", "SF"), unit: Optional("celsius"))
	//                                                                   [0] get_weather(city: "san francisco ca", unit: "kelvin")
	//
	//   want[0] get_weather vs got[0] get_weather:
	//       - unit: Optional("celsius")
	//       + unit: "kelvin"
	//         not one of the acceptable values, compared by trajectory.BFCLStrings
}
