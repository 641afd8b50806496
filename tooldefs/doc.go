// Package tooldefs checks an agent's tool calls against the tools' own
// definitions: that every call names a defined tool and that its arguments
// validate against the tool's JSON Schema (types, required properties,
// enums, additionalProperties, patterns, bounds and the rest of JSON Schema
// 2020-12). Definitions are read as the providers write them — OpenAI chat
// tools ({"type":"function","function":{...}}), OpenAI Responses tools
// ({"type":"function","name":...,"parameters":...}), MCP tool lists
// ({"tools":[{"name","inputSchema"}]}) and Anthropic tools
// ({"name","input_schema"}) — or built in Go with Define; each schema is
// compiled once, by github.com/santhosh-tekuri/jsonschema/v6, when the Set
// is made, and a schema that is not valid JSON Schema is an error naming the
// tool. Set.Check lists the Violations of a list of calls; CheckCalls turns
// them into an agenttest.Report ("Expected the 3 tool calls made to fit
// their tool definitions, but 2 do not: ..."), which AssertFit and the
// matchers.FitToolDefinitions Gomega matcher print on failure.
package tooldefs
