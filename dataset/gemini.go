package dataset

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentcheck/agentcheck"
	"github.com/agentcheck/agentcheck/jsonvalue"
)

// Gemini API contents.

// ParseGeminiContents reads Gemini API contents written as JSON, as the REST
// API and google.golang.org/genai write them (camelCase keys; the
// snake_case spellings are read too):
//
//   - a list of contents;
//   - a request: an object with "contents", whose "systemInstruction"
//     becomes a System message first;
//   - a response: an object with "candidates", whose first candidate's
//     content is read; or a list of responses, the chunks of a streamed
//     answer (a list is read as responses when an element has
//     "candidates").
//
// A content's role is "user" (the default), "model", or "function" or
// "tool" as older callers send tool results. Its text parts are joined
// with "\n" into a Human or AI message; thought parts and parts that are
// not text (images, files) are skipped. Consecutive model contents are one
// turn streamed in pieces (genai's Chat records each chunk as a content):
// they make one AI message, their texts joined as the chunks were, with
// nothing between them.
//
// A functionCall part is a function ToolCall of its model content's AI
// message; executableCode is a hosted call named "code_execution" and a
// server-side toolCall a hosted call named by its toolType in lower case
// ("google_search_web"). A call without an "id" is given
// "call_<content>_<part>". Results become Tool messages in place, before
// the text of the content that holds them: a functionResponse (Content:
// its "response" as compact JSON; IsError when that object has an "error"
// key), a codeExecutionResult (Content: its output; IsError when the
// outcome is not OUTCOME_OK) and a toolResponse (as a functionResponse). A
// result answers the call with its "id", or without one the earliest
// unanswered call of its name, and must follow the results of that turn or
// the model content that made the call.
//
// An error is an *agentcheck.MessageError whose message index is the
// content's in the list (for a response, the response's), naming the part
// and, for a call, its index among the content's calls and its name.
func ParseGeminiContents(data []byte) (agentcheck.Conversation, error) {
	v, err := jsonvalue.Parse(data)
	if err != nil {
		return nil, err
	}
	return geminiConversation(v)
}

// geminiConversation is ParseGeminiContents of the value v.
func geminiConversation(v jsonvalue.Value) (agentcheck.Conversation, error) {
	var err error
	r := geminiReader{conv: agentcheck.Conversation{}}
	switch v.Kind() {
	case jsonvalue.ObjectKind:
		if geminiIsResponse(v) {
			err = r.response(0, v)
			break
		}
		contents, ok := v.Get("contents")
		if !ok {
			return nil, errors.New(`want a list of contents, or an object with "contents" or "candidates"`)
		}
		if si, ok := geminiGet(v, "systemInstruction", "system_instruction"); ok {
			if err := r.system(si); err != nil {
				return nil, err
			}
		}
		if contents.Kind() != jsonvalue.ArrayKind {
			return nil, fmt.Errorf(`"contents" must be a list, got %s`, contents.Kind())
		}
		err = r.contents(contents)
	case jsonvalue.ArrayKind:
		if geminiResponses(v) {
			for i := 0; i < v.Len() && err == nil; i++ {
				err = r.response(i, v.Index(i))
			}
			break
		}
		err = r.contents(v)
	default:
		return nil, fmt.Errorf("want a list of contents, got %s", v.Kind())
	}
	if err != nil {
		return nil, err
	}
	return r.conv, r.conv.Validate()
}

// geminiResponses reports whether a list holds responses rather than
// contents.
func geminiResponses(v jsonvalue.Value) bool {
	for _, e := range v.Elements() {
		if geminiIsResponse(e.Value) {
			return true
		}
	}
	return false
}

// geminiIsResponse reports whether v is an object with a member that a
// response has and a content has not: a streamed answer's last chunk may
// hold usage only, and a blocked prompt's response has no candidates.
func geminiIsResponse(v jsonvalue.Value) bool {
	for _, k := range [...]string{"candidates", "promptFeedback", "prompt_feedback", "usageMetadata", "usage_metadata", "responseId", "response_id", "modelVersion", "model_version"} {
		if _, ok := v.Get(k); ok {
			return true
		}
	}
	return false
}

