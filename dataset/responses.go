package dataset

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// OpenAI Responses API items.

// ParseResponsesItems reads OpenAI Responses API items written as JSON, as
// the API sends and returns them: a list of input items; or an object with
// "input" (a string, which is one user message, or a list of input items)
// and/or "output" (a list of output items), so that a request body, a
// response body and {"input": [...], "output": [...]} all read, the input
// before the output.
//
// A "message" item (its "type" may be left out) of role user, assistant,
// system or developer is a Human, AI or System message; its content is a
// string or a list of parts whose text (input_text, output_text, refusal)
// is joined with "\n", other parts (images, files, audio) skipped.
//
// Calls: a "function_call" is a function ToolCall with the item's call_id
// and its arguments, a JSON string, parsed (an empty string is no
// arguments; one that is not valid JSON is kept in the call's InvalidArgs,
// not an error); a "custom_tool_call" one whose arguments are {"input":
// <its input>}; an "mcp_call" an MCP ToolCall with the item's id, followed
// by its result as a Tool message (Content its output, or its error as
// text or compact JSON with IsError set) when it has one. The items of the
// provider's built-in tools are hosted ToolCalls named after the tool, the
// arguments being what the item says it did: web_search_call (its
// "action"), file_search_call ({"queries": ...}), code_interpreter_call
// ({"code": ...}), computer_call (its "action", or {"actions": ...}),
// image_generation_call (the revised_prompt, size, quality, background and
// output_format it gives), local_shell_call and shell_call (their
// "action"), apply_patch_call (its "operation"), tool_search_call (its
// "arguments") and program ({"code": ...}); their ID is the item's call_id
// when it has one, for their outputs to answer, else its id. Consecutive
// calls make one AI message, together with the text of an assistant
// message right before them; the results of MCP calls follow that message.
//
// Results are Tool messages with ToolCallID the call_id they answer:
// function_call_output and custom_tool_call_output (Content: the output
// string, or the text of its parts), local_shell_call_output (which names
// its call by "id"), apply_patch_call_output (IsError when its status is
// "failed"), shell_call_output (its output list as compact JSON),
// program_output (its result) and computer_call_output (a screenshot: no
// text). A result must follow the calls of its turn, or other results.
//
// Reasoning, compaction, MCP tool listing and approval, tool search output,
// additional tools and configuration update items are skipped; an
// item_reference (an item with an "id" only), which names an item stored
// by the API without giving it, and an item of an unknown type are errors. An error about an item is an
// *agentcheck.MessageError whose message index is the item's in its list
// (wrapped in "input: " or "output: " when the list is an object's), and
// for a call names its name.
func ParseResponsesItems(data []byte) (agentcheck.Conversation, error) {
	v, err := jsonvalue.Parse(data)
	if err != nil {
		return nil, err
	}
	return responsesConversation(v, nil)
}

// responsesConversation is ParseResponsesItems of the value v, with the
// values of the arguments strings counted toward b (none when nil).
func responsesConversation(v jsonvalue.Value, b *valueBudget) (agentcheck.Conversation, error) {
	r := responsesReader{conv: agentcheck.Conversation{}, ai: -1, calls: map[string]bool{}, budget: b}
	switch v.Kind() {
	case jsonvalue.ArrayKind:
		if err := r.items(v); err != nil {
			return nil, err
		}
	case jsonvalue.ObjectKind:
		in, _ := v.Get("input")
		out, _ := v.Get("output")
		if in.Kind() == jsonvalue.NullKind && out.Kind() == jsonvalue.NullKind {
			return nil, errors.New(`want a list of items or an object with "input" or "output"`)
		}
		switch in.Kind() {
		case jsonvalue.NullKind:
		case jsonvalue.StringKind:
			r.conv = append(r.conv, agentcheck.Message{Role: agentcheck.Human, Content: in.Text()})
		case jsonvalue.ArrayKind:
			if err := r.items(in); err != nil {
				return nil, fmt.Errorf("input: %w", err)
			}
		default:
			return nil, fmt.Errorf(`"input" must be a string or a list of items, got %s`, in.Kind())
		}
		switch out.Kind() {
		case jsonvalue.NullKind:
		case jsonvalue.ArrayKind:
			if err := r.items(out); err != nil {
				return nil, fmt.Errorf("output: %w", err)
			}
		default:
			return nil, fmt.Errorf(`"output" must be a list of items, got %s`, out.Kind())
		}
	default:
		return nil, fmt.Errorf("want a list of items, got %s", v.Kind())
	}
	r.close()
	return r.conv, r.conv.Validate()
}

