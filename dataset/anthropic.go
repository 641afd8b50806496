package dataset

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// Anthropic Messages API messages.

// ParseAnthropicMessages reads Anthropic Messages API messages written as
// JSON, as the API and github.com/anthropics/anthropic-sdk-go write them:
//
//   - a list of messages;
//   - a request body: an object with "messages", whose "system" (a string
//     or a list of text blocks) becomes a System message first;
//   - a response body: an object with "type": "message", which is one
//     assistant message.
//
// A message's role is user, assistant or system (Human, AI, System). Its
// content is a string or a list of content blocks, whose "text" blocks are
// joined with "\n", except that a text block with citations is joined to
// its neighbours directly (the API cuts one passage into blocks at the
// cited spans); thinking, redacted_thinking, image, document and other
// blocks that are not text are skipped.
//
// Calls are blocks of assistant messages, made in one AI message in order
// with the message's text: a "tool_use" (id, name and input, a JSON
// object) is a function ToolCall; a "server_tool_use" (web_search,
// web_fetch, code_execution... run by Anthropic) a hosted one; an
// "mcp_tool_use" (MCP connector: server_name, name, input) an MCP one.
//
// Results are Tool messages in place, ToolCallID the tool_use_id they
// answer: a "tool_result" in a user message (Content: its string content
// or the text of its blocks; IsError: its is_error), followed by a Human
// message with the rest of that message's text, if it has any; in an
// assistant message, an "mcp_tool_result" (as a tool_result) and a server
// tool's "*_tool_result" (web_search_tool_result, code_execution_tool_result
// and the like; Content: its content as compact JSON with its keys sorted,
// so that it reads the same as the API sent it and as the SDK sends it
// back, or its string; IsError when the content has an "error_code", or a
// non-zero "return_code"). A result ends the AI message before it: the text and
// calls after it make a new one. A result must answer a call of the kind
// its type names, made by the AI message it follows through other results,
// and answered by no other result.
//
// An error is an *agentcheck.MessageError whose message index is the
// message's in the list (0 for a response body), naming the content block
// and, for a call, its index among the message's calls and its name.
func ParseAnthropicMessages(data []byte) (agentcheck.Conversation, error) {
	v, err := jsonvalue.Parse(data)
	if err != nil {
		return nil, err
	}
	return anthropicConversation(v)
}

// anthropicConversation is ParseAnthropicMessages of the value v.
func anthropicConversation(v jsonvalue.Value) (agentcheck.Conversation, error) {
	var err error
	r := anthropicReader{conv: agentcheck.Conversation{}, calls: map[string]*anthropicCall{}}
	switch v.Kind() {
	case jsonvalue.ArrayKind:
		err = r.messages(v)
	case jsonvalue.ObjectKind:
		switch typ, _ := v.Get("type"); stringText(typ) {
		case "message": // a response body
			err = r.message(0, v)
		case "error":
			e, _ := v.Get("error")
			msg, _ := e.Get("message")
			return nil, fmt.Errorf("an error response, not messages: %s", truncate(stringText(msg), 200))
		default:
			msgs, ok := v.Get("messages")
			if !ok {
				return nil, errors.New(`want a list of messages, or an object with "messages" or "type": "message"`)
			}
			if sys, ok := v.Get("system"); ok {
				if err := r.system(sys); err != nil {
					return nil, err
				}
			}
			if msgs.Kind() != jsonvalue.ArrayKind {
				return nil, fmt.Errorf(`"messages" must be a list, got %s`, msgs.Kind())
			}
			err = r.messages(msgs)
		}
	default:
		return nil, fmt.Errorf("want a list of messages, got %s", v.Kind())
	}
	if err != nil {
		return nil, err
	}
	return r.conv, r.conv.Validate()
}

// anthropicCall is a call made so far, for pairing results with calls.
type anthropicCall struct {
	block    string // tool_use, server_tool_use or mcp_tool_use
	answered bool
}

// anthropicReader builds the conversation message by message.
type anthropicReader struct {
	conv  agentcheck.Conversation
	calls map[string]*anthropicCall
	// aiOpen is whether the last message is an AI message that the text and
	// calls of the assistant message being read still go to (a result
	// closes it), and cited whether its last text had citations.
	aiOpen, cited bool
}