// geminiGet returns the member spelled camel, or else snake.
func geminiGet(v jsonvalue.Value, camel, snake string) (jsonvalue.Value, bool) {
	if x, ok := v.Get(camel); ok {
		return x, true
	}
	return v.Get(snake)
}

// geminiCall is a call made so far, for pairing results with calls.
type geminiCall struct {
	id, name string
	answered bool
}

// geminiReader builds the conversation content by content.
type geminiReader struct {
	conv  agentcheck.Conversation
	calls []geminiCall
	// modelTurn is whether the last content read was a model content;
	// aiOpen whether the last message is an AI message that model text and
	// calls still go to (a result closes it), and lastText the content
	// whose text it ended with (-1 for none).
	modelTurn, aiOpen bool
	lastText          int
}

func (r *geminiReader) system(si jsonvalue.Value) error {
	var text string
	switch si.Kind() {
	case jsonvalue.NullKind:
		return nil
	case jsonvalue.StringKind:
		text = si.Text()
	case jsonvalue.ObjectKind:
		parts, _ := si.Get("parts")
		if k := parts.Kind(); k != jsonvalue.ArrayKind && k != jsonvalue.NullKind {
			return fmt.Errorf(`"systemInstruction": "parts" must be a list, got %s`, k)
		}
		var texts []string
		for j := 0; j < parts.Len(); j++ {
			p := parts.Index(j)
			if p.Kind() != jsonvalue.ObjectKind {
				return fmt.Errorf(`"systemInstruction": part %d must be an object, got %s`, j, p.Kind())
			}
			t, err := geminiText(p)
			if err != nil {
				return fmt.Errorf(`"systemInstruction": part %d: %w`, j, err)
			}
			if t != "" {
				texts = append(texts, t)
			}
		}
		text = strings.Join(texts, "\n")
	default:
		return fmt.Errorf(`"systemInstruction" must be a content or a string, got %s`, si.Kind())
	}
	r.conv = append(r.conv, agentcheck.Message{Role: agentcheck.System, Content: text})
	return nil
}

func (r *geminiReader) contents(v jsonvalue.Value) error {
	for i := 0; i < v.Len(); i++ {
		if err := r.content(i, v.Index(i), "user"); err != nil {
			return err
		}
	}
	return nil
}

func (r *geminiReader) response(i int, v jsonvalue.Value) error {
	if v.Kind() != jsonvalue.ObjectKind {
		return &agentcheck.MessageError{Message: i, ToolCall: -1, Err: fmt.Errorf("a response must be an object, got %s", v.Kind())}
	}
	cands, _ := v.Get("candidates")
	switch cands.Kind() {
	case jsonvalue.NullKind: // a chunk with usage only, or a blocked prompt
		return nil
	case jsonvalue.ArrayKind:
	default:
		return &agentcheck.MessageError{Message: i, ToolCall: -1, Err: fmt.Errorf(`"candidates" must be a list, got %s`, cands.Kind())}
	}
	if cands.Len() == 0 {
		return nil
	}
	c, _ := cands.Index(0).Get("content")
	if c.Kind() == jsonvalue.NullKind { // stopped before any content (safety, recitation)
		return nil
	}
	return r.content(i, c, "model")
}

func geminiRole(role string) (agentcheck.Role, bool) {
	switch role {
	case "user":
		return agentcheck.Human, true
	case "model":
		return agentcheck.AI, true
	case "function", "tool":
		return agentcheck.Tool, true
	}
	return "", false
}