// responsesReader builds the conversation item by item.
type responsesReader struct {
	conv agentcheck.Conversation
	// ai is the index of the AI message that calls join (the last message),
	// -1 when a call starts a new one; pending are the results of its MCP
	// calls, added after it when it closes.
	ai      int
	pending []agentcheck.Message
	calls   map[string]bool // the IDs of the calls made so far
	// reasoning is the text of reasoning items not yet given to the AI
	// message that follows them.
	reasoning string
	// budget is what is left of the sample's bound on its values, which
	// the arguments strings count toward (nil: no bound).
	budget *valueBudget
}

func (r *responsesReader) items(v jsonvalue.Value) error {
	for i := 0; i < v.Len(); i++ {
		if err := r.item(i, v.Index(i)); err != nil {
			return err
		}
	}
	return nil
}

// close ends the AI message that calls join, adding the results of its MCP
// calls after it.
func (r *responsesReader) close() {
	r.conv = append(r.conv, r.pending...)
	r.pending, r.ai = nil, -1
}

// Item types that are not conversation: the API's own bookkeeping, and
// tool listings.
var responsesSkipped = map[string]bool{
	"compaction":            true,
	"compaction_trigger":    true,
	"mcp_list_tools":        true,
	"mcp_approval_request":  true,
	"mcp_approval_response": true,
	"tool_search_output":    true,
	"additional_tools":      true,
	"configuration_update":  true,
}

// responsesItem reports whether typ is the type of a Responses item that
// is a call or a call's result.
func responsesItem(typ string) bool {
	switch {
	case typ == "function_call", typ == "custom_tool_call", typ == "mcp_call":
		return true
	}
	return responsesHosted[typ].name != "" || responsesResults[typ].content != nil
}

func (r *responsesReader) item(i int, v jsonvalue.Value) error {
	if v.Kind() != jsonvalue.ObjectKind {
		return &agentcheck.MessageError{Message: i, ToolCall: -1, Err: fmt.Errorf("an item must be an object, got %s", v.Kind())}
	}
	var typ string
	switch t, _ := v.Get("type"); t.Kind() {
	case jsonvalue.StringKind:
		typ = t.Text()
	case jsonvalue.NullKind:
	default:
		return &agentcheck.MessageError{Message: i, ToolCall: -1, Err: fmt.Errorf(`"type" must be a string, got %s`, t.Kind())}
	}
	if typ == "" { // a message or an item reference may leave it out
		if _, ok := v.Get("role"); ok {
			typ = "message"
		} else if _, ok := v.Get("id"); ok {
			typ = "item_reference"
		} else {
			return &agentcheck.MessageError{Message: i, ToolCall: -1, Err: errors.New(`an item must have a "type" (or a "role", for a message)`)}
		}
	}
	switch {
	case typ == "message":
		if err := foreignCalls(Responses, v); err != nil {
			return &agentcheck.MessageError{Message: i, ToolCall: -1, Err: err}
		}
		return r.message(i, v)
	case typ == "function_call", typ == "custom_tool_call", typ == "mcp_call":
		return r.call(i, typ, v)
	case responsesHosted[typ].name != "":
		return r.hosted(i, typ, v)
	case responsesResults[typ].content != nil:
		return r.result(i, typ, v)
	case typ == "reasoning":
		// The reasoning before the next AI message: its summary, or its
		// text where the item carries it.
		if r.ai >= 0 {
			r.close()
		}
		for _, field := range []string{"summary", "content"} {
			f, _ := v.Get(field)
			if t, err := responsesText(f); err == nil && t != "" {
				r.reasoning = joinLines(r.reasoning, t)
				break
			}
		}
		return nil
	case responsesSkipped[typ]:
		return nil
	case typ == "item_reference":
		id, _ := v.Get("id")
		return &agentcheck.MessageError{Message: i, ToolCall: -1, Err: fmt.Errorf("item_reference %s names an item stored by the API: give the item itself", id)}
	}
	return &agentcheck.MessageError{Message: i, ToolCall: -1, Err: fmt.Errorf("unknown item type %q", typ)}
}