// system reads a request's "system": a string or a list of text blocks.
func (r *anthropicReader) system(sys jsonvalue.Value) error {
	var text string
	switch sys.Kind() {
	case jsonvalue.NullKind:
		return nil
	case jsonvalue.StringKind:
		text = sys.Text()
	case jsonvalue.ArrayKind:
		var t anthropicText
		for j := 0; j < sys.Len(); j++ {
			b := sys.Index(j)
			if b.Kind() != jsonvalue.ObjectKind {
				return fmt.Errorf(`"system": block %d must be an object, got %s`, j, b.Kind())
			}
			s, cited, err := anthropicTextBlock(b)
			if err != nil {
				return fmt.Errorf(`"system": block %d: %w`, j, err)
			}
			t.add(s, cited)
		}
		text = t.b.String()
	default:
		return fmt.Errorf(`"system" must be a string or a list of text blocks, got %s`, sys.Kind())
	}
	if text != "" {
		r.conv = append(r.conv, agentcheck.Message{Role: agentcheck.System, Content: text})
	}
	return nil
}

func (r *anthropicReader) messages(v jsonvalue.Value) error {
	for i := 0; i < v.Len(); i++ {
		if err := r.message(i, v.Index(i)); err != nil {
			return err
		}
	}
	return nil
}

func anthropicRole(role string) (agentcheck.Role, bool) {
	switch role {
	case "user":
		return agentcheck.Human, true
	case "assistant":
		return agentcheck.AI, true
	case "system":
		return agentcheck.System, true
	}
	return "", false
}

// anthropicText joins text blocks: on new lines, or directly next to a
// block with citations.
type anthropicText struct {
	b     strings.Builder
	cited bool // whether the last block had citations
}

func (t *anthropicText) add(s string, cited bool) {
	if s == "" {
		return
	}
	if t.b.Len() > 0 && !t.cited && !cited {
		t.b.WriteByte('\n')
	}
	t.b.WriteString(s)
	t.cited = cited
}

// anthropicTextBlock reads a block of type text (any other type is no
// text): its text, and whether it has citations.
func anthropicTextBlock(b jsonvalue.Value) (string, bool, error) {
	typ, _ := b.Get("type")
	if stringText(typ) != "text" {
		return "", false, nil
	}
	t, _ := b.Get("text")
	if t.Kind() != jsonvalue.StringKind {
		return "", false, fmt.Errorf(`"text" must be a string, got %s`, t.Kind())
	}
	c, _ := b.Get("citations")
	return t.Text(), c.Kind() == jsonvalue.ArrayKind && c.Len() > 0, nil
}

// Call blocks and the kind of call each makes.
var anthropicCallKinds = map[string]agentcheck.ToolKind{
	"tool_use":        agentcheck.FunctionTool,
	"server_tool_use": agentcheck.HostedTool,
	"mcp_tool_use":    agentcheck.MCPTool,
}

// anthropicAnswers is the call block a result block answers.
func anthropicAnswers(typ string) string {
	switch typ {
	case "tool_result":
		return "tool_use"
	case "mcp_tool_result":
		return "mcp_tool_use"
	}
	return "server_tool_use"
}