// content reads content i; role is the role it has when it gives none.
func (r *geminiReader) content(i int, v jsonvalue.Value, role string) error {
	fail := func(role agentcheck.Role, format string, args ...any) error {
		return &agentcheck.MessageError{Message: i, Role: role, ToolCall: -1, Err: fmt.Errorf(format, args...)}
	}
	if v.Kind() != jsonvalue.ObjectKind {
		return fail("", "a content must be an object, got %s", v.Kind())
	}
	if err := foreignCalls(Gemini, v); err != nil {
		return fail("", "%w", err)
	}
	switch rv, _ := v.Get("role"); rv.Kind() {
	case jsonvalue.NullKind:
	case jsonvalue.StringKind:
		if rv.Text() != "" {
			role = rv.Text()
		}
	default:
		return fail("", `"role" must be a string, got %s`, rv.Kind())
	}
	mrole, ok := geminiRole(role)
	if !ok {
		return fail("", "unknown role %q (want user or model)", role)
	}
	parts, _ := v.Get("parts")
	if k := parts.Kind(); k != jsonvalue.ArrayKind && k != jsonvalue.NullKind {
		return fail(mrole, `"parts" must be a list, got %s`, k)
	}
	model := mrole == agentcheck.AI
	if !model {
		r.modelTurn, r.aiOpen = false, false
	} else if !r.modelTurn {
		r.modelTurn = true
		r.openAI()
	}
	var texts []string // of a user content
	results := 0
	calls := 0
	for j := 0; j < parts.Len(); j++ {
		p := parts.Index(j)
		if p.Kind() != jsonvalue.ObjectKind {
			return fail(mrole, "part %d must be an object, got %s", j, p.Kind())
		}
		t, err := geminiText(p)
		if err != nil {
			return fail(mrole, "part %d: %w", j, err)
		}
		if t != "" {
			if model {
				r.addText(i, t)
			} else {
				texts = append(texts, t)
			}
		}
		for _, k := range geminiCallKeys {
			x, ok := geminiGet(p, k.camel, k.snake)
			if !ok {
				continue
			}
			tc, err := k.read(x)
			if err == nil && !model {
				err = fmt.Errorf("%s in a %s content: only model contents make calls", k.camel, role)
			}
			if err != nil {
				return &agentcheck.MessageError{Message: i, Role: mrole, ToolCall: calls, Name: tc.Name, Err: fmt.Errorf("part %d: %w", j, err)}
			}
			if tc.ID == "" {
				tc.ID = fmt.Sprintf("call_%d_%d", i, j)
			}
			r.addCall(tc)
			calls++
		}
		for _, k := range geminiResultKeys {
			x, ok := geminiGet(p, k.camel, k.snake)
			if !ok {
				continue
			}
			if err := r.addResult(k, x); err != nil {
				return fail(mrole, "part %d: %w", j, err)
			}
			results++
		}
	}
	if !model && (len(texts) > 0 || results == 0) {
		r.conv = append(r.conv, agentcheck.Message{Role: agentcheck.Human, Content: strings.Join(texts, "\n")})
	}
	return nil
}

// geminiText is a part's text: "" for a part without text or a thought.
func geminiText(p jsonvalue.Value) (string, error) {
	t, ok := p.Get("text")
	if !ok || t.Kind() == jsonvalue.NullKind {
		return "", nil
	}
	if t.Kind() != jsonvalue.StringKind {
		return "", fmt.Errorf(`"text" must be a string, got %s`, t.Kind())
	}
	if th, _ := p.Get("thought"); th.BoolValue() {
		return "", nil
	}
	return t.Text(), nil
}

func (r *geminiReader) openAI() {
	r.conv = append(r.conv, agentcheck.Message{Role: agentcheck.AI})
	r.aiOpen, r.lastText = true, -1
}

// addText adds text of content i to the open AI message: after text of the
// same content on a new line, after an earlier chunk's text directly.
func (r *geminiReader) addText(i int, t string) {
	if !r.aiOpen {
		r.openAI()
	}
	m := &r.conv[len(r.conv)-1]
	if m.Content != "" && r.lastText == i {
		m.Content += "\n"
	}
	m.Content += t
	r.lastText = i
}

func (r *geminiReader) addCall(tc agentcheck.ToolCall) {
	if !r.aiOpen {
		r.openAI()
	}
	m := &r.conv[len(r.conv)-1]
	m.ToolCalls = append(m.ToolCalls, tc)
	r.calls = append(r.calls, geminiCall{id: tc.ID, name: tc.Name})
}