func responsesRole(role string) (agentcheck.Role, bool) {
	switch role {
	case "user":
		return agentcheck.Human, true
	case "assistant":
		return agentcheck.AI, true
	case "system", "developer":
		return agentcheck.System, true
	}
	return "", false
}

func (r *responsesReader) message(i int, v jsonvalue.Value) error {
	rv, _ := v.Get("role")
	role, ok := responsesRole(stringText(rv))
	if !ok {
		return &agentcheck.MessageError{Message: i, ToolCall: -1, Err: fmt.Errorf("unknown role %s (want user, assistant, system or developer)", rv)}
	}
	c, _ := v.Get("content")
	text, err := responsesText(c)
	if err != nil {
		return &agentcheck.MessageError{Message: i, Role: role, ToolCall: -1, Err: fmt.Errorf(`"content" %w`, err)}
	}
	r.close()
	r.conv = append(r.conv, agentcheck.Message{Role: role, Content: text})
	if role == agentcheck.AI {
		r.ai = len(r.conv) - 1 // calls that follow join it
		r.conv[r.ai].Reasoning, r.reasoning = r.reasoning, ""
	}
	return nil
}

// responsesText is the text of a content or output: a string, or a list of
// parts whose text (input_text, output_text) and refusals are joined with
// "\n", other parts skipped.
func responsesText(c jsonvalue.Value) (string, error) {
	switch c.Kind() {
	case jsonvalue.NullKind:
		return "", nil
	case jsonvalue.StringKind:
		return c.Text(), nil
	case jsonvalue.ArrayKind:
		var parts []string
		for _, e := range c.Elements() {
			p := e.Value
			if t, ok := p.Get("text"); ok && t.Kind() == jsonvalue.StringKind {
				parts = append(parts, t.Text())
			} else if t, ok := p.Get("refusal"); ok && t.Kind() == jsonvalue.StringKind {
				parts = append(parts, t.Text())
			}
		}
		return strings.Join(parts, "\n"), nil
	}
	return "", fmt.Errorf("must be a string, a list of parts or null, got %s", c.Kind())
}

// addCall adds a call to the open AI message, or to a new one, and the
// result of an MCP call to those that follow it.
func (r *responsesReader) addCall(tc agentcheck.ToolCall, result *agentcheck.Message) {
	if r.ai < 0 {
		r.conv = append(r.conv, agentcheck.Message{Role: agentcheck.AI, Reasoning: r.reasoning})
		r.ai, r.reasoning = len(r.conv)-1, ""
	}
	m := &r.conv[r.ai]
	m.ToolCalls = append(m.ToolCalls, tc)
	if tc.ID != "" {
		r.calls[tc.ID] = true
	}
	if result != nil {
		r.pending = append(r.pending, *result)
	}
}

// call reads a function_call, custom_tool_call or mcp_call.
func (r *responsesReader) call(i int, typ string, v jsonvalue.Value) error {
	fail := func(name string, format string, args ...any) error {
		return &agentcheck.MessageError{Message: i, Role: agentcheck.AI, ToolCall: 0, Name: name, Err: fmt.Errorf(format, args...)}
	}
	nv, _ := v.Get("name")
	name := stringText(nv)
	if name == "" {
		return fail("", `"name" must be a non-empty string`)
	}
	idKey := "call_id"
	if typ == "mcp_call" {
		idKey = "id"
	}
	idv, _ := v.Get(idKey)
	id := stringText(idv)
	if id == "" && typ != "mcp_call" {
		return fail(name, "%q must be a non-empty string", idKey)
	}
	tc := agentcheck.ToolCall{ID: id, Name: name}
	if typ == "custom_tool_call" {
		input, _ := v.Get("input")
		if k := input.Kind(); k != jsonvalue.StringKind && k != jsonvalue.NullKind {
			return fail(name, `"input" must be a string, got %s`, k)
		}
		tc.Args = jsonvalue.Object(jsonvalue.Member{Key: "input", Value: jsonvalue.String(input.Text())})
		r.addCall(tc, nil)
		return nil
	}
	switch args, _ := v.Get("arguments"); args.Kind() {
	case jsonvalue.StringKind:
		parsed, err := openAIArguments(id, name, args.Text(), r.budget)
		if err != nil {
			return fail(name, "%w", err)
		}
		tc.Args, tc.InvalidArgs = parsed.Args, parsed.InvalidArgs
	case jsonvalue.ObjectKind: // as some servers send it
		tc.Args = args
	default:
		return fail(name, `"arguments" must be a JSON string, got %s`, args.Kind())
	}
	if typ != "mcp_call" {
		r.addCall(tc, nil)
		return nil
	}
	tc.Kind = agentcheck.MCPTool
	result, err := mcpResult(v)
	if err != nil {
		return fail(name, "%v", err)
	}
	if result != nil {
		result.ToolCallID = id
	}
	r.addCall(tc, result)
	return nil
}

