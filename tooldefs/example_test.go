package tooldefs_test

import (
	"fmt"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/tooldefs"
)

func ExampleParse() {
	// The tools as the agent sends them to OpenAI.
	defs, err := tooldefs.Parse([]byte(`[
		{"type":"function","function":{"name":"search","parameters":{
			"type":"object",
			"properties":{"q":{"type":"string"},"limit":{"type":"integer","minimum":1},"sort":{"enum":["price","rating"]}},
			"required":["q"],
			"additionalProperties":false}}}
	]`))
	if err != nil {
		panic(err)
	}
	calls := []agentcheck.ToolCall{
		agentcheck.MustParseToolCall("search", `{"q":"pho","limit":3}`),
		agentcheck.MustParseToolCall("search", `{"limit":0,"sort":"distance","page":2}`),
		agentcheck.MustParseToolCall("book", `{"id":"r_1"}`),
	}
	for _, v := range defs.Check(calls) {
		fmt.Println(v)
	}
	// Output:
	// [1] search: additionalProperties: additional properties 'page' not allowed
	// [1] search: required: missing property 'q'
	// [1] search: /limit: minimum: got 0, want 1
	// [1] search: /sort: enum: value must be one of 'price', 'rating'
	// [2] book: not a defined tool; defined: search
}

func ExampleCheckCalls() {
	// An MCP server's tools/list result.
	defs := tooldefs.Must(tooldefs.Parse([]byte(`{"tools":[
		{"name":"get_weather","inputSchema":{"type":"object","properties":{"city":{"type":"string"},"units":{"enum":["c","f"]}},"required":["city"]}}
	]}`)))
	conv := agentcheck.Conversation{
		{Role: agentcheck.Human, Content: "Weather in Oslo and Rome?"},
		{Role: agentcheck.AI, ToolCalls: []agentcheck.ToolCall{
			agentcheck.MustParseToolCall("get_weather", `{"city":"Oslo","units":"c"}`),
			agentcheck.MustParseToolCall("get_weather", `{"city":["Rome"],"units":"kelvin"}`),
		}},
	}
	fmt.Println(tooldefs.CheckCalls(conv, defs))
	// Output:
	// Expected the 2 tool calls made to fit their tool definitions, but 1 does not:
	//   [1] get_weather: /city: type: got array, want string
	//   [1] get_weather: /units: enum: value must be one of 'c', 'f'
}

func ExampleDefine() {
	defs, err := tooldefs.New(
		tooldefs.Define("book", `{"type":"object","properties":{"party_size":{"type":"integer","maximum":12}},"required":["party_size"]}`),
		tooldefs.Define("cancel", `{"type":"object","properties":{"id":{"type":"string","pattern":"^b_"}}}`),
	)
	if err != nil {
		panic(err)
	}
	for _, v := range defs.Check([]agentcheck.ToolCall{
		agentcheck.MustParseToolCall("book", `{"party_size":40}`),
		agentcheck.MustParseToolCall("cancel", `{"id":"r_9"}`),
	}) {
		fmt.Printf("call %d, %s at %q: %s (%s)\n", v.Call, v.Tool, v.Pointer, v.Keyword, v.Message)
	}
	// Output:
	// call 0, book at "/party_size": maximum (got 40, want 12)
	// call 1, cancel at "/id": pattern ('r_9' does not match pattern '^b_')
}

func ExampleNew_badSchema() {
	_, err := tooldefs.New(tooldefs.Define("search", `{"type":"object","properties":{"limit":{"type":"int"}}}`))
	fmt.Println(err)
	// Output:
	// tooldefs: tool 0 "search": parameters: not a valid JSON Schema: at /properties/limit/type: anyOf: fits none of the 2 alternatives: (0) enum: value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string'; (1) type: got string, want array
}