// addResult reads a result part's value x and adds its Tool message.
func (r *geminiReader) addResult(k geminiResultKey, x jsonvalue.Value) error {
	if x.Kind() != jsonvalue.ObjectKind {
		return fmt.Errorf("%s must be an object, got %s", k.camel, x.Kind())
	}
	id, err := geminiString(x, "id", "id")
	if err != nil {
		return fmt.Errorf("%s: %w", k.camel, err)
	}
	m, name, err := k.read(x)
	if err != nil {
		return fmt.Errorf("%s: %w", k.camel, err)
	}
	if id == "" && name == "" {
		return fmt.Errorf(`%s has neither "id" nor "name" to pair it with its call`, k.camel)
	}
	if m.ToolCallID, err = r.answer(id, name); err != nil {
		return fmt.Errorf("%s %q %w", k.camel, name, err)
	}
	r.aiOpen = false
	if n := len(r.conv); n == 0 || r.conv[n-1].Role != agentcheck.Tool && (r.conv[n-1].Role != agentcheck.AI || r.conv[n-1].ToolCalls == nil) {
		return fmt.Errorf("%s %q must follow the model content that made the call, or other results", k.camel, name)
	}
	m.Role = agentcheck.Tool
	r.conv = append(r.conv, m)
	return nil
}

// answer pairs a result with its call: by id when it has one, else the
// earliest unanswered call of name. It returns the call's ID.
func (r *geminiReader) answer(id, name string) (string, error) {
	for n := range r.calls {
		c := &r.calls[n]
		if id != "" && c.id == id || id == "" && !c.answered && c.name == name {
			c.answered = true
			return c.id, nil
		}
	}
	if id != "" {
		return "", fmt.Errorf("answers call id %q, which no call made", id)
	}
	for _, c := range r.calls {
		if c.name == name {
			return "", errors.New("answers no call: every call of that name is answered already")
		}
	}
	return "", errors.New("answers no call: no call of that name was made")
}

// A call part: its key and how its value becomes a ToolCall (named when
// the name could be read, even with an error).
type geminiCallKey struct {
	camel, snake string
	read         func(jsonvalue.Value) (agentcheck.ToolCall, error)
}

var geminiCallKeys = []geminiCallKey{
	{"functionCall", "function_call", geminiFunctionCall},
	{"executableCode", "executable_code", geminiExecutableCode},
	{"toolCall", "tool_call", geminiToolCall},
}

// A result part: its key and how its value becomes a Tool message (without
// role and ToolCallID), with the name of the call it answers.
type geminiResultKey struct {
	camel, snake string
	read         func(jsonvalue.Value) (agentcheck.Message, string, error)
}

var geminiResultKeys = []geminiResultKey{
	{"functionResponse", "function_response", geminiFunctionResponse},
	{"codeExecutionResult", "code_execution_result", geminiCodeResult},
	{"toolResponse", "tool_response", geminiToolResponse},
}

func geminiFunctionCall(x jsonvalue.Value) (agentcheck.ToolCall, error) {
	if x.Kind() != jsonvalue.ObjectKind {
		return agentcheck.ToolCall{}, fmt.Errorf("functionCall must be an object, got %s", x.Kind())
	}
	name, err := geminiString(x, "name", "name")
	if err != nil || name == "" {
		return agentcheck.ToolCall{}, errors.New(`"functionCall.name" must be a non-empty string`)
	}
	tc := agentcheck.ToolCall{Name: name}
	if tc.ID, err = geminiString(x, "id", "id"); err != nil {
		return tc, fmt.Errorf("functionCall: %w", err)
	}
	args, _ := x.Get("args")
	tc.Args, err = geminiArgs(args)
	if err != nil {
		return tc, fmt.Errorf(`"functionCall.args" %w`, err)
	}
	return tc, nil
}