// mcpResult is an mcp_call's result, nil when it has none yet: its output,
// and its error (a string, or an object written as compact JSON), which
// makes it an error.
func mcpResult(v jsonvalue.Value) (*agentcheck.Message, error) {
	var texts []string
	out, _ := v.Get("output")
	switch out.Kind() {
	case jsonvalue.NullKind:
	case jsonvalue.StringKind:
		texts = append(texts, out.Text())
	default:
		return nil, fmt.Errorf(`"output" must be a string or null, got %s`, out.Kind())
	}
	isErr := false
	switch e, _ := v.Get("error"); e.Kind() {
	case jsonvalue.NullKind:
	case jsonvalue.StringKind:
		if e.Text() != "" {
			texts, isErr = append(texts, e.Text()), true
		}
	case jsonvalue.ObjectKind:
		texts, isErr = append(texts, e.String()), true
	default:
		return nil, fmt.Errorf(`"error" must be a string, an object or null, got %s`, e.Kind())
	}
	if out.Kind() == jsonvalue.NullKind && !isErr {
		return nil, nil
	}
	if isErr && len(texts) == 2 && texts[0] == "" {
		texts = texts[1:]
	}
	return &agentcheck.Message{Role: agentcheck.Tool, Content: strings.Join(texts, "\n"), IsError: isErr}, nil
}

// A built-in tool's item: the tool's name, and how the item's members
// make the call's arguments.
type responsesTool struct {
	name string
	args func(jsonvalue.Value) (jsonvalue.Value, error)
}

var responsesHosted = map[string]responsesTool{
	"web_search_call":       {"web_search", memberArgs("action")},
	"file_search_call":      {"file_search", pickArgs("queries")},
	"code_interpreter_call": {"code_interpreter", pickArgs("code")},
	"computer_call":         {"computer", computerArgs},
	"image_generation_call": {"image_generation", pickArgs("revised_prompt", "size", "quality", "background", "output_format")},
	"local_shell_call":      {"local_shell", memberArgs("action")},
	"shell_call":            {"shell", memberArgs("action")},
	"apply_patch_call":      {"apply_patch", memberArgs("operation")},
	"tool_search_call":      {"tool_search", memberArgs("arguments")},
	"program":               {"program", pickArgs("code")},
}

// memberArgs makes the member key, an object, the arguments (none when it
// is missing or null).
func memberArgs(key string) func(jsonvalue.Value) (jsonvalue.Value, error) {
	return func(v jsonvalue.Value) (jsonvalue.Value, error) {
		switch x, _ := v.Get(key); x.Kind() {
		case jsonvalue.NullKind:
			return jsonvalue.Object(), nil
		case jsonvalue.ObjectKind:
			return x, nil
		default:
			return jsonvalue.Value{}, fmt.Errorf("%q must be an object, got %s", key, x.Kind())
		}
	}
}

// pickArgs makes an object of the members keys that are there and not
// null, in that order, the arguments.
func pickArgs(keys ...string) func(jsonvalue.Value) (jsonvalue.Value, error) {
	return func(v jsonvalue.Value) (jsonvalue.Value, error) {
		var ms []jsonvalue.Member
		for _, k := range keys {
			if x, ok := v.Get(k); ok && x.Kind() != jsonvalue.NullKind {
				ms = append(ms, jsonvalue.Member{Key: k, Value: x})
			}
		}
		return jsonvalue.Object(ms...), nil
	}
}