func (r *anthropicReader) message(i int, v jsonvalue.Value) error {
	fail := func(role agentcheck.Role, format string, args ...any) error {
		return &agentcheck.MessageError{Message: i, Role: role, ToolCall: -1, Err: fmt.Errorf(format, args...)}
	}
	if v.Kind() != jsonvalue.ObjectKind {
		return fail("", "a message must be an object, got %s", v.Kind())
	}
	if err := foreignCalls(Anthropic, v); err != nil {
		return fail("", "%w", err)
	}
	rv, _ := v.Get("role")
	if rv.Kind() != jsonvalue.StringKind {
		return fail("", `"role" must be a string, got %s`, rv.Kind())
	}
	role, ok := anthropicRole(rv.Text())
	if !ok {
		return fail("", "unknown role %q (want user, assistant or system)", rv.Text())
	}
	r.aiOpen = false
	c, _ := v.Get("content")
	switch c.Kind() {
	case jsonvalue.NullKind, jsonvalue.ArrayKind:
	case jsonvalue.StringKind:
		r.conv = append(r.conv, agentcheck.Message{Role: role, Content: c.Text()})
		return nil
	default:
		return fail(role, `"content" must be a string or a list of content blocks, got %s`, c.Kind())
	}
	var text anthropicText // of a user or system message
	results, calls := 0, 0
	start := len(r.conv)
	for j := 0; j < c.Len(); j++ {
		b := c.Index(j)
		if b.Kind() != jsonvalue.ObjectKind {
			return fail(role, "content block %d must be an object, got %s", j, b.Kind())
		}
		tv, _ := b.Get("type")
		if tv.Kind() != jsonvalue.StringKind {
			return fail(role, `content block %d: "type" must be a string, got %s`, j, tv.Kind())
		}
		typ := tv.Text()
		kind, isCall := anthropicCallKinds[typ]
		switch {
		case typ == "text":
			s, cited, err := anthropicTextBlock(b)
			if err != nil {
				return fail(role, "content block %d: %w", j, err)
			}
			if role == agentcheck.AI {
				r.addText(s, cited)
			} else {
				text.add(s, cited)
			}
		case isCall:
			tc, err := anthropicToolCall(b, kind)
			if err == nil && role != agentcheck.AI {
				err = fmt.Errorf("%s in %s message: only assistant messages make calls", typ, anthropicA(rv.Text()))
			}
			if err == nil && r.calls[tc.ID] != nil {
				err = fmt.Errorf("%s id %q is the id of an earlier call", typ, tc.ID)
			}
			if err != nil {
				return &agentcheck.MessageError{Message: i, Role: role, ToolCall: calls, Name: tc.Name, Err: fmt.Errorf("content block %d: %w", j, err)}
			}
			r.addCall(typ, tc)
			calls++
		case typ == "tool_result" || strings.HasSuffix(typ, "_tool_result"):
			if err := r.addResult(typ, b, rv.Text()); err != nil {
				return fail(role, "content block %d: %w", j, err)
			}
			results++
		case typ == "thinking" && role == agentcheck.AI:
			// The model's reasoning: kept beside the content, not in it.
			t, _ := b.Get("thinking")
			if t.Kind() != jsonvalue.StringKind {
				return fail(role, `content block %d: "thinking" must be a string, got %s`, j, t.Kind())
			}
			if m := r.openAI(); t.Text() != "" {
				m.Reasoning = joinLines(m.Reasoning, t.Text())
			}
		}
		// Anything else (redacted thinking, images, documents...) is not
		// content.
	}
	switch {
	case role == agentcheck.AI && len(r.conv) == start:
		// An empty answer, or one of thinking only.
		r.conv = append(r.conv, agentcheck.Message{Role: agentcheck.AI})
	case role != agentcheck.AI && (text.b.Len() > 0 || results == 0):
		r.conv = append(r.conv, agentcheck.Message{Role: role, Content: text.b.String()})
	}
	r.aiOpen = false
	return nil
}

func (r *anthropicReader) openAI() *agentcheck.Message {
	if !r.aiOpen {
		r.conv = append(r.conv, agentcheck.Message{Role: agentcheck.AI})
		r.aiOpen, r.cited = true, false
	}
	return &r.conv[len(r.conv)-1]
}

func (r *anthropicReader) addText(s string, cited bool) {
	m := r.openAI()
	if s == "" {
		return
	}
	if m.Content != "" && !r.cited && !cited {
		m.Content += "\n"
	}
	m.Content += s
	r.cited = cited
}

func (r *anthropicReader) addCall(typ string, tc agentcheck.ToolCall) {
	m := r.openAI()
	m.ToolCalls = append(m.ToolCalls, tc)
	r.calls[tc.ID] = &anthropicCall{block: typ}
}

// anthropicToolCall reads a call block; the call is named when its name
// could be read, even with an error.
func anthropicToolCall(b jsonvalue.Value, kind agentcheck.ToolKind) (agentcheck.ToolCall, error) {
	tc := agentcheck.ToolCall{Kind: kind}
	name, _ := b.Get("name")
	if name.Kind() != jsonvalue.StringKind || name.Text() == "" {
		return tc, errors.New(`"name" must be a non-empty string`)
	}
	tc.Name = name.Text()
	id, _ := b.Get("id")
	if id.Kind() != jsonvalue.StringKind || id.Text() == "" {
		return tc, errors.New(`"id" must be a non-empty string`)
	}
	tc.ID = id.Text()
	switch input, _ := b.Get("input"); input.Kind() {
	case jsonvalue.NullKind:
		tc.Args = jsonvalue.Object()
	case jsonvalue.ObjectKind:
		tc.Args = input
	default:
		return tc, fmt.Errorf(`"input" must be a JSON object, got %s`, input.Kind())
	}
	return tc, nil
}