func geminiExecutableCode(x jsonvalue.Value) (agentcheck.ToolCall, error) {
	tc := agentcheck.ToolCall{Name: "code_execution", Kind: agentcheck.HostedTool}
	if x.Kind() != jsonvalue.ObjectKind {
		return tc, fmt.Errorf("executableCode must be an object, got %s", x.Kind())
	}
	var err error
	if tc.ID, err = geminiString(x, "id", "id"); err != nil {
		return tc, fmt.Errorf("executableCode: %w", err)
	}
	// The arguments are the code and its language, as written.
	var args []jsonvalue.Member
	for _, m := range x.Members() {
		if m.Key != "id" {
			args = append(args, m)
		}
	}
	tc.Args = jsonvalue.Object(args...)
	return tc, nil
}

func geminiToolCall(x jsonvalue.Value) (agentcheck.ToolCall, error) {
	tc := agentcheck.ToolCall{Kind: agentcheck.HostedTool}
	if x.Kind() != jsonvalue.ObjectKind {
		return tc, fmt.Errorf("toolCall must be an object, got %s", x.Kind())
	}
	typ, err := geminiString(x, "toolType", "tool_type")
	if err != nil || typ == "" {
		return tc, errors.New(`"toolCall.toolType" must be a non-empty string`)
	}
	tc.Name = strings.ToLower(typ)
	if tc.ID, err = geminiString(x, "id", "id"); err != nil {
		return tc, fmt.Errorf("toolCall: %w", err)
	}
	args, _ := x.Get("args")
	if tc.Args, err = geminiArgs(args); err != nil {
		return tc, fmt.Errorf(`"toolCall.args" %w`, err)
	}
	return tc, nil
}

// geminiArgs checks a call's arguments: an object, or none.
func geminiArgs(args jsonvalue.Value) (jsonvalue.Value, error) {
	switch args.Kind() {
	case jsonvalue.NullKind:
		return jsonvalue.Object(), nil
	case jsonvalue.ObjectKind:
		return args, nil
	}
	return jsonvalue.Value{}, fmt.Errorf("must be an object, got %s", args.Kind())
}

func geminiFunctionResponse(x jsonvalue.Value) (agentcheck.Message, string, error) {
	name, err := geminiString(x, "name", "name")
	if err != nil {
		return agentcheck.Message{}, "", err
	}
	m, err := geminiResponseObject(x)
	return m, name, err
}

func geminiToolResponse(x jsonvalue.Value) (agentcheck.Message, string, error) {
	typ, err := geminiString(x, "toolType", "tool_type")
	if err != nil {
		return agentcheck.Message{}, "", err
	}
	m, err := geminiResponseObject(x)
	return m, strings.ToLower(typ), err
}

// geminiResponseObject reads a result's "response": compact JSON, an
// error when it has an "error" key.
func geminiResponseObject(x jsonvalue.Value) (agentcheck.Message, error) {
	var m agentcheck.Message
	switch resp, _ := x.Get("response"); resp.Kind() {
	case jsonvalue.NullKind:
	case jsonvalue.ObjectKind:
		m.Content = resp.String()
		_, m.IsError = resp.Get("error")
	default:
		return m, fmt.Errorf(`"response" must be an object, got %s`, resp.Kind())
	}
	return m, nil
}

func geminiCodeResult(x jsonvalue.Value) (agentcheck.Message, string, error) {
	var m agentcheck.Message
	outcome, err := geminiString(x, "outcome", "outcome")
	if err != nil {
		return m, "", err
	}
	if m.Content, err = geminiString(x, "output", "output"); err != nil {
		return m, "", err
	}
	m.IsError = outcome != "OUTCOME_OK"
	return m, "code_execution", nil
}

// geminiString is the string member spelled camel or snake: "" when it is
// missing or null, an error when it is not a string.
func geminiString(v jsonvalue.Value, camel, snake string) (string, error) {
	x, _ := geminiGet(v, camel, snake)
	switch x.Kind() {
	case jsonvalue.NullKind:
		return "", nil
	case jsonvalue.StringKind:
		return x.Text(), nil
	}
	return "", fmt.Errorf("%q must be a string, got %s", camel, x.Kind())
}