// computerArgs is a computer_call's action, or its batch of actions.
func computerArgs(v jsonvalue.Value) (jsonvalue.Value, error) {
	if a, _ := v.Get("action"); a.Kind() != jsonvalue.NullKind {
		return memberArgs("action")(v)
	}
	return pickArgs("actions")(v)
}

func (r *responsesReader) hosted(i int, typ string, v jsonvalue.Value) error {
	t := responsesHosted[typ]
	args, err := t.args(v)
	if err != nil {
		return &agentcheck.MessageError{Message: i, Role: agentcheck.AI, ToolCall: 0, Name: t.name, Err: err}
	}
	id, _ := v.Get("call_id")
	if stringText(id) == "" {
		id, _ = v.Get("id")
	}
	r.addCall(agentcheck.ToolCall{ID: stringText(id), Name: t.name, Args: args, Kind: agentcheck.HostedTool}, nil)
	return nil
}

// A result item: the member that names its call, and how it makes the
// Tool message's content and error flag.
type responsesResult struct {
	id      string
	content func(jsonvalue.Value) (string, bool, error)
}

var responsesResults = map[string]responsesResult{
	"function_call_output":    {"call_id", textResult("output")},
	"custom_tool_call_output": {"call_id", textResult("output")},
	"local_shell_call_output": {"id", textResult("output")},
	"apply_patch_call_output": {"call_id", patchResult},
	"shell_call_output":       {"call_id", jsonResult("output")},
	"program_output":          {"call_id", textResult("result")},
	"computer_call_output":    {"call_id", func(jsonvalue.Value) (string, bool, error) { return "", false, nil }},
}

// textResult reads the member key as a string or a list of parts.
func textResult(key string) func(jsonvalue.Value) (string, bool, error) {
	return func(v jsonvalue.Value) (string, bool, error) {
		x, _ := v.Get(key)
		text, err := responsesText(x)
		if err != nil {
			return "", false, fmt.Errorf("%q %w", key, err)
		}
		return text, false, nil
	}
}

// jsonResult writes the member key as compact JSON.
func jsonResult(key string) func(jsonvalue.Value) (string, bool, error) {
	return func(v jsonvalue.Value) (string, bool, error) {
		x, ok := v.Get(key)
		if !ok || x.Kind() == jsonvalue.NullKind {
			return "", false, nil
		}
		return x.String(), false, nil
	}
}

func patchResult(v jsonvalue.Value) (string, bool, error) {
	text, _, err := textResult("output")(v)
	status, _ := v.Get("status")
	return text, stringText(status) == "failed", err
}

func (r *responsesReader) result(i int, typ string, v jsonvalue.Value) error {
	fail := func(format string, args ...any) error {
		return &agentcheck.MessageError{Message: i, Role: agentcheck.Tool, ToolCall: -1, Err: fmt.Errorf(format, args...)}
	}
	res := responsesResults[typ]
	idv, _ := v.Get("call_id")
	id := stringText(idv)
	if id == "" && res.id != "call_id" {
		idv, _ = v.Get(res.id)
		id = stringText(idv)
	}
	if id == "" {
		return fail("%q must be a non-empty string", res.id)
	}
	text, isErr, err := res.content(v)
	if err != nil {
		return fail("%v", err)
	}
	r.close()
	// A result answers a call of the AI message before it and the results
	// of that turn.
	j := len(r.conv) - 1
	for j >= 0 && r.conv[j].Role == agentcheck.Tool {
		j--
	}
	if j < 0 || r.conv[j].Role != agentcheck.AI || !hasCall(r.conv[j].ToolCalls, id) {
		if r.calls[id] {
			return fail("%s of call %q must follow the call, or other results of its turn", typ, id)
		}
		return fail("%s answers call_id %q, which no call before it made", typ, id)
	}
	r.conv = append(r.conv, agentcheck.Message{Role: agentcheck.Tool, Content: text, ToolCallID: id, IsError: isErr})
	return nil
}

func hasCall(calls []agentcheck.ToolCall, id string) bool {
	for _, tc := range calls {
		if tc.ID == id {
			return true
		}
	}
	return false
}