// addResult reads result block b, of type typ, in a message of role and
// adds its Tool message.
func (r *anthropicReader) addResult(typ string, b jsonvalue.Value, role string) error {
	if typ == "tool_result" && role != "user" {
		return fmt.Errorf("tool_result in %s message: tool results are sent in user messages", anthropicA(role))
	}
	if typ != "tool_result" && role != "assistant" {
		return fmt.Errorf("%s in %s message: only assistant messages hold the results of server and MCP tools", typ, anthropicA(role))
	}
	idv, _ := b.Get("tool_use_id")
	if idv.Kind() != jsonvalue.StringKind || idv.Text() == "" {
		return fmt.Errorf(`%s: "tool_use_id" must be a non-empty string`, typ)
	}
	id := idv.Text()
	want := anthropicAnswers(typ)
	call := r.calls[id]
	switch {
	case call == nil:
		return fmt.Errorf("%s answers tool_use_id %q, which no %s made", typ, id, want)
	case call.block != want:
		return fmt.Errorf("%s answers tool_use_id %q, which %s made, not %s", typ, id, anthropicA(call.block), anthropicA(want))
	case call.answered:
		return fmt.Errorf("%s answers tool_use_id %q, which an earlier result answered", typ, id)
	case !r.follows(id):
		return fmt.Errorf("%s for tool_use_id %q must follow the assistant message that made the call, or other results of its calls", typ, id)
	}
	var m agentcheck.Message
	if typ == "tool_result" || typ == "mcp_tool_result" {
		var err error
		if m, err = anthropicToolResult(b); err != nil {
			return fmt.Errorf("%s: %w", typ, err)
		}
	} else {
		m = anthropicServerResult(b)
	}
	call.answered = true
	m.Role, m.ToolCallID = agentcheck.Tool, id
	r.conv = append(r.conv, m)
	r.aiOpen = false
	return nil
}

// anthropicA is a role or block type with its article: "a user", "an
// assistant", "an mcp_tool_use".
func anthropicA(s string) string {
	if strings.HasPrefix(s, "a") || strings.HasPrefix(s, "mcp") {
		return "an " + s
	}
	return "a " + s
}

// follows reports whether a result for call id may come next: whether the
// conversation ends with the AI message that made the call, and perhaps
// results after it.
func (r *anthropicReader) follows(id string) bool {
	for k := len(r.conv) - 1; k >= 0; k-- {
		switch m := r.conv[k]; m.Role {
		case agentcheck.Tool:
			continue
		case agentcheck.AI:
			for _, tc := range m.ToolCalls {
				if tc.ID == id {
					return true
				}
			}
		}
		return false
	}
	return false
}

// anthropicToolResult reads a tool_result or mcp_tool_result: its content,
// a string or a list of blocks whose text is kept, and its is_error.
func anthropicToolResult(b jsonvalue.Value) (agentcheck.Message, error) {
	var m agentcheck.Message
	switch e, _ := b.Get("is_error"); e.Kind() {
	case jsonvalue.NullKind:
	case jsonvalue.BoolKind:
		m.IsError = e.BoolValue()
	default:
		return m, fmt.Errorf(`"is_error" must be a boolean, got %s`, e.Kind())
	}
	c, _ := b.Get("content")
	switch c.Kind() {
	case jsonvalue.NullKind:
	case jsonvalue.StringKind:
		m.Content = c.Text()
	case jsonvalue.ArrayKind:
		var t anthropicText
		for k := 0; k < c.Len(); k++ {
			part := c.Index(k)
			if part.Kind() != jsonvalue.ObjectKind {
				return m, fmt.Errorf("content block %d must be an object, got %s", k, part.Kind())
			}
			if typ, _ := part.Get("type"); stringText(typ) == "search_result" {
				// A search result's text is its content's text blocks.
				part, _ = part.Get("content")
				for n := 0; n < part.Len(); n++ {
					s, _, err := anthropicTextBlock(part.Index(n))
					if err != nil {
						return m, fmt.Errorf("content block %d: search result block %d: %w", k, n, err)
					}
					t.add(s, false)
				}
				continue
			}
			s, cited, err := anthropicTextBlock(part)
			if err != nil {
				return m, fmt.Errorf("content block %d: %w", k, err)
			}
			t.add(s, cited)
		}
		m.Content = t.b.String()
	default:
		return m, fmt.Errorf(`"content" must be a string or a list of content blocks, got %s`, c.Kind())
	}
	return m, nil
}

// anthropicServerResult reads the result of a server tool: its content as
// compact JSON with its keys sorted (a string as it is), an error when the
// content has an error_code or a non-zero return_code.
func anthropicServerResult(b jsonvalue.Value) agentcheck.Message {
	var m agentcheck.Message
	c, _ := b.Get("content")
	switch c.Kind() {
	case jsonvalue.NullKind:
	case jsonvalue.StringKind:
		m.Content = c.Text()
	default:
		m.Content = c.Canonical()
	}
	if _, ok := c.Get("error_code"); ok {
		m.IsError = true
	}
	if rc, ok := c.Get("return_code"); ok && (rc.Kind() == jsonvalue.IntKind || rc.Kind() == jsonvalue.FloatKind) && rc.Float() != 0 {
		m.IsError = true
	}
	return m
}

// joinLines joins two texts on a new line, either of them maybe empty.
func joinLines(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "\n" + b
}
